"""ARCS (Tuggener 2014) as outcome rows — checked against

* every vector of ``../shared/spec/vectors/arcs_vectors.json`` (values printed by the authors'
  released scorers v1.2): with ``ArcsOptions(compat=True, anchor_singletons=True)`` we print the same
  counts and R/P/F/Acc; by default we test OUR documented values where v1.2 double-counts (N6,
  vector E5), crashes (X6: vectors S1-resp2, S2-resp3, S3-resp3, E1, E4) or counts written response
  singletons as entities (2.9.3) — metric-semantics.md §2;
* the slides' worked examples, mention by mention (scenario 3's toy reading via the optional
  ``anchor_link`` view) and the slides' table arithmetic;
* the real GUM key vs the xrenner response: invariants that follow from rules I1–I5 / N1–N5 / X1–X6.

Tests that need ``../shared`` skip when it is absent.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from dataclasses import replace

import pytest
from conftest import load_vectors, shared_path

from corefreport.io.conll2012 import read_conll2012
from corefreport.scoring.features import annotated
from corefreport.model import Document, Mention
from corefreport.scoring.antecedents import (
    ENGLISH,
    GERMAN,
    anchor,
    anchor_index,
    closest_nominal,
    closest_nominal_indices,
    immediate_antecedent,
    order_chain,
)
from corefreport.scoring.arcs import (
    ANCHOR_LINK,
    SCENARIOS,
    AnchorScores,
    ArcsOptions,
    anchor_scores,
    arcs_document,
    arcs_rows,
    index_pair,
)
from corefreport.scoring.counts import harmonic
from corefreport.scoring.outcomes import OutcomeCounts, group_by, select, tally

_V = load_vectors("arcs_vectors.json")
CASES = [(c, v) for c in (_V["cases"] if _V else []) for v in c["expected_from_original_scorers"]]
CASE_IDS = [f"{c['id']}/{v.split('_')[2]}" for c, v in CASES]
needs_vectors = pytest.mark.skipif(not CASES, reason="../shared/spec/vectors/arcs_vectors.json is absent")
COMPAT = ArcsOptions(compat=True, anchor_singletons=True)
# v1.2 crashed (ZeroDivisionError, X6) or double-counted (N6) on these; we test our documented value
N6_CASES = {"E5-inferred-double-count"}


def doc_of(text: str, name: str = "x.conll") -> Document:
    return annotated(next(iter(read_conll2012(name, text))))


def case_docs(case: dict, variant: str) -> tuple[Document, Document]:
    return doc_of(case["key_conll"], "key.conll"), doc_of(case["response_conll"][variant], "response.conll")


def counts(rows, scenario: str) -> OutcomeCounts:
    return tally(r for r in rows if r.analysis == scenario)


def pct(x: float) -> float:
    return round(100 * x, 2)


def assert_printed(t: OutcomeCounts, e: dict) -> None:
    """Counts and the four scores exactly as v1.2 prints them (percent, 2 decimals)."""
    assert (t.tp, t.wl, t.fn, t.fp) == (e["tp"], e["wl"], e["fn"], e["fp"])
    assert (pct(t.recall), pct(t.precision), pct(t.f1), pct(t.accuracy)) == (e["R"], e["P"], e["F"], e["Acc"])


def case(cid: str) -> dict:
    return next(c for c, _ in CASES if c["id"] == cid)


# --------------------------------------------------------------------------------------------------
# the released scorers' vectors


@needs_vectors
@pytest.mark.parametrize("case, variant", CASES, ids=CASE_IDS)
def test_vector_compat_mode_prints_what_v12_prints(case, variant):
    """compat=True + anchor_singletons=True reproduces v1.2's counts, R, P, F, Acc and ED/EM/F_harm
    (where v1.2 crashed, X6, we give 0 instead of the exception)."""
    key, resp = case_docs(case, variant)
    rows, anchor_counts = arcs_document(key, resp, options=COMPAT)
    exp = case["expected_from_original_scorers"][variant]
    for scenario in ("immediate", "inferred"):
        assert_printed(counts(rows, scenario), exp[scenario])
    a = exp["anchor"]
    if "Entity Detection" not in a:  # E1: v1.2 crashed before printing anything (X6)
        assert (anchor_counts.ed.tp, anchor_counts.ed.fn) == (0, 0) and anchor_counts.f_phi == 0.0
        return
    ed, em = a["Entity Detection"], a["Entity Mentions"]
    assert (anchor_counts.ed.tp, anchor_counts.ed.fn, anchor_counts.ed.fp) == (ed["tp"], ed["fn"], ed["fp"])
    assert (anchor_counts.em.tp, anchor_counts.em.fn, anchor_counts.em.fp) == (em["tp"], em["fn"], em["fp"])
    for mine, theirs in ((anchor_counts.ed, ed), (anchor_counts.em, em)):
        if "error" not in a or mine.tp + mine.fn:  # v1.2 printed these before crashing in F_harm
            assert (pct(mine.recall), pct(mine.precision), pct(mine.f1)) == (theirs["R"], theirs["P"], theirs["F"])
    if a.get("F_harm") is not None:
        assert pct(anchor_counts.f_phi) == a["F_harm"]
    else:  # X6: v1.2 raised ZeroDivisionError (F_ED = F_EM = 0); our documented value is 0
        assert "ZeroDivisionError" in a["error"] and anchor_counts.f_phi == 0.0
    em_rows = counts(rows, "anchor")  # the scenario-3 rows are the Entity Mentions outcomes
    assert (em_rows.tp, em_rows.fn, em_rows.fp, em_rows.wl) == (em["tp"], em["fn"], em["fp"], 0)


@needs_vectors
@pytest.mark.parametrize("case, variant", CASES, ids=CASE_IDS)
def test_vector_default_mode_is_our_documented_value(case, variant):
    """Default options: scenario 1 = v1.2; scenario 2 = v1.2 except N6 (E5); scenario 3 ignores
    response singletons, i.e. equals v1.2 run on the file with the singletons omitted (2.9.3)."""
    key, resp = case_docs(case, variant)
    rows, anchor_counts = arcs_document(key, resp)
    exp = case["expected_from_original_scorers"][variant]
    assert_printed(counts(rows, "immediate"), exp["immediate"])
    if case["id"] in N6_CASES:
        # v1.2: "pres" (nominal, no nominal key antecedent, nominal response antecedent "Obama") is
        # wl AND fp (wl 2, fp 2); ours: fp only → tp 0 wl 1 fn 0 fp 2, R 0, P 0
        t = counts(rows, "inferred")
        assert (t.tp, t.wl, t.fn, t.fp) == (0, 1, 0, 2)
        assert exp["inferred"]["wl"] == 2  # the v1.2 quirk we deliberately do not reproduce
    else:
        assert_printed(counts(rows, "inferred"), exp["inferred"])
    omitted = case["expected_from_original_scorers"]["response_singletons_omitted"]["anchor"]
    if "Entity Detection" in omitted:
        ed, em = omitted["Entity Detection"], omitted["Entity Mentions"]
        assert (anchor_counts.ed.tp, anchor_counts.ed.fn, anchor_counts.ed.fp) == (ed["tp"], ed["fn"], ed["fp"])
        assert (anchor_counts.em.tp, anchor_counts.em.fn, anchor_counts.em.fp) == (em["tp"], em["fn"], em["fp"])
        assert pct(anchor_counts.f_phi) == (omitted["F_harm"] if omitted.get("F_harm") is not None else 0.0)
    else:  # E1: no key chain with an anchor → nothing counted, no crash
        assert anchor_counts.as_dict()["ed"] == {"tp": 0, "fn": 0, "fp": 0, "recall": 0.0, "precision": 1.0,
                                                 "f1": 0.0}
        assert anchor_counts.f_phi == 0.0


@needs_vectors
@pytest.mark.parametrize("cid", ["slide-S1-resp2", "slide-S2-resp3", "slide-S3-resp3", "E4-non-gold-antecedent"])
def test_x6_crash_cases_give_zero_not_an_exception(cid):
    """X6: v1.2 raised ZeroDivisionError in F_harm (no entity detected: F_ED = F_EM = 0). We define
    0/0 = 0: ED R 0, F_ED 0, EM 0/0 → 0, Fφ 0."""
    c = case(cid)
    key, resp = case_docs(c, "response_singletons_omitted")
    assert "ZeroDivisionError" in c["expected_from_original_scorers"]["response_singletons_omitted"]["anchor"]["error"]
    s = anchor_scores(key, resp)
    assert s.ed.tp == 0 and s.ed.fn == 1 and s.ed.f1 == 0.0 and s.em.f1 == 0.0 and s.f_phi == 0.0
    assert s.as_dict()["f_phi"] == 0.0


@needs_vectors
def test_written_singletons_change_v12_but_not_our_scenario_3():
    """2.9.3: with v1.2 a written response singleton is a spurious entity (ED fp) — Fφ 72.73 instead
    of 88.89 for the same clustering. By default we ignore it; anchor_singletons=True restores v1.2."""
    c = case("slide-S1-resp1")
    key, written = case_docs(c, "response_singletons_written")
    _, omitted = case_docs(c, "response_singletons_omitted")
    assert pct(anchor_scores(key, written).f_phi) == pct(anchor_scores(key, omitted).f_phi) == 88.89
    assert pct(anchor_scores(key, written, options=ArcsOptions(anchor_singletons=True)).f_phi) == 72.73


# --------------------------------------------------------------------------------------------------
# the slides' worked examples, mention by mention


def mention_spans(c: dict, variant: str) -> dict[str, tuple[int, int]]:
    """The vector's mention ids → spans: its mention list is in document order."""
    key, resp = case_docs(c, variant)
    spans = sorted({m.span for d in (key, resp) for m in d.mentions})
    assert len(spans) == len(c["mentions"])
    return {m["id"]: s for m, s in zip(c["mentions"], spans)}


