"""The linear sum assignment corefud-scorer calls, ``scipy.optimize.linear_sum_assignment``.

corefud-scorer decides which of several equally good mention matchings wins by that solver
(docs/matching.md rule 9), so corefreport must return the very assignment it returns, ties
included. :func:`assign` solves a matrix of up to :data:`PURE_PYTHON_CELLS` cells with the same
algorithm written here — the shortest augmenting path of Crouse (2016, "On implementing 2D
rectangular assignment algorithms", IEEE TAES 52(4)), which scipy implements: rows augmented in
order, the columns scanned from the last to the first, among columns of equal reduced cost the
first unassigned one taken, the matrix transposed when it has more rows than columns — in the
same floating-point operations, so the same assignment comes out (``tests/test_assignment.py``
checks it against scipy on tens of thousands of random matrices full of ties). Larger matrices go
to scipy's compiled module, loaded alone (:func:`load`: numpy's import, 60–90 ms, instead of
``scipy.optimize``'s half second). That module is scipy's private ``scipy/optimize/_lsap``:
``pyproject.toml`` pins scipy below 2, and the tests fail when the module is not found where
:func:`load` looks (the public import would then be taken).
"""

from __future__ import annotations

import math
import os
from typing import Callable

PURE_PYTHON_CELLS = 40_000
"""Matrices with at most this many cells are solved here (a 100 × 100 one in ~4 ms, without numpy)."""

_solver: Callable | None = None


def load() -> Callable:
    """``scipy.optimize.linear_sum_assignment``. Importing ``scipy.optimize`` costs about half a
    second (it loads all of scipy's optimisers); the solver is one compiled module,
    ``scipy/optimize/_lsap``, loaded here on its own when it is there (the same code; only the
    package's other modules — and scipy's own ``__init__`` — are not imported; numpy is, by the
    module); else the public import."""
    global _solver
    if _solver is not None:
        return _solver
    import sys

    loaded = sys.modules.get("scipy.optimize")
    if loaded is not None:
        _solver = loaded.linear_sum_assignment
        return _solver
    try:
        import importlib.machinery
        import importlib.util

        found = importlib.util.find_spec("scipy")  # where scipy is, without running its __init__
        base = os.path.join(os.path.dirname(found.origin), "optimize")
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            path = os.path.join(base, "_lsap" + suffix)
            if os.path.exists(path):
                spec = importlib.util.spec_from_file_location("scipy.optimize._lsap", path)
                module = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(module)
                _solver = module.linear_sum_assignment
                break
    except Exception:  # any layout change: the public import below
        _solver = None
    if _solver is None:
        from scipy.optimize import linear_sum_assignment

        _solver = linear_sum_assignment
    return _solver


def assign(sim: list[list[float]]) -> list[tuple[int, int]]:
    """The (row, column) pairs of ``linear_sum_assignment(-sim)``: an assignment of rows to
    columns, one to one, of the largest total Σ sim[r][c], and among several such the one scipy's
    solver returns (rows in increasing order).

    >>> assign([[1.0, 0.5], [1.0, 0.0]])
    [(0, 1), (1, 0)]
    >>> assign([[1.0, 1.0], [1.0, 1.0]])
    [(0, 0), (1, 1)]
    """
    if not sim or not sim[0]:
        return []
    if len(sim) * len(sim[0]) <= PURE_PYTHON_CELLS:
        return shortest_augmenting_path(sim)
    import numpy as np

    rows, cols = load()(-np.array(sim, dtype=float))
    return list(zip(rows.tolist(), cols.tolist()))


def shortest_augmenting_path(sim: list[list[float]]) -> list[tuple[int, int]]:
    """:func:`assign` by Crouse's (2016) shortest augmenting path on the costs ``-sim``.

    Row by row, a Dijkstra-like search over the columns finds the cheapest path (reduced costs
    ``c[i][j] − u[i] − v[j]`` with row and column potentials u, v) to an unassigned column; the
    potentials are updated and the path augmented. Ties: the scan keeps the first column of lowest
    cost, or a later one of equal cost that is unassigned (a new sink), over the remaining columns
    kept in scipy's order (last to first, a taken column replaced by the last remaining one).
    """
    nr, nc = len(sim), len(sim[0])
    transpose = nc < nr
    if transpose:
        cost = [[-sim[i][j] for i in range(nr)] for j in range(nc)]
        nr, nc = nc, nr
    else:
        cost = [[-x for x in row] for row in sim]
    inf = math.inf
    u = [0.0] * nr
    v = [0.0] * nc
    path = [-1] * nc
    col4row = [-1] * nr
    row4col = [-1] * nc
    for cur in range(nr):
        min_val = 0.0
        remaining = list(range(nc - 1, -1, -1))
        num = nc
        in_rows = [False] * nr
        in_cols = [False] * nc
        costs = [inf] * nc  # shortest path cost to each column
        sink = -1
        i = cur
        while sink == -1:
            index = -1
            lowest = inf
            in_rows[i] = True
            row, ui = cost[i], u[i]
            for it in range(num):
                j = remaining[it]
                r = min_val + row[j] - ui - v[j]
                if r < costs[j]:
                    path[j] = i
                    costs[j] = r
                if costs[j] < lowest or (costs[j] == lowest and row4col[j] == -1):
                    lowest = costs[j]
                    index = it
            min_val = lowest
            if min_val == inf:  # pragma: no cover - finite scores are always feasible
                raise ValueError("the assignment is infeasible")
            j = remaining[index]
            if row4col[j] == -1:
                sink = j
            else:
                i = row4col[j]
            in_cols[j] = True
            num -= 1
            remaining[index] = remaining[num]
        u[cur] += min_val
        for i in range(nr):
            if in_rows[i] and i != cur:
                u[i] += min_val - costs[col4row[i]]
        for j in range(nc):
            if in_cols[j]:
                v[j] -= min_val - costs[j]
        j = sink
        while True:  # augment along the path
            i = path[j]
            row4col[j] = i
            col4row[i], j = j, col4row[i]
            if i == cur:
                break
    if transpose:
        return [(col4row[i], i) for i in sorted(range(nr), key=col4row.__getitem__)]
    return [(i, col4row[i]) for i in range(nr)]
