r"""LaTeX tables of the report: the example's output equals a golden file reviewed by eye (and
compiled with pdflatex where it is installed), booktabs rules, grouped R / P / F1 headers,
siunitx columns, escaped ids, the signature as a comment, the best system in bold.

Regenerate the golden file deliberately when the tables change:
    COREFREPORT_REGOLD=1 pytest tests/test_report_latex.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_report_model import example

from corefreport.io.conll2012 import read_conll2012
from corefreport.present import tables as T
from corefreport.report.document import build, to_latex
from corefreport.present.latex import latex_text, table_latex
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

GOLDEN = Path(__file__).with_name("test_report_latex_golden.tex")


def test_latex_equals_the_golden_file():
    tex = to_latex(build(example(), max_documents=40))
    if os.environ.get("COREFREPORT_REGOLD"):
        GOLDEN.write_text(tex, encoding="utf-8")
    assert tex == GOLDEN.read_text(encoding="utf-8")


def test_every_section_has_tables_and_the_signature_is_a_comment():
    ev = example()
    tex = to_latex(build(ev))
    assert f"% signature: {ev.signature}\n" in tex
    for title in ("Corpus", "Standard metrics", "Linguistically aware metrics", "Application scenarios (ARCS)",
                  "Type-aware evaluation", "Per-document scores"):
        assert f"% ---- {title} ----" in tex
    assert tex.count(r"\begin{table") == tex.count(r"\end{table") == tex.count(r"\toprule") == tex.count(r"\bottomrule")
    assert r"\multicolumn{3}{c}{MUC} & \multicolumn{3}{c}{B$^3$} & \multicolumn{3}{c}{CEAF-e}" in tex
    assert r"\cmidrule(lr){2-4} \cmidrule(lr){5-7} \cmidrule(lr){8-10}" in tex
    assert "S[table-format=2.2]" in tex and r"{R} & {P} & {F1}" in tex
    for line in tex.splitlines():  # only comments, table code and escaped text
        assert not line.strip() or line.startswith("%") or "|" not in line


def test_document_ids_and_text_are_escaped():
    text = "#begin document (a_b%c&d#e$f{g}~h^i\\j|k<l);\nd\t0\t0\tx\t(1)\nd\t0\t1\ty\t(1)\n#end document\n"
    ev = evaluate(read_conll2012("k", text), read_conll2012("r", text), Settings(metrics=("muc", "bcub", "ceafe")))
    tex = to_latex(build(ev))
    assert (r"a\_b\%c\&d\#e\$f\{g\}\textasciitilde{}h\textasciicircum{}i\textbackslash{}j\textbar{}k\textless{}l"
            in tex)
    assert latex_text('"they" – B³ Δ Žitkus') == r"``they'' -- B\textsuperscript{3} $\Delta$ \v{Z}itkus"


def test_best_system_in_bold():
    t = T.Table("Systems", ["system", "muc_recall", "muc_precision", "muc_f1"],
                [["base", 0.5, 0.7, 0.58], ["new", 0.6, 0.6, 0.6]], groups=[("MUC", 3)],
                labels=["System", "R", "P", "F1"], best="column")
    tex = table_latex(t)
    assert r"base & 50.00 & {\textbf{70.00}} & 58.00 \\" in tex
    assert r"new & {\textbf{60.00}} & 60.00 & {\textbf{60.00}} \\" in tex


def test_several_systems_compared():
    """Two responses of the shared GUM data: a side-by-side table (best F1 in bold, Δ with *) and
    the headline table with one row per system."""
    from conftest import shared_path

    from corefreport.io import load_corpus
    from corefreport.scoring.compare import compare
    from corefreport.scoring.registry import ALL_METRICS

    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", "gum.conll")))
    x = shared_path("data", "xrenner", "conll2012")
    opts = Settings(metrics=ALL_METRICS)
    evs = {n: evaluate(key, load_corpus(str(x / f"{n}-gum.conll")), opts) for n in ("rules", "ml")}
    cmp = compare(evs, "rules", bootstrap=200, randomization=500)
    report = build(evs["ml"], comparison=cmp)
    assert [s.id for s in report.sections[:2]] == ["overview", "compare"]
    tex = to_latex(report)
    assert r"Metric & {F1 rules} & {F1 ml} & $\Delta$ ml" in tex
    assert r"MUC & 60.41 & \bfseries 64.83 & +4.41" in tex
    head = report.section("metrics").tables[0]
    assert [r[0] for r in head.rows] == ["rules", "ml"] and head.best == "column"
    assert r"ml & 60.91 & \bfseries 69.28 & \bfseries 64.83" in tex
    assert report.title == "Coreference evaluation of rules, ml"
    from test_report_html import check

    from corefreport.report.document import to_html

    html = to_html(report)
    assert check(html).sections[:2] == ["overview", "compare"] and "<strong>64.83</strong>" in html


def _has_latex() -> bool:
    if shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None:
        return False
    found = subprocess.run(["kpsewhich", "booktabs.sty", "siunitx.sty", "adjustbox.sty"], capture_output=True, text=True,
                           check=False).stdout
    return found.count(".sty") == 3


@pytest.mark.skipif(not _has_latex(), reason="pdflatex with booktabs and siunitx is not installed")
def test_golden_file_compiles(tmp_path):
    (tmp_path / "tables.tex").write_text(GOLDEN.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "paper.tex").write_text(  # an ACL-sized page: 16 cm of text
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[textwidth=16cm]{geometry}\n"
        "\\usepackage{booktabs}\n\\usepackage{siunitx}\n\\usepackage{adjustbox}\n"
        "\\begin{document}\n\\input{tables}\n\\end{document}\n")
    res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300, check=False)
    assert res.returncode == 0, res.stdout[-2000:]
    log = (tmp_path / "paper.log").read_text(errors="replace")
    assert "Overfull \\hbox" not in log, [line for line in log.splitlines() if "Overfull" in line]
