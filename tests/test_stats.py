"""Statistics with their cautions (issue 38): runs and documents resampled together, the floors of
the tests, one-document and 0/0 cases, ``--correction holm|bh`` and the CRAC ranking's intervals.

Every expected number comes from a computation written here (a plain two-level bootstrap on the
draws the docstring of ``hierarchical_bootstrap`` documents, exact permutation counts with
``itertools``, Holm and Benjamini–Hochberg written out, plain stratified bootstraps with
``random``), from statsmodels' ``multipletests`` (``tests/data/multipletests``) or from
corefud-scorer v1.2 (``tests/data/corefud_gum/expected.json``, ``tests/data/corefud/scorer_output.json``).
The per-document counts the resamplings start from are corefreport's scores (checked against the
reference scorers elsewhere); what is tested here is what is done with them.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import random
import re
import statistics
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from conftest import SHARED
from independent_readers import row_cells
from test_groupdeltas import drop_one_word_mentions
from corefreport.cli import app
from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings
from corefreport.scoring.significance import adjust
from corefreport.study.groupdeltas import compare_runs

HERE = Path(__file__).parent
FIXTURE = HERE / "data" / "corefud"
DATA = SHARED / "data"
KEY = DATA / "gum" / "derived" / "conll2012" / "gum.conll"
XRENNER = DATA / "xrenner" / "conll2012"
needs_shared = pytest.mark.skipif(not KEY.exists(), reason="../shared data not here")
runner = CliRunner()
TRIPLE = ("muc", "bcub", "ceafe")


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


# ------------------------------------------------------------------------------------- independent code

def holm(p: list[float]) -> list[float]:
    """Holm (1979) written out: the i-th smallest of m p-values is rejected at level α when every
    j-th smallest (j ≤ i) has (m − j + 1) p_(j) ≤ α; the adjusted p is the smallest such α."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    for rank, i in enumerate(order, 1):
        out[i] = min(1.0, max((m - j + 1) * p[order[j - 1]] for j in range(1, rank + 1)))
    return out


def benjamini_hochberg(p: list[float]) -> list[float]:
    """Benjamini & Hochberg (1995) written out: the adjusted p of the i-th smallest is the least
    m p_(j) / j over j ≥ i (the step-up rule's threshold at which it is first rejected)."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    for rank, i in enumerate(order, 1):
        out[i] = min(1.0, min(m * p[order[j - 1]] / j for j in range(rank, m + 1)))
    return out


def f1(rn: float, rd: float, pn: float, pd: float) -> float:
    r = rn / rd if rd else 0.0
    p = pn / pd if pd else 0.0
    return 2 * p * r / (p + r) if p + r else 0.0


def conll(counts: list[list[float]]) -> float:
    """CoNLL F1 of summed (MUC, B³, CEAF-e) counts, 12 numbers a row."""
    total = [sum(c[k] for c in counts) for k in range(12)]
    return sum(f1(*total[4 * j:4 * j + 4]) for j in range(3)) / 3


def doc_counts(ev) -> list[list[float]]:
    """Each document's MUC, B³ and CEAF-e numerators and denominators (the inputs resampled)."""
    return [[x for m in TRIPLE for x in (d.metrics[m].recall_num, d.metrics[m].recall_den,
                                          d.metrics[m].precision_num, d.metrics[m].precision_den)]
            for d in ev.documents]


