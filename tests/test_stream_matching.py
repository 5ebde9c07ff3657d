"""Issue 15 (speed): head and partial matching, zeros dropped or matched by their dependencies, MOR
and the zero score are scored document by document (:func:`~corefreport.scoring.streaming.streams`)
and give exactly what the whole-corpus :func:`~corefreport.scoring.evaluate.evaluate` gives: every
metric's numerators and denominators (corpus and per document), mention counts, statistics,
warnings (text and order), duplicates and signature — on real CorefUD files (the GUM pairs
corefud-scorer scored, its own zero test cases) and on the 300-document bench pair, with and
without singletons, one process and two."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from corefreport.io import load_corpus
from corefreport.io.stream import DocumentStream
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings
from corefreport.scoring.streaming import evaluate_stream, streams

from conftest import SHARED

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench-data"
GUM = Path(__file__).resolve().parent / "data" / "corefud_gum"
ZEROS = SHARED / "data" / "corefud" / "scorer-tests" / "zeros"
COREFUD = ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc_crac", "mor", "zero")


def both(key: str, response: str, settings: Settings, jobs: int = 1):
    """(whole-corpus evaluation, streamed evaluation) of one pair, read as the CLI reads them."""
    whole = evaluate(load_corpus(key, key=True), load_corpus(response), settings)
    streamed = evaluate_stream(DocumentStream(key, key=True, columns=True), DocumentStream(response), settings,
                               jobs=jobs)  # as cli/run.py reads them: the key's columns only
    return whole, streamed


def assert_same(whole, streamed) -> None:
    assert streamed.metrics == whole.metrics
    assert [(d.doc_id, d.metrics, d.mentions) for d in streamed.documents] == \
        [(d.doc_id, d.metrics, d.mentions) for d in whole.documents]
    assert streamed.mentions == whole.mentions
    assert (streamed.key_stats, streamed.response_stats) == (whole.key_stats, whole.response_stats)
    assert streamed.warnings == whole.warnings
    assert streamed.duplicates == whole.duplicates
    assert str(streamed.signature) == str(whole.signature)


def test_every_matching_run_streams():
    assert streams(Settings(match="head"))
    assert streams(Settings(match="partial", zeros="drop", singletons="drop"))
    assert streams(Settings(metrics=COREFUD, match="head", zero_match="dependent", preset="crac"))
    assert not streams(Settings(match="head", analyses=("arcs",)))
    assert not streams(Settings(match="head", plink_by="mtype"))


@pytest.fixture(scope="module")
def gum_pairs(corefud_gum_pairs):
    return corefud_gum_pairs


@pytest.mark.parametrize("match", ["exact", "head", "partial"])
@pytest.mark.parametrize("singletons", ["keep", "drop"])
def test_gum_corefud_pairs_stream_to_the_whole_corpus_numbers(gum_pairs, match, singletons):
    key = str(gum_pairs / "key.conllu")
    for response in sorted(gum_pairs.glob("response-*.conllu")):
        settings = Settings(metrics=COREFUD, match=match, singletons=singletons, zero_match="dependent")
        for jobs in (1, 2):  # (the CLI pools CoNLL-2012 only; a pool of CoNLL-U documents gives the same too)
            whole, streamed = both(key, str(response), settings, jobs)
            assert_same(whole, streamed)


def _real_conll2012_pairs() -> list[tuple[str, str]]:
    gold, system = SHARED / "data" / "gum" / "derived" / "conll2012", SHARED / "data" / "xrenner" / "conll2012"
    return [(str(gold / f"{k}.conll"), str(system / f"{r}.conll"))
            for k, r in (("gum", "ml-gum"), ("ontogum", "rules-ontonotes")) if (gold / f"{k}.conll").exists()]


@pytest.mark.parametrize("match", ["head", "partial"])
def test_real_conll2012_pairs_stream_to_the_whole_corpus_numbers(match):
    """GUM's gold CoNLL-2012 against xrenner's output: heads by rule 3a from the key's POS."""
    pairs = _real_conll2012_pairs()
    if not pairs:
        pytest.skip("needs ../shared GUM and xrenner CoNLL-2012 files")
    for key, response in pairs:
        for singletons in ("keep", "drop"):
            whole, streamed = both(key, response, Settings(metrics=COREFUD, match=match, singletons=singletons), 2)
            assert_same(whole, streamed)
            assert "heads:rule" in str(streamed.signature)


