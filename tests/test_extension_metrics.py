"""Adding a metric through the public extension point (docs/architecture.md, "Adding a metric"): one
``register_metric`` call with the metric's shape — how it is computed per document (``inputs``),
its statistics' columns, formula and empty value — and it is computed by ``--metric KEY`` and
shown by every view: ``score``'s table and JSON, the browser's totals, the report's metrics table.

Two shapes the built-in registry already has, registered from outside:

* a **BLANC-shaped** score (coreference and non-coreference links, eight counts, no one fraction):
  BLANC over the chains of two or more mentions, checked against BLANC's links counted here
  (Recasens & Hovy 2011; Luo et al. 2014 for system mentions);
* a **layer score** (the documents as read: a Universal Anaphora layer): bridging anaphors found
  with the key's relation label, checked against the fixture's five key and five response
  anaphors (four agree in span and label).
"""

from __future__ import annotations

import asyncio
import json
from itertools import combinations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.cli.output import example_paths
from corefreport.scoring import metrics as M
from corefreport.scoring.counts import Counts, counts_formula
from corefreport.scoring.metrics import BlancCounts, blanc_formula
from corefreport.scoring.registry import BLANC, COUNTS, Metric, register_metric, unregister_metric

HERE = Path(__file__).parent
UA_KEY, UA_RESPONSE = str(HERE / "data" / "ua_tui" / "key.ua"), str(HERE / "data" / "ua_tui" / "response.ua")


def blanc_ns(key, response, ct=None) -> BlancCounts:
    """BLANC over the chains of two or more mentions (both sides)."""
    return M.blanc([c for c in key if len(c) > 1], [c for c in response if len(c) > 1])


def bridging_labels(names, key, response, settings) -> dict:
    """Bridging anaphors with the key's relation: R = |K ∩ R| / |K|, P = |K ∩ R| / |R| over
    (anaphor span, relation) of the BRIDGING layer of the documents as read."""
    def pairs(doc):
        return {((c.mentions[0].start, c.mentions[0].end), c.label) for c in doc.layers.get("bridging", ())} \
            if doc is not None else set()

    k, r = pairs(key), pairs(response)
    hit = len(k & r)
    return {n: Counts(hit, len(k), hit, len(r)) for n in names}


BLANC_NS = Metric("blanc_ns", "BLANC (no singletons)", "BLANC$_{\\geq 2}$", "Luo et al. 2014", "standard", BLANC,
                  blanc_formula, blanc_ns, title="BLANC over chains of two or more mentions", inputs="chains",
                  empty=BlancCounts)
BRIDGING_REL = Metric("bridging_rel", "Bridging relation", "Bridging rel.", "Yu et al. 2022", "ua", COUNTS,
                      counts_formula, bridging_labels, title="bridging anaphors found with the key's relation",
                      inputs="layers")


@pytest.fixture
def registered():
    register_metric(BLANC_NS)
    register_metric(BRIDGING_REL)
    try:
        yield
    finally:
        unregister_metric("blanc_ns")
        unregister_metric("bridging_rel")


def links(chains) -> tuple[set, set]:
    """Coreference and non-coreference links among the mentions of ``chains`` (pairs of spans)."""
    of = {m: i for i, c in enumerate(chains) for m in c}
    coref, non = set(), set()
    for a, b in combinations(sorted(of), 2):
        (coref if of[a] == of[b] else non).add((a, b))
    return coref, non


def expected_blanc_ns() -> tuple[int, int, int, int, int, int]:
    """Correct / key / response coreference and non-coreference links, summed over the example's
    documents (chains of two or more mentions), counted here from the corpora."""
    from corefreport.study.read import corpus

    key, resp = example_paths()
    kc, rc = corpus(key, key=True), corpus(resp)
    out = [0] * 6
    for d in kc:
        k = [[(m.start, m.end) for m in c.mentions] for c in d.chains if len(c.mentions) > 1]
        r = [[(m.start, m.end) for m in c.mentions] for c in rc.documents[d.doc_id].chains if len(c.mentions) > 1]
        (kc_, kn), (rc_, rn) = links(k), links(r)
        for i, n in enumerate((len(kc_ & rc_), len(kc_), len(rc_), len(kn & rn), len(kn), len(rn))):
            out[i] += n
    return tuple(out)


