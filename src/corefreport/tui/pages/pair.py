"""The pages of one pair's browser (:class:`~corefreport.tui.screens.pair.Browser`): each a class
that says what it shows (:meth:`Page.make`, a :class:`~corefreport.tui.model.View` of
:mod:`corefreport.tui.model`), what Enter on a row opens (:meth:`Page.enter`), its breadcrumb, and
what the screen shows around it (its class attributes) — the screen asks the page, never its name.

Totals → the classes of an analysis (or a breakdown feature's values) → the types of a class →
the links of a type → one link; the documents, the warnings, the typed confusion and the
Universal Anaphora layers from the totals; a link search from every page.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from rich.text import Text

from ...present.inert import inert
from ...scoring.outcomes import LinkOutcome
from ...scoring.result import Evaluation
from .. import layermodel as L
from .. import stratamodel as S
from .. import windowmodel as W
from .. import model as M
from ..inert import displayed
from .base import Traits, Waiting

if TYPE_CHECKING:
    from ..screens.base import PageScreen as Browser  # the screen a page is on (screens/pair.py)
    from ..table import LineTable


@dataclass(slots=True, eq=False)
class Page(Traits):
    """One entry of the navigation stack; its :class:`~corefreport.tui.model.View` is built lazily
    (what the screen shows around it: :class:`.base.Traits`)."""

    crumb: str
    scope: M.Scope | None = None
    column: str = "cls"
    sort: str = "name"
    reverse: bool = False
    query: str = ""
    doc_sort: str | None = None
    row: Any = None
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

    SEARCH: ClassVar[bool] = False
    """The search box belongs to it (the links and one link)."""

    def reset(self) -> None:
        """Forget the views: the next :meth:`build` recomputes them (new rows, filter, grouping)."""
        self.base = self.view = None

    def make(self, ev: Evaluation, width: int) -> M.View:
        """The page's view in its own order."""
        return M.View(self.name, self.crumb, (), [], lambda it, full: ())

    def build(self, ev: Evaluation, width: int = 80) -> M.View:
        if self.FITS and self.base is not None and self.width != width:
            self.reset()  # its cells are cut to the terminal's width
        self.width = width
        if self.base is None or self.view_of != id(ev):
            self.view = None
            self.base = self.make(ev, width)
            self.view_of = id(ev)
        if self.view is None:
            order = self.order
            self.view = M.sort_view(self.base, *order) if order and order[0] < len(self.base.columns) \
                else self.base
        return self.view

    def enter(self, screen: Browser, item: Any, column: int) -> None:
        """Enter on ``item`` (in ``column``): what it opens."""

    def detail(self, ev: Evaluation, item: Any, width: int) -> Text:
        """The detail pane of the highlighted ``item`` (pages with :attr:`DETAIL`)."""
        return displayed(M.link_detail(ev, item, width=width))

    def link(self) -> LinkOutcome | None:
        """The link this page is about, or the highlighted one (``None``: no link here)."""
        return None

    def document(self) -> str | None:
        """The document of the highlighted row, where a row is a document."""
        return None

    def cycle_sort(self, ev: Evaluation) -> bool:
        """``s``: the page's next own order (``False``: it has none)."""
        return False

    def breakdown(self, ev: Evaluation) -> str | None:
        """``b``: group the page by the next feature; what to say (``None``: not here)."""
        return None

    def _highlighted(self) -> Any:
        t = self.table
        if self.view is not None and t is not None and 0 <= t.cursor_row < len(self.view):
            return self.view.items[t.cursor_row]
        return None


class LoadingPage(Waiting, Page):
    """The first numbers are being scored."""


class TotalsPage(Page):
    """Every score, the analyses' totals and the layers; Enter opens what a row names."""

    name = "totals"
    FITS = True

    def make(self, ev: Evaluation, width: int) -> M.View:
        return M.totals_view(ev, width, L.layer_total_rows(ev) + S.strata_total_rows(ev) + W.windows_total_rows(ev))

    def enter(self, screen: Browser, item: Any, column: int) -> None:
        if item.target is None:
            return
        what, name = item.target
        page, timing = OPENS[what](name)
        screen.open(page, timing)


def _analysis_page(name: str) -> tuple[Page, str]:
    return GroupsPage(M.ANALYSIS_TITLES.get(name, name), M.Scope(name), "cls"), "classes"


