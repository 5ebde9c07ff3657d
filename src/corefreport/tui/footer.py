"""The footer of the browser's screens: Textual's, rebuilt only when the keys it shows change."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's footer, rebuilt only when the keys it shows change.

    Textual republishes a screen's bindings whenever the screen stack changes, and its footer
    then rebuilds all its keys — also the footer of the browser when the command palette opens
    over it (the footer is still drawn under the palette's tint): ~25 ms and three more paints of
    the whole screen before the palette rests. Here the keys shown (key, label, enabled, tooltip)
    are compared first."""

    _shown: tuple | None = None

    def bindings_changed(self, screen: Screen) -> None:
        """Textual's ``Footer.bindings_changed``, with the keys compared before rebuilding."""
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            shown = tuple((b.key, b.description, enabled, tooltip)
                          for _, b, enabled, tooltip in screen.active_bindings.values() if b.show)
            if shown != self._shown:
                self._shown = shown
                self.call_after_refresh(self.recompose)
