"""Issue 14, error examples in their sentences: per analysis the most frequent error groups (outcome,
class, type) with example links, the sentence shown with the referent and both antecedents marked —
the groups counted here independently from the outcome rows, the marks against the corpus tokens."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from html.parser import HTMLParser
from io import BytesIO

from corefreport.cli import example_paths
from corefreport.io import load_corpus
from corefreport.present.context import Piece, context, highlight, span_text
from corefreport.report.document import build, render
from corefreport.report.examples import GROUPS, PER_GROUP, example_blocks, examples, runs, trim
from corefreport.scoring.digest import partition
from corefreport.scoring.outcomes import group_by
from corefreport.report.html import to_html
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings


@lru_cache(maxsize=1)
def example():
    key, resp = example_paths()
    return evaluate(load_corpus(key), load_corpus(resp), Settings(analyses=("arcs", "typed")))


def test_groups_are_the_most_frequent_errors_of_each_analysis():
    ev = example()
    blocks = example_blocks(ev)
    assert [b.analysis for b in blocks] == ["immediate", "inferred", "anchor", "typed"]
    for b in blocks:
        rows = [r for r in ev.rows if r.analysis == b.analysis and r.outcome != "TP"]
        counts = Counter((r.outcome, r.cls, r.type) for r in rows)
        top = sorted(counts.values(), reverse=True)[:GROUPS]
        assert [g.count for g in b.groups] == top
        for g in b.groups:
            assert counts[(g.outcome, g.cls, g.type)] == g.count and g.errors == len(rows)
            assert g.outcome != "TP"
            assert 1 <= len(g.examples) <= PER_GROUP
            assert len(g.examples) == min(PER_GROUP, g.count)


def test_partition_sizes_are_the_group_by_counts_and_one_analysis_alone_gives_the_same_block():
    ev = example()
    parts = partition(ev.rows)
    counts = group_by(ev.rows, "analysis", "outcome", "cls", "type")
    assert {k: len(rs) for k, rs in parts.items()} == {k: c.key_total + c.fp for k, c in counts.items()}
    assert sum(map(len, parts.values())) == len(ev.rows)
    first = example_blocks(ev)[0]
    alone = examples(ev, first.analysis)
    assert [(g.outcome, g.cls, g.type, g.count, g.errors, [e.row for e in g.examples]) for g in alone.groups] == \
        [(g.outcome, g.cls, g.type, g.count, g.errors, [e.row for e in g.examples]) for g in first.groups]


def test_each_example_marks_the_referent_and_both_antecedents_in_its_sentence():
    ev = example()
    seen = Counter()
    for b in example_blocks(ev):
        for g in b.groups:
            for e in g.examples:
                marked = {p.role: p.text for p in e.pieces if p.role}
                assert "referent" in marked
                r = e.row
                assert (r.analysis, r.outcome, r.cls, r.type, r.doc_id) == (b.analysis, g.outcome, g.cls, g.type,
                                                                            e.doc_id)
                assert r.text.startswith(marked["referent"].split(" …")[0])
                key = span_text(ev, r.doc_id, r.key_antecedent, "key")
                if r.key_antecedent and r.key_antecedent[1] < r.start:  # marked "key", or "both" where it overlaps
                    assert key in " ".join(p.text for p in e.pieces if p.role in ("key", "both")), (marked, key)
                    assert any(p.tag.startswith("[K") for p in e.pieces)
                if r.outcome == "FN" and b.analysis != "anchor":
                    assert "response" not in marked and "no antecedent" in e.why
                if r.outcome in ("WL", "WTL", "FP"):
                    assert "response" in marked or "both" in marked or "referent" in marked
                if b.analysis == "anchor":
                    assert "anchor" in e.why
                seen[g.outcome] += 1
    assert seen["FN"] and seen["FP"] and seen["WL"]


def test_context_is_the_tui_highlight_sentences():
    """One presentation function for the TUI and the report: the tokens are those of the
    highlight's sentences, in order."""
    ev = example()
    r = next(r for r in ev.rows if r.analysis == "immediate" and r.outcome == "WL")
    h = highlight(ev, r)
    doc = ev.key_corpus.documents[r.doc_id]
    assert [p.text for p in context(ev, r)] == [doc.tokens[t] for a, b in h.sentences for t in range(a, b + 1)]


