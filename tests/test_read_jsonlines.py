"""The JSON-lines reader (e2e-coref family): synthetic cases for every rule and error, and the real
samples of ../shared/data/jsonlines (skipped when ../shared is absent)."""

from __future__ import annotations

import json

import pytest

from corefreport.io.conll2012 import document_id, read_conll2012
from corefreport.errors import InputError
from corefreport.io.jsonlines import read_jsonlines
from conftest import chain_spans, shared_path

def line(**obj) -> str:
    return json.dumps(obj)


DOC = {"doc_key": "d", "sentences": [["John", "saw", "him"], ["He", "left"]],
       "clusters": [[[0, 0], [3, 3]], [], [[2, 2]]]}


# --- synthetic --------------------------------------------------------------------------------

def test_offsets_are_over_the_flattened_document_and_labels_are_cluster_indices():
    corpus = read_jsonlines("f.jsonlines", line(**DOC) + "\n")
    doc = corpus.documents["d"]
    assert doc.tokens == ["John", "saw", "him", "He", "left"]
    assert doc.sentence_starts == [0, 3]
    assert [c.label for c in doc.chains] == ["0", "2"]  # the empty cluster 1 is dropped, labels keep the index
    assert [m.span for m in doc.chains[0].mentions] == [(0, 0), (3, 3)]
    assert doc.chains[0].mentions[0].line == 1 and doc.line == 1
    assert corpus.warnings == []


def test_conll_style_doc_key_becomes_the_conll2012_document_id():
    text = line(doc_key="(bc/cnn/00/cnn_0001); part 000", sentences=[["a"]], clusters=[]) + "\n" + \
        line(doc_key="nw/xinhua/00/chtb_0009_0", sentences=[["b"]]) + "\n"
    corpus = read_jsonlines("f.jsonlines", text)
    assert list(corpus.documents) == ["bc/cnn/00/cnn_0001; part 000", "nw/xinhua/00/chtb_0009_0"]
    assert document_id("(bc/cnn/00/cnn_0001); part 000", "x") in corpus.documents


def test_speakers_and_pos_become_columns():
    text = line(**DOC, speakers=[["A", "A", "A"], ["B", "B"]], pos=[["NNP", "VBD", "PRP"], ["PRP", "VBD"]])
    doc = read_jsonlines("f.jsonlines", text).documents["d"]
    assert doc.columns["speaker"] == ["A", "A", "A", "B", "B"]
    assert doc.columns["pos"][2] == "PRP"


def test_speakers_of_the_wrong_shape_are_ignored_with_a_warning():
    corpus = read_jsonlines("f.jsonlines", line(**DOC, speakers=[["A"]]))
    assert "speaker" not in corpus.documents["d"].columns
    assert corpus.warnings and corpus.warnings[0].startswith("f.jsonlines:1:")


def test_predicted_clusters_are_read_when_clusters_are_empty_with_a_warning():
    obj = dict(DOC, clusters=[], predicted_clusters=[[[1, 2]]])
    corpus = read_jsonlines("f.jsonlines", "\n" + line(**obj) + "\n")
    assert chain_spans(corpus.documents["d"]) == [[(1, 2)]]
    assert len(corpus.warnings) == 1 and "predicted_clusters" in corpus.warnings[0]
    assert corpus.warnings[0].startswith("f.jsonlines:2:")


def test_an_explicit_field_is_read_and_clusters_are_then_ignored():
    obj = dict(DOC, predicted_clusters=[[[1, 2]]])
    doc = read_jsonlines("f.jsonlines", line(**obj), field="predicted_clusters").documents["d"]
    assert chain_spans(doc) == [[(1, 2)]]
    corpus = read_jsonlines("f.jsonlines", line(**DOC), field="predicted_clusters")
    assert len(corpus.documents["d"].chains) == 0 and "has no 'predicted_clusters'" in corpus.warnings[0]


def test_document_without_clusters_has_no_chains_and_non_string_tokens_are_text():
    doc = read_jsonlines("f.jsonlines", line(doc_key="d", sentences=[[1, 2.5, None], []])).documents["d"]
    assert doc.tokens == ["1", "2.5", "None"] and doc.sentence_starts == [0] and doc.chains == []


