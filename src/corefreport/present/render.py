"""Renderings of neutral :class:`~corefreport.present.tables.Table` objects as CSV, Markdown and
booktabs LaTeX, and of whole comparisons in those formats."""

from __future__ import annotations

import csv
import io
import math

from ..scoring.compare import Comparison
from .labels import LATEX_LABELS, METRIC_LABELS
from .numbers import COUNT_COLUMNS, cell, is_score_column
from .tables import Table, comparison_tables, highlights, legend, scores_table


def to_csv(t: Table) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(t.header)
    for r in t.rows:
        w.writerow(["" if v is None else (v if isinstance(v, str) else (repr(v) if isinstance(v, float) else v))
                    for v in r])
    return buf.getvalue()


def to_markdown(t: Table) -> str:
    head = [METRIC_LABELS.get(h, h) for h in t.header]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|"]
    for r in t.rows:
        cells = [METRIC_LABELS.get(r[0], r[0]) if isinstance(r[0], str) else str(r[0])]
        cells += [cell(v, h) for h, v in zip(t.header[1:], r[1:])]
        lines.append("| " + " | ".join(cells) + " |")
    if t.note:
        lines.append("")
        lines.append(f"`{t.note}`")
    return "\n".join(lines) + "\n"


LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "|": r"\textbar{}",
                 "<": r"\textless{}", ">": r"\textgreater{}"}


def latex_escape(s: str) -> str:
    return "".join(LATEX_ESCAPES.get(ch, ch) for ch in s)


def _latex_header(h: str) -> str:
    if h in LATEX_LABELS:
        return LATEX_LABELS[h]
    if h == "s_star":
        return "$S^*$"
    if h in COUNT_COLUMNS:
        return h.upper()
    for prefix, tex in (("f1_", "F1 "), ("delta_", r"$\Delta$ "), ("p_", "$p$ ")):
        if h.startswith(prefix):
            return tex + latex_escape(h[len(prefix):])
    return latex_escape(h.replace("_", " ").capitalize())


def to_latex(t: Table) -> str:
    """A booktabs table; metric names as row labels, R/P/F as percentages with two decimals."""
    cols = [h for h in t.header[1:] if is_score_column(h) or h in COUNT_COLUMNS or h.startswith(("delta_", "p_"))]
    idx = [t.header.index(h) for h in cols]
    out = []
    if t.note:
        out.append(f"% {t.note}")
    out.append(r"\begin{tabular}{l" + "r" * len(cols) + "}")
    out.append(r"\toprule")
    out.append(" & ".join([latex_escape(t.header[0].capitalize())] +
                          [_latex_header(h) for h in cols]) + r" \\")
    out.append(r"\midrule")
    systems = [i for i in idx if t.header[i].startswith("f1_")]
    for r in t.rows:
        label = r[0]
        best = max((r[i] for i in systems if isinstance(r[i], float)), default=None) if len(systems) > 1 else None
        label = LATEX_LABELS.get(label, latex_escape(str(label)))
        cells = []
        for i in idx:
            c = cell(r[i], t.header[i])
            if best is not None and i in systems and r[i] == best:
                c = r"\textbf{" + c + "}"
            cells.append(latex_escape(c) if t.header[i].startswith(("ci_", "delta_")) else c)
        out.append(" & ".join([label] + cells) + r" \\")
    out.append(r"\bottomrule")
    out.append(r"\end{tabular}")
    return "\n".join(out) + "\n"


def comparison_markdown(cmp: Comparison, top: int = 5, min_support: int = 20) -> str:
    parts = [f"**{highlights(cmp, n)}**\n" for n in cmp.systems]
    parts += [f"### {t.title}\n\n" + to_markdown(t) for t in comparison_tables(cmp, top, min_support)]
    parts.append(legend(cmp) + "\n")
    return "\n".join(parts)


def comparison_latex(cmp: Comparison) -> str:
    """The side-by-side table as booktabs LaTeX: best F1 in bold, Δ with ``*``, p-values; the
    signature and the test settings as ``%`` comments."""
    return f"% {legend(cmp)}\n" + to_latex(scores_table(cmp))


CSV_HEADER = ["kind", "analysis", "by", "item", "label", "system", "n", "recall", "precision", "f1", "ci_low",
              "ci_high", "delta", "delta_ci_low", "delta_ci_high", "p_randomization", "p_bootstrap", "significant",
              "best", "signature"]


def _num(x: float | None) -> float | None:
    return None if x is None or math.isnan(x) else x


def comparison_csv(cmp: Comparison) -> str:
    """One tidy CSV: a row per (metric, system) — the baseline too — and per (class or type,
    system); scores as fractions, empty where not defined; the signature in every row."""
    t = Table("comparison", list(CSV_HEADER))
    sig = str(cmp.signature)
    for m in cmp.metrics:
        for n in cmp.names:
            test = m.tests.get(n)
            ci = m.ci.get(n, (float("nan"),) * 2)
            row = ["metric", "", "", m.name, m.label, n, None, _num(m.recall[n]), _num(m.precision[n]), m.f1[n],
                   _num(ci[0]), _num(ci[1])]
            if test is None:
                row += [None] * 6
            else:
                row += [test.delta, _num(test.delta_ci[0]), _num(test.delta_ci[1]), _num(test.p_value),
                        _num(test.p_bootstrap), str(test.significant()).lower()]
            t.rows.append(row + [str(n in m.best).lower(), sig])
    for n in cmp.systems:
        for g in cmp.groups.get(n, []):
            x = g.test
            t.rows.append(["group", g.analysis, "class" if g.by == "cls" else g.by, g.group, g.label, n,
                           g.key_referents, None, None, x.system, _num(x.system_ci[0]), _num(x.system_ci[1]), x.delta,
                           _num(x.delta_ci[0]), _num(x.delta_ci[1]), _num(x.p_value), _num(x.p_bootstrap),
                           str(x.significant()).lower(), None, sig])
    return to_csv(t)


