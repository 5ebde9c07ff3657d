"""The many-system browser (``corefreport tui KEY A B [C…]``): why does B beat A.

Pages (Enter drills in, Escape goes back): the totals of the baseline and a system side by side
(Δ, its interval, p) → the classes or types of an analysis (``b``), both outcome mixes side by
side → the links that changed in a group; an analysis's transitions (WL→TP …) → their links → one
changed link with both systems' antecedents in its sentence (``v``: the document with the key's
and every system's mentions); the documents by Δ (``d``) → the changed links of a document;
the error classes of both (``x``, with ``-a errors``). ``n`` compares the next system with the
baseline (three systems or more).

One screen with a page stack and one table (:class:`~corefreport.tui.table.LineTable`: only the
rows on screen are formatted); every table a :class:`~corefreport.tui.model.View` of
:mod:`.pairmodel` (pure). :class:`SystemsApp` runs the producer (each system scored once, then
``compare``) in a worker thread and shows the first numbers — every system's standard metrics —
before the analyses and the resampling are done. It never scores anything itself.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from rich.text import Text
from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual import events
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from ..present.inert import inert
from . import model as M
from . import pairmodel as P
from .app import KEY_NAMES, Failed, HelpScreen, Progress, crumb_line, export_view, run_app, slug, text_bar
from .footer import KeysFooter
from .inert import InertLines, displayed
from .table import LineTable
from .typing import TypedSearch


@dataclass(slots=True)
class SysPage:
    """One entry of the page stack: ``make(systems, system, width)`` builds its view."""

    kind: str  # "loading" | "pair-totals" | "pair-groups" | "transitions" | "changes" | "change" |
    #            "pair-documents" | "pair-errors"
    crumb: str
    make: Callable[[P.Systems, str, int], M.View] | None = None
    analysis: str | None = None
    by: str = "cls"
    scope: P.ChangeScope | None = None
    change: Any = None
    cursor: int = 0
    order: tuple[int, bool] | None = None
    view: M.View | None = None
    built_for: tuple = ()

    def build(self, sy: P.Systems, system: str, width: int) -> M.View:
        key = (id(sy), system, width if self.kind in ("changes",) else 0, self.by, self.order)
        if self.view is None or self.built_for != key:
            base = self.make(sy, system, width)
            self.view = M.sort_view(base, *self.order) if self.order and self.order[0] < len(base.columns) else base
            self.built_for = key
        return self.view


def totals_page(name: str) -> SysPage:
    return SysPage("pair-totals", "corefreport", lambda sy, s, w: P.totals_view(sy, s, w))


def groups_page(analysis: str, by: str = "cls") -> SysPage:
    p = SysPage("pair-groups", M.ANALYSIS_TITLES.get(analysis, analysis), analysis=analysis, by=by)
    p.make = lambda sy, s, w, p=p: P.groups_view(sy, s, analysis, p.by)
    return p


def transitions_page(analysis: str) -> SysPage:
    return SysPage("transitions", f"{M.ANALYSIS_TITLES.get(analysis, analysis)}: changed", analysis=analysis,
                   make=lambda sy, s, w: P.transitions_view(sy, s, analysis))


def changes_page(crumb: str, scope: P.ChangeScope) -> SysPage:
    return SysPage("changes", crumb, analysis=scope.analysis, scope=scope,
                   make=lambda sy, s, w: P.changes_view(sy, s, scope, w))


def documents_page() -> SysPage:
    return SysPage("pair-documents", "documents", make=lambda sy, s, w: P.documents_view(sy, s))


def errors_page() -> SysPage:
    return SysPage("pair-errors", "error classes", make=lambda sy, s, w: P.errors_view(sy, s))


DESCRIPTIONS = {
    "corefreport.back": "back", "corefreport.documents": "documents by Δ of the headline score",
    "corefreport.breakdown": "classes ↔ types of the analysis",
    "corefreport.totals": "back to the totals", "corefreport.help": "this help",
    "corefreport.changes": "the changed links of the current analysis (transitions)",
    "corefreport.errors": "the error classes of both systems (with -a errors)",
    "corefreport.next_system": "compare the next system with the baseline (3 systems or more)",
    "corefreport.view_document": "the document with the key's and every system's mentions",
    "corefreport.view_baseline_document": "the document with the key's and the baseline's mentions (m: all)",
    "corefreport.search": "search the changed links: words, \"a phrase\", re:…, in:sentence, wl, kind:gain, "
                          "doc:ID, -not (on any page: the current analysis's)",
    "corefreport.detail_down": "scroll the detail pane down", "corefreport.detail_up": "scroll the detail pane up",
    "corefreport.quit": "quit"} | {
    f"corefreport.sort_column_{n}": "sort by column N (1 = first); again: reverse" for n in range(1, 10)}


class SystemsScreen(TypedSearch, Screen):
    """The many-system browser's screen: breadcrumb, table, note, detail pane, status, footer."""

    BINDINGS = [
        Binding("escape,backspace", "back", "Back", id="corefreport.back"),
        Binding("d", "documents", "Docs", id="corefreport.documents"),
        Binding("b", "breakdown", "By", id="corefreport.breakdown"),
        Binding("l", "changes", "Changed", id="corefreport.changes"),
        Binding("slash", "search", "Search", id="corefreport.search"),
        Binding("n", "next_system", "Next", id="corefreport.next_system", show=False),
        Binding("x", "errors", "Errors", id="corefreport.errors", show=False),
        Binding("t", "totals", "Totals", id="corefreport.totals", show=False),
        Binding("v", "view_document(False)", "Text", id="corefreport.view_document", show=False),
        Binding("V", "view_document(True)", "Text A", id="corefreport.view_baseline_document", show=False),
        Binding("question_mark,f1", "help", "Help", id="corefreport.help", key_display="?"),
        *(Binding(str(n), f"sort_by({n - 1})", f"Sort by column {n}", id=f"corefreport.sort_column_{n}",
                  show=False) for n in range(1, 10)),
        Binding("J", "detail(3)", "Detail ↓", id="corefreport.detail_down", show=False),
        Binding("K", "detail(-3)", "Detail ↑", id="corefreport.detail_up", show=False),
    ]
    DEFAULT_CSS = """
    SystemsScreen { layout: vertical; }
    SystemsScreen #sys-crumbs { height: 1; padding: 0 1; background: $boost; text-style: bold; }
    SystemsScreen #sys-loading { height: 1fr; align: center middle; }
    SystemsScreen #sys-loading-label, SystemsScreen #sys-progress { width: auto; padding: 0 0 1 0; }
    SystemsScreen #sys-table { height: 1fr; }
    SystemsScreen #sys-note { height: auto; max-height: 6; padding: 0 1; color: $text-muted; }
    SystemsScreen #sys-detail-box { height: 45%; border-top: solid $primary; padding: 0 1; overflow-y: auto; }
    SystemsScreen #sys-detail-box.-full { height: 1fr; border-top: none; }
    SystemsScreen #sys-detail { height: auto; }
    SystemsScreen #sys-status { height: 1; padding: 0 1; color: $warning; }
    SystemsScreen #sys-filter { display: none; height: 1; border: none; padding: 0 1; }
    """

    def __init__(self, first: SysPage) -> None:
        super().__init__()
        self.pages: list[SysPage] = [first]
        self._mark: tuple[str, float] | None = None
        self._loading_shown = first.kind == "loading"
        self._status_set = False
        self._searching = False
        """The search box is open for typing (``/`` until Enter or Escape)."""

    @property
    def sapp(self) -> "SystemsApp":
        return self.app  # type: ignore[return-value]

    @property
    def page(self) -> SysPage:
        return self.pages[-1]

    @property
    def table(self) -> LineTable:
        return self.query_one("#sys-table", LineTable)

    def compose(self) -> ComposeResult:
        yield Static("corefreport", id="sys-crumbs")
        yield Input(placeholder='search the changed links: words "a phrase" re:REGEX in:sentence wl kind:gain '
                                'doc:ID -not — Enter', id="sys-filter")
        with Vertical(id="sys-loading"):
            yield Static("", id="sys-loading-label")
            yield Static("", id="sys-progress")
        yield LineTable(id="sys-table")
        yield Static("", id="sys-note")
        with VerticalScroll(id="sys-detail-box"):
            yield Static("", id="sys-detail")
        yield Static("", id="sys-status")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.show()
        if self.page.kind == "loading":
            self.query_one("#sys-loading-label", Static).update(
                displayed(f"reading the key and {', '.join(self.sapp.names)}…"))
            self.sapp.score()

    def on_resize(self) -> None:
        if self.page.kind != "loading":
            self.show()

    # ---- showing a page

    def show(self, cursor: int | None = None) -> None:
        page = self.page
        sy = self.sapp.systems
        kind = page.kind
        crumbs = [p.crumb for p in self.pages] + ([f"{self.sapp.system} vs {sy.baseline}"] if sy else [])
        self.query_one("#sys-crumbs", Static).update(Text(inert(crumb_line(crumbs, self.app.size.width - 2)),
                                                          no_wrap=True, overflow="ellipsis"))
        loading = kind == "loading"
        self.query_one("#sys-loading").display = loading
        self.table.display = kind not in ("loading", "change")
        self.query_one("#sys-note").display = kind not in ("loading", "change")
        box = self.query_one("#sys-detail-box")
        box.display = kind in ("changes", "change")
        box.set_class(kind == "change", "-full")
        status = self.query_one("#sys-status", Static)
        status.display = not self.sapp.final and not loading
        search = self.query_one("#sys-filter", Input)
        search.display = self._searching or (kind == "changes" and bool(page.scope and page.scope.query))
        if kind == "changes" and not self._searching:
            search.value = page.scope.query if page.scope else ""
        if status.display and not self._status_set:
            self._status_set = True
            status.update(COMPUTING)
        if loading:
            return
        if self._loading_shown:
            self._loading_shown = False
            self.refresh_bindings()
        if kind == "change":
            self._detail(page.change)
            self._done()
            return
        view = page.build(sy, self.sapp.system, self.app.size.width)
        if self.table.view is not view:
            self.table.set_view(view, page.cursor if cursor is None else cursor)
        self.query_one("#sys-note", Static).update(displayed(view.note))
        if not self._searching:
            self.table.focus()
        if kind == "changes":
            self._detail_at(self.table.cursor_row)
        self._done()

    def _detail(self, change: Any) -> None:
        box = self.query_one("#sys-detail-box", VerticalScroll)
        box.scroll_home(animate=False)
        text = P.change_detail(self.sapp.systems, self.sapp.system, change, width=max(40, self.app.size.width - 4)) \
            if change is not None else ""
        self.query_one("#sys-detail", Static).update(displayed(text) if change is not None else "")

    def _detail_at(self, row: int) -> None:
        view = self.page.view
        self._detail(view.items[row] if view is not None and 0 <= row < len(view) else None)

    @on(LineTable.Highlighted)
    def _highlighted(self, event: LineTable.Highlighted) -> None:
        if self.page.kind == "changes" and event.table.view is self.page.view:
            self._detail_at(event.row)

    def open(self, page: SysPage, timing: str) -> None:
        self._start(timing)
        if self.page.kind != "change":
            self.page.cursor = self.table.cursor_row
        self.pages.append(page)
        self.show()

    def action_back(self) -> None:
        box = self.query_one("#sys-filter", Input)
        self.stop_typing()
        if self._searching:  # Escape in the search box: back to the table (the search stays)
            self._searching = False
            self.table.focus()
            box.display = self.page.kind == "changes" and bool(self.page.scope and self.page.scope.query)
            return
        if len(self.pages) > 1 and self.pages[-2].kind != "loading":
            self._start("back")
            self.pages.pop()
            self.show()

    def action_totals(self) -> None:
        if len(self.pages) > 1:
            self._start("totals")
            del self.pages[1:]
            self.show()

    # ---- drilling in

    @on(LineTable.Selected)
    def _selected(self, event: LineTable.Selected) -> None:
        page = self.page
        view = page.view
        if view is None or not 0 <= event.row < len(view):
            return
        item = view.items[event.row]
        if page.kind == "pair-totals":
            if item.target is None:
                return
            what, name = item.target
            if what == "analysis":
                self.open(groups_page(name), "classes")
            elif what == "changes":
                self.open(transitions_page(name), "transitions")
            elif what == "errors":
                self.open(errors_page(), "errors")
            elif what == "documents":
                self.action_documents()
        elif page.kind == "pair-groups":
            scope = P.ChangeScope(page.analysis).add(page.by, item.group)
            self.open(changes_page(item.group, scope), "changes")
        elif page.kind == "transitions":
            scope = P.ChangeScope(page.analysis).add("transition", f"{item.before}>{item.after}").add("kind", item.kind)
            self.open(changes_page(f"{item.before} → {item.after}", scope), "changes")
        elif page.kind == "pair-documents":
            analysis = self._analysis()
            if analysis is None:
                self.say("no link-level analysis was compared (yet)")
                return
            self.open(changes_page(f"{item.doc_id} ({M.ANALYSIS_TITLES.get(analysis, analysis)})",
                                   P.ChangeScope(analysis, (("doc_id", item.doc_id),))), "changes")
        elif page.kind == "changes":
            self.open(SysPage("change", f"{item.baseline}→{item.system} {item.text[:20]}", change=item), "change")

    def _analysis(self) -> str | None:
        """The analysis of the current page, else the first one compared."""
        for p in reversed(self.pages):
            if p.analysis:
                return p.analysis
        sy = self.sapp.systems
        links = sy.comparison.links.get(self.sapp.system, {}) if sy else {}
        return next(iter(links), None)

    # ---- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.page.kind == "loading" and action not in ("help",):
            return False
        return True

    def action_documents(self) -> None:
        for i, p in enumerate(self.pages):
            if p.kind == "pair-documents":
                self._start("documents")
                del self.pages[i + 1:]
                self.show()
                return
        self.open(documents_page(), "documents")

    def action_changes(self) -> None:
        analysis = self._analysis()
        if analysis is None:
            self.say("the changed links come with the link-level analyses: wait for them, or run with -a arcs")
            return
        self.open(transitions_page(analysis), "transitions")

    def action_errors(self) -> None:
        sy = self.sapp.systems
        if sy is None or not sy.comparison.errors.get(self.sapp.system):
            self.say("x compares the error classes: run with -a errors (and wait for the analyses)")
            return
        self.open(errors_page(), "errors")

    def action_search(self) -> None:
        """``/``: search the changed links of this page (elsewhere: all those of the current analysis)."""
        if self.page.kind == "change":
            self.action_back()
        if self.page.kind != "changes":
            analysis = self._analysis()
            if analysis is None:
                self.stop_typing()
                self.say("the changed links come with the link-level analyses: wait for them, or run with -a arcs")
                return
            self.open(changes_page(f"{M.ANALYSIS_TITLES.get(analysis, analysis)}: search",
                                   P.ChangeScope(analysis)), "search")
        box = self.query_one("#sys-filter", Input)
        self._searching = True
        box.display = True
        box.focus()
        self.flush(box)  # what was typed after the "/" before this ran (tui/typing.py)

    def on_key(self, event: events.Key) -> None:
        self.capture(event, self.query_one("#sys-filter", Input))

    def on_paste(self, event: events.Paste) -> None:
        self.capture(event, self.query_one("#sys-filter", Input))

    @on(Input.Submitted, "#sys-filter")
    def _searched(self, event: Input.Submitted) -> None:
        self.stop_typing()
        page = self.page
        if page.kind != "changes" or page.scope is None:
            return
        try:
            M.parse_query(event.value)
        except M.QueryError as err:  # a bad regular expression: say so, keep the box
            self.say(str(err), 6)
            event.input.focus()
            return
        self._searching = False
        scope = page.scope.searched(event.value)
        page.scope = scope
        page.make = lambda sy, s, w, scope=scope: P.changes_view(sy, s, scope, w)
        page.view, page.cursor = None, 0
        self.table.focus()
        self._start("search")
        self.show(cursor=0)

    def action_breakdown(self) -> None:
        page = self.page
        if page.kind != "pair-groups":
            self.say("b switches classes and types: open an analysis from the totals first")
            return
        page.by = "type" if page.by == "cls" else "cls"
        page.order = None
        page.crumb = M.ANALYSIS_TITLES.get(page.analysis, page.analysis) + (" types" if page.by == "type" else "")
        self._start("breakdown")
        self.show(cursor=0)

    def action_next_system(self) -> None:
        sy = self.sapp.systems
        if sy is None or len(sy.systems) < 2:
            self.say("n compares the next system with the baseline: give three systems or more")
            return
        i = sy.systems.index(self.sapp.system)
        self.sapp.system = sy.systems[(i + 1) % len(sy.systems)]
        self._start("next system")
        self.show()
        self.say(f"now: {self.sapp.system} against {sy.baseline}")

    def current_change(self) -> Any:
        page = self.page
        if page.kind == "change":
            return page.change
        if page.kind == "changes" and page.view is not None and 0 <= self.table.cursor_row < len(page.view):
            return page.view.items[self.table.cursor_row]
        return None

    def action_view_document(self, baseline: bool) -> None:
        """The running text of the highlighted change's (or document's) document with the key's
        mentions and every system's, each in its brackets (the baseline ``{ }``, the next ``< >``…),
        the change's referent's entities highlighted in all; ``V`` opens it on the key and the
        baseline (``m`` cycles through the sides)."""
        from ..present.document_text import systems_document
        from .document import DocumentScreen

        sy = self.sapp.systems
        change = self.current_change()
        doc_id, span = (change.doc_id, (change.start, change.end)) if change is not None else (None, None)
        page = self.page
        if change is None and page.kind == "pair-documents" and page.view is not None:
            doc_id = page.view.items[self.table.cursor_row].doc_id
        if sy is None or doc_id is None:
            self.say("v shows a document's text: from a changed link or the documents page (d)")
            return
        names = [sy.baseline] + [n for n in sy.systems if n == self.sapp.system] + \
            [n for n in sy.systems if n != self.sapp.system]
        dt = systems_document({n: sy.ev(n) for n in names}, doc_id)
        if dt is None:
            self.say("the document's words were not kept")
            return
        screen = DocumentScreen(dt, span)
        if baseline:
            screen.sides = ("key", dt.sides[1])
        self.app.push_screen(screen)

    def action_sort_by(self, column: int) -> None:
        page = self.page
        if page.view is None or page.kind in ("loading", "change"):
            self.say("open a table to sort it")
            return
        if not 0 <= column < len(page.view.columns):
            self.say(f"this table has {len(page.view.columns)} columns")
            return
        page.order = (column, not page.order[1]) if page.order and page.order[0] == column else (column, False)
        self._start("sort")
        self.show(cursor=0)

    def action_detail(self, lines: int) -> None:
        box = self.query_one("#sys-detail-box", VerticalScroll)
        if box.display:
            box.scroll_relative(y=lines, animate=False)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.sapp.key_help()))

    def say(self, text: str, seconds: float = 3) -> None:
        status = self.query_one("#sys-status", Static)
        status.update(Text(inert(text), no_wrap=True, overflow="ellipsis"))
        status.display = True

        def clear() -> None:
            status.update("" if self.sapp.final else COMPUTING)
            status.display = not self.sapp.final

        self.set_timer(seconds, clear)

    # ---- timings (from the key to the painted page)

    def _start(self, label: str) -> None:
        self._mark = (label, time.perf_counter())

    def _done(self) -> None:
        mark, self._mark = self._mark, None
        if mark is not None:
            self.call_after_refresh(lambda: self.sapp.timings.append((mark[0], 1000 * (time.perf_counter() - mark[1]))))


