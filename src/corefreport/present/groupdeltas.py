"""What ``compare --datasets`` and ``compare --runs`` show, as neutral tables (CSV, Markdown,
LaTeX), terminal blocks and JSON. The differences, intervals and p-values come from
:mod:`corefreport.study.groupdeltas`; nothing is computed here.

* datasets: per system, a row per dataset — its documents, the baseline's and the system's score,
  the difference, its 95 % interval and p-value (documents of that dataset resampled; the floor of
  the p beside it when the documents set it, "one document: no interval" for a dataset of one) —
  and the macro row (``avg``: the unweighted means, the stratified interval and p-value, and
  P(system > baseline) over the stratified resamples);
* runs: per system, a row per score — each group's mean ± sd over its runs, the difference, its
  interval and p-value with runs and documents resampled together (the verdict), then the p-value
  with the runs alone as the unit (its floor in the column's label: 0.1 for 3 + 3 runs) and with
  the documents alone.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from ..scoring.significance import CORRECTIONS
from .labels import METRIC_LABELS
from .numbers import ONE_DOCUMENT_INTERVAL, cell, interval, mean_sd, p_floored, p_value, pct, probability, signed
from .plain import Block, fits, line, render
from .table import Table, grouped_labels
from .tables import star

if TYPE_CHECKING:
    from ..study.groupdeltas import DatasetsComparison, RunsComparison

AVERAGE = "avg"


def _label(metric: str) -> str:
    return METRIC_LABELS.get(metric, metric)


def _correction_note(method: str, family: str) -> str:
    """The legend's sentence on the correction (empty without one)."""
    if method == "none":
        return ""
    return f"; p {CORRECTIONS[method]}-adjusted over the family of {family} (--correction)"


def datasets_comparison_tables(cmp: DatasetsComparison, metric: str | None = None) -> list[Table]:
    """One table per system: ``metric`` (default CoNLL, else the first score) per dataset and the
    macro row, with P(system > baseline) on it."""
    m = metric or cmp.headline
    out = []
    for s in cmp.systems:
        better = f"P({s} > {cmp.baseline})"
        t = Table(f"{s} vs {cmp.baseline}: {_label(m)} F1 per dataset",
                  ["dataset", "documents", "baseline_f1", "system_f1", "delta", "delta_ci", "p", "p_system_better"],
                  labels=["dataset", "docs", cmp.baseline, s, "Δ", "95% CI of Δ", "p", better],
                  note=(f"each dataset: paired bootstrap ({cmp.bootstrap}) and approximate randomization "
                        f"({cmp.randomization}) over its documents, the smallest p its documents allow beside p "
                        "where they limit it; avg: unweighted mean over the datasets, its interval and p from a "
                        f"stratified resampling (each dataset's documents within it), {better}: the share of those "
                        "resamples in which the system's mean is higher; n/a: undefined (0/0)"
                        + _correction_note(cmp.correction, f"{cmp.family} tests of {_label(m)} (every dataset "
                                                           "and avg, every system)")))
        for d in cmp.datasets:
            x = cmp.per_dataset[s][d][m]
            floor, why = cmp.floor(d)
            ci = ONE_DOCUMENT_INTERVAL if cmp.documents[d] == 1 else interval(x.delta_ci)
            t.rows.append([d, cmp.documents[d], pct(x.baseline), pct(x.system), signed(x.delta), ci,
                           p_floored(x.p, floor, why), None])
        t.breaks = [len(t.rows)]
        x = cmp.macro[s][m]
        one_each = all(n == 1 for n in cmp.documents.values())
        t.rows.append([AVERAGE, sum(cmp.documents.values()), pct(x.baseline), pct(x.system), signed(x.delta),
                       "one document a dataset: no interval" if one_each else interval(x.delta_ci),
                       p_floored(x.p, x.floor, x.limit), probability(x.p_superior)])
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
        m = metric or cmp.headline
        t.note = (f"each {by}: paired bootstrap ({cmp.bootstrap}) and approximate randomization ({cmp.randomization}) "
                  f"over its documents, the smallest p its documents allow beside p where they limit it; {AVERAGE}: "
                  "unweighted mean over the groups, its interval and p from a stratified resampling (each group's "
                  f"documents within it), {t.labels[-1]}: the share of those resamples in which the system's mean is "
                  "higher" + _correction_note(cmp.correction, f"{cmp.family} tests of {_label(m)} (every {by} and "
                                                              "avg, every system)"))
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
    """One table per system: each score's means ± sd, the difference, the interval and p-value with
    runs and documents resampled together (the verdict: ``*``), and the p-values of the runs alone
    (its floor in the label when the runs set it) and of the documents alone."""
    out = []
    for s in cmp.systems:
        nb, ns = len(cmp.groups[cmp.baseline]), len(cmp.groups[s])
        first = next(iter(cmp.deltas[s].values()))
        runs_p = "p (runs)"
        if first.runs.limit:
            runs_p += f" ≥ {p_value(first.runs.floor)}: {first.runs.limit}"
        t = Table(f"{s} ({ns} runs) vs {cmp.baseline} ({nb} runs): F1",
                  ["metric", "baseline", "system", "delta", "delta_ci", "p", "runs_p", "documents_p"],
                  labels=["metric", f"{cmp.baseline} mean ± sd", f"{s} mean ± sd", "Δ", "95% CI of Δ", "p", runs_p,
                          "p (docs)"],
                  note=(f"95% CI and p: runs and documents resampled together, the verdict ({first.hierarchical.method}"
                        f"; {cmp.bootstrap} resamples; Davison & Hinkley 1997), * for p < 0.05; p (runs): the runs "
                        f"alone as the unit ({first.runs.method}); p (docs): the documents alone ("
                        f"{first.documents.method})"
                        + _correction_note(cmp.correction, f"{cmp.family} tests (every score of every system)")))
        for m, x in cmp.deltas[s].items():
            a, b, h = x.baseline_stats, x.system_stats, x.hierarchical
            t.rows.append([m, _mean_sd(a), _mean_sd(b), signed(h.delta) + star(h), interval(h.delta_ci),
                           p_value(h.p), p_value(x.runs.p), p_floored(x.documents.p, limit=x.documents.limit)])
        out.append(t)
    return out


def _mean_sd(st) -> str:
    """``64.83 ± 0.41`` (``64.83`` for one run)."""
    return mean_sd(st.mean, st.sd)


def _rows(t: Table) -> tuple:
    """The cells as text: strings as they are, numbers by their column (scores in percent)."""
    return tuple(((_label(r[0]) if t.header[0] == "metric" else str(r[0])),) + tuple(
        v if isinstance(v, str) else cell(v, h) for h, v in zip(t.header[1:], r[1:])) for r in t.rows)


def _labels(t: Table) -> tuple:
    """The column labels, each prefixed by its group's (``MUC R``) where the table groups them."""
    labels = list(t.labels or t.header)
    if t.groups:
        labels = grouped_labels(labels, t.groups)
    return tuple(labels)


def blocks(tables: list[Table], signature: str) -> list[Block]:
    out: list[Block] = []
    for t in tables:
        labels = _labels(t)
        out += [Block("boxed", t.title, labels, _rows(t), "l" + "r" * (len(labels) - 1), fit=True, first_width=20),
                line(t.note, "dim")]
    out.append(line(signature, "dim", soft_wrap=True))
    return out


def markdown(tables: list[Table], signature: str) -> str:
    from .render import md_code, md_escape

    parts = []
    for t in tables:
        labels = _labels(t)
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
