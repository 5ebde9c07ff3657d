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
from pathlib import Path

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


def test_each_systems_counts_are_the_berkeley_analysers():
    """Each system's count of a class (only it + both) is what the Berkeley analyser printed for it
    on the same files, every key singleton kept (tests/data/kk/README.md), but for the one
    documented difference: rules' response span in two entities, one Conflated Entities more."""
    kk = Path(__file__).parent / "data" / "kk" / "counts"

    def printed(name: str) -> dict[str, int]:
        block = (kk / name).read_text(encoding="utf-8").split("Errors:", 1)[1]
        return {c: int(n) for n, c in (line.split(None, 1) for line in block.splitlines() if line.strip())}

    ml = {c: only_ml + both for c, (only_ml, _, both) in EXPECTED.items()}
    rules = {c: only_rules + both for c, (_, only_rules, both) in EXPECTED.items()}
    assert ml == printed("ml-gum.keep.F.summary")
    assert rules == printed("rules-gum.keep.F.summary") | {"Conflated Entities": 804 + 1}


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


# The entity changes, counted here from the three CoNLL files alone (no corefreport code: a reader of
# the last column and the definitions of docs/compare.md "What changed per key entity"), written out.
ENTITIES = 775  # key entities of two or more mentions in GUM's 20 documents
CHANGE_COUNTS = {"newly found": 5, "lost": 36, "split": 55, "reunited": 22, "merged": 31, "unmerged": 142}
CHANGED = 235  # key entities with at least one change
EMPEROR = ("Emperor Norton", "GUM_bio_emperor", 77, (8, 9), (5, 3), ("split", "unmerged"))  # pieces, joined: A, B


def _conll_chains(path) -> dict[str, tuple[list[str], dict[str, frozenset[tuple[int, int]]]]]:
    """Document id → (its words, entity label → its spans (first word, last word), counted over the
    document): a direct reader of CoNLL-2012's last column, ``(e`` opens, ``e)`` closes, ``(e)`` both."""
    docs: dict = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.startswith("#begin document"):
            words, chains, opened = [], {}, {}
            docs[line.split("(", 1)[1].split(")", 1)[0]] = (words, chains)
            continue
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split()
        i = len(words)
        words.append(fields[3])
        for part in fields[-1].split("|") if fields[-1] != "-" else ():
            label = part.strip("()")
            if part.startswith("("):
                opened.setdefault(label, []).append(i)
            if part.endswith(")"):
                chains.setdefault(label, set()).add((opened[label].pop(), i))
    return {d: (w, {e: frozenset(s) for e, s in c.items()}) for d, (w, c) in docs.items()}


def _cover(spans: frozenset, own: str, response: dict, key: dict) -> tuple[int, int, int, int]:
    """(found, pieces, largest, joined) of a key entity: its spans some response entity has, the
    response entities holding them, its spans in the largest of those, the other key entities with a
    span in one of those."""
    holders = [r for r in response.values() if r & spans]
    found = len(spans & frozenset().union(*holders))
    joined = sum(1 for e, other in key.items() if e != own and any(r & other for r in holders))
    return found, len(holders), max((len(r & spans) for r in holders), default=0), joined


@lru_cache(maxsize=1)
def independent_entities() -> tuple[int, list[dict]]:
    """Key entities of two or more mentions, and for each that changed from rules (A) to ml (B): its
    document, label, first mention's words, size, cover by A and by B, and kinds, as docs/compare.md
    defines them — resolved: two of its mentions in one response entity (largest ≥ 2); newly found /
    lost: resolved by B only / A only; resolved by both: split / reunited when B has more / fewer
    pieces, merged / unmerged when B joins it with more / fewer other key entities.

    One thing the definitions leave open: a span in two response entities. Here it counts in both (a
    piece each); corefreport puts it in the first (``errordiff._index``). rules-gum has one such span,
    words 806-812 of GUM_academic_eegimaa, and it is a one-mention key entity's, compared by neither
    count, so the two readings give the same numbers on these files."""
    key, a, b = (_conll_chains(p) for p in (KEY, SYSTEMS["rules"], SYSTEMS["ml"]))
    n, out = 0, []
    for doc, (words, entities) in key.items():
        for label, spans in entities.items():
            if len(spans) < 2:
                continue
            n += 1
            ca, cb = (_cover(spans, label, r[doc][1], entities) for r in (a, b))
            kinds: tuple = ()
            if (ca[2] >= 2) != (cb[2] >= 2):
                kinds = ("newly found",) if cb[2] >= 2 else ("lost",)
            elif ca[2] >= 2:
                kinds = tuple(k for k, x, y in (("split", cb[1], ca[1]), ("reunited", ca[1], cb[1]),
                                                ("merged", cb[3], ca[3]), ("unmerged", ca[3], cb[3])) if x > y)
            if kinds:
                first = min(spans)
                out.append({"doc_id": doc, "entity": label, "name": " ".join(words[first[0]:first[1] + 1]),
                            "mentions": len(spans), "baseline": ca, "system": cb, "changes": kinds})
    return n, out


