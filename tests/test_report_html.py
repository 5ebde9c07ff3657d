"""The HTML report: well-formed, every section's tables, escaped text, self-contained (one inlined
stylesheet, inline SVG charts, one inline script that sorts tables, nothing fetched from the network)."""

from __future__ import annotations

import re
from pathlib import Path
from html.parser import HTMLParser

import pytest

from test_report_model import example, example_standard

from corefreport.io.conll2012 import read_conll2012
from corefreport.report.document import build, to_html
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

VOID = {"meta", "br", "img", "hr", "link", "input", "col"}
SVG_EMPTY = {"line", "rect", "text", "title"}  # may be self-closed (<line … />) inside an svg


class Checker(HTMLParser):
    """Every element closed in order; counts tables and collects section ids and captions."""

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.tables = 0
        self.sections: list[str] = []
        self.svgs = 0
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.tables += 1
        if tag == "section":
            self.sections.append(a["id"])
        if tag == "svg":
            self.svgs += 1
        if tag == "script":
            assert "src" not in a, "no external script"
            self.scripts += 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        assert tag in VOID | SVG_EMPTY, tag

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-3:])
        self.stack.pop()


def check(html: str) -> Checker:
    c = Checker()
    c.feed(html)
    c.close()
    assert c.stack == []
    return c


def test_html_is_well_formed_with_every_section_and_table():
    report = build(example())
    html = to_html(report)
    c = check(html)
    assert c.sections == [s.id for s in report.sections]
    assert c.tables == sum(len(s.tables) for s in report.sections) >= 15
    assert c.svgs == sum(len(s.charts) for s in report.sections) == 4
    assert c.scripts == 1  # the inline table sorter; the PDF's HTML has none
    assert check(to_html(report, pdf=True)).scripts == 0
    for s in report.sections:
        assert f"{s.title}</h2>" in html
        for t in s.tables:
            assert t.title.replace("&", "&amp;").replace("'", "&#39;") in html, t.title


def test_numbers_are_in_the_cells():
    ev = example()
    html = to_html(build(ev))
    d = ev.as_dict()
    muc = d["metrics"]["muc"]
    assert re.search(rf"<td>MUC</td><td class=\"n\">{100 * muc['recall']:.2f}</td><td class=\"n\">"
                     rf"{100 * muc['precision']:.2f}</td><td class=\"n\">{100 * muc['f1']:.2f}</td>", html)
    micro = d["typed"]["micro"]
    assert (f"<td>micro</td><td class=\"n\">{100 * micro['precision']:.2f}</td><td class=\"n\">"
            f"{100 * micro['recall']:.2f}</td><td class=\"n\">{100 * micro['f1']:.2f}</td>") in html
    for doc in ev.documents:  # the HTML lists every document
        assert f"<td>{doc.doc_id}</td>" in html


def test_grouped_headers_span_their_columns():
    html = to_html(build(example()))
    assert '<th colspan="3" class="group"><span>MUC</span></th>' in html
    assert '<th colspan="4" class="group"><span>Referents</span></th>' in html  # TP, WL, FN, FP of a breakdown


def test_mention_text_and_document_ids_are_escaped():
    text = "#begin document (a<b&c);\nd\t0\t0\t<x>\t(1)\nd\t0\t1\t&\t(1)\n#end document\n"
    ev = evaluate(read_conll2012("k<&", text), read_conll2012("r", text), Settings(metrics=("muc", "bcub", "ceafe")))
    html = to_html(build(ev, title="A <b> & C"))
    assert "a&lt;b&amp;c" in html and "a<b&c" not in html
    assert "A &lt;b&gt; &amp; C" in html and "<b>" not in html
    check(html)


def test_self_contained_no_network_no_stray_fonts():
    html = to_html(build(example()))
    urls = set(re.findall(r"https?://[^\s\"')]+", html))
    assert urls <= {"http://www.w3.org/2000/svg"}  # the SVG namespace, never fetched
    assert "@import" not in html and "<link" not in html and "@font-face" not in html
    families = set(re.findall(r'font-family[=:]\s*"?([^;">]+)', html))
    assert families and all("TeX Gyre" in f and "DejaVu" in f for f in families), families
    assert html.count("<style>") == 1


def test_omitted_sections_are_noted_at_the_top():
    html = to_html(build(example_standard()))
    head = html.split("<section", 1)[0]
    assert "Type-aware evaluation: left out, the typed analysis was not computed." in head
    check(html)


def test_charts_show_the_outcome_counts():
    ev = example()
    html = to_html(build(ev))
    v = ev.as_dict()["typed"]["classes"]["NOMINAL"]
    total = sum(v[o] for o in ("tp", "wt", "wl", "wtl", "fn", "fp"))
    assert f"<title>TP {v['tp']} ({100 * v['tp'] / total:.1f} %)</title>" in html
    # n is the key referents, as in the tables (S* = TP+WT+WL+WTL+FN), not the bar's rows (which add FP)
    assert f"n = {v['s_star']}" in html and v["s_star"] == total - v["fp"]
    assert "n: key referents (S* = TP+WT+WL+WTL+FN)" in html


def test_html_passes_an_html5_parser_without_errors():
    """The WHATWG parsing algorithm (tinyhtml5, the html5lib parser WeasyPrint depends on) reports
    no parse error on the screen and the print HTML, examples and comparison included."""
    parser = pytest.importorskip("tinyhtml5.parser")
    p = parser.HTMLParser()
    p.parse("<!DOCTYPE html><p><td></b>")  # the check can fail: a stray cell and end tag are errors
    assert p.errors
    report = build(example())
    assert report.section("examples") is not None
    for html in (to_html(report), to_html(report, pdf=True)):
        p = parser.HTMLParser()
        p.parse(html)
        assert p.errors == []


def test_template_cache_gives_the_same_html_and_survives_damaged_or_unwritable_entries(tmp_path, monkeypatch) -> None:
    """jinja2's bytecode cache (report/html.bytecode_cache): a damaged entry (right header, broken
    data) is compiled again, an unwritable directory is skipped."""
    from jinja2 import Environment, FileSystemLoader
    from jinja2.bccache import bc_magic

    from corefreport.report import html as H

    monkeypatch.setenv("COREFREPORT_TEMPLATE_CACHE", "0")
    assert H.bytecode_cache() is None
    monkeypatch.delenv("COREFREPORT_TEMPLATE_CACHE")
    cache = H.bytecode_cache()
    assert cache is not None
    cache.directory = str(tmp_path)
    base = Path(H.__file__).parent.parent / "templates"
    env = Environment(loader=FileSystemLoader(str(base)), bytecode_cache=cache)
    env.get_template("_macros.html.j2")
    entries = list(tmp_path.iterdir())
    assert entries  # written
    for f in entries:
        f.write_bytes(bc_magic + b"\x80\x05damaged")  # the header, then no pickled checksum
    again = Environment(loader=FileSystemLoader(str(base)), bytecode_cache=cache)
    assert again.get_template("_macros.html.j2").module is not None  # compiled anew
    cache.directory = str(tmp_path / "missing" / "dir")  # cannot be written: no error
    Environment(loader=FileSystemLoader(str(base)), bytecode_cache=cache).get_template("_macros.html.j2")
