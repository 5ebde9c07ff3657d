"""Real data: GUM and OntoGUM gold against four real xrenner responses must give the official
scorer v8.01's numbers numerator for numerator (../shared/data/xrenner/reference-scores/)."""

from __future__ import annotations

import csv

import pytest

from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

from conftest import SHARED, shared_path

PAIRS = {
    "gum_vs_ml-gum": ("gum.conll", "ml-gum.conll", "gum_conll_numeric", "ml/gum"),
    "gum_vs_rules-gum": ("gum.conll", "rules-gum.conll", "gum_conll_numeric", "rules/gum"),
    "ontogum_vs_ml-ontonotes": ("ontogum.conll", "ml-ontonotes.conll", "ontogum_conll_named", "ml/ontonotes"),
    "ontogum_vs_rules-ontonotes": ("ontogum.conll", "rules-ontonotes.conll", "ontogum_conll_named", "rules/ontonotes"),
}
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")


def rows(name: str) -> list[dict]:
    with open(shared_path("data", "xrenner", "reference-scores", name), encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def check_totals(ev, pair: str) -> None:
    expected = [r for r in rows("summary.tsv") if r["pair"] == pair]
    assert len(expected) == 5
    for r in expected:
        s = ev.metrics[r["metric"]]
        if r["metric"] == "blanc":
            assert s.recall == pytest.approx(float(r["recall_num"]), abs=1e-12)
            assert s.precision == pytest.approx(float(r["precision_num"]), abs=1e-12)
            continue
        assert s.recall_num == pytest.approx(float(r["recall_num"]), rel=1e-13)
        assert s.recall_den == float(r["recall_den"])
        assert s.precision_num == pytest.approx(float(r["precision_num"]), rel=1e-13)
        assert s.precision_den == float(r["precision_den"])
        # the reference prints F1 truncated to two decimals
        assert int(s.f1 * 10000) / 100 == pytest.approx(float(r["f1_pct"]), abs=1e-9)
        assert int(ev.mentions.f1 * 10000) / 100 == pytest.approx(float(r["mention_id_f1"]), abs=1e-9)


@pytest.mark.parametrize("pair", PAIRS)
def test_conll2012_files_reproduce_reference_totals_and_per_document(pair):
    key_file, resp_file, _, _ = PAIRS[pair]
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", key_file)))
    resp = load_corpus(str(shared_path("data", "xrenner", "conll2012", resp_file)))
    ev = evaluate(key, resp, Settings(metrics=METRICS))
    check_totals(ev, pair)
    per_doc = {d.doc_id.removesuffix("; part 000"): d for d in ev.documents}
    expected = [r for r in rows("per_document.tsv") if r["pair"] == pair]
    assert len(expected) == 20 * 4
    for r in expected:
        s = per_doc[r["document"]].metrics[r["metric"]]
        assert s.recall_num == pytest.approx(float(r["recall_num"]), rel=1e-12)
        assert (s.recall_den, s.precision_den) == (float(r["recall_den"]), float(r["precision_den"]))


@pytest.mark.parametrize("pair", PAIRS)
def test_folders_of_three_column_files_as_the_reference_read_them(pair):
    """The reference was run on the per-document 3-column files; read the same folders."""
    _, _, key_dir, resp_dir = PAIRS[pair]
    key = load_corpus(str(shared_path("data", "gum", "derived", key_dir)))
    resp = load_corpus(str(shared_path("data", "xrenner", *resp_dir.split("/"))), fmt="conll2012")
    assert len(key) == len(resp) == 20
    check_totals(evaluate(key, resp, Settings(metrics=METRICS)), pair)


def test_repeated_response_mentions_are_reported():
    """xrenner ml/gum repeats spans: one key mention (806–812, dropped as the reference does) and
    one non-key mention (kept twice, so B³ precision counts 5,386 mentions for 5,385 spans)."""
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", "gum.conll")))
    resp = load_corpus(str(SHARED / "data" / "xrenner" / "conll2012" / "ml-gum.conll"))
    ev = evaluate(key, resp, Settings(metrics=("bcub",)))
    spans = {(d.doc_id, d.span, d.action.split(":")[0]) for d in ev.duplicates}
    assert ("GUM_academic_eegimaa; part 000", (806, 812), "key mention") in spans
    assert ev.metrics["bcub"].precision_den == 5386
    assert ev.response_stats.mentions == 5385


def test_dedupe_keeps_the_repeated_ontogum_key_mention_once():
    """OntoGUM's key repeats span 629–636 of GUM_bio_emperor in chains 1 and 14. The reference keeps
    both (MUC key links 1684, B³ key mentions 2256, the default); --key-duplicates dedupe keeps it
    once (1683, 2255) and warns."""
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", "ontogum.conll")))
    resp = load_corpus(str(SHARED / "data" / "xrenner" / "conll2012" / "ml-ontonotes.conll"))
    ev = evaluate(key, resp, Settings(metrics=("muc", "bcub"), key_duplicates="dedupe"))
    assert ev.metrics["muc"].recall_den == 1683
    assert ev.metrics["bcub"].recall_den == 2255
    assert [(d.doc_id, d.span) for d in ev.duplicates if d.side == "key"] == [("GUM_bio_emperor; part 000", (629, 636))]
    assert any("repeated key mention" in w and "differ from reference v8.01" in w for w in ev.warnings)


def test_cli_default_options_print_the_reference_numbers_on_ontogum(tmp_path):
    """`corefreport score ontogum.conll ml-ontonotes.conll` with default options: MUC 795/1684 and
    795/1143, B³ key mentions 2256 (the repeated key span counted twice), as reference v8.01."""
    import json
    from typer.testing import CliRunner
    from corefreport.cli import app

    key = shared_path("data", "gum", "derived", "conll2012", "ontogum.conll")
    resp = SHARED / "data" / "xrenner" / "conll2012" / "ml-ontonotes.conll"
    out = tmp_path / "s.json"
    res = CliRunner().invoke(app, ["score", str(key), str(resp), "-f", "json", "-o", str(out)])
    assert res.exit_code == 0, res.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert "|dups:ref801|" in data["signature"]
    m = {k: v for k, v in data["metrics"].items()}
    assert (m["muc"]["recall_num"], m["muc"]["recall_den"], m["muc"]["precision_den"]) == (795, 1684, 1143)
    assert m["bcub"]["recall_den"] == 2256 and m["bcub"]["precision_den"] == 1552
