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
import corefreport.cli.score as run
import corefreport.cli.tui as tui
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


@pytest.mark.parametrize("fmt", ["json", "csv", "markdown", "table"])
def test_score_imports_no_typer_pydantic_or_view_library(fmt):
    """In a pipe the terminal table too is drawn without Rich (present/plain.py)."""
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
    slow = captured(monkeypatch, run, argv, via_typer=True)
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


TUI_LINES = [
    ["tui", KEY, RESPONSE],
    ["tui", KEY, RESPONSE, "-m", "muc,bcub", "-a", "arcs", "--drop-singletons"],
    ["tui", "--example", "--preset", "crac", "--match=exact", "--key-format", "conll2012"],
]


@pytest.mark.parametrize("argv", TUI_LINES, ids=[" ".join(a[3:]) or "plain" for a in TUI_LINES])
def test_fast_tui_passes_what_typer_passes(monkeypatch, argv):
    """``tui`` without typer: run_tui_command gets the arguments and Settings typer gives it."""
    from corefreport.cli.fast import try_tui

    seen: list = []
    monkeypatch.setattr(tui, "run_tui_command", lambda *a, **k: seen.append((a, k)) or 0)
    res = CliRunner().invoke(commands.app, argv)
    assert res.exit_code == 0, res.output
    with pytest.raises(SystemExit) as done:
        try_tui(argv)
    assert done.value.code == 0
    (slow_a, slow_k), (fast_a, fast_k) = seen
    assert fast_a == slow_a and fast_k.get("serve") is None and slow_k.get("serve") is None


def test_tui_options_the_fast_parser_does_not_know_go_to_typer():
    assert parse(["tui", KEY, RESPONSE, "--serve"], "tui") is None
    assert parse(["tui", KEY, RESPONSE, "--port", "9000"], "tui") is None
    assert parse(["tui", KEY, RESPONSE, "-f", "json"], "tui") is None  # score's options are not tui's
    assert parse(["tui", KEY, RESPONSE, "-h"], "tui") is None
    assert parse(["score", KEY, RESPONSE], "tui") is None


def test_tui_without_a_terminal_is_one_line_and_exit_2_on_the_fast_path():
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    res = subprocess.run([sys.executable, "-X", "importtime", "-m", "corefreport", "tui", KEY, RESPONSE],
                         capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    assert res.returncode == 2
    lines = [x for x in res.stderr.splitlines() if not x.startswith("import time:")]
    assert lines == ["corefreport: error: the terminal browser needs an interactive terminal (stdin and stdout "
                     "are not a TTY); for pipes and files use 'corefreport score' or 'corefreport report', for a "
                     "browser 'corefreport tui --serve'"]
    loaded = {x.rsplit("|", 1)[-1].strip().split(".")[0] for x in res.stderr.splitlines() if x.startswith("import time:")}
    assert not loaded & {"typer", "pydantic", "click"}


REPORT_LINES = [
    ["report", KEY, RESPONSE],
    ["report", KEY, RESPONSE, "-o", "x.html", "--force", "-q", "--title", "My run", "--name", "sys"],
    ["report", KEY, "-r", "a=" + RESPONSE, "--response", "b=" + RESPONSE, "-o", "x.tex", "--latex-layout",
     "single", "--label-prefix", "tab:x-", "--section", "overview", "--section=arcs"],
    ["report", "--example", "-m", "muc,bcub", "-a", "arcs", "--drop-singletons", "--figures", "figs",
     "--preset", "crac", "--match=exact", "--key-format", "conll2012", "--response-format", "conll2012"],
]


@pytest.mark.parametrize("argv", REPORT_LINES, ids=[" ".join(a[3:]) or "plain" for a in REPORT_LINES])
def test_fast_report_passes_what_typer_passes(monkeypatch, argv):
    """``report`` without typer: run_report gets the arguments and Settings typer gives it."""
    import corefreport.cli.report as reporting
    from corefreport.cli.fast import try_report

    seen: list = []
    monkeypatch.setattr(reporting, "run_report", lambda *a, **k: seen.append((a, k)))
    res = CliRunner().invoke(commands.app, argv)
    assert res.exit_code == 0, res.output
    assert try_report(argv)
    (slow_a, slow_k), (fast_a, fast_k) = seen
    names = ["key", "response", "responses", "output", "title", "name", "latex_layout", "figures", "label_prefix",
             "section", "key_format", "response_format", "force", "example", "quiet", "settings"]
    slow = {**dict(zip(names, slow_a)), **slow_k}
    fast = {**dict(zip(names, fast_a)), **fast_k}
    assert fast == slow
    assert slow["settings"].metrics  # the report's defaults: every metric unless -m says otherwise


def test_report_options_the_fast_parser_does_not_know_go_to_typer():
    assert parse(["report", KEY, RESPONSE, "--per-doc"], "report") is None  # score's option
    assert parse(["report", KEY, RESPONSE, "--scheme", "x.json"], "report") is None  # rarer scoring options
    assert parse(["report", KEY, RESPONSE, "-o"], "report") is None
    assert parse(["report", KEY, RESPONSE, "-h"], "report") is None
    assert parse(["score", KEY, RESPONSE, "--title", "x"]) is None  # report's option is not score's


def test_report_starts_without_typer(tmp_path):
    out = tmp_path / "r.html"
    loaded = imported_by("report", KEY, RESPONSE, "-o", str(out), "-q")
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert not loaded & {"typer", "click", "pydantic", "rich", "textual", "weasyprint"}, loaded


def test_one_blas_thread_unless_the_user_says_otherwise():
    from corefreport.cli import one_blas_thread

    env: dict = {}
    one_blas_thread(env)
    assert env == {"OPENBLAS_NUM_THREADS": "1"}
    env = {"OPENBLAS_NUM_THREADS": "8"}
    one_blas_thread(env)
    assert env == {"OPENBLAS_NUM_THREADS": "8"}
