"""ARCS — Application-Related Coreference Scores (Tuggener 2014), as outcome rows.

Each scenario judges mentions against one notion of antecedent (:mod:`.antecedents`) and turns a
key/response document pair into :class:`~.outcomes.LinkOutcome` rows with outcome TP / WL / FN / FP
and credit 1 for TP, 0 otherwise. For any group of rows (slides, "Our approach: Recall and
Precision"; "Other scores")::

    R = tp / (tp + wl + fn)      P = tp / (tp + wl + fp)      F = 2PR / (P + R)
    Acc = tp / (tp + wl)         (0/0 = 0 everywhere)

which is :class:`~.outcomes.OutcomeCounts` with credits TP 1, WL 0. tp, wl and fn rows describe the
**key** mention (its features, its category), fp rows the **response** mention (rule A4), so any
table is ``group_by(rows, FEATURE)`` and any drill-down ``select(rows, ...)``.

Scenarios (rules of ``shared/spec/metric-semantics.md`` §2, checked against the released scorers
``dtuggener/ARCS`` v1.2 on every vector of ``arcs_vectors.json``):

``immediate`` (scenario 1, I1–I5)
    A key mention is right when its response predecessor is its key predecessor.
``inferred`` (scenario 2, N1–N5)
    A key mention is right when the closest preceding nominal of its response chain is in its key
    chain ("the closest nominal antecedent of a mention in a response must be an antecedent of the
    mention in the key").
``anchor`` (scenario 3, X1–X6)
    Entity level: each key entity (chain of ≥ 2 mentions with a nominal) is *detected* when an
    unused response chain contains its anchor (first nominal mention). The rows are the Entity
    Mentions outcomes of detected entities — TP for K ∩ R (anchor included), FN for K \\ R, FP for
    R \\ K — and :class:`AnchorScores` holds Entity Detection (ED), Entity Mentions (EM) and
    ``Fφ = 2·F_ED·F_EM / (F_ED + F_EM)``, in total and by anchor NE type.
``anchor_link`` (optional view, not part of :data:`SCENARIOS`)
    The slides' toy reading of scenario 3 (spec 2.5): every key mention other than the anchor is TP
    when it is in the response chain holding the key anchor, else FN; the other mentions of that
    response chain are FP. Reproduces the slide's worked example; the released scorer does not
    compute it.

Where we deliberately differ from v1.2 (``ArcsOptions(compat=True, anchor_singletons=True)``,
``--arcs-compat``, restores v1.2 for the first and third point, and in scenario 3 also v1.2's
reading of the chains — nested mentions of one entity, spans written twice — so that its Entity
Detection and Entity Mentions counts are v1.2's: GUM vs xrenner ml ED tp 500, fn 218, fp 2684):

* **N6** — a nominal key mention without a nominal key antecedent that gets a nominal response
  antecedent is fp only (v1.2 counts it as wl *and* fp: twice in P's denominator).
* **X6** — 0/0 is 0 (v1.2 crashes with ZeroDivisionError in F_harm, e.g. when no entity is detected
  or no key chain has an anchor).
* **X4 / 2.9.3** — scenario 3 ignores response singletons (v1.2 counts every *written* singleton as
  a spurious entity and lets it match an anchor, so its scores depended on whether a system prints
  singletons).
* Untyped anchors are grouped under ``-`` (v1.2 prints ``*``); ED precision is 1 when there is no
  spurious entity also per NE type (v1.2 applies X5 to the total only and prints 0 per type; F is
  unaffected because R = 0 there).
* A span in two chains of one side stays in the first (v1.2 stops in pdb when it is a key mention,
  else counts it in both chains); nested mentions of one entity get their true spans (v1.2's parser
  closes the *first* open mention of a label); the NE type of a one-token mention is read only when
  an NE opens and closes on it (v1.2 can reuse a stale tag).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self

from ..model import Document, Mention, Span
from .antecedents import (
    MISSING_TAGS,
    ENGLISH,
    MentionClass,
    NominalRules,
    anchor_index,
    closest_nominal_indices,
)
from .counts import harmonic, ratio
from .outcomes import LinkOutcome
from .registry import ARCS_SCENARIOS as SCENARIOS  # the three scenarios, in the slides' order

ANCHOR_LINK = "anchor_link"
"""The optional toy view of scenario 3 (slides' worked example)."""
UNTYPED = "-"
"""NE class of an anchor without an NE tag (v1.2 prints ``*``)."""


@dataclass(frozen=True, slots=True)
class ArcsOptions:
    """Settings that change ARCS numbers.

    ``rules``: rule A3 (which POS tags are nouns / pronouns); ``compat``: reproduce v1.2's N6 double
    count in scenario 2; ``anchor_singletons``: let response singletons take part in scenario 3 as
    v1.2 does (a written singleton is a spurious entity, and can match an anchor).
    """

    rules: NominalRules = ENGLISH
    compat: bool = False
    anchor_singletons: bool = False


DEFAULT_OPTIONS = ArcsOptions()


# --------------------------------------------------------------------------------------------------
# per-side index, built once per document


@dataclass(slots=True)
class Side:
    """One side's chains in the order the released scorers use (sorted by their spans, each chain in
    start order, A2) with every mention's A3 class and closest-nominal index precomputed."""

    doc: Document | None
    chains: list[list[Mention]]
    spans: list[list[Span]]
    """``spans[c][i]`` = (start, end) of ``chains[c][i]``."""
    classes: list[list[MentionClass]]
    nominal: list[list[bool]]
    closest: list[list[int]]
    """``closest[c][i]``: index of the closest nominal before position i of chain c, or -1."""
    has_nominal: list[bool]
    where: dict[Span, tuple[int, int]]
    """span → (chain index, position in chain)."""
    other: Document | None = None
    """The other side's document (same tokens): its POS / NE columns stand in for missing ones."""
    _ne: list[str] | None | bool = False
    info: dict[int, tuple[str, str, str, dict[str, str]]] = field(default_factory=dict)
    """id(mention) → (text, class, type, features copy), filled as rows are built."""

    @property
    def ne_column(self) -> list[str] | None:
        """This side's NE column (else the other side's), looked up once."""
        if self._ne is False:
            self._ne = None
            for d in (self.doc, self.other):
                if d is not None and d.columns.get("ne"):
                    self._ne = d.columns["ne"]
                    break
        return self._ne  # type: ignore[return-value]


def _start_order(span: Span) -> tuple[int, int]:
    """A2 order: by start token; of two spans starting together the enclosing one first, as its
    bracket opens first (``(12|(3)``) — the order in which v1.2 collects them."""
    return (span[0], -span[1])


def v12_spans(mentions: list[Mention]) -> list[Span]:
    """The spans v1.2's reader gives one chain's mentions: a closing bracket ``5)`` ends the *first*
    mention of the label still open (in the order they opened), not the innermost, so nested
    mentions of one entity get crossed spans — ``(5 a (5 b 5) c 5)`` reads as (0, 2) and (1, 3).
    One-token mentions (``(5)``) are read as they are. Returned in the order of ``mentions``.

    >>> v12_spans([Mention(0, 3), Mention(1, 2), Mention(5, 5)])
    [(0, 2), (1, 3), (5, 5)]
    """
    out = [(m.start, m.end) for m in mentions]
    multi = sorted((i for i, m in enumerate(mentions) if m.start != m.end),
                   key=lambda i: _start_order(out[i]))  # v1.2's list: in the order the brackets open
    open_: list[int] = []
    closes = sorted((mentions[i].end, n) for n, i in enumerate(multi))
    k = 0
    for end, _ in closes:
        while k < len(multi) and mentions[multi[k]].start < end:
            open_.append(multi[k])
            k += 1
        i = open_.pop(0)
        out[i] = (mentions[i].start, end)
    return out


def index_side(doc: Document | None, rules: NominalRules = ENGLISH, other: Document | None = None,
               v12: bool = False) -> Side:
    """Index one document's chains. POS comes from ``doc`` (else from ``other``, which has the same
    tokens), else the mention types decide (A3 / recommendation 2.9.4). ``v12``: nested mentions of
    one entity get the spans v1.2's reader gives them (:func:`v12_spans`), and a span written twice
    stays twice — in one chain, or in both chains (looked up in the first)."""
    if doc is None:
        return Side(None, [], [], [], [], [], [], {}, other)
    pos = rules.pos_of(doc, other)
    # order_chain for every chain, sharing one "seen" set: a span stays in the first chain holding it
    where: dict[Span, tuple[int, int]] = {}
    ordered: list[tuple[Span, list[Span], list[Mention]]] = []
    for c in doc.chains:
        if v12:  # v1.2 keeps every span as written: again in its chain, and in every chain holding it
            pairs = sorted(zip(v12_spans(c.mentions), c.mentions), key=lambda t: _start_order(t[0]))
            if pairs:
                ordered.append((pairs[0][0], [p[0] for p in pairs], [p[1] for p in pairs]))
            continue
        spans: dict[Span, Mention] = {}
        for m in c.mentions:
            sp = (m.start, m.end)
            if sp not in where and sp not in spans:
                spans[sp] = m
        if spans:
            where.update(dict.fromkeys(spans, (0, 0)))
            keys = sorted(spans, key=_start_order)
            ordered.append((keys[0], keys, [spans[k] for k in keys]))
    # chains sorted as v1.2 sorts them (lists of mentions); first spans are unique, so they decide
    ordered.sort(key=lambda t: t[0])
    chains = [t[2] for t in ordered]
    spans_of = [t[1] for t in ordered]
    where = {}
    for ci, keys in enumerate(spans_of):
        for i, sp in enumerate(keys):
            if sp not in where:  # a span in two chains (v1.2 only): looked up in the first
                where[sp] = (ci, i)
    classes, nominal, closest, has_nominal = [], [], [], []
    noun = rules.from_tag(None, False)
    by_tag: dict[str, MentionClass] = {}  # A3 classes are immutable: one instance per tag
    for ms in chains:
        if pos:
            cl = []
            for m in ms:
                if m.start != m.end:
                    cl.append(noun)
                elif pos[m.start] in MISSING_TAGS:  # no tag (LitBank's "_"): the mention type decides
                    cl.append(rules.from_type(m))
                else:
                    tag = pos[m.start]
                    c = by_tag.get(tag)
                    if c is None:
                        c = by_tag[tag] = rules.from_tag(tag, True)
                    cl.append(c)
        else:
            cl = [rules.from_type(m) for m in ms]
        nom = [c.nominal for c in cl]
        classes.append(cl)
        nominal.append(nom)
        closest.append(closest_nominal_indices(nom))
        has_nominal.append(True in nom)
    return Side(doc, chains, spans_of, classes, nominal, closest, has_nominal, where, other)


@dataclass(slots=True)
class ArcsPair:
    """Both sides of one document pair, indexed once; pass it to :func:`arcs_rows` /
    :func:`anchor_scores` to score several scenarios without re-indexing."""

    doc_id: str
    key: Side
    response: Side
    options: ArcsOptions = DEFAULT_OPTIONS
    anchor_sides: tuple[Side, Side] | None = None
    """Scenario 3's sides when they differ (compat: as v1.2's reader reads the chains)."""


def index_pair(key: Document, response: Document | None, options: ArcsOptions | None = None,
               doc_id: str | None = None) -> ArcsPair:
    """Index a key document and its response (``None``: the response lacks the document)."""
    options = options or DEFAULT_OPTIONS
    pair = ArcsPair(doc_id or key.doc_id, index_side(key, options.rules, response),
                    index_side(response, options.rules, key), options)
    if options.compat:  # scenario 3 as v1.2 counts it (checked on GUM vs xrenner: tests/test_arcs.py)
        pair.anchor_sides = (index_side(key, options.rules, response, True),
                             index_side(response, options.rules, key, True))
    return pair


# --------------------------------------------------------------------------------------------------
# rows


def _describe(side: Side, m: Mention, mc: MentionClass) -> tuple[str, str, str, dict[str, str]]:
    """(text, class, type, features copy) of a referent: class = its A3 category; type = the
    lower-cased word for pronouns (A4 bins pronouns by word form), else the mention type."""
    f = m.features
    tokens = side.doc.tokens  # type: ignore[union-attr]
    s, e = m.start, m.end
    if s == e and (mc.pronoun or f.get("mtype") == "PRONOUN"):
        typ = tokens[s].lower()
    else:
        typ = f.get("mtype") or mc.category
    return " ".join(tokens[s : e + 1]), mc.category, typ, dict(f)


def _row(scenario: str, doc_id: str, side: Side, ci: int, i: int, outcome: str,
         key_ante: Span | None, resp_ante: Span | None) -> LinkOutcome:
    """The row of mention ``i`` of chain ``ci`` of ``side`` (the key for TP/WL/FN, the response for
    FP). The rows of one mention share one copy of its features (read-only by contract)."""
    m = side.chains[ci][i]
    info = side.info.get(id(m))
    if info is None:
        info = side.info[id(m)] = _describe(side, m, side.classes[ci][i])
    return LinkOutcome(scenario, doc_id, m.start, m.end, info[0], outcome, 1.0 if outcome == "TP" else 0.0,
                       key_ante, resp_ante, info[1], info[2], info[3])


def _immediate(p: ArcsPair) -> list[LinkOutcome]:
    """Scenario 1 (I1–I5): the antecedent is the preceding mention of the chain."""
    K, R, doc_id = p.key, p.response, p.doc_id
    rows: list[LinkOutcome] = []
    add = rows.append
    rwhere, rspans, kwhere = R.where, R.spans, K.where
    for ci, spans in enumerate(K.spans):
        if len(spans) < 2 or not K.has_nominal[ci]:
            continue  # I1: singletons and chains without a nominal are not evaluated
        cl, closest = K.classes[ci], K.closest[ci]
        for i in range(1, len(spans)):
            if closest[i] < 0 and cl[i].pronoun:
                continue  # I2: cataphoric pronoun, counted nowhere
            ante = spans[i - 1]
            w = rwhere.get(spans[i])
            if w is None or w[1] == 0:  # I3 (and A5 "split": starts a response chain only → fn)
                add(_row("immediate", doc_id, K, ci, i, "FN", ante, None))
                continue
            rante = rspans[w[0]][w[1] - 1]
            add(_row("immediate", doc_id, K, ci, i, "TP" if rante == ante else "WL", ante, rante))  # I4
    for ci, spans in enumerate(rspans):  # I5 (and A5 "merge": starts a key chain only → fp)
        for i in range(1, len(spans)):
            w = kwhere.get(spans[i])
            if w is None or w[1] == 0:
                add(_row("immediate", doc_id, R, ci, i, "FP", None, spans[i - 1]))
    return rows


def _inferred(p: ArcsPair) -> list[LinkOutcome]:
    """Scenario 2 (N1–N5): the antecedent is the closest preceding nominal mention."""
    K, R, doc_id, compat = p.key, p.response, p.doc_id, p.options.compat
    rows: list[LinkOutcome] = []
    add = rows.append
    rwhere, kwhere, rspans, rclosest, kclosest = R.where, K.where, R.spans, R.closest, K.closest
    for ci, spans in enumerate(K.spans):
        if len(spans) < 2 or not K.has_nominal[ci]:
            continue  # N1 = I1
        cl, closest = K.classes[ci], kclosest[ci]
        for i in range(1, len(spans)):
            k = closest[i]
            if k < 0 and cl[i].pronoun:
                continue  # N1 = I2
            kante = spans[k] if k >= 0 else None
            w = rwhere.get(spans[i])
            if w is None or w[1] == 0:
                add(_row("inferred", doc_id, K, ci, i, "FN", kante, None))  # N1 = I3
                continue
            r = rclosest[w[0]][w[1]]
            if r < 0:  # N2: the response gives no nominal antecedent
                if k >= 0:
                    add(_row("inferred", doc_id, K, ci, i, "FN", kante, None))
                continue
            if k < 0 and not compat:
                continue  # N6 (our choice): no nominal key antecedent → settled as fp by N4b only
            rante = rspans[w[0]][r]
            kw = kwhere.get(rante)
            ok = kw is not None and kw[0] == ci  # N3
            add(_row("inferred", doc_id, K, ci, i, "TP" if ok else "WL", kante, rante))
    for ci, spans in enumerate(rspans):  # N4
        if len(spans) < 2 or not R.has_nominal[ci]:
            continue  # pronoun-only response chains are ignored, even spurious ones
        closest = rclosest[ci]
        for i in range(1, len(spans)):
            r = closest[i]
            w = kwhere.get(spans[i])
            if w is None:  # N4c: not a key mention
                add(_row("inferred", doc_id, R, ci, i, "FP", None, spans[r] if r >= 0 else None))
            elif r >= 0 and kclosest[w[0]][w[1]] < 0:  # N4b / N5: infers a nominal where the key has none
                add(_row("inferred", doc_id, R, ci, i, "FP", None, spans[r]))
    return rows


def _anchor_span(side: Side, ci: int) -> Span | None:
    j = anchor_index(side.nominal[ci])
    return side.spans[ci][j] if j >= 0 else None


def _ne_type(cell: str) -> str:
    t = cell[1:].rstrip("*)").strip()
    return t or UNTYPED


def _ne_tag(side: Side, m: Mention) -> str:
    """X1: the type of an NE spanning exactly ``m`` in the NE column (single token: ``(TYPE)``;
    several: ``(TYPE`` on the first token, ``)`` on the last, no NE boundary between); without an NE
    column, the mention's ``ne`` feature."""
    col = side.ne_column
    if col is None:
        return m.features.get("ne", UNTYPED) or UNTYPED
    s, e = m.start, m.end
    first = col[s]
    if not first.startswith("("):
        return UNTYPED
    if s == e:
        return _ne_type(first) if first.endswith(")") else UNTYPED
    if first.endswith(")") or not col[e].endswith(")") or col[e].startswith("("):
        return UNTYPED
    for t in range(s + 1, e):
        c = col[t]
        if "(" in c or ")" in c:
            return UNTYPED
    return _ne_type(first)


def _entity_type(side: Side, ci: int, a: int) -> str:
    """X1: the anchor's NE tag; if untyped and the chain's mentions carry exactly one other tag, that."""
    chain = side.chains[ci]
    tag = _ne_tag(side, chain[a])
    if tag == UNTYPED:
        others = {_ne_tag(side, m) for m in chain}
        others.discard(UNTYPED)
        if len(others) == 1:
            tag = others.pop()
    return tag


def _anchor(p: ArcsPair, rows: list[LinkOutcome] | None) -> AnchorScores:
    """Scenario 3 (X1–X6): ED/EM counts; EM outcome rows appended to ``rows`` when given."""
    K, R = p.anchor_sides or (p.key, p.response)
    doc_id = p.doc_id
    scores = AnchorScores()
    keep = p.options.anchor_singletons
    alive = [keep or len(c) >= 2 for c in R.spans]  # X4 / 2.9.3: the pool of response entities
    rwhere, kwhere = R.where, K.where
    for ci, spans in enumerate(K.spans):  # key chains in sorted order: with merges the earlier wins
        if len(spans) < 2:
            continue  # X1: key singletons are ignored
        a = anchor_index(K.nominal[ci])
        if a < 0:  # X2: no anchor → not evaluated; the first response chain sharing a mention leaves the pool
            shared = [w[0] for sp in spans if (w := rwhere.get(sp)) is not None and alive[w[0]]]
            if shared:
                alive[min(shared)] = False
            continue
        anchor = spans[a]
        tag = _entity_type(K, ci, a)
        w = rwhere.get(anchor)
        if w is None or not alive[w[0]]:  # X3: entity not detected; EM counts nothing
            scores.ed.fn += 1
            scores.ed_by.setdefault(tag, EntityDetection()).fn += 1
            continue
        rj = w[0]
        alive[rj] = False
        scores.ed.tp += 1
        scores.ed_by.setdefault(tag, EntityDetection()).tp += 1
        ranchor = _anchor_span(R, rj)
        tp = fn = fp = 0
        for i, sp in enumerate(spans):
            mw = rwhere.get(sp)
            if mw is not None and mw[0] == rj:  # K ∩ R, the anchor included
                tp += 1
                if rows is not None:
                    rows.append(_row("anchor", doc_id, K, ci, i, "TP", anchor, ranchor))
            else:  # K \ R
                fn += 1
                if rows is not None:
                    rows.append(_row("anchor", doc_id, K, ci, i, "FN", anchor,
                                     _anchor_span(R, mw[0]) if mw is not None else None))
        for i, sp in enumerate(R.spans[rj]):  # R \ K
            kw = kwhere.get(sp)
            if kw is None or kw[0] != ci:
                fp += 1
                if rows is not None:
                    rows.append(_row("anchor", doc_id, R, rj, i, "FP",
                                     _anchor_span(K, kw[0]) if kw is not None else None, ranchor))
        for c in (scores.em, scores.em_by.setdefault(tag, EntityCounts())):
            c.tp += tp
            c.fn += fn
            c.fp += fp
    for rj, left in enumerate(alive):  # X4: spurious entities
        if not left:
            continue
        scores.ed.fp += 1
        a = anchor_index(R.nominal[rj])
        if len(R.spans[rj]) >= 2 and a >= 0:  # per NE type: only chains with a nominal, typed by it
            tag = _ne_tag(R, R.chains[rj][a])
            scores.ed_by.setdefault(tag, EntityDetection()).fp += 1
    return scores


def _anchor_link(p: ArcsPair) -> list[LinkOutcome]:
    """Optional view: the slides' toy reading of scenario 3 ("mentions need to link to the anchor").

    For each key chain (≥ 2 mentions) with an anchor: every other key mention is TP if it is in the
    response chain holding the anchor, else FN; every mention of that response chain outside the
    key chain is FP. Slide: key [NE-N-P], response [NE-N][P] → 1 tp, 1 fn, R .5, P 1.
    """
    K, R, doc_id = p.key, p.response, p.doc_id
    rows: list[LinkOutcome] = []
    for ci, spans in enumerate(K.spans):
        if len(spans) < 2:
            continue
        a = anchor_index(K.nominal[ci])
        if a < 0:
            continue
        anchor = spans[a]
        w = R.where.get(anchor)
        rj = w[0] if w is not None else -1
        for i, sp in enumerate(spans):
            if i == a:
                continue
            mw = R.where.get(sp)
            linked = rj >= 0 and mw is not None and mw[0] == rj
            rows.append(_row(ANCHOR_LINK, doc_id, K, ci, i, "TP" if linked else "FN", anchor,
                             anchor if linked else None))
        if rj >= 0:
            for i, sp in enumerate(R.spans[rj]):
                kw = K.where.get(sp)
                if kw is None or kw[0] != ci:
                    rows.append(_row(ANCHOR_LINK, doc_id, R, rj, i, "FP",
                                     _anchor_span(K, kw[0]) if kw is not None else None, anchor))
    return rows


# --------------------------------------------------------------------------------------------------
# scenario 3 entity-level counts


@dataclass(slots=True)
class EntityCounts:
    """tp / fn / fp of Entity Mentions (EM): ``R = tp/(tp+fn)``, ``P = tp/(tp+fp)``, 0/0 = 0."""

    tp: int = 0
    fn: int = 0
    fp: int = 0

    def __iadd__(self, o: EntityCounts) -> Self:
        self.tp += o.tp
        self.fn += o.fn
        self.fp += o.fp
        return self

    @property
    def recall(self) -> float:
        return ratio(self.tp, self.tp + self.fn)

    @property
    def precision(self) -> float:
        return ratio(self.tp, self.tp + self.fp)

    @property
    def f1(self) -> float:
        return harmonic(self.precision, self.recall)

    def as_dict(self) -> dict[str, float]:
        return {"tp": self.tp, "fn": self.fn, "fp": self.fp, "recall": self.recall,
                "precision": self.precision, "f1": self.f1}


@dataclass(slots=True)
class EntityDetection(EntityCounts):
    """Entity Detection (ED) counts: precision is 1 when there is no spurious entity (X5)."""

    @property
    def precision(self) -> float:
        return 1.0 if self.fp == 0 else ratio(self.tp, self.tp + self.fp)


def f_phi(ed: EntityCounts, em: EntityCounts) -> float:
    """``Fφ = 2·F_ED·F_EM / (F_ED + F_EM)`` (printed ``F_harm`` by v1.2; 0 when both are 0, X6)."""
    return harmonic(ed.f1, em.f1)


@dataclass(slots=True)
class AnchorScores:
    """Scenario 3: Entity Detection and Entity Mentions counts, in total and by anchor NE type.

    Entity Detection is not a group-by over outcome rows: it judges *entities* (is the key anchor
    in an unused response chain?), not referents, so it is counted here per document and summed;
    the Entity Mentions counts are also the ``anchor`` rows, which every table groups.

    Counts are micro sums: ``a += b`` adds another document's. ED: tp = key entities whose anchor
    is in an unused response chain, fn = the others, fp = response chains left over (per NE type
    only those with a nominal, typed by their first nominal — so per-type fp need not sum to the
    total). EM: over detected entities, tp = |K ∩ R|, fn = |K \\ R|, fp = |R \\ K|.
    """

    ed: EntityDetection = field(default_factory=EntityDetection)
    em: EntityCounts = field(default_factory=EntityCounts)
    ed_by: dict[str, EntityDetection] = field(default_factory=dict)
    em_by: dict[str, EntityCounts] = field(default_factory=dict)

    def __iadd__(self, o: AnchorScores) -> Self:
        self.ed += o.ed
        self.em += o.em
        for mine, theirs, make in ((self.ed_by, o.ed_by, EntityDetection), (self.em_by, o.em_by, EntityCounts)):
            for k, v in theirs.items():
                c = mine.get(k)
                if c is None:
                    c = mine[k] = make()
                c += v
        return self

    def __add__(self, o: AnchorScores) -> AnchorScores:
        out = AnchorScores()
        out += self
        out += o
        return out

    @property
    def f_phi(self) -> float:
        return f_phi(self.ed, self.em)

    def types(self) -> list[str]:
        """NE types in sorted order (as ``group_by`` sorts values; v1.2 lists the most frequent first)."""
        return sorted(set(self.ed_by) | set(self.em_by))

    def by_type(self, tag: str) -> tuple[EntityDetection, EntityCounts]:
        return self.ed_by.get(tag, EntityDetection()), self.em_by.get(tag, EntityCounts())

    def as_dict(self) -> dict[str, Any]:
        """``{"ed": {tp, fn, fp, recall, precision, f1}, "em": {…}, "f_phi": x, "by_ne": {TYPE: {"ed",
        "em", "f_phi"}}}``."""
        by = {}
        for t in self.types():
            ed, em = self.by_type(t)
            by[t] = {"ed": ed.as_dict(), "em": em.as_dict(), "f_phi": f_phi(ed, em)}
        return {"ed": self.ed.as_dict(), "em": self.em.as_dict(), "f_phi": self.f_phi, "by_ne": by}


# --------------------------------------------------------------------------------------------------
# public API


_BUILDERS = {"immediate": _immediate, "inferred": _inferred, ANCHOR_LINK: _anchor_link}


def arcs_rows(key: Document, response: Document | None, scenario: str, *, doc_id: str | None = None,
              options: ArcsOptions | None = None, pair: ArcsPair | None = None) -> list[LinkOutcome]:
    """Outcome rows of one document pair under one scenario (``immediate``, ``inferred``,
    ``anchor``, or the optional view ``anchor_link``).

    Mentions are matched by exact span. Pass ``pair=index_pair(...)`` to reuse the per-side indexes
    across scenarios (``key``/``response``/``options``/``doc_id`` are then taken from it).
    Call :func:`corefreport.scoring.features.annotated` copies of both documents to get row features.
    """
    if scenario not in _BUILDERS and scenario != "anchor":
        raise ValueError(f"unknown ARCS scenario {scenario!r}; choose one of {SCENARIOS + (ANCHOR_LINK,)}")
    p = pair or index_pair(key, response, options, doc_id)
    if scenario == "anchor":
        rows: list[LinkOutcome] = []
        _anchor(p, rows)
        return rows
    return _BUILDERS[scenario](p)


def anchor_scores(key: Document, response: Document | None, *, options: ArcsOptions | None = None,
                  pair: ArcsPair | None = None) -> AnchorScores:
    """Scenario 3's Entity Detection, Entity Mentions and Fφ of one document pair (sum with ``+=``;
    ``.as_dict()`` for JSON)."""
    return _anchor(pair or index_pair(key, response, options), None)


def arcs_document(key: Document, response: Document | None, *, doc_id: str | None = None,
                  options: ArcsOptions | None = None,
                  scenarios: tuple[str, ...] = SCENARIOS) -> tuple[list[LinkOutcome], AnchorScores]:
    """All requested scenarios' rows of one document pair (indexed once) and its scenario-3 counts.

    This is what a corpus evaluation calls per aligned document::

        rows, ed_em = arcs_document(ad.key_doc, ad.response_doc, doc_id=ad.doc_id)
        all_rows.extend(rows); anchor_total += ed_em
    """
    p = index_pair(key, response, options, doc_id)
    rows: list[LinkOutcome] = []
    scores: AnchorScores | None = None
    for s in scenarios:
        if s == "anchor":
            scores = _anchor(p, rows)
        else:
            rows.extend(arcs_rows(key, response, s, pair=p))
    return rows, scores if scores is not None else _anchor(p, None)

