"""The help screen: every binding of the screen it was opened on (with the keys in force, remapped
or not) and a legend of the outcomes, the ARCS scenarios and the search language."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from .footer import KeysFooter

LEGEND = """\
[b]Outcomes[/b] (one row per referent)
  TP   right antecedent (typed: and the right link type)
  WT   right antecedent, wrong link type (typed evaluation only)
  WL   wrong link: an antecedent of another entity
  WTL  wrong link and wrong type (typed evaluation only)
  FN   missed: the key links the referent, the response does not
  FP   spurious: the response links a referent the key does not
[b]ARCS scenarios[/b]
  ARCS 1 immediate   the response predecessor must be the key predecessor
  ARCS 2 inferred    the closest preceding nominal of the response chain
                     must be in the key chain
  ARCS 3 anchor      entities detected by their anchor (first nominal);
                     rows are the mentions of detected entities
[b]Mix bar[/b]  █ TP  ▓ WT  ▒ WL  ▚ WTL  ░ FN  ▁ FP (one shade per outcome)
[b]Detail[/b]   referent reversed; key antecedent \\[K] green, response \\[R] red,
         \\[K=R] cyan when they agree
[b]Search[/b]   words; wl fn fp or outcome:wl,fn; doc:ID; type:T; class:C; mtype:PRONOUN"""


class HelpScreen(Screen):
    """Every binding (with the keys in force, remapped or not) and a legend; any of Escape, ?, q closes it."""

    BINDINGS = [Binding("escape,question_mark,f1,q", "app.pop_screen", "Close")]

    def __init__(self, keys: list[tuple[str, str]]) -> None:
        super().__init__(id="help")
        self.keys = keys

    def compose(self) -> ComposeResult:
        from textual.containers import VerticalScroll

        lines = ["[b]Keys[/b] (remap them in ~/.config/corefreport/keymap.toml, see docs/tui.md)"]
        lines += [f"  {k:<22} {d}" for k, d in self.keys]
        with VerticalScroll(id="help-body"):
            yield Static("\n".join(lines) + "\n" + LEGEND, id="help-text", markup=True)
        yield KeysFooter()
