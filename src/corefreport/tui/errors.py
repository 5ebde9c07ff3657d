"""The error-class browser of ``corefreport tui -a errors`` (key ``x``): Kummerfeld & Klein (2013).

Levels, Enter drills in and Escape goes back: the totals (errors per class and the CoNLL F1
fixing each class gains, cumulatively and alone) → the errors of one class (document, sentence,
mentions, the explanation of the highlighted one below) → one error: its explanation sentence
(:func:`corefreport.present.explain.explain`) and the key and the response entity side by side,
each mention in its sentence, the error's own mentions highlighted; then the entity the error
wrongly joins or divides (when there is one).

A screen of its own on top of the browser; it reads the :class:`Evaluation`'s ``errors`` and
computes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table as RichTable
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from ..present.errortables import cost_start, mention_set, reading_note
from ..present.explain import entity, explain
from ..present.inert import inert
from ..present.labels import short_doc
from ..scoring.errorclasses import CLASSES, LEFTOVER
from . import errorviews as V
from .footer import KeysFooter
from .inert import displayed
from .search import QueryError
from .typing import TypedSearch

if TYPE_CHECKING:
    from ..scoring.errorclasses import EntityRef, ErrorRow
    from ..scoring.result import Evaluation

CONTEXT = 8
"""Words shown on each side of a mention in the entity panes."""
MENTIONS = 25
"""Mentions listed per entity before "… and N more"."""
OTHER_TITLE = {"Conflated Entities": "wrongly joined to", "Divided Entity": "wrongly apart from"}


def _marked(ev: Evaluation, doc_id: str, m: tuple[int, int], side: str, hot: set) -> Text:
    """``m`` in a window of its sentence: bold, reversed when it is one of the error's mentions."""
    first, last, words = ev.sentence_text(doc_id, m[0], side)
    out = Text()
    if not words:
        return Text(f"[{m[0]}–{m[1]}]")
    lo, hi = max(first, m[0] - CONTEXT), min(last, m[1] + CONTEXT)
    if lo > first:
        out.append("… ")
    for t in range(lo, hi + 1):
        style = ("reverse bold" if m in hot else "bold underline") if m[0] <= t <= m[1] else ""
        out.append(inert(words[t - first]), style=style)
        out.append(" ")
    if hi < last:
        out.append("…")
    return out


def entity_pane(ev: Evaluation, row: ErrorRow, ref: EntityRef | None, title: str) -> Group | Text:
    """One entity: its name and every mention (up to :data:`MENTIONS`) in its sentence."""
    if ref is None:
        return Text(f"{title}: none", style="dim")
    side = "key" if ref.side == "key" else "response"
    hot = set(row.mentions)
    n = len(ref.mentions)
    lines: list = [Text(inert(f"{title} {entity(ref)} ({n} mention{'' if n == 1 else 's'})"), style="bold")]
    doc = row.doc_id
    corpus = ev.key_corpus if side == "key" else ev.response_corpus
    sentence_of = corpus.documents[doc].sentence_of if corpus is not None and doc in corpus.documents else None
    for m in ref.mentions[:MENTIONS]:
        s = f"s{sentence_of(m[0]) + 1} " if sentence_of else ""
        lines.append(Text(s, style="dim") + _marked(ev, doc, m, side, hot))
    if len(ref.mentions) > MENTIONS:
        lines.append(Text(f"… and {len(ref.mentions) - MENTIONS} more", style="dim"))
    return Group(*lines)


def error_detail(ev: Evaluation, row: ErrorRow) -> Group:
    """One error: class, place, explanation; key and response entity side by side; the other entity."""
    head = Text.assemble((row.cls, "bold"), f"  {short_doc(row.doc_id)}, sentence {row.sentence + 1}")
    side = RichTable.grid(expand=True, padding=(0, 2))
    side.add_column(ratio=1)
    side.add_column(ratio=1)
    side.add_row(entity_pane(ev, row, row.key_entity, "key entity"),
                 entity_pane(ev, row, row.response_entity, "response entity"))
    parts: list = [head, Text(explain(row)), Text(""), side]
    if row.other_entity is not None:
        other = "key entity" if row.other_entity.side == "key" else "response entity"
        parts += [Text(""), entity_pane(ev, row, row.other_entity, f"{OTHER_TITLE.get(row.cls, '')} {other}".strip())]
    return Group(*parts)


