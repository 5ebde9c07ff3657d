r"""LaTeX rendering of the report model: one booktabs ``table`` float per table, numbers in siunitx
``S`` columns aligned on the decimal point, grouped headers (``\multicolumn`` + ``\cmidrule``) for
R / P / F1 under each metric, the best value in bold when rows are systems, special characters of
document ids and mention text escaped, and the signature as a ``%`` comment.

It reuses the escaping of :mod:`.tables` (whose ``to_latex`` renders the one table of
``corefreport score --format latex`` and stays byte-stable for it). Needs
``\usepackage{booktabs,siunitx}`` in the paper.
"""

from __future__ import annotations

import re
import textwrap

from ..present.inert import inert, latex_comment
from ..present.latex import PREAMBLE, SISETUP, UNICODE, latex_text, table_latex
from .examples import Examples, examples_table
from .model import BIB_NOTE, Para, Report, Section

FLOATS_PER_BARRIER = 8
r"""Floats written between two :data:`BARRIER` s at most: LaTeX holds 18 unplaced floats, and two
reports ``\input`` into one paper (27 floats each, many ``table*`` that only go to the top of a
later page) ran out of them ("Too many unprocessed floats")."""
BARRIER = r"\ifdefined\FloatBarrier\FloatBarrier\else\clearpage\fi"
r"""Place every pending float here: placeins' ``\FloatBarrier`` where the paper loads it (the
header asks for it), else ``\clearpage``."""


def bib_file(report: Report) -> str:
    """The ``.bib`` written beside a ``.tex`` report: the entries of every paper the report cites,
    then those of every other paper corefreport cites (BibTeX lists only the cited ones), so that
    one report's ``.bib`` serves a paper with several reports (:data:`BIB_NOTE`)."""
    from ..scoring.registry import BIBTEX, bibtex

    rest = [k for k in BIBTEX if k not in report.cites]
    head = (f"% BibTeX of corefreport {report.version}: the papers this report cites, then every other paper "
            "corefreport cites,\n% so that one report's .bib serves a paper with several reports (BibTeX reads only "
            "the entries a paper cites).\n\n")
    return head + bibtex(list(report.cites)) + ("\n% ---- cited by other corefreport reports ----\n\n"
                                                + bibtex(rest) if rest else "")


def to_latex(report: Report, layout: str = "acl", label_prefix: str | None = "tab:corefreport-") -> str:
    r"""Every table of the report, section by section, ready for ``\input``; the title, the
    signature and the notes as ``%`` comments. A :data:`BARRIER` after every
    :data:`FLOATS_PER_BARRIER` floats or fewer (at the end of a section when it can) and at the end,
    so that any number of reports can be ``\input`` into one paper. ``label_prefix``: each table's
    ``\label`` is the prefix + section + number (``write_report`` gives ``tab:STEM-``)."""
    label_prefix = label_prefix or "tab:corefreport-"
    parts = [latex_comment(report.title), latex_comment(report.subtitle), f"% corefreport {report.version}",
             latex_comment(f"signature: {report.signature}"), f"% needs {PREAMBLE}{SISETUP}" + r"\usepackage{placeins}"]
    parts += [latex_comment(f"note: {n}") for n in report.notes]
    if report.cites:  # the BibTeX is written beside this file (STEM.bib: bib_file)
        from ..scoring.registry import bibtex_key

        parts.append(r"% cite: \cite{" + ",".join(bibtex_key(c) for c in report.cites) + "} (BibTeX: the .bib beside this file)")
        parts += [f"% {line}" for line in textwrap.wrap(BIB_NOTE, 100, break_on_hyphens=False)]
    parts.append("")
    pending = 0
    for s in report.sections:
        tables = s.tables[:1] if s.id == "summary" else s.tables  # the repeated-mention list is diagnostics
        if s.id == "examples":  # the sentences stay in the HTML and the PDF: their counts as one table
            tables = [examples_table([b for b in s.blocks if isinstance(b, Examples)])]
        if not tables:
            continue
        if pending and pending + len(tables) > FLOATS_PER_BARRIER:
            parts.append(BARRIER)
            pending = 0
        parts.append(latex_comment(f"---- {s.title} ----"))
        for n, t in enumerate(tables, 1):
            if pending == FLOATS_PER_BARRIER:
                parts.append(BARRIER)
                pending = 0
            parts.append(table_latex(t, f"{label_prefix}{s.id}-{n}", layout))
            pending += 1
        if s.id == "errors":
            parts.append(error_examples_latex(s))
    parts.append(BARRIER)
    return "\n".join(parts)


