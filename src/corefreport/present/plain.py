"""The terminal view's blocks as plain text for a pipe or a file: the characters Rich prints there,
without importing Rich.

A score's terminal view (:func:`corefreport.present.terminal.print_evaluation`) is a list of
:class:`Block`\\ s. On a terminal Rich draws them (colour, the terminal's width, wide tables cut
into parts). In a pipe or a file Rich draws them in ASCII with no style at :data:`PIPE_WIDTH` (100)
columns, as on a 100-column terminal: a wide table in parts of whole columns, each repeating the
first, a long line wrapped at its words (the signature excepted: one token a reader copies). That
is plain string padding and word wrapping; :func:`render` does it itself, so that a piped ``score``
neither imports Rich (~25 ms) nor lays tables out through it (~0.2 s for the full analysis's
tables). :func:`fits` says when a block list is within what :func:`render` reproduces exactly —
narrow characters only (every character one cell wide), no first-column cell longer than its
fold width, no table part wider than the page — and the caller lets Rich draw anything else. The
output equals Rich's character for character (tests/test_plain_render.py draws the same blocks
with both).

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

import re
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
    column, no first-column cell longer than its fold width, no table (or part of a table cut to
    :data:`PIPE_WIDTH`) wider than the page."""
    for b in blocks:
        cells = list(b.header) + [text_of(c) for r in b.rows for c in r]
        texts = [p[0] for p in b.parts] + cells + ([b.title] if b.title else [])
        if not all(_narrow(t) for t in texts) or any(c != c.strip() for c in cells):
            return False
        if b.kind == "boxed" and b.first_width and any(len(text_of(r[0])) > b.first_width for r in b.rows):
            return False
        if b.kind == "boxed" and b.first_width and len(b.header[0]) > b.first_width:
            return False
        if b.kind != "line":
            widths = _widths(b)
            if not widths or min(widths) < 1:
                return False
            if b.kind == "boxed" and b.fit:
                padded = fit_widths(b.header, b.rows, b.first_width)
                if any(padded[0] + sum(padded[i] for i in g) > PIPE_WIDTH for g in column_groups(padded, PIPE_WIDTH)):
                    return False
            elif sum(w + 3 for w in widths) >= PIPE_WIDTH:
                return False
    return True


PIPE_WIDTH = 100
"""The width of the view in a pipe or a file (Rich's too, :func:`corefreport.present.terminal.draw`):
a table wider than this comes in parts of whole columns, a line is wrapped at its words."""

PARTS_NOTE = "{n} columns in {k} parts to fit {width} columns (a wider terminal or -f csv shows one table)"
"""The line above a table cut into parts (on a narrow terminal, in a pipe or a file)."""


def column_groups(widths: list[int], available: int) -> list[list[int]]:
    """Split columns ``1..n-1`` into groups that fit ``available`` columns beside column 0.

    ``widths[i]`` is the width of column ``i`` with its padding. Each group is printed as its own
    table with column 0 repeated, so a number is never folded or replaced by ``…``:

    >>> column_groups([10, 8, 8, 8], 30)
    [[1, 2], [3]]
    >>> column_groups([10, 8, 8, 8], 80)
    [[1, 2, 3]]
    """
    groups: list[list[int]] = [[]]
    used = widths[0]
    for i in range(1, len(widths)):
        if groups[-1] and used + widths[i] > available:
            groups.append([])
            used = widths[0]
        groups[-1].append(i)
        used += widths[i]
    return groups


def fit_widths(header: list[str] | tuple[str, ...], rows, first_width: int) -> list[int]:
    """The padded widths a table cut into parts is grouped by: the first column up to
    ``first_width``, each column with its 3 cells of padding and rule."""
    first = min(first_width, max([len(header[0])] + [len(text_of(r[0])) for r in rows]))
    return [first + 3] + [max([len(h)] + [len(text_of(r[i])) for r in rows]) + 3 for i, h in enumerate(header) if i]


_WORD = re.compile(r"\s*\S+\s*")
_TRAILING = re.compile(r"\s+$")


def wrap(text: str, width: int = PIPE_WIDTH) -> list[str]:
    """``text`` in lines of at most ``width`` characters, broken as Rich breaks a line of narrow
    characters (``rich._wrap.divide_line``; ``Text.wrap`` with its default fold): greedily at the
    start of a word (the word with the spaces after it), a word longer than the line folded, the
    spaces beyond the width at a line's end dropped.

    >>> wrap("the key links it to its antecedent", 12)
    ['the key ', 'links it to ', 'its ', 'antecedent']
    """
    breaks: list[int] = []
    offset = 0
    for m in _WORD.finditer(text):
        start, word = m.start(), m.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:  # folded over several lines
            chunks = [word[i:i + width] for i in range(0, len(word), width)]
            for k, chunk in enumerate(chunks):
                if start:
                    breaks.append(start)
                if k == len(chunks) - 1:
                    offset = len(chunk)
                else:
                    start += len(chunk)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    lines = []
    for a, b in zip([0, *breaks], [*breaks, len(text)]):
        piece = text[a:b]
        if len(piece) > width:  # Text.rstrip_end: the spaces beyond the width
            trailing = _TRAILING.search(piece)
            if trailing is not None:
                piece = piece[:len(piece) - min(len(trailing.group(0)), len(piece) - width)]
        lines.append(piece[:width])
    return lines


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


def _fitted(b: Block) -> list[str]:
    """A table Rich fits to the page (``_print_fitted``): its title, then its columns in parts of
    :data:`PIPE_WIDTH` columns, each repeating the first, under a line saying so."""
    groups = column_groups(fit_widths(b.header, b.rows, b.first_width), PIPE_WIDTH)
    out = wrap(b.title) if b.title else []
    if len(groups) > 1:
        out.extend(wrap(PARTS_NOTE.format(n=len(b.header) - 1, k=len(groups), width=PIPE_WIDTH)))
    for g in groups:
        cols = [0, *g]
        part = replace(b, header=tuple(b.header[i] for i in cols), rows=tuple(tuple(r[i] for i in cols) for r in b.rows),
                       justify="".join(b.justify[i] for i in cols))
        out.extend(_table(part, "|", "-"))
    return out


def render(blocks: list[Block]) -> str:
    """The text Rich prints for ``blocks`` in a pipe (see the module docstring); check
    :func:`fits` first."""
    out: list[str] = []
    for b in map(inert_block, blocks):
        if b.kind == "line":
            text = "".join(p[0] for p in b.parts)
            out.extend([text] if b.soft_wrap else wrap(text))
            continue
        if b.kind == "boxed" and b.fit:
            out.extend(_fitted(b))
            continue
        if b.title:
            out.append(b.title)
        out.extend(_table(b, "", None) if b.kind == "grid" else _table(b, "|", "-"))
    out.append("")
    return "\n".join(out)
