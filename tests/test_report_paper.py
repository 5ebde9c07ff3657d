"""Issue 14, reports an author pastes into a paper: system names from directories and globs, every
system's corpus and per-document tables in a comparison, one meaning of n, warnings in an
appendix, a grayscale-safe palette, page-break rules, the citations, and the first page's
bootstrap intervals — each checked against the JSON of the result (``ev.as_dict()``)."""

from __future__ import annotations

import math
import shutil
from functools import lru_cache
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from conftest import SHARED
from corefreport.cli import app, example_paths
from corefreport.io import load_corpus
from corefreport.present.numbers import cell as format_cell
from corefreport.report import svg
from corefreport.report.document import build, render, source_name, summary_intervals
from corefreport.report.html import to_html
from corefreport.report.model import SIGNATURE_SENTENCE, relative
from corefreport.scoring.compare import compare, document_matrix
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.intervals import score_intervals
from corefreport.scoring.registry import ALL_METRICS, REFERENCES, get
from corefreport.scoring.settings import Settings
from corefreport.scoring.significance import metric_block, paired_bootstrap, stack, f1_scorer


@lru_cache(maxsize=1)
def example():
    key, resp = example_paths()
    return evaluate(load_corpus(key), load_corpus(resp), Settings(metrics=ALL_METRICS, analyses=("arcs", "typed")))


@lru_cache(maxsize=1)
def pair():
    """Two systems on the example key: the xrenner response and the key against itself."""
    key, resp = example_paths()
    kc = load_corpus(key)
    opts = Settings(metrics=("muc", "bcub", "ceafe", "lea"))
    evs = {"xrenner": evaluate(kc, load_corpus(resp), opts), "oracle": evaluate(kc, load_corpus(key), opts)}
    return evs, compare(evs, "xrenner", bootstrap=200, randomization=300, seed=7)


# (a) names -------------------------------------------------------------------------------------

def test_system_name_from_file_directory_and_glob():
    assert source_name("out/ml/GUM_news.tsv") == "GUM_news"
    assert source_name("../shared/data/xrenner/ml/gum/*.tsv") == "gum"
    assert source_name("runs/ml/") == "ml" and source_name("runs/ml") == "ml"
    assert source_name("runs/ml/**/*.conll") == "ml"
    assert source_name("*.tsv") == "response"


def test_report_title_from_a_directory_and_name_option(tmp_path):
    key, resp = example_paths()
    d = tmp_path / "mysystem"
    d.mkdir()
    shutil.copy(resp, d / "doc.conll")
    out = tmp_path / "r.html"
    res = CliRunner().invoke(app, ["report", key, str(d), "-o", str(out), "-q", "-m", "muc"])
    assert res.exit_code == 0, res.output
    html = out.read_text()
    assert "<h1>Coreference evaluation of mysystem</h1>" in html and "*." not in html.split("</h1>")[0]
    res = CliRunner().invoke(app, ["report", key, str(tmp_path / "mysystem" / "*.conll"), "-o", str(out), "-q",
                                   "-m", "muc", "--force", "--name", "xrenner ML"])
    assert res.exit_code == 0, res.output
    html = out.read_text()
    assert "<h1>Coreference evaluation of xrenner ML</h1>" in html
    assert "Response xrenner ML against the key gum_key.conll" in html


# (b) comparisons -------------------------------------------------------------------------------

