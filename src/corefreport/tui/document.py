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
    (:meth:`~corefreport.present.document_text.DocumentText.shown`)."""
    sides = dt.sides if sides is None else sides
    chosen = selected_entities(dt, span) if chosen is None else chosen
    hot: set[int] = set()
    for m in dt.marks:
        if (m.side, m.entity) in chosen and m.side in sides:
            hot.update(range(m.span[0], m.span[1] + 1))
    keep = set(map(id, dt.shown(sides, once, disagreements)))
    bounds = dt.sentence_bounds()
    out = []
    for i in shown_sentences(dt, sides, disagreements):
        a, b = bounds[i]
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
        out.append(line)
    return out


class DocumentBody(ScrollView, can_focus=True):
    """The running text, wrapped once to the width and drawn a screen row at a time (the line API):
    only the rows in sight are rendered, so a document of thousands of words opens as fast as a
    short one (a ``Static`` renders all of it, more than once, to learn its height)."""

    BINDINGS = [Binding("up", "scroll_up", show=False), Binding("down", "scroll_down", show=False),
                Binding("pageup", "page_up", show=False), Binding("pagedown", "page_down", show=False),
                Binding("home", "scroll_home", show=False), Binding("end", "scroll_end", show=False),
                Binding("J", "scroll_down", show=False), Binding("K", "scroll_up", show=False)]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[Text] = []
        self.rows: list[Text] = []
        self.first_row: list[int] = []
        """The screen row each sentence starts on, at the current width."""
        self._width = 0
        self._strips: dict[int, Strip] = {}

    def set_lines(self, lines: list[Text]) -> None:
        self.lines = lines
        self._width = 0
        self._wrap()

    def _wrap(self) -> None:
        width = max(20, self.scrollable_content_region.width or self.size.width or 78)
        if width == self._width:
            return
        self._width = width
        console = self.app.console
        rows: list[Text] = []
        first: list[int] = []
        for line in self.lines:
            first.append(len(rows))
            rows.extend(line.wrap(console, width) or [Text("")])
        self.rows, self.first_row = rows, first
        self._strips.clear()
        self.virtual_size = Size(width, len(rows))
        self.refresh()

    def on_resize(self) -> None:
        self._wrap()

    def render_line(self, y: int) -> Strip:
        i = self.scroll_offset.y + y
        width = self.size.width
        base = self.rich_style
        if not 0 <= i < len(self.rows):
            return Strip.blank(width, base)
        strip = self._strips.get(i)
        if strip is None:
            row = self.rows[i]
            # every segment needs a style: Textual's filters (NO_COLOR's monochrome) read it
            segments = [Segment(t, base + s if s is not None else base, c)
                        for t, s, c in row.render(self.app.console)]
            strip = Strip(segments, row.cell_len)
            self._strips[i] = strip
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
        self.lines: list[Text] = []
        self.chosen = selected_entities(dt, span)
        """The entities highlighted: those of the mention the view was opened on (n/p keep them)."""
        self.disagreements = False
        """``D``: only the sentences with a mention the sides shown do not all agree on, without the
        brackets of those they agree on (a mention all agree on is always written once)."""
        self.shown: list[int] = []
        """The sentences on screen (0-based), in order."""

    def compose(self) -> ComposeResult:
        yield Static(id="document-crumbs")
        yield Static(Text(self.dt.legend(once=True)), id="document-legend")
        yield DocumentBody(id="document-body")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.draw()
        self.call_after_refresh(self.scroll_to_span)

    def draw(self) -> None:
        self.lines = document_lines(self.dt, self.sides, chosen=self.chosen, once=True,
                                    disagreements=self.disagreements)
        self.shown = shown_sentences(self.dt, self.sides, self.disagreements)
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
