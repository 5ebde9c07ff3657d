"""Heads for head/partial matching of CoNLL-2012 input (docs/matching.md rule 3a): the fast
``matching.head_finder`` (reads the POS of the mentions' words only) must give exactly
``features.find_head`` — the documented rule — on every mention of real files."""

from __future__ import annotations

from pathlib import Path

import pytest

from corefreport.io import load_corpus
from corefreport.scoring.features import find_head
from corefreport.scoring.matching import head_finder

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
FILES = [SHARED / "gum" / "derived" / "conll2012" / "gum.conll", SHARED / "gum" / "derived" / "conll2012" / "ontogum.conll"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_head_finder_is_find_head(path: Path):
    if not path.exists():
        pytest.skip("shared data not found")
    corpus = load_corpus(str(path))
    n = 0
    for doc in corpus:
        fast = head_finder(doc)  # before anything cuts the POS column
        for m in doc.mentions:
            assert fast(m) == find_head(doc, m), (doc.doc_id, m.span)
            n += 1
    assert n > 2000


@pytest.mark.parametrize("path", FILES[:1], ids=lambda p: p.name)
def test_one_cell_is_the_column_value(path: Path):
    if not path.exists():
        pytest.skip("shared data not found")
    doc = next(iter(load_corpus(str(path))))
    cells = [doc.columns.cell("pos", t) for t in range(len(doc.tokens))]
    assert cells == doc.columns["pos"] and len(set(cells)) > 10
