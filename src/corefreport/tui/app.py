"""``corefreport tui``: one Textual app over a study.

The app is given the stages of a study (:func:`corefreport.study.run.stages` of a plan, which the
command line makes), which a worker thread runs, posting each node of the study as it comes
(:mod:`.messages`) — or a node already scored (tests, scripts); it never sees a file name. Each node has its screen
(:mod:`.screens`):

* :class:`~corefreport.study.nodes.Pair` — the browser of one pair
  (:class:`~.screens.pair.Browser`): the standard metrics first, the analyses when ready;
* :class:`~corefreport.study.nodes.Systems` — the systems browser
  (:class:`~.screens.systems.SystemsScreen`): every system's first numbers, then the comparison;
* :class:`~corefreport.study.nodes.Datasets`, :class:`~corefreport.study.nodes.Groups` — the
  page of datasets or groups (:class:`~.screens.levels.LevelScreen`), a row at a time; Enter opens
  a row's browser.

The app never reads a file or scores anything itself. Help (:mod:`.help`), the command palette
(:mod:`.palette`), the keymap (:mod:`.keymap`) and exports (:mod:`.export`) have their own modules.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterator

from textual import events, work
from textual.app import App
from textual.binding import Binding
from textual.worker import get_current_worker

from ..present.inert import inert
from ..scoring.result import Evaluation
from ..study.nodes import Datasets, Groups, Pair, Systems
from . import model as M
from .datasetmodel import MICRO, Level, level_of
from .export import export_view
from .help import HelpScreen
from .inert import InertLines
from .keymap import keymap_path, load_keymap
from .messages import Cancelled, Failed, Progress, Scored
from .pages.pair import LoadingPage, TotalsPage
from .pages.systems import LoadingPage as SystemsLoading
from .pages.systems import TotalsPage as SystemsTotals
from .palette import Commands
from .typing import refused_early
from .screens.base import with_tips
from .screens.levels import LevelScreen
from .screens.pair import DESCRIPTIONS, Browser
from .screens.systems import SystemsScreen

Stages = Callable[[Any], Iterator[Any]]
"""``stages(watch)``: the study's nodes as they come (:func:`corefreport.study.run.stages`)."""


class _Watch:
    """The study's :class:`~corefreport.study.run.Watch` in the worker: progress as messages (at most
    ten a second), and a stop at the next step once the app has quit."""

    def __init__(self, app: CorefApp, worker) -> None:
        self.app, self.worker, self.last = app, worker, 0.0

    def stage(self, message: str) -> None:
        if self.worker.is_cancelled:
            raise Cancelled()

    def read(self) -> None:
        self.app.post_message(Progress("read", 0, 0))

    def documents(self, phase: str, done: int, total: int) -> None:
        if self.worker.is_cancelled:
            raise Cancelled()
        now = time.perf_counter()
        if done == total or now - self.last > 0.1:
            self.last = now
            self.app.post_message(Progress(phase, done, total))


