"""System comparison on the four real xrenner responses (GUM key: rules-gum vs ml-gum; OntoGUM key:
ml-ontonotes vs rules-ontonotes): per-document counts sum to the corpus scores exactly, a system
compared with itself gives p = 1 and zero deltas, fixed seeds give fixed p-values, bootstrap
intervals hold the corpus scores, per-class deltas and link changes are consistent with the outcome
rows, and every rendering (terminal, JSON, CSV, Markdown, LaTeX) carries the signature."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from functools import cache

import numpy as np
import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.io import load_corpus
from corefreport.scoring.compare import LINK_FIELDS, compare, counts_vector, document_matrix
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.settings import Settings
from corefreport.scoring.outcomes import group_by, tally
from corefreport.scoring.registry import REGISTRY
from corefreport.present.output import changed_links_text
from corefreport.present.render import comparison_csv, comparison_latex, comparison_markdown
from corefreport.present.tables import comparison_tables, highlights
from corefreport.present.terminal import render

from conftest import shared_path

PAIRS = {"gum": ("gum.conll", "rules-gum", "ml-gum"), "ontogum": ("ontogum.conll", "ml-ontonotes", "rules-ontonotes")}


@cache
def evaluations(pair: str) -> dict:
    key_file, *systems = PAIRS[pair]
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", key_file)))
    out = {}
    for name in systems:
        resp = load_corpus(str(shared_path("data", "xrenner", "conll2012", f"{name}.conll")))
        out[name] = evaluate(key, resp, Settings(metrics=ALL_METRICS, analyses=("arcs", "typed")))
    return out


@cache
def comparison(pair: str, seed: int = 7):
    evs = evaluations(pair)
    return compare(evs, PAIRS[pair][1], bootstrap=300, randomization=2000, seed=seed)


# ---------------------------------------------------------------------------------------------
# The counts that are resampled are the counts that were scored
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("pair", PAIRS)
def test_per_document_counts_sum_to_the_corpus_scores_exactly(pair):
    for name, ev in evaluations(pair).items():
        mats = document_matrix(ev, [d.doc_id for d in ev.documents])
        for metric, s in ev.metrics.items():
            total = mats[metric].sum(0)
            assert list(total) == counts_vector(s), (name, metric)  # every numerator and denominator
            r, p, f = REGISTRY[metric].rpf(total)[0]
            assert (r, p, f) == (s.recall, s.precision, s.f1), (name, metric)
        assert list(mats["mentions"].sum(0)) == counts_vector(ev.mentions)
        for a in ("immediate", "inferred", "anchor"):
            c = tally(ev.rows_of(a))
            assert list(mats[a].sum(0)) == [c.credit, c.key_total, c.resolved + c.fp], (name, a)
        typed = ev.typed
        rpf = REGISTRY["referents"].rpf(mats["typed"].sum(0))[0]
        assert (rpf[0], rpf[1], rpf[2]) == (typed.micro["recall"], typed.micro["precision"], typed.micro["f1"])


@pytest.mark.parametrize("pair", PAIRS)
def test_comparison_shows_each_systems_own_scores_exactly(pair):
    evs = evaluations(pair)
    cmp = comparison(pair)
    names = [m.name for m in cmp.metrics]
    assert names == ["muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll", "lmuc", "lbcub", "lceafm", "lceafe",
                     "mentions", "immediate", "inferred", "anchor", "typed_micro", "typed_macro", "typed_scheme"]
    for name, ev in evs.items():
        for metric, s in ev.metrics.items():
            row = cmp.metric(metric)
            assert (row.recall[name], row.precision[name], row.f1[name]) == (s.recall, s.precision, s.f1)
        assert cmp.metric("conll").f1[name] == ev.conll
        assert cmp.metric("mentions").f1[name] == ev.mentions.f1
        for a in ("immediate", "inferred", "anchor"):
            assert cmp.metric(a).f1[name] == tally(ev.rows_of(a)).f1
        typed = ev.typed
        assert cmp.metric("typed_micro").f1[name] == typed.micro["f1"]
        assert cmp.metric("typed_macro").f1[name] == typed.macro["f1"]
        assert cmp.metric("typed_scheme").f1[name] == typed.scheme_coverage["f1"]
    for row in cmp.metrics:
        assert row.best == [max(row.f1, key=row.f1.get)]


def test_reference_numbers_and_direction_of_the_differences():
    """Reference v8.01 (README of the xrenner data): ml-gum beats rules-gum by 4.2 CoNLL points
    (64.82/66.46/64.74 vs 60.41/62.15/60.82, printed truncated); on OntoGUM the rules beat the
    classifiers (57.59/46.15/42.59 vs 56.24/42.40/35.78)."""
    gum = comparison("gum").metric("conll").tests["ml-gum"]
    assert gum.delta == pytest.approx((64.82 + 66.46 + 64.74 - 60.41 - 62.15 - 60.82) / 300, abs=2e-4)
    assert gum.p_value == 1 / 2001 and gum.delta_ci[0] > 0
    onto = comparison("ontogum").metric("conll").tests["rules-ontonotes"]
    # our default drops OntoGUM's one repeated key mention, so allow a few hundredths
    assert onto.delta == pytest.approx((57.59 + 46.15 + 42.59 - 56.24 - 42.40 - 35.78) / 300, abs=5e-4)
    assert onto.delta > 0


# ---------------------------------------------------------------------------------------------
# Significance
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("pair", PAIRS)
def test_system_against_itself(pair):
    name = PAIRS[pair][2]
    ev = evaluations(pair)[name]
    cmp = compare({"a": ev, "b": ev}, "a", bootstrap=200, randomization=500, seed=1)
    for m in cmp.metrics:
        t = m.tests["b"]
        assert t.delta == 0.0 and t.delta_ci == (0.0, 0.0), m.name
        assert t.p_value == 1.0 and t.p_bootstrap == 1.0 and not t.significant(), m.name
        assert m.best == ["a", "b"]
    assert cmp.groups["b"] and all(g.delta == 0.0 and g.test.p_value == 1.0 for g in cmp.groups["b"])
    for lc in cmp.links["b"].values():
        assert lc.changes == [] and lc.gains == lc.losses == 0
        assert all(a == b for a, b in lc.transitions)
    assert all(d.delta == 0.0 for d in cmp.per_document["b"])


def test_fixed_seed_gives_fixed_p_values():
    a = comparison("gum").as_dict(links=True)
    evs = evaluations("gum")
    b = compare(evs, "rules-gum", bootstrap=300, randomization=2000, seed=7).as_dict(links=True)
    assert a == b
    tests = comparison("gum").tests
    # (c + 1) / (2000 + 1) and (c + 1) / (300 + 1) for seed 7: a change here means the draws changed
    assert tests["conll"]["ml-gum"].p_value == 1 / 2001
    assert tests["blanc"]["ml-gum"].p_value == 3 / 2001
    assert tests["mentions"]["ml-gum"].p_value == 40 / 2001
    assert tests["typed_micro"]["ml-gum"].p_value == 197 / 2001
    assert tests["typed_macro"]["ml-gum"].p_value == 463 / 2001
    assert tests["mentions"]["ml-gum"].p_bootstrap == 5 / 301
    assert tests["typed_micro"]["ml-gum"].p_bootstrap == 26 / 301
    other = compare(evs, "rules-gum", bootstrap=300, randomization=2000, seed=8)
    assert other.tests["typed_micro"]["ml-gum"].p_value != 197 / 2001


def test_tests_do_not_depend_on_what_else_is_compared():
    """The same document draws serve every metric and system: dropping the per-group statistics or
    adding a third system leaves a pair's tests unchanged."""
    evs = evaluations("gum")
    full = comparison("gum")
    bare = compare(evs, "rules-gum", bootstrap=300, randomization=2000, seed=7, groupings=())
    assert bare.groups["ml-gum"] == []
    three = compare({**evs, "again": evs["ml-gum"]}, "rules-gum", bootstrap=300, randomization=2000, seed=7)
    for m in full.metrics:
        assert bare.metric(m.name).tests["ml-gum"] == m.tests["ml-gum"]
        assert three.metric(m.name).tests["ml-gum"] == m.tests["ml-gum"]
        assert three.metric(m.name).tests["again"] == m.tests["ml-gum"]


