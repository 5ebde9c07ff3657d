"""The zero score: corefud-scorer's anaphor-decomposable score of zero mentions (``als_zeros``).

R = TP / (TP + FN + WL), P = TP / (TP + FP + WL), over the key and response **zeros** (mentions
whose head is an empty node) that are not the first mention of their chain — corefud-scorer v1.2,
``scorer/eval/evaluator.py`` 402–463 (``als_zeros`` → ``anaphor_level_score``), printed as ``zero``
by ``corefud-scorer.py`` (the CRAC 2024 shared task's zero evaluation, Novák et al. 2024). Per
document, with every chain in document order (first word, last word, number of words):

* each key zero *k* that is not first in its key chain is an anaphor. Its response counterpart is the
  response mention with *k*'s words (and head, under ``--match head``), else the response mention
  matched to *k* (head, partial or dependent zero matching). It is **FN** when there is none or the
  counterpart is the first mention of a response chain; **WL** (wrong link) when the counterpart's
  response chain holds no counterpart of an earlier mention of *k*'s key chain; else **TP**;
* each response zero that is not first in its response chain and is no key anaphor's counterpart
  is an **FP**.

With no zero mention on either side every count is 0 (corefud-scorer prints 0.00).

Which mention is a zero, which response mention is whose counterpart and the chains as the scorer
sees them (a mention repeated in a chain kept once, then one-mention chains dropped under
``--drop-singletons``) come from the documents (:func:`document_counts`); the counting itself is
:func:`anaphor_counts`.
"""

from __future__ import annotations

from typing import NamedTuple

from ..model import Document
from .counts import Counts
from .matching import head_of, is_zero


class Item(NamedTuple):
    """One mention as the zero score sees it."""

    order: tuple
    """(first word, last word, number of words) as written: the scorer's ``Mention.__lt__``."""
    own: tuple
    """Its identity as written: its words (and head under head matching), what the scorer's ``==`` compares."""
    matched: tuple
    """Its ``ident`` after matching: a response mention matched to a key mention carries that mention's."""
    zero: bool
    moved: bool = False
    """A response mention matched to a key mention with other words (the scorer's alignment dict)."""


def anaphor_counts(key: list[list[Item]], response: list[list[Item]]) -> Counts:
    """TP / (TP + FN + WL) recall, TP / (TP + FP + WL) precision over the zero anaphors (module docstring).

    A key chain (a, z1) with a zero z1; the response links the same zero to a, or to nothing:

    >>> a = Item((0, 0, 1), (0, 0), (0, 0), False)
    >>> z = Item((1.01, 1.01, 1), (1.01,), (1.01,), True)
    >>> anaphor_counts([[a, z]], [[a, z]])
    Counts(recall_num=1, recall_den=1, precision_num=1, precision_den=1)
    >>> anaphor_counts([[a, z]], [[z, Item((3, 3, 1), (3, 3), (3, 3), False)]])
    Counts(recall_num=0, recall_den=1, precision_num=0, precision_den=0)
    """
    tp = fp = fn = wl = 0
    first: set[tuple] = set()
    cid: dict[tuple, int] = {}
    by_match: dict[tuple, tuple] = {}
    for i, chain in enumerate(response):
        chain = sorted(chain, key=lambda m: m.order)
        first.add(chain[0].own)
        for m in chain:
            cid[m.own] = i  # a span in two chains: the last one (scorer/base/reader.py 73-82)
            if m.moved:
                by_match.setdefault(m.matched, m.own)
    covered: set[tuple] = set()
    for chain in key:
        earlier: set[int] = set()
        for i, k in enumerate(sorted(chain, key=lambda m: m.order)):
            s = k.own if k.own in cid else by_match.get(k.matched)
            c = cid.get(s) if s is not None else None
            if i and k.zero:
                if s is None or s in first:
                    fn += 1
                elif c not in earlier:
                    wl += 1
                else:
                    tp += 1
                if s is not None:
                    covered.add(s)
            if c is not None:
                earlier.add(c)
    for chain in response:
        for m in chain:
            if m.zero and m.own not in first and m.own not in covered:
                fp += 1
    return Counts(tp, tp + fn + wl, tp, tp + fp + wl)


def _chains(doc: Document, written: Document, drop_singletons: bool, heads: bool) -> list[list[Item]]:
    """The chains as corefud-scorer scores them: a mention repeated in a chain kept once
    (``scorer/corefud/reader.py`` 76), then, with ``drop_singletons``, one-mention chains removed (85)."""
    out = []
    for c, w in zip(doc.chains, written.chains):
        items: dict[tuple, Item] = {}
        for m, mw in zip(c.mentions, w.mentions):
            ws = mw.word_set
            own = (mw.ident, head_of(mw)) if heads else mw.ident
            items.setdefault(own, Item((min(ws), max(ws), len(ws)), own, m.ident, is_zero(mw), m.ident != mw.ident))
        if items and not (drop_singletons and len(items) == 1):
            out.append(list(items.values()))
    return out


def document_counts(key: Document, response: Document | None, written: Document | None,
                    drop_singletons: bool = False, match: str = "exact") -> Counts:
    """The zero score's counts of one document: ``key``; ``response`` after matching (its mentions carry
    the words of the key mentions they are matched to); ``written``: the same response as read (same
    chains, same mentions, in the same order)."""
    if response is None or written is None:
        written = response = Document(key.doc_id, tokens=key.tokens, chains=[])
    if not any(is_zero(m) for m in key.mentions) and not any(is_zero(m) for m in written.mentions):
        return Counts(0, 0, 0, 0)
    heads = match == "head"
    return anaphor_counts(_chains(key, key, drop_singletons, heads), _chains(response, written, drop_singletons, heads))