def invoke(*args: str) -> str:
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


def test_a_blanc_shaped_metric_in_score_json_and_table(registered):
    key, resp = example_paths()
    data = json.loads(invoke("score", key, resp, "-m", "muc,blanc_ns", "-f", "json", "-q"))
    got = data["metrics"]["blanc_ns"]
    c, ck, cr, n, nk, nr = expected_blanc_ns()
    assert got["coref_links"] == {"correct": c, "key": ck, "response": cr}
    assert got["noncoref_links"] == {"correct": n, "key": nk, "response": nr}
    recall = (c / ck + n / nk) / 2
    assert got["recall"] == pytest.approx(recall, abs=1e-12) and "blanc_ns" in data["signature"]
    table = invoke("score", key, resp, "-m", "muc,blanc_ns", "-q")
    row = next(line for line in table.splitlines() if line.startswith("BLANC (no singletons)"))
    cells = [x.strip() for x in row.split("|")]
    assert cells[1] == f"{100 * recall:.2f}" and cells[4:] == ["", ""]  # two kinds of links: no one fraction
    latex = invoke("score", key, resp, "-m", "muc,blanc_ns", "-q", "-f", "latex")
    assert "BLANC$_{\\geq 2}$" in latex


def test_a_layer_score_in_score_json_and_table(registered):
    data = json.loads(invoke("score", UA_KEY, UA_RESPONSE, "-m", "bridging_rel", "-f", "json", "-q"))
    got = data["metrics"]["bridging_rel"]
    assert (got["recall_num"], got["recall_den"], got["precision_num"], got["precision_den"]) == (4, 5, 4, 5)
    table = invoke("score", UA_KEY, UA_RESPONSE, "-m", "bridging_rel,muc", "-q")
    row = next(line for line in table.splitlines() if line.startswith("Bridging relation"))
    assert [x.strip() for x in row.split("|")][1:] == ["80.00", "80.00", "80.00", "4/5", "4/5"]


def test_registered_metrics_in_the_browser_and_the_report(registered):
    from corefreport.report.model import build
    from corefreport.scoring.settings import Settings
    from corefreport.study.plan import Policy, pair_plan
    from corefreport.study.run import run
    from corefreport.tui.app import CorefApp

    key, resp = example_paths()
    ev = run(pair_plan(key, resp, Settings(metrics=("muc", "bcub", "ceafe", "blanc_ns")),
                       policy=Policy(rows=True, documents=True))).evaluation
    layer = run(pair_plan(UA_KEY, UA_RESPONSE, Settings(metrics=("bridging_rel",)), policy=Policy(documents=True)))

    async def shown(evaluation):
        app = CorefApp(evaluation)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            return app.shown()

    rows = {r[0].rstrip(" ›"): r for r in asyncio.run(shown(ev))}
    assert rows["BLANC (no singletons)"][3] == f"{100 * ev.metrics['blanc_ns'].f1:.2f}"
    assert "CoNLL" in rows  # the derived score of the built-in metrics, as before
    rows = {r[0].rstrip(" ›"): r for r in asyncio.run(shown(layer.evaluation))}
    assert rows["Bridging relation"][1:4] == ["80.00", "80.00", "80.00"]
    for evaluation, key_, label in ((ev, "blanc_ns", "BLANC (no singletons)"),
                                    (layer.evaluation, "bridging_rel", "Bridging relation")):
        section = build(evaluation).section("metrics")
        table = next(b for b in section.blocks if getattr(b, "title", "").startswith("Every standard metric"))
        assert key_ in [r[0] for r in table.rows], label


def test_registering_refuses_a_known_key_and_an_unknown_shape():
    from dataclasses import replace

    from corefreport.errors import SettingsError

    with pytest.raises(SettingsError, match="already registered"):
        register_metric(replace(BLANC_NS, key="muc"))
    with pytest.raises(SettingsError, match="inputs must be one of"):
        register_metric(replace(BLANC_NS, inputs="words"))


def test_an_unregistered_metric_is_refused():
    key, resp = example_paths()
    res = CliRunner().invoke(app, ["score", key, resp, "-m", "blanc_ns"])
    assert res.exit_code == 2 and "unknown metric 'blanc_ns'" in res.output
