"""corefud-scorer v1.2 on zero mentions: its zero score (``als_zeros``) and every other metric.

``tests/data/corefud_zeros/`` holds a hand-made CorefUD pair with zeros (two Spanish news documents
whose dropped subjects are empty nodes carrying ``Entity=``; ``build_files.py`` wrote them) and
``expected.json``: what corefud-scorer gave (``run_corefud_scorer.py`` says how it was run) on that
pair, on the response without zeros, on the key against itself and on corefud-scorer's own zero test
cases (``../shared/data/corefud/scorer-tests/zeros``), in exact / head / partial matching × linear /
dependent zero matching × singletons kept / dropped: the verbatim stdout of ``python
corefud-scorer.py [-s] -a MATCH -z ZERO KEY RESPONSE`` and the numerators and denominators its
``Evaluator`` summed. corefreport must give every one of them.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings
from corefreport.scoring.zeros import Item, anaphor_counts

HERE = Path(__file__).resolve().parent / "data" / "corefud_zeros"
EXPECTED = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
TESTS = Path(__file__).resolve().parents[2] / "shared" / "data" / "corefud" / "scorer-tests" / "zeros"
METRICS = ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc_crac", "mor", "zero")
PRINTED = {"muc": "muc", "bcub": "bcub", "ceafe": "ceafe", "ceafm": "ceafm", "blanc": "blanc_crac", "lea": "lea",
           "mor": "mor", "zero": "zero"}

_corpora: dict = {}


def _path(name: str) -> Path:
    return (HERE if not name.startswith("TC-") else TESTS) / name


def _evaluate(case: dict, **kw):
    key, resp = (_corpora.setdefault(n, load_corpus(str(_path(n)))) for n in (case["key"], case["response"]))
    return evaluate(key, resp, Settings(metrics=METRICS, match=case["match"], zero_match=case["zero_match"],
                                        singletons="keep" if case["keep_singletons"] else "drop", **kw))


def _pairs() -> list[tuple[str, str]]:
    return list(dict.fromkeys((c["key"], c["response"]) for c in EXPECTED["cases"]))


def _needs(pair):
    return pytest.mark.skipif(pair[0].startswith("TC-") and not TESTS.is_dir(),
                              reason="corefud-scorer's zero test cases not found in ../shared")


def test_fixtures_are_the_files_corefud_scorer_scored():
    assert {p: hashlib.sha256((HERE / p).read_bytes()).hexdigest() for p in EXPECTED["sha256"]} == EXPECTED["sha256"]


@pytest.mark.parametrize("pair", [pytest.param(p, marks=_needs(p), id=f"{p[0]}-{p[1]}") for p in _pairs()])
def test_every_numerator_and_denominator(pair):
    """All metrics, the zero score included, in 3 matching modes × 2 zero matchings × ±singletons."""
    checked = 0
    for case in EXPECTED["cases"]:
        if (case["key"], case["response"]) != pair or "error" in case:
            continue
        ev = _evaluate(case)
        for name, (pn, pd, rn, rd) in case["counts_pn_pd_rn_rd"].items():
            if name in ("blancc", "blancn"):
                c = getattr(ev.metrics["blanc_crac"], "coref" if name == "blancc" else "noncoref")
            else:
                c = ev.metrics[name]
            got = (c.precision_num, c.precision_den, c.recall_num, c.recall_den)
            assert got == pytest.approx((pn, pd, rn, rd), abs=1e-9), (name, case["command"])
            checked += 1
    assert checked


def _printed(text: str) -> dict[str, tuple[str, ...]]:
    """``name`` line, then ``Recall: 33.33  Precision: 37.50  F1: 35.29`` → name: (R, P, F) as printed."""
    out = {name: tuple(v) for name, *v in re.findall(r"^(\w+)\nRecall: ([\d.]+)\s+Precision: ([\d.]+)\s+F1: "
                                                     r"([\d.]+)$", text, re.M)}
    conll = re.search(r"^CoNLL score: ([\d.]+)$", text, re.M)
    if conll:
        out["conll"] = (conll.group(1),)
    return out


PRINTED_CASES = [c for c in EXPECTED["cases"] if "printed" in c and "exit_status" not in c]


@pytest.mark.parametrize("case", [pytest.param(c, marks=_needs((c["key"], c["response"])), id=c["command"])
                                  for c in PRINTED_CASES])
def test_printed_numbers(case):
    """What corefud-scorer.py printed, to the hundredth, metric by metric (zero included) and CoNLL."""
    printed = _printed(case["printed"])
    assert set(printed) == set(PRINTED) | {"conll"}
    ev = _evaluate(case)
    for name, key in PRINTED.items():
        c = ev.metrics[key]
        assert tuple(f"{100 * x:.2f}" for x in (c.recall, c.precision, c.f1)) == printed[name], (name, case["command"])
    conll = sum(ev.metrics[m].f1 for m in ("muc", "bcub", "ceafe")) / 3
    assert f"{100 * conll:.2f}" == printed["conll"][0]


def _zero(case_filter) -> tuple:
    [case] = [c for c in EXPECTED["cases"] if case_filter(c)]
    return tuple(case["counts_pn_pd_rn_rd"]["zero"])


def test_zero_score_on_the_spanish_pair_linear_and_dependent():
    """The zero score of response-system.conllu, head matching, singletons dropped (corefud-scorer.py's
    defaults). Linear: 3 of the 9 key zero anaphors found with the right antecedent (R 33.33, P 37.50);
    dependent: 5 (R 55.56, P 62.50) — the zero written before its verb (0.1 for 1.1) and the one written
    after the adjective (10.1 for 9.1) are found by their DEPS."""
    def pick(zero):
        return lambda c: (c["response"], c["match"], c["zero_match"], c["keep_singletons"]) == (
            "response-system.conllu", "head", zero, False)

    for zero, counts, rpf in (("linear", (3, 8, 3, 9), (33.33, 37.50, 35.29)),
                              ("dependent", (5, 8, 5, 9), (55.56, 62.50, 58.82))):
        assert _zero(pick(zero)) == counts
        case = next(c for c in EXPECTED["cases"] if pick(zero)(c))
        ev = _evaluate(case)
        z = ev.metrics["zero"]
        assert (z.precision_num, z.precision_den, z.recall_num, z.recall_den) == counts
        assert tuple(round(100 * x, 2) for x in (z.recall, z.precision, z.f1)) == rpf


def test_zero_score_without_zeros_is_zero():
    """A response without zeros: every key zero anaphor is missed (R 0/9), nothing to be precise about
    (P 0/0); corefud-scorer prints 0.00 for all three."""
    case = next(c for c in EXPECTED["cases"] if c["response"] == "response-nozeros.conllu" and c["match"] == "head"
                and c["zero_match"] == "dependent" and not c["keep_singletons"])
    assert tuple(case["counts_pn_pd_rn_rd"]["zero"]) == (0, 0, 0, 9)
    assert "zero\nRecall: 0.00  Precision: 0.00  F1: 0.00" in case["printed"]
    z = _evaluate(case).metrics["zero"]
    assert (z.recall_num, z.recall_den, z.precision_num, z.precision_den) == (0, 9, 0, 0)


@pytest.mark.skipif(not TESTS.is_dir(), reason="corefud-scorer's zero test cases not found in ../shared")
def test_zeros_without_deps_dependent_equals_linear():
    """corefud-scorer fails (ZeroDivisionError) under ``-z dependent`` when a key zero has no DEPS; such
    zeros pair with nothing by their dependencies, so they are matched by their words as under
    ``-z linear``: corefreport gives corefud-scorer's linear numbers there."""
    failed = [c for c in EXPECTED["cases"] if "error" in c]
    assert failed and all(c["zero_match"] == "dependent" for c in failed)
    def same(c: dict) -> tuple:
        return c["key"], c["response"], c["match"], c["keep_singletons"]

    for case in failed:
        [linear] = [c for c in EXPECTED["cases"] if same(c) == same(case) and c["zero_match"] == "linear"]
        ev = _evaluate(case)
        for name in ("muc", "bcub", "ceafe", "lea", "zero"):
            pn, pd, rn, rd = linear["counts_pn_pd_rn_rd"][name]
            c = ev.metrics[name]
            assert (c.precision_num, c.precision_den, c.recall_num, c.recall_den) == pytest.approx((pn, pd, rn, rd))


