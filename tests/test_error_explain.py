"""One sentence per Kummerfeld & Klein error (present/explain.py): the expected sentences are
written out by hand from the cases (the class each rule gives, the entities and words involved),
on small documents built like the paper's examples and on real GUM rows (xrenner ml), whose
entities were read off the files (GUM_academic_discrimination, sentence 18: key
'discrimination' (2) inside 'the perceived discrimination measure' (84); xrenner ml
'(82 perceived discrimination 82)', its entity 82 also holds the earlier 'perceived
discrimination' of key entity 61)."""

from __future__ import annotations

from bisect import bisect_right
from pathlib import Path

import pytest

from corefreport.present.explain import explain, quote
from corefreport.scoring.errorclasses import classify_spans

DATA = Path(__file__).parent.parent.parent / "shared" / "data"
GUM = DATA / "gum" / "derived" / "conll2012" / "gum.conll"


def sentences(starts):
    return lambda t: bisect_right(starts, t) - 1


COURT = "the court told the jury that it must decide . the court waited .".split()
COURT_KEY = [[(0, 1), (10, 11)], [(3, 4), (6, 6)]]
COURT_TYPES = {(0, 1): "NOMINAL", (10, 11): "NOMINAL", (3, 4): "NOMINAL", (6, 6): "PRONOUN"}


def court(keep: bool):
    rows = classify_spans(COURT_KEY, [[(0, 1), (6, 6), (10, 11)], [(3, 4)]], COURT_TYPES, tokens=COURT,
                          sentence_of=sentences([0, 10]), keep_singletons=keep,
                          key_labels=["12", "40"], response_labels=["7", "8"])
    return {r.cls: explain(r) for r in rows}


def test_conflated_and_divided_the_court_and_the_jury():
    """'it' (the jury) in the response entity of 'the court': the split of 'it' is Conflated
    Entities, its merge into the jury Divided Entity (no error for the pieces holding the earliest
    non-pronoun mentions)."""
    out = court(keep=False)
    assert out == {
        "Conflated Entities": "the response merges key entities E12 'the court' and E40 'the jury' at mention 'it' "
                              "in sentence 1 (response entity R7)",
        "Divided Entity": "the response divides key entity E40 'the jury': mention 'it' in sentence 1 (response "
                          "entity R7) stays apart from its mention 'the jury', which no response entity holds",
    }
    # keeping response singletons, 'the jury' is the response's entity R8
    assert court(keep=True)["Divided Entity"] == (
        "the response divides key entity E40 'the jury': mention 'it' in sentence 1 (response entity R7) stays "
        "apart from 'the jury' in response entity R8")


MARY = "Mary saw the big dog . She liked it . A cat came ; the cat left .".split()


def test_one_sentence_for_each_other_class():
    key = [[(0, 0), (6, 6)], [(2, 4), (8, 8)], [(10, 11), (14, 15)]]
    response = [[(0, 0), (16, 16)], [(3, 4), (8, 8)], [(1, 1), (7, 7)]]
    types = {(0, 0): "NAME", (6, 6): "PRONOUN", (8, 8): "PRONOUN"}
    rows = classify_spans(key, response, types, tokens=MARY, sentence_of=sentences([0, 6, 10]))
    assert {r.cls: explain(r) for r in rows} == {
        "Span Error": "the response marks 'big dog' where the key has 'the big dog' (key entity E2) "
                      "in sentence 1: they differ only by a leading 'the', a trailing 's or punctuation",
        "Extra Mention": "the response adds 'left' in sentence 3, which is not a key mention, to its entity R1 'Mary'",
        "Extra Entity": "the response entity R3 'saw' is no key entity: its mentions 'saw', 'liked' from sentence 1 "
                        "are not in the key, and it has no key non-pronoun mention",
        "Missing Mention": "the response misses key mention 'She' in sentence 2 of key entity E1 'Mary'",
        "Missing Entity": "the response misses key entity E3 'A cat' (2 mentions, from sentence 3)",
    }


