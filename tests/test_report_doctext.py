"""Issue 30: the document view in the HTML and PDF reports — the documents of the error examples as
running text with the key's [N … ] and the response's {N … } mentions (each system's in its own
brackets), numbered and coloured by entity, errors flagged (* and !), each example linked to its
referent's place. One model, two views: the text is present/document_text.py's, as in the TUI."""

from __future__ import annotations

import re
from functools import lru_cache
from html.parser import HTMLParser

import pytest

from corefreport.cli import example_paths
from corefreport.io import load_corpus
from corefreport.present.document_text import evaluation_document, systems_document
from corefreport.report.doctext import PDF_DOCUMENTS, example_documents, running_text
from corefreport.report.document import build
from corefreport.report.examples import Examples, example_blocks
from corefreport.report.html import to_html
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings


@lru_cache(maxsize=1)
def example():
    key, resp = example_paths()
    return evaluate(load_corpus(key), load_corpus(resp), Settings(analyses=("arcs", "typed")))


class Text(HTMLParser):
    """The visible text of each .doctext block, by its id; ids and hrefs of the page."""

    def __init__(self):
        super().__init__()
        self.depth = 0
        self.current = ""
        self.texts: dict[str, list[str]] = {}
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.sentence: list[str] | None = None
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href", "").startswith("#doc-"):
            self.hrefs.append(a["href"][1:])
        if tag == "div" and a.get("class") == "doctext":
            self.current = a["id"]
            self.texts[self.current] = []
        if self.current and tag == "p" and "sent" in a.get("class", "").split():
            self.sentence = []
        if self.sentence is not None and tag == "span" and a.get("class") == "sno":
            self.skip = 1

    def handle_endtag(self, tag):
        if tag == "span" and self.skip:
            self.skip = 0
        if tag == "p" and self.sentence is not None:
            self.texts[self.current].append(" ".join("".join(self.sentence).split()))
            self.sentence = None
        if tag == "div" and self.current:
            self.current = ""

    def handle_data(self, data):
        if self.sentence is not None and not self.skip:
            self.sentence.append(data)


def parsed(html: str) -> Text:
    t = Text()
    t.feed(html)
    t.close()
    return t


def test_the_documents_text_is_the_tui_models_and_every_example_links_to_its_referent():
    ev = example()
    report = build(ev)
    html = to_html(report)
    t = parsed(html)
    assert t.texts, "the examples' documents are shown"
    blocks = [b for b in report.section("examples").blocks if isinstance(b, Examples)]
    assert [b.analysis for b in blocks] == [b.analysis for b in example_blocks(ev)]
    docs = list(dict.fromkeys(e.doc_id for b in blocks for g in b.groups for e in g.examples))
    assert len(t.texts) == len(docs)  # the HTML shows every example's document
    for i, doc in enumerate(docs, 1):
        # the same text, brackets and numbers as the TUI's document view (present/document_text.py)
        assert t.texts[f"doc-{i}"] == evaluation_document(ev, doc).sentence_lines()
    # every example has a link, and it leads to an anchor on its referent's first word
    n_examples = sum(len(g.examples) for b in blocks for g in b.groups)
    assert len(t.hrefs) == n_examples and set(t.hrefs) <= t.ids
    for b in blocks:
        for g in b.groups:
            for e in g.examples:
                assert re.fullmatch(rf"doc-\d+-t{e.row.start}-\d+", e.href)
                m = re.search(rf'<span id="{e.href}" data-sel="([^"]*)"[^>]*>([^<]*)</span>', html)
                assert m is not None and m.group(2) == ev.key_corpus.documents[e.doc_id].tokens[e.row.start]
                # following the link highlights the entities of the mentions at the referent
                assert m.group(1) and all(re.fullmatch(r"x[01]-\d+", c) for c in m.group(1).split())


def test_errors_are_flagged_and_readable_without_colour():
    ev = example()
    doc = next(iter(ev.key_corpus.documents))
    dt = evaluation_document(ev, doc)
    rt = running_text(dt, "doc-1")
    opens = [p for s in rt.sentences for p in s if p.kind == "open"]
    assert len(opens) == len(dt.marks)
    flagged = [p for p in opens if "err" in p.cls.split()]
    # a flagged mention is bold and underlined, and its bracket says why: * or ! after the number
    assert flagged and all(p.text[-1] in "*!" for p in flagged)
    assert all(p.text[-1] not in "*!" for p in opens if p not in flagged)
    assert sum(1 for m in dt.marks if m.flag) == len(flagged)
    # the entity number is in every bracket (no colour needed): [12 and {12
    assert all(re.fullmatch(r"[\[{]\d+[*!]?", p.text) for p in opens)


