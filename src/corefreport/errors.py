"""Errors for bad input: every one names the file, the line (or document and offset) and the problem."""

from __future__ import annotations


class InputError(Exception):
    """Malformed or unreadable input. The CLI prints ``str(err)`` and exits with code 2."""

    def __init__(self, path: str, line: int | None, problem: str) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {problem}")
