"""Issue 13 defects, driven with Pilot on the real GUM pair (gold vs xrenner ml/gum): the numbers
asserted come from the scoring layer, not from the TUI's model."""

from __future__ import annotations

import asyncio
import csv
import json
import threading
from functools import lru_cache

from textual.command import CommandInput, CommandList

from corefreport.io import load_corpus
from corefreport.present.numbers import pct
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import STANDARD_METRICS
from corefreport.scoring.settings import Settings
from corefreport.tui.app import CorefApp

from conftest import browsing, go_to, shared_path

SETTINGS = Settings(metrics=STANDARD_METRICS, analyses=("arcs",))


@lru_cache(maxsize=1)
def gum():
    """The staged (standard scores only) and the complete evaluation of ONE scoring run."""
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", "gum.conll")))
    resp = load_corpus(str(shared_path("data", "xrenner", "conll2012", "ml-gum.conll")))
    stages = []
    full = evaluate(key, resp, SETTINGS, on_stage=stages.append)
    return stages[0], full


def run(coro):
    return asyncio.run(coro)


def staged_producer(gate: threading.Event):
    """Hands the app the standard scores, then waits for ``gate`` before the full evaluation."""
    stage, full = gum()

    def produce(watch):
        from corefreport.study.nodes import Pair

        yield Pair("", stage, final=False)
        gate.wait(20)
        yield Pair("", full)

    return produce


async def until(pilot, cond, tries: int = 200) -> None:
    for _ in range(tries):
        if cond():
            return
        await pilot.pause(0.02)
    raise AssertionError("condition not reached")


def test_documents_opened_before_the_analyses_see_the_full_result():
    """`d` while the analyses run: when they arrive the documents page and the totals below it
    show the full evaluation, the cursor stays on the same document, and Enter opens its links."""
    stage, full = gum()
    assert not stage.arcs and full.arcs  # the quick scores have no ARCS

    async def drive():
        gate = threading.Event()
        app = CorefApp(stages=staged_producer(gate))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.ev is not None and app.browser.page.name == "totals")
            await pilot.press("d")
            await pilot.pause()
            b = app.browser
            assert [p.name for p in b.pages] == ["totals", "documents"]
            b.table.move_cursor(row=5)
            await pilot.pause()
            doc = b.page.view.items[5].doc_id
            await pilot.press("enter")  # no analysis yet: says so, stays
            await pilot.pause()
            assert b.page.name == "documents"
            gate.set()
            await app.workers.wait_for_complete()
            await until(pilot, lambda: app.analyses_ready)
            await pilot.pause(0.1)
            assert app.ev is full
            ids = [d.doc_id for d in b.page.view.items]
            assert b.page.name == "documents" and b.table.cursor_row == 5 and ids[5] == doc
            worst = sorted(full.documents, key=lambda d: (d.conll(), d.doc_id))
            assert ids == [d.doc_id for d in worst]
            assert app.shown()[5][0].split("…")[-1] in doc
            await pilot.press("enter")
            await pilot.pause()
            assert b.page.name == "links"
            rows = full.select("immediate", doc_id=doc)
            assert len(b.page.view) == len(rows) > 0
            await pilot.press("backspace", "backspace")
            await pilot.pause()
            labels = [r[0] for r in app.shown()]
            i = labels.index("ARCS 1 immediate ›")
            assert app.shown()[i][3] == pct(full.arcs.scenarios["immediate"].total.f1)

    run(drive())


async def palette_matches(pilot, text: str) -> list[str]:
    app = pilot.app
    box = app.screen.query_one(CommandInput)
    box.value = ""
    for ch in text:  # typed, as a user would
        await pilot.press(ch)
    await pilot.pause(0.4)
    ol = app.screen.query_one(CommandList)
    return [str(ol.get_option_at_index(i).prompt).split("\n")[0] for i in range(ol.option_count)]