def test_the_streamed_gum_numbers_are_corefud_scorers(gum_pairs):
    """The streamed run gives corefud-scorer's own numerators and denominators
    (``counts_pn_pd_rn_rd`` in tests/data/corefud_gum/expected.json) in every mode."""
    import json

    expected = json.loads((GUM / "expected.json").read_text(encoding="utf-8"))
    checked = set()
    for case in expected["cases"]:
        settings = Settings(metrics=COREFUD, match=case["match"], zero_match="dependent",
                            singletons="keep" if case["keep_singletons"] else "drop")
        ev = evaluate_stream(DocumentStream(str(gum_pairs / "key.conllu"), key=True, columns=True),
                             DocumentStream(str(gum_pairs / case["response"])), settings)
        counts = case["counts_pn_pd_rn_rd"]
        for name in ("muc", "bcub", "ceafe", "ceafm", "lea", "mor"):
            c = ev.metrics[name]
            assert (c.precision_num, c.precision_den, c.recall_num, c.recall_den) == \
                pytest.approx(tuple(counts[name])), (case["command"], name)
        b = ev.metrics["blanc_crac"]
        for part, got in (("blancc", b.coref), ("blancn", b.noncoref)):
            assert (got.precision_num, got.precision_den, got.recall_num, got.recall_den) == \
                pytest.approx(tuple(counts[part])), (case["command"], part)
        checked.add(case["match"])
    assert checked == {"exact", "head", "partial"}


@pytest.mark.parametrize("zeros,zero_match", [("keep", "dependent"), ("keep", "linear"), ("drop", "linear")])
@pytest.mark.parametrize("match", ["exact", "head", "partial"])
def test_corefud_zero_cases_stream_to_the_whole_corpus_numbers(match, zeros, zero_match):
    if not ZEROS.is_dir():
        pytest.skip("needs ../shared corefud scorer-tests")
    for key in sorted(ZEROS.glob("*.key")):
        for response in sorted(ZEROS.glob(key.stem + "-*.response")):
            for singletons in ("keep", "drop"):
                settings = Settings(metrics=COREFUD, match=match, zeros=zeros, zero_match=zero_match,
                                    singletons=singletons)
                whole, streamed = both(str(key), str(response), settings)
                assert_same(whole, streamed)


def _bench() -> tuple[str, str]:
    if not BENCH.joinpath("base.key").exists():
        pytest.skip("needs bench-data/base.key")
    return str(BENCH / "base.key"), str(BENCH / "base.response")


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("match", ["head", "partial"])
@pytest.mark.parametrize("singletons", ["keep", "drop"])
def test_bench_pair_streams_to_the_whole_corpus_numbers(match, singletons, jobs):
    key, response = _bench()
    settings = Settings(metrics=("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor"), match=match,
                        singletons=singletons)
    whole, streamed = both(key, response, settings, jobs)
    assert_same(whole, streamed)
    assert "heads:rule" in str(streamed.signature)
    exact = evaluate_stream(DocumentStream(key, key=True), DocumentStream(response), Settings(singletons=singletons))
    assert streamed.metrics["muc"] != exact.metrics["muc"]  # the matching did move the numbers


def test_bench_response_out_of_order_streams_to_the_same_numbers(tmp_path):
    key, response = _bench()
    docs = re.findall(r"#begin document.*?#end document\n", Path(response).read_text(encoding="utf-8"), re.S)
    docs = docs[:60]
    random.Random(15).shuffle(docs)
    shuffled = tmp_path / "shuffled.response"
    shuffled.write_text("".join(docs[:-5]), encoding="utf-8")  # five key documents missing too
    for jobs in (1, 2):
        whole, streamed = both(key, str(shuffled), Settings(match="head", singletons="drop"), jobs)
        assert_same(whole, streamed)
        assert any("missing from the response" in w for w in streamed.warnings)


def test_mixed_formats_stream_to_the_whole_corpus_numbers():
    """A CoNLL-2012 key with a JSON lines response and the other way round: heads from the key's
    columns for both sides (rule 3a), the warning naming both formats."""
    sample = SHARED / "data" / "jsonlines"
    if not (sample / "singe.jsonlines").exists():
        pytest.skip("needs ../shared jsonlines samples")
    conll, jsonl = str(sample / "singe.conll"), str(sample / "singe.jsonlines")
    for key, response in ((conll, jsonl), (jsonl, conll)):
        for match in ("head", "partial"):
            whole, streamed = both(key, response, Settings(match=match))
            assert_same(whole, streamed)
            assert "conll2012 and jsonlines mentions carry no head" in streamed.warnings[0]
