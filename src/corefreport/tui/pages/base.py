"""What every page of the browser's screens says of itself: its name (for the timings and the
tests) and what its screen shows around it — the screens ask these, never a page's name."""

from __future__ import annotations

from typing import ClassVar


class Traits:
    """The class attributes of a page (a dataclass of :mod:`.pair` or :mod:`.systems`)."""

    __slots__ = ()

    name: ClassVar[str] = "page"
    """What the page is, for the timings and the tests (the screen never branches on it)."""
    TABLE: ClassVar[bool] = True
    """It shows a table (the loading page and one item's detail do not)."""
    WAITING: ClassVar[bool] = False
    """The first numbers are not there yet: no action applies."""
    DETAIL: ClassVar[bool] = False
    """A detail pane under the table shows the highlighted row."""
    ITEM: ClassVar[bool] = False
    """The page is one item's detail, on the whole screen."""
    FITS: ClassVar[bool] = False
    """Its cells are cut to the terminal's width: built again when the width changes."""


class Waiting(Traits):
    """The page shown while the first numbers are scored."""

    __slots__ = ()

    name = "loading"
    TABLE = False
    WAITING = True
