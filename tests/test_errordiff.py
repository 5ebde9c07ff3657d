"""Two systems' errors side by side (issue 38, review 2026-11-29 F6): the Kummerfeld & Klein errors
only the system makes, only the baseline makes and both make — in ``compare``'s JSON, its
``--links`` file and the browser — and the key entities whose coverage changed.

The matching is checked against an independent count written here: each system's error rows as
``corefreport score KEY SYSTEM -a errors -f json`` prints them (scored alone, no comparison), an
error of rules and one of ml being the same when their document, class and mentions coincide,
matched as multisets."""

from __future__ import annotations

import io
import json
from collections import Counter
from functools import lru_cache

import pytest
from typer.testing import CliRunner

from conftest import shared_path
from corefreport.cli import app
from corefreport.model import Chain, Document, Mention
from corefreport.scoring.errordiff import Cover, changed, document_changes

KEY = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
XR = shared_path("data", "xrenner", "conll2012")
SYSTEMS = {"rules": XR / "rules-gum.conll", "ml": XR / "ml-gum.conll"}
CLASSES = ("Span Error", "Conflated Entities", "Extra Mention", "Extra Entity", "Divided Entity", "Missing Mention",
           "Missing Entity")

# The independent count below, on GUM (20 documents) vs xrenner rules (baseline) and ml, written out:
# class: (only ml, only rules, both)
EXPECTED = {
    "Span Error": (2, 1, 182),
    "Conflated Entities": (68, 447, 358),
    "Extra Mention": (1, 118, 143),
    "Extra Entity": (11, 15, 34),
    "Divided Entity": (196, 112, 513),
    "Missing Mention": (2, 1, 180),
    "Missing Entity": (2, 0, 27),
}


def _run(*args: str) -> str:
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


@lru_cache(maxsize=1)
def independent() -> dict[str, tuple[int, int, int]]:
    """Per class: (only ml, only rules, both), from each system's own error rows."""
    keyed = {}
    for name, path in SYSTEMS.items():
        rows = json.loads(_run("score", str(KEY), str(path), "-a", "errors", "-f", "json", "-q"))["errors"]["rows"]
        keyed[name] = Counter((r["doc_id"], r["class"], tuple(sorted(tuple(m) for m in r["mentions"]))) for r in rows)
    out = {}
    for cls in CLASSES:
        a = Counter({k: n for k, n in keyed["rules"].items() if k[1] == cls})
        b = Counter({k: n for k, n in keyed["ml"].items() if k[1] == cls})
        both = sum((a & b).values())
        out[cls] = (sum(b.values()) - both, sum(a.values()) - both, both)
    return out


@lru_cache(maxsize=1)
def compared() -> dict:
    return json.loads(_run("compare", str(KEY), f"rules={SYSTEMS['rules']}", f"ml={SYSTEMS['ml']}", "-a", "errors",
                           "--bootstrap", "50", "--randomization", "50", "-f", "json", "-q"))


def test_the_independent_count_is_the_one_written_here():
    assert independent() == EXPECTED


def test_compare_matches_errors_as_the_independent_count():
    out = compared()
    got = out["error_matches"]["ml"]["counts"]
    assert {c: (got[c]["only_system"], got[c]["only_baseline"], got[c]["both"]) for c in CLASSES} == EXPECTED
    for d in out["errors"]["ml"]:  # only + both = each system's count of the class (the tested counts)
        only_ml, only_rules, both = EXPECTED[d["class"]]
        assert (d["count"]["baseline"], d["count"]["system"]) == (only_rules + both, only_ml + both)


