"""Non-referring expressions (expletives, predicates, …: a Universal Anaphora entity whose id ends
in ``-Pseudo``) scored as a layer of their own, as the Universal Anaphora scorer v1 does
(``coval/eval/evaluator.py`` ``evaluate_non_referrings``; ``coval/ua/reader.py`` keeps the first
markable of each non-referring entity, ``process_clusters``):

    K = the key's non-referring markables, S = the response's (one per entity: its first),
    TP = #{k ∈ K : span(k) ∈ spans(S)},  FP = #{s ∈ S : span(s) ∉ spans(K)},
    R = TP / |K|,  P = TP / (TP + FP).

They are never part of the coreference layer (:mod:`corefreport.io.ua` puts them in
``Document.layers["non_referring"]``, not in the chains), on either side.

>>> from corefreport.model import Chain, Document, Mention
>>> key = Document("d", layers={"non_referring": [Chain("1-Pseudo", [Mention(3, 3)]), Chain("2-Pseudo", [Mention(5, 6)])]})
>>> resp = Document("d", layers={"non_referring": [Chain("a-Pseudo", [Mention(3, 3)]), Chain("b-Pseudo", [Mention(8, 8)])]})
>>> nonref_counts(key, resp)
Counts(recall_num=1, recall_den=2, precision_num=1, precision_den=2)
"""

from __future__ import annotations

from ..model import Document
from .counts import Counts

LAYER = "non_referring"


def markables(doc: Document | None) -> list[tuple]:
    """The spans of a document's non-referring markables: the first mention of each entity."""
    if doc is None:
        return []
    return [c.mentions[0].ident for c in doc.layers.get(LAYER, ()) if c.mentions]


def nonref_counts(key: Document, response: Document | None, *_: object) -> Counts:
    """The statistics of one document (module docstring)."""
    k, s = markables(key), markables(response)
    ks, ss = set(k), set(s)
    tp = sum(1 for m in k if m in ss)
    fp = sum(1 for m in s if m not in ks)
    return Counts(tp, len(k), tp, tp + fp)
