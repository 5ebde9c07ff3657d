"""Work done in a forked child process, what it sends sent back pickled through a pipe.

Used by the pool of :mod:`corefreport.scoring.evaluate` (each process scores its share of the
documents and sends their parts back as it makes them); :func:`idle_cores` says when a second
process pays. The child runs ``work(send)``: each ``send(item)`` goes to the parent as
it is made (:meth:`Child.items`), then what ``work`` returns (:meth:`Child.result`). The child's
:class:`~corefreport.errors.InputError` comes back as that error; a child that dies without
answering gives ``None`` (the caller then does the work itself). Standard library only, so that
any layer may use it.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterator

from .errors import InputError

PROTOCOL = 5
"""pickle's protocol for what children send (pickle is imported when a child is made: the command
line reads :func:`idle_cores` from here before it imports anything else)."""


def can_fork() -> bool:
    """Whether this system forks (not Windows); a refused fork is an :class:`OSError` of :class:`Child`."""
    return hasattr(os, "fork")


def idle_cores(loadavg: str = "/proc/loadavg") -> int:
    """Cores no other process is running on now: the runnable tasks of ``/proc/loadavg`` other
    than this one, else the 1-minute load average, else none (where neither can be read, as on
    Windows: one process is always right). Whether a second process pays: ``score``'s pool, the
    report's WeasyPrint child."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        with open(loadavg, encoding="ascii") as f:
            busy = float(f.read().split()[3].split("/")[0]) - 1
    except (OSError, ValueError, IndexError):
        try:
            busy = os.getloadavg()[0]
        except (OSError, AttributeError):
            return 0
    return max(0, min(cores, int(cores - busy + 0.5)))


class Child:
    """A forked process running ``work(send)``; :meth:`items` yields what it sends, then :attr:`value`
    holds what it returned."""

    def __init__(self, work: Callable[[Callable[[Any], None]], Any]) -> None:
        import pickle

        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child (coverage does not follow it)
            os.close(rfd)
            try:
                out = os.fdopen(wfd, "wb")
                try:
                    def send(item) -> None:  # flushed: the parent may be waiting for this very item
                        pickle.dump(("item", item), out, PROTOCOL)
                        out.flush()

                    payload: tuple = ("ok", work(send))
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
        self.died = False
        """Whether the child ended without answering (killed, or a failure other than an input error)."""

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
                    self.died = True
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
