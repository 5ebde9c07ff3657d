"""LLM/seq2seq markup responses read onto the key's words (io/markup.py, io/wordalign.py,
scoring/alignloss.py).

The fixtures (tests/data/text2text/, made by make_fixtures.sh) are text2text-coref itself
(github.com/ondfa/text2text-coref, commit 56d67ec, udapi 0.5.2) run on three GUM documents: the key
as markup, six deterministic perturbations of it, each put through the organisers' ``clean`` and
``text2conllu``; ``KIND.expected.json`` is corefreport's score of that CoNLL-U output. Reading
``KIND.txt`` directly under the ``organisers`` policy must give the same numbers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import one_error_line
from corefreport.cli import app

from corefreport.io.detect import detect_format
from corefreport.io.markup import MarkupDocument, read_markup, read_onto_key
from corefreport.io.wordalign import edit_script
from corefreport.model import Chain, Document, Mention
from corefreport.scoring.evaluate import evaluate
from corefreport.io.pairs import DocumentPairs
from corefreport.scoring.options import settings_from

DATA = Path(__file__).parent / "data" / "text2text"
KINDS = ("misspell", "delete", "closing", "truncate", "badid", "all")
WORD_ONLY = ("misspell", "delete", "truncate")
"""Perturbations of the words alone (the tags of every kept word intact)."""


def score(response: str, **options):
    return evaluate(DocumentPairs(str(DATA / "key.conllu"), str(DATA / response)), settings=settings_from(**options),
                    rows=False)


@pytest.mark.parametrize("kind", KINDS)
def test_organisers_policy_reproduces_text2text_coref(kind):
    expected = json.loads((DATA / f"{kind}.expected.json").read_text())
    ev = score(f"{kind}.txt")
    data = ev.as_dict()
    assert data["metrics"] == expected["metrics"]
    assert data["corpus"]["response"] == expected["corpus"]["response"]
    assert "markup:organisers" in str(ev.signature)


def test_expected_numbers_are_the_organisers_output():
    """The fixture's numbers: text2text-coref's CoNLL-U output scored by corefreport."""
    for kind, conll in (("misspell", 0.9313028235872616), ("all", 0.7535279259779007)):
        assert score(f"{kind}.conllu").conll == pytest.approx(conll, abs=1e-12)
        assert json.loads((DATA / f"{kind}.expected.json").read_text())["metrics"]["conll"]["f1"] == conll


@pytest.mark.parametrize("kind", WORD_ONLY)
def test_ceiling_of_a_perturbed_key_is_100_minus_the_perturbation(kind):
    loss = score(f"{kind}.txt").results["alignment"]
    cost, model = loss.cost("conll")
    assert model == pytest.approx(0.0, abs=1e-9)
    assert cost == pytest.approx(100 * (1 - loss.score["conll"]))
    assert cost > 2.0


def test_markup_errors_are_model_loss_not_alignment_cost():
    for kind in ("closing", "badid"):
        loss = score(f"{kind}.txt").results["alignment"]
        cost, model = loss.cost("conll")
        assert cost == pytest.approx(0.0, abs=1e-9) and model > 4.0


def test_diagnostics_count_the_perturbations():
    t = score("all.txt").results["alignment"].totals
    assert (t["key_words"], t["response_words"], t["matched"], t["substituted"], t["inserted"]) == (1970, 1636, 1580,
                                                                                                   56, 334)
    assert t["truncated_tail"] == 195 and t["tags_dropped_by_alignment"] == 33 and t["unclosed_dropped"] == 58
    t = score("truncate.txt").results["alignment"].totals
    assert t["truncated_tail"] == 195 and t["substituted"] == 0


def test_lenient_keeps_tags_on_substitutions_and_any_id(recwarn):
    assert score("misspell.txt", markup_policy="lenient").conll == pytest.approx(1.0)
    ev = score("badid.txt", markup_policy="lenient")
    assert ev.conll == pytest.approx(1.0)
    assert "markup:lenient" in str(ev.signature)
    organisers = score("badid.txt")
    assert organisers.conll < 0.95
    assert any("not e<digits> dropped" in w for w in organisers.warnings)


def test_json_has_the_alignment_section():
    data = score("misspell.txt").as_dict()
    a = data["alignment"]
    assert a["policy"] == "organisers" and a["words"]["substituted"] == 69
    assert a["model_loss"] == pytest.approx(0.0, abs=1e-9)
    assert a["alignment_cost"] == pytest.approx(100 * (1 - data["metrics"]["conll"]["f1"]))


def _key(words: str, spans: dict[str, list[tuple[int, int]]], starts=(0,)) -> Document:
    return Document("d", words.split(), list(starts),
                    chains=[Chain(k, [Mention(a, b, k) for a, b in v]) for k, v in spans.items()])


def _mentions(doc: Document) -> dict[str, list[tuple[int, int]]]:
    return {c.label: [m.span for m in c.mentions] for c in doc.chains}


def test_edit_script_follows_the_cleaner():
    # equal words are matched first; a tie between substitution and deletion is a substitution
    assert [s.op for s in edit_script("a b x c".split(), "a b c".split())] == ["match", "match", "delete", "match"]
    assert [s.op for s in edit_script("a y c".split(), "a b c".split())] == ["match", "substitute", "match"]
    assert [s.op for s in edit_script("a ## b".split(), "a b".split())] == ["match", "empty", "match"]
    assert [s.op for s in edit_script("## a".split(), "a".split())] == ["delete", "match"]  # dropped, as the cleaner does


def test_tag_repairs_under_each_policy():
    key = _key("A b c d e", {}, starts=(0,))
    line = MarkupDocument("r.txt", 1, "A|[e1 b c|e1] d|e2] e|[e3".split())
    doc, _, diag, _ = read_onto_key(line, key, "organisers")
    assert _mentions(doc) == {"e1": [(0, 2)], "e2": [(3, 3)]}  # orphan close: one word; unclosed: lost
    assert (diag.repaired_orphan_close, diag.unclosed_dropped) == (1, 1)
    doc, _, diag, _ = read_onto_key(line, key, "lenient")
    assert _mentions(doc) == {"e1": [(0, 2)], "e2": [(3, 3)], "e3": [(4, 4)]}
    assert diag.repaired_unclosed == 1


def test_substituted_word_loses_its_tags_under_organisers():
    key = _key("John saw him", {"e1": [(0, 0), (2, 2)]})
    line = MarkupDocument("r.txt", 1, "Jon|[e1] saw him|[e1]".split())
    doc, ceiling, diag, _ = read_onto_key(line, key, "organisers")
    assert _mentions(doc) == {"e1": [(2, 2)]} and diag.tags_dropped_by_alignment == 1
    assert _mentions(ceiling) == {"e1": [(2, 2)]}
    doc, ceiling, _, _ = read_onto_key(line, key, "lenient")
    assert _mentions(doc) == _mentions(ceiling) == {"e1": [(0, 0), (2, 2)]}


def test_crossing_sentences_are_counted_and_cut():
    key = _key("a b . c d", {}, starts=(0, 3))
    doc, _, diag, _ = read_onto_key(MarkupDocument("r", 1, "a|[e1 b . c d|e1]".split()), key, "organisers")
    assert diag.crossing_sentences == 1
    assert _mentions(doc) == {"e1": [(4, 4)]}


def test_brackets_markup():
    docs = read_markup("r.txt", "<m> John | 7 </m> said <m> <m> his | 7 </m> dog | 2 </m> barked\n", "brackets")
    assert docs[0].words == ["John|[e1]", "said", "his|[e1],[e2", "dog|e2]", "barked"]
    doc, _, _, _ = read_onto_key(docs[0], _key("John said his dog barked", {}), "organisers")
    assert _mentions(doc) == {"e1": [(0, 0), (2, 2)], "e2": [(2, 3)]}


def test_detection():
    assert detect_format("x", (DATA / "all.txt").read_text()) == "text2text"
    assert detect_format("x", "<m> John | 1 </m> came\n") == "brackets"
    assert detect_format("x", "1\tJohn\t_\n") != "text2text"


def test_more_lines_than_key_documents_is_an_error(tmp_path):
    extra = tmp_path / "extra.txt"
    extra.write_text((DATA / "misspell.txt").read_text() + "one|[e1] more line\n")
    line = one_error_line(CliRunner().invoke(app, ["score", str(DATA / "key.conllu"), str(extra)]))
    assert f"{extra}:4:" in line and "4 documents (lines), the key 3" in line


def test_markup_key_is_refused():
    line = one_error_line(CliRunner().invoke(app, ["score", str(DATA / "misspell.txt"), str(DATA / "key.conllu")]))
    assert "misspell.txt" in line and "as the RESPONSE against a KEY, not be the KEY" in line


def test_score_table_shows_the_split():
    out = CliRunner().invoke(app, ["score", str(DATA / "key.conllu"), str(DATA / "all.txt"), "-q"]).output
    assert "alignment ceiling" in out and "79.20" in out and "3.85" in out and "markup:organisers" in out


def test_report_metrics_section_carries_the_split():
    from corefreport.report.model import metrics_section

    titles = [getattr(b, "title", "") for b in metrics_section(score("all.txt")).blocks]
    assert any(t.startswith("alignment ceiling") for t in titles) and "alignment diagnostics" in titles
    assert not any("alignment" in t for t in (getattr(b, "title", "") for b in
                                               metrics_section(score("all.conllu")).blocks))


def test_browser_totals_show_the_split_and_the_diagnostics():
    """The TUI's totals (tui/model.py): the alignment ceiling with what alignment cost and what the
    model lost, and the words and tags under the table — the numbers of the score's split."""
    from corefreport.tui.model import summary, total_rows

    ev = score("all.txt")
    loss = ev.results["alignment"]
    cost, model = loss.cost("conll")
    row = next(r for r in total_rows(ev) if r.label.strip() == "alignment ceiling")
    assert row.f1 == loss.ceiling["conll"] == pytest.approx(0.7920, abs=5e-5)  # 79.20 (text2text-coref fixture)
    assert row.counts == f"cost: alignment {cost:.2f}, model {model:.2f}" == "cost: alignment 20.80, model 3.85"
    t = loss.totals
    assert (f"markup: {t['matched']} matched, {t['substituted']} misspelt, {t['inserted']} missing, "
            f"{t['deleted']} extra words;") in summary(ev)
    assert not any("alignment" in r.label for r in total_rows(score("key.conllu")))
