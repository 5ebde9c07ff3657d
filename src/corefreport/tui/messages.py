"""What the app's worker tells the app, as Textual messages (handled by ``on_scored``,
``on_progress``, ``on_failed``): the worker runs the study's stages
(:func:`corefreport.study.run.stages`) and posts each node as it comes."""

from __future__ import annotations

from typing import Any

from textual.message import Message


class Scored(Message):
    """A node of the study (:mod:`corefreport.study.nodes`): the first numbers (``node.final``
    False), or more of them, or the complete result."""

    def __init__(self, node: Any) -> None:
        super().__init__()
        self.node = node


class Progress(Message):
    """``done`` of ``total`` in a ``phase`` ("scoring", "analyses", "scoring NAME", …)."""

    def __init__(self, phase: str, done: int, total: int) -> None:
        super().__init__()
        self.phase = phase
        self.done = done
        self.total = total


class Failed(Message):
    """The study stopped: an input or a setting no evaluation can honour (the message says which)."""

    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class Cancelled(Exception):
    """The app quit while the worker was scoring: the worker stops at its next progress step."""
