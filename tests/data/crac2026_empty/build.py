"""Write the CoNLL-U inputs of the empty-node fixtures (see README.md). Usage: build.py OUT_DIR

Standard library only, deterministic (a seeded ``random.Random``); the files it writes are committed
beside it, and the numbers crac2026_empty_nodes_eval.py printed for them are in ``expected.json``.

Hand-made pairs (two documents, seven sentences, eight empty nodes in the key):

* ``key.conllu`` against ``response-perfect``, ``-missing`` (one empty node left out), ``-extra``
  (one more), ``-attributes`` (FORM, LEMMA, UPOS, XPOS, FEATS, deprel and word order each wrong on
  one node, the head wrong on another), ``-multiset`` (three nodes where the key has two under one
  head, one where it has two), ``-blankline`` (``-attributes`` with a second blank line after the
  first sentence: the script shifts every later sentence), ``-reordered`` (``-attributes`` with the
  documents swapped: the script compares each with the other);
* ``nocoref-key`` / ``nocoref-response``: the same words without any ``Entity=`` (the score is
  computed on files without coreference);
* ``emptyhead-key`` / ``emptyhead-response``: a first DEPS head that is an empty node (``4.2:det``,
  as GUM's gold writes ``9.2:det``) and a DEPS of ``_`` (as corefud-scorer's zero test files): the
  script stops on both (``ValueError``);
* ``split-response``: the key's words with one sentence split in two (the sentences do not line up).

Random pairs ``random/NNN.{key,response}.conllu``: 1–3 documents of 1–5 sentences of 3–9 words, 0–3
empty nodes a sentence (attributes from small pools, so that ties and repeats occur), the response's
empty nodes the key's with some dropped, some added and some attributes, heads or word orders
changed; every third pair has no coreference annotation.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

Node = list[str]
"""An empty node's 10 columns."""


def node(nid: str, form: str, lemma: str, upos: str, xpos: str, feats: str, deps: str, misc: str = "_") -> Node:
    return [nid, form, lemma, upos, xpos, feats, "_", "_", deps, misc]


# (words, {word after which: [empty nodes]}, {word index (1-based): Entity value})
DOC1 = ("story-1", [
    ("Anna came home late .".split(), {
        2: [node("2.1", "_", "#PersPron", "PRON", "PRP", "Case=Nom", "2:nsubj", "Entity=(e1-person-1-)")]},
     {1: "(e1-person-1-)"}),
    ("Said she was tired and slept .".split(), {
        0: [node("0.1", "_", "#PersPron", "PRON", "PRP", "Case=Nom", "1:nsubj", "Entity=(e1-person-1-)")],
        5: [node("5.1", "_", "#PersPron", "PRON", "PRP", "Case=Nom", "6:nsubj"),
            node("5.2", "was", "be", "AUX", "VBD", "Mood=Ind", "6:cop|3:conj")]},
     {2: "(e1-person-1-)"}),
    ("The dog barked all night .".split(), {}, {1: "(e2-animal-2-", 2: "e2)"}),
    ("Then slept too .".split(), {
        1: [node("1.1", "_", "#PersPron", "PRON", "PRP", "Case=Nom|Number=Sing", "2:nsubj", "Entity=(e2-animal-1-)")]},
     {}),
])
DOC2 = ("story-2", [
    ("Ben wrote a letter and posted .".split(), {
        5: [node("5.1", "_", "#PersPron", "PRON", "PRP", "Case=Nom", "6:nsubj", "Entity=(e3-person-1-)"),
            node("5.2", "_", "#Gen", "PRON", "PRP", "Case=Acc", "6:obj", "Entity=(e4-thing-1-)")]},
     {1: "(e3-person-1-)", 3: "(e4-thing-2-", 4: "e4)"}),
    ("It arrived on Monday .".split(), {}, {1: "(e4-thing-1-)"}),
    ("Then read and answered .".split(), {
        1: [node("1.1", "_", "#PersPron", "PRON", "PRP", "Case=Nom", "2:nsubj")]},
     {}),
])


