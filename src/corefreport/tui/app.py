"""``corefreport tui``: a Textual browser from corpus totals to classes, types and single links.

Pages: totals → classes of an analysis (or the values of a breakdown feature) → types of a class →
the links of a type (a detail pane shows the highlighted link in its sentence) → one link;
documents (per-document scores, worst first) and a link search from every page. Enter drills in,
Escape goes back, the breadcrumb shows where you are.

All pages live on one Textual screen (a page stack, not a screen stack: switching screens costs
Textual ~100 ms a step). Each page has its own table, hidden while a page above it is shown and
shown again as it was on Escape. Tables (:class:`~corefreport.tui.table.LineTable`) format only
the rows on screen, so no page loads more rows than it can show fast. Bindings carry ids (``corefreport.back``, …) so users can remap them (a keymap
file, see :func:`load_keymap` and docs/tui.md). Scoring runs in a worker thread: the standard
metrics appear first, the link-level analyses replace the totals when ready.
"""

from __future__ import annotations

import os
import re
import threading
import time
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Iterator

from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from ..present.inert import inert
from ..scoring.outcomes import LinkOutcome
from ..scoring.result import Evaluation
from . import layermodel as L
from . import model as M
from .typing import TypedSearch
from .footer import KeysFooter
from .inert import InertLines, displayed
from .table import LineTable

KEYMAP_ENV = "COREFREPORT_KEYMAP"


# --------------------------------------------------------------------------- pages


@dataclass(slots=True)
class Page:
    """One entry of the navigation stack; its :class:`~corefreport.tui.model.View` is built lazily."""

    kind: str  # "loading" | "totals" | "groups" | "links" | "link" | "documents" | "warnings" | "layer" | "layeritem"
    crumb: str
    scope: M.Scope | None = None
    column: str = "cls"
    sort: str = "name"
    reverse: bool = False
    query: str = ""
    doc_sort: str | None = None
    row: LinkOutcome | None = None
    cursor: int = 0
    view: M.View | None = None
    view_of: int = 0  # id() of the Evaluation the view was built from
    width: int = 0
    table: LineTable | None = None
    """This page's own table: kept while the page is on the stack, so going back shows it again
    as it was (cursor, scroll) without refilling it."""
    shown_view: M.View | None = None  # the view the table holds
    pick: Callable[[Evaluation], list[LinkOutcome]] | None = None
    """Links chosen by a jump (an entity, a referent in every analysis) instead of ``scope``."""

    order: tuple[int, bool] | None = None
    """(column, descending) chosen by a header click or a digit key; None: the page's own order."""
    base: M.View | None = None  # the view in the page's own order

    def reset(self) -> None:
        """Forget the views: the next :meth:`build` recomputes them (new rows, filter, grouping)."""
        self.base = self.view = None

    def build(self, ev: Evaluation, width: int = 80) -> M.View:
        if self.kind in ("links", "totals", "documents", "layer") and self.base is not None and self.width != width:
            self.reset()  # its cells are cut to the terminal's width
        self.width = width
        if self.base is None or self.view_of != id(ev):
            self.view = None
            if self.kind == "totals":
                self.base = M.totals_view(ev, width, L.layer_total_rows(ev))
            elif self.kind == "groups":
                self.base = M.group_view(ev, self.scope, self.column, self.sort, self.reverse)
            elif self.kind == "links":
                self.base = M.link_view(ev, self.scope, self.query, width, self.pick)
            elif self.kind == "documents":
                self.base = M.document_view(ev, self.doc_sort, width)
            elif self.kind == "warnings":
                self.base = M.warnings_view(ev)
            elif self.kind == "confusion":
                self.base = M.confusion_view(ev, self.column)
            elif self.kind == "layer":  # a UA layer's page: self.column names it (tui/layermodel.py)
                self.base = L.layer_view(ev, self.column, width)
            else:
                self.base = M.View(self.kind, self.crumb, (), [], lambda it, full: ())
            self.view_of = id(ev)
        if self.view is None:
            order = self.order
            self.view = M.sort_view(self.base, *order) if order and order[0] < len(self.base.columns) \
                else self.base
        return self.view


# --------------------------------------------------------------------------- messages from the worker


class Scored(Message):
    def __init__(self, ev: Evaluation, final: bool) -> None:
        super().__init__()
        self.ev = ev
        self.final = final


class Progress(Message):
    def __init__(self, phase: str, done: int, total: int) -> None:
        super().__init__()
        self.phase = phase
        self.done = done
        self.total = total


class Failed(Message):
    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class _Cancelled(Exception):
    pass


def text_bar(done: int, total: int, width: int) -> Text:
    n = round(width * done / total) if total else 0
    return Text("█" * n, style="green") + Text("░" * (width - n), style="dim") + Text(f" {done}/{total}")


def crumb_line(parts: list[str], width: int) -> str:
    """The breadcrumb in ``width`` columns: the first parts give way ("…") to the last, which
    says where you are."""
    line = " › ".join(parts)
    keep = list(parts)
    while len(line) > width and len(keep) > 1:
        keep.pop(0)
        line = "… › " + " › ".join(keep)
    return line


