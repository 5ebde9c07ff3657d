"""Work done in a forked child process, its result sent back pickled through a pipe.

Used by ``score`` to read the response while the key is read (``cli/run.py``) and by the pool of
``scoring/streaming.py``. The child's :class:`~corefreport.errors.InputError` comes back as that
error; a child that dies without answering gives ``None`` (the caller then does the work itself).
Standard library only, so that any layer may use it.
"""

from __future__ import annotations

import os
import pickle
from typing import Any, Callable

from .errors import InputError


class Child:
    """A forked process running ``work()``; :meth:`result` waits for what it returned."""

    def __init__(self, work: Callable[[], Any]) -> None:
        rfd, wfd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child (coverage does not follow it)
            os.close(rfd)
            try:
                try:
                    payload: tuple = ("ok", work())
                except InputError as err:
                    payload = ("error", (err.path, err.line, err.problem))
                data = pickle.dumps(payload, protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(wfd, "wb") as out:
                    out.write(data)
            finally:
                os._exit(0)
        os.close(wfd)
        self.pid = pid
        self._fd = rfd
        self._done = False

    def result(self) -> Any:
        """What ``work()`` returned (``None`` if the child died); its :class:`InputError` raised here."""
        with os.fdopen(self._fd, "rb") as inp:
            data = inp.read()
        os.waitpid(self.pid, 0)
        self._done = True
        if not data:
            return None
        kind, value = pickle.loads(data)
        if kind == "error":
            raise InputError(*value)
        return value

    def kill(self) -> None:
        """Stop the child (the parent failed and will not read its answer)."""
        if self._done:
            return
        self._done = True
        try:
            os.close(self._fd)
        except OSError:
            pass
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except OSError:
            pass
