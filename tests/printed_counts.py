"""corefreport's counts against the numerators and denominators a reference program printed
(scorer.pl v8.01, its LEA branch), as recorded in a ``tests/data/<topic>/expected.json``: the one
home of the checks that ``test_strata.py`` and ``test_windows.py`` (and ``test_bookcoref.py``) share."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def close(ours, theirs) -> bool:
    """Equal to the printed number but for its last digits (relative 1e-12, absolute 1e-9)."""
    return math.isclose(float(ours), float(theirs), rel_tol=1e-12, abs_tol=1e-9)


def counts(c) -> list:
    """[recall numerator, recall denominator, precision numerator, precision denominator]."""
    return [c.recall_num, c.recall_den, c.precision_num, c.precision_den]


def metric_counts(ev) -> dict[str, list]:
    """An evaluation's totals: every metric's four counts but BLANC's (whose counts are two link sets)."""
    return {n: counts(c) for n, c in ev.metrics.items() if n != "blanc"}


def assert_counts(ours, theirs, where: str) -> None:
    """Our four counts are the four printed ones (``theirs``)."""
    assert len(theirs) == 4, where
    for a, b in zip(counts(ours), theirs):
        assert close(a, b), (where, counts(ours), theirs)


def assert_printed(metrics: dict, mentions, printed: dict, where: str) -> int:
    """Every number scorer.pl printed (``printed``: the mentions, MUC, B³, CEAF-m, CEAF-e, LEA,
    BLANC's two link sets and its R and P) against our statistics; the numbers checked (32)."""
    assert_counts(mentions, printed["mentions"], where + " mentions")
    for m in ("muc", "bcub", "ceafm", "ceafe", "lea"):
        assert_counts(metrics[m], printed[m], f"{where} {m}")
    b = metrics["blanc"]
    assert_counts(b.coref, printed["blanc"]["coref_links"], where + " blanc coref")
    assert_counts(b.noncoref, printed["blanc"]["noncoref_links"], where + " blanc noncoref")
    assert close(b.recall, printed["blanc"]["blanc"][0]) and close(b.precision, printed["blanc"]["blanc"][2])
    return 4 * 8


def case_paths(case: dict) -> tuple[Path, Path]:
    """The key and response files of an expected.json case (paths from the project's root), or skip
    the test when they are not here (a case on ../shared data)."""
    key, resp = ROOT / case["key"], ROOT / case["response"]
    if not key.exists() or not resp.exists():
        pytest.skip(f"{case['key']}: the shared data is not here")
    return key, resp
