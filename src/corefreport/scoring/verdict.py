"""Why a score is near 0: a systematic cause, looked for when most response mentions match no key
mention, named with its fix in one line (the first of ``Evaluation.warnings``).

A response whose every mention is one word off (an off-by-one in a system's writer), whose ends
are all exclusive, whose mentions all carry or lose the punctuation at their edges, or whose words
are another document's scores near 0 without a word why (CoNLL F1 0.27 on GUM against xrenner ml
shifted by one word). Such users ask "why is my score 0?" on the trackers of current systems
(SapienzaNLP/xcore#3, maverick-coref#17, universal-anaphora-scorer#2). Per document, in the run's
:class:`~.part.Part` (so it adds up over documents and processes), :func:`evidence` counts, for the
response mentions that match no key mention:

* how many would match one after a constant shift ``(ds, de)`` of their start and end (each from
  −:data:`REACH` to +:data:`REACH` words; 0, 0 excepted);
* how many would match one with the punctuation tokens at their edges left out, or with the
  punctuation next to them taken in;
* how many words of the response differ from the key's at the same position (a response written
  for another document or split: same length, other words).

It is computed only for documents where most response mentions match no key mention (elsewhere
nothing is systematically wrong), so a sound run pays one comparison per document.

:func:`verdict` then gives one line when most of the corpus's response mentions match no key
mention (mention precision under 50 %) and one cause explains at least half of the unmatched ones
(and 5 or more), in this order: other words (at least half the positions differ), punctuation at
the edges (when it explains as many as the best shift: the narrower cause), a constant shift.
``None`` otherwise: a poor system is not a broken file.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

Span = tuple[int, int]

REACH = 3
"""The largest shift of a start or an end looked at, in words."""
SHIFTS = tuple((ds, de) for ds in range(-REACH, REACH + 1) for de in range(-REACH, REACH + 1) if (ds, de) != (0, 0))
PREFIX = "verdict: "
"""How a verdict begins among the warnings (the command line prints it even under ``-q``: it is the result)."""
MINIMUM = 5
"""Fewer unmatched mentions explained than this is no evidence."""


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the documents whose response mentions mostly match no key mention say (module
    docstring); ``+`` adds two runs of documents."""

    documents: int = 0
    """Documents examined (most of their response mentions match no key mention)."""
    unmatched: int = 0
    """Of those, the ones that match no key mention."""
    shifts: tuple[tuple[Span, int], ...] = ()
    """((ds, de), unmatched mentions that match a key mention once shifted by ds, de), sorted."""
    without_punct: int = 0
    """Unmatched mentions matching a key mention with the punctuation at their edges left out."""
    with_punct: int = 0
    """Unmatched mentions matching a key mention with the punctuation next to them taken in."""
    words: int = 0
    """Word positions compared (documents whose key and response have as many words)."""
    words_differ: int = 0

    def __add__(self, o: Evidence) -> Evidence:
        if not o.documents:
            return self
        if not self.documents:
            return o
        shifts = dict(self.shifts)
        for k, v in o.shifts:
            shifts[k] = shifts.get(k, 0) + v
        return Evidence(self.documents + o.documents, self.unmatched + o.unmatched,
                        tuple(sorted(shifts.items())), self.without_punct + o.without_punct,
                        self.with_punct + o.with_punct, self.words + o.words, self.words_differ + o.words_differ)


def is_punct(token: str) -> bool:
    """A token of punctuation characters only (Unicode category P*).

    >>> is_punct(","), is_punct("''"), is_punct("U.S."), is_punct("")
    (True, True, False, False)
    """
    return bool(token) and all(unicodedata.category(c).startswith("P") for c in token)


def _spans(chains) -> set[Span]:
    return {s for c in chains for s in c if len(s) == 2}


