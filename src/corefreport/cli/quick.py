"""The terminal browser's first numbers, scored in a second process while the browser starts.

``corefreport tui`` shows the standard metrics first and the linguistically aware metrics and the
analyses when they are ready. Starting the browser (importing Textual, building the first screen)
and reading the corpora both take the interpreter for ~0.4–0.7 s; on a machine with a core to spare
a forked child reads the two files with the lean, spans-only reader and scores the standard metrics
while the parent starts the browser and reads the corpora again with every column for the analyses.
The child hands back the quick :class:`~corefreport.scoring.result.Evaluation` (without its corpora)
pickled through a pipe; its numbers are those of the in-process quick stage, since reading is
deterministic and the standard metrics see only the mentions' spans.

Anything that goes wrong in the child (an unreadable file, a killed process) yields ``None``: the
parent's own read then reports the problem, or scores the quick stage itself.
"""

from __future__ import annotations

import os
import threading
from dataclasses import replace
from typing import Optional

from ..scoring.settings import Settings


def spare_core() -> bool:
    """Whether a second process can run beside this one: :func:`os.fork` exists and the process may
    use two cores. (The load is not asked: the child's work — a lean read and the standard metrics —
    replaces the parent's own quick stage, so it costs little CPU even on a busy machine.)"""
    if not hasattr(os, "fork"):
        return False
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores >= 2


class QuickScores:
    """A forked child scoring the standard metrics of ``settings`` (``quick``, no analyses).

    Fork before any thread is started (before Textual is imported). :meth:`result` waits for the
    child and returns its Evaluation, or ``None`` if it failed; :meth:`cancel` kills it."""

    def __init__(self, key: str, response: str, settings: Settings, key_format=None, response_format=None) -> None:
        self._settings = settings
        self._lock = threading.Lock()
        self._done = False
        self._value = None
        rfd, wfd = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - the child (coverage does not follow it)
            os.close(rfd)
            try:
                data = self._score(key, response, settings, key_format, response_format)
                with os.fdopen(wfd, "wb") as out:
                    out.write(data)
            finally:
                os._exit(0)
        os.close(wfd)
        self._fd = rfd

    @staticmethod
    def _score(key, response, settings, key_format, response_format) -> bytes:  # pragma: no cover - child
        import gc
        import pickle

        from ..scoring.evaluate import evaluate
        from .run import _load, spans_only

        gc.disable()  # many small objects, no cycles, and the process ends right after
        try:
            columns = not spans_only(settings)
            kc = _load(key, key_format, key=True, columns=columns)
            rc = _load(response, response_format, columns=columns)
            ev = evaluate(kc, rc, settings)
        except BaseException:  # the parent's own read names the problem
            return b""
        ev = replace(ev, key_corpus=None, response_corpus=None)
        return pickle.dumps(ev, protocol=pickle.HIGHEST_PROTOCOL)

    def result(self):
        """The child's Evaluation (``None`` if it failed); waits for it once."""
        import pickle

        with self._lock:
            if not self._done:
                try:
                    with os.fdopen(self._fd, "rb") as inp:
                        data = inp.read()
                    os.waitpid(self.pid, 0)
                    self._value = pickle.loads(data) if data else None
                except Exception:
                    self._value = None
                self._done = True
            return self._value

    def cancel(self) -> None:
        """Stop the child if it still runs (quitting before the first numbers)."""
        if self._done:
            return
        try:
            os.kill(self.pid, 9)
        except OSError:
            pass


def start_quick(key: str, response: str, settings: Settings, key_format=None,
                response_format=None) -> Optional[QuickScores]:
    """Start the child when it pays: the run has slower metrics or analyses after the standard ones
    (else the parent's one run is as quick) and a core is spare."""
    from ..scoring.registry import STANDARD_METRICS

    quick = tuple(m for m in settings.metrics if m in STANDARD_METRICS)
    if not quick or (len(quick) == len(settings.metrics) and not settings.analyses) or not spare_core():
        return None
    if os.environ.get("COREFREPORT_NO_QUICK_CHILD"):  # for A/B timing (bench/tui.py --vs-env)
        return None
    try:
        return QuickScores(key, response, replace(settings, metrics=quick, analyses=()), key_format, response_format)
    except OSError:
        return None
