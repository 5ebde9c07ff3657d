"""A CorefUD key with discontinuous mentions on random dependency trees: the input of
tests/test_roundtrip.py, which compares corefreport's round trip (io/roundtrip.py) with what
text2text-coref's ``conllu2json`` and ``conllu2text`` wrote for it (key.json, key.txt; run_t2t.sh).

``python build.py > key.conllu``. Deterministic (``random.Random("roundtrip")``): 24 documents of 2–3
sentences of 6–11 words; each sentence a random tree (the words attached in a random order, each to a
random word already attached); 2–6 mentions a sentence in entities ``e1``…``e5`` of the document
(a mention of an entity never overlaps another of the same entity), 45 % of them discontinuous in 2
or 3 parts (at least one word between two parts), each with a random head word (its ``Entity``
head field counts over all its words, as Udapi writes it); ``# global.Entity = eid-etype-head-other``.
"""

from __future__ import annotations

import random
import sys

WORDS = "the a cat dog saw old man house ran quickly near river big small bird tree sang".split()


def tree(rng: random.Random, n: int) -> list[int]:
    """HEAD (1-based, 0 for the root) of each of ``n`` words: a random tree."""
    order = list(range(1, n + 1))
    rng.shuffle(order)
    heads = [0] * (n + 1)
    for k, w in enumerate(order[1:], 1):
        heads[w] = rng.choice(order[:k])
    return heads[1:]


def parts_of(rng: random.Random, n: int) -> list[list[int]]:
    """A mention's words (1-based) as its parts: one run, or 2–3 runs with a gap between two."""
    if rng.random() < 0.45 and n >= 4:
        k = rng.choice((2, 3)) if n >= 7 else 2
        for _ in range(50):
            cuts = sorted(rng.sample(range(1, n + 1), 2 * k))
            parts = [list(range(cuts[2 * i], cuts[2 * i + 1] + 1)) if rng.random() < 0.6 else [cuts[2 * i]]
                     for i in range(k)]
            if all(parts[i + 1][0] > parts[i][-1] + 1 for i in range(k - 1)):
                return parts
    s = rng.randrange(1, n + 1)
    return [list(range(s, min(n, s + rng.randint(0, 3)) + 1))]


def sentence(rng: random.Random, n: int, entities: list[str]) -> list[tuple[str, list[list[int]], int]]:
    """(entity, parts, head index over all words) of each mention of a sentence of ``n`` words."""
    out: list[tuple[str, list[list[int]], int]] = []
    for _ in range(rng.randint(2, 6)):
        e = rng.choice(entities)
        parts = parts_of(rng, n)
        lo, hi = parts[0][0], parts[-1][-1]
        if any(x == e and not (hi < p[0][0] or lo > p[-1][-1]) for x, p, _ in out):
            continue
        words = [w for p in parts for w in p]
        out.append((e, parts, rng.randrange(len(words)) + 1))
    return out


def cells(n: int, mentions: list[tuple[str, list[list[int]], int]]) -> list[str]:
    """The Entity value of each word: closings (shorter first), openings (longer first), one-word ones."""
    closes: list[list[tuple]] = [[] for _ in range(n + 1)]
    opens: list[list[tuple]] = [[] for _ in range(n + 1)]
    singles: list[list[str]] = [[] for _ in range(n + 1)]
    for e, parts, head in mentions:
        for i, p in enumerate(parts, 1):
            eid = e if len(parts) == 1 else f"{e}[{i}/{len(parts)}]"
            if len(p) == 1:
                singles[p[0]].append(f"({eid}-x-{head}-)")
            else:
                opens[p[0]].append((-len(p), f"({eid}-x-{head}-"))
                closes[p[-1]].append((len(p), f"{eid})"))
    return ["".join([c for _, c in sorted(closes[w])] + [o for _, o in sorted(opens[w])] + singles[w])
            for w in range(1, n + 1)]


def main() -> None:
    rng = random.Random("roundtrip")
    out = ["# global.Entity = eid-etype-head-other"]
    for d in range(24):
        out.append(f"# newdoc id = doc{d}")
        entities = [f"e{k}" for k in range(1, rng.randint(2, 5) + 1)]
        for s in range(rng.randint(2, 3)):
            n = rng.randint(6, 11)
            heads = tree(rng, n)
            entity = cells(n, sentence(rng, n, entities))
            out.append(f"# sent_id = doc{d}-{s + 1}")
            for w in range(1, n + 1):
                misc = f"Entity={entity[w - 1]}" if entity[w - 1] else "_"
                out.append("\t".join([str(w), rng.choice(WORDS), "_", "X", "_", "_", str(heads[w - 1]),
                                      "root" if heads[w - 1] == 0 else "dep", "_", misc]))
            out.append("")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
