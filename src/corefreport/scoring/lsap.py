"""The assignment ``scipy.optimize.linear_sum_assignment`` returns, found in pure Python.

corefud-scorer aligns mentions with ``linear_sum_assignment(-similarity)`` (``scorer/base/reader.py``
118–121). Where several assignments are equally good, *which* one it returns decides which response
mention takes a key mention's words, so a stand-in must return the very same one — any other optimal
assignment moves the scores. :func:`assignment` follows the algorithm scipy implements: the shortest
augmenting path method for the rectangular assignment problem of Crouse (2016, "On implementing 2D
rectangular assignment algorithms", IEEE TAES 52(4), pseudocode pp. 1685–1686), with scipy's
conventions, which decide ties (``scipy/optimize/rectangular_lsap/rectangular_lsap.cpp``, scipy ≥ 1.6):

1. a matrix with more rows than columns is solved transposed;
2. rows are added one at a time, in order; each adds the cheapest path
   ``minVal + c[i][j] − u[i] − v[j]`` (evaluated left to right, in doubles) from the row to a free
   column, by Dijkstra over the columns with row and column potentials ``u``, ``v``;
3. the columns not yet reached are scanned in a list that starts in reverse order (n−1 … 0); a reached
   column is removed by moving the list's last entry into its place; among columns of equal lowest
   cost the *last scanned free* one is taken (a free column beats an assigned one at equal cost);
4. after each row, ``u`` of the rows reached and ``v`` of the columns reached are updated by the
   difference between the path cost and each one's shortest-path cost, and the path is flipped.

Floating-point operations are those of scipy, in the same order, so the answers are identical, not
merely equally good (``tests/test_lsap.py`` compares them with scipy's on random matrices full of
ties). Pure Python costs O(n²m): :func:`assignment` is for the small matrices of one document; the
caller hands large ones to scipy.

>>> assignment([[-1.0, -1.0], [-1.0, -1.0]])
[(0, 0), (1, 1)]
>>> assignment([[-0.5, -1.0, -1.0]])  # columns 2, 1, 0 are scanned: of the equal best, 1 is the last
[(0, 1)]
"""

from __future__ import annotations

import math


def assignment(cost: list[list[float]]) -> list[tuple[int, int]]:
    """``(row, column)`` pairs of the minimum-cost assignment of ``cost`` (a list of equal-length
    rows of finite floats) that ``scipy.optimize.linear_sum_assignment(cost)`` returns, by row."""
    nr = len(cost)
    nc = len(cost[0]) if nr else 0
    if not nr or not nc:
        return []
    flipped = nc < nr
    if flipped:  # rule 1
        cost = [list(col) for col in zip(*cost)]
        nr, nc = nc, nr
    u = [0.0] * nr
    v = [0.0] * nc
    col_of = [-1] * nr  # the column each row is assigned to
    row_of = [-1] * nc  # the row each column is assigned to
    for start in range(nr):  # rule 2
        came_from = [-1] * nc
        dist = [math.inf] * nc
        rows_seen: list[int] = []
        cols_seen: list[int] = []
        todo = list(range(nc - 1, -1, -1))  # rule 3
        i, reach, sink = start, 0.0, -1
        while sink < 0:
            rows_seen.append(i)
            row, ui = cost[i], u[i]
            best, pick = math.inf, -1
            for pos, j in enumerate(todo):
                d = reach + row[j] - ui - v[j]
                if d < dist[j]:
                    dist[j] = d
                    came_from[j] = i
                dj = dist[j]
                if dj < best or (dj == best and row_of[j] < 0):
                    best, pick = dj, pos
            if best == math.inf:  # pragma: no cover - finite costs always reach a free column
                raise ValueError("cost matrix is infeasible")
            reach = best
            j = todo[pick]
            cols_seen.append(j)
            todo[pick] = todo[-1]
            todo.pop()
            if row_of[j] < 0:
                sink = j
            else:
                i = row_of[j]
        u[start] += reach  # rule 4
        for r in rows_seen:
            if r != start:
                u[r] += reach - dist[col_of[r]]
        for j in cols_seen:
            v[j] -= reach - dist[j]
        j = sink
        while True:
            r = came_from[j]
            row_of[j] = r
            col_of[r], j = j, col_of[r]
            if r == start:
                break
    if flipped:
        return sorted((c, r) for r, c in enumerate(col_of))
    return list(enumerate(col_of))