# --------------------------------------------------------------------------- the browser screen

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


def _tips(bindings: list[Binding]) -> list[Binding]:
    from dataclasses import replace

    return [replace(b, tooltip=b.tooltip or DESCRIPTIONS.get(b.id or "", "")) for b in bindings]



class Browser(TypedSearch, Screen):
    """The one screen: breadcrumb, link filter, table, note, detail pane, status line, footer."""

    BINDINGS = _tips([
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
        *(Binding(str(n), f"sort_by({n - 1})", f"Sort by column {n}", id=f"corefreport.sort_column_{n}",
                  show=False, tooltip=f"sort by column {n}; again: reverse") for n in range(1, 10)),
        Binding("J", "detail(3)", "Detail ↓", id="corefreport.detail_down", show=False),
        Binding("K", "detail(-3)", "Detail ↑", id="corefreport.detail_up", show=False),
    ])

    def __init__(self, first: Page) -> None:
        super().__init__()
        self.first = first
        self.pages: list[Page] = []
        self._mark: tuple[str, float] | None = None
        self._enabled: tuple | None = None
        self._spare: list[LineTable] = []
        self._said: str | None = None
        self._say_timer = None

    @property
    def coref(self) -> "CorefApp":
        return self.app  # type: ignore[return-value]

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
        if self.first.kind == "loading":
            app = self.coref
            self.query_one("#loading-label", Static).update(displayed(f"reading the key and {app.loading_title}…"))
            app.score()

    def on_resize(self) -> None:
        """Link cells are cut to the width: rebuild them."""
        self._fit()
        if self.pages and (self.page.kind in ("link", "layeritem") or self.page.kind in ("links", "totals", "documents", "layer")
                           and self.page.table is not None):
            self.show()

    # ---- navigation

    def open(self, page: Page, timing: str | None = None) -> None:
        """Show ``page`` on top of the stack."""
        self._start(timing or page.kind)
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
        if len(self.pages) > 1 and self.pages[-2].kind != "loading":
            self._start("back")
            self._pop()
            self.show()
        elif len(self.pages) == 1:
            self.coref.leave_browser()  # below the totals: the list of datasets or groups (tui/levels.py)

    def action_totals(self) -> None:
        if self.pages and self.pages[0].kind == "totals" and len(self.pages) > 1:
            self._start("totals")
            while len(self.pages) > 1:
                self._pop()
            self.show()

    def show(self, keep_cursor: bool = True, cursor: int | None = None) -> None:
        """Render the top page: reuse its table when it still holds the current view."""
        page = self.page
        ev = self.coref.ev
        self.mode(page.kind, filtering=page.kind == "links" and bool(page.query))
        self.query_one("#crumbs", Static).update(Text(inert(crumb_line([p.crumb for p in self.pages if p.crumb],
                                                                       self.app.size.width - 2)),
                                                      no_wrap=True, overflow="ellipsis"))
        if page.kind == "loading":
            self.bindings_changed()
            return
        if page.kind in ("link", "layeritem"):
            self.query_one("#note", Static).update("")
            self.query_one("#detail", Static).update(displayed(
                M.link_detail(ev, page.row, chain_limit=200, width=self.detail_width) if page.kind == "link"
                else L.layer_detail(ev, page.row, limit=200)))
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
            if page.kind in ("links", "warnings", "layer"):
                self._show_link(page.table.cursor_row)
        page.table.display = True
        page.table.focus()
        if page.kind == "links":
            self.query_one("#filter", Input).value = page.query
        self.bindings_changed()
        self._done()

    def mode(self, kind: str | None = None, filtering: bool | None = None, busy: bool | None = None) -> None:
        """Show the widgets of a page kind. Sets ``display`` on the few widgets concerned: toggling a
        class on the screen would restyle every widget (~30 ms a step)."""
        kind = kind if kind is not None else self.page.kind
        filt = self.query_one("#filter")
        status = self.query_one("#status")
        if filtering is not None:
            filt.display = filtering and kind in ("links", "link")
        if busy is not None:
            status.display = busy
        self.query_one("#loading").display = kind == "loading"
        self.query_one("#tables").display = kind not in ("loading", "link", "layeritem")
        self.query_one("#note").display = kind not in ("loading", "link", "layeritem")
        detail = self.query_one("#detail-box")
        detail.display = kind in ("links", "link", "warnings", "layer", "layeritem")
        detail.set_class(kind in ("link", "layeritem"), "-full")

    def fill(self, view: M.View, cursor: int = 0) -> None:
        page = self.page
        page.shown_view = view
        page.table.set_view(view, cursor)
        self._update_note()
        if view.kind in ("links", "warnings", "layer"):
            self._show_link(min(cursor, len(view) - 1))

    def _show_link(self, index: int) -> None:
        view = self.page.view
        detail = self.query_one("#detail", Static)
        self.query_one("#detail-box", VerticalScroll).scroll_home(animate=False)
        if view is not None and 0 <= index < len(view):
            item = view.items[index]
            detail.update(Text(inert(item)) if view.kind == "warnings" else
                          displayed(L.layer_detail(self.coref.ev, item)) if view.kind == "layer" else
                          displayed(M.link_detail(self.coref.ev, item, width=self.detail_width)))
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
        if event.table is page.table and page.kind in ("links", "warnings", "layer") and page.shown_view is page.view:
            self._show_link(event.row)

    @on(LineTable.Selected)
    def _selected(self, event: LineTable.Selected) -> None:
        page = self.page
        view = page.view
        if view is None or event.table is not page.table or not (0 <= event.row < len(view)):
            return
        item = view.items[event.row]
        if page.kind == "totals":
            if item.target is None:
                return
            kind, name = item.target
            if kind == "analysis":
                self.open(Page("groups", M.ANALYSIS_TITLES.get(name, name), M.Scope(name), "cls"), "classes")
            elif kind == "warnings":
                self.open(Page("warnings", "warnings"), "warnings")
            elif kind == "layer":
                self.open(Page("layer", L.LAYER_TITLES[name], column=name), "layer")
            else:
                self.open(Page("documents", "documents", doc_sort=name), "documents")
        elif page.kind == "groups":
            scope = item.scope
            crumb = item.key if page.column in ("cls", "type", "doc_id") else \
                f"{M.COLUMN_TITLES.get(page.column, page.column)} {item.key}"
            if page.column in ("type", "doc_id"):
                self.open(Page("links", crumb, scope), "links")
            else:
                self.open(Page("groups", crumb, scope, "type"), "types")
        elif page.kind == "links":
            self.open(Page("link", f"{item.outcome} {item.text[:20]}", page.scope, row=item), "link")
        elif page.kind == "layer":
            self.open(Page("layeritem", L.item_crumb(self.coref.ev, item), row=item), "link")
        elif page.kind == "confusion":
            level, key = page.column, item.key
            cols = page.view.columns
            resp = None if event.column == 0 or event.column >= len(cols) - 1 else cols[event.column].rstrip(" ▲▼")
            crumb = f"{key} → {resp}" if resp is not None else f"key {key}"
            if (item.counts.get(resp, 0) if resp is not None else sum(item.counts.values())) == 0:
                self.say(M.empty_cell_reason(key, resp, level), 8)  # an empty cell says why it is empty
                return
            self.open(Page("links", crumb, M.Scope("typed"),
                           pick=lambda ev, level=level, key=key, resp=resp: M.confusion_rows(ev, level, key, resp)),
                      "links")
        elif page.kind == "documents":
            analysis = self._analysis()
            if analysis is None:
                self.say("no link-level analysis was computed (yet)")
                return
            self.open(Page("links", f"{item.doc_id} ({M.ANALYSIS_TITLES.get(analysis, analysis)})",
                           M.Scope(analysis, (("doc_id", item.doc_id),))), "links")

    @on(LineTable.HeaderClicked)
    def _header(self, event: LineTable.HeaderClicked) -> None:
        if event.table is self.page.table:
            self.sort_by(event.column)

    def sort_by(self, column: int) -> None:
        """Order the table by a column (a header click, or the digit key of the column): ascending
        first, descending on a second press; the cursor stays on the same row."""
        page = self.page
        if page.view is None or page.table is None or page.kind in ("loading", "link", "layeritem"):
            self._not_here("open a table to sort it")
            return
        if not 0 <= column < len(page.view.columns):
            self._not_here(f"this table has {len(page.view.columns)} columns")
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
        if page.kind in ("groups", "documents"):
            page.base = None  # their own order (s) is part of the base view
        view = page.build(self.coref.ev, self.app.size.width)
        cursor = 0
        if item is not None:
            items = view.items
            cursor = next((i for i, it in enumerate(items) if it is item), None)
            if cursor is None:
                cursor = next((i for i, it in enumerate(items) if it == item), 0)
        page.cursor = cursor
        self.show(keep_cursor=True, cursor=cursor)

    # ---- actions

    def _analysis(self) -> str | None:
        """The analysis of the current page (else the first one computed)."""
        for p in reversed(self.pages):
            if p.scope is not None:
                return p.scope.analysis
        present = M.analyses_present(self.coref.ev) if self.coref.ev is not None else []
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
        if self.pages and self.page.kind == "loading" and action in self.ACTIONS:
            return False
        return True

    def say(self, text: str, seconds: float = 3) -> None:
        """A message on the status line above the footer (not a toast: it never covers the numbers)."""
        status = self.query_one("#status", Static)
        status.update(Text(inert(text), no_wrap=True, overflow="ellipsis"))
        status.display = True
        self._said = text
        if self._say_timer is not None:
            self._say_timer.stop()

        def clear() -> None:
            if self._said == text:
                self._said = None
                status.update("")
                status.display = not self.coref.analyses_ready
                if status.display:
                    status.update("computing the other metrics and the link-level analyses…")

        self._say_timer = self.set_timer(seconds, clear)

    def _not_here(self, what: str) -> None:
        self.say(what)

    def action_documents(self) -> None:
        """Open the documents page, or go back to the one already on the stack (never a second copy)."""
        if self.page.kind == "documents":
            return
        if any(p.kind == "documents" for p in self.pages):
            self._start("documents")
            while self.page.kind != "documents":
                self._pop()
            self.show()
            return
        self.open(Page("documents", "documents"), "documents")

    def current_link(self) -> LinkOutcome | None:
        page = self.page
        if page.kind == "link":
            return page.row
        if page.kind == "links" and page.view is not None and page.table is not None \
                and 0 <= page.table.cursor_row < len(page.view):
            return page.view.items[page.table.cursor_row]
        return None

    def action_jump(self, where: str) -> None:
        """From a link: its document's links (g), its key entity's links (e), the same referent in
        every analysis (a)."""
        row = self.current_link()
        if row is None:
            self._not_here("g, e, a jump from a link: open a link table first")
            return
        title = M.ANALYSIS_TITLES.get(row.analysis, row.analysis)
        if where == "document":
            page = Page("links", f"{row.doc_id} ({title})", M.Scope(row.analysis, (("doc_id", row.doc_id),)))
        elif where == "entity":
            page = Page("links", f"entity of “{row.text[:20]}” ({title})", M.Scope(row.analysis),
                        pick=lambda ev, row=row: M.entity_rows(ev, row))
        else:
            page = Page("links", f"“{row.text[:20]}” @{row.start} in every analysis", M.Scope(row.analysis),
                        pick=lambda ev, row=row: M.referent_rows(ev, row))
        self.open(page, "jump")

    def action_view_document(self) -> None:
        """The running text of the document of the highlighted link (its referent's entities
        highlighted) or of the highlighted document, both annotations bracketed (tui/document.py)."""
        from ..present.document_text import evaluation_document
        from .document import DocumentScreen

        row = self.current_link()
        page = self.page
        doc_id, span = (row.doc_id, row.span) if row is not None else (None, None)
        if row is None and page.kind == "documents" and page.view is not None and page.table is not None \
                and 0 <= page.table.cursor_row < len(page.view):
            doc_id = getattr(page.view.items[page.table.cursor_row], "doc_id", None)
        if doc_id is None:
            self._not_here("v shows a document's text: from a link or the documents page (d)")
            return
        dt = evaluation_document(self.coref.ev, doc_id)
        if dt is None:
            self._not_here("the document's words were not kept")
            return
        self.app.push_screen(DocumentScreen(dt, span))

    def action_confusion(self) -> None:
        if not M.rows_of(self.coref.ev, "typed"):
            self._not_here("c shows the typed evaluation's confusion: run with -a typed")
            return
        if not M.confusion_possible(self.coref.ev):
            scheme = getattr(self.coref.ev.typed, "scheme", None)
            self._not_here(f"no matrix: scheme {getattr(scheme, 'name', '?')} types both sides from the same words "
                           "(never WT/WTL)")
            return
        if self.page.kind != "confusion":
            self.open(Page("confusion", "typed confusion"), "confusion")

    def action_copy(self) -> None:
        """Copy the current link (outcome, document, offsets, texts, why) to the clipboard via OSC 52."""
        row = self.current_link()
        if row is None:
            self._not_here("y copies the highlighted link: open a link table first")
            return
        text = M.link_summary(self.coref.ev, row)
        self.app.copy_to_clipboard(text)
        self.say("copied: " + text.splitlines()[0])

    def action_sort_by(self, column: int) -> None:
        self.sort_by(column)

    def action_detail(self, lines: int) -> None:
        """Scroll the detail pane (the sentence and both chains) while the cursor stays in the table."""
        box = self.query_one("#detail-box", VerticalScroll)
        if box.display:
            box.scroll_relative(y=lines, animate=False)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.coref.key_help()))

    def action_sort(self) -> None:
        page = self.page
        if page.kind == "groups":
            page.sort = M.GROUP_SORTS[(M.GROUP_SORTS.index(page.sort) + 1) % len(M.GROUP_SORTS)] \
                if page.sort in M.GROUP_SORTS else M.GROUP_SORTS[0]
            page.reverse = False
            page.order = None
        elif page.kind == "documents":
            page.order = None
            sorts = M.document_sorts(self.coref.ev)
            cur = page.doc_sort or sorts[0]
            page.doc_sort = sorts[(sorts.index(cur) + 1) % len(sorts)] if cur in sorts else sorts[0]
        else:
            self._not_here("s cycles the class, type and document orders; 1–9 (or a header click) sorts "
                           "any table by that column")
            return
        self._resort()

    def action_breakdown(self) -> None:
        page = self.page
        if page.kind == "confusion":
            page.column = "type" if page.column == "cls" else "cls"
            page.reset()
            page.order = None
            self._start("breakdown")
            self.show(keep_cursor=False)
            return
        if page.kind != "groups" or page.scope is None or page.column == "type" or page.scope.where:
            self._not_here("b changes what the classes of an analysis are grouped by: open an analysis first")
            return
        options = M.breakdowns(self.coref.ev, page.scope.analysis)
        page.column = options[(options.index(page.column) + 1) % len(options)] if page.column in options \
            else options[0]
        page.reset()
        page.order = None
        self._start("breakdown")
        self.show(keep_cursor=False)
        self.say(f"grouped by {M.COLUMN_TITLES.get(page.column, page.column)}")

    def action_search(self) -> None:
        page = self.page
        if page.kind == "link":
            self.action_back()
            page = self.page
        if page.kind != "links":
            analysis = self._analysis()
            if analysis is None:
                self.stop_typing()
                self._not_here("no link-level analysis was computed (yet)")
                return
            scope = page.scope if page.scope is not None else M.Scope(analysis)
            self.open(Page("links", "search", scope), "search")
        self.mode(filtering=True)
        box = self.query_one("#filter", Input)
        box.focus()
        self.flush(box)  # what was typed after the "/" before this ran

    def search_keys(self) -> set[str]:
        keys = self.coref.keymap.get("corefreport.search")
        return {k.strip() for k in keys.split(",")} if keys else {"slash"}

    def on_key(self, event: events.Key) -> None:
        self.capture(event, self.query_one("#filter", Input))  # typed after "/": text (tui/typing.py)

    def on_paste(self, event: events.Paste) -> None:
        self.capture(event, self.query_one("#filter", Input))

    @on(Input.Submitted, "#filter")
    def _filtered(self, event: Input.Submitted) -> None:
        page = self.page
        self.stop_typing()
        if page.kind != "links":
            return
        try:
            M.parse_query(event.value)
        except M.QueryError as err:  # a bad regular expression: say so, keep the box
            self.say(str(err), 6)
            event.input.focus()
            return
        page.query = event.value.strip()
        page.reset()
        page.cursor = 0
        self._start("filter")
        self.show(keep_cursor=False)

    # ---- timings (drill steps are measured from the key to the refreshed page)

    def _start(self, label: str) -> None:
        self._mark = (label, time.perf_counter())

    def _done(self) -> None:
        mark = self._mark
        if mark is None:
            return
        self._mark = None

        now = time.perf_counter

        def record() -> None:
            self.coref.timings.append((mark[0], 1000 * (now() - mark[1])))

        page = self.page if self.pages else None
        if page is not None and page.table is not None and page.kind not in ("loading", "link", "layeritem"):
            page.table.after_paint(record)  # when its lines are rendered, not just scheduled
        else:
            self.call_after_refresh(record)


