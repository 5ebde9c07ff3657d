"""The traps between corefreport's numbers and a sentence in a paper (issue 30): each is said where
the reader looks — too few documents for any p-value below α, many differences tested at once, a
LaTeX table that carries its own legend."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from corefreport.cli import app, example_paths
from corefreport.io import load_corpus
from corefreport.present.render import comparison_latex, comparison_markdown
from corefreport.present.terminal import render
from corefreport.scoring.compare import compare, documents_needed
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings
from corefreport.scoring.significance import randomization_masks, smallest_p

from conftest import shared_path


def test_smallest_p_counts_the_trials_that_always_tie():
    """Independently: the masks that swap nothing or everything, counted here by hand; on 5
    documents, 10,000 trials and seed 12345 they are 619 → p ≥ 620/10001 = 0.0620 (exhaustive
    randomization: 2/2⁵ = 0.0625); 6 documents are the fewest on which p < 0.05 is possible."""
    masks = np.vstack(list(randomization_masks(5, 10000, 12345)))
    always = sum(1 for row in masks if row.min() == row.max())
    assert always == 619
    assert smallest_p(5, 10000, 1000, 12345) == pytest.approx(620 / 10001) == pytest.approx(0.0620, abs=5e-5)
    assert abs(always / 10000 - 2 / 2 ** 5) < 0.01
    assert documents_needed(0.05) == 6 and 2 / 2 ** 6 < 0.05 <= 2 / 2 ** 5
    assert smallest_p(5, 0, 1000, 12345) == 1 / 1001  # the bootstrap alone
    assert math.isnan(smallest_p(5, 0, 0, 12345)) and math.isnan(smallest_p(0, 10000, 0, 1))


def _example_comparison(**kw):
    key, resp = example_paths()
    k = load_corpus(str(key))
    settings = Settings(metrics=("muc", "bcub", "ceafe"))
    evs = {"xrenner": evaluate(k, load_corpus(str(resp)), settings), "gold": evaluate(k, load_corpus(str(key)), settings)}
    return compare(evs, "xrenner", **kw)


def test_three_documents_can_never_be_significant_and_compare_says_so():
    cmp = _example_comparison(bootstrap=200, randomization=2000, seed=1)
    assert len(cmp.documents) == 3
    conll = cmp.metric("conll").tests["gold"]
    assert conll.delta > 0.2 and conll.p == pytest.approx(cmp.smallest_p) and not conll.significant()
    kinds = [c.kind for c in cmp.cautions]
    assert kinds == ["too_few_documents", "multiple_comparisons"]
    few = cmp.cautions[0]
    assert few.value == pytest.approx(cmp.smallest_p) and few.value > 0.2
    text = render(cmp, 80)
    assert f"caution: on 3 documents the smallest p-value approximate randomization (2000 trials, seed 1) can give is " \
           f"{few.value:.4f}" in " ".join(text.split())
    assert "at least 6 documents are needed" in " ".join(text.split())
    d = cmp.as_dict()
    assert d["settings"]["smallest_p"] == pytest.approx(few.value)
    assert [c["kind"] for c in d["cautions"]] == kinds
    assert "**Caution:** on 3 documents" in comparison_markdown(cmp)


def test_multiple_comparisons_are_counted():
    cmp = _example_comparison(bootstrap=100, randomization=100, seed=1)
    many = next(c for c in cmp.cautions if c.kind == "multiple_comparisons")
    groups = len(cmp.groups["gold"])
    assert many.value == len(cmp.metrics) + groups == 5 + groups  # MUC, B³, CEAF-e, CoNLL, mentions
    assert f"{int(many.value)} differences were tested (5 scores" in many.message
    assert f"Bonferroni: p < {0.05 / many.value:.2g}" in many.message
    none = _example_comparison(bootstrap=0, randomization=0)
    assert none.cautions == [] and math.isnan(none.smallest_p)


def test_enough_documents_no_caution_about_them():
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    x = shared_path("data", "xrenner", "conll2012")
    res = CliRunner().invoke(app, ["compare", str(key), f"rules={x / 'rules-gum.conll'}", f"ml={x / 'ml-gum.conll'}",
                                   "--no-analyses", "--bootstrap", "100", "--randomization", "200", "-f", "json", "-q"])
    out = json.loads(res.stdout)
    assert out["settings"]["smallest_p"] == pytest.approx(1 / 201)  # 20 documents: none of the 200 trials swaps all or nothing
    assert [c["kind"] for c in out["cautions"]] == ["multiple_comparisons"]


def test_latex_table_carries_its_legend():
    cmp = _example_comparison(bootstrap=200, randomization=2000, seed=1)
    tex = comparison_latex(cmp)
    legend = tex.split(r"\end{tabular}")[1]
    assert r"\footnotesize * p \textless{} 0.05 (two-sided approximate randomization, 2000 trials)" in legend
    assert "95 \\% CI: paired bootstrap, 200 resamples of the 3 documents; seed 1" in legend
    assert f"on 3 documents no p below {cmp.smallest_p:.4f} is possible" in legend
    assert "p not corrected for the" in legend
    assert legend.index("seed 1") < legend.index(r"\end{table}")
    assert f"% {cmp.signature}\n" in tex


# ---------------------------------------------------------------------------------------------
# Two reports' LaTeX in one two-column paper
# ---------------------------------------------------------------------------------------------

def _report_tex(prefix: str) -> str:
    from test_report_model import example

    from corefreport.report.document import build, to_latex

    return to_latex(build(example()), label_prefix=prefix)


def test_report_latex_places_its_floats_every_few_tables():
    """LaTeX holds 18 unplaced floats: no more than 8 tables between two barriers, and one at the end,
    so that the floats of one report never wait for the next one's."""
    from corefreport.report.latex import BARRIER, FLOATS_PER_BARRIER

    tex = _report_tex("tab:a-")
    assert tex.rstrip().endswith(BARRIER) and FLOATS_PER_BARRIER <= 9
    runs = [run.count(r"\begin{table") for run in tex.split(BARRIER)]
    assert sum(runs) >= 15 and max(runs) <= FLOATS_PER_BARRIER and runs[-1] == 0
    assert r"\usepackage{placeins}" in tex.splitlines()[4]  # the header names the package the barrier uses


