"""The 111 Universal Anaphora cases of ../shared/spec/vectors/corefud_ua_testcases.json (suite
``ua``: the UA scorer's test files, expected values asserted in ufal/corefud-scorer@4fd7b0e
tests/unittests-ua.py), read by io/ua.py and scored with singletons kept and BLANC as the UA
scorer averages it (``blanc_crac``: a component counts when the key or the response has a link),
split antecedents kept as the UA scorer does by default (``--split-antecedents keep``: the plural
cases TC-PA/TC-PB, Paun, Yu et al. 2022).

The ``Min=`` and CRAFT cases are scored with ``--match min`` and ``--match craft``
(corefud-scorer's ``partial-corefud`` and ``partial-craft``, scoring/minspan.py). The three cases
corefud-scorer's suite itself skips as wrong are strict xfails (:data:`NOT_YET`).
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
NOT_YET = {c["id"] for c in CASES if c["skipped_upstream"]}
"""OLMC5–7: corefud-scorer's own suite skips them ("errors in the test": B³ P = 1 beside CEAF-m P = 3/4
for one response) — corefreport gets the other values."""
MATCH = {"exact": "exact", "partial-corefud": "min", "partial-craft": "craft"}
"""corefud-scorer's matching of a case → ``--match``."""


def test_the_vectors_are_there() -> None:
    if not VECTORS.exists():
        pytest.skip("../shared is absent")
    assert len(CASES) == 111 and len(SPLIT_ANTECEDENTS) == 10 and len(MIN_SPANS) == 20
    assert {c["id"] for c in CASES if c["reader_args"]["matching"] != "exact"} >= MIN_SPANS
    assert NOT_YET == {"ua::test_OLMC5", "ua::test_OLMC6", "ua::test_OLMC7"}


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"], marks=pytest.mark.xfail(strict=True, reason="skipped upstream"))
                                  if c["id"] in NOT_YET else pytest.param(c, id=c["id"]) for c in CASES])
def test_ua_case(case: dict) -> None:
    key, response = read_ua("key", case["key"]), read_ua("response", case["response"])
    names = ["blanc_crac" if m == "blanc" else m for m in case["expected"]]
    zeros = "keep" if case["reader_args"].get("keep_zeros") else "drop"
    match = MATCH[case["reader_args"]["matching"]]
    ev = evaluate(key, response, settings_from(metrics=names, singletons="keep", zeros=zeros, match=match,
                                                    split_antecedents="keep"))
    for m, name in zip(case["expected"], names):
        exp = case["expected"][m]
        got = ev.metrics[name]
        tol = exp.get("abs_tol", 1e-6)
        for field in ("recall", "precision", "f1"):
            assert getattr(got, field) == pytest.approx(exp[field], abs=tol), (m, field)
