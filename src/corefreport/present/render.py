"""Renderings of neutral :class:`~corefreport.present.tables.Table` objects as CSV, Markdown and
booktabs LaTeX, and of whole comparisons in those formats."""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import replace
from typing import TYPE_CHECKING


from .inert import inert, latex_comment
from .labels import METRIC_LABELS
from .latex import PREAMBLE, table_latex
from .numbers import cell
from .tables import Table, comparison_tables, highlights, legend, scores_table

if TYPE_CHECKING:  # numpy is loaded only when a comparison is made
    from ..scoring.compare import Comparison


def _csv_value(v):
    """A cell of a CSV file: empty for None, "n/a" for an undefined number (pandas reads it as NaN)."""
    if v is None:
        return ""
    if isinstance(v, float):
        return "n/a" if math.isnan(v) else repr(v)
    if isinstance(v, tuple):  # an interval of fractions: [low, high]
        return "n/a" if any(math.isnan(x) for x in v) else f"[{v[0]!r}, {v[1]!r}]"
    return v


def to_csv(t: Table) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(t.header)
    for r in t.rows:
        w.writerow([_csv_value(v) for v in r])
    return buf.getvalue()


def tables_csv(tables: list[Table]) -> str:
    """Several tables as ONE well-formed CSV stream: a first column ``table`` (the table's title)
    and the union of the tables' columns, in order of first appearance; a cell a table does not
    have is empty. One table is written as it is (:func:`to_csv`)."""
    if len(tables) == 1:
        return to_csv(tables[0])
    header: list[str] = []
    for t in tables:
        header.extend(h for h in t.header if h not in header)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["table", *header])
    for t in tables:
        pos = {h: header.index(h) for h in t.header}
        for r in t.rows:
            out = [""] * len(header)
            for h, v in zip(t.header, r):
                out[pos[h]] = _csv_value(v)
            w.writerow([t.title, *out])
    return buf.getvalue()


def md_escape(text: str) -> str:
    r"""A user string (document id, group, system name, title) as literal Markdown text that can
    neither end a table cell, nor open raw HTML or a code span, nor break the line (a line break is
    a space), nor act on a terminal (control characters visibly escaped, :func:`.inert.inert`):

    >>> md_escape("a|b <i>x</i>\nR&D `c` K & K")
    'a\\|b &lt;i&gt;x&lt;/i&gt; R&amp;D \\`c\\` K & K'
    >>> md_escape("\x1b[2Jdoc")
    '\\\\x1b[2Jdoc'
    """
    text = inert(" ".join(str(text).splitlines()))
    text = re.sub(r"&(?=[#A-Za-z])", "&amp;", text).replace("<", "&lt;").replace(">", "&gt;")
    for ch in "\\|`":
        text = text.replace(ch, "\\" + ch)
    return text


def md_code(text: str) -> str:
    """``text`` (a signature) as one inline code span, fenced with more backticks than it holds.

    >>> md_code("a|b"), md_code("x`y")
    ('`a|b`', '``x`y``')
    """
    text = inert(" ".join(str(text).splitlines()))
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def to_markdown(t: Table) -> str:
    head = [md_escape(METRIC_LABELS.get(h, h)) for h in t.header]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|"]
    for r in t.rows:
        cells = [md_escape(METRIC_LABELS.get(r[0], r[0]) if isinstance(r[0], str) else str(r[0]))]
        cells += [md_escape(cell(v, h)) for h, v in zip(t.header[1:], r[1:])]
        lines.append("| " + " | ".join(cells) + " |")
    if t.note:
        lines.append("")
        lines.append(md_code(t.note))
    return "\n".join(lines) + "\n"


def to_latex(t: Table, label: str = "") -> str:
    """One table as LaTeX (:func:`corefreport.present.latex.table_latex`), its note (the
    signature) as a ``%`` comment before it."""
    note = latex_comment(t.note) + "\n" if t.note else ""
    return note + table_latex(replace(t, note=""), label)


def latex_document(tables: list[Table], label_prefix: str = "tab:corefreport") -> str:
    """Several tables for ``\\input``: the packages they need as a comment, then each table."""
    parts = [f"% needs {PREAMBLE}"]
    parts += [to_latex(t, f"{label_prefix}-{i}") for i, t in enumerate(tables, 1)]
    return "\n".join(parts)


