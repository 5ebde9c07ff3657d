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
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert any(c["type"] == "acyclic_siblings" for c in contracts)
    assert f"Contracts: {len(contracts)} kept, 0 broken." in res.stdout, res.stdout


def test_a_cycle_breaks_the_acyclic_contract(tmp_path):
    """The acyclic contract is not a formality: a module importing its importer (here the neutral
    table importing the table builders, inside a function) is reported."""
    import shutil

    exe = Path(sys.executable).with_name("lint-imports")
    if not exe.exists():
        pytest.skip("lint-imports (import-linter, in the test extras) is not installed")
    shutil.copytree(ROOT / "src" / "corefreport", tmp_path / "corefreport")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    table = tmp_path / "corefreport" / "present" / "table.py"
    table.write_text(table.read_text() + "\n\ndef _cycle():\n    from .tables import metrics_table  # noqa\n")
    res = subprocess.run([str(exe), "--config", str(tmp_path / "pyproject.toml")], capture_output=True, text=True,
                         cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert res.returncode != 0 and "No import cycles" in res.stdout and ".table" in res.stdout, res.stdout


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
