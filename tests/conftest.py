"""Shared fixtures: the read-only ../shared folder (skip cleanly when it is absent)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test when ../shared (or the file) is missing."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"{p} not available (../shared is absent)")
    return p


def load_vectors(name: str) -> list:
    p = SHARED / "spec" / "vectors" / name
    if not p.exists():
        return []
    return json.loads(p.read_text(encoding="utf-8"))


@contextlib.asynccontextmanager
async def browsing(app, size: tuple[int, int] = (80, 24), *keys: str):
    """The TUI tests' Pilot: ``app`` running headless at ``size``, with ``keys`` pressed one by
    one, each followed by a pause for the screen to settle."""
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        yield pilot
