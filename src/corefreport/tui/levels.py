"""The browser of many datasets or groups (``corefreport tui --datasets …``, ``tui KEY RESPONSE
--subsets genre``): a first page listing them — each with its scores, the macro row last — above
each one's usual browser.

:class:`LevelsApp` is a :class:`~corefreport.tui.app.CorefApp` whose first screen is
:class:`LevelScreen` (one table: :func:`~corefreport.tui.datasetmodel.level_view`). Enter on a
row makes that row's :class:`Evaluation` the app's and opens a :class:`~corefreport.tui.app.Browser`
on its totals (kept, so coming back to a row finds its browser as it was left); Escape on those
totals comes back to the list. The producer runs in a worker thread and hands over the level as it
grows (each dataset read and scored once, in order; a group's browser once its documents are
scored): the app never reads a file or scores anything itself.
"""

from __future__ import annotations

import time
from typing import Callable

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from ..present.inert import inert
from . import datasetmodel as D
from . import model as M
from .app import Browser, CorefApp, Failed, Page, Progress, crumb_line, text_bar
from .footer import KeysFooter
from .inert import displayed
from .table import LineTable

LevelProducer = Callable[[Callable[[str, int, int], None], Callable[[D.Level], None]], D.Level]
"""Scores the datasets (or the groups) in the app's worker thread: ``producer(report, on_level)``
calls ``report(phase, done, total)`` as it goes and ``on_level(level)`` each time the level grew;
returns the final :class:`~corefreport.tui.datasetmodel.Level`."""


class LevelReady(Message):
    def __init__(self, level: D.Level) -> None:
        super().__init__()
        self.level = level


class LevelProgress(Progress):
    """The worker's progress on the list (its own name: ``on_level_progress``, not the browser's)."""


class LevelFailed(Failed):
    """A dataset or group that could not be scored (``on_level_failed``)."""


