"""Sufficient statistics of a score: numerators and denominators, summed over documents.

Every metric keeps its raw counts so that corpus scores are micro sums (as the CoNLL reference
scorer computes them), so that significance tests can resample documents by adding counts, and so
that users can check our numbers against the reference's ``(num / den)`` output.
"""

from __future__ import annotations

from dataclasses import dataclass


def ratio(num: float, den: float) -> float:
    """``num / den``, 0 when ``den`` is 0 (the reference scorer prints 0 there)."""
    return num / den if den else 0.0


def harmonic(p: float, r: float) -> float:
    """F1 = 2PR / (P + R), 0 when P + R = 0."""
    return 2 * p * r / (p + r) if p + r else 0.0


@dataclass(frozen=True, slots=True)
class Counts:
    """Recall = recall_num / recall_den, precision = precision_num / precision_den, F1 harmonic."""

    recall_num: float = 0.0
    recall_den: float = 0.0
    precision_num: float = 0.0
    precision_den: float = 0.0

    @property
    def recall(self) -> float:
        return ratio(self.recall_num, self.recall_den)

    @property
    def precision(self) -> float:
        return ratio(self.precision_num, self.precision_den)

    @property
    def f1(self) -> float:
        return harmonic(self.precision, self.recall)

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