# --------------------------------------------------------------------------- help


LEGEND = """\
[b]Outcomes[/b] (one row per referent)
  TP   right antecedent (typed: and the right link type)
  WT   right antecedent, wrong link type (typed evaluation only)
  WL   wrong link: an antecedent of another entity
  WTL  wrong link and wrong type (typed evaluation only)
  FN   missed: the key links the referent, the response does not
  FP   spurious: the response links a referent the key does not
[b]ARCS scenarios[/b]
  ARCS 1 immediate   the response predecessor must be the key predecessor
  ARCS 2 inferred    the closest preceding nominal of the response chain
                     must be in the key chain
  ARCS 3 anchor      entities detected by their anchor (first nominal);
                     rows are the mentions of detected entities
[b]Mix bar[/b]  █ TP  ▓ WT  ▒ WL  ▚ WTL  ░ FN  ▁ FP (one shade per outcome)
[b]Detail[/b]   referent reversed; key antecedent \\[K] green, response \\[R] red,
         \\[K=R] cyan when they agree
[b]Search[/b]   words; wl fn fp or outcome:wl,fn; doc:ID; type:T; class:C; mtype:PRONOUN"""

KEY_NAMES = {"slash": "/", "question_mark": "?", "escape": "Esc", "backspace": "Backspace"}


