"""The linear sum assignment corefud-scorer calls, ``scipy.optimize.linear_sum_assignment``.

corefud-scorer decides which of several equally good mention matchings wins by that solver
(docs/matching.md rule 9), so corefreport calls the same compiled code on the same matrix.
Importing ``scipy.optimize`` costs about half a second; :func:`load` loads the solver's compiled
module alone (numpy's import, 60–90 ms, is the rest). That module is scipy's private
``scipy/optimize/_lsap``: ``pyproject.toml`` pins scipy below 2, and ``tests/test_assignment.py``
fails when the module is not found where :func:`load` looks (the public import is then taken).
"""

from __future__ import annotations

import os
from typing import Callable

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
    """
    if not sim or not sim[0]:
        return []
    import numpy as np

    rows, cols = load()(-np.array(sim, dtype=float))
    return list(zip(rows.tolist(), cols.tolist()))
