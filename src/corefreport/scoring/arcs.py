"""ARCS — Application-Related Coreference Scores (Tuggener 2014; released scorers v1.2).

Three application scenarios, each judged per mention against one notion of antecedent:

1. ``immediate``: the antecedent is the mention immediately before in the chain;
2. ``inferred``: the closest preceding *nominal* mention (what a pronoun "means");
3. ``anchor``: the first nominal mention of the entity (entity-level: Entity Detection and Entity
   Mentions, and their harmonic mean Fφ).

Counts (rule A4): ``R = tp/(tp+wl+fn)``, ``P = tp/(tp+wl+fp)``, ``F`` harmonic,
``accuracy = tp/(tp+wl)``; tp, wl, fn are binned by the key mention's category, fp by the response
mention's. The rules below cite ``shared/spec/metric-semantics.md`` §2 (A*, I*, N*, X*), checked
against the released scorers. Mentions are matched by exact span; chains are ordered by start token
(A2). Nominal and pronoun follow A3 when the input has POS tags — nominal ⇔ multi-token or a
one-token NN/NNS/NNP/NNPS; pronoun ⇔ one token tagged PRP or PRP$ — and the mention type
(NAME/NOMINAL vs PRONOUN) otherwise (recommendation 2.9.4).

Deliberate differences from v1.2 (``compat=True`` restores them):

* N6: a nominal key mention with no nominal key antecedent that gets a nominal response antecedent is
  counted only as fp in scenario 2 (v1.2 counts it as wl *and* fp).
* X6: 0/0 is 0 (v1.2 crashes with ZeroDivisionError).
* Scenario 3 ignores response singletons (recommendation 2.9.3; v1.2 counts every written singleton
  as a spurious entity, so the score depended on whether a system prints singletons). Pass
  ``anchor_singletons=True`` for v1.2's behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..io.features import ne_spans
from ..model import Document, Mention, Span
from .counts import harmonic, ratio
from .outcomes import LinkOutcome

NOUN_POS = frozenset({"NN", "NNS", "NNP", "NNPS"})
PRONOUN_POS = frozenset({"PRP", "PRP$"})


@dataclass(slots=True)
class _Side:
    """One side's chains in start order, with span → (chain, position) and span → mention."""

    chains: list[list[Mention]]
    where: dict[Span, tuple[int, int]]
    nominal: dict[Span, bool]
    pronoun: dict[Span, bool]


def _side(doc: Document | None, drop_singletons: bool = False) -> _Side:
    chains: list[list[Mention]] = []
    where: dict[Span, tuple[int, int]] = {}
    nominal: dict[Span, bool] = {}
    pronoun: dict[Span, bool] = {}
    if doc is None:
        return _Side(chains, where, nominal, pronoun)
    pos = doc.columns.get("pos")
    for c in doc.chains:
        ms = sorted({m.span: m for m in c.mentions}.values(), key=lambda m: (m.start, m.end))
        ms = [m for m in ms if m.span not in where]  # a span repeated in another chain stays in the first
        if not ms or (drop_singletons and len(ms) == 1):
            continue
        ci = len(chains)
        chains.append(ms)
        for k, m in enumerate(ms):
            where[m.span] = (ci, k)
            if pos:
                tag = pos[m.start] if m.start == m.end else ""
                nominal[m.span] = m.start != m.end or tag in NOUN_POS
                pronoun[m.span] = m.start == m.end and tag in PRONOUN_POS
            else:
                mt = m.features.get("mtype", "NOMINAL")
                nominal[m.span] = mt != "PRONOUN"
                pronoun[m.span] = mt == "PRONOUN"
    return _Side(chains, where, nominal, pronoun)


def _row(scenario: str, doc_id: str, doc: Document, m: Mention, outcome: str, key_ante: Mention | None,
         resp_ante: Mention | None) -> LinkOutcome:
    f = m.features
    cls = f.get("pos_class", "-")
    typ = f.get("pronoun", "-") if f.get("mtype") == "PRONOUN" else f.get("mtype", "-")
    return LinkOutcome(scenario, doc_id, m.start, m.end, doc.text(m.start, m.end), outcome,
                       1.0 if outcome == "TP" else 0.0, key_ante.span if key_ante else None,
                       resp_ante.span if resp_ante else None, cls, typ, f)  # features shared, read-only


def _last_nominal(chain: list[Mention], upto: int, nominal: dict[Span, bool]) -> Mention | None:
    for m in reversed(chain[:upto]):
        if nominal[m.span]:
            return m
    return None