@pytest.mark.parametrize("pair", PAIRS)
def test_bootstrap_intervals_hold_the_corpus_scores(pair):
    cmp = comparison(pair)
    for m in cmp.metrics:
        for name, (lo, hi) in m.ci.items():
            assert lo <= m.f1[name] <= hi, (m.name, name)
        for t in m.tests.values():
            assert t.baseline_ci[0] <= t.baseline <= t.baseline_ci[1], m.name
            assert t.system_ci[0] <= t.system <= t.system_ci[1], m.name
            assert t.delta_ci[0] <= t.delta <= t.delta_ci[1], m.name
            assert 1 / 2001 <= t.p_value <= 1 and 1 / 301 <= t.p_bootstrap <= 1


# ---------------------------------------------------------------------------------------------
# Per-class / per-type deltas and link changes come from the outcome rows
# ---------------------------------------------------------------------------------------------

def test_group_deltas_are_group_bys_of_the_outcome_rows():
    evs = evaluations("gum")
    cmp = comparison("gum")
    base, sys = evs["rules-gum"], evs["ml-gum"]
    for a in ("immediate", "inferred", "anchor", "typed"):
        for by in ("cls", "type"):
            ga, gb = group_by(base.rows_of(a), by), group_by(sys.rows_of(a), by)
            rows = cmp.group_deltas("ml-gum", a, by)
            assert [g.group for g in rows] == sorted(set(ga) | set(gb))
            for g in rows:
                ca, cb = ga.get(g.group), gb.get(g.group)
                assert g.test.baseline == (ca.f1 if ca else 0.0) and g.test.system == (cb.f1 if cb else 0.0)
                assert g.key_referents == (ca.key_total if ca else 0)
            assert sum(g.key_referents for g in rows) == tally(base.rows_of(a)).key_total
    # the example of the issue: typed F1 on possessive pronouns and definite NPs
    types = {g.group: g for g in cmp.group_deltas("ml-gum", "typed", "type")}
    assert types["PRONOUN/possessive"].label == "possessive pronoun"
    assert "NOMINAL/definite" in types
    gains, losses = cmp.gains("ml-gum", "typed", "type"), cmp.losses("ml-gum", "typed", "type")
    assert gains and all(g.delta > 0 for g in gains) and all(g.delta < 0 for g in losses)
    assert [g.delta for g in gains] == sorted((g.delta for g in gains), reverse=True)


