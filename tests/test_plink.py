"""p-link (Zeldes & Simonson 2016): the Perl's printed values, the paper's Figure 1, rules P1–P8."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefreport.io.conll2012 import read_conll2012
from corefreport.scoring.counts import Counts
from corefreport.scoring.metrics import muc
from corefreport.scoring.plink import (
    add_category_counts,
    closing_order,
    mention_categories,
    plink_counts,
    plink_tallies,
)

VECTORS = json.loads((Path(__file__).parent / "data" / "vectors" / "plink_vectors.json").read_text(encoding="utf-8"))
BY_ID = {v["id"]: v for v in VECTORS["vectors"]}
IDS = list(BY_ID)


def score_vector(v: dict, compat: bool, split: float = 0.5) -> tuple[dict[str, Counts], Counts]:
    """Read the vector's CoNLL texts and score every document; category = penultimate column (P1),
    which is the POS slot of these 6-column files."""
    key = read_conll2012("key.conll", v["key_conll"])
    resp = read_conll2012("response.conll", v["response_conll"])
    total: dict[str, Counts] = {}
    base = Counts()
    for kd in key:
        rd = resp.documents[kd.doc_id]
        kchains = [[m.span for m in c] for c in kd.chains]
        rchains = [[m.span for m in c] for c in rd.chains]
        counts = plink_counts(kchains, rchains, mention_categories(kd, "pos"), mention_categories(rd, "pos"),
                              compat=compat, split=split)
        add_category_counts(total, counts)
        base = base + muc(kchains, rchains)
    return total, base


def assert_category(c: Counts, exp: dict) -> None:
    assert (c.recall_num, c.recall_den, c.precision_den) == (exp["num"], exp["key_den"], exp["resp_den"])
    assert c.precision_num == c.recall_num
    assert math.isclose(c.recall, exp["R"], abs_tol=5e-7)
    if exp["P"] is None:
        assert c.precision_den == 0
    else:
        assert math.isclose(c.precision, exp["P"], abs_tol=5e-7)


@pytest.mark.parametrize("vid", IDS)
def test_compat_reproduces_the_perl(vid):
    v = BY_ID[vid]
    got, _ = score_vector(v, compat=True)
    exp = v["expected_from_original_perl"]["per_category"]
    assert sorted(got) == sorted(exp)
    for cat, e in exp.items():
        assert_category(got[cat], e)


@pytest.mark.parametrize("vid", IDS)
def test_muc_totals_of_the_perl(vid):
    v = BY_ID[vid]
    _, base = score_vector(v, compat=True)
    t = v["expected_from_original_perl"]["muc_totals"]
    assert (base.recall_num, base.recall_den, base.precision_num, base.precision_den) == (
        t["R_num"], t["R_den"], t["P_num"], t["P_den"])


# Vectors whose key and response category columns agree and have no numeric labels: the
# recommended rule (metric-semantics §1.4.1) gives the Perl's values.
AGREEING = ["plink-1-figure1", "plink-2-multitoken-twinless", "plink-5-cell-consecutive-not-adjacent"]


@pytest.mark.parametrize("vid", AGREEING)
def test_recommended_rule_equals_perl_when_the_files_agree(vid):
    v = BY_ID[vid]
    got, _ = score_vector(v, compat=False)
    for cat, e in v["expected_from_original_perl"]["per_category"].items():
        assert_category(got[cat], e)


def test_recommended_rule_two_docs_disagreeing_columns():
    """plink-3: one category per mention (key file for key mentions) → R, P ≤ 1 (§1.4.1)."""
    v = BY_ID["plink-3-two-docs"]
    got, base = score_vector(v, compat=False)
    exp = v["expected_recommended_single_category_source"]["per_category"]
    assert sorted(got) == sorted(exp)
    for cat, e in exp.items():
        assert_category(got[cat], e)
    perl, _ = score_vector(v, compat=True)
    assert perl["q"].recall == 1.5  # the Perl's R > 1 that the recommended rule avoids
    assert sum(c.recall_num for c in got.values()) == base.recall_num


def test_recommended_rule_keeps_numeric_labels():
    """plink-4: numeric categories get their response denominator (§1.4.2)."""
    got, base = score_vector(BY_ID["plink-4-numeric-labels-quirk"], compat=False)
    assert {c: (x.recall_num, x.recall_den, x.precision_den) for c, x in got.items()} == {
        "1": (0.5, 1.0, 0.5), "2": (0.5, 1.0, 0.5)}
    assert sum(x.precision_den for x in got.values()) == base.precision_den


# ------------------------------------------------------------------------------------------------
# The paper's Figure 1

FIG_KEY = [list("abc"), list("defg")]
FIG_RESP = [list("ab"), list("cd"), list("fghi")]


def decl_recall(decl: set[str]) -> float:
    cats = {m: ("decl" if m in decl else "other") for m in "abcdefghi"}
    return plink_counts(FIG_KEY, FIG_RESP, cats, cats)["decl"].recall


def test_figure1_recommended_reading():
    """decl = {a, f, g}: N = ½ (a in a–b) + 1 (f–g) = 1.5, D_K = ½ + 1 + ½ = 2 → 0.75 (§1.2)."""
    cats = {m: ("decl" if m in "afg" else "other") for m in "abcdefghi"}
    res = plink_counts(FIG_KEY, FIG_RESP, cats, cats)
    assert (res["decl"].recall_num, res["decl"].recall_den) == (1.5, 2.0)
    assert res["decl"].recall == 0.75
    assert decl_recall(set("acfg")) == 0.6  # the paper's literal narrative


def test_figure1_brute_force_only_two_assignments_give_075():
    """Over all 2^7 decl/other labellings of the key mentions a..g, R_decl = 0.75 only for {a,f,g}
    and {a,b,g} (h, i are not key mentions) — the paper's "b+c" must read "e+f"."""
    hits = []
    for bits in itertools.product([0, 1], repeat=7):
        decl = {m for m, b in zip("abcdefg", bits) if b}
        if decl and math.isclose(decl_recall(decl), 0.75):
            hits.append("".join(sorted(decl)))
    assert sorted(hits) == ["abg", "afg"]


