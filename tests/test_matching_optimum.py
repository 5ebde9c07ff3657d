"""Matching's shortcuts. ``matching._unique_optimum``: where the best matching of the allowed pairs
is unique it is taken without scipy's solver — and it must then be exactly the positive pairs
scipy's solver returns on the whole matrix (an independent implementation); where it gives up, the
best matching is tied (or a component is too large); random spans in a small window, so that heads
and words overlap and ties are frequent. ``matching._moved_response`` with ``_touched``: the
rebuilt response is the one looking at every mention gives."""

from __future__ import annotations

import random
from itertools import permutations

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from corefreport.model import Mention
from corefreport.scoring.matching import _Info, _unique_optimum


def _mentions(rnd: random.Random, n: int) -> list[_Info]:
    out, seen = [], set()
    while len(out) < n:
        s = rnd.randint(0, 9)
        e = min(11, s + rnd.randint(0, 3))
        if (s, e) in seen:
            continue
        seen.add((s, e))
        out.append(_Info(Mention(s, e), (s, e), rnd.randint(s, e)))
    return out


def _case(seed: int, mode: str):
    rnd = random.Random(seed)
    ks, rs = _mentions(rnd, rnd.randint(1, 6)), _mentions(rnd, rnd.randint(1, 6))
    if mode == "head":
        cand = {id(k): [r for r in rs if r.head == k.head] for k in ks}
    else:  # partial: the key's head in the response, the response inside the key
        cand = {id(k): [r for r in rs if k.head in r.words and r.words <= k.words] for k in ks}
    sim = [[len(k.words & r.words) / len(k.words) if r in cand[id(k)] else 0.0 for r in rs] for k in ks]
    return ks, rs, cand, sim


def _positive_optimal_sets(sim) -> set[frozenset]:
    """Every maximum-weight matching, as its set of positive pairs."""
    r, c = len(sim), len(sim[0])
    best, out = -1.0, set()
    for p in permutations(range(max(r, c)), min(r, c)):
        pairs = [(i, p[i]) for i in range(r)] if r <= c else [(p[j], j) for j in range(c)]
        total = round(sum(sim[a][b] for a, b in pairs), 9)
        pos = frozenset((a, b) for a, b in pairs if sim[a][b] > 0)
        if total > best:
            best, out = total, {pos}
        elif total == best:
            out.add(pos)
    return out


@pytest.mark.parametrize("mode", ["head", "partial"])
def test_the_shortcut_is_scipys_answer_where_it_answers(mode):
    decided = tied = 0
    for seed in range(400):
        ks, rs, cand, sim = _case(seed, mode)
        if not any(cand.values()):
            continue
        got = _unique_optimum(list(ks), cand)
        rows, cols = linear_sum_assignment(-np.array(sim))
        scipy_pairs = {(a, b) for a, b in zip(rows.tolist(), cols.tolist()) if sim[a][b] > 0}
        optima = _positive_optimal_sets(sim)
        if got is None:
            tied += 1
            assert len(optima) > 1, f"seed {seed}: gave up on a unique optimum"
            continue
        decided += 1
        pairs = {(ks.index(k), rs.index(r)) for k, r in got}
        assert optima == {frozenset(pairs)}, f"seed {seed}: not the unique optimum"
        assert pairs == scipy_pairs, f"seed {seed}"
    assert decided > 100 and tied >= 5  # both branches are exercised


# -- the rebuilt response: only the mentions step 1 did not match to themselves are looked at ------

from conftest import SHARED  # noqa: E402

from corefreport.io import load_corpus  # noqa: E402
from corefreport.io.pairs import CorpusPairs, Reading  # noqa: E402
from corefreport.scoring.matching import _by_ident, _moved_response, _touched, head_finder  # noqa: E402

GUM_CONLL = [(SHARED / "data" / "gum" / "derived" / "conll2012" / f"{k}.conll",
              SHARED / "data" / "xrenner" / "conll2012" / f"{r}.conll")
             for k, r in (("gum", "ml-gum"), ("ontogum", "rules-ontonotes"))]


def _shape(doc):
    return [[(m.start, m.end, m.words, sorted(m.features.items())) for m in c.mentions] for c in doc.chains]


@pytest.mark.parametrize("mode", ["head", "partial"])
@pytest.mark.parametrize("drop", [False, True])
def test_the_response_is_rebuilt_as_without_the_shortcut(mode, drop):
    """``_moved_response`` with ``touch`` (the identities that may change, without head fields)
    gives the very mentions it gives looking at every mention — on GUM's CoNLL-2012 gold against
    xrenner's output (heads by rule 3a), singletons kept and dropped."""
    pairs = [(k, r) for k, r in GUM_CONLL if k.exists() and r.exists()]
    if not pairs:
        pytest.skip("needs ../shared GUM and xrenner CoNLL-2012 files")
    changed = 0
    for kpath, rpath in pairs:
        key, response = load_corpus(str(kpath)), load_corpus(str(rpath))
        for pair in CorpusPairs(key, response).pairs(Reading()):
            kd, rd = pair.key, pair.response
            if kd is None or rd is None or len(rd.tokens) != len(kd.tokens):
                continue
            rule = head_finder(kd)
            by_ident, _, _, same = _by_ident(kd, rd, mode, drop, "linear", rule, rule, True)
            key_sets = ({m.ident for m in kd.mentions} if mode == "head" else set())
            fast = _moved_response(rd, by_ident, key_sets, drop, _touched(by_ident, same, key_sets))
            slow = _moved_response(rd, by_ident, key_sets, drop)
            assert _shape(fast) == _shape(slow), kd.doc_id
            changed += _shape(slow) != _shape(rd)
    assert changed > 10  # the matching did move mentions