LONG_WORD = 24
"""Characters of a word beyond which it may break (after ``/ _ - . :``, and every 24 characters):
an id or URL in a sentence must not run out of a 7.7 cm column (about 48 characters at \\small)."""


def _word(w: str) -> str:
    """One word of a sentence: characters pdflatex cannot set with T1 fonts (IPA, CJK …) as "?",
    specials escaped, a long word breakable."""
    w = "".join(c if ord(c) < 256 or c in UNICODE else "?" for c in inert(w))
    if len(w) <= LONG_WORD:
        return latex_text(w)
    pieces = [p for p in re.split(r"(?<=[/_\-.:])", w) if p]
    pieces = [p[i:i + LONG_WORD] for p in pieces for i in range(0, len(p), LONG_WORD)]
    return r"\allowbreak{}".join(latex_text(p) for p in pieces)


def marked_latex(text: str) -> str:
    r"""A sentence whose mentions are marked «like this» (:func:`~corefreport.present.explain.in_context`)
    as LaTeX: each marked mention in bold (nested marks nest), every word escaped.

    >>> marked_latex("«the 50% share» of «R&D»")
    '\\textbf{the 50\\% share} of \\textbf{R\\&D}'
    """
    out: list[str] = []
    depth = 0
    for piece in re.split("([«»])", text):
        if piece == "«":
            out.append(r"\textbf{")
            depth += 1
        elif piece == "»" and depth:
            out.append("}")
            depth -= 1
        elif piece:
            words = piece.split(" ")
            out.append(" ".join(_word(w) for w in words))
    return "".join(out) + "}" * depth


def error_examples_latex(s: Section) -> str:
    r"""The error-class section's examples (the paragraphs after its "Examples" heading, as
    :func:`.errors.errors_section` writes them: a heading per class, then each example's place and
    sentence followed by its explanation as a note) as running text: a bold line per class and an
    ``itemize`` of its examples, the error's mentions in bold, the explanation in italics below.
    Ragged right and breakable, so that it fits a 7.7 cm ACL column; not a float, so that it may
    run over columns and pages."""
    blocks = [b for b in s.blocks if isinstance(b, Para)]
    start = next((i for i, b in enumerate(blocks) if b.kind == "heading" and b.text == "Examples"), None)
    if start is None:
        return ""
    out = ["% the examples of each error class in their sentences, after the tables above (placeins' \\FloatBarrier",
           "% where the document loads it, as main.tex does)",
           r"\ifdefined\FloatBarrier\FloatBarrier\fi", r"\begingroup\small\raggedright",
           r"\par\medskip\noindent\textbf{" + latex_text(f"{s.title}: examples") + r"}\par"]
    in_list = False
    last = ""
    for b in blocks[start + 1:]:
        if b.kind == "heading":
            if in_list:
                out.append(r"\end{itemize}")
                in_list = False
            out.append(r"\par\smallskip\noindent\textbf{" + latex_text(b.text) + r"}\par")
        elif b.kind == "note" and last == "":
            out.append(r"\\\emph{" + marked_latex(b.text) + "}")  # the explanation of the example above
        elif b.kind == "":
            if not in_list:
                out.append(r"\begin{itemize}\setlength{\itemsep}{2pt}\setlength{\parskip}{0pt}")
                in_list = True
            out.append(r"\item " + marked_latex(b.text))
        else:
            if in_list:
                out.append(r"\end{itemize}")
                in_list = False
            out.append(r"\par\smallskip\noindent " + marked_latex(b.text) + r"\par")
        last = b.kind
    if in_list:
        out.append(r"\end{itemize}")
    out.append(r"\par\endgroup")
    return "\n".join(out)


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
        latex_comment(f"{report.title}: the tables of corefreport {report.version}, ready to compile (pdflatex main)"),
        cls, r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}", r"\usepackage[utf8]{inputenc}", geometry, r"\usepackage{booktabs}",
        r"\usepackage{siunitx}", SISETUP, r"\usepackage{adjustbox}", r"\usepackage{placeins}",
        r"\begin{document}", r"\section*{" + latex_text(report.title) + "}",
        latex_text(report.subtitle) + r". Signature: {\raggedright\small\ttfamily " + breakable(report.signature)
        + r"\par}",
        r"\input{" + tables + "}", r"\end{document}", ""])
