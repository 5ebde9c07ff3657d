"""compare --datasets (the delta per dataset and the macro delta with a stratified interval) and
compare --runs (two groups of runs; runs and documents as the resampling unit), issue 28.

Checked against: ``compare`` on each dataset alone (the per-dataset tests are its tests), the
macro of ``score --datasets`` (:mod:`corefreport.study.datasets`), the runs' means of
``score --runs`` (:mod:`corefreport.study.runs`), an exact permutation test written here with
itertools and ``statistics``, and a stratified bootstrap written here with ``random``.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from corefreport.io import load_corpus
from corefreport.model import Corpus
from corefreport.scoring.compare import compare
from corefreport.study.datasets import evaluate_datasets, single_variant
from corefreport.scoring.evaluate import evaluate
from corefreport.study.groupdeltas import compare_datasets, compare_runs, f1_of, macro_delta, score_columns
from corefreport.study.runs import evaluate_runs
from corefreport.scoring.settings import Settings

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "data"
KEY = SHARED / "gum" / "derived" / "conll2012" / "gum.conll"
ML = SHARED / "xrenner" / "conll2012" / "ml-gum.conll"
RULES = SHARED / "xrenner" / "conll2012" / "rules-gum.conll"
pytestmark = pytest.mark.skipif(not KEY.exists(), reason="shared data not here")
SETTINGS = Settings(metrics=("muc", "bcub", "ceafe"))
GENRES = (("academic_bio", ("_academic_", "_bio_")), ("rest", ("_court_", "_interview_", "_news_")))


def split(path: Path, key: bool = False) -> dict[str, Corpus]:
    """The corpus of ``path`` as two datasets: academic + bio, and the rest."""
    c = load_corpus(str(path), key=key)
    return {name: Corpus({i: d for i, d in c.documents.items() if any(g in i for g in marks)}, str(path), c.format)
            for name, marks in GENRES}


def drop_one_word_mentions(text: str, seed: int, p: float) -> str:
    """A run: the response with each one-word mention dropped with probability ``p``."""
    rng = random.Random(seed)
    out = []
    for line in text.splitlines(keepends=True):
        if line.startswith("#") or not line.strip():
            out.append(line)
            continue
        cols = line.rstrip("\n").split("\t")
        parts = [x for x in cols[-1].split("|") if not (re.fullmatch(r"\(\d+\)", x) and rng.random() < p)]
        cols[-1] = "|".join(parts) or "-"
        out.append("\t".join(cols) + "\n")
    return "".join(out)


@pytest.fixture(scope="module")
def datasets():
    keys, ml, rules = split(KEY, True), split(ML), split(RULES)
    evs = {d: {"ml": evaluate(keys[d], ml[d], SETTINGS, rows=False),
               "rules": evaluate(keys[d], rules[d], SETTINGS, rows=False)} for d in keys}
    return keys, ml, rules, evs


def test_each_dataset_is_compare_on_that_dataset_alone(datasets):
    _, _, _, evs = datasets
    cmp = compare_datasets(evs, "ml", bootstrap=300, randomization=500, seed=7)
    for d in evs:
        alone = compare(dict(evs[d]), "ml", 300, 500, 7, groupings=())
        for m in ("muc", "bcub", "ceafe", "conll"):
            mine, theirs = cmp.per_dataset["rules"][d][m], alone.metric(m).tests["rules"]
            assert (mine.delta, mine.delta_ci, mine.p_value, mine.p_bootstrap) == \
                (theirs.delta, theirs.delta_ci, theirs.p_value, theirs.p_bootstrap), (d, m)
    assert cmp.documents == {"academic_bio": 8, "rest": 12}


def test_the_macro_delta_is_the_difference_of_score_datasets_macros(datasets):
    keys, ml, rules, evs = datasets
    cmp = compare_datasets(evs, "ml", bootstrap=0, randomization=0)
    a = evaluate_datasets([(d, keys[d], ml[d]) for d in keys], single_variant(SETTINGS))
    b = evaluate_datasets([(d, keys[d], rules[d]) for d in keys], single_variant(SETTINGS))
    for m in ("muc", "bcub", "ceafe", "conll"):
        x = cmp.macro["rules"][m]
        assert x.baseline == pytest.approx(a.macro("", m).f1, abs=1e-12)
        assert x.system == pytest.approx(b.macro("", m).f1, abs=1e-12)
        assert x.delta == pytest.approx(b.macro("", m).f1 - a.macro("", m).f1, abs=1e-12)


def _slow_stratified(a, b, score, resamples, seed):
    """The stratified paired bootstrap written plainly: each dataset's documents drawn within it."""
    rng = random.Random(seed)
    out = []
    for _ in range(resamples):
        deltas = []
        for x, y in zip(a, b):
            idx = [rng.randrange(len(x)) for _ in range(len(x))]
            deltas.append(float(score(y[idx].sum(0))) - float(score(x[idx].sum(0))))
        out.append(sum(deltas) / len(deltas))
    out.sort()
    return out[int(0.025 * resamples)], out[int(0.975 * resamples) - 1]