def evidence(key_chains, response_chains, key_tokens: list[str], response_tokens: list[str]) -> Evidence:
    """The :class:`Evidence` of one document: its chains as the metrics score them (lists of
    spans; a discontinuous mention's identity, longer than a span, is left out) and both sides'
    words. Empty when most of its response mentions match key mentions."""
    key, resp = _spans(key_chains), _spans(response_chains)
    unmatched = [s for s in resp if s not in key]
    if not resp or 2 * len(unmatched) <= len(resp):
        return Evidence()
    shifts = []
    for ds, de in SHIFTS:
        n = sum(1 for s, e in unmatched if (s + ds, e + de) in key)
        if n:
            shifts.append(((ds, de), n))
    tokens = key_tokens or response_tokens
    without = with_ = 0
    if tokens:
        punct = [is_punct(t) for t in tokens]
        last = len(tokens) - 1
        for s, e in unmatched:
            if not 0 <= s <= e <= last:
                continue
            a, b = s, e  # the punctuation at its edges left out (some or all of it, at either edge)
            while a < e and punct[a]:
                a += 1
            while b > s and punct[b]:
                b -= 1
            if any((x, y) in key for x in range(s, a + 1) for y in range(b, e + 1) if x <= y and (x, y) != (s, e)):
                without += 1
                continue
            a, b = s, e  # the punctuation next to it taken in
            while a > 0 and punct[a - 1]:
                a -= 1
            while b < last and punct[b + 1]:
                b += 1
            if any((x, y) in key for x in range(a, s + 1) for y in range(e, b + 1) if (x, y) != (s, e)):
                with_ += 1
    words = differ = 0
    if key_tokens and response_tokens and len(key_tokens) == len(response_tokens):
        pairs = [(a, b) for a, b in zip(key_tokens, response_tokens) if a and b]
        words, differ = len(pairs), sum(1 for a, b in pairs if a != b)
    return Evidence(1, len(unmatched), tuple(shifts), without, with_, words, differ)


def _pct(n: float, d: float) -> str:
    return f"{100 * n / d:.0f} %"


def _words(n: int) -> str:
    return f"{abs(n)} word" + ("s" if abs(n) != 1 else "")


def _shift_text(ds: int, de: int) -> tuple[str, str]:
    """(what the response's offsets are, the fix) for a response whose mentions match once shifted
    by (ds, de): its starts are ``-ds`` and its ends ``-de`` words from the key's.

    >>> _shift_text(-1, -1)[0], _shift_text(0, -1)[0]
    ("the response's mentions sit 1 word after the key's", "the response's ends are 1 word after the key's")
    """
    rs, re_ = -ds, -de

    def side(d: int) -> str:
        return f"{_words(d)} {'after' if d > 0 else 'before'} the key's"
    if rs == re_:
        fix = (f"an off-by-{rs} in the system's writer ({'1-based token numbers?' if rs == 1 else 'shifted tokens?'}): "
               f"subtract {rs} from every start and end" if rs > 0 else
               f"an off-by-{-rs} in the system's writer: add {-rs} to every start and end")
        return f"the response's mentions sit {side(rs)}", fix
    if rs == 0:
        fix = ("exclusive end offsets? corefreport reads inclusive ends (CoNLL-2012, e2e-coref JSON lines): "
               "subtract 1 from every end" if re_ == 1 else f"move every end by {-re_:+d}")
        return f"the response's ends are {side(re_)}", fix
    if re_ == 0:
        return f"the response's starts are {side(rs)}", f"move every start by {-rs:+d}"
    return (f"the response's starts are {side(rs)} and its ends {side(re_)}",
            f"move every start by {-rs:+d} and every end by {-re_:+d}")


def verdict(ev: Evidence, matched: float, response_mentions: float) -> str | None:
    """One line naming the systematic cause of a near-0 score and its fix, or ``None`` (module
    docstring); ``matched``, ``response_mentions``: the run's mention identification numerator
    and denominator of precision."""
    if not response_mentions or 2 * matched >= response_mentions or not ev.documents or not ev.unmatched:
        return None
    n, u = int(response_mentions), ev.unmatched
    head = f"{PREFIX}only {_pct(matched, response_mentions)} of the response's {n} mentions match a key mention"
    if ev.words and 2 * ev.words_differ >= ev.words:
        return (head + f", and its words are not the key's: {ev.words_differ} of {ev.words} positions differ "
                f"({_pct(ev.words_differ, ev.words)}) in {ev.documents} document(s) — the response was written for "
                "another document or split: pair each response document with its own key document")
    (ds, de), c = max(ev.shifts, key=lambda kv: (kv[1], -abs(kv[0][0]) - abs(kv[0][1]))) if ev.shifts else ((0, 0), 0)
    for count, how, fix in (
            (ev.without_punct, "with the punctuation at their edges left out",
             "the response takes in punctuation the key leaves out of its mentions (or tokenizes it apart): "
             "leave it out"),
            (ev.with_punct, "with the punctuation next to them taken in",
             "the key's mentions include the punctuation at their edges and the response's leave it out: "
             "take it in")):
        if count >= MINIMUM and 2 * count >= u and count >= c:  # punctuation is the narrower cause of a shift
            return head + f", but {count} of the other {u} ({_pct(count, u)}) do {how}: {fix}"
    if c >= MINIMUM and 2 * c >= u:
        what, fix = _shift_text(ds, de)
        return (head + f", but {c} of the other {u} ({_pct(c, u)}) do once their start is moved by {ds:+d} "
                f"and their end by {de:+d} word(s): {what} — {fix}")
    return None