class HelpScreen(Screen):
    """Every binding (with the keys in force, remapped or not) and a legend; any of Escape, ?, q closes it."""

    BINDINGS = [Binding("escape,question_mark,f1,q", "app.pop_screen", "Close")]

    def __init__(self, keys: list[tuple[str, str]]) -> None:
        super().__init__(id="help")
        self.keys = keys

    def compose(self) -> ComposeResult:
        from textual.containers import VerticalScroll

        lines = ["[b]Keys[/b] (remap them in ~/.config/corefreport/keymap.toml, see docs/tui.md)"]
        lines += [f"  {k:<22} {d}" for k, d in self.keys]
        with VerticalScroll(id="help-body"):
            yield Static("\n".join(lines) + "\n" + LEGEND, id="help-text", markup=True)
        yield KeysFooter()


# --------------------------------------------------------------------------- export


def slug(parts: list[str]) -> str:
    """A file name stem from the last breadcrumb parts (where you are), ASCII, at most ~50 characters."""
    import unicodedata

    def one(p: str) -> str:
        p = unicodedata.normalize("NFKD", p).encode("ascii", "ignore").decode()
        return re.sub(r"[^A-Za-z0-9._]+", "_", p).strip("_")

    words = [w for w in (one(p) for p in parts if p) if w]
    keep: list[str] = []
    for w in reversed(words):
        if keep and len("-".join([w] + keep)) > 40:
            break
        keep.insert(0, w[:40])
    return "corefreport-" + "-".join(keep) if keep else "corefreport"


