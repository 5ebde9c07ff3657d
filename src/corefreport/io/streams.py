"""Inputs that can be read only once: standard input (``-``), a pipe, a FIFO, process substitution
(``<(zcat key.gz)``, a ``/dev/fd/N`` pipe) or a device.

The readers stream a regular file a document at a time and come back to a document by seeking to
it; such an input cannot be seeked or opened twice, so it is read whole, once, and its bytes are
kept for the rest of the run (a second reader of the same input gets the same bytes, not an empty
pipe).

A named FIFO that no program has opened for writing is waited for at most :data:`FIFO_WAIT`
seconds, then refused naming it (an ``open()`` of it would wait for ever, as ``cat`` does); a FIFO
or pipe whose writer is there (``<(zcat key.gz)``, a slow system) is read to its end however long
the writer takes.
"""

from __future__ import annotations

import os
import stat
import sys
import time

from ..errors import InputError

STDIN = "-"
"""The name that stands for standard input, for KEY or RESPONSE."""

STDIN_NAME = "<stdin>"
"""How standard input is named in messages (``<stdin>:12: problem``)."""

FIFO_WAIT = 10
"""Seconds a FIFO is waited for a writer (as ``--datasets`` waits for a FIFO manifest)."""

_READ: dict[object, bytes] = {}
"""The bytes of every once-only input read so far, by :func:`_identity`."""


def _identity(path: str) -> object:
    """What tells one once-only input from another: standard input's stream object (a test
    harness swaps it), else the path with its device and inode (a FIFO made again is new)."""
    if path == STDIN:
        return getattr(sys.stdin, "buffer", sys.stdin)
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return path
    return (path, st.st_dev, st.st_ino)


def is_stream(path: str) -> bool:
    """Whether ``path`` is ``-`` or names something that is neither a regular file nor a folder
    (a pipe, a FIFO, a socket, a device): an input to read whole, once, without seeking."""
    if path == STDIN:
        return True
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def display_name(path: str) -> str:
    """The name of an input in messages: ``<stdin>`` for ``-``, else the path as given."""
    return STDIN_NAME if path == STDIN else path


def read_stream(path: str) -> bytes:
    """All the bytes of a once-only input, read on the first call and remembered after it."""
    ident = _identity(path)
    data = _READ.get(ident)
    if data is None:
        try:
            if path == STDIN:
                data = sys.stdin.buffer.read()
            elif stat.S_ISFIFO(os.stat(path).st_mode):
                data = _read_fifo(path)
            else:
                with open(path, "rb") as f:
                    data = f.read()
        except (OSError, AttributeError, ValueError) as err:
            raise InputError(display_name(path), None, f"cannot read: {getattr(err, 'strerror', None) or err}") from None
        _READ[ident] = data
    return data


def _read_fifo(path: str) -> bytes:
    """All the bytes of a FIFO (or pipe) once a writer has it open, waiting at most :data:`FIFO_WAIT`
    seconds for one. Opened without blocking, a FIFO reads as ``EAGAIN`` while a writer holds it with nothing
    written yet, and as end of file while there is none: only the second is waited out."""
    wait = FIFO_WAIT
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                first = os.read(fd, 1 << 16)
            except BlockingIOError:  # a writer is there, its bytes are not: wait for them
                first = b""
                break
            if first:
                break
            if time.monotonic() >= deadline:
                raise InputError(path, None, f"a FIFO that no program opened for writing in {wait:g} s: start "
                                 "the program that writes it first, or give a file")
            time.sleep(0.05)
        os.set_blocking(fd, True)
        chunks = [first]
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
