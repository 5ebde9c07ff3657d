"""``corefreport tui`` driven with Textual's Pilot: what each page shows after each key."""

from __future__ import annotations

import asyncio
from functools import lru_cache

from conftest import browsing, go_to
from corefreport.cli import example_paths
from studies import pair_stages
from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import ALL_METRICS, STANDARD_METRICS
from corefreport.scoring.settings import Settings
from corefreport.tui import model as M
from corefreport.tui.app import CorefApp


@lru_cache(maxsize=1)
def example():
    key, resp = example_paths()
    return evaluate(load_corpus(key), load_corpus(resp), Settings(metrics=ALL_METRICS, analyses=("arcs", "typed")))


def run(coro):
    return asyncio.run(coro)


def shown_keys(app) -> list[str]:
    return [r[0] for r in app.shown()]


def row_index(view: M.View, key) -> int:
    return next(i for i, it in enumerate(view.items) if key(it))


def test_drill_totals_class_type_link_and_back():
    ev = example()

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (80, 24)) as pilot:
            b = app.browser
            totals = M.totals_view(ev, 80)
            assert b.page.name == "totals" and app.shown() == [list(map(_plain, r)) for r in totals.rows()]
            await go_to(pilot, row_index(totals, lambda r: r.target == ("analysis", "immediate")))
            await pilot.press("enter")
            classes = M.group_view(ev, M.Scope("immediate"), "cls")
            assert b.page.name == "groups" and shown_keys(app) == [g.key for g in classes.items]
            assert [p.crumb for p in b.pages][1:] == ["ARCS 1 immediate"]
            prp = row_index(classes, lambda g: g.key == "PRP")
            await go_to(pilot, prp)
            await pilot.press("enter")
            types = M.group_view(ev, classes.items[prp].scope, "type")
            assert shown_keys(app) == [g.key for g in types.items]
            assert app.shown()[0][2:] == types.plain()[0][2:]
            await pilot.press("enter")
            links = M.link_view(ev, types.items[0].scope)
            assert b.page.name == "links" and app.shown() == [list(map(_plain, r)) for r in links.rows()]
            assert all(r.cls == "PRP" and r.type == types.items[0].key for r in links.items)
            detail = str(b.query_one("#detail").render())
            assert links.items[0].doc_id in detail
            await pilot.press("down")
            assert links.items[1].text in str(b.query_one("#detail").render())
            await pilot.press("enter")
            assert b.page.name == "link" and b.page.row is links.items[1]
            assert not b.table.display and b.query_one("#detail").display
            crumbs = str(b.query_one("#crumbs").render())
            assert "ARCS 1 immediate › PRP › " + types.items[0].key in crumbs
            await pilot.press("escape")
            assert b.page.name == "links" and b.table.cursor_row == 1  # back where we were
            await pilot.press("escape")
            assert shown_keys(app) == [g.key for g in types.items]
            await pilot.press("escape")
            assert b.page.name == "groups" and b.table.cursor_row == prp
            await pilot.press("escape")
            assert b.page.name == "totals"
            await pilot.press("escape")  # nothing above the totals
            assert b.page.name == "totals" and len(b.pages) == 1
            assert [t for t, _ in app.timings][:5] == ["start", "classes", "types", "links", "link"]

    run(drive())


def _plain(c) -> str:
    return c.plain if hasattr(c, "plain") else str(c)


def test_sort_breakdown_and_header_click():
    ev = example()

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (100, 30)) as pilot:
            totals = M.totals_view(ev)
            await go_to(pilot, row_index(totals, lambda r: r.target == ("analysis", "typed")))
            await pilot.press("enter")
            scope = M.Scope("typed")
            assert shown_keys(app) == [g.key for g in M.group_view(ev, scope, "cls").items]
            await pilot.press("s")
            assert shown_keys(app) == [g.key for g in M.group_view(ev, scope, "cls", "F1").items]
            await pilot.press("b")
            column = M.breakdowns(ev, "typed")[1]
            assert app.browser.page.column == column
            assert shown_keys(app) == [g.key[:28] for g in M.group_view(ev, scope, column, "F1").items]
            await pilot.click(app.browser.table, offset=(2, 0))  # the first header: sort by name
            assert shown_keys(app) == sorted(shown_keys(app))

    run(drive())