def comparison_markdown(cmp: Comparison, top: int = 5, min_support: int = 20) -> str:
    parts = [f"**{md_escape(highlights(cmp, n))}**\n" for n in cmp.systems]
    parts += [f"### {md_escape(t.title)}\n\n" + to_markdown(t) for t in comparison_tables(cmp, top, min_support)]
    parts.append(md_escape(legend(cmp)) + "\n")
    parts += [f"**{'Note' if c.kind == 'correction' else 'Caution'}:** {md_escape(c.message)}\n" for c in cmp.cautions]
    return "\n".join(parts)


def comparison_latex(cmp: Comparison) -> str:
    """The side-by-side table as booktabs LaTeX: best F1 in bold, Δ with ``*``, p-values, and under
    it the legend a reader of the paper needs (the test, its trials or resamples, the seed, what
    ``*`` means, the smallest p the documents allow when no difference can be significant, that p
    is not corrected for multiple comparisons); the signature as a ``%`` comment."""
    t = scores_table(cmp)
    note = legend(cmp) + "; F1 in %, Δ in points; n/a: undefined (0/0)"
    for c in cmp.cautions:
        if c.kind == "too_few_documents":
            note += f"; on {len(cmp.documents)} documents no p below {c.value:.4f} is possible"
        elif c.kind == "one_document":
            note += "; one document: no interval, and p = 1 by construction"
        elif c.kind == "multiple_comparisons":
            note += f"; p not corrected for the {int(c.value)} differences tested"
        elif c.kind == "correction":
            note += "; " + c.message
    sig = t.note
    t = replace(t, note="")
    return (f"% needs {PREAMBLE}\n{latex_comment(sig)}\n"
            + table_latex(replace(t, note=note), "tab:corefreport-compare-1"))


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
    adjusted: list = []  # with --correction: each row's adjusted p, a last column p_adjusted
    for m in cmp.metrics:
        for n in cmp.names:
            test = m.tests.get(n)
            adjusted.append(test)
            ci = m.ci.get(n, (float("nan"),) * 2)
            row = ["metric", "", "", m.name, m.label, n, None, _num(m.recall[n]), _num(m.precision[n]),
                   _num(m.f1[n]), _num(ci[0]), _num(ci[1])]
            if test is None:
                row += [None] * 6
            else:
                row += [_num(test.delta), _num(test.delta_ci[0]), _num(test.delta_ci[1]), _num(test.p_value),
                        _num(test.p_bootstrap), str(test.significant()).lower()]
            t.rows.append(row + [str(n in m.best).lower(), sig])
    for n in cmp.systems:
        for g in cmp.groups.get(n, []):
            x = g.test
            adjusted.append(x)
            t.rows.append(["group", g.analysis, "class" if g.by == "cls" else g.by, g.group, g.label, n,
                           g.key_referents, None, None, x.system, _num(x.system_ci[0]), _num(x.system_ci[1]), x.delta,
                           _num(x.delta_ci[0]), _num(x.delta_ci[1]), _num(x.p_value), _num(x.p_bootstrap),
                           str(x.significant()).lower(), None, sig])
    for i, n in enumerate(cmp.systems):  # error classes: count in n, cost (CoNLL F1 gained) in f1
        for d in cmp.errors.get(n, []):
            for kind, x in (("error_count", d.count), ("error_cost", d.cost)):
                value = [int(x.system), None] if kind == "error_count" else [None, x.system]
                adjusted.append(x)
                t.rows.append([kind, "errors", "class", d.cls, d.cls, n, value[0], None, None, value[1],
                               _num(x.system_ci[0]), _num(x.system_ci[1]), x.delta, _num(x.delta_ci[0]),
                               _num(x.delta_ci[1]), _num(x.p_value), _num(x.p_bootstrap),
                               str(x.significant()).lower(), None, sig])
                if i == 0:
                    base = [int(x.baseline), None] if kind == "error_count" else [None, x.baseline]
                    adjusted.append(None)
                    t.rows.append([kind, "errors", "class", d.cls, d.cls, cmp.baseline, base[0], None, None, base[1],
                                   _num(x.baseline_ci[0]), _num(x.baseline_ci[1])] + [None] * 6 + [None, sig])
    if cmp.resampling.correction != "none":
        t.header.append("p_adjusted")
        for row, x in zip(t.rows, adjusted):
            row.append(None if x is None else _num(x.p_adjusted))
    return to_csv(t)


