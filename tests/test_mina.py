"""``--match mina``: coval's MINA minimum spans (scoring/mina.py) on the hand-written CoNLL-2012 pair
of tests/data/mina, against the numbers coval 87071a6 printed for it (tests/data/mina/coval.txt)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import one_error_line
from corefreport.cli import app
from corefreport.errors import InputError, SettingsError
from corefreport.io.conll2012 import read_conll2012
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.mina import mina_set
from corefreport.scoring.options import settings_from

DATA = Path(__file__).parent / "data" / "mina"
runner = CliRunner()

# coval's printed R, P, F1 (%, two decimals)
COVAL_MINA = {"mentions": (83.33, 71.43, 76.92), "muc": (50.00, 37.50, 42.86), "bcub": (66.67, 47.62, 55.56),
              "ceafe": (66.11, 66.11, 66.11), "lea": (41.67, 28.57, 33.90)}
COVAL_MINA_CONLL = 54.84
COVAL_EXACT = {"mentions": (41.67, 35.71, 38.46), "muc": (0.0, 0.0, 0.0), "bcub": (25.00, 15.48, 19.12),
               "ceafe": (34.44, 34.44, 34.44), "lea": (0.0, 0.0, 0.0)}
COVAL_EXACT_CONLL = 17.85


def _run(match: str):
    key, resp = read_conll2012(DATA / "key.conll"), read_conll2012(DATA / "response.conll")
    return evaluate(key, resp, settings_from(metrics="muc,bcub,ceafe,ceafm,lea", match=match))


@pytest.mark.parametrize("match,numbers,conll", [("mina", COVAL_MINA, COVAL_MINA_CONLL),
                                                 ("exact", COVAL_EXACT, COVAL_EXACT_CONLL)])
def test_coval_numbers(match: str, numbers: dict, conll: float) -> None:
    ev = _run(match)
    for name, (r, p, f) in numbers.items():
        got = ev.mentions if name == "mentions" else ev.metrics[name]
        assert (round(100 * got.recall, 2), round(100 * got.precision, 2), round(100 * got.f1, 2)) == (r, p, f), name
    assert round(100 * sum(ev.metrics[m].f1 for m in ("muc", "bcub", "ceafe")) / 3, 2) == conll


def test_ceafm_similarity_is_covals() -> None:
    # coval's ceafm function: aligned-mention similarity 5 + 4 = 9 (it divides by chains, a defect)
    m = _run("mina").metrics["ceafm"]
    assert (m.recall_num, m.recall_den, m.precision_num, m.precision_den) == (9, 12, 9, 14)


def test_mina_sets() -> None:
    doc = read_conll2012(DATA / "key.conll").documents["d2; part 000"]
    a, b = doc.sentence_bounds(0)
    args = (doc.tokens[a:b + 1], doc.columns["pos"][a:b + 1], doc.columns["parse"][a:b + 1])
    # a coordination: one minimum span per conjunct; a boundary error past the NP keeps it
    assert mina_set(*args, 0, 3) == {("Mary", 0), ("her brother", 3)} == mina_set(*args, 0, 4)
    assert mina_set(*args, 5, 10) == {("the old castle", 7)} == mina_set(*args, 5, 7)
    assert mina_set(*args, 2, 2) == {("her", 2)} != mina_set(*args, 2, 3)
    # no valid terminal (a determiner alone): the words, numbered within the mention
    assert mina_set(["the"], ["DT"], ["(NP*)"], 0, 0) == {("the", 0)}
    assert mina_set(["x"], ["NN"], ["-"], 0, 0) is None


def test_cli_and_errors(tmp_path: Path) -> None:
    out = runner.invoke(app, ["score", str(DATA / "key.conll"), str(DATA / "response.conll"), "--match", "mina"])
    assert out.exit_code == 0, out.output
    assert "match:mina" in out.output and "54.84" in out.output
    with pytest.raises(SettingsError, match="'mina'"):
        settings_from(match="minb")
    # a key without parse bits: a one-line error, exit 2
    bare = tmp_path / "k.conll"
    bare.write_text("#begin document (d); part 000\nd 0 0 He PRP - - - - - * (1)\n\n#end document\n")
    out = runner.invoke(app, ["score", str(bare), str(bare), "--match", "mina"])
    assert "parse" in one_error_line(out), out.output
    with pytest.raises(InputError, match="parse"):
        evaluate(read_conll2012(bare), read_conll2012(bare), settings_from(match="mina"))


def _pairs() -> list[dict]:
    import json

    return json.loads((DATA / "random_pairs.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", _pairs(), ids=lambda c: str(c["seed"]))
def test_random_pairs_against_coval(case: dict, tmp_path: Path) -> None:
    """30 random pairs (tests/data/mina/random_pairs.py) scored by coval 87071a6 with ``min``: every
    printed value agrees; where two mentions of one side share a MINA identity only the mention
    counts are coval's (its metrics then count each copy and let the last chain win, docs)."""
    (tmp_path / "k").write_text(case["key"])
    (tmp_path / "r").write_text(case["response"])
    ev = evaluate(read_conll2012(tmp_path / "k"), read_conll2012(tmp_path / "r"),
                  settings_from(metrics="muc,bcub,ceafe,lea", match="mina"))
    names = ("mentions",) if case["collisions"] else ("mentions", "muc", "bcub", "ceafe", "lea")
    for name in names:
        got = ev.mentions if name == "mentions" else ev.metrics[name]
        assert [round(100 * got.recall, 2), round(100 * got.precision, 2), round(100 * got.f1, 2)] == case["coval"][name], name
    if not case["collisions"]:
        assert round(100 * ev.conll, 2) == case["coval"]["conll"]
