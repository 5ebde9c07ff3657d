"""Issue 17: a standard-metrics run reads only words and chains (``columns=False``); its numbers and
signature are those of a full read, and the other columns are not kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from corefreport.cli import example_paths
from corefreport.study.read import spans_only
from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

SHARED = Path(__file__).resolve().parents[2] / "shared"


def pairs():
    yield example_paths()
    ref = SHARED / "data" / "conll-scorer-tests"  # the reference scorer's test cases (repeats, nesting…)
    for key in sorted(ref.glob("TC-*.key")):
        for resp in sorted(ref.glob(key.stem + "-*.response")):
            yield str(key), str(resp)


@pytest.mark.parametrize("key,response", list(pairs()), ids=lambda p: Path(p).name)
def test_lean_read_scores_as_the_full_read(key, response):
    full = evaluate(load_corpus(key, key=True), load_corpus(response), Settings())
    kc, rc = load_corpus(key, key=True, columns=False), load_corpus(response, columns=False)
    lean = evaluate(kc, rc, Settings())
    assert lean.as_dict(per_doc=True) == full.as_dict(per_doc=True)
    assert all(not d.columns for d in kc)
    assert [d.tokens for d in kc] == [d.tokens for d in load_corpus(key, key=True)]


def test_only_span_runs_read_lean():
    assert spans_only(Settings())
    assert not spans_only(Settings(analyses=("arcs",)))
    assert not spans_only(Settings(analyses=("errors",)))
    assert not spans_only(Settings(match="head"))
