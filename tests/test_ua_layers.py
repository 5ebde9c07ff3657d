"""The bridging and discourse-deixis layers against the Universal Anaphora scorer v1
(juntaoy/universal-anaphora-scorer, main, f4adb45) on the CODI-CRAC 2022 dev files (AMI, LIGHT,
Persuasion), each against itself and against responses derived by deterministic perturbation
(tests/data/ua_layers/perturb_layers.py: bridging anchors moved, pairs dropped, spurious pairs,
pairs whose markable is missing, identity markables dropped; DD entities split and merged, DD
markables moved and dropped).

tests/data/ua_layers/v1_printed.json holds every line v1 printed, its command and the SHA-256 of
each input it read; the test rebuilds the inputs from the committed compact keys
(tests/data/ua_v1/NAME.key.ua.gz), checks their SHA-256 and asserts every printed value (``%.2f``):

* ``keep_bridging`` and ``keep_bridging remove_split_antecedent`` — ``--preset codicrac22br``: the
  three bridging scores, and as many skipped pairs reported as v1 printed ``Skip bridging pair``;
* ``evaluate_discourse_deixis`` with the key's DD ``ElementOf`` removed (``NAME.nosplit``) —
  ``--preset codicrac22dd``: the six DD metrics and the DD CoNLL score;
* ``evaluate_discourse_deixis`` on the key as published, with its DD split antecedents (``ElementOf``
  in the DD column, which v1 always scores in this mode): against itself (100 everywhere) and against
  the perturbed responses.
"""

from __future__ import annotations

import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from corefreport.io.ua import read_ua
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.options import settings_from
from conftest import load_script
import ua_printed

DATA = Path(__file__).parent / "data" / "ua_layers"
FIXTURE = json.loads((DATA / "v1_printed.json").read_text(encoding="utf-8"))
perturb = load_script(DATA / "perturb_layers.py", "ua_perturb_layers")

BRIDGING = {"Bridging anaphora recognition scores:": "bridging_ar",
            "Full bridging scores (Markable Level):": "bridging_fbm",
            "Full bridging scores (Entity Level):": "bridging_fbe"}
DD = {"lea": "dd_lea", "muc": "dd_muc", "bcub": "dd_bcub", "ceafe": "dd_ceafe", "ceafm": "dd_ceafm",
      "blanc": "dd_blanc"}


