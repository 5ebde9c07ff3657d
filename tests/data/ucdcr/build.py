"""A small corpus in uCDCR's mention JSON and the CoNLL-2012 files neleval reads for the same chains:
the inputs of tests/test_read_ucdcr.py (run_neleval.py ran neleval on the CoNLL files).

Five documents in two topics and three subtopics (topic 1: subtopics ``1ecb`` with documents
``1_a``, ``1_b`` and ``1ecbplus`` with ``1_c``; topic 2: subtopic ``2ecb`` with ``2_d``, ``2_e``), four
sentences each. Entity chains (``HUM``, ``LOC``) and event chains (``ACT``), most across documents,
one key chain across the two topics (``LOC9``: ``Aden`` in ``1_a`` and ``2_e``). Every mention's
context is its sentence and the ones either side (ECB+ gives whole documents; uCDCR ~100 words
either side, whole sentences), placed by ``context_start_end_global_id``.

The response has the key's mentions but one (``1_b``'s "arrested") and one more (``2_d``'s "ship");
its chains: ``HUM1`` split between its documents, ``HUM2`` three ways, ``ACT1`` and ``ACT2`` merged,
``2_d``'s "They" linked to the event chain of "searched" (a chain of an entity and two event mentions:
its kind is its majority's), the cross-topic link dropped.

``python build.py OUT_DIR`` writes

* ``key/entity_mentions.json``, ``key/event_mentions.json``, ``response/…`` (the same names);
* for neleval ``prepare-conll-coref --cross-doc``: ``conll/key.all.conll`` (every document: the
  corpus), ``conll/key.topic-T.conll`` (topic T's documents), ``conll/key.subtopic-T-S.conll``,
  ``conll/key.kind-K.conll`` (every document, only the chains of kind K: a key chain by its mentions'
  kind, a response chain by the kind most of its mentions have) and the ``response`` twins.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

DOCS = {  # conll_doc_key → sentences
    "1/1ecb/1_a": ["The navy captured pirates near Aden .", "They were about to board a ship .",
                   "The pirates came from Somalia .", "Officials praised the navy ."],
    "1/1ecb/1_b": ["Indian forces arrested the pirates on Saturday .", "The navy said the raid was quick .",
                   "Its commandos boarded the boat .", "The pirates gave up ."],
    "1/1ecbplus/1_c": ["Pirates seized a tanker last week .", "The navy later captured the gang .",
                       "The tanker was freed .", "Nobody was hurt ."],
    "2/2ecb/2_d": ["An earthquake struck the coast .", "It damaged the port and a ship .",
                   "Rescuers searched the town .", "They found survivors ."],
    "2/2ecb/2_e": ["The quake hit near Aden on Monday .", "The tremor damaged buildings .",
                   "Teams searched for survivors .", "Many were found alive ."],
}
TITLES = {"1": "pirates captured", "2": "earthquake"}
KEY = [  # (document, sentence, first word, last word, kind, chain, type)
    ("1/1ecb/1_a", 0, 0, 1, "entity", "HUM2", "HUM"), ("1/1ecb/1_a", 0, 2, 2, "event", "ACT1", "ACT"),
    ("1/1ecb/1_a", 0, 3, 3, "entity", "HUM1", "HUM"), ("1/1ecb/1_a", 0, 5, 5, "entity", "LOC9", "LOC"),
    ("1/1ecb/1_a", 1, 0, 0, "entity", "HUM1", "HUM"), ("1/1ecb/1_a", 1, 4, 4, "event", "ACT3", "ACT"),
    ("1/1ecb/1_a", 2, 0, 1, "entity", "HUM1", "HUM"), ("1/1ecb/1_a", 3, 2, 3, "entity", "HUM2", "HUM"),
    ("1/1ecb/1_b", 0, 2, 2, "event", "ACT1", "ACT"), ("1/1ecb/1_b", 0, 3, 4, "entity", "HUM1", "HUM"),
    ("1/1ecb/1_b", 1, 0, 1, "entity", "HUM2", "HUM"), ("1/1ecb/1_b", 2, 2, 2, "event", "ACT3", "ACT"),
    ("1/1ecb/1_b", 3, 0, 1, "entity", "HUM1", "HUM"),
    ("1/1ecbplus/1_c", 0, 0, 0, "entity", "HUM3", "HUM"), ("1/1ecbplus/1_c", 0, 1, 1, "event", "ACT2", "ACT"),
    ("1/1ecbplus/1_c", 1, 0, 1, "entity", "HUM2", "HUM"), ("1/1ecbplus/1_c", 1, 3, 3, "event", "ACT4", "ACT"),
    ("1/1ecbplus/1_c", 1, 4, 5, "entity", "HUM3", "HUM"), ("1/1ecbplus/1_c", 2, 0, 1, "entity", "OBJ1", "OBJ"),
    ("1/1ecbplus/1_c", 3, 0, 0, "entity", "HUM4", "HUM"),
    ("2/2ecb/2_d", 0, 0, 1, "event", "EVT5", "ACT"), ("2/2ecb/2_d", 0, 2, 2, "event", "ACT5", "ACT"),
    ("2/2ecb/2_d", 1, 0, 0, "event", "EVT5", "ACT"), ("2/2ecb/2_d", 1, 1, 1, "event", "ACT6", "ACT"),
    ("2/2ecb/2_d", 2, 1, 1, "event", "ACT7", "ACT"), ("2/2ecb/2_d", 3, 0, 0, "entity", "HUM6", "HUM"),
    ("2/2ecb/2_e", 0, 0, 1, "event", "EVT5", "ACT"), ("2/2ecb/2_e", 0, 2, 2, "event", "ACT5", "ACT"),
    ("2/2ecb/2_e", 0, 4, 4, "entity", "LOC9", "LOC"), ("2/2ecb/2_e", 1, 2, 2, "event", "ACT6", "ACT"),
    ("2/2ecb/2_e", 2, 1, 1, "event", "ACT7", "ACT"), ("2/2ecb/2_e", 3, 0, 0, "entity", "HUM7", "HUM"),
]
RESPONSE_CHAINS = {  # the response's chain of a key mention, by (document, sentence, first word)
    ("1/1ecb/1_b", 1, 0): "r2", ("1/1ecbplus/1_c", 1, 0): "rA",  # HUM2 split three ways
    ("2/2ecb/2_e", 0, 4): "r9",  # the cross-topic link of LOC9 dropped
    ("2/2ecb/2_d", 3, 0): "rACT7",  # "They" (an entity) in the event chain of "searched"
}
DROPPED = ("1/1ecb/1_b", 0, 2)
EXTRA = ("2/2ecb/2_d", 1, 6, 6, "entity", "r8", "OBJ")  # "ship"
SPLIT = "test"


def response() -> list[tuple]:
    """The response's mentions (module docstring)."""
    out = []
    for m in KEY:
        if m[:3] == DROPPED:
            continue
        chain = RESPONSE_CHAINS.get(m[:3], "r" + m[5])
        if m[5] == "ACT2":
            chain = "rACT1"  # ACT1 and ACT2 merged
        if m[5] == "HUM1" and m[0] == "1/1ecb/1_b":
            chain = "rHUM1b"  # HUM1 split between its documents
        out.append((*m[:5], chain, m[6]))
    return out + [EXTRA]


