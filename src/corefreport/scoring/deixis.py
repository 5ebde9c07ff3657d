"""Discourse deixis scored as the Universal Anaphora scorer v1 does with ``evaluate_discourse_deixis``
(``coval/ua/reader.py`` reads the DISCOURSE_DEIXIS column — the 13th field — with the IDENTITY
column's rules; juntaoy/universal-anaphora-scorer, main, f4adb45): the chains of
``Document.layers["discourse_deixis"]`` (:mod:`corefreport.io.ua_layers`) are scored by the standard
metrics, each as its ``dd_`` twin (``dd_muc`` is MUC, … ``dd_blanc`` is v1's BLANC average,
:func:`~.metrics.blanc_corefud`), **singletons always kept** (v1 forces ``keep_singletons`` in this
mode, whatever else is asked) and **split antecedents always kept** (v1 forces
``keep_split_antecedent`` too): the DD chains go through :mod:`.split` exactly as the coreference
chains do under ``--split-antecedents keep`` — a DD plural entity (its members' ``ElementOf`` in the
DD column) gains its pseudo-mention, chains become sets (a span written twice counts once), and the
pseudo-mentions are aligned by Kuhn–Munkres per document and metric. ``--split-antecedents`` does
not change this layer (v1's discourse-deixis mode ignores ``remove_split_antecedent``).

>>> from corefreport.model import Chain, Document, Mention
>>> def dd(*chains):
...     return Document("d", tokens=list("abcdefgh"), layers={"discourse_deixis": [
...         Chain(l, [Mention(s, e, l, features=dict(f)) for s, e, f in ms]) for l, ms in chains]})
>>> key = dd(("1", [(0, 3, {}), (5, 5, {})]))
>>> deixis_counts(("dd_muc", "dd_bcub"), key, dd(("1", [(0, 2, {}), (5, 5, {})])))
{'dd_muc': Counts(recall_num=0.0, recall_den=1.0, precision_num=0.0, precision_den=1.0), 'dd_bcub': Counts(recall_num=0.5, recall_den=2.0, precision_num=0.5, precision_den=2.0)}

A plural DD entity ``3`` = {``1``, ``2``} with one mention of its own; the response gives ``3`` only
``1``: ⟨1⟩ aligned with ⟨1 2⟩ counts R = 1/2 (B³ of the members), P = 1.

>>> key = dd(("1", [(0, 1, {"ElementOf": "3"})]), ("2", [(2, 3, {"ElementOf": "3"})]), ("3", [(7, 7, {})]))
>>> resp = dd(("1", [(0, 1, {"ElementOf": "3"})]), ("2", [(2, 3, {})]), ("3", [(7, 7, {})]))
>>> deixis_counts(("dd_bcub",), key, resp)  # recall: 1 + 1 + (1 + 1/2)²/2 of 4
{'dd_bcub': Counts(recall_num=3.125, recall_den=4.0, precision_num=4.0, precision_den=4.0)}
"""

from __future__ import annotations

from ..model import Document
from .split import split_counts

LAYER = "discourse_deixis"
METRICS = {"dd_muc": "muc", "dd_bcub": "bcub", "dd_ceafm": "ceafm", "dd_ceafe": "ceafe", "dd_lea": "lea",
           "dd_blanc": "blanc_crac"}
"""Each DD score and the metric of :mod:`.split` it is (BLANC: v1's average)."""


def layer_document(doc: Document) -> Document:
    """A document whose chains are ``doc``'s discourse-deixis chains (its words kept)."""
    return Document(doc.doc_id, tokens=doc.tokens, chains=list(doc.layers.get(LAYER, ())), source=doc.source)


def deixis_counts(names, key: Document, response: Document | None) -> dict:
    """The statistics of the DD scores ``names`` of one document (module docstring)."""
    k = layer_document(key)
    r = layer_document(response) if response is not None else None
    return {n: split_counts(METRICS[n], k, r, "keep") for n in names}
