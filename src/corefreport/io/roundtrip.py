"""What text2text-coref's conversion of a key keeps: the key as its JSON (``conllu2json``) and
markup (``conllu2text``) read back (github.com/ondfa/text2text-coref, commit 56d67ec;
CRAC 2025/2026 LLM track).

Before it writes a document, text2text-coref runs Udapi's ``corefud.MoveHead`` on every mention
(``convert.py`` ``read_data``) and then reduces each **discontinuous** mention to its part that holds
its head (``reduce_discontinuous_mention``: the span's comma-separated parts, the first holding
``mention.head``); empty nodes are tokens ``##…``, which corefreport's readers drop with the
mentions made of them alone (zeros). :func:`round_trip` is that on a :class:`Document`:

* a mention's words that are empty nodes are left out (``##`` tokens are not words); a mention
  of none but empty nodes (a zero) is dropped;
* a mention whose words are several runs of consecutive words keeps the run holding its head as
  ``MoveHead`` finds it (:func:`move_head`, on the basic dependency tree of the ``head`` column);
* every other mention stays as it is.

Scoring the key against its round trip gives the **round-trip ceiling**: the score of a response
whose JSON (or markup) were the key's own (:mod:`corefreport.scoring.alignloss`).

>>> from corefreport.model import Chain, Mention
>>> heads = ["1", "-1", "1", "2"]          # w0 ← w1 (root) → w2 → w3
>>> m = Mention(0, 3, "e", words=(0, 2, 3), features={"head": "2"})
>>> doc = Document("d", tokens=list("abcd"), columns={"head": heads}, chains=[Chain("e", [m])])
>>> [(x.start, x.end) for x in round_trip(doc).chains[0].mentions]   # parts 0 and 2–3; MoveHead keeps 2
[(2, 3)]
>>> move_head([0, 2, 3], 3, heads)   # w0 and w2 hang from w1, outside: the file's head is not one of them
0
"""

from __future__ import annotations

from dataclasses import replace

from ..model import Chain, Document, Mention


def runs(words: list[int]) -> list[list[int]]:
    """Maximal runs of consecutive word numbers (the parts of a discontinuous span)."""
    out: list[list[int]] = []
    for w in words:
        if out and w == out[-1][-1] + 1:
            out[-1].append(w)
        else:
            out.append([w])
    return out


def _parent(heads: list[str] | None, w: int) -> int | None:
    if heads is None or w >= len(heads):
        return None
    h = heads[w]
    return int(h) if h.lstrip("-").isdigit() and int(h) >= 0 else None


def _path(heads: list[str] | None, w: int) -> list[int | None]:
    """``w`` and its ancestors up to the root (``None``: the sentence's technical root)."""
    out: list[int | None] = [w]
    seen = {w}
    p = _parent(heads, w)
    while p is not None and p not in seen:
        out.append(p)
        seen.add(p)
        p = _parent(heads, p)
    return out + [None]


def move_head(words: list[int], head: int | None, heads: list[str] | None) -> int:
    """The head Udapi's ``corefud.MoveHead`` gives a mention of ``words`` (sorted word numbers;
    ``head``: the file's, ``heads``: the basic tree, each word's HEAD as a document word number or
    ``-1``; without enhanced dependencies): the one word whose parent is outside the mention; else
    the root of the smallest subtree holding those words, when it is one of them; else the file's
    head, when it is one of them; else the first of them."""
    inside = set(words)
    tops = [w for w in words if _parent(heads, w) not in inside]
    if len(tops) == 1:
        return tops[0]
    paths = [_path(heads, w) for w in tops]
    common = set(paths[0]).intersection(*map(set, paths[1:]))
    highest = next(x for x in paths[0] if x in common)
    if highest in tops:
        return highest  # type: ignore[return-value]
    if head in tops:
        return head  # type: ignore[return-value]
    return tops[0]


def reduced(m: Mention, heads: list[str] | None) -> Mention | None:
    """``m`` after the conversion (module docstring): itself, its head's part, or ``None`` (a zero)."""
    if m.words is None:
        return m
    words = sorted(w for w in m.words if type(w) is int)
    if not words:
        return None
    parts = runs(words)
    if len(parts) == 1:
        part = parts[0]
    else:
        h = m.features.get("head", "")
        head = move_head(words, int(h) if h.lstrip("-").isdigit() else None, heads)
        part = next(p for p in parts if head in p)
    feats = dict(m.features)
    if "head" in feats and not (feats["head"].isdigit() and int(feats["head"]) in part):
        feats.pop("head")
    return Mention(part[0], part[-1], m.label, m.line, feats, None)


def _order(m: Mention) -> tuple:
    """Udapi's order of mentions (``CorefMention.__lt__``): first word, the longer first, last word."""
    ws = m.words if m.words is not None else range(m.start, m.end + 1)
    return (ws[0], -len(ws), ws[-1])


def round_trip(doc: Document) -> Document:
    """``doc`` as text2text-coref's JSON or markup gives it back (module docstring), its chains in
    the order ``conllu2json`` writes them — Udapi's: entities by their first mention, mentions by
    first word, the longer first, then last word, as the key wrote them (before the reduction) — so
    that spans the reduction makes equal meet in the same chains as in the JSON; ``doc`` itself
    when nothing changes."""
    heads = doc.columns.get("head")
    chains = []
    changed = False
    ordered = [(c.label, sorted(c.mentions, key=_order)) for c in doc.chains if c.mentions]
    ordered.sort(key=lambda c: (_order(c[1][0]), c[0]))
    for label, mentions in ordered:
        kept = []
        for m in mentions:
            r = reduced(m, heads)
            changed |= r is not m
            if r is not None:
                kept.append(r)
        if kept:
            chains.append(Chain(label, kept))
    return replace(doc, chains=chains) if changed else doc


def losses(doc: Document) -> dict[str, int]:
    """What :func:`round_trip` changes in ``doc``: discontinuous mentions reduced, zeros dropped."""
    heads = doc.columns.get("head")
    out = {"discontinuous_reduced": 0, "zeros_dropped": 0}
    for m in doc.mentions:
        r = reduced(m, heads)
        if r is None:
            out["zeros_dropped"] += 1
        elif r is not m and len(runs(sorted(w for w in m.words or () if type(w) is int))) > 1:
            out["discontinuous_reduced"] += 1
    return out