def test_documents_worst_first_then_their_links():
    ev = example()

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (80, 24)) as pilot:
            await pilot.press("d")
            docs = M.document_view(ev)
            assert [d.doc_id for d in app.browser.page.view.items] == [d.doc_id for d in docs.items]
            await pilot.press("enter")
            worst = docs.items[0].doc_id
            page = app.browser.page
            assert page.name == "links" and page.scope == M.Scope("immediate", (("doc_id", worst),))
            assert {r.doc_id for r in page.view.items} == {worst}
            assert app.browser.table.row_count == len(page.view)

    run(drive())


def test_search_filters_links_and_tables_format_only_rows_on_screen():
    from corefreport.tui.table import MEASURE

    ev = example()

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (80, 24)) as pilot:
            b = app.browser
            await pilot.press("slash")  # from the totals: all links of the first analysis
            assert b.page.name == "links" and b.query_one("#filter").has_focus
            all_links = len(M.rows_of(ev, "immediate"))
            assert len(b.page.view) == all_links > MEASURE
            await pilot.press(*"fn", "enter")
            expected = M.link_view(ev, M.Scope("immediate"), "fn")
            assert b.page.view.items == expected.items and all(r.outcome == "FN" for r in expected.items)
            assert b.table.has_focus and b.table.row_count == len(expected)
            await pilot.press("slash")
            b.query_one("#filter").value = ""
            await pilot.press("enter")
            t = b.table
            assert t.row_count == all_links
            assert t.formatted == MEASURE  # the rows measured for the column widths, not all
            await pilot.press("end")
            assert t.cursor_row == all_links - 1
            assert MEASURE < t.formatted < MEASURE + 30  # and the last screen's rows
            assert b.page.view.items[-1].text in str(b.query_one("#detail").render())

    run(drive())


async def type_in_palette(pilot, text: str) -> None:
    from textual.command import CommandInput

    await pilot.pause()
    pilot.app.screen.query_one(CommandInput).value = text
    await pilot.pause(0.3)


def test_palette_jumps_to_a_type_and_exports(tmp_path, monkeypatch):
    ev = example()
    monkeypatch.chdir(tmp_path)

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (100, 30)) as pilot:
            await pilot.press("ctrl+p")
            await type_in_palette(pilot, "Export this table as CSV")
            await pilot.press("enter")
            await pilot.pause(0.1)
            assert (tmp_path / "corefreport-totals.csv").read_text(encoding="utf-8").startswith("metric,R,P,F1,")
            await pilot.press("ctrl+p")
            await type_in_palette(pilot, "Type her (class PRP$")
            await pilot.press("enter")
            await pilot.pause(0.1)
            page = app.browser.page
            assert page.name == "links" and page.view.items
            assert all(r.type == "her" and r.cls == "PRP$" for r in page.view.items)

    run(drive())


def test_remapped_keys():
    ev = example()

    async def drive():
        app = CorefApp(ev, keymap={"corefreport.documents": "D", "corefreport.back": "backspace"})
        async with browsing(app, (80, 24)) as pilot:
            await pilot.press("d")
            assert app.browser.page.name == "totals"
            await pilot.press("D")
            assert app.browser.page.name == "documents"
            await pilot.press("backspace")
            assert app.browser.page.name == "totals"

    run(drive())


