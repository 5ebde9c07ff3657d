"""The linear sum assignment corefud-scorer calls, ``scipy.optimize.linear_sum_assignment``: in
this process, or answered by a helper process that loads it on an idle core while corefreport starts.

corefud-scorer decides which of several equally good mention matchings wins by that solver
(docs/matching.md rule 9), so corefreport calls the same compiled code on the same matrix. Loading
it means importing numpy (60–90 ms); a ``score`` run under head or partial matching that meets such
a tie paid it in every process of its pool, on the path to the result. :func:`start_helper` (called by
the command line as it starts, when a core is idle) forks a process that loads the solver on that
core while this one starts, and then answers every process of the run — the pool's too — over a
private socket; :func:`assign` asks it, and solves in its own process when there is no helper or
the helper fails. Either way the answer is the same function's on the same numbers.

The protocol: the helper holds one end of a ``SOCK_SEQPACKET`` socket pair made before it was
forked; a process of the run, at its first question, makes its own stream socket pair and sends
the helper one end (``SCM_RIGHTS``, as ``socket.send_fds`` sends it), so that each process has its
own connection. A question is the matrix's shape (two unsigned 32-bit integers) and its cells
(row after row, 64-bit floats); the answer is the number *n* of assigned pairs (a signed 32-bit
integer, −1: the helper could not solve it), then *n* row and *n* column indices (32-bit
integers). The helper ends when every process of the run has closed its sockets (exited).

Standard library only at import: numpy is imported where the solver runs.
"""

from __future__ import annotations

import os
import struct

TYPE_CHECKING = False  # typing, socket.py, array (15 ms): imported where they are used, not before the fork
if TYPE_CHECKING:
    import _socket
    from typing import Callable

_SHAPE = struct.Struct("<II")
_COUNT = struct.Struct("<i")
WAIT = 30.0
"""Seconds a process waits for the helper's answer before solving on its own (the helper loads
numpy once, which a cold disk on a cluster node can make take seconds; then each answer takes
microseconds): a safety net for a helper stopped or stuck, never reached in a normal run."""

_solver: Callable | None = None
_helper: "_Helper | None" = None


def load() -> Callable:
    """``scipy.optimize.linear_sum_assignment``. Importing ``scipy.optimize`` costs about half a
    second (it loads all of scipy's optimisers); the solver is one compiled module,
    ``scipy/optimize/_lsap``, loaded here on its own when it is there (the same code; only the
    package's other modules — and scipy's own ``__init__`` — are not imported; numpy is, by the
    module); else the public import."""
    global _solver
    if _solver is not None:
        return _solver
    import sys

    loaded = sys.modules.get("scipy.optimize")
    if loaded is not None:
        _solver = loaded.linear_sum_assignment
        return _solver
    try:
        import importlib.machinery
        import importlib.util

        found = importlib.util.find_spec("scipy")  # where scipy is, without running its __init__
        base = os.path.join(os.path.dirname(found.origin), "optimize")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(base, "_lsap" + suffix)
            if os.path.exists(path):
                spec = importlib.util.spec_from_file_location("scipy.optimize._lsap", path)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                _solver = module.linear_sum_assignment
                break
    except Exception:  # any layout change: the public import below
        _solver = None
    if _solver is None:
        from scipy.optimize import linear_sum_assignment

        _solver = linear_sum_assignment
    return _solver


def assign(sim: list[list[float]]) -> list[tuple[int, int]]:
    """The (row, column) pairs of ``linear_sum_assignment(-sim)``: an assignment of rows to
    columns, one to one, of the largest total Σ sim[r][c], and among several such the one scipy's
    solver returns (rows in increasing order) — from the helper when this run has one, else solved
    here.

    >>> assign([[1.0, 0.5], [1.0, 0.0]])
    [(0, 1), (1, 0)]
    """
    if not sim or not sim[0]:
        return []
    helper = _helper
    if helper is not None:
        pairs = helper.ask(sim)
        if pairs is not None:
            return pairs
    import numpy as np

    rows, cols = load()(-np.array(sim, dtype=float))
    return list(zip(rows.tolist(), cols.tolist()))


class _Helper:
    """This run's side of the helper: the socket it registers on, and this process's connection."""

    def __init__(self, pid: int, door: int) -> None:
        import _thread

        self.lock = _thread.allocate_lock()  # one question at a time per connection (the TUI scores in threads)
        os.register_at_fork(after_in_child=lambda: setattr(self, "lock", _thread.allocate_lock()))
        self.pid = pid
        self.door = door  # the file descriptor of this run's end of the socket pair
        self.owner = -1  # the process whose connection ``conn`` is (a forked child makes its own)
        self.conn: _socket.socket | None = None
        self.answered = 0  # questions this process had answered

    def _connection(self) -> _socket.socket | None:
        me = os.getpid()
        if self.owner != me:
            import _socket  # what socket.send_fds does, without socket.py's import (3 ms, in every process)
            from array import array

            self.owner, self.conn, self.answered = me, None, 0
            try:
                mine, theirs = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_STREAM)
            except OSError:
                return None
            door = None
            try:
                door = _socket.socket(fileno=self.door)
                fds = array("i", [theirs.fileno()])
                door.sendmsg([b"+"], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, fds)])
            except OSError:
                mine.close()
                return None
            finally:
                theirs.close()
                if door is not None:
                    door.detach()  # the descriptor stays open for the other processes of the run
            mine.settimeout(WAIT)
            self.conn = mine
        return self.conn

    def ask(self, sim: list[list[float]]) -> list[tuple[int, int]] | None:
        """The helper's answer, or ``None`` (no helper for this process any more: it failed)."""
        with self.lock:
            return self._ask(sim)

    def _ask(self, sim: list[list[float]]) -> list[tuple[int, int]] | None:
        conn = self._connection()
        if conn is None:
            return None
        from array import array
        from itertools import chain

        rows, cols = len(sim), len(sim[0])
        try:
            cells = array("d", chain.from_iterable(sim))
            if len(cells) != rows * cols:
                return None  # a ragged matrix: the local solver says what is wrong with it
            conn.sendall(_SHAPE.pack(rows, cols) + cells.tobytes())
            (n,) = _COUNT.unpack(_receive(conn, _COUNT.size))
            if n < 0:
                return None  # the helper could not solve it: the local solver says why
            idx = array("i")
            idx.frombytes(_receive(conn, 2 * n * idx.itemsize))
        except (OSError, EOFError, struct.error, ValueError, TypeError):
            self.conn = None  # this process stops asking; the others keep their connections
            conn.close()
            return None
        self.answered += 1
        return list(zip(idx[:n].tolist(), idx[n:].tolist()))


