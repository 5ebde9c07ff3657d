"""Chen & Ng (2013) linguistically aware metrics: Table 1, the spec vectors, and the rules L1–L9.

The paper's §4.1 example lives in ``tests/data/chen_ng/`` as real CoNLL-2012 files (key and responses
(a)–(e)); mention types come from :func:`corefreport.scoring.features.annotated`, not from a hand-made map.
"""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefreport.io.conll2012 import read_conll2012
from corefreport.scoring.features import annotated
from corefreport.scoring import metrics as std
from corefreport.scoring.counts import Counts
from corefreport.scoring.lmetrics import (
    MENTION_TYPES,
    PRESETS,
    W4,
    W5,
    Weights,
    best_link_weight,
    decompose,
    link_weight,
    lmetric_counts,
    mst_weight,
    parse_weights,
    spurious_tree_weight,
)

DATA = Path(__file__).parent / "data" / "chen_ng"
VECTOR_FILE = Path(__file__).parent / "data" / "vectors" / "lmetrics_vectors.json"  # copy of the spec's
VECTORS = json.loads(VECTOR_FILE.read_text(encoding="utf-8"))
RESPONSES = "abcde"

# The 20 mentions a..t of the paper's Figure 1 (document token spans in tests/data/chen_ng/*.conll).
LETTER_SPANS: dict[str, tuple[int, int]] = {
    "a": (0, 0), "d": (3, 3), "e": (7, 8), "b": (10, 10), "f": (15, 15), "c": (19, 19), "g": (21, 21),
    "h": (26, 26), "p": (27, 27), "i": (34, 34), "q": (35, 35), "r": (37, 38), "j": (42, 42), "n": (42, 43),
    "k": (46, 46), "s": (49, 50), "o": (52, 52), "l": (55, 55), "t": (57, 59), "m": (58, 58),
}
SPAN_LETTERS = {v: k for k, v in LETTER_SPANS.items()}

# metric-semantics §3.2: Jesus, Jerusalem NAME; the city, your enemies NOMINAL; pronouns PRONOUN.
PAPER_TYPES = {
    **dict.fromkeys("ad", "NAME"), **dict.fromkeys("en", "NOMINAL"),
    **dict.fromkeys("bcfghijklmo", "PRONOUN"),
}

# Table 1 of the paper (W4), as printed: metric -> response -> (R, P, F), in percent.
TABLE1: dict[str, dict[str, tuple[float, float, float]]] = {
    metric: {r: tuple(v) for r, v in rows.items()}
    for metric, rows in json.loads((DATA / "table1.json").read_text(encoding="utf-8"))["table"].items()
}
STANDARD = {"MUC": std.muc, "B3": std.bcub, "CEAFm": std.ceafm, "CEAFe": std.ceafe}
LNAMES = {"LMUC": "lmuc", "LB3": "lbcub", "LCEAFm": "lceafm", "LCEAFe": "lceafe"}
CELLS = [(metric, resp, k) for metric in TABLE1 for resp in RESPONSES for k in range(3)]
assert len(CELLS) == 120



def printed(value: float, expected: float) -> bool:
    """``value`` (a fraction) shows as ``expected`` (a percentage printed to 0.1, rounded half up)."""
    return abs(100 * value - expected) <= 0.05 + 1e-9


def load(name: str):
    corpus = read_conll2012(DATA / f"{name}.conll")
    (doc,) = corpus
    return annotated(doc)


@pytest.fixture(scope="module")
def example():
    """{'key': (chains, mtype), 'a': …, …} read from the CoNLL files, chains as span lists."""
    out = {}
    for name in ["key"] + [f"response_{r}" for r in RESPONSES]:
        doc = load(name)
        chains = [[m.span for m in c.mentions] for c in doc.chains]
        mtype = {m.span: m.features["mtype"] for m in doc.mentions}
        out[name.replace("response_", "")] = (chains, mtype)
    return out


def score(example, resp: str, weights: Weights = W4) -> dict[str, Counts]:
    key, kt = example["key"]
    response, rt = example[resp]
    res: dict[str, Counts] = {name: f(key, response) for name, f in STANDARD.items()}
    lres = lmetric_counts(key, response, {**rt, **kt}, weights)
    res.update({name: lres[short] for name, short in LNAMES.items()})
    return res


# ------------------------------------------------------------------------------------------------
# The example files