def export_view(view: M.View, stem: str, fmt: str, directory: Path | None = None) -> Path:
    """Write every row of ``view`` as values (numbers unformatted; links with document ids and token
    offsets), not only the rows on screen, to ``stem.csv`` or
    ``stem.json`` in ``directory`` (default: the working directory), choosing ``stem-2``,
    ``stem-3``… rather than overwriting an existing file."""
    import csv
    import json

    directory = directory or Path.cwd()
    records = view.records()
    columns = list(records[0]) if records else list(view.columns)
    n = 1
    while True:
        path = directory / (f"{stem}.{fmt}" if n == 1 else f"{stem}-{n}.{fmt}")
        try:
            f = open(path, "x", encoding="utf-8", newline="")  # never overwrites, even in a race
        except FileExistsError:
            n += 1
            continue
        break
    with f:
        if fmt == "csv":
            w = csv.DictWriter(f, columns)
            w.writeheader()
            w.writerows(records)  # numbers as numbers (repr: no rounding), None as an empty cell
        else:
            json.dump(records, f, ensure_ascii=False, indent=1)
            f.write("\n")
    return path


# --------------------------------------------------------------------------- command palette


class CorefCommands(Provider):
    """Export the current table; jump to a document's links or to a type's links."""

    def _commands(self) -> Iterator[tuple[str, Callable[[], Any], str]]:
        """The commands, made as they are asked for: the palette's first page (its discovery)
        needs the exports and a few documents, not the index of every type (~45 ms over the
        83,000 rows of the 300-document pair, the first time)."""
        app: CorefApp = self.app  # type: ignore[assignment]
        browser = app.browser
        if browser is None or not browser.pages or app.ev is None:
            return
        own = getattr(self.screen, "export_parts", None)  # the screen the palette was opened on
        if own is not None:  # the error classes' screen: its own table, nothing else
            view = self.screen.view
            if view is not None:
                for fmt in ("csv", "json"):
                    yield (f"Export this table as {fmt.upper()}", lambda fmt=fmt: app.export(fmt, ""),
                           f"all {len(view)} rows to ./{slug(own())}.{fmt} (never over an existing file)")
            return
        page = browser.page
        if page.view is not None and page.kind not in ("loading", "link", "layeritem"):
            stem = slug([p.crumb for p in browser.pages[1:]]) if len(browser.pages) > 1 else "corefreport-totals"
            for fmt in ("csv", "json"):
                yield (f"Export this table as {fmt.upper()}", lambda fmt=fmt, stem=stem: app.export(fmt, stem),
                       f"all {len(page.view)} rows to ./{stem}.{fmt} (never over an existing file)")
        analysis = browser._analysis()
        if analysis is None:
            return
        title = M.ANALYSIS_TITLES.get(analysis, analysis)
        for d in app.cached("docs", lambda: M.document_ids(app.ev)):
            yield (f"Document {d}", lambda d=d: browser.open(
                Page("links", f"{d} ({title})", M.Scope(analysis, (("doc_id", d),))), "jump"),
                f"{title} links of the document")
        for a, c, t, n in app.cached("types", lambda: M.type_index(app.ev)):
            yield (f"Type {t} (class {c}, {M.ANALYSIS_TITLES.get(a, a)})", lambda a=a, c=c, t=t: browser.open(
                Page("links", f"{M.ANALYSIS_TITLES.get(a, a)}: {c} › {t}", M.Scope(a, (("cls", c), ("type", t)))),
                "jump"), f"{n} links")

    async def discover(self) -> Hits:
        for text, cb, help_ in islice(self._commands(), 8):
            yield DiscoveryHit(text, cb, help=help_)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, cb, help_ in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), cb, help=help_)


