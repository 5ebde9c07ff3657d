"""Issue 17: ``corefreport score`` starts without typer, pydantic or any view library, and its fast
option parser (cli/fast.py) gives exactly what the typer command gives."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import corefreport.cli.commands as commands
import corefreport.cli.run as run
from corefreport.cli import example_paths
from corefreport.cli.fast import parse, try_score

ROOT = Path(__file__).resolve().parents[1]
KEY, RESPONSE = example_paths()
HEAVY = ("typer", "click", "pydantic", "rich", "textual", "weasyprint", "jinja2", "networkx", "scipy", "numpy")


def imported_by(*args: str) -> set[str]:
    """Top-level packages a real ``python -m corefreport ARGS`` imports (from -X importtime)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    res = subprocess.run([sys.executable, "-X", "importtime", "-m", "corefreport", *args], capture_output=True,
                         text=True, env=env)
    assert res.returncode == 0, res.stderr[-2000:]
    names = {line.rsplit("|", 1)[-1].strip() for line in res.stderr.splitlines() if line.startswith("import time:")}
    return {n.split(".")[0] for n in names}


@pytest.mark.parametrize("fmt", ["json", "csv", "markdown"])
def test_score_imports_no_typer_pydantic_or_view_library(fmt):
    """(The terminal table, -f table, still draws with rich: present/terminal.py.)"""
    loaded = imported_by("score", KEY, RESPONSE, "-f", fmt, "-q")
    assert "corefreport" in loaded
    assert not loaded & set(HEAVY), loaded & set(HEAVY)


def test_help_and_other_commands_still_go_through_typer():
    assert "typer" in imported_by("score", "-h")
    assert parse(["score", KEY, RESPONSE, "--bogus"]) is None
    assert parse(["compare", KEY, RESPONSE, RESPONSE]) is None
    assert parse(["score", KEY, RESPONSE, "-f", "yaml"]) is None  # typer says what is wrong
    assert parse(["score", KEY, RESPONSE, "-m"]) is None
    assert parse(["score", "a", "b", "c"]) is None


def captured(monkeypatch, module, argv: list[str], via_typer: bool) -> dict:
    """The keyword arguments ``run_score`` receives from one command line."""
    seen: dict = {}
    monkeypatch.setattr(module, "run_score", lambda *a, **k: seen.update(args=a, kwargs=k))
    if via_typer:
        res = CliRunner().invoke(commands.app, argv)
        assert res.exit_code == 0, res.output
    else:
        assert try_score(argv)
    names = ["key", "response", "fmt", "output", "force", "per_doc", "links", "key_format", "response_format",
             "example", "quiet", "jobs"]
    return {**dict(zip(names, seen["args"])), **seen["kwargs"]}


LINES = [
    ["score", KEY, RESPONSE],
    ["score", KEY, RESPONSE, "-f", "json", "-q"],
    ["score", KEY, RESPONSE, "--jobs", "2", "-j", "1"],
    ["score", "--format=csv", KEY, "--per-doc", RESPONSE],
    ["score", KEY, RESPONSE, "-m", "muc,bcub", "--metric", "lea", "--drop-singletons"],
    ["score", KEY, RESPONSE, "-m", "all", "-a", "arcs", "-a", "typed", "--keep-singletons"],
    ["score", KEY, RESPONSE, "--preset", "crac", "--match", "exact", "--strict-tokens"],
    ["score", "--example", "-o", "out.json", "--force", "--key-format", "conll2012",
     "--response-format=conll2012"],
]


@pytest.mark.parametrize("argv", LINES, ids=[" ".join(a[3:]) or "plain" for a in LINES])
def test_fast_parser_passes_what_typer_passes(monkeypatch, argv):
    slow = captured(monkeypatch, commands, argv, via_typer=True)
    fast = captured(monkeypatch, run, argv, via_typer=False)
    assert fast == slow


def test_fast_path_prints_what_the_typer_command_prints():
    for fmt in ("json", "csv", "table"):
        argv = ["score", KEY, RESPONSE, "-f", fmt, "-q", "--per-doc"]
        slow = CliRunner().invoke(commands.app, argv)
        assert slow.exit_code == 0
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert try_score(argv)
        assert buf.getvalue() == slow.stdout


def test_fast_path_errors_are_one_line_and_exit_2(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    res = subprocess.run([sys.executable, "-m", "corefreport", "score", str(tmp_path / "nope"), RESPONSE],
                         capture_output=True, text=True, env=env)
    assert res.returncode == 2
    assert res.stderr.startswith("corefreport: error: ") and res.stderr.count("\n") == 1
