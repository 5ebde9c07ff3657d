"""The document view of the browser (key ``v`` on a link, a link table or the documents page): the
running text of a document with the key's ``[N … ]`` and the response's ``{N … }`` mentions
(:mod:`corefreport.present.document_text`), coloured by entity, the selected entity's mentions
(the link's referent's, on both sides) in reverse video; ``*`` and ``!`` mark a mention only one
side has and a wrong link, so it reads without colour too. A mention every side shown agrees on
(same span, same entity) is written once, in the key's brackets; ``D`` shows the disagreements
only (the sentences with a mention the sides do not all agree on).

:func:`document_lines` is pure (Rich text, no widget); :class:`DocumentScreen` shows it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate

from rich.segment import Segment
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.geometry import Size
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Static

from ..present.document_text import SHAPES, DocumentText, Span
from .footer import KeysFooter

PALETTE = ("cyan", "magenta", "yellow", "green", "blue", "red", "bright_cyan", "bright_magenta", "bright_yellow",
           "bright_green", "bright_blue", "bright_red")
SIDES = (("key", "response"), ("key",), ("response",))
SIDE_NAMES = {("key", "response"): "key [ ] and response { }", ("key",): "key [ ] only",
              ("response",): "response { } only"}


def side_choices(dt: DocumentText) -> list[tuple[str, ...]]:
    """What ``m`` cycles through: every side, the key only, each response only, and with several
    responses the key with each response.

    >>> side_choices(DocumentText("d", [], [], [], ("key", "A", "B")))
    [('key', 'A', 'B'), ('key',), ('A',), ('B',), ('key', 'A'), ('key', 'B')]
    """
    responses = dt.sides[1:]
    out = [dt.sides, ("key",)] + [(r,) for r in responses]
    if len(responses) > 1:
        out += [("key", r) for r in responses]
    return out


def side_name(dt: DocumentText, sides: tuple[str, ...]) -> str:
    """``sides`` in words, with their brackets: "key [ ] and ml { }"."""
    if dt.sides == ("key", "response") and sides in SIDE_NAMES:
        return SIDE_NAMES[sides]
    shapes = dict(zip(dt.sides, SHAPES))
    words = [f"{s} {shapes[s][0]} {shapes[s][1]}" for s in sides]
    return " and ".join(words) + (" only" if len(sides) < len(dt.sides) and len(sides) == 1 else "")


def entity_style(n: int) -> str:
    return PALETTE[(n - 1) % len(PALETTE)]


def selected_entities(dt: DocumentText, span: Span | None) -> set[tuple[str, int]]:
    """The entities of the mention at ``span`` on each side: (side, number)."""
    if span is None:
        return set()
    return {(m.side, m.entity) for m in dt.marks if m.span == span}


def shown_sentences(dt: DocumentText, sides: tuple[str, ...] | None = None, disagreements: bool = False) -> list[int]:
    """The sentences (0-based) the view shows: all, or with ``disagreements`` those with a mention
    the sides shown do not all agree on."""
    if disagreements:
        return dt.disagreeing_sentences(sides)
    return list(range(len(dt.sentence_bounds())))


def document_lines(dt: DocumentText, sides: tuple[str, ...] | None = None, span: Span | None = None,
                   chosen: set[tuple[str, int]] | None = None, once: bool = False,
                   disagreements: bool = False) -> list[Text]:
    """One :class:`~rich.text.Text` per sentence shown (``s12`` first; :func:`shown_sentences`):
    each mark's bracket coloured by its entity (bold where it flags an error), the words of the
    selected entities' mentions (``chosen``, else those of the mention at ``span``, on either side)
    in reverse video. ``once``: a mention every side agrees on in the key's brackets alone;
    ``disagreements``: without those mentions' brackets, only the sentences with a disagreement
    (:meth:`~corefreport.present.document_text.DocumentText.shown`). Every sentence of
    :class:`SentenceLines`, which builds them one at a time."""
    lines = SentenceLines(dt, sides, span, chosen, once, disagreements)
    return [lines.line(k) for k in range(len(lines))]


class SentenceLines:
    """The lines of :func:`document_lines`, each built when asked for (``line(k)``: the ``k``-th
    sentence shown), so that a book's view builds only the sentences in sight; ``chars(k)``: the
    line's length in cells, counted without building it (words, spaces and brackets)."""

    def __init__(self, dt: DocumentText, sides: tuple[str, ...] | None = None, span: Span | None = None,
                 chosen: set[tuple[str, int]] | None = None, once: bool = False, disagreements: bool = False):
        self.dt = dt
        self.sides = dt.sides if sides is None else sides
        chosen = selected_entities(dt, span) if chosen is None else chosen
        self.hot: set[int] = set()
        for m in dt.marks:
            if (m.side, m.entity) in chosen and m.side in self.sides:
                self.hot.update(range(m.span[0], m.span[1] + 1))
        self.keep = set(map(id, dt.shown(self.sides, once, disagreements)))
        self.bounds = dt.sentence_bounds()
        self.shown = shown_sentences(dt, self.sides, disagreements)
        self.built = 0
        """Lines built so far (a view shows how few a book needed)."""
        self._cells: list[int] | None = None
        self._starts: list[int] = []
        self._ends: list[int] = []

    def __len__(self) -> int:
        return len(self.shown)

    def line(self, k: int) -> Text:
        dt, sides, keep, hot = self.dt, self.sides, self.keep, self.hot
        i = self.shown[k]
        a, b = self.bounds[i]
        line = Text(f"s{i + 1} ", style="dim")
        for t in range(a, b):
            for m in dt.opens.get(t, []):
                if id(m) in keep:
                    line.append(dt.opening(m, sides), style=entity_style(m.entity) + (" bold" if dt.flag(m, sides) else ""))
            line.append(dt.tokens[t], style="reverse" if t in hot else "")
            for m in dt.closes.get(t, []):
                if id(m) in keep:
                    line.append(m.close, style=entity_style(m.entity))
            line.append(" ")
        self.built += 1
        return line

    def chars(self, k: int) -> int:
        if self._cells is None:  # once: the cells of the words before each token, the brackets' starts and ends
            tokens = self.dt.tokens
            self._cells = list(accumulate((len(w) + 1 for w in tokens), initial=0))
            kept = [m for m in self.dt.marks if id(m) in self.keep]
            self._starts = sorted(m.span[0] for m in kept)
            self._ends = sorted(m.span[1] for m in kept)
        i = self.shown[k]
        a, b = self.bounds[i]
        opens = bisect_left(self._starts, b) - bisect_left(self._starts, a)
        closes = bisect_left(self._ends, b) - bisect_left(self._ends, a)
        return len(f"s{i + 1} ") + self._cells[b] - self._cells[a] + 4 * opens + 2 * closes


