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

from dataclasses import dataclass

from ..model import Document
from .counts import Counts

LAYER = "non_referring"


def markables(doc: Document | None) -> list[tuple]:
    """The spans of a document's non-referring markables: the first mention of each entity."""
    if doc is None:
        return []
    return [c.mentions[0].ident for c in doc.layers.get(LAYER, ()) if c.mentions]


NONREF_OUTCOMES = ("found", "missed", "spurious")


@dataclass(frozen=True, slots=True)
class NonrefOutcome:
    """One non-referring markable (``span``: its :attr:`Mention.ident`) of the key (``found`` when
    the response marks the span non-referring, else ``missed``) or of the response only
    (``spurious``); ``entity``: its ``-Pseudo`` entity's id on that side."""

    span: tuple
    outcome: str
    entity: str = ""


def nonref_outcomes(key: Document, response: Document | None) -> list[NonrefOutcome]:
    """The key's markables in order, then the response's spurious ones: the rows
    :func:`nonref_counts` counts.

    >>> from corefreport.model import Chain, Document, Mention
    >>> key = Document("d", layers={"non_referring": [Chain("1-Pseudo", [Mention(3, 3)]), Chain("2-Pseudo", [Mention(5, 6)])]})
    >>> resp = Document("d", layers={"non_referring": [Chain("b-Pseudo", [Mention(8, 8)]), Chain("a-Pseudo", [Mention(3, 3)])]})
    >>> [(o.span, o.outcome, o.entity) for o in nonref_outcomes(key, resp)]
    [((3, 3), 'found', '1-Pseudo'), ((5, 6), 'missed', '2-Pseudo'), ((8, 8), 'spurious', 'b-Pseudo')]
    """
    def firsts(doc: Document | None) -> list[tuple[tuple, str]]:
        if doc is None:
            return []
        return [(c.mentions[0].ident, c.label) for c in doc.layers.get(LAYER, ()) if c.mentions]

    k, s = firsts(key), firsts(response)
    ks, ss = {m for m, _ in k}, {m for m, _ in s}
    return ([NonrefOutcome(m, "found" if m in ss else "missed", e) for m, e in k]
            + [NonrefOutcome(m, "spurious", e) for m, e in s if m not in ks])


def nonref_counts(key: Document, response: Document | None, *_: object) -> Counts:
    """The statistics of one document (module docstring): :func:`nonref_outcomes` counted."""
    rows = nonref_outcomes(key, response)
    tp = sum(1 for r in rows if r.outcome == "found")
    fp = sum(1 for r in rows if r.outcome == "spurious")
    return Counts(tp, tp + sum(1 for r in rows if r.outcome == "missed"), tp, tp + fp)
