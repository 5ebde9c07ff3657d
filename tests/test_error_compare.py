"""compare -a errors: per-class deltas of Kummerfeld & Klein error counts and costs between two
systems, with the paired tests over documents (scoring/compare.py, error_deltas).

The baseline's and the system's numbers are checked against each system's own
``score -a errors -f json`` (an independent run of the CLI per system): counts per class and the
CoNLL F1 each class gains, fixed cumulatively."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.scoring.errorclasses import CLASSES

DATA = Path(__file__).parent.parent.parent / "shared" / "data"
GUM = DATA / "gum" / "derived" / "conll2012" / "gum.conll"
ML = DATA / "xrenner" / "conll2012" / "ml-gum.conll"
RULES = DATA / "xrenner" / "conll2012" / "rules-gum.conll"

pytestmark = pytest.mark.skipif(not GUM.exists(), reason="shared data not present")
MODE_T = "--errors-drop-response-singletons"
"""The analyser's own mode (its numbers below); the default's are in tests/test_errors_scored_system.py."""


def run(*args: str) -> str:
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.output


@pytest.fixture(scope="module")
def scored():
    out = {}
    for name, path in (("ml", ML), ("rules", RULES)):
        d = json.loads(run("score", str(GUM), str(path), "-a", "errors", MODE_T, "-f", "json", "-q"))["errors"]
        out[name] = {"counts": d["counts"], "cost": {c["class"]: c["cumulative"]["conll"] for c in d["costs"]}}
    return out


@pytest.fixture(scope="module")
def compared():
    return json.loads(run("compare", str(GUM), f"ml={ML}", f"rules={RULES}", "-a", "errors", MODE_T, "-f", "json",
                          "--bootstrap", "200", "--randomization", "1000", "-q"))


def test_compare_counts_and_costs_equal_each_systems_score(compared, scored):
    rows = {r["class"]: r for r in compared["errors"]["rules"]}
    assert list(rows) == list(CLASSES)
    for c in CLASSES:
        n, cost = rows[c]["count"], rows[c]["conll_cost"]
        assert (n["baseline"], n["system"]) == (scored["ml"]["counts"][c], scored["rules"]["counts"][c])
        assert n["delta"] == scored["rules"]["counts"][c] - scored["ml"]["counts"][c]
        assert cost["baseline"] == pytest.approx(scored["ml"]["cost"][c], abs=1e-12)
        assert cost["system"] == pytest.approx(scored["rules"]["cost"][c], abs=1e-12)


def test_what_the_rules_system_fixes_and_breaks(compared):
    """rules vs ml on GUM: far more Conflated Entities (829 vs 444 in each system's own score), far
    fewer Missing Entities (119 vs 222): both significant; the Extra Entity difference (44 vs 40)
    is not."""
    rows = {r["class"]: r for r in compared["errors"]["rules"]}
    assert rows["Conflated Entities"]["count"]["delta"] > 0 and rows["Conflated Entities"]["count"]["significant"]
    assert rows["Missing Entity"]["conll_cost"]["delta"] < 0 and rows["Missing Entity"]["conll_cost"]["significant"]
    assert not rows["Extra Entity"]["count"]["significant"]
    lo, hi = rows["Conflated Entities"]["conll_cost"]["delta_ci"]
    assert lo <= rows["Conflated Entities"]["conll_cost"]["delta"] <= hi


def test_a_system_against_itself_changes_nothing():
    d = json.loads(run("compare", str(GUM), f"a={ML}", f"b={ML}", "-a", "errors", "-f", "json",
                       "--bootstrap", "100", "--randomization", "200", "-q"))
    for r in d["errors"]["b"]:
        assert r["count"]["delta"] == 0 and r["conll_cost"]["delta"] == 0
        assert r["count"]["p_value"] == 1.0 and r["conll_cost"]["p_value"] == 1.0


def test_compare_table_markdown_and_csv_show_the_classes(scored):
    args = ["compare", str(GUM), f"ml={ML}", f"rules={RULES}", "-a", "errors", MODE_T, "--bootstrap", "50",
            "--randomization", "100", "-q"]
    table = run(*args)
    assert "Error classes (Kummerfeld & Klein 2013): rules vs ml" in table
    line = next(x for x in table.splitlines() if x.lstrip("|").startswith("Conflated Entities"))
    assert "444" in line and "829" in line and "+385" in line
    md = run(*args, "-f", "markdown")
    assert "### Error classes (Kummerfeld & Klein 2013): rules vs ml" in md
    rows = list(csv.DictReader(io.StringIO(run(*args, "-f", "csv"))))
    counts = {(r["system"], r["item"]): int(r["n"]) for r in rows if r["kind"] == "error_count"}
    for c in CLASSES:
        assert counts[("ml", c)] == scored["ml"]["counts"][c] and counts[("rules", c)] == scored["rules"]["counts"][c]