def test_a_span_error_by_head_and_a_missing_entity_with_a_pronoun():
    tokens = "a very big cat slept . it purred . the cat".split()
    key = [[(2, 3), (6, 6), (9, 10)]]
    rows = classify_spans(key, [[(0, 3), (6, 6)]], {(6, 6): "PRONOUN"}, tokens=tokens,
                          sentence_of=sentences([0, 6, 9]), keep_singletons=True)
    span = next(r for r in rows if r.cls == "Span Error")
    assert explain(span) == ("the response marks 'a very big cat' where the key has 'big cat' (key "
                             "entity E1) in sentence 1: they are the only unmatched response and key mentions "
                             "there with the head word 'cat'")
    # the response's entity holds 'big cat' (after the span fix): not a Missing Entity
    assert [r.cls for r in rows] == ["Span Error", "Missing Mention"]
    only_pronoun = classify_spans(key, [[(6, 6), (4, 4)]], {(6, 6): "PRONOUN"}, tokens=tokens,
                                  sentence_of=sentences([0, 6, 9]))
    me = next(r for r in only_pronoun if r.cls == "Missing Entity")
    assert explain(me) == ("the response misses key entity E1 'big cat' (3 mentions, from sentence 1): of its "
                           "mentions it has only the pronoun 'it', in its entity R1")


def test_long_mentions_are_cut():
    assert quote("x" * 60) == "'" + "x" * 47 + "…'"


@pytest.mark.skipif(not GUM.exists(), reason="shared data not present")
def test_real_gum_rows():
    from corefreport.io import load_corpus
    from corefreport.scoring.evaluate import evaluate
    from corefreport.scoring.settings import Settings

    ev = evaluate(load_corpus(str(GUM)), load_corpus(str(DATA / "xrenner" / "conll2012" / "ml-gum.conll")),
                  Settings(analyses=("errors",)))
    doc = "GUM_academic_discrimination; part 000"
    got = {(r.cls, r.sentence): explain(r) for r in ev.errors.rows if r.doc_id == doc and r.sentence == 17}
    assert got[("Span Error", 17)] == (
        "the response marks 'perceived discrimination' where the key has 'discrimination' (key entity "
        "E2) in sentence 18: they are the only unmatched response and key mentions there with "
        "the head word 'discrimination'")
    assert got[("Conflated Entities", 17)] == (
        "the response merges key entities E61 'perceived discrimination' and E2 'discrimination' at mention "
        "'discrimination' in sentence 18 (response entity R82)")


@pytest.mark.skipif(not GUM.exists(), reason="shared data not present")
def test_score_json_has_the_explanation_of_each_row():
    import json

    from typer.testing import CliRunner

    from corefreport.cli import app

    res = CliRunner().invoke(app, ["score", str(GUM), str(DATA / "xrenner" / "conll2012" / "ml-gum.conll"),
                                   "-a", "errors", "-f", "json", "-q"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.output)["errors"]["rows"]
    assert all(r["explanation"].startswith("the response ") for r in rows)
    row = next(r for r in rows if r["class"] == "Conflated Entities" and r["sentence"] == 17
               and r["doc_id"].startswith("GUM_academic_discrimination"))
    assert row["explanation"].startswith("the response merges key entities E61 'perceived discrimination' and E2")
    assert row["key_entity"]["label"] == "2" and row["other_entity"]["label"] == "61"
    assert row["response_entity"]["label"] == "82"


def test_conflated_and_divided_by_the_types_joined():
    """'it' (a pronoun) wrongly joined to 'the court' (nominal): PRONOUN/NOMINAL; its Divided merge
    is apart from 'the jury', which the response drops as a singleton (mode T: '-') or keeps as
    its own entity (mode F: NOMINAL)."""
    from corefreport.present.errortables import joined_types_table
    from corefreport.scoring.errorclasses import ErrorsResult

    def joined(keep):
        rows = classify_spans(COURT_KEY, [[(0, 1), (6, 6), (10, 11)], [(3, 4)]], COURT_TYPES, tokens=COURT,
                              sentence_of=sentences([0, 10]), keep_singletons=keep)
        return {r.cls: r.get("joined") for r in rows}, joined_types_table(ErrorsResult(rows=rows)).rows

    assert joined(False) == ({"Conflated Entities": "PRONOUN/NOMINAL", "Divided Entity": "PRONOUN/-"},
                             [["PRONOUN/-", 0, 1], ["PRONOUN/NOMINAL", 1, 0]])
    assert joined(True)[0] == {"Conflated Entities": "PRONOUN/NOMINAL", "Divided Entity": "PRONOUN/NOMINAL"}
