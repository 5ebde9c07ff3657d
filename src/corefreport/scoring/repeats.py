"""Repeated spans as corefud-scorer v1.2 handles them (``--preset crac``; docs/matching.md rules 5, 5a–5d).

corefud-scorer reads a CoNLL-U file with Udapi and prepares each side of a document so
(``scorer/corefud/reader.py`` 63–93, 114–118; ``udapi/core/coref.py`` 142–174, 757–768):

1. entities in the order of their first mention, mentions of an entity in document order — first
   word, then the longer mention first, then the last word; a tie between entities (their first
   mentions have the same words) by entity id as a string (:func:`udapi_order`);
2. within an entity a mention equal to an earlier one is dropped (``OrderedDict.fromkeys``):
   equal means the same words, and under ``--match head`` also the same head
   (``scorer/base/mention.py`` 13–21, 106–135) — so one written twice with two heads stays twice;
3. then, without ``--keep-singletons``, entities left with one mention are removed — a mention
   written twice in an entity of its own is one mention, and goes;
4. a mention written in two entities stays in both: each entity counts it, and where a metric asks
   which entity *of that side* holds it, the answer is the last one
   (``get_mention_to_clusterid_map``, ``scorer/base/reader.py`` 73–82).

:func:`prepare` does steps 1–3 before matching; :func:`identities` gives the mentions their
identity for step 4 (:mod:`.align` keeps every chain a span is in; :mod:`.corefud_metrics` scores
such chains).
"""

from __future__ import annotations

from dataclasses import replace

from ..model import Chain, Document, Mention
from .matching import head_of


def _order(m: Mention) -> tuple:
    ws = m.words
    if ws is None:
        return (m.start, -(m.end - m.start + 1), m.end)
    return (ws[0], -len(ws), ws[-1])


def udapi_order(chains: list[Chain]) -> list[Chain]:
    """Chains as Udapi orders a document's entities and their mentions (step 1; stable sorts, so
    two copies of one mention keep the order they were written in)."""
    out = [Chain(c.label, sorted(c.mentions, key=_order)) for c in chains if c.mentions]
    out.sort(key=lambda c: (_order(c.mentions[0]), c.label))
    return out


def same_key(m: Mention, match: str) -> tuple:
    """What corefud-scorer's ``==`` compares: the words, and under head matching the head."""
    return (m.ident, head_of(m)) if match == "head" else m.ident


def prepare(doc: Document, match: str, drop_singletons: bool) -> tuple[Document, list[tuple[str, Mention, str]]]:
    """Steps 1–3 of the module docstring on one document: a copy whose chains are those
    corefud-scorer scores (``doc`` itself when nothing changes), and what happened to each span
    written more than once in a chain: (chain label, the mention, what was done)."""
    chains = udapi_order(doc.chains)
    out: list[Chain] = []
    notes: list[tuple[str, Mention, str]] = []
    for c in chains:
        seen: set = set()
        kept = []
        for m in c.mentions:
            k = same_key(m, match)
            if k in seen:
                notes.append((c.label, m, "written twice in one chain: kept once (as corefud-scorer)"))
                continue
            seen.add(k)
            kept.append(m)
        if drop_singletons and len(kept) == 1:
            if len(c.mentions) > 1:
                notes.append((c.label, kept[0], "a one-mention chain written twice: kept once, then dropped as a "
                                                "singleton (as corefud-scorer)"))
            continue
        out.append(Chain(c.label, kept))
    if [(c.label, c.mentions) for c in out] == [(c.label, c.mentions) for c in doc.chains]:
        return doc, notes
    return replace(doc, chains=out), notes


def identities(key: Document, response: Document | None, match: str):
    """The identity :mod:`.align` gives each mention of this pair: ``Mention.ident`` — except under
    head matching for words written with two heads (on either side, after matching): those carry
    their head (``words + (-2 - head,)``: :func:`.matching.ident_words` still reads the words), so
    the same words with another head are another mention, as corefud-scorer's ``==`` has it. A
    mention already marked as unmatched (``-1``, matching rule 11) keeps its identity."""
    if match != "head":
        return None
    heads: dict[tuple, set] = {}
    for m in key.mentions:
        heads.setdefault(m.ident, set()).add(head_of(m))
    key_words = set(heads)
    for m in response.mentions if response is not None else ():
        # a response mention with a key mention's words is that mention (matched, or equal words and
        # head) or marked -1 (matching rule 11): only the response's own words add heads; a zero
        # matched by its dependencies keeps its own empty node as head (matching moves the words)
        if m.ident not in key_words and (m.words is None or m.words[-1] >= 0):
            heads.setdefault(m.ident, set()).add(head_of(m))
    several = {i for i, hs in heads.items() if len(hs) > 1}
    if not several:
        return None

    def ident(m: Mention) -> tuple:
        i = m.ident
        if i not in several:
            return i
        words = m.words if m.words is not None else tuple(range(m.start, m.end + 1))
        return (m.start, m.end, words + (-2 - head_of(m),))

    return ident