def words(doc: str) -> list[list[str]]:
    return [s.split() for s in DOCS[doc]]


def mention_json(m: tuple, k: int) -> dict:
    doc, s, first, last, kind, chain, mtype = m
    sentences = words(doc)
    starts = [sum(len(x) for x in sentences[:i]) for i in range(len(sentences))]
    lo, hi = max(0, s - 1), min(len(sentences) - 1, s + 1)
    context = [w for x in sentences[lo:hi + 1] for w in x]
    c0 = starts[lo]
    topic, subtopic, name = doc.split("/")
    at = [starts[s] + i - c0 for i in range(first, last + 1)]
    return {"coref_chain": chain, "mention_id": f"{name}_{s}_{first}_{k}", "tokens_str": " ".join(sentences[s][first:last + 1]),
            "description": chain, "coref_type": "IDENTITY", "mention_type": mtype, "mention_full_type": mtype,
            "tokens_text": sentences[s][first:last + 1], "tokens_number": list(range(first, last + 1)),
            "mention_head": sentences[s][last], "mention_head_id": last, "sent_id": s, "topic": f"{topic}_{TITLES[topic]}",
            "topic_id": topic, "subtopic_id": subtopic, "subtopic": subtopic, "doc_id": name, "doc": name,
            "mention_context": context, "context_start_end_global_id": [c0, c0 + len(context) - 1],
            "mention_sentence_start_end": [starts[s] - c0, starts[s] - c0 + len(sentences[s])],
            "tokens_number_context": at, "mention_head_id_context": at[-1], "is_singleton": False,
            "conll_doc_key": doc, "split": SPLIT}