def test_palette_export_is_reachable_and_writes_values(tmp_path, monkeypatch):
    _, full = gum()
    monkeypatch.chdir(tmp_path)

    async def drive():
        app = CorefApp(full)
        async with browsing(app, (80, 24)) as pilot:
            await pilot.press("ctrl+p")
            assert "Export this table as CSV" in await palette_matches(pilot, "export")
            assert (await palette_matches(pilot, "csv"))[0] == "Export this table as CSV"
            await pilot.press("enter")
            await pilot.pause(0.1)
            with open(tmp_path / "corefreport-totals.csv", encoding="utf-8") as f:
                rows = {r["metric"]: r for r in csv.DictReader(f)}
            assert float(rows["MUC"]["F1"]) == full.metrics["muc"].f1  # the value, not "64.83"
            # a second export never overwrites the first
            await pilot.press("ctrl+p")
            await palette_matches(pilot, "csv")
            await pilot.press("enter")
            await pilot.pause(0.1)
            assert (tmp_path / "corefreport-totals-2.csv").exists()
            # a link table: document ids and token offsets
            await go_to(pilot, "ARCS 1 immediate ›")
            await pilot.press("slash")
            await pilot.press(*"fn")
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("ctrl+p")
            await palette_matches(pilot, "json")
            await pilot.press("enter")
            await pilot.pause(0.1)
            (path,) = tmp_path.glob("*.json")
            data = json.loads(path.read_text(encoding="utf-8"))
            fn = full.select("immediate", outcome="FN")
            assert len(data) == len(fn) > 0
            assert {(d["document"], d["start"], d["end"]) for d in data} == {(r.doc_id, r.start, r.end) for r in fn}
            assert all(d["outcome"] == "FN" and d["key start"] is not None for d in data)

    run(drive())


def test_warnings_of_score_are_listed_from_the_totals():
    _, full = gum()
    assert full.warnings  # xrenner ml/gum repeats spans

    async def drive():
        app = CorefApp(full)
        async with browsing(app, (80, 24)) as pilot:
            labels = [r[0] for r in app.shown()]
            row = f"⚠ {len(full.warnings)} warning(s) ›"
            assert row in labels
            app.browser.table.move_cursor(row=labels.index(row))
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            assert app.browser.page.name == "warnings"
            assert [r[0] for r in app.shown()] == list(full.warnings)
            await pilot.press("backspace")
            await pilot.pause()
            assert app.browser.page.name == "totals"

    run(drive())


def test_help_lists_every_binding_with_remapped_keys_and_d_does_not_stack():
    _, full = gum()

    async def drive():
        app = CorefApp(full, keymap={"corefreport.search": "f"})
        async with browsing(app, (80, 24)) as pilot:
            await pilot.press("question_mark")
            await pilot.pause()
            assert app.screen.id == "help"
            text = str(app.screen.query_one("#help-text").render())
            for needle in ("d ", "f ", "Esc, Backspace", "WTL", "ARCS 3 anchor", "▚ WTL", "ctrl+p"):
                assert needle in text, needle
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is app.browser
            # d, Enter on a document (its links), d again: back to the same documents page
            await pilot.press("d")
            await pilot.pause()
            app.browser.table.move_cursor(row=2)
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("d")
            await pilot.pause()
            b = app.browser
            assert [p.name for p in b.pages] == ["totals", "documents"] and b.table.cursor_row == 2
            # Escape in the filter box closes the box, not the page
            await pilot.press("enter", "f")
            await pilot.pause()
            assert b.query_one("#filter").has_focus
            await pilot.press("backspace")  # Backspace edits the box
            await pilot.press("escape")
            await pilot.pause(0.2)
            assert b.page.name == "links" and not b.query_one("#filter").has_focus

    run(drive())