# --------------------------------------------------------------------------- the app


Producer = Callable[[Callable[[str, int, int], None], Callable[[Evaluation], None]], Evaluation]
"""Scores the pair once in the app's worker thread: ``producer(report, on_stage)`` calls
``report(phase, done, total)`` as it goes ("read", "scoring", "analyses") and ``on_stage(ev)`` with
the standard scores, and returns the complete :class:`Evaluation`."""


class CorefApp(App):
    """Browse one evaluation. Give an :class:`Evaluation`, or a :data:`Producer` that scores it in
    a worker thread (the app never reads files or scores anything itself)."""

    CSS_PATH = "corefreport.tcss"
    TITLE = "corefreport"
    COMMANDS = App.COMMANDS | {CorefCommands}
    BINDINGS = _tips([Binding("q", "quit", "Quit", id="corefreport.quit"),
                      Binding("x", "errors", "Errors", id="corefreport.errors", show=False)])

    def leave_browser(self) -> None:
        """Escape on the totals: nothing is below them here (tui/levels.py: the list of datasets)."""

    def action_errors(self) -> None:  # -a errors: the error-class browser (tui/errors.py)
        from .errors import open_errors

        open_errors(self)

    def __init__(self, ev: Evaluation | None = None, producer: Producer | None = None,
                 keymap: dict[str, str] | None = None, freeze_gc: bool = False, title: str = "response") -> None:
        super().__init__()
        if ev is None and producer is None:
            raise ValueError("give an Evaluation or a producer")
        self.ev = ev
        self.producer = producer
        self.loading_title = title
        self.keymap = keymap or {}
        self.freeze_gc = freeze_gc
        """Move the evaluation out of the garbage collector's reach once it arrives: a full collection
        over a 300-document evaluation takes ~170 ms, a visible stall in the middle of a drill step."""
        self.error: str | None = None
        self.browser: Browser | None = None
        self.timings: list[tuple[str, float]] = []
        """(step, milliseconds from the key to the refreshed page) of every navigation."""
        self.analyses_ready = ev is not None
        self._cache: dict[tuple[str, int], Any] = {}
        self._t0 = time.perf_counter()
        self.started_at = time.time()
        self._painted = threading.Event()

    def get_line_filters(self):
        """Textual's filters and :class:`~.inert.InertLines`: no control character of a corpus reaches
        the terminal, whatever widget draws it."""
        return [*super().get_line_filters(), self._inert_lines]

    _inert_lines = InertLines()

    def cached(self, name: str, make: Callable[[], Any]) -> Any:
        k = (name, id(self.ev))
        if k not in self._cache:
            self._cache[k] = make()
        return self._cache[k]

    def on_mount(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)
        if self.ev is not None:
            first = self._totals_page()
        else:
            first = Page("loading", f"corefreport: {self.loading_title}")
        self.browser = Browser(first)
        self.push_screen(self.browser)

    def _totals_page(self) -> Page:
        name = Path(self.ev.response_source).name if self.ev.response_source else "response"
        return Page("totals", f"corefreport: {name}")

    HELP = (("↑ ↓ PgUp PgDn Home End", "move the cursor (← → scroll)"),
            ("Enter", "drill in (a click on the cursor row too)"))
    DESCRIPTIONS = DESCRIPTIONS

    def offers(self, binding_id: str) -> bool:
        """Whether the help offers a key: ``c`` only where the confusion matrix can be off its
        diagonal (:func:`~corefreport.tui.model.confusion_possible`)."""
        if binding_id == "corefreport.confusion":
            return self.ev is not None and M.confusion_possible(self.ev)
        return True

    def key_help(self) -> list[tuple[str, str]]:
        """(keys in force — remapped or not —, what they do) for every binding with an id."""
        keys: dict[str, list[str]] = {}
        for node in (self.browser, self):
            if node is None:
                continue
            for bindings in node._bindings.key_to_bindings.values():
                for binding in bindings:
                    if binding.id in self.DESCRIPTIONS and self.offers(binding.id):
                        keys.setdefault(binding.id, []).append(binding.key)
        for i, remapped in self.keymap.items():  # Textual applies the keymap as keys arrive
            if i in keys:
                keys[i] = [k.strip() for k in remapped.split(",") if k.strip()]
        sort_keys = [k for i, v in keys.items() if i.startswith("corefreport.sort_column_") for k in v]
        keys = {i: v for i, v in keys.items() if not i.startswith("corefreport.sort_column_")}
        if sort_keys:
            keys["corefreport.sort_column_1"] = [" ".join(sort_keys)]
        return list(self.HELP) + [(", ".join(KEY_NAMES.get(k, k) for k in v), self.DESCRIPTIONS[i])
                                  for i, v in keys.items()] + [("ctrl+p", "palette: export, jump to a document/type")]

    def show_help(self, keys: list[tuple[str, str]]) -> None:
        """The help screen with ``keys`` (a screen of its own, such as the error classes')."""
        self.push_screen(HelpScreen(keys))

    def export(self, fmt: str, stem: str) -> Path | None:
        own = getattr(self.screen, "export_parts", None)  # a screen with a table of its own (the error classes)
        if own is not None:
            if self.screen.view is None:
                return None
            path = export_view(self.screen.view, slug(own()), fmt)
            self.notify(f"wrote {path.name if path.parent == Path.cwd() else path}", timeout=6)
            return path
        page = self.browser.page if self.browser else None
        if page is None or page.view is None:
            return None
        path = export_view(page.view, stem, fmt)
        self.browser.say(f"wrote {path.name if path.parent == Path.cwd() else path}", 6)
        return path

    # ---- scoring in a worker

    @work(thread=True, exclusive=True, group="score")
    def score(self) -> None:
        from ..errors import InputError, SettingsError

        worker = get_current_worker()
        self.timings.append(("scoring started, since the app started", 1000 * (time.perf_counter() - self._t0)))
        last = [0.0]

        def report(phase: str, done: int, total: int) -> None:
            if worker.is_cancelled:
                raise _Cancelled()
            now = time.perf_counter()
            if phase == "read" or done == total or now - last[0] > 0.1:
                last[0] = now
                self.post_message(Progress(phase, done, total))

        def on_stage(ev: Evaluation) -> None:
            self.post_message(Scored(ev, False))
            # let the totals paint first: this thread would take half the CPU from it
            self._painted.wait(timeout=2.0)

        try:
            ev = self.producer(report, on_stage)
            self.post_message(Scored(ev, True))
        except _Cancelled:
            return
        except (InputError, SettingsError) as err:
            self.post_message(Failed(str(err)))

    def on_progress(self, msg: Progress) -> None:
        if msg.phase == "read":
            self.timings.append(("files read, since the app started", 1000 * (time.perf_counter() - self._t0)))
            return
        if msg.phase == "scoring" and self.browser and self.browser.page.kind == "loading":
            self.browser.query_one("#loading-label", Static).update(f"scoring {msg.done}/{msg.total} documents…")
            # a text bar: Textual's ProgressBar animates at 60 frames a second, which takes the
            # interpreter from the scoring thread
            self.browser.query_one("#progress", Static).update(text_bar(msg.done, msg.total, 40))
        elif msg.phase in ("analyses", "rest") and self.browser is not None:
            what = "link-level analyses" if msg.phase == "analyses" else "other metrics"
            status = self.browser.query_one("#status", Static)
            # one line of a fixed height: repainted, not laid out again (a layout pass over the
            # whole screen at every progress step took the scoring thread's interpreter)
            status.update(f"computing the {what}… {msg.done}/{msg.total} documents", layout=not status.display)

    def on_scored(self, msg: Scored) -> None:
        self.timings.append((("standard metrics" if self.ev is None else "analyses" if msg.final else "all metrics") +
                             " scored, since the app started", 1000 * (time.perf_counter() - self._t0)))
        if self.freeze_gc:
            import gc

            gc.freeze()
        first = self.ev is None
        self.ev = msg.ev
        self.analyses_ready = msg.final
        b = self.browser
        status = b.query_one("#status", Static)
        b.mode(busy=not msg.final)
        status.update("" if msg.final else "computing the other metrics and the link-level analyses…")
        if first:
            b.pages.clear()
            b._start("first screen")
            b.pages.append(self._totals_page())
            b.show()

            def painted() -> None:
                self.timings.append(("totals painted, since the app started", 1000 * (time.perf_counter() - self._t0)))
                self._painted.set()

            b.call_after_refresh(painted)
        else:
            for p in b.pages:
                p.reset()
            b.show()
            if msg.final:
                b.say("analyses ready: open ARCS or the typed evaluation from the totals", 5)
                b.call_after_refresh(lambda: self.timings.append(
                    ("analyses painted, since the app started", 1000 * (time.perf_counter() - self._t0))))

    def on_failed(self, msg: Failed) -> None:
        if self.ev is None:  # nothing to show: leave with the message (printed by run_tui)
            self.error = msg.error
            self.exit(None, 2)
            return
        self.browser.mode(busy=False)
        self.notify(inert(f"the link-level analyses failed: {msg.error}"), severity="error", timeout=10, markup=False)

    # ---- for tests and scripts

    def shown(self) -> list[list[str]]:
        """The rows the table holds now, as plain text."""
        t = self.browser.table
        return [t.plain_row(i) for i in range(t.row_count)]