def _has_latex() -> bool:
    import shutil
    import subprocess

    if shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None:
        return False
    found = subprocess.run(["kpsewhich", "booktabs.sty", "siunitx.sty", "adjustbox.sty", "placeins.sty"],
                           capture_output=True, text=True, check=False).stdout
    return found.count(".sty") == 4


def _latex_skip_reason() -> str:
    import shutil

    if not _has_latex():
        return "pdflatex with booktabs, siunitx, adjustbox and placeins is not installed"
    return "" if shutil.which("bibtex") else "bibtex is not installed"


@pytest.fixture(scope="module")
def two_reports(tmp_path_factory):
    """The researcher's two reports (review 2026-11-29, F4), written by the command line with its
    defaults: ``report KEY ml-gum.conll -a arcs -a typed -a errors -o ml.tex`` and
    ``report KEY -r rules=… -r ml=… -o cmp.tex`` on GUM and the two xrenner systems."""
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    x = shared_path("data", "xrenner", "conll2012")
    out = tmp_path_factory.mktemp("paper")
    for args in (["report", str(key), str(x / "ml-gum.conll"), "-a", "arcs", "-a", "typed", "-a", "errors",
                  "-o", str(out / "ml.tex"), "-q"],
                 ["report", str(key), "-r", f"rules={x / 'rules-gum.conll'}", "-r", f"ml={x / 'ml-gum.conll'}",
                  "-o", str(out / "cmp.tex"), "-q"]):
        res = CliRunner().invoke(app, args)
        assert res.exit_code == 0, res.output
    return out


def _cited(tex: str) -> list[str]:
    import re

    line = next(x for x in tex.splitlines() if x.startswith(r"% cite: \cite{"))
    return re.search(r"\\cite\{([^}]*)\}", line).group(1).split(",")


def _bib_keys(bib: str) -> list[str]:
    import re

    return re.findall(r"^@\w+\{([^,]+),", bib, re.M)