def immediate_rows(key: Document, response: Document | None, doc_id: str | None = None,
                   sides: tuple[_Side, _Side] | None = None) -> list[LinkOutcome]:
    """Scenario 1 (rules I1–I5): the antecedent is the preceding mention of the chain."""
    doc_id = doc_id or key.doc_id
    K, R = sides or (_side(key), _side(response))
    rows: list[LinkOutcome] = []
    for chain in K.chains:
        if len(chain) < 2 or not any(K.nominal[m.span] for m in chain):
            continue  # I1: chains without a nominal mention are not evaluated
        for t in range(1, len(chain)):
            m = chain[t]
            if K.pronoun[m.span] and _last_nominal(chain, t, K.nominal) is None:
                continue  # I2: cataphoric pronoun
            where = R.where.get(m.span)
            if where is None or where[1] == 0:
                rows.append(_row("immediate", doc_id, key, m, "FN", chain[t - 1], None))  # I3
                continue
            prev = R.chains[where[0]][where[1] - 1]
            rows.append(_row("immediate", doc_id, key, m, "TP" if prev.span == chain[t - 1].span else "WL",
                             chain[t - 1], prev))  # I4
    for chain in R.chains:  # I5
        if len(chain) < 2:
            continue
        for t in range(1, len(chain)):
            m = chain[t]
            kw = K.where.get(m.span)
            if kw is None or kw[1] == 0:
                rows.append(_row("immediate", doc_id, response, m, "FP", None, chain[t - 1]))
    return rows


def inferred_rows(key: Document, response: Document | None, doc_id: str | None = None,
                  compat: bool = False, sides: tuple[_Side, _Side] | None = None) -> list[LinkOutcome]:
    """Scenario 2 (rules N1–N6): the antecedent is the closest preceding nominal mention."""
    doc_id = doc_id or key.doc_id
    K, R = sides or (_side(key), _side(response))
    rows: list[LinkOutcome] = []
    for chain in K.chains:
        if len(chain) < 2 or not any(K.nominal[m.span] for m in chain):
            continue  # N1 = I1
        for t in range(1, len(chain)):
            m = chain[t]
            kante = _last_nominal(chain, t, K.nominal)
            if K.pronoun[m.span] and kante is None:
                continue  # I2
            where = R.where.get(m.span)
            if where is None or where[1] == 0:
                rows.append(_row("inferred", doc_id, key, m, "FN", kante, None))  # I3
                continue
            rchain = R.chains[where[0]]
            rante = _last_nominal(rchain, where[1], R.nominal)
            if rante is None:
                if kante is not None:
                    rows.append(_row("inferred", doc_id, key, m, "FN", kante, None))  # N2
                continue
            if kante is None and not compat:
                continue  # N6 fixed: settled as fp by the precision loop (N4b)
            ok = rante.span in K.where and K.where[rante.span][0] == K.where[m.span][0]
            rows.append(_row("inferred", doc_id, key, m, "TP" if ok else "WL", kante, rante))  # N3
    for rchain in R.chains:  # N4
        if len(rchain) < 2 or not any(R.nominal[m.span] for m in rchain):
            continue
        for t in range(1, len(rchain)):
            m = rchain[t]
            rante = _last_nominal(rchain, t, R.nominal)
            kw = K.where.get(m.span)
            if kw is None:
                rows.append(_row("inferred", doc_id, response, m, "FP", None, rante))  # N4c
                continue
            kante = _last_nominal(K.chains[kw[0]], kw[1], K.nominal)
            if kante is None and rante is not None:
                rows.append(_row("inferred", doc_id, response, m, "FP", None, rante))  # N4b
    return rows


@dataclass(slots=True)
class EntityCounts:
    """tp / fn / fp of Entity Detection or Entity Mentions (scenario 3)."""

    tp: int = 0
    fn: int = 0
    fp: int = 0

    def __iadd__(self, o: "EntityCounts") -> "EntityCounts":
        self.tp += o.tp
        self.fn += o.fn
        self.fp += o.fp
        return self

    @property
    def recall(self) -> float:
        return ratio(self.tp, self.tp + self.fn)

    def precision_ed(self) -> float:
        """ED precision: 1 when there is no spurious entity (X5), else tp/(tp+fp)."""
        return 1.0 if self.fp == 0 else ratio(self.tp, self.tp + self.fp)

    @property
    def precision(self) -> float:
        return ratio(self.tp, self.tp + self.fp)

    def as_dict(self, ed: bool = False) -> dict[str, float]:
        p = self.precision_ed() if ed else self.precision
        return {"tp": self.tp, "fn": self.fn, "fp": self.fp, "recall": self.recall, "precision": p,
                "f1": harmonic(p, self.recall)}


