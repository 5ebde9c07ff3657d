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
