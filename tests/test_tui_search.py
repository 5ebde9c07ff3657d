"""The browser's link search (tui/search.py), tested without the app, and the filter box taking
typed and pasted text as text (with Textual's Pilot): whole words by default (``his`` is not "this",
``it`` not "United"), quoted phrases, regular expressions with ``re:``, matching in the link's
mentions, the referent alone or its sentence."""

from __future__ import annotations

import asyncio
import re

import pytest
from test_tui_pilot import example

from corefreport.tui import model as M
from corefreport.tui.search import QueryError, parse_query, split_terms, word_pattern


def words(text: str) -> list[str]:
    """An independent tokenisation: runs of letters and digits, lower case."""
    return [w.lower() for w in re.findall(r"[^\W_]+", text)]


def test_whole_words_by_default():
    assert word_pattern("his").search("this house") is None
    assert word_pattern("his").search("in his house")
    assert word_pattern("his").search("HIS") and word_pattern("his").search("(his)")
    assert word_pattern("it").search("the United States") is None and word_pattern("it").search("it , too")
    assert word_pattern("court*").search("the courts") and word_pattern("court*").search("a basketball court")
    assert word_pattern("court*").search("escort") is None
    assert word_pattern("'s").search("John 's dog")  # punctuation at an edge needs no boundary


def test_phrases_regular_expressions_and_where():
    q = parse_query('fn "the  court" -re:^the in:sentence doc:mitigation')
    assert [(t.negated, t.field) for t in q.terms] == [(False, "outcome"), (False, "text"), (True, "text"),
                                                       (False, "doc")]
    assert q.where == "sentence"
    assert q.terms[1].pattern.search("before THE court .") and not q.terms[1].pattern.search("the courtyard")
    assert split_terms('a "b c" re:"d e" -"f"') == ["a", '"b c"', 're:"d e"', '-"f"']
    assert parse_query('re:"of the \\w+"').terms[0].pattern.search("one of the studies")
    with pytest.raises(QueryError, match="bad regular expression '\\(': missing"):
        parse_query("re:(")
    with pytest.raises(QueryError, match="in:mention"):
        parse_query("in:paragraph")
    assert parse_query("mtype:PRONOUN -wl").terms[0].value == "pronoun"


def _all(ev):
    return M.link_rows(ev, M.Scope("immediate"))


def test_his_finds_his_and_never_this_on_the_example():
    ev = example()
    rows = _all(ev)
    found = M.link_rows(ev, M.Scope("immediate"), "his in:mention")
    expected = [r for r in rows if "his" in words(r.text)]
    assert found == expected and len(found) == 7
    assert any("this" in r.text.lower() for r in rows)  # there were "this" referents to avoid
    assert not any("his" not in words(r.text) for r in found)


def test_it_does_not_find_united_and_the_link_includes_antecedents():
    ev = example()
    rows = _all(ev)
    found = M.link_rows(ev, M.Scope("immediate"), "it")
    expected = [r for r in rows if "it" in words(M.search_text(ev, r, "link"))]
    assert found == expected and found
    united = [r for r in rows if "united" in M.search_text(ev, r, "link").lower()
              and "it" not in words(M.search_text(ev, r, "link"))]
    assert united and not set(map(id, united)) & set(map(id, found))


def test_sentence_and_regular_expression_on_the_example():
    ev = example()
    rows = _all(ev)
    in_sentence = M.link_rows(ev, M.Scope("immediate"), "in:sentence court")
    expected = [r for r in rows if "court" in words(M.search_text(ev, r, "sentence"))]
    assert in_sentence == expected and len(in_sentence) > len(M.link_rows(ev, M.Scope("immediate"), "in:mention court"))
    for r in in_sentence:  # the referent lies in the sentence searched
        assert r.text in M.search_text(ev, r, "sentence")
    rx = M.link_rows(ev, M.Scope("immediate"), "in:mention re:^(he|she)$")
    assert rx and all(r.text.lower() in ("he", "she") for r in rx)
    assert rx == [r for r in rows if r.text.lower() in ("he", "she")]


def test_typed_and_pasted_text_goes_into_the_filter_box_not_to_the_bindings():
    """``/quote`` typed fast (every key queued before the box has the focus) once quit at the ``q``."""
    from textual import events

    from corefreport.tui.app import CorefApp

    async def drive(keys, paste=None):
        app = CorefApp(example())
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for key, ch in keys:
                app.post_message(events.Key(key, ch))
            if paste is not None:
                app.post_message(events.Paste(paste))
            for _ in range(6):
                await pilot.pause()
            return app.is_running, app.browser.query_one("#filter").value, app.browser.page.query

    running, box, _ = asyncio.run(drive([("slash", "/")] + [(c, c) for c in "quote"]))
    assert running and box == "quote"
    running, box, query = asyncio.run(drive([("slash", "/")] + [(c, c) for c in "his"] + [("enter", None)]))
    assert running and query == "his"
    running, box, _ = asyncio.run(drive([("slash", "/")], paste="quit\nnow"))
    assert running and box == "quit now"