def test_the_stratified_interval_agrees_with_a_plain_implementation(datasets):
    _, _, _, evs = datasets
    score = f1_of("conll")
    a, b = [], []
    for d in evs:
        ids = [x.doc_id for x in evs[d]["ml"].documents]
        a.append(score_columns(evs[d]["ml"], ["conll"], ids)["conll"])
        b.append(score_columns(evs[d]["rules"], ["conll"], ids)["conll"])
    x = macro_delta(a, b, lambda c: score(c)[..., 0], resamples=2000, trials=0, seed=3)
    lo, hi = _slow_stratified(a, b, lambda c: score(c)[0], 2000, 11)
    assert abs(x.delta_ci[0] - lo) < 0.005 and abs(x.delta_ci[1] - hi) < 0.005
    assert x.delta_ci[0] < x.delta < x.delta_ci[1]
    assert x.p_bootstrap < 0.01 and np.isnan(x.p_value)  # no randomization asked


def test_a_system_against_itself():
    c = [np.array([[1.0, 2, 1, 2], [3, 4, 2, 5]]), np.array([[2.0, 3, 2, 2]])]
    x = macro_delta(c, c, lambda v: f1_of("muc")(v)[..., 0], resamples=100, trials=100)
    assert x.delta == 0 and x.delta_ci == (0.0, 0.0) and x.p_value == 1.0 and x.p_bootstrap == 1.0


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs")
    text = ML.read_text()
    groups = {"A": {}, "B": {}}
    for g, base, p in (("A", 1, 0.05), ("B", 11, 0.15)):
        for s in range(3):
            path = folder / f"{g}{s}.conll"
            path.write_text(drop_one_word_mentions(text, base + s, p))
            groups[g][f"{g}{s}"] = str(path)
    return folder, groups


def test_runs_exact_permutation_and_means(runs):
    folder, groups = runs
    key = load_corpus(str(KEY), key=True)
    evs = {g: {n: evaluate(key, load_corpus(p), SETTINGS, rows=False) for n, p in r.items()} for g, r in groups.items()}
    cmp = compare_runs(evs, "A", bootstrap=500, randomization=10000, seed=5)
    x = cmp.deltas["B"]["conll"]
    # the means are score --runs's
    rv = evaluate_runs("B", key, [(n, load_corpus(p)) for n, p in groups["B"].items()], SETTINGS)
    assert statistics.mean(x.system_values) == pytest.approx(rv.stats("conll").mean, abs=1e-12)
    # the exact permutation test, written with itertools over the 20 assignments
    values = list(x.baseline_values) + list(x.system_values)
    obs = statistics.mean(x.system_values) - statistics.mean(x.baseline_values)
    hits = total = 0
    for chosen in itertools.combinations(range(6), 3):
        a = [values[i] for i in chosen]
        b = [values[i] for i in range(6) if i not in chosen]
        total += 1
        hits += abs(statistics.mean(b) - statistics.mean(a)) >= abs(obs) - 1e-12
    assert total == 20 and x.runs.p_value == hits / total == 0.1
    assert x.runs.unit == "runs" and "exact permutation" in x.runs.method
    assert x.runs.floor == 2 / total and x.runs.limit == "3+3 runs"  # observed and mirrored assignment always count
    assert x.verdict is x.hierarchical and x.hierarchical.unit == "runs+documents"  # tests/test_stats.py checks it
    assert x.documents.unit == "documents" and x.documents.p_bootstrap < 0.01  # 1000s of links: the docs say yes
    assert x.documents.delta_ci[0] < obs < x.documents.delta_ci[1]


def _run(*args):
    return subprocess.run([sys.executable, "-m", "corefreport", *args], capture_output=True, text=True)


