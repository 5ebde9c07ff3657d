"""Mention features of key and response: a response document that repeats the key's words and
columns shares the key's derived features; one whose columns differ gets its own (issue 17's
speed work must not let the key's POS type a response mention)."""

from __future__ import annotations

from corefreport.model import Chain, Corpus, Document, Mention
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.features import mention_features
from corefreport.scoring.settings import Settings

TOKENS = ["Ada", "Lovelace", "wrote", "notes", ".", "She", "saw", "the", "engine", "."]


def _doc(pos: list[str], ne: list[str]) -> Document:
    chains = [Chain("1", [Mention(0, 1, "1"), Mention(5, 5, "1")]), Chain("2", [Mention(7, 8, "2"), Mention(3, 3, "2")])]
    return Document("d", list(TOKENS), [0, 5], {"pos": pos, "ne": ne, "lemma": [t.lower() for t in TOKENS]}, chains)


KEY_POS = ["NNP", "NNP", "VBD", "NNS", ".", "PRP", "VBD", "DT", "NN", "."]
NE = ["(PERSON*", "*)", "*", "*", "*", "*", "*", "*", "*", "*"]


def _features(corpus: Corpus) -> dict:
    return {(m.start, m.end): m.features for c in corpus.documents["d"].chains for m in c.mentions}


def _run(response: Document):
    key = Corpus({"d": _doc(KEY_POS, NE)}, "key")
    ev = evaluate(key, Corpus({"d": response}, "response"), Settings(analyses=("arcs",)))
    return _features(ev.key_corpus), _features(ev.response_corpus)


def test_response_with_the_keys_columns_gets_the_same_features_as_computed_alone() -> None:
    response = _doc(list(KEY_POS), list(NE))
    kf, rf = _run(response)
    alone = mention_features(response)
    assert list(rf.values()) == alone
    assert rf[(0, 1)]["mtype"] == "NAME" and rf[(0, 1)]["ne"] == "PERSON" and rf[(5, 5)]["mtype"] == "PRONOUN"
    assert kf == rf


def test_response_with_other_columns_is_typed_from_its_own_columns() -> None:
    # the response's tagger called "Ada Lovelace" common nouns and "She" a noun; no NE span
    pos = ["NN", "NN", "VBD", "NNS", ".", "NN", "VBD", "DT", "NN", "."]
    response = _doc(pos, ["*"] * len(TOKENS))
    kf, rf = _run(response)
    assert (kf[(0, 1)]["mtype"], kf[(0, 1)]["ne"], kf[(5, 5)]["mtype"]) == ("NAME", "PERSON", "PRONOUN")
    assert (rf[(0, 1)]["mtype"], rf[(0, 1)]["ne"], rf[(5, 5)]["mtype"]) == ("NOMINAL", "-", "NOMINAL")
    assert list(rf.values()) == mention_features(response)
