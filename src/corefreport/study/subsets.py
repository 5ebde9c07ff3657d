"""Scores per subset of documents: per genre, per length bucket, per any grouping of document ids.

The rule: a group's score is micro over its documents — each metric's per-document counts summed
within the group, then R = Σ rn / Σ rd, P = Σ pn / Σ pd, F1 their harmonic mean (the reference
scorer's corpus rule, Pradhan et al. 2014, applied to the group; CoNLL = the mean of the group's
MUC, B³ and CEAF-e F1). The micro row is the corpus's own total (the groups partition the key's
documents, so it is also the sum of the groups). The macro row is the unweighted mean over the
groups of each group's recall, precision and F1 (CoNLL: of the groups' CoNLL). Only the metrics
scored per document are split (the standard ones, LEA, BLANC, MOR, the zero score).

Groupings (:func:`grouping`):

* ``genre`` — the genre the key file gives a document (CoNLL-U ``# meta::genre = news`` or
  ``# genre = nw``, a JSON line's ``"genre"``), else the document id's genre as CoNLL-2012 names it
  (``bc/cnn/00/cnn_0001`` → ``bc/cnn``; ``GUM_news_iodine`` → ``GUM_news``,
  :attr:`corefreport.model.Document.genre`);
* ``length`` or ``length:E1,E2,…`` — the key document's words in buckets with upper edges
  ``E1 < E2 < …`` (default :data:`LENGTH_EDGES`), the last bucket open;
* a mapping ``doc_id → group`` (a TSV the command line reads, ``--subsets FILE``); a document the
  mapping lacks goes to :data:`UNGROUPED`.

>>> from corefreport.scoring.counts import Counts
>>> from corefreport.scoring.result import DocumentResult
>>> docs = [DocumentResult("nw/a/1", {"muc": Counts(1, 2, 1, 1)}, Counts(), 10),
...         DocumentResult("nw/a/2", {"muc": Counts(1, 2, 1, 3)}, Counts(), 900),
...         DocumentResult("bc/b/1", {"muc": Counts(0, 1, 0, 1)}, Counts(), 30)]
>>> sub = subsets(docs, ("muc",), grouping("genre"))
>>> [(g.name, g.documents, g.metrics["muc"].recall, g.metrics["muc"].precision) for g in sub.groups]
[('bc/b', 1, 0.0, 0.0), ('nw/a', 2, 0.5, 0.5)]
>>> sub.macro("muc").recall, [g.name for g in subsets(docs, ("muc",), grouping("length")).groups]
(0.25, ['1–500', '501–1000'])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..errors import SettingsError
from ..model import Document
from ..scoring.metrics import conll_score
from ..scoring.result import DocumentResult

LENGTH_EDGES = (500, 1000, 2000, 4000)
"""Default upper edges (words) of the length buckets: ≤500, 501–1000, 1001–2000, 2001–4000, >4000."""
UNGROUPED = "(none)"
"""The group of a document a mapping does not name."""
DOCUMENT_GROUPINGS = ("genre", "length")
"""The groupings known by name (a ``length:EDGES`` too)."""
MICRO = "micro"
"""The row of every document (the corpus total), after the groups."""


def mean(values: Sequence[float | None]) -> float:
    """The unweighted mean; ``nan`` when empty or when a value is missing or undefined."""
    if not values or any(v is None or (isinstance(v, float) and math.isnan(v)) for v in values):
        return math.nan
    return math.fsum(values) / len(values)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class MacroScore:
    """Unweighted means of recall, precision and F1 over groups or datasets (``nan`` when one of
    them has none)."""

    recall: float
    precision: float
    f1: float

    @classmethod
    def of(cls, scores: Sequence) -> MacroScore:
        """The means of the scores' ``recall``, ``precision`` and ``f1``."""
        return cls(mean([s.recall for s in scores]), mean([s.precision for s in scores]),
                   mean([s.f1 for s in scores]))

    def as_dict(self) -> dict[str, float]:
        return {"recall": self.recall, "precision": self.precision, "f1": self.f1}