def test_trim_and_runs():
    ps = [Piece(f"w{i}", "referent" if i in (50, 51) else "key" if i == 10 else "", "[K]" if i == 10 else "")
          for i in range(80)]
    out = runs(trim(ps, 3))
    assert [p.text for p in out] == (["…", "w7", "w8", "w9", "w10", "w11", "w12", "w13", "…", "w47", "w48", "w49",
                                      "w50 w51", "w52", "w53", "w54", "…"])
    assert [p.role for p in out if p.role] == ["key", "referent"]
    short = [Piece("a"), Piece("b", "referent")]
    assert trim(short) == short


def test_html_and_pdf_show_the_examples():
    ev = example()
    html = to_html(build(ev))
    assert '<section id="examples">' in html and 'class="referent"' in html and 'class="tag key">[K]' in html

    class Check(HTMLParser):
        depth = 0

        def handle_starttag(self, tag, attrs):
            if tag == "span":
                self.depth += 1

        def handle_endtag(self, tag):
            if tag == "span":
                self.depth -= 1

    c = Check()
    c.feed(html)
    assert c.depth == 0
    from pypdf import PdfReader

    text = " ".join(p.extract_text() for p in PdfReader(BytesIO(render(ev, "pdf"))).pages)
    first = example_blocks(ev)[0].groups[0]
    assert "Error examples" in text and f"{first.count} of {first.errors} errors" in text


def test_examples_left_out_without_analyses():
    key, resp = example_paths()
    ev = evaluate(load_corpus(key), load_corpus(resp), Settings())
    assert build(ev).section("examples") is None


def test_an_antecedent_after_the_referent_is_shown_too():
    """The typed evaluation links a referent to its chain's dominant mention, which may follow it:
    the context reaches it (a cataphoric key antecedent is marked [K])."""
    ev = example()
    rows = [r for r in ev.rows if r.key_antecedent and r.key_antecedent[0] > r.end]
    assert rows
    for r in rows[:20]:
        pieces = context(ev, r)
        assert any(p.role in ("key", "both") for p in pieces) and any(p.tag.startswith("[K") for p in pieces)


def test_latex_has_the_compact_table_of_error_groups():
    from corefreport.report.examples import _typesettable
    from corefreport.report.latex import to_latex

    ev = example()
    tex = to_latex(build(ev))
    assert r"\caption{Most frequent errors per analysis}" in tex
    for b in example_blocks(ev):
        for g in b.groups:
            assert f"& {g.outcome} & " in tex and f" & {g.count} & " in tex
    assert _typesettable("Dvořák's “café” …") is False and _typesettable("Dvorak's “café” …")


def test_example_tokens_are_escaped_in_html_and_latex():
    from corefreport.io.conll2012 import read_conll2012
    from corefreport.report.latex import to_latex

    key = ("#begin document (d);\nd\t0\t0\t<Ann>\t(1)\nd\t0\t1\tsaw\t-\nd\t0\t2\tR&D\t(2)\nd\t0\t3\t.\t-\n\n"
           "d\t0\t4\tShe\t(1)\nd\t0\t5\tliked\t-\nd\t0\t6\tit\t(2)\nd\t0\t7\t.\t-\n#end document\n")
    resp = key.replace("(2)\nd\t0\t3", "(1)\nd\t0\t3")  # R&D joins <Ann>'s entity: "it" and "R&D" go wrong
    ev = evaluate(read_conll2012("k", key), read_conll2012("r", resp), Settings(analyses=("arcs",)))
    html = to_html(build(ev))
    section = html.split('<section id="examples">', 1)[1].split("</section>", 1)[0]
    assert "&lt;Ann&gt;" in section and "R&amp;D" in section and "<Ann>" not in section
    tex = to_latex(build(ev))
    assert "R&D" not in tex.split("Most frequent errors", 1)[1]
