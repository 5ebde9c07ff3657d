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
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ..present.errortables import cost_start, mention_set, reading_note
from ..present.explain import entity, explain
from ..present.inert import inert
from ..present.labels import short_doc
from ..present.numbers import count, signed
from ..scoring.errorclasses import CLASSES, LEFTOVER
from .footer import KeysFooter
from .inert import displayed

if TYPE_CHECKING:
    from ..scoring.errorclasses import EntityRef, ErrorRow
    from ..scoring.result import Evaluation

CONTEXT = 8
"""Words shown on each side of a mention in the entity panes."""
MENTIONS = 25
"""Mentions listed per entity before "… and N more"."""
OTHER_TITLE = {"Conflated Entities": "wrongly joined to", "Divided Entity": "wrongly apart from"}


def totals_rows(ev: Evaluation) -> list[tuple[str, str, str, str]]:
    """(class, errors, Δ CoNLL F1 fixed cumulatively, Δ fixed alone) per class, then the leftover."""
    er = ev.errors
    return [(c["class"], count(er.count_of(c["class"])), signed(c["cumulative"]["conll"]), signed(c["alone"]["conll"]))
            for c in er.costs()]


def error_rows(ev: Evaluation, cls: str) -> list[ErrorRow]:
    """The errors of one class, in document order (a filter over the rows); the leftover's mentions."""
    if cls == LEFTOVER:
        return list(ev.errors.leftovers)
    return [r for r in ev.errors.rows if r.cls == cls]


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


class ErrorsScreen(Screen):
    """Totals → class → error, on one screen with one table and a detail pane."""

    BINDINGS = [Binding("escape,backspace", "back", "Back", id="corefreport.errors_back")]
    DEFAULT_CSS = """
    ErrorsScreen #errors-crumbs { height: 1; background: $boost; }
    ErrorsScreen #errors-table { height: 1fr; }
    ErrorsScreen #errors-detail-box { height: 1fr; border-top: solid $primary; }
    ErrorsScreen.-one #errors-table { display: none; }
    ErrorsScreen.-one #errors-detail-box { height: 1fr; border-top: none; }
    """

    def __init__(self, ev: Evaluation) -> None:
        super().__init__()
        self.ev = ev
        self.level = "totals"
        self.cls: str | None = None
        self.rows: list[ErrorRow] = []
        self.row: ErrorRow | None = None
        self.cursor: dict[str, int] = {}
        self.shown = None
        """What the detail pane shows (a Rich renderable)."""

    def compose(self) -> ComposeResult:
        yield Static(id="errors-crumbs")
        yield DataTable(id="errors-table", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="errors-detail-box"):
            yield Static(id="errors-detail")
        yield KeysFooter()

    @property
    def table(self) -> DataTable:
        return self.query_one("#errors-table", DataTable)

    def on_mount(self) -> None:
        self.show_totals()

    def _crumbs(self) -> None:
        parts = ["error classes (Kummerfeld & Klein 2013)"]
        if self.cls:
            parts.append(self.cls)
        if self.level == "error" and self.row is not None:
            parts.append(f"{short_doc(self.row.doc_id)} s{self.row.sentence + 1}")
        self.query_one("#errors-crumbs", Static).update(Text(inert(" › ".join(parts)), no_wrap=True,
                                                             overflow="ellipsis"))

    def _detail(self, renderable) -> None:
        self.shown = displayed(renderable)
        self.query_one("#errors-detail", Static).update(self.shown)
        self.query_one("#errors-detail-box", VerticalScroll).scroll_home(animate=False)

    def show_totals(self) -> None:
        self.level, self.cls, self.row = "totals", None, None
        self.set_class(False, "-one")
        t = self.table
        t.clear(columns=True)
        t.add_columns("class", "errors", "Δ CoNLL cumulative", "Δ CoNLL alone")
        for r in totals_rows(self.ev):
            t.add_row(*r)
        t.move_cursor(row=self.cursor.get("totals", 0))
        er = self.ev.errors
        start = cost_start(er)
        self._detail(Text(f"On {mention_set(er)}. Enter: the errors of a class. Δ CoNLL: F1 points gained by fixing "
                          "the class (cumulative: after the rows above, in the analyser's order"
                          + (f", {start} to 100" if start else "") + "; alone: by itself). "
                          + (reading_note(er) + ". " if er.reading() else "")
                          + "Leftover: the gap after every fix (Enter: its mentions).", style="dim"))
        self._crumbs()
        t.focus()

    def show_class(self, cls: str) -> None:
        self.level, self.cls, self.row = "class", cls, None
        self.set_class(False, "-one")
        self.rows = error_rows(self.ev, cls)
        t = self.table
        t.clear(columns=True)
        t.add_columns("document", "sentence", "mentions", "types")
        for r in self.rows:
            words = ", ".join(r.texts) if r.texts else ", ".join(f"{m[0]}-{m[1]}" for m in r.mentions)
            t.add_row(*(Text(inert(x)) for x in (short_doc(r.doc_id), str(r.sentence + 1), words[:60],  # never markup
                                                 "+".join(dict.fromkeys(r.mtypes)))))
        t.move_cursor(row=self.cursor.get(cls, 0))
        self._crumbs()
        self._highlight(t.cursor_row)
        t.focus()

    def show_error(self, row: ErrorRow) -> None:
        self.level, self.row = "error", row
        self.set_class(True, "-one")
        self._detail(error_detail(self.ev, row))
        self._crumbs()

    def _highlight(self, index: int) -> None:
        if self.level == "class" and 0 <= index < len(self.rows):
            self._detail(Text(explain(self.rows[index])))

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._highlight(event.cursor_row)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        i = event.cursor_row
        if self.level == "totals":
            names = [r[0] for r in totals_rows(self.ev)]
            if 0 <= i < len(names) and (names[i] in CLASSES or names[i] == LEFTOVER):
                self.cursor["totals"] = i
                self.show_class(names[i])
        elif self.level == "class" and 0 <= i < len(self.rows):
            self.cursor[self.cls] = i
            self.show_error(self.rows[i])

    def action_back(self) -> None:
        if self.level == "error":
            self.show_class(self.cls)
        elif self.level == "class":
            self.show_totals()
        else:
            self.app.pop_screen()


def open_errors(app) -> None:
    """Push the error-class browser, or say why not (no evaluation yet, or no ``-a errors``)."""
    ev = getattr(app, "ev", None)
    if ev is None or (ev.errors is None and not getattr(app, "analyses_ready", True)):
        app.notify("the error classes are still being computed", timeout=3)
        return
    if ev.errors is None:
        app.notify("no error classes: run 'corefreport tui KEY RESPONSE -a errors'", timeout=4)
        return
    app.push_screen(ErrorsScreen(ev))