def test_comparison_report_has_corpus_and_documents_of_every_system():
    evs, cmp = pair()
    r = build(evs["oracle"], comparison=cmp, systems=evs)
    corpus = r.section("summary").tables[0]
    rows = {row[0]: row for row in corpus.rows}
    for n, ev in evs.items():
        st = ev.response_stats
        assert rows[f"response {n}"][1:5] == [st.documents, st.mentions, st.chains, st.singletons]
    assert rows["response oracle"][2] == rows["key"][2]  # the key against itself
    docs = r.section("documents").tables
    assert [t.title for t in docs] == ["Per-document scores of xrenner, worst CoNLL first",
                                       "Per-document scores of oracle, worst CoNLL first"]
    for t, ev in zip(docs, evs.values()):
        by_id = ev.as_dict(per_doc=True)["per_document"]
        assert len(t.rows) == 3
        for row in t.rows:
            assert row[3] == by_id[row[0]]["metrics"]["muc"]["f1"]
    # methods and signature name the resampling and the seed
    methods = " ".join(r.section("methods").text)
    assert "200 resamples" in methods and "300 trials" in methods and "random seed 7" in methods
    assert "seed:7" in r.signature.replace(" ", "") or "seed=7" in r.signature or "seed:7" in r.signature
    assert str(cmp.signature) == r.signature


def test_comparison_footnotes_how_many_documents_differ():
    evs, cmp = pair()
    r = build(evs["oracle"], comparison=cmp, systems=evs)
    note = r.section("compare").tables[0].note
    k = sum(1 for d in cmp.per_document["oracle"] if d.delta != 0)
    assert k == 3  # the oracle is perfect on each of the example's 3 documents, xrenner is not
    assert f"oracle differs from xrenner on {k} of 3 documents (CoNLL F1)" in note
    assert f"cannot give a p-value below about {2 ** (1 - k):.3g}" in note


# (c) one meaning of n, n/a, no ARCS 3 accuracy -------------------------------------------------------

def test_n_is_key_referents_in_charts_and_tables_and_na_is_shared():
    ev = example()
    r = build(ev)
    arcs = r.section("arcs")
    d = ev.as_dict()["arcs"]
    by_ne = next(t for t in arcs.tables if t.title == "ARCS by NE type")
    for row in by_ne.rows:
        v = "-" if row[0] == "(none)" else row[0]
        if row[1] == "ARCS 1":
            x = d["immediate"]["by"]["ne"][v]
            assert row[6] == x["tp"] + x["wl"] + x["fn"] and row[2:6] == [x["tp"], x["wl"], x["fn"], x["fp"]]
    chart = arcs.charts[0]
    nominal = d["immediate"]["by"]["mtype"]["NOMINAL"]
    assert f"n = {nominal['tp'] + nominal['wl'] + nominal['fn']}" in [t.text for t in chart.texts]
    assert "n: key referents (TP+WL+FN)" in chart.note and "n: key referents (TP+WL+FN)" in by_ne.note
    # an undefined score is "n/a" in a table cell and in a chart label
    pron = next(t for t in arcs.tables if t.title == "ARCS by pronoun lemma")
    zero = next(row for row in pron.rows if row[6] == 0)  # no key referent in this scenario, FPs only
    assert zero[5] > 0 and math.isnan(zero[8]) and format_cell(zero[8], "recall") == "n/a"
    assert "n/a" in [t.text for t in svg.prf("t", [("x", None, None, None)]).texts]
    tot = next(t for t in arcs.tables if t.title == "ARCS totals per scenario")
    assert tot.rows[2][-1] is None and tot.rows[0][-1] == d["immediate"]["total"]["accuracy"]


def test_empty_breakdown_rows_are_left_out_with_a_note():
    from corefreport.scoring.outcomes import OutcomeCounts

    ev = example()
    sc = ev.arcs.scenarios
    ghost = {n: s.by["ne"].setdefault("ghost", OutcomeCounts()) for n, s in sc.items()}
    ghost["immediate"].fp = 3  # false positives only: no key referent, left out, its FPs named
    try:
        t = next(t for t in build(ev).section("arcs").tables if t.title == "ARCS by NE type")
    finally:
        for n, s in sc.items():
            s.by["ne"].pop("ghost")
    assert ghost and "ghost" not in [row[0] for row in t.rows]
    assert "left out, no key referent in any scenario (only false positives): ghost (FP 3)" in t.note


# (d) warnings --------------------------------------------------------------------------------------

