"""The systems browser (``corefreport tui KEY A B [C…]``): why does B beat A.

Pages (:mod:`corefreport.tui.pages.systems`; Enter drills in, Escape goes back): the totals of the
baseline and a system side by side → the classes or types of an analysis → the changed links; the
transitions; the documents by Δ; the error classes of both (``x``) → a class's errors in three
groups (only the system's, only the baseline's, both's) → one error with both systems' detail; the
key entities that changed (from the totals). ``n`` compares the next system
with the baseline (three systems or more); ``v`` shows a document with the key's and every
system's mentions. One screen with a page stack and one table; every table a view of
:mod:`corefreport.tui.pairmodel` (pure) over the study's :class:`~corefreport.study.nodes.Systems`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Static

from .. import model as M
from .. import pairmodel as P
from ..export import slug
from ..footer import KeysFooter
from ..inert import displayed
from ..keymap import MOVE, keys_in_force, shown
from ..pages.systems import (ChangePage, ChangesPage, DocumentsPage, ErrorsPage, GroupsPage, SysPage, TotalsPage,
                             changes_page, transitions_page)
from ..table import LineTable
from ..typing import TypedSearch
from .base import PageScreen, sort_keys, text_bar

if TYPE_CHECKING:
    from ...study.nodes import Systems

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

COMPUTING = "computing the link-level analyses and the significance tests…"


class SystemsScreen(TypedSearch, PageScreen):
    """The systems browser's screen: breadcrumb, table, note, detail pane, status, footer."""

    ID = "sys-"
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
        *sort_keys(""),
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

    def __init__(self, first: SysPage, systems: Systems | None = None, names: list[str] = ()) -> None:
        super().__init__()
        self.pages: list[SysPage] = [first]
        self.systems = systems
        """What the screen shows (the app hands over the complete comparison after the first numbers)."""
        self.names = list(names) or (list(systems.evaluations) if systems is not None else [])
        self.system = systems.systems[0] if systems is not None else (self.names[1] if len(self.names) > 1 else "")
        """The system compared with the baseline (``n``: the next one)."""
        self._loading_shown = first.WAITING
        self._status_set = False
        self._searching = False
        """The search box is open for typing (``/`` until Enter or Escape)."""

    @property
    def final(self) -> bool:
        return self.systems is not None and self.systems.final

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
        if self.page.WAITING:
            self.query_one("#sys-loading-label", Static).update(
                displayed(f"reading the key and {', '.join(self.names)}…"))
            self.app.begin()

    def on_resize(self) -> None:
        if not self.page.WAITING:
            self.show()

    # ---- what the worker hands over

    def loading(self, phase: str, done: int, total: int) -> None:
        from ...present.inert import inert

        if phase == "read":
            return
        if self.page.WAITING:
            self.query_one("#sys-loading-label", Static).update(inert(f"{phase}: {done}/{total} documents…"))
            self.query_one("#sys-progress", Static).update(text_bar(done, total, 40))
        else:
            self.query_one("#sys-status", Static).update(inert(f"{COMPUTING} {phase}: {done}/{total}"))

    def scored(self, systems: Systems) -> None:
        """The first numbers (every system's standard metrics) or the complete comparison."""
        first = self.systems is None
        self.systems = systems
        if systems.systems and self.system not in systems.systems:
            self.system = systems.systems[0]
        status = self.query_one("#sys-status", Static)
        status.update("" if self.final else COMPUTING)
        if first:
            self.pages[:] = [TotalsPage("corefreport")]
            self._start("first screen")
            self.show()
        else:
            for p in self.pages:
                p.view = None
            self.show()
            if self.final:
                self.say("analyses and significance ready: Enter on an analysis, l: the changed links", 5)

    def idle_status(self) -> str | None:
        return None if self.final else COMPUTING

    # ---- showing a page

    def show(self, cursor: int | None = None) -> None:
        page = self.page
        sy = self.systems
        self.update_crumbs([p.crumb for p in self.pages] + ([f"{self.system} vs {sy.baseline}"] if sy else []))
        self.query_one("#sys-loading").display = page.WAITING
        self.table.display = page.TABLE
        self.query_one("#sys-note").display = page.TABLE
        box = self.query_one("#sys-detail-box")
        box.display = page.DETAIL or page.ITEM
        box.set_class(page.ITEM, "-full")
        status = self.query_one("#sys-status", Static)
        status.display = not self.final and not page.WAITING
        search = self.query_one("#sys-filter", Input)
        searched = isinstance(page, ChangesPage) and bool(page.scope and page.scope.query)
        search.display = self._searching or searched
        if isinstance(page, ChangesPage) and not self._searching:
            search.value = page.scope.query if page.scope else ""
        if status.display and not self._status_set:
            self._status_set = True
            status.update(COMPUTING)
        if page.WAITING:
            return
        if self._loading_shown:
            self._loading_shown = False
            self.refresh_bindings()
        if page.ITEM:
            self._detail(page.change)
            self._done()
            return
        view = page.build(sy, self.system, self.app.size.width)
        if self.table.view is not view:
            self.table.set_view(view, page.cursor if cursor is None else cursor)
        self.query_one("#sys-note", Static).update(displayed(view.note))
        if not self._searching:
            self.table.focus()
        if page.DETAIL:
            self._detail(page.highlighted_change(self.table.cursor_row))
        self._done()

    def _detail(self, change: Any) -> None:
        box = self.query_one("#sys-detail-box", VerticalScroll)
        box.scroll_home(animate=False)
        text = self.page.detail(self.systems, self.system, change, max(40, self.app.size.width - 4)) \
            if change is not None else ""
        self.query_one("#sys-detail", Static).update(displayed(text) if change is not None else "")

    @on(LineTable.Highlighted)
    def _highlighted(self, event: LineTable.Highlighted) -> None:
        if self.page.DETAIL and event.table.view is self.page.view:
            self._detail(self.page.highlighted_change(event.row))

    def open(self, page: SysPage, timing: str) -> None:
        self._start(timing)
        if not self.page.ITEM:
            self.page.cursor = self.table.cursor_row
        self.pages.append(page)
        self.show()

    def action_back(self) -> None:
        box = self.query_one("#sys-filter", Input)
        self.stop_typing()
        if self._searching:  # Escape in the search box: back to the table (the search stays)
            self._searching = False
            self.table.focus()
            box.display = isinstance(self.page, ChangesPage) and bool(self.page.scope and self.page.scope.query)
            return
        if len(self.pages) > 1 and not self.pages[-2].WAITING:
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
        page.enter(self, view.items[event.row])

    def analysis(self) -> str | None:
        """The analysis of the current page, else the first one compared."""
        for p in reversed(self.pages):
            if p.analysis:
                return p.analysis
        sy = self.systems
        links = sy.comparison.links.get(self.system, {}) if sy else {}
        return next(iter(links), None)

    # ---- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.page.WAITING and action not in ("help",):
            return False
        return True

    def action_documents(self) -> None:
        for i, p in enumerate(self.pages):
            if isinstance(p, DocumentsPage):
                self._start("documents")
                del self.pages[i + 1:]
                self.show()
                return
        self.open(DocumentsPage("documents"), "documents")

    def action_changes(self) -> None:
        analysis = self.analysis()
        if analysis is None:
            self.say("the changed links come with the link-level analyses: wait for them, or run with -a arcs")
            return
        self.open(transitions_page(analysis), "transitions")

    def action_errors(self) -> None:
        sy = self.systems
        if sy is None or not sy.comparison.errors.get(self.system):
            self.say("x compares the error classes: run with -a errors (and wait for the analyses)")
            return
        self.open(ErrorsPage("error classes"), "errors")

    def action_search(self) -> None:
        """``/``: search the changed links of this page (elsewhere: all those of the current analysis)."""
        if self.page.ITEM:
            self.action_back()
        if not isinstance(self.page, ChangesPage):
            analysis = self.analysis()
            if analysis is None:
                self.stop_typing()
                self.say("the changed links come with the link-level analyses: wait for them, or run with -a arcs")
                return
            self.open(changes_page(f"{M.ANALYSIS_TITLES.get(analysis, analysis)}: search", P.ChangeScope(analysis)),
                      "search")
        box = self.query_one("#sys-filter", Input)
        self._searching = True
        box.display = True
        box.focus()
        self.flush(box)  # what was typed after the "/" before this ran (tui/typing.py)

    @on(Input.Submitted, "#sys-filter")
    def _searched(self, event: Input.Submitted) -> None:
        self.stop_typing()
        page = self.page
        if not isinstance(page, ChangesPage) or page.scope is None:
            return
        if not self.valid_query(event):
            return
        self._searching = False
        page.scope = page.scope.searched(event.value)
        page.view, page.cursor = None, 0
        self.table.focus()
        self._start("search")
        self.show(cursor=0)

    def action_breakdown(self) -> None:
        page = self.page
        if not isinstance(page, GroupsPage):
            self.say("b switches classes and types: open an analysis from the totals first")
            return
        page.by = "type" if page.by == "cls" else "cls"
        page.order = None
        page.crumb = M.ANALYSIS_TITLES.get(page.analysis, page.analysis) + (" types" if page.by == "type" else "")
        self._start("breakdown")
        self.show(cursor=0)

    def action_next_system(self) -> None:
        sy = self.systems
        if sy is None or len(sy.systems) < 2:
            self.say("n compares the next system with the baseline: give three systems or more")
            return
        i = sy.systems.index(self.system)
        self.system = sy.systems[(i + 1) % len(sy.systems)]
        self._start("next system")
        self.show()
        self.say(f"now: {self.system} against {sy.baseline}")

    def current_change(self) -> Any:
        return self.page.highlighted_change(self.table.cursor_row)

    def action_view_document(self, baseline: bool) -> None:
        """The running text of the highlighted change's (or document's) document with the key's
        mentions and every system's, each in its brackets (the baseline ``{ }``, the next ``< >``…),
        the change's referent's entities highlighted in all; ``V`` opens it on the key and the
        baseline (``m`` cycles through the sides)."""
        sy = self.systems
        change = self.current_change()
        doc_id, span = (change.doc_id, (change.start, change.end)) if change is not None else (None, None)
        if change is None:
            doc_id = self.page.document(self.table.cursor_row)
        if sy is None or doc_id is None:
            self.say("v shows a document's text: from a changed link or the documents page (d)")
            return
        self.show_document(doc_id, span, baseline)

    def show_document(self, doc_id: str, span: Any = None, baseline: bool = False) -> None:
        """The document view of ``doc_id`` with the key's and every system's mentions, the entities
        of the mention at ``span`` highlighted (``baseline``: on the key and the baseline)."""
        from ...present.document_text import systems_document
        from ..document import DocumentScreen

        sy = self.systems
        names = [sy.baseline] + [n for n in sy.systems if n == self.system] + \
            [n for n in sy.systems if n != self.system]
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
        if page.view is None or not page.TABLE:
            self.say("open a table to sort it")
            return
        if not 0 <= column < len(page.view.columns):
            self.say(f"this table has {len(page.view.columns)} columns")
            return
        page.order = (column, not page.order[1]) if page.order and page.order[0] == column else (column, False)
        self._start("sort")
        self.show(cursor=0)

    def action_help(self) -> None:
        self.app.show_help(self.key_help())

    def key_help(self) -> list[tuple[str, str]]:
        keys = keys_in_force((self, self.app), DESCRIPTIONS, self.app.keymap,
                             lambda i: not i.startswith("corefreport.sort_column_"))
        return [MOVE, ("Enter", "drill in")] + [(shown(v), DESCRIPTIONS[i]) for i, v in keys.items()] + [
            ("1 … 9", DESCRIPTIONS["corefreport.sort_column_1"]), ("ctrl+p", "palette: export the table")]

    def palette_commands(self) -> Iterator[tuple[str, Callable[[], Any], str]]:
        """Export the table on screen (CSV, JSON)."""
        page = self.page
        if page.view is None or not page.TABLE:
            return
        stem = slug([p.crumb for p in self.pages[1:]] + [self.system]) if len(self.pages) > 1 else \
            f"corefreport-totals-{self.system}"
        for fmt in ("csv", "json"):
            yield (f"Export this table as {fmt.upper()}",
                   lambda fmt=fmt, stem=stem: self.app.export(page.view, fmt, stem, self),
                   f"all {len(page.view)} rows to ./{stem}.{fmt} (never over an existing file)")

    def shown_rows(self) -> list[list[str]]:
        t = self.table
        return [t.plain_row(i) for i in range(t.row_count)]


__all__ = ["COMPUTING", "DESCRIPTIONS", "SystemsScreen"]
