"""The TUI's level above the totals: pure functions from many datasets (or groups of documents) to
the page listing them.

``corefreport tui --datasets MANIFEST`` (or ``KEYDIR RESPONSEDIR``) and ``corefreport tui KEY
RESPONSE --subsets genre`` open on a :class:`Level`: one row per dataset (or group) with its scores,
then the macro row (``avg`` for datasets; ``micro`` and ``macro`` for groups). Enter on a row opens
that dataset's (group's, or on ``micro`` the whole corpus's) usual browser — totals → classes → … —
and Escape on its totals comes back.

Nothing here computes a score: the rows are the neutral tables of :mod:`corefreport.present`
(:func:`~corefreport.present.datasets.datasets_table`, the CRAC ranking under ``--preset crac``;
:func:`~corefreport.present.subsets.subsets_table`), whose numbers and means come from
:class:`~corefreport.study.datasets.DatasetsEvaluation` and
:class:`~corefreport.study.subsets.Subsets`; each browser's :class:`Evaluation` comes scored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from ..present.datasets import AVERAGE, datasets_table
from ..present.inert import inert
from ..present.numbers import NA, cell, is_score_column
from ..present.subsets import subsets_table
from ..present.table import Table
from ..scoring.result import Evaluation
from .model import View

from ..study.subsets import MICRO  # noqa: E402 (the groups' row of every document: Enter opens the whole corpus's browser)
HEADLINE = ("conll", "conll_f1")
"""The column shown right after the counts: the headline score (CoNLL F1)."""


@dataclass(frozen=True)
class Level:
    """What the first page lists: ``kind`` "datasets" or "groups"; ``by`` what a row is (``dataset``,
    or the grouping's name: ``genre``, ``length:…``, a TSV's stem); ``scores`` the
    :class:`~corefreport.study.datasets.DatasetsEvaluation` (the datasets scored so far) or the
    :class:`~corefreport.study.subsets.Subsets`; ``evaluations`` what Enter opens, by row name (as
    each comes); ``names`` every row to come, in order (a dataset not scored yet is listed waiting);
    ``final`` when nothing more comes."""

    kind: str
    by: str
    scores: Any
    evaluations: Mapping[str, Evaluation] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    final: bool = False

    def table(self) -> Table:
        """The neutral table of the rows (the same as ``score --datasets`` / ``--subsets`` prints)."""
        return datasets_table(self.scores) if self.kind == "datasets" else subsets_table(self.scores)

    @property
    def signature(self) -> str:
        if self.kind == "datasets":
            return str(self.scores.signature)
        ev = self.evaluations.get(MICRO)
        return str(ev.signature) if ev is not None else ""


@dataclass(frozen=True, slots=True)
class LevelRow:
    """One row: its name, its values in the table's column order (``None`` each while it waits),
    whether it is a mean over the rows above (``avg``, ``micro``, ``macro``) and whether Enter opens it."""

    name: str
    values: tuple
    total: bool
    opens: bool


def _order(header: list[str]) -> list[int]:
    """The table's columns with the headline score right after the name and counts."""
    head = [j for j, h in enumerate(header) if h in HEADLINE]
    rest = [j for j in range(1, len(header)) if j not in head]
    counts = [j for j in rest if not is_score_column(header[j])]
    return [0, *counts, *head, *(j for j in rest if j not in counts)]


def level_of(node) -> Level:
    """The page of a study's :class:`~corefreport.study.nodes.Datasets` (its first system's datasets,
    each dataset's browser the first variant's evaluation) or
    :class:`~corefreport.study.nodes.Groups` (each group's own evaluation, ``micro`` the corpus's)."""
    from ..study.nodes import Datasets

    if isinstance(node, Level):
        return node
    if isinstance(node, Datasets):
        name = next(iter(node.systems))
        evaluations = {d: evs[name] for d, evs in node.evaluations.items()}
        return Level("datasets", "dataset", node.baseline, evaluations, node.names, final=node.final)
    return Level("groups", node.subsets.by, node.subsets, dict(node.evaluations), node.names, final=node.final)


def level_rows(level: Level) -> tuple[list[str], list[str], list[LevelRow]]:
    """(header keys, labels, rows) of the level's page: the table's rows, then the rows still to
    come (datasets being scored) before the means."""
    t = level.table()
    order = _order(t.header)
    header = [t.header[j] for j in order]
    labels = [(t.labels or t.header)[j] for j in order]
    first_total = t.breaks[0] if t.breaks else len(t.rows)
    rows = []
    for i, r in enumerate(t.rows):
        name = str(r[0])
        rows.append(LevelRow(name, tuple(r[j] if j < len(r) else None for j in order[1:]), i >= first_total,
                             name in level.evaluations))
    done = {r.name for r in rows}
    waiting = [LevelRow(n, (None,) * (len(order) - 1), False, False) for n in level.names if n not in done]
    return header, labels, rows[:first_total] + waiting + rows[first_total:]


def level_view(level: Level, width: int = 80) -> View:
    """The page: one row per dataset or group (``›`` marks what Enter opens), the means last (bold);
    the note says what the rows are, how many are ready, and the signature."""
    header, labels, rows = level_rows(level)
    numeric = frozenset(j for j in range(1, len(header)))

    def fmt(v: Any, column: str) -> str:
        return NA if v is None and is_score_column(column) else cell(v, column)

    def cells(r: LevelRow, full: bool) -> tuple:
        waiting = r.name in level.names and r.name not in level.evaluations and not r.total
        label = inert(r.name) + (" ›" if r.opens and not full else "")
        if waiting and not any(v is not None for v in r.values):
            return (Text(label, style="dim"), *(Text("…", style="dim") for _ in r.values))
        out = [fmt(v, h) for v, h in zip(r.values, header[1:])]
        if r.total:
            return (Text(label, style="bold"), *(Text(c, style="bold") for c in out))
        return (label, *out)

    def values(r: LevelRow) -> dict[str, Any]:
        return {labels[0]: r.name, **{lab: v for lab, v in zip(labels[1:], r.values)}}

    t = level.table()
    what = "datasets" if level.kind == "datasets" else f"groups by {level.by}"
    ready = sum(1 for r in rows if r.opens and not r.total)
    count = len([r for r in rows if not r.total])
    lines = [f"{t.title}: {ready}/{count} {what} ready — Enter opens one's browser (totals → classes → …), "
             "Escape there comes back" if not level.final else
             f"{t.title} — Enter opens a row's browser (totals → classes → …), Escape there comes back",
             t.note]
    if level.signature:
        lines.append(inert(level.signature))
    return View("level", what, tuple(labels), rows, cells, note="\n".join(lines), numeric=numeric, values=values)


def opens(level: Level, row: LevelRow) -> Evaluation | None:
    """What Enter on ``row`` opens: its evaluation, when scored (``None``: a mean, or still coming)."""
    return level.evaluations.get(row.name) if not row.total or row.name == MICRO else None


__all__ = ["AVERAGE", "Level", "LevelRow", "MICRO", "level_of", "level_rows", "level_view", "opens"]