def test_figure1_muc():
    cats = dict.fromkeys("abcdefghi", "x")
    (c,) = plink_counts(FIG_KEY, FIG_RESP, cats, cats).values()
    assert (c.recall_num, c.recall_den, c.precision_den) == (2, 5, 5)


# ------------------------------------------------------------------------------------------------
# P2, P3, split


def test_chain_order_by_closing_token():
    """P2: mentions sorted by closing token; on the same token the one-token mention comes first."""
    spans = [(0, 3), (3, 3), (5, 5)]
    order = {s: closing_order(s) for s in spans}
    assert sorted(spans, key=order.get) == [(3, 3), (0, 3), (5, 5)]
    cats = {(0, 3): "NP", (3, 3): "PRON", (5, 5): "PRON"}
    # written in start order, sorted by P2: (3,3) is the first mention, so it is an end (½).
    key = [[(0, 3), (3, 3), (5, 5)]]
    res = plink_counts(key, key, cats, cats, order)
    assert res["NP"].recall_den == 1.0 and res["PRON"].recall_den == 1.0
    unsorted = plink_counts(key, key, cats, cats)
    assert unsorted["NP"].recall_den == 0.5 and unsorted["PRON"].recall_den == 1.5


def test_repeated_response_mention_is_kept_in_its_first_chain():
    cats = dict.fromkeys("abx", "c")
    once = plink_tallies([list("ab")], [list("ab"), ["x"]], cats, cats)
    twice = plink_tallies([list("ab")], [list("ab"), list("ax")], cats, cats)
    assert once == twice


def test_split_weight():
    """split 1.0: each link's credit goes to its earlier end (paper fn. 10)."""
    cats = {m: ("decl" if m in "afgh" else "other") for m in "abcdefghi"}
    res = plink_counts(FIG_KEY, FIG_RESP, cats, cats, split=1.0)
    # key links a-b b-c d-e e-f f-g; response links a-b c-d f-g g-h h-i; correct a-b, f-g.
    assert (res["decl"].recall_num, res["decl"].recall_den, res["decl"].precision_den) == (2.0, 2.0, 4.0)
    assert (res["other"].recall_num, res["other"].recall_den, res["other"].precision_den) == (0.0, 3.0, 1.0)
    with pytest.raises(ValueError):
        plink_counts(FIG_KEY, FIG_RESP, cats, cats, split=1.5)


def test_twinless_mention_uses_the_response_category():
    key_cats = {"a": "K", "b": "K"}
    resp_cats = {"a": "R", "b": "R", "x": "X"}
    res = plink_counts([["a", "b"]], [["a", "b", "x"]], key_cats, resp_cats)
    assert {c: (v.recall_num, v.recall_den, v.precision_den) for c, v in res.items()} == {
        "K": (1.0, 1.0, 1.5), "X": (0.0, 0.0, 0.5)}