def test_crlf_and_blank_lines():
    corpus = read_jsonlines("f.jsonlines", "\r\n" + line(**DOC) + "\r\n\r\n" + line(**dict(DOC, doc_key="e")))
    assert list(corpus.documents) == ["d", "e"]
    assert corpus.documents["e"].line == 4


@pytest.mark.parametrize("text, problem", [
    ("{not json", "not valid JSON: Expecting property name"),
    ('{"doc_key": "x", "sentences": [[]]} trailing', "not valid JSON: Extra data"),
    ("[1, 2]", "expected a JSON object per line, found an array"),
    ('"text"', "found a string"),
    ('{"sentences": [["a"]]}', "no 'doc_key'"),
    ('{"doc_key": "x"}', "no 'sentences'"),
    ('{"doc_key": "x", "sentences": ["a", "b"]}', "must be a list of token lists"),
    ('{"doc_key": "x", "sentences": [["a"]], "clusters": {"0": []}}', "must be a list of clusters"),
    ('{"doc_key": "x", "sentences": [["a"]], "clusters": [[0, 0]]}', "cluster 0 of doc_key 'x': mention 0 is not"),
    ('{"doc_key": "x", "sentences": [["a"]], "clusters": [3]}', "cluster 0 of doc_key 'x' is not a list"),
    ('{"doc_key": "x", "sentences": [["a"]], "clusters": [[["0", 0]]]}', 'mention ["0", 0] is not [start, end]'),
    ('{"doc_key": "x", "sentences": [["a"]], "clusters": [[[0, 0, 0]]]}', "is not [start, end] (two integers)"),
    ('{"doc_key": "x", "sentences": [["a"]], "clusters": [[[true, 0]]]}', "is not [start, end]"),
    ('{"doc_key": "x", "sentences": [["a"]], "clusters": [[[0.0, 0]]]}', "is not [start, end]"),
    ('{"doc_key": "x", "sentences": [["a", "b"]], "clusters": [[[1, 0]]]}', "bad span [1, 0] (start > end)"),
    ('{"doc_key": "x", "sentences": [["a", "b"]], "clusters": [[[-1, 0]]]}', "negative offset -1"),
    ('{"doc_key": "x", "sentences": [["a", "b"]], "clusters": [[], [[0, 0], [1, 5]]]}',
     "cluster 1 of doc_key 'x': span [1, 5] ends beyond the document (2 tokens): offset 5 > last token 1"),
    ('{"doc_key": "ok", "sentences": [["a"]]}', "doc_key 'ok' repeats (first on line 1)"),
    ('{"doc_key": "(ok)", "sentences": [["a"]]}', "names document 'ok' again"),
])
def test_errors_name_file_line_and_problem(text, problem):
    """Line 1 is a good document; the bad one is on line 2."""
    with pytest.raises(InputError) as err:
        read_jsonlines("f.jsonlines", '{"doc_key": "ok", "sentences": [["a"]], "clusters": []}\n' + text + "\n")
    assert err.value.path == "f.jsonlines" and err.value.line == 2
    assert str(err.value).startswith("f.jsonlines:2: ") and problem in err.value.problem


def test_huge_integer_is_an_input_error():
    with pytest.raises(InputError) as err:
        read_jsonlines("f.jsonlines", '{"doc_key": "x", "sentences": [["a"]], "clusters": [[[' + "9" * 5000 + ", 0]]]}")
    assert err.value.line == 1


# --- real data ----------------------------------------------------------------------------------

def test_singe_sample_counts_from_its_readme():
    """singe.jsonlines: 1 document, 68 sentences, 1,988 tokens, 388 clusters (321 singletons), 562
    mentions (shared/data/jsonlines/README.md; recounted with json.loads below)."""
    path = shared_path("data", "jsonlines", "singe.jsonlines")
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert sum(map(len, raw["sentences"])) == 1988 and len(raw["clusters"]) == 388
    corpus = read_jsonlines(str(path))
    assert list(corpus.documents) == ["ge/articleswiki_singe.xml; part 000"]
    doc = corpus.documents["ge/articleswiki_singe.xml; part 000"]
    assert (len(doc.sentence_starts), len(doc.tokens), len(doc.chains)) == (68, 1988, 388)
    assert sum(len(c) for c in doc.chains) == 562 and sum(len(c) == 1 for c in doc.chains) == 321
    assert doc.tokens[:3] == ["Singe", "Les", "singes"] and doc.chains[0].mentions[1].span == (1, 2)
    assert doc.columns["speaker"] == ["_"] * 1988
    assert corpus.warnings == []


