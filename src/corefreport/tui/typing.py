"""Text typed or pasted after the search key is text for the search box, never commands.

Keys typed fast (or pasted by a terminal without bracketed paste) reach the screen before the
search action has run and before the box has the focus (Textual moves it a step later): without
this, ``/quote`` quit the browser at the ``q``. A screen mixes in :class:`TypedSearch`, calls
:meth:`~TypedSearch.capture` from its ``on_key`` and ``on_paste`` and :meth:`~TypedSearch.flush`
when its search action has shown and focused the box.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


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
        if box.display:
            box.insert_text_at_cursor(text)
        else:
            self._typed += text

    def flush(self, box: Input) -> None:
        """The box is shown and has been given the focus: what was typed before goes into it (and an
        Enter typed with it submits it)."""
        if not self._typed:
            return
        text, enter, _ = self._typed.partition("\n")
        box.value += text
        box.cursor_position = len(box.value)
        self._typed = ""
        if enter:
            box.post_message(Input.Submitted(box, box.value))
