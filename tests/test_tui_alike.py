"""Issue 30, "every browsing page behaves alike": the same referent in every analysis says which
analysis each row is from; an empty cell of the confusion matrix says why it is empty; ``c`` is
offered only where the matrix can leave its diagonal."""

from __future__ import annotations

import asyncio

from test_tui_snapshots import example

from corefreport.tui import model as M
from corefreport.tui.app import DESCRIPTIONS, CorefApp


def test_the_same_referent_in_every_analysis_names_each_rows_analysis():
    ev = example()
    row = next(r for r in M.rows_of(ev, "immediate") if r.outcome == "WL")
    rows = M.referent_rows(ev, row)
    view = M.link_view(ev, M.Scope(row.analysis), pick=lambda ev: rows)
    assert view.columns[-1] == "analysis"
    shown = {r[-1] for r in view.plain()}
    assert shown == {M.ROW_LABELS.get(r.analysis, r.analysis) for r in rows} and len(shown) == len(rows) == 4
    assert "in 4 analyses" in view.note and row.doc_id in view.note
    # a page of one analysis keeps its document column
    assert M.link_view(ev, M.Scope("immediate")).columns[-1] == "document"


def test_empty_cells_say_why():
    assert M.empty_cell_reason("—", "—").startswith("always empty")
    assert M.empty_cell_reason("—", "ana") == "empty: no spurious response ana link (FP)"
    assert M.empty_cell_reason("ana", "—") == "empty: no key ana link is missed (FN)"
    assert "(TP/WL)" in M.empty_cell_reason("ana", "ana") and "(WT/WTL)" in M.empty_cell_reason("ana", "coref")
    assert all(len(M.empty_cell_reason(k, r)) <= 78 for k in ("coref", "appos", "—") for r in ("coref", "appos", "—"))


def test_c_is_offered_only_where_the_matrix_can_leave_its_diagonal():
    ev = example()  # scheme derived: both sides' types come from the referent itself
    rows = M.rows_of(ev, "typed")
    assert rows and not any(r.outcome in ("WT", "WTL") for r in rows)  # so the matrix is diagonal
    assert not M.confusion_possible(ev)

    async def drive():
        app = CorefApp(ev)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert DESCRIPTIONS["corefreport.confusion"] not in [what for _k, what in app.browser.key_help()]
            await pilot.press("c")
            await pilot.pause()
            assert app.browser.page.name == "totals"
            assert "types both sides from the same words" in str(app.browser.query_one("#status").render())

    asyncio.run(drive())


def test_enter_on_an_empty_cell_of_an_off_diagonal_matrix_says_why():
    from test_tui_snapshots import typed_gum

    ev = typed_gum()  # GUM's link types on both sides: WT and WTL exist, c is offered
    assert M.confusion_possible(ev) and any(r.outcome in ("WT", "WTL") for r in M.rows_of(ev, "typed"))
    view = M.confusion_view(ev)
    row, col = next((i, j) for i, r in enumerate(view.items) for j, c in enumerate(view.columns[1:-1], 1)
                    if not r.counts.get(c, 0))

    async def drive():
        app = CorefApp(ev)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert DESCRIPTIONS["corefreport.confusion"] in [what for _k, what in app.browser.key_help()]
            await pilot.press("c")
            await pilot.pause()
            b = app.browser
            b.table.move_cursor(row=row)
            b.table.move_column(col)
            await pilot.press("enter")
            await pilot.pause()
            assert b.page.name == "confusion"  # no empty page opened
            said = str(b.query_one("#status").render())
            assert said == M.empty_cell_reason(view.items[row].key, view.columns[col], "cls")

    asyncio.run(drive())
