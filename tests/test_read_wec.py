"""WEC-Eng (Eirew et al. 2021): a JSON array of mentions, each with its own paragraph, read as one
document (the split's clusters are global and there are no topics). On a hand-made file in its
format (tests/data/wec/build.py), corefreport's scores equal the reference scorer v8.01's on the same
clusters written as one CoNLL-2012 document (tests/data/wec/scorer_output.txt, with the command and
the scorer's commit) — with the system's clusters as ``predicted_coref_chain`` in a file whose
mentions come in another order."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import one_error_line
from corefreport.cli import app
from corefreport.io import load_corpus
from corefreport.io.wec import DOCUMENT
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

DATA = Path(__file__).parent / "data" / "wec"
runner = CliRunner()


def reference() -> dict[str, tuple[float, float, float, float]]:
    """scorer.pl's numerators and denominators per metric, as recorded."""
    out, metric = {}, None
    for line in (DATA / "scorer_output.txt").read_text().splitlines():
        if line.startswith("$ perl scorer.pl"):
            metric = line.split()[3]
        elif line.startswith("Coreference:"):
            nums = [float(x) for x in re.findall(r"\(([\d.]+) / ([\d.]+)\)", line) for x in x]
            out[metric] = tuple(nums)
    return out


def test_scores_equal_the_reference_scorer_on_the_same_clusters_as_one_document():
    key, resp = load_corpus(str(DATA / "gold.json"), key=True), load_corpus(str(DATA / "predicted.json"))
    assert list(key.documents) == list(resp.documents) == [DOCUMENT]
    ev = evaluate(key, resp, Settings(metrics=("muc", "bcub", "ceafe")))
    ref = reference()
    assert set(ref) == {"muc", "bcub", "ceafe"}
    for m, (rn, rd, pn, pd) in ref.items():
        c = ev.metrics[m]
        assert (c.recall_den, c.precision_den) == (rd, pd), m
        assert c.recall_num == pytest.approx(rn, abs=1e-12) and c.precision_num == pytest.approx(pn, abs=1e-12), m
    # the CoNLL-2012 file corefreport reads from the same paragraphs scores the same
    conll = evaluate(load_corpus(str(DATA / "gold.conll"), key=True), load_corpus(str(DATA / "predicted.conll")),
                     Settings(metrics=("muc", "bcub", "ceafe")))
    assert conll.metrics == ev.metrics


def test_one_document_of_the_paragraphs_with_each_word_s_article():
    doc = load_corpus(str(DATA / "gold.json"), key=True).documents[DOCUMENT]
    gold = json.loads((DATA / "gold.json").read_text())
    assert len(doc.sentence_starts) == 4  # P2 holds two mentions: read once
    assert len(doc.tokens) == sum(len(c) for c in {tuple(m["mention_context"]) for m in gold})
    assert sorted(set(doc.columns["document"])) == ["Family Values Tour", "House of Pain", "Korn", "Woodstock"]
    texts = sorted(" ".join(doc.tokens[x.start:x.end + 1]) for c in doc.chains for x in c.mentions)
    assert texts == sorted(m["tokens_str"] for m in gold)
    # a key is read by coref_chain, a response with predicted_coref_chain by it
    assert sorted(len(c.mentions) for c in doc.chains) == [3, 4]
    resp = load_corpus(str(DATA / "predicted.json")).documents[DOCUMENT]
    assert sorted(len(c.mentions) for c in resp.chains) == [1, 3, 3]
    as_key = load_corpus(str(DATA / "predicted.json"), key=True).documents[DOCUMENT]
    assert sorted(len(c.mentions) for c in as_key.chains) == [3, 4] and as_key.tokens == doc.tokens


def test_gold_against_itself_and_the_command_line():
    res = runner.invoke(app, ["score", str(DATA / "gold.json"), str(DATA / "gold.json"), "-m", "muc,bcub,ceafe",
                              "-f", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["metrics"]["conll"]["f1"] == 1.0


def test_bad_mentions_name_their_line(tmp_path):
    gold = json.loads((DATA / "gold.json").read_text())
    bad = [dict(gold[0])] + [dict(gold[1], tokens_number=[1, 3])]
    (tmp_path / "bad.json").write_text(json.dumps(bad, indent=1))
    line = one_error_line(runner.invoke(app, ["score", str(tmp_path / "bad.json"), str(DATA / "gold.json")]))
    n = (tmp_path / "bad.json").read_text().splitlines().index(" {", 2) + 1  # the second object's first line
    assert f"bad.json:{n}:" in line and "consecutive" in line
    half = [dict(m, predicted_coref_chain=1 if i else None) for i, m in enumerate(gold)]
    (tmp_path / "half.json").write_text(json.dumps(half))
    line = one_error_line(runner.invoke(app, ["score", str(DATA / "gold.json"), str(tmp_path / "half.json")]))
    assert "predicted_coref_chain" in line and "half.json:1:" in line
