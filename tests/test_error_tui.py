"""The error-class browser (tui/errors.py, key x) on the real GUM pair (gold vs xrenner ml),
driven with Pilot: the totals list each class with its count (444 Conflated Entities: the number
`score -a errors` prints for this pair, also asserted in tests/test_error_compare.py against the
CLI), Enter opens a class's errors, Enter on one shows its explanation and the key and response
entities side by side; Escape goes back level by level."""

from __future__ import annotations

import asyncio
from functools import lru_cache

from corefreport.io import load_corpus
from corefreport.present.numbers import signed
from corefreport.scoring.errorclasses import DROPPED, REPEATED
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import STANDARD_METRICS
from corefreport.scoring.settings import Settings
from corefreport.tui.app import CorefApp
from corefreport.tui.errors import ErrorsScreen

from conftest import browsing, shared_path, table_row


@lru_cache(maxsize=1)
def gum():
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", "gum.conll")))
    resp = load_corpus(str(shared_path("data", "xrenner", "conll2012", "ml-gum.conll")))
    # the analyser's mode T: its numbers below (two rows of its reading come before the classes)
    return evaluate(key, resp, Settings(metrics=STANDARD_METRICS, analyses=("errors",),
                                        errors_drop_response_singletons=True))


def test_totals_class_error_and_back():
    ev = gum()

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (120, 40), "x") as pilot:
            scr = app.screen
            assert isinstance(scr, ErrorsScreen)
            t = scr.table
            rows = [table_row(t, i) for i in range(t.row_count)]
            assert [r[0] for r in rows][:2] == [REPEATED, DROPPED]
            rows = rows[2:]
            assert [r[0] for r in rows][:7] == ["Span Error", "Conflated Entities", "Extra Mention", "Extra Entity",
                                                "Divided Entity", "Missing Mention", "Missing Entity"]
            assert rows[1][1] == "444" and rows[6][1] == "222"
            assert rows[-1][0].startswith("Leftover")
            costs = {c["class"]: c for c in ev.errors.costs()}
            assert rows[1][2] == signed(costs["Conflated Entities"]["cumulative"]["conll"])  # +8.16
            assert rows[1][2] == "+8.16"
            # Conflated Entities: its 444 errors
            t.move_cursor(row=3)
            await pilot.press("enter")
            await pilot.pause()
            assert scr.level == "class" and t.row_count == 444
            target = next(i for i, r in enumerate(scr.rows) if r.doc_id.startswith("GUM_academic_discrimination")
                          and r.sentence == 17)
            t.move_cursor(row=target)
            await pilot.pause()
            assert table_row(t, target)[:3] == ["GUM_academic_discrimination", "18", "discrimination"]
            await pilot.press("enter")
            await pilot.pause()
            assert scr.level == "error"
            from rich.console import Console

            con = Console(width=200, record=True, file=open("/dev/null", "w"))
            con.print(scr.shown)
            text = con.export_text()
            assert ("the response merges key entities E61 'perceived discrimination' and E2 'discrimination' at "
                    "mention 'discrimination' in sentence 18") in " ".join(text.split())
            assert "key entity E2 'discrimination' (16 mentions)" in text
            assert "response entity R82 'perceived discrimination' (2 mentions)" in text
            assert "wrongly joined to key entity E61" in text
            await pilot.press("escape")
            await pilot.pause()
            assert scr.level == "class" and t.cursor_row == target
            await pilot.press("escape")
            await pilot.pause()
            assert scr.level == "totals" and t.cursor_row == 3
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, ErrorsScreen)

    asyncio.run(drive())


def test_without_errors_x_says_how_to_get_them():
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", "gum.conll")))
    ev = evaluate(key, key, Settings(metrics=("muc",)))

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (80, 24), "x"):
            assert not isinstance(app.screen, ErrorsScreen)
            assert any("-a errors" in str(n.message) for n in app._notifications)

    asyncio.run(drive())


def test_the_leftover_line_opens_its_mentions():
    """Enter on the leftover line lists what no class fixes (the surviving response mentions and the
    key mentions still missing), each with its explanation."""
    ev = gum()

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (120, 40), "x") as pilot:
            scr = app.screen
            t = scr.table
            t.move_cursor(row=t.row_count - 1)
            await pilot.press("enter")
            await pilot.pause()
            assert scr.level == "class" and scr.cls.startswith("Leftover")
            assert t.row_count == len(ev.errors.leftovers) > ev.errors.leftover == 25
            extra = next(i for i, r in enumerate(scr.rows) if r.detail == "extra")
            t.move_cursor(row=extra)
            await pilot.pause()
            assert "is not a key mention, yet no class removes it" in str(scr.shown)
            await pilot.press("enter")
            await pilot.pause()
            assert scr.level == "error"
            await pilot.press("escape")
            await pilot.press("escape")
            await pilot.pause()
            assert scr.level == "totals"

    asyncio.run(drive())
