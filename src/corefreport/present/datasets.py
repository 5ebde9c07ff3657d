"""What ``score --datasets`` shows: one row per dataset and the macro average (``avg``) last —
the CRAC ranking table (the four variants' CoNLL F1 as columns) under ``--preset crac``, else each
metric's F1 — as a neutral :class:`~.table.Table` (CSV, Markdown, LaTeX), terminal blocks, and
the JSON object. Nothing is computed here: the scores and their means come from
:class:`~corefreport.study.datasets.DatasetsEvaluation`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TextIO

from ..scoring.empty_nodes import METRICS as EMPTY
from .jsondata import evaluation_data
from .labels import METRIC_LABELS
from .numbers import NA, cell, is_score_column, shown_rpf
from .plain import Block, line
from .table import Table

if TYPE_CHECKING:  # the type only: study.datasets runs the pipeline, which reads corpora in memory
    from ..study.datasets import DatasetsEvaluation

AVERAGE = "avg"
"""The label of the macro row (CRAC's results tables call it so)."""

VARIANT_LABELS = {"head": "head (primary)", "partial": "partial", "exact": "exact",
                  "head_singletons": "head + singletons"}
"""Column labels of the ranking's variants."""


def _number(x: float | None) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


def _cell(v, column: str) -> str:
    """A cell as the terminal shows it: a missing score is "n/a", a missing count empty."""
    return NA if v is None and is_score_column(column) else cell(v, column)


EMPTY_NODES_LABEL = "empty nodes (ARC)"
"""The ranking's column of CRAC 2026's empty-node score, when a key has empty nodes."""
INTERVAL = "95 % CI"
"""The label of the row under ``avg``: the interval of each macro average."""


def _interval_note(dev: DatasetsEvaluation) -> str:
    v = dev.variants[0].name
    one = all(len(d.evaluations[v].documents) <= 1 for d in dev.datasets)
    return (f"; {INTERVAL}: the macro average's interval, a stratified bootstrap ({dev.INTERVAL_RESAMPLES} "
            f"resamples, seed {dev.INTERVAL_SEED}: each dataset's documents resampled within it)"
            + ("; one document a dataset: no interval (every resample is the data)" if one else ""))


def ranking_table(dev: DatasetsEvaluation, intervals: bool = False) -> Table:
    """The CRAC ranking: CoNLL F1 per dataset (rows) and variant (columns), ``avg`` last; when a
    dataset's key has empty nodes, a last column of CRAC 2026's empty-node ARC F1 (n/a for the
    datasets without, its ``avg`` the mean over those with); with ``intervals`` the row of each
    average's 95 % interval under it."""
    names = [v.name for v in dev.variants]
    empty = bool(dev.empty_node_datasets())
    t = Table("CRAC ranking: CoNLL F1 per dataset", ["dataset", *(f"{n}_f1" for n in names),
                                                      *(["empty_nodes_f1"] if empty else [])],
              labels=["dataset", *(VARIANT_LABELS.get(n, n) for n in names), *([EMPTY_NODES_LABEL] if empty else [])],
              note="avg: unweighted mean over the datasets of each dataset's CoNLL F1 (micro over its own "
                   "documents, as corefud-scorer); head match without singletons is the official ranking"
                   + ("; empty nodes (ARC): F1 of the predicted empty nodes keyed by (sentence, head), as "
                      "crac2026_empty_nodes_eval.py scores them (every row in the JSON), its avg over the datasets "
                      "whose key has empty nodes" if empty else "")
                   + (_interval_note(dev) if intervals else ""))
    for d in dev.datasets:
        t.rows.append([d.name, *(_number(d.conll(n)) for n in names),
                       *([_score(dev.empty_nodes(d.name))] if empty else [])])
    t.breaks = [len(t.rows)]
    macro = dev.macro_empty_nodes()
    t.rows.append([AVERAGE, *(_number(dev.macro_conll(n)) for n in names),
                   *([_number(macro.f1) if macro is not None else None] if empty else [])])
    if intervals:
        t.rows.append([INTERVAL, *(dev.macro_interval(n, "conll") for n in names), *([None] if empty else [])])
    return t


def _score(counts) -> float | None:
    return None if counts is None else _number(counts.f1)


def f1_table(dev: DatasetsEvaluation, intervals: bool = False) -> Table:
    """Each metric's F1 (and CoNLL) per dataset, ``avg`` (the mean of the rows above) last; with
    ``intervals`` the row of each average's 95 % interval under it."""
    v = dev.variants[0].name
    metrics = list(dev.metrics)
    conll = all(m in metrics for m in ("muc", "bcub", "ceafe"))
    header = ["dataset", "documents", *metrics, *(["conll"] if conll else [])]
    t = Table("F1 per dataset", header, labels=["dataset", "docs", *(METRIC_LABELS.get(m, m) for m in header[2:])],
              note="avg: unweighted mean over the datasets of each dataset's score (micro over its own documents)"
                   + (_interval_note(dev) if intervals else ""))
    for d in dev.datasets:
        ev = d.evaluations[v]
        t.rows.append([d.name, ev.key_stats.documents, *(_number(ev.metrics[m].f1) for m in metrics),
                       *([_number(ev.conll)] if conll else [])])
    t.breaks = [len(t.rows)]
    t.rows.append([AVERAGE, None,
                   *(_number(dev.macro(v, m).f1) for m in metrics),
                   *([_number(dev.macro_conll(v))] if conll else [])])
    if intervals:
        t.rows.append([INTERVAL, None, *(dev.macro_interval(v, m) for m in header[2:])])
    return t


def datasets_table(dev: DatasetsEvaluation, intervals: bool = False) -> Table:
    """The table ``score --datasets`` prints (with the signature as its note's last line); with
    ``intervals`` each macro average's 95 % interval in a row under ``avg``."""
    return ranking_table(dev, intervals) if dev.ranking else f1_table(dev, intervals)


MAIN_METRICS = ("muc", "bcub", "ceafe")
CRAC_EXTRA = ("mor", "zero")
"""Beside the CoNLL metrics under ``--preset crac``: corefud-scorer's mention overlap and zeros."""


def main_table(systems: Mapping[str, DatasetsEvaluation]) -> Table:
    """The main table of a paper on several datasets: per dataset and system (the baseline first)
    R, P and F1 of MUC, B³ and CEAF-e and the CoNLL F1 — and of MOR and the zero score under
    ``--preset crac`` — then each system's ``avg`` (the unweighted means over the datasets, the
    CRAC rule). A 0/0 is undefined (NaN, "n/a": the zero score on datasets without zeros). Nothing
    is computed here: the scores are each dataset's evaluation's, the means the study's."""
    devs = list(systems.items())
    first = devs[0][1]
    v = first.variants[0].name
    computed = [m for m in (*MAIN_METRICS, *CRAC_EXTRA)
                if all(m in d.evaluations[v].metrics for _, dev in devs for d in dev.datasets)]
    main = [m for m in MAIN_METRICS if m in computed]
    extra = [m for m in CRAC_EXTRA if m in computed and first.variants[0].settings.preset == "crac"]
    conll = len(main) == len(MAIN_METRICS)
    header = ["dataset", "system", *(f"{m}_{x}" for m in main for x in ("recall", "precision", "f1")),
              *(["conll"] if conll else []), *(f"{m}_{x}" for m in extra for x in ("recall", "precision", "f1"))]
    groups = [("", 1), *((METRIC_LABELS.get(m, m), 3) for m in main), *([("CoNLL", 1)] if conll else []),
              *((METRIC_LABELS.get(m, m), 3) for m in extra)]
    labels = ["dataset", "system", *(["R", "P", "F1"] * len(main)), *(["F1"] if conll else []),
              *(["R", "P", "F1"] * len(extra))]
    t = Table(f"R, P and F1 (%) per dataset: {', '.join(n for n, _ in devs)}", header, groups=groups, labels=labels,
              note="each dataset scored micro over its own documents; avg: the unweighted mean over the datasets of "
                   "each dataset's recall, precision and F1 (CoNLL: of its CoNLL F1); n/a: undefined (0/0)")

    def rpf(s) -> list:
        if s is None:
            return [None] * 3
        return list(shown_rpf(s.recall, s.precision, s.f1, s.recall_den, s.precision_den))

    for k, d in enumerate(first.datasets):
        if k:
            t.breaks.append(len(t.rows))
        for name, dev in devs:
            ev = dev.dataset(d.name).evaluations[v]
            row: list = [d.name, name]
            for m in main:
                row += rpf(ev.metrics.get(m))
            if conll:
                row.append(_number(ev.conll))
            for m in extra:
                row += rpf(ev.metrics.get(m))
            t.rows.append(row)
    t.breaks.append(len(t.rows))
    for name, dev in devs:
        row = [AVERAGE, name]
        for m in main + (["conll"] if conll else []) + extra:
            x = dev.macro_shown(v, m)
            row += [x.f1] if m == "conll" else [x.recall, x.precision, x.f1]
        t.rows.append(row)
    return t


def datasets_data(dev: DatasetsEvaluation) -> dict[str, Any]:
    """The JSON object. Ranking: ``datasets.<name>.<variant>`` and ``macro.<variant>`` are CoNLL
    F1 (fractions), ``metrics.<name>.<variant>`` every metric's scores; when a key has empty nodes,
    ``empty_nodes.datasets.<name>.<row>`` CRAC 2026's ten empty-node scores of each such dataset and
    ``empty_nodes.macro.<row>`` their means over those datasets. Otherwise
    ``datasets.<name>`` is the dataset's ``score -f json`` object and ``macro.<metric>`` the means
    of recall, precision and F1 (``conll``: F1)."""
    out: dict[str, Any] = {"signature": str(dev.signature), "count": len(dev.datasets)}
    if dev.ranking:
        out["ranking"] = "crac"
        out["variants"] = {v.name: {"title": v.title, "match": v.settings.match, "singletons": v.settings.singletons}
                           for v in dev.variants}
        out["datasets"] = {d.name: {v.name: d.conll(v.name) for v in dev.variants} for d in dev.datasets}
        out["macro"] = {v.name: dev.macro_conll(v.name) for v in dev.variants}
        out["macro_ci"] = {v.name: _ci(dev.macro_interval(v.name, "conll")) for v in dev.variants}
        out["metrics"] = {d.name: {v.name: {m: s.as_dict() for m, s in d.evaluations[v.name].metrics.items()}
                                   for v in dev.variants} for d in dev.datasets}
        out["sources"] = {d.name: {"key": d.key_source, "response": d.response_source} for d in dev.datasets}
        names = dev.empty_node_datasets()
        if names:
            out["empty_nodes"] = {
                "datasets": {n: {m: dev.empty_nodes(n, m).as_dict() for m in EMPTY} for n in names},
                "macro": {m: dev.macro_empty_nodes(m).as_dict() for m in EMPTY},
                "column": "empty_nodes_arc", "variant": dev.variants[0].name}
    else:
        v = dev.variants[0].name
        out["datasets"] = {d.name: evaluation_data(d.evaluations[v]) for d in dev.datasets}
        macro: dict[str, Any] = {m: dev.macro(v, m).as_dict() for m in dev.metrics}
        if all(m in dev.metrics for m in ("muc", "bcub", "ceafe")):
            macro["conll"] = {"f1": dev.macro_conll(v)}
        for m, x in macro.items():
            x["f1_ci"] = _ci(dev.macro_interval(v, m))
        out["macro"] = macro
    out["warnings"] = dev.warnings
    return out


def _ci(x: tuple[float, float]) -> list[float] | None:
    return None if math.isnan(x[0]) else [x[0], x[1]]


def datasets_blocks(dev: DatasetsEvaluation) -> list[Block]:
    """The terminal view: the table (scores in percent) with each average's interval, its note,
    the signature."""
    t = datasets_table(dev, intervals=True)
    rows = []
    for k, row in enumerate(t.rows):
        cells = [str(row[0]) if k < t.breaks[0] else (str(row[0]), "bold")]
        cells += [_cell(v, h) for h, v in zip(t.header[1:], row[1:])]
        rows.append(tuple(cells))
    labels = tuple(t.labels or t.header)
    return [Block("boxed", t.title, labels, tuple(rows), "l" + "r" * (len(labels) - 1), fit=True, first_width=36),
            line(t.note, "dim"), line(str(dev.signature), "dim", soft_wrap=True)]


def print_datasets(dev: DatasetsEvaluation, file: TextIO | None = None, color: bool | None = None) -> None:
    """Print the terminal view to ``file`` (stdout): plain text in a pipe, Rich on a terminal."""
    from .scoreview import show

    show(datasets_blocks(dev), file, color)


def datasets_markdown(dev: DatasetsEvaluation) -> str:
    """The table as Markdown (column labels as the terminal shows them), the signature below."""
    from .render import md_code, md_escape

    t = datasets_table(dev, intervals=True)
    labels = t.labels or t.header
    lines = ["| " + " | ".join(md_escape(x) for x in labels) + " |", "|---" + "|---:" * (len(labels) - 1) + "|"]
    for row in t.rows:
        cells = [md_escape(row[0])] + [_cell(v, h) for h, v in zip(t.header[1:], row[1:])]
        lines.append("| " + " | ".join(cells) + " |")
    return f"### {md_escape(t.title)}\n\n" + "\n".join(lines) + f"\n\n{md_escape(t.note)}\n\n{md_code(str(dev.signature))}\n"
