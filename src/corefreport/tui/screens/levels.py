"""The page of many datasets or groups (``corefreport tui --datasets …``, ``tui KEY RESPONSE
--subsets genre``): one row each, with its scores, the macro row last; Enter opens that row's
browser (:class:`~corefreport.tui.screens.pair.Browser` on its evaluation; the app keeps it, so
coming back to a row finds its browser as it was left) and Escape on those totals comes back.
The rows come from the study's :class:`~corefreport.study.nodes.Datasets` or
:class:`~corefreport.study.nodes.Groups` as they are scored (:func:`~corefreport.tui.datasetmodel.level_of`).
"""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from ...present.inert import inert
from .. import datasetmodel as D
from .. import model as M
from ..footer import KeysFooter
from ..inert import displayed
from ..keymap import MOVE
from ..table import LineTable
from .base import crumb_line, sort_keys, text_bar


class LevelScreen(Screen):
    """The list: breadcrumb, table, note, status line, footer."""

    BINDINGS = [
        Binding("question_mark,f1", "help", "Help", id="corefreport.help", key_display="?"),
        *sort_keys(),
    ]
    DEFAULT_CSS = """
    LevelScreen { layout: vertical; }
    LevelScreen #level-crumbs { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    LevelScreen #level-loading { height: 1fr; align: center middle; }
    LevelScreen #level-loading-label, LevelScreen #level-progress { width: auto; padding: 0 0 1 0; }
    LevelScreen #level-table { height: 1fr; }
    LevelScreen #level-note { height: auto; max-height: 8; padding: 0 1; color: $text-muted; }
    LevelScreen #level-status { height: 1; padding: 0 1; color: $warning; }
    """

    def __init__(self, title: str, level: D.Level | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.level = level
        self.view: M.View | None = None
        self.order: tuple[int, bool] | None = None
        self.pending: str | None = None
        """A row asked for before its evaluation came: opened when it does."""

    @property
    def table(self) -> LineTable:
        return self.query_one("#level-table", LineTable)

    def compose(self) -> ComposeResult:
        yield Static("corefreport", id="level-crumbs")
        with Vertical(id="level-loading"):
            yield Static("", id="level-loading-label")
            yield Static("", id="level-progress")
        yield LineTable(id="level-table")
        yield Static("", id="level-note")
        yield Static("", id="level-status")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#level-loading-label", Static).update(displayed(f"reading {self.title_text}…"))
        self.show()
        self.app.begin()

    def on_resize(self) -> None:
        self.show()

    def show(self) -> None:
        level = self.level
        self.query_one("#level-crumbs", Static).update(Text(inert(crumb_line([f"corefreport: {self.title_text}"],
                                                                             self.app.size.width - 2)),
                                                            no_wrap=True, overflow="ellipsis"))
        loading = level is None
        self.query_one("#level-loading").display = loading
        self.table.display = not loading
        self.query_one("#level-note").display = not loading
        if loading:
            return
        view = D.level_view(level, self.app.size.width)
        if self.order and self.order[0] < len(view.columns):
            view = M.sort_view(view, *self.order)
        cursor = self.table.cursor_row if self.view is not None else 0
        self.view = view
        self.table.set_view(view, min(cursor, max(len(view) - 1, 0)))
        self.query_one("#level-note", Static).update(displayed(view.note))
        self.table.focus()

    def say(self, text: str) -> None:
        self.query_one("#level-status", Static).update(displayed(text))

    @on(LineTable.Selected)
    def _selected(self, event: LineTable.Selected) -> None:
        if self.view is None or not 0 <= event.row < len(self.view):
            return
        row: D.LevelRow = self.view.items[event.row]
        ev = D.opens(self.level, row)
        if ev is not None:
            self.app.enter(row.name, ev)
        elif row.total and row.name != D.MICRO:
            self.say(f"{row.name}: the mean of the rows above — open a row to browse it")
        else:
            self.pending = row.name
            self.say(f"{row.name} is being scored: its browser opens when it is ready")

    @on(LineTable.HeaderClicked)
    def _header(self, event: LineTable.HeaderClicked) -> None:
        self.action_sort_by(event.column)

    def action_sort_by(self, column: int) -> None:
        if self.view is None or not 0 <= column < len(self.view.columns):
            return
        self.order = (column, not self.order[1]) if self.order and self.order[0] == column else (column, False)
        self.show()

    def action_help(self) -> None:
        self.app.show_help([MOVE,
                             ("Enter", "open the row's browser: totals → classes → types → links"),
                             ("Escape (on those totals)", "back to this list"),
                             ("1 … 9", "sort by that column; again: reverse"), ("q", "quit")])

    def loading(self, phase: str, done: int, total: int) -> None:
        """Progress while the rows are scored."""
        if self.level is None:
            self.query_one("#level-loading-label", Static).update(displayed(f"{phase} {done}/{total}…"))
            self.query_one("#level-progress", Static).update(text_bar(done, total, 40))
        else:
            self.say(f"{phase} {done}/{total}…" if done < total else "")

    def ready(self, level: D.Level) -> None:
        """The level grew: show it; open the row asked for if it came."""
        self.level = level
        if level.final:
            self.say("")
        self.show()
        if self.pending is not None and self.pending in level.evaluations:
            name, self.pending = self.pending, None
            self.say("")
            self.app.enter(name, level.evaluations[name])

    def shown_rows(self) -> list[list[str]]:
        t = self.table
        return [t.plain_row(i) for i in range(t.row_count)]
