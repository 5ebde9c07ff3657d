"""``corefreport score … --format json`` reproduces Chen & Ng (2013) Table 1 end to end.

Files → reader → mention typing (features.annotated) → alignment → metrics → JSON: all 120 cells of
Table 1 (8 metrics × R/P/F × responses (a)–(e), weights W4) to the printed decimal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app

DATA = Path(__file__).parent / "data" / "chen_ng"
TABLE1: dict[str, dict[str, list[float]]] = json.loads((DATA / "table1.json").read_text(encoding="utf-8"))["table"]
RESPONSES = "abcde"
NAMES = {"MUC": "muc", "LMUC": "lmuc", "B3": "bcub", "LB3": "lbcub", "CEAFm": "ceafm", "LCEAFm": "lceafm",
         "CEAFe": "ceafe", "LCEAFe": "lceafe"}
LMETRIC_FLAGS = ["--metric", "lmuc", "--metric", "lbcub", "--metric", "lceafm", "--metric", "lceafe"]
STANDARD_FLAGS = ["--metric", "muc", "--metric", "bcub", "--metric", "ceafm", "--metric", "ceafe"]


def printed(value: float, expected: float) -> bool:
    """``value`` (a fraction) shows as ``expected`` (a percentage printed to 0.1, rounded half up)."""
    return abs(100 * value - expected) <= 0.05 + 1e-9


def run_score(resp: str, *flags: str) -> dict:
    args = ["score", str(DATA / "key.conll"), str(DATA / f"response_{resp}.conll"), *flags, "--format", "json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def outputs() -> dict[str, dict]:
    """One run per response with all eight metrics (standard and linguistic), weights W4."""
    return {r: run_score(r, *STANDARD_FLAGS, *LMETRIC_FLAGS, "--weights", "1,0.75,0.5,1") for r in RESPONSES}


def test_json_holds_the_requested_metrics_as_fractions(outputs):
    for out in outputs.values():
        assert set(NAMES.values()) <= set(out["metrics"])
        for name in NAMES.values():
            m = out["metrics"][name]
            for k in ("recall", "precision", "f1"):
                assert 0.0 <= m[k] <= 1.0


@pytest.mark.parametrize("metric", list(TABLE1))
@pytest.mark.parametrize("resp", list(RESPONSES))
def test_table1_row_through_the_cli(outputs, metric, resp):
    got = outputs[resp]["metrics"][NAMES[metric]]
    for k, key in enumerate(("recall", "precision", "f1")):
        assert printed(got[key], TABLE1[metric][resp][k]), f"{metric} ({resp}) {key} = {100 * got[key]:.3f}"


@pytest.mark.parametrize("resp", list(RESPONSES))
def test_lmetrics_only_with_the_documented_flags(resp):
    """Exactly the documented invocation: the four LMetrics, --weights 1,0.75,0.5,1."""
    out = run_score(resp, *LMETRIC_FLAGS, "--weights", "1,0.75,0.5,1")
    assert list(out["metrics"]) == ["lmuc", "lbcub", "lceafm", "lceafe"]
    for metric in ("LMUC", "LB3", "LCEAFm", "LCEAFe"):
        got = out["metrics"][NAMES[metric]]
        assert [printed(got[k], v) for k, v in zip(("recall", "precision", "f1"), TABLE1[metric][resp])] == [True] * 3


def test_default_weights_are_w4():
    assert run_score("e", *LMETRIC_FLAGS)["metrics"] == run_score("e", *LMETRIC_FLAGS, "--weights", "1,0.75,0.5,1")[
        "metrics"]


def test_w5_changes_the_lmetrics():
    w5 = run_score("d", "--metric", "lmuc", "--weights", "1,0.5,0.25,1")["metrics"]["lmuc"]
    assert round(100 * w5["recall"], 3) == 74.242  # derived W5 value of lmetrics_vectors.json


@pytest.mark.parametrize("weights", ["1,0.75,0.5,0", "1,0.75,0.5", "a,b,c,d"])
def test_bad_weights_are_a_usage_error(weights):
    args = ["score", str(DATA / "key.conll"), str(DATA / "response_a.conll"), "--metric", "lmuc",
            "--weights", weights]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert "weights" in result.output.lower()
