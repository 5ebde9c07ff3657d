"""CRAC 2026's empty-node score, as ``crac2026_empty_nodes_eval.py`` computes it
(ufal/crac2026_empty_nodes_baseline, commit bc167f2, 2026-02-03; Straka 2026).

Each empty node (a CoNLL-U line whose ID is ``W.K``) is a tuple: its **sentence**, its **head** and
**deprel** — the first entry of its DEPS column, ``head:deprel`` (``3:nsubj|7:obj`` → ``3``,
``nsubj``; a deprel keeps its subtypes, ``12:conj:and`` → ``conj:and``) — its **word order** ``W``
(the ID before the dot) and its FORM, LEMMA, UPOS, XPOS and FEATS as written. Ten rows, each a
**multiset** comparison of the system's and the gold's tuples keyed by (sentence, head) and one or
more attributes:

=========  =========================================================
row        the tuple
=========  =========================================================
ARC        (sentence, head)
DEP        (sentence, head, deprel)
WO         (sentence, head, word order)
DEP_WO     (sentence, head, deprel, word order)
FORM …     (sentence, head, FORM), … LEMMA, UPOS, XPOS, FEATS
ALL        (sentence, head, deprel, word order, FORM, LEMMA, UPOS, XPOS, FEATS)
=========  =========================================================

With S and G the multisets of the system's and the gold's tuples, TP = |S ∩ G| (the multiset
intersection: min of the counts), P = TP / |S|, R = TP / |G|, F1 = 2·TP / (|S| + |G|) (= 2PR/(P+R)),
each 0 when its denominator is 0. The statistics are per document ``Counts(TP, |G|, TP, |S|)`` and
the corpus score their sum: the script numbers sentences over the whole file, so no tuple of one
document can meet one of another, and the sum over documents is its count over the file.

What differs from the script, and why (docs/matching.md, "Not reproduced"):

* **Sentences are a document's, paired by document id.** The script counts blank lines: an extra
  blank line in one file shifts every later sentence of that file (its ARC falls from 73.68 to
  5.26 on ``tests/data/crac2026_empty``), and documents in another order are compared with the
  wrong ones. Here the reader's sentences are compared document by document; when two paired
  documents' sentences do not line up (another number of sentences, or of words in one), the
  score refuses them with an :class:`~corefreport.errors.InputError` naming the first sentence
  that differs.
* **Where the script stops, this scores.** A DEPS of ``_`` (no ``head:deprel`` entry: corefud-
  scorer's own zero test files) has head ``_`` and deprel ``""``; a first head that is itself an
  empty node (``9.2:det``, in GUM's gold) is kept as written (``9.2``). The script raises
  ``ValueError`` on both. A decimal head is read as the script's ``int`` reads it (``07`` = ``7``).

>>> from corefreport.model import Chain, Document, Mention
>>> def doc(*nodes):
...     return Document("d", tokens=["w"] * 9, sentence_starts=[0, 5], layers={"empty_nodes": [
...         Chain(i, [Mention(0, 0, i, 0, {"sentence": s, "form": f, "lemma": "_", "upos": "PRON", "xpos": "_",
...                                         "feats": "_", "deps": d})]) for i, s, f, d in nodes]})
>>> key = doc(("1.1", "0", "he", "1:nsubj"), ("3.1", "0", "it", "3:obj"), ("2.1", "1", "_", "2:nsubj"))
>>> resp = doc(("2.1", "0", "he", "1:nsubj"), ("3.1", "0", "it", "3:nsubj"), ("2.1", "1", "_", "4:nsubj"))
>>> c = empty_node_counts(METRICS, key, resp, None)
>>> c["empty_nodes_arc"], c["empty_nodes_dep"].recall_num, c["empty_nodes_wo"].recall_num, c["empty_nodes_all"].recall_num
(Counts(recall_num=2, recall_den=3, precision_num=2, precision_den=3), 1, 1, 0)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..errors import InputError
from ..model import Document
from .counts import Counts

LAYER = "empty_nodes"
"""Where the reader keeps a document's empty nodes (``Document.layers``; :mod:`corefreport.io.conllu`)."""

ROWS: dict[str, tuple[str, ...]] = {
    "arc": (),
    "dep": ("deprel",),
    "wo": ("word",),
    "dep_wo": ("deprel", "word"),
    "form": ("form",),
    "lemma": ("lemma",),
    "upos": ("upos",),
    "xpos": ("xpos",),
    "feats": ("feats",),
    "all": ("deprel", "word", "form", "lemma", "upos", "xpos", "feats"),
}
"""The script's ten rows, in its printing order: the attributes compared besides (sentence, head)."""