def test_warnings_in_an_appendix_with_relative_paths():
    cwd = str(Path.cwd())
    assert relative(f"cannot read {cwd}/data/x.conll line 3") == "cannot read data/x.conll line 3"
    assert relative("/elsewhere/x.conll", "/work") == "/elsewhere/x.conll"
    ev = example()
    r = build(ev)
    assert r.sections[-1].id in ("methods", "warnings")
    html = to_html(r)
    assert "Appendix: warnings" not in html or html.index("Appendix: warnings") > html.index("Methods</h2>")


# (e) palette -----------------------------------------------------------------------------------------

def test_outcome_palette_separates_in_grayscale():
    light = {o: svg.lightness(c) for o, c in svg.OUTCOME_COLOURS.items()}
    assert round(svg.lightness("#000000")) == 0 and round(svg.lightness("#ffffff")) == 100
    for a, b in combinations(light, 2):
        assert abs(light[a] - light[b]) >= 9.9, (a, b, light)
    assert max(light.values()) - min(light.values()) >= 60
    for o, c in svg.OUTCOME_COLOURS.items():  # the count printed on a segment contrasts with it
        assert abs(svg.lightness(svg.OUTCOME_INK[o]) - light[o]) >= 40
    p = [svg.lightness(c) for c in svg.PRF_COLOURS.values()]
    assert min(abs(a - b) for a, b in combinations(p, 2)) >= 15


# (f) page breaks --------------------------------------------------------------------------------------

def test_page_break_rules_in_the_stylesheet():
    html = to_html(build(example()), pdf=True)
    css = html.split("<style>", 1)[1].split("</style>", 1)[0]
    for rule in ("h2 {", "h3 {", "p.caption {", "p.sighead {"):
        block = css.split(rule, 1)[1].split("}", 1)[0]
        assert "break-after: avoid" in block, rule
    assert "table.keep { break-inside: avoid; }" in css and "thead { display: table-header-group; }" in css
    assert "break-inside: avoid" in css.split(".sig {", 1)[1].split("}", 1)[0]
    assert ".paged #overview { break-after: page; }" in css
    assert f'<p class="sighead">{SIGNATURE_SENTENCE}</p>\n<p class="sig">' in html
    assert '<table class="data fixed keep"' in html  # short tables are kept on one page
    paged = to_html(build(example(), max_documents=40, pdf=True), pdf=True)
    after = paged.split("ARCS by pronoun lemma</p>", 1)[1]  # 8 values × 3 scenarios: never split
    assert after.lstrip().startswith('<table class="data fixed keep"')
    assert "break-before: avoid" in css.split(".tnote { margin", 1)[1].split("}", 1)[0]  # a note stays with its table
    assert '<meta name="viewport"' in html


# citations -----------------------------------------------------------------------------------------------

