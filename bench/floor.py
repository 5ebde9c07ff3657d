#!/usr/bin/env python3
"""The floor: the least a CoNLL-2012 scorer must do — read the coreference column of both files and
compute MUC and B³ (micro sums over documents) — in plain Python, no checks, no other metric.

    python bench/floor.py KEY RESPONSE      # prints MUC and B³ R/P/F1 as JSON

``bench/run.py`` times it as a whole process beside ``corefreport score``: the ratio says how much
corefreport's checks, four more metrics, alignment and output cost on top of the bare reading.
Formulas (Vilain et al. 1995; Bagga & Baldwin 1998):

* MUC: R = Σ_k (|k| − |p(k)|) / Σ_k (|k| − 1), p(k) the partition of key chain k by the response
  (mentions missing from the response are singletons of the partition); P swaps the sides.
* B³: R = Σ_k Σ_r |k ∩ r|² / |k| / Σ_k |k|; P swaps the sides.

On the bench pairs (no repeated spans) it prints the same MUC and B³ as ``corefreport score``.
"""

from __future__ import annotations

import json
import re
import sys

CELL = re.compile(r"\(?[^()|]+\)?")


def read(path: str) -> dict[str, list[list[tuple[int, int]]]]:
    """Document id → chains (lists of (start, end) token spans) from the last column."""
    docs: dict[str, list[list[tuple[int, int]]]] = {}
    chains: dict[str, list[tuple[int, int]]] = {}
    stacks: dict[str, list[int]] = {}
    doc = None
    t = 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line[0] == "#":
                if line.startswith("#begin"):
                    doc, t, chains, stacks = line[16:].strip(), 0, {}, {}
                elif line.startswith("#end"):
                    docs[doc] = list(chains.values())
                continue
            if line == "\n":
                continue
            cell = line[line.rfind("\t") + 1 : -1]
            if cell != "-":
                for part in CELL.findall(cell):
                    if part[0] == "(" and part[-1] == ")":
                        chains.setdefault(part[1:-1], []).append((t, t))
                    elif part[0] == "(":
                        stacks.setdefault(part[1:], []).append(t)
                    else:
                        label = part[:-1]
                        chains.setdefault(label, []).append((stacks[label].pop(), t))
            t += 1
    return docs


def muc(key, response) -> tuple[int, int]:
    where = {m: i for i, c in enumerate(response) for m in c}
    num = den = 0
    for c in key:
        parts = {where.get(m, ("alone", m)) for m in c}
        num += len(c) - len(parts)
        den += len(c) - 1
    return num, den


def b3(key, response) -> tuple[float, int]:
    where = {m: i for i, c in enumerate(response) for m in c}
    num = 0.0
    den = 0
    for c in key:
        counts: dict = {}
        for m in c:
            r = where.get(m)
            if r is not None:
                counts[r] = counts.get(r, 0) + 1
        num += sum(n * n for n in counts.values()) / len(c)
        den += len(c)
    return num, den


def f1(rn, rd, pn, pd) -> dict:
    r = rn / rd if rd else 0.0
    p = pn / pd if pd else 0.0
    return {"R": r, "P": p, "F1": 2 * r * p / (r + p) if r + p else 0.0}


def main() -> None:
    key, response = read(sys.argv[1]), read(sys.argv[2])
    sums = {"muc": [0, 0, 0, 0], "bcub": [0.0, 0, 0.0, 0]}
    for doc, k in key.items():
        r = response.get(doc, [])
        for name, f in (("muc", muc), ("bcub", b3)):
            a, b = f(k, r)
            c, d = f(r, k)
            s = sums[name]
            s[0] += a
            s[1] += b
            s[2] += c
            s[3] += d
    print(json.dumps({name: f1(*s) for name, s in sums.items()}))


if __name__ == "__main__":
    main()
