"""Random cross-document pairs and the concatenations scorer.pl scores (tests/test_crossdoc.py).

    python make_pairs.py OUT_DIR [N]            # writes OUT_DIR/SEED/{K,R,corpus.k,corpus.r,topics.k,topics.r}.conll

Standard library only, deterministic per seed. Each pair: 1-3 topics ("T_D" document ids) of 1-3
documents of 3-12 words; key and response mentions (one to three words, labels 1-5 drawn for the
whole file: a label repeats across documents and topics); with probability 0.15 a response document
is left out (K/R hold one document per block; the concatenations hold its words without mentions).
``corpus.*`` is every document as one, ``topics.*`` one document per topic (the id before '_') —
what --cross-document and --cross-document --topic-from '^(\\d+)_' score.
"""
import random
import sys
from pathlib import Path


def mentions(rng, n):
    cols = [[] for _ in range(n)]
    for _ in range(rng.randint(1, 6)):
        s = rng.randrange(n)
        e = min(n - 1, s + rng.randint(0, 2))
        lab = rng.randint(1, 5)
        if s == e:
            cols[s].append(f"({lab})")
        else:
            cols[s].append(f"({lab}")
            cols[e].append(f"{lab})")
    return cols


def block(name, parts):
    out = [f"#begin document ({name}); part 000\n"]
    for doc, words, cols in parts:
        out += [f"{doc}\t0\t{i}\t{w}\t{'|'.join(c) or '-'}\n" for i, (w, c) in enumerate(zip(words, cols))] + ["\n"]
    return out + ["#end document\n"]


def pair(seed):
    rng = random.Random(seed)
    docs = []
    for t in range(rng.randint(1, 3)):
        for j in range(rng.randint(1, 3)):
            n = rng.randint(3, 12)
            words = [rng.choice("abcdef") for _ in range(n)]
            docs.append((f"{t}_{j}", words, mentions(rng, n), mentions(rng, n), rng.random() < 0.15))
    files = {"K": [x for d, w, k, r, lost in docs for x in block(d, [(d, w, k)])],
             "R": [x for d, w, k, r, lost in docs if not lost for x in block(d, [(d, w, r)])]}
    resp = [(d, w, [[] for _ in w] if lost else r) for d, w, k, r, lost in docs]
    files["corpus.k"] = block("all", [(d, w, k) for d, w, k, r, lost in docs])
    files["corpus.r"] = block("all", resp)
    topics = {}
    for (d, w, k, r, lost), rd in zip(docs, resp):
        topics.setdefault(d.split("_")[0], []).append(((d, w, k), rd))
    files["topics.k"] = [x for t, ps in topics.items() for x in block(t, [p[0] for p in ps])]
    files["topics.r"] = [x for t, ps in topics.items() for x in block(t, [p[1] for p in ps])]
    return files


if __name__ == "__main__":
    out = Path(sys.argv[1])
    for seed in range(int(sys.argv[2]) if len(sys.argv) > 2 else 100):
        d = out / str(seed)
        d.mkdir(parents=True, exist_ok=True)
        for name, lines in pair(seed).items():
            (d / f"{name}.conll").write_text("".join(lines))
