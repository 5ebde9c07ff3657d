"""``corefreport tui``: a Textual browser from corpus totals to classes, types and single links.

Screens: Totals → Classes (of one analysis) → Types (of one class) → Links (of one type) with a
detail pane showing the sentence; Documents (per-document scores, worst first) from anywhere.
Enter drills in, Escape goes back. Bindings have ids (``corefreport.open``, …) so users can remap
them in Textual's keymap. Scoring runs in a worker thread; the UI shows progress meanwhile.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import on, work
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, ProgressBar, Static

from ..scoring.result import Evaluation
from . import model as M


class Crumbs(Static):
    """Where you are: corefreport › analysis › class › type."""


class TableScreen(Screen):
    """A table with a breadcrumb; subclasses fill it from the view model."""

    BINDINGS = [
        Binding("escape", "back", "Back", id="corefreport.back"),
        Binding("d", "documents", "Documents", id="corefreport.documents"),
        Binding("q", "app.quit", "Quit", id="corefreport.quit"),
    ]

    def __init__(self, ev: Evaluation, crumbs: list[str]) -> None:
        super().__init__()
        self.ev = ev
        self.crumbs = crumbs

    def compose(self) -> ComposeResult:
        yield Crumbs(" › ".join(self.crumbs), id="crumbs")
        yield DataTable(cursor_type="row", zebra_stripes=True)
        yield Footer()

    @property
    def table(self) -> DataTable:
        return self.query_one(DataTable)

    def action_back(self) -> None:
        if len(self.app.screen_stack) > 2:
            self.app.pop_screen()

    def action_documents(self) -> None:
        self.app.push_screen(DocumentsScreen(self.ev, self.crumbs[:1] + ["documents"]))


class TotalsScreen(TableScreen):
    """Every metric and analysis total; Enter on an analysis opens its classes."""

    def on_mount(self) -> None:
        t = self.table
        t.add_columns("metric", "R", "P", "F1", "counts")
        self.rows = M.totals(self.ev)
        for r in self.rows:
            label = r.label + (" ›" if r.analysis else "")
            t.add_row(label, M.pct(r.recall), M.pct(r.precision), M.pct(r.f1), r.detail)
        t.focus()

    @on(DataTable.RowSelected)
    def open(self, event: DataTable.RowSelected) -> None:
        r = self.rows[event.cursor_row]
        if r.analysis:
            self.app.push_screen(GroupScreen(self.ev, self.crumbs + [M.ANALYSIS_TITLES[r.analysis]], r.analysis))


class GroupScreen(TableScreen):
    """Classes of an analysis (``cls`` given: the types of that class), sortable by column."""

    BINDINGS = TableScreen.BINDINGS + [Binding("s", "sort", "Sort", id="corefreport.sort")]

    def __init__(self, ev: Evaluation, crumbs: list[str], analysis: str, cls: str | None = None) -> None:
        super().__init__(ev, crumbs)
        self.analysis = analysis
        self.cls = cls
        self.sort_by = 0

    def on_mount(self) -> None:
        t = self.table
        t.add_columns("type" if self.cls else "class", "mix", "TP", "WT", "WL", "WTL", "FN", "FP", "P", "R", "F1")
        where = {"cls": self.cls} if self.cls is not None else {}
        self.groups = M.groups(self.ev.rows, self.analysis, "type" if self.cls is not None else "cls", **where)
        self.fill()
        t.focus()

    def fill(self) -> None:
        t = self.table
        t.clear()
        keys = [lambda g: g.key, lambda g: g.counts.f1, lambda g: -(g.counts.key_total + g.counts.fp)]
        self.groups.sort(key=keys[self.sort_by])
        for g in self.groups:
            c = g.counts
            t.add_row(g.key, M.mix_bar(c), str(c.tp), str(c.wt), str(c.wl), str(c.wtl), str(c.fn), str(c.fp),
                      M.pct(c.precision), M.pct(c.recall), M.pct(c.f1))

    def action_sort(self) -> None:
        self.sort_by = (self.sort_by + 1) % 3
        self.fill()
        self.notify(["sorted by name", "sorted by F1, worst first", "sorted by size, largest first"][self.sort_by],
                    timeout=1.5)

    @on(DataTable.RowSelected)
    def open(self, event: DataTable.RowSelected) -> None:
        g = self.groups[event.cursor_row]
        if self.cls is None:
            self.app.push_screen(GroupScreen(self.ev, self.crumbs + [g.key], self.analysis, g.key))
        else:
            self.app.push_screen(LinkScreen(self.ev, self.crumbs + [g.key], self.analysis, cls=self.cls, type=g.key))


class LinkScreen(TableScreen):
    """The outcome rows of one type (or class, or document) and the selected link in its sentence."""

    BINDINGS = TableScreen.BINDINGS + [Binding("slash", "filter", "Filter", id="corefreport.filter")]

    def __init__(self, ev: Evaluation, crumbs: list[str], analysis: str, **where: str) -> None:
        super().__init__(ev, crumbs)
        self.analysis = analysis
        self.where = where
        self.shown: list = []

    def compose(self) -> ComposeResult:
        yield Crumbs(" › ".join(self.crumbs), id="crumbs")
        yield Input(placeholder="filter: text, document or outcome (Enter)", id="filter")
        yield DataTable(cursor_type="row", zebra_stripes=True)
        yield Static("", id="hint")
        yield Static("", id="detail")
        yield Footer()

    def on_mount(self) -> None:
        self.table.add_columns("outcome", "referent", "key antecedent", "response antecedent", "document")
        self.fill("")
        self.table.focus()

    def fill(self, text: str) -> None:
        rows = M.links(self.ev.rows, self.analysis, text, **self.where)
        self.shown = rows[: M.MAX_LINK_ROWS]
        t = self.table
        t.clear()
        for r in self.shown:
            t.add_row(M.Text(r.outcome, style=M.OUTCOME_STYLE[r.outcome]), r.text[:40],
                      M.span_text(self.ev, r.doc_id, r.key_antecedent)[:30],
                      M.span_text(self.ev, r.doc_id, r.response_antecedent, "key")[:30], r.doc_id)
        more = f" (first {M.MAX_LINK_ROWS}; filter with /)" if len(rows) > M.MAX_LINK_ROWS else ""
        self.query_one("#hint", Static).update(f"{len(rows)} links{more}")
        self.show_detail(0)

    def show_detail(self, index: int) -> None:
        detail = self.query_one("#detail", Static)
        detail.update(M.link_detail(self.ev, self.shown[index]) if 0 <= index < len(self.shown) else "")

    @on(DataTable.RowHighlighted)
    def highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_detail(event.cursor_row)

    def action_filter(self) -> None:
        box = self.query_one("#filter", Input)
        box.add_class("visible")
        box.focus()

    @on(Input.Submitted, "#filter")
    def filtered(self, event: Input.Submitted) -> None:
        self.fill(event.value)
        self.table.focus()


class DocumentsScreen(TableScreen):
    """Per-document F1 of every metric, worst CoNLL first; Enter opens the document's links (of the
    first analysis computed: ARCS 1, else the typed evaluation)."""

    def on_mount(self) -> None:
        names = list(self.ev.metrics)
        self.table.add_columns("document", "CoNLL", *[M.METRIC_LABELS.get(n, n) for n in names])
        self.docs = M.documents(self.ev)
        for doc_id, conll, f in self.docs:
            self.table.add_row(doc_id, M.pct(conll), *[M.pct(f[n]) for n in names])
        self.table.focus()

    @on(DataTable.RowSelected)
    def open(self, event: DataTable.RowSelected) -> None:
        analysis = next((a for a in M.ANALYSIS_TITLES if M.of_analysis(self.ev.rows, a)), None)
        if analysis is None:
            self.notify("no link-level analysis was computed", timeout=2)
            return
        doc_id = self.docs[event.cursor_row][0]
        self.app.push_screen(LinkScreen(self.ev, self.crumbs + [doc_id, M.ANALYSIS_TITLES[analysis]], analysis,
                                        doc_id=doc_id))


class LoadingScreen(Screen):
    def compose(self) -> ComposeResult:
        yield Static("scoring…", id="crumbs")
        yield ProgressBar(id="progress", show_eta=False)
        yield Footer()


def export_table(table: DataTable, stem: str, fmt: str, directory: Path | None = None) -> Path:
    """Write the rows a table shows to ``stem.csv`` / ``stem.json`` in the working directory,
    choosing ``stem-2``, ``stem-3``… rather than overwriting an existing file."""
    import csv
    import json

    directory = directory or Path.cwd()
    header = [str(c.label) for c in table.columns.values()]
    rows = [[getattr(v, "plain", str(v)) for v in table.get_row_at(i)] for i in range(table.row_count)]
    path = directory / f"{stem}.{fmt}"
    n = 2
    while path.exists():
        path = directory / f"{stem}-{n}.{fmt}"
        n += 1
    with open(path, "x", encoding="utf-8", newline="") as f:
        if fmt == "csv":
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)
        else:
            json.dump([dict(zip(header, r)) for r in rows], f, ensure_ascii=False, indent=1)
    return path


class CorefCommands(Provider):
    """Command palette: export the current table, jump to a document's links or to a type."""

    def _commands(self) -> list[tuple[str, Any, str]]:
        app = self.app
        ev = getattr(app, "ev", None)
        out: list[tuple[str, Any, str]] = []
        screen = app.screen
        if isinstance(screen, TableScreen):
            stem = "corefreport-" + "-".join(c.split()[0].lower() for c in screen.crumbs[1:]) if len(screen.crumbs) > 1 \
                else "corefreport-totals"
            for fmt in ("csv", "json"):
                out.append((f"Export this table as {fmt.upper()}",
                            lambda fmt=fmt, stem=stem: app.notify(f"wrote {export_table(screen.table, stem, fmt)}"),
                            "written to the working directory, never over an existing file"))
        if ev is None:
            return out
        analyses = [a for a in M.ANALYSIS_TITLES if M.of_analysis(ev.rows, a)]
        for a in analyses:
            for d in sorted({r.doc_id for r in M.of_analysis(ev.rows, a)}):
                out.append((f"Document {d}: {M.ANALYSIS_TITLES[a]} links",
                            lambda a=a, d=d: app.push_screen(LinkScreen(ev, ["corefreport", M.ANALYSIS_TITLES[a], d],
                                                                       a, doc_id=d)), "jump to the document"))
            for g in M.groups(ev.rows, a, "cls"):
                for t in M.groups(ev.rows, a, "type", cls=g.key):
                    out.append((f"Type {t.key} (class {g.key}): {M.ANALYSIS_TITLES[a]} links",
                                lambda a=a, c=g.key, t=t.key: app.push_screen(
                                    LinkScreen(ev, ["corefreport", M.ANALYSIS_TITLES[a], c, t], a, cls=c, type=t)),
                                "jump to the type"))
        return out

    async def discover(self) -> Hits:
        for text, cb, help_ in self._commands()[:12]:
            yield DiscoveryHit(text, cb, help=help_)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, cb, help_ in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), cb, help=help_)


