"""The layering holds: import-linter's contracts (pyproject.toml) are kept, and the scoring layer
loads no terminal, browser or document library (it must run on a cluster node without them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("textual", "rich", "weasyprint", "jinja2", "typer")


def test_import_contracts_are_kept():
    exe = Path(sys.executable).with_name("lint-imports")
    if not exe.exists():
        pytest.skip("lint-imports (import-linter, in the test extras) is not installed")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    res = subprocess.run([str(exe), "--config", str(ROOT / "pyproject.toml")], capture_output=True, text=True,
                         cwd=ROOT, env=env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "0 broken" in res.stdout and "4 kept" in res.stdout


def loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return set(out.stdout.split())


def test_scoring_loads_no_view_library():
    """Reading and scoring the example in-process (every metric and analysis) imports none of them."""
    loaded = loaded_after(
        "from importlib import resources; import corefreport.io as I; "
        "from corefreport.scoring.evaluate import evaluate; from corefreport.scoring.settings import Settings; "
        "from corefreport.scoring.registry import ALL_METRICS; "
        "base = resources.files('corefreport') / 'data' / 'example'; "
        "evaluate(I.load_corpus(str(base / 'gum_key.conll')), I.load_corpus(str(base / 'xrenner_response.conll')), "
        "Settings(metrics=ALL_METRICS, analyses=('arcs', 'typed')))")
    assert "corefreport" in loaded and not loaded & set(HEAVY), loaded & set(HEAVY)


def test_import_scoring_alone_is_light():
    loaded = loaded_after("import corefreport.scoring")
    assert not loaded & set(HEAVY + ("numpy", "scipy", "networkx"))


def test_the_terminal_view_of_a_score_loads_no_numpy():
    """numpy (~90 ms to import) is for comparisons and large CEAF components, not for printing a score."""
    loaded = loaded_after("import corefreport.cli, corefreport.present.terminal, corefreport.present.render, "
                          "corefreport.present.output")
    assert "numpy" not in loaded and "textual" not in loaded and "weasyprint" not in loaded


def test_the_command_line_runs_without_click_installed():
    """`pip install .` brings typer (which vendors click) but not click itself: the entry point
    must not import click (the test extras pull click in, so only this test notices)."""
    code = ("import sys; sys.modules['click'] = None; sys.modules['click.utils'] = None; "
            "sys.argv = ['corefreport', 'score', '--example', '-f', 'json', '-q']; "
            "from corefreport.cli import main; main()")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr
    assert '"documents": 3' in res.stdout
