"""The pages of the systems browser (:class:`~corefreport.tui.screens.systems.SystemsScreen`): the
totals of the baseline and a system side by side (Δ, its interval, p) → the classes or types of
an analysis (``b``) → the links that changed in a group; an analysis's transitions (WL→TP …) →
their links → one changed link; the documents by Δ (``d``) → a document's changed links; the
error classes of both (``x``) → a class's errors only one system makes and both make → one error
with both systems' detail; the key entities that changed. Each page a class: what it shows (:meth:`SysPage.make`, a view of
:mod:`corefreport.tui.pairmodel`), what Enter opens (:meth:`SysPage.enter`), its breadcrumb."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .. import model as M
from .. import pairmodel as P
from .base import Traits, Waiting

if TYPE_CHECKING:
    from ...study.nodes import Systems
    from ..screens.base import PageScreen as SystemsScreen  # the screen a page is on (screens/systems.py)


@dataclass(slots=True, eq=False)
class SysPage(Traits):
    """One entry of the page stack; its view is built for the systems shown, the system compared and
    the width."""

    crumb: str
    analysis: str | None = None
    by: str = "cls"
    scope: P.ChangeScope | None = None
    change: Any = None
    cursor: int = 0
    order: tuple[int, bool] | None = None
    view: M.View | None = None
    built_for: tuple = ()

    def make(self, sy: Systems, system: str, width: int) -> M.View:
        raise NotImplementedError

    def build(self, sy: Systems, system: str, width: int) -> M.View:
        key = (id(sy), system, width if self.FITS else 0, self.by, self.order)
        if self.view is None or self.built_for != key:
            base = self.make(sy, system, width)
            self.view = M.sort_view(base, *self.order) if self.order and self.order[0] < len(base.columns) else base
            self.built_for = key
        return self.view

    def enter(self, screen: SystemsScreen, item: Any) -> None:
        """Enter on ``item``: what it opens."""

    def item_at(self, row: int) -> Any:
        """The item of the view's row ``row`` (``None``: no view, or no such row)."""
        view = self.view
        return view.items[row] if view is not None and 0 <= row < len(view) else None

    def highlighted_change(self, row: int) -> Any:
        """The change this page is about, or the one at ``row`` (``None``: no change here)."""
        return None

    def document(self, row: int) -> str | None:
        """The document at ``row``, where a row is a document."""
        return None

    def detail(self, sy: Systems, system: str, item: Any, width: int) -> Any:
        """The detail pane of ``item`` (a changed link: both systems' panes)."""
        return P.change_detail(sy, system, item, width=width)


class LoadingPage(Waiting, SysPage):
    """The first numbers are being scored."""


class TotalsPage(SysPage):
    """Both systems' scores side by side with Δ, its interval and p; the analyses' changed links."""

    name = "pair-totals"

    def make(self, sy: Systems, system: str, width: int) -> M.View:
        return P.totals_view(sy, system, width)

    def enter(self, screen: SystemsScreen, item: Any) -> None:
        if item.target is None:
            return
        what, name = item.target
        OPENS[what](screen, name)


class GroupsPage(SysPage):
    """An analysis's classes (or types) with both systems' outcomes side by side."""

    name = "pair-groups"

    def make(self, sy: Systems, system: str, width: int) -> M.View:
        return P.groups_view(sy, system, self.analysis, self.by)

    def enter(self, screen: SystemsScreen, item: Any) -> None:
        screen.open(changes_page(item.group, P.ChangeScope(self.analysis).add(self.by, item.group)), "changes")


class TransitionsPage(SysPage):
    """An analysis's transitions (WL→TP …) between the two systems."""

    name = "transitions"

    def make(self, sy: Systems, system: str, width: int) -> M.View:
        return P.transitions_view(sy, system, self.analysis)

    def enter(self, screen: SystemsScreen, item: Any) -> None:
        scope = P.ChangeScope(self.analysis).add("transition", f"{item.before}>{item.after}").add("kind", item.kind)
        screen.open(changes_page(f"{item.before} → {item.after}", scope), "changes")


class ChangesPage(SysPage):
    """The changed links of a group, a transition, a document or a search; the detail pane shows
    both systems' antecedents in the sentence."""

    name = "changes"
    DETAIL = True
    FITS = True

    def make(self, sy: Systems, system: str, width: int) -> M.View:
        return P.changes_view(sy, system, self.scope, width)

    def enter(self, screen: SystemsScreen, item: Any) -> None:
        screen.open(ChangePage(f"{item.baseline}→{item.system} {item.text[:20]}", change=item), "change")

    def highlighted_change(self, row: int) -> Any:
        return self.item_at(row)