COMPUTING = "computing the link-level analyses and the significance tests…"


# --------------------------------------------------------------------------- the app


class SystemsReady(Message):
    def __init__(self, systems: P.Systems) -> None:
        super().__init__()
        self.systems = systems


class SystemsProgress(Progress):
    """The worker's progress (``on_systems_progress``)."""


class SystemsFailed(Failed):
    """The systems could not be read or compared (``on_systems_failed``)."""


SystemsProducer = Callable[[Callable[[str, int, int], None], Callable[[P.Systems], None]], P.Systems]
"""Scores every system once and compares them in the app's worker: ``producer(report, on_stage)``
hands the first numbers (:class:`~.pairmodel.Systems`, not final) to ``on_stage`` and returns the
complete comparison (``corefreport.cli.run.systems_producer``)."""


class ExportCommands(Provider):
    """Export the table on screen (CSV, JSON)."""

    def _commands(self) -> Iterator[tuple[str, Callable[[], Any], str]]:
        app: SystemsApp = self.app  # type: ignore[assignment]
        screen = app.screen_of_systems
        if screen is None or screen.page.view is None or screen.page.kind in ("loading", "change"):
            return
        stem = slug([p.crumb for p in screen.pages[1:]] + [app.system]) if len(screen.pages) > 1 else \
            f"corefreport-totals-{app.system}"
        for fmt in ("csv", "json"):
            yield (f"Export this table as {fmt.upper()}", lambda fmt=fmt, stem=stem: app.export(fmt, stem),
                   f"all {len(screen.page.view)} rows to ./{stem}.{fmt} (never over an existing file)")

    async def discover(self) -> Hits:
        for text, cb, help_ in self._commands():
            yield DiscoveryHit(text, cb, help=help_)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, cb, help_ in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), cb, help=help_)