def outcomes(c: dict, scenario: str, variant: str = "response_singletons_omitted") -> dict[str, str]:
    """Mention id → outcome of the rows of ``scenario`` (ids by span)."""
    ids = {s: i for i, s in mention_spans(c, variant).items()}
    key, resp = case_docs(c, variant)
    return {ids[r.span]: r.outcome for r in arcs_rows(key, resp, scenario)}


@needs_vectors
@pytest.mark.parametrize("cid, scenario, expected", [
    # Scenario 1, key [A-B-C]: "response 1: [A-B] [C] → 1 tp (B), 1 fn (C)"
    ("slide-S1-resp1", "immediate", {"B": "TP", "C": "FN"}),
    # "response 2: [A] [B-C] → 1 tp (C), 1 fn (B)"
    ("slide-S1-resp2", "immediate", {"B": "FN", "C": "TP"}),
    # "response 3: [A-C] [B] → 1 fn (B), 1 wl (C)" — "B missing … C counted as wrong linkage"
    ("slide-S1-resp3", "immediate", {"B": "FN", "C": "WL"}),
    # Scenario 2, key [NOUN-PRONOUN1-PRONOUN2]: response 1 [NOUN-PRONOUN1][PRONOUN2] → 1 tp, 1 fn
    ("slide-S2-resp1", "inferred", {"PRONOUN1": "TP", "PRONOUN2": "FN"}),
    # response 2 [NOUN-PRONOUN2][PRONOUN1] → 1 tp, 1 fn (scenario 1 would say wl for PRONOUN2)
    ("slide-S2-resp2", "inferred", {"PRONOUN1": "FN", "PRONOUN2": "TP"}),
    ("slide-S2-resp2", "immediate", {"PRONOUN1": "FN", "PRONOUN2": "WL"}),
    # response 3 [NOUN][PRONOUN1-PRONOUN2] → 2 fn ("does not infer a nominal antecedent")
    ("slide-S2-resp3", "inferred", {"PRONOUN1": "FN", "PRONOUN2": "FN"}),
    # Scenario 3 (toy reading, anchor_link view), key [NAMED_ENTITY-NOUN-PRONOUN]
    ("slide-S3-resp1", ANCHOR_LINK, {"NOUN": "TP", "PRONOUN": "FN"}),
    ("slide-S3-resp2", ANCHOR_LINK, {"NOUN": "FN", "PRONOUN": "TP"}),
    ("slide-S3-resp3", ANCHOR_LINK, {"NOUN": "FN", "PRONOUN": "FN"}),  # "anchor is missing in 3"
    # special cases (A5): merge [A-B],[C-D] → [A-B-C-D]: C → fp; split [A-B-C-D] → [A-B],[C-D]: C → fn
    ("slide-special-merge", "immediate", {"B": "TP", "C": "FP", "D": "TP"}),
    ("slide-special-split", "immediate", {"B": "TP", "C": "FN", "D": "TP"}),
])
def test_slide_worked_examples(cid, scenario, expected):
    assert outcomes(case(cid), scenario) == expected


