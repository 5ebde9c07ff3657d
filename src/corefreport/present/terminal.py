"""Rich renderings for the terminal: a score's blocks (:mod:`.scoreview`, :func:`draw`) and a
:class:`Comparison` (plain ASCII boxes at :data:`~.plain.PIPE_WIDTH` columns when piped, as
a score's). Everything shown is a
neutral table of :mod:`.tables`, formatted by :mod:`.numbers`."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from rich import box
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from .labels import ARROW, SHORT_ANALYSIS, short_doc, short_path
from .numbers import ascii_text, cell, interval, p_value, pct
from .inert import inert
from .plain import PARTS_NOTE, PIPE_WIDTH, Block, Cell, column_groups, fit_widths, inert_block, text_of
from .sampling import spread_over_documents
from .table import grouped_labels
from .tables import Table, delta_cell, documents_table, group_label, highlights, legend, transitions

if TYPE_CHECKING:  # numpy is loaded only when a comparison is made
    from ..scoring.compare import Comparison, LinkChange


def _console(file: TextIO, color: bool | None) -> tuple[Console, bool]:
    """A console for ``file``: the terminal's width on a terminal, :data:`~.plain.PIPE_WIDTH` in a pipe or a
    file."""
    tty = file.isatty() if hasattr(file, "isatty") else False
    console = Console(file=file, width=None if tty else PIPE_WIDTH, no_color=color is False or not tty,
                      force_terminal=tty if color is None else color, highlight=False)
    return console, tty


def _print_fitted(console: Console, title: str | None, header: list[str], rows: list[list[str]], tty: bool,
                  first_width: int = 36) -> None:
    """Print ``header``/``rows`` (already formatted) as one table, or on a narrow terminal as several
    tables of whole columns, each repeating the first column, with a note saying so."""
    groups = column_groups(fit_widths(header, rows, first_width), console.width)
    header = [inert(h) for h in header]
    rows = [[inert(c) for c in r] for r in rows]
    if title:
        console.print(_t(title, "italic" if tty else ""))
    if len(groups) > 1:
        console.print(Text(PARTS_NOTE.format(n=len(header) - 1, k=len(groups), width=console.width), style="dim"))
    for group in groups:
        rt = RichTable(box=box.SIMPLE_HEAD if tty else box.ASCII2, pad_edge=False, show_edge=tty)
        rt.add_column(Text(header[0]), justify="left", overflow="fold", max_width=first_width)
        for i in group:
            rt.add_column(Text(header[i]), justify="right", no_wrap=True)
        for r in rows:
            rt.add_row(Text(r[0]), *[Text(r[i]) for i in group])
        console.print(rt)


def print_grouped(console: Console, t: Table, tty: bool, skip: tuple[str, ...] = ()) -> None:
    """A neutral :class:`Table` under its display labels, each prefixed by its column group's
    (short) label, without the columns ``skip``; fitted to the terminal like :func:`print_table`."""
    labels = grouped_labels(t.labels or t.header, t.groups)
    keep = [i for i, h in enumerate(t.header) if h not in skip]
    header = [labels[i] for i in keep]
    rows = [[cell(row[i], t.header[i]) for i in keep] for row in t.rows]
    _print_fitted(console, t.title, header, rows, tty, first_width=28)
    if t.note:
        console.print(_t(t.note, "dim"))


def draw(blocks: list[Block], file: TextIO, color: bool | None = None) -> None:
    """Draw :class:`~.plain.Block`\\ s with Rich on ``file``: the terminal's width and styles on a
    terminal, ASCII boxes at :data:`~.plain.PIPE_WIDTH` columns in a pipe (wide tables in parts of
    whole columns, long lines wrapped, either way)."""
    console, tty = _console(file, color)
    for b in map(inert_block, blocks):
        if b.kind == "line":
            t = Text()
            for text, style in b.parts:
                t.append(text, style=style)
            console.print(t, soft_wrap=b.soft_wrap)
        elif b.kind == "grid":
            grid = RichTable(box=None, pad_edge=False, show_header=True, header_style="dim")
            for h, j in zip(b.header, b.justify):
                grid.add_column(Text(h), justify=_JUSTIFY[j], overflow="ellipsis", no_wrap=True)
            for r in b.rows:
                grid.add_row(*[_text(c) for c in r])
            console.print(grid)
        elif b.fit:
            _print_fitted(console, b.title, list(b.header), [[text_of(c) for c in r] for r in b.rows], tty,
                          first_width=b.first_width)
        else:
            table = RichTable(box=box.SIMPLE_HEAD if tty else box.ASCII2, pad_edge=False, show_edge=tty)
            for i, (h, j) in enumerate(zip(b.header, b.justify)):
                table.add_column(Text(h), justify=_JUSTIFY[j], style=b.styles[i] if b.styles else None)
            for r in b.rows:
                table.add_row(*[_text(c) for c in r])
            console.print(table)


_JUSTIFY = {"l": "left", "r": "right"}


def _text(c: Cell) -> Text:
    """A cell as Rich text (never read as markup, made inert)."""
    return _t(c) if isinstance(c, str) else _t(c[0], c[1])


def _t(text: str, style: str = "") -> Text:
    """Text for the terminal: never read as Rich markup, its control characters (a document id's
    ESC, a system name's newline) shown as escapes (:func:`.inert.inert`)."""
    return Text(inert(str(text)), style=style)


def _add_row(table: RichTable, *cells: str | Text) -> None:
    """A row of ``table``: each ``str`` cell as :func:`_t` text (never markup, inert)."""
    table.add_row(*[c if isinstance(c, Text) else _t(c) for c in cells])


def _rt(title: str | None, tty: bool) -> RichTable:
    return RichTable(title=_t(title) if title else None, box=box.SIMPLE_HEAD if tty else box.ASCII2, pad_edge=False,
                     title_justify="left", show_edge=tty)


def print_comparison(cmp: Comparison, console: Console | None = None, *, file: TextIO | None = None,
                     color: bool | None = None, top: int = 3, examples: int = 2, min_support: int = 20,
                     documents: int = 3) -> None:
    """Print the comparison: the systems, a sentence per system, every metric side by side with Δ,
    its 95 % interval and p, per-class and per-type gains and losses, link counts with a few
    example links, the documents that moved most, the legend and the signature."""
    if console is None:
        console, tty = _console(file or sys.stdout, color)
    else:
        tty = console.is_terminal
    fix = (lambda s: s) if tty else ascii_text
    cmp_sys = cmp.systems
    console.print(_t(f"{len(cmp.names)} systems on {len(cmp.documents)} documents; baseline {cmp.baseline}"))
    names = RichTable(box=None, pad_edge=False, show_header=False)
    names.add_column(style="bold")
    names.add_column(overflow="ellipsis", no_wrap=True)
    for n in cmp.names:
        _add_row(names, _t(n), _t(short_path(cmp.sources.get(n, ""), 60)))
    console.print(names)
    for w in cmp.warnings:
        console.print(Text.assemble(("warning:", "yellow"), " " + inert(w)))
    for c in cmp.cautions:  # a correction applied is a note, not a caution
        console.print(Text.assemble(("note:" if c.kind == "correction" else "caution:", "bold yellow"),
                                    f" {fix(inert(c.message))}"))
    for n in cmp_sys:
        console.print(_t(fix(highlights(cmp, n, min_support=min_support)), style="bold" if tty else ""))
    console.print()

    # every metric side by side
    one = len(cmp_sys) == 1
    t = _rt("F1 (%)" + (f", {cmp_sys[0]} against {cmp.baseline}" if one else ""), tty)
    t.add_column("metric", no_wrap=True)
    for n in cmp.names:
        t.add_column(_t(n), justify="right", overflow="fold")
    p_head = _p_header(cmp)
    if one:
        t.add_column("Δ", justify="right", no_wrap=True)
        t.add_column("95 % CI of Δ", justify="right", no_wrap=True)
        t.add_column(p_head, justify="right", no_wrap=True)
    else:
        for n in cmp_sys:
            t.add_column(_t(f"Δ {n}"), justify="right", overflow="fold")
    family = None
    for m in cmp.metrics:
        if family is not None and m.family != family:
            t.add_section()
        family = m.family
        cells = [m.label] + [_t(pct(m.f1[n]), style="bold" if n in m.best and len(cmp.names) > 1 else "")
                             for n in cmp.names]
        if one:
            x = m.tests[cmp_sys[0]]
            cells += [fix(delta_cell(x)), fix(interval(x.delta_ci)), p_value(x.p)]
        else:
            cells += [fix(delta_cell(m.tests[n])) for n in cmp_sys]
        _add_row(t, *cells)
    console.print(t)
    if not one:
        for n in cmp_sys:
            d = _rt(f"{n} against {cmp.baseline}", tty)
            for h, j in (("metric", "left"), ("Δ", "right"), ("95 % CI of Δ", "right"), (p_head, "right")):
                d.add_column(h, justify=j, no_wrap=True)
            for m in cmp.metrics:
                x = m.tests[n]
                _add_row(d, m.label, fix(delta_cell(x)), fix(interval(x.delta_ci)), p_value(x.p))
            console.print(d)

    # classes and types
    for n in cmp_sys:
        g = _rt(f"Where {n} gains and loses: F1 by class and type (n ≥ {min_support} key referents)", tty)
        for h, j in (("analysis", "left"), ("group", "left"), ("n", "right"), (cmp.baseline, "right"),
                     (n, "right"), ("Δ", "right"), (p_head, "right")):
            g.add_column(_t(h), justify=j, overflow="fold", max_width=26 if h == "group" else None,
                         no_wrap=h not in ("group", cmp.baseline, n))
        any_rows = False
        for a in dict.fromkeys(x.analysis for x in cmp.groups.get(n, [])):
            rows = cmp.gains(n, a, None, top, min_support) + cmp.losses(n, a, None, top, min_support)
            if any_rows and rows:
                g.add_section()
            for x in rows:
                any_rows = True
                _add_row(g, SHORT_ANALYSIS.get(a, a), fix(group_label(x)), str(x.key_referents), pct(x.test.baseline),
                          pct(x.test.system), fix(delta_cell(x.test)), p_value(x.test.p))
        if any_rows:
            console.print(g)
        if cmp.errors.get(n):  # Kummerfeld & Klein error classes (-a errors)
            from .errortables import compare_errors_table

            print_grouped(console, compare_errors_table(cmp, n), tty, skip=("p_errors", "ci_cost"))
            if cmp.error_matches.get(n):  # the same errors or not; the key entities that changed
                from .errordiff import entity_change_tables, error_match_table

                for x in (error_match_table(cmp, n), *entity_change_tables(cmp, n)):
                    print_grouped(console, x, tty)

        # links
        per = cmp.links.get(n, {})
        if per:
            lt = _rt(f"Links: right only in {n} / only in {cmp.baseline} / in both", tty)
            for h, j in (("analysis", "left"), (f"{n}", "right"), (cmp.baseline, "right"), ("both", "right"),
                         ("most frequent changes", "left")):
                lt.add_column(_t(h), justify=j, overflow="fold")
            for a, lc in per.items():
                _add_row(lt, SHORT_ANALYSIS.get(a, a), str(lc.gains), str(lc.losses), str(lc.both_right),
                           fix(transitions(lc)))
            console.print(lt)
            if examples > 0:
                ex = _rt(f"Example links ({cmp.baseline} {fix(ARROW)} {n})", tty)
                for h in ("analysis", "document", "mention", "outcome"):
                    ex.add_column(h, overflow="fold", max_width=30 if h in ("document", "mention") else None)
                shown = False
                for a, lc in per.items():
                    for kind in ("gain", "loss"):
                        for c in _examples(lc.changes, kind, examples):
                            shown = True
                            _add_row(ex, SHORT_ANALYSIS.get(a, a), short_doc(c.doc_id), _mention(c),
                                       fix(f"{c.baseline}{ARROW}{c.system}"))
                if shown:
                    console.print(ex)

        # documents
        docs = cmp.per_document.get(n, [])
        if docs and documents > 0:
            dt = documents_table(cmp, n, documents)
            r = _rt(dt.title, tty)
            for h, j in (("document", "left"), (cmp.baseline, "right"), (n, "right"), ("Δ", "right")):
                r.add_column(_t(h), justify=j, overflow="fold")
            for row in dt.rows:
                _add_row(r, row[0], pct(row[1]), pct(row[2]), fix(row[3]))
            console.print(r)
    console.print(_t(f"{fix(legend(cmp))}; F1 in %, Δ in points, best in bold", style="dim"))
    console.print(_t(str(cmp.signature), style="dim"), soft_wrap=True)


def _p_header(cmp: Comparison) -> str:
    """The p column's header: ``p``, or ``p (Holm)`` / ``p (BH)`` when the p-values are adjusted."""
    return {"holm": "p (Holm)", "bh": "p (BH)"}.get(cmp.resampling.correction, "p")


def _examples(changes: list[LinkChange], kind: str, k: int) -> list[LinkChange]:
    """``k`` changes of ``kind`` from different documents, key referents before spurious mentions."""
    pool = sorted((c for c in changes if c.kind == kind), key=lambda c: c.side != "key")
    return spread_over_documents(pool, k, fill=False)


def _mention(c: LinkChange) -> str:
    text = c.text if len(c.text) <= 24 else c.text[:23] + "…"
    return f"{text} [{c.start}-{c.end}]" + (" (spurious)" if c.side == "response" else "")


def render(cmp: Comparison, width: int = 80, **kwargs) -> str:
    """The terminal rendering as plain text (no colour) at ``width`` columns."""
    from io import StringIO

    buf = StringIO()
    console = Console(file=buf, width=width, no_color=True, force_terminal=False, highlight=False)
    print_comparison(cmp, console, **kwargs)
    return buf.getvalue()
