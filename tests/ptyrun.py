"""The tests' one pseudo-terminal runner: a real process on a pty, its output read as a terminal
shows it, an answer typed once a prompt appears, never left hanging (POSIX only: callers skip
where ``os.fork`` is missing)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Terminal:
    """What a run on a pty gave: its exit code, every byte it wrote, and whether the answer was typed."""

    code: int
    out: bytes
    answered: bool


def run_on_pty(argv: list[str], env: dict[str, str], seconds: float,
               answer: tuple[bytes, bytes] | None = None) -> Terminal:
    """``argv`` (``argv[0]`` a path) run on a pseudo-terminal with ``env`` added to the environment,
    read until it closes the terminal or ``seconds`` pass; with ``answer = (seen, keys)``, ``keys``
    typed once, half a second after ``seen`` first shows. The process then has 10 seconds to end,
    or is killed (and its exit code is the kill's, so the caller's check fails)."""
    import pty
    import select

    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.environ.update(env)
        os.execv(argv[0], argv)
    out, answered, start = b"", False, time.monotonic()
    while time.monotonic() - start < seconds:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            out += data
        if answer is not None and not answered and answer[0] in out:
            time.sleep(0.5)
            os.write(fd, answer[1])
            answered = True
    for _ in range(100):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:  # never left hanging: killed, and the test fails
        os.kill(pid, 9)
        _, status = os.waitpid(pid, 0)
    os.close(fd)
    return Terminal(os.waitstatus_to_exitcode(status), out, answered)