def test_two_reports_share_no_label_and_each_bib_holds_every_key_either_cites(two_reports):
    import re

    ml, cmp = ((two_reports / f"{n}.tex").read_text(encoding="utf-8") for n in ("ml", "cmp"))
    labels = {n: re.findall(r"\\label\{([^}]*)\}", t) for n, t in (("ml", ml), ("cmp", cmp))}
    assert len(labels["ml"]) >= 19 and len(labels["cmp"]) >= 10
    assert all(x.startswith("tab:ml-") for x in labels["ml"]) and all(x.startswith("tab:cmp-") for x in labels["cmp"])
    assert not set(labels["ml"]) & set(labels["cmp"]) and len(set(labels["ml"])) == len(labels["ml"])
    # the summary's intervals are Koehn's bootstrap: the .tex cites it, so its .bib holds it (it did not)
    assert "koehn-2004-statistical" in _cited(ml) and "riezler-maxwell-2005-pitfalls" in _cited(cmp)
    bibs = {n: _bib_keys((two_reports / f"{n}.bib").read_text(encoding="utf-8")) for n in ("ml", "cmp")}
    for n, keys in bibs.items():
        assert len(keys) == len(set(keys))  # no entry twice within one file
        assert set(_cited(ml)) | set(_cited(cmp)) <= set(keys)  # one .bib serves both reports
        tex = ml if n == "ml" else cmp
        assert keys[:len(_cited(tex))] == _cited(tex)  # this report's own entries first
    assert r"% corefreport cites (the report's own first), so give one of them, \bibliography{ml} and not" in ml


def _paper(directory, bibliography: str, cites: str, placeins: bool) -> str:
    """A two-column ACL-sized paper that cites what both reports cite, refers to a table of each,
    ``\\input`` s both in an appendix and has one bibliography."""
    text = "\n\n".join([" ".join(["Some words of the paper around the tables."] * 10)] * 4)
    return ("\\documentclass[11pt,twocolumn]{article}\n\\usepackage[T1]{fontenc}\\usepackage{lmodern}\n"
            "\\usepackage[a4paper,textwidth=16cm,textheight=24.7cm,columnsep=0.6cm]{geometry}\n"
            "\\usepackage{booktabs}\\usepackage{siunitx}\\usepackage{adjustbox}\n"
            + ("\\usepackage{placeins}\n" if placeins else "")
            + "\\sisetup{detect-weight=true, mode=text}\n\\begin{document}\n\\section{Results}\n"
            + f"We score the systems {cites}; Tables~\\ref{{tab:ml-summary-1}} and~\\ref{{tab:cmp-compare-1}}.\n"
            + text + "\n\\appendix\\section{System A}\n\\input{ml}\n" + text + "\n\\section{A and B}\n\\input{cmp}\n"
            + text + f"\n\\bibliographystyle{{plain}}\n\\bibliography{{{bibliography}}}\n\\end{{document}}\n")


