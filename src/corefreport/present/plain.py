"""The terminal view's blocks as plain text for a pipe or a file: the characters Rich prints there,
without importing Rich.

A score's terminal view (:func:`corefreport.present.terminal.print_evaluation`) is a list of
:class:`Block`\\ s. On a terminal Rich draws them (colour, the terminal's width, wide tables cut
into parts). In a pipe or a file Rich draws them in ASCII at an unbounded width with no style,
which is plain string padding; :func:`render` does that padding itself, so that a piped ``score``
neither imports Rich (~25 ms) nor lays tables out through it (~0.2 s for the full analysis's
tables). :func:`fits` says when a block list is within what :func:`render` reproduces exactly —
narrow characters only (every character one cell wide), no first-column cell longer than its
fold width — and the caller lets Rich draw anything else. The output equals Rich's character for
character (tests/test_plain_render.py draws the same blocks with both).

Layouts, as Rich draws them with ``pad_edge=False`` and no outer edge:

* ``grid`` (``box=None``): cells padded to their column's width, columns two spaces apart;
* ``boxed`` (``box.ASCII2``): columns ``" | "`` apart, a ``-``/``+`` rule under the header.

>>> print(render([Block("boxed", header=("metric", "F1"), rows=(("MUC", "79.78"),), justify="lr")]))
metric |    F1
-------+------
MUC    | 79.78
<BLANKLINE>
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .inert import inert

Cell = str | tuple[str, str]
"""A cell's text, or ``(text, style)`` for a Rich style on a terminal (bold, dim)."""


@dataclass(frozen=True)
class Block:
    """One piece of the terminal view.

    ``kind``: ``"grid"`` (a borderless table, dim header), ``"boxed"`` (a table with rules; with
    ``fit`` it is cut into parts of whole columns on a narrow terminal and its first column folds
    at ``first_width``), or ``"line"`` (``parts``: ``(text, style)`` pieces of one line).
    ``justify`` holds one letter per column, ``l`` or ``r``; ``styles`` one Rich style per column
    (terminal only)."""

    kind: str
    title: str | None = None
    header: tuple[str, ...] = ()
    rows: tuple[tuple[Cell, ...], ...] = ()
    justify: str = ""
    styles: tuple[str, ...] = ()
    fit: bool = False
    first_width: int = 0
    parts: tuple[tuple[str, str], ...] = ()
    soft_wrap: bool = False
    """A line the terminal, not Rich, wraps (the signature: one token a reader copies)."""


def text_of(cell: Cell) -> str:
    """The characters of a cell."""
    return cell if isinstance(cell, str) else cell[0]


def _inert_cell(c: Cell) -> Cell:
    if isinstance(c, str):
        return c if c.isprintable() else inert(c)
    return c if c[0].isprintable() else (inert(c[0]), c[1])


def _printable(row: tuple[Cell, ...]) -> bool:
    try:
        return "".join(row).isprintable()  # type: ignore[arg-type]
    except TypeError:  # a (text, style) cell
        return all(text_of(c).isprintable() for c in row)


def inert_block(b: Block) -> Block:
    """``b`` with every text made inert (:func:`.inert.inert`: a document id's ESC shown as ``\\x1b``):
    drawn by Rich or by :func:`render`, no control character of an input reaches the terminal. ``b``
    itself when it holds none (the usual case costs one ``isprintable`` per cell)."""
    if (all(p[0].isprintable() for p in b.parts) and "".join(b.header).isprintable()
            and (b.title or "").isprintable() and all(map(_printable, b.rows))):
        return b
    return replace(b, title=inert(b.title) if b.title else b.title, header=tuple(inert(h) for h in b.header),
                   rows=tuple(tuple(_inert_cell(c) for c in r) for r in b.rows),
                   parts=tuple((inert(t), s) for t, s in b.parts))


def line(text: str, style: str = "", soft_wrap: bool = False) -> Block:
    """A one-line block."""
    return Block("line", parts=((text, style),), soft_wrap=soft_wrap)


def fits(blocks: list[Block]) -> bool:
    """Whether :func:`render` draws ``blocks`` exactly as Rich would in a pipe: every character
    one cell wide and printable, no cell with spaces at its ends (Rich strips them), no empty
    column, no line reaching Rich's pipe width,
    no first-column cell longer than its fold width."""
    for b in blocks:
        cells = list(b.header) + [text_of(c) for r in b.rows for c in r]
        texts = [p[0] for p in b.parts] + cells + ([b.title] if b.title else [])
        if not all(_narrow(t) for t in texts) or any(c != c.strip() for c in cells):
            return False
        if sum(len(p[0]) for p in b.parts) >= PIPE_WIDTH or len(b.title or "") >= PIPE_WIDTH:
            return False
        if b.kind == "boxed" and b.first_width and any(len(text_of(r[0])) > b.first_width for r in b.rows):
            return False
        if b.kind == "boxed" and b.first_width and len(b.header[0]) > b.first_width:
            return False
        if b.kind != "line":
            widths = _widths(b)
            if not widths or min(widths) < 1 or sum(w + 3 for w in widths) >= PIPE_WIDTH:
                return False
    return True


PIPE_WIDTH = 10_000
"""The width Rich is given in a pipe or a file (``present.terminal.FULL_WIDTH`` is this)."""

def _narrow(text: str) -> bool:
    """Whether every character of ``text`` takes one cell: printable ASCII, or a character that is
    neither East Asian wide nor zero-width (combining marks, format and control characters)."""
    if text.isascii():
        return text.isprintable()
    from unicodedata import category, east_asian_width

    return all(ch.isprintable() and east_asian_width(ch) not in ("W", "F")
               and category(ch) not in ("Mn", "Me", "Cf") for ch in text)


def _widths(b: Block) -> list[int]:
    n = len(b.header)
    widths = [len(h) for h in b.header]
    for r in b.rows:
        for i in range(n):
            w = len(text_of(r[i]))
            if w > widths[i]:
                widths[i] = w
    return widths


def _pad(text: str, width: int, justify: str) -> str:
    return text.rjust(width) if justify == "r" else text.ljust(width)


def _table(b: Block, sep: str, rule: str | None) -> list[str]:
    """The lines of a table: cells padded to their column, one space of padding inside the
    columns' shared edges, ``sep`` between columns, ``rule`` (a character) under the header."""
    widths = _widths(b)
    n = len(widths)
    last = n - 1

    def row(cells) -> str:
        out = []
        for i, c in enumerate(cells):
            t = _pad(text_of(c), widths[i], b.justify[i])
            out.append(t if n == 1 else t + " " if i == 0 else " " + t if i == last else " " + t + " ")
        return sep.join(out)

    lines = [row(b.header)]
    if rule is not None:
        dashes = [w + (0 if n == 1 else 1 if i in (0, last) else 2) for i, w in enumerate(widths)]
        lines.append("+".join(rule * d for d in dashes))
    lines.extend(row(r) for r in b.rows)
    return lines


def render(blocks: list[Block]) -> str:
    """The text Rich prints for ``blocks`` in a pipe (see the module docstring); check
    :func:`fits` first."""
    out: list[str] = []
    for b in map(inert_block, blocks):
        if b.kind == "line":
            out.append("".join(p[0] for p in b.parts))
            continue
        if b.title:
            out.append(b.title)
        out.extend(_table(b, "", None) if b.kind == "grid" else _table(b, "|", "-"))
    out.append("")
    return "\n".join(out)