def write(path: Path, docs, coref: bool = True, blank_after: tuple[int, int] | None = None) -> None:
    """Write ``docs`` (``(id, sentences)``) as CoNLL-U; ``blank_after``: (document, sentence) after
    which a second blank line goes."""
    out = []
    for d, (doc_id, sentences) in enumerate(docs):
        out.append(f"# newdoc id = {doc_id}")
        if coref:
            out.append("# global.Entity = eid-etype-head-other")
        for s, (words, empties, entities) in enumerate(sentences):
            out.append(f"# sent_id = {doc_id}-{s + 1}")
            out.append(f"# text = {' '.join(words)}")
            for n in empties.get(0, []):
                out.append("\t".join(n if coref else n[:9] + ["_"]))
            for w, form in enumerate(words, 1):
                head = "0" if w == 1 else "1"
                rel = "root" if w == 1 else "dep"
                misc = f"Entity={entities[w]}" if coref and w in entities else "_"
                out.append("\t".join([str(w), form, form.lower(), "X", "_", "_", head, rel, f"{head}:{rel}", misc]))
                for n in empties.get(w, []):
                    out.append("\t".join(n if coref else n[:9] + ["_"]))
            out.append("")
            if blank_after == (d, s):
                out.append("")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def edited(docs, edit) -> list:
    """A deep copy of ``docs`` with ``edit(doc index, sentence index, empties)`` applied to each sentence's empty nodes."""
    out = []
    for d, (doc_id, sentences) in enumerate(docs):
        ss = []
        for s, (words, empties, entities) in enumerate(sentences):
            e = {w: [list(n) for n in ns] for w, ns in empties.items()}
            edit(d, s, e)
            ss.append((list(words), {w: ns for w, ns in e.items() if ns}, dict(entities)))
        out.append((doc_id, ss))
    return out


def renumber(empties: dict[int, list[Node]]) -> None:
    for w, ns in empties.items():
        for k, n in enumerate(ns, 1):
            n[0] = f"{w}.{k}"


def missing(d, s, e):
    if (d, s) == (0, 1):
        e[5].pop(0)
        renumber(e)


def extra(d, s, e):
    if (d, s) == (1, 1):
        e[2] = [node("2.1", "_", "#PersPron", "PRON", "PRP", "Case=Nom", "2:nsubj")]


def attributes(d, s, e):
    if (d, s) == (0, 0):
        e[2][0][1] = "she"                     # FORM
    if (d, s) == (0, 1):
        e[0][0][2] = "#Neg"                    # LEMMA
        e[5][0][3] = "NOUN"                    # UPOS
        e[5][1][4] = "VBZ"                     # XPOS
    if (d, s) == (0, 3):
        e[1][0][5] = "Case=Nom"                # FEATS
    if (d, s) == (1, 0):
        e[5][1][8] = "6:iobj"                  # deprel
    if (d, s) == (1, 2):
        e[2] = e.pop(1)                        # word order: after word 2, head unchanged
        renumber(e)


def attributes_and_head(d, s, e):
    attributes(d, s, e)
    if (d, s) == (1, 0):
        e[5][0][8] = "4:nsubj"                 # head


def multiset(d, s, e):
    if (d, s) == (0, 1):
        e[5].append(node("5.3", "_", "#PersPron", "PRON", "PRP", "Case=Nom", "6:nsubj"))  # three under head 6
    if (d, s) == (1, 0):
        e[5] = [e[5][0]]                                                                   # one where two


def emptyhead(d, s, e):
    if (d, s) == (0, 1):
        e[5][1][8] = "5.1:det"                 # a first head that is an empty node
    if (d, s) == (1, 2):
        e[1][0][8] = "_"                       # no DEPS


def emptyhead_response(d, s, e):
    emptyhead(d, s, e)
    if (d, s) == (0, 1):
        e[5][0][1] = "they"


def split_docs(docs):
    """The key's words, the first document's second sentence split after its third word."""
    doc_id, sentences = docs[0]
    words, empties, entities = sentences[1]
    first = (words[:3], {w: ns for w, ns in empties.items() if w <= 3}, {w: v for w, v in entities.items() if w <= 3})
    rest_empties = {w - 3: [[f"{w - 3}.{n[0].split('.')[1]}"] + n[1:] for n in ns] for w, ns in empties.items() if w > 3}
    second = (words[3:], rest_empties, {w - 3: v for w, v in entities.items() if w > 3})
    return [(doc_id, [sentences[0], first, second, *sentences[2:]]), docs[1]]