SEEDS = SHARED / "seeds"
CITED_IN_SEEDS = {
    # reference key: (seed file, text of the seed's own bibliography that the reference must agree with)
    "Bagga & Baldwin 1998": ("chen-ng-2013-linguistically-aware-metrics.txt", "563–566"),
    "Chen & Ng 2013": ("zitkus-2023-type-aware-dominant-mention-evaluation.txt", "1366–1374"),
    "Luo 2005": ("chen-ng-2013-linguistically-aware-metrics.txt", "25–32"),
    "Luo et al. 2014": ("zitkus-2023-type-aware-dominant-mention-evaluation.txt", "pp. 24–29"),
    "Moosavi & Strube 2016": ("zitkus-2023-type-aware-dominant-mention-evaluation.txt", "632–642"),
    "Pradhan et al. 2014": ("zitkus-2023-type-aware-dominant-mention-evaluation.txt", "pp. 30–35"),
    "Tuggener 2014": ("zitkus-2023-type-aware-dominant-mention-evaluation.txt", "231–235"),
    "Vilain et al. 1995": ("chen-ng-2013-linguistically-aware-metrics.txt", "45–52"),
    "Žitkus et al. 2023": ("zitkus-2023-type-aware-dominant-mention-evaluation.txt", "Linguistically aware "
                           "evaluation of coreference resolution from the perspective of higher-level applications"),
    "Zeldes & Simonson 2016": ("zeldes-plink-partitioned-link-score.txt", "reference-coreference-scorers"),
    "Recasens & Hovy 2011": ("chen-ng-2013-linguistically-aware-metrics.txt", "485–510"),  # BLANC's own paper
}
NOT_IN_SEEDS = {"Koehn 2004", "Riezler & Maxwell 2005",  # the significance tests' papers: no seed text
                "Novák et al. 2024", "Žabokrtský et al. 2022",  # CorefUD/CRAC (MOR, corefud BLANC): no seed
                "Kummerfeld & Klein 2013",  # error classes: no seed
                "Yu et al. 2022",  # the Universal Anaphora scorer (non-referring, bridging, discourse deixis): no seed
                "Duron-Tejedor et al. 2023",  # strata of entities (--strata): no seed (arXiv:2401.00238)
                "Martinelli et al. 2025",  # BookCoref (--window, books as input): no seed (ACL 2025)
                "Martinelli, Gatti & Navigli 2025",  # xCoRe's cross-context links (--window): no seed (EMNLP 2025)
                "Straka 2026",  # CRAC 2026's empty-node script (software: its repository and commit): no seed
                "Holm 1979", "Benjamini & Hochberg 1995",  # --correction holm|bh: no seed
                "Davison & Hinkley 1997", "Bouthillier et al. 2021"}  # compare --runs' two-level bootstrap: no seed


def test_every_citation_is_listed_and_agrees_with_the_seeds():
    assert set(REFERENCES) == set(CITED_IN_SEEDS) | NOT_IN_SEEDS
    if not SEEDS.exists():
        pytest.skip(f"{SEEDS} not available (../shared is absent)")
    for key, (seed, text) in CITED_IN_SEEDS.items():
        body = (SEEDS / seed).read_text(encoding="utf-8")
        assert text in body, (key, seed)
        if "–" in text:  # pages: the same in our reference
            assert text.removeprefix("pp. ") in REFERENCES[key], key
        else:
            assert text in REFERENCES[key] or key.startswith("Zeldes"), key
    # authors and years as the seeds' bibliographies give them
    assert REFERENCES["Chen & Ng 2013"].startswith("Chen Chen and Vincent Ng. 2013.")
    assert REFERENCES["Žitkus et al. 2023"].startswith("Voldemaras Žitkus, Rita Butkienė and Rimantas Butleris. 2023.")
    assert "Marc Vilain, John Burger, John Aberdeen, Dennis Connolly and Lynette Hirschman. 1995" in \
        REFERENCES["Vilain et al. 1995"]


# the first page -----------------------------------------------------------------------------------------

def test_score_intervals_reuse_the_paired_bootstrap_over_documents():
    ev = example()
    iv = score_intervals(ev, resamples=300, seed=3)
    d = ev.as_dict()
    assert iv["muc"].f1 == d["metrics"]["muc"]["f1"] and iv["conll"].f1 == d["metrics"]["conll"]["f1"]
    assert iv["immediate"].f1 == d["arcs"]["immediate"]["total"]["f1"]
    assert iv["typed_micro"].f1 == d["typed"]["micro"]["f1"] and iv["typed_macro"].f1 == d["typed"]["macro"]["f1"]
    # the same interval from significance.paired_bootstrap over document_matrix with MUC's formula
    ids = [doc.doc_id for doc in ev.documents]
    x = document_matrix(ev, ids)["muc"]
    rpf, _, _ = stack([metric_block("muc")])
    bs = paired_bootstrap(x, x, f1_scorer(rpf), 300, 3)
    assert (iv["muc"].low, iv["muc"].high) == tuple(bs.a_ci[0])
    assert iv["muc"].low < iv["muc"].f1 < iv["muc"].high
    assert score_intervals(ev, resamples=300, seed=3) == iv  # seeded
    # example values (3 documents, 300 resamples, seed 3): MUC F1 67.69
    assert f"{100 * iv['muc'].f1:.2f}" == "67.69"
    assert get("muc").score(x.sum(0))[2] == pytest.approx(iv["muc"].f1)
    assert np.isnan(score_intervals(ev, resamples=0)["muc"].low)