@dataclass(slots=True)
class AnchorScores:
    """Scenario 3: Entity Detection (ED) and Entity Mentions (EM), total and per anchor NE type;
    ``Fφ`` = harmonic mean of F_ED and F_EM (X5). Counts sum over documents."""

    ed: EntityCounts = field(default_factory=EntityCounts)
    em: EntityCounts = field(default_factory=EntityCounts)
    ed_by: dict[str, EntityCounts] = field(default_factory=dict)
    em_by: dict[str, EntityCounts] = field(default_factory=dict)

    def __iadd__(self, o: "AnchorScores") -> "AnchorScores":
        self.ed += o.ed
        self.em += o.em
        for mine, theirs in ((self.ed_by, o.ed_by), (self.em_by, o.em_by)):
            for k, v in theirs.items():
                mine.setdefault(k, EntityCounts())
                mine[k] += v
        return self

    @staticmethod
    def _f(ed: EntityCounts, em: EntityCounts) -> float:
        f_ed = harmonic(ed.precision_ed(), ed.recall)
        f_em = harmonic(em.precision, em.recall)
        return harmonic(f_ed, f_em)

    @property
    def f_phi(self) -> float:
        return self._f(self.ed, self.em)

    def as_dict(self) -> dict:
        classes = sorted(set(self.ed_by) | set(self.em_by))
        return {
            "ed": self.ed.as_dict(ed=True),
            "em": self.em.as_dict(),
            "f_phi": self.f_phi,
            "by_ne": {c: {"ed": self.ed_by.get(c, EntityCounts()).as_dict(ed=True),
                          "em": self.em_by.get(c, EntityCounts()).as_dict(),
                          "f_phi": self._f(self.ed_by.get(c, EntityCounts()), self.em_by.get(c, EntityCounts()))}
                      for c in classes},
        }


def _ne_tag(doc: Document, m: Mention, cover: dict[int, tuple[int, int, str]]) -> str:
    span = cover.get(m.start)
    if span and span[0] == m.start and span[1] == m.end:
        return span[2]
    return m.features.get("etype", "-") if not doc.columns.get("ne") else "-"


def anchor_rows(key: Document, response: Document | None, doc_id: str | None = None,
                singletons: bool = False) -> tuple[list[LinkOutcome], AnchorScores]:
    """Scenario 3 (rules X1–X6): rows are the Entity Mentions outcomes (TP for K ∩ R, FN for K \\ R,
    FP for R \\ K of every detected entity, antecedent = the anchor); ED counts entities."""
    doc_id = doc_id or key.doc_id
    K, R = _side(key), _side(response, drop_singletons=not singletons)
    ne_col = key.columns.get("ne")
    cover = ne_spans(ne_col) if ne_col else {}
    scores = AnchorScores()
    rows: list[LinkOutcome] = []
    pool = set(range(len(R.chains)))
    for chain in sorted((c for c in K.chains if len(c) >= 2), key=lambda c: (c[0].start, c[0].end)):
        anchor = next((m for m in chain if K.nominal[m.span]), None)
        if anchor is None:  # X2
            for j in sorted(pool):
                if any(m.span in R.where and R.where[m.span][0] == j for m in chain):
                    pool.discard(j)
                    break
            continue
        tag = _ne_tag(key, anchor, cover)
        if tag == "-":
            others = {_ne_tag(key, m, cover) for m in chain} - {"-"}
            if len(others) == 1:
                tag = others.pop()
        ed = scores.ed_by.setdefault(tag, EntityCounts())
        em = scores.em_by.setdefault(tag, EntityCounts())
        where = R.where.get(anchor.span)
        if where is None or where[0] not in pool:  # X3: not detected
            scores.ed.fn += 1
            ed.fn += 1
            continue
        pool.discard(where[0])
        scores.ed.tp += 1
        ed.tp += 1
        rchain = R.chains[where[0]]
        rspans = {m.span for m in rchain}
        kspans = {m.span for m in chain}
        ranchor = rchain[where[1]]
        for m in chain:
            out = "TP" if m.span in rspans else "FN"
            rows.append(_row("anchor", doc_id, key, m, out, anchor, ranchor if out == "TP" else None))
        for m in rchain:
            if m.span not in kspans:
                rows.append(_row("anchor", doc_id, response, m, "FP", None, ranchor))
        n_tp = len(kspans & rspans)
        for c in (scores.em, em):
            c.tp += n_tp
            c.fn += len(kspans - rspans)
            c.fp += len(rspans - kspans)
    for j in pool:  # X4: spurious entities
        scores.ed.fp += 1
        rchain = R.chains[j]
        first_nom = next((m for m in rchain if R.nominal[m.span]), None)
        if len(rchain) >= 2 and first_nom is not None:
            rne = response.columns.get("ne") if response is not None else None
            tag = _ne_tag(response, first_nom, ne_spans(rne) if rne else {})
            scores.ed_by.setdefault(tag, EntityCounts()).fp += 1
    return rows, scores


def arcs_rows(key: Document, response: Document | None, doc_id: str | None = None, compat: bool = False,
              anchor_singletons: bool = False) -> tuple[list[LinkOutcome], AnchorScores]:
    """All three scenarios' outcome rows of one document, and scenario 3's entity scores."""
    sides = (_side(key), _side(response))
    rows = immediate_rows(key, response, doc_id, sides) + inferred_rows(key, response, doc_id, compat, sides)
    arows, anchor = anchor_rows(key, response, doc_id, anchor_singletons)
    return rows + arows, anchor