class ErrorTable(DataTable):
    """The error screen's table: Home and End move the cursor to the first and last row, as on
    every page of the browser (a DataTable scrolls sideways)."""

    BINDINGS = [Binding("home", "scroll_top", "First row", show=False),
                Binding("end", "scroll_bottom", "Last row", show=False)]


class ErrorsScreen(TypedSearch, Screen):
    """Totals → class → error, on one screen with one table and a detail pane; per document with
    ``d``; every table a :class:`~.model.View` (:mod:`.errorviews`) that sorts, filters and exports
    like the browser's pages."""

    BINDINGS = [Binding("escape,backspace", "back", "Back", id="corefreport.errors_back"),
                Binding("d", "documents", "Docs", id="corefreport.errors_documents"),
                Binding("s", "sort", "Sort", id="corefreport.errors_sort"),
                Binding("slash", "search", "Search", id="corefreport.errors_search"),
                Binding("question_mark,f1", "help", "Help", id="corefreport.errors_help", key_display="?"),
                *(Binding(str(n), f"sort_by({n - 1})", f"Sort by column {n}", show=False) for n in range(1, 10))]
    HELP = (("↑ ↓ PgUp PgDn Home End", "move the cursor"), ("Enter", "drill in: a class, an error, a document"),
            ("Esc, Backspace", "back (closes the search box first)"), ("d", "errors per document"),
            ("s, 1–9", "sort by the next column / by column N (again: reverse)"),
            ("/", "search the errors (the link search's syntax: words, \"a phrase\", re:, doc:, class:, mtype:)"),
            ("ctrl+p", "palette: export this table as CSV / JSON"), ("q", "quit"))
    DEFAULT_CSS = """
    ErrorsScreen #errors-crumbs { height: 1; background: $boost; }
    ErrorsScreen #errors-table { height: 1fr; }
    ErrorsScreen #errors-note { height: 1; color: $text-muted; }
    ErrorsScreen #errors-detail-box { height: 1fr; border-top: solid $primary; }
    ErrorsScreen.-one #errors-table { display: none; }
    ErrorsScreen.-one #errors-note { display: none; }
    ErrorsScreen.-one #errors-detail-box { height: 1fr; border-top: none; }
    """

    def __init__(self, ev: Evaluation) -> None:
        super().__init__()
        self.ev = ev
        self.level = "totals"
        self.cls: str | None = None
        self.doc: str | None = None
        self.words = ""
        """The search of this page (/): the link search's syntax."""
        self.rows: list[ErrorRow] = []
        self.row: ErrorRow | None = None
        self.cursor: dict[str, int] = {}
        self.view: V.View | None = None
        """The table on screen (what the palette exports)."""
        self.sorts: dict[str, tuple[int, bool]] = {}
        self.trail: list[tuple[str, str | None, str | None, str]] = []
        """The pages below this one: (level, class, document, query)."""
        self.shown = None
        """What the detail pane shows (a Rich renderable)."""

    def compose(self) -> ComposeResult:
        yield Static(id="errors-crumbs")
        yield Input(placeholder='search: words "a phrase" re:REGEX doc:ID class:C mtype:T -not — Enter',
                    id="errors-filter")
        yield ErrorTable(id="errors-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="errors-note")
        with VerticalScroll(id="errors-detail-box"):
            yield Static(id="errors-detail")
        yield KeysFooter()

    @property
    def table(self) -> DataTable:
        return self.query_one("#errors-table", DataTable)

    def on_mount(self) -> None:
        self.query_one("#errors-filter", Input).display = False
        self.show_totals()

    # ---- what is shown

    def _key(self) -> str:
        return f"{self.level}|{self.cls}|{self.doc}|{self.words}"

    def _crumbs(self) -> None:
        parts = ["error classes (Kummerfeld & Klein 2013)"]
        if self.doc:
            parts.append(short_doc(self.doc))
        if self.level == "documents":
            parts.append("documents")
        if self.cls and self.cls != V.ALL:
            parts.append(self.cls)
        if self.words:
            parts.append(f"“{self.words}”")
        if self.level == "error" and self.row is not None:
            parts.append(f"{short_doc(self.row.doc_id)} s{self.row.sentence + 1}")
        self.query_one("#errors-crumbs", Static).update(Text(inert(" › ".join(parts)), no_wrap=True,
                                                             overflow="ellipsis"))

    def _detail(self, renderable) -> None:
        self.shown = displayed(renderable)
        self.query_one("#errors-detail", Static).update(self.shown)
        self.query_one("#errors-detail-box", VerticalScroll).scroll_home(animate=False)

    def _fill(self, view: V.View) -> None:
        """Draw ``view`` (sorted as this page was last sorted) in the table, the cursor where it was."""
        order = self.sorts.get(self._key())
        if order is not None:
            view = V.sort_view(view, *order)
        self.view = view
        self.rows = list(view.items) if self.level == "class" else []
        t = self.table
        t.clear(columns=True)
        t.add_columns(*view.columns)
        for r in view.rows():
            t.add_row(*r)
        t.move_cursor(row=min(self.cursor.get(self._key(), 0), max(0, len(view) - 1)))
        self.query_one("#errors-note", Static).update(Text(view.note, no_wrap=True, overflow="ellipsis"))
        self._crumbs()
        t.focus()

    def show_totals(self) -> None:
        self.level, self.cls, self.doc, self.words, self.row = "totals", None, None, "", None
        self.set_class(False, "-one")
        self._fill(V.totals_view(self.ev))
        er = self.ev.errors
        start = cost_start(er)
        self._detail(Text(f"On {mention_set(er)}. Enter: the errors of a class. Δ CoNLL: F1 points gained by fixing "
                          "the class (cumulative: after the rows above, in the analyser's order"
                          + (f", {start} to 100" if start else "") + "; alone: by itself). "
                          + (reading_note(er) + ". " if er.reading() else "")
                          + "Leftover: the gap after every fix (Enter: its mentions).", style="dim"))

    def show_documents(self) -> None:
        self.level, self.cls, self.doc, self.words, self.row = "documents", None, None, "", None
        self.set_class(False, "-one")
        self._fill(V.documents_view(self.ev))
        self._detail(Text("Enter: the errors of a document.", style="dim"))

    def show_class(self, cls: str, doc: str | None = None, query: str = "") -> None:
        self.level, self.cls, self.doc, self.words, self.row = "class", cls, doc, query, None
        self.set_class(False, "-one")
        self._fill(V.class_view(self.ev, cls, doc, query))
        self._highlight(self.table.cursor_row)

    def show_error(self, row: ErrorRow) -> None:
        self.level, self.row = "error", row
        self.set_class(True, "-one")
        self._detail(error_detail(self.ev, row))
        self._crumbs()

    def _push(self) -> None:
        self.cursor[self._key()] = self.table.cursor_row
        self.trail.append((self.level, self.cls, self.doc, self.words))

    def _highlight(self, index: int) -> None:
        if self.level == "class" and 0 <= index < len(self.rows):
            self._detail(Text(explain(self.rows[index])))

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._highlight(event.cursor_row)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        i = event.cursor_row
        view = self.view
        if view is None or not 0 <= i < len(view):
            return
        item = view.items[i]
        if self.level == "totals" and (item[0] in CLASSES or item[0] == LEFTOVER):
            self._push()
            self.show_class(item[0])
        elif self.level == "documents":
            self._push()
            self.show_class(V.ALL, item[0])
        elif self.level == "class":
            self._push()
            self.show_error(item)

    # ---- keys

    def action_back(self) -> None:
        box = self.query_one("#errors-filter", Input)
        self.stop_typing()
        if box.has_focus:
            box.display = False
            self.table.focus()
            return
        if not self.trail:
            self.app.pop_screen()
            return
        level, cls, doc, query = self.trail.pop()
        if self.level != "error":
            self.cursor[self._key()] = self.table.cursor_row
        if level == "totals":
            self.show_totals()
        elif level == "documents":
            self.show_documents()
        else:
            self.show_class(cls, doc, query)

    def action_documents(self) -> None:
        if self.level != "documents":
            self._push()
            self.show_documents()

    def action_sort_by(self, column: int) -> None:
        if self.level == "error" or self.view is None or column >= len(self.view.columns):
            return
        key = self._key()
        last = self.sorts.get(key)
        self.sorts[key] = (column, not last[1]) if last is not None and last[0] == column else (column, False)
        self.cursor[key] = 0
        self._fill(self._unsorted())

    def action_sort(self) -> None:
        if self.level == "error" or self.view is None:
            return
        last = self.sorts.get(self._key())
        self.action_sort_by(0 if last is None else (last[0] + 1) % len(self.view.columns))

    def _unsorted(self) -> V.View:
        if self.level == "totals":
            return V.totals_view(self.ev)
        if self.level == "documents":
            return V.documents_view(self.ev)
        return V.class_view(self.ev, self.cls, self.doc, self.words)

    def action_search(self) -> None:
        box = self.query_one("#errors-filter", Input)
        box.value = self.words if self.level == "class" else ""
        box.display = True
        box.focus()
        self.flush(box)  # typed after the "/" before this ran (tui/typing.py)

    def on_key(self, event: events.Key) -> None:
        self.capture(event, self.query_one("#errors-filter", Input))

    def on_paste(self, event: events.Paste) -> None:
        self.capture(event, self.query_one("#errors-filter", Input))

    @on(Input.Submitted, "#errors-filter")
    def _searched(self, event: Input.Submitted) -> None:
        self.stop_typing()
        query = event.value.strip()
        try:
            V.error_rows(self.ev, V.ALL, None, query)
        except QueryError as err:
            self.app.notify(str(err), timeout=6)
            return
        event.input.display = False
        if self.level == "error":
            self.action_back()
        if self.level == "class":  # refine this class (or document)
            self.show_class(self.cls, self.doc, query)
        else:  # from the totals or the documents: every error
            self._push()
            self.show_class(V.ALL, None, query)

    def action_help(self) -> None:
        self.app.show_help(list(self.HELP))

    def export_parts(self) -> list[str]:
        """Where this table is, for the name of its export (``corefreport-errors-…``)."""
        return ["errors", self.doc or "", self.cls or self.level, self.words]

    def palette_commands(self):
        """The palette on this screen: export its own table, nothing else."""
        from .export import slug

        view = self.view
        if view is None:
            return
        stem = slug(self.export_parts())
        for fmt in ("csv", "json"):
            yield (f"Export this table as {fmt.upper()}", lambda fmt=fmt: self.app.export(self.view, fmt, stem, None),
                   f"all {len(view)} rows to ./{stem}.{fmt} (never over an existing file)")


def open_errors(app, ev: "Evaluation | None", ready: bool = True) -> None:
    """Push the error-class browser of ``ev``, or say why not (no evaluation yet, or no ``-a errors``)."""
    if ev is None or (ev.errors is None and not ready):
        app.notify("the error classes are still being computed", timeout=3)
        return
    if ev.errors is None:
        app.notify("no error classes: run 'corefreport tui KEY RESPONSE -a errors'", timeout=4)
        return
    app.push_screen(ErrorsScreen(ev))