class CorefApp(App):
    """Browse a study: give a node (an :class:`Evaluation` is a pair's), or the ``stages`` of one
    (``stages(watch)``, :func:`corefreport.study.run.stages` of a plan) that the worker runs once,
    with the ``shape`` of what comes (``pair``, ``systems`` — ``names`` the systems —, ``levels``)."""

    CSS_PATH = "corefreport.tcss"
    TITLE = "corefreport"
    COMMANDS = App.COMMANDS | {Commands}
    BINDINGS = with_tips([Binding("q", "quit", "Quit", id="corefreport.quit"),
                          Binding("x", "errors", "Errors", id="corefreport.errors", show=False)], DESCRIPTIONS)

    def __init__(self, study: Any = None, *, stages: Stages | None = None, shape: str = "pair",
                 names: list[str] = (), keymap: dict[str, str] | None = None, freeze_gc: bool = False,
                 title: str = "response") -> None:
        super().__init__()
        if study is None and stages is None:
            raise ValueError("give a study, or the stages of one")
        if isinstance(study, Evaluation):
            study = Pair("", study)
        self.study = study
        self.stages = stages
        self.names = list(names)
        """The systems to come (the loading page names them)."""
        self._started = False
        self.shape = shape if study is None else _shape(study)
        self.loading_title = title
        self.keymap = keymap or {}
        self.freeze_gc = freeze_gc
        """Move the evaluation out of the garbage collector's reach once it arrives: a full collection
        over a 300-document evaluation takes ~170 ms, a visible stall in the middle of a drill step."""
        self.error: str | None = None
        self.browser: Browser | None = None
        """The browser of the pair shown (of the row opened, on a page of datasets or groups)."""
        self.systems_screen: SystemsScreen | None = None
        self.list_screen: LevelScreen | None = None
        self.browsers: dict[str, str] = {}
        """Row of the datasets or groups → the name its browser screen is installed under."""
        self.current: str | None = None
        self.timings: list[tuple[str, float]] = []
        """(step, milliseconds from the key to the refreshed page) of every navigation."""
        self._cache: dict[tuple[str, int], Any] = {}
        self._t0 = time.perf_counter()
        self.started_at = time.time()
        self._painted = threading.Event()

    # ---- what tests and the screens ask

    @property
    def ev(self) -> Evaluation | None:
        """The evaluation of the pair browser shown (or last shown)."""
        return self.browser.ev if self.browser is not None else None

    @property
    def analyses_ready(self) -> bool:
        return self.browser is None or self.browser.ready

    @property
    def systems(self) -> Systems | None:
        return self.systems_screen.systems if self.systems_screen is not None else None

    @property
    def system(self) -> str:
        return self.systems_screen.system if self.systems_screen is not None else ""

    @property
    def final(self) -> bool:
        return self.study is not None and self.study.final

    @property
    def level(self):
        return self.list_screen.level if self.list_screen is not None else None

    def get_line_filters(self):
        """Textual's filters and :class:`~.inert.InertLines`: no control character of a corpus reaches
        the terminal, whatever widget draws it."""
        return [*super().get_line_filters(), self._inert_lines]

    _inert_lines = InertLines()

    def cached(self, name: str, of: Any, make: Callable[[], Any]) -> Any:
        k = (name, id(of))
        if k not in self._cache:
            self._cache[k] = make()
        return self._cache[k]

    # ---- the first screen

    async def on_event(self, event: events.Event) -> None:
        """Every event, as Textual's app handles it — except a printable key for a full search box,
        dropped before Textual's per-key dispatch (:func:`.typing.refused_early`)."""
        if isinstance(event, events.Key) and not event.is_forwarded and refused_early(self.focused, event):
            event.stop()
            return
        await super().on_event(event)

    def on_mount(self) -> None:
        if self.keymap:
            self.set_keymap(self.keymap)
        node = self.study
        if self.shape == "levels":
            self.list_screen = LevelScreen(self.loading_title, level_of(node) if node is not None else None)
            self.push_screen(self.list_screen)
        elif self.shape == "systems":
            self.systems_screen = SystemsScreen(SystemsTotals("corefreport") if node is not None
                                                else SystemsLoading("corefreport"), node, self.names)
            self.push_screen(self.systems_screen)
        else:
            first = TotalsPage(self._pair_title(node.evaluation)) if node is not None \
                else LoadingPage(f"corefreport: {self.loading_title}")
            self.browser = Browser(first, node.evaluation if node is not None else None,
                                   ready=node is None or node.final)
            self.push_screen(self.browser)

    def begin(self) -> None:
        """The first screen is mounted: start the worker (once) when nothing is scored yet."""
        if self.study is None and not self._started:
            self._started = True
            self.score()

    @staticmethod
    def _pair_title(ev: Evaluation) -> str:
        name = Path(ev.response_source).name if ev.response_source else "response"
        return f"corefreport: {name}"

    # ---- the worker

    @work(thread=True, exclusive=True, group="score")
    def score(self) -> None:
        from ..errors import InputError, SettingsError

        worker = get_current_worker()
        self.timings.append(("scoring started, since the app started", 1000 * (time.perf_counter() - self._t0)))
        try:
            for node in self.stages(_Watch(self, worker)):
                if worker.is_cancelled:
                    return
                self.post_message(Scored(node))
                if not node.final:  # let the first numbers paint: this thread would take half the CPU from it
                    self._painted.wait(timeout=2.0)
        except Cancelled:
            return
        except (InputError, SettingsError, ValueError) as err:
            self.post_message(Failed(str(err)))

    def _since(self, what: str) -> None:
        self.timings.append((f"{what}, since the app started", 1000 * (time.perf_counter() - self._t0)))

    def on_progress(self, msg: Progress) -> None:
        if msg.phase == "read":
            if self.shape == "pair":
                self._since("files read")
            return
        screen = self.list_screen or self.systems_screen or self.browser
        if screen is not None:
            screen.loading(msg.phase, msg.done, msg.total)

    def on_scored(self, msg: Scored) -> None:
        node = msg.node
        first = self.study is None
        self.study = node
        if isinstance(node, Pair):
            self._since(("standard metrics" if first else "analyses" if node.final else "all metrics") + " scored")
        elif isinstance(node, Systems):
            self._since(("first numbers" if first else "comparison") + " arrived")
        else:
            if first:
                self._since("first row scored")
            if node.final:
                self._since("every row scored")
        if self.freeze_gc and (node.final or isinstance(node, Pair)):
            import gc

            gc.freeze()
        if isinstance(node, Pair):
            b = self.browser
            b.scored(node.evaluation, node.final, self._pair_title(node.evaluation))
            if first:
                def painted() -> None:
                    self._since("totals painted")
                    self._painted.set()

                b.call_after_refresh(painted)
            elif node.final:
                b.call_after_refresh(lambda: self._since("analyses painted"))
        elif isinstance(node, Systems):
            self.systems_screen.scored(node)
            if first:
                self.systems_screen.call_after_refresh(self._painted.set)
        else:
            self.list_screen.ready(level_of(node))
            self._painted.set()

    def on_failed(self, msg: Failed) -> None:
        if self.study is None or isinstance(self.study, Systems):  # nothing to show: leave with the message
            self.error = msg.error
            self.exit(None, 2)
            return
        if self.browser is not None and isinstance(self.study, Pair):
            self.browser.mode(busy=False)
            self.notify(inert(f"the link-level analyses failed: {msg.error}"), severity="error", timeout=10,
                        markup=False)
        else:
            self.notify(inert(f"scoring failed: {msg.error}"), severity="error", timeout=10, markup=False)

    # ---- datasets and groups: each row's browser

    def enter(self, name: str, ev: Evaluation) -> None:
        """Open the browser of one row: a :class:`Browser` on its totals (kept for the next visit)."""
        self.current = name
        screen = self.browsers.get(name)
        if screen is None:
            screen = f"browser-{len(self.browsers)}"
            self.browsers[name] = screen
            crumb = f"corefreport: {self.loading_title} › {name if name != MICRO else 'every document'}"
            self.install_screen(Browser(TotalsPage(crumb), ev, leave=self.leave_browser), screen)
        self.browser = self.get_screen(screen)  # type: ignore[assignment]
        self.push_screen(screen)

    def leave_browser(self) -> None:
        """Escape on a row's totals: back to the list."""
        if self.browser is not None and self.screen is self.browser:
            self.browser = None
            self.pop_screen()

    # ---- what every screen uses

    def action_errors(self) -> None:  # -a errors: the error-class browser (tui/errors.py)
        if isinstance(self.screen, Browser):
            self.screen.open_errors()
        else:
            from .errors import open_errors

            open_errors(self, self.ev, self.analyses_ready)

    def show_help(self, keys: list[tuple[str, str]]) -> None:
        """The help screen with ``keys`` (the screen's own)."""
        self.push_screen(HelpScreen(keys))

    def export(self, view: M.View, fmt: str, stem: str, screen: Any = None) -> Path | None:
        """Write every row of ``view`` (:func:`~.export.export_view`) and say where."""
        if view is None:
            return None
        path = export_view(view, stem, fmt)
        said = f"wrote {path.name if path.parent == Path.cwd() else path}"
        if screen is not None and hasattr(screen, "say"):
            screen.say(said, 6)
        else:
            self.notify(said, timeout=6)
        return path

    def shown(self) -> list[list[str]]:
        """The rows the current screen's table holds now, as plain text (tests)."""
        screen = self.screen
        if not hasattr(screen, "shown_rows"):
            screen = self.browser or self.systems_screen or self.list_screen
        return screen.shown_rows()