def _receive(conn: _socket.socket, size: int) -> bytes:
    """Exactly ``size`` bytes from ``conn``; :class:`EOFError` if it closes before."""
    parts, got = [], 0
    while got < size:
        part = conn.recv(size - got)
        if not part:
            raise EOFError
        parts.append(part)
        got += len(part)
    return b"".join(parts)


def helper_pid() -> int | None:
    """The helper's process id when this run started one."""
    return _helper.pid if _helper is not None else None


def answered() -> int:
    """How many questions the helper answered for this process (0 without a helper)."""
    helper = _helper
    return helper.answered if helper is not None and helper.owner == os.getpid() else 0


def start_helper() -> bool:
    """Fork the helper (see the module docstring); ``False`` when this system cannot pass sockets
    between processes or one was started already. The helper runs with standard input and output
    on ``/dev/null`` and every other file of this process closed (a pipe reading corefreport's
    output ends when corefreport does), and ignores Ctrl-C (it ends when the run's processes do). It
    keeps this process's priority: a lower one cannot be raised again, and a process waiting for
    its answer on a machine that got busy would wait for the helper's share of the cores (measured
    here: ``nice`` 19 or the idle scheduling class did not make the helper cost the run less)."""
    global _helper
    if _helper is not None or not hasattr(os, "fork"):
        return False
    try:  # the C module: socket.py's own import would delay the fork by 8 ms
        import _socket

        pair = _socket.socketpair(_socket.AF_UNIX, _socket.SOCK_SEQPACKET)
        door, back = (s.detach() for s in pair)
    except (ImportError, OSError, AttributeError):
        return False
    try:
        pid = os.fork()
    except OSError:  # no process to spare (a limit on processes): the run solves on its own
        os.close(door)
        os.close(back)
        return False
    if pid == 0:  # pragma: no cover - the helper (coverage does not follow it)
        try:
            os.close(door)
            _detach(back)
            solve = load()
            _serve(back, solve)
        finally:
            os._exit(0)
    os.close(back)
    _helper = _Helper(pid, door)
    from .forking import HELPERS

    HELPERS.append(pid)
    return True


def stop_helper() -> None:
    """Close this process's sockets to the helper (it ends once every process of the run has);
    later questions are solved here."""
    global _helper
    helper, _helper = _helper, None
    if helper is None:
        return
    from .forking import HELPERS

    if helper.pid in HELPERS:
        HELPERS.remove(helper.pid)
    if helper.conn is not None:
        helper.conn.close()
    os.close(helper.door)


def _detach(keep: int) -> None:  # pragma: no cover - runs in the helper
    """In the helper: Ctrl-C ignored, standard input and output on ``/dev/null``, every other
    descriptor but ``keep`` (its end of the door) closed."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(3, keep)
    os.closerange(keep + 1, 1 << 16)


def _serve(back: int, solve: Callable) -> None:  # pragma: no cover - runs in the helper
    """Answer questions until the door (descriptor ``back``) and every connection are closed."""
    import selectors
    import socket
    from array import array

    import numpy as np

    door = socket.socket(fileno=back)

    sel = selectors.DefaultSelector()
    sel.register(door, selectors.EVENT_READ, None)
    open_door, clients = True, 0
    while open_door or clients:
        for key, _ in sel.select():
            if key.data is None:
                try:
                    msg, fds, _, _ = socket.recv_fds(door, 16, 8)
                except OSError:
                    msg, fds = b"", []
                if not msg:
                    sel.unregister(door)
                    open_door = False
                for fd in fds:
                    conn = socket.socket(fileno=fd)
                    conn.setblocking(True)
                    sel.register(conn, selectors.EVENT_READ, "client")
                    clients += 1
                continue
            conn = key.fileobj
            try:
                rows, cols = _SHAPE.unpack(_receive(conn, _SHAPE.size))
                cells = _receive(conn, rows * cols * 8)
            except (OSError, EOFError):
                sel.unregister(conn)
                conn.close()
                clients -= 1
                continue
            try:
                r, c = solve(-np.frombuffer(cells, dtype=np.float64).reshape(rows, cols))
                answer = (_COUNT.pack(len(r)) + array("i", r.tolist()).tobytes()
                          + array("i", c.tolist()).tobytes())
            except Exception:
                answer = _COUNT.pack(-1)
            try:
                conn.sendall(answer)
            except OSError:
                sel.unregister(conn)
                conn.close()
                clients -= 1
