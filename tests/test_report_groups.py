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
    assert rows_of(tex, "gum")[0][1:] == ["57.85", "54.93", "53.13", "69.68"]
    assert rows_of(tex, "fixture")[0][1:] == ["83.18", "67.53", "53.54", "75.35"]
    assert rows_of(tex, "avg")[0][1:] == ["70.52", "61.23", "53.33", "72.52"]
    html = tmp_path / "r.html"
    assert run("report", "--datasets", m, "--preset", "crac", "-o", html, "-q").exit_code == 0
    assert "CRAC ranking" in html.read_text() and ">70.52<" in html.read_text()


def test_per_genre_tables_in_the_report(tmp_path):
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    resp = shared_path("data", "xrenner", "conll2012", "ml-gum.conll")
    out = tmp_path / "g.tex"
    res = run("report", key, resp, "--subsets", "genre", "-m", "muc,bcub,ceafe", "-o", out, "-q",
              "--section", "metrics")
    assert res.exit_code == 0, res.output
    tex = out.read_text()
    assert "F1 per genre" in tex
    conll = {g: rows_of(tex, f"GUM\\_{g}")[0][-2] for g in ("academic", "bio", "court", "interview", "news")}
    # the reference scorer v8.01's per-document counts summed per genre (issue 28)
    assert conll == {"academic": "68.41", "bio": "73.07", "court": "58.92", "interview": "66.33", "news": "60.13"}
    assert rows_of(tex, "macro")[0][-2] == "65.37"  # the last column: its interval


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
    assert "xrenner: F1 mean ± sd over 2 runs" in tex
    row = rows_of(tex, "MUC")[0]
    f1 = want["muc"]["f1"]
    assert row[1:5] == [f"{100 * f1[k]:.2f}" for k in ("mean", "sd", "min", "max")]
    assert row[5:] == [f"{100 * v:.2f}" for v in f1["values"]]
    # the detailed sections describe the first run: the metrics table's MUC is ml-gum's (R 60.91, P 69.28, 1491/2448)
    detail = [r for r in rows_of(tex, "MUC") if r != row]
    assert detail and detail[0][1:4] == ["60.91", "69.28", f"{100 * f1['values'][0]:.2f}"]


def test_runs_and_datasets_options_refused_together(tmp_path):
    line = one_error_line(run("report", "--runs", "--datasets", "a", "b", "-o", tmp_path / "x.html"))
    assert "separately" in line
    assert re.search("--runs takes no -r", one_error_line(run("report", "k", "r", "--runs", "-r", "a=b", "-o",
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
    assert lo < 65.37 < hi and row[-2] == "65.37"