def _row(e: dict) -> tuple:
    return (e["name"], e["doc_id"], e["mentions"], (e["baseline"][1], e["system"][1]),
            (e["baseline"][3], e["system"][3]), e["changes"])


def _largest() -> dict:
    return max(independent_entities()[1], key=lambda e: e["mentions"])


def test_the_independent_entity_count_is_the_one_written_here():
    n, rows = independent_entities()
    assert n == ENTITIES and len(rows) == CHANGED
    assert Counter(k for e in rows for k in e["changes"]) == CHANGE_COUNTS
    assert _row(_largest()) == EMPEROR
    assert sorted(e["mentions"] for e in rows)[-2] < EMPEROR[2]  # the largest is alone in being the largest


def test_entity_changes_on_gum_agree_with_the_resolved_entities_counted_from_the_files():
    out = compared()["entity_changes"]["ml"]
    counts = out["counts"]
    n, rows = independent_entities()
    assert out["entities"] == n == ENTITIES
    counted = Counter(k for e in rows for k in e["changes"])
    assert counts == {k: counted[k] for k in CHANGE_COUNTS} == CHANGE_COUNTS
    assert len(out["changed"]) == len(rows) == CHANGED
    got = {(e["doc_id"].split("; part ")[0], e["entity"]): (e["name"], e["mentions"], tuple(e["baseline"][k] for k in
                                        ("found", "pieces", "largest", "joined")),
                                        tuple(e["system"][k] for k in ("found", "pieces", "largest", "joined")),
                                        tuple(e["changes"])) for e in out["changed"]}
    assert got == {(e["doc_id"], e["entity"]): (e["name"], e["mentions"], e["baseline"], e["system"], e["changes"])
                   for e in rows}  # every changed entity, with both covers, as counted from the files
    resolved = {side: sum(1 for e in rows if e[side][2] >= 2) for side in ("baseline", "system")}
    assert counts["newly found"] - counts["lost"] == resolved["system"] - resolved["baseline"]
    emperor = next(e for e in out["changed"] if e["name"] == "Emperor Norton")
    assert emperor["mentions"] == _largest()["mentions"] == EMPEROR[2]
    assert emperor["changes"] == list(_largest()["changes"]) == list(EMPEROR[5])


def test_markdown_has_the_tables():
    md = _run("compare", str(KEY), f"rules={SYSTEMS['rules']}", f"ml={SYSTEMS['ml']}", "-a", "errors", "--bootstrap",
              "0", "--randomization", "0", "-f", "markdown", "-q")
    assert "### The same errors? ml vs rules (Kummerfeld & Klein 2013)" in md
    assert "| Conflated Entities | 68 | 447 | 358 |" in md
    assert "| Conflated Entities | %d | %d | %d |" % EXPECTED["Conflated Entities"] in md
    assert "| all | 282 | 694 | 1437 |" in md
    assert "| all | %d | %d | %d |" % tuple(sum(v[i] for v in EXPECTED.values()) for i in range(3)) in md
    assert "### Key entities that changed: ml vs rules" in md and "| lost | 36 |" in md
    lost = Counter(k for e in independent_entities()[1] for k in e["changes"])["lost"]
    assert f"| lost | {lost} |" in md
    assert "| Emperor Norton | GUM_bio_emperor | 77 | 8 | 9 | 5 | 3 | split, unmerged |" in md
    name, doc, size, (pa, pb), (ja, jb), kinds = _row(_largest())
    assert f"| {name} | {doc} | {size} | {pa} | {pb} | {ja} | {jb} | {', '.join(kinds)} |" in md


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
    n, changes = independent_entities()
    assert len(entities) == 235 == len(changes) and entities.items[0].name == "Emperor Norton" == _largest()["name"]
    assert entities.plain()[0][3:] == ["8→9", "5→3", "split, unmerged"]
    _name, _doc, _size, (pa, pb), (ja, jb), kinds = _row(_largest())
    assert entities.plain()[0][3:] == [f"{pa}→{pb}", f"{ja}→{jb}", ", ".join(kinds)]
    assert "5 newly found, 36 lost, 55 split" in entities.note
    counted = Counter(k for e in changes for k in e["changes"])
    assert ", ".join(f"{counted[k]} {k}" for k in CHANGE_COUNTS) in entities.note
    rows = P.total_rows(sy, "ml")
    assert rows[-1].label == "key entities changed" and rows[-1].counts == (235, 775) == (len(changes), n)


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