def test_the_pdf_shows_the_documents_with_the_most_examples_only():
    ev = example()
    blocks = example_blocks(ev)
    texts = example_documents(blocks, {"response": ev}, pdf=True)
    assert len(texts.documents) == min(PDF_DOCUMENTS, len({e.doc_id for b in blocks for g in b.groups
                                                           for e in g.examples}))
    linked = {e.href for b in blocks for g in b.groups for e in g.examples if e.href}
    shown = {p.anchor for d in texts.documents for s in d.sentences for p in s if p.anchor}
    assert linked == shown
    # the print HTML keeps the words plain (no span a word) but the anchors
    html = to_html(build(ev, pdf=True), pdf=True)
    assert html.count('class="doctext"') == len(texts.documents) and 'data-sel=' in html


def test_a_comparison_report_shows_the_key_and_every_system():
    from corefreport.scoring.compare import compare

    from test_tui_systems import RULES

    key, ml = example_paths()
    k = load_corpus(key)
    evs = {"ml": evaluate(k, load_corpus(ml), Settings(analyses=("arcs",))),
           "rules": evaluate(k, load_corpus(RULES), Settings(analyses=("arcs",)))}
    cmp = compare(evs, "ml", bootstrap=50, randomization=50)
    report = build(evs["rules"], comparison=cmp, systems=evs)
    t = parsed(to_html(report))
    assert t.texts
    for anchor, lines in t.texts.items():  # each shown document: the key, ml's { } and rules' < >
        dt = next(dt for d in k.documents if (dt := systems_document(evs, d)).sentence_lines() == lines)
        assert dt.sides == ("key", "ml", "rules")
        assert {m.side for m in dt.marks} == {"key", "ml", "rules"} and "<" in " ".join(lines)


def test_html_with_the_documents_is_well_formed():
    parser = pytest.importorskip("tinyhtml5.parser")
    report = build(example())
    for html in (to_html(report), to_html(report, pdf=True)):
        p = parser.HTMLParser()
        p.parse(html)
        assert p.errors == []


# --------------------------------------------------------------------------- interactive, without a server (issue 38)

def _comparison_html() -> tuple[str, dict]:
    from corefreport.scoring.compare import compare

    from test_tui_systems import RULES

    key, ml = example_paths()
    k = load_corpus(key)
    evs = {"ml": evaluate(k, load_corpus(ml), Settings(analyses=("arcs",))),
           "rules": evaluate(k, load_corpus(RULES), Settings(analyses=("arcs",)))}
    cmp = compare(evs, "ml", bootstrap=20, randomization=20)
    return to_html(build(evs["rules"], comparison=cmp, systems=evs)), evs


def test_the_html_document_text_marks_sides_agreement_and_disagreeing_sentences():
    html, evs = _comparison_html()
    t = parsed(html)
    for anchor, lines in t.texts.items():
        doc = next(d for d in evs["ml"].key_corpus.documents if systems_document(evs, d).sentence_lines() == lines)
        dt = systems_document(evs, doc)
        block = html.split(f'<div class="doctext" id="{anchor}" data-view="once">')[1].split("</div>")[0]
        # a box per side (key, ml, rules), every bracket once, the disagreements only
        assert re.findall(r'data-view="([^"]+)" ?(?:checked)?> ([^<]*)</label>', block) == [
            ("hide-s0", "key [ ]"), ("hide-s1", "ml { }"), ("hide-s2", "rules &lt; &gt;"),
            ("once", "agreeing mentions once"), ("disagree", "disagreements only")]
        agree = dt.agreeing()
        opens = re.findall(r'<b class="mk ([^"]*)">(?:\[|\{|&lt;)', block)
        assert sum(" agree" in f" {c}" and "agreek" not in c for c in opens) == \
            sum(1 for m in dt.marks if m.span in agree and m.side != "key")
        assert sum("agreek" in c for c in opens) == sum(1 for m in dt.marks if m.span in agree and m.side == "key")
        sentences = re.findall(r'<p class="sent( calm)?">', block)
        assert [i for i, calm in enumerate(sentences) if not calm] == dt.disagreeing_sentences()
    script = html.split("<script>")[1]
    assert "corefEntities" in script and "dataset.view" in script
    assert not re.search(r'(src|href)="(https?:)?//', html)  # no external resource: it works from a file


