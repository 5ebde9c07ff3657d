"""The error classes explain the system that was scored (issue 26): the same mentions as the scores
(singletons kept or dropped on both sides), costs that add up from the scored CoNLL F1 to 100, the
analyser's mode T only when asked for (and in the signature), the same counts whichever other
analysis runs with them, and CorefUD's discontinuous mentions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.io import load_corpus
from corefreport.model import Chain, Corpus, Document, Mention
from corefreport.present.errortables import mention_set
from corefreport.report.errors import errors_section
from corefreport.report.model import methods_text
from corefreport.scoring.errorclasses import CLASSES, DROPPED, LEFTOVER, REPEATED
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

DATA = Path(__file__).parent.parent.parent / "shared" / "data"
GUM = DATA / "gum" / "derived" / "conll2012" / "gum.conll"
ML = DATA / "xrenner" / "conll2012" / "ml-gum.conll"
NONCONTIG = DATA / "corefud" / "scorer-tests" / "partial-corefud-match" / "noncontig_mentions"
shared = pytest.mark.skipif(not GUM.exists(), reason="shared data not present")


def score_json(*args: str) -> dict:
    res = CliRunner().invoke(app, ["score", *map(str, args), "-f", "json", "-q"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def total_conll(errors: dict) -> float:
    return sum(c["cumulative"]["conll"] for c in errors["costs"])


@shared
def test_costs_add_up_from_the_scored_conll_on_gum():
    """GUM annotates singletons: by default the classes keep them on both sides, as the scores do,
    so the costs start from the scored CoNLL 65.34 (not 44.66) and reach 100 exactly; the leftover
    is 7.35 (21.60 in the analyser's mode)."""
    d = score_json(GUM, ML, "-a", "errors")
    e = d["errors"]
    assert round(100 * d["metrics"]["conll"]["f1"], 2) == 65.34
    assert 1 - total_conll(e) == pytest.approx(d["metrics"]["conll"]["f1"], abs=1e-12)
    assert e["scored_f1"]["conll"] == pytest.approx(d["metrics"]["conll"]["f1"], abs=1e-12)
    costs = {c["class"]: c["cumulative"]["conll"] for c in e["costs"]}
    assert list(costs) == [REPEATED, *CLASSES, LEFTOVER]  # eegimaa's span written twice in chain 156
    assert e["repeated_mentions"] == 1 and e["dropped_singletons"] == 0
    assert round(100 * costs[LEFTOVER], 2) == 7.35 and round(100 * costs["Missing Entity"], 2) == 0.65
    assert e["counts"]["Missing Entity"] == 29 and e["counts"]["Divided Entity"] == 709
    assert e["drop_response_singletons"] is False and "errors:" not in d["signature"]


@shared
def test_the_analysers_mode_is_opt_in_and_still_adds_up():
    """--errors-drop-response-singletons: the analyser's counts (Missing Entity 222, Conflated 444),
    its own row for what dropping 2,537 response singletons changes (−20.69 CoNLL: the old start
    44.66), the signature says so, and the costs still add up from the scored CoNLL."""
    d = score_json(GUM, ML, "-a", "errors", "--errors-drop-response-singletons")
    e = d["errors"]
    assert "errors:drop-response-singletons" in d["signature"]
    assert e["counts"]["Missing Entity"] == 222 and e["counts"]["Conflated Entities"] == 444
    costs = {c["class"]: c["cumulative"]["conll"] for c in e["costs"]}
    assert list(costs)[:2] == [REPEATED, DROPPED] and e["dropped_singletons"] == 2537
    assert round(100 * (d["metrics"]["conll"]["f1"] + costs[REPEATED] + costs[DROPPED]), 2) == 44.66
    assert round(100 * costs[LEFTOVER], 2) == 21.60
    assert 1 - total_conll(e) == pytest.approx(d["metrics"]["conll"]["f1"], abs=1e-12)


@shared
def test_singletons_dropped_by_the_scores_are_dropped_on_both_sides():
    d = score_json(GUM, ML, "-a", "errors", "--drop-singletons")
    e = d["errors"]
    assert e["singletons"] == "drop" and DROPPED not in [c["class"] for c in e["costs"]]
    assert 1 - total_conll(e) == pytest.approx(d["metrics"]["conll"]["f1"], abs=1e-12)


@shared
def test_methods_and_section_say_the_same():
    ev = evaluate(load_corpus(str(GUM)), load_corpus(str(ML)), Settings(analyses=("errors",)))
    phrase = mention_set(ev.errors)
    assert phrase == "the scores' mentions (singletons kept on both sides)"
    assert any(phrase in p for p in methods_text(ev))
    section = errors_section(ev)
    assert phrase in section.blocks[0].text and "from the scored CoNLL F1 65.34 to 100" in section.blocks[0].text
    assert "singletons were kept" in methods_text(ev)[1]


@pytest.mark.skipif(not (DATA / "gum" / "coref" / "gum" / "tsv").exists(), reason="shared data not present")
def test_webanno_without_pos_counts_do_not_depend_on_other_analyses():
    """WebAnno has no POS column: the mention types are derived the same way with -a errors alone as
    with -a arcs (before: every mention NOMINAL alone; 441/333/210 vs 444/341/223), and both
    signatures say pos:missing."""
    args = [DATA / "gum" / "coref" / "gum" / "tsv", DATA / "xrenner" / "ml" / "gum",
            "--key-format", "webanno", "--response-format", "webanno", "-a", "errors"]
    alone, arcs = score_json(*args), score_json(*args, "-a", "arcs")
    assert alone["errors"]["counts"] == arcs["errors"]["counts"]
    assert alone["errors"]["by_mtype"] == arcs["errors"]["by_mtype"]
    assert alone["errors"]["counts"]["Conflated Entities"] == 426
    assert "Conflated Entities|PRONOUN" in alone["errors"]["by_mtype"]
    assert "pos:missing" in alone["signature"] and "pos:missing" in arcs["signature"]


def test_mentions_without_pos_with_reader_features_are_typed_as_with_another_analysis():
    """A reader feature (here an entity type) but no mtype and no POS: the types are derived, so the
    counts equal those with -a arcs (a pronoun's rules differ from a nominal's)."""
    words = "John said he saw Mary and she smiled at him".split()

    def doc(chains):
        return Document("d", tokens=words, sentence_starts=[0],
                        chains=[Chain(str(i), [Mention(s, e, features={"etype": "person"}) for s, e in c])
                                for i, c in enumerate(chains)])

    key = Corpus({"d": doc([[(0, 0), (2, 2), (9, 9)], [(4, 4), (6, 6)]])})
    resp = Corpus({"d": doc([[(0, 0), (2, 2)], [(4, 4), (6, 6), (9, 9)]])})
    alone = evaluate(key, resp, Settings(analyses=("errors",))).errors
    both = evaluate(key, resp, Settings(analyses=("errors", "arcs"))).errors
    assert alone.counts() == both.counts()
    assert {r.mtypes for r in alone.rows} == {r.mtypes for r in both.rows}
    assert ("PRONOUN",) in {r.mtypes for r in alone.rows}


@pytest.mark.skipif(not NONCONTIG.exists(), reason="shared data not present")
@pytest.mark.parametrize("response", ["TC-NCMA-5", "TC-NCMA-7", "TC-NCMB-2", "TC-NCMB-8"])
def test_discontinuous_mentions_do_not_crash_and_add_up(response):
    """corefud-scorer's discontinuous-mention tests: -a errors used to crash in _trim; now every
    cost row adds up from the scored CoNLL (70.56 on these) to 100."""
    key = NONCONTIG / f"{response.split('-')[0]}-{response.split('-')[1]}.key"
    d = score_json(key, NONCONTIG / f"{response}.response", "-a", "errors")
    assert round(100 * d["metrics"]["conll"]["f1"], 2) == 70.56
    assert 1 - total_conll(d["errors"]) == pytest.approx(d["metrics"]["conll"]["f1"], abs=1e-12)


def test_a_discontinuous_mention_is_never_span_fixed_and_reads_as_its_words():
    """The key's discontinuous "a … c" (words 0, 1, 3) and the response's contiguous "a b c d"
    (0–3) share the last word: no Span Error moves one onto the other (the analyser knows no
    discontinuous mention); the rows name the discontinuous mention by its words."""
    words = "a b x c d e f".split()
    disc = Mention(0, 3, words=(0, 1, 3))
    key = Corpus({"d": Document("d", tokens=words, sentence_starts=[0],
                                chains=[Chain("1", [disc, Mention(5, 5)])])})
    resp = Corpus({"d": Document("d", tokens=words, sentence_starts=[0],
                                 chains=[Chain("1", [Mention(0, 3), Mention(5, 5)])])})
    ev = evaluate(key, resp, Settings(analyses=("errors",)))
    er = ev.errors
    # the response's "a b x c" is split off (no error: its entity's earliest mention) and deleted;
    # "e" leaves it (Conflated) and joins the key entity, whose earliest mention is "a … c" (Divided)
    assert {c: n for c, n in er.counts().items() if n} == {"Conflated Entities": 1, "Divided Entity": 1}
    assert 1 - sum(c["cumulative"]["conll"] for c in er.costs()) == pytest.approx(ev.conll, abs=1e-12)
    from corefreport.scoring.errorclasses import _Refs

    assert _Refs(words, lambda m: "NOMINAL").text(disc.ident) == "a b … c"