# --------------------------------------------------------------------------- loading and running


def keymap_path() -> Path:
    if os.environ.get(KEYMAP_ENV):
        return Path(os.environ[KEYMAP_ENV]).expanduser()
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "corefreport" / "keymap.toml"


def load_keymap(path: Path | None = None) -> dict[str, str]:
    """Binding id → keys, from ``$COREFREPORT_KEYMAP`` or ``~/.config/corefreport/keymap.toml``::

        [keymap]
        "corefreport.back" = "backspace,escape"
        "corefreport.search" = "f"
    """
    import tomllib

    path = path or keymap_path()
    if not path.is_file():
        return {}
    with open(path, "rb") as f:
        data = tomllib.load(f)
    table = data.get("keymap", data)
    return {str(k): str(v) for k, v in table.items() if isinstance(v, str)}


def run_app(make: Callable[[dict[str, str]], App]) -> int:
    """Run the browser ``make(keymap)`` builds (a broken keymap file is warned about, never fatal);
    the exit code: 2 when an input could not be read (the message printed to stderr), else 0. With
    ``$COREFREPORT_TUI_TIMINGS`` the app's timings are appended to that file."""
    import sys

    try:
        keymap = load_keymap()
    except Exception as err:  # a broken keymap file must not stop the browser
        print(f"corefreport: warning: {inert(f'keymap {keymap_path()} ignored: {err}')}", file=sys.stderr)
        keymap = {}
    app = make(keymap)
    app.run()
    if app.error:
        print(f"corefreport: error: {inert(str(app.error))}", file=sys.stderr)
        return 2
    if os.environ.get("COREFREPORT_TUI_TIMINGS"):
        with open(os.environ["COREFREPORT_TUI_TIMINGS"], "a", encoding="utf-8") as f:
            if getattr(app, "started_at", None) is not None:
                f.write(f"app started, unix time in ms\t{1000 * app.started_at:.1f}\n")
            for label, ms in app.timings:
                f.write(f"{label}\t{ms:.1f}\n")
    return 0


def run_tui(producer: Producer, title: str = "response") -> int:
    """Run the browser on what ``producer`` scores (:func:`run_app`)."""
    return run_app(lambda keymap: CorefApp(producer=producer, keymap=keymap, freeze_gc=True, title=title))