def test_first_page_is_the_summary_with_intervals_and_signature():
    ev = example()
    intervals, how = summary_intervals(ev, "xrenner_response")
    r = build(ev, intervals=intervals, interval_settings=how)
    s = r.sections[0]
    assert s.id == "overview" and s.title == "Summary"
    t = s.tables[0]
    d = ev.as_dict()
    assert [row[0] for row in t.rows] == ["conll", "muc", "bcub", "ceafe", "lea", "typed_micro", "typed_macro",
                                          "typed_scheme", "immediate", "inferred", "anchor"]
    rows = {row[0]: row for row in t.rows}
    assert rows["conll"][1] == d["metrics"]["conll"]["f1"] and rows["bcub"][1] == d["metrics"]["bcub"]["f1"]
    assert rows["anchor"][1] == d["arcs"]["anchor"]["total"]["f1"]
    assert rows["typed_scheme"][1] == d["typed"]["scheme_coverage"]["f1"]
    lo, hi = rows["muc"][2]
    assert format_cell(rows["muc"][2], "ci_x") == f"[{100 * lo:.2f}, {100 * hi:.2f}]"
    assert s.blocks[-1].kind == "sig" and s.blocks[-1].text == str(ev.signature)
    assert "1000 bootstrap resamples of the 3 documents (seed 12345" in s.text[0]
    methods = " ".join(r.section("methods").text)
    assert "1000 bootstrap resamples of the 3 documents" in methods and "random seed 12345" in methods
    html = render(ev, "html", sections=["overview", "methods"]).decode()
    assert html.index('id="overview"') < html.index('id="methods"')
    assert f"{100 * d['metrics']['conll']['f1']:.2f}" in html.split('id="overview"')[1].split("</section>")[0]


def test_a_globbed_key_is_named_by_its_path_not_its_pattern():
    from corefreport.report.model import display_source

    assert display_source("gum/key.conll") == "key.conll"
    assert display_source(str(Path.cwd() / "data" / "gum" / "*.tsv")) == "data/gum/*.tsv"
    assert display_source("data/gum/*.tsv") == "data/gum/*.tsv"


# LaTeX for ACL / EMNLP papers ---------------------------------------------------------------------------

def _latex_ready() -> str:
    """Why the compile test cannot run here ("" when it can)."""
    import subprocess

    if shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None:
        return "pdflatex is not installed (apt-get install texlive-latex-recommended texlive-latex-extra)"
    found = subprocess.run(["kpsewhich", "booktabs.sty", "siunitx.sty", "adjustbox.sty", "lmodern.sty"],
                           capture_output=True, text=True, check=False).stdout
    return "" if found.count(".sty") == 4 else "booktabs, siunitx, adjustbox or lmodern is not installed"


