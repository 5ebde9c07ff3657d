"""corefreport against the Universal Anaphora scorer v1 (juntaoy/universal-anaphora-scorer, main,
f4adb45) on the CODI-CRAC 2022 dev files (AMI, LIGHT, Persuasion; UniversalAnaphora/
CODI-CRAC22-Corpus@2f7b250), each scored against itself and against seven responses derived by
deterministic perturbation (tests/data/ua_v1/perturb.py: entities split, merged, non-referring
flipped, one-word markables dropped; in ``plural`` and ``plural-heavy`` also ``ElementOf`` dropped
and added — the other five carry no ``ElementOf``).

tests/data/ua_v1/v1_printed.json holds every line v1 printed, the command, and the SHA-256 of
each input it read; the test rebuilds the inputs from the committed compact keys, checks their
SHA-256 (the same bytes v1 read) and asserts every printed value (``%.2f``) of every metric:

* ``remove_split_antecedent keep_non_referring`` — ``--preset crac18`` with every metric v1 prints
  (LEA, MUC, B³, CEAF-e, CEAF-m, BLANC, CoNLL) and the non-referring score;
* ``remove_split_antecedent remove_singletons`` — ``--drop-singletons``;
* ``keep_non_referring`` (v1's default: split antecedents kept) — ``--preset codicrac22ar``;
* ``only_split_antecedent`` — ``--split-antecedents only`` (the split antecedents alone).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from functools import lru_cache
from pathlib import Path

import pytest

from corefreport.io.ua import read_ua
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.options import settings_from
from conftest import load_script
import ua_printed

DATA = Path(__file__).parent / "data" / "ua_v1"
FIXTURE = json.loads((DATA / "v1_printed.json").read_text(encoding="utf-8"))
perturb = load_script(DATA / "perturb.py", "ua_perturb")

METRICS = ua_printed.V1_METRICS


def printed_values(lines: list[str]) -> dict[str, tuple[str, ...]]:
    """metric → the (R, P, F1) strings v1 printed; ``conll`` → (F1,)."""
    return ua_printed.printed_values(lines, METRICS)


@lru_cache(maxsize=None)
def compact_key(name: str) -> str:
    return gzip.decompress((DATA / f"{name}.key.ua.gz").read_bytes()).decode("utf-8")


@lru_cache(maxsize=None)
def side(name: str, variant: str):
    text = compact_key(name) if variant == "key" else perturb.perturb(compact_key(name), variant)
    return text, read_ua(f"{name}.{variant}", text)


def settings(options: str):
    if options == "remove_split_antecedent remove_singletons":
        return settings_from(metrics="lea,muc,bcub,ceafe,ceafm,blanc_crac", singletons="drop")
    if options == "remove_split_antecedent keep_non_referring":
        return settings_from(preset="crac18", metrics="lea,muc,bcub,ceafe,ceafm,blanc_crac,nonref")
    if options == "only_split_antecedent":
        return settings_from(metrics="lea,muc,bcub,ceafe,ceafm,blanc_crac", split_antecedents="only")
    return settings_from(preset="codicrac22ar")


RUNS = FIXTURE["runs"]


def test_every_run_is_here() -> None:
    assert len(RUNS) == 96
    assert sum(r["options"] == "keep_non_referring" for r in RUNS) == 24


@pytest.mark.parametrize("run", RUNS, ids=[f"{r['key']}-{r['response']}-{r['options'].replace(' ', '+')}" for r in RUNS])
def test_ua_v1_printed_numbers(run: dict) -> None:
    name, variant = run["key"], run["response"]
    text, response = side(name, variant)
    key = side(name, "key")[1]
    for label, t in ((f"{name}.{variant}", text), (f"{name}.key", compact_key(name))):
        assert hashlib.sha256(perturb.expand(t).encode()).hexdigest() == FIXTURE["sha256"][label], label
    ev = evaluate(key, response, settings(run["options"]))
    expected = printed_values(run["printed"])
    assert len(expected) >= 7
    for metric, values in expected.items():
        if metric == "conll":
            assert "%.2f" % (ev.conll * 100) == values[0]
            continue
        got = ev.metrics[METRICS[metric]]
        assert tuple("%.2f" % (x * 100) for x in (got.recall, got.precision, got.f1)) == values, metric
        if variant == "key":
            assert values == ("100.00",) * 3