def test_links_file_lists_every_error_with_its_class_and_whose(tmp_path):
    for name in ("links.jsonl", "links.csv"):
        _run("compare", str(KEY), f"rules={SYSTEMS['rules']}", f"ml={SYSTEMS['ml']}", "-a", "errors", "--bootstrap",
             "0", "--randomization", "0", "--links", str(tmp_path / name), "-q", "-o", str(tmp_path / f"{name}.txt"))
    rows = [json.loads(x) for x in (tmp_path / "links.jsonl").read_text(encoding="utf-8").splitlines()]
    errors = [r for r in rows if r["analysis"] == "errors"]
    counts = Counter((r["error_class"], r["errors"]) for r in errors)
    for cls, (only_ml, only_rules, both) in EXPECTED.items():
        assert (counts[(cls, "only_system")], counts[(cls, "only_baseline")], counts[(cls, "both")]) == \
            (only_ml, only_rules, both)
    one = next(r for r in errors if r["errors"] == "only_system" and r["error_class"] == "Conflated Entities")
    assert one["system"] == "ml" and one["baseline"] == "rules" and one["mentions"] and one["text"]
    import csv

    table = list(csv.DictReader((tmp_path / "links.csv").open(encoding="utf-8")))
    assert Counter(r["errors"] for r in table if r["analysis"] == "errors") == \
        Counter(r["errors"] for r in errors)
    assert {"error_class", "errors", "mentions"} <= set(table[0])


# ---------------------------------------------------------------------------------------------
# What changed per key entity
# ---------------------------------------------------------------------------------------------

def _doc(chains: list[list[int]]) -> Document:
    return Document("d", [f"w{i}" for i in range(12)], [0],
                    chains=[Chain(str(i + 1), [Mention(t, t) for t in c]) for i, c in enumerate(chains)])


def test_entity_changes_on_a_small_document():
    """Key entities 1 = {0, 2, 4}, 2 = {6, 8}, 3 = {9, 11}. Baseline: 1 whole, 2 and 3 joined, 4 {10}
    spurious. System: 1 split in two, 2 alone, 3 not resolved. Counted by hand: 1 split (1 → 2
    pieces), 2 unmerged (joined 1 → 0), 3 lost."""
    key = _doc([[0, 2, 4], [6, 8], [9, 11]])
    a = _doc([[0, 2, 4], [6, 8, 9, 11, 10]])
    b = _doc([[0, 2], [4], [6, 8], [9], [11]])
    n, rows = document_changes(key, a, b)
    assert n == 3
    assert [(r.label, r.kinds) for r in rows] == [("1", ("split",)), ("2", ("unmerged",)), ("3", ("lost",))]
    assert rows[0].baseline == Cover(3, 1, 3, 0) and rows[0].system == Cover(3, 2, 2, 0)
    assert rows[1].baseline.joined == 1 and rows[1].system.joined == 0
    back = document_changes(key, b, a)[1]  # the other way round: reunited, merged, newly found
    assert [r.kinds for r in back] == [("reunited",), ("merged",), ("newly found",)]
    assert changed(Cover(0, 0, 0, 0), Cover(1, 1, 1, 0)) == ()  # resolved by neither: no change


def _resolved(path) -> int:
    """Key entities of two or more mentions that the response resolves (two of their mentions in one
    response chain), counted from the files alone."""
    from corefreport.io import load_corpus

    key, resp = load_corpus(str(KEY)), load_corpus(str(path))
    by_match = {}
    for doc_id, d in resp.documents.items():
        by_match[doc_id.split("; part")[0]] = d
    n = 0
    for doc_id, kd in key.documents.items():
        rd = resp.documents.get(doc_id) or by_match.get(doc_id.split("; part")[0])
        chain_of = {}
        for j, c in enumerate(rd.chains if rd else []):
            for m in c.mentions:
                chain_of.setdefault((m.start, m.end), j)
        for c in kd.chains:
            spans = {(m.start, m.end) for m in c.mentions}
            if len(spans) < 2:
                continue
            held = Counter(chain_of[s] for s in spans if s in chain_of)
            n += max(held.values(), default=0) >= 2
    return n


def test_entity_changes_on_gum_agree_with_the_resolved_entities_counted_from_the_files():
    out = compared()["entity_changes"]["ml"]
    counts = out["counts"]
    assert out["entities"] == 775  # key entities of two or more mentions in GUM's 20 documents
    assert counts == {"newly found": 5, "lost": 36, "split": 55, "reunited": 22, "merged": 31, "unmerged": 142}
    rules, ml = _resolved(SYSTEMS["rules"]), _resolved(SYSTEMS["ml"])
    assert counts["newly found"] - counts["lost"] == ml - rules
    for e in out["changed"]:
        assert set(e["changes"]) <= set(counts) and e["changes"]
        if "split" in e["changes"]:
            assert e["system"]["pieces"] > e["baseline"]["pieces"]
        if "merged" in e["changes"]:
            assert e["system"]["joined"] > e["baseline"]["joined"]
    emperor = next(e for e in out["changed"] if e["name"] == "Emperor Norton")
    assert emperor["mentions"] == 77 and emperor["changes"] == ["split", "unmerged"]