def percentiles(values: list[float]) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles by linear interpolation between order statistics
    (``statistics.quantiles``' inclusive method, numpy's default)."""
    q = statistics.quantiles(values, n=40, method="inclusive")
    return q[0], q[-1]


def split_conllu(path: Path, folder: Path, groups: dict[str, tuple[int, ...]]) -> dict[str, Path]:
    """The documents of a CorefUD file as datasets: ``groups`` name → document numbers."""
    text = path.read_text(encoding="utf-8")
    head, _, rest = text.partition("# newdoc")
    docs = ["# newdoc" + d for d in rest.split("# newdoc")]
    folder.mkdir(parents=True, exist_ok=True)
    out = {}
    for name, numbers in groups.items():
        out[name] = folder / f"{name}.conllu"
        out[name].write_text(head + "".join(docs[i] for i in numbers), encoding="utf-8")
    return out


# ------------------------------------------------------------------------------------- corrections

def test_holm_and_bh_agree_with_statsmodels_and_the_definitions():
    data = json.loads((HERE / "data" / "multipletests" / "statsmodels.json").read_text())
    p = data["p_values"]
    for method, theirs, mine in (("holm", "holm", holm), ("bh", "fdr_bh", benjamini_hochberg)):
        got = adjust(p, method)
        assert got == pytest.approx(data[theirs]["p_adjusted"], abs=1e-12)
        assert got == pytest.approx(mine(p), abs=1e-12)
        assert [q < 0.05 for q in got] == data[theirs]["reject_at_0.05"]
    # an undefined p (a score undefined, a test not run) is not in the family
    q = adjust([0.01, float("nan"), 0.04], "holm")
    assert q[0] == pytest.approx(0.02) and math.isnan(q[1]) and q[2] == pytest.approx(0.04)
    assert adjust(p, "none") == p
    with pytest.raises(ValueError):
        adjust(p, "bonferroni")


@needs_shared
def test_compare_correction_over_every_difference_it_tests():
    ml, rules = XRENNER / "ml-gum.conll", XRENNER / "rules-gum.conll"
    base = ["compare", KEY, f"rules={rules}", f"ml={ml}", "-a", "arcs", "--bootstrap", "200", "--randomization",
            "1000", "-q"]
    plain = json.loads(run(*base, "-f", "json").stdout)
    assert "correction" not in plain["settings"]["signature"]  # the default: today's p-values and signature
    assert any(c["kind"] == "multiple_comparisons" and "Bonferroni" in c["message"] for c in plain["cautions"])
    for method, written in (("holm", holm), ("bh", benjamini_hochberg)):
        res = run(*base, "--correction", method, "-f", "json")
        assert res.exit_code == 0, res.output
        out = json.loads(res.stdout)
        tests = [m["tests"]["ml"] for m in out["metrics"]] + out["groups"]["ml"]
        family = [t for t in tests if t["p_value"] is not None]
        want = written([t["p_value"] for t in family])
        assert [t["p_adjusted"] for t in family] == pytest.approx(want, abs=1e-12)
        assert all(t["significant"] == (t["p_adjusted"] < 0.05) for t in family)
        # the raw p-values are today's, the signature names the correction, the legend the family
        assert [m["tests"]["ml"]["p_value"] for m in out["metrics"]] == \
            [m["tests"]["ml"]["p_value"] for m in plain["metrics"]]
        assert out["settings"]["signature"] == plain["settings"]["signature"] + f"|correction:{method}"
        note = next(c for c in out["cautions"] if c["kind"] == "correction")
        assert note["value"] == len(family) and f"{len(family)} differences" in note["message"]
    table = run(*base, "--correction", "holm", "--no-analyses")
    assert "note: p-values Holm-adjusted" in table.stdout and "p (Holm)" in table.stdout
    rows = list(csv.DictReader(io.StringIO(run(*base, "--correction", "bh", "-f", "csv").stdout)))
    assert "p_adjusted" in rows[0] and rows[0]["signature"].endswith("correction:bh")
    latex = run(*base, "--correction", "holm", "--no-analyses", "-f", "latex").stdout
    assert "Holm-adjusted" in latex and "correction:holm" in latex
    bad = run(*base, "--correction", "bonferroni")
    assert bad.exit_code == 2 and "--correction takes none, holm, bh" in bad.output


@needs_shared
def test_correction_in_the_datasets_runs_and_subsets_shapes(tmp_path):
    ml, rules = XRENNER / "ml-gum.conll", XRENNER / "rules-gum.conll"
    # datasets: per score, every dataset's test and the macro test form the family
    for side, path in (("key", KEY), ("ml", ml), ("rules", rules)):
        (tmp_path / side).mkdir()
        docs = [d for d in re.split(r"(?=#begin document)", path.read_text()) if d.strip()]
        for name, marks in (("academic_bio", ("_academic_", "_bio_")), ("rest", ("_court_", "_interview_", "_news_"))):
            (tmp_path / side / f"{name}.conll").write_text("".join(d for d in docs if any(g in d[:80] for g in marks)))
    res = run("compare", "--datasets", tmp_path / "key", tmp_path / "ml", tmp_path / "rules", "-m", "muc,bcub,ceafe",
              "--bootstrap", "200", "--randomization", "500", "--correction", "holm", "-f", "json", "-q")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    for m in ("muc", "conll"):
        family = [out["datasets"][d]["systems"]["rules"][m] for d in out["datasets"]] + [out["macro"]["rules"][m]]
        raw = [t["p_value"] for t in family]
        assert [t["p_adjusted"] for t in family] == pytest.approx(holm(raw), abs=1e-12)
    assert out["signature"].endswith("correction:holm") and "3 tests" in out["resampling"]["family"]
    # runs: the deciding (two-level) p of every score
    files = {}
    for g, path in (("A", rules), ("B", ml)):
        files[g] = []
        for s in range(3):
            f = tmp_path / f"{g}{s}.conll"
            f.write_text(drop_one_word_mentions(path.read_text(), 100 + s, 0.15))
            files[g].append(str(f))
    res = run("compare", KEY, "--runs", f"A={','.join(files['A'])}", f"B={','.join(files['B'])}", "-m",
              "muc,bcub,ceafe", "--bootstrap", "200", "--correction", "bh", "-f", "json", "-q")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    family = [x["hierarchical"] for x in out["systems"]["B"].values()]
    assert [t["p_adjusted"] for t in family] == pytest.approx(benjamini_hochberg([t["p_bootstrap"] for t in family]),
                                                             abs=1e-12)
    assert out["signature"].endswith("correction:bh")
    # --subsets: the groups' deltas of each score form their family
    res = run("compare", KEY, f"rules={rules}", f"ml={ml}", "--subsets", "genre", "--no-analyses", "-m",
              "muc,bcub,ceafe", "--bootstrap", "100", "--randomization", "300", "--correction", "holm", "-f", "json",
              "-q")
    assert res.exit_code == 0, res.output
    groups = json.loads(res.stdout)["subsets"]["genre"]["comparison"]
    family = [g["systems"]["ml"]["conll"] for g in groups["groups"].values()] + [groups["macro"]["ml"]["conll"]]
    assert [t["p_adjusted"] for t in family] == pytest.approx(holm([t["p_value"] for t in family]), abs=1e-12)


# ------------------------------------------------------------------------------------- runs

@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    """3 seeds a system: xrenner's rules and classifier responses with 15 % of the one-word mentions
    dropped (random.Random(1…3)), scored against GUM."""
    if not KEY.exists():
        pytest.skip("../shared data not here")
    folder = tmp_path_factory.mktemp("seeds")
    key = load_corpus(str(KEY), key=True)
    settings = Settings(metrics=TRIPLE)
    groups: dict[str, dict] = {}
    files: dict[str, list[str]] = {}
    for system in ("rules", "ml"):
        text = (XRENNER / f"{system}-gum.conll").read_text()
        groups[system], files[system] = {}, []
        for s in (1, 2, 3):
            path = folder / f"{system}-s{s}.conll"
            path.write_text(drop_one_word_mentions(text, s, 0.15))
            groups[system][path.stem] = evaluate(key, load_corpus(str(path)), settings, rows=False)
            files[system].append(str(path))
    return groups, files


def test_runs_and_documents_resampled_together_decide(seeds):
    """The two-level bootstrap redone here from its documented draws: the same interval and p; the
    exact permutation test's floor (2 / C(6, 3) = 0.1) beside its p; the verdict the two-level one."""
    groups, _ = seeds
    B, seed = 300, 7
    cmp = compare_runs(groups, "rules", bootstrap=B, randomization=10000, seed=seed)
    x = cmp.deltas["ml"]["conll"]
    a = [doc_counts(ev) for ev in groups["rules"].values()]
    b = [doc_counts(ev) for ev in groups["ml"].values()]
    m, n, docs = len(a), len(b), len(a[0])
    observed = statistics.mean(conll(r) for r in b) - statistics.mean(conll(r) for r in a)
    rng = np.random.default_rng([seed, 26, 0])  # the documented stream: [seed, 26, 0]
    deltas = []
    for lo in range(0, B, 500):
        k = min(500, B - lo)
        ra, rb, idx = rng.integers(0, m, (k, m)), rng.integers(0, n, (k, n)), rng.integers(0, docs, (k, docs))
        for r in range(k):
            drawn = [int(i) for i in idx[r]]
            fa = [conll([a[int(j)][i] for i in drawn]) for j in ra[r]]
            fb = [conll([b[int(j)][i] for i in drawn]) for j in rb[r]]
            deltas.append(statistics.mean(fb) - statistics.mean(fa))
    p = (sum(abs(d - observed) >= abs(observed) - 1e-12 for d in deltas) + 1) / (B + 1)
    h = x.hierarchical
    assert h.delta == pytest.approx(observed, abs=1e-12)
    assert h.delta_ci == pytest.approx(percentiles(deltas), abs=1e-12)
    assert h.p_bootstrap == pytest.approx(p, abs=1e-15) and x.verdict is h and h.significant()
    # every ml seed beats every rules seed: the permutation test over the 20 assignments still says 0.1
    assert min(x.system_values) > max(x.baseline_values)
    hits = sum(abs(statistics.mean([v for i, v in enumerate(x.baseline_values + x.system_values) if i not in c])
                   - statistics.mean([(x.baseline_values + x.system_values)[i] for i in c])) >= abs(observed) - 1e-12
               for c in itertools.combinations(range(6), 3))
    assert x.runs.p_value == hits / math.comb(6, 3) == 0.1 == x.runs.floor and x.runs.limit == "3+3 runs"


