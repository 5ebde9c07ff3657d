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


KEY_2012 = """#begin document (d); part 000
d	0	0	The	DT	*	-	-	-	-	*	(1
d	0	1	old	JJ	*	-	-	-	-	*	-
d	0	2	man	NN	*	-	-	-	-	*	1)
d	0	3	saw	VBD	*	-	-	-	-	*	-
d	0	4	him	PRP	*	-	-	-	-	*	(1)
d	0	5	.	.	*	-	-	-	-	*	-

#end document
"""


def test_response_heads_come_from_the_keys_columns(tmp_path: Path):
    """Same words, other POS in the response file: rule 3a on each file would give "The old man" head
    "man" in the key and "old" in the response, and head matching would then refuse the very span the
    key has. Heads of both sides come from the key's columns, so the span is matched (rule 3a)."""
    from corefreport.scoring.evaluate import evaluate
    from corefreport.scoring.settings import Settings

    (tmp_path / "k.conll").write_text(KEY_2012, encoding="utf-8")
    (tmp_path / "r.conll").write_text(KEY_2012.replace("old\tJJ", "old\tNN").replace("man\tNN", "man\tVBZ"),
                                      encoding="utf-8")
    key, resp = load_corpus(str(tmp_path / "k.conll")), load_corpus(str(tmp_path / "r.conll"))
    kd, rd = next(iter(key)), next(iter(resp))
    m = kd.chains[0].mentions[0]
    assert (head_finder(kd)(m), head_finder(rd)(m)) == (2, 1)  # "man" by the key's POS, "old" by the response's
    for match in ("exact", "head", "partial"):
        ev = evaluate(key, resp, Settings(metrics=("muc",), match=match))
        assert (ev.metrics["muc"].recall_num, ev.metrics["muc"].recall_den) == (1, 1), match
    assert "heads:rule" in str(ev.signature) and any("rule 3a" in w for w in ev.warnings)


SINGE = SHARED / "jsonlines"


def test_the_same_spans_in_two_formats_match_under_every_mode():
    """singe.conll (CoNLL-2012 with POS) and singe.jsonlines (the same document's chains, no POS):
    exact matching scores 100; head and partial matching must too (before, the JSON lines side had
    no POS, so its heads were last words: MUC 74.71 under head matching)."""
    if not (SINGE / "singe.conll").exists():
        pytest.skip("shared data not found")
    from corefreport.scoring.evaluate import evaluate
    from corefreport.scoring.settings import Settings

    key, resp = load_corpus(str(SINGE / "singe.conll")), load_corpus(str(SINGE / "singe.jsonlines"))
    for match in ("exact", "head", "partial"):
        ev = evaluate(key, resp, Settings(match=match))
        assert all(ev.metrics[m].f1 == 1.0 for m in ("muc", "bcub", "ceafe", "lea")), match