OPENS: dict[str, Callable[[str], tuple[Page, str]]] = {
    "analysis": _analysis_page,
    "warnings": lambda name: (WarningsPage("warnings"), "warnings"),
    "layer": lambda name: (LayerPage(L.LAYER_TITLES[name], column=name), "layer"),
    "metric": lambda name: (DocumentsPage("documents", doc_sort=name), "documents"),  # the documents by it
    "documents": lambda name: (DocumentsPage("documents", doc_sort=name), "documents"),
    S.TARGET: lambda name: (StrataPage(f"strata {name}", column=name), "strata"),
    W.TARGET: lambda name: (WindowsPage(f"windows of {name}"), "windows"),
}
"""What a row of the totals opens, by the target the totals' view gives it."""


class GroupsPage(Page):
    """The classes (or a breakdown feature's values, or the types of a class) of an analysis."""

    name = "groups"

    def make(self, ev: Evaluation, width: int) -> M.View:
        return M.group_view(ev, self.scope, self.column, self.sort, self.reverse)

    def enter(self, screen: Browser, item: Any, column: int) -> None:
        crumb = item.key if self.column in ("cls", "type", "doc_id") else \
            f"{M.COLUMN_TITLES.get(self.column, self.column)} {item.key}"
        if self.column in ("type", "doc_id"):
            screen.open(LinksPage(crumb, item.scope), "links")
        else:
            screen.open(GroupsPage(crumb, item.scope, "type"), "types")

    def cycle_sort(self, ev: Evaluation) -> bool:
        self.sort = M.GROUP_SORTS[(M.GROUP_SORTS.index(self.sort) + 1) % len(M.GROUP_SORTS)] \
            if self.sort in M.GROUP_SORTS else M.GROUP_SORTS[0]
        self.reverse = False
        self.order = None
        self.base = None
        return True

    def breakdown(self, ev: Evaluation) -> str | None:
        if self.scope is None or self.column == "type" or self.scope.where:
            return None
        options = M.breakdowns(ev, self.scope.analysis)
        self.column = options[(options.index(self.column) + 1) % len(options)] if self.column in options \
            else options[0]
        return f"grouped by {M.COLUMN_TITLES.get(self.column, self.column)}"


class LinksPage(Page):
    """The links of a group, a document, a jump or a search; the detail pane shows one in its sentence."""

    name = "links"
    DETAIL = True
    FITS = True
    SEARCH = True

    def make(self, ev: Evaluation, width: int) -> M.View:
        return M.link_view(ev, self.scope, self.query, width, self.pick)

    def enter(self, screen: Browser, item: Any, column: int) -> None:
        screen.open(LinkPage(f"{item.outcome} {item.text[:20]}", self.scope, row=item), "link")

    def link(self) -> LinkOutcome | None:
        return self._highlighted()


class LinkPage(Page):
    """One link on the whole screen: its sentence, both chains, why."""

    name = "link"
    TABLE = False
    ITEM = True
    SEARCH = True

    def detail(self, ev: Evaluation, item: Any, width: int) -> Text:
        return displayed(M.link_detail(ev, self.row, chain_limit=200, width=width))

    def link(self) -> LinkOutcome | None:
        return self.row


class DocumentsPage(Page):
    """Per-document scores, worst first; Enter opens a document's links."""

    name = "documents"
    FITS = True

    def make(self, ev: Evaluation, width: int) -> M.View:
        return M.document_view(ev, self.doc_sort, width)

    def enter(self, screen: Browser, item: Any, column: int) -> None:
        analysis = screen.analysis()
        if analysis is None:
            screen.say("no link-level analysis was computed (yet)")
            return
        screen.open(LinksPage(f"{item.doc_id} ({M.ANALYSIS_TITLES.get(analysis, analysis)})",
                              M.Scope(analysis, (("doc_id", item.doc_id),))), "links")

    def document(self) -> str | None:
        return getattr(self._highlighted(), "doc_id", None)

    def cycle_sort(self, ev: Evaluation) -> bool:
        self.order = None
        sorts = M.document_sorts(ev)
        cur = self.doc_sort or sorts[0]
        self.doc_sort = sorts[(sorts.index(cur) + 1) % len(sorts)] if cur in sorts else sorts[0]
        self.base = None
        return True


