"""The 111 Universal Anaphora cases of ../shared/spec/vectors/corefud_ua_testcases.json (suite
``ua``: the UA scorer's test files, expected values asserted in ufal/corefud-scorer@4fd7b0e
tests/unittests-ua.py), read by io/ua.py and scored with singletons kept and BLANC as the UA
scorer averages it (``blanc_crac``: a component counts when the key or the response has a link).

The cases corefreport does not reproduce yet are listed in :data:`NOT_YET` (strict xfail: a case
that starts to pass fails the test until it is moved out of the list): split antecedents (the
plural cases TC-PA/TC-PB, Paun, Yu et al. 2022) and the UA scorer's ``Min=``/CRAFT partial matching.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corefreport.io.ua import read_ua
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.options import settings_from

VECTORS = Path(__file__).resolve().parents[2] / "shared" / "spec" / "vectors" / "corefud_ua_testcases.json"
CASES = [c for c in json.loads(VECTORS.read_text(encoding="utf-8")) if c["suite"] == "ua"] if VECTORS.exists() else []

SPLIT_ANTECEDENTS = {f"ua::test_PA{i}" for i in (4, 5, 6, 7, 8, 9, 10, 11)} | {"ua::test_PB3", "ua::test_PB4"}
MIN_SPANS = {"ua::test_NCMA2", "ua::test_NCMA5", "ua::test_NCMB2", "ua::test_O2_partial", "ua::test_P3_partial",
             "ua::test_Q2_partial"} | {f"ua::test_OLM{x}{i}" for x in "AB" for i in (2, 3, 4, 5)} \
            | {f"ua::test_OLMC{i}" for i in (2, 3, 4, 5, 6, 7)}
NOT_YET = SPLIT_ANTECEDENTS | MIN_SPANS


def test_the_vectors_are_there() -> None:
    if not VECTORS.exists():
        pytest.skip("../shared is absent")
    assert len(CASES) == 111 and len(NOT_YET) == 30


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"], marks=pytest.mark.xfail(strict=True, reason="not yet"))
                                  if c["id"] in NOT_YET else pytest.param(c, id=c["id"]) for c in CASES])
def test_ua_case(case: dict) -> None:
    key, response = read_ua("key", case["key"]), read_ua("response", case["response"])
    names = ["blanc_crac" if m == "blanc" else m for m in case["expected"]]
    zeros = "keep" if case["reader_args"].get("keep_zeros") else "drop"
    ev = evaluate(key, response, settings_from(metrics=names, singletons="keep", zeros=zeros))
    for m, name in zip(case["expected"], names):
        exp = case["expected"][m]
        got = ev.metrics[name]
        tol = exp.get("abs_tol", 1e-6)
        for field in ("recall", "precision", "f1"):
            assert getattr(got, field) == pytest.approx(exp[field], abs=tol), (m, field)
