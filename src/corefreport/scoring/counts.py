"""Sufficient statistics of a score and the arithmetic every formula is written in.

Every metric keeps its raw counts so that corpus scores are micro sums (as the CoNLL reference
scorer computes them), so that significance tests can resample documents by adding counts, and so
that users can check our numbers against the reference's ``(num / den)`` output.

**One policy for undefined values** (the model is scikit-learn's ``zero_division``): a recall or a
precision whose denominator is 0 is :data:`ZERO_DIVISION` = 0.0, and an F1 whose P + R is 0 is 0.0
— exactly what reference scorer v8.01 prints, and what Žitkus et al.'s macro averages need (an
undefined P_i or R_i counts as 0, rule Z9/Z10). Tables of groups (p-link categories, typed classes
and types) also say *that* a value was undefined: :meth:`Counts.defined` tells them, and the
presentation layer prints "n/a" there; JSON carries ``null`` for those per-group values only.

The helpers :func:`ratio`, :func:`harmonic` and :func:`where` take Python numbers **or** numpy
arrays (of resamples, of groups), so one formula serves a corpus score and ten thousand bootstrap
resamples: the same operations in the same order, bit-identical results.

>>> Counts(220, 338, 220, 312).f1 == harmonic(220 / 312, 220 / 338)
True
>>> ratio(0, 0)
0.0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

ZERO_DIVISION = 0.0
"""The value of R or P when its denominator is 0 (and of F1 when P + R is 0)."""

Num = Any
"""A float, or a numpy array of floats (resamples × groups): every formula accepts both."""


def _scalar(x: Any) -> bool:
    return isinstance(x, (int, float))


def ratio(num: Num, den: Num) -> Num:
    """``num / den``, :data:`ZERO_DIVISION` where ``den`` is 0 (elementwise for arrays)."""
    if _scalar(den) and _scalar(num):
        return num / den if den else ZERO_DIVISION
    import numpy as np

    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    out = np.full(np.broadcast(num, den).shape, ZERO_DIVISION)
    return np.divide(num, den, out=out, where=den != 0)


def harmonic(p: Num, r: Num) -> Num:
    """F1 = 2PR / (P + R), 0 where P + R = 0."""
    return ratio(2 * p * r, p + r)


def where(cond: Num, a: Num, b: Num) -> Num:
    """``a`` where ``cond`` holds, else ``b`` (elementwise for arrays)."""
    if _scalar(cond) or isinstance(cond, bool):
        return a if cond else b
    import numpy as np

    return np.where(cond, a, b)


def prf(recall_num: Num, recall_den: Num, precision_num: Num, precision_den: Num) -> tuple[Num, Num, Num]:
    """The formula of every count-shaped score: R = rn / rd, P = pn / pd, F = 2PR / (P + R).

    >>> prf(1, 2, 1, 4)
    (0.5, 0.25, 0.3333333333333333)
    """
    r = ratio(recall_num, recall_den)
    p = ratio(precision_num, precision_den)
    return r, p, harmonic(p, r)


def counts_formula(cols: Sequence[Num]) -> tuple[Num, Num, Num]:
    """:func:`prf` over the columns ``recall_num, recall_den, precision_num, precision_den``."""
    return prf(cols[0], cols[1], cols[2], cols[3])


@dataclass(frozen=True, slots=True)
class Counts:
    """Recall = recall_num / recall_den, precision = precision_num / precision_den, F1 harmonic
    (:func:`counts_formula`)."""

    recall_num: float = 0.0
    recall_den: float = 0.0
    precision_num: float = 0.0
    precision_den: float = 0.0

    def stats(self) -> tuple[float, float, float, float]:
        """The sufficient statistics, in the order of :func:`counts_formula`'s columns."""
        return (self.recall_num, self.recall_den, self.precision_num, self.precision_den)

    @property
    def recall(self) -> float:
        return ratio(self.recall_num, self.recall_den)

    @property
    def precision(self) -> float:
        return ratio(self.precision_num, self.precision_den)

    @property
    def f1(self) -> float:
        return counts_formula(self.stats())[2]

    def defined(self) -> tuple[bool, bool]:
        """Whether recall and precision are defined (their denominators are not 0)."""
        return bool(self.recall_den), bool(self.precision_den)

    def __add__(self, other: "Counts") -> "Counts":
        return Counts(
            self.recall_num + other.recall_num,
            self.recall_den + other.recall_den,
            self.precision_num + other.precision_num,
            self.precision_den + other.precision_den,
        )

    def as_dict(self) -> dict[str, float]:
        return {
            "recall": self.recall,
            "precision": self.precision,
            "f1": self.f1,
            "recall_num": self.recall_num,
            "recall_den": self.recall_den,
            "precision_num": self.precision_num,
            "precision_den": self.precision_den,
        }