def test_the_two_level_interval_agrees_with_a_plain_random_bootstrap(seeds):
    groups, _ = seeds
    cmp = compare_runs(groups, "rules", bootstrap=2000, randomization=0, seed=3)
    a = [doc_counts(ev) for ev in groups["rules"].values()]
    b = [doc_counts(ev) for ev in groups["ml"].values()]
    rng = random.Random(5)
    deltas = []
    for _ in range(2000):
        docs = [rng.randrange(len(a[0])) for _ in a[0]]
        fa = [conll([a[rng.randrange(3)][i] for i in docs]) for _ in range(3)]
        fb = [conll([b[rng.randrange(3)][i] for i in docs]) for _ in range(3)]
        deltas.append(statistics.mean(fb) - statistics.mean(fa))
    lo, hi = percentiles(deltas)
    got = cmp.deltas["ml"]["conll"].hierarchical.delta_ci
    assert abs(got[0] - lo) < 0.006 and abs(got[1] - hi) < 0.006


def test_compare_runs_prints_the_floor_beside_the_permutation_p(seeds):
    _, files = seeds
    args = ["compare", KEY, "--runs", f"rules={','.join(files['rules'])}", f"ml={','.join(files['ml'])}", "-m",
            "muc,bcub,ceafe", "--bootstrap", "300", "-q"]
    table = run(*args)
    assert table.exit_code == 0, table.output
    assert "p (runs) ≥ 0.1000: 3+3 runs" in table.stdout and "decides" not in table.stdout
    cells = row_cells(table.stdout, "CoNLL")  # the table's two parts: the two-level test's, then p (runs)
    assert cells[2].endswith("*") and float(cells[4]) < 0.05 and cells[5] == "0.1000"  # * from the two-level test
    out = json.loads(run(*args, "-f", "json").stdout)["systems"]["ml"]["conll"]
    assert out["verdict"] == "runs+documents" and out["runs"]["p_floor"] == {"p": 0.1, "because": "3+3 runs"}
    assert cells[4] == f"{out['hierarchical']['p_bootstrap']:.4f}"


