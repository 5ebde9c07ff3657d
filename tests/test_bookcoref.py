"""Books as input (issue 35): BookCoref's JSON lines (Martinelli et al. 2025) read as one document per
book, its chains named after its characters, the names shown where an entity is named.

The book is ``tests/data/bookcoref/book.*.jsonl`` (two chapters, written by hand in BookCoref's
format), and the same book written by hand as CoNLL-2012 (``book.*.conll``): the two score alike,
and the numbers are scorer.pl v8.01's on the CoNLL-2012 files and counts written below.
"""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path

from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings
from printed_counts import counts

DATA = Path(__file__).resolve().parent / "data" / "bookcoref"
KEY, RESPONSE = DATA / "book.key.jsonl", DATA / "book.response.jsonl"
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
runner = CliRunner()


def test_the_book_scores_as_the_same_book_in_conll_2012():
    book = evaluate(load_corpus(str(KEY), key=True), load_corpus(str(RESPONSE)), Settings(metrics=METRICS))
    conll = evaluate(load_corpus(str(DATA / "book.key.conll"), key=True), load_corpus(str(DATA / "book.response.conll")),
                     Settings(metrics=METRICS))
    for m in METRICS:
        if m == "blanc":
            assert counts(book.metrics[m].coref) == counts(conll.metrics[m].coref)
            assert counts(book.metrics[m].noncoref) == counts(conll.metrics[m].noncoref)
        else:  # the same sums, in another order (the chains' order differs): equal to the last bits
            assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in
                       zip(counts(book.metrics[m]), counts(conll.metrics[m]))), m
    assert counts(book.mentions) == counts(conll.mentions) == [13, 14, 13, 13]
    # scorer.pl v8.01 (github:conll/reference-coreference-scorers f49f3f8) on book.key.conll and
    # book.response.conll printed: MUC (6 / 9) (6 / 8); B³ (8.16666666666667 / 14) (10.3333333333333 / 13);
    # CEAF-e (3.22857142857143 / 5) (3.22857142857143 / 5)
    assert counts(book.metrics["muc"]) == [6, 9, 6, 8]
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in
               zip(counts(book.metrics["bcub"]), [8.16666666666667, 14, 10.3333333333333, 13]))
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in
               zip(counts(book.metrics["ceafe"]), [3.22857142857143, 5, 3.22857142857143, 5]))
    # MUC by hand: key links 3 + 2 + 3 + 0 + 1 = 9; the response splits Elizabeth in 2, Jane in 2,
    # Darcy in 2 and keeps Netherfield: 2 + 1 + 2 + 1 = 6 found


def test_one_document_per_book_with_inclusive_offsets_and_named_chains():
    doc = load_corpus(str(KEY), key=True).documents["pride_test_0"]
    assert len(doc.tokens) == 44 and doc.sentence_starts == [0, 2, 11, 19, 30, 32]
    assert doc.meta["gutenberg_key"] == "1342"
    # [2, 2] is one word, "Elizabeth"; [8, 9] two, "sister Jane": the end is inclusive
    spans = [[(m.start, m.end) for m in c.mentions] for c in doc.chains]
    assert [doc.text(*s) for s in spans[0]] == ["Elizabeth", "her", "Elizabeth", "she"]
    assert doc.text(*spans[1][0]) == "sister Jane"
    # the characters name their chains ("mentions" as the card's YAML writes it, "cluster" as its README);
    # a cluster of no character keeps its number
    assert [c.label for c in doc.chains] == ["Elizabeth Bennet", "Jane Bennet", "Mr. Darcy", "3", "4"]
    assert {m.label for m in doc.chains[2].mentions} == {"Mr. Darcy"}
    response = load_corpus(str(RESPONSE)).documents["pride_test_0"]  # "characters": {} (system output)
    assert [c.label for c in response.chains] == ["0", "1", "2", "3", "4"] and "chain_names" not in response.meta


def test_characters_that_name_no_cluster_are_a_warning(tmp_path):
    obj = json.loads(KEY.read_text(encoding="utf-8"))
    obj["characters"].append({"name": "Mr. Bingley", "mentions": [[0, 0]]})  # "CHAPTER": in no cluster
    obj["characters"].append({"name": "Lydia"})  # no mentions: nothing to name
    (tmp_path / "k.jsonl").write_text(json.dumps(obj) + "\n", encoding="utf-8")
    corpus = load_corpus(str(tmp_path / "k.jsonl"), key=True)
    assert any("'Mr. Bingley'" in w and "name no cluster" in w for w in corpus.warnings)
    assert [c.label for c in corpus.documents["pride_test_0"].chains][:3] == ["Elizabeth Bennet", "Jane Bennet",
                                                                              "Mr. Darcy"]


