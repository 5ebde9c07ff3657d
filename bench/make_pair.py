#!/usr/bin/env python3
"""Generate a CoNLL-2012 key/response pair for benchmarking coreference scorers.

Key: ``--docs`` documents of about ``--tokens`` tokens each, in sentences of about ``--sent-len``
tokens (blank lines between sentences, word index restarting in each). Entities come from a
Chinese-restaurant process (heavy-tailed sizes); ``--singletons`` is the share of key mentions that
are singleton entities (0 = OntoNotes style). Every entity has a class (person, organisation, place,
thing, group) and is realised as

* NAME — ``NNP`` tokens ("Maria Okafor", later "Okafor") with an NE span (``(PERSON*`` … ``*)``),
* NOMINAL — "the/a [JJ] NN" ("the agency", "the officials" with ``NNS``),
* PRONOUN — one ``PRP``/``PRP$`` token (he, him, his, it, its, they, their, …), never on a first
  mention,

so that NAME / NOMINAL / PRONOUN typing works. Nominals nest other mentions as possessors
("[[her] new report]", "[[Okafor] 's plan]") or after *of* ("[the director of [the agency]]"),
so brackets nest (never cross) and some tokens carry several annotations joined by ``|``.

Response: the key with entities split (``--split``) and merged pairwise (``--merge``), mentions
moved to another entity (``--move``), dropped (``--drop``), with one boundary shifted by one token
inside the sentence (``--shift``, only where no bracket would cross) and spurious mentions added
(``--add``, half of them new singletons). Same seed, same files.

    python bench/make_pair.py --docs 300 --tokens 500 --out bench-data/base
    python bench/make_pair.py --docs 1 --tokens 37000 --out bench-data/giant

Writes PREFIX.key and PREFIX.response (12 TAB-separated columns: document, part, word index, word,
POS, parse bit, predicate lemma, frameset, sense, speaker, NE, coreference) and prints statistics as
JSON.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter, deque
from dataclasses import dataclass
from pathlib import Path

Span = tuple[int, int, int]  # (first token, last token, entity), token offsets within the document
Token = tuple[str, str, str]  # (word, POS, NE cell)

FIRST = ["Maria", "John", "Aiko", "Pedro", "Fatima", "Lars", "Chen", "Olga", "Samuel", "Nadia", "Tomas", "Grace"]
FEMALE = {"Maria", "Aiko", "Fatima", "Olga", "Nadia", "Grace"}
LAST = ["Okafor", "Lindqvist", "Tanaka", "Moreau", "Haddad", "Novak", "Silva", "Brennan", "Kowalski", "Osei",
        "Weber", "Park"]
ORGS = [["Kestrel", "Bank"], ["Nordic", "Rail"], ["Helix"], ["Amber", "Mining", "Group"], ["Tidewater"],
        ["Orion", "Labs"], ["Cobalt", "Airlines"], ["Meridian", "Council"]]
PLACES = [["Lisbon"], ["Kenya"], ["New", "Harbor"], ["Ostrava"], ["Lake", "Tamsin"], ["Quito"], ["Fenwick"]]
CLASSES: dict[str, tuple[str, list[str], tuple[str, str, str]]] = {
    # class: (NE type, head nouns, (subject, object, possessive) pronouns)
    "person": ("PERSON", ["minister", "lawyer", "teacher", "director", "reporter", "founder"], ("he", "him", "his")),
    "org": ("ORG", ["company", "bank", "agency", "council", "firm", "union"], ("it", "it", "its")),
    "place": ("GPE", ["city", "country", "region", "town", "capital"], ("it", "it", "its")),
    "thing": ("", ["report", "plan", "deal", "decision", "proposal", "budget", "car"], ("it", "it", "its")),
    "group": ("", ["officials", "workers", "residents", "investors", "protesters"], ("they", "them", "their")),
}
CLASS_WEIGHTS = {"person": 4, "org": 2, "place": 1, "thing": 2, "group": 1}
ADJ = ["new", "local", "former", "small", "national", "old", "public"]
FILLER: list[tuple[str, str, str]] = [  # (word, POS, predicate lemma)
    ("said", "VBD", "say"), ("met", "VBD", "meet"), ("visited", "VBD", "visit"), ("signed", "VBD", "sign"),
    ("criticized", "VBD", "criticize"), ("announced", "VBD", "announce"), ("is", "VBZ", "be"),
    ("will", "MD", "-"), ("support", "VB", "support"), ("and", "CC", "-"), ("but", "CC", "-"),
    ("in", "IN", "-"), ("with", "IN", "-"), ("for", "IN", "-"), ("after", "IN", "-"), ("that", "IN", "-"),
    ("to", "TO", "-"), ("also", "RB", "-"), ("later", "RB", "-"), ("very", "RB", "-"), (",", ",", "-"),
    ("on", "IN", "-"), ("Tuesday", "NNP", "-"), ("two", "CD", "-"), ("years", "NNS", "-"),
]


@dataclass
class Entity:
    """One key entity: its class, its name tokens (empty for thing/group) and its nominal head."""

    cls: str
    name: list[str]
    noun: str
    seen: bool = False

    @property
    def pronouns(self) -> tuple[str, str, str]:
        """Subject, object and possessive pronoun of the entity."""
        if self.cls == "person" and self.name[0] in FEMALE:
            return ("she", "her", "her")
        return CLASSES[self.cls][2]


def new_entity(rng: random.Random) -> Entity:
    """A random entity; names only for persons, organisations and places."""
    cls = rng.choices(list(CLASS_WEIGHTS), weights=list(CLASS_WEIGHTS.values()))[0]
    name = {"person": lambda: [rng.choice(FIRST), rng.choice(LAST)], "org": lambda: rng.choice(ORGS),
            "place": lambda: rng.choice(PLACES)}.get(cls, list)()
    return Entity(cls, list(name), rng.choice(CLASSES[cls][1]))


def entity_slots(rng: random.Random, n: int, singletons: float, alpha: float) -> list[int]:
    """Entity index of each of ``n`` mentions in text order: CRP entities, no accidental singletons."""
    slots: list[int] = []
    sizes: Counter[int] = Counter()
    next_id = 0
    single: set[int] = set()
    conc = max(1.0, alpha * n)
    chained: list[int] = []  # slots of non-singleton entities, for size-proportional choice
    for _ in range(n):
        if rng.random() < singletons:
            single.add(next_id)
            e, next_id = next_id, next_id + 1
        elif chained and rng.random() < len(chained) / (len(chained) + conc):
            e = rng.choice(chained)
        else:
            e, next_id = next_id, next_id + 1
        if e not in single:
            chained.append(e)
        slots.append(e)
        sizes[e] += 1
    lone = {e for e, k in sizes.items() if k == 1 and e not in single}
    hosts = [e for e in chained if e not in lone]
    for i, e in enumerate(slots):
        if e in lone:  # join a random multi-mention entity (or the first lone one if there is none)
            slots[i] = rng.choice(hosts) if hosts else min(lone)
    return slots


class DocBuilder:
    """Writes tokens and key mentions of one document, realising entity slots as phrases."""

    def __init__(self, rng: random.Random, nested: float) -> None:
        self.rng, self.nested = rng, nested
        self.tokens: list[Token] = []
        self.lemmas: list[str] = []
        self.sent_starts: list[int] = []
        self.mentions: list[Span] = []

    def emit(self, word: str, pos: str, ne: str = "*", lemma: str = "-") -> None:
        self.tokens.append((word, pos, ne))
        self.lemmas.append(lemma)

    def name(self, ent: Entity) -> None:
        """The entity's name (a person's surname alone once seen), with its NE span."""
        words = ent.name[1:] if ent.cls == "person" and ent.seen and self.rng.random() < 0.6 else ent.name
        ne = CLASSES[ent.cls][0]
        for i, w in enumerate(words):
            last = i == len(words) - 1
            self.emit(w, "NNP", f"({ne})" if len(words) == 1 else f"({ne}*" if i == 0 else "*)" if last else "*")

    def realise(self, slots: deque[tuple[int, Entity]], role: str, depth: int) -> None:
        """Pop the next slot and write its mention; ``role`` is arg, obj or poss(essor)."""
        e, ent = slots.popleft()
        rng, start = self.rng, len(self.tokens)
        r = rng.random()
        form = "pron" if ent.seen and r < 0.35 else "name" if ent.name and r < 0.75 else "nom"
        if form == "pron":
            subj, obj, poss = ent.pronouns
            word = poss if role == "poss" else obj if role == "obj" or rng.random() < 0.3 else subj
            self.emit(word, "PRP$" if role == "poss" else "PRP")
        elif form == "name":
            self.name(ent)
        else:
            nest = depth < 2 and slots and slots[0][0] != e and rng.random() < self.nested
            plural = ent.cls == "group"
            possessor = nest and rng.random() < 0.5
            if possessor:
                self.realise(slots, "poss", depth + 1)
            else:
                self.emit("the" if ent.seen or rng.random() < 0.5 else "some" if plural else "a", "DT")
            if rng.random() < 0.3:
                self.emit(rng.choice(ADJ), "JJ")
            self.emit(ent.noun, "NNS" if plural else "NN")
            if nest and not possessor:
                self.emit("of", "IN")
                self.realise(slots, "obj", depth + 1)
        self.mentions.append((start, len(self.tokens) - 1, e))
        ent.seen = True
        if role == "poss" and form != "pron":
            self.emit("'s", "POS")

    def build(self, slots: list[int], n_tokens: int, sent_len: int) -> None:
        """Write sentences of filler and mentions until all slots are used (about ``n_tokens`` tokens)."""
        rng = self.rng
        ents = {e: new_entity(rng) for e in dict.fromkeys(slots)}
        queue = deque((e, ents[e]) for e in slots)
        phrase_tokens, used = 0, 0
        while queue:
            self.sent_starts.append(len(self.tokens))
            target = len(self.tokens) + max(5, round(rng.gauss(sent_len, sent_len / 4)))
            while queue and len(self.tokens) < target - 1:
                per_slot = max(0, n_tokens - len(self.tokens)) / len(queue)
                gap = max(0.0, per_slot - (phrase_tokens / used if used else 2.0))
                while rng.random() < gap / (gap + 1):  # geometric, mean ``gap``
                    word, pos, lemma = rng.choice(FILLER)
                    self.emit(word, pos, lemma=lemma)
                before, left = len(self.tokens), len(queue)
                self.realise(queue, "arg", 0)
                phrase_tokens += len(self.tokens) - before
                used += left - len(queue)
            self.emit(".", ".")


def sentence_of(starts: list[int], n: int) -> list[int]:
    """Sentence index of every token."""
    out, s = [], -1
    bounds = set(starts)
    for i in range(n):
        s += i in bounds
        out.append(s)
    return out


def crosses(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """True if the spans overlap without one containing the other."""
    return a[0] < b[0] <= a[1] < b[1] or b[0] < a[0] <= b[1] < a[1]


def fits(spans: set[tuple[int, int]], span: tuple[int, int]) -> bool:
    """A new span is neither already present nor crossing any span of its sentence."""
    return span not in spans and not any(crosses(span, o) for o in spans)


def perturb(rng: random.Random, key: list[Span], sent: list[int], a: argparse.Namespace) -> list[Span]:
    """The response: split, merge, move, drop, shift, add (in that order)."""
    ent = {(s, t): e for s, t, e in key}
    fresh = max(ent.values(), default=0) + 1
    members: dict[int, list[tuple[int, int]]] = {}
    for sp, e in ent.items():
        members.setdefault(e, []).append(sp)
    for e, ms in members.items():
        if len(ms) > 1 and rng.random() < a.split:
            for sp in sorted(ms)[rng.randint(1, len(ms) - 1):]:
                ent[sp] = fresh
            fresh += 1
    ids = sorted(set(ent.values()))
    rng.shuffle(ids)
    k = min(len(ids) // 2, round(len(ids) * a.merge))
    into = dict(zip(ids[:k], ids[k:2 * k]))
    ent = {sp: into.get(e, e) for sp, e in ent.items()}
    ids = sorted(set(ent.values()))
    ent = {sp: rng.choice(ids) if rng.random() < a.move else e for sp, e in ent.items()}
    ent = {sp: e for sp, e in ent.items() if rng.random() >= a.drop}
    by_sent: dict[int, set[tuple[int, int]]] = {}
    for sp in ent:
        by_sent.setdefault(sent[sp[0]], set()).add(sp)
    for sp in sorted(ent):
        if rng.random() >= a.shift:
            continue
        s, t = sp
        spans = by_sent[sent[s]]
        spans.discard(sp)
        cands = [(s - 1, t), (s, t + 1)] + ([(s + 1, t), (s, t - 1)] if t > s else [])
        rng.shuffle(cands)
        new = next((c for c in cands if 0 <= c[0] and c[1] < len(sent) and sent[c[0]] == sent[c[1]] == sent[s]
                    and fits(spans, c)), sp)
        spans.add(new)
        ent[new] = ent.pop(sp)
    ids = sorted(set(ent.values())) or [fresh]
    for _ in range(round(len(key) * a.add)):
        s = rng.randrange(len(sent))
        t = min(s + rng.choice((0, 0, 1, 2)), len(sent) - 1)
        spans = by_sent.setdefault(sent[s], set())
        if sent[t] == sent[s] and fits(spans, (s, t)):
            spans.add((s, t))
            ent[(s, t)] = fresh if rng.random() < 0.5 else rng.choice(ids)
            fresh += 1
    return [(s, t, e) for (s, t), e in ent.items()]


def renumber(mentions: list[Span]) -> list[Span]:
    """Entity ids 0, 1, … by first mention, mentions in text order (outer first)."""
    ids: dict[int, int] = {}
    ordered = sorted(mentions, key=lambda m: (m[0], -m[1]))
    return [(s, t, ids.setdefault(e, len(ids))) for s, t, e in ordered]


def coref_cells(n: int, mentions: list[Span]) -> list[str]:
    """The coreference column: openings (outer first), one-token mentions, closings (inner first)."""
    opens: list[list[str]] = [[] for _ in range(n)]
    units: list[list[str]] = [[] for _ in range(n)]
    closes: list[list[tuple[int, str]]] = [[] for _ in range(n)]
    for s, t, e in sorted(mentions, key=lambda m: (m[0], -m[1])):
        if s == t:
            units[s].append(f"({e})")
        else:
            opens[s].append(f"({e}")
            closes[t].append((s, f"{e})"))
    return ["|".join(opens[i] + units[i] + [c for _, c in sorted(closes[i], reverse=True)]) or "-"
            for i in range(n)]


def parse_bits(n: int, starts: list[int], mentions: list[Span]) -> list[str]:
    """A flat parse: (TOP(S at sentence starts, (NP around every key mention."""
    opens, closes = Counter(s for s, _, _ in mentions), Counter(t for _, t, _ in mentions)
    first, last = set(starts), {s - 1 for s in starts[1:]} | {n - 1}
    return [("(TOP(S" if i in first else "") + "(NP" * opens[i] + "*" + ")" * closes[i] + ("))" if i in last else "")
            for i in range(n)]


def write(path: Path, docs: list[tuple[str, DocBuilder]], mentions: list[list[Span]]) -> None:
    """Write all documents in the 12-column CoNLL-2012 format."""
    with open(path, "w", encoding="utf-8") as f:
        for (name, doc), ms in zip(docs, mentions):
            n = len(doc.tokens)
            coref, parse = coref_cells(n, ms), parse_bits(n, doc.sent_starts, doc.mentions)
            starts, k = set(doc.sent_starts), 0
            f.write(f"#begin document ({name}); part 000\n")
            for i, ((word, pos, ne), lemma) in enumerate(zip(doc.tokens, doc.lemmas)):
                if i in starts:
                    if i:
                        f.write("\n")
                    k = 0
                sense = "01" if lemma != "-" else "-"
                f.write("\t".join((name, "0", str(k), word, pos, parse[i], lemma, sense, "-", "Speaker#1", ne,
                                   coref[i])) + "\n")
                k += 1
            f.write("\n#end document\n")


def side_stats(mentions: list[list[Span]]) -> dict[str, int]:
    """Mentions, chains (entities, singletons included), singletons, largest entity, nested mentions."""
    sizes = Counter((d, e) for d, ms in enumerate(mentions) for _, _, e in ms)
    nested = 0
    for ms in mentions:
        stack: list[int] = []  # ends of the open enclosing spans
        for s, t, _ in sorted(ms, key=lambda m: (m[0], -m[1])):
            while stack and stack[-1] < s:
                stack.pop()
            nested += bool(stack)
            stack.append(t)
    return {"mentions": sum(sizes.values()), "chains": len(sizes),
            "singletons": sum(1 for k in sizes.values() if k == 1), "max_entity": max(sizes.values(), default=0),
            "nested_mentions": nested}


def mention_type(tokens: list[Token]) -> str:
    """PRONOUN (one PRP/PRP$ token), NAME (NNP head: last token before *of*) or NOMINAL."""
    if len(tokens) == 1 and tokens[0][1].startswith("PRP"):
        return "PRONOUN"
    head = next((tokens[i - 1] for i, tok in enumerate(tokens) if tok[1] == "IN" and i), tokens[-1])
    return "NAME" if head[1] == "NNP" else "NOMINAL"


def main(argv: list[str] | None = None) -> dict:
    """Parse options, write the pair and print (and return) its statistics."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--docs", type=int, default=300)
    p.add_argument("--tokens", type=int, default=500, help="tokens per document (about)")
    p.add_argument("--sent-len", type=int, default=20, help="tokens per sentence (mean)")
    p.add_argument("--mentions-per-token", type=float, default=0.135)
    p.add_argument("--singletons", type=float, default=0.0, help="share of key mentions that are singletons")
    p.add_argument("--nested", type=float, default=0.25, help="share of nominals that contain another mention")
    p.add_argument("--crp-alpha", type=float, default=0.12, help="CRP concentration per mention")
    for name, default in (("drop", .1), ("shift", .05), ("add", .1), ("split", .1), ("merge", .05), ("move", .05)):
        p.add_argument(f"--{name}", type=float, default=default, help=f"response: {name} rate (default {default})")
    p.add_argument("--seed", type=int, default=2012)
    p.add_argument("--response-seed", type=int, default=None,
                   help="perturb the response with a generator of its own: pairs with the same --seed and "
                        "another --response-seed (or rates) share the key byte for byte (two systems, one key)")
    p.add_argument("--out", required=True, help="output prefix: writes PREFIX.key and PREFIX.response")
    a = p.parse_args(argv)
    rng = random.Random(a.seed)
    resp_rng = rng if a.response_seed is None else random.Random(a.response_seed)
    docs: list[tuple[str, DocBuilder]] = []
    keys: list[list[Span]] = []
    resps: list[list[Span]] = []
    width = len(str(max(a.docs - 1, 0)))
    for d in range(a.docs):
        n_tokens = a.tokens if a.docs == 1 else max(50, round(rng.gauss(a.tokens, a.tokens / 6)))
        doc = DocBuilder(rng, a.nested)
        slots = entity_slots(rng, max(2, round(n_tokens * a.mentions_per_token)), a.singletons, a.crp_alpha)
        doc.build(slots, n_tokens, a.sent_len)
        docs.append((f"bench/doc_{d:0{width}d}", doc))
        keys.append(renumber(doc.mentions))
        resps.append(renumber(perturb(resp_rng, doc.mentions, sentence_of(doc.sent_starts, len(doc.tokens)), a)))
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write(Path(f"{a.out}.key"), docs, keys)
    write(Path(f"{a.out}.response"), docs, resps)
    types = Counter(mention_type(doc.tokens[s:t + 1]) for _, doc in docs for s, t, _ in doc.mentions)
    stats = {"docs": a.docs, "tokens": sum(len(d.tokens) for _, d in docs),
             "sentences": sum(len(d.sent_starts) for _, d in docs),
             "key": side_stats(keys) | {"types": dict(sorted(types.items()))}, "response": side_stats(resps)}
    print(json.dumps(stats))
    return stats


if __name__ == "__main__":
    main()