# ------------------------------------------------------------------------------------- degenerate cases

def test_one_document_datasets_have_no_interval_and_say_so(tmp_path, corefud_gum_pairs):
    names = {f"d{i}": (i,) for i in range(5)}
    gold = split_conllu(corefud_gum_pairs / "key.conllu", tmp_path / "gold", names)
    split_conllu(corefud_gum_pairs / "response-xrenner.conllu", tmp_path / "pred", names)
    split_conllu(corefud_gum_pairs / "response-shrunk.conllu", tmp_path / "shrunk", names)
    assert len(gold) == 5
    args = ["compare", "--datasets", tmp_path / "gold", tmp_path / "pred", tmp_path / "shrunk", "--preset", "crac",
            "--bootstrap", "200", "--randomization", "500", "-q"]
    out = json.loads(run(*args, "-f", "json").stdout)
    for d in names:
        t = out["datasets"][d]["systems"]["shrunk"]["conll"]
        # one document: both randomization outcomes (swap it or not) reproduce ±Δ, so p = (R+1)/(R+1) = 1
        assert t["p_value"] == 1.0 and t["delta_ci"] is None and t["p_bootstrap"] is None and t["delta"] < -0.05
        assert out["datasets"][d]["p_floor"] == {"p": 1.0, "because": "1 document"}
    macro = out["macro"]["shrunk"]["conll"]
    assert macro["delta_ci"] is None and "p_system_better" not in macro and macro["p_value"] > 0.05
    table = run(*args).stdout.split("CoNLL F1 per dataset", 1)[1]  # the deltas' table, after the main table
    rows = [row_cells(table, f"d{i}") for i in range(5)]
    assert all("one document: no interval" in r and "1.0000 (one document)" in r for r in rows)
    assert "one document a dataset: no interval" in table
    # one key document in compare itself
    one = run("compare", gold["d0"], f"a={tmp_path / 'pred' / 'd0.conllu'}", f"b={tmp_path / 'shrunk' / 'd0.conllu'}",
              "--preset", "crac", "--no-analyses", "-f", "json", "-q")
    data = json.loads(one.stdout)
    conll_test = next(m for m in data["metrics"] if m["name"] == "conll")["tests"]["b"]
    assert conll_test["delta_ci"] is None and conll_test["p_value"] == 1.0
    assert [c["kind"] for c in data["cautions"]][0] == "one_document"