@needs_vectors
@pytest.mark.parametrize("cid, scenario, r, p", [
    ("slide-S1-resp1", "immediate", 0.5, 1.0), ("slide-S1-resp2", "immediate", 0.5, 1.0),
    ("slide-S1-resp3", "immediate", 0.0, 0.0), ("slide-S2-resp1", "inferred", 0.5, 1.0),
    ("slide-S2-resp2", "inferred", 0.5, 1.0), ("slide-S2-resp3", "inferred", 0.0, 0.0),
    ("slide-S3-resp1", ANCHOR_LINK, 0.5, 1.0), ("slide-S3-resp2", ANCHOR_LINK, 0.5, 1.0),
    ("slide-S3-resp3", ANCHOR_LINK, 0.0, 0.0),
])
def test_slide_worked_example_scores(cid, scenario, r, p):
    """The slides' R and P of each worked example. Their F (.75) is the arithmetic mean of R and P;
    every slide table and the scorers use the harmonic mean, so F = 2·.5·1/1.5 = .667 (2.9.1)."""
    key, resp = case_docs(case(cid), "response_singletons_omitted")
    t = tally(arcs_rows(key, resp, scenario))
    assert (t.recall, t.precision) == (r, p)
    assert t.f1 == pytest.approx(harmonic(p, r)) and (r == 0 or round(t.f1, 3) == 0.667)


@needs_vectors
def test_rows_carry_both_antecedents_and_key_features():
    """Scenario 1, [A-B-C] vs [A-C][B]: C's key antecedent is B, its response antecedent A (WL);
    B is FN with no response antecedent. Scenario 2 and 3 rows name their own notion's antecedent."""
    c = case("slide-S1-resp3")
    sp = mention_spans(c, "response_singletons_omitted")
    key, resp = case_docs(c, "response_singletons_omitted")
    rows = {(r.analysis, r.span): r for r in arcs_document(key, resp)[0]}
    wl = rows[("immediate", sp["C"])]
    assert (wl.outcome, wl.key_antecedent, wl.response_antecedent) == ("WL", sp["B"], sp["A"])
    assert (wl.credit, wl.cls, wl.type, wl.text) == (0.0, "PRP", "he", "he")
    fn = rows[("immediate", sp["B"])]
    assert (fn.outcome, fn.key_antecedent, fn.response_antecedent) == ("FN", sp["A"], None)
    tp = rows[("inferred", sp["C"])]  # closest nominal: A on both sides
    assert (tp.outcome, tp.credit, tp.key_antecedent, tp.response_antecedent) == ("TP", 1.0, sp["A"], sp["A"])
    anchor_row = rows[("anchor", sp["A"])]  # EM: the anchor itself is a TP (X3)
    assert (anchor_row.outcome, anchor_row.key_antecedent, anchor_row.response_antecedent) == ("TP", sp["A"], sp["A"])
    kmention = next(m for m in key.mentions if m.span == sp["C"])
    assert wl.features == kmention.features and wl.features is not kmention.features  # a copy (A4: key)
    assert wl.features["mtype"] == "PRONOUN" and wl.get("pos_class") == "PRP"


