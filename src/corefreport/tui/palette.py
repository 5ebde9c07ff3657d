"""The command palette (Ctrl+P): what the screen it was opened on offers — exporting its table,
jumping to a document's or a type's links. Each screen lists its own commands
(``palette_commands()``: (text, callback, help) in order, made as they are asked for)."""

from __future__ import annotations

from itertools import islice

from textual.command import DiscoveryHit, Hit, Hits, Provider


class Commands(Provider):
    """The commands of the screen the palette was opened on (the first 8 before anything is typed)."""

    def _commands(self):
        screen = self.screen
        make = getattr(screen, "palette_commands", None)
        return make() if make is not None else iter(())

    async def discover(self) -> Hits:
        for text, cb, help_ in islice(self._commands(), 8):
            yield DiscoveryHit(text, cb, help=help_)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, cb, help_ in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), cb, help=help_)
