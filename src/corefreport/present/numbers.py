"""Number formatting, one convention for every view: scores as percentages with two decimals,
counts as integers (two decimals when fractional, as B³ numerators), differences signed in points.

An empty cell (``None``) is *not applicable* (CoNLL has no recall) and prints as nothing; an
undefined value (NaN: a test that was not run, a 0/0 the scoring layer reports as undefined, a
ratio :func:`shown_rpf` finds with a zero denominator) prints as "n/a" (see
:mod:`corefreport.scoring.counts` for the policy on undefined scores).

>>> pct(0.6482608), pct(None), pct(float("nan")), count(432.5541), signed(-0.0441)
('64.83', '', 'n/a', '432.55', '−4.41')
"""

from __future__ import annotations

import math
from contextvars import ContextVar

from .labels import COUNT_COLUMNS, METRIC_LABELS

__all__ = ["COUNT_COLUMNS", "NA", "ONE_DOCUMENT_INTERVAL", "ascii_text", "cell", "count", "interval", "is_score_column",
           "p_floored", "p_value", "pct",
           "pct_interval", "print_truncated", "shown_rpf", "signed", "truncated"]

NA = "n/a"


_TRUNCATE: ContextVar[bool] = ContextVar("corefreport_truncate", default=False)


def print_truncated(on: bool) -> None:
    """From now on (in this context), :func:`pct` truncates as scorer.pl v8.01 prints (``--truncate``)."""
    _TRUNCATE.set(bool(on))


def truncated(x: float, digits: int = 2) -> float:
    """A fraction in percent truncated to ``digits`` decimals, as scorer.pl v8.01 prints it:
    ``int($recall * 10000) / 100`` (lib/CorScorer.pm, ``ShowRPF``; Perl's ``int`` truncates toward
    zero), in the same double arithmetic.

    >>> truncated(0.64825), truncated(1491 / 2448), truncated(0.29)
    (64.82, 60.9, 29.0)
    """
    return math.trunc(x * 10 ** (digits + 2)) / 10 ** digits


def pct(x: float | None, digits: int = 2) -> str:
    """A fraction as a percentage with two decimals (charts: one), rounded — or truncated as the
    reference scorer prints it under ``--truncate`` (:func:`print_truncated`)."""
    if x is None:
        return ""
    if math.isnan(x):
        return NA
    return f"{truncated(x, digits):.{digits}f}" if _TRUNCATE.get() else f"{100 * x:.{digits}f}"


def shown_rpf(recall: float, precision: float, f1: float, recall_den: float,
              precision_den: float) -> tuple[float, float, float]:
    """R, P and F1 as every view shows them: a ratio whose denominator is 0 is undefined (NaN,
    printed "n/a"), and so is F1 of an undefined R or P. The scoring layer keeps 0 there, as the
    reference scorer prints it (the JSON's values, with their numerators and denominators).

    >>> shown_rpf(0.0, 0.0, 0.0, 0, 0)
    (nan, nan, nan)
    >>> shown_rpf(0.0, 0.0, 0.0, 4, 0)
    (0.0, nan, nan)
    >>> shown_rpf(0.8, 0.5, 0.6153846, 5, 8)
    (0.8, 0.5, 0.6153846)
    """
    nan = float("nan")
    r = recall if recall_den else nan
    p = precision if precision_den else nan
    return r, p, (f1 if recall_den and precision_den else nan)


def count(x: float | None) -> str:
    """A count: an integer as such, a fractional count with two decimals."""
    if x is None:
        return ""
    if isinstance(x, float) and math.isnan(x):
        return NA
    return f"{int(x)}" if float(x).is_integer() else f"{x:.2f}"


def signed(x: float) -> str:
    """A difference of fractions in points, with its sign (a true minus)."""
    return NA if math.isnan(x) else f"{100 * x:+.2f}".replace("-", "−")


def p_value(p: float) -> str:
    if math.isnan(p):
        return NA
    return f"{p:.4f}" if p >= 5e-5 else f"{p:.1e}"


def p_floored(p: float, floor: float = float("nan"), limit: str = "") -> str:
    """A p-value with the smallest p its test can give beside it, when the data (few runs, few
    documents: ``limit``) and not the number of resamples set that floor; a p from one document
    says so (randomization on one document gives 1 whatever the difference).

    >>> p_floored(0.1, 0.1, "3+3 runs"), p_floored(1.0, 1.0, "1 document"), p_floored(0.0123)
    ('0.1000 (p ≥ 0.1000: 3+3 runs)', '1.0000 (one document)', '0.0123')
    """
    if not limit or math.isnan(p):
        return p_value(p)
    if limit == "1 document":
        return f"{p_value(p)} (one document)"
    return f"{p_value(p)} (p ≥ {p_value(floor)}: {limit})"


def probability(x: float) -> str:
    """A probability (a share of resamples) with three decimals: ``0.998`` (n/a when not drawn)."""
    return NA if math.isnan(x) else f"{x:.3f}"


ONE_DOCUMENT_INTERVAL = "one document: no interval"
"""The interval cell of a difference measured on one document (every resample is that document)."""


def mean_sd(mean: float, sd: float) -> str:
    """A mean and its standard deviation over runs in one cell, in percent: ``64.83 ± 0.41``
    (``64.83`` when the sd is undefined: one run).

    >>> mean_sd(0.64834, 0.0041), mean_sd(0.5, float("nan"))
    ('64.83 ± 0.41', '50.00')
    """
    return pct(mean) if math.isnan(sd) else f"{pct(mean)} ± {pct(sd)}"


def pct_interval(ci: tuple[float, float]) -> str:
    """A confidence interval of a score, in percent: ``[62.10, 66.90]`` (n/a when not drawn)."""
    if math.isnan(ci[0]) or math.isnan(ci[1]):
        return NA
    return f"[{pct(ci[0])}, {pct(ci[1])}]"


def interval(ci: tuple[float, float]) -> str:
    """A confidence interval of a difference: ``[+1.20, +7.00]``."""
    if math.isnan(ci[0]):
        return NA
    return f"[{signed(ci[0])}, {signed(ci[1])}]"


SCORE_COLUMNS = ("recall", "precision", "f1", "accuracy", "f_phi", "share")


def is_score_column(name: str) -> bool:
    """Whether a table column holds fractions shown as percentages (by its header key)."""
    return (name.startswith("f1_") or name in SCORE_COLUMNS or (name in METRIC_LABELS and name != "mentions")
            or name.endswith(("_recall", "_precision", "_f1")))


def cell(v, column: str) -> str:
    """One table cell by its column: scores as percentages, counts as counts, text as is."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, tuple):  # a score's confidence interval
        return pct_interval(v)
    if is_score_column(column):
        return pct(v)
    return count(v)


def ascii_text(s: str) -> str:
    """Plain ASCII for pipes and files: a hyphen for the minus sign, ``->`` for the arrow."""
    return s.replace("−", "-").replace("→", "->")


def signed_count(x: float) -> str:
    """A difference of counts with its sign (a true minus): ``+38``, ``−47``, ``0``."""
    if math.isnan(x):
        return NA
    return ("+" if x > 0 else "−" if x < 0 else "") + count(abs(x))
