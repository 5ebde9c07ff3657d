#!/usr/bin/env python3
"""Generate a large CoNLL-2012 key/response pair for benchmarking coreference scorers.

Key: ``--docs`` documents of about ``--tokens`` tokens in sentences of about ``--sent-len`` tokens,
with properly nested mentions (NP chunks: "the NN", "NNP NNP", pronouns), a heavy-tailed entity
size distribution (Chinese-restaurant process), optional singletons, NE spans for names and a POS
column so that mention typing (NAME / NOMINAL / PRONOUN) works. Response: the key perturbed by
dropping, boundary-shifting, adding, moving mentions and splitting and merging entities.

    python bench/make_pair.py --docs 300 --tokens 500 --out bench-data/base
    python bench/make_pair.py --docs 1 --tokens 37000 --out bench-data/giant

Writes PREFIX.key and PREFIX.response (12 TAB-separated columns) and prints statistics as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

PRONOUNS = [("he", "PRP"), ("she", "PRP"), ("it", "PRP"), ("they", "PRP"), ("his", "PRP$"), ("its", "PRP$"),
            ("their", "PRP$"), ("him", "PRP"), ("them", "PRP")]
NAMES = ["Anna", "Berlin", "Carter", "Delta", "Evans", "Fuji", "Garcia", "Hanoi", "Iris", "Jones"]
NOUNS = ["city", "report", "company", "minister", "river", "plan", "court", "school", "team", "deal"]
FILLER = [("said", "VBD"), ("and", "CC"), ("of", "IN"), ("in", "IN"), ("was", "VBD"), ("that", "IN"),
          ("new", "JJ"), ("very", "RB"), (",", ","), ("to", "TO")]


def make_document(rng: random.Random, n_tokens: int, sent_len: int, density: float, singletons: float):
    """Tokens, POS, NE tags and key mentions [(start, end, entity)] of one document."""
    words: list[tuple[str, str]] = []
    ne: list[str] = []
    mentions: list[tuple[int, int, int]] = []
    sentences: list[int] = []
    sizes: list[int] = []  # CRP table sizes
    while len(words) < n_tokens:
        length = max(4, int(rng.gauss(sent_len, sent_len / 3)))
        sentences.append(len(words))
        end = len(words) + length
        while len(words) < end:
            if rng.random() < density * 1.15:
                total = sum(sizes)
                if sizes and rng.random() < total / (total + max(1.0, 0.12 * (total + 1))):
                    r = rng.random() * total
                    e = 0
                    while r >= sizes[e]:
                        r -= sizes[e]
                        e += 1
                else:
                    e = len(sizes)
                    sizes.append(0)
                sizes[e] += 1
                start = len(words)
                kind = rng.random()
                if kind < 0.35 and sizes[e] > 1:
                    words.append(rng.choice(PRONOUNS))
                    ne.append("*")
                elif kind < 0.65:
                    n = rng.randint(1, 2)
                    for i in range(n):
                        words.append((rng.choice(NAMES), "NNP"))
                    ne.extend(["(PERSON)"] if n == 1 else ["(PERSON*", "*)"])
                else:
                    words += [("the", "DT"), (rng.choice(NOUNS), "NN")]
                    ne += ["*", "*"]
                    if rng.random() < 0.15:  # a nested possessive name inside the NP
                        inner = len(words)
                        words.append((rng.choice(NAMES), "NNP"))
                        ne.append("(GPE)")
                        mentions.append((inner, inner, len(sizes)))
                        sizes.append(1)
                mentions.append((start, len(words) - 1, e))
            else:
                words.append(rng.choice(FILLER))
                ne.append("*")
    counts: dict[int, int] = {}
    for _, _, e in mentions:
        counts[e] = counts.get(e, 0) + 1
    mentions = [m for m in mentions if counts[m[2]] > 1 or rng.random() < singletons]
    return words, ne, sentences, mentions


def perturb(rng: random.Random, mentions, n_tokens: int, a: argparse.Namespace):
    """Response mentions: drop, shift a boundary, move, split and merge entities, add spurious ones."""
    out = []
    entities = sorted({e for _, _, e in mentions})
    split = {e: rng.random() < a.split for e in entities}
    merge = {e: rng.choice(entities) if rng.random() < a.merge else e for e in entities}
    for s, t, e in mentions:
        if rng.random() < a.drop:
            continue
        if rng.random() < a.shift and t + 1 < n_tokens:
            t += 1
        e = merge[e]
        if split.get(e) and rng.random() < 0.5:
            e += 100000
        if rng.random() < a.move:
            e = rng.choice(entities)
        out.append((s, t, e))
    for _ in range(int(len(mentions) * a.add)):
        s = rng.randrange(n_tokens)
        out.append((s, s, rng.choice(entities) if rng.random() < 0.5 else 200000 + s))
    return out


def coref_column(n_tokens: int, mentions) -> list[str]:
    """Bracket cells; crossing spans are dropped so that the brackets stay nested."""
    kept = []
    stack: list[tuple[int, int]] = []  # open spans enclosing the current start
    seen: set[tuple[int, int]] = set()
    for s, t, e in sorted(set(mentions), key=lambda m: (m[0], -m[1])):
        while stack and stack[-1][1] < s:
            stack.pop()
        if (s, t) in seen or (stack and stack[-1][1] < t):
            continue  # a repeated span, or one that crosses the span it starts in
        seen.add((s, t))
        stack.append((s, t))
        kept.append((s, t, e))
    cells: list[list[str]] = [[] for _ in range(n_tokens)]
    for s, t, e in kept:
        if s == t:
            cells[s].append(f"({e})")
        else:
            cells[s].append(f"({e}")
            cells[t].append(f"{e})")
    return ["|".join(c) if c else "-" for c in cells], len(kept)


def write(path: Path, docs) -> int:
    total = 0
    with open(path, "w", encoding="utf-8") as f:
        for name, words, ne, sentences, mentions in docs:
            f.write(f"#begin document ({name}); part 000\n")
            coref, n = coref_column(len(words), mentions)
            total += n
            starts = set(sentences)
            k = 0
            for i, ((w, pos), tag, c) in enumerate(zip(words, ne, coref)):
                if i in starts and i:
                    f.write("\n")
                    k = 0
                f.write("\t".join([name, "0", str(k), w, pos, "*", w.lower(), "-", "-", "-", tag, c]) + "\n")
                k += 1
            f.write("\n#end document\n")
    return total


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--docs", type=int, default=300)
    p.add_argument("--tokens", type=int, default=500)
    p.add_argument("--sent-len", type=int, default=20)
    p.add_argument("--mentions-per-token", type=float, default=0.135)
    p.add_argument("--singletons", type=float, default=0.0, help="share of singleton entities kept in the key")
    for name, default in (("drop", 0.1), ("shift", 0.05), ("add", 0.1), ("split", 0.1), ("merge", 0.05), ("move", 0.05)):
        p.add_argument(f"--{name}", type=float, default=default)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="output prefix: writes PREFIX.key and PREFIX.response")
    a = p.parse_args()
    rng = random.Random(a.seed)
    key_docs, resp_docs = [], []
    for d in range(a.docs):
        words, ne, sentences, mentions = make_document(rng, a.tokens, a.sent_len, a.mentions_per_token, a.singletons)
        name = f"bench/doc_{d:04d}"
        key_docs.append((name, words, ne, sentences, mentions))
        resp_docs.append((name, words, ne, sentences, perturb(rng, mentions, len(words), a)))
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    k = write(out.with_suffix(".key"), key_docs)
    r = write(out.with_suffix(".response"), resp_docs)
    print(json.dumps({"docs": a.docs, "tokens": sum(len(d[1]) for d in key_docs), "key_mentions": k,
                      "response_mentions": r}))


if __name__ == "__main__":
    main()
