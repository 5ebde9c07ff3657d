"""Every analysis at book scale (issue 35): the error classes of books with big entities, and the
dominant mentions of a long chain of names, the same as before the book-scale changes.

* The error classes (rows, counts, costs) of generated books whose entities are folded into a few
  large ones (bench/make_book.py) equal those corefreport bf9833a computed — the implementation
  before a merge moved the smaller entity and intersections were found by each mention's key
  entity (tests/data/bookscale/README.md: the command and the numbers).
* The costs computed by re-scoring only the confusion groups a correction changed equal the costs
  of every corrected response scored whole by the standard metrics (:mod:`.metrics`, an
  independent count).
* Dominant ranks (Žitkus et al. 2023, §4.2) of a long chain with many distinct names (asked once
  per distinct name) equal the definition applied mention by mention against every other mention
  of the chain (``dominant.rank``, itself checked against ranks worked out by hand in
  ``tests/test_dominant_ranks.py``).
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

from corefreport.io import load_corpus
from corefreport.model import Chain, Document, Mention
from corefreport.scoring.dominant import rank, ranks
from corefreport.scoring.errorclasses import analyse

DATA = Path(__file__).parent / "data" / "bookscale"
RECORDED = json.loads((DATA / "errors-bf9833a.json").read_text(encoding="utf-8"))["cases"]


def _record():
    spec = importlib.util.spec_from_file_location("bookscale_record", DATA / "record.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def books(tmp_path_factory) -> dict[str, Path]:
    """Each recorded case's book, written again by its seeded generator."""
    rec = _record()
    out = {}
    tmp = tmp_path_factory.mktemp("books")
    for case in RECORDED:
        prefix = tmp / case["name"]
        rec.write_book(case["book"], prefix)
        out[case["name"]] = prefix
    return out


@pytest.mark.parametrize("case", RECORDED, ids=[c["name"] for c in RECORDED])
def test_errors_of_a_book_as_bf9833a_computed_them(case, books):
    import hashlib

    rec = _record()
    prefix = books[case["name"]]
    key = Path(f"{prefix}.key")
    assert hashlib.sha256(key.read_bytes()).hexdigest() == case["key_sha256"], "the generator wrote another book"
    e = rec.errors_section(key, Path(f"{prefix}.response"), case["options"])
    assert e["counts"] == case["counts"]
    assert e["leftover_mentions"] == case["leftover_mentions"]
    assert len(e["rows"]) == case["rows"]
    assert e["costs"] == case["costs"]
    # every row (class, mentions, entities, texts), the breakdowns and the per-document figures
    assert hashlib.sha256(rec.canonical(e).encode()).hexdigest() == case["errors_sha256"]


def _chains(path: Path) -> list[list[tuple[int, int]]]:
    doc = next(iter(load_corpus(str(path), "conll2012").documents.values()))
    return [[(m.start, m.end) for m in c.mentions] for c in doc.chains]


@pytest.mark.parametrize("case", RECORDED[:3], ids=[c["name"] for c in RECORDED[:3]])
def test_group_rescoring_equals_scoring_each_corrected_response_whole(case, books):
    prefix = books[case["name"]]
    key, response = _chains(Path(f"{prefix}.key")), _chains(Path(f"{prefix}.response"))
    assert max(map(len, key)) > 100  # a big entity: the book-scale paths are taken
    keep = "--errors-drop-response-singletons" not in case["options"]
    fast = analyse(key, response, keep_singletons=keep)
    whole = analyse(key, response, keep_singletons=keep, full_rescore=True)
    assert [(r.cls, r.mentions) for r in fast.rows] == [(r.cls, r.mentions) for r in whole.rows]
    for states_fast, states_whole in ((fast.cumulative, whole.cumulative), (fast.alone, whole.alone)):
        assert states_fast.keys() == states_whole.keys()
        for state in states_fast:
            for metric, c in states_fast[state].items():
                w = states_whole[state][metric]
                got = (c.recall_num, c.recall_den, c.precision_num, c.precision_den)
                want = (w.recall_num, w.recall_den, w.precision_num, w.precision_den)
                assert got == pytest.approx(want, abs=1e-9), (state, metric)


# -- dominant mentions --------------------------------------------------------------------------

def test_dominant_ranks_of_a_long_chain_of_many_names():
    rng = random.Random(35)
    first = ["Anna", "Bob", "Clara", "Dmitri", "Eve", "Farid"]
    last = ["Karenina", "Smith", "Oblonsky", "Levin", "Vronsky"]
    tokens: list[str] = []
    chain: list[Mention] = []
    for _ in range(3000):  # a main character's 3,000 mentions, names of one to three words
        kind = rng.random()
        if kind < 0.4:
            words = rng.sample(first, 1) + rng.sample(last, rng.randint(0, 2))
            mtype = "NAME"
        elif kind < 0.45:
            words, mtype = [rng.choice("ABC") + ".", rng.choice(last)], "NAME"
        elif kind < 0.75:
            words, mtype = ["she"], "PRONOUN"
        else:
            words, mtype = ["the", "woman"], "NOMINAL"
        features = {"mtype": mtype}
        if rng.random() < 0.001:
            features["dominant"] = "1"
        chain.append(Mention(len(tokens), len(tokens) + len(words) - 1, "1", features=features))
        tokens.extend(words + ["said", "."])
    doc = Document(doc_id="book", tokens=tokens, chains=[Chain("1", chain)])
    want = [rank(doc, m, chain) for m in chain]  # §4.2 mention by mention, against every other mention
    assert ranks(doc, chain) == want
    assert {2, 3, 4, 0, 1} <= set(want)  # every rank occurs
