"""report -o x.pdf lays the PDF out in a child forked before scoring (WeasyPrint's import then runs
on another core): the bytes must be those of the in-process layout, and a child that is not used
must not outlive the report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("weasyprint")
if not hasattr(os, "fork"):
    pytest.skip("no os.fork on this system", allow_module_level=True)

from corefreport.report.pdf import PdfChild, pdf_child, render_pdf  # noqa: E402

HTML = ("<!DOCTYPE html><html><head><meta charset='utf-8'><title>t</title></head><body>"
        "<h1>Coreference</h1><p>MUC F1 64.82 — B³ 58.10 &amp; <b>CEAF-e</b> 51.00</p></body></html>")


def test_child_gives_the_bytes_of_the_in_process_layout() -> None:
    child = PdfChild()
    data = child.render(HTML)
    assert data.startswith(b"%PDF-")
    assert data == render_pdf(HTML)
    with pytest.raises(ChildProcessError):  # reaped
        os.waitpid(child.pid, os.WNOHANG)
    child.cancel()  # after render: nothing left to do, no error


def test_cancelled_child_is_killed_and_reaped() -> None:
    child = PdfChild()
    child.cancel()
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)
    assert child.render(HTML) == render_pdf(HTML)  # a used-up child: laid out in this process


def test_environment_forces_the_child_on_and_off(monkeypatch) -> None:
    monkeypatch.setenv("COREFREPORT_PDF_CHILD", "0")
    assert pdf_child() is None
    monkeypatch.setenv("COREFREPORT_PDF_CHILD", "1")
    child = pdf_child()
    assert isinstance(child, PdfChild)
    child.cancel()


def _report(tmp_path: Path, name: str, flag: str, *extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src"),
           "COREFREPORT_PDF_CHILD": flag}
    return subprocess.run([sys.executable, "-m", "corefreport", "report", "--example", "-o", str(tmp_path / name),
                           "-q", *extra], env=env, capture_output=True, text=True, timeout=600)


def test_cli_pdf_with_and_without_the_child_is_the_same_file(tmp_path) -> None:
    with_child = _report(tmp_path, "child.pdf", "1")
    alone = _report(tmp_path, "alone.pdf", "0")
    assert with_child.returncode == 0, with_child.stderr
    assert alone.returncode == 0, alone.stderr
    assert (tmp_path / "child.pdf").read_bytes() == (tmp_path / "alone.pdf").read_bytes()


def test_cli_error_with_the_child_started_still_exits_2_at_once(tmp_path) -> None:
    (tmp_path / "taken.pdf").write_bytes(b"keep me")
    res = _report(tmp_path, "x.pdf", "1", "--section", "nosuch")
    assert res.returncode == 2 and "unknown section" in res.stderr
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (d); part 000\nd 0 0 w - - - - - - * (1\n#end document\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src"), "COREFREPORT_PDF_CHILD": "1"}
    res = subprocess.run([sys.executable, "-m", "corefreport", "report", str(bad), str(bad), "-o",
                          str(tmp_path / "y.pdf"), "-q"], env=env, capture_output=True, text=True, timeout=60)
    assert res.returncode == 2, res.stderr
    assert "bad.conll" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "y.pdf").exists()


def test_unused_child_ends_when_collected() -> None:
    import gc

    child = PdfChild()
    pid = child.pid
    del child
    gc.collect()
    with pytest.raises(ChildProcessError):  # killed and reaped by the finalizer
        os.waitpid(pid, os.WNOHANG)