class ChangePage(SysPage):
    """One changed link on the whole screen."""

    name = "change"
    TABLE = False
    ITEM = True

    def highlighted_change(self, row: int) -> Any:
        return self.change


class DocumentsPage(SysPage):
    """The documents by Δ of the headline score; Enter opens a document's changed links."""

    name = "pair-documents"

    def make(self, sy: Systems, system: str, width: int) -> M.View:
        return P.documents_view(sy, system)

    def enter(self, screen: SystemsScreen, item: Any) -> None:
        analysis = screen.analysis()
        if analysis is None:
            screen.say("no link-level analysis was compared (yet)")
            return
        screen.open(changes_page(f"{item.doc_id} ({M.ANALYSIS_TITLES.get(analysis, analysis)})",
                                 P.ChangeScope(analysis, (("doc_id", item.doc_id),))), "changes")

    def document(self, row: int) -> str | None:
        item = self.item_at(row)
        return item.doc_id if item is not None else None


class ErrorsPage(SysPage):
    """The error classes of both systems with Δ and the errors only one makes; Enter: a class's errors."""

    name = "pair-errors"

    def make(self, sy: Systems, system: str, width: int) -> M.View:
        return P.errors_view(sy, system)

    def enter(self, screen: SystemsScreen, item: Any) -> None:
        screen.open(ErrorListPage(item.cls, cls=item.cls), "error list")


@dataclass(slots=True, eq=False)
class ErrorListPage(SysPage):
    """The errors of one class in three groups: only the system's, only the baseline's, both's; the
    detail pane shows both systems on the highlighted one."""

    name = "pair-error-list"
    DETAIL = True
    FITS = True
    cls: str = ""

    def make(self, sy: Systems, system: str, width: int) -> M.View:
        return P.error_list_view(sy, system, self.cls, width)

    def enter(self, screen: SystemsScreen, item: Any) -> None:
        screen.open(ErrorPage(f"{item.row.cls} @{item.start}", change=item), "error")

    def highlighted_change(self, row: int) -> Any:
        return self.item_at(row)

    def detail(self, sy: Systems, system: str, item: Any, width: int) -> Any:
        return P.error_pair_detail(sy, system, item, width)


class ErrorPage(ChangePage):
    """One error with both systems' detail on the whole screen."""

    name = "pair-error"

    def detail(self, sy: Systems, system: str, item: Any, width: int) -> Any:
        return P.error_pair_detail(sy, system, item, width)


class EntitiesPage(SysPage):
    """The key entities whose coverage changed between the two systems; Enter: the document."""

    name = "pair-entities"
    FITS = True

    def make(self, sy: Systems, system: str, width: int) -> M.View:
        return P.entities_view(sy, system, width)

    def enter(self, screen: SystemsScreen, item: Any) -> None:
        screen.show_document(item.doc_id, item.mentions[0])

    def document(self, row: int) -> str | None:
        item = self.item_at(row)
        return item.doc_id if item is not None else None


def groups_page(analysis: str, by: str = "cls") -> GroupsPage:
    return GroupsPage(M.ANALYSIS_TITLES.get(analysis, analysis), analysis=analysis, by=by)


def changes_page(crumb: str, scope: P.ChangeScope) -> ChangesPage:
    return ChangesPage(crumb, analysis=scope.analysis, scope=scope)


def transitions_page(analysis: str) -> TransitionsPage:
    return TransitionsPage(f"{M.ANALYSIS_TITLES.get(analysis, analysis)}: changed", analysis=analysis)


OPENS = {
    "analysis": lambda screen, name: screen.open(groups_page(name), "classes"),
    "changes": lambda screen, name: screen.open(transitions_page(name), "transitions"),
    "errors": lambda screen, name: screen.open(ErrorsPage("error classes"), "errors"),
    "entities": lambda screen, name: screen.open(EntitiesPage("key entities changed"), "entities"),
    "documents": lambda screen, name: screen.action_documents(),
}
"""What a row of the totals opens (``OPENS[target](screen, name)``), by the target the totals' view
gives it: an analysis's classes, its transitions, the error classes, the key entities that changed,
the documents by Δ."""


__all__ = ["ChangePage", "ChangesPage", "DocumentsPage", "EntitiesPage", "ErrorListPage", "ErrorPage", "ErrorsPage", "GroupsPage", "LoadingPage", "OPENS",
           "SysPage", "TotalsPage", "TransitionsPage", "changes_page", "groups_page", "transitions_page"]