def printed_values(lines: list[str], names: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """our metric key → the (R, P, F1) strings v1 printed under one of ``names``; ``conll`` → (F1,)."""
    return {names.get(k, k): v for k, v in ua_printed.printed_values(lines, names).items()}


@lru_cache(maxsize=None)
def text(name: str, variant: str) -> str:
    k = perturb.key(name)
    return k if variant == "key" else perturb.nosplit(k) if variant == "nosplit" else perturb.perturb(k, variant)


@lru_cache(maxsize=None)
def corpus(name: str, variant: str):
    return read_ua(f"{name}.{variant}", text(name, variant))


def rpf(score) -> tuple[str, ...]:
    return tuple("%.2f" % (x * 100) for x in (score.recall, score.precision, score.f1))


def _id(r: dict) -> str:
    return f"{r['name']}-{r['key']}-{r['response']}-{r['options'].replace(' ', '+')}"


def test_every_run_is_here() -> None:
    assert len(FIXTURE["runs"]) == 54 and len(FIXTURE["sha256"]) == 27


def _inputs_are_v1s(run: dict) -> None:
    for v in (run["key"], run["response"]):
        label = f"{run['name']}.{v}"
        assert hashlib.sha256(perturb.expand(text(run["name"], v)).encode()).hexdigest() == FIXTURE["sha256"][label]


BRIDGING_RUNS = [r for r in FIXTURE["runs"] if "keep_bridging" in r["options"]]


@pytest.mark.parametrize("run", BRIDGING_RUNS, ids=[_id(r) for r in BRIDGING_RUNS])
def test_bridging_as_v1(run: dict) -> None:
    _inputs_are_v1s(run)
    ev = evaluate(corpus(run["name"], run["key"]), corpus(run["name"], run["response"]),
                  settings_from(preset="codicrac22br"))
    expected = printed_values(run["printed"], BRIDGING)
    expected.pop("conll")  # the coreference layer's, scored by tests/test_ua_v1.py
    assert set(expected) == set(BRIDGING.values())
    for metric, values in expected.items():
        assert rpf(ev.metrics[metric]) == values, metric
        if run["response"] == "key":
            assert values == ("100.00",) * 3
    skipped = sum(int(m.group(1)) for w in ev.warnings for m in [re.search(r"(\d+) (?:key|response) bridging pair", w)]
                  if m)
    assert skipped == sum(1 for line in run["printed"] if line.startswith("Skip bridging pair"))


def test_some_bridging_pairs_are_skipped_and_reported() -> None:
    run = next(r for r in BRIDGING_RUNS if r["name"] == "light_dev" and r["response"] == "br_mixed")
    assert sum(1 for line in run["printed"] if line.startswith("Skip bridging pair")) > 10
    ev = evaluate(corpus("light_dev", "key"), corpus("light_dev", "br_mixed"), settings_from(preset="codicrac22br"))
    assert any("response bridging pair(s) skipped" in w and "ghost_" in w for w in ev.warnings)


DD_RUNS = [r for r in FIXTURE["runs"] if r["options"] == "evaluate_discourse_deixis"]
SPLIT = [r for r in DD_RUNS if r["key"] == "key" and r["response"] != "key"]


def _dd(run: dict) -> None:
    _inputs_are_v1s(run)
    ev = evaluate(corpus(run["name"], run["key"]), corpus(run["name"], run["response"]),
                  settings_from(preset="codicrac22dd"))
    expected = printed_values(run["printed"], DD)
    assert len(expected) == 7
    for metric, values in expected.items():
        if metric == "conll":
            assert "%.2f" % (ev.dd_conll * 100) == values[0]
            assert ev.as_dict(per_doc=True)["metrics"]["dd_conll"]["f1"] == ev.dd_conll
        else:
            assert rpf(ev.metrics[metric]) == values, metric
        if run["response"] in ("key", "nosplit"):
            assert set(values) == {"100.00"}


@pytest.mark.parametrize("run", [r for r in DD_RUNS if r not in SPLIT], ids=[_id(r) for r in DD_RUNS if r not in SPLIT])
def test_discourse_deixis_as_v1(run: dict) -> None:
    _dd(run)


@pytest.mark.parametrize("run", SPLIT, ids=[_id(r) for r in SPLIT])
def test_discourse_deixis_with_split_antecedents_as_v1(run: dict) -> None:
    _dd(run)


HEAD = "# global.columns = ID FORM IDENTITY BRIDGING DISCOURSE_DEIXIS\n# newdoc id = d\n"


def test_reader_layers() -> None:
    text = HEAD + (
        "1 a (EntityID=1|MarkableID=m1) _ (EntityID=1-DD|MarkableID=d1\n"
        "2 b (EntityID=2|MarkableID=m2) (MarkableID=m2|Rel=poss|MentionAnchor=m1|EntityAnchor=1) )\n"
        "3 c (EntityID=3-Pseudo|MarkableID=m3) (MarkableID=m3|Rel=x|MentionAnchor=m9) (EntityID=1-DD|MarkableID=d2)\n")
    doc = read_ua("f", text).documents["d"]
    (pair,) = doc.layers["bridging"]
    assert pair.label == "poss" and [m.span for m in pair.mentions] == [(1, 1), (0, 0)]
    assert [c.label for c in doc.layers["bridging_skipped"]] == ["m3→m9"]
    assert [[m.span for m in c] for c in doc.layers["discourse_deixis"]] == [[(0, 1), (2, 2)]]
    ev = evaluate(read_ua("k", text), read_ua("r", text), settings_from(metrics="bridging_ar,dd_muc"))
    assert rpf(ev.metrics["bridging_ar"]) == ("100.00",) * 3 and ev.metrics["dd_muc"].recall_den == 1
    assert sum("1 key bridging pair(s) skipped" in w and "m3→m9" in w for w in ev.warnings) == 1


@pytest.mark.parametrize("cells, problem", [
    ("(MarkableID=m1|Rel=x) _", "f:3: BRIDGING opener '(MarkableID=m1|Rel=x' has no MentionAnchor"),
    ("_ )", "f:3: DISCOURSE_DEIXIS: cell ')': ')' closes no open markable"),
    ("_ (EntityID=1|MarkableID=d1", "f:3: DISCOURSE_DEIXIS: markable 'd1' is never closed in document 'd'"),
])
def test_reader_layer_errors(cells: str, problem: str) -> None:
    from corefreport.errors import InputError

    with pytest.raises(InputError) as e:
        read_ua("f", HEAD + f"1 a (EntityID=1|MarkableID=m1) {cells}\n")
    assert str(e.value) == problem


def test_every_view_has_the_layers() -> None:
    """score's JSON (counts, per document), compare (paired tests per layer), the report (a
    section per layer), on LIGHT dev against a response with bridging and DD perturbed."""
    from corefreport.report.model import build
    from corefreport.scoring.compare import compare

    s = settings_from(metrics="muc,bcub,ceafe,nonref,bridging,dd")
    key = corpus("light_dev", "key")
    a = evaluate(key, corpus("light_dev", "br_mixed"), s)
    b = evaluate(key, corpus("light_dev", "dd_mixed"), s)
    js = a.as_dict(per_doc=True)
    assert js["metrics"]["bridging_fbm"] == {**js["metrics"]["bridging_fbm"], "recall_num": 320, "recall_den": 424,
                                             "precision_num": 320, "precision_den": 559}
    per_doc = js["per_document"]
    assert sum(d["metrics"]["bridging_ar"]["recall_den"] for d in per_doc.values()) == 424
    assert all("dd_conll" in d["metrics"] for d in per_doc.values())
    assert "%.2f" % (b.dd_conll * 100) == "74.85"  # v1: light_dev key dd_mixed (DD split antecedents scored)
    cmp = compare({"br": a, "dd": b}, "br", bootstrap=200, randomization=200)
    tested = {m.name for m in cmp.metrics}
    assert {"nonref", "bridging_ar", "bridging_fbe", "dd_muc", "dd_conll"} <= tested
    report = build(b)
    ids = [sec.id for sec in report.sections]
    assert ids.index("metrics") < ids.index("nonref") < ids.index("bridging") < ids.index("deixis")
    metrics = next(sec for sec in report.sections if sec.id == "metrics")
    assert not any(str(r[0]).startswith(("dd_", "bridging")) for blk in metrics.blocks for r in getattr(blk, "rows", []))
    only_coref = build(evaluate(key, corpus("light_dev", "br_mixed"), settings_from(metrics="muc,bcub,ceafe")))
    assert not {"nonref", "bridging", "deixis"} & {sec.id for sec in only_coref.sections}
