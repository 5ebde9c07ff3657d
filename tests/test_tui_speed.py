"""What keeps the browser quick (issue 13's speed goals), as behaviour a test can check: the
command palette opens without rebuilding the browser's footer or indexing every type, and the
worker scores with the cyclic collector paused. The timings themselves are benchmarks
(bench/palette.py, bench/tui.py), not tests."""

from __future__ import annotations

import asyncio
import gc
from functools import lru_cache

from textual.command import CommandList, CommandPalette
from textual.widgets._footer import FooterKey

from corefreport.cli import example_paths
from studies import pair_nodes
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.settings import Settings
from corefreport.tui import model as M
from corefreport.tui.app import CorefApp

from test_tui_issue13 import gum

SETTINGS = Settings(metrics=ALL_METRICS, analyses=("arcs", "typed"))


@lru_cache(maxsize=1)
def example():
    key, response = example_paths()
    return pair_nodes(key, response, SETTINGS)[-1].evaluation


def run(coro):
    return asyncio.run(coro)


async def palette_options(pilot) -> list[str]:
    for _ in range(100):
        await pilot.pause(0.02)
        if isinstance(pilot.app.screen, CommandPalette) and pilot.app.screen.query_one(CommandList).option_count:
            break
    ol = pilot.app.screen.query_one(CommandList)
    return [str(ol.get_option_at_index(i).prompt).split("\n")[0] for i in range(ol.option_count)]


def test_the_palette_leaves_the_browser_footer_alone():
    """Textual republishes the browser's bindings when the palette is pushed over it; the footer
    (drawn under the palette) keeps its keys instead of rebuilding them: same widgets, same keys."""

    async def drive():
        app = CorefApp(example())
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(50):  # the footer is drawn once the totals are (later on a busy machine)
                await pilot.pause(0.1)
                before = list(app.browser.query(FooterKey))
                if before:
                    break
            keys = [k.key for k in before]
            assert {"escape", "d", "s", "b", "slash", "question_mark", "ctrl+p"} <= set(keys)
            await pilot.press("ctrl+p")
            await palette_options(pilot)
            await pilot.pause(0.2)
            assert list(app.browser.query(FooterKey)) == before  # not recomposed: the very same widgets
            await pilot.press("escape")
            await pilot.pause(0.2)
            assert app.screen is app.browser
            assert [k.key for k in app.browser.query(FooterKey)] == keys

    run(drive())


def test_the_footer_follows_bindings_that_change():
    """While scoring, the browser's own keys are not in force (check_action) and not shown; once the
    totals are shown they are: the footer rebuilds then."""
    import threading

    gate = threading.Event()
    ev = example()

    def produce(watch):
        from corefreport.study.nodes import Pair

        gate.wait(20)
        yield Pair("", ev)

    async def drive():
        app = CorefApp(stages=produce)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            shown = {k.key for k in app.browser.query(FooterKey)}
            assert "ctrl+p" in shown and not {"d", "s", "slash"} & shown
            gate.set()
            for _ in range(100):
                await pilot.pause(0.02)
                if app.analyses_ready:
                    break
            await pilot.pause(0.2)
            assert {"d", "s", "slash", "q"} <= {k.key for k in app.browser.query(FooterKey)}

    run(drive())


def test_palette_discovery_does_not_index_every_type(monkeypatch):
    """The palette's first page shows the exports and the first documents; the type index (a count
    over every outcome row) is made only when a search needs it (GUM gold vs xrenner: 20 documents)."""
    _, ev = gum()
    assert len(ev.documents) == 20
    calls = []
    real = M.type_index
    monkeypatch.setattr(M, "type_index", lambda e: calls.append(1) or real(e))

    async def drive():
        app = CorefApp(ev)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.2)
            await pilot.press("ctrl+p")
            shown = await palette_options(pilot)
            assert {"Export this table as CSV", "Export this table as JSON"} <= set(shown)
            assert f"Document {ev.documents[0].doc_id}" in shown
            assert calls == []
            app.screen.query_one("CommandInput").value = "Type him (class PRP,"
            await pilot.pause(0.4)
            shown = await palette_options(pilot)
            assert calls == [1]
            assert shown[0].startswith("Type him (class PRP, ")

    run(drive())


def test_the_worker_scores_with_the_collector_paused(monkeypatch):
    """The cyclic collector stays off from the read to the last analysis (the outcome rows are
    many small objects without cycles; collections over them cost the browser ~0.5 s of its 2 s on
    the 300-document pair), and is on again afterwards."""
    import corefreport.study.run as SR

    from studies import pair_stages

    seen = []
    real = SR.evaluation_stages

    def spy(*args, **kwargs):
        seen.append(gc.isenabled())
        for ev in real(*args, **kwargs):
            seen.append(gc.isenabled())
            yield ev

    monkeypatch.setattr(SR, "evaluation_stages", spy)
    key, response = example_paths()
    assert gc.isenabled()
    for node in pair_stages(key, response, SETTINGS)():
        seen.append(gc.isenabled())
    ev = node.evaluation
    assert seen and not any(seen)  # every evaluation and every stage handed over
    assert gc.isenabled()
    assert ev.rows and ev.complete


def test_the_first_numbers_are_folded_once_and_joined_to_the_rest(monkeypatch):
    """The TUI's first numbers (``on_stage``): the per-document metrics are folded first and handed
    over; the rest is folded next and joined to them — each document's standard metrics are computed
    once, and the result is the evaluation computed in one fold."""
    import json

    from corefreport.cli import example_paths
    from corefreport.io import load_corpus
    from corefreport.scoring import document as D
    from corefreport.scoring import evaluate as E
    from corefreport.scoring.registry import ALL_METRICS, STANDARD_METRICS
    from corefreport.scoring.settings import Settings

    key, response = example_paths()
    kc, rc = load_corpus(key, key=True), load_corpus(response)
    settings = Settings(metrics=ALL_METRICS, analyses=("arcs", "typed"))
    fresh = E.evaluate(kc, rc, settings)
    calls, stages = [], []
    real = D.DocumentScorer._standard
    monkeypatch.setattr(D.DocumentScorer, "_standard", lambda *a, **k: calls.append(1) or real(*a, **k))
    staged = E.evaluate(kc, rc, settings, on_stage=stages.append)
    assert len(calls) == len(kc)  # once per document
    assert [list(ev.metrics) for ev in stages] == [list(STANDARD_METRICS)] and not stages[0].complete
    assert json.dumps(stages[0].as_dict(per_doc=True)["metrics"]) == \
        json.dumps({k: v for k, v in fresh.as_dict(per_doc=True)["metrics"].items() if k in STANDARD_METRICS + ("conll",)})
    assert json.dumps(staged.as_dict(per_doc=True)) == json.dumps(fresh.as_dict(per_doc=True))
    assert staged.rows == fresh.rows