def test_an_undefined_score_is_na_everywhere(tmp_path, corefud_gum_pairs):
    """The zero score on GUM, which has no zero mentions (counted here: no empty node of the key or the
    responses carries an Entity): both denominators 0 — n/a, never 0.00 and "best: both"."""
    key, a, b = (corefud_gum_pairs / f for f in ("key.conllu", "response-xrenner.conllu", "response-shrunk.conllu"))
    for f in (key, a, b):
        zeros = [line for line in f.read_text().splitlines() if re.match(r"\d+\.\d+\t", line) and "Entity=" in line]
        assert zeros == []
    args = ["compare", key, f"xrenner={a}", f"shrunk={b}", "--preset", "crac", "--no-analyses", "-q"]
    table = run(*args).stdout
    row = next(line for line in table.splitlines() if line.startswith("Zeros"))
    assert [c.strip() for c in row.split("|")][1:] == ["n/a"] * 5
    out = json.loads(run(*args, "-f", "json").stdout)
    z = next(m for m in out["metrics"] if m["name"] == "zero")
    assert z["best"] == [] and z["systems"]["xrenner"]["f1"] is None and z["systems"]["shrunk"]["recall"] is None
    assert z["systems"]["xrenner"]["recall_den"] == 0 and z["systems"]["xrenner"]["precision_den"] == 0
    assert z["tests"]["shrunk"]["delta"] is None and z["tests"]["shrunk"]["p_value"] is None
    assert out["scores"]["zero"] == {"xrenner": None, "shrunk": None}
    rows = [r for r in csv.DictReader(io.StringIO(run(*args, "-f", "csv").stdout)) if r["item"] == "zero"]
    assert rows and all(r["f1"] == "" and r["delta"] == "" and r["best"] == "false" for r in rows)
    md = run(*args, "-f", "markdown").stdout
    assert re.search(r"\| Zeros \| n/a \| n/a \| n/a \| n/a \| n/a \|\s*\|", md)
    latex = run(*args, "-f", "latex").stdout
    zrow = next(line for line in latex.splitlines() if line.startswith("Zeros"))
    assert "{n/a}" in zrow and "0.00" not in zrow and "\\textbf" not in zrow
    # the comparison report
    tex = tmp_path / "cmp.tex"
    res = run("report", key, "-r", f"xrenner={a}", "-r", f"shrunk={b}", "--preset", "crac", "--section", "methods",
              "-o", tex, "-q")
    assert res.exit_code == 0, res.output
    zrows = [line for line in tex.read_text().splitlines() if line.startswith("Zeros &")]
    assert zrows and all("n/a" in r and "+0.00" not in r for r in zrows)


