"""Snapshots of the browser's level above the totals (``tui --datasets``, ``tui … --subsets genre``)
at 80×24 and 120×40 (pytest-textual-snapshot), in the style of test_tui_snapshots.py.

Update after an intended change with ``pytest tests/test_tui_levels_snapshots.py --snapshot-update``
and look at the SVGs in ``tests/__snapshots__/test_tui_levels_snapshots/``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pytest

from corefreport.cli import example_paths
from corefreport.io import load_corpus
from corefreport.model import Corpus
from corefreport.study import datasets as S
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.settings import Settings, Signature
from corefreport.study.subsets import grouping
from corefreport.tui import datasetmodel as D
from corefreport.tui.app import CorefApp
from studies import level_nodes

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
SETTINGS = Settings(metrics=ALL_METRICS, analyses=("arcs", "typed"))


def _no_version(ev):
    """The package version is part of the signature; keep it out of the pictures."""
    return replace(ev, signature=Signature(tuple((k, "X" if k == "version" else v) for k, v in ev.signature.fields)))


@lru_cache(maxsize=1)
def corpora():
    key, resp = example_paths()
    return load_corpus(key, key=True), load_corpus(resp)


def datasets_level(monkeypatch) -> D.Level:
    monkeypatch.setattr(S, "__version__", "X")
    kc, rc = corpora()
    ids = list(kc.documents)

    def part(c, ids):
        return Corpus({i: c.documents[i] for i in ids}, c.source, c.format)

    dev = S.evaluate_datasets([(f"doc{k + 1}", part(kc, [i]), part(rc, [i])) for k, i in enumerate(ids)],
                              S.single_variant(SETTINGS), browse=True)
    return D.Level("datasets", "dataset", dev, {d.name: _no_version(d.evaluations[""]) for d in dev.datasets},
                   tuple(d.name for d in dev.datasets), final=True)


def groups_level() -> D.Level:
    key, resp = example_paths()
    level = D.level_of(level_nodes(key, [resp], SETTINGS, subsets=["length:400,800"])[-1])
    return replace(level, evaluations={n: _no_version(ev) for n, ev in level.evaluations.items()})


@pytest.mark.parametrize("size", SIZES)
def test_datasets_page(snap_compare, size, monkeypatch):
    assert snap_compare(CorefApp(datasets_level(monkeypatch), title="datasets of datasets.tsv"),
                        terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_a_dataset_opened(snap_compare, size, monkeypatch):
    assert snap_compare(CorefApp(datasets_level(monkeypatch), title="datasets of datasets.tsv"),
                        terminal_size=size, press=["down", "enter"])


@pytest.mark.parametrize("size", SIZES)
def test_groups_page(snap_compare, size):
    assert snap_compare(CorefApp(groups_level(), title="response by length"), terminal_size=size)
