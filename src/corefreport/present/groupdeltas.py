"""What ``compare --datasets`` and ``compare --runs`` show, as neutral tables (CSV, Markdown,
LaTeX), terminal blocks and JSON. The differences, intervals and p-values come from
:mod:`corefreport.study.groupdeltas`; nothing is computed here.

* datasets: per system, a row per dataset — its documents, the baseline's and the system's score,
  the difference, its 95 % interval and p-value (documents of that dataset resampled) — and the
  macro row (``avg``: the unweighted means, the stratified interval and p-value);
* runs: per system, a row per score — each group's mean ± sd over its runs, the difference, then
  the interval and p-value with the runs as the unit and with the documents as the unit, and which
  decides.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from .labels import METRIC_LABELS
from .numbers import interval, mean_sd, p_value, pct, signed
from .plain import Block, fits, line, render
from .table import Table

if TYPE_CHECKING:
    from ..study.groupdeltas import DatasetsComparison, RunsComparison

AVERAGE = "avg"


def _label(metric: str) -> str:
    return METRIC_LABELS.get(metric, metric)


def datasets_comparison_tables(cmp: DatasetsComparison, metric: str | None = None) -> list[Table]:
    """One table per system: ``metric`` (default CoNLL, else the first score) per dataset and the
    macro row."""
    m = metric or cmp.headline
    out = []
    for s in cmp.systems:
        t = Table(f"{s} vs {cmp.baseline}: {_label(m)} F1 per dataset",
                  ["dataset", "documents", "baseline_f1", "system_f1", "delta", "delta_ci", "p"],
                  labels=["dataset", "docs", cmp.baseline, s, "Δ", "95% CI of Δ", "p"],
                  note=(f"each dataset: paired bootstrap ({cmp.bootstrap}) and approximate randomization "
                        f"({cmp.randomization}) over its documents; avg: unweighted mean over the datasets, its "
                        "interval and p from a stratified resampling (each dataset's documents within it)"))
        for d in cmp.datasets:
            x = cmp.per_dataset[s][d][m]
            t.rows.append([d, cmp.documents[d], pct(x.baseline), pct(x.system), signed(x.delta), interval(x.delta_ci),
                           p_value(x.p)])
        t.breaks = [len(t.rows)]
        x = cmp.macro[s][m]
        t.rows.append([AVERAGE, sum(cmp.documents.values()), pct(x.baseline), pct(x.system), signed(x.delta),
                       interval(x.delta_ci), p_value(x.p)])
        out.append(t)
    return out


def groups_comparison_tables(cmp: DatasetsComparison, by: str, metric: str | None = None) -> list[Table]:
    """``compare --subsets``: one table per system — ``metric`` (default CoNLL, else the first
    score) per group of documents, the difference, its interval and p-value over the group's
    documents — and the macro row (the groups' unweighted mean, stratified)."""
    out = []
    for t in datasets_comparison_tables(cmp, metric):
        t.title = t.title.replace(" per dataset", f" per {by}")
        t.header[0] = "group"
        t.labels[0] = by
        t.note = (f"each {by}: paired bootstrap ({cmp.bootstrap}) and approximate randomization ({cmp.randomization}) "
                  f"over its documents; {AVERAGE}: unweighted mean over the groups, its interval and p from a "
                  "stratified resampling (each group's documents within it)")
        out.append(t)
    return out


def groups_comparison_data(cmp: DatasetsComparison) -> dict:
    """The JSON of ``compare --subsets``'s deltas: ``groups.<group>`` (its documents and, per
    system, each score's paired test) and ``macro`` (per system and score, the stratified delta)."""
    data = cmp.as_dict()
    data["groups"] = data.pop("datasets")
    data["resampling"] = {**data["resampling"], "per_dataset": None, "per_group": "paired bootstrap and approximate "
                          "randomization over the group's documents", "macro": "stratified: each group's documents "
                          "within it"}
    del data["resampling"]["per_dataset"]
    return data


def runs_comparison_tables(cmp: RunsComparison) -> list[Table]:
    """One table per system: each score's means ± sd, the difference and both tests."""
    out = []
    for s in cmp.systems:
        nb, ns = len(cmp.groups[cmp.baseline]), len(cmp.groups[s])
        first = next(iter(cmp.deltas[s].values()))
        t = Table(f"{s} ({ns} runs) vs {cmp.baseline} ({nb} runs): F1",
                  ["metric", "baseline", "system", "delta", "runs_ci", "runs_p", "documents_ci", "documents_p",
                   "unit"],
                  labels=["metric", f"{cmp.baseline} mean ± sd", f"{s} mean ± sd", "Δ", "95% CI (runs)", "p (runs)",
                          "95% CI (docs)", "p (docs)", "decides"],
                  note=(f"runs as the unit: {first.runs.method}; documents as the unit: {first.documents.method} "
                        f"({cmp.bootstrap} resamples); 'decides': the runs when each group has two or more, else "
                        "the documents"))
        for m, x in cmp.deltas[s].items():
            a, b = x.baseline_stats, x.system_stats
            t.rows.append([m, _mean_sd(a), _mean_sd(b), signed(x.runs.delta), interval(x.runs.delta_ci),
                           p_value(x.runs.p), interval(x.documents.delta_ci), p_value(x.documents.p),
                           x.verdict.unit])
        out.append(t)
    return out


def _mean_sd(st) -> str:
    """``64.83 ± 0.41`` (``64.83`` for one run)."""
    return mean_sd(st.mean, st.sd)


def _rows(t: Table) -> tuple:
    return tuple(((_label(r[0]) if t.header[0] == "metric" else str(r[0])),) + tuple(
        "" if v is None else str(v) for v in r[1:]) for r in t.rows)


def blocks(tables: list[Table], signature: str) -> list[Block]:
    out: list[Block] = []
    for t in tables:
        labels = tuple(t.labels or t.header)
        out += [Block("boxed", t.title, labels, _rows(t), "l" + "r" * (len(labels) - 1), fit=True, first_width=20),
                line(t.note, "dim")]
    out.append(line(signature, "dim", soft_wrap=True))
    return out


def markdown(tables: list[Table], signature: str) -> str:
    from .render import md_code, md_escape

    parts = []
    for t in tables:
        labels = t.labels or t.header
        rows = ["| " + " | ".join(md_escape(x) for x in labels) + " |", "|---" + "|---:" * (len(labels) - 1) + "|"]
        rows += ["| " + " | ".join(md_escape(x) for x in r) + " |" for r in _rows(t)]
        parts.append(f"### {md_escape(t.title)}\n\n" + "\n".join(rows) + f"\n\n{md_escape(t.note)}\n")
    return "\n".join(parts) + f"\n{md_code(signature)}\n"


def print_blocks(bl: list[Block], file: TextIO | None = None, color: bool | None = None) -> None:
    out = file or sys.stdout
    tty = out.isatty() if hasattr(out, "isatty") else False
    if not tty and color is not True and fits(bl):
        out.write(render(bl))
        return
    from .terminal import draw

    draw(bl, out, color)