@pytest.mark.skipif(bool(_latex_skip_reason()), reason=_latex_skip_reason() or "-")
@pytest.mark.parametrize("placeins", [True, False])
def test_two_reports_input_into_one_two_column_paper_compile(two_reports, tmp_path, placeins):
    """pdflatex, bibtex, pdflatex twice on a paper with both reports, each cited as its ``% cite:``
    line says, and ``\\bibliography{ml}`` as the reports' note advises: no label defined twice, no
    citation undefined, no BibTeX error; ``\\bibliography{ml,cmp}``, which the note warns against,
    is what gives BibTeX's "Repeated entry" (so the check can fail)."""
    import shutil
    import subprocess

    for f in two_reports.iterdir():
        shutil.copy(f, tmp_path / f.name)
    cited = [_cited((tmp_path / f"{n}.tex").read_text(encoding="utf-8")) for n in ("ml", "cmp")]
    cites = " and ".join(r"\cite{" + ",".join(keys) + "}" for keys in cited)  # as each % cite: line says
    (tmp_path / "paper.tex").write_text(_paper(tmp_path, "ml", cites, placeins), encoding="utf-8")

    def run(*cmd):
        return subprocess.run(list(cmd), cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)

    first = run("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex")
    assert first.returncode == 0, first.stdout[-2000:]
    bib = run("bibtex", "paper")
    assert bib.returncode == 0, bib.stdout
    assert "Repeated entry" not in bib.stdout and "didn't find a database entry" not in bib.stdout
    assert "(There were" not in bib.stdout  # no error, no warning
    for _ in range(2):
        res = run("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex")
        assert res.returncode == 0, res.stdout[-2000:]
    log = (tmp_path / "paper.log").read_text(encoding="latin-1")
    assert "multiply defined" not in log and "multiply-defined" not in log
    assert "Citation" not in log or "undefined" not in log.split("Citation", 1)[1].split("\n", 1)[0]
    assert "There were undefined references" not in log and "Reference `" not in log
    assert "Too many unprocessed floats" not in log
    bbl = (tmp_path / "paper.bbl").read_text(encoding="utf-8")
    assert bbl.count(r"\bibitem") == len(set(cited[0]) | set(cited[1])) == 13
    # the combination the note warns against: both .bib files given
    (tmp_path / "paper.aux").write_text((tmp_path / "paper.aux").read_text(encoding="utf-8")
                                        .replace(r"\bibdata{ml}", r"\bibdata{ml,cmp}"), encoding="utf-8")
    assert "Repeated entry" in run("bibtex", "paper").stdout


# ---------------------------------------------------------------------------------------------
# BibTeX of every cited paper, from the registry
# ---------------------------------------------------------------------------------------------

def test_every_reference_has_its_bibtex_in_the_registry():
    from corefreport.scoring.registry import ANALYSIS_REGISTRY, BIBTEX, REFERENCES, REGISTRY, bibtex

    assert set(BIBTEX) == set(REFERENCES)
    cited = {c for m in REGISTRY.values() for c in m.citations} | {a.citation for a in ANALYSIS_REGISTRY.values()}
    assert cited <= set(REFERENCES)
    assert REGISTRY["blanc"].citations == ("Luo et al. 2014", "Recasens & Hovy 2011")
    keys = [BIBTEX[k][1] for k in BIBTEX]
    assert len(set(keys)) == len(keys)
    text = bibtex(list(BIBTEX))
    assert text.count("\n@") + 1 == len(BIBTEX) and text.count("{") == text.count("}")
    assert "@article{recasens-hovy-2011-blanc," in text and "journal = {Natural Language Engineering}" in text
    assert "doi = {10.3115/v1/P14-2005}" in text  # Luo et al. 2014, ACL short papers


def test_report_and_latex_emit_bibtex_for_every_cited_paper(tmp_path):
    from test_report_model import example

    from corefreport.report.document import build, to_latex, write_report
    from corefreport.report.html import to_html

    ev = example()
    report = build(ev)
    assert "Recasens & Hovy 2011" in report.cites and "Luo et al. 2014" in report.cites  # BLANC is among the metrics
    bib = report.bibtex
    for key in ("recasens-hovy-2011-blanc", "luo-etal-2014-extension", "vilain-etal-1995-model",
                "pradhan-etal-2014-scoring", "tuggener-2014-coreference", "zitkus-etal-2023-linguistically"):
        assert f"{{{key}," in bib
    assert bib.count("\n@") + 1 == len(report.cites)
    html = to_html(report)
    assert "@article{recasens-hovy-2011-blanc," in html.split('<pre class="bibtex">')[1].split("</pre>")[0]
    assert "Marta Recasens and Eduard Hovy. 2011. BLANC" in html  # the reference list too
    tex = to_latex(report)
    assert r"\cite{" in tex and "recasens-hovy-2011-blanc" in tex.split(r"\cite{")[1].split("}")[0]
    write_report(ev, tmp_path / "tables.tex")
    written = (tmp_path / "tables.bib").read_text(encoding="utf-8")
    from corefreport.scoring.registry import BIBTEX

    keys = _bib_keys(written)
    cited = _cited((tmp_path / "tables.tex").read_text(encoding="utf-8"))
    assert keys[:len(cited)] == cited and "koehn-2004-statistical" in cited  # the summary's bootstrap intervals
    assert sorted(keys) == sorted(k for _, k, _ in BIBTEX.values())  # then every other paper corefreport cites
    assert set(_bib_keys(bib)) <= set(cited)
    assert (tmp_path / "tables-main.tex").exists()