@needs_vectors
def test_fp_rows_describe_the_response_mention():
    """A4: fp is binned by the response mention. E3: the non-gold 'it' added to [Obama-he]."""
    c = case("E3-non-gold-mention-in-chain")
    sp = mention_spans(c, "response_singletons_omitted")
    key, resp = case_docs(c, "response_singletons_omitted")
    rows = arcs_document(key, resp)[0]
    for scenario in SCENARIOS:
        (fp,) = select(rows, analysis=scenario, outcome="FP")
        assert fp.span == sp["it"] and fp.key_antecedent is None and fp.credit == 0.0
        rmention = next(m for m in resp.mentions if m.span == sp["it"])
        assert fp.features == rmention.features
    imm = select(rows, analysis="immediate", outcome="FP")[0]
    assert imm.response_antecedent == sp["he"]
    inf = select(rows, analysis="inferred", outcome="FP")[0]
    assert inf.response_antecedent == sp["Obama"]


@needs_vectors
def test_e2_cataphora_and_e7_pronoun_chains():
    """E2 [he-Obama-him]: scenario 1 counts Obama and him; scenario 2 skips Obama (no nominal
    antecedent anywhere, N2); the cataphoric 'he' is skipped (I2) and not counted anywhere.
    E7: the I-I chain is not evaluated (I1), but merging it into Obama's chain is fp (N4b/N5)."""
    e2 = case("E2-cataphora")
    assert outcomes(e2, "immediate") == {"Obama": "TP", "him": "TP"}
    assert outcomes(e2, "inferred") == {"him": "TP"}
    e7 = case("E7-pronoun-chain-merged-into-named-chain")
    assert outcomes(e7, "immediate") == {"he": "WL", "I1": "FP"}
    assert outcomes(e7, "inferred") == {"he": "TP", "I1": "FP", "I2": "FP"}


# --------------------------------------------------------------------------------------------------
# the antecedent notions and rule A3


def test_antecedent_notions_on_an_ordered_chain():
    chain = ["he", "Obama", "him", "the president", "his"]
    nominal = [False, True, False, True, False]
    assert immediate_antecedent(chain, 0) is None and immediate_antecedent(chain, 2) == "Obama"
    assert closest_nominal(chain, 1, nominal) is None and closest_nominal(chain, 4, nominal) == "the president"
    assert closest_nominal_indices(nominal) == [-1, -1, 1, 1, 3]
    assert [closest_nominal(chain, i, nominal) for i in range(5)] == [None, None, "Obama", "Obama", "the president"]
    assert anchor(chain, nominal) == "Obama" and anchor_index(nominal) == 1
    assert anchor(["I", "me"], [False, False]) is None and anchor_index([]) == -1


def test_rule_a3_categories_and_configurable_tag_sets():
    assert ENGLISH.from_tag("NNP", True) == ENGLISH.from_tag(None, False)  # names and multi-token: NOUN
    noun = ENGLISH.from_tag("NN", True)
    assert (noun.category, noun.nominal, noun.pronoun) == ("NOUN", True, False)
    dt = ENGLISH.from_tag("DT", True)  # "that": neither nominal nor pronoun
    assert (dt.category, dt.nominal, dt.pronoun) == ("DT", False, False)
    poss = ENGLISH.from_tag("PRP$", True)
    assert (poss.category, poss.nominal, poss.pronoun) == ("PRP$", False, True)
    wp = ENGLISH.from_tag("WP", True)
    assert not wp.pronoun and not wp.nominal  # A3: pronoun ⇔ PRP / PRP$ only
    assert GERMAN.from_tag("NE", True).nominal and GERMAN.from_tag("PPOSAT", True).pronoun
    assert not GERMAN.from_tag("NNP", True).nominal


def test_order_chain_is_start_order_enclosing_first_each_span_once():
    from corefreport.model import Mention

    ms = [Mention(5, 5), Mention(0, 3), Mention(0, 0), Mention(5, 5), Mention(2, 2)]
    assert [m.span for m in order_chain(ms)] == [(0, 3), (0, 0), (2, 2), (5, 5)]
    assert [m.span for m in order_chain(ms, seen={(2, 2)})] == [(0, 3), (0, 0), (5, 5)]


POS_ONLY = """#begin document (t); part 000
t\t0\t0\tThe\tDT\t*\t-\t-\t-\t-\t*\t(1
t\t0\t1\tman\tNN\t*\t-\t-\t-\t-\t*\t1)
t\t0\t2\tsaw\tVBD\t*\t-\t-\t-\t-\t*\t-
t\t0\t3\thimself\tPRP\t*\t-\t-\t-\t-\t*\t(1)
t\t0\t4\tand\tCC\t*\t-\t-\t-\t-\t*\t-
t\t0\t5\tthat\tDT\t*\t-\t-\t-\t-\t*\t(1)
t\t0\t6\tPaul\tNNP\t*\t-\t-\t-\t-\t(PERSON)\t(1)

#end document
"""


def test_no_pos_column_falls_back_to_mention_types():
    """Recommendation 2.9.4: without POS, nominal ⇔ NAME/NOMINAL, pronoun ⇔ PRONOUN."""
    three_col = "#begin document (t); part 000\n" + "".join(
        f"{i}\t{w}\t{c}\n" for i, (w, c) in enumerate([("The", "(1"), ("man", "1)"), ("saw", "-"), ("him", "(1)")])
    ) + "\n#end document\n"
    d = doc_of(three_col)
    assert "pos" not in d.columns
    rows = arcs_rows(d, d, "inferred")
    assert [(r.text, r.outcome, r.type) for r in rows] == [("him", "TP", "him")]


