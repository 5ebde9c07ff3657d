"""Issue 30: ``/`` on the many-system browser's changed links — the one-system browser's query
language (whole words, phrases, re:, in:, outcomes, doc:, -not) over the changes, with kind:gain and
an outcome matching either system; typed or pasted text goes to the box, never to the key bindings."""

from __future__ import annotations

import asyncio

from test_tui_systems import systems

from corefreport.tui import pairmodel as P
from corefreport.tui.pairsearch import change_text, search_changes
from corefreport.tui.search import word_pattern
from corefreport.tui.app import CorefApp as SystemsApp
from conftest import browsing


def _all(analysis="immediate"):
    sy = systems()
    return sy, sy.comparison.links["rules"][analysis].changes


def test_words_match_whole_words_in_the_referent_antecedents_and_document():
    sy, changes = _all()
    a, b = sy.ev(sy.baseline), sy.ev("rules")

    def text(c, where):
        return change_text(a, a, b, c, where)

    his = search_changes(changes, "in:mention his", text)
    assert his and all(c.text.lower() == "his" for c in his)
    assert len(his) == sum(1 for c in changes if c.text.lower() == "his")  # "this" is not "his"
    # in:link: the referent, the key's and both systems' antecedents and the document id
    hits = search_changes(changes, "court", text)
    expected = [c for c in changes if word_pattern("court").search(text(c, "link"))]
    assert hits == expected and any("court" in c.doc_id for c in hits)
    # outcomes match either system; kind: gain / loss / change
    fn = search_changes(changes, "fn", text)
    assert fn == [c for c in changes if "FN" in (c.baseline, c.system)]
    gains = search_changes(changes, "kind:gain -fp", text)
    assert gains == [c for c in changes if c.kind == "gain" and "FP" not in (c.baseline, c.system)]
    # the scope carries the search: the page shows the same rows and says what it searched
    view = P.changes_view(sy, "rules", P.ChangeScope("immediate").searched("kind:gain -fp"))
    assert len(view) == len(gains) and "matching “kind:gain -fp”" in view.note


def test_slash_on_the_changed_links_filters_them_and_typed_text_is_text():
    sy, changes = _all()

    async def drive():
        a = SystemsApp(sy)
        async with browsing(a, (80, 24)) as pilot:
            s = a.systems_screen
            await pilot.press("l", "enter")  # the transitions of ARCS 1, the first one's changes
            await pilot.pause()
            before = len(s.page.view)
            # typed fast after "/": "q" is text, not quit
            await pilot.press("slash", "q", "backspace", "i", "n", ":", "m", "e", "n", "t", "i", "o", "n", "space",
                              "i", "t", "enter")
            await pilot.pause()
            assert a.is_running and s.page.name == "changes" and s.page.scope.query == "in:mention it"
            assert 0 < len(s.page.view) < before and all(c.text.lower() == "it" for c in s.page.view.items)
            # from the totals, / searches every change of the analysis
            await pilot.press("t", "slash", "k", "i", "n", "d", ":", "l", "o", "s", "s", "enter")
            await pilot.pause()
            assert [p.name for p in s.pages] == ["pair-totals", "changes"]
            assert len(s.page.view) == sum(1 for c in changes if c.kind == "loss")
            # a bad regular expression: said, and the box keeps it
            await pilot.press("slash", "r", "e", ":", "(", "enter")
            await pilot.pause()
            assert s.query_one("#sys-filter").has_focus and s.page.scope.query == "kind:loss"

    asyncio.run(drive())