def test_example_files_hold_the_papers_20_mentions(example):
    key, _ = example["key"]
    assert sorted(s for c in key for s in c) == sorted(LETTER_SPANS.values())
    letters = sorted("".join(sorted(SPAN_LETTERS[s] for s in c)) for c in key)
    assert letters == sorted(["abc", "defghijklm", "no", "p", "q", "r", "s", "t"])
    for r in RESPONSES:
        resp, _ = example[r]
        assert sorted(s for c in resp for s in c) == sorted(LETTER_SPANS.values()), r


@pytest.mark.parametrize("resp", RESPONSES)
def test_example_response_chains_match_the_spec(example, resp):
    chains, _ = example[resp]
    got = sorted("".join(sorted(SPAN_LETTERS[s] for s in c)) for c in chains)
    want = sorted("".join(sorted(c)) for c in VECTORS["responses"][resp]["chains"])
    assert got == want


def test_features_type_the_example_as_the_paper(example):
    """features.annotated: Jesus/Jerusalem NAME, the city/your enemies NOMINAL, pronouns PRONOUN."""
    for name in ["key"] + list(RESPONSES):
        _, mtype = example[name]
        got = {SPAN_LETTERS[s]: t for s, t in mtype.items()}
        assert {l: got[l] for l in PAPER_TYPES} == PAPER_TYPES, name


# ------------------------------------------------------------------------------------------------
# Table 1: all 120 cells


@pytest.mark.parametrize("metric,resp,k", CELLS, ids=[f"{m}-{r}-{'RPF'[k]}" for m, r, k in CELLS])
def test_table1_cell(example, metric, resp, k):
    c = score(example, resp)[metric]
    value = (c.recall, c.precision, c.f1)[k]
    assert printed(value, TABLE1[metric][resp][k]), f"{metric} ({resp}) {'RPF'[k]} = {100 * value:.3f}"


@pytest.mark.parametrize("resp", RESPONSES)
def test_table1_three_decimals_as_the_spec_vectors(example, resp):
    """The unrounded values of lmetrics_vectors.json ('scores_percent', to 0.001)."""
    res = score(example, resp)
    for metric, exp in VECTORS["responses"][resp]["scores_percent"].items():
        c = res[metric]
        for got, want in zip((c.recall, c.precision, c.f1), (exp["R"], exp["P"], exp["F"])):
            assert abs(100 * got - want) <= 5e-4 + 1e-9, (metric, resp)


def test_table1_paper_values_agree_with_the_vectors():
    for resp in RESPONSES:
        paper = VECTORS["responses"][resp]["paper_table1"]
        for metric, by_resp in TABLE1.items():
            assert [paper[f"{metric}.{x}"] for x in "RPF"] == list(by_resp[resp])


# ------------------------------------------------------------------------------------------------
# The spec vectors: weights of chains and cells, W5, synthetic E_t and twinless cases


def _letters(chain) -> str:
    return "".join(chain)


@pytest.mark.parametrize("resp", RESPONSES)
def test_intermediate_weights_w4(resp):
    v = VECTORS["responses"][resp]
    key = VECTORS["key_chains"]
    d = decompose(key, v["chains"], VECTORS["mention_types"], W4)
    assert dict(zip(map(_letters, key), d.key_weights)) == VECTORS["key_chain_weights_wkL"]
    assert dict(zip(map(_letters, v["chains"]), d.response_weights)) == v["response_chain_weights_wsL"]
    cells = {f"K={_letters(key[i])}|S={_letters(v['chains'][j])}": wc for (i, j), (_, wc) in d.cells.items() if wc}
    assert cells == v["nonzero_cells_wcL"]


@pytest.mark.parametrize("resp", RESPONSES)
def test_derived_w5_scores(resp):
    exp = VECTORS["derived_W5_scores_percent_no_published_numbers"][resp]
    res = lmetric_counts(VECTORS["key_chains"], VECTORS["responses"][resp]["chains"], VECTORS["mention_types"], W5)
    for metric, short in LNAMES.items():
        c = res[short]
        for got, want in zip((c.recall, c.precision, c.f1), (exp[metric][x] for x in "RPF")):
            assert abs(100 * got - want) <= 5e-4 + 1e-9, (metric, resp)


