"""Random Universal Anaphora key/response pairs in which a span is written under two MarkableIDs
(in two entities, or twice in one), the inputs of tests/test_ua_repeats.py.

``pair(k)`` → ``(key text, response text)``, deterministic (``random.Random(f"ua-repeats/{k}")``):

* 1–2 documents of 6–14 words (two sentences), 2–7 markables each, properly nested (the UA scorer v1
  closes markables with ``)`` last-in-first-out), in 1–4 entities; openers on one word outer first,
  ties in random order (the order the markables and entities are read in);
* at a third of the documents' rates, an entity is non-referring (``-Pseudo``); in about a quarter of
  the documents, two entities carry ``ElementOf=P`` of a third (split antecedents of a plural entity);
* the response: markables dropped, moved to another entity, their last word moved by one (when the
  nesting allows it), new markables added;
* then on each side 1–3 markables are written again under a new MarkableID with the same words: in
  another entity (new or existing, 60 %) or in the same one; every pair has at least one.

The files have the UA scorer v1's 13 columns (``ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC
IDENTITY BRIDGING DISCOURSE_DEIXIS``, it takes the 11th field); corefreport reads the columns by name.

``python build_pairs.py OUT_DIR [N]``: writes ``pair-KKK.key`` and ``pair-KKK.response`` (k < N,
default :data:`PAIRS`) for the scorer (not committed: the test rebuilds them and checks their SHA-256).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

PAIRS = 60
COLUMNS = "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS"
WORDS = "the cat saw a dog and it ran to her house because they were hungry".split()


class M:
    """A markable: MarkableID, entity, first and last word, ElementOf."""

    def __init__(self, mid: str, entity: str, start: int, end: int, element_of: str = "") -> None:
        self.mid, self.entity, self.start, self.end, self.element_of = mid, entity, start, end, element_of

    def copy(self) -> "M":
        return M(self.mid, self.entity, self.start, self.end, self.element_of)


def crosses(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Two spans overlap without one containing the other."""
    (s1, e1), (s2, e2) = a, b
    return s1 < s2 <= e1 < e2 or s2 < s1 <= e2 < e1


def fits(span: tuple[int, int], ms: list[M], skip: M | None = None) -> bool:
    return not any(crosses(span, (m.start, m.end)) for m in ms if m is not skip)


def random_span(rng: random.Random, n: int) -> tuple[int, int]:
    s = rng.randrange(n)
    return s, min(n - 1, s + (0 if rng.random() < 0.45 else rng.randint(1, 3)))


def markables(rng: random.Random, n: int, doc: str) -> list[M]:
    out: list[M] = []
    entities = [str(e) for e in range(1, rng.randint(1, 4) + 1)]
    for k in range(rng.randint(2, 7)):
        for _ in range(20):
            span = random_span(rng, n)
            if fits(span, out) and span not in {(m.start, m.end) for m in out}:
                out.append(M(f"{doc}_m{k}", rng.choice(entities), *span))
                break
    if rng.random() < 0.33:  # non-referring: a whole entity, or one markable
        m = rng.choice(out)
        if rng.random() < 0.5:
            entity = m.entity
            for x in out:
                if x.entity == entity:
                    x.entity = f"{entity}-Pseudo"
        else:
            m.entity = "9-Pseudo"
    ids = sorted({m.entity for m in out if not m.entity.endswith("-Pseudo")})
    if len(ids) >= 3 and rng.random() < 0.4:
        plural, a, b = rng.sample(ids, 3)
        for m in out:
            if m.entity in (a, b):
                m.element_of = plural
    return out


def perturb(rng: random.Random, key: list[M], n: int, doc: str) -> list[M]:
    out = [m.copy() for m in key if rng.random() >= 0.15]
    entities = sorted({m.entity for m in out}) or ["1"]
    for m in out:
        r = rng.random()
        if r < 0.25:
            m.entity = rng.choice(entities + ["r7"])
            if m.entity.endswith("-Pseudo") or m.entity == m.element_of or rng.random() < 0.5:
                m.element_of = ""
        elif r < 0.4:
            end = min(n - 1, max(m.start, m.end + rng.choice((-1, 1))))
            if fits((m.start, end), out, m) and (m.start, end) not in {(x.start, x.end) for x in out if x is not m}:
                m.end = end
    for k in range(rng.randint(0, 2)):
        span = random_span(rng, n)
        if fits(span, out) and span not in {(m.start, m.end) for m in out}:
            out.append(M(f"{doc}_r{k}", rng.choice(entities + ["r8"]), *span))
    return out


def repeat(rng: random.Random, ms: list[M], doc: str, side: str) -> None:
    """Write 1–3 markables again under a new MarkableID: in another entity or the same one."""
    if not ms:
        return
    for k in range(rng.randint(1, 3)):
        m = rng.choice(ms)
        others = sorted({x.entity for x in ms if x.entity != m.entity}) + [f"{side}x{k}"]
        entity = rng.choice(others) if rng.random() < 0.6 else m.entity
        ms.append(M(f"{doc}_{side}d{k}", entity, m.start, m.end))


def cells(rng: random.Random, ms: list[M], n: int) -> list[str]:
    """The IDENTITY cell of each word: ``)`` closers (last in, first out), then the openers of the
    markables starting there, outer first (ties in random order)."""
    order = sorted(ms, key=lambda m: (m.start, -m.end, rng.random()))
    out = []
    for i in range(n):
        closers = sum(1 for m in ms if m.end == i and m.start < i)
        openers = []
        for m in order:
            if m.start != i:
                continue
            attrs = f"EntityID={m.entity}|MarkableID={m.mid}" + (f"|ElementOf={m.element_of}" if m.element_of else "")
            openers.append(f"({attrs}" + (")" if m.end == i else ""))
        out.append(")" * closers + "".join(openers) or "_")
    return out


def write(docs: list[tuple[str, list[str], list[M]]], rng: random.Random) -> str:
    lines = [f"# global.columns = {COLUMNS}"]
    for name, words, ms in docs:
        lines.append(f"# newdoc id = {name}")
        half = len(words) // 2
        for i, (w, cell) in enumerate(zip(words, cells(rng, ms, len(words)))):
            if i == half:
                lines.append("")
            sid = i + 1 if i < half else i - half + 1
            lines.append(" ".join([str(sid), w] + ["_"] * 8 + [cell, "_", "_"]))
        lines.append("")
    return "\n".join(lines) + "\n"


def pair(k: int) -> tuple[str, str]:
    """The key and response texts of pair ``k`` (module docstring)."""
    rng = random.Random(f"ua-repeats/{k}")
    kdocs, rdocs = [], []
    for d in range(rng.randint(1, 2)):
        name = f"d{k}_{d}"
        n = rng.randint(6, 14)
        words = [rng.choice(WORDS) for _ in range(n)]
        key = markables(rng, n, name)
        resp = perturb(rng, key, n, name)
        kdocs.append((name, words, key))
        rdocs.append((name, words, resp))
    for docs, side in ((kdocs, "k"), (rdocs, "s")):
        for name, _, ms in docs:
            if rng.random() < 0.7 or (side == "k" and name.endswith("_0")):
                repeat(rng, ms, name, side)
    return write(kdocs, rng), write(rdocs, rng)


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for k in range(int(sys.argv[2]) if len(sys.argv) > 2 else PAIRS):
        key, response = pair(k)
        (out / f"pair-{k:03d}.key").write_text(key, encoding="utf-8")
        (out / f"pair-{k:03d}.response").write_text(response, encoding="utf-8")
