"""Errors shared by the readers and scoring: bad input names the file, the line and the problem;
bad settings name the option."""

from __future__ import annotations


class InputError(Exception):
    """Malformed or unreadable input. The CLI prints ``str(err)`` and exits with code 2."""

    def __init__(self, path: str, line: int | None, problem: str) -> None:
        self.path = path
        self.line = line
        self.problem = problem
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {problem}")


class SettingsError(ValueError):
    """Settings no evaluation can honour (an unknown metric, a weight out of range …). The CLI
    prints ``str(err)`` and exits with code 2."""
