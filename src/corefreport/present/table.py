"""The neutral table every view renders: a title, header keys, rows of values (numbers stay
numbers: fractions for scores) and a note (:mod:`.tables` builds them)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Table:
    """Header, rows of cells (str or number) and a caption; numbers are fractions unless ``percent``."""

    title: str
    header: list[str]
    rows: list[list] = field(default_factory=list)
    note: str = ""
    groups: list[tuple[str, int]] = field(default_factory=list)
    """Column groups over ``header[1:]``, left to right: (label, number of columns); "" for none."""
    labels: list[str] | None = None
    """Display labels parallel to ``header`` (the report's R / P / F1 under a group label)."""
    breaks: list[int] = field(default_factory=list)
    """Row indices before which a rule is drawn (between classes, before a total)."""
    best: str = ""
    """"column": the best score of each score column is bold (rows are systems)."""
    keys: int = 1
    """How many leading columns name a row (``Metric`` and ``stratum``): the text view writes them
    as one first column (``MUC · 2–10``), which a table cut into parts to fit repeats in each."""



def grouped_labels(labels, groups) -> list[str]:
    """``labels`` (parallel to a header) each prefixed by its column group's label (``MUC R``):
    ``groups`` are (label, number of columns) over ``labels[1:]``, left to right.

    >>> grouped_labels(["Metric", "R", "P", "R"], [("MUC", 2), ("B3", 1)])
    ['Metric', 'MUC R', 'MUC P', 'B3 R']
    """
    tops = [""]
    for g, n in groups:
        tops += [g] * n
    return [f"{tops[i]} {x}".strip() if i < len(tops) else x for i, x in enumerate(labels)]