class CorefApp(App):
    """Browse one evaluation. Give an :class:`Evaluation`, or paths and options to score in a worker."""

    CSS_PATH = "corefreport.tcss"
    TITLE = "corefreport"
    COMMANDS = App.COMMANDS | {CorefCommands}
    BINDINGS = [Binding("q", "quit", "Quit", id="corefreport.quit")]

    def __init__(self, ev: Evaluation | None = None, key: str | None = None, response: str | None = None,
                 options: Any = None, formats: tuple[str | None, str | None] = (None, None)) -> None:
        super().__init__()
        self.ev = ev
        self.paths = (key, response)
        self.formats = formats
        self.options = options
        self.error: str | None = None

    def on_mount(self) -> None:
        if self.ev is not None:
            self.show_totals()
        else:
            self.push_screen(LoadingScreen())
            self.score()

    def show_totals(self) -> None:
        name = Path(self.ev.response_source).name or "response"
        self.push_screen(TotalsScreen(self.ev, [f"corefreport: {name}"]))

    @work(thread=True, exclusive=True)
    def score(self) -> None:
        from ..io import load_corpus
        from ..io.errors import InputError
        from ..scoring.evaluate import evaluate

        from dataclasses import replace

        from ..scoring.evaluate import STANDARD_METRICS

        try:
            kc = load_corpus(self.paths[0], self.formats[0])
            rc = load_corpus(self.paths[1], self.formats[1])
            # first the standard metrics, shown at once; then everything, which replaces them
            quick = replace(self.options, metrics=tuple(m for m in self.options.metrics if m in STANDARD_METRICS),
                            analyses=(), plink_by=None)
            ev = evaluate(kc, rc, quick, progress=lambda d, n: self.call_from_thread(self._progress, d, n))
            self.call_from_thread(self._loaded, ev)
            if quick != self.options:
                full = evaluate(kc, rc, self.options)
                self.call_from_thread(self._upgrade, full)
        except InputError as err:
            self.error = str(err)
            self.call_from_thread(self.exit, None, 2)

    def _progress(self, done: int, total: int) -> None:
        try:
            self.screen.query_one(ProgressBar).update(total=total, progress=done)
        except Exception:  # the loading screen is gone already
            pass

    def _loaded(self, ev: Evaluation) -> None:
        self.ev = ev
        self.pop_screen()
        self.show_totals()
        if self.options is not None and self.options.analyses:
            self.notify("computing the link-level analyses…", timeout=3)

    def _upgrade(self, ev: Evaluation) -> None:
        """The full evaluation arrived: refresh the totals if they are on screen."""
        self.ev = ev
        if isinstance(self.screen, TotalsScreen):
            self.pop_screen()
            self.show_totals()
        self.notify("analyses ready: ARCS and typed evaluation can be opened from the totals", timeout=4)


def run_tui(key: str, response: str, options: Any, key_format: str | None = None,
            response_format: str | None = None) -> int:
    """Run the browser; returns the exit code (2 when the input could not be read)."""
    app = CorefApp(key=key, response=response, options=options, formats=(key_format, response_format))
    app.run()
    if app.error:
        import sys

        print(f"corefreport: error: {app.error}", file=sys.stderr)
        return 2
    return 0
