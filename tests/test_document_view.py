"""The document view: a document's running text with the key's [N … ] and the response's {N … }
mentions, numbered by entity (the response after the key entity it shares most mentions with),
* for a mention one side lacks, ! for a wrong link — readable without colour; opened with v."""

from __future__ import annotations

import asyncio

from test_tui_pilot import example

from corefreport.io.conll2012 import read_conll2012
from corefreport.present.document_text import document_text, evaluation_document, number_response
from corefreport.tui import model as M
from corefreport.tui.pages.pair import LinksPage
from corefreport.tui.document import DocumentScreen, document_lines


def _doc(rows: list[tuple[str, str]], name: str = "d"):
    body = "".join(f"{name}\t0\t{i}\t{w}\t{c}\n" for i, (w, c) in enumerate(rows))
    return read_conll2012(name, f"#begin document ({name});\n{body}\n#end document\n").documents[name]


KEY = [("John", "(1)"), ("saw", "-"), ("his", "(1)|(2"), ("mother", "2)"), (".", "-"),
       ("She", "(2)"), ("left", "-"), ("him", "(1)"), (".", "-")]
# the response: John/his/him right, "his mother" missed as a mention, She joined to John, "left" spurious
RESP = [("John", "(1)"), ("saw", "-"), ("his", "(1)"), ("mother", "-"), (".", "-"),
        ("She", "(1)"), ("left", "(3)"), ("him", "(1)"), (".", "-")]


def test_brackets_numbers_and_flags_without_colour():
    dt = document_text(_doc(KEY), _doc(RESP))
    assert dt.plain() == ("[1 {1 John } ] saw [2* [1 {1 his } ] mother ] . [2 {1! She } ] {3* left } [1 {1 him } ] .")
    assert dt.plain(("key",)) == "[1 John ] saw [2* [1 his ] mother ] . [2 She ] left [1 him ] ."  # * : missed
    assert dt.entity_spans("key", 2) == [(2, 3), (5, 5)]
    assert number_response([[(0, 0)], [(1, 1)]], [[(1, 1)], [(0, 0)]]) == [2, 1]


def test_selected_entity_in_reverse_and_lines_per_sentence():
    dt = document_text(_doc(KEY), _doc(RESP))
    lines = document_lines(dt, span=(2, 2))  # "his": key entity 1, response entity 1
    assert len(lines) == 1 and lines[0].plain.startswith("s1 [1 {1 John } ]")
    reversed_words = {lines[0].plain[s.start:s.end] for s in lines[0].spans if s.style == "reverse"}
    assert reversed_words == {"John", "his", "She", "him"}  # key entity 1 and response entity 1 (She)


def test_example_document_and_the_v_key():
    ev = example()
    doc = next(iter(ev.key_corpus.documents))
    dt = evaluation_document(ev, doc)
    assert sum(1 for m in dt.marks if m.side == "key") == len({(m.start, m.end) for c in
                                                               ev.key_corpus.documents[doc].chains for m in c.mentions})
    text = dt.plain()
    assert text.count("[") - " ".join(dt.tokens).count("[") == sum(1 for m in dt.marks if m.side == "key")

    from corefreport.tui.app import CorefApp

    async def drive():
        app = CorefApp(ev)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            b = app.browser
            b.open(LinksPage("links", M.Scope("immediate")))
            await pilot.pause()
            row = b.current_link()
            await pilot.press("v")
            await pilot.pause()
            scr = app.screen
            assert isinstance(scr, DocumentScreen) and scr.dt.doc_id == row.doc_id and scr.span == row.span
            spans = sorted({m.span for m in scr.dt.marks if (m.side, m.entity) in scr.chosen})
            await pilot.press("n")
            await pilot.pause()
            assert scr.span == spans[(spans.index(row.span) + 1) % len(spans)]
            await pilot.press("m")
            await pilot.pause()
            assert scr.sides == ("key",)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is b

    asyncio.run(drive())


# --------------------------------------------------------------------------- several systems (issue 30)

# a second response: "his mother" found, She joined to it (right), "left" not marked, "him" missed
RESP_B = [("John", "(1)"), ("saw", "-"), ("his", "(1)|(2"), ("mother", "2)"), (".", "-"),
          ("She", "(2)"), ("left", "-"), ("him", "-"), (".", "-")]


def test_several_responses_each_in_its_brackets_one_number_per_referent():
    from corefreport.present.document_text import documents_text

    dt = documents_text(_doc(KEY), {"A": _doc(RESP), "B": _doc(RESP_B)})
    assert dt.sides == ("key", "A", "B")
    # A: {…}, B: <…>; B's "his mother" is key entity 2 (no flag), A's She a wrong link (!), A's
    # "left" spurious (*); "him" only in the key and A
    assert dt.plain() == ("[1 {1 <1 John > } ] saw [2 <2 [1 {1 <1 his > } ] mother > ] . [2 {1! <2 She > } ] "
                          "{3* left } [1 {1 him } ] .")
    # "him": only A has it, so with the key and B alone on screen it reads as missed
    assert dt.plain(("key", "B")) == "[1 <1 John > ] saw [2 <2 [1 <1 his > ] mother > ] . [2 <2 She > ] left [1* him ] ."
    assert "{N … }: A" in dt.legend() and "<N … >: B" in dt.legend()
    # the selected entity (the mention "his" on every side) is highlighted in all three annotations
    lines = document_lines(dt, span=(2, 2))
    hot = {lines[0].plain[s.start:s.end] for s in lines[0].spans if s.style == "reverse"}
    assert hot == {"John", "his", "She", "him"}  # key 1, A's 1 (with She), B's 1
    lines = document_lines(dt, ("key", "B"), span=(2, 2))
    hot = {lines[0].plain[s.start:s.end] for s in lines[0].spans if s.style == "reverse"}
    assert hot == {"John", "his", "him"}  # key 1 and B's 1; A's She is not on screen


