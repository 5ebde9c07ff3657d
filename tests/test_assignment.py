"""The pure-Python Kuhn–Munkres solver agrees with scipy's linear_sum_assignment (an independent
implementation) on random rectangular matrices."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

from corefreport.scoring.assignment import max_assignment


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.randoms(use_true_random=False))
def test_matches_scipy(n, m, rnd):
    mat = [[rnd.choice([0.0, 0.0, rnd.random(), float(rnd.randint(0, 5))]) for _ in range(m)] for _ in range(n)]
    a = np.asarray(mat)
    r, c = linear_sum_assignment(a, maximize=True)
    assert max_assignment(mat) == pytest.approx(float(a[r, c].sum()), abs=1e-12)


def test_known_value():
    # the diagonal 3 + 4 = 7 beats the anti-diagonal 5 + 1 = 6
    assert max_assignment([[3.0, 5.0], [1.0, 4.0]]) == 7.0


def test_large_matrices_go_to_scipys_compiled_solver():
    """Above PURE_PYTHON_CELLS cells the solver is scipy's, loaded alone (corefreport.lsap.load):
    the optimum is the one scipy.optimize's public function finds."""
    from corefreport.scoring.assignment import PURE_PYTHON_CELLS

    rnd = np.random.default_rng(5)
    a = rnd.integers(0, 4, size=(37, 41)).astype(float)
    assert a.size > PURE_PYTHON_CELLS
    r, c = linear_sum_assignment(a, maximize=True)
    assert max_assignment(a.tolist()) == float(a[r, c].sum())


# -- the solver of matching's ties (corefreport.lsap.assign): scipy's very assignment ---------------

def _scipys(sim: list[list[float]]) -> list[tuple[int, int]]:
    rows, cols = linear_sum_assignment(-np.array(sim, dtype=float))
    return list(zip(rows.tolist(), cols.tolist()))


def _tied(rnd, rows: int, cols: int, values) -> list[list[float]]:
    return [[rnd.choice(values) for _ in range(cols)] for _ in range(rows)]


def test_the_shortest_augmenting_path_returns_scipys_assignment_ties_included():
    """30,000 matrices shaped like matching's step 2 (mostly zeros, a few fractions |K ∩ R| / |K|, so
    that many have several best assignments), square and rectangular up to 12 × 12, and random
    reals; then larger ones up to 70 × 70: every assignment is the one scipy returns."""
    import random
    from itertools import permutations

    from corefreport.lsap import shortest_augmenting_path

    rnd = random.Random(2016)
    fractions = [0.0, 0.0, 0.0, 1.0, 0.5, 1 / 3, 2 / 3, 0.25, 0.2, 0.75]
    tied = 0
    for n in range(30_000):
        values = fractions if n % 3 else [rnd.random() for _ in range(5)] + [0.0]
        sim = _tied(rnd, rnd.randint(1, 12), rnd.randint(1, 12), values)
        got = shortest_augmenting_path(sim)
        assert got == _scipys(sim), sim
        if n < 3000 and len(sim) <= 5 and len(sim[0]) <= 5:  # count the cases where the choice is scipy's
            r, c = len(sim), len(sim[0])
            t = sim if r <= c else [list(x) for x in zip(*sim)]
            totals = sorted((round(sum(t[i][p[i]] for i in range(len(t))), 9)
                             for p in permutations(range(len(t[0])), len(t))), reverse=True)
            tied += len(totals) > 1 and totals[0] == totals[1]
    assert tied > 100  # ties were met: the test is about them
    for _ in range(200):
        sim = _tied(rnd, rnd.randint(10, 70), rnd.randint(10, 70), [0.0] * 8 + fractions)
        assert shortest_augmenting_path(sim) == _scipys(sim)


def test_assign_takes_scipys_compiled_module_above_the_limit(monkeypatch):
    """Above :data:`PURE_PYTHON_CELLS` the matrix goes to scipy's ``optimize/_lsap``, loaded on its
    own (:func:`corefreport.lsap.load`); scipy is pinned below 2, and this fails when scipy moves the
    module (the public import would then be taken silently)."""
    import random

    from corefreport import lsap

    lsap._solver = None
    solver = lsap.load()
    assert "_lsap" in getattr(solver, "__module__", "") or "_lsap" in repr(solver), solver
    monkeypatch.setattr(lsap, "PURE_PYTHON_CELLS", 4)
    rnd = random.Random(3)
    for _ in range(50):
        sim = _tied(rnd, rnd.randint(1, 9), rnd.randint(1, 9), [0.0, 1.0, 0.5])
        assert lsap.assign(sim) == _scipys(sim)
