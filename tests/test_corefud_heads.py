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


KEY_2012 = """#begin document (d); part 000
d	0	0	The	DT	*	-	-	-	-	*	(1
d	0	1	old	JJ	*	-	-	-	-	*	-
d	0	2	man	NN	*	-	-	-	-	*	1)
d	0	3	saw	VBD	*	-	-	-	-	*	-
d	0	4	him	PRP	*	-	-	-	-	*	(1)
d	0	5	.	.	*	-	-	-	-	*	-

#end document
"""


def _pair(tmp_path: Path, response_text: str):
    (tmp_path / "k.conll").write_text(KEY_2012, encoding="utf-8")
    (tmp_path / "r.conll").write_text(response_text, encoding="utf-8")
    key, resp = load_corpus(str(tmp_path / "k.conll")), load_corpus(str(tmp_path / "r.conll"))
    return next(iter(key)), next(iter(resp))


def test_same_but_last_compares_every_column_but_the_coreference_one(tmp_path: Path):
    """Head matching skips head finding in step 1 only when the two files' columns agree but for the last."""
    kd, rd = _pair(tmp_path, KEY_2012.replace("(1)", "-").replace("1)", "-").replace("(1", "(7").replace(
        "man\tNN\t*\t-\t-\t-\t-\t*\t-", "man\tNN\t*\t-\t-\t-\t-\t*\t7)"))
    assert rd.chains and rd.chains[0].label == "7"
    assert kd.columns.same_but_last(rd.columns)
    kd, rd = _pair(tmp_path, KEY_2012.replace("man\tNN", "man\tVB"))
    assert not kd.columns.same_but_last(rd.columns)


def test_head_matching_follows_each_files_own_pos(tmp_path: Path):
    """Same words, other POS in the response: its head differs (rule 3a: the last noun before a verb),
    so under head matching the mention is not "super-exact" and finds no partner — the numbers must
    be those of heads found in each file, not of a shortcut through the key's heads."""
    from corefreport.scoring.evaluate import evaluate
    from corefreport.scoring.settings import Settings

    (tmp_path / "k.conll").write_text(KEY_2012, encoding="utf-8")
    (tmp_path / "r.conll").write_text(KEY_2012.replace("old\tJJ", "old\tNN").replace("man\tNN", "man\tVBZ"),
                                      encoding="utf-8")
    key, resp = load_corpus(str(tmp_path / "k.conll")), load_corpus(str(tmp_path / "r.conll"))
    kd, rd = next(iter(key)), next(iter(resp))
    assert not kd.columns.same_but_last(rd.columns)
    m = kd.chains[0].mentions[0]
    assert (head_finder(kd)(m), head_finder(rd)(m)) == (2, 1)  # "man" in the key, "old" in the response
    exact = evaluate(key, resp, Settings(metrics=("muc",), match="exact")).metrics["muc"]
    head = evaluate(key, resp, Settings(metrics=("muc",), match="head")).metrics["muc"]
    assert (exact.recall_num, exact.recall_den) == (1, 1)
    assert (head.recall_num, head.recall_den) == (0, 1)  # "The old man" (head old) ≠ "The old man" (head man)
