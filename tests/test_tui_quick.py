"""The browser's first numbers scored in a forked child (cli/quick.py) while the browser starts."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from corefreport.cli.commands import tui_producer
from corefreport.cli.quick import QuickScores, start_quick
from corefreport.cli.run import example_paths
from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import ALL_METRICS, STANDARD_METRICS
from corefreport.scoring.settings import Settings

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

SETTINGS = Settings(metrics=ALL_METRICS, analyses=("arcs",))


def test_the_child_hands_over_the_standard_scores_then_the_full_result_follows():
    key, resp = example_paths()
    quick = QuickScores(key, resp, replace(SETTINGS, metrics=STANDARD_METRICS, analyses=()))
    stages = []
    full = tui_producer(key, resp, SETTINGS, quick_child=quick)(lambda *a: None, stages.append)
    # independently: the standard metrics scored in this process, from corpora read with every column
    kc, rc = load_corpus(key, key=True), load_corpus(resp)
    alone = evaluate(kc, rc, Settings(metrics=STANDARD_METRICS))
    first = stages[0]
    assert set(first.metrics) == set(STANDARD_METRICS)
    for m in STANDARD_METRICS:
        assert first.metrics[m] == alone.metrics[m] == full.metrics[m], m
    assert [d.doc_id for d in first.documents] == [d.doc_id for d in alone.documents]
    assert first.key_corpus is None  # the child's corpora stay in the child
    # what follows is the parent's own run: all metrics and the analyses
    assert set(full.metrics) == set(ALL_METRICS) and full.arcs is not None and full.key_corpus is not None
    assert full.metrics["muc"].recall == pytest.approx(alone.metrics["muc"].recall)


def test_an_unreadable_file_yields_no_child_result_and_the_parent_names_the_problem(tmp_path):
    from corefreport.errors import InputError

    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (d); part 000\nthis is not a conll line\n", encoding="utf-8")
    key, _ = example_paths()
    quick = QuickScores(key, str(bad), replace(SETTINGS, metrics=STANDARD_METRICS, analyses=()))
    assert quick.result() is None
    with pytest.raises(InputError) as err:
        tui_producer(key, str(bad), SETTINGS, quick_child=QuickScores(
            key, str(bad), replace(SETTINGS, metrics=STANDARD_METRICS, analyses=())))(lambda *a: None, lambda ev: None)
    assert "bad.conll" in str(err.value)


def test_no_child_when_the_one_run_is_as_quick():
    key, resp = example_paths()
    assert start_quick(key, resp, Settings(metrics=STANDARD_METRICS)) is None  # nothing slower follows
    assert start_quick(key, resp, Settings(metrics=("lmuc",))) is None  # no standard metric to show first
