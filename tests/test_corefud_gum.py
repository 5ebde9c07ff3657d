"""corefud-scorer v1.2 on real data: GUM gold vs xrenner output in CorefUD CoNLL-U (and perturbed copies).

``tests/data/corefud_gum/build_pairs.py`` writes the key and four responses from the shared data
(deterministic; the SHA-256 of each file is in ``expected.json`` and checked here). ``expected.json``
holds what corefud-scorer gave on them (``run_corefud_scorer.py`` says how it was run): the verbatim
stdout of ``python corefud-scorer.py [-s] -a MATCH key.conllu response-V.conllu`` and the numerators
and denominators its ``Evaluator`` summed, for exact / head / partial × singletons kept / dropped.
corefreport must give every one of them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

HERE = Path(__file__).resolve().parent / "data" / "corefud_gum"
EXPECTED = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
METRICS = ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc_crac", "mor")
PRINTED = {"muc": "muc", "bcub": "bcub", "ceafe": "ceafe", "ceafm": "ceafm", "lea": "lea", "blanc": "blanc_crac",
           "mor": "mor"}

pytestmark = pytest.mark.skipif(not (SHARED / "gum" / "dep").is_dir() or not (SHARED / "xrenner").is_dir(),
                                reason="shared GUM / xrenner data not found")


@pytest.fixture(scope="module")
def pairs(corefud_gum_pairs):
    """The built pairs (conftest.corefud_gum_pairs checks their SHA-256 against expected.json's)."""
    return corefud_gum_pairs


_corpora: dict = {}


def _corpus(path: Path):
    if path not in _corpora:
        _corpora[path] = load_corpus(str(path))
    return _corpora[path]


def _evaluate(pairs: Path, case: dict):
    key, resp = _corpus(pairs / "key.conllu"), _corpus(pairs / case["response"])
    return evaluate(key, resp, Settings(metrics=METRICS, match=case["match"], zero_match="dependent",
                                        singletons="keep" if case["keep_singletons"] else "drop"))


def _id(case: dict) -> str:
    return f"{case['response'][9:-7]}-{case['match']}-{'keep' if case['keep_singletons'] else 'drop'}"


def _printed(text: str) -> dict[str, tuple[str, str, str]]:
    """``name`` line, then ``Recall: 61.58  Precision: 72.91  F1: 66.77`` → name: (R, P, F) as printed."""
    out = re.findall(r"^(\w+)\nRecall: ([\d.]+)\s+Precision: ([\d.]+)\s+F1: ([\d.]+)$", text, re.M)
    return {name: tuple(v) for name, *v in out}


@pytest.mark.parametrize("case", EXPECTED["cases"], ids=_id)
def test_numerators_and_denominators_equal_corefud_scorers(pairs, case):
    ev = _evaluate(pairs, case)
    expected = case["counts_pn_pd_rn_rd"]
    for name in ("muc", "bcub", "ceafe", "ceafm", "lea", "mor"):
        c = ev.metrics[name]
        pn, pd, rn, rd = expected[name]
        assert (c.precision_num, c.precision_den, c.recall_num, c.recall_den) == pytest.approx((pn, pd, rn, rd)), name
    b = ev.metrics["blanc_crac"]
    for part, counts in (("blancc", b.coref), ("blancn", b.noncoref)):
        pn, pd, rn, rd = expected[part]
        assert (counts.precision_num, counts.precision_den, counts.recall_num, counts.recall_den) == \
            pytest.approx((pn, pd, rn, rd)), part
    for name, rpf in case["recall_precision_f1"].items():
        c = ev.metrics[PRINTED[name]]
        assert [c.recall, c.precision, c.f1] == pytest.approx(rpf), name


@pytest.mark.parametrize("case", EXPECTED["cases"], ids=_id)
def test_printed_numbers_equal_corefud_scorers(pairs, case):
    """Every number corefud-scorer.py printed, as it prints it (``%.2f`` of 100 × value)."""
    ev = _evaluate(pairs, case)
    printed = _printed(case["printed"])
    assert set(printed) >= set(PRINTED)
    for name, ours in PRINTED.items():
        c = ev.metrics[ours]
        assert tuple("%.2f" % (100 * v) for v in (c.recall, c.precision, c.f1)) == printed[name], name
    conll = re.search(r"CoNLL score: ([\d.]+)", case["printed"]).group(1)
    assert "%.2f" % (100 * sum(ev.metrics[m].f1 for m in ("muc", "bcub", "ceafe")) / 3) == conll


def test_the_perturbations_move_the_modes_apart():
    """What the fixtures are for, read from corefud-scorer's own output: head matching rescues the
    extended spans, partial matching rescues many shrunk ones, exact matching neither."""
    f1 = {(_id(c)): c["recall_precision_f1"]["muc"][2] for c in EXPECTED["cases"]}
    assert f1["extended-head-drop"] > f1["extended-exact-drop"] + 0.3
    assert f1["extended-partial-drop"] < f1["extended-head-drop"]
    assert f1["shrunk-partial-drop"] > f1["shrunk-exact-drop"]


def test_cli_preset_crac_prints_corefud_scorers_numbers(pairs):
    """``corefreport score KEY RESP --preset crac`` = ``python corefud-scorer.py KEY RESP`` (head, no singletons)."""
    from typer.testing import CliRunner

    from corefreport.cli import app

    case = next(c for c in EXPECTED["cases"] if c["response"] == "response-xrenner.conllu" and c["match"] == "head"
                and not c["keep_singletons"])
    assert case["command"] == "python corefud-scorer.py -a head key.conllu response-xrenner.conllu"
    result = CliRunner().invoke(app, ["score", str(pairs / "key.conllu"), str(pairs / case["response"]),
                                      "--preset", "crac", "-m", "muc,bcub,ceafe,ceafm,lea,blanc,mor", "-f", "json"])
    assert result.exit_code == 0, result.output
    metrics = json.loads(result.stdout)["metrics"]
    for name, ours in PRINTED.items():
        m = metrics[ours]
        assert [m["recall"], m["precision"], m["f1"]] == pytest.approx(case["recall_precision_f1"][name]), name