class LevelScreen(Screen):
    """The list: breadcrumb, table, note, status line, footer."""

    BINDINGS = [
        Binding("question_mark,f1", "help", "Help", id="corefreport.help", key_display="?"),
        *(Binding(str(n), f"sort_by({n - 1})", f"Sort by column {n}", id=f"corefreport.sort_column_{n}",
                  show=False) for n in range(1, 10)),
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

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_text = title
        self.view: M.View | None = None
        self.order: tuple[int, bool] | None = None
        self.pending: str | None = None
        """A row asked for before its evaluation came: opened when it does."""

    @property
    def lapp(self) -> "LevelsApp":
        return self.app  # type: ignore[return-value]

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
        if self.lapp.level is None:
            self.lapp.score()

    def on_resize(self) -> None:
        self.show()

    def show(self) -> None:
        level = self.lapp.level
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
        ev = D.opens(self.lapp.level, row)
        if ev is not None:
            self.lapp.enter(row.name, ev)
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
        self.lapp.show_help([("↑ ↓ PgUp PgDn Home End", "move the cursor (← → scroll)"),
                             ("Enter", "open the row's browser: totals → classes → types → links"),
                             ("Escape (on those totals)", "back to this list"),
                             ("1 … 9", "sort by that column; again: reverse"), ("q", "quit")])

    def ready(self, level: D.Level) -> None:
        """The level grew: show it; open the row asked for if it came."""
        self.show()
        if self.pending is not None and self.pending in level.evaluations:
            name, self.pending = self.pending, None
            self.say("")
            self.lapp.enter(name, level.evaluations[name])


class LevelsApp(CorefApp):
    """Many datasets or groups, each with its own browser (see the module docstring)."""

    def __init__(self, producer: LevelProducer | None = None, level: D.Level | None = None, title: str = "datasets",
                 keymap: dict[str, str] | None = None, freeze_gc: bool = False) -> None:
        if producer is None and level is None:
            raise ValueError("give a Level or a producer")
        super().__init__(producer=producer or (lambda report, on_stage: None), keymap=keymap, freeze_gc=freeze_gc,
                         title=title)
        self.level = level
        self.level_producer = producer
        self.level_title = title
        self.analyses_ready = True
        self.browsers: dict[str, str] = {}
        """Row name → the name its browser screen is installed under."""
        self.current: str | None = None
        self.list_screen: LevelScreen | None = None

    def on_mount(self, event: events.Mount) -> None:
        event.prevent_default()  # not CorefApp's: its browser of one pair
        if self.keymap:
            self.set_keymap(self.keymap)
        self.list_screen = LevelScreen(self.level_title)
        self.push_screen(self.list_screen)

    def enter(self, name: str, ev) -> None:
        """Open the browser of one row: a :class:`Browser` on its totals (kept for the next visit)."""
        self.ev = ev
        self.current = name
        self._start_browser(name)

    def _start_browser(self, name: str) -> None:
        screen = self.browsers.get(name)
        if screen is None:
            screen = f"browser-{len(self.browsers)}"
            self.browsers[name] = screen
            crumb = f"corefreport: {self.level_title} › {name if name != D.MICRO else 'every document'}"
            browser = Browser(Page("totals", crumb))
            self.install_screen(browser, screen)
        self.browser = self.get_screen(screen)  # type: ignore[assignment]
        self.push_screen(screen)

    def leave_browser(self) -> None:
        """Escape on a row's totals: back to the list."""
        if self.browser is not None and self.screen is self.browser:
            self.browser = None
            self.pop_screen()

    # ---- scoring in a worker

    @work(thread=True, exclusive=True, group="score")
    def score(self) -> None:
        from ..errors import InputError, SettingsError

        worker = get_current_worker()
        self.timings.append(("scoring started, since the app started", 1000 * (time.perf_counter() - self._t0)))
        last = [0.0]

        def report(phase: str, done: int, total: int) -> None:
            now = time.perf_counter()
            if done == total or now - last[0] > 0.1:
                last[0] = now
                self.post_message(LevelProgress(phase, done, total))

        def on_level(level: D.Level) -> None:
            if not worker.is_cancelled:
                self.post_message(LevelReady(level))

        try:
            self.level_producer(report, on_level)
        except (InputError, SettingsError) as err:
            self.post_message(LevelFailed(str(err)))

    def on_level_progress(self, msg: LevelProgress) -> None:
        s = self.list_screen
        if s is None:
            return
        if self.level is None:
            s.query_one("#level-loading-label", Static).update(displayed(f"{msg.phase} {msg.done}/{msg.total}…"))
            s.query_one("#level-progress", Static).update(text_bar(msg.done, msg.total, 40))
        else:
            s.say(f"{msg.phase} {msg.done}/{msg.total}…" if msg.done < msg.total else "")

    def on_level_ready(self, msg: LevelReady) -> None:
        first = self.level is None
        self.level = msg.level
        if first:
            self.timings.append(("first row scored, since the app started", 1000 * (time.perf_counter() - self._t0)))
        if msg.level.final:
            self.timings.append(("every row scored, since the app started", 1000 * (time.perf_counter() - self._t0)))
            if self.freeze_gc:
                import gc

                gc.freeze()
        if self.list_screen is not None:
            if msg.level.final:
                self.list_screen.say("")
            self.list_screen.ready(msg.level)

    def on_level_failed(self, msg: LevelFailed) -> None:
        if self.level is None:
            self.error = msg.error
            self.exit(None, 2)
            return
        self.notify(inert(f"scoring failed: {msg.error}"), severity="error", timeout=10, markup=False)

    def shown(self) -> list[list[str]]:
        """The rows the current table holds, as plain text (tests)."""
        if self.browser is not None and self.screen is self.browser:
            return super().shown()
        t = self.list_screen.table
        return [t.plain_row(i) for i in range(t.row_count)]


def run_levels_tui(producer: LevelProducer, title: str) -> int:
    """Run the browser of many datasets or groups (:func:`.app.run_app`)."""
    from .app import run_app

    return run_app(lambda keymap: LevelsApp(producer, title=title, keymap=keymap, freeze_gc=True))