def test_a3_on_pos_and_row_classes():
    """'The man' (multi-token) and 'Paul' are nominal, 'that' (DT) is not (A3; its mention type is
    NOMINAL), 'himself' is a pronoun, binned by its word."""
    d = doc_of(POS_ONLY)
    rows = arcs_rows(d, d, "inferred")
    assert [(r.text, r.outcome, r.key_antecedent) for r in rows] == [
        ("himself", "TP", (0, 1)), ("that", "TP", (0, 1)), ("Paul", "TP", (0, 1))]
    assert [(r.cls, r.type) for r in rows] == [("PRP", "himself"), ("DT", "NOMINAL"), ("NOUN", "NAME")]


NE_FALLBACK = """#begin document (t); part 000
t\t0\t0\tthe\tDT\t*\t-\t-\t-\t-\t*\t(1
t\t0\t1\tsenator\tNN\t*\t-\t-\t-\t-\t*\t1)
t\t0\t2\tmet\tVBD\t*\t-\t-\t-\t-\t*\t-
t\t0\t3\tNew\tNNP\t*\t-\t-\t-\t-\t(GPE*\t(2
t\t0\t4\tYork\tNNP\t*\t-\t-\t-\t-\t*)\t2)
t\t0\t5\tand\tCC\t*\t-\t-\t-\t-\t*\t-
t\t0\t6\tObama\tNNP\t*\t-\t-\t-\t-\t(PERSON)\t(1)
t\t0\t7\tthere\tRB\t*\t-\t-\t-\t-\t*\t(2)

#end document
"""


def test_anchor_ne_type_and_its_fallback():
    """X1: entity type = the anchor's NE (multi-token: an NE opening on its first and closing on its
    last token: 'New York' → GPE); an untyped anchor ('the senator') takes the chain's only other tag
    (Obama's PERSON)."""
    d = doc_of(NE_FALLBACK)
    s = anchor_scores(d, d)
    assert sorted(s.ed_by) == ["GPE", "PERSON"]
    assert s.ed_by["PERSON"].tp == 1 and s.em_by["PERSON"].tp == 2 and s.em_by["GPE"].tp == 2
    assert s.as_dict()["by_ne"]["GPE"]["f_phi"] == 1.0 and s.f_phi == 1.0


def test_anchor_scores_sum_over_documents():
    """Counts are micro sums (a += b), also per NE type; Fφ is computed from the sums. A response
    missing 'Obama' leaves 'the senator' a singleton: PERSON not detected (ED fn), and then EM counts
    nothing for it (X3)."""
    d = doc_of(NE_FALLBACK)
    r = doc_of(NE_FALLBACK.replace("\t(1)\n", "\t-\n"))  # the response misses 'Obama'
    one, two = anchor_scores(d, d), anchor_scores(d, r)
    assert (two.ed.tp, two.ed.fn, two.ed.fp) == (1, 1, 0) and (two.em.tp, two.em.fn) == (2, 0)
    total = AnchorScores()
    total += one
    total += two
    assert (total.ed.tp, total.ed.fn, total.ed.fp) == (3, 1, 0)
    assert (total.em.tp, total.em.fn, total.em.fp) == (6, 0, 0)
    assert (total.ed_by["PERSON"].tp, total.ed_by["PERSON"].fn, total.em_by["PERSON"].tp) == (1, 1, 2)
    assert (one + two).as_dict() == total.as_dict()
    assert total.f_phi == pytest.approx(harmonic(harmonic(1.0, 0.75), 1.0))


def test_missing_response_document_and_unknown_scenario():
    d = doc_of(POS_ONLY)
    rows, s = arcs_document(d, None)
    assert {r.outcome for r in rows} == {"FN"} and s.ed.fn == 1 and s.f_phi == 0.0
    with pytest.raises(ValueError, match="unknown ARCS scenario"):
        arcs_rows(d, d, "immediately")


def test_pair_index_is_reused_across_scenarios():
    d = doc_of(POS_ONLY)
    p = index_pair(d, d, doc_id="custom")
    rows = [r for s in SCENARIOS for r in arcs_rows(d, d, s, pair=p)]
    assert {r.doc_id for r in rows} == {"custom"} and all(r.outcome == "TP" for r in rows)
    assert len(rows) == 3 + 3 + 4


# --------------------------------------------------------------------------------------------------
# the slides' table arithmetic


# Scenario 2, "Comparison of 3rd person pronouns": (system, R, P, F, tp, wl, fn, fp)
HE_SHE = {
    "He": [("Berk", 75.89, 77.66, 76.76, 664, 184, 27, 7), ("IMS", 63.73, 73.77, 68.39, 557, 193, 124, 5),
           ("Stan", 61.90, 69.63, 65.54, 541, 230, 103, 6)],
    "She": [("Berk", 48.25, 47.95, 48.10, 152, 160, 3, 5), ("IMS", 51.59, 57.86, 54.55, 162, 113, 39, 5),
            ("Stan", 44.16, 62.10, 51.61, 136, 78, 94, 5)],
}