# ------------------------------------------------------------------------------------- the CRAC ranking

def _per_doc_counts(key: Path, response: Path) -> list[list[float]]:
    """Each document's MUC, B³, CEAF-e counts under the CRAC preset (head match, no singletons)."""
    out = json.loads(run("score", key, response, "--preset", "crac", "-m", "muc,bcub,ceafe", "--per-doc", "-f",
                         "json").stdout)
    return [[c for m in TRIPLE for c in (d["metrics"][m]["recall_num"], d["metrics"][m]["recall_den"],
                                         d["metrics"][m]["precision_num"], d["metrics"][m]["precision_den"])]
            for d in out["per_document"].values()]


def _plain_stratified(datasets: list[list[list[float]]], resamples: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [statistics.mean(conll([docs[rng.randrange(len(docs))] for _ in docs]) for docs in datasets)
            for _ in range(resamples)]


@pytest.fixture
def crac_datasets(tmp_path, corefud_gum_pairs):
    """GUM's five documents as two datasets (2 + 3 documents), and the CorefUD fixture as a third;
    systems: xrenner, and "mixed" — per GUM document the shrunk response, the key itself or
    xrenner's (better on some documents, worse on others)."""
    parts = {"gum_a": (0, 1), "gum_b": (2, 3, 4)}
    files = {side: split_conllu(corefud_gum_pairs / name, tmp_path / side, parts)
             for side, name in (("key", "key.conllu"), ("xrenner", "response-xrenner.conllu"))}
    pieces = {}
    for name in ("key.conllu", "response-shrunk.conllu", "response-xrenner.conllu"):
        head, _, rest = (corefud_gum_pairs / name).read_text(encoding="utf-8").partition("# newdoc")
        pieces[name.split(".")[0].split("-")[-1]] = ["# newdoc" + d for d in rest.split("# newdoc")]
    (tmp_path / "mixed").mkdir()
    files["mixed"] = {"gum_a": tmp_path / "mixed" / "gum_a.conllu", "gum_b": tmp_path / "mixed" / "gum_b.conllu"}
    files["mixed"]["gum_a"].write_text(head + pieces["shrunk"][0] + pieces["key"][1], encoding="utf-8")
    files["mixed"]["gum_b"].write_text(head + pieces["shrunk"][2] + pieces["key"][3] + pieces["xrenner"][4],
                                       encoding="utf-8")
    files["key"]["fixture"] = FIXTURE / "crac.key.conllu"
    files["xrenner"]["fixture"] = files["mixed"]["fixture"] = FIXTURE / "crac.response.conllu"
    manifests = {}
    for system in ("xrenner", "mixed"):
        manifests[system] = tmp_path / f"{system}.tsv"
        manifests[system].write_text("".join(f"{d}\t{files['key'][d]}\t{files[system][d]}\n" for d in files["key"]))
    return files, manifests


def _every_draw(datasets: list) -> list[list[list[int]]]:
    """Every stratified bootstrap draw (each dataset's documents with replacement), equally likely."""
    return [list(d) for d in itertools.product(*[list(itertools.product(range(len(c)), repeat=len(c)))
                                                 for c in datasets])]


def test_the_ranking_has_an_interval_for_each_macro_average(crac_datasets):
    files, manifests = crac_datasets
    out = json.loads(run("score", "--datasets", manifests["xrenner"], "--preset", "crac", "-f", "json").stdout)
    counts = [_per_doc_counts(files["key"][d], files["xrenner"][d]) for d in files["key"]]
    lo, hi = out["macro_ci"]["head"]
    # 2 + 3 + 1 documents: the stratified bootstrap's every draw (2² · 3³ · 1 = 108, equally likely)
    exact = sorted(statistics.mean(conll([docs[i] for i in draw]) for docs, draw in zip(counts, draws))
                   for draws in _every_draw(counts))
    assert len(exact) == 108

    def quantile(q: float) -> float:
        return exact[min(len(exact) - 1, int(q * len(exact)))]

    # 1000 resamples estimate the 2.5th and 97.5th percentiles within about ±1 % of probability
    assert quantile(0.015) - 1e-12 <= lo <= quantile(0.035) + 1e-12
    assert quantile(0.965) - 1e-12 <= hi <= quantile(0.985) + 1e-12
    plain = percentiles(_plain_stratified(counts, 4000, 11))  # and a plain random bootstrap lands there too
    assert quantile(0.015) <= plain[0] <= quantile(0.035) and quantile(0.965) <= plain[1] <= quantile(0.985)
    assert lo < out["macro"]["head"] < hi
    table = run("score", "--datasets", manifests["xrenner"], "--preset", "crac").stdout
    ci = next(line for line in table.splitlines() if line.startswith("95 % CI"))
    assert f"[{100 * lo:.2f}, {100 * hi:.2f}]" in ci and len(re.findall(r"\[", ci)) == 4  # every variant


def test_two_systems_on_the_ranking_p_better_and_the_paired_test(crac_datasets):
    files, manifests = crac_datasets
    args = ["compare", "--datasets", manifests["xrenner"], manifests["mixed"], "--preset", "crac", "--bootstrap",
            "2000", "--randomization", "2000", "-q"]
    res = run(*args, "-f", "json")
    assert res.exit_code == 0, res.output
    macro = json.loads(res.stdout)["macro"]["mixed"]["conll"]
    a = [_per_doc_counts(files["key"][d], files["xrenner"][d]) for d in files["key"]]
    b = [_per_doc_counts(files["key"][d], files["mixed"][d]) for d in files["key"]]
    # the paired stratified bootstrap's every draw (the same for both systems): 108, equally likely
    deltas = sorted(statistics.mean(conll([y[i] for i in d]) - conll([x[i] for i in d]) for x, y, d in zip(a, b, draw))
                    for draw in _every_draw(a))
    better = (sum(d > 1e-12 for d in deltas) + 0.5 * sum(abs(d) <= 1e-12 for d in deltas)) / len(deltas)
    assert 0.5 < better < 0.99  # better on some documents, worse on others
    assert macro["p_system_better"] == pytest.approx(better, abs=0.025)  # 2000 resamples: sd ≈ 0.007
    assert deltas[int(0.015 * 108)] <= macro["delta_ci"][0] <= deltas[int(0.035 * 108)]
    assert deltas[int(0.965 * 108)] <= macro["delta_ci"][1] <= deltas[int(0.985 * 108)]
    assert macro["delta"] == pytest.approx(statistics.mean(conll(y) - conll(x) for x, y in zip(a, b)), abs=1e-12)
    assert macro["p_value"] > 0.05  # the paired test of the macro difference: not significant on 6 documents
    table = run(*args).stdout
    avg = row_cells(table.split("CoNLL F1 per dataset", 1)[1], "avg")
    assert avg[-1] == f"{macro['p_system_better']:.3f}" and avg[-2].startswith(f"{macro['p_value']:.4f} ")


def test_the_systems_by_datasets_table_is_corefud_scorers(tmp_path, corefud_gum_pairs):
    """``compare --datasets --preset crac -f latex``: one table of every dataset's and system's R, P and F1
    of MUC, B³, CEAF-e, CoNLL, MOR and the zero score, and each system's averages — GUM's and the
    fixture's numbers as corefud-scorer v1.2 printed them, the averages their means."""
    manifests = {}
    for system, gum in (("xrenner", "response-xrenner.conllu"), ("shrunk", "response-shrunk.conllu")):
        manifests[system] = tmp_path / f"{system}.tsv"
        manifests[system].write_text(f"gum\t{corefud_gum_pairs / 'key.conllu'}\t{corefud_gum_pairs / gum}\n"
                                     f"fixture\t{FIXTURE / 'crac.key.conllu'}\t{FIXTURE / 'crac.response.conllu'}\n")
    res = run("compare", "--datasets", manifests["xrenner"], manifests["shrunk"], "--preset", "crac", "--bootstrap",
              "100", "--randomization", "100", "-q", "-f", "latex")
    assert res.exit_code == 0, res.output
    main = res.stdout.split("\\end{table", 1)[0]
    assert main.count("\\begin{tabular}") == 1 and "MOR" in main and "Zeros" in main and "CoNLL" in main
    gum = {c["response"]: c["recall_precision_f1"] for c in json.loads(
        (HERE / "data" / "corefud_gum" / "expected.json").read_text())["cases"]
        if c["match"] == "head" and not c["keep_singletons"]}
    fixture = next(c["scores"] for c in json.loads((FIXTURE / "scorer_output.json").read_text())["cases"]
                   if c["key"].endswith("crac.key.conllu") and c["match"] == "head" and not c["keep_singletons"])
    scorer = {("gum", "xrenner"): gum["response-xrenner.conllu"], ("gum", "shrunk"): gum["response-shrunk.conllu"],
              ("fixture", "xrenner"): fixture, ("fixture", "shrunk"): fixture}

    def cells(rpf: dict) -> list[str]:
        out = [f"{100 * v:.2f}" for m in TRIPLE for v in rpf[m]]
        out.append(f"{100 * sum(rpf[m][2] for m in TRIPLE) / 3:.2f}")
        return out + [f"{100 * v:.2f}" for v in rpf["mor"]] + ["{n/a}"] * 3  # no zero mentions: 0/0

    rows = {tuple(c.strip() for c in line.rstrip("\\ ").split("&")[:2]):
            [c.strip() for c in line.rstrip("\\ ").split("&")[2:]] for line in main.splitlines() if line.count("&") > 10}
    for (d, system), rpf in scorer.items():
        assert rows[(d, system)] == cells(rpf), (d, system)
    for system in ("xrenner", "shrunk"):
        a, b = scorer[("gum", system)], scorer[("fixture", system)]
        mean = {m: [(x + y) / 2 for x, y in zip(a[m], b[m])] for m in (*TRIPLE, "mor")}
        want = cells(mean)
        want[9] = f"{100 * (sum(a[m][2] for m in TRIPLE) + sum(b[m][2] for m in TRIPLE)) / 6:.2f}"
        assert rows[("avg", system)] == want, system