def test_the_html_document_text_works_in_a_browser_from_a_file(tmp_path):
    """Headless Chromium opens the report from a file (no server): a click on a word highlights its
    entities' mentions, a second click clears them, the boxes hide agreeing brackets, a side and the
    sentences without a disagreement."""
    import json
    import shutil
    import subprocess

    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium)")
    html, _evs = _comparison_html()
    probe = """<script>
(function () {
  var doc = document.getElementById("doc-1");
  var hidden = function (sel) { return Array.prototype.filter.call(doc.querySelectorAll(sel), function (e) {
    return getComputedStyle(e).display === "none"; }).length; };
  var word = Array.prototype.find.call(doc.querySelectorAll(".sent span"), function (e) {
    return /x0-/.test(e.className) && /x1-/.test(e.className); });
  word.click();
  var out = {hot: doc.querySelectorAll(".hot").length, sel: doc.dataset.hot,
             agree: doc.querySelectorAll("b.mk.agree").length, agreeHidden: hidden("b.mk.agree"),
             agreekHidden: hidden("b.mk.agreek")};
  word.click();
  out.cleared = doc.querySelectorAll(".hot").length;
  doc.querySelector('.dtools input[data-view="disagree"]').click();
  out.calm = doc.querySelectorAll(".sent.calm").length; out.calmHidden = hidden(".sent.calm");
  doc.querySelector('.dtools input[data-view="hide-s1"]').click();
  out.ml = doc.querySelectorAll("b.mk.s1").length; out.mlHidden = hidden("b.mk.s1");
  out.view = doc.dataset.view;
  document.title = "PROBE" + JSON.stringify(out);
})();
</script>"""
    page = tmp_path / "report.html"
    page.write_text(html.replace("</body>", probe + "</body>"), encoding="utf-8")
    res = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120, check=False)
    found = re.search(r"<title>PROBE(\{.*?\})</title>", res.stdout)
    assert found, res.stderr[-2000:]
    out = json.loads(found.group(1).replace("&quot;", '"'))
    first = out["sel"].split()
    assert [c.split("-")[0] for c in first] == ["x0", "x1", "x2"]  # the innermost mention on each side
    assert out["hot"] > len(first) and out["cleared"] == 0
    assert out["agree"] > 0 and out["agreeHidden"] == out["agree"] and out["agreekHidden"] == 0
    assert out["calmHidden"] == out["calm"]
    assert out["ml"] > 0 and out["mlHidden"] == out["ml"]
    assert out["view"].split() == ["once", "disagree", "hide-s1"]


# --------------------------------------------------------------------------- a book (issue 35)

def test_a_long_document_shows_the_sentences_of_its_examples_and_those_around_them(tmp_path):
    """A document of more than LONG_DOCUMENT sentences (a generated 12,000-word book): its
    examples' referents' sentences with CONTEXT before and after each, numbered as in the document,
    the left-out runs counted, every example link still leading to its referent."""
    import subprocess
    import sys
    from bisect import bisect_right
    from pathlib import Path

    from corefreport.report.doctext import CONTEXT, LONG_DOCUMENT

    out = tmp_path / "book"
    subprocess.run([sys.executable, str(Path(__file__).resolve().parents[1] / "bench" / "make_book.py"),
                    "--tokens", "12000", "--out", str(out)], check=True, capture_output=True)
    ev = evaluate(load_corpus(f"{out}.key"), load_corpus(f"{out}.response"), Settings(analyses=("arcs",)))
    report = build(ev)
    html = to_html(report)
    t = parsed(html)
    (doc,) = ev.key_corpus.documents
    lines = evaluation_document(ev, doc).sentence_lines()
    assert len(lines) > LONG_DOCUMENT
    starts = ev.key_corpus.documents[doc].sentence_starts
    examples = [e for b in report.section("examples").blocks if isinstance(b, Examples) for g in b.groups
                for e in g.examples]
    hit = {bisect_right(starts, e.row.start) - 1 for e in examples}
    shown = sorted({j for i in hit for j in range(i - CONTEXT, i + CONTEXT + 1) if 0 <= j < len(lines)})
    assert 0 < len(shown) < len(lines) / 2
    assert t.texts["doc-1"] == [lines[j] for j in shown]
    assert [int(n) for n in re.findall(r'<span class="sno">(\d+)</span>', html)] == [j + 1 for j in shown]
    gaps = [int(n) for n in re.findall(r'<p class="gap">… (\d+) sentence', html)]
    assert sum(gaps) == len(lines) - len(shown) and len(gaps) == sum(
        1 for k, j in enumerate(shown) if j != (shown[k - 1] + 1 if k else 0)) + (shown[-1] < len(lines) - 1)
    assert f"{len(shown)} of {len(lines)} sentences" in html
    assert len(t.hrefs) == len(examples) and set(t.hrefs) <= t.ids


def test_disagreeing_sentences_are_those_holding_a_disagreeing_mention():
    """Each mark's sentence found by its first word (bisect) is the definition read sentence by sentence."""
    _html, evs = _comparison_html()
    for doc in evs["ml"].key_corpus.documents:
        dt = systems_document(evs, doc)
        for sides in (None, ("key", "ml"), ("key", "rules")):
            marked = {m.span[0] for m in dt.shown(sides, disagreements=True)}
            assert dt.disagreeing_sentences(sides) == [
                i for i, (a, b) in enumerate(dt.sentence_bounds()) if any(a <= t < b for t in marked)]