METRICS = tuple(f"empty_nodes_{row}" for row in ROWS)
"""The ten scores (``-m empty_nodes``), ``empty_nodes_arc`` … ``empty_nodes_all``."""

NAMES = {f"empty_nodes_{row}": row.upper() for row in ROWS}
"""Each score's name in the script's output (``ARC``, ``DEP_WO`` …)."""


@dataclass(frozen=True, slots=True)
class EmptyNode:
    """One empty node as the score reads it (see the module docstring)."""

    sentence: int
    head: str
    deprel: str
    word: int
    form: str
    lemma: str
    upos: str
    xpos: str
    feats: str
    line: int = 0

    def key(self, attributes: tuple[str, ...]) -> tuple:
        """(sentence, head, *attributes)."""
        return (self.sentence, self.head, *(getattr(self, a) for a in attributes))


def first_deps(deps: str) -> tuple[str, str]:
    """(head, deprel) of the first entry of a DEPS cell, as the script splits it (first at ``|``,
    then at the first ``:``); a decimal head as ``int`` reads it, any other head as written.

    >>> first_deps("12:conj:and|16:obl"), first_deps("07:obj"), first_deps("9.2:det"), first_deps("_")
    (('12', 'conj:and'), ('7', 'obj'), ('9.2', 'det'), ('_', ''))
    """
    head, _, deprel = deps.split("|", 1)[0].partition(":")
    if head.isascii() and head.isdigit():
        head = str(int(head))
    return head, deprel


def empty_nodes(doc: Document | None) -> list[EmptyNode]:
    """The empty nodes of a document as read (none for a missing document)."""
    if doc is None:
        return []
    out = []
    for c in doc.layers.get(LAYER, ()):
        m = c.mentions[0]
        f = m.features
        head, deprel = first_deps(f["deps"])
        out.append(EmptyNode(int(f["sentence"]), head, deprel, int(c.label.partition(".")[0]), f["form"], f["lemma"],
                             f["upos"], f["xpos"], f["feats"], m.line))
    return out


def check_sentences(key: Document, response: Document) -> None:
    """Refuse two documents whose sentences do not line up (the empty nodes' keys would compare
    different sentences): an :class:`InputError` naming the first sentence that differs."""
    ks, rs = key.sentence_starts, response.sentence_starts
    if ks == rs and len(key.tokens) == len(response.tokens):
        return
    j = next((i for i, (a, b) in enumerate(zip(ks, rs)) if a != b), min(len(ks), len(rs)))
    k = max(0, j - 1)  # sentences 0..j-1 start alike: the one before the first other start ends otherwise

    def said(doc: Document) -> str:
        if k >= len(doc.sentence_starts):
            return f"has only {len(doc.sentence_starts)} sentence(s)"
        first, last = doc.sentence_bounds(k)
        words = doc.tokens[first:min(last + 1, first + 4)]
        return f"is {' '.join(words)!r}{' …' if last - first >= 4 else ''} ({last - first + 1} words)"

    raise InputError(response.source, None, f"document {key.doc_id!r}: sentence {k + 1} {said(key)} in the key "
                     f"({key.source}) but {said(response)} in the response: the sentences do not line up, so the "
                     "empty nodes, keyed by (sentence, head), cannot be compared (crac2026_empty_nodes_eval.py would "
                     "compare every later sentence with another one)")


def empty_node_counts(names, key: Document, response: Document | None, settings) -> dict[str, Counts]:
    """The statistics ``Counts(TP, |G|, TP, |S|)`` of the scores among ``names`` of one document
    pair (the documents as read; ``response`` ``None``: a document the response lacks)."""
    gold, system = empty_nodes(key), empty_nodes(response)
    if response is not None and (gold or system):
        check_sentences(key, response)
    out: dict[str, Counts] = {}
    for name in names:
        attributes = ROWS[name[len("empty_nodes_"):]]
        g = Counter(n.key(attributes) for n in gold)
        s = Counter(n.key(attributes) for n in system)
        tp = sum((g & s).values())
        out[name] = Counts(tp, len(gold), tp, len(system))
    return out


def has_empty_nodes(doc: Document) -> bool:
    """Whether a document as read has an empty node."""
    return bool(doc.layers.get(LAYER))