WRAP_ALL = 500
"""Sentences a document may have for its view to build and wrap them all at once (exact rows and
scroll bar from the start; a few tenths of a second at most); a longer one builds those in sight."""


class DocumentBody(ScrollView, can_focus=True):
    """The running text, drawn a screen row at a time (the line API). In a document of more than
    :data:`WRAP_ALL` sentences a sentence is built and wrapped to the width only when it comes into
    sight, the others count the rows their length would take (:meth:`SentenceLines.chars`) until then; so a book of 10,000 sentences opens at a
    link's sentence as fast as a short document (a ``Static`` renders all of it, more than once, to
    learn its height)."""

    BINDINGS = [Binding("up", "scroll_up", show=False), Binding("down", "scroll_down", show=False),
                Binding("pageup", "page_up", show=False), Binding("pagedown", "page_down", show=False),
                Binding("home", "scroll_home", show=False), Binding("end", "scroll_end", show=False),
                Binding("J", "scroll_down", show=False), Binding("K", "scroll_up", show=False)]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.source: SentenceLines | list = []
        """The document's sentences (:meth:`set_lines`; none before)."""
        self.heights: list[int] = []
        """Each sentence's rows at the current width: exact once wrapped, else counted."""
        self.first_row: list[int] = []
        """The screen row each sentence starts on, at the current width."""
        self.wrapped: dict[int, list[Text]] = {}
        self._width = 0
        self._strips: dict[tuple[int, int], Strip] = {}

    def set_lines(self, lines: SentenceLines) -> None:
        self.source = lines
        self._width = 0
        self._wrap()

    def _wrap(self) -> None:
        width = max(20, self.scrollable_content_region.width or self.size.width or 78)
        if width == self._width:
            return
        self._width = width
        self.wrapped.clear()
        self._strips.clear()
        n = len(self.source)
        if n <= WRAP_ALL:  # a document of ordinary length: every sentence wrapped now, rows exact
            self.heights = [len(self.rows_of(k)) for k in range(n)]
        else:
            self.heights = [max(1, -(-self.source.chars(k) // width)) for k in range(n)]
        self._rows()
        self.refresh()

    def _rows(self) -> None:
        self.first_row = list(accumulate(self.heights, initial=0))[:-1]
        total = self.first_row[-1] + self.heights[-1] if self.heights else 0
        self.virtual_size = Size(self._width, total)

    def rows_of(self, k: int) -> list[Text]:
        """Sentence ``k`` wrapped to the width (built now if it was not)."""
        rows = self.wrapped.get(k)
        if rows is None:
            rows = self.wrapped[k] = self.source.line(k).wrap(self.app.console, self._width) or [Text("")]
        return rows

    def settle(self) -> None:
        """Build the sentences in sight, so that their rows are exact (the rows below move when a
        count was off; those above never change while in sight)."""
        for _ in range(8):
            top = self.scroll_offset.y
            bottom = top + max(self.size.height, 1)
            changed = False
            k = max(bisect_right(self.first_row, top) - 1, 0)
            while k < len(self.heights) and self.first_row[k] < bottom:
                n = len(self.rows_of(k))
                if n != self.heights[k]:
                    self.heights[k] = n
                    changed = True
                k += 1
            if not changed:
                return
            self._rows()

    def on_resize(self) -> None:
        self._wrap()

    def action_scroll_home(self) -> None:
        """To the first sentence at once (an animated scroll would build every screen it passes)."""
        self.scroll_home(animate=False)

    def action_scroll_end(self) -> None:
        self.scroll_end(animate=False)

    def render_lines(self, crop):
        self.settle()
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        i = self.scroll_offset.y + y
        width = self.size.width
        base = self.rich_style
        if not self.heights or not 0 <= i < self.first_row[-1] + self.heights[-1]:
            return Strip.blank(width, base)
        k = bisect_right(self.first_row, i) - 1
        r = i - self.first_row[k]
        rows = self.rows_of(k)
        if r >= len(rows):
            return Strip.blank(width, base)
        strip = self._strips.get((k, r))
        if strip is None:
            row = rows[r]
            # every segment needs a style: Textual's filters (NO_COLOR's monochrome) read it
            segments = [Segment(t, base + s if s is not None else base, c)
                        for t, s, c in row.render(self.app.console)]
            strip = Strip(segments, row.cell_len)
            self._strips[(k, r)] = strip
        return strip.crop_extend(0, width, base)


class DocumentScreen(Screen):
    """A document's running text with both annotations; Escape goes back to the page it came from."""

    BINDINGS = [Binding("escape,backspace,v", "app.pop_screen", "Back", id="corefreport.document_back"),
                Binding("m", "sides", "Marks", id="corefreport.document_sides"),
                Binding("D", "disagreements", "Disagree", id="corefreport.document_disagreements"),
                Binding("n", "next(1)", "Next", id="corefreport.document_next"),
                Binding("p", "next(-1)", "Prev", id="corefreport.document_prev", show=False)]
    DEFAULT_CSS = """
    DocumentScreen #document-crumbs { height: 1; background: $boost; }
    DocumentScreen #document-legend { height: auto; color: $text-muted; }
    DocumentScreen #document-body { height: 1fr; }
    """

    def __init__(self, dt: DocumentText, span: Span | None = None) -> None:
        super().__init__()
        self.dt = dt
        self.span = span
        self.choices = side_choices(dt)
        self.sides: tuple[str, ...] = self.choices[0]
        self.lines: SentenceLines | None = None
        self.chosen = selected_entities(dt, span)
        """The entities highlighted: those of the mention the view was opened on (n/p keep them)."""
        self.disagreements = False
        """``D``: only the sentences with a mention the sides shown do not all agree on, without the
        brackets of those they agree on (a mention all agree on is always written once)."""

    @property
    def shown(self) -> list[int]:
        """The sentences on screen (0-based), in order."""
        return self.lines.shown if self.lines is not None else []

    def compose(self) -> ComposeResult:
        yield Static(id="document-crumbs")
        yield Static(Text(self.dt.legend(once=True)), id="document-legend")
        yield DocumentBody(id="document-body")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.draw()
        self.call_after_refresh(self.scroll_to_span)

    def draw(self) -> None:
        self.lines = SentenceLines(self.dt, self.sides, chosen=self.chosen, once=True,
                                   disagreements=self.disagreements)
        where = f" @{self.span[0]}" if self.span else ""
        mode = (f", disagreements only: {len(self.shown)} of {len(self.dt.sentence_bounds())} sentences"
                if self.disagreements else "")
        self.query_one("#document-crumbs", Static).update(
            Text(f"document {self.dt.doc_id}{where} — {side_name(self.dt, self.sides)}{mode} (m: change, D: "
                 f"disagreements only, n/p: the entity's next/previous mention)", no_wrap=True, overflow="ellipsis"))
        self.query_one("#document-legend", Static).update(Text(self.dt.legend(once=True)))
        body = self.query_one("#document-body", DocumentBody)
        body.set_lines(self.lines)
        body.focus()

    def scroll_to_span(self) -> None:
        """Scroll so that the selected mention's sentence is near the top (a sentence can wrap:
        count the rows of the sentences above at this width)."""
        if self.span is None:
            return
        bounds = self.dt.sentence_bounds()
        before = [k for k, i in enumerate(self.shown) if bounds[i][0] <= self.span[0]]
        index = before[-1] if before else 0  # the mention's sentence, or the last one shown before it
        body = self.query_one("#document-body", DocumentBody)
        body._wrap()
        rows = body.first_row[index] if index < len(body.first_row) else 0
        body.scroll_to(y=rows, animate=False, immediate=True)

    def action_disagreements(self) -> None:
        """``D``: only the disagreements, or the whole text again."""
        self.disagreements = not self.disagreements
        self.draw()
        self.call_after_refresh(self.scroll_to_span)

    def action_sides(self) -> None:
        self.sides = self.choices[(self.choices.index(self.sides) + 1) % len(self.choices)]
        self.draw()

    def action_next(self, step: int) -> None:
        """The selected entity's next (previous) mention, on the key's side if it has one there."""
        spans = sorted({m.span for m in self.dt.marks if (m.side, m.entity) in self.chosen})
        if not spans or self.span is None:
            return
        i = spans.index(self.span) if self.span in spans else 0
        self.span = spans[(i + step) % len(spans)]
        self.draw()
        self.scroll_to_span()