# ------------------------------------------------------------------------------------------------
# Properties: categories partition MUC; R, P ≤ 1 under the recommended rule


@st.composite
def documents(draw):
    """Key mentions 0..n-1, twinless response mentions 50+; chains in document (P2) order."""
    n = draw(st.integers(1, 10))
    key: dict[int, list[int]] = {}
    for m in range(n):
        key.setdefault(draw(st.integers(0, 3)), []).append(m)
    pool = list(range(n)) + [50 + x for x in range(draw(st.integers(0, 3)))]
    present = sorted(draw(st.lists(st.sampled_from(pool), unique=True, max_size=len(pool))))
    resp: dict[int, list[int]] = {}
    for m in present:
        resp.setdefault(draw(st.integers(0, 3)), []).append(m)
    labels = st.sampled_from(["decl", "q", "imp", "sub"])
    kcat = {m: draw(labels) for m in range(n)}
    rcat = {m: draw(labels) for m in pool}
    return list(key.values()), list(resp.values()), kcat, rcat


@settings(max_examples=300, deadline=None)
@given(documents(), st.booleans(), st.sampled_from([0.0, 0.25, 0.5, 1.0]))
def test_categories_partition_muc(doc, compat, split):
    key, resp, kcat, rcat = doc
    res = plink_counts(key, resp, kcat, rcat, compat=compat, split=split)
    base = muc(key, resp)
    assert math.isclose(sum(c.recall_num for c in res.values()), base.recall_num)
    assert math.isclose(sum(c.recall_den for c in res.values()), base.recall_den)
    assert math.isclose(sum(c.precision_den for c in res.values()), base.precision_den)


@settings(max_examples=300, deadline=None)
@given(documents(), st.sampled_from([0.0, 0.25, 0.5, 1.0]))
def test_recommended_rule_scores_are_fractions(doc, split):
    key, resp, kcat, rcat = doc
    for c in plink_counts(key, resp, kcat, rcat, split=split).values():
        assert c.recall_num <= c.recall_den + 1e-12
        assert c.precision_num <= c.precision_den + 1e-12


def test_repeated_non_key_response_span_stays_in_both_chains():
    """Key: one chain a-b. The response writes the non-key span x in two chains (a x) and (b x), as
    the aligner hands it over (reference v8.01 keeps it twice). MUC's precision denominator is
    (2 − 1) + (2 − 1) = 2 links; p-link's D_R must be the same 2, per category and in total."""
    cats = {"a": "A", "b": "B", "x": "X"}
    key, resp = [["a", "b"]], [["a", "x"], ["b", "x"]]
    base = muc(key, resp)
    assert base.precision_den == 2
    res = plink_counts(key, resp, cats, cats)
    assert {c: v.precision_den for c, v in res.items()} == {"A": 0.5, "B": 0.5, "X": 1.0}
    assert sum(v.precision_den for v in res.values()) == base.precision_den
    # a repeated KEY mention is still kept only once (its second link would be double credit)
    twice = plink_counts(key, [["a", "b"], ["a", "x"]], cats, cats)
    assert sum(v.precision_den for v in twice.values()) == 1.0


@pytest.mark.parametrize("key_file,resp_file,muc_dens", [
    ("ontogum.conll", "ml-ontonotes.conll", (1684, 1143)),
    ("gum.conll", "ml-gum.conll", (2448, 2152)),   # ml-gum repeats a non-key span in two chains
])
def test_real_gum_pair_response_denominators_sum_to_muc(key_file, resp_file, muc_dens):
    """Real GUM pairs by mention type: Σ D_R over categories is MUC's precision denominator and Σ D_K
    its recall denominator, the reference v8.01's numbers (summary.tsv)."""
    from corefreport.io import load_corpus
    from corefreport.scoring.evaluate import evaluate
    from corefreport.scoring.settings import Settings
    from conftest import SHARED, shared_path

    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", key_file)))
    resp = load_corpus(str(SHARED / "data" / "xrenner" / "conll2012" / resp_file))
    ev = evaluate(key, resp, Settings(metrics=("muc",), plink_by="mtype"))
    assert (ev.metrics["muc"].recall_den, ev.metrics["muc"].precision_den) == muc_dens
    cats = ev.plink.categories.values()
    assert sum(c.precision_den for c in cats) == ev.metrics["muc"].precision_den
    assert sum(c.recall_den for c in cats) == ev.metrics["muc"].recall_den
    assert sum(c.recall_num for c in cats) == ev.metrics["muc"].recall_num
