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
import pickle
from typing import Any, Callable, Iterator

from .errors import InputError

PROTOCOL = pickle.HIGHEST_PROTOCOL


def idle_cores() -> int:
    """Cores no other process is running on now: the runnable tasks of ``/proc/loadavg`` (other
    than this one), else the 1-minute load average (which a series of runs keeps up long after
    they end). Whether a second process pays: ``score``'s pool, the report's WeasyPrint child."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    try:
        with open("/proc/loadavg", encoding="ascii") as f:
            busy = float(f.read().split()[3].split("/")[0]) - 1
    except (OSError, ValueError, IndexError):
        busy = os.getloadavg()[0]
    return max(0, min(cores, int(cores - busy + 0.5)))


class Child:
    """A forked process running ``work(send)``; :meth:`items` yields what it sends, :meth:`result`
    waits for what it returned."""

    def __init__(self, work: Callable[[Callable[[Any], None]], Any]) -> None:
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
