"""What the browser's screens share: a page stack, a breadcrumb that gives way from the left, a
status line for short messages (never a toast over the numbers), and the timing of each step
from the key to the painted page (``app.timings``)."""

from __future__ import annotations

import time

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Static

from ...present.inert import inert


def crumb_line(parts: list[str], width: int) -> str:
    """The breadcrumb in ``width`` columns: the first parts give way ("…") to the last, which
    says where you are."""
    line = " › ".join(parts)
    keep = list(parts)
    while len(line) > width and len(keep) > 1:
        keep.pop(0)
        line = "… › " + " › ".join(keep)
    return line


def text_bar(done: int, total: int, width: int) -> Text:
    n = round(width * done / total) if total else 0
    return Text("█" * n, style="green") + Text("░" * (width - n), style="dim") + Text(f" {done}/{total}")


def with_tips(bindings: list[Binding], descriptions: dict[str, str]) -> list[Binding]:
    """``bindings`` with their tooltips from ``descriptions`` (by binding id)."""
    from dataclasses import replace

    return [replace(b, tooltip=b.tooltip or descriptions.get(b.id or "", "")) for b in bindings]


def sort_keys(tooltip: str = "") -> list[Binding]:
    """The digit keys 1–9: sort by that column (again: reverse); ``tooltip`` a format of ``n``."""
    return [Binding(str(n), f"sort_by({n - 1})", f"Sort by column {n}", id=f"corefreport.sort_column_{n}",
                    show=False, tooltip=tooltip.format(n=n)) for n in range(1, 10)]


class PageScreen(Screen):
    """A screen of pages (``self.pages``, the top one shown) with its breadcrumb in ``#{ID}crumbs``,
    its status line in ``#{ID}status``, its search box in ``#{ID}filter`` and its detail pane in
    ``#{ID}detail-box`` (a screen that mixes in :class:`~corefreport.tui.typing.TypedSearch`)."""

    ID = ""
    """The prefix of its widgets' ids."""
    _mark: tuple[str, float] | None = None
    _said: str | None = None
    _say_timer = None

    def update_crumbs(self, parts: list[str]) -> None:
        self.query_one(f"#{self.ID}crumbs", Static).update(
            Text(inert(crumb_line(parts, self.app.size.width - 2)), no_wrap=True, overflow="ellipsis"))

    def on_key(self, event: events.Key) -> None:
        self.capture(event, self.query_one(f"#{self.ID}filter", Input))  # typed after "/": text (tui/typing.py)

    def on_paste(self, event: events.Paste) -> None:
        self.capture(event, self.query_one(f"#{self.ID}filter", Input))

    def valid_query(self, event: Input.Submitted) -> bool:
        """Whether the search submitted parses; a bad regular expression is said, the box kept."""
        from ..search import QueryError, parse_query

        try:
            parse_query(event.value)
        except QueryError as err:
            self.say(str(err), 6)
            event.input.focus()
            return False
        return True

    def action_detail(self, lines: int) -> None:
        """Scroll the detail pane while the cursor stays in the table."""
        box = self.query_one(f"#{self.ID}detail-box", VerticalScroll)
        if box.display:
            box.scroll_relative(y=lines, animate=False)

    def idle_status(self) -> str | None:
        """What the status line shows when no message is on it (``None``: it is hidden)."""
        return None

    def say(self, text: str, seconds: float = 3) -> None:
        """A message on the status line above the footer (not a toast: it never covers the numbers)."""
        status = self.query_one(f"#{self.ID}status", Static)
        status.update(Text(inert(text), no_wrap=True, overflow="ellipsis"))
        status.display = True
        self._said = text
        if self._say_timer is not None:
            self._say_timer.stop()

        def clear() -> None:
            if self._said == text:
                self._said = None
                idle = self.idle_status()
                status.update(idle or "")
                status.display = idle is not None

        self._say_timer = self.set_timer(seconds, clear)

    # ---- timings (drill steps are measured from the key to the refreshed page)

    def _start(self, label: str) -> None:
        self._mark = (label, time.perf_counter())

    def _done(self, table=None) -> None:
        """The step is shown: its time is recorded when ``table``'s lines are painted (else after
        the next refresh)."""
        mark, self._mark = self._mark, None
        if mark is None:
            return

        def record() -> None:
            self.app.timings.append((mark[0], 1000 * (time.perf_counter() - mark[1])))

        if table is not None:
            table.after_paint(record)  # when its lines are rendered, not just scheduled
        else:
            self.call_after_refresh(record)