@pytest.mark.parametrize("pronoun, row", [(p, r) for p, rows in HE_SHE.items() for r in rows],
                         ids=[f"{p}-{r[0]}" for p, rows in HE_SHE.items() for r in rows])
def test_slide_he_she_table_is_outcome_counts_arithmetic(pronoun, row):
    """R = tp/(tp+wl+fn), P = tp/(tp+wl+fp), F harmonic — e.g. He, Berkeley: 664/875 = 75.89,
    664/855 = 77.66, F 76.76 — i.e. OutcomeCounts with credit 1 per tp."""
    _, r, p, f, tp, wl, fn, fp = row
    c = OutcomeCounts(tp=tp, wl=wl, fn=fn, fp=fp, credit=float(tp))
    assert (pct(c.recall), pct(c.precision), pct(c.f1)) == (r, p, f)


def test_slide_he_she_header_counts_are_system_dependent():
    """2.7: the header counts (He 874, She 309) are not tp+wl+fn of every system, so the slides'
    scorer version skipped mentions differently from v1.2 (documented, not reproducible)."""
    he = [tp + wl + fn for *_, tp, wl, fn, _fp in HE_SHE["He"]]
    she = [tp + wl + fn for *_, tp, wl, fn, _fp in HE_SHE["She"]]
    assert he == [875, 874, 874] and she == [315, 314, 308]


# Scenarios 1 and 2 tables: (R, P, F) rows of NOUN, PRP, PRP$, TOTAL for Berkeley, IMS, Stanford
SCENARIO_TABLES = [
    (45.06, 47.06, 46.04), (67.66, 64.87, 66.24), (74.49, 74.32, 74.41), (56.60, 56.91, 56.76),
    (38.01, 43.09, 40.39), (69.06, 68.64, 68.85), (72.57, 72.11, 72.34), (53.55, 57.55, 55.48),
    (38.51, 42.92, 40.60), (65.55, 61.09, 63.25), (66.12, 65.70, 65.91), (51.70, 52.69, 52.19),
    (55.54, 60.37, 57.85), (48.92, 53.62, 51.16), (61.95, 66.80, 64.28), (52.94, 58.04, 55.37),
    (46.90, 54.96, 50.61), (43.04, 57.42, 49.20), (51.51, 63.54, 56.90), (45.27, 56.47, 50.25),
    (50.03, 57.62, 53.56), (36.67, 45.97, 40.80), (40.64, 52.38, 45.77), (43.01, 51.73, 46.97),
]


@pytest.mark.parametrize("r, p, f", SCENARIO_TABLES)
def test_slide_scenario_tables_use_the_harmonic_mean(r, p, f):
    assert harmonic(p, r) == pytest.approx(f, abs=0.01)


# Scenario 3 table: (ED R, P, F, EM R, P, F, Fφ) for PERSON, GPE, ORG, TOTAL × Berkeley, IMS, Stanford
ANCHOR_TABLE = [
    (64.02, 75.88, 69.45, 63.60, 66.29, 64.92, 67.11), (45.66, 51.69, 48.48, 47.67, 73.45, 57.82, 52.74),
    (56.33, 59.74, 57.98, 53.84, 84.37, 65.73, 61.61), (73.21, 77.36, 75.23, 69.89, 83.73, 76.19, 75.71),
    (73.51, 74.17, 73.84, 69.94, 90.04, 78.73, 76.21), (70.24, 76.62, 73.29, 68.44, 88.81, 77.30, 75.24),
    (62.78, 67.13, 64.88, 66.87, 74.78, 70.60, 67.62), (44.98, 54.30, 49.20, 57.26, 81.66, 67.32, 56.85),
    (49.68, 58.56, 53.75, 57.25, 79.05, 66.41, 59.41), (58.65, 53.19, 55.79, 72.65, 74.28, 73.45, 63.41),
    (47.16, 42.66, 44.80, 65.88, 79.40, 72.01, 55.24), (48.62, 41.40, 44.72, 65.66, 80.48, 72.32, 55.27),
]


@pytest.mark.parametrize("row", ANCHOR_TABLE)
def test_slide_anchor_table_f_phi_is_harmonic_of_f_ed_and_f_em(row):
    ed_r, ed_p, ed_f, em_r, em_p, em_f, fphi = row
    assert harmonic(ed_p, ed_r) == pytest.approx(ed_f, abs=0.01)
    assert harmonic(em_p, em_r) == pytest.approx(em_f, abs=0.01)
    assert harmonic(ed_f, em_f) == pytest.approx(fphi, abs=0.01)


# --------------------------------------------------------------------------------------------------
# real data: GUM key vs xrenner response


def _gum():
    key = read_conll2012(shared_path("data", "gum", "derived", "conll2012", "gum.conll"))
    resp = read_conll2012(shared_path("data", "xrenner", "conll2012", "ml-gum.conll"))
    return (replace(key, documents={i: annotated(d) for i, d in key.documents.items()}),
            replace(resp, documents={i: annotated(d) for i, d in resp.documents.items()}))


def _chains(doc: Document) -> list[list[tuple[int, int]]]:
    """Chains as span lists in start order (enclosing first), each span once per document —
    an independent restatement of A2 for the invariants below."""
    seen: set = set()
    out = []
    for c in doc.chains:
        spans = []
        for m in c.mentions:
            if m.span not in seen:
                seen.add(m.span)
                spans.append(m.span)
        if spans:
            out.append(sorted(spans, key=lambda s: (s[0], -s[1])))
    return out


