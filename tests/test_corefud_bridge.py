"""CorefUD's ``Bridge=`` read into the bridging layer (io/corefud_bridge.py) and scored: on the 20
GUM documents of ../shared/data/gum/dep (155 bridging links), each file against itself and against
a response whose every third ``Bridge=`` cell is removed. The expected numbers are counted here
from the files' text alone: an anaphor is (file, line of the ``Bridge=`` cell, anaphor entity) —
Udapi writes the attribute on the first word of the anaphor mention — and anaphor recognition is
R = |K ∩ S| / |K|, P = |K ∩ S| / |S| over those anaphors.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from corefreport.io.conllu import read_conllu
from corefreport.model import Corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.options import settings_from
from corefreport.tui import layermodel as L

from conftest import shared_path

BRIDGE = re.compile(r"(?:^|\|)Bridge=([^|\s]+)")


def gum_files() -> list[Path]:
    return sorted(shared_path("data", "gum", "dep").glob("*.conllu"))


def anaphors(name: str, text: str) -> set[tuple[str, int, str]]:
    """(file, line, anaphor entity) of every Bridge= link of a file."""
    out = set()
    for n, line in enumerate(text.split("\n"), 1):
        cols = line.split("\t")
        if len(cols) == 10 and (m := BRIDGE.search(cols[9])):
            out.update((name, n, link.split("<")[1].split(":")[0]) for link in m.group(1).split(","))
    return out


def drop_every_third(text: str) -> tuple[str, list[int]]:
    """The text without the Bridge= attribute of every third line that has one; the lines dropped."""
    lines, seen, dropped = text.split("\n"), 0, []
    for k, line in enumerate(lines):
        cols = line.split("\t")
        if len(cols) == 10 and BRIDGE.search(cols[9]):
            seen += 1
            if seen % 3 == 0:
                cols[9] = "|".join(i for i in cols[9].split("|") if not i.startswith("Bridge=")) or "_"
                lines[k] = "\t".join(cols)
                dropped.append(k + 1)
    return "\n".join(lines), dropped


def corpus(texts: dict[str, str]) -> Corpus:
    out = Corpus(source="gum", format="conllu")
    for name, text in texts.items():
        out.documents.update(read_conllu(name, text).documents)
    return out


def test_gum_bridges_are_read_and_scored_as_counted_from_the_text() -> None:
    texts = {p.name: p.read_text(encoding="utf-8") for p in gum_files()}
    links = sum(len(m.group(1).split(",")) for t in texts.values() for line in t.split("\n")
                for m in [BRIDGE.search(line.split("\t")[9]) if line.count("\t") == 9 else None] if m)
    assert links == 155  # the count for the shared GUM files
    key_anaphors = set().union(*(anaphors(n, t) for n, t in texts.items()))
    key = corpus(texts)
    read = sum(len(d.layers.get("bridging_entity", ())) for d in key)
    assert read == 155 and not any("bridging_skipped" in d.layers for d in key)

    s = settings_from(metrics="muc,bridging")
    same = evaluate(key, corpus(texts), s)
    ar = same.metrics["bridging_ar"]
    assert (ar.recall_num, ar.recall_den, ar.precision_den) == (len(key_anaphors),) * 3
    # only anaphor recognition is defined for entity anchors: the other two are not printed, and a warning says why
    assert "bridging_fbm" not in same.metrics and "bridging_fbe" not in same.metrics
    assert any("only anaphor recognition (Bridging AR) is defined" in w for w in same.warnings)

    cut = {n: drop_every_third(t) for n, t in texts.items()}
    resp_anaphors = set().union(*(anaphors(n, t) for n, (t, _) in cut.items()))
    ev = evaluate(key, corpus({n: t for n, (t, _) in cut.items()}), s)
    ar = ev.metrics["bridging_ar"]
    both = len(key_anaphors & resp_anaphors)
    assert both < len(key_anaphors)
    assert (ar.recall_num, ar.recall_den, ar.precision_num, ar.precision_den) == (
        both, len(key_anaphors), both, len(resp_anaphors))
    # the browser's rows: one per anaphor, found or missed
    items = L.bridging_items(ev)
    assert sum(1 for it in items if it.row.outcome == "anaphor found") == both
    assert sum(1 for it in items if it.row.outcome == "missed") == len(key_anaphors) - both


def test_entity_anchored_pairs_in_the_browser() -> None:
    text = "\n".join(["# newdoc id = d",
                      "1\tThe\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-object-2-",
                      "2\thouse\t_\t_\t_\t_\t0\t_\t_\tEntity=e1)",
                      "3\tits\t_\t_\t_\t_\t0\t_\t_\tEntity=(e1-object-1-)",
                      "4\troof\t_\t_\t_\t_\t0\t_\t_\tBridge=e1<e2:part|Entity=(e2-object-1-)"])
    k = corpus({"k.conllu": text})
    ev = evaluate(k, corpus({"r.conllu": text}), settings_from(metrics="bridging"))
    (item,) = L.bridging_items(ev)
    assert item.row.outcome == "anaphor found" and item.row.key_rel == "part"
    view = L.layer_view(ev, "bridging", 120)
    assert view.plain() == [["anaphor found", "roof", "The house (2)", "The house (2)", "part", "d"]]
    detail = L.layer_detail(ev, item).plain
    assert "The house its[K=R] roof[A]" in detail and "only anaphor recognition is defined" in detail
    assert "anchors are entities (CorefUD's Bridge=)" in view.note