def _shape(node: Any) -> str:
    if isinstance(node, (Datasets, Groups, Level)):
        return "levels"
    return "systems" if isinstance(node, Systems) else "pair"


# --------------------------------------------------------------------------- running


def run_app(make: Callable[[dict[str, str]], App]) -> int:
    """Run the browser ``make(keymap)`` builds (a broken keymap file is warned about, never fatal);
    the exit code: 2 when an input could not be read (the message printed to stderr), else 0. With
    ``$COREFREPORT_TUI_TIMINGS`` the app's timings are appended to that file."""
    import sys

    try:
        keymap = load_keymap()
    except Exception as err:  # a broken keymap file must not stop the browser
        print(f"corefreport: warning: {inert(f'keymap {keymap_path()} ignored: {err}')}", file=sys.stderr)
        keymap = {}
    app = make(keymap)
    app.run()
    if app.error:
        print(f"corefreport: error: {inert(str(app.error))}", file=sys.stderr)
        return 2
    if os.environ.get("COREFREPORT_TUI_TIMINGS"):
        with open(os.environ["COREFREPORT_TUI_TIMINGS"], "a", encoding="utf-8") as f:
            if getattr(app, "started_at", None) is not None:
                f.write(f"app started, unix time in ms\t{1000 * app.started_at:.1f}\n")
            for label, ms in app.timings:
                f.write(f"{label}\t{ms:.1f}\n")
    return 0


def run_browser(stages: Stages, shape: str, names: list[str], title: str = "response") -> int:
    """Run the browser on a study's ``stages`` (:func:`run_app`)."""
    return run_app(lambda keymap: CorefApp(stages=stages, shape=shape, names=names, keymap=keymap, freeze_gc=True,
                                           title=title))


__all__ = ["CorefApp", "run_app", "run_browser"]