def test_gum_rows_satisfy_the_rules_invariants(capsys):
    """For every GUM document, from an independent statement of the rules:

    * scenario 1: every key mention after the first of a chain (≥ 2 mentions, with a nominal — I1)
      that is not a cataphoric pronoun (I2) has exactly one TP/WL/FN row; TP ⇔ both antecedents
      equal; fp = response non-first mentions that are not key mentions or start a key chain (I5);
    * scenario 2: the same referents, minus those without a nominal key antecedent that are not
      first in their response chain (N2 skip, or N6: left to precision); TP ⇔ the response
      antecedent is in the referent's key chain;
    * scenario 3: TP + FN rows = the mentions of detected entities, ED tp + fn = key chains with an
      anchor, EM counts = row counts; credit 1 ⇔ TP; features from the key (TP/WL/FN) or the
      response (FP);
    and nothing is printed.
    """
    key, resp = _gum()
    totals = {s: OutcomeCounts() for s in SCENARIOS}
    anchor_total = AnchorScores()
    for kd in key:
        rd = resp.documents[kd.doc_id]
        pos = kd.columns["pos"]

        def nominal(s, pos=pos):
            return s[0] != s[1] or pos[s[0]] in ("NN", "NNS", "NNP", "NNPS")

        def pronoun(s, pos=pos):
            return s[0] == s[1] and pos[s[0]] in ("PRP", "PRP$")

        kchains, rchains = _chains(kd), _chains(rd)
        kpos = {s: (ci, i) for ci, ch in enumerate(kchains) for i, s in enumerate(ch)}
        rpos = {s: (ci, i) for ci, ch in enumerate(rchains) for i, s in enumerate(ch)}
        referents, no_key_nominal = set(), set()
        for ch in kchains:
            if len(ch) < 2 or not any(map(nominal, ch)):
                continue
            for i in range(1, len(ch)):
                has_nominal_before = any(map(nominal, ch[:i]))
                if pronoun(ch[i]) and not has_nominal_before:
                    continue
                referents.add(ch[i])
                if not has_nominal_before:
                    no_key_nominal.add(ch[i])
        rows, anchor_counts = arcs_document(kd, rd)
        anchor_total += anchor_counts
        kfeat = {m.span: m.features for m in kd.mentions}
        rfeat = {m.span: m.features for m in rd.mentions}
        by = {s: [r for r in rows if r.analysis == s] for s in SCENARIOS}
        for s, srows in by.items():
            totals[s] += tally(srows)
            for r in srows:
                assert r.doc_id == kd.doc_id and (r.credit == 1.0) == (r.outcome == "TP")
                assert r.features == (rfeat if r.outcome == "FP" else kfeat)[r.span]
                assert r.text == kd.text(r.start, r.end)
        # scenario 1
        rec1 = Counter(r.span for r in by["immediate"] if r.outcome != "FP")
        assert set(rec1) == referents and max(rec1.values(), default=1) == 1
        for r in by["immediate"]:
            if r.outcome != "FP":
                assert r.key_antecedent == kchains[kpos[r.span][0]][kpos[r.span][1] - 1]
                assert (r.outcome == "TP") == (r.response_antecedent == r.key_antecedent)
                assert (r.outcome == "FN") == (r.response_antecedent is None)
        fp1 = {ch[i] for ch in rchains for i in range(1, len(ch)) if ch[i] not in kpos or kpos[ch[i]][1] == 0}
        assert {r.span for r in by["immediate"] if r.outcome == "FP"} == fp1
        # scenario 2
        rec2 = Counter(r.span for r in by["inferred"] if r.outcome != "FP")
        skipped = {s for s in no_key_nominal if s in rpos and rpos[s][1] > 0}
        assert set(rec2) == referents - skipped and max(rec2.values(), default=1) == 1
        for r in by["inferred"]:
            if r.outcome in ("TP", "WL"):
                same = r.response_antecedent in kpos and kpos[r.response_antecedent][0] == kpos[r.span][0]
                assert same == (r.outcome == "TP") and nominal(r.response_antecedent)
            if r.outcome == "FP":
                assert r.span not in kpos or r.span not in referents or r.span in no_key_nominal
        # scenario 3
        em = tally(by["anchor"])
        assert (em.tp, em.fn, em.fp, em.wl) == (anchor_counts.em.tp, anchor_counts.em.fn, anchor_counts.em.fp, 0)
        with_anchor = [ch for ch in kchains if len(ch) >= 2 and any(map(nominal, ch))]
        assert anchor_counts.ed.tp + anchor_counts.ed.fn == len(with_anchor)
        detected = {r.key_antecedent for r in by["anchor"] if r.outcome != "FP"}
        assert len(detected) == anchor_counts.ed.tp
        assert em.tp + em.fn == sum(len(ch) for ch in with_anchor if ch[[*map(nominal, ch)].index(True)] in detected)
    assert capsys.readouterr() == ("", "")
    imm, inf = totals["immediate"], totals["inferred"]
    # sanity: a real system on real data, and scenario 2 is more lenient than scenario 1
    assert imm.tp > 1000 and 0.3 < imm.recall < 0.9 and inf.accuracy > imm.accuracy
    assert 0 < anchor_total.f_phi < 1 and sum(c.tp + c.fn for c in anchor_total.ed_by.values()) == \
        anchor_total.ed.tp + anchor_total.ed.fn
    # group-bys partition the totals
    rows_imm = [r for kd in key for r in arcs_rows(kd, resp.documents[kd.doc_id], "immediate")]
    by_cls = group_by(rows_imm, "cls")
    assert {"NOUN", "PRP", "PRP$"} <= set(by_cls)
    assert sum(c.tp for c in by_cls.values()) == imm.tp and sum(c.fp for c in by_cls.values()) == imm.fp


