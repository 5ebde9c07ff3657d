"""Issue 12 "Trust": empty or mismatched input is an error (exit 2, one line naming what was
expected), never a silently empty score."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from conftest import one_error_line
from corefreport.cli import app

runner = CliRunner()

CONLL = ("#begin document (d); part 0\nd\t0\t0\tJohn\tNNP\t(1)\nd\t0\t1\tsaw\tVBD\t-\nd\t0\t2\thim\tPRP\t(1)\n"
         "#end document\n")


def score(*args: str):
    return runner.invoke(app, ["score", *args, "-m", "muc", "-f", "json"])


def test_conll_key_whose_coreference_column_is_not_last(tmp_path):
    key = tmp_path / "k.conll"
    key.write_text(CONLL.replace("(1)\n", "(1)\t-\n").replace("\t-\n", "\t-\t-\n"), encoding="utf-8")
    resp = tmp_path / "r.conll"
    resp.write_text(CONLL, encoding="utf-8")
    msg = one_error_line(score(str(key), str(resp)))
    assert "no mentions" in msg and "LAST" in msg and str(key) in msg


def test_jsonlines_key_with_null_clusters(tmp_path):
    key = tmp_path / "k.jsonlines"
    key.write_text(json.dumps({"doc_key": "d", "sentences": [["John", "saw", "him"]], "clusters": None}) + "\n")
    resp = tmp_path / "r.jsonlines"
    resp.write_text(json.dumps({"doc_key": "d", "sentences": [["John", "saw", "him"]], "clusters": [[[0, 0], [2, 2]]]}))
    msg = one_error_line(score(str(key), str(resp)))
    assert "'clusters': null" in msg and "gold 'clusters'" in msg


def test_jsonlines_key_with_only_predicted_clusters(tmp_path):
    """Before: the key's predicted_clusters were read as gold (with a warning), scoring 100 %."""
    doc = {"doc_key": "d", "sentences": [["John", "saw", "him"]], "predicted_clusters": [[[0, 0], [2, 2]]]}
    key = tmp_path / "k.jsonlines"
    key.write_text(json.dumps(doc) + "\n")
    msg = one_error_line(score(str(key), str(key)))
    assert "no 'clusters'" in msg and "predicted_clusters" in msg and "RESPONSE" in msg
    # as a response, predicted_clusters are still read: MUC 1/1
    gold = tmp_path / "g.jsonlines"
    gold.write_text(json.dumps({**doc, "clusters": doc["predicted_clusters"]}) + "\n")
    res = runner.invoke(app, ["score", str(gold), str(key), "-m", "muc", "-f", "json", "-q"])
    assert res.exit_code == 0 and json.loads(res.stdout)["metrics"]["muc"]["recall_num"] == 1


def test_header_only_webanno_key(tmp_path):
    key = tmp_path / "k.tsv"
    key.write_text("#FORMAT=WebAnno TSV 3.2\n#T_SP=webanno.custom.Referent|entity\n"
                   "#T_RL=webanno.custom.Coref|type|BT_webanno.custom.Referent\n\n\n", encoding="utf-8")
    resp = tmp_path / "r.conll"
    resp.write_text(CONLL, encoding="utf-8")
    msg = one_error_line(runner.invoke(app, ["score", str(key), str(resp), "--key-format", "webanno", "-m", "muc"]))
    assert "holds no document" in msg or "no mentions" in msg


def test_key_and_response_sharing_no_document_id(tmp_path):
    """Before: every key document scored against an empty response (0 %), with a warning only."""
    key = tmp_path / "k.conll"
    key.write_text(CONLL, encoding="utf-8")
    resp = tmp_path / "r.conll"
    resp.write_text(CONLL.replace("(d)", "(other)").replace("\nd\t", "\nother\t"), encoding="utf-8")
    msg = one_error_line(score(str(key), str(resp)))
    assert "share no document id" in msg and "'d; part 0'" in msg and "'other; part 0'" in msg


def test_same_document_id_in_two_files_of_a_directory(tmp_path):
    """Before: the second was renamed 'd; part 0#2' with a warning and scored as a missing document."""
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "a.conll").write_text(CONLL, encoding="utf-8")
    (gold / "b.conll").write_text(CONLL, encoding="utf-8")
    resp = tmp_path / "r.conll"
    resp.write_text(CONLL, encoding="utf-8")
    msg = one_error_line(score(str(gold), str(resp)))
    assert "a.conll" in msg and "b.conll" in msg and "'d; part 0'" in msg
    msg = one_error_line(score(str(resp), str(tmp_path / "gold" / "*.conll")))
    assert "a.conll" in msg and "b.conll" in msg


# ------------------------------------------------------------------------------------------------
# Item 5: requests the input cannot answer are errors listing what exists


def test_by_unknown_feature_lists_the_features():
    msg = one_error_line(runner.invoke(app, ["score", "--example", "-a", "arcs", "--by", "nonsense", "-q"]))
    assert "--by 'nonsense'" in msg and "mtype" in msg and "pos_class" in msg and "col12" in msg


def test_attempted_class_the_scheme_does_not_know():
    msg = one_error_line(runner.invoke(app, ["score", "--example", "-a", "typed", "--attempted", "NAME,ZZZ", "-q"]))
    assert "--attempted 'ZZZ'" in msg and "NAME" in msg and "NOMINAL" in msg and "PRONOUN" in msg


def test_scheme_whose_types_never_occur():
    """--scheme lcc on CoNLL-2012 (no 'type' feature): every link's class was '-', scores 0/0."""
    msg = one_error_line(runner.invoke(app, ["score", "--example", "-a", "typed", "--scheme", "lcc", "-q"]))
    assert "'lcc'" in msg and "p, g, d, a, e" in msg and "classes here: -" in msg


def test_response_without_any_mention_is_scored_zero_with_a_warning(tmp_path):
    """Before: a response whose coreference column was all '-' printed 0.00 everywhere, silently."""
    key = tmp_path / "k.conll"
    key.write_text(CONLL, encoding="utf-8")
    resp = tmp_path / "r.conll"
    resp.write_text(CONLL.replace("(1)", "-"), encoding="utf-8")
    res = runner.invoke(app, ["score", str(key), str(resp), "-m", "muc", "-f", "json"])
    assert res.exit_code == 0
    data = json.loads(res.stdout)
    assert data["metrics"]["muc"]["recall_num"] == 0 and data["metrics"]["muc"]["recall_den"] == 1
    assert any("the response has no mentions in any of its 1 document(s)" in w for w in data["warnings"])
    assert "the response has no mentions" in res.stderr


def test_by_without_a_link_level_analysis_is_an_error():
    """Before: 'score --by mtype' without -a printed the corpus table and ignored --by (exit 0)."""
    msg = one_error_line(runner.invoke(app, ["score", "--example", "--by", "mtype", "-q"]))
    assert "--by 'mtype'" in msg and "-a arcs" in msg and "-m plink" in msg
    res = runner.invoke(app, ["score", "--example", "--by", "mtype", "-a", "arcs", "-q", "-f", "json"])
    assert res.exit_code == 0 and set(json.loads(res.stdout)["arcs"]["immediate"]["by"]) == {"mtype"}
