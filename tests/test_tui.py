"""The terminal browser: the view model (pure functions over the result), a Pilot drill from totals
to a single link and back, and snapshots at 80×24 and 120×40."""

from __future__ import annotations

import asyncio
from functools import lru_cache

import pytest

from corefreport.cli import example_paths
from corefreport.io import load_corpus
from corefreport.scoring.evaluate import STANDARD_METRICS, Options, evaluate
from corefreport.scoring.outcomes import group_by
from corefreport.tui import model as M
from corefreport.tui.app import CorefApp, GroupScreen, LinkScreen, TotalsScreen


@lru_cache(maxsize=1)
def example_evaluation():
    key, resp = example_paths()
    return evaluate(load_corpus(key), load_corpus(resp), Options(metrics=STANDARD_METRICS, analyses=("arcs", "typed")))


def test_totals_show_every_metric_and_analysis():
    ev = example_evaluation()
    rows = M.totals(ev)
    labels = [r.label for r in rows]
    assert labels[:6] == ["MUC", "B³", "CEAF-m", "CEAF-e", "BLANC", "LEA"] and "CoNLL" in labels
    muc = rows[0]
    assert (muc.recall, muc.precision) == (ev.metrics["muc"].recall, ev.metrics["muc"].precision)
    drill = {r.analysis for r in rows if r.analysis}
    assert drill == {"immediate", "inferred", "anchor", "typed"}


def test_classes_types_and_links_are_group_bys_and_filters():
    ev = example_evaluation()
    classes = M.groups(ev.rows, "immediate", "cls")
    direct = group_by([r for r in ev.rows if r.analysis == "immediate"], "cls")
    assert [g.key for g in classes] == list(direct)
    assert sum(g.counts.tp for g in classes) == M.outcome_total(ev.rows, "immediate").tp
    prp = next(g for g in classes if g.key == "PRP")
    types = M.groups(ev.rows, "immediate", "type", cls="PRP")
    assert sum(g.counts.key_total for g in types) == prp.counts.key_total
    links = M.links(ev.rows, "immediate", cls="PRP", type=types[0].key)
    assert len(links) == types[0].counts.key_total + types[0].counts.fp
    assert [r.outcome for r in links] == sorted((r.outcome for r in links),
                                                 key=["WTL", "WL", "WT", "FN", "FP", "TP"].index)


def test_link_detail_highlights_referent_and_both_antecedents():
    ev = example_evaluation()
    wl = next(r for r in ev.rows if r.analysis == "immediate" and r.outcome == "WL")
    text = M.link_detail(ev, wl)
    plain = text.plain
    assert wl.text in plain and "key antecedent" in plain and "response antecedent" in plain
    styles = {str(span.style) for span in text.spans}
    assert "bold reverse" in styles and any("green" in s for s in styles) and any("red" in s for s in styles)


def test_documents_worst_first():
    ev = example_evaluation()
    docs = M.documents(ev)
    assert [d[1] for d in docs] == sorted(d[1] for d in docs)


def test_pilot_drill_totals_class_type_link_and_back():
    ev = example_evaluation()

    async def drive():
        app = CorefApp(ev)
        async with app.run_test(size=(80, 24)) as pilot:
            assert isinstance(app.screen, TotalsScreen)
            index = next(i for i, r in enumerate(M.totals(ev)) if r.analysis == "immediate")
            for _ in range(index):
                await pilot.press("down")
            await pilot.press("enter")
            assert isinstance(app.screen, GroupScreen) and app.screen.cls is None
            shown = [app.screen.table.get_row_at(i)[0] for i in range(app.screen.table.row_count)]
            assert shown == [g.key for g in M.groups(ev.rows, "immediate", "cls")]
            await pilot.press("enter")  # first class
            assert isinstance(app.screen, GroupScreen) and app.screen.cls == shown[0]
            await pilot.press("enter")  # first type
            assert isinstance(app.screen, LinkScreen)
            screen = app.screen
            assert screen.table.row_count == len(screen.shown) > 0
            detail = str(app.screen.query_one("#detail").render())
            assert screen.shown[0].doc_id in detail
            await pilot.press("slash")
            await pilot.press(*"tp", "enter")
            assert all(r.outcome == "TP" for r in screen.shown)
            for _ in range(3):
                await pilot.press("escape")
            assert isinstance(app.screen, TotalsScreen)
            await pilot.press("d")
            assert app.screen.table.row_count == 3
            await pilot.press("enter")  # the worst document's links
            assert isinstance(app.screen, LinkScreen)
            worst = M.documents(ev)[0][0]
            assert app.screen.shown and all(r.doc_id == worst for r in app.screen.shown)

    asyncio.run(drive())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_totals(snap_compare, size):
    assert snap_compare(CorefApp(example_evaluation()), terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_links(snap_compare, size):
    index = next(i for i, r in enumerate(M.totals(example_evaluation())) if r.analysis == "immediate")
    keys = ["down"] * index + ["enter", "enter", "enter"]
    assert snap_compare(CorefApp(example_evaluation()), press=keys, terminal_size=size)


def test_export_never_overwrites(tmp_path):
    from corefreport.tui.app import export_table

    async def drive():
        app = CorefApp(example_evaluation())
        async with app.run_test(size=(80, 24)) as pilot:
            table = app.screen.table
            a = export_table(table, "totals", "csv", tmp_path)
            b = export_table(table, "totals", "csv", tmp_path)
            c = export_table(table, "totals", "json", tmp_path)
            assert (a.name, b.name, c.name) == ("totals.csv", "totals-2.csv", "totals.json")
            assert a.read_text().splitlines()[1].startswith("MUC,")
            await pilot.pause()

    asyncio.run(drive())


def test_palette_jumps_to_a_type():
    ev = example_evaluation()

    async def drive():
        app = CorefApp(ev)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("ctrl+p")
            await pilot.press(*"Type her")
            await pilot.pause(0.5)
            await pilot.press("enter")
            await pilot.pause(0.3)
            assert isinstance(app.screen, LinkScreen)
            assert all(r.type == "her" for r in app.screen.shown) and app.screen.shown

    asyncio.run(drive())