# ---------------------------------------------------------------------------------------------
# Corpus sizes when singletons are dropped
# ---------------------------------------------------------------------------------------------

def test_sizes_say_what_was_scored_when_singletons_are_dropped():
    """The CRAC test pair (corefud-scorer's own numbers in tests/data/corefud/scorer_output.json):
    10 key and 11 response mentions read, one singleton on each side; under --preset crac 9 and 10
    are scored."""
    from pathlib import Path

    from corefreport.present.scoreview import evaluation_blocks
    from corefreport.present.plain import render as plain
    from corefreport.present.tables import scored_sizes
    from corefreport.tui.model import summary

    data = Path(__file__).parent / "data" / "corefud"
    key, resp = load_corpus(str(data / "crac.key.conllu")), load_corpus(str(data / "crac.response.conllu"))
    crac = evaluate(key, resp, Settings(match="head", singletons="drop", zero_match="dependent", preset="crac"))
    kept = evaluate(key, resp, Settings())
    assert (crac.key_stats.mentions, crac.key_stats.singletons, crac.response_stats.mentions) == (10, 1, 11)
    line = scored_sizes(crac)
    assert line.startswith("singletons dropped before scoring: 9/10 key/response mentions scored in 4/5 chains")
    assert scored_sizes(kept) == ""
    assert line in plain(evaluation_blocks(crac)).replace("\n", "")  # wrapped at 100 columns (issue 38)
    assert "scored without singletons: 9/10 mentions" in summary(crac)
    assert "scored without" not in summary(kept)
    res = CliRunner().invoke(app, ["score", str(data / "crac.key.conllu"), str(data / "crac.response.conllu"),
                                   "--preset", "crac"])
    assert res.exit_code == 0 and line in res.stdout.replace("\n", "")


# ---------------------------------------------------------------------------------------------
# 0/0 prints as n/a
# ---------------------------------------------------------------------------------------------

def test_zero_over_zero_prints_na_everywhere_and_the_json_keeps_the_reference_value():
    """The CRAC pair has no zero mentions: corefud-scorer's zero score is 0/0 on both sides. Every
    view prints n/a (docs/report.md), not "0.00 0.00 0.00 0/0"; the JSON keeps 0 with its counts."""
    from pathlib import Path

    from corefreport.present.render import to_csv, to_markdown
    from corefreport.present.latex import table_latex
    from corefreport.present.tables import metrics_table, per_document_table
    from corefreport.tui.model import total_rows

    data = Path(__file__).parent / "data" / "corefud"
    args = ["score", str(data / "crac.key.conllu"), str(data / "crac.response.conllu"), "--preset", "crac"]
    out = CliRunner().invoke(app, args).stdout
    zero = next(line for line in out.splitlines() if line.startswith("Zeros"))
    assert zero.split("|")[1:4] == ["    n/a ", "   n/a ", "   n/a "] and "0/0" in zero
    assert "0.00" not in zero
    mentions = next(line for line in out.splitlines() if line.startswith("Mentions"))
    assert "100.00 | 90.00 | 94.74" in mentions  # defined ratios are untouched
    js = json.loads(CliRunner().invoke(app, args + ["-f", "json"]).stdout)
    assert js["metrics"]["zero"]["f1"] == 0 and js["metrics"]["zero"]["recall_den"] == 0

    ev = evaluate(load_corpus(str(data / "crac.key.conllu")), load_corpus(str(data / "crac.response.conllu")),
                  Settings(metrics=("muc", "zero"), match="head", singletons="drop", zero_match="dependent"))
    t = metrics_table(ev)
    assert "zero,n/a,n/a,n/a,0,0,0,0" in to_csv(t)
    assert "| Zeros | n/a | n/a | n/a | 0 | 0 | 0 | 0 |" in to_markdown(t)
    assert r"Zeros & {n/a} & {n/a} & {n/a} & 0 & 0 & 0 & 0 \\" in table_latex(t)
    row = next(r for r in total_rows(ev) if r.label == "Zeros")
    assert all(math.isnan(x) for x in (row.recall, row.precision, row.f1))
    assert math.isnan(per_document_table(ev).rows[0][2])


