"""Random key/response pairs written in the four input formats, for the CLI tests
(tests/test_cli_matrix.py, tests/test_fuzz_cli.py): an abstract corpus (sentences of words with
POS, chains of token spans) whose chains are known, so that any scorer's numbers can be checked
against an independent implementation."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from pathlib import Path

Span = tuple[int, int]

# --- a random corpus, abstractly ------------------------------------------------------------------

WORDS = [("John", "NNP"), ("Mary", "NNP"), ("Paris", "NNP"), ("he", "PRP"), ("she", "PRP"), ("it", "PRP"),
         ("his", "PRP$"), ("her", "PRP$"), ("the", "DT"), ("a", "DT"), ("dog", "NN"), ("cat", "NN"),
         ("house", "NN"), ("friends", "NNS"), ("saw", "VBD"), ("likes", "VBZ"), ("in", "IN"), ("old", "JJ"),
         ("and", "CC"), (".", ".")]
UPOS = {"NNP": "PROPN", "PRP": "PRON", "PRP$": "PRON", "DT": "DET", "NN": "NOUN", "NNS": "NOUN", "VBD": "VERB",
        "VBZ": "VERB", "IN": "ADP", "JJ": "ADJ", "CC": "CCONJ", ".": "PUNCT"}


@dataclass(frozen=True)
class Doc:
    """One document: its sentences of (word, POS) and its chains of document-level token spans
    (inclusive); no span in two chains, and any two spans nested or apart (never crossing), so
    that every format can write it without ambiguity."""

    name: str
    sentences: tuple[tuple[tuple[str, str], ...], ...]
    chains: tuple[tuple[Span, ...], ...]

    @property
    def n_tokens(self) -> int:
        return sum(len(s) for s in self.sentences)

    def sentence_ranges(self) -> list[Span]:
        out, t = [], 0
        for s in self.sentences:
            out.append((t, t + len(s) - 1))
            t += len(s)
        return out


def _fits(span: Span, taken: set[Span]) -> bool:
    a, b = span
    for c, d in taken:
        if (a, b) == (c, d):
            return False
        if not (b < c or d < a or (a <= c and d <= b) or (c <= a and b <= d)):
            return False
    return True


def _random_span(rng: random.Random, doc_ranges: list[Span]) -> Span:
    lo, hi = rng.choice(doc_ranges)
    a = rng.randint(lo, hi)
    return a, min(hi, a + rng.choice([0, 0, 0, 1, 1, 2, 3]))


def chains_of(rng: random.Random, spans: list[Span], labels: int) -> tuple[tuple[Span, ...], ...]:
    groups: dict[int, list[Span]] = {}
    for s in spans:
        groups.setdefault(rng.randrange(labels), []).append(s)
    return tuple(tuple(sorted(g)) for _, g in sorted(groups.items()))


def random_key(rng: random.Random, name: str) -> Doc:
    sentences = tuple(tuple(rng.choice(WORDS) for _ in range(rng.randint(3, 9))) for _ in range(rng.randint(1, 4)))
    doc = Doc(name, sentences, ())
    taken: set[Span] = set()
    for _ in range(rng.randint(2, 9)):
        s = _random_span(rng, doc.sentence_ranges())
        if _fits(s, taken):
            taken.add(s)
    spans = sorted(taken)
    if len(spans) < 2:  # a chain of two at least: the key has a coreference link
        spans = [(0, 0), (doc.n_tokens - 1, doc.n_tokens - 1)]
    chains = chains_of(rng, spans, max(1, len(spans) // 2))
    if all(len(c) < 2 for c in chains):
        chains = (tuple(spans),)
    return replace(doc, chains=chains)


def random_response(rng: random.Random, key: Doc) -> Doc:
    """The key's mentions kept, dropped or moved, new ones added, chains split and merged."""
    label_of = {s: i for i, c in enumerate(key.chains) for s in c}
    out: dict[Span, int] = {}
    taken: set[Span] = set()
    ranges = key.sentence_ranges()
    for s, lab in label_of.items():
        r = rng.random()
        if r < 0.12:
            continue
        if r < 0.25:
            lo, hi = next(x for x in ranges if x[0] <= s[0] <= x[1])
            s = (max(lo, s[0] + rng.choice([-1, 0, 1])), min(hi, s[1] + rng.choice([-1, 0, 1])))
            if s[1] < s[0]:
                continue
        if rng.random() < 0.2:
            lab = rng.randrange(len(key.chains) + 2)
        if _fits(s, taken):
            taken.add(s)
            out[s] = lab
    for _ in range(rng.randint(0, 3)):
        s = _random_span(rng, ranges)
        if _fits(s, taken):
            taken.add(s)
            out[s] = rng.randrange(len(key.chains) + 2)
    if not out:
        out[key.chains[0][0]] = 0
    groups: dict[int, list[Span]] = {}
    for s, lab in out.items():
        groups.setdefault(lab, []).append(s)
    return replace(key, chains=tuple(tuple(sorted(g)) for _, g in sorted(groups.items())))