def test_a_spurious_entity_of_two_systems_gets_one_number():
    from corefreport.present.document_text import documents_text

    extra = [("John", "-"), ("saw", "-"), ("his", "-"), ("mother", "-"), (".", "-"), ("She", "-"),
             ("left", "(9)"), ("him", "-"), (".", "(9)")]
    dt = documents_text(_doc(KEY), {"A": _doc(RESP), "B": _doc(extra)})
    assert {m.entity for m in dt.marks if m.span == (6, 6)} == {3}  # A's {3* left } and B's <3* left >


def test_v_in_the_systems_browser_shows_the_key_and_both_systems():
    from test_tui_systems import systems

    from corefreport.tui.app import CorefApp as SystemsApp

    async def drive():
        sy = systems()
        a = SystemsApp(sy)
        async with a.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("l", "enter")
            await pilot.pause()
            change = a.systems_screen.current_change()
            await pilot.press("v")
            await pilot.pause()
            scr = a.screen
            assert isinstance(scr, DocumentScreen) and scr.dt.sides == ("key", sy.baseline, *sy.systems)
            assert scr.span == (change.start, change.end) and scr.sides == scr.dt.sides
            assert {side for side, _n in scr.chosen} >= {"key"}
            await pilot.press("m")
            await pilot.pause()
            assert scr.sides == ("key",)
            await pilot.press("escape", "V")
            await pilot.pause()
            assert a.screen.sides == ("key", sy.baseline)

    asyncio.run(drive())


# --------------------------------------------------------------------------- agreeing mentions once, disagreements only (issue 38)

def test_a_mention_every_side_agrees_on_is_written_once():
    """By hand, KEY against A (RESP) and B (RESP_B): every side has "John" and "his" in entity 1 —
    written once, in the key's brackets; "his mother" (A lacks it), "She" (A: a wrong link), "left"
    (A: spurious) and "him" (B lacks it) keep every side's brackets."""
    from corefreport.present.document_text import documents_text

    dt = documents_text(_doc(KEY), {"A": _doc(RESP), "B": _doc(RESP_B)})
    assert dt.agreeing() == {(0, 0), (2, 2)}
    assert dt.plain(once=True) == "[1 John ] saw [2 <2 [1 his ] mother > ] . [2 {1! <2 She > } ] {3* left } [1 {1 him } ] ."
    assert dt.plain(disagreements=True) == "John saw [2 <2 his mother > ] . [2 {1! <2 She > } ] {3* left } [1 {1 him } ] ."
    # the key and B alone: they also agree on "his mother" and "She"; "him" is B's miss
    assert dt.agreeing(("key", "B")) == {(0, 0), (2, 2), (2, 3), (5, 5)}
    assert dt.plain(("key", "B"), once=True) == "[1 John ] saw [2 [1 his ] mother ] . [2 She ] left [1* him ] ."
    assert dt.agreeing(("key",)) == set() and dt.agreeing(("A", "B")) == set()
    assert dt.legend(once=True).endswith("all sides agree (span, entity): once, as [N … ]")


def test_disagreements_only_keeps_the_sentences_with_a_disagreement():
    from corefreport.present.document_text import documents_text
    from corefreport.tui.document import shown_sentences

    two = KEY + [("They", "(3)"), ("met", "-"), ("them", "(3)"), (".", "-")]
    same = RESP + [("They", "(4)"), ("met", "-"), ("them", "(4)"), (".", "-")]
    key = read_conll2012("d", "#begin document (d);\n" + "".join(
        f"d\t0\t{i}\t{w}\t{c}\n" + ("\n" if w == "." and i == 8 else "") for i, (w, c) in enumerate(two))
        + "\n#end document\n").documents["d"]
    resp = read_conll2012("d", "#begin document (d);\n" + "".join(
        f"d\t0\t{i}\t{w}\t{c}\n" + ("\n" if w == "." and i == 8 else "") for i, (w, c) in enumerate(same))
        + "\n#end document\n").documents["d"]
    dt = document_text(key, resp)
    assert len(dt.sentence_bounds()) == 2
    assert dt.disagreeing_sentences() == [0]  # the second sentence: "They" and "them" found as the key has them
    assert shown_sentences(dt, disagreements=True) == [0] and shown_sentences(dt) == [0, 1]
    lines = document_lines(dt, once=True, disagreements=True)
    assert [x.plain.split(" ")[0] for x in lines] == ["s1"]
    assert document_lines(dt, once=True)[1].plain == "s2 [3 They ] met [3 them ] . "


def test_the_D_key_in_the_document_view():
    from test_tui_systems import systems

    from corefreport.tui.app import CorefApp as SystemsApp

    async def drive():
        a = SystemsApp(systems())
        async with a.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await pilot.press("l", "enter")
            await pilot.pause()
            await pilot.press("v")
            await pilot.pause()
            scr = a.screen
            assert isinstance(scr, DocumentScreen) and not scr.disagreements
            full = list(scr.shown)
            assert full == list(range(len(scr.dt.sentence_bounds())))
            await pilot.press("D")
            await pilot.pause()
            assert scr.disagreements and scr.shown == scr.dt.disagreeing_sentences(scr.sides)
            assert len(scr.lines) == len(scr.shown) <= len(full)
            agreed = scr.dt.agreeing(scr.sides)
            assert agreed and all(m.span not in agreed for m in scr.dt.shown(scr.sides, disagreements=True))
            await pilot.press("D")
            await pilot.pause()
            assert not scr.disagreements and scr.shown == full

    asyncio.run(drive())
