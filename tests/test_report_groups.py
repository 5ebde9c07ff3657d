"""The report's sections for more than one pair (issue 28): the CRAC ranking of ``report --datasets``
(corefud-scorer's per-dataset values, recorded in tests/data), the per-genre table of
``report --subsets genre`` (the reference scorer's per-document counts summed per genre, as the
issue gives them) and mean ± sd of ``report --runs`` (what ``score --runs`` prints), in LaTeX and HTML."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from conftest import one_error_line, shared_path
from reference_values import GENRE_CONLL, genre_cells, ranking_cells
from corefreport.cli import app

HERE = Path(__file__).parent
FIXTURE = HERE / "data" / "corefud"
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def rows_of(tex: str, first: str) -> list[list[str]]:
    """The cells of the LaTeX rows that start with ``first``."""
    return [[c.strip() for c in line.rstrip("\\ ").split("&")] for line in tex.splitlines()
            if line.startswith(first + " &")]


def test_the_crac_ranking_in_the_report(tmp_path, corefud_gum_pairs):
    m = tmp_path / "datasets.tsv"
    m.write_text(f"gum\t{corefud_gum_pairs / 'key.conllu'}\t{corefud_gum_pairs / 'response-xrenner.conllu'}\n"
                 f"fixture\t{FIXTURE / 'crac.key.conllu'}\t{FIXTURE / 'crac.response.conllu'}\n")
    out = tmp_path / "r.tex"
    res = run("report", "--datasets", m, "--preset", "crac", "-o", out, "-q")
    assert res.exit_code == 0, res.output
    tex = out.read_text()
    assert "CRAC ranking: CoNLL F1 per dataset" in tex
    # corefud-scorer v1.2 per dataset (tests/data/corefud_gum/expected.json, tests/data/corefud/scorer_output.json)
    # and CRAC 2026's empty nodes (ARC F1): GUM's key has them and xrenner's response keeps them all
    assert rows_of(tex, "gum")[0][1:] == [*ranking_cells("gum"), "100.00"]
    assert rows_of(tex, "fixture")[0][1:] == [*ranking_cells("fixture"), ""]  # none: an empty cell
    assert rows_of(tex, "avg")[0][1:] == [*ranking_cells("avg"), "100.00"]
    html = tmp_path / "r.html"
    assert run("report", "--datasets", m, "--preset", "crac", "-o", html, "-q").exit_code == 0
    assert "CRAC ranking" in html.read_text() and f">{ranking_cells('avg')[0]}<" in html.read_text()


def test_per_genre_tables_in_the_report(tmp_path):
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    resp = shared_path("data", "xrenner", "conll2012", "ml-gum.conll")
    out = tmp_path / "g.tex"
    res = run("report", key, resp, "--subsets", "genre", "-m", "muc,bcub,ceafe", "-o", out, "-q",
              "--section", "metrics")
    assert res.exit_code == 0, res.output
    tex = out.read_text()
    assert "F1 per genre" in tex
    conll = {g: rows_of(tex, f"GUM\\_{g}")[0][-2] for g in GENRE_CONLL}
    # the reference scorer v8.01's per-document counts summed per genre (issue 28)
    assert {**conll, "macro": rows_of(tex, "macro")[0][-2]} == genre_cells()  # the last column: its interval


def test_mean_and_sd_of_runs_in_the_report(tmp_path):
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    runs = [shared_path("data", "xrenner", "conll2012", f"{n}.conll") for n in ("ml-gum", "rules-gum")]
    spec = "xrenner=" + ",".join(str(r) for r in runs)
    scored = run("score", key, spec, "--runs", "-m", "muc,bcub,ceafe", "-f", "json")
    assert scored.exit_code == 0, scored.output
    want = json.loads(scored.stdout)["metrics"]
    out = tmp_path / "runs.tex"
    res = run("report", key, spec, "--runs", "-m", "muc,bcub,ceafe", "-o", out, "-q", "--section", "metrics")
    assert res.exit_code == 0, res.output
    tex = out.read_text()
    assert "xrenner: F1 mean $\\pm$ sd over 2 runs" in tex
    assert not [x for x in tex.splitlines() if "±" in x and not x.startswith("%")]  # typeset: $\pm$
    row = rows_of(tex, "MUC")[0]
    f1 = want["muc"]["f1"]
    # mean ± sd in one cell, as papers print it
    assert row[1] == f"{100 * f1['mean']:.2f} $\\pm$ {100 * f1['sd']:.2f}"
    assert row[2:4] == [f"{100 * f1[k]:.2f}" for k in ("min", "max")]
    assert row[4:] == [f"{100 * v:.2f}" for v in f1["values"]]
    # the detailed sections describe the first run: the metrics table's MUC is ml-gum's (R 60.91, P 69.28, 1491/2448)
    detail = [r for r in rows_of(tex, "MUC") if r != row]
    assert detail and detail[0][1:4] == ["60.91", "69.28", f"{100 * f1['values'][0]:.2f}"]


def test_runs_and_datasets_options_refused_together(tmp_path):
    line = one_error_line(run("report", "--runs", "--datasets", "a", "b", "-o", tmp_path / "x.html"))
    assert "separately" in line
    assert re.search("--runs takes no --example", one_error_line(run("report", "k", "r", "--runs", "--example", "-o",
                                                                     tmp_path / "x.html")))


def test_per_group_intervals_in_the_report(tmp_path):
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    resp = shared_path("data", "xrenner", "conll2012", "ml-gum.conll")
    out = tmp_path / "g.html"
    assert run("report", key, resp, "--subsets", "genre", "-m", "muc,bcub,ceafe", "-o", out, "-q",
               "--section", "metrics").exit_code == 0
    html = out.read_text()
    assert "95 % CI of CoNLL" in html
    tex = tmp_path / "g.tex"
    assert run("report", key, resp, "--subsets", "genre", "-m", "muc,bcub,ceafe", "-o", tex, "-q",
               "--section", "metrics").exit_code == 0
    row = rows_of(tex.read_text(), "macro")[0]
    lo, hi = (float(v) for v in row[-1].strip("[]").split(","))
    macro = genre_cells()["macro"]
    assert lo < float(macro) < hi and row[-2] == macro


GENRES = (("academic_bio", ("_academic_", "_bio_")), ("rest", ("_court_", "_interview_", "_news_")))


def split_into_datasets(folder: Path) -> None:
    """GUM (gold, xrenner's ml and rules systems) as two datasets each: academic + bio, and the rest."""
    for side, parts in (("key", ("gum", "derived", "conll2012", "gum.conll")),
                        ("ml", ("xrenner", "conll2012", "ml-gum.conll")),
                        ("rules", ("xrenner", "conll2012", "rules-gum.conll"))):
        (folder / side).mkdir()
        docs = [d for d in re.split(r"(?=#begin document)", shared_path("data", *parts).read_text()) if d.strip()]
        for name, marks in GENRES:
            (folder / side / f"{name}.conll").write_text("".join(d for d in docs if any(g in d[:80] for g in marks)))


def test_compare_datasets_in_the_report(tmp_path):
    """``report --datasets KEYDIR BASEDIR -r NAME=SYSDIR``: compare --datasets's table (its JSON's numbers)."""
    split_into_datasets(tmp_path)
    scores = ("-m", "muc,bcub,ceafe")
    cmp = run("compare", "--datasets", tmp_path / "key", tmp_path / "ml", tmp_path / "rules", *scores, "-f", "json",
              "-q")
    assert cmp.exit_code == 0, cmp.output
    want = json.loads(cmp.stdout)
    out = tmp_path / "d.tex"
    res = run("report", "--datasets", tmp_path / "key", tmp_path / "ml", "-r", f"rules={tmp_path / 'rules'}", *scores,
              "-o", out, "-q")
    assert res.exit_code == 0, res.output
    tex = out.read_text()
    assert "rules vs ml: CoNLL F1 per dataset" in tex
    for d in ("academic\\_bio", "rest", "avg"):
        x = (want["macro"]["rules"]["conll"] if d == "avg" else
             want["datasets"][d.replace("\\", "")]["systems"]["rules"]["conll"])
        row = next(r for r in rows_of(tex, d) if len(r) == 8)  # the deltas' table (after the main table)
        assert row[4] == f"{100 * x['delta']:+.2f}", (d, row)
        assert row[5] == f"[{100 * x['delta_ci'][0]:+.2f}, {100 * x['delta_ci'][1]:+.2f}]", (d, row)
    # the methods describe both datasets, not the first alone; the paired tests are cited
    html = tmp_path / "d.html"
    assert run("report", "--datasets", tmp_path / "key", tmp_path / "ml", "-r", f"rules={tmp_path / 'rules'}", *scores,
               "-o", html, "-q").exit_code == 0
    text = re.sub(r"<[^>]+>", " ", html.read_text())
    assert "2 datasets, 20 key documents in all — academic_bio (8 key documents); rest (12 key documents)" in text
    assert "Riezler" in text and "Systems compared over the datasets" in text


def test_compare_runs_in_the_report(tmp_path):
    """``report KEY BASE=r1,r2 --runs -r NAME=r1,r2``: each group's mean ± sd and compare --runs's tests."""
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    ml, rules = (shared_path("data", "xrenner", "conll2012", f"{n}-gum.conll") for n in ("ml", "rules"))
    a, b = f"A={ml},{ml},{rules}", f"B={rules},{rules},{ml}"
    cmp = run("compare", key, a, b, "--runs", "-m", "muc,bcub,ceafe", "-f", "json", "-q")
    assert cmp.exit_code == 0, cmp.output
    want = json.loads(cmp.stdout)["systems"]["B"]["conll"]
    out = tmp_path / "r.tex"
    res = run("report", key, a, "--runs", "-r", b, "-m", "muc,bcub,ceafe", "-o", out, "-q", "--section", "metrics")
    assert res.exit_code == 0, res.output
    tex = out.read_text()
    assert "B (3 runs) vs A (3 runs): F1" in tex
    row = next(r for r in rows_of(tex, "CoNLL") if len(r) == 8)
    h = want["hierarchical"]
    assert row[3].rstrip("*") == f"{100 * h['delta']:+.2f}" and row[5] == f"{h['p_bootstrap']:.4f}"
    assert row[4] == f"[{100 * h['delta_ci'][0]:+.2f}, {100 * h['delta_ci'][1]:+.2f}]"
    assert row[6] == f"{want['runs']['p_value']:.4f}" and "$\\geq$ 0.1000: 3+3 runs" in tex  # its floor beside it
    assert "$\\pm$" in row[1] and "$\\pm$" in row[2]
    assert "A: F1 mean $\\pm$ sd over 3 runs" in tex and "B: F1 mean $\\pm$ sd over 3 runs" in tex


def test_the_methods_of_report_datasets_describe_every_dataset(tmp_path, corefud_gum_pairs):
    m = tmp_path / "datasets.tsv"
    m.write_text(f"gum\t{corefud_gum_pairs / 'key.conllu'}\t{corefud_gum_pairs / 'response-xrenner.conllu'}\n"
                 f"fixture\t{FIXTURE / 'crac.key.conllu'}\t{FIXTURE / 'crac.response.conllu'}\n")
    out = tmp_path / "r.html"
    assert run("report", "--datasets", m, "--preset", "crac", "-o", out, "-q").exit_code == 0
    text = re.sub(r"<[^>]+>", " ", out.read_text())
    from corefreport.io import load_corpus

    n = {name: len(load_corpus(str(path), key=True)) for name, path in
         (("gum", corefud_gum_pairs / "key.conllu"), ("fixture", FIXTURE / "crac.key.conllu"))}
    assert (f"on 2 datasets, {n['gum'] + n['fixture']} key documents in all — gum ({n['gum']} key documents); "
            f"fixture ({n['fixture']} key document") in text, text[:3000]
    assert "four variants of the CRAC ranking" in text and "head match with singletons (singletons kept)" in text
    assert "datasets:2|variants:head+partial+exact+head_singletons" in text


def test_quiet_silences_wrote(tmp_path):
    import subprocess
    import sys

    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    resp = shared_path("data", "xrenner", "conll2012", "ml-gum.conll")
    base = [sys.executable, "-m", "corefreport", "report", str(key), str(resp), "-m", "muc", "--section", "metrics"]
    quiet = subprocess.run([*base, "-o", str(tmp_path / "q.html"), "-q"], capture_output=True, text=True)
    loud = subprocess.run([*base, "-o", str(tmp_path / "l.html")], capture_output=True, text=True)
    assert quiet.returncode == loud.returncode == 0
    assert quiet.stderr == "" and f"wrote {tmp_path / 'l.html'}" in loud.stderr