def test_latex_layout_and_label_prefix(tmp_path):
    from corefreport.report.document import write_report

    ev = example()
    write_report(ev, tmp_path / "t.tex", label_prefix="tab:cr-", layout="acl")
    tex = (tmp_path / "t.tex").read_text()
    main = (tmp_path / "t-main.tex").read_text()
    assert "\\label{tab:cr-overview-1}" in tex and "tab:corefreport-" not in tex
    labels = [line for line in tex.splitlines() if line.startswith("\\label{")]
    assert len(labels) == len(set(labels)) > 10
    assert tex.count("\\begin{adjustbox}{max width=\\linewidth}") == len(labels)
    # the summary (3 columns) fits one column, the per-document table (11 columns) spans both
    overview = tex.split("\\label{tab:cr-overview-1}")[0].rsplit("\\begin{table", 1)[1]
    assert overview.startswith("}[htbp]")
    docs = tex.split("\\label{tab:cr-documents-1}")[0].rsplit("\\begin{table", 1)[1]
    assert docs.startswith("*}")
    assert "\\documentclass[11pt,twocolumn]{article}" in main and "\\input{t}" in main
    write_report(ev, tmp_path / "s.tex", layout="single")
    assert "table*" not in (tmp_path / "s.tex").read_text()
    assert "twocolumn" not in (tmp_path / "s-main.tex").read_text()


@pytest.mark.parametrize("layout", ["acl", "single"])
def test_latex_main_compiles_without_overfull_boxes_or_duplicate_labels(tmp_path, layout):
    import subprocess

    from corefreport.report.document import write_report

    why = _latex_ready()
    if why:
        pytest.skip(f"LaTeX compile test skipped: {why}")
    write_report(example(), tmp_path / "tables.tex", layout=layout)
    for _ in range(2):  # twice: labels are checked on the second run
        res = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "tables-main.tex"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False)
        assert res.returncode == 0, res.stdout[-2000:]
    log = (tmp_path / "tables-main.log").read_text(errors="replace")
    assert "Overfull \\hbox" not in log, [line for line in log.splitlines() if "Overfull" in line]
    assert "multiply defined" not in log and "multiply-defined" not in log


def test_figures_as_standalone_svg_and_pdf(tmp_path):
    import xml.etree.ElementTree as ET

    res = CliRunner().invoke(app, ["report", "--example", "-o", str(tmp_path / "r.html"), "-q",
                                   "--figures", str(tmp_path / "figs")])
    assert res.exit_code == 0, res.output
    r = build(example())
    charts = [c for s in r.sections for c in s.charts]
    files = sorted(p.name for p in (tmp_path / "figs").iterdir())
    assert files == sorted([f"figure-{i}.{x}" for i in range(1, len(charts) + 1) for x in ("svg", "pdf")])
    nominal = example().as_dict()["typed"]["classes"]["NOMINAL"]
    root = ET.parse(tmp_path / "figs" / "figure-2.svg").getroot()
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert f"n = {nominal['s_star']}" in texts and "WTL" in texts  # the legend is drawn in the figure
    assert (tmp_path / "figs" / "figure-2.pdf").read_bytes().startswith(b"%PDF")
    res = CliRunner().invoke(app, ["report", "--example", "-o", str(tmp_path / "r2.html"), "-q",
                                   "--figures", str(tmp_path / "figs")])

    assert res.exit_code == 2 and "--force" in res.output
    assert not (tmp_path / "r2.html").exists()  # nothing is written when a figure would be overwritten


def test_best_values_bold_and_decimal_aligned_in_the_report_layouts():
    from corefreport.present import tables as T
    from corefreport.present.latex import SISETUP, table_latex

    t = T.Table("Systems", ["system", "muc_recall", "muc_precision", "muc_f1"],
                [["base", 0.5, 0.7, 0.58], ["new", 0.6, 0.6, 0.6]], groups=[("MUC", 3)],
                labels=["System", "R", "P", "F1"], best="column")
    tex = table_latex(t, layout="acl")
    assert r"base & 50.00 & \bfseries 70.00 & 58.00 \\" in tex  # inside the S column, not a {…} text cell
    assert "S[table-format=2.2]" in tex and "detect-weight=true" in SISETUP
    assert r"{\textbf{70.00}}" in table_latex(t)  # score -f latex / compare -f latex keep the plain form