def test_markdown_has_the_tables():
    md = _run("compare", str(KEY), f"rules={SYSTEMS['rules']}", f"ml={SYSTEMS['ml']}", "-a", "errors", "--bootstrap",
              "0", "--randomization", "0", "-f", "markdown", "-q")
    assert "### The same errors? ml vs rules (Kummerfeld & Klein 2013)" in md
    assert "| Conflated Entities | 68 | 447 | 358 |" in md
    assert "| all | 282 | 694 | 1437 |" in md
    assert "### Key entities that changed: ml vs rules" in md and "| lost | 36 |" in md
    assert "| Emperor Norton | GUM_bio_emperor | 77 | 8 | 9 | 5 | 3 | split, unmerged |" in md


# ---------------------------------------------------------------------------------------------
# The browser
# ---------------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def gum_systems():
    from dataclasses import replace

    from studies import systems_node
    from test_tui_systems import tui_settings

    settings = replace(tui_settings(), analyses=("errors",))
    return systems_node(str(KEY), {"rules": str(SYSTEMS["rules"]), "ml": str(SYSTEMS["ml"])}, settings,
                        bootstrap=0, randomization=0)


def test_browser_lists_a_class_in_three_groups_and_shows_both_systems():
    from corefreport.tui import pairmodel as P

    sy = gum_systems()
    errors = P.errors_view(sy, "ml")
    conflated = next(i for i, e in enumerate(errors.items) if e.cls == "Conflated Entities")
    assert errors.plain()[conflated][5:7] == ["68", "447"]  # only ml, only rules
    view = P.error_list_view(sy, "ml", "Conflated Entities")
    sides = [it.side for it in view.items]
    assert Counter(sides) == {"only_system": 68, "only_baseline": 447, "both": 358}
    assert sides == sorted(sides, key=["only_system", "only_baseline", "both"].index)  # three groups in order
    assert "68 only ml (red), 447 only rules (green), 358 both" in view.note
    only_ml = view.items[0]
    text = "\n".join(str(x) if not hasattr(x, "plain") else x.plain
                     for x in P.error_pair_detail(sy, "ml", only_ml, 100).renderables)
    assert "only ml" in text and "rules makes no Conflated Entities error with these mentions" in text
    both = next(it for it in view.items if it.side == "both")
    assert both.baseline is not None and both.system is not None
    entities = P.entities_view(sy, "ml")
    assert len(entities) == 235 and entities.items[0].name == "Emperor Norton"
    assert entities.plain()[0][3:] == ["8→9", "5→3", "split, unmerged"]
    assert "5 newly found, 36 lost, 55 split" in entities.note
    rows = P.total_rows(sy, "ml")
    assert rows[-1].label == "key entities changed" and rows[-1].counts == (235, 775)


def test_browser_drills_from_a_class_to_one_error_and_its_text():
    import asyncio

    from corefreport.tui.app import CorefApp
    from corefreport.tui.document import DocumentScreen
    from corefreport.tui.pages.systems import ErrorListPage, ErrorPage, ErrorsPage

    async def run():
        app = CorefApp(gum_systems())
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = app.systems_screen
            await pilot.press("x")
            await pilot.pause()
            assert isinstance(screen.page, ErrorsPage)
            screen.table.move_cursor(1)  # Conflated Entities
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(screen.page, ErrorListPage) and screen.page.cls == "Conflated Entities"
            from rich.console import Console

            console = Console(width=116, record=True, file=io.StringIO())
            console.print(app.screen.query_one("#sys-detail").content)
            detail = console.export_text()
            assert detail.startswith(" only ml  Conflated Entities")  # the first of the three groups
            assert "rules makes no Conflated Entities error with these mentions" in detail
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(screen.page, ErrorPage)
            await pilot.press("v")
            await pilot.pause()
            assert isinstance(app.screen, DocumentScreen)

    asyncio.run(run())