def test_filter_language_on_the_gum_links():
    """`fn court`, negation, combinations: the rows the scoring layer selects."""
    _, full = gum()
    fn_court = [r for r in full.select("immediate", outcome="FN") if "court" in r.doc_id.lower()]
    assert fn_court

    async def drive():
        app = CorefApp(full)
        async with browsing(app, (80, 24)) as pilot:
            await go_to(pilot, "ARCS 1 immediate ›")
            for query, expect in (
                    ("fn court", len(fn_court)),
                    ("outcome:fn doc:court -doc:mitigation",
                     sum(1 for r in fn_court if "mitigation" not in r.doc_id)),
                    ("doc:court !fn !wl !fp", len(full.select("immediate", outcome="TP")) and
                     sum(1 for r in full.select("immediate", outcome="TP") if "court" in r.doc_id.lower()))):
                await pilot.press("slash")
                box = app.browser.query_one("#filter")
                box.value = query
                await pilot.press("enter")
                await pilot.pause()
                assert len(app.browser.page.view) == expect, query
                assert len(app.shown()) == expect

    run(drive())


def test_too_small_a_terminal_shows_a_message_and_80_columns_are_narrow():
    _, full = gum()

    async def drive():
        app = CorefApp(full)
        async with browsing(app, (40, 12)) as pilot:
            note = app.browser.query_one("#too-small")
            assert note.display and "40×12" in str(note.render())
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert not note.display and app.browser.has_class("-narrow")
            assert [r[0] for r in app.shown()][:2] == ["MUC", "B³"]

    run(drive())


def test_a_wrong_link_says_which_entity_the_response_joined():
    _, full = gum()
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", "gum.conll")))
    docs = key.documents
    wl = full.select("immediate", outcome="WL")
    # one whose response antecedent is a key mention of another entity with ≥ 2 mentions (not the
    # referent's own: an earlier mention of its own entity is a WL of scenario 1 too, said apart)
    for r in wl:
        chains = [c for c in docs[r.doc_id].chains if any(m.span == r.response_antecedent for m in c.mentions)]
        if chains and len(chains[0].mentions) > 1 and all(m.span != r.span for m in chains[0].mentions):
            break
    spans = sorted({m.span for m in chains[0].mentions})
    first = docs[r.doc_id].text(*spans[0])

    async def drive():
        app = CorefApp(full)
        async with browsing(app, (80, 24)) as pilot:
            await go_to(pilot, "ARCS 1 immediate ›")
            await pilot.press("slash")
            app.browser.query_one("#filter").value = f"wl doc:{r.doc_id.split(';')[0].lower()}"
            await pilot.press("enter")
            await pilot.pause()
            view = app.browser.page.view
            app.browser.table.move_cursor(row=list(view.items).index(r))
            await pilot.pause()
            text = str(app.browser.query_one("#detail").render())
            assert "why:" in text
            assert (f"belongs to another key entity (“{first}” @{spans[0][0]}, {len(spans)} mentions)"
                    in " ".join(text.split()))

    run(drive())