def files(mentions: list[tuple]) -> dict[str, str]:
    out = {}
    for kind in ("entity", "event"):
        ms = [mention_json(m, k) for k, m in enumerate(mentions) if m[4] == kind]
        singles = Counter(x["coref_chain"] for x in ms)
        for x in ms:
            x["is_singleton"] = singles[x["coref_chain"]] == 1
        out[f"{kind}_mentions.json"] = json.dumps(ms, indent=1) + "\n"
    return out


def chain_kinds(mentions: list[tuple]) -> dict[str, str]:
    """Each chain's kind: the kind most of its mentions have (ties: the first mention's)."""
    by: dict[str, list[str]] = {}
    for m in mentions:
        by.setdefault(m[5], []).append(m[4])
    return {c: max(ks, key=lambda k: (ks.count(k), -ks.index(k))) for c, ks in by.items()}


def conll(mentions: list[tuple], docs: list[str], kind: str | None = None) -> str:
    """``docs`` as CoNLL-2012 (one ``#begin document`` each, chains numbered in order of appearance
    over the whole file: labels global); ``kind``: only the chains of that kind."""
    kinds = chain_kinds(mentions)
    ids: dict[str, int] = {}
    for m in sorted(mentions, key=lambda m: (list(DOCS).index(m[0]), m[1], m[2])):
        ids.setdefault(m[5], len(ids) + 1)
    lines = []
    for doc in docs:
        name = doc.replace("/", "_")
        lines.append(f"#begin document ({name}); part 000")
        t = 0
        for s, sentence in enumerate(words(doc)):
            for i, w in enumerate(sentence):
                cell = []
                ms = [m for m in mentions if m[0] == doc and m[1] == s and (kind is None or kinds[m[5]] == kind)]
                cell += [f"({ids[m[5]]})" for m in ms if m[2] == i == m[3]]
                cell += [f"({ids[m[5]]}" for m in sorted(ms, key=lambda m: -m[3]) if m[2] == i < m[3]]
                cell += [f"{ids[m[5]]})" for m in ms if m[2] < i == m[3]]
                lines.append("\t".join([name, "0", str(t), w, "|".join(cell) or "-"]))
                t += 1
            lines.append("")
        lines.append("#end document")
    return "\n".join(lines) + "\n"


def groups() -> dict[str, list[str]]:
    """The document groups neleval is run on: all, per topic, per subtopic."""
    out: dict[str, list[str]] = {"all": list(DOCS)}
    for d in DOCS:
        t, s, _ = d.split("/")
        out.setdefault(f"topic-{t}", []).append(d)
        out.setdefault(f"subtopic-{t}-{s}", []).append(d)
    return out


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent
    for side, mentions in (("key", KEY), ("response", response())):
        (out / side).mkdir(parents=True, exist_ok=True)
        for name, text in files(mentions).items():
            (out / side / name).write_text(text, encoding="utf-8")
        (out / "conll").mkdir(exist_ok=True)
        for group, docs in groups().items():
            (out / "conll" / f"{side}.{group}.conll").write_text(conll(mentions, docs), encoding="utf-8")
        for kind in ("entity", "event"):
            (out / "conll" / f"{side}.kind-{kind}.conll").write_text(conll(mentions, list(DOCS), kind),
                                                                     encoding="utf-8")


if __name__ == "__main__":
    main()
