"""Random small CorefUD key/response pairs with repeated spans, for comparing with corefud-scorer v1.2.

Deterministic (``random.Random(SEED + pair number)``); ``tests/test_crac_repeats.py`` rebuilds the
pairs in memory and checks their SHA-256 against ``expected.json``. Usage (to write the files the
scorer was run on): ``build_pairs.py OUT_DIR``.

Each pair is one or two documents of 2–4 sentences of 4–9 words in CorefUD's format
(``# global.Entity = eid-etype-head-other``). The key has 2–5 entities of 1–4 mentions (contiguous,
1–4 words, or discontinuous in two parts), a head index written on about two thirds of the mentions
(``(e1-x-2-``; else ``(e1-x``: the head is the first word). The response is the key perturbed:
mentions dropped, shrunk or extended by a word, their head changed or left out, entities merged or
split, spurious mentions added, entity ids renumbered. Then, by the pair's kinds (``KINDS``, chosen
at random; about one pair in six is given none — though the random mentions of most of those still
write some span in two entities: by what the files hold, 20 of the 320 pairs write no span twice):

* ``key-within`` / ``response-within``: a mention written a second time in its own entity (its
  head kept, changed or left out);
* ``key-across`` / ``response-across``: a mention's words written again in another entity;
* ``key-single-twice`` / ``response-single-twice``: an entity of one mention written twice;
* ``discontinuous``: discontinuous mentions (on both sides), also repeated across entities.

Mentions of one entity never cross (they are disjoint, nested or the same words), so every reader
closes brackets alike. Entity ids are unique within a file (the second document's carry ``k1``):
Udapi reads the entities of a whole file as one list, so an id used in two documents would order
the second document's entities by their first mention in the first (docs/matching.md "Not
reproduced").
"""

from __future__ import annotations

import hashlib
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

SEED = 20261127
PAIRS = 320
KINDS = ("key-within", "response-within", "key-across", "response-across", "key-single-twice",
         "response-single-twice", "discontinuous")
WORDS = ("the old man saw a dog and it barked at his friend who ran to her house with them "
         "because they liked this big red car very much").split()


@dataclass
class M:
    """A mention: entity id, sorted document word indices, 1-based head index or None, and parts
    (runs of consecutive words; two for a discontinuous mention)."""

    eid: str
    words: list[int]
    head: int | None

    @property
    def parts(self) -> list[list[int]]:
        out: list[list[int]] = [[self.words[0]]]
        for w in self.words[1:]:
            if w == out[-1][-1] + 1:
                out[-1].append(w)
            else:
                out.append([w])
        return out


@dataclass
class Doc:
    name: str
    sentences: list[int]  # words per sentence
    mentions: list[M] = field(default_factory=list)

    def bounds(self) -> list[tuple[int, int]]:
        out, t = [], 0
        for n in self.sentences:
            out.append((t, t + n - 1))
            t += n
        return out


def _compatible(a: list[int], b: list[int]) -> bool:
    """Two mentions of one entity may be disjoint, nested or equal (never crossing)."""
    sa, sb = set(range(a[0], a[-1] + 1)), set(range(b[0], b[-1] + 1))
    if not sa & sb:
        return True
    if len(a) != a[-1] - a[0] + 1 or len(b) != b[-1] - b[0] + 1:
        return a == b and False  # a discontinuous mention shares its range with no mention of its entity
    return sa <= sb or sb <= sa


def _fits(doc: Doc, eid: str, words: list[int]) -> bool:
    return all(_compatible(m.words, words) for m in doc.mentions if m.eid == eid) and \
        all(not (m.eid == eid and m.words == words) for m in doc.mentions)


def _span(rng: random.Random, doc: Doc, discontinuous: bool) -> list[int]:
    lo, hi = rng.choice(doc.bounds())
    if discontinuous and hi - lo >= 3:
        a = rng.randint(lo, hi - 2)
        a2 = rng.randint(a, min(a + 1, hi - 2))
        b = rng.randint(a2 + 2, hi)
        b2 = rng.randint(b, min(b + 1, hi))
        return list(range(a, a2 + 1)) + list(range(b, b2 + 1))
    a = rng.randint(lo, hi)
    return list(range(a, min(hi, a + rng.choice((0, 0, 1, 1, 2, 3))) + 1))


