"""Dominant mentions (Žitkus et al. 2023, §4.2): the most informative mention of each chain.

Ranking: full proper noun (4) > abbreviated proper noun (3) > partial proper noun (2) > other noun
phrase (1); pronouns are never dominant (adverbs and ellipsis do not occur as CoNLL mentions);
among equals the earliest mention wins. A mention marked ``dominant=1`` in the data wins outright.

How names are recognised (mention type NAME, see ``scoring/features.py``; the name's words are its
capitalised tokens):

* **abbreviated** — a name with an initial or a dotted abbreviation ("B. Obama", "U.S.");
* **partial** — a name whose words are a strict subset of another name's words in the chain
  ("Obama" of "Barack Obama");
* **full** — any other name.

A chain with no eligible mention (e.g. "we … we … us") takes its first mention and is flagged
(``TypedChain.eligible`` is False; recommendation §4.4.6 of metric-semantics).
"""

from __future__ import annotations

import re

from ..model import Document, Mention

INITIAL_RE = re.compile(r"^(?:[A-Z]\.?|(?:[A-Z]\.){2,})$")


def _name_words(doc: Document, m: Mention) -> list[str]:
    return [w for w in doc.tokens[m.start : m.end + 1] if w[:1].isupper()]


def rank(doc: Document, m: Mention, chain: list[Mention]) -> int:
    """0 (never dominant) … 4 (full proper noun)."""
    if m.features.get("dominant") == "1":
        return 9
    mtype = m.features.get("mtype", "NOMINAL")
    if mtype == "PRONOUN":
        return 0
    if mtype != "NAME":
        return 1
    words = _name_words(doc, m)
    if any(INITIAL_RE.match(w) for w in words):
        return 3
    mine = set(words)
    for other in chain:
        if other is m or other.features.get("mtype") != "NAME":
            continue
        theirs = set(_name_words(doc, other))
        if mine and mine < theirs:
            return 2
    return 4


def ranks(doc: Document, chain: list[Mention]) -> list[int]:
    """:func:`rank` of every mention of ``chain``, each name's words computed once."""
    tokens = doc.tokens
    out: list[int] = []
    names: list[tuple[int, list[str], frozenset[str]]] = []
    for i, m in enumerate(chain):
        f = m.features
        mtype = f.get("mtype", "NOMINAL")
        if mtype == "NAME":
            words = [w for w in tokens[m.start : m.end + 1] if w[:1].isupper()]
            names.append((i, words, frozenset(words)))
        out.append(9 if f.get("dominant") == "1" else 0 if mtype == "PRONOUN" else 1)
    # a strict superset of a mention's words is never its own set: the distinct sets are enough, and
    # whether one has a strict superset is asked once per distinct set (a long chain of many names —
    # a book's main character — stays linear in its mentions)
    distinct = {theirs for _, _, theirs in names}
    partial = {mine: bool(mine) and any(mine < theirs for theirs in distinct) for mine in distinct}
    for i, words, mine in names:
        if out[i] == 9:
            continue
        if any(INITIAL_RE.match(w) for w in words):
            out[i] = 3
        elif partial[mine]:
            out[i] = 2
        else:
            out[i] = 4
    return out


def dominant_of(doc: Document, chain: list[Mention]) -> tuple[Mention, bool]:
    """The chain's dominant mention and whether it was eligible (False: first mention, flagged)."""
    ordered = sorted(chain, key=lambda m: (m.start, m.end))
    rs = ranks(doc, ordered)
    best = max(range(len(ordered)), key=lambda i: (rs[i], -ordered[i].start, -ordered[i].end))
    if rs[best] == 0:
        return ordered[0], False
    return ordered[best], True