def test_jump_from_a_link_to_its_document_entity_and_other_analyses():
    _, full = gum()
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", "gum.conll")))
    r = full.select("immediate", outcome="WL")[0]
    chain = next(c for c in key.documents[r.doc_id].chains if any(m.span == r.span for m in c.mentions))
    spans = {m.span for m in chain.mentions}
    entity = [x for x in full.select("immediate", doc_id=r.doc_id) if x.span in spans]
    others = [x for a in ("immediate", "inferred", "anchor") for x in full.select(a, doc_id=r.doc_id)
              if x.span == r.span]

    async def drive():
        app = CorefApp(full)
        async with browsing(app, (80, 24)) as pilot:
            b = app.browser
            await go_to(pilot, "ARCS 1 immediate ›")
            await pilot.press("slash")
            b.query_one("#filter").value = "wl"
            await pilot.press("enter")
            await pilot.pause()
            b.table.move_cursor(row=list(b.page.view.items).index(r))
            await pilot.pause()
            await pilot.press("e")
            await pilot.pause()
            assert sorted(b.page.view.items, key=lambda x: x.span) == sorted(entity, key=lambda x: x.span)
            await pilot.press("backspace")
            await pilot.pause()
            await pilot.press("a")
            await pilot.pause()
            assert {(x.analysis, x.outcome) for x in b.page.view.items} == {(x.analysis, x.outcome) for x in others}
            await pilot.press("backspace")
            await pilot.pause()
            await pilot.press("g")
            await pilot.pause()
            assert len(b.page.view) == len(full.select("immediate", doc_id=r.doc_id))
            assert {x.doc_id for x in b.page.view.items} == {r.doc_id}
            copied = []
            app.copy_to_clipboard = copied.append  # the OSC 52 escape itself is Textual's
            await pilot.press("y")
            await pilot.pause()
            first = b.page.view.items[b.table.cursor_row]
            assert copied and copied[0].startswith(f"{first.outcome}\tARCS 1 immediate\t{r.doc_id}\t{first.start}-")

    run(drive())


def test_typed_confusion_matrix_counts_and_its_cells_open_their_links():
    key = load_corpus(str(shared_path("data", "gum", "coref", "gum", "tsv")))
    resp = load_corpus(str(shared_path("data", "xrenner", "ml", "gum")), "webanno")
    ev = evaluate(key, resp, Settings(metrics=("muc",), analyses=("typed",), scheme="gum"))
    rows = ev.select("typed")
    # counted here from the rows, independently of the view: the key's link type (the part before
    # "/" of the GUM type) against the response's; FN have no response link, FP no key link
    def resp_type(r):  # TP and WL keep the key's type
        return r.features.get("response_type") or r.type

    same_ana = [r for r in rows if r.outcome not in ("FN", "FP") and r.type.startswith("ana/")
                and resp_type(r).startswith("ana/")]
    ana_as_coref = [r for r in rows if r.outcome in ("WT", "WTL") and r.type.startswith("ana/")
                    and r.features["response_type"].startswith("coref/")]
    fn_ana = [r for r in rows if r.outcome == "FN" and r.type.startswith("ana/")]
    fp = [r for r in rows if r.outcome == "FP"]

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (80, 24), "c") as pilot:
            b = app.browser
            cols = [c.rstrip(" ▲▼") for c in b.page.view.columns]
            shown = {r[0]: dict(zip(cols[1:], r[1:])) for r in app.shown()}
            assert shown["ana"]["ana"] == str(len(same_ana)) and shown["ana"]["coref"] == str(len(ana_as_coref))
            assert shown["ana"]["—"] == str(len(fn_ana)) and shown["—"]["total"] == str(len(fp)) == "456"
            assert sum(int(r["total"]) for r in shown.values()) == len(rows)
            # the cell ana → ana: row "ana", then → to its column
            b.table.move_cursor(row=list(shown).index("ana"))
            await pilot.pause()
            for _ in range(cols.index("ana") - 1):
                await pilot.press("right")
            await pilot.press("enter")
            await pilot.pause()
            assert b.page.name == "links" and b.page.crumb == "ana → ana"
            assert sorted(b.page.view.items, key=lambda r: (r.doc_id, r.span)) == \
                sorted(same_ana, key=lambda r: (r.doc_id, r.span))
            # b: the same matrix by link type
            await pilot.press("escape", "b")
            await pilot.pause()
            cols = [c.rstrip(" ▲▼") for c in b.page.view.columns]
            shown = {r[0]: dict(zip(cols[1:], r[1:])) for r in app.shown()}
            pp = [r for r in rows if r.outcome in ("TP", "WL") and r.type == "ana/person"]
            assert shown["ana/person"]["ana/person"] == str(len(pp)) and len(pp) > 0
            # the matrix by type is wider than 80 columns: walking the cell cursor to the last
            # column scrolls the others, but every row keeps its label on the left
            t = b.table
            for _ in range(len(cols)):
                await pilot.press("right")
            await pilot.pause()
            assert t.scroll_x > 0 and t.cursor_col == len(cols) - 1
            labels = list(shown)
            for y in range(1, 6):
                line = t.render_line(y).text
                assert line.split()[0] == labels[y - 1], line
            header = t.render_line(0).text
            assert header.startswith(" key type \\ response") and "total" in header

    run(drive())