def _head(rng: random.Random, n: int) -> int | None:
    return rng.randint(1, n) if rng.random() < 0.67 else None


def _add(rng: random.Random, doc: Doc, eid: str, discontinuous: bool, tries: int = 20) -> M | None:
    for _ in range(tries):
        words = _span(rng, doc, discontinuous)
        if _fits(doc, eid, words):
            m = M(eid, words, _head(rng, len(words)))
            doc.mentions.append(m)
            return m
    return None


def _key(rng: random.Random, name: str, disc: bool) -> Doc:
    doc = Doc(name, [rng.randint(4, 9) for _ in range(rng.randint(2, 4))])
    for e in range(1, rng.randint(2, 5) + 1):
        for _ in range(rng.choice((1, 1, 2, 2, 3, 4))):
            _add(rng, doc, f"e{e}", disc and rng.random() < 0.25)
    return doc


def _response(rng: random.Random, key: Doc, disc: bool) -> Doc:
    """The key perturbed (see the module docstring); entity ids renumbered at random."""
    doc = Doc(key.name, list(key.sentences))
    bounds = key.bounds()
    eids = sorted({m.eid for m in key.mentions})
    rename = {e: e for e in eids}
    if rng.random() < 0.3 and len(eids) > 1:  # merge two entities
        a, b = rng.sample(eids, 2)
        rename[b] = a
    for m in key.mentions:
        r = rng.random()
        if r < 0.15:
            continue
        words = list(m.words)
        eid = rename[m.eid]
        if rng.random() < 0.1:
            eid = f"s{rng.randint(1, 2)}"  # split off
        lo, hi = next(b for b in bounds if b[0] <= words[0] <= b[1])
        if len(m.parts) == 1:
            if r < 0.3 and len(words) > 1:
                words = words[1:] if rng.random() < 0.5 else words[:-1]
            elif r < 0.4 and words[-1] < hi:
                words = words + [words[-1] + 1]
        head = m.head if m.head is not None and m.head <= len(words) else None
        if rng.random() < 0.2:
            head = _head(rng, len(words))
        if _fits(doc, eid, words):
            doc.mentions.append(M(eid, words, head))
    for _ in range(rng.randint(0, 3)):  # spurious mentions, some in entities of the response
        pool = sorted({m.eid for m in doc.mentions}) + ["x1", "x2"]
        _add(rng, doc, rng.choice(pool), disc and rng.random() < 0.25)
    names = sorted({m.eid for m in doc.mentions})
    new = [f"e{k}" for k in rng.sample(range(1, 30), len(names))]
    mapping = dict(zip(names, new))
    for m in doc.mentions:
        m.eid = mapping[m.eid]
    return doc


def _repeat_within(rng: random.Random, doc: Doc, single: bool) -> None:
    counts: dict[str, int] = {}
    for m in doc.mentions:
        counts[m.eid] = counts.get(m.eid, 0) + 1
    pool = [m for m in doc.mentions if (counts[m.eid] == 1) == single and len(m.parts) == 1]
    if single and not pool:  # make a one-mention entity
        m = _add(rng, doc, "e99", False)
        pool = [m] if m else []
    if not pool:
        return
    m = rng.choice(pool)
    r = rng.random()
    head = m.head if r < 0.5 else (None if r < 0.75 else rng.randint(1, len(m.words)))
    doc.mentions.insert(doc.mentions.index(m) + rng.randint(0, 1), M(m.eid, list(m.words), head))


def _repeat_across(rng: random.Random, doc: Doc) -> None:
    eids = sorted({m.eid for m in doc.mentions})
    if not doc.mentions:
        return
    for _ in range(10):
        m = rng.choice(doc.mentions)
        other = rng.choice(eids + ["e98"])
        if other != m.eid and _fits(doc, other, m.words):
            r = rng.random()
            head = m.head if r < 0.6 else (None if r < 0.8 else rng.randint(1, len(m.words)))
            doc.mentions.append(M(other, list(m.words), head))
            return