def random_pair(seed: int, docs: int | None = None) -> tuple[list[Doc], list[Doc]]:
    rng = random.Random(seed)
    keys = [random_key(rng, f"doc{seed}_{i}") for i in range(docs or rng.randint(1, 3))]
    return keys, [random_response(rng, k) for k in keys]


# --- the four formats -----------------------------------------------------------------------------

def _labels(doc: Doc, offset: int) -> dict[Span, str]:
    return {s: str(i + offset) for i, c in enumerate(doc.chains) for s in c}


def write_conll2012(docs: list[Doc], offset: int = 0, shuffle: random.Random | None = None) -> str:
    """CoNLL-2012: 12 columns, the brackets in the last (labels start at ``offset``: they need not
    be the key's); ``shuffle``: each cell's brackets in a random order (they are read the same:
    no two mentions of one chain cross)."""
    out = []
    for doc in docs:
        labels = _labels(doc, offset)
        out.append(f"#begin document ({doc.name}); part 000")
        t = 0
        for sent in doc.sentences:
            for i, (word, pos) in enumerate(sent):
                cell = []
                for s in sorted((s for s in labels if s[0] == t), key=lambda s: -s[1]):
                    cell.append(f"({labels[s]})" if s[1] == t else f"({labels[s]}")
                cell += [f"{labels[s]})" for s in sorted((s for s in labels if s[1] == t and s[0] < t),
                                                         key=lambda s: -s[0])]
                if shuffle is not None:
                    shuffle.shuffle(cell)
                out.append("\t".join([doc.name, "0", str(i), word, pos, "*", word.lower(), "-", "-", "-", "*",
                                      "|".join(cell) or "-"]))
                t += 1
            out.append("")
        out.append("#end document")
    return "\n".join(out) + "\n"


def write_conllu(docs: list[Doc], offset: int = 0, variant: bool = False) -> str:
    """CorefUD CoNLL-U: ``Entity=`` brackets (opening longest first, then one-word mentions, then
    closings innermost first), heads at the mention's first word, a chain tree of HEADs.
    ``variant``: no ``# global.Entity`` line (its default holds), a multi-word-token line before
    and an empty node after each sentence's first word (the same on both sides)."""
    out = [] if variant else ["# global.Entity = eid-etype-head-other"]
    for doc in docs:
        labels = _labels(doc, offset)
        out.append(f"# newdoc id = {doc.name}")
        t = 0
        for k, sent in enumerate(doc.sentences):
            out += [f"# sent_id = {doc.name}-{k + 1}", "# text = " + " ".join(w for w, _ in sent)]
            for i, (word, pos) in enumerate(sent):
                ent = [f"(e{labels[s]}-x-1-" for s in sorted((s for s in labels if s[0] == t and s[1] > t),
                                                            key=lambda s: -s[1])]
                ent += [f"(e{labels[s]}-x-1-)" for s in labels if s == (t, t)]
                ent += [f"e{labels[s]})" for s in sorted((s for s in labels if s[1] == t and s[0] < t),
                                                         key=lambda s: -s[0])]
                misc = "Entity=" + "".join(ent) if ent else "_"
                if variant and i == 0 and len(sent) > 1:
                    out.append("\t".join(["1-2", word + sent[1][0]] + ["_"] * 8))
                out.append("\t".join([str(i + 1), word, word.lower(), UPOS[pos], pos, "_", str(i), "root" if i == 0
                                      else "dep", "_", misc]))
                if variant and i == 0:
                    out.append("\t".join(["1.1", "PRO", "_", "PRON", "_", "_", "_", "_", "1:dep", "_"]))
                t += 1
            out.append("")
    return "\n".join(out) + "\n"