def test_anaphor_counts_first_mentions_and_wrong_links():
    """The counting rules on a hand example: key chains {a, z1} and {b, z2}; the response links z1 to b
    (wrong link), starts a chain with z2 (a first mention is no anaphor: FN) and adds a zero z3 after a
    (FP). TP 0, FN 1, WL 1, FP 1: R 0/2, P 0/2."""
    def item(w, zero=False):
        ident = (int(w), int(w), (w,)) if zero else (w, w)
        return Item((w, w, 1), ident, ident, zero)

    a, b, z1, z2, z3 = item(0), item(2), item(4.01, True), item(6.01, True), item(1.01, True)
    assert anaphor_counts([[a, z1], [b, z2]], [[b, z1], [z2, item(8)], [a, z3]]) == anaphor_counts(
        [[a, z1], [b, z2]], [[z1, b], [item(8), z2], [z3, a]])  # chains are put in document order
    c = anaphor_counts([[a, z1], [b, z2]], [[b, z1], [z2, item(8)], [a, z3]])
    assert (c.recall_num, c.recall_den, c.precision_num, c.precision_den) == (0, 2, 0, 2)


def test_cli_preset_crac_prints_what_corefud_scorer_prints(tmp_path):
    """``corefreport score KEY RESP --preset crac`` (no ``--metric``) reports the metrics
    ``python corefud-scorer.py KEY RESP`` prints — its BLANC, MOR and the zero score among them — with
    the numbers it prints, here on the Spanish pair with zeros."""
    from typer.testing import CliRunner

    from corefreport.cli import app

    case = next(c for c in EXPECTED["cases"] if c["response"] == "response-system.conllu" and c["match"] == "head"
                and c["zero_match"] == "dependent" and not c["keep_singletons"])
    assert case["command"] == "python corefud-scorer.py -a head -z dependent key.conllu response-system.conllu"
    result = CliRunner().invoke(app, ["score", str(HERE / "key.conllu"), str(HERE / case["response"]),
                                      "--preset", "crac", "-f", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["signature"].startswith("metrics:muc+bcub+ceafm+ceafe+blanc_crac+lea+mor+zero|")
    printed = _printed(case["printed"])
    for name, key in PRINTED.items():
        m = out["metrics"][key]
        assert tuple(f"{100 * m[x]:.2f}" for x in ("recall", "precision", "f1")) == printed[name], name
