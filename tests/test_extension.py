"""Adding an analysis through the public extension point (docs/architecture.md, "Adding an
analysis"): one module holding its steps and its table, one ``register`` call — and it is computed
by ``-a NAME``, in one process and in a pool, in ``score -f json`` and score's tables, browsed in
the terminal browser's model and given a section in the report's model.

The toy analysis, *first mentions*: for each key chain of two or more mentions, one outcome row for
its first mention — TP when the response has a mention of that span, FN otherwise. Its part is the
rows' tally, which adds up over runs of documents; its table the tally's R, P, F1.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from corefreport.io import load_corpus
from corefreport.present.table import Table
from corefreport.scoring.outcomes import LinkOutcome, OutcomeCounts, add_counts, tally
from corefreport.scoring.registry import Analysis, RowAnalysis, register, unregister

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "src" / "corefreport" / "data" / "example"
KEY, RESPONSE = str(EXAMPLE / "gum_key.conll"), str(EXAMPLE / "xrenner_response.conll")


class FirstMentions:
    """The toy analysis's steps (the protocol of :class:`~corefreport.scoring.registry.Analysis`)."""

    def __init__(self, settings) -> None:
        self.settings = settings

    def score(self, aligned: list) -> tuple[list[LinkOutcome], OutcomeCounts]:
        rows = []
        for ad in aligned:
            spans = {s for chain in ad.response for s in chain}
            for chain in ad.key:
                if len(chain) > 1:
                    start, end = min(chain)
                    rows.append(LinkOutcome("first", ad.doc_id, start, end, "", "TP" if (start, end) in spans else "FN",
                                            1.0 if (start, end) in spans else 0.0, cls="first", type="first"))
        return rows, tally(rows)

    @staticmethod
    def add(a: OutcomeCounts, b: OutcomeCounts) -> OutcomeCounts:
        return add_counts(a, b)

    def result(self, part: OutcomeCounts) -> "FirstResult":
        return FirstResult(part)


class FirstResult:
    def __init__(self, counts: OutcomeCounts) -> None:
        self.counts = counts

    def as_dict(self) -> dict:
        c = self.counts
        return {"tp": c.tp, "fn": c.fn, "recall": c.recall}


def first_tables(result: FirstResult) -> list[Table]:
    c = result.counts
    return [Table("First mentions of key chains", ["measure", "recall", "tp", "fn"], [["first", c.recall, c.tp, c.fn]])]


TOY = Analysis("first", "first mentions of key chains", "first", "Tuggener 2014",
               (RowAnalysis("first", "first mentions (found)", "First", "first mentions"),),
               f"{__name__}:FirstMentions", "first", tables=f"{__name__}:first_tables")


@pytest.fixture
def toy():
    register(TOY)
    try:
        yield TOY
    finally:
        unregister("first")


def expected_counts() -> tuple[int, int]:
    """The toy's numbers counted independently, from the corpora as read."""
    key, response = load_corpus(KEY, key=True), load_corpus(RESPONSE)
    tp = fn = 0
    for d in key:
        spans = {(m.start, m.end) for c in response.documents[d.doc_id].chains for m in c.mentions}
        for c in d.chains:
            if len(c.mentions) > 1:
                first = min((m.start, m.end) for m in c.mentions)
                tp, fn = (tp + 1, fn) if first in spans else (tp, fn + 1)
    return tp, fn


def test_a_registered_analysis_is_scored_and_in_the_json(toy, tmp_path):
    from typer.testing import CliRunner

    from corefreport.cli.commands import app

    tp, fn = expected_counts()
    assert tp > 20 and fn > 5
    for jobs in ("1", "2"):
        res = CliRunner().invoke(app, ["score", KEY, RESPONSE, "-a", "first", "-f", "json", "-q", "--jobs", jobs])
        assert res.exit_code == 0, res.output
        data = json.loads(res.stdout)
        assert data["first"] == {"tp": tp, "fn": fn, "recall": tp / (tp + fn)}
        assert "analyses:first" in data["signature"]
    res = CliRunner().invoke(app, ["score", KEY, RESPONSE, "-a", "first", "-f", "csv", "-q"])
    assert "First mentions of key chains" in res.stdout


def test_a_registered_analysis_is_browsed_and_reported(toy):
    from corefreport.report.model import build
    from corefreport.scoring.evaluate import evaluate
    from corefreport.scoring.settings import Settings
    from corefreport.tui.model import total_rows

    tp, fn = expected_counts()
    ev = evaluate(load_corpus(KEY, key=True), load_corpus(RESPONSE), Settings(analyses=("arcs", "first")))
    rows = {r.label: r for r in total_rows(ev)}
    assert "first mentions" in rows and rows["first mentions"].recall == tp / (tp + fn)
    assert "ARCS 1 immediate" in rows  # the built-in analyses are there as before
    report = build(ev)
    section = report.section("first")
    assert section is not None and section.title == "First mentions of key chains"
    assert section.tables[0].rows == [["first", tp / (tp + fn), tp, fn]]


def test_an_unknown_analysis_is_still_refused():
    from typer.testing import CliRunner

    from corefreport.cli.commands import app

    res = CliRunner().invoke(app, ["score", KEY, RESPONSE, "-a", "first"])
    assert res.exit_code == 2 and "unknown analysis 'first'" in res.output


def test_compare_resamples_a_registered_analysis(toy):
    from corefreport.scoring.compare import compare
    from corefreport.scoring.evaluate import evaluate
    from corefreport.scoring.settings import Settings

    key = load_corpus(KEY, key=True)
    settings = Settings(analyses=("first",))
    a = evaluate(key, load_corpus(RESPONSE), settings)
    b = evaluate(key, key, settings)
    cmp = compare({"resp": a, "key": b}, "resp", 200, 200)
    row = next(m for m in cmp.metrics if m.name == "first")
    tp, fn = expected_counts()
    assert row.recall["resp"] == pytest.approx(tp / (tp + fn)) and row.recall["key"] == 1.0
    assert row.label == "First" and 0 < row.tests["key"].p_value <= 1 and row.tests["key"].delta > 0