@pytest.mark.parametrize("case", ["E_t_three_cells", "twinless_system_mention"])
def test_synthetic_cases(case):
    v = VECTORS["synthetic"][case]
    d = decompose(v["key_chains"], v["response_chains"], v["types"], W4)
    assert d.response_weights == [v["wsL"]]
    assert sum(d.key_weights) == v["wkL_total"]
    c = lmetric_counts(v["key_chains"], v["response_chains"], v["types"], W4)["lmuc"]
    exp = v["LMUC_percent"]
    for got, want in zip((c.recall, c.precision, c.f1), (exp["R"], exp["P"], exp["F"])):
        assert abs(100 * got - want) <= 5e-4 + 1e-9
    if case == "E_t_three_cells":
        cells = [["NAME", "PRONOUN"], ["NOMINAL", "PRONOUN"], ["PRONOUN", "PRONOUN"]]
        assert spurious_tree_weight(cells, W4) == v["E_t_weight"]
        assert spurious_tree_weight(cells, W4, closed_form=False) == v["E_t_weight"]


def test_response_e_uses_the_maximum_weight_spurious_tree(example):
    """Only the maximum-weight E_t (L5) gives LMUC(e) P = 92.7; eq. (10) would give 76.1."""
    key, kt = example["key"]
    resp, rt = example["e"]
    d = decompose(key, resp, {**rt, **kt}, W4)
    assert sorted(d.response_weights) == [0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0, 6.0]  # 6.0 = 2.0 + 3.0 + E_t 1.0


# ------------------------------------------------------------------------------------------------
# Properties the paper states (§4.2) and aggregation over documents (§3.3.5)


@pytest.mark.parametrize("resp", RESPONSES)
def test_lbcub_and_lceafe_do_not_depend_on_w_sing(example, resp):
    """§4.2: LB³ and LCEAF-e give the same scores under W1, W2 and W3."""
    scores = [score(example, resp, PRESETS[w]) for w in ("W1", "W2", "W3")]
    for metric in ("LB3", "LCEAFe"):
        vals = [(s[metric].recall, s[metric].precision) for s in scores]
        assert all(math.isclose(a, b, abs_tol=1e-12) for v in vals[1:] for a, b in zip(v, vals[0]))


def test_lmuc_w1_is_almost_muc(example):
    """§4.2: with uniform link weights and w_sing = 1e-20, LMUC ≈ MUC."""
    for resp in RESPONSES:
        s = score(example, resp, PRESETS["W1"])
        assert math.isclose(s["LMUC"].f1, s["MUC"].f1, abs_tol=1e-9)


def test_perfect_response_scores_one(example):
    key, kt = example["key"]
    for c in lmetric_counts(key, key, kt, W5).values():
        assert math.isclose(c.recall, 1) and math.isclose(c.precision, 1)


TYPES = st.sampled_from(MENTION_TYPES)


@st.composite
def documents(draw, max_mentions: int = 9):
    """A random key/response pair over mentions 0..n-1 plus twinless response mentions 100+."""
    n = draw(st.integers(1, max_mentions))
    kl = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    key: dict[int, list[int]] = {}
    for m, lab in enumerate(kl):
        key.setdefault(lab, []).append(m)
    extra = draw(st.integers(0, 3))
    pool = list(range(n)) + [100 + x for x in range(extra)]
    present = draw(st.lists(st.sampled_from(pool), unique=True, max_size=len(pool)))
    rl = draw(st.lists(st.integers(0, 3), min_size=len(present), max_size=len(present)))
    resp: dict[int, list[int]] = {}
    for m, lab in zip(present, rl):
        resp.setdefault(lab, []).append(m)
    mtype = {m: draw(TYPES) for m in pool}
    return list(key.values()), list(resp.values()), mtype


def monotone_weights():
    return st.tuples(*(st.sampled_from([0.1, 0.25, 0.5, 0.75, 1.0, 2.0]) for _ in range(3))).map(
        lambda t: Weights(*sorted(t, reverse=True), 1.0))


def any_weights():
    return st.tuples(*(st.sampled_from([0.0, 0.1, 0.25, 0.5, 1.0, 2.0]) for _ in range(3)),
                     st.sampled_from([1e-20, 0.5, 1.0])).map(lambda t: Weights(*t))


def _close(a: Counts, b: Counts) -> bool:
    return all(math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)
               for x, y in zip((a.recall_num, a.recall_den, a.precision_num, a.precision_den),
                               (b.recall_num, b.recall_den, b.precision_num, b.precision_den)))


