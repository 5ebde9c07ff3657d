"""``score KEY RUNS --runs``: several runs of one system → mean ± sample sd, min and max.

Expected values: each run scored alone by ``score`` (which reproduces the reference scorer; on GUM vs
xrenner its summary ``../shared/data/xrenner/reference-scores/summary.tsv`` gives MUC F1 64.82 for
ml/gum and 60.41 for rules/gum), and the statistics from Python's :mod:`statistics` (an independent
implementation of the mean and the sample standard deviation).
"""

from __future__ import annotations

import json
import statistics

import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from conftest import one_error_line, shared_path

runner = CliRunner()
DOC = "#begin document (d{n}); part 000\nd{n}\t0\t0\tJohn\t(1)\nd{n}\t0\t1\tsaw\t{b}\nd{n}\t0\t2\thim\t{c}\n#end document\n"


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def _write(path, docs):
    path.write_text("".join(DOC.format(n=n, b=b, c=c) for n, (b, c) in enumerate(docs)), encoding="utf-8")
    return path


@pytest.fixture
def three_runs(tmp_path):
    key = _write(tmp_path / "key.conll", [("-", "(1)"), ("(2)", "(1)")])
    runs = [_write(tmp_path / f"seed{i}.conll", docs) for i, docs in enumerate([
        [("-", "(1)"), ("(2)", "(1)")], [("-", "(2)"), ("(2)", "(1)")], [("(1)", "(1)"), ("-", "(3)")]], 1)]
    return key, runs


def test_mean_sd_min_max_are_those_of_the_runs_scored_alone(three_runs):
    key, runs = three_runs
    res = run("score", key, "sys=" + ",".join(str(r) for r in runs), "--runs", "-f", "json", "-q")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["system"] == "sys" and out["run_names"] == ["seed1", "seed2", "seed3"]
    alone = [json.loads(run("score", key, r, "-f", "json", "-q").stdout)["metrics"] for r in runs]
    for metric in ("muc", "bcub", "ceafe", "lea", "conll"):
        for part in (("f1",) if metric == "conll" else ("recall", "precision", "f1")):
            xs = [a[metric][part] for a in alone]
            got = out["metrics"][metric][part]
            assert got["values"] == xs
            assert got["mean"] == pytest.approx(statistics.mean(xs))
            assert got["sd"] == pytest.approx(statistics.stdev(xs))
            assert (got["min"], got["max"]) == (min(xs), max(xs))
    assert out["signature"].endswith("|runs:3|sd:sample|version:" + out["signature"].rsplit(":", 1)[1])
    assert out["runs"]["seed2"]["metrics"] == alone[1]


def test_a_glob_names_the_runs_and_the_key_is_read_once(three_runs, monkeypatch):
    """The key is read whole once (study/read.py: Key); each run is parsed once, a document at a time."""
    import corefreport.io.conll2012 as C
    import corefreport.study.read as R

    key, runs = three_runs
    reads: list[str] = []
    parsed: list[str] = []
    real, stream = R.load_corpus, C.iter_conll2012

    def counting(spec, *args, **kwargs):
        reads.append(spec)
        return real(spec, *args, **kwargs)

    def streaming(path, *args, **kwargs):
        parsed.append(path)
        return stream(path, *args, **kwargs)

    monkeypatch.setattr(R, "load_corpus", counting)
    monkeypatch.setattr(C, "iter_conll2012", streaming)
    res = run("score", key, str(key.parent / "seed*.conll"), "--runs", "-m", "muc", "-f", "csv")
    assert res.exit_code == 0, res.output
    assert reads == [str(key)] and parsed == [str(r) for r in runs]
    lines = res.stdout.splitlines()
    assert lines[0] == "metric,mean_f1,sd_f1,min_f1,max_f1,run1_f1,run2_f1,run3_f1" and lines[1].startswith("muc,")


def test_real_runs_of_xrenner_on_gum():
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    ml = shared_path("data", "xrenner", "conll2012", "ml-gum.conll")
    rules = shared_path("data", "xrenner", "conll2012", "rules-gum.conll")
    res = run("score", key, f"xrenner={ml},{rules}", "--runs", "-m", "muc", "-f", "json", "-q")
    assert res.exit_code == 0, res.output
    f1 = json.loads(res.stdout)["metrics"]["muc"]["f1"]
    assert [round(100 * x, 2) for x in f1["values"]] == [64.83, 60.41]  # reference summary: 64.82 (truncated), 60.41
    assert f1["mean"] == pytest.approx(statistics.mean(f1["values"]))
    assert f1["sd"] == pytest.approx(statistics.stdev(f1["values"]))


@pytest.mark.parametrize("spec, problem", [("sys=", "runs are NAME=RUN1,RUN2"), ("sys=nope.conll", "no such file")])
def test_bad_runs_are_one_error_line(three_runs, spec, problem):
    key, _ = three_runs
    assert problem in one_error_line(run("score", key, spec, "--runs"))


def test_one_run_has_no_sd_and_options_that_need_one_run_are_refused(three_runs):
    key, runs = three_runs
    out = json.loads(run("score", key, f"s={runs[0]}", "--runs", "-m", "muc", "-f", "json").stdout)
    assert out["metrics"]["muc"]["f1"]["sd"] is None and out["metrics"]["muc"]["f1"]["mean"] == 1.0
    assert "--per-doc is not available with --runs" in one_error_line(run("score", key, f"s={runs[0]}", "--runs",
                                                                          "--per-doc"))
