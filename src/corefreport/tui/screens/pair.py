"""The browser of one pair: from corpus totals to classes, types and single links.

Pages (:mod:`corefreport.tui.pages.pair`): totals → classes of an analysis (or the values of a
breakdown feature) → types of a class → the links of a type (a detail pane shows the highlighted
link in its sentence) → one link; documents (per-document scores, worst first) and a link search
from every page. Enter drills in, Escape goes back, the breadcrumb shows where you are.

All pages live on one Textual screen (a page stack, not a screen stack: switching screens costs
Textual ~100 ms a step). Each page has its own table, hidden while a page above it is shown and
shown again as it was on Escape. Tables (:class:`~corefreport.tui.table.LineTable`) format only
the rows on screen, so no page loads more rows than it can show fast. Bindings carry ids
(``corefreport.back``, …) so users can remap them (:mod:`corefreport.tui.keymap`).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Static

from ...scoring.outcomes import LinkOutcome
from ...scoring.result import Evaluation
from .. import model as M
from ..export import slug
from ..footer import KeysFooter
from ..inert import displayed
from ..keymap import MOVE, keys_in_force, shown
from ..pages.pair import (ConfusionPage, DocumentsPage, LinkPage, LinksPage, LoadingPage, Page, TotalsPage, jump)
from ..table import LineTable
from ..typing import TypedSearch
from .base import PageScreen, sort_keys, with_tips


DESCRIPTIONS: dict[str, str] = {"corefreport.back": "back (closes the filter box first)",
                                "corefreport.errors": "error classes of Kummerfeld & Klein (with -a errors)",
                "corefreport.documents": "per-document scores, worst first",
                "corefreport.sort": "classes, types, documents: their next order (name, F1, size, errors)",
                "corefreport.breakdown": "group the classes by the next feature",
                "corefreport.search": "search/filter the links",
                "corefreport.totals": "back to the totals", "corefreport.help": "this help",
                "corefreport.jump_document": "from a link: all links of its document",
                "corefreport.jump_entity": "from a link: all links of its key entity",
                "corefreport.jump_analyses": "from a link: the same referent in every analysis",
                "corefreport.confusion": "typed evaluation: key type × response type, Enter: the links",
                "corefreport.copy": "copy the link (OSC 52: works over SSH and in tmux)",
                "corefreport.view_document": "the document's text: key [N … ] and response {N … } mentions",
                "corefreport.detail_down": "scroll the detail pane down",
                "corefreport.detail_up": "scroll the detail pane up",
                "corefreport.quit": "quit"} | {
    f"corefreport.sort_column_{n}": "sort by column N (1 = first); again: reverse (▲/▼ in the header)"
    for n in range(1, 10)}
"""What each binding does, by binding id: the help screen's lines and the footer's tooltips."""

COMPUTING = "computing the other metrics and the link-level analyses…"


class Browser(TypedSearch, PageScreen):
    """The one screen: breadcrumb, link filter, table, note, detail pane, status line, footer."""

    BINDINGS = with_tips([
        Binding("escape,backspace", "back", "Back", id="corefreport.back"),
        Binding("d", "documents", "Docs", id="corefreport.documents"),
        Binding("s", "sort", "Sort", id="corefreport.sort"),
        Binding("b", "breakdown", "By", id="corefreport.breakdown"),
        Binding("slash", "search", "Search", id="corefreport.search"),
        Binding("t", "totals", "Totals", id="corefreport.totals", show=False),
        Binding("question_mark,f1", "help", "Help", id="corefreport.help", key_display="?"),
        Binding("g", "jump('document')", "Doc", id="corefreport.jump_document", show=False),
        Binding("e", "jump('entity')", "Entity", id="corefreport.jump_entity", show=False),
        Binding("a", "jump('analyses')", "Analyses", id="corefreport.jump_analyses", show=False),
        Binding("c", "confusion", "Confusion", id="corefreport.confusion", show=False),
        Binding("y", "copy", "Copy", id="corefreport.copy", show=False),
        Binding("v", "view_document", "Text", id="corefreport.view_document", show=False),
        *sort_keys("sort by column {n}; again: reverse"),
        Binding("J", "detail(3)", "Detail ↓", id="corefreport.detail_down", show=False),
        Binding("K", "detail(-3)", "Detail ↑", id="corefreport.detail_up", show=False),
    ], DESCRIPTIONS)

    def __init__(self, first: Page, ev: Evaluation | None = None, ready: bool = True,
                 leave: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.first = first
        self.ev = ev
        """The evaluation this browser shows (the app hands over a newer one as the analyses come)."""
        self.ready = ready
        """The analyses are in (the status line is free)."""
        self.leave = leave
        """What Escape on the totals does (the list of datasets or groups below them), if anything."""
        self.pages: list[Page] = []
        self._enabled: tuple | None = None
        self._spare: list[LineTable] = []

    @property
    def coref(self):
        """The app (:class:`~corefreport.tui.app.CorefApp`): its keymap, caches and exports."""
        return self.app

    @property
    def page(self) -> Page:
        return self.pages[-1]

    @property
    def table(self) -> LineTable:
        """The table of the top page (of the nearest page below that has one)."""
        for p in reversed(self.pages):
            if p.table is not None:
                return p.table
        raise LookupError("no table yet")

    def compose(self) -> ComposeResult:
        yield Static("corefreport", id="crumbs")
        yield Input(placeholder='search: words "a phrase" re:REGEX in:sentence wl fn doc:ID type:T -not — Enter',
                    id="filter")
        with Vertical(id="loading"):
            yield Static("", id="loading-label")
            yield Static("", id="progress")
        yield Vertical(id="tables")
        yield Static("", id="note")
        with VerticalScroll(id="detail-box"):  # scrolls (J/K, the mouse) while the table keeps the cursor
            yield Static("", id="detail")
        yield Static("", id="status")
        yield KeysFooter()
        yield Static("", id="too-small")

    MIN_SIZE = (60, 16)
    NARROW = 100

    def _fit(self) -> None:
        """A message instead of an unreadable screen below MIN_SIZE; the narrow layout below NARROW columns."""
        w, h = self.app.size
        small = w < self.MIN_SIZE[0] or h < self.MIN_SIZE[1]
        note = self.query_one("#too-small", Static)
        if small:
            note.update(f"corefreport needs at least {self.MIN_SIZE[0]}×{self.MIN_SIZE[1]}: "
                        f"this terminal is {w}×{h}. Enlarge it (q quits).")
        note.display = small
        self.set_class(w < self.NARROW, "-narrow")

    def on_mount(self) -> None:
        self._fit()
        self.open(self.first, "start")
        if self.first.WAITING:
            self.query_one("#loading-label", Static).update(
                displayed(f"reading the key and {self.coref.loading_title}…"))
            self.app.begin()

    def on_resize(self) -> None:
        """Link cells are cut to the width: rebuild them."""
        self._fit()
        if self.pages and (self.page.ITEM or self.page.FITS and self.page.table is not None):
            self.show()

    # ---- what the worker hands over

    def loading(self, phase: str, done: int, total: int) -> None:
        """Progress while the first numbers are scored, then while the rest is."""
        if self.page.WAITING and phase == "scoring":
            self.query_one("#loading-label", Static).update(f"scoring {done}/{total} documents…")
            # a text bar: Textual's ProgressBar animates at 60 frames a second, which takes the
            # interpreter from the scoring thread
            from .base import text_bar

            self.query_one("#progress", Static).update(text_bar(done, total, 40))
        elif phase in ("analyses", "rest") and not self.page.WAITING:
            what = "link-level analyses" if phase == "analyses" else "other metrics"
            status = self.query_one("#status", Static)
            # one line of a fixed height: repainted, not laid out again (a layout pass over the
            # whole screen at every progress step took the scoring thread's interpreter)
            status.update(f"computing the {what}… {done}/{total} documents", layout=not status.display)

    def scored(self, ev: Evaluation, final: bool, title: str) -> None:
        """An evaluation arrived: the first numbers (the totals replace the loading page) or a
        newer one (every page built again on it)."""
        first = self.ev is None
        self.ev = ev
        self.ready = final
        status = self.query_one("#status", Static)
        self.mode(busy=not final)
        status.update("" if final else COMPUTING)
        if first:
            self.pages.clear()
            self._start("first screen")
            self.pages.append(TotalsPage(title))
            self.show()
        else:
            for p in self.pages:
                p.reset()
            self.show()
            if final:
                self.say("analyses ready: open ARCS or the typed evaluation from the totals", 5)

    def idle_status(self) -> str | None:
        return None if self.ready else COMPUTING

    # ---- navigation

    def open(self, page: Page, timing: str | None = None) -> None:
        """Show ``page`` on top of the stack."""
        self._start(timing or page.name)
        if self.pages and self.page.table is not None:
            self.page.table.display = False
        self.pages.append(page)
        self.show()

    def _pop(self) -> None:
        page = self.pages.pop()
        if page.table is not None:
            # hidden now, reused by the next page opened: removing a widget costs a step ~50 ms
            page.table.display = False
            self._spare.append(page.table)
            page.table = None

    def action_back(self) -> None:
        if not self.pages:
            return
        box = self.query_one("#filter", Input)
        self.stop_typing()
        if box.has_focus:
            if self.page.table is not None:
                self.page.table.focus()
            if not self.page.query:
                self.mode(filtering=False)
            return
        if len(self.pages) > 1 and not self.pages[-2].WAITING:
            self._start("back")
            self._pop()
            self.show()
        elif len(self.pages) == 1 and self.leave is not None:
            self.leave()  # below the totals: the list of datasets or groups

    def action_totals(self) -> None:
        if self.pages and isinstance(self.pages[0], TotalsPage) and len(self.pages) > 1:
            self._start("totals")
            while len(self.pages) > 1:
                self._pop()
            self.show()

    def show(self, keep_cursor: bool = True, cursor: int | None = None) -> None:
        """Render the top page: reuse its table when it still holds the current view."""
        page = self.page
        ev = self.ev
        self.mode(page, filtering=page.SEARCH and page.TABLE and bool(page.query))
        self.update_crumbs([p.crumb for p in self.pages if p.crumb])
        if page.WAITING:
            self.bindings_changed()
            return
        if page.ITEM:
            self.query_one("#note", Static).update("")
            self.query_one("#detail", Static).update(page.detail(ev, page.row, self.detail_width))
            self._done()
            self.bindings_changed()
            return
        view = page.build(ev, self.app.size.width)
        if page.table is None:
            if self._spare:
                page.table = self._spare.pop()
            else:
                page.table = LineTable(classes="page-table")
                self.query_one("#tables").mount(page.table)
            self.fill(view, 0)
        elif page.shown_view is not view:
            if cursor is not None:
                page.cursor = cursor
            elif keep_cursor:
                page.cursor = page.table.cursor_row
            self.fill(view, page.cursor if keep_cursor else 0)
        else:
            self._update_note()
            if page.DETAIL:
                self._show_link(page.table.cursor_row)
        page.table.display = True
        page.table.focus()
        if page.SEARCH:
            self.query_one("#filter", Input).value = page.query
        self.bindings_changed()
        self._done(page.table)

    def mode(self, page: Page | None = None, filtering: bool | None = None, busy: bool | None = None) -> None:
        """Show the widgets of a page. Sets ``display`` on the few widgets concerned: toggling a
        class on the screen would restyle every widget (~30 ms a step)."""
        page = page if page is not None else self.page
        filt = self.query_one("#filter")
        status = self.query_one("#status")
        if filtering is not None:
            filt.display = filtering and page.SEARCH
        if busy is not None:
            status.display = busy
        self.query_one("#loading").display = page.WAITING
        self.query_one("#tables").display = page.TABLE
        self.query_one("#note").display = page.TABLE
        detail = self.query_one("#detail-box")
        detail.display = page.DETAIL or page.ITEM
        detail.set_class(page.ITEM, "-full")

    def fill(self, view: M.View, cursor: int = 0) -> None:
        page = self.page
        page.shown_view = view
        page.table.set_view(view, cursor)
        self._update_note()
        if page.DETAIL:
            self._show_link(min(cursor, len(view) - 1))

    def _show_link(self, index: int) -> None:
        page = self.page
        view = page.view
        detail = self.query_one("#detail", Static)
        self.query_one("#detail-box", VerticalScroll).scroll_home(animate=False)
        if view is not None and 0 <= index < len(view):
            detail.update(page.detail(self.ev, view.items[index], self.detail_width))
        else:
            detail.update("")

    @property
    def detail_width(self) -> int:
        """Columns inside the detail pane (padding and scrollbar off): the chains' two columns share them."""
        return max(40, self.app.size.width - 4)

    def _update_note(self) -> None:
        view = self.page.view
        self.query_one("#note", Static).update(displayed(view.note) if view else "")

    # ---- table events

    @on(LineTable.Highlighted)
    def _highlighted(self, event: LineTable.Highlighted) -> None:
        page = self.page
        if event.table is page.table and page.DETAIL and page.shown_view is page.view:
            self._show_link(event.row)

    @on(LineTable.Selected)
    def _selected(self, event: LineTable.Selected) -> None:
        page = self.page
        view = page.view
        if view is None or event.table is not page.table or not (0 <= event.row < len(view)):
            return
        page.enter(self, view.items[event.row], event.column)

    @on(LineTable.HeaderClicked)
    def _header(self, event: LineTable.HeaderClicked) -> None:
        if event.table is self.page.table:
            self.sort_by(event.column)

    def sort_by(self, column: int) -> None:
        """Order the table by a column (a header click, or the digit key of the column): ascending
        first, descending on a second press; the cursor stays on the same row."""
        page = self.page
        if page.view is None or page.table is None or not page.TABLE:
            self.say("open a table to sort it")
            return
        if not 0 <= column < len(page.view.columns):
            self.say(f"this table has {len(page.view.columns)} columns")
            return
        page.order = (column, not page.order[1]) if page.order and page.order[0] == column else (column, False)
        self._resort()

    def _resort(self) -> None:
        """Re-order the top page's rows (its own order changed, or the column sorted by), keeping
        the cursor on the row it was on."""
        page = self.page
        item = None
        if page.view is not None and page.table is not None and 0 <= page.table.cursor_row < len(page.view):
            item = page.view.items[page.table.cursor_row]
        self._start("sort")
        page.view = None
        view = page.build(self.ev, self.app.size.width)
        cursor = 0
        if item is not None:
            items = view.items
            cursor = next((i for i, it in enumerate(items) if it is item), None)
            if cursor is None:
                cursor = next((i for i, it in enumerate(items) if it == item), 0)
        page.cursor = cursor
        self.show(keep_cursor=True, cursor=cursor)

    # ---- actions

    def analysis(self) -> str | None:
        """The analysis of the current page (else the first one computed)."""
        for p in reversed(self.pages):
            if p.scope is not None:
                return p.scope.analysis
        present = M.analyses_present(self.ev) if self.ev is not None else []
        return present[0] if present else None

    ACTIONS = ("back", "documents", "sort", "breakdown", "search", "totals")

    def bindings_changed(self) -> None:
        """Refresh the footer only when the set of available actions changed."""
        enabled = tuple(bool(self.check_action(a, ())) for a in self.ACTIONS)
        if enabled != self._enabled:
            self._enabled = enabled
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Every key stays in the footer on every page (an action that does not apply says so): a
        footer whose keys change is rebuilt by Textual, which costs each drill step ~40 ms."""
        if self.pages and self.page.WAITING and action in self.ACTIONS:
            return False
        return True

    def action_documents(self) -> None:
        """Open the documents page, or go back to the one already on the stack (never a second copy)."""
        if isinstance(self.page, DocumentsPage):
            return
        if any(isinstance(p, DocumentsPage) for p in self.pages):
            self._start("documents")
            while not isinstance(self.page, DocumentsPage):
                self._pop()
            self.show()
            return
        self.open(DocumentsPage("documents"), "documents")

    def current_link(self) -> LinkOutcome | None:
        return self.page.link()

    def action_jump(self, where: str) -> None:
        """From a link: its document's links (g), its key entity's links (e), the same referent in
        every analysis (a)."""
        row = self.current_link()
        if row is None:
            self.say("g, e, a jump from a link: open a link table first")
            return
        self.open(jump(row, where), "jump")

    def action_view_document(self) -> None:
        """The running text of the document of the highlighted link (its referent's entities
        highlighted) or of the highlighted document, both annotations bracketed (tui/document.py)."""
        from ...present.document_text import evaluation_document
        from ..document import DocumentScreen

        row = self.current_link()
        doc_id, span = (row.doc_id, row.span) if row is not None else (self.page.document(), None)
        if doc_id is None:
            self.say("v shows a document's text: from a link or the documents page (d)")
            return
        dt = evaluation_document(self.ev, doc_id)
        if dt is None:
            self.say("the document's words were not kept")
            return
        self.app.push_screen(DocumentScreen(dt, span))

    def action_confusion(self) -> None:
        if not M.rows_of(self.ev, "typed"):
            self.say("c shows the typed evaluation's confusion: run with -a typed")
            return
        if not M.confusion_possible(self.ev):
            scheme = getattr(self.ev.typed, "scheme", None)
            self.say(f"no matrix: scheme {getattr(scheme, 'name', '?')} types both sides from the same words "
                     "(never WT/WTL)")
            return
        if not isinstance(self.page, ConfusionPage):
            self.open(ConfusionPage("typed confusion"), "confusion")

    def action_copy(self) -> None:
        """Copy the current link (outcome, document, offsets, texts, why) to the clipboard via OSC 52."""
        row = self.current_link()
        if row is None:
            self.say("y copies the highlighted link: open a link table first")
            return
        text = M.link_summary(self.ev, row)
        self.app.copy_to_clipboard(text)
        self.say("copied: " + text.splitlines()[0])

    def action_sort_by(self, column: int) -> None:
        self.sort_by(column)

    def action_help(self) -> None:
        self.coref.show_help(self.key_help())

    def open_errors(self) -> None:
        """``x`` (the app's key): the error-class browser of this evaluation (tui/errors.py)."""
        from ..errors import open_errors

        open_errors(self.app, self.ev, self.ready)

    def action_sort(self) -> None:
        if not self.page.cycle_sort(self.ev):
            self.say("s cycles the class, type and document orders; 1–9 (or a header click) sorts any table by that "
                     "column")
            return
        self._resort()

    def action_breakdown(self) -> None:
        page = self.page
        said = page.breakdown(self.ev)
        if said is None:
            self.say("b changes what the classes of an analysis are grouped by: open an analysis first")
            return
        page.reset()
        page.order = None
        self._start("breakdown")
        self.show(keep_cursor=False)
        if said:
            self.say(said)

    def action_search(self) -> None:
        page = self.page
        if isinstance(page, LinkPage):
            self.action_back()
            page = self.page
        if not isinstance(page, LinksPage):
            analysis = self.analysis()
            if analysis is None:
                self.stop_typing()
                self.say("no link-level analysis was computed (yet)")
                return
            scope = page.scope if page.scope is not None else M.Scope(analysis)
            self.open(LinksPage("search", scope), "search")
        self.mode(filtering=True)
        box = self.query_one("#filter", Input)
        box.focus()
        self.flush(box)  # what was typed after the "/" before this ran

    def search_keys(self) -> set[str]:
        keys = self.coref.keymap.get("corefreport.search")
        return {k.strip() for k in keys.split(",")} if keys else {"slash"}

    @on(Input.Submitted, "#filter")
    def _filtered(self, event: Input.Submitted) -> None:
        page = self.page
        self.stop_typing()
        if not isinstance(page, LinksPage):
            return
        if not self.valid_query(event):
            return
        page.query = event.value.strip()
        page.reset()
        page.cursor = 0
        self._start("filter")
        self.show(keep_cursor=False)

    # ---- help and the palette

    HELP = (MOVE, ("Enter", "drill in (a click on the cursor row too)"))

    def offers(self, binding_id: str) -> bool:
        """Whether the help offers a key: ``c`` only where the confusion matrix can be off its
        diagonal (:func:`~corefreport.tui.model.confusion_possible`)."""
        if binding_id == "corefreport.confusion":
            return self.ev is not None and M.confusion_possible(self.ev)
        return True

    def key_help(self) -> list[tuple[str, str]]:
        """(keys in force — remapped or not —, what they do) for every binding with an id."""
        keys = keys_in_force((self, self.app), DESCRIPTIONS, self.coref.keymap, self.offers)
        sort = [k for i, v in keys.items() if i.startswith("corefreport.sort_column_") for k in v]
        keys = {i: v for i, v in keys.items() if not i.startswith("corefreport.sort_column_")}
        if sort:
            keys["corefreport.sort_column_1"] = [" ".join(sort)]
        return list(self.HELP) + [(shown(v), DESCRIPTIONS[i]) for i, v in keys.items()] + [
            ("ctrl+p", "palette: export, jump to a document/type")]

    def palette_commands(self) -> Iterator[tuple[str, Callable[[], Any], str]]:
        """Export the current table; jump to a document's or a type's links. Made as they are asked
        for: the palette's first page needs the exports and a few documents, not the index of every
        type (~45 ms over the 83,000 rows of the 300-document pair, the first time)."""
        app = self.coref
        if not self.pages or self.ev is None:
            return
        page = self.page
        if page.view is not None and page.TABLE:
            stem = slug([p.crumb for p in self.pages[1:]]) if len(self.pages) > 1 else "corefreport-totals"
            for fmt in ("csv", "json"):
                yield (f"Export this table as {fmt.upper()}", lambda fmt=fmt, stem=stem: app.export(page.view, fmt,
                                                                                                    stem, self),
                       f"all {len(page.view)} rows to ./{stem}.{fmt} (never over an existing file)")
        analysis = self.analysis()
        if analysis is None:
            return
        title = M.ANALYSIS_TITLES.get(analysis, analysis)
        for d in app.cached("docs", self.ev, lambda: M.document_ids(self.ev)):
            yield (f"Document {d}", lambda d=d: self.open(
                LinksPage(f"{d} ({title})", M.Scope(analysis, (("doc_id", d),))), "jump"),
                f"{title} links of the document")
        for a, c, t, n in app.cached("types", self.ev, lambda: M.type_index(self.ev)):
            yield (f"Type {t} (class {c}, {M.ANALYSIS_TITLES.get(a, a)})", lambda a=a, c=c, t=t: self.open(
                LinksPage(f"{M.ANALYSIS_TITLES.get(a, a)}: {c} › {t}", M.Scope(a, (("cls", c), ("type", t)))),
                "jump"), f"{n} links")

    def shown_rows(self) -> list[list[str]]:
        """The rows the table holds now, as plain text."""
        t = self.table
        return [t.plain_row(i) for i in range(t.row_count)]


__all__ = ["Browser", "COMPUTING", "DESCRIPTIONS", "LoadingPage", "TotalsPage"]
