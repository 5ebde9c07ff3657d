"""Rich rendering of an :class:`Evaluation` for the terminal (80 columns suffice; plain when piped)."""

from __future__ import annotations

import sys
from typing import TextIO

from rich import box
from rich.console import Console
from rich.table import Table as RichTable

from ..report.tables import METRIC_LABELS, Table, all_tables, is_score_column, metrics_table, per_document_table
from ..scoring.result import Evaluation


def _p(x) -> str:
    return "" if x is None else f"{100 * x:6.2f}"


def _n(x) -> str:
    if x is None:
        return ""
    return f"{x:g}" if float(x).is_integer() else f"{x:.2f}"


def _short(path: str, width: int = 40) -> str:
    """A path short enough for an 80-column line: the file name when the whole path is too long."""
    if len(path) <= width:
        return path
    from pathlib import Path

    name = Path(path).name
    return name if len(name) <= width else "…" + name[-(width - 1):]


def print_table(console: Console, t: Table, tty: bool) -> None:
    """Any neutral :class:`Table`: scores as percentages, counts as numbers."""
    rt = RichTable(title=t.title, box=box.SIMPLE_HEAD if tty else box.ASCII2, pad_edge=False, title_justify="left")
    for i, h in enumerate(t.header):
        rt.add_column(METRIC_LABELS.get(h, h.replace("_", " ")), justify="left" if i == 0 else "right",
                      overflow="fold", max_width=28 if i == 0 else None)
    for row in t.rows:
        cells = [METRIC_LABELS.get(row[0], str(row[0])) if isinstance(row[0], str) else str(row[0])]
        for h, v in zip(t.header[1:], row[1:]):
            if v is None:
                cells.append("n/a" if is_score_column(h) else "")
            elif isinstance(v, str):
                cells.append(v)
            elif is_score_column(h):
                cells.append(_p(v))
            else:
                cells.append(_n(v))
        rt.add_row(*cells)
    console.print(rt)
    if t.note:
        console.print(f"[dim]{t.note}[/dim]")


def print_evaluation(ev: Evaluation, per_doc: bool = False, file: TextIO | None = None, color: bool | None = None) -> None:
    """Print the corpus sizes, the metrics table (R, P, F1 with num/den), per-document F1, the signature."""
    file = file or sys.stdout
    tty = file.isatty() if hasattr(file, "isatty") else False
    console = Console(file=file, width=None if tty else 100, no_color=color is False or not tty,
                      force_terminal=tty if color is None else color, highlight=False)
    sizes = RichTable(box=None, pad_edge=False, show_header=True, header_style="dim")
    for h in ("", "docs", "mentions", "chains", "singletons", "file"):
        sizes.add_column(h, justify="left" if h in ("", "file") else "right", overflow="ellipsis", no_wrap=True)
    for label, st, src in (("key", ev.key_stats, ev.key_source), ("response", ev.response_stats, ev.response_source)):
        sizes.add_row(label, str(st.documents), str(st.mentions), str(st.chains), str(st.singletons), _short(src))
    console.print(sizes)
    t = metrics_table(ev)
    table = RichTable(box=box.SIMPLE_HEAD if tty else box.ASCII2, pad_edge=False, show_edge=tty)
    table.add_column("metric", style="bold")
    for h in ("R", "P", "F1"):
        table.add_column(h, justify="right")
    table.add_column("R num/den", justify="right", style="dim")
    table.add_column("P num/den", justify="right", style="dim")
    for row in t.rows:
        name, rr, pp, ff, rn, rd, pn, pd = row
        label = METRIC_LABELS.get(name, name)
        if name == "conll":
            table.add_row(label, "", "", f"[bold]{_p(ff)}[/bold]", "", "")
            continue
        if rn is None:  # BLANC: link counts of two kinds do not make one fraction (see the JSON)
            table.add_row(label, _p(rr), _p(pp), _p(ff), "", "")
            continue
        table.add_row(label, _p(rr), _p(pp), _p(ff), f"{_n(rn)}/{_n(rd)}", f"{_n(pn)}/{_n(pd)}")
    console.print(table)
    for extra in all_tables(ev)[1:]:
        print_table(console, extra, tty)
    if per_doc:
        pt = per_document_table(ev)
        dt = RichTable(title="per document, worst first", box=box.SIMPLE_HEAD if tty else box.ASCII2, pad_edge=False)
        dt.add_column("document", overflow="fold", max_width=36)
        for h in pt.header[1:]:
            dt.add_column(METRIC_LABELS.get(h, h), justify="right")
        for row in pt.rows:
            dt.add_row(str(row[0]), *[_p(v) for v in row[1:]])
        console.print(dt)
    console.print(f"[dim]{ev.signature}[/dim]")
