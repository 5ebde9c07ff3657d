r"""LaTeX rendering of the report model: one booktabs ``table`` float per table, numbers in siunitx
``S`` columns aligned on the decimal point, grouped headers (``\multicolumn`` + ``\cmidrule``) for
R / P / F1 under each metric, the best value in bold when rows are systems, special characters of
document ids and mention text escaped, and the signature as a ``%`` comment.

It reuses the escaping of :mod:`.tables` (whose ``to_latex`` renders the one table of
``corefreport score --format latex`` and stays byte-stable for it). Needs
``\usepackage{booktabs,siunitx}`` in the paper.
"""

from __future__ import annotations

from ..present.latex import PREAMBLE, SISETUP, latex_text, table_latex
from .examples import Examples, examples_table
from .model import Report

def _one_line(text: str) -> str:
    """A user string inside a ``%`` comment: a line break would end the comment and let the rest
    be typeset as LaTeX."""
    return " ".join(str(text).split())


def to_latex(report: Report, layout: str = "acl", label_prefix: str = "tab:corefreport-") -> str:
    r"""Every table of the report, section by section, ready for ``\input``; the title, the
    signature and the notes as ``%`` comments."""
    parts = [f"% {_one_line(report.title)}", f"% {_one_line(report.subtitle)}", f"% corefreport {report.version}",
             f"% signature: {report.signature}", f"% needs {PREAMBLE}{SISETUP}"]
    parts += [f"% note: {_one_line(n)}" for n in report.notes]
    parts.append("")
    for s in report.sections:
        tables = s.tables[:1] if s.id == "summary" else s.tables  # the repeated-mention list is diagnostics
        if s.id == "examples":  # the sentences stay in the HTML and the PDF: their counts as one table
            tables = [examples_table([b for b in s.blocks if isinstance(b, Examples)])]
        if not tables:
            continue
        parts.append(f"% ---- {s.title} ----")
        for n, t in enumerate(tables, 1):
            parts.append(table_latex(t, f"{label_prefix}{s.id}-{n}", layout))
    return "\n".join(parts)


def breakable(s: str) -> str:
    r"""Monospace text that may break after ``|``, ``+``, ``,`` and ``:`` (the signature in a column)."""
    out = latex_text(s)
    for sep in (r"\textbar{}", "+", ",", ":"):
        out = out.replace(sep, sep + r"\allowbreak{}")
    return out


def latex_main(report: Report, tables: str, layout: str = "acl") -> str:
    r"""A document that ``\input``s the tables file ``tables`` and compiles on its own: an ACL-sized
    two-column page (16 cm of text, 7.7 cm columns) for "acl", one 16 cm column for "single"."""
    cls = r"\documentclass[11pt,twocolumn]{article}" if layout == "acl" else r"\documentclass[11pt]{article}"
    geometry = r"\usepackage[a4paper,textwidth=16cm,textheight=24.7cm,columnsep=0.6cm]{geometry}"
    return "\n".join([
        f"% {report.title}: the tables of corefreport {report.version}, ready to compile (pdflatex main)",
        cls, r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}", r"\usepackage[utf8]{inputenc}", geometry, r"\usepackage{booktabs}",
        r"\usepackage{siunitx}", SISETUP, r"\usepackage{adjustbox}",
        r"\begin{document}", r"\section*{" + latex_text(report.title) + "}",
        latex_text(report.subtitle) + r". Signature: {\raggedright\small\ttfamily " + breakable(report.signature)
        + r"\par}",
        r"\input{" + tables + "}", r"\end{document}", ""])