def test_singe_jsonlines_and_its_conll_twin_agree():
    """The CoNLL-U-plus twin (read by the CoNLL-2012 reader) has the same document id, the same 1,988
    tokens (multi-word tokens and their parts both count) and the same chains."""
    j = next(iter(read_jsonlines(str(shared_path("data", "jsonlines", "singe.jsonlines")))))
    c = next(iter(read_conll2012(str(shared_path("data", "jsonlines", "singe.conll")))))
    assert c.doc_id == j.doc_id
    assert c.tokens == j.tokens
    assert chain_spans(c) == chain_spans(j)


def test_docs_sample_system_output_and_gold():
    """docs.jsonlines: ge:stendhal.txt has only predicted_clusters (179 clusters, 310 mentions,
    1,150 tokens in 40 sentences, with POS); the second line is the Singe document again."""
    path = shared_path("data", "jsonlines", "docs.jsonlines")
    corpus = read_jsonlines(str(path))
    assert list(corpus.documents) == ["ge:stendhal.txt", "ge/articleswiki_singe.xml; part 000"]
    stendhal = corpus.documents["ge:stendhal.txt"]
    assert (len(stendhal.tokens), len(stendhal.sentence_starts), len(stendhal.chains)) == (1150, 40, 179)
    assert sum(len(c) for c in stendhal.chains) == 310
    assert len(stendhal.columns["pos"]) == 1150
    assert corpus.warnings == [(f"{path}:1: document 'ge:stendhal.txt' has no 'clusters'; read its "
                                "'predicted_clusters'")]
    singe = next(iter(read_jsonlines(str(shared_path("data", "jsonlines", "singe.jsonlines")))))
    again = corpus.documents[singe.doc_id]
    assert again.tokens == singe.tokens and chain_spans(again) == chain_spans(singe)


def test_a_response_with_gold_clusters_beside_its_predictions_is_read_by_its_predictions(tmp_path):
    """e2e-coref's prediction file is its input documents with ``predicted_clusters`` added and the
    gold ``clusters`` kept: as a RESPONSE it is read by ``predicted_clusters`` (it was read by the
    gold ``clusters``: MUC 100 for any system), ``[]`` included (a system that found nothing); as
    a KEY by ``clusters``; the same file as both scores the predictions against the gold. MUC
    counted by hand: each document's key chain {John, him} is one link (2); the predictions are d's
    {John, He} (one link, not a key link) and e's none: R = 0/2, P = 0/1."""
    from corefreport.api import score

    gold = dict(DOC, clusters=[[[0, 0], [2, 2]]])
    predicted = dict(gold, predicted_clusters=[[[0, 0], [3, 3]]])
    nothing = dict(gold, doc_key="e", predicted_clusters=[])
    f = tmp_path / "pred.jsonlines"
    f.write_text(line(**predicted) + "\n" + line(**nothing) + "\n", encoding="utf-8")
    response = read_jsonlines(str(f))
    assert chain_spans(response.documents["d"]) == [[(0, 0), (3, 3)]] and response.documents["e"].chains == []
    assert len(response.warnings) == 1 and response.warnings[0].startswith(f"{f}:1: document 'd' gives both "
                                                                          "'clusters' and 'predicted_clusters'")
    key = read_jsonlines(str(f), key=True)
    assert chain_spans(key.documents["d"]) == chain_spans(key.documents["e"]) == [[(0, 0), (2, 2)]]
    assert key.warnings == []
    muc = score(str(f), str(f), metrics=["muc"])["metrics"]["muc"]
    assert (muc["recall_num"], muc["recall_den"], muc["precision_num"], muc["precision_den"]) == (0, 2, 0, 1)