POOLS = {1: ["_", "he", "she", "it", "they"], 2: ["_", "#PersPron", "#Gen", "#Cor"], 3: ["PRON", "VERB", "NOUN"],
         4: ["_", "PRP", "VB"], 5: ["_", "Case=Nom", "Case=Acc", "Number=Sing"]}
RELS = ["nsubj", "obj", "conj:and", "nsubj:pass", "obl"]


def random_node(rng: random.Random, n_words: int) -> tuple[int, Node]:
    w = rng.randint(0, n_words)
    head = rng.randint(0, n_words)
    deps = f"{head}:{'root' if head == 0 else rng.choice(RELS)}"
    if rng.random() < 0.3:
        deps += f"|{rng.randint(1, n_words)}:{rng.choice(RELS)}"
    return w, node("", *(rng.choice(POOLS[c]) for c in range(1, 6)), deps)


def random_pair(rng: random.Random, coref: bool):
    key, resp = [], []
    for d in range(rng.randint(1, 3)):
        ks, rs = [], []
        for _ in range(rng.randint(1, 5)):
            words = [rng.choice(["a", "b", "c", "d"]) for _ in range(rng.randint(3, 9))]
            gold = [random_node(rng, len(words)) for _ in range(rng.randint(0, 3))]
            system = []
            for w, n in gold:
                r = rng.random()
                if r < 0.15:
                    continue                                   # dropped
                n = list(n)
                if r < 0.45:
                    c = rng.choice([1, 2, 3, 4, 5, 8, 0])
                    if c == 0:
                        w = rng.randint(0, len(words))        # word order
                    elif c == 8:
                        head, _, rel = n[8].partition("|")[0].partition(":")
                        n[8] = (f"{rng.randint(0, len(words))}:{rel}" if rng.random() < 0.5
                                else f"{head}:{rng.choice(RELS)}")
                    else:
                        n[c] = rng.choice(POOLS[c])
                system.append((w, n))
            for _ in range(rng.choice([0, 0, 0, 1, 2])):
                system.append(random_node(rng, len(words)))   # added
            entities = {w: "(e1-x-1-)" for w in range(1, len(words) + 1) if rng.random() < 0.2}
            ks.append((words, group(gold), entities))
            rs.append((list(words), group(system), entities))
        key.append((f"doc{d + 1}", ks))
        resp.append((f"doc{d + 1}", rs))
    return key, resp


def group(nodes: list[tuple[int, Node]]) -> dict[int, list[Node]]:
    out: dict[int, list[Node]] = {}
    for w, n in nodes:
        out.setdefault(w, []).append(list(n))
    renumber(out)
    return out


RANDOM_PAIRS = 40


def main(out: Path) -> None:
    (out / "random").mkdir(parents=True, exist_ok=True)
    key = [DOC1, DOC2]
    write(out / "key.conllu", key)
    write(out / "response-perfect.conllu", key)
    write(out / "response-missing.conllu", edited(key, missing))
    write(out / "response-extra.conllu", edited(key, extra))
    write(out / "response-attributes.conllu", edited(key, attributes_and_head))
    write(out / "response-multiset.conllu", edited(key, multiset))
    write(out / "response-blankline.conllu", edited(key, attributes_and_head), blank_after=(0, 0))
    write(out / "response-reordered.conllu", list(reversed(edited(key, attributes_and_head))))
    write(out / "nocoref-key.conllu", key, coref=False)
    write(out / "nocoref-response.conllu", edited(key, attributes_and_head), coref=False)
    write(out / "emptyhead-key.conllu", edited(key, emptyhead))
    write(out / "emptyhead-response.conllu", edited(key, emptyhead_response))
    write(out / "split-response.conllu", split_docs(key))
    rng = random.Random(2026)
    for k in range(RANDOM_PAIRS):
        coref = k % 3 != 2
        kd, rd = random_pair(rng, coref)
        write(out / "random" / f"{k:03d}.key.conllu", kd, coref)
        write(out / "random" / f"{k:03d}.response.conllu", rd, coref)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
