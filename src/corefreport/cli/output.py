"""What every command does around its study: the format enums, the bundled example, writing an
output (stdout or a file, atomically, never over a file without ``--force``), warnings on stderr,
and what a run says while it works (a progress bar for ``score``, a status line for ``report``).
Nothing here imports typer, rich or a view library at import time."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Optional

from ..study.plan import FORMATS
from ..study.run import Watch
from .build import fail


class OutFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"
    latex = "latex"


InFormat = Enum("InFormat", {f: f for f in FORMATS}, type=str)
"""The input formats (``--key-format``, ``--response-format``): the readers'."""


def fmt_value(fmt) -> str | None:
    """The format's name (an :data:`InFormat` or a string), ``None`` for none."""
    return None if fmt is None else getattr(fmt, "value", fmt)


def example_paths() -> tuple[str, str]:
    """The bundled example: GUM gold (3 documents) and the xrenner ml/gum response for them."""
    from importlib import resources  # ~10 ms of imports: only for the example

    base = resources.files("corefreport") / "data" / "example"
    return str(base / "gum_key.conll"), str(base / "xrenner_response.conll")


def write_output(text: str, output: Optional[Path], force: bool) -> None:
    """``text`` to stdout, or to ``output`` (:func:`~corefreport.present.output.write_atomic`: a file
    atomically and never over an existing one without --force, a symlink through to its target, a
    device, FIFO or /dev/stdout in place). Every failure is one error line, exit 2."""
    from ..present.output import write_atomic

    if output is None:
        sys.stdout.write(on_terminal(text, sys.stdout))
        return
    try:
        write_atomic(output, text, force)
    except FileExistsError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write {output}: {err.strerror or err}")
    wrote(output)


def emit(out, output: Optional[Path], force: bool) -> None:
    """A :class:`~corefreport.present.study.Output` to stdout (as it comes) or to ``output``."""
    if output is not None:
        write_output(out.text(), output, force)
    elif out.chunks is None:
        out.show()
    else:
        for chunk in out.chunks:
            sys.stdout.write(on_terminal(chunk, sys.stdout))


def wrote(output) -> None:
    """``wrote OUTPUT`` on stderr, the name made inert."""
    from ..present.inert import inert

    sys.stderr.write(f"wrote {inert(str(output))}\n")


def on_terminal(text: str, stream) -> str:
    """``text`` as written to ``stream``: made inert, line breaks kept, when the stream is a terminal
    (CSV keeps a document id's exact characters in a file or a pipe, but a terminal would act on
    its escape sequences); as it is otherwise. The table, Markdown, LaTeX and JSON are inert by
    themselves."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError, OSError):
        tty = False
    if not tty:
        return text
    from ..present.inert import terminal_text

    return terminal_text(text)


def refuse_existing(path: Optional[Path], force: bool) -> None:
    """Stop before any work when ``path`` cannot be written as asked: an existing file (or a
    symlink's existing target) without --force, a folder, a missing folder. A device, a FIFO or
    /dev/stdout needs no --force: writing to it replaces no file."""
    if path is None:
        return
    from ..present.output import output_target

    try:
        output_target(path, force)
    except FileExistsError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write {path}: {err.strerror or err}")


def warn(warnings: list[str], quiet: bool, prefix: str = "") -> None:
    """Each warning as one ``corefreport: warning:`` line on stderr, made inert (document ids, file
    and system names in it are shown with their control characters escaped). Under ``quiet`` only
    the verdict on a near-0 score (:mod:`corefreport.scoring.verdict`): it is the result."""
    from ..scoring.verdict import PREFIX

    shown = [w for w in warnings if not quiet or w.startswith(PREFIX)]
    if shown:
        from ..present.inert import inert

        for w in shown:
            sys.stderr.write(f"corefreport: warning: {inert(prefix + w)}\n")


def check_jobs(jobs: Optional[int]) -> None:
    """64 processes is more than any machine this runs on scores faster with (the pool forks N - 1
    children whatever the corpus size); a larger N, such as a stray 10**20, once forked until the
    file descriptors ran out. The bound is fixed, not the CPU count, so a command line behaves the
    same on every machine."""
    if jobs is not None and not 1 <= jobs <= 64:
        fail(f"--jobs takes a number from 1 to 64, got {jobs}")


PROGRESS_AFTER = 1.0
"""Seconds of scoring after which a progress bar appears (on a terminal)."""


class ProgressBar(Watch):
    """A Rich progress bar of the documents scored on stderr, started only once the run has taken
    :data:`PROGRESS_AFTER` seconds, so that a short run never imports Rich; :meth:`close` removes it."""

    def __init__(self) -> None:
        import time

        self._clock = time.monotonic
        self._start = self._clock()
        self._bar = None
        self._task = None

    def documents(self, phase: str, done: int, total: int) -> None:
        if self._bar is None:
            if self._clock() - self._start < PROGRESS_AFTER:
                return
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task("scoring documents", total=total or None)
        self._bar.update(self._task, completed=done)
        if total and done >= total:
            self.close()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def progress_bar(quiet: bool) -> ProgressBar | None:
    """A progress bar on stderr when it is a terminal and not ``-q`` (:class:`ProgressBar`), else ``None``."""
    return ProgressBar() if not quiet and sys.stderr.isatty() else None


class StatusLine(Watch):
    """A Rich status line on stderr while a report is made (its messages name systems and files:
    each is shown as inert text, never as Rich markup); the steps' messages go to it."""

    def __init__(self, status) -> None:
        self._status = status

    def stage(self, message: str) -> None:
        if self._status is not None:
            from rich.text import Text

            from ..present.inert import inert

            self._status.update(Text(inert(message)))

    update = stage


class status_line:
    """``with status_line(quiet) as watch``: a :class:`StatusLine` (only on a terminal, not with ``-q``)."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self._cm = None

    def __enter__(self) -> StatusLine:
        if self.quiet or not sys.stderr.isatty():
            return StatusLine(None)
        from rich.console import Console

        self._cm = Console(stderr=True).status("reading the corpora…")
        return StatusLine(self._cm.__enter__())

    def __exit__(self, *exc) -> None:
        if self._cm is not None:
            self._cm.__exit__(*exc)
