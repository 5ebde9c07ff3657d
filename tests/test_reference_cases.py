"""Every test case of the official CoNLL reference scorer (Pradhan et al. 2014), as asserted in its
test/CorefMetricTestConfig.pm (v8.01, and LEA from its LEA-scorer branch), plus the raw counts that
scorer.pl v8.01 prints for each case. Vectors: ../shared/spec/vectors/reference_testcases.json.
"""

from __future__ import annotations

import pytest

from corefreport.io.conll2012 import read_conll2012
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

from conftest import load_vectors, or_skip

CASES = load_vectors("reference_testcases.json")
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")


def score(case: dict):
    key = read_conll2012("key.conll", case["key"])
    resp = read_conll2012("response.conll", case["response"])
    return evaluate(key, resp, Settings(metrics=METRICS))


@pytest.mark.skipif(not CASES, reason="../shared is absent")
def test_vector_file_is_complete():
    assert len(CASES) == 36
    assert sum(len(c["expected"]) for c in CASES) * 3 >= 125 * 3


@pytest.mark.parametrize("case", or_skip([pytest.param(c, id=c["id"]) for c in CASES], "reference_testcases.json"))
def test_expected_values(case):
    """|dR| + |dP| + |dF1| < 1e-4 for every asserted triple — test.pl's own tolerance."""
    ev = score(case)
    for metric, exp in case["expected"].items():
        s = ev.metrics[metric]
        err = abs(s.recall - exp["recall"]) + abs(s.precision - exp["precision"]) + abs(s.f1 - exp["f1"])
        assert err < 1e-4, (metric, s.recall, s.precision, s.f1, exp)


@pytest.mark.parametrize("case", or_skip([pytest.param(c, id=c["id"]) for c in CASES], "reference_testcases.json"))
def test_raw_counts_of_scorer_pl(case):
    """The numerators and denominators scorer.pl v8.01 prints (15 significant digits)."""
    ev = score(case)
    out = case["scorer_pl_v8_01"]
    for metric in ("muc", "bcub", "ceafm", "ceafe"):
        if metric not in out:
            continue
        c = out[metric]["counts"]
        s = ev.metrics[metric]
        assert s.recall_num == pytest.approx(c["recall_num"], abs=1e-12)
        assert s.recall_den == c["recall_den"]
        assert s.precision_num == pytest.approx(c["precision_num"], abs=1e-12)
        assert s.precision_den == c["precision_den"]
    if "blanc" in out:
        b = ev.metrics["blanc"]
        exp = out["blanc"]
        assert (b.coref.recall_num, b.coref.recall_den, b.coref.precision_den) == (
            exp["coref_links"]["correct"], exp["coref_links"]["key"], exp["coref_links"]["response"])
        assert (b.noncoref.recall_num, b.noncoref.recall_den, b.noncoref.precision_den) == (
            exp["noncoref_links"]["correct"], exp["noncoref_links"]["key"], exp["noncoref_links"]["response"])
    if "mentions" in out:
        c = out["mentions"]["counts"]
        assert (ev.mentions.recall_num, ev.mentions.recall_den, ev.mentions.precision_den) == (
            c["recall_num"], c["recall_den"], c["precision_den"])
    lea = (case.get("scorer_pl_v9_0_0_alpha_lea_branch") or {}).get("lea")
    if lea:
        s = ev.metrics["lea"]
        c = lea["counts"]
        assert s.recall_num == pytest.approx(c["recall_num"], abs=1e-9)
        assert s.precision_num == pytest.approx(c["precision_num"], abs=1e-9)
        assert (s.recall_den, s.precision_den) == (c["recall_den"], c["precision_den"])


def test_all_singleton_key_gives_muc_zero():
    """Reference edge case (TC-N-1 style): a key of singletons has no MUC links, so MUC prints 0 for
    R, P and F even for a perfect response, while B³ is 1 (reference-scorer-notes §1)."""
    text = "#begin document (d);\nd\t0\t0\ta\t(1)\nd\t0\t1\tb\t(2)\n#end document\n"
    ev = evaluate(read_conll2012("k", text), read_conll2012("r", text))
    assert ev.metrics["muc"].f1 == 0.0
    assert ev.metrics["bcub"].f1 == 1.0
    assert ev.metrics["lea"].f1 == 1.0


def test_key_with_a_repeated_mention_scores_itself_perfectly_with_dedupe():
    """The reference keeps a repeated key mention and then scores the key against itself below 100 %
    (reference-scorer-notes §1); the default reproduces it, key_duplicates="dedupe" de-duplicates."""
    text = ("#begin document (d);\nd\t0\t0\ta\t(1)\nd\t0\t1\tb\t(1)|(2)\nd\t0\t2\tc\t(2)\nd\t0\t3\te\t(2)\n"
            "#end document\n")
    ev = evaluate(read_conll2012("k", text), read_conll2012("r", text), Settings(key_duplicates="dedupe"))
    assert all(ev.metrics[m].f1 == 1.0 for m in METRICS)
    compat = evaluate(read_conll2012("k", text), read_conll2012("r", text))
    assert compat.metrics["bcub"].f1 < 1.0