@pytest.mark.parametrize("pair", PAIRS)
def test_link_changes_account_for_every_outcome_row(pair):
    evs = evaluations(pair)
    base, name = PAIRS[pair][1], PAIRS[pair][2]
    cmp = comparison(pair)
    for a, lc in cmp.links[name].items():
        ra, rb = evs[base].rows_of(a), evs[name].rows_of(a)
        # transitions count every row of either side once (rows are keyed by doc, span and side)
        from_base = Counter(x for (x, _), n in lc.transitions.items() for _ in range(n) if x != "none")
        from_sys = Counter(y for (_, y), n in lc.transitions.items() for _ in range(n) if y != "none")
        assert from_base == Counter(r.outcome for r in ra)
        assert from_sys == Counter(r.outcome for r in rb)
        assert len(lc.changes) == sum(n for (x, y), n in lc.transitions.items() if x != y)
        # key referents right in one system only explain the difference in TP
        key_gains = sum(1 for c in lc.changes if c.kind == "gain" and c.side == "key")
        key_losses = sum(1 for c in lc.changes if c.kind == "loss" and c.side == "key")
        tp = Counter(r.outcome for r in rb)["TP"] - Counter(r.outcome for r in ra)["TP"]
        assert key_gains - key_losses == tp
        fp = Counter(r.outcome for r in rb)["FP"] - Counter(r.outcome for r in ra)["FP"]
        resp_gains = sum(1 for c in lc.changes if c.kind == "gain" and c.side == "response")
        resp_losses = sum(1 for c in lc.changes if c.kind == "loss" and c.side == "response")
        assert resp_losses - resp_gains == fp
        for c in lc.changes[:50]:
            assert c.baseline != c.system and c.analysis == a
    assert cmp.disagreements[name]["typed"] == (cmp.links[name]["typed"].losses, cmp.links[name]["typed"].gains)


def test_per_document_deltas_of_the_headline_score():
    evs = evaluations("gum")
    cmp = comparison("gum")
    assert cmp.headline == "conll"
    docs = cmp.per_document["ml-gum"]
    by_doc = {d.doc_id: d for d in evs["ml-gum"].documents}
    base_doc = {d.doc_id: d for d in evs["rules-gum"].documents}
    assert len(docs) == 20 and [d.delta for d in docs] == sorted(d.delta for d in docs)
    for d in docs:
        assert d.system == pytest.approx(by_doc[d.doc_id].conll(), abs=1e-15)
        assert d.baseline == pytest.approx(base_doc[d.doc_id].conll(), abs=1e-15)


