r"""The browser's side of :mod:`corefreport.present.inert`: what its widgets show of a document id, a
token, a file or system name is text, never markup, with its control characters visible.

Two layers:

* :func:`displayed` — a ``str`` as a Rich :class:`~rich.text.Text` (Textual reads a ``str`` given to
  ``Static.update`` as markup: ``[link=…]`` would make a live hyperlink) with its control
  characters as escapes (``\x1b``); a ``Text`` made inert keeping its styles; a ``Group`` part by
  part. The panes and notes show through it; the one-line texts (table cells, crumbs, the status
  line, toasts) through :func:`~corefreport.present.inert.inert` itself.
* :class:`InertLines` — a Textual line filter (:meth:`CorefApp.get_line_filters
  <corefreport.tui.app.CorefApp.get_line_filters>`) that removes any control or bidi character
  still in a rendered line, whatever widget drew it. Rich gives these characters no width, so the
  layout is unchanged; nothing the corpus holds can reach the terminal as an escape sequence.
"""

from __future__ import annotations

from rich.console import Group
from rich.segment import Segment
from rich.text import Text
from textual.filter import LineFilter

from ..present.inert import UNSAFE, inert, inert_styled


def displayed(value):
    """``value`` as a pane or a note shows it: a ``str`` as plain :class:`Text` (never markup), a
    ``Text`` with its styles, each with its characters made inert but its line breaks (a pane of
    several lines keeps the lines it was built with; the views escape the ids and words they put
    in one themselves, :func:`~corefreport.present.inert.inert`), a ``Group`` part by part; any
    other renderable as it is (:class:`InertLines` still strips what it draws)."""
    if isinstance(value, str):
        return Text(inert(value, keep="\n"))
    if isinstance(value, Text):
        return inert_styled(value, keep="\n")
    if isinstance(value, Group):
        return Group(*(displayed(r) for r in value.renderables), fit=value.fit)
    return value


class InertLines(LineFilter):
    """Every control character (C0, DEL, C1) and bidi control left in a rendered line, removed:
    a zero-width character in Rich's measure, so the line keeps its width."""

    def apply(self, segments: list[Segment], background) -> list[Segment]:
        if all(s.text.isprintable() for s in segments):
            return segments
        return [s if s.text.isprintable() or s.control else Segment(UNSAFE.sub("", s.text), s.style, s.control)
                for s in segments]
