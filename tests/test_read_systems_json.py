"""Current systems' JSON (io/jsonlines.py): text2text-coref's JSON array and Maverick's
``tokens``/``clusters_token_offsets`` objects, with ``doc_id``; empty nodes (``##``) renumbered.

tests/data/text2text/system.json is a system-like response in text2text-coref's JSON (made by
make_fixtures.sh from its ``conllu2json``); system.conllu is text2text-coref's own ``json2conllu``
of it (commit 56d67ec), system.expected.json corefreport's score of that CoNLL-U.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import one_error_line
from corefreport.cli import app
from corefreport.io import load_corpus
from corefreport.io.detect import detect_format
from corefreport.scoring.evaluate import evaluate
from corefreport.io.pairs import DocumentPairs
from corefreport.scoring.settings import Settings

DATA = Path(__file__).parent / "data" / "text2text"


def test_text2text_json_scores_as_its_json2conllu_output():
    expected = json.loads((DATA / "system.expected.json").read_text())
    ev = evaluate(DocumentPairs(str(DATA / "key.conllu"), str(DATA / "system.json")), settings=Settings(), rows=False)
    assert ev.as_dict()["metrics"] == expected["metrics"]
    assert ev.conll == pytest.approx(0.8440638788835712, abs=1e-12)
    assert detect_format("system.json", (DATA / "system.json").read_text()) == "jsonlines"


def _score(tmp_path, key: str, response: str, *options: str) -> dict:
    k, r = tmp_path / "key.jsonl", tmp_path / "response.json"
    k.write_text(key)
    r.write_text(response)
    res = CliRunner().invoke(app, ["score", str(k), str(r), "-f", "json", *options])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout if hasattr(res, "stdout") else res.output)


KEY = json.dumps({"doc_key": "d1", "sentences": [["Barack", "Obama", "is", "in", "Rome", "."],
                                                  ["The", "city", "is", "sunny", "."]],
                  "clusters": [[[4, 4], [6, 7]], [[0, 1]]]}) + "\n"


def test_maverick_predict_output_as_json_lines(tmp_path):
    # Maverick's predict(): 'tokens' flat, 'clusters_token_offsets' inclusive (its README: (0, 1) is
    # 'Barack Obama'); saved with a 'doc_id'
    resp = json.dumps({"doc_id": "d1", "tokens": ["Barack", "Obama", "is", "in", "Rome", ".", "The", "city", "is",
                                                   "sunny", "."],
                       "clusters_token_offsets": [[[4, 4], [6, 7]], [[0, 1], [9, 9]]],
                       "clusters_text_mentions": [["Rome", "The city"], ["Barack Obama", "sunny"]]})
    data = _score(tmp_path, KEY, resp + "\n", "-m", "muc")
    # MUC: key links 1 (Rome–the city) + 0; response links 1 + 1 (Barack Obama–sunny, wrong)
    m = data["metrics"]["muc"]
    assert (m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"]) == (1, 1, 1, 2)


def test_a_json_array_of_such_objects(tmp_path):
    resp = json.dumps([{"doc_id": "d1", "tokens": ["Barack", "Obama", "is", "in", "Rome", ".", "The", "city",
                                                            "is", "sunny", "."],
                        "clusters_token_offsets": [[[4, 4], [6, 7]], [[0, 1]]]}], indent=2)
    data = _score(tmp_path, KEY, resp, "-m", "muc,b3,ceafe")
    assert data["metrics"]["conll"]["f1"] == 1.0


def test_empty_nodes_are_not_words(tmp_path):
    resp = json.dumps([{"doc_id": "d1", "tokens": ["Barack", "Obama", "is", "##", "in", "Rome", ".", "The", "city",
                                                   "is", "sunny", "."],
                        "clusters_token_offsets": [[[5, 5], [7, 8], [3, 3]], [[0, 1]]]}])
    data = _score(tmp_path, KEY, resp, "-m", "muc,b3,ceafe")
    assert data["metrics"]["conll"]["f1"] == 1.0
    assert any("1 mention(s) of empty nodes alone" in w for w in data["warnings"])


@pytest.mark.parametrize("text, line, problem", [
    ('[{"tokens": ["a"], "clusters_token_offsets": []}]', 1, "has no 'doc_key' (or 'doc_id')"),
    ('[\n{"doc_id": "d1", "tokens": ["a"]},\n{"doc_id": "d2"}\n]', 3, "has no 'sentences' (or 'tokens')"),
    ('[\n{"doc_id": "d1", "tokens": ["a"], "clusters_token_offsets": []}\n', 3, "not closed by ']'"),
    ('[\n{"doc_id": "d1", "tokens": ["a"], "clusters_token_offsets": []},\n 7]', 3, "found a number"),
    ('[\n{"doc_id": "d1", "tokens": ["a"], "clusters_token_offsets": [[[0, 1]]]}]', 2, "ends beyond the document"),
])
def test_errors_name_file_line_and_problem(tmp_path, text, line, problem):
    k, r = tmp_path / "key.jsonl", tmp_path / "response.json"
    k.write_text(json.dumps({"doc_key": "d1", "sentences": [["a"]], "clusters": []}) + "\n")
    r.write_text(text)
    msg = one_error_line(CliRunner().invoke(app, ["score", str(k), str(r)]))
    assert f"{r}:{line}:" in msg and problem in msg


def test_text2text_json_key_reads_clusters_token_offsets(tmp_path):
    k = tmp_path / "key.json"
    k.write_text(json.dumps([{"doc_id": "d1", "tokens": ["a", "b"], "clusters_token_offsets": [[[0, 0], [1, 1]]]}]))
    doc = load_corpus(str(k), key=True).documents["d1"]
    assert [[m.span for m in c.mentions] for c in doc.chains] == [[(0, 0), (1, 1)]]