def staged_browser(monkeypatch, metrics: tuple[str, ...], look) -> None:
    """The browser on the example's stages (``metrics`` and ARCS) waited for until every worker is
    done; ``look(app)`` then, with the analyses ready; the app's evaluation is a direct call's, and
    the study ran ONE call to evaluate, with those settings."""
    import corefreport.study.run as SR

    key, resp = example_paths()
    options = Settings(metrics=metrics, analyses=("arcs",))
    calls: list[Settings] = []
    staged = SR.evaluation_stages
    monkeypatch.setattr(SR, "evaluation_stages", lambda *a, **k: calls.append(k["settings"]) or staged(*a, **k))

    async def drive():
        app = CorefApp(stages=pair_stages(key, resp, options))
        async with app.run_test(size=(80, 24)) as pilot:
            await app.workers.wait_for_complete()
            await pilot.pause(0.1)
            assert app.analyses_ready
            look(app)
            direct = evaluate(load_corpus(key), load_corpus(resp), options)
            assert app.ev.as_dict() == direct.as_dict()

    run(drive())
    assert calls == [options]


def test_scoring_in_a_worker_standard_metrics_first(monkeypatch):
    """The app receives the staged evaluations of ONE call to evaluate: standard scores, then all."""
    def look(app):
        assert app.browser.page.name == "totals" and app.ev.complete
        labels = shown_keys(app)
        assert labels[:2] == ["MUC", "B³"] and "ARCS 1 immediate ›" in labels
        status = app.browser.query_one("#status")  # no "computing…" left; at most "analyses ready"
        assert not status.display or "analyses ready" in str(status.render())

    staged_browser(monkeypatch, STANDARD_METRICS, look)


def test_with_the_linguistically_aware_metrics_the_standard_ones_come_first(monkeypatch):
    """All metrics: the per-document metrics are folded and shown first, then the rest of the same
    run (one call to evaluate)."""
    seen: list[str] = []

    def look(app):
        assert "LMUC" in shown_keys(app)
        seen.extend(label.split(" scored")[0] for label, _ in app.timings if " scored, " in label)

    staged_browser(monkeypatch, ALL_METRICS, look)
    assert seen == ["standard metrics", "analyses"]


def test_unreadable_input_exits_with_code_2(tmp_path):
    key, _ = example_paths()

    async def drive():
        app = CorefApp(stages=pair_stages(key, str(tmp_path / "absent.conll"), Settings()))
        async with app.run_test(size=(80, 24)):
            for _ in range(250):  # the worker reports, the app exits
                if app.error:
                    break
                await asyncio.sleep(0.02)
        return app

    app = run(drive())
    assert app.error and app.return_code == 2


def test_bindings_have_ids_and_tooltips_and_help_lists_remapped_keys():
    from corefreport.tui.screens.pair import Browser

    for b in Browser.BINDINGS + CorefApp.BINDINGS:
        assert b.id and b.id.startswith("corefreport.") and b.tooltip, b
    ev = example()

    async def drive():
        app = CorefApp(ev, keymap={"corefreport.jump_entity": "E", "corefreport.sort_column_3": "f3"})
        async with browsing(app, (80, 24)) as pilot:
            helped = dict((d, k) for k, d in app.browser.key_help())
            assert helped["from a link: all links of its key entity"] == "E"
            assert "f3" in helped["sort by column N (1 = first); again: reverse (▲/▼ in the header)"].split()

    run(drive())


def test_every_row_of_the_totals_opens_what_it_names():
    """Enter on each totals row with a target opens its page (a metric: the documents by it;
    an analysis: its classes; the warnings; a layer) — none raises."""
    ev = example()

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (100, 40)) as pilot:
            b = app.browser
            opened = []
            for i, item in enumerate(b.page.view.items):
                if item.target is None:
                    continue
                b.table.move_cursor(row=i)
                await pilot.press("enter")
                await pilot.pause()
                opened.append((item.target[0], b.page.name))
                await pilot.press("escape")
                await pilot.pause()
            return opened

    opened = asyncio.run(drive())
    assert ("metric", "documents") in opened and ("analysis", "groups") in opened
    assert all(name != "totals" for _, name in opened)