def test_gum_totals_regression():
    """Totals on GUM vs xrenner (ml-gum). With compat options scenarios 1 and 2 equal what the
    released v1.2 scripts print once their bracket parser is made to close the innermost open
    mention of a label (v1.2 closes the *first* open one, which garbles GUM's 39 same-entity nested
    mentions), except for eegimaa's two response spans written in two chains (v1.2 keeps both:
    immediate fp +2, inferred fp +1). Checked by running those scripts (2to3) on the same files.
    Scenario 3 reads the chains as unmodified v1.2 does and equals what it prints
    (:func:`test_arcs_compat_scenario_3_is_what_v12_prints`)."""
    key, resp = _gum()
    got = {}
    for name, opts in (("default", ArcsOptions()), ("compat", COMPAT)):
        rows, total = [], AnchorScores()
        for kd in key:
            r, a = arcs_document(kd, resp.documents[kd.doc_id], options=opts)
            rows += r
            total += a
        got[name] = {s: (t.tp, t.wl, t.fn, t.fp) for s in SCENARIOS for t in [counts(rows, s)]}
        got[name]["ED"] = (total.ed.tp, total.ed.fn, total.ed.fp)
    assert got["compat"]["immediate"] == (1035, 520, 748, 465)
    assert got["compat"]["inferred"] == (1044, 359, 898, 446)
    assert got["compat"]["ED"] == (500, 218, 2684)  # what unmodified v1.2 prints (tests/data/arcs_v12)
    assert got["compat"]["anchor"] == (1348, 0, 934, 337)
    assert got["default"]["immediate"] == got["compat"]["immediate"]


V12 = Path(__file__).parent / "data" / "arcs_v12"


def _v12_total(system: str) -> dict[str, tuple[int, int, int] | float]:
    """The TOTAL Entity Detection / Entity Mentions counts and F_harm v1.2 printed (tests/data/arcs_v12)."""
    text = (V12 / f"{system}.anchor_mentions.total.txt").read_text()
    out: dict = {}
    for name in ("Detection", "Mentions"):
        m = re.search(rf"Entity {name}:.*\(tp: (\d+) \| fn: (\d+) \| fp: (\d+)\)", text)
        out[name] = tuple(int(x) for x in m.groups())
    out["F_harm"] = float(re.search(r"F_harm: ([\d.]+) %", text).group(1))
    return out


@pytest.mark.skipif(not shared_path("data", "gum").exists(), reason="shared data not present")
@pytest.mark.parametrize("system", ["ml-gum", "rules-gum"])
def test_arcs_compat_scenario_3_is_what_v12_prints(system):
    """``--arcs-compat`` alone (it implies the response's singletons in scenario 3) gives the Entity
    Detection and Entity Mentions counts and F_harm the unmodified v1.2 script printed on GUM vs
    xrenner: ml ED tp 500 fn 218 fp 2684 (the default, which drops response singletons and reads
    nested mentions as written: tp 322). v1.2's reader is reproduced: a closing bracket ends the
    first open mention of its label (GUM's nested same-entity mentions in exposure, jespersen,
    emperor, iodine), and a span written twice stays twice (rules: eegimaa)."""
    from typer.testing import CliRunner

    from corefreport.cli import app

    exp = _v12_total(system)
    args = ["score", str(shared_path("data", "gum", "derived", "conll2012", "gum.conll")),
            str(shared_path("data", "xrenner", "conll2012", f"{system}.conll")), "-a", "arcs", "-f", "json", "-q"]
    got = json.loads(CliRunner().invoke(app, args + ["--arcs-compat"]).output)
    a = got["arcs"]["anchor"]
    assert (a["ed"]["tp"], a["ed"]["fn"], a["ed"]["fp"]) == exp["Detection"]
    assert (a["em"]["tp"], a["em"]["fn"], a["em"]["fp"]) == exp["Mentions"]
    assert round(100 * a["f_phi"], 2) == exp["F_harm"]
    assert "arcs:v1.2" in got["signature"]
    default = json.loads(CliRunner().invoke(app, args).output)["arcs"]["anchor"]["ed"]
    assert default["tp"] != exp["Detection"][0]
    if system == "ml-gum":
        assert (exp["Detection"][0], default["tp"]) == (500, 322)


def test_v12_reader_closes_the_first_open_mention_of_a_label():
    """v1.2's bracket reading of one chain: ``(5 a (5 b 5) c 5)`` gives (0, 2) and (1, 3); mentions
    not nested are read as written."""
    from corefreport.scoring.arcs import v12_spans

    assert v12_spans([Mention(0, 3), Mention(1, 2)]) == [(0, 2), (1, 3)]
    assert v12_spans([Mention(0, 1), Mention(3, 4), Mention(6, 6)]) == [(0, 1), (3, 4), (6, 6)]
    assert v12_spans([Mention(0, 5), Mention(1, 2), Mention(3, 4)]) == [(0, 2), (1, 4), (3, 5)]