@settings(max_examples=200, deadline=None)
@given(documents(), documents(), any_weights())
def test_counts_of_two_documents_add_up_to_their_union(doc1, doc2, w):
    """Scoring two documents separately and adding the Counts = scoring their disjoint union."""
    k1, r1, t1 = doc1
    k2, r2, t2 = doc2
    shift = lambda chains: [[("2", m) for m in c] for c in chains]  # noqa: E731
    t2s = {("2", m): t for m, t in t2.items()}
    a = lmetric_counts(k1, r1, t1, w)
    b = lmetric_counts(k2, r2, t2, w)
    u = lmetric_counts(k1 + shift(k2), r1 + shift(r2), {**t1, **t2s}, w)
    for name in a:
        assert _close(a[name] + b[name], u[name]), name


@settings(max_examples=200, deadline=None)
@given(documents(), any_weights())
def test_scores_are_fractions(doc, w):
    key, resp, mtype = doc
    for c in lmetric_counts(key, resp, mtype, w).values():
        assert -1e-12 <= c.recall <= 1 + 1e-9 and -1e-12 <= c.precision <= 1 + 1e-9


# ------------------------------------------------------------------------------------------------
# L2 / L5: closed forms = real maximum spanning trees; real trees = brute force


@settings(max_examples=300, deadline=None)
@given(st.lists(TYPES, min_size=0, max_size=8), monotone_weights())
def test_closed_form_mst_equals_networkx_mst(types, w):
    assert math.isclose(mst_weight(types, w, closed_form=True), mst_weight(types, w, closed_form=False))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(TYPES, min_size=1, max_size=3), min_size=1, max_size=6), monotone_weights())
def test_closed_form_spurious_tree_equals_contracted_mst(cells, w):
    assert math.isclose(spurious_tree_weight(cells, w, closed_form=True),
                        spurious_tree_weight(cells, w, closed_form=False))


@settings(max_examples=200, deadline=None)
@given(documents(), monotone_weights())
def test_closed_form_path_equals_mst_path(doc, w):
    key, resp, mtype = doc
    fast = lmetric_counts(key, resp, mtype, w, closed_form=True)
    slow = lmetric_counts(key, resp, mtype, w, closed_form=False)
    for name in fast:
        assert _close(fast[name], slow[name]), name


def _connects(n: int, edges) -> bool:
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for a, b in edges:
        parent[find(a)] = find(b)
    return len({find(x) for x in range(n)}) == 1


def _brute_force_tree(n: int, weight) -> float:
    """Max over all (n−1)-edge sets of the complete graph that connect 0..n−1 of the summed weight."""
    if n < 2:
        return 0.0
    pairs = list(itertools.combinations(range(n), 2))
    return max(sum(weight(a, b) for a, b in es) for es in itertools.combinations(pairs, n - 1) if _connects(n, es))


@settings(max_examples=150, deadline=None)
@given(st.lists(TYPES, min_size=0, max_size=5), any_weights())
def test_mst_is_a_maximum_spanning_tree(types, w):
    """L2 for any W (also non-monotone): the networkx tree is the brute-force maximum."""
    brute = _brute_force_tree(len(types), lambda a, b: link_weight(types[a], types[b], w))
    assert math.isclose(mst_weight(types, w), brute, abs_tol=1e-12)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(TYPES, min_size=1, max_size=2), min_size=1, max_size=4), any_weights())
def test_spurious_tree_is_the_heaviest_set_of_cross_cell_links(cells, w):
    """L5: E_t = the heaviest ne − 1 cross-cell mention links joining all cells (brute force over
    link sets on the mentions themselves, not on the contracted graph)."""
    owner = [ci for ci, c in enumerate(cells) for _ in c]
    flat = [t for c in cells for t in c]
    links = [(a, b) for a, b in itertools.combinations(range(len(flat)), 2) if owner[a] != owner[b]]
    ne = len(cells)
    best = 0.0 if ne < 2 else max(
        sum(link_weight(flat[a], flat[b], w) for a, b in es)
        for es in itertools.combinations(links, ne - 1)
        if _connects(ne, [(owner[a], owner[b]) for a, b in es])
    )
    assert math.isclose(spurious_tree_weight(cells, w), best, abs_tol=1e-12)


