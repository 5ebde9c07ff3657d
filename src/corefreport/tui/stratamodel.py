"""The browser's page of strata of entities (``--strata``): pure functions from an evaluation's
strata to the totals' rows that open them and to the page listing them — one row per stratum with
its key and response chains and the F1 of every score (CoNLL first), the rule in the note.

Nothing here computes a score: the rows are :func:`corefreport.present.strata.headline_table`'s,
whose numbers come from :class:`~corefreport.scoring.strata.Strata`.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..present.inert import inert
from ..present.numbers import NA, cell, is_score_column
from ..present.strata import headline_table
from ..scoring.result import Evaluation
from .model import TotalRow, View

TARGET = "strata"
"""The totals' target of a stratification's row (its spec the name)."""


def strata_total_rows(ev: Evaluation) -> list[TotalRow]:
    """One totals row per stratification (Enter opens its page), with its strata and chains."""
    out = []
    for spec, st in ev.strata.items():
        chains = sum(x.key_chains for x in st.strata.values())
        out.append(TotalRow(f"per {st.stratification.title} ({spec})", None, None, None,
                            f"{len(st.strata)} strata, {chains} key chains", (TARGET, spec)))
    return out


def strata_view(ev: Evaluation, spec: str) -> View:
    """The page of one stratification: a row per stratum, its chains and every score's F1."""
    t = headline_table(ev.strata[spec])
    header, labels = t.header, t.labels or t.header

    def cells(row: list, full: bool) -> tuple:
        return (inert(str(row[0])), *(NA if v is None and is_score_column(h) else cell(v, h)
                                      for v, h in zip(row[1:], header[1:])))

    def values(row: list) -> dict[str, Any]:
        return dict(zip(labels, row))

    note = "\n".join([t.title, t.note, inert(str(ev.signature))])
    return View("strata", t.title, tuple(labels), list(t.rows), cells, note=note,
                numeric=frozenset(range(1, len(header))), values=values)


def stratum_detail(ev: Evaluation, spec: str, stratum: str) -> Text:
    """What Enter on a stratum says: its chains and mentions on each side."""
    x = ev.strata[spec].strata[stratum]
    m = x.mentions
    return Text(inert(f"{stratum}: {x.key_chains} key and {x.response_chains} response chains, "
                      f"{cell(m.recall_den, 'n')} key and {cell(m.precision_den, 'n')} response mentions, "
                      f"{cell(m.recall_num, 'n')} found"))


__all__ = ["TARGET", "strata_total_rows", "strata_view", "stratum_detail"]
