"""`corefreport report`: writes the format of the suffix, never overwrites without --force."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from corefreport.cli import app


def test_report_command_writes_and_never_overwrites(tmp_path):
    out = tmp_path / "r.html"
    runner = CliRunner()
    res = runner.invoke(app, ["report", "--example", "-o", str(out), "-q"])
    assert res.exit_code == 0, res.output
    first = out.read_text()
    assert "Type-aware evaluation" in first
    res = runner.invoke(app, ["report", "--example", "-o", str(out), "-q", "--title", "Other"])
    assert res.exit_code == 2 and "--force" in res.output
    assert out.read_text() == first
    res = runner.invoke(app, ["report", "--example", "-o", str(out), "-q", "--title", "Other", "--force"])
    assert res.exit_code == 0 and "<h1>Other</h1>" in out.read_text()
    res = runner.invoke(app, ["report", "--example", "-o", str(tmp_path / "r.docx")])
    assert res.exit_code == 2 and ".pdf, .html or .tex" in res.output


def test_report_command_latex_and_sections(tmp_path):
    out = tmp_path / "t.tex"
    res = CliRunner().invoke(app, ["report", "--example", "-o", str(out), "-q", "--section", "metrics"])
    assert res.exit_code == 0, res.output
    tex = out.read_text()
    assert "% ---- Standard metrics ----" in tex and "ARCS" not in tex and tex.startswith("% Coreference evaluation")


def test_report_of_several_systems_names_the_system_in_each_warning(tmp_path):
    """Before: 'report -r ml=… -r rules=…' printed the two systems' warnings without saying whose."""
    import subprocess
    import sys

    from conftest import SHARED, shared_path

    key = str(shared_path("data", "gum", "derived", "conll2012", "gum.conll"))
    xr = SHARED / "data" / "xrenner" / "conll2012"
    env = {**__import__("os").environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src")}

    def warnings(*args: str) -> list[str]:
        p = subprocess.run([sys.executable, "-m", "corefreport", *args], env=env, capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        return [x for x in p.stderr.splitlines() if x.startswith("corefreport: warning: ")]

    own = {n: warnings("score", key, str(xr / f"{n}-gum.conll"), "-f", "json") for n in ("ml", "rules")}
    assert own["ml"] and own["rules"] and own["ml"] != own["rules"]
    got = warnings("report", key, "-r", f"ml={xr / 'ml-gum.conll'}", "-r", f"rules={xr / 'rules-gum.conll'}",
                   "-o", str(tmp_path / "r.html"), "--section", "metrics")
    prefixed = [w.replace("corefreport: warning: ", f"corefreport: warning: {n}: ", 1)
                for n in ("ml", "rules") for w in own[n]]
    assert got == prefixed
