"""The report's view model: sections for what was computed (a note for what was not), numbers
taken from the result — checked against the JSON contract — never computed, write_report's
guarantees (no overwriting, whole files, format from the suffix)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest

from corefreport.cli import example_paths
from corefreport.io import load_corpus
from corefreport.present import tables as T
from corefreport.report.document import build, write_report
from corefreport.present.numbers import cell as format_cell
from corefreport.present.tables import bold_cells
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.settings import Settings


@lru_cache(maxsize=1)
def example():
    """The bundled GUM example with every metric and both analyses."""
    key, resp = example_paths()
    return evaluate(load_corpus(key), load_corpus(resp), Settings(metrics=ALL_METRICS, analyses=("arcs", "typed")))


@lru_cache(maxsize=1)
def example_standard():
    """The example with the standard metrics only (no analysis computed)."""
    key, resp = example_paths()
    return evaluate(load_corpus(key), load_corpus(resp), Settings())


def table(report, section: str, title_start: str) -> T.Table:
    for t in report.section(section).tables:
        if t.title.startswith(title_start):
            return t
    raise AssertionError(f"no table {title_start!r} in {section}: {[t.title for t in report.section(section).tables]}")


def rows_by_label(t: T.Table) -> dict:
    return {r[0]: r for r in t.rows}


def test_every_section_in_order_when_everything_was_computed():
    r = build(example())
    assert [s.id for s in r.sections] == ["summary", "metrics", "linguistic", "arcs", "typed", "examples", "documents", "methods"]
    assert r.notes == []  # p-link is not a default analysis: no note for it


def test_sections_whose_analysis_was_not_computed_are_left_out_with_a_note():
    r = build(example_standard())
    assert [s.id for s in r.sections] == ["summary", "metrics", "documents", "methods"]
    text = " ".join(r.notes)
    for what in ("Linguistically aware metrics", "ARCS", "Type-aware evaluation"):
        assert what in text
    r = build(example_standard(), sections=["plink", "metrics"])
    assert [s.id for s in r.sections] == ["metrics"]
    assert "p-link" in r.notes[0]


def test_sections_argument_selects_and_orders_canonically():
    r = build(example(), sections=["methods", "typed"])
    assert [s.id for s in r.sections] == ["typed", "methods"]


def test_metric_tables_hold_the_json_numbers():
    ev = example()
    d = ev.as_dict()
    r = build(ev)
    std = rows_by_label(table(r, "metrics", "Every standard metric"))
    for name in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea"):
        m = d["metrics"][name]
        assert std[name][1:4] == [m["recall"], m["precision"], m["f1"]]
        if name != "blanc":
            assert std[name][4:] == [m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"]]
    assert std["conll"][3] == d["metrics"]["conll"]["f1"]
    head = table(r, "metrics", "CoNLL-2012").rows[0]
    assert head[0] == "xrenner_response"
    assert head[1:] == [d["metrics"][m][x] for m in ("muc", "bcub", "ceafe") for x in ("recall", "precision", "f1")] + \
        [d["metrics"]["conll"]["f1"]]
    ling = rows_by_label(table(r, "linguistic", "Linguistically aware"))
    assert set(ling) == {"lmuc", "lbcub", "lceafm", "lceafe"}
    assert ling["lmuc"][3] == d["metrics"]["lmuc"]["f1"]
    assert "W = (1, 0.75, 0.5, 1)" in table(r, "linguistic", "Linguistically aware").title


def test_arcs_tables_hold_the_json_numbers():
    ev = example()
    d = ev.as_dict()["arcs"]
    r = build(ev)
    tot = table(r, "arcs", "ARCS totals").rows
    for row, name in zip(tot, ("immediate", "inferred", "anchor")):
        x = d[name]["total"]
        # scenario 3 (Entity Mentions) has no WL: its accuracy (always 100) is left out
        acc = None if name == "anchor" else x["accuracy"]
        assert row[1:] == [x["tp"], x["wl"], x["fn"], x["fp"], x["recall"], x["precision"], x["f1"], acc]
        if name == "anchor":
            assert x["wl"] == 0 and x["accuracy"] == 1.0
    by_type = {(row[0], row[1]): row for row in table(r, "arcs", "ARCS by mention type").rows}
    assert list(dict.fromkeys(k[0] for k in by_type)) == ["NAME", "NOMINAL", "PRONOUN"]
    for name, short in (("immediate", "ARCS 1"), ("inferred", "ARCS 2"), ("anchor", "ARCS 3")):
        x = d[name]["by"]["mtype"]["NOMINAL"]
        n = x["tp"] + x["wl"] + x["fn"]
        total = d[name]["total"]
        # raw counts, n and its share of the scenario's key referents (Tuggener's tables), R, P, F1
        assert by_type[("NOMINAL", short)][2:] == [x["tp"], x["wl"], x["fn"], x["fp"], n,
                                                    n / (total["tp"] + total["wl"] + total["fn"]), x["recall"],
                                                    x["precision"], x["f1"]]
    lemmas = {row[0] for row in table(r, "arcs", "ARCS by pronoun lemma").rows}
    assert "-" not in lemmas and "(none)" not in lemmas and "he" in lemmas
    titles = [t.title for t in r.section("arcs").tables]
    assert "ARCS by genre" in titles and "ARCS by NE type" in titles and "ARCS by POS class" in titles
    ent = rows_by_label(table(r, "arcs", "ARCS 3 by the anchor"))
    assert ent["total"][-1] == d["anchor"]["f_phi"]


def test_typed_tables_hold_the_json_numbers():
    ev = example()
    d = ev.as_dict()["typed"]
    r = build(ev)
    cls = table(r, "typed", "Typed evaluation by class")
    for row, (c, v) in zip(cls.rows, d["classes"].items()):
        assert row[0].startswith(c)
        assert row[1:] == [v[h] for h in ("tp", "wt", "wl", "wtl", "fn", "fp", "s_star", "precision", "recall", "f1")]
    avg = rows_by_label(table(r, "typed", "Micro, macro"))
    for key, label in (("micro", "micro"), ("macro", "macro"), ("scheme_coverage", "scheme coverage")):
        assert avg[label][1:] == [d[key]["precision"], d[key]["recall"], d[key]["f1"]]
    per_class = [t for t in r.section("typed").tables if t.title.startswith("Types of class")]
    assert len(per_class) == len({v["class"] for v in d["types"].values()})
    seen = {row[0]: row for t in per_class for row in t.rows if row[0] != "class total"}
    assert set(seen) == set(d["types"])
    for typ, v in d["types"].items():
        assert seen[typ][1] == v["tp"] and seen[typ][-1] == v["f1"]
    assert len(r.section("typed").charts) == 3


def test_documents_worst_first_and_cut_for_the_pdf():
    ev = example()
    pd = ev.as_dict(per_doc=True)["per_document"]
    t = build(ev).section("documents").tables[0]
    conll = [row[-2] for row in t.rows]
    assert conll == sorted(conll)
    worst = t.rows[0]
    assert worst[-2] == pd[worst[0]]["metrics"]["conll"]["f1"]
    assert worst[1] == pd[worst[0]]["mentions"]["recall_den"]
    cut = build(ev, max_documents=2).section("documents").tables[0]
    assert len(cut.rows) == 2 and "2 worst of 3" in cut.note


def test_methods_state_every_setting_and_cite_the_papers():
    ev = example()
    s = build(ev).section("methods")
    text = " ".join(s.text)
    assert str(ev.signature) in s.text
    for cite in ("Vilain et al. 1995", "Bagga & Baldwin 1998", "Luo 2005", "Luo et al. 2014", "Moosavi & Strube 2016",
                 "Pradhan et al. 2014", "Chen & Ng 2013", "Tuggener", "Žitkus et al. (2023)"):
        assert cite in text, cite
    for setting in ("singletons were kept", "exact span", "W = (1, 0.75, 0.5, 1)", "k = (1, 0.75, 0.5, 0.25)",
                    "scheme 'derived'", "kept twice (reference behaviour)"):
        assert setting in text, setting
    refs = [b.text for b in s.blocks if getattr(b, "kind", "") == "ref"]
    assert len(refs) == 10  # BLANC cites Recasens & Hovy 2011 and Luo et al. 2014
    order = ["Bagga", "Chen", "Luo. 2005", "Luo, Sameer", "Moosavi", "Pradhan, Xiaoqiang", "Hovy. 2011", "Tuggener",
             "Vilain", "Žitkus"]
    assert [next(i for i, r in enumerate(refs) if o in r) for o in order] == list(range(10))  # by first author


def test_cells_are_formatted_as_percentages_and_counts():
    assert format_cell(0.676923, "f1") == "67.69"
    assert format_cell(0.5, "muc_recall") == "50.00"
    assert format_cell(432.549, "recall_num") == "432.55"
    assert format_cell(220.0, "recall_num") == "220"
    assert format_cell(None, "f1") == ""
    assert format_cell("n/a", "f1") == "n/a"


def test_best_value_per_column_in_bold_when_rows_are_systems():
    t = T.Table("x", ["system", "muc_f1", "conll"], [["a", 0.5, 0.61], ["b", 0.6, 0.61]], best="column")
    assert bold_cells(t) == {(1, 1), (0, 2), (1, 2)}
    t.rows = t.rows[:1]
    assert bold_cells(t) == set()


def test_write_report_never_overwrites_and_checks_the_suffix(tmp_path):
    out = tmp_path / "r.html"
    write_report(example_standard(), out)
    first = out.read_bytes()
    with pytest.raises(FileExistsError):
        write_report(example_standard(), out, title="Other")
    assert out.read_bytes() == first
    write_report(example_standard(), out, title="Other", force=True)
    assert b"Other" in out.read_bytes()
    with pytest.raises(ValueError, match=".pdf, .html or .tex"):
        write_report(example_standard(), tmp_path / "r.docx")
    with pytest.raises(ValueError, match="unknown section"):
        write_report(example_standard(), tmp_path / "s.html", sections=["nonsense"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]  # no temporary file left behind


def test_progress_is_reported_per_stage(tmp_path):
    said: list[str] = []
    ev = example_standard()
    write_report(ev, tmp_path / "r.tex", progress=said.append)
    assert said == ["resampling documents for the summary's intervals…", "building the report tables…",
                    "rendering LaTeX…"]
    tex = (tmp_path / "r.tex").read_text(encoding="utf-8")
    # MUC of the example's three documents: 220/338 and 220/312 in reference v8.01's per-document
    # output (shared/data/xrenner/reference-scores/per_document.tsv), F1 67.69
    assert f"{100 * ev.metrics['muc'].f1:.2f}" == "67.69" and "67.69" in tex


def test_duplicates_and_warnings_are_listed(tmp_path):
    from corefreport.io.conll2012 import read_conll2012

    key = "#begin document (d);\nd\t0\t0\tA\t(1)\nd\t0\t1\tB\t(1)\n#end document\n"
    resp = "#begin document (d);\nd\t0\t0\tA\t(1)|(2)\nd\t0\t1\tB\t(1)\n#end document\n"
    ev = evaluate(read_conll2012("k", key), read_conll2012("r", resp), Settings(metrics=("muc", "bcub", "ceafe")))
    s = build(ev).section("summary")
    # the response writes key mention A in chains 1 and 2: reference v8.01 keeps it in the first only
    assert [(d.side, d.span, d.labels) for d in ev.duplicates] == [("response", (0, 0), ["1", "2"])]
    dup = next(t for t in s.tables if t.title.startswith("Repeated mentions"))
    assert len(dup.rows) == 1
    # warnings are in the appendix, the corpus section points there
    appendix = build(ev).section("warnings")
    assert [b.text for b in appendix.blocks] == ev.warnings
    assert "1 warning(s): see the appendix" in " ".join(s.text)
    assert Path(ev.key_source).name in s.tables[0].rows[0][-1]
