r"""The error-class section in the report's LaTeX (``report -o x.tex -a errors``): its examples in
their sentences, the error's mentions in bold and the explanation below (report/latex.py), LaTeX
specials in sentence text escaped, characters pdflatex cannot set replaced, and the standalone
``x-main.tex`` compiling without an overfull box in the ACL two-column layout and in one column."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from corefreport.io import load_corpus
from corefreport.io.conll2012 import read_conll2012
from corefreport.report.document import write_report
from corefreport.report.latex import error_examples_latex, marked_latex
from corefreport.report.model import build
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

DATA = Path(__file__).parent.parent.parent / "shared" / "data"
GUM = DATA / "gum" / "derived" / "conll2012" / "gum.conll"
ML = DATA / "xrenner" / "conll2012" / "ml-gum.conll"

SPECIALS = ["Tom", "&", "50%", "$5", "#1", "a_b", "{x}", "~y", "^z", "C:\\dir", "said", "it", "."]
"""A sentence of LaTeX's special characters (one token each, between a name and a pronoun)."""


def _doc(rows: list[tuple[str, str]]) -> str:
    lines = ["#begin document (d);"]
    lines += [f"d\t0\t{i}\t{w}\tNNP\t{c}" for i, (w, c) in enumerate(rows)]
    return "\n".join(lines + ["", "#end document", ""])


def _specials() -> tuple:
    """Key: "Tom" … "it" one entity, "a_b" … "{x}" another; the response joins "{x}" to Tom's
    entity and lacks "a_b" (errors whose sentence holds every special character)."""
    key = [(w, "-") for w in SPECIALS]
    key[0], key[11] = ("Tom", "(1)"), ("it", "(1)")
    key[5], key[6] = ("a_b", "(2)"), ("{x}", "(2)")
    resp = list(key)
    resp[6] = ("{x}", "(1)")
    resp[5] = ("a_b", "-")
    return (read_conll2012("key", _doc(key)), read_conll2012("resp", _doc(resp)))


def test_marked_mentions_are_bold_and_specials_escaped():
    assert marked_latex("«the 50% share» of «R&D»") == r"\textbf{the 50\% share} of \textbf{R\&D}"
    assert marked_latex("«a «b» c»") == r"\textbf{a \textbf{b} c}"  # a mention inside a mention
    assert marked_latex("ʃu «ok»") == r"?u \textbf{ok}"  # IPA: pdflatex's T1 fonts have no glyph
    long = marked_latex("see https://example.org/a/very/long/path/to/a/file_name_here.html")
    assert r"\allowbreak{}" in long and long.replace(r"\allowbreak{}", "").replace(r"\_", "_").endswith(
        "https://example.org/a/very/long/path/to/a/file_name_here.html")


def test_the_examples_are_in_the_tex_with_escaped_sentences():
    key, resp = _specials()
    ev = evaluate(key, resp, Settings(analyses=("errors",)))
    classes = sorted({r.cls for r in ev.errors.rows})
    assert classes == ["Conflated Entities", "Divided Entity"]  # "{x}" leaves its entity, which "a_b" alone keeps
    s = build(ev, sections=["errors"]).section("errors")
    tex = error_examples_latex(s)
    sentence = (r"Tom \& 50\% \$5 \#1 a\_b \textbf{\{x\}} \textasciitilde{}y \textasciicircum{}z "
                r"C:\textbackslash{}dir said it .")  # the error's mention in bold
    assert r"\item d, sentence 1: " + sentence in tex
    assert r"\textbf{Conflated Entities (1 error)}" in tex
    # the explanation, escaped, in italics right under its sentence
    expl = tex.split(sentence, 1)[1].splitlines()[1]
    assert expl.startswith(r"\\\emph{the response merges key entities") and r"'\{x\}'" in expl
    assert tex.count(r"\begin{itemize}") == tex.count(r"\end{itemize}") == len(classes)  # a list per class


def _compiles(tmp_path: Path, ev, layout: str) -> str:
    write_report(ev, tmp_path / "x.tex", layout=layout, sections=["errors"])
    for _ in range(2):
        res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "x-main.tex"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False)
        assert res.returncode == 0, res.stdout[-2000:]
    log = (tmp_path / "x-main.log").read_text(errors="replace")
    assert "Overfull \\hbox" not in log, [line for line in log.splitlines() if "Overfull" in line]
    if not shutil.which("pdftotext"):
        return ""
    text = subprocess.run(["pdftotext", "x-main.pdf", "-"], cwd=tmp_path, capture_output=True, text=True,
                          check=False).stdout
    return " ".join(text.split())  # the words as typeset, lines joined


def _latex_ready() -> bool:
    if shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None:
        return False
    found = subprocess.run(["kpsewhich", "booktabs.sty", "siunitx.sty", "adjustbox.sty", "lmodern.sty", "placeins.sty"],
                           capture_output=True, text=True, check=False).stdout
    return found.count(".sty") == 5


@pytest.mark.skipif(not _latex_ready(), reason="pdflatex with booktabs, siunitx, adjustbox, lmodern, placeins missing")
@pytest.mark.parametrize("layout", ["acl", "single"])
def test_the_specials_sentence_compiles(tmp_path, layout):
    text = _compiles(tmp_path, evaluate(*_specials(), Settings(analyses=("errors",))), layout)
    if text:
        assert "Tom & 50% $5 #1 a_b {x} ~y ^z C:\\dir said it ." in text


@pytest.mark.skipif(not (_latex_ready() and GUM.exists()), reason="pdflatex or the shared data missing")
@pytest.mark.parametrize("layout", ["acl", "single"])
def test_gum_errors_section_compiles_without_overfull_boxes(tmp_path, layout):
    """GUM gold vs xrenner ml: 4 examples of each of the 7 classes, long ids, non-Latin-1 words."""
    ev = evaluate(load_corpus(str(GUM)), load_corpus(str(ML)),
                  Settings(analyses=("errors",), errors_drop_response_singletons=True))  # the analyser's mode
    text = _compiles(tmp_path, ev, layout)
    if text:
        assert "Error classes (Kummerfeld & Klein 2013): examples" in text
        for c in ("Span Error (91 errors)", "Missing Entity (", "the response merges key entities"):
            assert c in text


@pytest.mark.skipif(not _latex_ready(), reason="pdflatex with booktabs, siunitx, adjustbox, lmodern, placeins missing")
def test_score_latex_examples_table_wraps_its_explanations(tmp_path):
    """``score -a errors -f latex``: the examples' explanations in a paragraph column of a table
    across the page, which a two-column ACL page sets without an overfull box."""
    from corefreport.present.errortables import examples_table
    from corefreport.present.latex import table_latex

    tex = table_latex(examples_table(evaluate(*_specials(), Settings(analyses=("errors",))).errors))
    assert r"\begin{tabular}{l l p{0.45\linewidth}}" in tex and tex.startswith(r"\begin{table*}")
    (tmp_path / "t.tex").write_text(tex)
    (tmp_path / "main.tex").write_text("\n".join([
        r"\documentclass[11pt,twocolumn]{article}", r"\usepackage[T1]{fontenc}", r"\usepackage{lmodern}",
        r"\usepackage[a4paper,textwidth=16cm,textheight=24.7cm,columnsep=0.6cm]{geometry}",
        r"\usepackage{booktabs}", r"\usepackage{siunitx}", r"\begin{document}", r"\input{t}", r"\end{document}", ""]))
    res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300, check=False)
    assert res.returncode == 0, res.stdout[-2000:]
    assert "Overfull \\hbox" not in (tmp_path / "main.log").read_text(errors="replace")