def write_jsonlines(docs: list[Doc], variant: bool = False) -> str:
    """One JSON object per document; ``variant``: the keys in another order, with speakers and
    another field the reader does not use."""
    if variant:
        return "".join(json.dumps({"clusters": [[list(s) for s in c] for c in d.chains], "note": {"x": [1]},
                                   "speakers": [["spk"] * len(s) for s in d.sentences], "doc_key": d.name,
                                   "sentences": [[w for w, _ in s] for s in d.sentences]}) + "\n" for d in docs)
    return "".join(json.dumps({"doc_key": d.name, "sentences": [[w for w, _ in s] for s in d.sentences],
                               "clusters": [[list(s) for s in c] for c in d.chains]}) + "\n" for d in docs)


WEBANNO_HEAD = ("#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Referent|entity|infstat\n"
                "#T_RL=webanno.custom.Coref|type|BT_webanno.custom.Referent\n\n\n")


def write_webanno(doc: Doc, bare: bool = False) -> str:
    """WebAnno TSV 3.3 (one document): every markable with an id, each chain's mentions linked in
    text order on the antecedent's first row. ``bare``: a one-token markable alone on its token is
    written without an id (``person``), as WebAnno does, and a link between two such is ``S-T``."""
    spans = sorted(s for c in doc.chains for s in c)
    ids = {s: k + 1 for k, s in enumerate(spans)}
    if bare:
        for s in spans:
            if s[0] == s[1] and not any(o != s and o[0] <= s[0] <= o[1] for o in spans):
                ids[s] = 0
    where: dict[int, str] = {}
    t = 0
    for k, sent in enumerate(doc.sentences):
        for i in range(len(sent)):
            where[t] = f"{k + 1}-{i + 1}"
            t += 1
    links: dict[int, list[tuple[str, str]]] = {}
    for c in doc.chains:
        for a, b in zip(c, c[1:]):
            target = where[b[0]] if ids[a] == ids[b] == 0 else f"{where[b[0]]}[{ids[b]}_{ids[a]}]"
            links.setdefault(a[0], []).append(("coref", target))
    out, t, offset = [], 0, 0
    for sent in doc.sentences:
        out.append("#Text=" + " ".join(w for w, _ in sent))
        for word, _ in sent:
            on = sorted((s for s in ids if s[0] <= t <= s[1]), key=lambda s: ids[s])
            ent = "|".join(f"person[{ids[s]}]" if ids[s] else "person" for s in on) or "_"
            inf = "|".join(f"new[{ids[s]}]" if ids[s] else "new" for s in on) or "_"
            types = "|".join(x for x, _ in links.get(t, [])) or "_"
            targets = "|".join(x for _, x in links.get(t, [])) or "_"
            out.append("\t".join([where[t], f"{offset}-{offset + len(word)}", word, ent, inf, types, targets]))
            offset += len(word) + 1
            t += 1
        out.append("")
    return WEBANNO_HEAD + "\n".join(out) + "\n"


FORMATS = ("conll2012", "conllu", "jsonlines", "webanno")
SUFFIX = {"conll2012": ".conll", "conllu": ".conllu", "jsonlines": ".jsonlines", "webanno": ".tsv"}


def write_side(folder: Path, side: str, fmt: str, docs: list[Doc], offset: int = 0) -> Path:
    """A key or response written in ``fmt``: one file, or a folder of one file per document for
    WebAnno (its document id is the file stem)."""
    folder.mkdir(parents=True, exist_ok=True)
    if fmt == "webanno":
        d = folder / side
        d.mkdir(exist_ok=True)
        for doc in docs:
            (d / f"{doc.name}.tsv").write_text(write_webanno(doc), encoding="utf-8")
        return d if len(docs) > 1 else d / f"{docs[0].name}.tsv"
    text = {"conll2012": lambda: write_conll2012(docs, offset), "conllu": lambda: write_conllu(docs, offset),
            "jsonlines": lambda: write_jsonlines(docs)}[fmt]()
    p = folder / f"{side}{SUFFIX[fmt]}"
    p.write_text(text, encoding="utf-8", newline="")
    return p
