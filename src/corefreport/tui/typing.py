"""Text typed or pasted after the search key is text for the search box, never commands.

Keys typed fast (or pasted by a terminal without bracketed paste) reach the screen before the
search action has run and before the box has the focus (Textual moves it a step later): without
this, ``/quote`` quit the browser at the ``q``. A screen mixes in :class:`TypedSearch`, calls
:meth:`~TypedSearch.capture` from its ``on_key`` and ``on_paste`` and :meth:`~TypedSearch.flush`
when its search action has shown and focused the box.

The box holds at most :data:`SEARCH_LIMIT` characters (:meth:`~TypedSearch.limit`): what goes past
them is left out, and the status line says so. Once the focused box is full, a printable key is
dropped by the app before Textual's dispatch of it (:func:`refused_early`): a terminal hands a pasted
block of escape sequences over as a key a character, and each key dispatched costs the same whether
the box takes it or not (52 KB: 6 s of CPU before, about 1 s after).
"""

from __future__ import annotations

import time

from textual import events
from textual.widgets import Input

SEARCH_LIMIT = 2000
"""The most characters the search box holds — a search needs a few words. Text past it is left
out, and the status line says so: 52 KB of escape sequences pasted into it (a terminal hands them
over as a key each) once kept the browser busy 90 s and grew it to 1.39 GB, every key measuring the
whole line again."""

CUT = f"the search box holds at most {SEARCH_LIMIT:,} characters: text that would go past them is left out"


BURST = 10
"""Messages waiting in a box's queue from which the keys are a burst (a paste, not typing)."""


def refused_early(focused: object, event: events.Key) -> bool:
    """Whether ``event`` is a printable key for a ``focused`` :class:`Input` that is full: its text
    reaches its ``max_length`` — or, in a burst (:data:`BURST` messages or more waiting in its queue:
    keys the app has handed it and it has not taken yet, and its own Changed messages), its text and
    that queue do — and nothing is selected that the key would replace. The box would refuse it, so
    the app drops it unseen and calls the box's ``restricted`` hook (which says so, now and then).
    Typed keys fill the box exactly; a burst may stop a few dozen characters short."""
    if not (isinstance(focused, Input) and event.is_printable and focused.max_length):
        return False
    waiting = focused.message_queue_size if focused.message_queue_size >= BURST else 0
    if len(focused.value) + waiting < focused.max_length or not focused.selection.is_empty:
        return False
    focused.restricted()
    return True


class TypedSearch:
    """What was typed after the search key and before the box took the focus."""

    _typing: bool = False
    _typed: str = ""
    """Characters waiting for the box; ``\\n``: Enter was pressed."""

    def search_keys(self) -> set[str]:
        return {"slash"}

    def stop_typing(self) -> None:
        self._typing, self._typed = False, ""

    def capture(self, event: events.Key | events.Paste, box: Input) -> None:
        """Called for every key (and paste) that reaches the screen: the search key starts a capture;
        while it lasts, text, Backspace and Enter go to ``box`` (or wait for it while it is hidden)."""
        if box.has_focus:
            return
        self.limit(box)
        if isinstance(event, events.Paste):
            if self._typing:
                self._put(box, " ".join(event.text.splitlines()))
                event.stop()
            return
        if event.key in self.search_keys() and not self._typing:
            self._typing, self._typed = True, ""  # the binding opens the box; what follows is its text
            return
        if not self._typing:
            return
        if event.key == "enter":
            if box.display:
                box.post_message(Input.Submitted(box, box.value))
            else:
                self._typed += "\n"
        elif event.key == "backspace":
            if box.display:
                box.action_delete_left()
            else:
                self._typed = self._typed[:-1]
        elif event.is_printable and event.character:
            self._put(box, event.character)
        else:
            return
        event.stop()
        event.prevent_default()

    def _put(self, box: Input, text: str) -> None:
        room = SEARCH_LIMIT - len(box.value if box.display else self._typed)
        if len(text) > room:
            text = text[:max(room, 0)]
            self._cut()
        if box.display:
            box.insert_text_at_cursor(text)
        else:
            self._typed += text

    _cut_at: float = -1e9

    def _cut(self) -> None:
        """Say on the status line (at most once in a few seconds: it is called for each key refused)
        that the box is full."""
        now = time.monotonic()
        if now - self._cut_at < 5:
            return
        self._cut_at = now
        say = getattr(self, "say", None)
        if say is not None:
            say(CUT, 6)
        else:
            self.notify(CUT, timeout=6)  # type: ignore[attr-defined]

    def limit(self, box: Input) -> None:
        """Hold ``box`` to :data:`SEARCH_LIMIT` characters: Textual's ``max_length`` refuses a key or
        a paste that would go past it (a key or a paste costs the same at any length), and its
        ``restricted`` hook — the terminal's bell by default, once a key: 50,000 bells for a pasted
        block — says so on the status line instead."""
        if box.max_length != SEARCH_LIMIT:
            box.max_length = SEARCH_LIMIT
            box.restricted = self._cut  # type: ignore[method-assign]

    def flush(self, box: Input) -> None:
        """The box is shown and has been given the focus: what was typed before goes into it (and an
        Enter typed with it submits it)."""
        self.limit(box)
        if not self._typed:
            return
        text, enter, _ = self._typed.partition("\n")
        box.value = (box.value + text)[:SEARCH_LIMIT]
        box.cursor_position = len(box.value)
        self._typed = ""
        if enter:
            box.post_message(Input.Submitted(box, box.value))
