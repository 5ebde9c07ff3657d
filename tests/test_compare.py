"""System comparison on the real xrenner responses for GUM: per-document counts sum to the corpus
scores, a system against itself gives p = 1 and zero deltas, fixed seeds give fixed p-values, the
bootstrap interval holds the corpus score."""

from __future__ import annotations

import json
from functools import lru_cache

import numpy as np
import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.io import load_corpus
from corefreport.scoring.compare import compare, document_matrix
from corefreport.scoring.evaluate import ALL_METRICS, Options, evaluate
from corefreport.scoring.significance import blanc_f1, counts_f1, paired_test

from conftest import shared_path


@lru_cache(maxsize=1)
def evaluations():
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", "gum.conll")))
    out = {}
    for name in ("rules-gum", "ml-gum"):
        resp = load_corpus(str(shared_path("data", "xrenner", "conll2012", f"{name}.conll")))
        out[name] = evaluate(key, resp, Options(metrics=ALL_METRICS, analyses=("arcs", "typed")))
    return out


def test_per_document_counts_sum_to_the_corpus_scores_exactly():
    ev = evaluations()["ml-gum"]
    mats = document_matrix(ev, [d.doc_id for d in ev.documents])
    for name, s in ev.metrics.items():
        f = (blanc_f1 if name == "blanc" else counts_f1)(mats[name].sum(0))
        assert f == pytest.approx(s.f1, abs=1e-12), name
    assert counts_f1(mats["immediate"].sum(0)) == pytest.approx(ev.analyses["arcs"].scenarios["immediate"].total.f1)
    assert counts_f1(mats["typed"].sum(0)) == pytest.approx(ev.analyses["typed"].micro["f1"])


def test_system_against_itself():
    ev = evaluations()["ml-gum"]
    cmp = compare({"a": ev, "b": ev}, "a", bootstrap=200, randomization=500, seed=1)
    for m, tests in cmp.tests.items():
        t = tests["b"]
        assert t.delta == 0.0 and t.p_value == 1.0 and t.delta_ci == (0.0, 0.0), m
    assert all(d == 0.0 for rows in cmp.class_deltas["b"].values() for *_, d in rows)
    assert all(v == (0, 0) for v in cmp.disagreements["b"].values())


def test_fixed_seed_gives_fixed_p_values_and_intervals_hold_the_score():
    evs = evaluations()
    a = compare(evs, "rules-gum", bootstrap=300, randomization=2000, seed=7)
    b = compare(evs, "rules-gum", bootstrap=300, randomization=2000, seed=7)
    assert a.as_dict()["significance"] == b.as_dict()["significance"]
    for m, tests in a.tests.items():
        t = tests["ml-gum"]
        assert t.system_ci[0] <= t.system <= t.system_ci[1], m
        assert t.baseline_ci[0] <= t.baseline <= t.baseline_ci[1], m
        assert 1 / 2001 <= t.p_value <= 1
    # ml beats rules by 4.2 CoNLL points on these 20 documents (reference: 65.34 vs 61.13)
    conll = a.tests["conll"]["ml-gum"]
    assert conll.delta == pytest.approx((64.82 + 66.46 + 64.74 - 60.41 - 62.15 - 60.82) / 300, abs=2e-4)
    assert conll.p_value < 0.05


def test_randomization_p_value_matches_a_loop_over_documents():
    """The vectorised approximate randomization equals a plain per-trial loop with the same swaps."""
    rng = np.random.default_rng(0)
    a = rng.integers(0, 20, size=(12, 4)).astype(float)
    b = rng.integers(0, 20, size=(12, 4)).astype(float)
    a[:, 1] += 20
    b[:, 1] += 20
    a[:, 3] += 20
    b[:, 3] += 20
    t = paired_test(a, b, counts_f1, 0, 999, np.random.default_rng(5))
    swaps = np.random.default_rng(5).integers(0, 2, size=(999, 12))
    observed = abs(counts_f1(b.sum(0)) - counts_f1(a.sum(0)))
    hits = 0
    for s in swaps:
        xa = np.where(s[:, None] == 1, b, a).sum(0)
        xb = np.where(s[:, None] == 1, a, b).sum(0)
        hits += abs(counts_f1(xb) - counts_f1(xa)) >= observed - 1e-12
    assert t.p_value == pytest.approx((hits + 1) / 1000)


def test_compare_command_json():
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    x = shared_path("data", "xrenner", "conll2012")
    res = CliRunner().invoke(app, ["compare", str(key), f"rules={x / 'rules-gum.conll'}", f"ml={x / 'ml-gum.conll'}",
                                   "--no-analyses", "--bootstrap", "100", "--randomization", "200", "-f", "json", "-q"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["baseline"] == "rules" and out["systems"] == ["rules", "ml"]
    assert out["scores"]["muc"]["ml"] == pytest.approx(0.6483, abs=1e-4)
    assert "bootstrap:100|ar:200|seed:12345" in out["settings"]["signature"]
