"""``scoring.lsap.assignment`` returns the very assignment ``scipy.optimize.linear_sum_assignment``
returns — not merely an equally good one — on matrices full of ties (where the two could differ),
so corefud-scorer's tie-breaking is kept without importing numpy and scipy."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from corefreport.scoring import matching
from corefreport.scoring.lsap import assignment

ROOT = Path(__file__).resolve().parents[1]
SCORES = [0.0, 1.0, 0.5, 1 / 3, 2 / 3, 0.25, 0.75, 0.2, 1 / 7, 11.0, 10.5]  # |K∩R|/|K| and zero scores


def scipys(cost: list[list[float]]) -> list[tuple[int, int]]:
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(np.array(cost, dtype=float))
    return list(zip(rows.tolist(), cols.tolist()))


def test_the_same_pairs_as_scipy_on_random_tied_matrices():
    rng = random.Random(15)
    for _ in range(4000):
        nr, nc = rng.randint(1, 14), rng.randint(1, 14)
        values = SCORES[:rng.randint(1, len(SCORES))]
        density = rng.random()
        cost = [[-(rng.choice(values) if rng.random() < density else 0.0) for _ in range(nc)] for _ in range(nr)]
        assert assignment(cost) == scipys(cost), cost


def test_the_same_pairs_as_scipy_on_large_sparse_matrices():
    rng = random.Random(150)
    for n, m in ((60, 80), (90, 40), (150, 150)):
        cost = [[-(rng.choice(SCORES[:4]) if rng.random() < 0.05 else 0.0) for _ in range(m)] for _ in range(n)]
        assert assignment(cost) == scipys(cost)


def test_ties_fall_as_scipy_lets_them_fall():
    """As scipy 1.17 answers: an all-equal square matrix gives the identity; one row with equal
    best columns takes the first of them (the last scanned); a column with equal best rows is
    taken by the first row."""
    assert assignment([[-1.0] * 3] * 3) == [(0, 0), (1, 1), (2, 2)] == scipys([[-1.0] * 3] * 3)
    assert assignment([[0.0, -1.0, -1.0]]) == [(0, 1)] == scipys([[0.0, -1.0, -1.0]])
    assert assignment([[-1.0], [-1.0]]) == [(0, 0)] == scipys([[-1.0], [-1.0]])
    assert assignment([]) == []


def test_the_matcher_calls_scipy_only_for_a_large_matrix(monkeypatch):
    from scipy.optimize import linear_sum_assignment

    calls = []
    monkeypatch.setattr(matching, "_solver", lambda: calls.append(1) or linear_sum_assignment)
    monkeypatch.setattr(matching, "_SOLVER", None)
    assert matching._lsa([[1.0, 1.0], [0.0, 0.0]]) == [(0, 0)] and not calls
    n = int(matching.PURE_PYTHON_CELLS ** 0.5) + 1
    big = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    assert matching._lsa(big) == [(i, i) for i in range(n)] and calls


def test_head_matching_the_bench_pair_imports_no_numpy():
    """The 300-document pair has three tied documents under --match head: none needs numpy now."""
    key, response = ROOT / "bench-data" / "base.key", ROOT / "bench-data" / "base.response"
    if not key.exists():
        pytest.skip("needs bench-data")
    code = ("import sys, os\n"
            "from corefreport.cli import main\n"
            "os._exit = lambda code: (print('numpy' in sys.modules, file=sys.stderr), sys.exit(code))\n"
            f"sys.argv = ['corefreport', 'score', {str(key)!r}, {str(response)!r}, '--match', 'head', '-j', '1']\n"
            "main()\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert res.returncode == 0, res.stderr
    assert res.stderr.strip().splitlines()[-1] == "False"
