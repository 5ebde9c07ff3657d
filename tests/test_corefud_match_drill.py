"""The drill dimension of ``--match``: every mention (and so every outcome row) says how it was matched.

Small hand-made documents; what each mention must be follows from the rules of docs/matching.md
(rules 6–8): identical words → ``exact``; same head → ``head``; inside the key mention and holding
its head → ``partial``; else ``unmatched``.
"""

from __future__ import annotations

import json
from pathlib import Path

from corefreport.model import Chain, Corpus, Document, Mention
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.matching import match_documents
from corefreport.scoring.settings import DEFAULT_BY, Settings

TOKENS = ["the", "old", "man", "saw", "him", "and", "his", "dog", "barked", "."]


def _m(s: int, e: int, head: int | None = None) -> Mention:
    return Mention(s, e, "x", features={} if head is None else {"head": str(head)})


def _pair() -> tuple[Document, Document]:
    """Key: [the old man](head man) … [him]; [his dog](head dog). Response: [man] … [him]; [his dog]
    with head "his"."""
    key = Document("d", tokens=TOKENS, chains=[Chain("k1", [_m(0, 2, 2), _m(4, 4)]),
                                               Chain("k2", [_m(6, 7, 7), _m(9, 9)])])
    resp = Document("d", tokens=TOKENS, chains=[Chain("r1", [_m(2, 2), _m(4, 4)]),
                                                Chain("r2", [_m(6, 7, 6), _m(9, 9)])])
    return key, resp


def _kinds(doc: Document) -> dict[tuple[int, int], str]:
    return {m.span: m.features["match"] for m in doc.mentions}


def test_partial_matching_labels_key_and_response_mentions():
    key, resp = _pair()
    k, r = match_documents(key, resp, "partial")
    # [man] lies inside [the old man] and holds its head: partial; [his dog] has the key's words: exact
    assert _kinds(k) == {(0, 2): "partial", (4, 4): "exact", (6, 7): "exact", (9, 9): "exact"}
    assert _kinds(r) == {(0, 2): "partial", (4, 4): "exact", (6, 7): "exact", (9, 9): "exact"}
    moved = next(m for m in k.mentions if m.span == (0, 2))
    assert (moved.features["response_span"], moved.features["response_text"]) == ("2-2", "man")
    assert "response_span" not in next(m for m in k.mentions if m.span == (4, 4)).features


def test_head_matching_labels_and_leaves_other_heads_unmatched():
    key, resp = _pair()
    k, r = match_documents(key, resp, "head")
    # [man]'s head (its first word) is the key's head: head; [his dog] with head "his" ≠ "dog": unmatched
    assert _kinds(k) == {(0, 2): "head", (4, 4): "exact", (6, 7): "unmatched", (9, 9): "exact"}
    assert _kinds(r)[(6, 7)] == "unmatched"


def test_exact_matching_adds_no_column():
    key, resp = _pair()
    ev = evaluate(Corpus({"d": key}), Corpus({"d": resp}), Settings(metrics=("muc",), analyses=("arcs",)))
    assert all("match" not in row.features for row in ev.rows)
    assert Settings().breakdowns == DEFAULT_BY


def test_outcome_rows_group_by_match():
    """ARCS scenario 1 under --match partial: the referent [him] (exact) has its antecedent
    [the old man] matched partially: TP; [.] (exact) links to [his dog] (exact): TP."""
    key, resp = _pair()
    s = Settings(metrics=("muc",), analyses=("arcs",), match="partial")
    assert s.breakdowns == DEFAULT_BY + ("match",)
    ev = evaluate(Corpus({"d": key}), Corpus({"d": resp}), s)
    rows = [r for r in ev.rows if r.analysis == "immediate"]
    assert sorted((r.span, r.outcome, r.features["match"]) for r in rows) == [((4, 4), "TP", "exact"),
                                                                              ((9, 9), "TP", "exact")]
    assert "match" in ev.arcs.scenarios["immediate"].by


def test_a_row_of_a_partially_matched_mention_shows_the_response_span():
    key = Document("d", tokens=TOKENS, chains=[Chain("k1", [_m(4, 4), _m(6, 7, 7)])])
    resp = Document("d", tokens=TOKENS, chains=[Chain("r1", [_m(4, 4), _m(7, 7)])])
    ev = evaluate(Corpus({"d": key}), Corpus({"d": resp}),
                  Settings(metrics=("muc",), analyses=("arcs",), match="partial"))
    row = next(r for r in ev.rows if r.analysis == "immediate")
    assert (row.span, row.outcome, row.features["match"]) == ((6, 7), "TP", "partial")
    assert row.match_note == " (matched by partial: the response wrote “dog”, tokens 7-7)"


def test_cli_by_match(tmp_path: Path):
    from typer.testing import CliRunner

    from corefreport.cli import app

    data = Path(__file__).parent / "data" / "corefud"
    result = CliRunner().invoke(app, ["score", str(data / "crac.key.conllu"), str(data / "crac.response.conllu"),
                                      "--match", "partial", "--keep-singletons", "-a", "arcs", "--by", "match",
                                      "-f", "json"])
    assert result.exit_code == 0, result.output
    arcs = json.loads(result.stdout)["arcs"]
    for scenario in ("immediate", "inferred", "anchor"):
        groups = arcs[scenario]["by"]["match"]
        assert set(groups) <= {"exact", "head", "partial", "zero", "unmatched"}
        for n in ("tp", "wl", "fn", "fp"):
            assert sum(g[n] for g in groups.values()) == arcs[scenario]["total"][n]
