"""What each page of ``corefreport tui`` shows, as pure functions of the result model.

Hand-made outcome rows (on real spans of the bundled example) on top of the real standard metrics,
so every expected cell is computed here by hand; then consistency checks on the real analyses.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pytest

from corefreport.cli import example_paths
from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import ALL_METRICS, STANDARD_METRICS
from corefreport.scoring.settings import Settings
from corefreport.scoring.outcomes import LinkOutcome, group_by
from corefreport.tui import model as M

A = "GUM_academic_exposure; part 000"
B = "GUM_court_mitigation; part 000"


def row(analysis, doc, span, outcome, cls, type_, key=None, resp=None, text="", credit=None, **features):
    if credit is None:
        credit = 1.0 if outcome == "TP" else 0.0
    return LinkOutcome(analysis, doc, span[0], span[1], text, outcome, credit, key, resp, cls, type_,
                       dict(features))


HAND_ROWS = [
    row("immediate", A, (25, 25), "TP", "NOUN", "NAME", (9, 9), (9, 9), "L2", mtype="NAME"),
    row("immediate", A, (48, 48), "WL", "NOUN", "NAME", (25, 25), (3, 7), "L2", mtype="NAME"),
    row("immediate", A, (156, 157), "FN", "NOUN", "NOMINAL", (126, 126), None, "a language", mtype="NOMINAL"),
    row("immediate", A, (167, 167), "FP", "CD", "NOMINAL", None, (9, 9), "17", mtype="NOMINAL"),
    row("immediate", A, (211, 211), "TP", "NOUN", "NAME", (3, 7), (3, 7), "L2", mtype="NAME"),
    row("typed", A, (25, 25), "WT", "NAME", "NAME/one-word", (9, 9), (9, 9), "L2", credit=0.75),
    row("typed", A, (48, 48), "WTL", "NAME", "NAME/one-word", (25, 25), (3, 7), "L2", credit=0.25),
    row("typed", B, (0, 0), "TP", "PRONOUN", "PRONOUN/personal", (0, 0), (0, 0), "x"),
]


@lru_cache(maxsize=1)
def standard():
    key, resp = example_paths()
    return evaluate(load_corpus(key), load_corpus(resp), Settings(metrics=STANDARD_METRICS))


def hand():
    return replace(standard(), rows=list(HAND_ROWS))


@lru_cache(maxsize=1)
def full():
    key, resp = example_paths()
    return evaluate(load_corpus(key), load_corpus(resp), Settings(metrics=ALL_METRICS, analyses=("arcs", "typed")))


def cells(view, full_=True):
    return view.plain(full=full_)


# ----------------------------------------------------------------------------- totals


def test_totals_show_every_metric_with_counts_then_the_analyses():
    ev = hand()
    view = M.totals_view(ev)
    assert view.columns == ("metric", "R", "P", "F1", "counts")
    rows = cells(view)
    labels = [r[0] for r in rows]
    assert labels == ["MUC", "B³", "CEAF-m", "CEAF-e", "BLANC", "LEA", "CoNLL", "mentions", "ARCS 1 immediate",
                      "typed (Žitkus)"]
    muc = ev.metrics["muc"]
    assert rows[0] == ["MUC", M.pct(muc.recall), M.pct(muc.precision), M.pct(muc.f1),
                       f"{muc.recall_num:g}/{muc.recall_den:g}  {muc.precision_num:g}/{muc.precision_den:g}"]
    assert rows[6][1:4] == ["", "", M.pct(ev.conll)]
    # ARCS 1 from the rows: TP 2, WL 1, FN 1, FP 1 → R = 2/4, P = 2/4
    assert rows[8] == ["ARCS 1 immediate", "50.00", "50.00", "50.00", "TP 2 WL 1 FN 1 FP 1"]
    # typed: credit 0.75 + 0.25 + 1 = 2 over 3 key referents and 3 resolved
    assert rows[9][1:] == ["66.67", "66.67", "66.67", "TP 1 WT 1 WTL 1"]
    targets = [r.target for r in view.items]
    assert targets[0] == ("metric", "muc") and targets[8] == ("analysis", "immediate")
    assert view.rows()[8][0] == "ARCS 1 immediate ›"  # drillable rows are marked on screen


def test_totals_note_has_corpus_sizes_and_signature():
    ev = hand()
    note = M.totals_view(ev).note
    k, r = ev.key_stats, ev.response_stats
    assert f"{k.documents}/{r.documents} docs" in note and f"{k.mentions}/{r.mentions} mentions" in note
    assert f"({k.singletons}/{r.singletons} single)" in note
    assert note.splitlines()[-1] == str(ev.signature)


def test_totals_of_a_full_run_read_the_analysis_objects():
    ev = full()
    rows = M.total_rows(ev)
    labels = [r.label for r in rows]
    for name in ("LMUC", "LB³", "LCEAF-m", "LCEAF-e", "ARCS 1 immediate", "ARCS 2 inferred", "ARCS 3 anchor",
                 "  entity detection", "  entity mentions", "  Fφ (ED, EM)", "typed (Žitkus)", "  micro", "  macro",
                 "  scheme coverage"):
        assert name in labels, name
    arcs1 = rows[labels.index("ARCS 1 immediate")]
    total = ev.arcs.scenarios["immediate"].total
    assert (arcs1.recall, arcs1.precision, arcs1.f1) == (total.recall, total.precision, total.f1)
    micro = rows[labels.index("  micro")]
    assert micro.f1 == ev.typed.micro["f1"] and micro.target == ("analysis", "typed")
    ed = rows[labels.index("  entity detection")]
    assert ed.f1 == ev.arcs.scenarios["anchor"].entity.as_dict()["ed"]["f1"]


# ----------------------------------------------------------------------------- classes and types


def test_classes_are_a_group_by_with_outcome_columns_of_the_analysis():
    ev = hand()
    view = M.group_view(ev, M.Scope("immediate"), "cls")
    assert view.columns == ("class", "mix", "TP", "WL", "FN", "FP", "P", "R", "F1")  # no WT/WTL in ARCS
    rows = cells(view)
    # NOUN: TP 2 WL 1 FN 1 → R = 2/4, P = 2/3; CD: one FP
    assert [r[0] for r in rows] == ["CD", "NOUN"]
    assert rows[1][2:] == ["2", "1", "1", "0", "66.67", "50.00", "57.14"]
    assert rows[0][2:] == ["0", "0", "0", "1", "0.00", "0.00", "0.00"]
    assert [g.scope for g in view.items] == [M.Scope("immediate", (("cls", "CD"),)),
                                             M.Scope("immediate", (("cls", "NOUN"),))]
    typed = M.group_view(ev, M.Scope("typed"), "cls")
    assert typed.columns[2:8] == ("TP", "WT", "WL", "WTL", "FN", "FP")


def test_types_inside_a_class_and_breakdowns():
    ev = hand()
    view = M.group_view(ev, M.Scope("immediate", (("cls", "NOUN"),)), "type")
    assert [[r[0]] + r[2:6] for r in cells(view)] == [["NAME", "2", "1", "0", "0"], ["NOMINAL", "0", "0", "1", "0"]]
    assert view.items[0].scope.filters == {"cls": "NOUN", "type": "NAME"}
    assert M.breakdowns(ev, "immediate") == ["cls", "mtype", "doc_id"]
    by_mtype = M.group_view(ev, M.Scope("immediate"), "mtype")
    assert [(r[0], r[2]) for r in cells(by_mtype)] == [("NAME", "2"), ("NOMINAL", "0")]
    assert by_mtype.columns[0] == "mention type"


@pytest.mark.parametrize("sort, order", [
    ("name", ["CD", "NOUN"]),
    ("F1", ["CD", "NOUN"]),         # worst first
    ("size", ["NOUN", "CD"]),       # key referents + FP, largest first
    ("errors", ["NOUN", "CD"]),     # WL + FN + FP: 2 against 1
    ("FP", ["CD", "NOUN"]),
])
def test_group_sorts(sort, order):
    view = M.group_view(hand(), M.Scope("immediate"), "cls", sort)
    assert [g.key for g in view.items] == order
    assert [g.key for g in M.group_view(hand(), M.Scope("immediate"), "cls", sort, reverse=True).items] == order[::-1]


def test_mix_bar_has_fixed_width_and_a_shade_per_outcome():
    from corefreport.scoring.outcomes import OutcomeCounts

    c = OutcomeCounts(tp=97, fn=2, fp=1)
    bar = M.mix_bar(c, 10)
    assert len(bar.plain) == 10
    assert bar.plain.count(M.OUTCOME_GLYPH["FN"]) == 1 and bar.plain.count(M.OUTCOME_GLYPH["FP"]) == 1
    assert bar.plain.startswith(M.OUTCOME_GLYPH["TP"] * 8)
    assert {str(s.style) for s in bar.spans} == {"green", "red", "blue"}
    assert M.mix_bar(OutcomeCounts(), 6).plain == " " * 6


# ----------------------------------------------------------------------------- links


def test_links_of_a_type_errors_first_then_document_order():
    ev = hand()
    view = M.link_view(ev, M.Scope("immediate", (("cls", "NOUN"), ("type", "NAME"))))
    assert view.columns == ("outcome", "referent", "key antecedent", "resp. antecedent", "document")
    assert cells(view) == [
        ["WL", "L2", "L2", "adult - learned second language", A],
        ["TP", "L2", "L2", "L2", A],
        ["TP", "L2", "adult - learned second language", "adult - learned second language", A],
    ]
    assert view.note == "3 links"
    shown = view.rows()[0]
    assert shown[0].plain == "WL" and str(shown[0].style) == M.OUTCOME_STYLE["WL"]


def test_link_cells_are_cut_to_the_terminal_width():
    ev = hand()
    view = M.link_view(ev, M.Scope("immediate", (("type", "NAME"),)), width=80)
    w = M.link_widths(80)
    assert w == (17, 14, 16, 14)
    for r in view.rows():
        assert len(r[1]) <= w[0] and len(r[2]) <= w[1] and len(r[3]) <= w[2] and len(r[4]) <= w[3]
    # ids cut in the middle: their distinctive end stays, the CoNLL "; part 000" goes first
    assert view.rows()[0][4] == M.cut_middle(view.items[0].doc_id, 14) and "…" in view.rows()[0][4]
    assert M.cut_middle("GUM_academic_exposure; part 000", 14) == "GUM_…_exposure"
    assert M.cut_middle("GUM_news_nasa; part 000", 14) == "GUM_news_nasa"
    assert M.cut_middle("GUM_news_nasa; part 002", 14) == "GUM_…ws_nasa·2"
    assert sum(M.link_widths(120)) > sum(w)


@pytest.mark.parametrize("query, expected", [
    ("wl", ["WL"]),
    ("outcome:fn,fp", ["FN", "FP"]),
    ("language", ["WL", "FN", "TP"]),  # referent or either antecedent
    ("language -fn", ["WL", "TP"]),
    ("-outcome:tp,fn", ["WL", "FP"]),
    ("!language", ["FP", "TP"]),
    ("doc:court", []),
    ("doc:exposure tp", ["TP", "TP"]),
    ("type:NOMINAL", ["FN", "FP"]),
    ("class:CD", ["FP"]),
    ("mtype:NAME wl", ["WL"]),
    ("mtype:name wl", ["WL"]),
])
def test_link_search(query, expected):
    view = M.link_view(hand(), M.Scope("immediate"), query)
    assert [r.outcome for r in view.items] == expected
    assert view.note == f"{len(expected)} links of 5 match “{query}”"


def test_links_of_a_document():
    ev = hand()
    rows = M.link_rows(ev, M.Scope("typed", (("doc_id", B),)))
    assert [(r.outcome, r.doc_id) for r in rows] == [("TP", B)]


# ----------------------------------------------------------------------------- one link


def test_link_detail_highlights_referent_and_both_antecedents():
    ev = hand()
    wl = HAND_ROWS[1]
    text = M.link_detail(ev, wl)
    plain = text.plain
    assert plain.startswith(" WL  ARCS 1 immediate · NOUN › NAME · " + A)
    assert "L2[K]" in plain and "language[R]" in plain  # tags read without colour
    styles = [str(s.style) for s in text.spans]
    for style in (M.REFERENT_STYLE, M.KEY_STYLE, M.RESPONSE_STYLE):
        assert style in styles
    assert "referent            L2\nkey antecedent      L2\nresponse antecedent adult - learned second language" in plain
    # the two chains side by side, aligned by span, the referent marked ▶ in each
    chains = plain[plain.index("key chain ("):].splitlines()
    assert "│ response chain (" in chains[0]
    left, right = zip(*(line.split(" │ ") for line in chains[1:] if " │ " in line))
    referent = [i for i, x in enumerate(left) if x.startswith("▶ ")]
    assert len(referent) == 1 and right[referent[0]].startswith("▶ ") and "L2" in left[referent[0]]
    assert any("L2[K]" in x for x in left) and any("[R]" in x for x in right)
    tokens = {plain[s.start:s.end] for s in text.spans if str(s.style) == M.REFERENT_STYLE}
    assert "L2" in tokens


def test_agreeing_antecedents_share_one_colour_and_a_far_antecedent_is_elided():
    ev = hand()
    tp_far = HAND_ROWS[4]  # referent in sentence 7, antecedent in sentence 1
    h = M.highlight(ev, tp_far)
    doc = ev.key_corpus.documents[A]
    assert h.sentences == [doc.sentence_bounds(1), doc.sentence_bounds(7)]
    text = M.link_detail(ev, tp_far)
    assert "[K=R]" in text.plain and "… " in text.plain
    assert M.BOTH_STYLE in [str(s.style) for s in text.spans]


def test_detail_of_a_false_positive_and_long_chains_are_cut():
    ev = hand()
    fp = HAND_ROWS[3]
    text = M.link_detail(ev, fp).plain
    assert "key antecedent      —" in text
    chain = M.chain_spans(ev, A, (167, 167), "key")
    assert len(chain) > 8
    cut = M.link_detail(ev, fp, chain_limit=4).plain
    assert f"key chain ({len(chain)} mentions)" in cut and "later" in cut


# ----------------------------------------------------------------------------- documents and palette


def test_documents_worst_first_and_sortable():
    ev = hand()
    view = M.document_view(ev)
    assert view.columns == ("document", "CoNLL", "MUC", "B³", "CEAF-m", "CEAF-e", "BLANC", "LEA", "mentions")
    conll = [d.conll for d in view.items]
    assert conll == sorted(conll)
    assert cells(view)[0][1] == M.pct(min(d.conll() for d in ev.documents))
    by_muc = M.document_view(ev, "muc")
    assert [d.f1["muc"] for d in by_muc.items] == sorted(d.metrics["muc"].f1 for d in ev.documents)
    assert M.document_view(ev, "name").items[0].doc_id == A
    assert M.document_column_sorts(ev, view) == ["name", "conll", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea",
                                                 "mentions"]


def test_type_index_for_the_palette():
    assert M.type_index(hand()) == [
        ("immediate", "CD", "NOMINAL", 1), ("immediate", "NOUN", "NAME", 3), ("immediate", "NOUN", "NOMINAL", 1),
        ("typed", "NAME", "NAME/one-word", 2), ("typed", "PRONOUN", "PRONOUN/personal", 1)]


# ----------------------------------------------------------------------------- real analyses


def test_real_classes_types_and_links_add_up():
    ev = full()
    for analysis in M.analyses_present(ev):
        classes = M.group_view(ev, M.Scope(analysis), "cls")
        direct = group_by(ev.rows_of(analysis), "cls")
        assert [g.key for g in classes.items] == list(direct)
        for g in classes.items:
            types = M.group_view(ev, g.scope, "type")
            assert sum(t.counts.key_total + t.counts.fp for t in types.items) == g.counts.key_total + g.counts.fp
        first = classes.items[0].scope
        t0 = M.group_view(ev, first, "type").items[0]
        assert len(M.link_view(ev, t0.scope)) == t0.counts.key_total + t0.counts.fp


def test_export_never_overwrites(tmp_path):
    from corefreport.tui.export import export_view

    view = M.link_view(hand(), M.Scope("immediate"))
    a = export_view(view, "links", "csv", tmp_path)
    b = export_view(view, "links", "csv", tmp_path)
    c = export_view(view, "links", "json", tmp_path)
    assert (a.name, b.name, c.name) == ("links.csv", "links-2.csv", "links.json")
    lines = a.read_text(encoding="utf-8").splitlines()
    assert lines[0] == ("outcome,referent,key antecedent,resp. antecedent,document,start,end,key start,key end,"
                        "resp. start,resp. end,class,type,credit,analysis")  # values: ids and token offsets
    assert len(lines) == 6 and lines[1].startswith("WL,L2,L2,adult - learned second language,")
    import json

    assert json.loads(c.read_text(encoding="utf-8"))[0]["document"] == A  # whole, not cut


def test_keymap_file(tmp_path, monkeypatch):
    from corefreport.tui.keymap import load_keymap

    p = tmp_path / "keymap.toml"
    p.write_text('[keymap]\n"corefreport.back" = "backspace,escape"\n"corefreport.search" = "f"\n')
    monkeypatch.setenv("COREFREPORT_KEYMAP", str(p))
    assert load_keymap() == {"corefreport.back": "backspace,escape", "corefreport.search": "f"}
    monkeypatch.setenv("COREFREPORT_KEYMAP", str(tmp_path / "absent.toml"))
    assert load_keymap() == {}


def test_any_feature_can_be_grouped_by_after_scoring():
    """The run chose no 'lemma' breakdown; the class table can still group by it, now, from the rows."""
    ev = full()
    assert "lemma" not in ev.settings.by and "lemma" in M.breakdowns(ev, "immediate")
    view = M.group_view(ev, M.Scope("immediate"), "lemma")
    total = ev.arcs.scenarios["immediate"].total
    groups = ev.group_by("immediate", "lemma")
    assert len(view.items) == len(groups) > 50
    assert sum(c.tp for c in groups.values()) == total.tp and sum(c.fn for c in groups.values()) == total.fn
    assert groups["it"].key_total == len(ev.select("immediate", lemma="it")) - groups["it"].fp
