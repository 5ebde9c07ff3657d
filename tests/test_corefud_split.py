"""CorefUD's ``SplitAnte=`` scored as split antecedents, against the Universal Anaphora scorer v1
(juntaoy/universal-anaphora-scorer, main, f4adb45) on the same documents in UA form.

The keys are the seven GUM files of ../shared with ``SplitAnte=`` (9 annotations); the responses
are made by tests/data/corefud_split/perturb_split.py (split antecedents dropped, swapped and added,
entities split and merged, mentions removed). Each CorefUD file was turned into UA CoNLL-U Plus by
Udapi's own reader (tests/data/corefud_split/to_ua.py: ``ElementOf`` from Udapi's
``entity.split_ante``) and scored by v1; tests/data/corefud_split/v1_printed.json holds every line v1
printed, its command and the SHA-256 of each CorefUD file and UA file. corefreport reads the CorefUD
files themselves (:mod:`corefreport.io.corefud_splitante`).

Every value v1 printed agrees (``%.2f``) under v1's default (``--split-antecedents keep``),
``remove_split_antecedent`` (``drop``) and ``only_split_antecedent`` (``only``), except BLANC under
``only`` on the 6 runs of :data:`BLANC_ONLY`: v1 keeps a BLANC component when the whole document has
a link of that kind, corefreport when the split antecedents have one (docs/universal-anaphora.md).
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import load_script, shared_path
from corefreport.io.conllu import read_conllu
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.options import settings_from
import ua_printed

GUM = shared_path("data", "gum", "dep")
DATA = Path(__file__).parent / "data" / "corefud_split"
FIXTURE = json.loads((DATA / "v1_printed.json").read_text(encoding="utf-8"))
perturb = load_script(DATA / "perturb_split.py", "corefud_perturb_split")

METRICS = {header: m for header, m in ua_printed.V1_METRICS.items() if m != "nonref"}  # no Non-referring run here
SPLIT = {"": "keep", "remove_split_antecedent": "drop", "only_split_antecedent": "only"}
BLANC_ONLY = {("GUM_academic_librarians", "key"), ("GUM_academic_librarians", "ents"), ("GUM_bio_byron", "key"),
              ("GUM_bio_byron", "ents"), ("GUM_news_nasa", "key"), ("GUM_news_nasa", "ents")}
"""Runs whose split antecedents have no coreference link on either side (their member chains are
singletons) while the documents have some: v1 prints BLANC 50.00 (the empty component counted as
0), corefreport 100.00 (the component left out)."""


def printed_values(lines: list[str]) -> dict[str, tuple[str, ...]]:
    return ua_printed.printed_values(lines, METRICS)


@lru_cache(maxsize=None)
def text(name: str, variant: str) -> str:
    key = (GUM / f"{name}.conllu").read_text(encoding="utf-8")
    return key if variant == "key" else perturb.perturb(key, variant, name)


@lru_cache(maxsize=None)
def corpus(name: str, variant: str):
    return read_conllu(f"{name}.{variant}.conllu", text(name, variant))


def _id(r: dict) -> str:
    return f"{r['name']}-{r['response']}-{r['options'] or 'default'}"


def test_every_run_is_here() -> None:
    assert len(FIXTURE["runs"]) == 126 and len(FIXTURE["sha256"]) == 42
    assert {r["name"] for r in FIXTURE["runs"]} == set(perturb.NAMES)


@pytest.mark.parametrize("run", FIXTURE["runs"], ids=[_id(r) for r in FIXTURE["runs"]])
def test_split_ante_as_ua_v1(run: dict) -> None:
    name, variant = run["name"], run["response"]
    for v in ("key", variant):
        assert hashlib.sha256(text(name, v).encode()).hexdigest() == FIXTURE["sha256"][f"{name}.{v}"]["conllu"]
    ev = evaluate(corpus(name, "key"), corpus(name, variant),
                  settings_from(metrics=",".join(METRICS.values()), singletons="keep",
                                split_antecedents=SPLIT[run["options"]]))
    expected = printed_values(run["printed"])
    assert len(expected) == 7
    for metric, values in expected.items():
        if metric == "conll":
            assert "%.2f" % (ev.conll * 100) == values[0]
            continue
        got = tuple("%.2f" % (x * 100) for x in (lambda s: (s.recall, s.precision, s.f1))(ev.metrics[METRICS[metric]]))
        if metric == "blanc" and run["options"] == "only_split_antecedent" and (name, variant) in BLANC_ONLY:
            assert (values, got) == (("50.00",) * 3, ("100.00",) * 3)
            continue
        assert got == values, metric
        if variant == "key":
            assert values == ("100.00",) * 3


def test_gum_split_antecedents_are_read() -> None:
    """The 9 ``SplitAnte=`` of the seven files (grep): 21 antecedent entities of 9 plural entities."""
    plural = members = 0
    for name in perturb.NAMES:
        doc = corpus(name, "key").documents[name]
        of = {c.label: c.mentions[0].features.get("ElementOf") for c in doc.chains}
        assert all(m.features.get("ElementOf") == of[c.label] for c in doc.chains for m in c.mentions)
        members += sum(1 for v in of.values() if v)
        plural += len({p for v in of.values() if v for p in v.split(",")})
    assert (plural, members) == (9, 21)


def test_the_perturbations_change_split_antecedents() -> None:
    """Against the perturbed split antecedents the default (keep) differs from drop: the test above
    is not blind to them."""
    keep = drop = 0
    for run in FIXTURE["runs"]:
        if run["response"] in ("sa_drop", "sa_swap", "sa_add") and run["options"] in ("", "remove_split_antecedent"):
            conll = printed_values(run["printed"])["conll"][0]
            keep += run["options"] == "" and conll != "100.00"
            drop += run["options"] == "remove_split_antecedent" and conll == "100.00"
    assert keep == 21 and drop == 21
