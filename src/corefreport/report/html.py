"""HTML rendering of the report model: jinja2 templates in ``corefreport/templates`` (autoescaped —
mention text and document ids may hold ``<`` and ``&``), one stylesheet inlined so that the file
stands alone. The PDF is this HTML with ``pdf=True`` (paged-media rules, fewer document rows).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from markupsafe import Markup

from ..present import tables as T
from ..present.inert import inert
from ..present.labels import labels_of, row_label
from ..present.numbers import cell as format_cell
from ..present.numbers import pct
from ..present.tables import bold_cells, numeric_columns
from . import svg
from .doctext import DocumentTexts
from .examples import Examples
from .model import Para, Report

FONTS = {
    # fonts-texgyre (Termes: the Times look of ACL papers; Cursor: its Courier); DejaVu is preinstalled
    # unquoted: WeasyPrint's SVG renderer reads a quoted list as one unknown family
    "serif": "TeX Gyre Termes, DejaVu Serif, serif",
    "mono": "TeX Gyre Cursor, DejaVu Sans Mono, monospace",
}


@dataclass(slots=True)
class Cell:
    text: str
    numeric: bool = False
    bold: bool = False


def table_view(t: T.Table, pdf: bool = False, section: str = "") -> dict:
    """Header rows and formatted cells of a table, for the ``table`` macro; with ``pdf``, the column
    widths of its fixed layout too (the HTML's tables size themselves). ``section``: the id of the
    section that holds it (the documents table is set smaller)."""
    labels = labels_of(t)
    numeric = numeric_columns(t)
    bold = bold_cells(t)
    groups = []
    if t.groups:
        groups.append((labels[0], 1, False))
        groups += [(g, n, bool(g)) for g, n in t.groups]
    rows = []
    for i, r in enumerate(t.rows):
        cells = [Cell(row_label(r[0]) if r else "")]
        for j in range(1, len(t.header)):
            v = r[j] if j < len(r) else None
            cells.append(Cell(format_cell(v, t.header[j]), numeric[j] or isinstance(v, (int, float, tuple)), (i, j) in bold))
        rows.append((i in t.breaks, cells))
    return {"title": t.title, "groups": groups, "labels": [] if not t.groups else labels[1:],
            "all_labels": labels, "numeric": numeric, "rows": rows, "note": t.note,
            "widths": column_widths(t, labels, rows, table_font_pt(section)) if pdf else []}


KEEP_ROWS = 30
"""A table of at most this many rows is never split across pages in the PDF (an ARCS breakdown of
eight values by three scenarios is 24 rows); longer ones repeat their header on each page."""
TEXT_WIDTH_PT = 176 / 25.4 * 72
"""The text width of the PDF's pages: A4 (210 mm) less the left and right margins of report.css."""
TABLE_FONT_PT = {"": 8.5, "documents": 8.0}
"""The tables' font size in pt by section id ("" for any other), for report.css and the widths."""
PAD_PT = 10.0
"""A cell's left plus right padding in pt (report.css: ``th, td { padding: 1.6pt 5pt }``)."""
FIT = 1.01
"""Measured advances (:func:`svg.advance_width`) times this: WeasyPrint's widths of the report's
cells are within 0.1 % of them (kerning only narrows a text), so 1 % holds every cell (tested)."""
MIN_STUB_PT = 60.0
"""The narrowest the first column is made to keep a table within the page (its labels wrap)."""


def table_font_pt(section: str) -> float:
    return TABLE_FONT_PT.get(section, TABLE_FONT_PT[""])


def _fit(width: float) -> float:
    """A column's width in pt: text width × :data:`FIT` + padding, rounded up to 0.1 pt."""
    return math.ceil((width * FIT + PAD_PT) * 10) / 10


def column_widths(t: T.Table, labels: list[str], rows: list, font_pt: float) -> list[float]:
    """w_j = max over column j's cells and (bold) header of Σ advance(c) · size, × FIT + padding
    (:func:`svg.advance_width`, :func:`_fit`): the column widths in pt of the PDF's fixed table
    layout (WeasyPrint's automatic layout measures every cell's preferred widths by laying its text
    out with Pango once more). A group header wider than its columns widens them evenly. A table
    wider than the page's text width gets a narrower first column (its labels wrap; never the
    numbers, never below its header or :data:`MIN_STUB_PT`). [] (the automatic layout) when fontconfig finds
    neither of the report's faces: estimated widths could fall short of the face WeasyPrint uses."""
    if not (svg.advances()[0] and svg.advances(True)[0]):
        return []
    n = len(t.header)
    w = [0.0] * n
    for _rule, cells in rows:
        for j, c in enumerate(cells[:n]):
            w[j] = max(w[j], svg.advance_width(c.text, font_pt, c.bold))
    head = [svg.advance_width(lab, font_pt, True) for lab in labels[:n]]
    w = [_fit(max(x, h)) for x, h in zip(w, head + [0.0] * (n - len(head)))]
    col = 1
    for g, span in t.groups:
        need = _fit(svg.advance_width(g, font_pt, True))
        have = sum(w[col:col + span])
        if g and need > have:
            for j in range(col, min(col + span, n)):
                w[j] = math.ceil((w[j] + (need - have) / span) * 10) / 10
        col += span
    rest = sum(w[1:])
    if w[0] + rest > TEXT_WIDTH_PT:
        room = math.floor((TEXT_WIDTH_PT - rest) * 10) / 10
        w[0] = min(w[0], max(MIN_STUB_PT, _fit(head[0]) if head else 0.0, room))
    return [round(x, 1) for x in w]


def _kind(block) -> str:
    if isinstance(block, T.Table):
        return "table"
    if isinstance(block, svg.Chart):
        return "chart"
    if isinstance(block, Para):
        return "para"
    if isinstance(block, Examples):
        return "examples"
    if isinstance(block, DocumentTexts):
        return "doctext"
    raise TypeError(block)


def bytecode_cache():
    """jinja2's cache of the compiled templates (``$TMPDIR/_jinja2-cache-UID``, private to the user;
    an entry is used only for the same template source and Python version): compiling the two
    templates costs ~0.14 s on every run, loading them ~2 ms. None where no private directory can
    be made; an entry that cannot be read or written is skipped (the template is compiled).
    ``COREFREPORT_TEMPLATE_CACHE=0`` turns it off."""
    from jinja2 import FileSystemBytecodeCache

    class Cache(FileSystemBytecodeCache):
        def get_cache_key(self, name: str, filename: str | None = None) -> str:
            # the compiled code depends on the environment's options too (``finalize`` is compiled
            # into every output): an entry made under other options must not be found
            return super().get_cache_key(f"{name}|{COMPILED_WITH}", filename)

        def load_bytecode(self, bucket) -> None:
            try:
                super().load_bytecode(bucket)
            except Exception:  # noqa: BLE001 - an unreadable or damaged entry: compile the template
                bucket.reset()

        def dump_bytecode(self, bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:  # a full or read-only disk: the next run compiles again
                pass

    if os.environ.get("COREFREPORT_TEMPLATE_CACHE") == "0":
        return None
    try:
        return Cache(pattern="__corefreport_%s.cache")
    except (OSError, RuntimeError):  # no private temporary directory
        return None


COMPILED_WITH = "autoescape+finalize=shown"
"""The environment options the templates' compiled code depends on: part of the bytecode cache's
key, so that a cache written by a version compiled otherwise is not used."""


def shown(value):
    r"""What every ``{{ … }}`` of the templates writes, before jinja2 escapes it: a string with its
    control characters (but tab and newline) and bidi controls as visible escapes
    (:func:`~corefreport.present.inert.inert`) — a document id's ESC is ```` on the page, and the
    HTML and the standalone SVG stay well-formed XML characters; markup the templates built
    (:class:`~markupsafe.Markup`, a macro's output) and other values as they are."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return inert(value, keep="\n\t")
    return value


@lru_cache(maxsize=1)
def environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    base = resources.files("corefreport") / "templates"
    env = Environment(loader=FileSystemLoader(str(base)), autoescape=select_autoescape(["html", "j2"]),
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      bytecode_cache=bytecode_cache(), finalize=shown)
    env.globals.update(table_view=table_view, table_font_pt=table_font_pt, kind=_kind, pct=pct, keep_rows=KEEP_ROWS,
                       fonts={k: Markup(v) for k, v in FONTS.items()}, chart_font_size=svg.FONT_SIZE)
    return env


def to_html(report: Report, pdf: bool = False) -> str:
    return environment().get_template("report.html.j2").render(report=report, pdf=pdf)


def chart_svg(chart: svg.Chart) -> str:
    """One chart as a standalone SVG file (its legend drawn below the bars), for ``--figures``."""
    mod = environment().get_template("_macros.html.j2").module
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + str(mod.chart_svg(svg.with_legend(chart))).strip() + "\n"
