"""The browser's level above the totals (issue 28): ``tui --datasets`` and ``tui KEY RESPONSE
--subsets genre`` open on a page of datasets (groups) with their scores and the macro row; Enter
opens that row's usual browser, Escape on its totals comes back.

The numbers on the page are ``score --datasets`` / ``score --subsets``'s (the CRAC ranking of
corefud-scorer v1.2 per dataset, recorded in tests/data; the reference scorer's per-genre CoNLL on
GUM vs xrenner as the issue gives it); each browser's totals are the row's; each file is read once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from conftest import SHARED, one_error_line
from corefreport.cli import example_paths
from corefreport.io import load_corpus
from corefreport.model import Corpus
from corefreport.present.datasets import datasets_table
from corefreport.present.numbers import cell
from corefreport.study.datasets import evaluate_datasets, single_variant
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.options import settings_from
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.settings import Settings
from corefreport.tui import datasetmodel as D
from corefreport.tui.app import CorefApp
from corefreport.tui.messages import Scored as LevelReady
from reference_values import genre_cells, ranking_cells
from studies import level_nodes

HERE = Path(__file__).parent
FIXTURE = HERE / "data" / "corefud"
SETTINGS = Settings(metrics=ALL_METRICS, analyses=("arcs", "typed"))


def part(c: Corpus, ids: list[str]) -> Corpus:
    return Corpus({i: c.documents[i] for i in ids if i in c.documents}, c.source, c.format)


def example_level(final: bool = True, names: tuple[str, ...] = ("first", "rest")) -> D.Level:
    """The bundled example as two datasets: its first document, and the other two."""
    key, resp = example_paths()
    kc, rc = load_corpus(key, key=True), load_corpus(resp)
    ids = list(kc.documents)
    dev = evaluate_datasets([("first", part(kc, ids[:1]), part(rc, ids[:1])),
                             ("rest", part(kc, ids[1:]), part(rc, ids[1:]))], single_variant(SETTINGS), browse=True)
    return D.Level("datasets", "dataset", dev, {d.name: d.evaluations[""] for d in dev.datasets}, names, final)


def test_the_page_is_score_datasets_table_with_the_headline_first():
    level = example_level()
    view = D.level_view(level)
    t = datasets_table(level.scores)
    assert view.columns[:3] == ("dataset", "docs", "CoNLL")
    want = {r[0]: {h: cell(v, h) for h, v in zip(t.header, r)} for r in t.rows}
    for row in view.plain(full=True):
        name = row[0]
        assert row[2] == want[name]["conll"] and row[3] == want[name]["muc"]
    assert [r[0] for r in view.plain(full=False)] == ["first ›", "rest ›", "avg"]  # Enter opens the datasets
    # the browsed evaluation keeps its rows (the browser's), the table's numbers are its own
    first = level.evaluations["first"]
    assert first.rows and view.plain()[0][2] == f"{100 * first.conll:.2f}"


def test_a_dataset_still_scored_is_listed_waiting():
    level = example_level(final=False, names=("first", "rest", "later"))
    rows = D.level_view(level).plain(full=False)
    assert [r[0] for r in rows] == ["first ›", "rest ›", "later", "avg"]
    assert set(rows[2][1:]) == {"…"}
    later = D.level_rows(level)[2][2]
    assert D.opens(level, later) is None and "2/3 datasets ready" in D.level_view(level).note


def run(coro):
    return asyncio.run(coro)


def test_enter_opens_the_dataset_browser_and_escape_comes_back():
    level = example_level()

    async def go():
        app = CorefApp(level)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            listed = app.shown()
            await pilot.press("down", "enter")
            await pilot.pause()
            assert app.screen is app.browser and app.ev is level.evaluations["rest"]
            inside = app.shown()
            first_browser = app.browser
            await pilot.press("d")  # the usual pages work inside
            await pilot.pause()
            assert app.browser.page.name == "documents"
            await pilot.press("escape", "escape")
            await pilot.pause()
            assert app.screen is app.list_screen and app.shown() == listed
            await pilot.press("enter")  # the same dataset again: its browser as it was left
            await pilot.pause()
            assert app.browser is first_browser
            await pilot.press("escape")
            await pilot.press("down", "enter")  # avg: a mean, not a browser
            await pilot.pause()
            assert app.screen is app.list_screen
        return inside

    inside = run(go())

    async def alone():
        app = CorefApp(level.evaluations["rest"])
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            return app.shown()

    assert inside == run(alone())  # the dataset's totals are its own browser's


def test_a_row_asked_for_before_it_is_scored_opens_when_it_comes():
    full = example_level()
    waiting = D.Level("datasets", "dataset", full.scores, {"first": full.evaluations["first"]}, ("first", "rest"))

    async def go():
        app = CorefApp(waiting)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("down", "enter")
            await pilot.pause()
            assert app.screen is app.list_screen and app.list_screen.pending == "rest"
            app.post_message(LevelReady(full))
            await pilot.pause()
            await pilot.pause()
            assert app.screen is app.browser and app.ev is full.evaluations["rest"]

    run(go())


def test_datasets_producer_reads_each_file_once_and_ranks_as_corefud_scorer(tmp_path, corefud_gum_pairs,
                                                                            monkeypatch):
    import corefreport.study.read as io

    m = tmp_path / "datasets.tsv"
    m.write_text(f"gum\t{corefud_gum_pairs / 'key.conllu'}\t{corefud_gum_pairs / 'response-xrenner.conllu'}\n"
                 f"fixture\t{FIXTURE / 'crac.key.conllu'}\t{FIXTURE / 'crac.response.conllu'}\n")
    reads: list[str] = []
    real = io.load_corpus
    monkeypatch.setattr(io, "load_corpus", lambda path, *a, **k: reads.append(Path(path).name) or real(path, *a, **k))
    settings = settings_from(preset="crac", default_metrics=ALL_METRICS, analyses=("arcs",))
    seen = [D.level_of(node) for node in level_nodes(str(m), [], settings, datasets=True)]
    level = seen[-1]
    assert sorted(reads) == sorted(["key.conllu", "response-xrenner.conllu", "crac.key.conllu",
                                    "crac.response.conllu"])
    assert [len(x.evaluations) for x in seen] == [1, 2] and seen[-1].final and not seen[0].final
    rows = {r[0]: r[1:] for r in D.level_view(level).plain(full=True)}
    # corefud-scorer v1.2 per dataset and variant (tests/data/corefud_gum/expected.json, corefud/scorer_output.json)
    # … and CRAC 2026's empty nodes (ARC F1): GUM's key has them, xrenner's response keeps them all
    assert rows == {"gum": [*ranking_cells("gum"), "100.00"], "fixture": [*ranking_cells("fixture"), "n/a"],
                    "avg": [*ranking_cells("avg"), "100.00"]}
    gum = level.evaluations["gum"]  # the browser's: head match without singletons, with its rows
    assert gum.settings.match == "head" and gum.settings.singletons == "drop" and gum.rows
    assert f"{100 * gum.conll:.2f}" == ranking_cells("gum")[0]


@pytest.mark.skipif(not (SHARED / "data" / "xrenner").is_dir(), reason="needs ../shared")
def test_groups_producer_per_genre_reference_values_and_each_group_browser(monkeypatch):
    import corefreport.study.read as T

    key = SHARED / "data" / "gum" / "derived" / "conll2012" / "gum.conll"
    resp = SHARED / "data" / "xrenner" / "conll2012" / "ml-gum.conll"
    reads: list[str] = []
    real = T.load_corpus
    monkeypatch.setattr(T, "load_corpus", lambda path, *a, **k: reads.append(Path(path).name) or real(path, *a, **k))
    settings = Settings(metrics=("muc", "bcub", "ceafe"), analyses=("arcs",))
    level = D.level_of(level_nodes(str(key), [str(resp)], settings, subsets=["genre"])[-1])
    assert reads == ["gum.conll", "ml-gum.conll"]
    view = D.level_view(level)
    conll = {r[0]: r[view.columns.index("CoNLL")] for r in view.plain(full=True)}
    # the reference scorer's per-document counts summed per genre (issue 28)
    assert conll == {**{f"GUM_{g}": v for g, v in genre_cells().items() if g != "macro"}, "micro": "65.34",
                     "macro": genre_cells()["macro"]}
    whole = evaluate(load_corpus(str(key), key=True), load_corpus(str(resp)), settings)
    for name, ev in level.evaluations.items():  # each group's browser: its own documents, its row's numbers
        assert f"{100 * ev.conll:.2f}" == conll[name] and ev.rows
        if name != D.MICRO:
            assert {d.doc_id.split("_")[1] for d in ev.documents} == {name.split("_")[1]}
    assert level.evaluations[D.MICRO].metrics["muc"] == whole.metrics["muc"]


def test_command_line_errors(tmp_path):
    from typer.testing import CliRunner

    from corefreport.cli import app

    runner = CliRunner()
    key, resp = example_paths()
    assert "separately" in one_error_line(runner.invoke(app, ["tui", "--datasets", "--subsets", "genre", key, resp]))
    assert "once" in one_error_line(runner.invoke(app, ["tui", key, resp, "--subsets", "genre", "--subsets",
                                                        "length"]))
    assert "takes KEY and RESPONSE" in one_error_line(runner.invoke(app, ["tui", key, "--subsets", "genre"]))
    missing = one_error_line(runner.invoke(app, ["tui", "--datasets", str(tmp_path / "none.tsv")]))
    assert "none.tsv" in missing
    (tmp_path / "m.tsv").write_text(f"ex\t{key}\t{resp}\n")
    assert "interactive terminal" in one_error_line(runner.invoke(app, ["tui", "--datasets", str(tmp_path / "m.tsv")]))
