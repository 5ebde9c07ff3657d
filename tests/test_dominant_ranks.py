"""dominant.ranks (one pass per chain) against dominant.rank (the rule as written, one mention at a
time) on random chains of names, initials, nominals and pronouns."""

from __future__ import annotations

import random

from corefreport.model import Document, Mention
from corefreport.scoring.dominant import dominant_of, rank, ranks

WORDS = ["Barack", "Obama", "B.", "U.S.", "the", "president", "he", "Michelle", "Obama", "it", "A", "Lee"]


def _chain(rnd: random.Random, doc: Document) -> list[Mention]:
    out = []
    for _ in range(rnd.randrange(1, 12)):
        s = rnd.randrange(len(doc.tokens) - 3)
        e = s + rnd.randrange(3)
        feats = {"mtype": rnd.choice(["NAME", "NAME", "NOMINAL", "PRONOUN"])}
        if rnd.random() < 0.05:
            feats["dominant"] = "1"
        out.append(Mention(s, e, "1", features=feats))
    return out


def test_ranks_equal_rank_of_each_mention() -> None:
    rnd = random.Random(13)
    doc = Document("d", [rnd.choice(WORDS) for _ in range(60)])
    for _ in range(400):
        chain = _chain(rnd, doc)
        assert ranks(doc, chain) == [rank(doc, m, chain) for m in chain]


def test_dominant_is_the_first_best_ranked_mention() -> None:
    doc = Document("d", "Barack Obama said that Obama and B. Obama met him".split())
    chain = [Mention(4, 4, features={"mtype": "NAME"}), Mention(0, 1, features={"mtype": "NAME"}),
             Mention(6, 7, features={"mtype": "NAME"}), Mention(9, 9, features={"mtype": "PRONOUN"})]
    # "Barack Obama" is full (4), "Obama" partial (2), "B. Obama" abbreviated (3), "him" never
    assert ranks(doc, chain) == [2, 4, 3, 0]
    assert dominant_of(doc, chain) == (chain[1], True)