@dataclass(frozen=True, slots=True)
class Grouping:
    """A name (``genre``, ``length:…``, the TSV's) and the group of each document result; ``order``:
    the groups' order (``None``: alphabetical)."""

    name: str
    of: Callable[[DocumentResult], str]
    order: tuple[str, ...] | None = None


def _bucket_names(edges: tuple[int, ...]) -> tuple[str, ...]:
    lows = (0,) + edges
    return tuple(f"{lo + 1}–{hi}" for lo, hi in zip(lows, edges)) + (f">{edges[-1]}",)


def grouping(spec: str, mapping: Mapping[str, str] | None = None) -> Grouping:
    """The grouping ``spec`` names (see the module docstring); ``mapping`` (doc id → group) for
    any other name."""
    if mapping is not None:
        def named(d: DocumentResult) -> str:  # the id as read, else its name without "; part N" and brackets
            g = mapping.get(d.doc_id)
            return g if g is not None else mapping.get(d.doc_id.split(";")[0].strip().strip("()"), UNGROUPED)

        return Grouping(spec, named)
    if spec == "genre":
        return Grouping("genre", lambda d: d.genre or Document(d.doc_id).genre)
    name, _, edges_text = spec.partition(":")
    if name == "length":
        try:
            edges = tuple(int(x) for x in edges_text.split(",")) if edges_text else LENGTH_EDGES
        except ValueError:
            raise SettingsError(f"length buckets take upper edges in words, e.g. length:500,1000; got {spec!r}") \
                from None
        if not edges or any(e <= 0 for e in edges) or list(edges) != sorted(set(edges)):
            raise SettingsError(f"length bucket edges must be increasing positive word counts, got {spec!r}")
        names = _bucket_names(edges)

        def bucket(d: DocumentResult) -> str:
            return next((n for e, n in zip(edges, names) if d.tokens <= e), names[-1])

        return Grouping(spec, bucket, names)
    raise SettingsError(f"unknown document grouping {spec!r}: genre, length[:EDGES] or a TSV file of doc_id<TAB>group")


@dataclass(frozen=True, slots=True)
class GroupScores:
    """One group: its documents, their words and each metric's counts summed over them."""

    name: str
    documents: int
    tokens: int
    metrics: dict

    @property
    def conll(self) -> float | None:
        m = self.metrics
        return conll_score(m["muc"], m["bcub"], m["ceafe"]) if all(k in m for k in ("muc", "bcub", "ceafe")) else None


@dataclass(frozen=True, slots=True)
class Subsets:
    """The groups of one grouping, in order, and the metrics they hold."""

    by: str
    metrics: tuple[str, ...]
    groups: tuple[GroupScores, ...]
    micro: GroupScores
    """Every document together: the corpus total."""

    def macro(self, metric: str) -> MacroScore:
        """The mean over groups of ``metric``'s recall, precision and F1 (``conll``: F1 alone)."""
        if metric == "conll":
            return MacroScore(math.nan, math.nan, mean([g.conll for g in self.groups]))
        return MacroScore.of([g.metrics[metric] for g in self.groups])


def subsets(documents: Sequence[DocumentResult], metrics: Sequence[str], by: Grouping) -> Subsets:
    """Each group's counts: the documents' per-document counts of ``metrics`` summed within it
    (in document order, as the corpus totals are)."""
    sums: dict[str, dict] = {}
    sizes: dict[str, list[int]] = {}
    names = [m for m in metrics if all(m in d.metrics for d in documents)]
    for d in documents:
        g = by.of(d)
        total = sums.get(g)
        if total is None:
            sums[g] = dict((m, d.metrics[m]) for m in names)
            sizes[g] = [1, d.tokens]
        else:
            for m in names:
                total[m] = total[m] + d.metrics[m]
            sizes[g][0] += 1
            sizes[g][1] += d.tokens
    order = [g for g in by.order if g in sums] if by.order is not None else sorted(sums)
    total: dict = {}
    for d in documents:
        for m in names:
            total[m] = d.metrics[m] if m not in total else total[m] + d.metrics[m]
    return Subsets(by.name, tuple(names), tuple(GroupScores(g, sizes[g][0], sizes[g][1], sums[g]) for g in order),
                   GroupScores("micro", len(documents), sum(d.tokens for d in documents), total))
