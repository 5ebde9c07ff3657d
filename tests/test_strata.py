"""Strata of entities (``--strata``, issue 35): every per-document metric over the chains of one
stratum, key and response chains each by their own property.

* The numbers are scorer.pl v8.01's (and LEA's, from the scorer's LEA branch) on a key and a
  response each filtered to one stratum's chains by an independent script
  (``tests/data/strata/build_strata.py``, its numbers in ``expected.json``): every numerator and
  denominator of the mentions, MUC, B³, CEAF-m, CEAF-e, BLANC's two link sets and LEA, per stratum,
  on the bundled example and on GUM against xrenner's ml-gum.
* ``etype`` and the rule on a hand-made document whose counts are written below.
* Every output of ``score`` carries them; bad values are one-line errors.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import one_error_line, page_from_totals
from corefreport.cli import app
from corefreport.errors import SettingsError
from corefreport.io import load_corpus
from corefreport.model import Chain, Corpus, Document, Mention
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings
from corefreport.scoring.strata import NO_TYPE, chain_type, stratification
from printed_counts import assert_printed, case_paths, counts, metric_counts

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = json.loads((ROOT / "tests" / "data" / "strata" / "expected.json").read_text(encoding="utf-8"))
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
runner = CliRunner()


def _pair_paths(name: str) -> tuple[Path, Path]:
    return case_paths(EXPECTED["pairs"][name])


@pytest.mark.parametrize("name", sorted(EXPECTED["pairs"]))
def test_every_stratum_is_what_scorer_pl_prints_on_the_filtered_files(name):
    key, resp = _pair_paths(name)
    case = EXPECTED["pairs"][name]
    ev = evaluate(load_corpus(str(key), key=True), load_corpus(str(resp)),
                  Settings(metrics=METRICS, strata=tuple(case["strata"])))
    checked = 0
    for spec, strata in case["strata"].items():
        ours = ev.strata[spec]
        assert list(ours.strata) == list(strata), spec  # every bucket, in order
        for stratum, printed in strata.items():
            x = ours.strata[stratum]
            checked += assert_printed(x.metrics, x.mentions, printed, f"{name} {spec} {stratum}")
    assert checked >= 10 * 32  # ten strata at least


def test_the_strata_leave_the_totals_alone():
    key, resp = _pair_paths("example")
    kc, rc = load_corpus(str(key), key=True), load_corpus(str(resp))
    plain = evaluate(kc, rc, Settings())
    strata = evaluate(kc, rc, Settings(strata=("chain-length",)))
    assert metric_counts(plain) == metric_counts(strata)
    assert "strata:chain-length" in str(strata.signature) and "strata" not in str(plain.signature)
    # the strata's chains are every chain, once
    st = strata.strata["chain-length"].strata
    assert sum(x.key_chains for x in st.values()) == strata.key_stats.chains
    assert sum(x.response_chains for x in st.values()) == strata.response_stats.chains


# --------------------------------------------------------------------------- etype and the rule, by hand


def _doc(doc_id: str, chains: list[tuple[str, list[tuple[int, str]]]]) -> Document:
    """A document of 40 one-word tokens in 4 sentences of 10; each chain (label, [(token, etype)])."""
    return Document(doc_id, tokens=[f"w{i}" for i in range(40)], sentence_starts=[0, 10, 20, 30],
                    chains=[Chain(label, [Mention(t, t, label, features={"etype": e} if e else {}) for t, e in ms])
                            for label, ms in chains])


KEY = _doc("d", [("a", [(0, "person"), (5, "person"), (12, "person")]),   # person, 3 mentions, spread 2
                 ("b", [(20, "place"), (35, "place")]),                    # place, 2, spread 2
                 ("c", [(25, "")])])                                       # untyped singleton
RESPONSE = _doc("d", [("x", [(0, "person"), (5, "person"), (12, "person"), (20, "place")]),  # person (3 vs 1)
                      ("y", [(25, ""), (35, "")])])                                           # untyped


def test_etype_strata_by_hand():
    ev = evaluate(Corpus({"d": KEY}), Corpus({"d": RESPONSE}), Settings(metrics=("muc", "bcub"), strata=("etype",)))
    st = ev.strata["etype"].strata
    assert list(st) == ["person", "place", NO_TYPE]
    person, place, none = st["person"], st["place"], st[NO_TYPE]
    # person: key {0 5 12}; response {0 5 12 20} (its type: 3 person mentions against 1 place)
    assert (person.key_chains, person.response_chains) == (1, 1)
    assert counts(person.metrics["muc"]) == [2, 2, 2, 3]
    assert counts(person.metrics["bcub"]) == [3, 3, 2.25, 4]  # P: 3 × 3/4 + 20 (alone in its key) 0
    assert counts(person.mentions) == [3, 3, 3, 4]
    # place: key {20 35}; no response chain of that type, so its mentions are not found there
    assert (place.key_chains, place.response_chains) == (1, 0)
    assert counts(place.metrics["muc"]) == [0, 1, 0, 0] and counts(place.mentions) == [0, 2, 0, 0]
    # untyped: key {25}; response {25 35}
    assert counts(none.metrics["muc"]) == [0, 0, 0, 1]
    assert counts(none.metrics["bcub"]) == [1, 1, 0.5, 2]  # R: 25 → 1/1; P: 25 → 1/2, 35 (not in key) 0
    assert counts(none.mentions) == [1, 1, 1, 2]


def test_chain_length_strata_by_hand():
    """A response chain of 4 merging a key chain of 3 and a key singleton: short on both sides
    (chain-length:1,3 → 1 | 2–3 | 4+), the merged one long."""
    ev = evaluate(Corpus({"d": KEY}), Corpus({"d": RESPONSE}), Settings(metrics=("muc",),
                                                                         strata=("chain-length:1,3",)))
    st = ev.strata["chain-length:1,3"].strata
    assert list(st) == ["1", "2–3", "4+"]
    assert (st["1"].key_chains, st["1"].response_chains) == (1, 0)
    assert (st["2–3"].key_chains, st["2–3"].response_chains) == (2, 1)
    assert (st["4+"].key_chains, st["4+"].response_chains) == (0, 1)
    # 2–3: key {0 5 12} {20 35}, response {25 35}: 35 shared, in different chains → no link found
    assert counts(st["2–3"].metrics["muc"]) == [0, 3, 0, 1]
    assert counts(st["4+"].metrics["muc"]) == [0, 0, 0, 3]


def test_chain_type_and_buckets():
    assert chain_type(["", "person", "place", "place", "person"]) == "person"
    assert chain_type(["-", "_"]) == NO_TYPE
    assert stratification("spread").names == ("1", "2–5", "6–20", "21+")
    assert stratification("chain-length").names == ("1", "2–10", "11+")
    doc = _doc("d", [])
    assert stratification("spread").of(doc, KEY.chains[1]) == "2–5"  # sentences 3 to 4
    assert stratification("spread:1,3").of(doc, RESPONSE.chains[0]) == "2–3"


@pytest.mark.parametrize("spec", ["length", "chain-length:0,3", "chain-length:5,2", "spread:a", "etype:1",
                                  "chain-length:"])
def test_bad_strata_are_refused(spec):
    with pytest.raises(SettingsError):
        Settings(strata=(spec,))


def test_strata_refused_with_split_antecedents():
    with pytest.raises(SettingsError, match="split"):
        Settings(strata=("chain-length",), split_antecedents="keep")


# --------------------------------------------------------------------------- what adds up


def test_own_denominators_add_up_to_the_totals_and_dd_chains_are_stratified():
    """The denominators a chain brings are its own (MUC: its links; CEAF-e: itself; B³: its
    mentions), so over the strata they add up to the corpus's — here on a Universal Anaphora file
    with a discourse-deixis layer: its key chain of 3 is in 3+, its response chain of 2 in 2."""
    ua = ROOT / "tests" / "data" / "ua_tui"
    ev = evaluate(load_corpus(str(ua / "key.ua"), key=True), load_corpus(str(ua / "response.ua")),
                  Settings(metrics=("muc", "bcub", "ceafe", "dd_muc", "dd_ceafe"), strata=("chain-length:1,2",)))
    st = ev.strata["chain-length:1,2"].strata
    for m in ("muc", "bcub", "ceafe", "dd_muc", "dd_ceafe"):
        for side in ("recall_den", "precision_den"):
            assert sum(getattr(x.metrics[m], side) for x in st.values()) == getattr(ev.metrics[m], side), (m, side)
    assert [st[s].metrics["dd_muc"].recall_den for s in st] == [0, 0, 2]
    assert [st[s].metrics["dd_muc"].precision_den for s in st] == [0, 1, 0]


# --------------------------------------------------------------------------- every command


def cli(*args: str):
    return runner.invoke(app, list(args))


def test_score_writes_the_strata_in_every_format():
    key, resp = _pair_paths("example")
    printed = EXPECTED["pairs"]["example"]["strata"]["chain-length"]
    r = cli("score", "--example", "--strata", "chain-length", "--strata", "etype", "-f", "json", "--per-doc")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["settings"]["strata"] == ["chain-length", "etype"]
    got = data["strata"]["chain-length"]
    assert got["kind"] == "chain-length" and got["edges"] == [1, 10] and got["rule"] == "own"
    for stratum, numbers in printed.items():
        m = got["strata"][stratum]["metrics"]["muc"]
        assert [m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"]] == numbers["muc"]
    # per document: each document's own strata, which add up to the totals
    docs = data["per_document"].values()
    assert sum(d["strata"]["chain-length"]["11+"]["metrics"]["muc"]["recall_den"] for d in docs
               if "11+" in d["strata"]["chain-length"]) == printed["11+"]["muc"][1]
    assert "person" in data["strata"]["etype"]["strata"]
    for fmt, marks in (("csv", ["stratum", "key_chains", "2–10"]), ("markdown", ["Scores per chain length", "| 11+ |"]),
                       ("latex", ["Scores per chain length", "11+"]), ("table", ["Scores per chain length", "11+"])):
        r = cli("score", "--example", "--strata", "chain-length", "-f", fmt)
        assert r.exit_code == 0 and all(m in r.stdout for m in marks), (fmt, r.stdout[-500:])
    # the text view names each row by metric and stratum, so each part of the cut table is read alone
    text = cli("score", "--example", "--strata", "chain-length").stdout
    part = text[text.index("Scores per chain length"):]
    rows = [x.split("|")[0].strip() for x in part.splitlines() if " · " in x.split("|")[0]]
    assert rows[0] == "Metric · mentions" and "MUC · 11+" in rows and "Mentions · 2–10" in rows
    assert rows.count("Metric · mentions") == part.count("Metric · mentions") >= 1
    assert len(rows) == rows.count("Metric · mentions") * (1 + 3 * 8)  # header + 3 strata × 8 rows, per part


def test_compare_tests_each_stratum_over_the_documents():
    """compare --strata: each stratum's Δ is the difference of the systems' stratum F1 (score's), and
    its p and interval are the paired tests on the per-document counts score --per-doc writes."""
    import numpy as np

    from corefreport.study.groupdeltas import f1_of
    from corefreport.scoring.significance import paired_tests

    key, resp = _pair_paths("example")
    r = cli("compare", str(key), f"a={resp}", f"b={key}", "--strata", "chain-length", "--no-analyses", "-m",
            "muc,bcub,ceafe", "--bootstrap", "200", "--randomization", "300", "-f", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)["strata"]["chain-length"]
    cmp = data["comparison"]
    assert cmp["strata"]["1"]["b"].keys() == {"bcub", "ceafe", "conll", "mentions"}  # MUC: no links in singletons
    per_doc = {}
    for name, path in (("a", resp), ("b", key)):
        out = cli("score", str(key), str(path), "-m", "muc,bcub,ceafe", "--strata", "chain-length", "--per-doc",
                  "-f", "json")
        per_doc[name] = json.loads(out.stdout)["per_document"]
    ids = list(per_doc["a"])

    def matrix(name: str, stratum: str, metric: str) -> np.ndarray:
        rows = []
        for i in ids:
            x = per_doc[name][i]["strata"]["chain-length"].get(stratum)
            c = x["metrics"][metric] if x is not None else {}
            rows.append([c.get(k, 0) for k in ("recall_num", "recall_den", "precision_num", "precision_den")])
        return np.array(rows, dtype=float)

    for stratum in ("2–10", "11+"):
        score_a = data["systems"]["a"]["strata"][stratum]["metrics"]["muc"]["f1"]
        test = cmp["strata"][stratum]["b"]["muc"]
        assert math.isclose(test["baseline"], score_a) and math.isclose(test["delta"], 1.0 - score_a)
        ours = paired_tests(matrix("a", stratum, "muc"), matrix("b", stratum, "muc"), f1_of("muc"), 200, 300)[0]
        assert math.isclose(test["p_value"], ours.p_value) and test["delta_ci"] == list(ours.delta_ci)
    r = cli("compare", str(key), f"a={resp}", f"b={key}", "--strata", "chain-length", "--no-analyses",
            "--bootstrap", "50", "--randomization", "50")
    assert "b vs a: F1 per chain length" in r.stdout and "11+" in r.stdout


def test_the_report_has_a_section_of_strata(tmp_path):
    out = tmp_path / "r.html"
    r = cli("report", "--example", "--strata", "chain-length", "-o", str(out), "--section", "metrics")
    assert r.exit_code == 0, r.output
    html = out.read_text(encoding="utf-8")
    assert "Scores per stratum of entities" in html and "Duron-Tejedor" in html
    assert "64.54" in html  # MUC F1 of the long chains (81/128, 81/123)
    tex = tmp_path / "t.tex"
    assert cli("report", "--example", "--strata", "spread", "-o", str(tex), "--section", "metrics").exit_code == 0
    assert "F1 per spread" in tex.read_text(encoding="utf-8")


def test_the_browser_opens_a_page_of_strata_from_the_totals():
    from corefreport.cli import example_paths
    from corefreport.present.strata import headline_table
    from corefreport.tui import model as M
    from corefreport.tui import stratamodel as S

    key, resp = example_paths()
    ev = evaluate(load_corpus(key), load_corpus(resp), Settings(strata=("chain-length", "etype")))
    rows = headline_table(ev.strata["chain-length"]).rows
    labels, shown = page_from_totals(ev, S.TARGET, "strata")  # the first: chain-length
    assert labels == ["per chain length (chain-length)", "per entity type (etype)"]
    assert [r[0] for r in shown] == ["1", "2–10", "11+"] == [r[0] for r in rows]
    assert shown[2][1:3] == ["8", "8"] and "56.61" in shown[2]  # long chains: CoNLL
    plain = M.totals_view(ev, 80, S.strata_total_rows(ev)).plain(full=False)
    assert [r[0] for r in plain if r[0].startswith("per ")] == ["per chain length (chain-length) ›",
                                                               "per entity type (etype) ›"]


@pytest.mark.parametrize("args, message", [
    (["--strata", "lengths"], "--strata takes chain-length"),
    (["--strata", "spread:3,2"], "increasing whole numbers"),
])
def test_bad_strata_are_one_line_errors(args, message):
    r = cli("score", "--example", *args)
    assert message in one_error_line(r)


def test_strata_refused_with_runs_and_datasets(tmp_path):
    key, resp = _pair_paths("example")
    r = cli("score", str(key), f"s={resp},{resp}", "--runs", "--strata", "chain-length")
    assert r.exit_code == 2 and "--strata is not available with --runs" in r.output


def test_the_api_takes_one_stratification_as_a_string():
    """``corefreport.score(..., strata="chain-length")`` is one ``--strata`` (its edges keep their
    commas), a list several; the counts are scorer.pl's on the filtered files."""
    import corefreport

    key, resp = _pair_paths("example")
    printed = EXPECTED["pairs"]["example"]["strata"]["chain-length"]
    one = corefreport.score(str(key), str(resp), strata="chain-length")
    assert one["settings"]["strata"] == ["chain-length"]
    for stratum, numbers in printed.items():
        m = one["strata"]["chain-length"]["strata"][stratum]["metrics"]["muc"]
        assert [m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"]] == numbers["muc"]
    edges = corefreport.score(str(key), str(resp), strata=["chain-length:1,2,5", "etype"])
    assert list(edges["strata"]["chain-length:1,2,5"]["strata"]) == ["1", "2", "3–5", "6+"]
    assert set(edges["strata"]) == {"chain-length:1,2,5", "etype"}
    with pytest.raises(SettingsError, match="strata"):
        corefreport.score(str(key), str(resp), strata="")
