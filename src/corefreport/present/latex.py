"""Tables as LaTeX: booktabs floats with siunitx ``S`` columns (decimal-aligned numbers, the best
values in bold), grouped column headers, captions and labels — the one LaTeX renderer, used by
``score -f latex``, ``compare -f latex`` and the report's ``.tex``."""

from __future__ import annotations

import re

from .inert import inert, is_inert
from .labels import LATEX_LABELS, labels_of
from .numbers import NA, cell as format_cell
from .tables import Table, bold_cells, numeric_columns

LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "|": r"\textbar{}",
                 "<": r"\textless{}", ">": r"\textgreater{}"}


def latex_escape(s: str) -> str:
    r"""``s`` as LaTeX text: its special characters escaped (:data:`LATEX_ESCAPES`), and every control
    character (a newline, ESC …) and bidi control as its visible escape (:func:`.inert.inert`), so
    that a document id or a title can neither end an argument or a comment nor stop pdflatex.

    >>> latex_escape("50% of R&D\n\\input{x}\x1b")
    '50\\% of R\\&D\\textbackslash{}n\\textbackslash{}input\\{x\\}\\textbackslash{}x1b'
    """
    return "".join(LATEX_ESCAPES.get(ch, ch) for ch in inert(s))


LABEL_CHARACTERS = re.compile(r"[^A-Za-z0-9:._/+-]")
"""Characters a ``\\label`` is not written with (:func:`latex_label`)."""
FILE_NAME_SPECIALS = re.compile(r"[\\{}%#~^$&]")
"""Characters of a file name that ``\\input{…}`` cannot take as they are: TeX reads them as
commands, groups, a comment or a parameter."""


def latex_label(label: str) -> str:
    r"""``label`` as the argument of ``\label``: any character but letters, digits and ``: . _ / + -``
    (a brace, a backslash, a newline … could end the argument) written as ``-``.

    >>> latex_label("tab:corefreport-summary-1"), latex_label("x}\n\\input{y")
    ('tab:corefreport-summary-1', 'x---input-y')
    """
    return LABEL_CHARACTERS.sub("-", label)


def input_name_problem(name: str) -> str | None:
    r"""Why ``\input{name}`` cannot read the file ``name`` (a TeX special character or a control
    character in it), or ``None``.

    >>> input_name_problem("results 2024"), input_name_problem("a}\\input{b")
    (None, 'its name holds \\ { } % # ~ ^ $ & or a control character, which \\input{…} cannot read')
    """
    if FILE_NAME_SPECIALS.search(name) or not is_inert(name):
        return "its name holds \\ { } % # ~ ^ $ & or a control character, which \\input{…} cannot read"
    return None


UNICODE = {
    "³": r"\textsuperscript{3}", "²": r"\textsuperscript{2}", "φ": r"$\phi$", "Δ": r"$\Delta$", "–": "--",
    "—": "---", "−": "-", "→": r"$\rightarrow$", "≥": r"$\geq$", "≤": r"$\leq$", "×": r"$\times$", "…": r"\dots{}",
    "Ž": r"\v{Z}", "ž": r"\v{z}", "·": r"$\cdot$", "∩": r"$\cap$", "“": "``", "”": "''", "’": "'",
    "±": r"$\pm$",
}
HEADER_TEX = {"S*": r"$S^*$", "Fφ": r"$F_\phi$", "B³": r"B$^3$", "LB³": r"LB$^3$"}
PREAMBLE = r"\usepackage{booktabs}\usepackage{siunitx}\usepackage{adjustbox}"
SISETUP = r"\sisetup{detect-weight=true, mode=text}"
"""The report's tables mark the best values ``\bfseries`` inside ``S`` columns: bold and still
aligned on the decimal point when siunitx detects the weight."""
COLUMN_PT = 219.0
r"""ACL / EMNLP's \columnwidth (7.7 cm); a table estimated wider goes across both columns (``table*``)."""
CHAR_PT, COLUMN_PAD_PT = 5.0, 12.0  # \small digits are 4.5 pt; 2 \tabcolsep per column
PROSE = 60
"""A text column with a cell longer than this (characters) is set as a paragraph column (0.45 of the
line) in a table across the page: one sentence per cell, e.g. ``score -a errors``' explanations."""


def natural_width(cells: list[list[str]], labels: list[str]) -> float:
    r"""A generous estimate of a tabular's width in pt at \small (the widest cell or header of each
    column); the float's ``adjustbox`` shrinks whatever is still too wide, so the estimate only
    decides between ``table`` and ``table*``."""
    n = len(labels)
    widths = [len(labels[j]) for j in range(n)]
    for row in cells:
        for j in range(min(n, len(row))):
            widths[j] = max(widths[j], len(row[j]))
    return sum(w * CHAR_PT + COLUMN_PAD_PT for w in widths)


def latex_text(s: str) -> str:
    """Escape LaTeX's special characters and spell the non-ASCII symbols the report uses."""
    s = re.sub(r'"([^"]*)"', "\u201c\\1\u201d", s)  # "they" → “they” → ``they''
    return "".join(UNICODE.get(ch, ch) for ch in latex_escape(s))


