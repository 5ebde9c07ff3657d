"""The outcome rows of an evaluation as the views ask for them, whether the run kept them
(:class:`RowList`) or only their digest (:class:`RowDigest`, what the report needs: a run that
keeps no row stays flat in memory). Both answer the same questions —
:meth:`~RowList.analyses`, :meth:`~RowList.per_document`, :meth:`~RowList.per_document_class`,
:meth:`~RowList.groups`, :meth:`~RowList.rows_of` — so no view asks which it holds
(:attr:`~corefreport.scoring.result.Evaluation.outcomes`).

Three group-bys over the rows (:func:`~.outcomes.group_by`), each exact when added up share by share:

* ``sizes`` — rows per (analysis, outcome, class, type): ``len`` of each error group, what the error
  examples rank groups by;
* ``first`` — the first ``keep`` rows of each error group in (document, start, end) order: the
  candidates the error examples choose from (the first ``keep`` of all shares are among the first
  ``keep`` of each);
* ``documents`` — outcome counts per (analysis, document, class) — ``group_by(rows, "analysis",
  "doc_id", "cls")``: the per-document statistics the bootstrap intervals resample.

Credits add exactly (:func:`~.outcomes.add_counts`), so the digest of all rows equals the sum of the
shares' digests (tested).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from heapq import nsmallest
from operator import attrgetter

from .outcomes import LinkOutcome, OutcomeCounts, add_counts, group_by

GroupKey = tuple[str, str, str, str]
"""(analysis, outcome, class, type) of a group of outcome rows."""

ORDER = attrgetter("doc_id", "start", "end")
"""The order the candidates are kept in (and the error examples read them in)."""


def partition(rows: list[LinkOutcome]) -> dict[GroupKey, list[LinkOutcome]]:
    """The rows of each (analysis, outcome, class, type), in row order — in one pass, the filter
    of every group at once; a group's size is its count in
    ``group_by(rows, "analysis", "outcome", "cls", "type")`` (``key_total + fp``: every row once)."""
    parts: defaultdict[GroupKey, list[LinkOutcome]] = defaultdict(list)
    fields = attrgetter("analysis", "outcome", "cls", "type")
    for r in rows:
        parts[fields(r)].append(r)
    return parts


@dataclass
class RowDigest:
    """Group sizes, the first rows of each error group and per-document counts (module docstring)."""

    keep: int
    sizes: dict[GroupKey, int] = field(default_factory=dict)
    first: dict[GroupKey, list[LinkOutcome]] = field(default_factory=dict)
    documents: dict[tuple[str, str, str], OutcomeCounts] = field(default_factory=dict)

    @classmethod
    def of(cls, rows: list[LinkOutcome], keep: int) -> RowDigest:
        """The digest of ``rows``, keeping ``keep`` rows of each error group (TP is not an error)."""
        parts = partition(rows)
        return cls(keep, {k: len(v) for k, v in parts.items()},
                   {k: nsmallest(keep, v, key=ORDER) for k, v in parts.items() if k[1] != "TP"},
                   group_by(rows, "analysis", "doc_id", "cls"))

    def __add__(self, other: RowDigest) -> RowDigest:
        """The digest of both sets of rows, ``self``'s first."""
        if other.keep != self.keep:
            raise ValueError("digests kept different numbers of rows")
        sizes = dict(self.sizes)
        for k, n in other.sizes.items():
            sizes[k] = sizes.get(k, 0) + n
        first = {k: nsmallest(self.keep, self.first.get(k, []) + other.first.get(k, []), key=ORDER)
                 for k in self.first.keys() | other.first.keys()}
        documents = dict(self.documents)
        for k, c in other.documents.items():
            documents[k] = add_counts(documents[k], c) if k in documents else c
        return RowDigest(self.keep, sizes, first, dict(sorted(documents.items())))

    def analyses(self) -> list[str]:
        """The analyses that have rows."""
        return list(dict.fromkeys(k[0] for k in self.sizes))

    def groups(self, keep: int) -> tuple[dict[GroupKey, int], dict[GroupKey, list[LinkOutcome]]]:
        """Rows per (analysis, outcome, class, type), and the first ``keep`` rows of each error group."""
        if self.keep < keep:
            raise ValueError(f"the evaluation kept {self.keep} rows per error group; {keep} are asked for")
        return self.sizes, self.first

    def rows_of(self, analysis: str) -> list[LinkOutcome]:
        raise ValueError("the evaluation kept only a digest of its outcome rows: a grouping or a comparison "
                         "of links needs the rows (score it with rows kept)")

    def per_document(self, analysis: str, classes: set[str] | None = None) -> dict[str, OutcomeCounts]:
        """Outcome counts of one analysis per document (of the rows of ``classes`` only, when given)
        — ``group_by(rows of the analysis, "doc_id")``."""
        out: dict[str, OutcomeCounts] = {}
        for (a, doc, c), counts in self.documents.items():
            if a == analysis and (classes is None or c in classes):
                out[doc] = add_counts(out[doc], counts) if doc in out else counts
        return out

    def per_document_class(self, analysis: str) -> dict[tuple[str, str], OutcomeCounts]:
        """Outcome counts of one analysis per (document, class) — ``group_by(rows, "doc_id", "cls")``."""
        return {(doc, c): counts for (a, doc, c), counts in self.documents.items() if a == analysis}


class RowList:
    """The outcome rows kept whole: the same questions as :class:`RowDigest` asks its digest,
    answered by group-bys over the rows."""

    def __init__(self, rows: list[LinkOutcome]) -> None:
        self.rows = rows

    def analyses(self) -> list[str]:
        return list(dict.fromkeys(r.analysis for r in self.rows))

    def rows_of(self, analysis: str) -> list[LinkOutcome]:
        return [r for r in self.rows if r.analysis == analysis]

    def per_document(self, analysis: str, classes: set[str] | None = None) -> dict[str, OutcomeCounts]:
        rows = self.rows_of(analysis)
        return group_by([r for r in rows if r.cls in classes] if classes is not None else rows, "doc_id")

    def per_document_class(self, analysis: str) -> dict[tuple[str, str], OutcomeCounts]:
        return group_by(self.rows_of(analysis), "doc_id", "cls")

    def groups(self, keep: int) -> tuple[dict[GroupKey, int], dict[GroupKey, list[LinkOutcome]]]:
        parts = partition(self.rows)
        return {k: len(v) for k, v in parts.items()}, parts
