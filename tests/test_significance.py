"""Paired bootstrap and approximate randomization over per-document count matrices: vectorised
scores equal the scalar ones bit for bit (BLANC's special cases, CoNLL, macro averages), the
matrix-product resampling equals plain loops over documents, self-comparisons give p = 1, draws
are reproducible and shared across metrics, the randomization test keeps its level, and 1000
resamples plus 10000 trials over 300 documents take well under a few seconds."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest

from corefreport.scoring.counts import Counts
from corefreport.scoring.metrics import BlancCounts
from corefreport.scoring.outcomes import OutcomeCounts
from corefreport.scoring.registry import REGISTRY
from corefreport.scoring.significance import (
    BLOCK, approximate_randomization, bootstrap_weights, f1_scorer, metric_block, paired_bootstrap, paired_test,
    paired_tests, randomization_masks, shared_block, stack,
)


# The registry's formulas applied to numpy columns (the resampling path)
def counts_rpf(v):
    return REGISTRY["muc"].rpf(np.asarray(v, dtype=float))[..., 0, :]


def counts_f1(v):
    return counts_rpf(v)[..., 2]


def blanc_rpf(v):
    return REGISTRY["blanc"].rpf(np.asarray(v, dtype=float))[..., 0, :]


def conll_rpf(v):
    return REGISTRY["conll"].rpf(np.asarray(v, dtype=float))[..., 0, :]


def outcome_rpf(cols):
    cols = np.asarray(cols, dtype=float)
    return REGISTRY["referents"].rpf(cols, cols.shape[-1] // 3)


def macro_rpf(cols, divisor):
    return REGISTRY["typed_scheme"].rpf(np.asarray(cols, dtype=float), divisor=divisor)[..., 0, :]


def counts_block():
    return metric_block("muc")


def outcome_block(groups):
    return metric_block("referents", groups)


def typed_block(classes, n):
    return shared_block([("typed_micro", {}), ("typed_macro", {}), ("typed_scheme", {"divisor": n})], 3 * classes)


def counts_matrix(rng: np.random.Generator, docs: int, zero_share: float = 0.0) -> np.ndarray:
    """Random per-document (recall_num, recall_den, precision_num, precision_den) with num ≤ den."""
    rd = rng.integers(0, 30, size=docs).astype(float)
    pd = rng.integers(0, 30, size=docs).astype(float)
    rn = np.floor(rd * rng.random(docs))
    pn = np.floor(pd * rng.random(docs))
    m = np.stack([rn, rd, pn, pd], axis=1)
    m[rng.random(docs) < zero_share] = 0
    return m


# ---------------------------------------------------------------------------------------------
# Vectorised scores are the scalar scores, bit for bit
# ---------------------------------------------------------------------------------------------

def test_counts_rpf_equals_counts_exactly():
    rng = np.random.default_rng(0)
    for _ in range(300):
        v = rng.random(4) * rng.integers(0, 3, size=4) * 7  # includes zero denominators
        c = Counts(*v)
        r, p, f = counts_rpf(v)
        assert (r, p, f) == (c.recall, c.precision, c.f1)


@pytest.mark.parametrize("coref_key, noncoref_key", [(0, 0), (0, 9), (7, 0), (7, 9)])
def test_blanc_rpf_follows_the_reference_special_cases(coref_key, noncoref_key):
    rng = np.random.default_rng(coref_key * 10 + noncoref_key)
    for _ in range(50):
        c = Counts(float(rng.integers(0, coref_key + 1)), coref_key, float(rng.integers(0, 5)), float(rng.integers(0, 6)))
        n = Counts(float(rng.integers(0, noncoref_key + 1)), noncoref_key, float(rng.integers(0, 5)),
                   float(rng.integers(0, 6)))
        b = BlancCounts(c, n)
        v = np.array([c.recall_num, c.recall_den, c.precision_num, c.precision_den,
                      n.recall_num, n.recall_den, n.precision_num, n.precision_den])
        assert tuple(blanc_rpf(v)) == (b.recall, b.precision, b.f1)


def test_conll_and_outcome_scores():
    rng = np.random.default_rng(1)
    m = counts_matrix(rng, 12)
    v = np.concatenate([m[0], m[1], m[2]])
    expected = (Counts(*m[0]).f1 + Counts(*m[1]).f1 + Counts(*m[2]).f1) / 3
    out = conll_rpf(v)
    assert out[2] == expected and np.isnan(out[0]) and np.isnan(out[1])
    oc = OutcomeCounts(tp=5, wt=2, wl=3, wtl=1, fn=4, fp=6, credit=5 + 2 * 0.75 + 3 * 0.5 + 0.25)
    cols = np.array([oc.credit, oc.key_total, oc.resolved + oc.fp])
    assert tuple(outcome_rpf(cols)[0]) == (oc.recall, oc.precision, oc.f1)


def test_macro_average_counts_undefined_classes_as_zero():
    classes = [OutcomeCounts(tp=4, fn=2, fp=1, credit=4.0), OutcomeCounts(), OutcomeCounts(fn=3),
               OutcomeCounts(wl=2, fp=2, credit=1.0)]
    cols = np.concatenate([[c.credit, c.key_total, c.resolved + c.fp] for c in classes])
    ps = rs = 0.0
    for c in classes:
        ps += c.credit / (c.resolved + c.fp) if c.resolved + c.fp else 0.0
        rs += c.credit / c.key_total if c.key_total else 0.0
    r, p, f = macro_rpf(cols, 4)
    assert (p, r) == (ps / 4, rs / 4)
    assert f == pytest.approx(2 * p * r / (p + r))
    # the typed block: micro pools the classes, scheme coverage divides by the scheme's n
    out = typed_block(4, 6).rpf(cols)
    pooled = OutcomeCounts()
    for c in classes:
        pooled += c
    assert tuple(out[0]) == (pooled.recall, pooled.precision, pooled.f1)
    assert tuple(out[1]) == tuple(macro_rpf(cols, 4))
    assert tuple(out[2]) == tuple(macro_rpf(cols, 6))


def test_stacked_scorer_is_vectorised_over_leading_axes():
    rpf, width, size = stack([counts_block(), outcome_block(3), counts_block()])
    assert (width, size) == (4 + 9 + 4, 1 + 3 + 1)
    x = np.random.default_rng(2).integers(1, 9, size=(5, 7, width)).astype(float)
    out = rpf(x)
    assert out.shape == (5, 7, size, 3)
    assert out[3, 4, 0, 2] == counts_f1(x[3, 4, 0:4])
    assert out[3, 4, 4, 2] == counts_f1(x[3, 4, 13:17])


# ---------------------------------------------------------------------------------------------
# Resampling as matrix products equals resampling documents one by one
# ---------------------------------------------------------------------------------------------

def test_bootstrap_weights_are_multiplicities_of_documents_drawn_with_replacement():
    w = np.vstack(list(bootstrap_weights(17, 2500, seed=3)))
    assert w.shape == (2500, 17)
    assert np.all(w.sum(1) == 17) and np.all(w >= 0)
    idx = np.random.default_rng([3, 0, 0]).integers(0, 17, size=(BLOCK, 17))
    assert np.array_equal(w[:BLOCK], np.stack([np.bincount(i, minlength=17) for i in idx]))
    # blocks are seeded independently: asking for more resamples keeps the first ones
    assert np.array_equal(np.vstack(list(bootstrap_weights(17, 1000, seed=3))), w[:1000])
    assert not np.array_equal(np.vstack(list(bootstrap_weights(17, 1000, seed=4))), w[:1000])


def test_paired_bootstrap_equals_a_loop_over_resampled_documents():
    rng = np.random.default_rng(4)
    a, b = counts_matrix(rng, 25), counts_matrix(rng, 25)
    res = paired_bootstrap(a, b, lambda c: counts_f1(c)[..., None], resamples=400, seed=11)
    idx = np.random.default_rng([11, 0, 0]).integers(0, 25, size=(400, 25))
    fa = np.array([counts_f1(a[i].sum(0)) for i in idx])
    fb = np.array([counts_f1(b[i].sum(0)) for i in idx])
    assert res.a_ci[0] == pytest.approx(np.percentile(fa, [2.5, 97.5]), abs=1e-12)
    assert res.b_ci[0] == pytest.approx(np.percentile(fb, [2.5, 97.5]), abs=1e-12)
    assert res.delta_ci[0] == pytest.approx(np.percentile(fb - fa, [2.5, 97.5]), abs=1e-12)
    delta = counts_f1(b.sum(0)) - counts_f1(a.sum(0))
    hits = np.sum(np.abs((fb - fa) - delta) >= abs(delta) - 1e-12)
    assert res.p_value[0] == pytest.approx((hits + 1) / 401)


def test_randomization_equals_a_loop_over_swapped_documents():
    rng = np.random.default_rng(5)
    a, b = counts_matrix(rng, 12), counts_matrix(rng, 12)
    p = approximate_randomization(a, b, lambda c: counts_f1(c)[..., None], trials=1999, seed=5)
    masks = np.vstack(list(randomization_masks(12, 1999, seed=5)))
    assert masks.shape == (1999, 12) and set(np.unique(masks)) <= {0.0, 1.0}
    observed = abs(counts_f1(b.sum(0)) - counts_f1(a.sum(0)))
    hits = 0
    for s in masks:
        xa = np.where(s[:, None] == 1, b, a).sum(0)
        xb = np.where(s[:, None] == 1, a, b).sum(0)
        hits += abs(counts_f1(xb) - counts_f1(xa)) >= observed - 1e-12
    assert p[0] == (hits + 1) / 2000


def test_a_system_against_itself_gives_p_1_and_zero_intervals():
    a = counts_matrix(np.random.default_rng(6), 30)
    t = paired_test(a, a, counts_f1, bootstrap=500, randomization=999, seed=1)
    assert t.delta == 0.0 and t.delta_ci == (0.0, 0.0)
    assert t.p_value == 1.0 and t.p_bootstrap == 1.0 and not t.significant()
    assert t.baseline_ci == t.system_ci and t.baseline_ci[0] <= t.baseline <= t.baseline_ci[1]


def test_a_clear_difference_reaches_the_smallest_p_value():
    rng = np.random.default_rng(7)
    a = counts_matrix(rng, 40)
    b = a.copy()
    b[:, 0] = b[:, 1]  # perfect recall everywhere
    b[:, 2] = b[:, 3]
    t = paired_test(a, b, counts_f1, bootstrap=999, randomization=4999, seed=2)
    assert t.delta > 0.3
    assert t.p_value == 1 / 5000 and t.p_bootstrap == 1 / 1000 and t.significant()
    assert t.delta_ci[0] > 0


def test_fixed_seed_is_deterministic_and_seeds_differ():
    rng = np.random.default_rng(8)
    a, b = counts_matrix(rng, 20), counts_matrix(rng, 20)
    t1 = paired_test(a, b, counts_f1, 300, 3000, seed=42)
    t2 = paired_test(a, b, counts_f1, 300, 3000, seed=42)
    t3 = paired_test(a, b, counts_f1, 300, 3000, seed=43)
    assert t1 == t2
    assert (t1.p_value, t1.delta_ci) != (t3.p_value, t3.delta_ci)


def test_every_score_sees_the_same_draws():
    """Adding scores does not change the tests of the others (draws do not depend on columns)."""
    rng = np.random.default_rng(9)
    a, b = counts_matrix(rng, 20), counts_matrix(rng, 20)
    alone = paired_tests(a, b, lambda c: counts_f1(c)[..., None], 200, 500, seed=3)
    rpf, _, _ = stack([counts_block(), counts_block()])
    both = paired_tests(np.hstack([a, b]), np.hstack([b, a]), f1_scorer(rpf), 200, 500, seed=3)
    assert both[0] == alone[0]


def test_randomization_keeps_its_level_under_the_null():
    """Exchangeable systems: p < 0.05 in about 5 % of 300 simulated comparisons (never much more)."""
    rng = np.random.default_rng(10)
    rejected = 0
    for i in range(300):
        x = counts_matrix(rng, 30)
        y = counts_matrix(rng, 30)
        p = approximate_randomization(x, y, lambda c: counts_f1(c)[..., None], trials=199, seed=i)[0]
        rejected += p < 0.05
    assert 3 <= rejected <= 30


def test_nothing_to_resample_gives_nan_and_json_null():
    a = counts_matrix(np.random.default_rng(11), 5)
    t = paired_test(a, a, counts_f1, bootstrap=0, randomization=0)
    assert np.isnan(t.p_value) and np.isnan(t.p_bootstrap) and np.isnan(t.delta_ci[0])
    assert not t.significant()
    d = t.as_dict()
    assert d["p_value"] is None and d["delta_ci"] is None
    json.dumps(d, allow_nan=False)
    empty = paired_test(np.zeros((0, 4)), np.zeros((0, 4)), counts_f1, 100, 100)
    assert empty.delta == 0.0 and np.isnan(empty.p_value)


def test_300_documents_all_metrics_in_well_under_a_few_seconds():
    """1000 bootstrap resamples and 10000 randomization trials over 300 documents for 18 metrics
    and 100 groups of referents (~400 count columns) — the size of a real comparison."""
    rng = np.random.default_rng(12)
    blocks = [counts_block()] * 18 + [outcome_block(100)]
    rpf, width, _ = stack(blocks)
    a = rng.integers(0, 20, size=(300, width)).astype(float)
    b = a + rng.integers(0, 3, size=(300, width))
    start = time.perf_counter()
    tests = paired_tests(a, b, f1_scorer(rpf), bootstrap=1000, randomization=10000, seed=1)
    elapsed = time.perf_counter() - start
    assert len(tests) == 118
    assert elapsed < 10, f"{elapsed:.2f} s"
