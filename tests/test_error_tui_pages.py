"""The error-class screen (``x``) behaves as every browsing page: ``?`` help, ``/`` search (the link
search's syntax, typed text never runs as commands), sorting (``s``, ``1``–``9``), ``d`` per
document, Home/End on the first/last row, and the palette exports *its* table. The tables are
pure views (tui/errorviews.py), checked here against the error rows themselves."""

from __future__ import annotations

import asyncio
import csv
import json
from functools import lru_cache

from conftest import browsing, table_row

from corefreport.cli import example_paths
from corefreport.io import load_corpus
from corefreport.scoring.errorclasses import CLASSES
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import STANDARD_METRICS
from corefreport.scoring.settings import Settings
from corefreport.tui import errorviews as V
from corefreport.tui.app import CorefApp
from corefreport.tui.help import HelpScreen
from corefreport.tui.errors import ErrorsScreen


@lru_cache(maxsize=1)
def example():
    key, resp = example_paths()
    return evaluate(load_corpus(key), load_corpus(resp), Settings(metrics=STANDARD_METRICS, analyses=("errors",)))


def test_views_count_what_the_rows_hold():
    ev = example()
    er = ev.errors
    totals = V.totals_view(ev)
    assert [it[0] for it in totals.items][:7] == list(CLASSES)
    assert [it[1] for it in totals.items][:7] == [er.counts()[c] for c in CLASSES]
    docs = V.documents_view(ev)
    assert sum(r["errors"] for r in docs.records()) == len(er.rows) == sum(er.counts().values())
    first = docs.items[0][0]
    assert len(V.class_view(ev, V.ALL, first)) == sum(1 for r in er.rows if r.doc_id == first)
    his = V.class_view(ev, V.ALL, None, "his")
    assert len(his) == sum(1 for r in er.rows if any("his" in t.lower().replace(",", " ").split() for t in r.texts))
    assert all("this" not in " ".join(r.texts).lower().split() or "his" in " ".join(r.texts).lower().split()
               for r in his.items)
    exact = V.class_view(ev, V.ALL, None, "re:^(he|she)$")
    assert exact.items and all(any(t.lower() in ("he", "she") for t in r.texts) for r in exact.items)
    assert V.class_view(ev, "Conflated Entities", None, "mtype:pronoun -class:divided").items


def test_help_search_sort_documents_end_and_export(tmp_path, monkeypatch):
    ev = example()
    monkeypatch.chdir(tmp_path)

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (80, 24), "x") as pilot:
            scr = app.screen
            assert isinstance(scr, ErrorsScreen)
            t = scr.table
            # ? : the help
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is scr
            # 2, 2: sorted by errors, descending
            await pilot.press("2")
            await pilot.press("2")
            await pilot.pause()
            counts = [int(table_row(t, i)[1]) for i in range(t.row_count)]
            assert counts == sorted(counts, reverse=True) and "errors ▼" in [str(c.label) for c in t.columns.values()]
            # End / Home: the last and the first row
            await pilot.press("end")
            await pilot.pause()
            assert t.cursor_row == t.row_count - 1
            await pilot.press("home")
            await pilot.pause()
            assert t.cursor_row == 0
            # /his, typed at once with Enter: every error with the word "his" (q in it quits nothing)
            for key in ["slash", "q", "h", "i", "s", "backspace", "backspace", "backspace", "backspace", "h", "i",
                        "s", "enter"]:
                await pilot.press(key)
            await pilot.pause()
            assert app.is_running and scr.level == "class" and scr.words == "his"
            assert [r for r in scr.rows] == list(V.class_view(ev, V.ALL, None, "his").items)
            # the palette exports this table, not the totals
            path = next(cb for text, cb, _ in scr.palette_commands() if text.endswith("CSV"))()
            rows = list(csv.DictReader(path.open(encoding="utf-8")))
            assert path.name.startswith("corefreport-errors") and len(rows) == len(scr.rows)
            assert rows[0]["document"] == scr.rows[0].doc_id and rows[0]["class"] == scr.rows[0].cls
            # d: per document; Enter: that document's errors; Esc back to where we were
            await pilot.press("escape")
            await pilot.pause()
            assert scr.level == "totals"
            await pilot.press("d")
            await pilot.pause()
            assert scr.level == "documents" and t.row_count == len(ev.errors.document_counts())
            path = next(cb for text, cb, _ in scr.palette_commands() if text.endswith("JSON"))()
            records = json.loads(path.read_text(encoding="utf-8"))
            assert records == V.documents_view(ev).records()
            await pilot.press("enter")
            await pilot.pause()
            doc = V.documents_view(ev).items[0][0]
            assert scr.level == "class" and scr.doc == doc and {r.doc_id for r in scr.rows} == {doc}
            await pilot.press("escape")
            await pilot.pause()
            assert scr.level == "documents"

    asyncio.run(drive())