def _header(label: str) -> str:
    if label in HEADER_TEX:
        return HEADER_TEX[label]
    return latex_text(label)


def _format(cells: list[str]) -> str:
    """siunitx ``table-format`` of a column: its widest integer and decimal parts, and a sign's room
    when a cell is signed (a "-1.24" in a ``1.2`` column overflows it)."""
    cells = [c for c in cells if c and c != NA]
    ints = max((len(c.split(".")[0].lstrip("-+")) for c in cells), default=1)
    decs = max((len(c.split(".")[1]) if "." in c else 0 for c in cells), default=0)
    sign = "-" if any(c[:1] in "-+" for c in cells) else ""
    return f"{sign}{ints}.{decs}"


def table_latex(t: Table, label: str = "", layout: str = "") -> str:
    r"""One table as a booktabs float with siunitx columns; ``label`` is its ``\label``.

    ``layout`` "acl" (two-column paper): a table that fits ``\columnwidth`` is a ``table``, a wider
    one a ``table*`` across both columns, bold best values stay decimal-aligned (``\bfseries`` with
    :data:`SISETUP`), and the tabular is boxed to at most ``\linewidth``
    (adjustbox) so that nothing overflows; "single": every table a ``table`` boxed to
    ``\linewidth``; "" (``score -f latex``): the plain float, wide tables as ``table*``."""
    labels = labels_of(t)
    numeric = numeric_columns(t)
    bold = bold_cells(t)
    text = [[format_cell(r[j] if j < len(r) else None, t.header[j]) for j in range(len(t.header))] for r in t.rows]
    spec = ["l"]
    for j in range(1, len(t.header)):
        if numeric[j]:
            spec.append(f"S[table-format={_format([row[j] for row in text])}]")
        elif any(re.search(r"[A-Za-z]", row[j]) and not re.fullmatch(r"[-+0-9.,\[\] *e]+", row[j]) for row in text):
            spec.append("l")
        else:
            spec.append("r")
    # a column of sentences (an error's explanation): a paragraph column, the table across the page
    prose = [j for j in range(1, len(t.header)) if spec[j] == "l" and max((len(r[j]) for r in text), default=0) > PROSE]
    for j in prose:
        spec[j] = r"p{0.45\linewidth}"
    wide = len(t.header) > 9 or bool(prose)  # across both columns of a two-column paper, smaller, narrower gaps
    if layout == "acl":
        wide = natural_width(text, [_header(x) for x in labels]) > COLUMN_PT or len(t.header) > 9 or bool(prose)
    elif layout == "single":
        wide = False
    env = "table*" if wide else "table"
    out = [r"\begin{" + env + "}[htbp]", r"\centering\footnotesize" if wide else r"\centering\small",
           r"\caption{" + latex_text(t.title) + "}"]
    if wide:
        out.insert(2, r"\setlength{\tabcolsep}{" + ("3pt" if len(t.header) > 10 else "4pt") + "}")
    if label:
        out.append(r"\label{" + latex_label(label) + "}")
    if layout:
        out.append(r"\begin{adjustbox}{max width=\linewidth}")
    out += [r"\begin{tabular}{" + " ".join(spec) + "}", r"\toprule"]

    def head(j: int, s: str) -> str:
        return "{" + s + "}" if numeric[j] else s

    if t.groups:
        cells, rules, col = [""], [], 1
        for g, n in t.groups:
            if g:
                cells.append(r"\multicolumn{" + str(n) + "}{c}{" + _header(g) + "}" if n > 1 else "{" + _header(g) + "}")
                rules.append(r"\cmidrule(lr){" + f"{col + 1}-{col + n}" + "}")
            else:
                cells += [""] * n if n > 1 else [""]
            col += n
        out.append(" & ".join(cells) + r" \\")
        if rules:
            out.append(" ".join(rules))
    out.append(" & ".join([_header(labels[0])] + [head(j, _header(labels[j])) for j in range(1, len(labels))]) + r" \\")
    out.append(r"\midrule")
    for i, (r, row) in enumerate(zip(t.rows, text)):
        if i in t.breaks and i:
            out.append(r"\midrule")
        first = r[0] if r else ""
        cells = [LATEX_LABELS[first] if isinstance(first, str) and first in LATEX_LABELS else latex_text(str(first))]
        for j in range(1, len(t.header)):
            c = row[j]
            if not numeric[j]:
                c = latex_text(c)
            elif c == NA:  # an undefined number is text in a siunitx S column
                c = "{" + NA + "}"
            if (i, j) in bold and c:
                if numeric[j] and layout:  # decimal-aligned bold: siunitx's detect-weight (see SISETUP)
                    c = r"\bfseries " + c
                else:
                    c = r"\textbf{" + c + "}"
                    if numeric[j]:
                        c = "{" + c + "}"
            cells.append(c)
        out.append(" & ".join(cells) + r" \\")
    out += [r"\bottomrule", r"\end{tabular}"]
    if layout:
        out.append(r"\end{adjustbox}")
    if t.note:
        out.append(r"\par\smallskip\footnotesize " + latex_text(t.note))
    out.append(r"\end{" + env + "}")
    return "\n".join(out) + "\n"