# ---------------------------------------------------------------------------------------------
# --truncate: the figures exactly as scorer.pl prints them
# ---------------------------------------------------------------------------------------------

LABELS = {"muc": "MUC", "bcub": "B³", "ceafm": "CEAF-m", "ceafe": "CEAF-e", "blanc": "BLANC"}
KEYS = {"gum": "gum.conll", "ontogum": "ontogum.conll"}


def _printed(out: str) -> dict[str, list[float]]:
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) == 6 and cells[0] in (*LABELS.values(), "Mentions"):
            rows[cells[0]] = [float(c) for c in cells[1:4]]
    return rows


def test_truncate_prints_what_scorer_pl_printed():
    """reference-scores/summary.tsv: the percentages scorer.pl v8.01 (conll/reference-coreference-scorers
    @ f49f3f8) printed for xrenner's four responses — R, P, F1 of five metrics and of mention
    identification: 72 figures, every one equal under --truncate; rounded, some differ (MUC F1 of
    ml-gum: 64.83 against scorer.pl's 64.82)."""
    import csv as csv_module

    table = shared_path("data", "xrenner", "reference-scores", "summary.tsv")
    rows = list(csv_module.DictReader(table.open(encoding="utf-8"), delimiter="\t"))
    checked = differ = 0
    for pair in sorted({r["pair"] for r in rows}):
        key_name, system = pair.split("_vs_")
        key = shared_path("data", "gum", "derived", "conll2012", KEYS[key_name])
        resp = shared_path("data", "xrenner", "conll2012", f"{system}.conll")
        args = ["score", str(key), str(resp), "-m", "muc,bcub,ceafm,ceafe,blanc", "-q"]
        res = CliRunner().invoke(app, args + ["--truncate"])
        assert res.exit_code == 0, res.output
        assert "print:trunc" in res.stdout
        printed, rounded = _printed(res.stdout), _printed(CliRunner().invoke(app, args).stdout)
        for r in (x for x in rows if x["pair"] == pair):
            expected = {LABELS[r["metric"]]: [float(r["recall_pct"]), float(r["precision_pct"]), float(r["f1_pct"])],
                        "Mentions": [float(r["mention_id_recall"]), float(r["mention_id_precision"]),
                                     float(r["mention_id_f1"])]}
            for label, figures in expected.items():
                assert printed[label] == figures, (pair, label)
                differ += rounded[label] != figures
        checked += 1
    assert checked == 4 and differ > 0
    gum = json.loads(CliRunner().invoke(app, ["score", str(shared_path("data", "gum", "derived", "conll2012",
                                                                          "gum.conll")),
                                              str(shared_path("data", "xrenner", "conll2012", "ml-gum.conll")),
                                              "-m", "muc", "-q", "--truncate", "-f", "json"]).stdout)
    assert gum["metrics"]["muc"]["f1"] == 2 * 1491 / (2448 + 2152)  # the JSON is not truncated


@pytest.fixture(autouse=True)
def _rounded_again():
    """The CLI sets how this process prints percentages (--truncate); later tests print rounded."""
    from corefreport.present.numbers import print_truncated

    yield
    print_truncated(False)


def test_truncation_is_perls_int():
    from corefreport.present.numbers import pct, print_truncated, truncated

    assert truncated(0.29) == 29.0  # 0.29 * 10000 is 2900 in double arithmetic (× 100 × 100 would give 28.99)
    assert truncated(0.57) == 56.99  # and 0.57 * 10000 is 5699.999…: Perl prints 56.99 too
    assert truncated(1491 / 2152) == 69.28 and truncated(0.6482630) == 64.82
    try:
        print_truncated(True)
        assert pct(0.6482630) == "64.82" and pct(0.6) == "60.00" and pct(float("nan")) == "n/a"
    finally:
        print_truncated(False)
    assert pct(0.6482630) == "64.83"
