"""The antecedent notions of ARCS (Tuggener 2014), as small functions over an ordered chain.

ARCS judges every mention of a chain against *one* notion of antecedent, chosen by the application
the coreference output is meant for (slides "The crucial question: What is a correct antecedent?"):

============  ==========================================  =============================================
scenario      antecedent of the mention at position ``i``  function
============  ==========================================  =============================================
1 immediate   the mention right before it, ``chain[i-1]``  :func:`immediate_antecedent`
2 inferred    the closest preceding *nominal* mention      :func:`closest_nominal` (all positions at once:
                                                           :func:`closest_nominal_indices`)
3 anchor      the first nominal mention of the chain       :func:`anchor_index`, :func:`anchor`
============  ==========================================  =============================================

A chain is a sequence of mentions in **start-token order** (metric-semantics §2, rule A2; built by
:func:`order_chain`), and "nominal" is decided per mention by :class:`NominalRules` (rule A3):

* ``category(m) = NOUN`` if ``m`` spans several tokens or its one token has a noun tag
  (NN, NNS, NNP, NNPS), otherwise the POS tag itself (PRP, PRP$, DT, WP, …);
* ``nominal(m) ⇔ category(m) = NOUN`` (names, common nouns, and *every* multi-token mention — even
  "his own"; a one-token "that"/DT is not nominal);
* ``pronoun(m) ⇔ m`` is one token tagged PRP or PRP$.

Without a POS column the mention type decides (spec recommendation 2.9.4): nominal ⇔ NAME or
NOMINAL, pronoun ⇔ PRONOUN. The functions only need a parallel sequence of nominal flags, so they
work on any chain representation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..model import Document, Mention

T = TypeVar("T")

ENGLISH_NOUN_POS = frozenset({"NN", "NNS", "NNP", "NNPS"})
ENGLISH_PRONOUN_POS = frozenset({"PRP", "PRP$"})
NOUN = "NOUN"
MISSING_TAGS = frozenset({"_", "-", ""})
"""POS cells that hold no tag (LitBank's "_"): such mentions are classified by their type."""


@dataclass(frozen=True, slots=True)
class MentionClass:
    """A3 classification of one mention: ARCS category, nominal and pronoun flags."""

    category: str
    nominal: bool
    pronoun: bool


@dataclass(frozen=True, slots=True)
class NominalRules:
    """Rule A3 with configurable tag sets (the released scorers carry a German alternative:
    ``NominalRules(frozenset({"NN", "NE"}), frozenset({"PPER", "PPOSAT", "PRELS"}))``).

    ``pos_column`` names the document column holding the tags (``doc.columns[pos_column]``).
    """

    noun_pos: frozenset[str] = ENGLISH_NOUN_POS
    pronoun_pos: frozenset[str] = ENGLISH_PRONOUN_POS
    pos_column: str = "pos"

    def from_tag(self, tag: str | None, one_token: bool) -> MentionClass:
        """Classify by the POS tag of a one-token mention (``one_token=False``: always NOUN)."""
        if not one_token or tag in self.noun_pos:
            return MentionClass(NOUN, True, False)
        tag = tag or "-"
        return MentionClass(tag, False, tag in self.pronoun_pos)

    def from_type(self, m: Mention) -> MentionClass:
        """Classify by the mention type (``features["mtype"]``) when there is no POS column."""
        if m.start != m.end:
            return MentionClass(NOUN, True, False)
        mtype = m.features.get("mtype", "")
        if mtype in ("NAME", "NOMINAL"):
            return MentionClass(NOUN, True, False)
        cat = m.features.get("pos_class", "")
        if cat in ("", "-", NOUN):
            cat = mtype or "-"
        return MentionClass(cat, False, mtype == "PRONOUN")

    def classify(self, m: Mention, pos: Sequence[str] | None) -> MentionClass:
        """A3 for ``m``, with ``pos`` the document's POS column (or ``None``: use the mention type)."""
        if pos:
            one = m.start == m.end
            tag = pos[m.start] if one else None
            if not one or tag not in MISSING_TAGS:  # "_" / "-" is a missing tag: the mention type decides
                return self.from_tag(tag, one)
        return self.from_type(m)

    def pos_of(self, *docs: Document | None) -> Sequence[str] | None:
        """The first of ``docs`` that has a POS column gives it (``None`` when none has)."""
        for d in docs:
            if d is not None:
                col = d.columns.get(self.pos_column)
                if col:
                    return col
        return None


ENGLISH = NominalRules()
GERMAN = NominalRules(frozenset({"NN", "NE"}), frozenset({"PPER", "PPOSAT", "PRELS"}))


def order_chain(mentions: Iterable[Mention], seen: set | Mapping | None = None) -> list[Mention]:
    """Mentions in start-token order (A2; of two spans starting together the enclosing one first,
    as its bracket opens first: ``(12|(3)``), each span once.

    ``seen``: spans already placed in another chain of the same document; they are left out, so a
    span repeated across chains stays in the first (the released scorers stop on such input).
    """
    out: dict[tuple[int, int], Mention] = {}
    for m in mentions:
        s = (m.start, m.end)
        if s not in out and (seen is None or s not in seen):
            out[s] = m
    return [out[s] for s in sorted(out, key=lambda s: (s[0], -s[1]))]


def immediate_antecedent(chain: Sequence[T], i: int) -> T | None:
    """Scenario 1: the mention immediately before position ``i`` (``None`` for the chain start)."""
    return chain[i - 1] if i > 0 else None


def closest_nominal(chain: Sequence[T], i: int, nominal: Sequence[bool]) -> T | None:
    """Scenario 2: the closest nominal mention before position ``i`` (``None`` when there is none)."""
    for j in range(i - 1, -1, -1):
        if nominal[j]:
            return chain[j]
    return None


def closest_nominal_indices(nominal: Sequence[bool]) -> list[int]:
    """For every position ``i``, the index of the closest nominal before ``i``, or -1 — all in one
    pass (``closest_nominal(chain, i, nominal) is chain[idx[i]]`` when ``idx[i] >= 0``)."""
    out: list[int] = []
    last = -1
    for j, nom in enumerate(nominal):
        out.append(last)
        if nom:
            last = j
    return out


def anchor_index(nominal: Sequence[bool]) -> int:
    """Scenario 3: index of the anchor, the first nominal mention of the chain (-1: no anchor)."""
    for j, nom in enumerate(nominal):
        if nom:
            return j
    return -1


def anchor(chain: Sequence[T], nominal: Sequence[bool]) -> T | None:
    """Scenario 3: the anchor mention — "the most representative mention of a coreference set
    (approximation: first nominal mention in the chain)" (slides, scenario 3)."""
    j = anchor_index(nominal)
    return chain[j] if j >= 0 else None