def test_command_line_datasets_directories_and_manifests(tmp_path):
    for side, path in (("key", KEY), ("ml", ML), ("rules", RULES)):
        (tmp_path / side).mkdir()
        text = path.read_text()
        docs = [d for d in re.split(r"(?=#begin document)", text) if d.strip()]
        for name, marks in GENRES:
            (tmp_path / side / f"{name}.conll").write_text("".join(d for d in docs if any(g in d[:80] for g in marks)))
    r = _run("compare", "--datasets", str(tmp_path / "key"), str(tmp_path / "ml"), str(tmp_path / "rules"),
             "-m", "muc,bcub,ceafe", "--bootstrap", "200", "--randomization", "200", "-f", "json", "-q")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert list(out["datasets"]) == ["academic_bio", "rest"] and out["baseline"] == "ml"
    assert out["macro"]["rules"]["conll"]["unit"] == "documents" and len(out["macro"]["rules"]["conll"]["delta_ci"]) == 2
    assert "datasets:2" in out["signature"]
    for name in ("ml", "rules"):
        (tmp_path / f"{name}.tsv").write_text("".join(f"{d}\tkey/{d}.conll\t{name}/{d}.conll\n" for d, _ in GENRES))
    r2 = _run("compare", "--datasets", str(tmp_path / "ml.tsv"), str(tmp_path / "rules.tsv"), "-m", "muc,bcub,ceafe",
              "--bootstrap", "200", "--randomization", "200", "-f", "json", "-q")
    assert r2.returncode == 0, r2.stderr
    assert json.loads(r2.stdout)["macro"] == out["macro"]
    table = _run("compare", "--datasets", str(tmp_path / "ml.tsv"), str(tmp_path / "rules.tsv"), "-m",
                 "muc,bcub,ceafe", "--bootstrap", "200", "--randomization", "200", "-q")
    assert "avg" in table.stdout and "95% CI of Δ" in table.stdout
    (tmp_path / "other.tsv").write_text("academic_bio\tkey/rest.conll\trules/rest.conll\n")
    bad = _run("compare", "--datasets", str(tmp_path / "ml.tsv"), str(tmp_path / "other.tsv"))
    assert bad.returncode == 2 and bad.stderr.startswith("corefreport: error: other") and "Traceback" not in bad.stderr


def test_command_line_runs(runs):
    folder, groups = runs
    spec = [f"{g}={','.join(r.values())}" for g, r in groups.items()]
    r = _run("compare", str(KEY), *spec, "--runs", "-m", "muc,bcub,ceafe", "--bootstrap", "200", "-f", "json", "-q")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["groups"] == {"A": ["A0", "A1", "A2"], "B": ["B0", "B1", "B2"]}
    conll = out["systems"]["B"]["conll"]
    assert conll["verdict"] == "runs+documents" and conll["runs"]["p_value"] == 0.1
    assert conll["runs"]["p_floor"] == {"p": 0.1, "because": "3+3 runs"} and conll["documents"]["unit"] == "documents"
    latex = _run("compare", str(KEY), *spec, "--runs", "-m", "muc,bcub,ceafe", "--bootstrap", "100", "-f", "latex", "-q")
    assert latex.returncode == 0 and "$\\pm$" in latex.stdout and "±" not in latex.stdout
    one = _run("compare", str(KEY), spec[0], "--runs")
    assert one.returncode == 2 and "two groups" in one.stderr


def test_group_intervals_agree_with_a_plain_bootstrap():
    """Each group's interval: its own documents resampled (a plain ``random`` bootstrap here, 4000
    resamples, agrees to 1.5 points); the macro row's contains the macro score."""
    from corefreport.study.groupdeltas import group_intervals
    from corefreport.study.subsets import grouping, subsets

    ev = evaluate(load_corpus(str(KEY), key=True), load_corpus(str(ML)), SETTINGS, rows=False)
    by = grouping("genre")
    iv = group_intervals(ev.documents, by, "conll", resamples=4000, seed=1)
    score = f1_of("conll")
    news = [d for d in ev.documents if by.of(d) == "GUM_news"]
    x = np.array([[v for m in ("muc", "bcub", "ceafe") for v in score_vector(d.metrics[m])] for d in news])
    rng = random.Random(2)
    samples = sorted(float(score(x[[rng.randrange(len(x)) for _ in x]].sum(0))[0]) for _ in range(4000))
    lo, hi = samples[100], samples[3899]
    assert abs(iv["GUM_news"][0] - lo) < 0.015 and abs(iv["GUM_news"][1] - hi) < 0.015
    sub = subsets(ev.documents, list(ev.metrics), by)
    assert iv["macro"][0] < sub.macro("conll").f1 < iv["macro"][1]
    assert iv["micro"][0] < ev.conll < iv["micro"][1]
    assert set(iv) == {g.name for g in sub.groups} | {"micro", "macro"}


def score_vector(c):
    return [c.recall_num, c.recall_den, c.precision_num, c.precision_den]