def _cell(doc: Doc, t: int) -> str:
    """The Entity= value of word ``t``: closing brackets (last opened first), then openings (longest
    first), then one-word mentions; a head index only on a mention's last part."""
    closes, opens, singles = [], [], []
    for k, m in enumerate(doc.mentions):
        parts = m.parts
        for p, part in enumerate(parts):
            label = m.eid if len(parts) == 1 else f"{m.eid}[{p + 1}/{len(parts)}]"
            head = ""
            if p == len(parts) - 1 and (m.head is not None or (p and len(part) == 1)):
                # Udapi needs a head index on a one-word last part (1: the first word, its default)
                head = f"-{m.head or 1}-"
            opening = f"({label}-x{head}"
            if part[0] == t and part[-1] == t:
                singles.append(opening + ")")
            elif part[0] == t:
                opens.append((-len(part), k, opening))
            elif part[-1] == t:
                closes.append((len(part), -k, label + ")"))
    text = "".join(c for *_, c in sorted(closes)) + "".join(o for *_, o in sorted(opens)) + "".join(singles)
    return f"Entity={text}" if text else "_"


def conllu(docs: list[Doc]) -> str:
    lines = []
    for d, doc in enumerate(docs):
        lines.append(f"# newdoc id = {doc.name}")
        if d == 0:
            lines.append("# global.Entity = eid-etype-head-other")
        t = 0
        for s, n in enumerate(doc.sentences):
            forms = [WORDS[(t + k) % len(WORDS)] for k in range(n)]
            lines += [f"# sent_id = {doc.name}-{s + 1}", f"# text = {' '.join(forms)}"]
            for k in range(n):
                lines.append(f"{k + 1}\t{forms[k]}\t{forms[k]}\tX\t_\t_\t0\tdep\t_\t{_cell(doc, t)}")
                t += 1
            lines.append("")
    return "\n".join(lines) + "\n"


def pair(n: int) -> tuple[str, tuple[str, ...], str, str]:
    """Pair number ``n``: (name, kinds, key text, response text)."""
    rng = random.Random(SEED + n)
    kinds = () if rng.random() < 0.17 else tuple(k for k in KINDS if rng.random() < 0.3) or (rng.choice(KINDS),)
    disc = "discontinuous" in kinds
    keys = [_key(rng, f"d{n}-{k + 1}", disc) for k in range(rng.choice((1, 1, 2)))]
    resps = [_response(rng, k, disc) for k in keys]
    for side, docs in (("key", keys), ("response", resps)):
        for doc in docs:
            if f"{side}-within" in kinds:
                _repeat_within(rng, doc, False)
            if f"{side}-single-twice" in kinds:
                _repeat_within(rng, doc, True)
            if f"{side}-across" in kinds:
                _repeat_across(rng, doc)
    for docs in (keys, resps):
        for k, doc in enumerate(docs):
            if not doc.mentions:  # every document has a mention (corefud-scorer needs its doc in both)
                doc.mentions.append(M("e1", [0], None))
            for m in doc.mentions:  # entity ids unique in the file: Udapi reads a file's entities as one
                m.eid += f"k{k}" if k else ""
    return f"pair-{n:03d}", kinds, conllu(keys), conllu(resps)


def pairs() -> list[tuple[str, tuple[str, ...], str, str]]:
    return [pair(n) for n in range(PAIRS)]


def digest(all_pairs: list[tuple[str, tuple[str, ...], str, str]]) -> str:
    """SHA-256 of every pair's name, key and response text, in order."""
    h = hashlib.sha256()
    for name, _, key, resp in all_pairs:
        h.update(f"{name}\n{key}\x00{resp}\x00".encode())
    return h.hexdigest()


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    all_pairs = pairs()
    for name, _, key, resp in all_pairs:
        (out / f"{name}.key.conllu").write_text(key, encoding="utf-8")
        (out / f"{name}.response.conllu").write_text(resp, encoding="utf-8")
    print(digest(all_pairs))


if __name__ == "__main__":
    main()
