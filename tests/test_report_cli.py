"""`corefreport report`: writes the format of the suffix, never overwrites without --force."""

from __future__ import annotations

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
