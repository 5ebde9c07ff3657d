"""Discourse deixis scored as the Universal Anaphora scorer v1 does with ``evaluate_discourse_deixis``
(``coval/ua/reader.py`` reads the DISCOURSE_DEIXIS column — the 13th field — with the IDENTITY
column's rules; juntaoy/universal-anaphora-scorer, main, f4adb45): the chains of
``Document.layers["discourse_deixis"]`` (:mod:`corefreport.io.ua_layers`) are scored by the standard
metrics, each as its ``dd_`` twin (``dd_muc`` is MUC, … ``dd_blanc`` is v1's BLANC average,
:func:`~.metrics.blanc_corefud`), **singletons always kept** (v1 forces ``keep_singletons`` in this
mode, whatever else is asked) and repeated spans as in the coreference layer (the CODI-CRAC 2022
DD columns have none). v1 also forces split antecedents on here; corefreport does not score them yet
(``ElementOf`` in the DD column is ignored, with a warning from the reader: see
docs/universal-anaphora.md).

>>> from corefreport.model import Chain, Document, Mention
>>> key = Document("d", tokens=list("abcdefgh"), layers={"discourse_deixis": [Chain("1", [Mention(0, 3), Mention(5, 5)])]})
>>> resp = Document("d", tokens=list("abcdefgh"), layers={"discourse_deixis": [Chain("1", [Mention(0, 2), Mention(5, 5)])]})
>>> deixis_counts(("dd_muc", "dd_bcub"), key, resp)
{'dd_muc': Counts(recall_num=0, recall_den=1, precision_num=0, precision_den=1), 'dd_bcub': Counts(recall_num=0.5, recall_den=2, precision_num=0.5, precision_den=2)}
"""

from __future__ import annotations

from ..model import Document
from . import metrics as M
from .align import Alignment, align_document

LAYER = "discourse_deixis"
METRICS = {"dd_muc": M.muc, "dd_bcub": M.bcub, "dd_ceafm": M.ceafm, "dd_ceafe": M.ceafe, "dd_lea": M.lea,
           "dd_blanc": M.blanc_corefud}
"""Each DD score and the standard metric it is (BLANC: v1's average)."""


def layer_document(doc: Document) -> Document:
    """A document whose chains are ``doc``'s discourse-deixis chains (its words kept)."""
    return Document(doc.doc_id, tokens=doc.tokens, chains=list(doc.layers.get(LAYER, ())), source=doc.source)


def deixis_counts(names, key: Document, response: Document | None, key_duplicates: str = "keep") -> dict:
    """The statistics of the DD scores ``names`` of one document (module docstring)."""
    ad = align_document(layer_document(key), layer_document(response) if response is not None else None,
                        Alignment(), "keep", False, key_duplicates)
    ct = M.contingency(ad.key, ad.response)
    return {n: METRICS[n](ad.key, ad.response, ct) for n in names}