def test_pdf_breakdowns_keep_the_most_frequent_values_and_name_the_rest():
    from corefreport.report.model import BREAKDOWN_VALUES

    ev = example()
    full = {t.title: t for t in build(ev).section("arcs").tables}
    short = {t.title: t for t in build(ev, max_documents=40, pdf=True).section("arcs").tables}
    cut = 0
    for title, t in full.items():
        values = list(dict.fromkeys(r[0] for r in t.rows))
        kept = list(dict.fromkeys(r[0] for r in short[title].rows))
        if title.startswith("ARCS by") and len(values) > BREAKDOWN_VALUES:
            cut += 1
            assert kept == values[:BREAKDOWN_VALUES]  # the most frequent first, in the same order
            assert f"the {len(values) - BREAKDOWN_VALUES} less frequent values" in short[title].note
            assert all(v in short[title].note for v in values[BREAKDOWN_VALUES:])
        else:
            assert short[title].rows == t.rows
    assert cut  # the example's pronoun lemmas or NE types are more than fit


def test_every_score_table_of_a_single_system_has_its_bootstrap_interval():
    ev = example()
    iv, how = summary_intervals(ev, "x", resamples=200)
    cis = iv["x"]
    r = build(ev, name="x", intervals=iv, interval_settings=how)

    def column(section: str, title: str) -> dict:
        t = next(t for t in r.section(section).tables if t.title.startswith(title))
        assert t.header[-1] == "f1_ci" and t.groups[-1] == ("95 % CI", 1) if t.groups else t.header[-1] == "f1_ci"
        return {row[0]: row[-1] for row in t.rows}

    std = column("metrics", "Every standard metric")
    assert std["muc"] == (cis["muc"].low, cis["muc"].high) and std["conll"] == (cis["conll"].low, cis["conll"].high)
    assert std["mentions"] == (cis["mentions"].low, cis["mentions"].high)
    assert column("linguistic", "Linguistically aware")["lmuc"] == (cis["lmuc"].low, cis["lmuc"].high)
    arcs = list(column("arcs", "ARCS totals").values())
    assert arcs == [(cis[a].low, cis[a].high) for a in ("immediate", "inferred", "anchor")]
    typed = column("typed", "Micro, macro")
    assert typed["micro"] == (cis["typed_micro"].low, cis["typed_micro"].high)
    assert typed["scheme coverage"] == (cis["typed_scheme"].low, cis["typed_scheme"].high)
    for low, high in std.values():
        assert 0 <= low <= high <= 1
    assert "[" in to_html(r)  # formatted as an interval


def test_pdf_first_page_holds_the_numbers_of_score_json(tmp_path):
    """The first page of `report -o x.pdf` against the JSON of `score -f json` with the same
    settings: every headline F1 the summary lists, as printed on the page."""
    import json
    from io import BytesIO

    from pypdf import PdfReader

    key, resp = example_paths()
    out = tmp_path / "x.pdf"
    res = CliRunner().invoke(app, ["report", key, resp, "-o", str(out), "-q"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(app, ["score", key, resp, "-f", "json", "-a", "arcs", "-a", "typed", "-m", "all", "-q"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.stdout)
    page = PdfReader(BytesIO(out.read_bytes())).pages[0].extract_text()
    m = d["metrics"]
    expect = {"CoNLL": m["conll"]["f1"], "MUC": m["muc"]["f1"], "B³": m["bcub"]["f1"], "CEAF-e": m["ceafe"]["f1"],
              "LEA": m["lea"]["f1"], "typed micro": d["typed"]["micro"]["f1"],
              "typed macro": d["typed"]["macro"]["f1"], "typed scheme": d["typed"]["scheme_coverage"]["f1"],
              "ARCS 1": d["arcs"]["immediate"]["total"]["f1"], "ARCS 2": d["arcs"]["inferred"]["total"]["f1"],
              "ARCS 3 (EM)": d["arcs"]["anchor"]["total"]["f1"]}
    for label, f1 in expect.items():
        assert f"{label} {100 * f1:.2f} [" in page, label
    assert d["signature"] in page.replace("\n", "").replace(" ", "")  # the same settings, the same signature
