"""Maximum-weight one-to-one assignment (Kuhn–Munkres), for CEAF's optimal chain alignment.

Small matrices — nearly every connected component of a real document's key/response overlap graph —
are solved here in pure Python (the O(n²m) shortest-augmenting-path form of the Hungarian method with
row and column potentials); large ones by ``scipy.optimize.linear_sum_assignment``, loaded only then
(:func:`corefreport.lsap.load`: its compiled module alone, numpy's import included ~0.1 s; all of
``scipy.optimize`` would cost ~0.4 s).
"""

from __future__ import annotations

import math
from typing import Iterable, Mapping

PURE_PYTHON_CELLS = 900
"""Matrices with at most this many cells are solved without scipy."""


def max_assignment(mat: list[list[float]]) -> float:
    """The largest Σ mat[i][σ(i)] over one-to-one assignments σ of rows to columns."""
    n = len(mat)
    if n == 0 or not mat[0]:
        return 0.0
    m = len(mat[0])
    if n * m > PURE_PYTHON_CELLS:
        return _scipy(mat)
    if n > m:
        mat = [list(col) for col in zip(*mat)]
        n, m = m, n
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    p = [0] * (m + 1)  # p[j] = row assigned to column j (1-based), 0 = none
    way = [0] * (m + 1)
    inf = math.inf
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            row = mat[i0 - 1]
            ui0 = u[i0]
            delta = inf
            j1 = 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = -row[j - 1] - ui0 - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    return float(sum(mat[p[j] - 1][j - 1] for j in range(1, m + 1) if p[j]))


def _scipy(mat: list[list[float]]) -> float:
    import numpy as np

    from ..lsap import load  # scipy's compiled solver alone, without scipy.optimize's other modules

    a = np.asarray(mat, dtype=float)
    rows, cols = load()(a, maximize=True)
    return float(a[rows, cols].sum())


def _scipy_cells(n: int, m: int, rows: list[int], cols: list[int], values: list[float]) -> float:
    """:func:`_scipy` of the n × m matrix that is 0 but for ``values`` at (``rows``, ``cols``):
    built in numpy at once (a list of lists of a large component costs more than its solution)."""
    import numpy as np

    from ..lsap import load

    a = np.zeros((n, m))
    a[rows, cols] = values
    r, c = load()(a, maximize=True)
    return float(a[r, c].sum())


def components(pairs: Iterable[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """The connected components of the bipartite graph of (key chain, response chain) ``pairs``,
    each a list of its pairs; components in the order of their first pair in ``pairs``."""
    by_row: dict[int, list[int]] = {}
    by_col: dict[int, list[int]] = {}
    for i, j in pairs:
        by_row.setdefault(i, []).append(j)
        by_col.setdefault(j, []).append(i)
    comps: list[list[tuple[int, int]]] = []
    done: set[int] = set()
    for i0, js in by_row.items():
        if i0 in done:
            continue
        done.add(i0)
        if len(js) == 1 and len(by_col[js[0]]) == 1:  # nearly every component: one pair
            comps.append([(i0, js[0])])
            continue
        comp: list[tuple[int, int]] = []
        cols: set[int] = set()
        stack = [i0]
        while stack:
            i = stack.pop()
            for j in by_row[i]:
                comp.append((i, j))
                if j not in cols:
                    cols.add(j)
                    for i2 in by_col[j]:
                        if i2 not in done:
                            done.add(i2)
                            stack.append(i2)
        comps.append(comp)
    return comps


def max_alignment(weights: Mapping[tuple[int, int], float],
                  comps: list[list[tuple[int, int]]] | None = None) -> float:
    """Φ* = max over one-to-one key↔response chain alignments g of Σ φ(K, g(K)) (Luo 2005).

    ``weights`` holds φ for the pairs of chains that share a mention; pairs of weight ≤ 0 never help
    and are dropped. Each connected component of the remaining bipartite graph is solved on its own:
    a single row or column by its maximum, anything larger by :func:`max_assignment`. ``comps``:
    those components when already known (:func:`components` of the positive pairs; CEAF-m and
    CEAF-e share them).
    """
    if comps is None:
        comps = components(p for p, v in weights.items() if v > 0)
    total = 0.0
    for comp in comps:
        if len(comp) == 1:
            total += weights[comp[0]]
            continue
        rows = sorted({i for i, _ in comp})
        cols = sorted({j for _, j in comp})
        if len(rows) == 1 or len(cols) == 1:
            total += max(weights[p] for p in comp)
            continue
        ri = {v: n for n, v in enumerate(rows)}
        ci = {v: n for n, v in enumerate(cols)}
        if len(rows) * len(cols) > PURE_PYTHON_CELLS:  # the same matrix, written straight into numpy's
            total += _scipy_cells(len(rows), len(cols), [ri[i] for i, _ in comp], [ci[j] for _, j in comp],
                                  [weights[p] for p in comp])
            continue
        mat = [[0.0] * len(cols) for _ in rows]
        for i, j in comp:
            mat[ri[i]][ci[j]] = weights[(i, j)]
        total += max_assignment(mat)
    return total