def test_sort_any_column_by_digit_or_header_reverses_and_keeps_the_cursor_row():
    _, full = gum()
    docs = full.documents
    # MUC F1 per document, computed here from the per-document counts (not from the view)
    muc = {d.doc_id: d.metrics["muc"].f1 for d in docs}
    worst, best = min(muc, key=lambda d: (muc[d], d)), max(muc, key=lambda d: (muc[d], d))

    async def drive():
        app = CorefApp(full)
        async with browsing(app, (80, 24), "d") as pilot:
            b = app.browser
            cols = list(b.page.view.columns)
            col = cols.index("MUC")
            b.table.move_cursor(row=5)
            await pilot.pause()
            kept = b.page.view.items[5].doc_id
            await pilot.press(str(col + 1))  # the digit of the column
            await pilot.pause()
            assert b.page.view.columns[col] == "MUC ▲"
            assert b.page.view.items[0].doc_id == worst and [float(r[col]) for r in app.shown()] == \
                sorted(float(r[col]) for r in app.shown())
            assert b.page.view.items[b.table.cursor_row].doc_id == kept  # the cursor stayed on its row
            await pilot.press(str(col + 1))  # again: descending
            await pilot.pause()
            assert b.page.view.columns[col] == "MUC ▼" and b.page.view.items[0].doc_id == best
            assert b.page.view.items[b.table.cursor_row].doc_id == kept
            # a header click sorts any table too: the link table by its referent
            await pilot.press("escape")
            await pilot.pause()
            await go_to(pilot, "ARCS 1 immediate ›")
            await pilot.press("slash")
            b.query_one("#filter").value = "fn"
            await pilot.press("enter")
            await pilot.pause()
            await pilot.click(b.table, offset=(10, 0))
            await pilot.pause()
            view = b.page.view
            assert view.columns[1] == "referent ▲"
            texts = [r.text.lower() for r in view.items]
            assert texts == sorted(texts) and {r.outcome for r in view.items} == {"FN"}

    run(drive())


def test_at_80_columns_every_total_fits_typed_mix_and_blanc_counts_included():
    key = load_corpus(str(shared_path("data", "gum", "coref", "gum", "tsv")))
    resp = load_corpus(str(shared_path("data", "xrenner", "ml", "gum")), "webanno")
    ev = evaluate(key, resp, Settings(metrics=("muc", "blanc"), analyses=("arcs", "typed"), scheme="gum"))
    from corefreport.tui import model as M

    view = M.totals_view(ev, 80)
    rows = view.plain(full=False)
    widths = [max(len(r[j]) for r in rows + [list(view.columns)]) for j in range(len(view.columns))]
    assert sum(w + 2 for w in widths) - 1 <= 78  # 80 minus the scrollbar; the last cell's right pad may go
    typed = next(r for r in rows if r[0].startswith("typed"))
    c = ev.typed.micro  # the typed F1 is shown whole, not cut to "52."
    assert typed[3] == pct(M.tally(ev.select("typed")).f1) and len(typed[3]) == 5
    t = M.tally(ev.select("typed"))
    assert typed[4] == f"TP{t.tp} WT{t.wt} WL{t.wl} WTL{t.wtl} FN{t.fn} FP{t.fp}"
    blanc = next(r for r in rows if r[0] == "BLANC")
    assert blanc[4].startswith("coref links ") and blanc[4].count("/") == 2
    assert c is not None
