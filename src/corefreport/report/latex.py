r"""LaTeX rendering of the report model: one booktabs ``table`` float per table, numbers in siunitx
``S`` columns aligned on the decimal point, grouped headers (``\multicolumn`` + ``\cmidrule``) for
R / P / F1 under each metric, the best value in bold when rows are systems, special characters of
document ids and mention text escaped, and the signature as a ``%`` comment.

It reuses the escaping of :mod:`.tables` (whose ``to_latex`` renders the one table of
``corefreport score --format latex`` and stays byte-stable for it). Needs
``\usepackage{booktabs,siunitx}`` in the paper.
"""

from __future__ import annotations

from ..present.latex import PREAMBLE, table_latex
from .model import Report

def _one_line(text: str) -> str:
    """A user string inside a ``%`` comment: a line break would end the comment and let the rest
    be typeset as LaTeX."""
    return " ".join(str(text).split())


def to_latex(report: Report) -> str:
    r"""Every table of the report, section by section, ready for ``\input``; the title, the
    signature and the notes as ``%`` comments."""
    parts = [f"% {_one_line(report.title)}", f"% {_one_line(report.subtitle)}", f"% corefreport {report.version}",
             f"% signature: {report.signature}", f"% needs {PREAMBLE}"]
    parts += [f"% note: {_one_line(n)}" for n in report.notes]
    parts.append("")
    for s in report.sections:
        tables = s.tables[:1] if s.id == "summary" else s.tables  # the repeated-mention list is diagnostics
        if not tables:
            continue
        parts.append(f"% ---- {s.title} ----")
        for n, t in enumerate(tables, 1):
            parts.append(table_latex(t, f"tab:corefreport-{s.id}-{n}"))
    return "\n".join(parts)
