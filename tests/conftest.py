"""Shared fixtures and helpers: the read-only ../shared folder (skip cleanly when it is absent),
the data scripts loaded as modules, the one check of a one-line CLI error, and the TUI tests' Pilot
helpers. Other homes beside it: ``independent_readers.py`` (the tests' own readers),
``printed_counts.py`` and ``reference_values.py`` (reference programs' printed numbers),
``ptyrun.py`` (a command on a pseudo-terminal), ``served.py`` (a server process)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the test when ../shared (or the file) is missing (called
    at a module's top level: skip the whole module, with the same visible reason)."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"{p} not available (../shared is absent)", allow_module_level=True)
    return p


def load_script(path: Path, name: str):
    """A script of tests/data (a fixture's builder or perturber) as a module named ``name``, loaded
    from its file (registered in ``sys.modules``: its dataclasses look their module up)."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@pytest.fixture(scope="session")
def corefud_gum_pairs(tmp_path_factory) -> Path:
    """The GUM CorefUD key and four responses corefud-scorer scored (``tests/data/corefud_gum``),
    built once per session from ../shared (skip when it is absent), checked byte for byte against
    the SHA-256 of the files corefud-scorer read."""
    if not (SHARED / "data" / "gum" / "dep").is_dir() or not (SHARED / "data" / "xrenner").is_dir():
        pytest.skip("needs ../shared GUM and xrenner data")
    here = ROOT / "tests" / "data" / "corefud_gum"
    build_pairs = load_script(here / "build_pairs.py", "corefud_gum_build_pairs")
    out = tmp_path_factory.mktemp("corefud_gum")
    digests = build_pairs.build(out)
    expected = json.loads((here / "expected.json").read_text(encoding="utf-8"))["sha256"]
    assert digests == expected, "the built files differ from the ones corefud-scorer scored"
    return out


@pytest.fixture(scope="session")
def gum_typed_xrenner() -> dict:
    """The ``typed`` part of ``score``'s JSON on GUM's gold WebAnno TSV against xrenner's typed TSV
    output, scheme gum (run once a session; skip when ../shared is absent)."""
    from typer.testing import CliRunner

    from corefreport.cli import app

    key = shared_path("data", "gum", "coref", "gum", "tsv")
    resp = shared_path("data", "xrenner", "ml", "gum")
    res = CliRunner().invoke(app, ["score", str(key), str(resp), "--response-format", "webanno", "-a", "typed",
                                   "--scheme", "gum", "-f", "json", "-q", "-m", "muc"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["typed"]


def load_vectors(name: str) -> list:
    """The test vectors of ``../shared/spec/vectors/NAME`` (``[]`` when absent: see :func:`or_skip`)."""
    p = SHARED / "spec" / "vectors" / name
    if not p.exists():
        return []
    return json.loads(p.read_text(encoding="utf-8"))


def or_skip(cases: list, name: str, args: int = 1) -> list:
    """``cases`` for ``pytest.mark.parametrize``, or, when they are missing (no ../shared), one
    case skipped with a reason naming the vector file, so that a fresh machine shows what it did
    not run instead of collecting nothing (pytest's 'got empty parameter set')."""
    if cases:
        return cases
    reason = f"../shared/spec/vectors/{name} is absent (../shared not beside the project): its cases are not run"
    return [pytest.param(*([None] * args), marks=pytest.mark.skip(reason=reason), id="absent")]


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


async def go_to(pilot, row: int | str) -> None:
    """Put the browser's cursor on ``row`` — its number, or the label in its first shown cell — as
    ↓ pressed that often would, without the wait; then a pause for the screen to settle."""
    app = pilot.app
    index = row if isinstance(row, int) else [r[0] for r in app.shown()].index(row)
    app.browser.table.move_cursor(row=index)
    await pilot.pause()


def table_row(table, row: int) -> list[str]:
    """Row ``row`` of a Textual ``DataTable`` (a TUI test's table), its cells as text."""
    return [str(c) for c in table.get_row_at(row)]


def one_error_line(res, alone: bool = False) -> str:
    """The one ``corefreport: error:`` line of a CLI run (typer's runner) that exited 2, without a
    traceback; with ``alone``, the run printed nothing else (no warning, no progress)."""
    assert res.exit_code == 2, (res.exit_code, res.output, repr(res.exception))
    assert "Traceback" not in res.output, res.output
    lines = [x for x in res.output.splitlines() if x.startswith("corefreport: error: ")]
    assert len(lines) == 1, res.output
    if alone:
        assert len(res.output.strip().splitlines()) == 1, res.output
    return lines[0]


def page_from_totals(ev, kind: str, page: str) -> tuple[list[str], list[list[str]]]:
    """The browser on ``ev`` at 100 × 30: the labels of the totals' rows that lead to a page of
    ``kind``, and what the first of them shows, opened with enter (its page named ``page``); escape
    goes back to the totals."""
    import asyncio

    from corefreport.tui.app import CorefApp

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (100, 30)) as pilot:
            b = app.browser
            items = b.page.build(ev, 100).items
            rows = [i for i, r in enumerate(items) if r.target and r.target[0] == kind]
            b.table.move_cursor(row=rows[0])
            await pilot.press("enter")
            await pilot.pause()
            assert b.page.name == page
            shown = app.shown()
            await pilot.press("escape")
            await pilot.pause()
            assert b.page.name == "totals"
            return [items[i].label for i in rows], shown

    return asyncio.run(drive())


def chain_spans(doc) -> list[list[tuple[int, int]]]:
    """A document's chains as sorted lists of their mentions' spans, sorted: its chains compared
    whatever the order a reader gave them in."""
    return sorted(sorted(m.span for m in c.mentions) for c in doc.chains)
