"""ARCS (Tuggener 2014) against the authors' released scorers v1.2 (../shared/spec/vectors/
arcs_vectors.json, values printed by the original scripts), the slides' examples and table
arithmetic. Where v1.2 double-counts or crashes, we test our documented value (metric-semantics
§2.3 N6, §2.4 X6) and check that compat=True reproduces v1.2."""

from __future__ import annotations

import pytest

from corefreport.io import load_corpus
from corefreport.io.conll2012 import read_conll2012
from corefreport.io.features import annotate
from corefreport.scoring.arcs import arcs_rows
from corefreport.scoring.outcomes import OutcomeCounts, tally

from conftest import load_vectors, shared_path

_V = load_vectors("arcs_vectors.json")
CASES = [(c, variant) for c in (_V["cases"] if _V else []) for variant in c["expected_from_original_scorers"]]


def run(case, variant, compat):
    key = next(iter(read_conll2012("key.conll", case["key_conll"])))
    resp = next(iter(read_conll2012("response.conll", case["response_conll"][variant])))
    annotate(key)
    annotate(resp)
    return arcs_rows(key, resp, compat=compat, anchor_singletons=variant == "response_singletons_written")


def counts(rows, scenario):
    t = tally(r for r in rows if r.analysis == scenario)
    return t


@pytest.mark.parametrize("case, variant", CASES, ids=[f"{c['id']}/{v[9:]}" for c, v in CASES])
def test_released_scorer_counts_in_compat_mode(case, variant):
    exp = case["expected_from_original_scorers"][variant]
    rows, anchor = run(case, variant, compat=True)
    for scenario in ("immediate", "inferred"):
        t = counts(rows, scenario)
        e = exp[scenario]
        assert (t.tp, t.wl, t.fn, t.fp) == (e["tp"], e["wl"], e["fn"], e["fp"]), scenario
        assert round(100 * t.recall, 2) == e["R"] and round(100 * t.precision, 2) == e["P"]
        assert round(100 * t.f1, 2) == e["F"] and round(100 * t.accuracy, 2) == e["Acc"]
    a = exp["anchor"]
    if "Entity Detection" not in a:  # v1.2 crashed before printing (X6): we define 0/0 = 0
        assert anchor.ed.tp == 0 and anchor.f_phi == 0.0
        return
    ed, em = a["Entity Detection"], a["Entity Mentions"]
    assert (anchor.ed.tp, anchor.ed.fn, anchor.ed.fp) == (ed["tp"], ed["fn"], ed["fp"])
    assert (anchor.em.tp, anchor.em.fn, anchor.em.fp) == (em["tp"], em["fn"], em["fp"])
    if a.get("F_harm") is not None:
        assert round(100 * anchor.f_phi, 2) == pytest.approx(a["F_harm"], abs=0.01)
    else:  # v1.2: ZeroDivisionError in F_harm when F_ED = F_EM = 0
        assert anchor.f_phi == 0.0
    # scenario-3 rows are the Entity Mentions outcomes
    t = counts(rows, "anchor")
    assert (t.tp, t.fn, t.fp) == (em["tp"], em["fn"], em["fp"])


@pytest.mark.skipif(not CASES, reason="../shared is absent")
def test_e5_double_count_is_fixed_by_default():
    """N6: v1.2 counts 'president' (nominal, no nominal key antecedent, a nominal response antecedent)
    as wl AND fp in scenario 2 (wl 2, fp 2); by default it is only fp (wl 1, fp 2)."""
    case = next(c for c, _ in CASES if c["id"] == "E5-inferred-double-count")
    rows, _ = run(case, "response_singletons_omitted", compat=False)
    t = counts(rows, "inferred")
    assert (t.tp, t.wl, t.fn, t.fp) == (0, 1, 0, 2)


def test_slide_arithmetic_he_berkeley():
    """Slides' He/She table: He, Berkeley tp 664 wl 184 fn 27 fp 7 → R 75.89, P 77.66, F 76.76."""
    c = OutcomeCounts(tp=664, wl=184, fn=27, fp=7, credit=664)
    assert (round(100 * c.recall, 2), round(100 * c.precision, 2), round(100 * c.f1, 2)) == (75.89, 77.66, 76.76)


@pytest.mark.skipif(not CASES, reason="../shared is absent")
def test_slide_s1_f_is_the_harmonic_mean_not_the_slides_075():
    """Slide S1 ([A-B-C] vs [A-B][C]): R .5, P 1; the slide prints F .75 (arithmetic mean), the
    scorer 66.67 (harmonic) — we follow the formula."""
    case = next(c for c, _ in CASES if c["id"] == "slide-S1-resp1")
    rows, _ = run(case, "response_singletons_omitted", compat=False)
    assert round(100 * counts(rows, "immediate").f1, 2) == 66.67


def test_gum_invariants():
    """On GUM vs xrenner: each key referent appears at most once per scenario, every FP comes from
    the response, and TP/WL always carry a response antecedent."""
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", "gum.conll")))
    resp = load_corpus(str(shared_path("data", "xrenner", "conll2012", "ml-gum.conll")))
    total = OutcomeCounts()
    for kd in key:
        rd = resp.documents[kd.doc_id]
        annotate(kd)
        annotate(rd)
        rows, _ = arcs_rows(kd, rd)
        for scenario in ("immediate", "inferred"):
            recall_rows = [(r.start, r.end) for r in rows if r.analysis == scenario and r.outcome != "FP"]
            assert len(recall_rows) == len(set(recall_rows))
        for r in rows:
            if r.outcome in ("TP", "WL"):
                assert r.response_antecedent is not None
        total += tally(r for r in rows if r.analysis == "immediate")
    assert total.tp > 1000 and 0.4 < total.recall < 0.9 and 0.4 < total.precision < 0.95