class SystemsApp(App):
    """Browse several systems against one key. Give :class:`~.pairmodel.Systems`, or a
    :data:`SystemsProducer` the worker runs once."""

    CSS_PATH = "corefreport.tcss"
    TITLE = "corefreport"
    COMMANDS = App.COMMANDS | {ExportCommands}
    BINDINGS = [Binding("q", "quit", "Quit", id="corefreport.quit")]

    def __init__(self, systems: P.Systems | None = None, producer: SystemsProducer | None = None,
                 names: list[str] | None = None, keymap: dict[str, str] | None = None,
                 freeze_gc: bool = False) -> None:
        super().__init__()
        if systems is None and producer is None:
            raise ValueError("give Systems or a producer")
        self.systems = systems
        self.producer = producer
        self.names = names or (list(systems.evaluations) if systems else [])
        self.system = systems.systems[0] if systems is not None else (self.names[1] if len(self.names) > 1 else "")
        self.final = systems.final if systems is not None else False
        self.keymap = keymap or {}
        self.freeze_gc = freeze_gc
        self.error: str | None = None
        self.timings: list[tuple[str, float]] = []
        self._t0 = time.perf_counter()
        self.started_at = time.time()
        self._painted = threading.Event()
        self.screen_of_systems: SystemsScreen | None = None

    def get_line_filters(self):
        return [*super().get_line_filters(), self._inert_lines]

    _inert_lines = InertLines()

    def on_mount(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)
        first = totals_page(self.title_text()) if self.systems is not None else SysPage("loading", "corefreport")
        self.screen_of_systems = SystemsScreen(first)
        self.push_screen(self.screen_of_systems)

    def title_text(self) -> str:
        return " vs ".join(self.names)

    def key_help(self) -> list[tuple[str, str]]:
        keys: dict[str, list[str]] = {}
        for node in (self.screen_of_systems, self):
            if node is None:
                continue
            for bindings in node._bindings.key_to_bindings.values():
                for b in bindings:
                    if b.id in DESCRIPTIONS and not b.id.startswith("corefreport.sort_column_"):
                        keys.setdefault(b.id, []).append(b.key)
        for i, remapped in self.keymap.items():
            if i in keys:
                keys[i] = [k.strip() for k in remapped.split(",") if k.strip()]
        return [("↑ ↓ PgUp PgDn Home End", "move the cursor (← → scroll)"), ("Enter", "drill in")] + [
            (", ".join(KEY_NAMES.get(k, k) for k in v), DESCRIPTIONS[i]) for i, v in keys.items()] + [
            ("1 … 9", DESCRIPTIONS["corefreport.sort_column_1"]), ("ctrl+p", "palette: export the table")]

    def export(self, fmt: str, stem: str) -> Path | None:
        screen = self.screen_of_systems
        if screen is None or screen.page.view is None:
            return None
        path = export_view(screen.page.view, stem, fmt)
        screen.say(f"wrote {path.name if path.parent == Path.cwd() else path}", 6)
        return path

    @work(thread=True, exclusive=True, group="score")
    def score(self) -> None:
        from ..errors import InputError, SettingsError

        worker = get_current_worker()
        last = [0.0]

        def report(phase: str, done: int, total: int) -> None:
            if worker.is_cancelled:
                raise SystemExit(0)
            now = time.perf_counter()
            if phase == "read" or done == total or now - last[0] > 0.1:
                last[0] = now
                self.post_message(SystemsProgress(phase, done, total))

        def on_stage(sy: P.Systems) -> None:
            self.post_message(SystemsReady(sy))
            self._painted.wait(timeout=2.0)  # let the first numbers paint before the analyses

        try:
            self.post_message(SystemsReady(self.producer(report, on_stage)))
        except (InputError, SettingsError, ValueError) as err:
            self.post_message(SystemsFailed(str(err)))

    def on_systems_progress(self, msg: SystemsProgress) -> None:
        screen = self.screen_of_systems
        if screen is None or msg.phase == "read":
            return
        if screen.page.kind == "loading":
            screen.query_one("#sys-loading-label", Static).update(
                inert(f"{msg.phase}: {msg.done}/{msg.total} documents…"))
            screen.query_one("#sys-progress", Static).update(text_bar(msg.done, msg.total, 40))
        else:
            screen.query_one("#sys-status", Static).update(inert(f"{COMPUTING} {msg.phase}: {msg.done}/{msg.total}"))

    def on_systems_ready(self, msg: SystemsReady) -> None:
        first = self.systems is None
        self.systems = msg.systems
        self.final = msg.systems.final
        self.timings.append((("first numbers" if first else "comparison") + " arrived, since the app started",
                             1000 * (time.perf_counter() - self._t0)))
        if msg.systems.final and self.freeze_gc:
            import gc

            gc.freeze()
        if msg.systems.systems and self.system not in msg.systems.systems:
            self.system = msg.systems.systems[0]
        screen = self.screen_of_systems
        status = screen.query_one("#sys-status", Static)
        status.update("" if self.final else COMPUTING)
        if first:
            screen.pages[:] = [totals_page(self.title_text())]
            screen._start("first screen")
            screen.show()
            screen.call_after_refresh(self._painted.set)
        else:
            for p in screen.pages:
                p.view = None
            screen.show()
            if self.final:
                screen.say("analyses and significance ready: Enter on an analysis, l: the changed links", 5)

    def on_systems_failed(self, msg: SystemsFailed) -> None:
        self.error = msg.error
        self.exit(None, 2)


def run_systems_tui(producer: SystemsProducer, names: list[str]) -> int:
    """Run the many-system browser (:func:`.app.run_app`; 2 also when the systems cannot be compared)."""
    return run_app(lambda keymap: SystemsApp(producer=producer, names=names, keymap=keymap, freeze_gc=True))
