"""What ``score --runs`` shows: a row per metric — the F1 mean ± sample sd, min and max over the
runs, then each run's F1 — as a neutral :class:`~.table.Table`, terminal blocks and the JSON. The
statistics come from :class:`~corefreport.study.runs.RunsEvaluation`; nothing is computed here."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, TextIO

from .jsondata import evaluation_data
from .labels import METRIC_LABELS
from .numbers import NA, cell, is_score_column
from .plain import Block, line
from .table import Table

if TYPE_CHECKING:  # the type only: study.runs runs the pipeline
    from ..study.runs import RunsEvaluation


def _f(x: float) -> float | None:
    return None if math.isnan(x) else x


def runs_table(rv: RunsEvaluation) -> Table:
    """F1 per metric: mean, sd, min, max over the runs, then each run's."""
    names = list(rv.metrics) + (["conll"] if rv.has_conll else [])
    runs = rv.names
    t = Table(f"{rv.system}: F1 over {len(runs)} runs", ["metric", "mean_f1", "sd_f1", "min_f1", "max_f1",
                                                          *(f"run{i}_f1" for i in range(1, len(runs) + 1))],
              labels=["metric", "mean", "± sd", "min", "max", *runs],
              note="mean and sample standard deviation (N − 1) over the runs; each run micro over its documents")
    for m in names:
        st = rv.stats(m)
        t.rows.append([m, _f(st.mean), _f(st.sd), _f(st.low), _f(st.high), *(_f(v) for v in st.values)])
    return t


def runs_data(rv: RunsEvaluation) -> dict[str, Any]:
    """``metrics.<metric>.<recall|precision|f1>`` → mean, sd, min, max, values (``conll``: f1);
    ``runs.<run>``: each run's ``score -f json`` object."""
    metrics: dict[str, Any] = {m: {p: rv.stats(m, p).as_dict() for p in ("recall", "precision", "f1")}
                               for m in rv.metrics}
    if rv.has_conll:
        metrics["conll"] = {"f1": rv.stats("conll").as_dict()}
    return {"signature": str(rv.signature), "system": rv.system, "count": len(rv.runs), "run_names": rv.names,
            "metrics": metrics, "runs": {n: evaluation_data(ev) for n, ev in rv.runs}, "warnings": rv.warnings}


def _cell(v, column: str) -> str:
    return NA if v is None and is_score_column(column) else cell(v, column)


def runs_blocks(rv: RunsEvaluation) -> list[Block]:
    t = runs_table(rv)
    rows = tuple((METRIC_LABELS.get(r[0], r[0]), *(_cell(v, h) for h, v in zip(t.header[1:], r[1:])))
                 for r in t.rows)
    labels = tuple(t.labels or t.header)
    return [Block("boxed", t.title, labels, rows, "l" + "r" * (len(labels) - 1), fit=True, first_width=20),
            line(t.note, "dim"), line(str(rv.signature), "dim", soft_wrap=True)]


def runs_markdown(rv: RunsEvaluation) -> str:
    from .render import md_code, md_escape

    t = runs_table(rv)
    labels = t.labels or t.header
    out = ["| " + " | ".join(md_escape(x) for x in labels) + " |", "|---" + "|---:" * (len(labels) - 1) + "|"]
    for r in t.rows:
        out.append("| " + " | ".join([md_escape(METRIC_LABELS.get(r[0], r[0]))]
                                     + [_cell(v, h) for h, v in zip(t.header[1:], r[1:])]) + " |")
    return f"### {md_escape(t.title)}\n\n" + "\n".join(out) + f"\n\n{md_escape(t.note)}\n\n{md_code(str(rv.signature))}\n"


def print_runs(rv: RunsEvaluation, file: TextIO | None = None, color: bool | None = None) -> None:
    """Print the terminal view to ``file`` (stdout): plain text in a pipe, Rich on a terminal."""
    from .scoreview import show

    show(runs_blocks(rv), file, color)
