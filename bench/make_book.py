#!/usr/bin/env python3
"""Generate a book-length CoNLL-2012 key/response pair: one document, a few very large entities.

The book of issue 35: one document of about ``--tokens`` words (200,000) written by
``bench/make_pair.py``'s generator (27,000 key mentions at its 0.135 mentions a token), whose
entities are then **folded** into a few large ones — a novel's main characters:

* the ``--hosts`` largest entities (by key mentions) are the hosts;
* every other entity is folded into a host with probability ``--fold``, the host drawn with weight
  1/rank (the largest host the most often), with a generator of its own (``--seed``);

then the response is perturbed from the folded key as ``make_pair.py`` perturbs any key (split,
merge, move, drop, shift, add at its default rates). With the defaults the largest key entity has
about 5,700 mentions. Same seed, same files.

    python bench/make_book.py --out bench-data/book

Writes PREFIX.key and PREFIX.response and prints statistics as JSON (those of ``make_pair.py``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_pair as mp  # noqa: E402  (the pair generator next to this script)


def fold(rng: random.Random, mentions: list[mp.Span], hosts: int, share: float) -> list[mp.Span]:
    """Fold entities into the ``hosts`` largest: each other one with probability ``share``, host ~ 1/rank."""
    sizes = Counter(e for _, _, e in mentions)
    ranked = sorted(sizes, key=lambda e: (-sizes[e], e))
    top = ranked[:hosts]
    weights = [1 / (i + 1) for i in range(len(top))]
    into = {e: rng.choices(top, weights)[0] for e in ranked[hosts:] if rng.random() < share}
    return [(s, t, into.get(e, e)) for s, t, e in mentions]


def main(argv: list[str] | None = None) -> dict:
    """Parse options, write the book pair and print (and return) its statistics."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tokens", type=int, default=200_000, help="words of the book (about)")
    p.add_argument("--hosts", type=int, default=6, help="entities the others are folded into")
    p.add_argument("--fold", type=float, default=0.55, help="share of the other entities folded into a host")
    p.add_argument("--seed", type=int, default=2012)
    p.add_argument("--out", required=True, help="output prefix: writes PREFIX.key and PREFIX.response")
    a = p.parse_args(argv)
    defaults = vars(_pair_defaults())  # make_pair.py's own defaults
    rng = random.Random(a.seed)
    doc = mp.DocBuilder(rng, defaults["nested"])
    slots = mp.entity_slots(rng, round(a.tokens * defaults["mentions_per_token"]), 0.0, defaults["crp_alpha"])
    doc.build(slots, a.tokens, defaults["sent_len"])
    doc.mentions = fold(random.Random(a.seed + 1), doc.mentions, a.hosts, a.fold)
    key = mp.renumber(doc.mentions)
    response = mp.renumber(mp.perturb(rng, doc.mentions, mp.sentence_of(doc.sent_starts, len(doc.tokens)),
                                      _pair_defaults()))
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    mp.write(Path(f"{a.out}.key"), [("bench/book", doc)], [key])
    mp.write(Path(f"{a.out}.response"), [("bench/book", doc)], [response])
    stats = {"docs": 1, "tokens": len(doc.tokens), "sentences": len(doc.sent_starts),
             "key": mp.side_stats([key]), "response": mp.side_stats([response])}
    print(json.dumps(stats))
    return stats


def _pair_defaults() -> argparse.Namespace:
    """make_pair.py's options at their defaults (its rates of perturbation, nesting, CRP)."""
    ns = argparse.Namespace()
    for name, value in (("nested", 0.25), ("mentions_per_token", 0.135), ("crp_alpha", 0.12), ("sent_len", 20),
                        ("drop", .1), ("shift", .05), ("add", .1), ("split", .1), ("merge", .05), ("move", .05)):
        setattr(ns, name, value)
    return ns


if __name__ == "__main__":
    main()