def test_link_weight_follows_rule_order_not_weight_size():
    w = Weights(0.1, 0.5, 1.0, 1.0)  # non-monotone: the NAME rule still decides
    assert link_weight("NAME", "PRONOUN", w) == 0.1
    assert link_weight("NOMINAL", "PRONOUN", w) == 0.5
    assert link_weight("PRONOUN", "PRONOUN", w) == 1.0
    assert best_link_weight(["NAME", "PRONOUN"], ["PRONOUN"], w) == 1.0
    assert mst_weight(["NAME", "PRONOUN", "PRONOUN"], w) == 1.1  # not 2 × 0.1


# ------------------------------------------------------------------------------------------------
# Mentions outside the paper (metric-semantics §3.3.1)


def test_twinless_response_singleton_is_a_pure_precision_loss():
    mtype = {"A": "NAME", "B": "PRONOUN", "X": "NAME"}
    base = lmetric_counts([["A", "B"]], [["A", "B"]], mtype)
    extra = lmetric_counts([["A", "B"]], [["A", "B"], ["X"]], mtype)
    for name in base:
        assert extra[name].recall == base[name].recall == 1.0
        assert extra[name].precision < 1.0
    assert extra["lmuc"].precision == 1.0 / 2.0  # w_s = 1.0 + w_sing
    assert extra["lbcub"].precision == 2 / 3


def test_absent_key_mention_is_a_recall_loss_by_default():
    mtype = {"A": "NAME", "B": "PRONOUN", "P": "NOMINAL"}
    key = [["A", "B"], ["P"]]
    res = lmetric_counts(key, [["A", "B"]], mtype)
    assert res["lmuc"].precision == 1.0 and res["lmuc"].recall == 1.0 / 2.0
    assert res["lbcub"].recall == 2 / 3 and res["lbcub"].precision == 1.0
    alt = lmetric_counts(key, [["A", "B"]], mtype, absent_key_as_singletons=True)
    assert alt["lmuc"].recall == 1.0 and alt["lmuc"].precision == 1.0


def test_response_repeats_are_handled_like_the_aligner():
    mtype = {"A": "NAME", "B": "PRONOUN", "X": "PRONOUN"}
    a = lmetric_counts([["A", "B"]], [["A", "B", "B"], ["A", "X"]], mtype)
    b = lmetric_counts([["A", "B"]], [["A", "B"], ["X"]], mtype)
    assert a == b


def test_missing_or_unknown_mention_type_is_an_error():
    with pytest.raises(ValueError, match="no mention type"):
        lmetric_counts([["A", "B"]], [["A", "B"]], {"A": "NAME"})
    with pytest.raises(ValueError, match="NAME, NOMINAL, PRONOUN"):
        lmetric_counts([["A", "B"]], [["A", "B"]], {"A": "NAME", "B": "PRP"})


# ------------------------------------------------------------------------------------------------
# Weights


def test_parse_weights():
    assert parse_weights("1,0.75,0.5,1") == W4
    assert parse_weights(" 1, 0.5, 0.25, 1 ") == W5
    assert parse_weights("w5") == W5
    assert Weights(*(1.0, 0.75, 0.5, 1.0)) == W4  # the pipeline's positional call
    assert W4.monotone and not Weights(0.5, 1, 1, 1).monotone


@pytest.mark.parametrize("text,message", [
    ("1,0.75,0.5,0", "w_sing must be > 0"),
    ("1,0.75,0.5,-1", "w_sing"),
    ("1,-0.75,0.5,1", "w_nom must be a finite number >= 0"),
    ("1,0.75,0.5", "four numbers"),
    ("1,a,0.5,1", "four numbers"),
    ("1,nan,0.5,1", "finite"),
    ("", "four numbers"),
])
def test_parse_weights_rejects(text, message):
    with pytest.raises(ValueError, match=message):
        parse_weights(text)


# ------------------------------------------------------------------------------------------------
# Import cost


def test_scipy_and_networkx_are_imported_only_when_needed():
    code = (
        "import sys\n"
        "from corefreport.scoring.lmetrics import lmetric_counts, W4\n"
        "t = {'A': 'NAME', 'B': 'PRONOUN', 'C': 'PRONOUN'}\n"
        "lmetric_counts([['A', 'B', 'C']], [['A', 'B'], ['C']], t, W4)\n"
        "print('scipy' in sys.modules, 'networkx' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"]