def test_the_book_read_a_document_at_a_time_keeps_the_names():
    r = runner.invoke(app, ["score", str(KEY), str(RESPONSE), "-a", "errors", "-f", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["metrics"]["muc"]["recall_num"] == 6
    named = {e["key_entity"]["label"] for e in data["errors"]["rows"] if e.get("key_entity")}
    assert {"Elizabeth Bennet", "Jane Bennet", "Mr. Darcy"} & named
    assert any("key entities Elizabeth Bennet 'Elizabeth' and Mr. Darcy 'Mr. Darcy'" in e["explanation"]
               for e in data["errors"]["rows"])


def test_the_report_and_the_browser_name_the_characters(tmp_path):
    out = tmp_path / "r.html"
    r = runner.invoke(app, ["report", str(KEY), str(RESPONSE), "-a", "errors", "-o", str(out)])
    assert r.exit_code == 0, r.output
    html = out.read_text(encoding="utf-8")
    assert "Elizabeth Bennet" in html and "Mr. Darcy" in html

    from corefreport.tui.model import link_detail

    ev = evaluate(load_corpus(str(KEY), key=True), load_corpus(str(RESPONSE)), Settings(analyses=("arcs",)))
    row = next(x for x in ev.rows if x.analysis == "immediate" and x.span == (36, 37))  # "Mr. Darcy", chapter II
    text = link_detail(ev, row).plain
    assert "key chain (4 mentions) Mr. Darcy" in text
    assert "another key entity (Elizabeth Bennet “Elizabeth” @2, 4 mentions)" in text  # why: the response's antecedent's

    from corefreport.tui.app import CorefApp

    async def drive():
        app_ = CorefApp(ev)
        async with app_.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app_.browser.page.name == "totals"

    asyncio.run(drive())


def test_the_book_on_windows_counted_by_hand():
    """Windows of 15 words: chapter I's first three sentences (2 + 9 + 8 = 19 words), then the rest.
    Key links within one window: Elizabeth 2–7, 32–40; Jane 20–26; Darcy 11–16, 28–36 (5); across:
    Elizabeth 7–32, Jane 8–20, Darcy 16–28, Netherfield 5–42 (4). Found: 2–7, 32–40, 20–26, 11–16
    within; 16–28, 5–42 across. Response links within: 2–7 ✓, 7–8 ✗, 11–16 ✓, 20–26 ✓, 32–36 ✗,
    36–40 ✗; across: 16–28 ✓, 5–42 ✓."""
    ev = evaluate(load_corpus(str(KEY), key=True), load_corpus(str(RESPONSE)), Settings(metrics=("muc",), window=15))
    links = ev.windows.scores.links
    assert counts(links["within"]) == [4, 5, 3, 6] and counts(links["across"]) == [2, 4, 2, 2]
    assert ev.windows.scores.windows == 2


def test_the_split_configuration_names_alike_in_every_window_without_a_warning(tmp_path):
    """BookCoref's split configuration: one line per window, each with the characters of the book —
    the same name in two windows is the same character, not a label "global across documents"."""
    book = json.loads(KEY.read_text(encoding="utf-8"))

    def window(lo: int, hi: int, sentences: list, first: int) -> dict:
        def inside(spans):
            return [[a - lo, b - lo] for a, b in spans if lo <= a < hi]
        return {"doc_key": f"pride_test_0_split15_S{first}", "gutenberg_key": "1342", "sentences": sentences,
                "clusters": [c for c in (inside(c) for c in book["clusters"]) if c],
                "characters": [{"name": c["name"], "mentions": inside(c.get("mentions") or c["cluster"])}
                               for c in book["characters"]]}

    lines = [window(0, 19, book["sentences"][:3], 0), window(19, 44, book["sentences"][3:], 3)]
    path = tmp_path / "split.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    ev = evaluate(load_corpus(str(path), key=True), load_corpus(str(path)), Settings(metrics=("muc",)))
    assert [c.label for c in ev.key_corpus.documents["pride_test_0_split15_S3"].chains][:2] == \
        ["Elizabeth Bennet", "Jane Bennet"]
    assert not any("look global" in w for w in ev.warnings)
