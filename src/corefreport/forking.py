"""Work done in a forked child process, what it sends sent back pickled through a pipe.

Used by ``score`` to read the response while the key is read (``cli/run.py``) and by the pool of
``scoring/streaming.py``; :func:`idle_cores` says when a second process pays. The child runs ``work(send)``: each ``send(item)`` goes to the parent as
it is made (:meth:`Child.items`), then what ``work`` returns (:meth:`Child.result`). The child's
:class:`~corefreport.errors.InputError` comes back as that error; a child that dies without
answering gives ``None`` (the caller then does the work itself). Standard library only, so that
any layer may use it.
"""

from __future__ import annotations

import os
import time

from .errors import InputError

TYPE_CHECKING = False  # typing's own costs ~10 ms here, before the solver's helper can start
if TYPE_CHECKING:
    from typing import Any, Callable, Iterator

PROTOCOL = 5
"""pickle's protocol for what children send (pickle is imported when a child is made: the command
line reads :func:`idle_cores` from here before it imports anything else)."""


HELPERS: list[int] = []
"""Processes this run started to work beside it (the solver's helper, :mod:`corefreport.lsap`):
:func:`idle_cores` does not count them as busy — their work is the run's, and short."""


SAMPLES = 4
"""Readings of ``/proc/loadavg`` (1, 2 and 4 ms apart, while they find a core busy) of which
:func:`idle_cores` keeps the least busy: a kernel thread woken while every core is taken waits its
turn in the run queue, and one reading counts it as a busy core (``score`` with the solver's helper
saw that once in four runs, sometimes for 4 ms)."""


def idle_cores(loadavg: str = "/proc/loadavg") -> int:
    """Cores no other process is running on now: the runnable tasks of ``/proc/loadavg`` (other
    than this one and its :data:`HELPERS`; the least of :data:`SAMPLES` readings), else the
    1-minute load average (which a series of runs keeps up long after they end). Whether a
    second process pays: ``score``'s pool, the report's WeasyPrint child, the solver's helper."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        busy = float(cores)
        for attempt in range(SAMPLES):
            if attempt:
                time.sleep(0.001 * 2 ** (attempt - 1))
            with open(loadavg, encoding="ascii") as f:
                now = float(f.read().split()[3].split("/")[0]) - 1 - sum(map(running, HELPERS))
            busy = min(busy, now)
            if busy <= 0:
                break
    except (OSError, ValueError, IndexError):
        busy = os.getloadavg()[0]
    return max(0, min(cores, int(cores - busy + 0.5)))


def running(pid: int) -> bool:
    """Whether process ``pid`` is running or runnable now (state ``R`` in ``/proc/PID/stat``)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            return f.read().rpartition(")")[2].split()[0] == "R"
    except (OSError, IndexError):
        return False


class Child:
    """A forked process running ``work(send)``; :meth:`items` yields what it sends, :meth:`result`
    waits for what it returned."""

    def __init__(self, work: Callable[[Callable[[Any], None]], Any]) -> None:
        import pickle

        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child (coverage does not follow it)
            os.close(rfd)
            try:
                out = os.fdopen(wfd, "wb")
                try:
                    payload: tuple = ("ok", work(lambda item: pickle.dump(("item", item), out, PROTOCOL)))
                except InputError as err:
                    payload = ("error", (err.path, err.line, err.problem))
                pickle.dump(payload, out, PROTOCOL)
                out.flush()
            finally:
                os._exit(0)
        os.close(wfd)
        self.pid = pid
        self._inp = os.fdopen(rfd, "rb")
        self._done = False
        self.value: Any = None

    def items(self) -> Iterator[Any]:
        """What the child sends, as it comes; then :attr:`value` holds what ``work`` returned
        (``None`` if the child died). The child's :class:`InputError` is raised here."""
        import pickle

        try:
            while True:
                try:
                    kind, value = pickle.load(self._inp)
                except (EOFError, pickle.UnpicklingError):
                    self.value = None
                    return
                if kind == "item":
                    yield value
                    continue
                if kind == "error":
                    raise InputError(*value)
                self.value = value
                return
        finally:
            self._finish()

    def result(self) -> Any:
        """What ``work`` returned (``None`` if the child died); its :class:`InputError` raised here."""
        for _ in self.items():
            pass
        return self.value

    def _finish(self) -> None:
        if not self._done:
            self._done = True
            self._inp.close()
            os.waitpid(self.pid, 0)

    def kill(self) -> None:
        """Stop the child (the parent failed and will not read its answer)."""
        if self._done:
            return
        self._done = True
        try:
            self._inp.close()
        except OSError:
            pass
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
