"""Why a link got its outcome, in one sentence: the one explanation every view shows.

An outcome row (:class:`~corefreport.scoring.outcomes.LinkOutcome`) says *that* a referent is TP,
WT, WL, WTL, FN or FP under an analysis; :func:`why` says *what happened*, from the row's
antecedents and both sides' chains (``Evaluation.key_corpus``, ``response_corpus``), under the rules
of that analysis (``docs/outcome-rows.md``, ``scoring/arcs.py``, ``scoring/typed.py``):

* ARCS scenario 1 (``immediate``; Tuggener 2014) credits only the key's *immediate* predecessor, so
  a WL is one of: an **earlier mention of the same key entity** (not the immediate one), a mention
  of **another key entity**, a **key singleton**, or **no key mention**;
* scenario 2 (``inferred``) compares the closest preceding *nominal* of the response chain with
  the key entity: WL is never the same entity (that is TP);
* scenario 3 (``anchor``, and the slides' ``anchor_link`` view) is about the chain holding the
  key entity's anchor (its first nominal mention);
* the typed evaluation (Žitkus et al. 2023) links a referent to its chain's *dominant* mention and
  compares link types.

FN says what the response did with the mention (not marked, a singleton, first in its chain, …), FP
what the key did with it (no mention, a singleton, first of its entity, the dominant one, …).
Mentions are named by their words and their first token (``“them” @285``); an entity by its first
mention and its size. The ``--links`` rows (``why`` field), the browser's detail, the two-system
panes and the report's error examples all call :func:`why`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..scoring.outcomes import LinkOutcome
from ..scoring.result import Evaluation
from .context import chain_name, document_of, span_text

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Chains:
    """One side's chains of one document: each chain's distinct spans in document order (by start,
    the enclosing span first, as ARCS orders them), and the chains holding each span."""

    spans: tuple[tuple[Span, ...], ...]
    of: dict[Span, tuple[int, ...]]

    @classmethod
    def of_document(cls, doc) -> Chains:
        spans: list[tuple[Span, ...]] = []
        of: dict[Span, list[int]] = {}
        for c in doc.chains:
            ordered = tuple(sorted({(m.start, m.end) for m in c.mentions}, key=lambda s: (s[0], -s[1])))
            if not ordered:
                continue
            for s in ordered:
                of.setdefault(s, []).append(len(spans))
            spans.append(ordered)
        return cls(tuple(spans), {s: tuple(v) for s, v in of.items()})

    def chain(self, span: Span | None, along: Span | None = None) -> tuple[Span, ...] | None:
        """The chain holding ``span`` (the one also holding ``along`` when there is one; else the
        largest), or None when ``span`` is no mention of this side."""
        ids = self.of.get(span) if span is not None else None
        if not ids:
            return None
        if along is not None:
            for i in ids:
                if along in self.spans[i]:
                    return self.spans[i]
        return max((self.spans[i] for i in ids), key=len)


_CHAINS: dict[int, tuple[object, Chains]] = {}


def chains_of(ev: Evaluation, doc_id: str, side: str) -> Chains | None:
    """The :class:`Chains` of a document's ``key`` or ``response`` side (None when not carried),
    indexed once per document object."""
    doc = document_of(ev, doc_id, side)
    if doc is None:
        return None
    hit = _CHAINS.get(id(doc))
    if hit is None or hit[0] is not doc:
        if len(_CHAINS) > 256:
            _CHAINS.clear()
        hit = _CHAINS[id(doc)] = (doc, Chains.of_document(doc))
    return hit[1]


# --------------------------------------------------------------------------------------------------
# what a mention is on one side


def mention(ev: Evaluation, doc_id: str, span: Span | None, side: str = "key") -> str:
    """``“words” @start`` (``—`` for none)."""
    if span is None:
        return "—"
    return f"“{span_text(ev, doc_id, span, side)}” @{span[0]}"


def entity(ev: Evaluation, doc_id: str, chain: tuple[Span, ...]) -> str:
    """A key entity named by its first mention and its size: ``“our librarians” @272, 3 mentions``;
    a BookCoref character by its name first (``Mr. Darcy “Mr. Darcy” @11, 4 mentions``)."""
    name = chain_name(ev, doc_id, chain[0], "key")
    return f"{name + ' ' if name else ''}{mention(ev, doc_id, chain[0])}, {len(chain)} mentions"


def relation(ev: Evaluation, row: LinkOutcome, span: Span) -> str:
    """Where the key puts ``span`` relative to the referent: ``same`` (a mention of the referent's
    key entity), ``other`` (of another key entity of two or more mentions), ``singleton`` (a key
    mention alone in its entity), ``none`` (no key mention), ``unknown`` (the key is not carried)."""
    key = chains_of(ev, row.doc_id, "key")
    if key is None:
        return "unknown"
    c = key.chain(span, along=row.span)
    if c is None:
        return "none"
    if row.span in c:
        return "same"
    return "singleton" if len(c) == 1 else "other"


def _not_its_entity(ev: Evaluation, row: LinkOutcome, span: Span) -> str:
    """``span`` (not of the referent's key entity) in words, as a clause after it: of another key
    entity (named), a key singleton, no key mention."""
    rel = relation(ev, row, span)
    if rel == "other":
        c = chains_of(ev, row.doc_id, "key").chain(span)  # type: ignore[union-attr]
        return f"which belongs to another key entity ({entity(ev, row.doc_id, c)})"
    if rel == "singleton":
        return "which the key leaves a singleton (an entity of its own)"
    if rel == "none":
        return "which is no key mention"
    return "which belongs to another entity"


def response_status(ev: Evaluation, row: LinkOutcome) -> str:
    """What the response did with the key referent, when it gave it no antecedent: it does not
    mark it, leaves it a singleton, or starts a chain with it."""
    resp = chains_of(ev, row.doc_id, "response")
    if resp is None:
        return "the response gives it no antecedent"
    c = resp.chain(row.span)
    if c is None:
        return "the response does not mark this mention, so it has no antecedent"
    if len(c) == 1:
        return "the response marks it as a singleton, so it has no antecedent"
    if c[0] == row.span:
        return (f"the response starts a chain with it (next {mention(ev, row.doc_id, c[1], 'response')}), "
                "so it has no antecedent")
    return "the response gives it no antecedent"


def key_status(ev: Evaluation, row: LinkOutcome) -> str:
    """What the key did with a response referent that it gives no antecedent: no such mention, a
    singleton, or the first mention of its entity."""
    key = chains_of(ev, row.doc_id, "key")
    if key is None:
        return "the key gives this referent no antecedent here"
    c = key.chain(row.span)
    if c is None:
        return "it is no key mention"
    if len(c) == 1:
        return "the key leaves it a singleton (no antecedent)"
    if c[0] == row.span:
        return (f"it is the first mention of its key entity ({len(c)} mentions, next "
                f"{mention(ev, row.doc_id, c[1])}), so it has no antecedent")
    return "the key gives it no antecedent here"


# --------------------------------------------------------------------------------------------------
# the explanation of each analysis


def outcome_key(row: LinkOutcome) -> tuple[str, str, int, int, str]:
    """How ``compare`` keys a referent across systems: analysis, then
    :func:`~corefreport.scoring.compare.referent_key` (document, span and side)."""
    from ..scoring.compare import referent_key  # numpy: not imported with the single-system views

    return (row.analysis,) + referent_key(row)


def outcome_index(ev: Evaluation) -> dict[tuple[str, str, int, int, str], LinkOutcome]:
    """Every outcome row of ``ev`` by :func:`outcome_key` (the first row of a key, as ``compare``)."""
    from ..scoring.compare import referent_key

    index: dict[tuple[str, str, int, int, str], LinkOutcome] = {}
    for r in ev.rows:
        index.setdefault((r.analysis,) + referent_key(r), r)
    return index


def why(ev: Evaluation, row: LinkOutcome) -> str:
    """The row's outcome in words (:func:`outcome_why`), then the span the response actually
    wrote when its mention was matched by head or partially (``--match``)."""
    return outcome_why(ev, row) + row.match_note


def outcome_why(ev: Evaluation, row: LinkOutcome) -> str:
    """One sentence saying what happened to the row's referent under its analysis."""
    explain = _BY_ANALYSIS.get(row.analysis, _generic)
    return explain(ev, row)


def _immediate(ev: Evaluation, row: LinkOutcome) -> str:
    """ARCS scenario 1 (I1–I5): the antecedent is the immediate predecessor in the chain."""
    d, k, r = row.doc_id, row.key_antecedent, row.response_antecedent
    if row.outcome == "TP":
        return f"the response links it to {mention(ev, d, r, 'response')}, its immediate predecessor in the key too"
    if row.outcome == "WL" and r is not None:
        rel = relation(ev, row, r)
        if rel == "same":
            chain = chains_of(ev, d, "key").chain(r, along=row.span)  # type: ignore[union-attr]
            before = k is not None and chain is not None and k in chain and chain.index(r) < chain.index(k)
            which = "an earlier" if before else "another"
            return (f"the response links it to {which} mention of the same key entity, {mention(ev, d, r)}, "
                    f"not to the immediate one, {mention(ev, d, k)} (scenario 1 credits the immediate "
                    "predecessor only)")
        return (f"the response links it to {mention(ev, d, r, 'response')}, {_not_its_entity(ev, row, r)}; "
                f"its own key entity's immediate predecessor is {mention(ev, d, k)}")
    if row.outcome == "FN":
        return f"the key links it to its immediate predecessor {mention(ev, d, k)}; {response_status(ev, row)}"
    if row.outcome == "FP":
        return f"the response links it to {mention(ev, d, r, 'response')}, but {key_status(ev, row)}"
    return _generic(ev, row)


def _inferred(ev: Evaluation, row: LinkOutcome) -> str:
    """ARCS scenario 2 (N1–N5): the antecedent is the closest preceding nominal mention."""
    d, k, r = row.doc_id, row.key_antecedent, row.response_antecedent
    key_nominal = (f"the key's closest nominal antecedent is {mention(ev, d, k)}" if k is not None
                   else "the key gives it no nominal antecedent")
    if row.outcome == "TP":
        also = "" if k is None or k == r else f" ({key_nominal}; any nominal of the entity counts)"
        return (f"the response's closest nominal antecedent, {mention(ev, d, r, 'response')}, is a mention of its "
                f"key entity{also}")
    if row.outcome == "WL" and r is not None:
        if relation(ev, row, r) == "same":  # not WL by N3; said as it is should the rows say so
            return f"the response's closest nominal antecedent is {mention(ev, d, r, 'response')}; {key_nominal}"
        return (f"the response's closest nominal antecedent is {mention(ev, d, r, 'response')}, "
                f"{_not_its_entity(ev, row, r)}; {key_nominal}"
                + ("" if k is not None else " (counted WL and FP as v1.2 does: --arcs-compat)"))
    if row.outcome == "FN":
        head = (f"the key links it to its closest nominal antecedent {mention(ev, d, k)}" if k is not None
                else "the key links it (to no nominal before it)")
        resp = chains_of(ev, d, "response")
        c = resp.chain(row.span) if resp is not None else None
        if c is not None and len(c) > 1 and c[0] != row.span:  # N2: in a response chain, no nominal before it
            prev = c[c.index(row.span) - 1]
            return (f"{head}; the response links it to {mention(ev, d, prev, 'response')} but no nominal precedes "
                    "it in its response chain: no antecedent for scenario 2")
        return f"{head}; {response_status(ev, row)}"
    if row.outcome == "FP":
        linked = (f"the response links it to the nominal {mention(ev, d, r, 'response')}" if r is not None
                  else "the response puts it in a chain with no nominal before it")
        key = chains_of(ev, d, "key")
        c = key.chain(row.span) if key is not None else None
        if key is None:
            return f"{linked}; the key gives this referent no nominal antecedent"
        if c is None:
            return f"{linked}, but it is no key mention"
        if len(c) == 1:
            return f"{linked}, but the key leaves it a singleton (no nominal antecedent)"
        if c[0] == row.span:
            return (f"{linked}, but it is the first mention of its key entity ({len(c)} mentions, next "
                    f"{mention(ev, d, c[1])}): no nominal antecedent in the key")
        return (f"{linked}, but no nominal precedes it in its key entity ({entity(ev, d, c)}): "
                "no nominal antecedent in the key")
    return _generic(ev, row)


def _placed(ev: Evaluation, row: LinkOutcome, side: str) -> str:
    """Where ``side`` puts the referent, for scenario 3: not a mention, a singleton, another chain."""
    chains = chains_of(ev, row.doc_id, side)
    if chains is None:
        return f"the {side} puts it elsewhere"
    c = chains.chain(row.span)
    other = row.response_antecedent if side == "response" else row.key_antecedent
    if c is None:
        return "the response does not mark it" if side == "response" else "it is no key mention"
    if len(c) == 1:
        return f"the {side} leaves it a singleton"
    anchor = (f"anchored at {mention(ev, row.doc_id, other, side)}" if other is not None
              else "with no nominal anchor")
    return f"the {side} puts it in another {'chain' if side == 'response' else 'entity'} ({anchor})"


def _anchor(ev: Evaluation, row: LinkOutcome) -> str:
    """ARCS scenario 3 (X1–X5): Entity Mentions of the key entities whose anchor (first nominal
    mention) the response detects; the antecedents are the key's and the response's anchors."""
    d, k, r = row.doc_id, row.key_antecedent, row.response_antecedent
    if row.outcome == "TP":
        if row.span == k:
            return "it is the anchor of its key entity, and the response's chain holding that anchor is detected"
        return f"the response puts it in the chain holding its key entity's anchor {mention(ev, d, k)}"
    if row.outcome == "FN":
        return (f"its key entity (anchor {mention(ev, d, k)}) is detected, but "
                f"{_placed(ev, row, 'response')} rather than in the chain holding that anchor")
    if row.outcome == "FP":
        return (f"the response puts it in the chain holding a key anchor (the response's anchor "
                f"{mention(ev, d, r, 'response')}), but {_placed(ev, row, 'key')}")
    return _generic(ev, row)


def _anchor_link(ev: Evaluation, row: LinkOutcome) -> str:
    """The slides' toy reading of scenario 3: a key mention is right when it is in the response
    chain holding its entity's anchor."""
    d, k, r = row.doc_id, row.key_antecedent, row.response_antecedent
    if row.outcome == "TP":
        return f"the response puts it in the chain holding its entity's anchor {mention(ev, d, k)}"
    if row.outcome == "FN":
        return (f"the response does not put it in the chain holding its entity's anchor {mention(ev, d, k)}: "
                f"{_placed(ev, row, 'response')}")
    if row.outcome == "FP":
        return (f"the response puts it in the chain holding the key anchor {mention(ev, d, r, 'response')}, "
                f"but {_placed(ev, row, 'key')}")
    return _generic(ev, row)


def _typed(ev: Evaluation, row: LinkOutcome) -> str:
    """Žitkus et al. (2023): every non-dominant mention is linked to its chain's dominant mention with
    a type; TP dominant and type right, WT type wrong, WL dominant wrong, WTL both wrong."""
    d, k, r = row.doc_id, row.key_antecedent, row.response_antecedent
    rtype = row.features.get("response_type")
    wrong_type = f"the type “{rtype}” where the key has “{row.type}”"
    if row.outcome == "TP":
        return f"the response links it to the key's dominant mention {mention(ev, d, k)}, with the key's type “{row.type}”"
    if row.outcome == "WT":
        return f"the response links it to the key's dominant mention {mention(ev, d, k)}, but with {wrong_type}"
    if row.outcome in ("WL", "WTL") and r is not None:
        if relation(ev, row, r) == "same":
            dom = (f"the response's dominant mention for it is {mention(ev, d, r, 'response')}, another mention "
                   f"of its own key entity; the key's is {mention(ev, d, k)}")
        else:
            dom = (f"the response's dominant mention for it is {mention(ev, d, r, 'response')}, "
                   f"{_not_its_entity(ev, row, r)}; the key's is {mention(ev, d, k)}")
        return dom + (f"; its type “{row.type}” is right" if row.outcome == "WL" else f"; and with {wrong_type}")
    strict = row.features.get("wrong_entity") == "1"
    if row.outcome == "FN":
        head = f"the key links it to the dominant mention {mention(ev, d, k)}"
        if strict:
            return (f"{head}; the response links it to a dominant mention of another key entity: "
                    "no antecedent of its own, counted FN and FP (--strict-dominant)")
        resp = chains_of(ev, d, "response")
        c = resp.chain(row.span) if resp is not None else None
        if c is not None and len(c) > 1:
            return f"{head}; the response makes it the dominant mention of its chain, so it has no antecedent"
        return f"{head}; {response_status(ev, row)}"
    if row.outcome == "FP":
        head = f"the response links it to the dominant mention {mention(ev, d, r, 'response')} (type “{rtype or row.type}”)"
        if strict:
            return f"{head}, which belongs to another key entity: counted FN and FP (--strict-dominant)"
        key = chains_of(ev, d, "key")
        c = key.chain(row.span) if key is not None else None
        if key is None:
            return f"{head}; the key gives this referent no antecedent"
        if c is None:
            return f"{head}, but it is no key mention"
        if len(c) == 1:
            return f"{head}, but the key leaves it a singleton (no antecedent)"
        return (f"{head}, but it is the key's dominant mention of its entity ({entity(ev, d, c)}): the key links "
                "the others to it, not it to one")
    return _generic(ev, row)


def _generic(ev: Evaluation, row: LinkOutcome) -> str:
    """Any other analysis: which antecedent each side gave."""
    key = mention(ev, row.doc_id, row.key_antecedent)
    resp = mention(ev, row.doc_id, row.response_antecedent, "response")
    if row.outcome == "FN":
        return f"the key links it to {key}; the response gives it no antecedent"
    if row.outcome == "FP":
        return f"the response links it to {resp}; the key gives this referent no antecedent here"
    return f"{row.outcome}: the key's antecedent {key}, the response's {resp}"


_BY_ANALYSIS = {"immediate": _immediate, "inferred": _inferred, "anchor": _anchor, "anchor_link": _anchor_link,
                "typed": _typed}
