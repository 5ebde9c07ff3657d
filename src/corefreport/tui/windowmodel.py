"""The browser's page of windows (``--window N``): pure functions from an evaluation's windows to
the totals' row that opens them and to the page — one row per score with its F1 on the full
documents, on the windows and the difference, then the key's antecedent links found within one
window and across windows; the rule in the note.

Nothing here computes a score: the rows are :func:`corefreport.present.windows.headline_table`'s,
whose numbers come from :class:`~corefreport.scoring.windows.Windows`.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..present.inert import inert
from ..present.numbers import cell
from ..present.windows import LINKS_NOTE, headline_table
from ..scoring.result import Evaluation
from .model import TotalRow, View

TARGET = "windows"
"""The totals' target of the windows' row."""


def windows_total_rows(ev: Evaluation) -> list[TotalRow]:
    """The totals row of the windows (Enter opens their page): their CoNLL when computed, else the first score."""
    w = ev.windows
    if w is None:
        return []
    cut = w.scores.derived.get("conll")
    first = w.scores.metrics[w.metrics[0]] if w.metrics else None
    f1 = cut if cut is not None else (first.f1 if first is not None else None)
    what = "CoNLL" if cut is not None else (w.metrics[0] if w.metrics else "")
    return [TotalRow(f"on windows of {w.size} words", None, None, f1,
                     f"{w.scores.windows} windows; {what} F1", (TARGET, str(w.size)))]


def windows_view(ev: Evaluation) -> View:
    """The page of the windows: a row per score (full F1, windowed F1, Δ), then the links' recall."""
    t = headline_table(ev.windows)
    header, labels = t.header, t.labels or t.header

    def cells(row: list, full: bool) -> tuple:
        return (inert(str(row[0])), *("" if v is None else cell(v, h) for v, h in zip(row[1:], header[1:])))

    def values(row: list) -> dict[str, Any]:
        return dict(zip(labels, row))

    note = "\n".join([t.title, t.note, LINKS_NOTE, inert(str(ev.signature))])
    return View("windows", t.title, tuple(labels), list(t.rows), cells, note=note,
                numeric=frozenset(range(1, len(header))), values=values)


def windows_detail(ev: Evaluation, label: str) -> Text:
    """What Enter on a row says: the windows, their chains, and the antecedent links of each kind."""
    w = ev.windows
    x = w.scores
    within, across = x.links["within"], x.links["across"]
    return Text(inert(f"{label}: {x.windows} windows of {w.size} words, {x.key_chains} key and {x.response_chains} "
                      f"response chains (pieces); key links within one window {cell(within.recall_den, 'n')} "
                      f"({cell(within.recall_num, 'n')} found), across windows {cell(across.recall_den, 'n')} "
                      f"({cell(across.recall_num, 'n')} found)"))


__all__ = ["TARGET", "windows_detail", "windows_total_rows", "windows_view"]