def test_inputs_that_cannot_be_paired_are_refused():
    gum, onto = evaluations("gum"), evaluations("ontogum")
    with pytest.raises(ValueError, match="another key"):
        compare({"a": gum["ml-gum"], "b": onto["ml-ontonotes"]}, "a", 10, 10)
    with pytest.raises(ValueError, match="baseline"):
        compare(gum, "nobody")
    with pytest.raises(ValueError):
        compare(gum, "rules-gum", bootstrap=-1)


def test_metrics_only_evaluations_compare_without_analyses():
    key = load_corpus(str(shared_path("data", "gum", "derived", "conll2012", "gum.conll")))
    evs = {n: evaluate(key, load_corpus(str(shared_path("data", "xrenner", "conll2012", f"{n}.conll"))))
           for n in ("rules-gum", "ml-gum")}
    cmp = compare(evs, "rules-gum", 100, 100)
    assert [m.name for m in cmp.metrics] == ["muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll", "mentions"]
    assert cmp.groups["ml-gum"] == [] and cmp.links["ml-gum"] == {}
    assert "ml-gum vs rules-gum: CoNLL +4.21*" in highlights(cmp, "ml-gum")


# ---------------------------------------------------------------------------------------------
# Outputs
# ---------------------------------------------------------------------------------------------

def test_json_contract():
    cmp = comparison("gum")
    out = json.loads(json.dumps(cmp.as_dict(), allow_nan=False))
    assert out["baseline"] == "rules-gum" and out["systems"] == ["rules-gum", "ml-gum"] and out["documents"] == 20
    assert out["scores"]["muc"]["ml-gum"] == pytest.approx(0.6483, abs=1e-4)
    assert out["settings"]["signature"].endswith("|resample:docs|bootstrap:300|ar:2000|seed:7")
    assert out["significance"]["conll"]["ml-gum"]["p_value"] == 1 / 2001
    muc = out["metrics"][0]
    assert muc["name"] == "muc" and muc["best"] == ["ml-gum"] and len(muc["systems"]["ml-gum"]["ci"]) == 2
    assert {"analysis", "by", "group", "label", "key_referents", "delta", "delta_ci", "p_value"} <= set(out["groups"]["ml-gum"][0])
    typed = out["links"]["ml-gum"]["typed"]
    assert "changes" not in typed and typed["right_only_in_system"] > 0 and "WL>TP" in typed["transitions"]
    assert typed["transitions"]["FP>none"] > 0
    full = cmp.as_dict(links=True)["links"]["ml-gum"]["typed"]["changes"]
    assert {"doc_id", "start", "end", "baseline_outcome", "system_outcome", "kind", "side"} <= set(full[0])
    rows = cmp.link_rows()
    assert len(rows) == sum(len(lc.changes) for lc in cmp.links["ml-gum"].values())
    assert all(tuple(r) == LINK_FIELDS for r in rows[:100])
    assert {(r["baseline"], r["system"]) for r in rows} == {("rules-gum", "ml-gum")}


