"""Snapshots of ``corefreport tui`` pages at 80×24 and 120×40 (pytest-textual-snapshot).

Update after an intended change with ``pytest tests/test_tui_snapshots.py --snapshot-update`` and
look at the SVGs in ``tests/__snapshots__/test_tui_snapshots/``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pytest

from conftest import go_to
from corefreport.cli import example_paths
from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.settings import Settings, Signature
from corefreport.tui import model as M
from corefreport.tui.app import CorefApp

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


@lru_cache(maxsize=1)
def example():
    key, resp = example_paths()
    ev = evaluate(load_corpus(key), load_corpus(resp), Settings(metrics=ALL_METRICS, analyses=("arcs", "typed")))
    # the package version is part of the signature; keep it out of the pictures
    return replace(ev, signature=Signature(tuple((k, "X" if k == "version" else v) for k, v in ev.signature.fields)))


@pytest.mark.parametrize("size", SIZES)
def test_totals(snap_compare, size):
    assert snap_compare(CorefApp(example()), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_classes(snap_compare, size):
    index = next(i for i, r in enumerate(M.total_rows(example())) if r.target == ("analysis", "typed"))

    async def run_before(pilot):
        await go_to(pilot, index)
        await pilot.press("enter")

    assert snap_compare(CorefApp(example()), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_links_with_detail(snap_compare, size):
    ev = example()
    index = next(i for i, r in enumerate(M.total_rows(ev)) if r.target == ("analysis", "immediate"))
    prp = next(i for i, g in enumerate(M.group_view(ev, M.Scope("immediate"), "cls").items) if g.key == "PRP$")

    async def run_before(pilot):
        await go_to(pilot, index)
        await pilot.press("enter")
        await go_to(pilot, prp)
        await pilot.press("enter", "enter")

    assert snap_compare(CorefApp(ev), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_one_link_with_both_chains(snap_compare, size):
    """One link full screen: why, the sentence(s), and the key and response chains side by side."""
    ev = example()
    index = next(i for i, r in enumerate(M.total_rows(ev)) if r.target == ("analysis", "immediate"))

    async def run_before(pilot):
        await go_to(pilot, index)
        await pilot.press("enter", "enter", "enter", "enter")

    assert snap_compare(CorefApp(ev), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_documents_sorted_by_a_column(snap_compare, size):
    """The documents, sorted by MUC F1 descending (3, 3: ▼ in the header)."""
    assert snap_compare(CorefApp(example()), terminal_size=size, press=["d", "3", "3"])


@lru_cache(maxsize=1)
def typed_gum():
    """GUM's typed links (WebAnno TSV) against xrenner's ml: link types read from each side, so the
    confusion matrix can be off its diagonal (under the example's derived scheme it cannot: c says so)."""
    from conftest import shared_path

    key = load_corpus(str(shared_path("data", "gum", "coref", "gum", "tsv")))
    resp = load_corpus(str(shared_path("data", "xrenner", "ml", "gum")), "webanno")
    ev = evaluate(key, resp, Settings(metrics=("muc",), analyses=("typed",), scheme="gum"))
    return replace(ev, signature=Signature(tuple((k, "X" if k == "version" else v) for k, v in ev.signature.fields)))


@pytest.mark.parametrize("size", SIZES)
def test_typed_confusion_by_type(snap_compare, size):
    """The confusion matrix by link type, the cell cursor moved right once."""
    assert snap_compare(CorefApp(typed_gum()), terminal_size=size, press=["c", "b", "down", "right"])


@pytest.mark.parametrize("size", SIZES)
def test_typed_confusion_empty_cell_says_why(snap_compare, size):
    """Enter on an empty cell (·) of the confusion matrix: the status line says why it is empty."""
    ev = typed_gum()
    view = M.confusion_view(ev)
    row, col = next((i, j) for i, r in enumerate(view.items) for j, c in enumerate(view.columns[1:-1], 1)
                    if not r.counts.get(c, 0))

    async def run_before(pilot):
        await pilot.press("c")
        await pilot.pause()
        pilot.app.browser.table.move_cursor(row=row)
        pilot.app.browser.table.move_column(col)
        await pilot.press("enter")
        await pilot.pause()

    assert snap_compare(CorefApp(ev), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_no_confusion_under_a_derived_scheme(snap_compare, size):
    """c on the example (scheme derived: both sides' types come from the referent itself, so the
    matrix cannot leave its diagonal): not offered, the status line says why."""
    assert snap_compare(CorefApp(example()), terminal_size=size, press=["c"])


@pytest.mark.parametrize("size", SIZES)
def test_help(snap_compare, size):
    assert snap_compare(CorefApp(example()), terminal_size=size, press=["question_mark"])


@pytest.mark.parametrize("size", SIZES)
def test_typed_confusion(snap_compare, size):
    assert snap_compare(CorefApp(typed_gum()), terminal_size=size, press=["c"])


def on_his_link(key: str):
    """The pilot steps to the first link of ARCS 1's search for the mention "his", then ``key``."""
    index = next(i for i, r in enumerate(M.total_rows(example())) if r.target == ("analysis", "immediate"))

    async def run_before(pilot):
        await go_to(pilot, index)
        await pilot.press("enter")
        await pilot.press("slash", "h", "i", "s", "space", "i", "n", ":", "m", "e", "n", "t", "i", "o", "n", "enter")
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", SIZES)
def test_same_referent_in_every_analysis(snap_compare, size):
    """a on a link: the same referent in ARCS 1, 2, 3 and the typed evaluation, the analysis column
    saying which row is from which."""
    assert snap_compare(CorefApp(example()), terminal_size=size, run_before=on_his_link("a"))


@lru_cache(maxsize=1)
def example_errors():
    key, resp = example_paths()
    ev = evaluate(load_corpus(key), load_corpus(resp), Settings(analyses=("errors",)))
    return replace(ev, signature=Signature(tuple((k, "X" if k == "version" else v) for k, v in ev.signature.fields)))


@pytest.mark.parametrize("size", SIZES)
def test_error_classes_per_document(snap_compare, size):
    """The error classes' screen (x) per document (d): a page like every other (help, search, sort, export)."""
    assert snap_compare(CorefApp(example_errors()), terminal_size=size, press=["x", "d"])


@pytest.mark.parametrize("size", SIZES)
def test_error_classes_searched_and_sorted(snap_compare, size):
    """Every error with the word "his" (/his), sorted by sentence, last first (3, 3)."""
    assert snap_compare(CorefApp(example_errors()), terminal_size=size,
                        press=["x", "slash", "h", "i", "s", "enter", "3", "3"])


@pytest.mark.parametrize("size", SIZES)
def test_document_text(snap_compare, size):
    """v on a link: the document's running text, key [N … ] and response {N … }, the referent's
    entities in reverse video (the first link of ARCS 1's search for "his")."""
    assert snap_compare(CorefApp(example()), terminal_size=size, run_before=on_his_link("v"))
