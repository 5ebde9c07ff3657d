"""Snapshots of the browser's Universal Anaphora layer pages at 80×24 and 120×40
(pytest-textual-snapshot), on tests/data/ua_tui (one document, every bridging and non-referring
outcome, DD chains split): the totals' layer rows, the bridging pairs with a pair in its sentence,
the DD chains, the non-referring markables and one skipped pair.

Update after an intended change with ``pytest tests/test_tui_layers_snapshots.py --snapshot-update``
and look at the SVGs in ``tests/__snapshots__/test_tui_layers_snapshots/``.
"""

from __future__ import annotations

import pytest

from corefreport.tui import layermodel as L
from corefreport.tui import model as M
from corefreport.tui.app import CorefApp

from test_ua_layer_views import scored

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def _row(ev, target):
    return next(i for i, r in enumerate(M.total_rows(ev, L.layer_total_rows(ev))) if r.target == target)


def _open(target, *keys):
    async def run_before(pilot):
        pilot.app.browser.table.move_cursor(row=_row(pilot.app.ev, target))
        await pilot.pause()
        await pilot.press("enter", *keys)
        await pilot.pause()
    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_totals_with_the_layer_rows(snap_compare, size):
    """The cursor on the last layer row (DD chains): DD CoNLL and the layer rows above it, each
    with its outcome counts."""
    async def run_before(pilot):
        pilot.app.browser.table.move_cursor(row=_row(pilot.app.ev, ("layer", "deixis")))
        await pilot.pause()
    assert snap_compare(CorefApp(scored()), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_bridging_pairs(snap_compare, size):
    """The pairs; the detail: the 'same entity' pair (the second row) in its sentences."""
    assert snap_compare(CorefApp(scored()), terminal_size=size, run_before=_open(("layer", "bridging"), "down"))


@pytest.mark.parametrize("size", SIZES)
def test_dd_chains(snap_compare, size):
    assert snap_compare(CorefApp(scored()), terminal_size=size, run_before=_open(("layer", "deixis")))


@pytest.mark.parametrize("size", SIZES)
def test_non_referring_missed_full_screen(snap_compare, size):
    """The missed non-referring 'It' opened (Enter) full screen."""
    assert snap_compare(CorefApp(scored()), terminal_size=size, run_before=_open(("layer", "nonref"), "down", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_skipped_bridging_pairs(snap_compare, size):
    assert snap_compare(CorefApp(scored()), terminal_size=size, run_before=_open(("layer", "skipped")))