def test_changed_links_written_as_jsonl_and_csv(tmp_path):
    cmp = comparison("gum")
    (tmp_path / "links.jsonl").write_text(changed_links_text(cmp, False), encoding="utf-8")
    n = len(cmp.link_rows())
    lines = (tmp_path / "links.jsonl").read_text(encoding="utf-8").splitlines()
    assert n == len(lines) == len(cmp.link_rows()) and json.loads(lines[0])["system"] == "ml-gum"
    (tmp_path / "links.csv").write_text(changed_links_text(cmp, True), encoding="utf-8", newline="")
    with open(tmp_path / "links.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == n and rows[0]["kind"] in ("gain", "loss", "change")
    gain = next(r for r in rows if r["kind"] == "gain" and r["side"] == "key")
    assert gain["system_outcome"] == "TP" and gain["baseline_outcome"] != "TP"


def test_changed_links_say_why_each_system_got_its_outcome():
    """Issue 38: the ``--links`` rows of ``compare`` carry each system's explanation, the sentence
    ``score --links`` writes for the same referent of that system (one explanation everywhere); a
    TP of ARCS 1 is the key's immediate predecessor, a side without a row says nothing."""
    from corefreport.present.output import rows_text

    evs = evaluations("gum")
    cmp = comparison("gum")
    rows = [json.loads(x) for x in changed_links_text(cmp, False, evs).splitlines()]
    scored = {}
    for name, ev in evs.items():
        for x in rows_text(ev.rows, False, ev).splitlines():
            r = json.loads(x)
            side = "response" if r["outcome"] == "FP" else "key"
            scored.setdefault((name, r["analysis"], r["doc_id"], r["start"], r["end"], side), r["why"])
    assert len(rows) > 2000
    for r in rows:
        for who in ("baseline", "system"):
            said = r[f"{who}_why"]
            if r[f"{who}_outcome"] == "none":
                assert said == ""
                continue
            assert said == scored[(r[who], r["analysis"], r["doc_id"], r["start"], r["end"], r["side"])] != ""
            if r["analysis"] == "immediate" and r[f"{who}_outcome"] == "TP":
                assert said.endswith("its immediate predecessor in the key too"), said
    with_csv = list(csv.DictReader(io.StringIO(changed_links_text(cmp, True, evs))))
    assert [x["system_why"] for x in with_csv] == [r["system_why"] for r in rows]
    assert all(r["system_why"] == "" for r in (json.loads(x) for x in changed_links_text(cmp, False).splitlines()))


def test_terminal_rendering_fits_80_columns():
    cmp = comparison("gum")
    text = render(cmp, 80)
    lines = text.splitlines()
    assert max(len(line) for line in lines if line != str(cmp.signature)) <= 80
    assert str(cmp.signature) in lines  # one line to copy, whatever the width (it wrapped before)
    assert "CoNLL" in text and "+4.21*" in text and "typed micro" in text
    assert "Where ml-gum gains and loses" in text and "right only in ml-gum" in text
    assert "seed 7" in text and "ar:2000" in str(cmp.signature)
    three = compare({**evaluations("gum"), "ml2": evaluations("gum")["ml-gum"]}, "rules-gum", 50, 50)
    text = render(three, 80)
    assert max(len(line) for line in text.splitlines() if line != str(three.signature)) <= 80 and "Δ ml2" in text


def test_csv_latex_markdown_carry_the_signature():
    cmp = comparison("gum")
    rows = list(csv.DictReader(io.StringIO(comparison_csv(cmp))))
    metrics = [r for r in rows if r["kind"] == "metric"]
    assert len(metrics) == 2 * len(cmp.metrics)
    assert len(rows) - len(metrics) == len(cmp.groups["ml-gum"])
    assert all(r["signature"] == str(cmp.signature) for r in rows)
    conll = next(r for r in metrics if r["item"] == "conll" and r["system"] == "ml-gum")
    assert float(conll["p_randomization"]) == 1 / 2001 and conll["significant"] == "true" and conll["best"] == "true"
    assert float(conll["delta_ci_low"]) <= float(conll["delta"]) <= float(conll["delta_ci_high"])
    tex = comparison_latex(cmp)
    assert f"% {cmp.signature}" in tex
    assert r"\footnotesize * p \textless{} 0.05 (two-sided approximate randomization, 2000 trials)" in tex
    assert r"MUC & 60.41 & {\textbf{64.83}} & +4.41* &" in tex and "−" not in tex
    md = comparison_markdown(cmp)
    assert "| CoNLL | 61.13 | 65.34 | +4.21* |" in md and str(cmp.signature) in md
    assert len(comparison_tables(cmp)) >= 4


def test_compare_command_json():
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    x = shared_path("data", "xrenner", "conll2012")
    res = CliRunner().invoke(app, ["compare", str(key), f"rules={x / 'rules-gum.conll'}", f"ml={x / 'ml-gum.conll'}",
                                   "--no-analyses", "--bootstrap", "100", "--randomization", "200", "-f", "json", "-q"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["baseline"] == "rules" and out["systems"] == ["rules", "ml"]
    assert out["scores"]["muc"]["ml"] == pytest.approx(0.6483, abs=1e-4)
    assert "bootstrap:100|ar:200|seed:12345" in out["settings"]["signature"]
    assert np.isclose(out["significance"]["conll"]["ml"]["delta"], out["scores"]["conll"]["ml"] - out["scores"]["conll"]["rules"])
