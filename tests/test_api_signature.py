"""Issue 38: one key hash for the same key annotation from a file or from clusters (the API gave
``1d6acbc02b`` on GUM's clusters and the CLI ``6dfabafdde`` on the file: the file's words were
hashed, clusters have none), and ``Scorer(preset="crac")`` on bare clusters says once, as a Python
warning, that its heads come from the rule (a key (0, 1) and a response (1, 1) then match)."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import corefreport
from conftest import shared_path

ROOT = Path(__file__).resolve().parents[1]
KEY = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
ML = shared_path("data", "xrenner", "conll2012", "ml-gum.conll")


def clusters(doc) -> list[list[tuple[int, int]]]:
    return [[(m.start, m.end) for m in c.mentions] for c in doc.chains]


def key_field(signature: str) -> str:
    return next(f for f in signature.split("|") if f.startswith("key:"))


def test_the_cli_on_the_file_and_the_api_on_its_clusters_give_one_key_hash():
    res = subprocess.run([sys.executable, "-m", "corefreport", "score", str(KEY), str(ML), "-f", "json", "-q"],
                         capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert res.returncode == 0, res.stderr
    cli = key_field(json.loads(res.stdout)["signature"])
    gold = corefreport.load(str(KEY), key=True).documents
    pred = corefreport.load(str(ML)).documents
    scorer = corefreport.Scorer()
    for doc_id in gold:  # the review's training loop
        scorer.update(doc_id, clusters(gold[doc_id]), clusters(pred[doc_id]))
    assert key_field(scorer.result()["signature"]) == cli
    # clusters in another order, mentions in another order: the same annotation, the same hash
    shuffled = {d: [list(reversed(c)) for c in reversed(clusters(gold[d]))] for d in gold}
    assert key_field(corefreport.score(shuffled, {d: clusters(pred[d]) for d in gold})["signature"]) == cli
    # … and with the words given: still the annotation's hash
    with_words = corefreport.Scorer()
    for doc_id in gold:
        with_words.update(doc_id, clusters(gold[doc_id]), clusters(pred[doc_id]), tokens=gold[doc_id].tokens)
    assert key_field(with_words.result()["signature"]) == cli
    # another annotation: another hash (one mention moved by a word)
    first = next(iter(gold))
    moved = {d: clusters(gold[d]) for d in gold}
    s, e = moved[first][0][0]
    moved[first][0][0] = (s + 1, e + 1)
    assert key_field(corefreport.score(moved, {d: clusters(pred[d]) for d in gold})["signature"]) != cli


def test_scorer_with_rule_heads_warns_once_at_the_first_update():
    scorer = corefreport.Scorer(preset="crac")
    with pytest.warns(UserWarning, match=r"clusters carry no heads.*a key \(0, 1\) and a response \(1, 1\) match"):
        scorer.update("a", [[(0, 1), (3, 3)]], [[(1, 1), (3, 3)]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not again
        scorer.update("b", [[(0, 1), (3, 3)]], [[(1, 1), (3, 3)]])
        scorer.reset()
        scorer.update("a", [[(0, 1), (3, 3)]], [[(1, 1), (3, 3)]])
    r = scorer.result()
    assert r["metrics"]["muc"]["f1"] == 1.0  # the heads matched: (0, 1) and (1, 1) are both headed by word 1
    assert any("heads come from the key's columns by corefreport's rule" in w for w in r["warnings"])


def test_exact_matching_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        corefreport.Scorer().update("a", [[(0, 1), (3, 3)]], [[(1, 1), (3, 3)]])
