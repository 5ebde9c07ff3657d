"""corefud-scorer v1.2 on random CorefUD pairs with repeated spans: ``--preset crac`` gives its numbers.

``tests/data/corefud_repeats/build_pairs.py`` builds 320 small key/response pairs (seeded; spans
written twice within a chain and across chains on either side, one-mention chains written twice,
discontinuous mentions, heads given and not; the SHA-256 of the texts is in the expected file and
checked here). ``expected.json.gz`` holds what corefud-scorer (commit 4fd7b0e, udapi 0.5.2) gave on
each pair in exact / head / partial × singletons kept (``-s``) / dropped — the numbers
``python corefud-scorer.py [-s] -a MATCH KEY RESPONSE`` printed and the numerators and denominators
its ``Evaluator`` summed (``run_corefud_scorer.py`` says how). corefreport under ``--preset crac``
must give every one of them: 320 × 6 runs, eight metrics and the CoNLL score each.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path

import pytest

from corefreport.io.conllu import read_conllu
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.metrics import conll_score
from corefreport.scoring.settings import Settings
from conftest import load_script

HERE = Path(__file__).resolve().parent / "data" / "corefud_repeats"
EXPECTED = json.loads(gzip.decompress((HERE / "expected.json.gz").read_bytes()))
METRICS = ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc_crac", "mor", "zero")
PRINTED_ORDER = ("muc", "bcub", "ceafe", "ceafm", "blanc_crac", "lea", "mor", "zero")
MODES = [(match, keep) for match in ("exact", "head", "partial") for keep in (False, True)]


@cache
def _build():
    """tests/data/corefud_repeats/build_pairs.py as a module."""
    return load_script(HERE / "build_pairs.py", "corefud_repeats_build_pairs")


@cache
def _pairs() -> dict[str, tuple]:
    build = _build()
    built = build.pairs()
    assert build.digest(built) == EXPECTED["sha256"], "build_pairs.py no longer writes the pairs corefud-scorer scored"
    return {name: (read_conllu(f"{name}.key.conllu", key), read_conllu(f"{name}.response.conllu", resp))
            for name, _, key, resp in built}


def _settings(match: str, keep: bool, **more) -> Settings:
    return Settings(metrics=METRICS, match=match, zero_match="dependent", preset="crac", repeats="corefud12",
                    singletons="keep" if keep else "drop", **more)


def _counts(ev) -> dict[str, list[float]]:
    out = {}
    for name in ("muc", "bcub", "ceafe", "ceafm", "lea", "mor", "zero"):
        c = ev.metrics[name]
        out[name] = [c.precision_num, c.precision_den, c.recall_num, c.recall_den]
    b = ev.metrics["blanc_crac"]
    for part, c in (("blancc", b.coref), ("blancn", b.noncoref)):
        out[part] = [c.precision_num, c.precision_den, c.recall_num, c.recall_den]
    return out


def _printed(ev) -> list[str]:
    """corefreport's numbers as corefud-scorer.py prints its own: R, P, F1 (``%.2f`` of 100 ×) of each
    metric in its order, then the CoNLL score."""
    out = []
    for name in PRINTED_ORDER:
        c = ev.metrics[name]
        out += [f"{100 * x:.2f}" for x in (c.recall, c.precision, c.f1)]
    return out + [f"{100 * conll_score(ev.metrics['muc'], ev.metrics['bcub'], ev.metrics['ceafe']):.2f}"]


def test_fixture_is_what_the_scorer_printed():
    """Every case has the printed numbers of its mode's template and all nine metrics' counts, and the
    pairs cover every kind of repeat."""
    assert EXPECTED["source"].startswith("ufal/corefud-scorer 4fd7b0e0c661aeeff88bc60c19ef507b84d1b590")
    assert len(EXPECTED["cases"]) == len(_pairs()) * len(MODES) >= 1800
    for case in EXPECTED["cases"]:
        mode = f"{case['match']}-{'keep' if case['keep_singletons'] else 'drop'}"
        assert EXPECTED["stdout_template"][mode].count("{}") == len(case["printed"]) == 25
        assert set(case["counts_pn_pd_rn_rd"]) == {"muc", "bcub", "ceafe", "ceafm", "lea", "blancc", "blancn", "mor",
                                                   "zero"}
    kinds = {k for ks in EXPECTED["kinds"].values() for k in ks}
    assert kinds == {"key-within", "response-within", "key-across", "response-across", "key-single-twice",
                     "response-single-twice", "discontinuous"}
    assert sum(1 for ks in EXPECTED["kinds"].values() if not ks) >= 30


@pytest.mark.parametrize("match,keep", MODES, ids=[f"{m}-{'keep' if k else 'drop'}" for m, k in MODES])
def test_every_pair_gives_corefud_scorers_numbers(match, keep):
    """All 320 pairs of one mode: every numerator and denominator (to 1e-6) and every printed number."""
    pairs = _pairs()
    wrong = []
    for case in EXPECTED["cases"]:
        if case["match"] != match or case["keep_singletons"] != keep:
            continue
        key, resp = pairs[case["pair"]]
        ev = evaluate(key, resp, _settings(match, keep), rows=False, documents=False)
        got = _counts(ev)
        for name, expected in case["counts_pn_pd_rn_rd"].items():
            if got[name] != pytest.approx(expected, abs=1e-6):
                wrong.append((case["pair"], name, got[name], expected))
        if _printed(ev) != case["printed"]:
            wrong.append((case["pair"], "printed", _printed(ev), case["printed"]))
    assert not wrong, f"{len(wrong)} differences, first: {wrong[:3]}"


def _case(pair: str, match: str, keep: bool) -> dict:
    return next(c for c in EXPECTED["cases"] if c["pair"] == pair and c["match"] == match and c["keep_singletons"] == keep)


def test_a_span_written_twice_in_its_chain_counts_once():
    """pair-001: the key writes one span twice in its chain. corefud-scorer keeps it once (CEAF-e
    P = 2.857/3, not above 1), and so does corefreport; reference v8.01's handling (no preset) keeps
    it twice: another B³ recall denominator."""
    key, resp = _pairs()["pair-001"]
    expected = _case("pair-001", "exact", False)["counts_pn_pd_rn_rd"]
    crac = evaluate(key, resp, _settings("exact", False), rows=False)
    assert _counts(crac)["bcub"] == pytest.approx(expected["bcub"]) and expected["bcub"][3] == 9
    plain = evaluate(key, resp, Settings(metrics=METRICS, zero_match="dependent", singletons="drop"), rows=False)
    assert plain.metrics["bcub"].recall_den == 10
    assert "dups:corefud12" in str(crac.signature) and "dups:ref801" in str(plain.signature)


def test_warnings_name_the_file_the_document_and_what_was_done():
    key, resp = _pairs()["pair-001"]
    ev = evaluate(key, resp, _settings("head", False), rows=False)
    text = " ".join(ev.warnings)
    assert "repeated key span(s) handled as corefud-scorer v1.2" in text
    assert "document 'd1-1' of pair-001.key.conllu" in text and "kept once" in text
    assert all(d.as_dict()["file"] for d in ev.duplicates)


def test_key_duplicates_dedupe_is_refused_under_the_preset():
    from corefreport.errors import SettingsError

    with pytest.raises(SettingsError, match="--preset crac"):
        _settings("head", False, key_duplicates="dedupe")


def test_cli_preset_crac_prints_corefud_scorers_numbers(tmp_path):
    """``corefreport score KEY RESP --preset crac`` on a pair with repeats on both sides prints what
    ``python corefud-scorer.py KEY RESP`` printed (head matching, singletons dropped)."""
    from typer.testing import CliRunner

    from corefreport.cli import app

    pair = next(n for n, ks in EXPECTED["kinds"].items() if {"key-within", "response-across"} <= set(ks))
    _, _, key, resp = _build().pair(int(pair[5:]))
    (tmp_path / "k.conllu").write_text(key, encoding="utf-8")
    (tmp_path / "r.conllu").write_text(resp, encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(tmp_path / "k.conllu"), str(tmp_path / "r.conllu"), "--preset",
                                      "crac", "-f", "json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    printed = _case(pair, "head", False)["printed"]
    got = []
    for name in PRINTED_ORDER:
        m = out["metrics"][name]
        got += [f"{100 * m[x]:.2f}" for x in ("recall", "precision", "f1")]
    assert got == printed[:-1] and f"{100 * out['metrics']['conll']['f1']:.2f}" == printed[-1]
