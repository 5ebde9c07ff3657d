"""A virtual table for :class:`~corefreport.tui.model.View` objects (Textual's line API).

Textual's ``DataTable`` measures every cell it holds and renders cells through Rich padding and
wrapping (~0.2–0.5 ms a cell on a 2-core machine): a page of 20 rows × 9 columns costs 40–100 ms
to paint, a table of 10,000 rows seconds to load. This widget formats only the rows on screen
(cached per row), so a page costs the same whatever the number of rows behind it, and switching
pages costs a few milliseconds. Column widths come from the header and the first
:data:`MEASURE` rows; longer cells are cut with "…".
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ..present.inert import inert, inert_styled
from .model import View

MEASURE = 200
"""Rows measured for the column widths."""


def _cut(text: Text, width: int, right: bool) -> Text:
    n = cell_len(text.plain)
    if n > width:
        text = text.copy()
        text.truncate(width, overflow="ellipsis")
        n = cell_len(text.plain)
    pad = " " * (width - n)
    if right:
        return Text(pad) + text if pad else text
    return text + Text(pad) if pad else text


class LineTable(ScrollView, can_focus=True):
    """Rows of a :class:`View`: a header, a row cursor, zebra stripes; ↑ ↓ PgUp PgDn Home End move,
    Enter selects, a click on a header asks for a sort."""

    COMPONENT_CLASSES = {"line-table--header", "line-table--cursor", "line-table--even"}
    BINDINGS = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("left", "column(-1)", "Left", show=False),
        Binding("right", "column(1)", "Right", show=False),
        Binding("enter", "select", "Open", show=False),
    ]

    class Highlighted(Message):
        def __init__(self, table: "LineTable", row: int) -> None:
            super().__init__()
            self.table = table
            self.row = row

    class Selected(Message):
        def __init__(self, table: "LineTable", row: int, column: int = 0) -> None:
            super().__init__()
            self.table = table
            self.row = row
            self.column = column
            """The cell's column on a view with a cell cursor (a matrix), else 0."""

    class HeaderClicked(Message):
        def __init__(self, table: "LineTable", column: int) -> None:
            super().__init__()
            self.table = table
            self.column = column

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: View | None = None
        self.cursor_row = 0
        self.cursor_col = 0
        self.widths: list[int] = []
        self._cells: dict[int, list[Text]] = {}
        self._lines: dict[tuple[int, int], Strip] = {}
        self._after_paint: list = []

    def after_paint(self, callback) -> None:
        """Call ``callback`` (quick, no UI work) once the table has next rendered its lines: for
        timing page switches."""
        self._after_paint.append(callback)
        self.refresh()

    # ---- data

    @property
    def row_count(self) -> int:
        return len(self.view) if self.view is not None else 0

    @property
    def formatted(self) -> int:
        """How many rows were formatted so far (only those shown are)."""
        return len(self._cells)

    def set_view(self, view: View, cursor: int = 0) -> None:
        self.view = view
        self._cells.clear()
        self._lines.clear()
        header = [Text(inert(c)) for c in view.columns]
        widths = [cell_len(c.plain) for c in header]
        for i in range(min(len(view), MEASURE)):
            for j, c in enumerate(self._row(i)):
                widths[j] = max(widths[j], cell_len(c.plain))
        self.widths = widths
        self.virtual_size = Size(sum(w + 2 for w in widths), len(view) + 1)
        self.cursor_row = max(0, min(cursor, len(view) - 1))
        self.cursor_col = 1 if view.cell_cursor and len(view.columns) > 1 else 0
        self.scroll_to(0, 0, animate=False, immediate=True)
        if self.cursor_row:
            self.call_after_refresh(self.move_cursor, self.cursor_row)
        self.refresh()
        if len(view):
            self.post_message(self.Highlighted(self, self.cursor_row))

    def _row(self, i: int) -> list[Text]:
        cells = self._cells.get(i)
        if cells is None:
            # a document id or a word: never markup, its control characters shown as escapes
            cells = [inert_styled(c) if isinstance(c, Text) else Text(inert(str(c)))
                     for c in self.view.cell(self.view.items[i], False)]
            self._cells[i] = cells
        return cells

    def plain_row(self, i: int) -> list[str]:
        return [c.plain for c in self._row(i)]

    # ---- rendering

    def _line(self, cells: list[Text], style: Style, numeric: frozenset[int], hot: int | None = None) -> Strip:
        line = Text(style=style, no_wrap=True, overflow="crop", end="")
        for j, (c, w) in enumerate(zip(cells, self.widths)):
            if j == hot:  # the cell cursor of a matrix: reversed, with brackets that read without colour
                line.append("[", style="bold")
                line.append_text(_cut(c, w, j in numeric))
                line.stylize("reverse", len(line) - w, len(line))
                line.append("]", style="bold")
                continue
            line.append(" ")
            line.append_text(_cut(c, w, j in numeric))
            line.append(" ")
        # every segment needs a style: Textual's filters (NO_COLOR's monochrome) read it
        segments = [Segment(t, s if s is not None else style, c) for t, s, c in line.render(self.app.console)]
        return Strip(segments, cell_len(line.plain))

    def render_lines(self, crop):
        lines = super().render_lines(crop)
        if self._after_paint:
            callbacks, self._after_paint = self._after_paint, []
            for cb in callbacks:
                cb()
        return lines

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        view = self.view
        base = self.rich_style
        if view is None:
            return Strip.blank(width, base)
        numeric = view.numeric
        if y == 0:
            key = (-1, 0)
            strip = self._lines.get(key)
            if strip is None:
                style = base + self.get_component_rich_style("line-table--header")
                strip = self._line([Text(inert(c)) for c in view.columns], style, numeric)
                self._lines[key] = strip
            style = base + self.get_component_rich_style("line-table--header")
        else:
            i = scroll_y + y - 1
            if i >= len(view):
                return Strip.blank(width, base)
            kind = 2 if i == self.cursor_row else (1 if i % 2 else 0)
            key = (i, kind)
            strip = self._lines.get(key)
            if kind == 2:
                style = base + self.get_component_rich_style("line-table--cursor")
            elif kind == 1:
                style = base + self.get_component_rich_style("line-table--even")
            else:
                style = base
            if strip is None:
                hot = self.cursor_col if kind == 2 and view.cell_cursor else None
                strip = self._line(self._row(i), style, numeric, hot)
                self._lines[key] = strip
        fixed = self._fixed
        if not scroll_x or not fixed:
            return strip.crop_extend(scroll_x, scroll_x + width, style)
        # the first column (the row labels) stays in place while the others scroll
        return Strip.join([strip.crop(0, fixed), strip.crop_extend(fixed + scroll_x, scroll_x + width, style)])

    @property
    def _fixed(self) -> int:
        """Width of the first column, kept in place when the table scrolls sideways (0: it scrolls
        too, when it would take more than half the width)."""
        if not self.widths:
            return 0
        fixed = self.widths[0] + 2
        return fixed if fixed <= self.scrollable_content_region.width // 2 else 0

    def on_focus(self) -> None:
        self._lines = {k: v for k, v in self._lines.items() if k[1] != 2}  # the cursor's colour follows focus
        self.refresh()

    def on_blur(self) -> None:
        self.on_focus()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._lines.clear()

    # ---- cursor

    @property
    def _page_height(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def move_cursor(self, row: int) -> None:
        n = self.row_count
        if not n:
            return
        row = max(0, min(row, n - 1))
        old = self.cursor_row
        self.cursor_row = row
        for k in [k for k in self._lines if k[0] in (old, row)]:
            del self._lines[k]
        top = round(self.scroll_y)
        h = self._page_height
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + h:
            self.scroll_to(y=row - h + 1, animate=False, immediate=True)
        self.refresh()
        if row != old:
            self.post_message(self.Highlighted(self, row))

    def action_cursor(self, delta: int) -> None:
        self.move_cursor(self.cursor_row + delta)

    def action_page(self, direction: int) -> None:
        self.move_cursor(self.cursor_row + direction * self._page_height)

    def action_jump(self, where: int) -> None:
        self.move_cursor(0 if where == 0 else self.row_count - 1)

    def action_select(self) -> None:
        if self.row_count:
            self.post_message(self.Selected(self, self.cursor_row, self.cursor_col))

    def action_column(self, delta: int) -> None:
        """← →: scroll a wide table, or move the cell cursor of a matrix (kept in sight)."""
        view = self.view
        if view is None or not view.cell_cursor:
            (self.scroll_left if delta < 0 else self.scroll_right)(animate=False)
            return
        self.move_column(self.cursor_col + delta)

    def move_column(self, column: int) -> None:
        view = self.view
        if view is None:
            return
        self.cursor_col = max(0, min(column, len(view.columns) - 1))
        for k in [k for k in self._lines if k[0] == self.cursor_row]:
            del self._lines[k]
        left = sum(w + 2 for w in self.widths[: self.cursor_col])
        right = left + self.widths[self.cursor_col] + 2
        x = round(self.scroll_x)
        fixed = self._fixed if self.cursor_col else 0
        if left < x + fixed:
            self.scroll_to(x=max(0, left - fixed), animate=False, immediate=True)
        elif right > x + self.scrollable_content_region.width:
            self.scroll_to(x=right - self.scrollable_content_region.width, animate=False, immediate=True)
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        if self.view is None:
            return
        y = event.y
        x = event.x if event.x < self._fixed else event.x + round(self.scroll_x)
        if y == 0:
            edge = 0
            for j, w in enumerate(self.widths):
                edge += w + 2
                if x < edge:
                    self.post_message(self.HeaderClicked(self, j))
                    break
            return
        row = round(self.scroll_y) + y - 1
        if 0 <= row < self.row_count:
            if self.view.cell_cursor:
                edge = 0
                for j, w in enumerate(self.widths):
                    edge += w + 2
                    if x < edge:
                        if row == self.cursor_row and j == self.cursor_col:
                            self.action_select()
                            return
                        self.move_cursor(row)
                        self.move_column(j)
                        return
            if row == self.cursor_row:
                self.action_select()
            else:
                self.move_cursor(row)