class WarningsPage(Page):
    """The run's warnings, one a row; the detail pane shows the whole text."""

    name = "warnings"
    DETAIL = True

    def make(self, ev: Evaluation, width: int) -> M.View:
        return M.warnings_view(ev)

    def detail(self, ev: Evaluation, item: Any, width: int) -> Text:
        return Text(inert(item))


class ConfusionPage(Page):
    """The typed evaluation's key × response classes (or types, ``b``); Enter on a cell: its links."""

    name = "confusion"

    def make(self, ev: Evaluation, width: int) -> M.View:
        return M.confusion_view(ev, self.column)

    def enter(self, screen: Browser, item: Any, column: int) -> None:
        level, key = self.column, item.key
        cols = self.view.columns
        resp = None if column == 0 or column >= len(cols) - 1 else cols[column].rstrip(" ▲▼")
        crumb = f"{key} → {resp}" if resp is not None else f"key {key}"
        if (item.counts.get(resp, 0) if resp is not None else sum(item.counts.values())) == 0:
            screen.say(M.empty_cell_reason(key, resp, level), 8)  # an empty cell says why it is empty
            return
        screen.open(LinksPage(crumb, M.Scope("typed"),
                              pick=lambda ev, level=level, key=key, resp=resp: M.confusion_rows(ev, level, key, resp)),
                    "links")

    def breakdown(self, ev: Evaluation) -> str | None:
        self.column = "type" if self.column == "cls" else "cls"
        return ""


class LayerPage(Page):
    """A Universal Anaphora layer's items (bridging pairs, deixis links, non-referring markables)."""

    name = "layer"
    DETAIL = True
    FITS = True

    def make(self, ev: Evaluation, width: int) -> M.View:
        return L.layer_view(ev, self.column, width)

    def enter(self, screen: Browser, item: Any, column: int) -> None:
        screen.open(LayerItemPage(L.item_crumb(screen.ev, item), row=item), "link")

    def detail(self, ev: Evaluation, item: Any, width: int) -> Text:
        return displayed(L.layer_detail(ev, item))


class StrataPage(Page):
    """One stratification's strata of entities (``--strata``): a row per stratum, its F1 of every score."""

    name = "strata"

    def make(self, ev: Evaluation, width: int) -> M.View:
        return S.strata_view(ev, self.column)

    def enter(self, screen: Browser, item: Any, column: int) -> None:
        screen.say(S.stratum_detail(screen.ev, self.column, str(item[0])).plain, 8)


class WindowsPage(Page):
    """The full documents against windows (``--window``): a row per score, its F1 both ways and Δ; the links."""

    name = "windows"

    def make(self, ev: Evaluation, width: int) -> M.View:
        return W.windows_view(ev)

    def enter(self, screen: Browser, item: Any, column: int) -> None:
        screen.say(W.windows_detail(screen.ev, str(item[0])).plain, 8)


class LayerItemPage(Page):
    """One layer item on the whole screen."""

    name = "layeritem"
    TABLE = False
    ITEM = True

    def detail(self, ev: Evaluation, item: Any, width: int) -> Text:
        return displayed(L.layer_detail(ev, self.row, limit=200))


def jump(row: LinkOutcome, where: str) -> Page:
    """From a link: its document's links (``document``), its key entity's (``entity``), the same
    referent in every analysis (``analyses``)."""
    title = M.ANALYSIS_TITLES.get(row.analysis, row.analysis)
    if where == "document":
        return LinksPage(f"{row.doc_id} ({title})", M.Scope(row.analysis, (("doc_id", row.doc_id),)))
    if where == "entity":
        return LinksPage(f"entity of “{row.text[:20]}” ({title})", M.Scope(row.analysis),
                         pick=lambda ev, row=row: M.entity_rows(ev, row))
    return LinksPage(f"“{row.text[:20]}” @{row.start} in every analysis", M.Scope(row.analysis),
                     pick=lambda ev, row=row: M.referent_rows(ev, row))


__all__ = ["ConfusionPage", "DocumentsPage", "GroupsPage", "LayerItemPage", "LayerPage", "LinkPage", "LinksPage",
           "LoadingPage", "OPENS", "Page", "StrataPage", "TotalsPage", "WarningsPage", "WindowsPage", "jump"]
