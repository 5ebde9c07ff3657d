"""Paired significance tests by resampling documents (Koehn 2004; Riezler & Maxwell 2005).

Each system's score is a function of counts summed over documents, so a resample is a sum of
per-document count vectors — nothing is re-scored. ``counts`` arrays have shape (documents,
columns); a *scorer* maps summed columns (shape (..., columns)) to a score array, vectorised.

* **Paired bootstrap**: draw N resamples of the documents with replacement (the same draw for both
  systems); report the 2.5 / 97.5 percentiles of each system's score and of their difference.
* **Approximate randomization**: in each of R trials swap the two systems' counts of every document
  with probability ½; p = (c + 1) / (R + 1), where c counts trials whose |difference| is at least
  the observed one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

Scorer = Callable[[np.ndarray], np.ndarray]


def _div(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.divide(a, b, out=np.zeros_like(a, dtype=float), where=b != 0)


def f1_of(rn: np.ndarray, rd: np.ndarray, pn: np.ndarray, pd: np.ndarray) -> np.ndarray:
    r, p = _div(rn, rd), _div(pn, pd)
    return _div(2 * p * r, p + r)


def counts_f1(cols: np.ndarray) -> np.ndarray:
    """F1 from columns (recall_num, recall_den, precision_num, precision_den)."""
    return f1_of(cols[..., 0], cols[..., 1], cols[..., 2], cols[..., 3])


def blanc_f1(cols: np.ndarray) -> np.ndarray:
    """BLANC F from coreference (0–3) and non-coreference (4–7) link counts, with reference v8.01's
    rules when the key has no links of one kind."""
    fc, fn = counts_f1(cols[..., 0:4]), counts_f1(cols[..., 4:8])
    no_c, no_n = cols[..., 1] == 0, cols[..., 5] == 0
    return np.where(no_c & no_n, 0.0, np.where(no_c, fn, np.where(no_n, fc, (fc + fn) / 2)))


@dataclass(slots=True)
class PairedTest:
    baseline: float
    system: float
    delta: float
    baseline_ci: tuple[float, float]
    system_ci: tuple[float, float]
    delta_ci: tuple[float, float]
    p_value: float

    def as_dict(self) -> dict:
        return {"baseline": self.baseline, "system": self.system, "delta": self.delta,
                "baseline_ci": list(self.baseline_ci), "system_ci": list(self.system_ci),
                "delta_ci": list(self.delta_ci), "p_value": self.p_value}


def paired_test(a: np.ndarray, b: np.ndarray, scorer: Scorer, bootstrap: int, randomization: int,
                rng: np.random.Generator) -> PairedTest:
    """Bootstrap intervals and the approximate-randomization p-value for systems ``a`` and ``b``."""
    n = a.shape[0]
    sa, sb = scorer(a.sum(0)), scorer(b.sum(0))
    delta = float(sb - sa)
    if bootstrap and n:
        idx = rng.integers(0, n, size=(bootstrap, n))
        ba, bb = scorer(a[idx].sum(1)), scorer(b[idx].sum(1))
        ci = lambda x: (float(np.percentile(x, 2.5)), float(np.percentile(x, 97.5)))  # noqa: E731
        a_ci, b_ci, d_ci = ci(ba), ci(bb), ci(bb - ba)
    else:
        a_ci = b_ci = d_ci = (float("nan"), float("nan"))
    p = 1.0
    if randomization and n:
        diff = b - a
        total_a, total_b = a.sum(0), b.sum(0)
        hits = 0
        for start in range(0, randomization, 2000):  # bounded memory
            m = min(2000, randomization - start)
            swap = rng.integers(0, 2, size=(m, n)).astype(float)
            moved = swap @ diff
            da = scorer(total_a + moved)
            db = scorer(total_b - moved)
            hits += int(np.sum(np.abs(db - da) >= abs(delta) - 1e-12))
        p = (hits + 1) / (randomization + 1)
    return PairedTest(float(sa), float(sb), delta, a_ci, b_ci, d_ci, p)
