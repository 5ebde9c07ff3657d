"""Snapshots of every page of the many-system browser (``corefreport tui KEY ml=… rules=…``) at
80×24 and 120×40: the bundled example's key, xrenner's ml/gum (the example's response) and its
rules/gum output for the same documents (tests/data/systems/).

Update after an intended change with ``pytest tests/test_tui_systems_snapshots.py --snapshot-update``
and look at the SVGs in ``tests/__snapshots__/test_tui_systems_snapshots/``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pytest

from corefreport.cli import example_paths
from studies import systems_node, systems_nodes
from corefreport.tui import pairmodel as P
from corefreport.tui.app import CorefApp as SystemsApp

from test_tui_systems import RULES, systems, tui_settings

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@lru_cache(maxsize=1)
def with_errors() -> P.Systems:
    key, ml = example_paths()
    settings = replace(tui_settings(), analyses=tui_settings().analyses + ("errors",))
    return systems_node(key, {"ml": ml, "rules": RULES}, settings)


def row_of(label: str, sy: P.Systems | None = None) -> int:
    return next(i for i, r in enumerate(P.totals_view(sy or systems(), "rules").items) if r.label == label)


def moves(*steps):
    """Pilot steps: ``("row", N)`` puts the cursor on row N, a string presses that key."""
    async def run_before(pilot):
        await pilot.pause()
        for s in steps:
            if isinstance(s, tuple):
                pilot.app.systems_screen.table.move_cursor(s[1])
            else:
                await pilot.press(s)
            await pilot.pause()
    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_totals_side_by_side(snap_compare, size):
    assert snap_compare(SystemsApp(systems()), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_first_numbers_before_the_analyses(snap_compare, size):
    key, ml = example_paths()
    staged = systems_nodes(key, {"ml": ml, "rules": RULES}, tui_settings())[:-1]
    assert snap_compare(SystemsApp(staged[-1]), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_classes_side_by_side(snap_compare, size):
    assert snap_compare(SystemsApp(systems()), terminal_size=size,
                        run_before=moves(("row", row_of("ARCS 1")), "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_types_side_by_side(snap_compare, size):
    assert snap_compare(SystemsApp(systems()), terminal_size=size,
                        run_before=moves(("row", row_of("ARCS 1")), "enter", "b"))


@pytest.mark.parametrize("size", SIZES)
def test_transitions(snap_compare, size):
    assert snap_compare(SystemsApp(systems()), terminal_size=size,
                        run_before=moves(("row", row_of("ARCS 1 right only")), "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_changed_links_with_both_details(snap_compare, size):
    assert snap_compare(SystemsApp(systems()), terminal_size=size,
                        run_before=moves(("row", row_of("ARCS 1 right only")), "enter", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_one_changed_link(snap_compare, size):
    assert snap_compare(SystemsApp(systems()), terminal_size=size,
                        run_before=moves(("row", row_of("ARCS 1 right only")), "enter", "down", "down", "enter",
                                         "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_documents_by_delta(snap_compare, size):
    assert snap_compare(SystemsApp(systems()), terminal_size=size, press=["d"])


@pytest.mark.parametrize("size", SIZES)
def test_error_classes_of_both(snap_compare, size):
    assert snap_compare(SystemsApp(with_errors()), terminal_size=size, press=["x"])


@pytest.mark.parametrize("size", SIZES)
def test_errors_of_a_class_in_three_groups(snap_compare, size):
    """x, Enter on Divided Entity: the errors only rules makes (red), only ml makes (green), both
    (yellow); the detail pane shows both systems on the highlighted one."""
    assert snap_compare(SystemsApp(with_errors()), terminal_size=size, run_before=moves("x", ("row", 4), "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_one_error_with_both_systems(snap_compare, size):
    assert snap_compare(SystemsApp(with_errors()), terminal_size=size,
                        run_before=moves("x", ("row", 4), "enter", "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_key_entities_changed(snap_compare, size):
    """The totals' last row: the key entities split, merged, newly found or lost between the systems."""
    assert snap_compare(SystemsApp(with_errors()), terminal_size=size,
                        run_before=moves(("row", row_of("key entities changed", with_errors())), "enter"))


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare, size):
    assert snap_compare(SystemsApp(systems()), terminal_size=size, press=["question_mark"])


@pytest.mark.parametrize("size", SIZES)
def test_document_with_the_key_and_both_systems(snap_compare, size):
    """v on a changed link: the document's running text with the key's [N … ], the baseline's
    {N … } and the system's <N … > mentions, the referent's entities in reverse video in all three."""
    assert snap_compare(SystemsApp(systems()), terminal_size=size,
                        run_before=moves(("row", row_of("ARCS 1 right only")), "enter", "enter", "down", "v"))


@pytest.mark.parametrize("size", SIZES)
def test_document_disagreements_only(snap_compare, size):
    """D in the document view: only the sentences with a mention the key and the systems do not all
    agree on, without the brackets of those they agree on."""
    assert snap_compare(SystemsApp(systems()), terminal_size=size,
                        run_before=moves(("row", row_of("ARCS 1 right only")), "enter", "enter", "down", "v", "D"))


@pytest.mark.parametrize("size", SIZES)
def test_changed_links_searched(snap_compare, size):
    """/ on the totals: every changed link of ARCS 1 whose referent is the word "it"."""
    assert snap_compare(SystemsApp(systems()), terminal_size=size,
                        run_before=moves("slash", "i", "n", ":", "m", "e", "n", "t", "i", "o", "n", "space", "i", "t",
                                         "enter"))
