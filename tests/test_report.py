"""Reports: the PDF's text carries the JSON's numbers, the HTML is well-formed and escaped, the
LaTeX equals a reviewed golden file, PDF bytes are reproducible, files are never overwritten."""

from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app, example_paths
from corefreport.io import load_corpus
from corefreport.io.conll2012 import read_conll2012
from corefreport.report.document import build, to_html, to_latex, write_report
from corefreport.scoring.evaluate import ALL_METRICS, Options, evaluate

GOLDEN = Path(__file__).parent / "data" / "example_report.tex"
VOID = {"meta", "br", "img", "hr", "link", "input"}


@lru_cache(maxsize=1)
def example():
    key, resp = example_paths()
    return evaluate(load_corpus(key), load_corpus(resp), Options(metrics=ALL_METRICS, analyses=("arcs", "typed")))


class Balance(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.tables = 0

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables += 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-3:])
        self.stack.pop()


def test_html_is_well_formed_and_has_every_section():
    html = to_html(build(example()))
    p = Balance()
    p.feed(html)
    assert p.stack == []
    assert p.tables >= 10
    for title in ("Corpus", "Standard metrics", "Linguistically aware metrics", "Application scenarios (ARCS)",
                  "Type-aware evaluation", "Per-document", "Methods"):
        assert title in html
    assert "<svg" in html and "Chen &amp; Ng 2013" in html


def test_mention_text_and_document_ids_are_escaped():
    text = "#begin document (a<b&c);\nd\t0\t0\t<x>\t(1)\nd\t0\t1\t&\t(1)\n#end document\n"
    ev = evaluate(read_conll2012("k", text), read_conll2012("r", text), Options(metrics=("muc", "bcub", "ceafe")))
    html = to_html(build(ev))
    assert "a&lt;b&amp;c" in html and "a<b&c" not in html
    assert r"a\textless{}b\&c" in to_latex(build(ev))


def test_pdf_text_matches_the_json_scores(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    ev = example()
    out = tmp_path / "r.pdf"
    write_report(ev, out)
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(str(out)).pages)
    text = " ".join(text.split())
    d = ev.as_dict()
    for name in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "lmuc", "lbcub", "lceafm", "lceafe"):
        m = d["metrics"][name]
        assert f"{100 * m['recall']:.2f} {100 * m['precision']:.2f} {100 * m['f1']:.2f}" in text, name
    assert f"{100 * d['metrics']['conll']['f1']:.2f}" in text
    micro = d["typed"]["micro"]
    assert f"micro {100 * micro['precision']:.2f} {100 * micro['recall']:.2f} {100 * micro['f1']:.2f}" in text
    imm = d["arcs"]["immediate"]["total"]
    assert f"total {imm['tp']} {imm['wl']} {imm['fn']} {imm['fp']}" in text
    assert ev.signature[:40] in text.replace(" ", "") or "Signature" in text


def test_pdf_bytes_are_reproducible(tmp_path):
    a, b = tmp_path / "a.pdf", tmp_path / "b.pdf"
    write_report(example(), a)
    write_report(example(), b)
    assert a.read_bytes() == b.read_bytes()


def test_latex_equals_the_golden_file():
    """tests/data/example_report.tex was reviewed by eye; regenerate it deliberately when the tables change."""
    assert to_latex(build(example())) == GOLDEN.read_text(encoding="utf-8")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_compiles(tmp_path):
    body = GOLDEN.read_text(encoding="utf-8")
    doc = "\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage[utf8]{inputenc}\\usepackage{booktabs}" \
          "\\begin{document}" + body + "\\end{document}"
    (tmp_path / "t.tex").write_text(doc)
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "t.tex"], cwd=tmp_path, check=True, capture_output=True)


def test_report_command_writes_and_never_overwrites(tmp_path):
    out = tmp_path / "r.html"
    runner = CliRunner()
    res = runner.invoke(app, ["report", "--example", "-o", str(out), "-q"])
    assert res.exit_code == 0, res.output
    assert "Type-aware evaluation" in out.read_text()
    res = runner.invoke(app, ["report", "--example", "-o", str(out), "-q"])
    assert res.exit_code == 2 and "--force" in res.output
    res = runner.invoke(app, ["report", "--example", "-o", str(tmp_path / "r.docx")])
    assert res.exit_code == 2 and ".pdf, .html or .tex" in res.output


def test_report_with_several_responses_compares_them(tmp_path):
    """-r NAME=FILE twice: a comparison section with the best F1 in bold in LaTeX, deltas and p-values."""
    from conftest import shared_path

    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    x = shared_path("data", "xrenner", "conll2012")
    out = tmp_path / "cmp.tex"
    res = CliRunner().invoke(app, ["report", str(key), "-r", f"rules={x / 'rules-gum.conll'}",
                                   "-r", f"ml={x / 'ml-gum.conll'}", "-o", str(out), "-q"])
    assert res.exit_code == 0, res.output
    tex = out.read_text()
    assert r"F1 rules & F1 ml & $\Delta$ ml & $p$ ml" in tex
    assert r"MUC & 60.41 & \textbf{64.83} & +4.41* &" in tex
