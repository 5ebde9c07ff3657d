"""Type-aware evaluation with dominant mentions (Žitkus, Butkienė & Butleris 2023).

Each side's chains become *annotations* (rule Z1 of ``shared/spec/metric-semantics.md`` §4): every
non-dominant mention m of a chain with ≥ 2 mentions is a referent, linked to the chain's dominant
mention D(m) with a type code t(m). Per referent (Z2–Z5):

* matched referent (a referent on both sides): dominant correct ⇔ D_resp(m) = D_gold(m), type
  correct ⇔ t_resp(m) = t_gold(m): **TP** both, **WT** dominant only, **WL** type only, **WTL** neither;
* **FN** a gold referent that is no response referent (missing, a response singleton, or the
  response's dominant mention);
* **FP** a response referent that is no gold referent (spurious, a gold singleton, or the gold
  dominant mention).

Counts are weighted by k = (k1, k2, k3, k4) for TP, WT, WL, WTL (paper eqs. 53–54, default
1, 0.75, 0.5, 0.25): per class i,
``P_i = (k1·TP + k2·WT + k3·WL + k4·WTL) / (TP+WT+WL+WTL+FP)``,
``R_i = same / (TP+WT+WL+WTL+FN)`` (= S*), F harmonic. The class of a count is the class of the gold
type, of the response type for FP (Z6). Micro (Z8): pooled counts of the attempted classes; macro
(Z9): mean of P_i and of R_i over the n_a attempted classes, F = hm(P_macro, R_macro); scheme
coverage (Z10): ΣP_i / n and ΣR_i / n over the scheme's n classes. An undefined P_i or R_i counts
as 0 in these sums (§4.4.7).

Paper typos (tested): Table 3 prints S* = 533 for pronominal (553 = TP+WT+WL+WTL+FN, as in D1);
Table 2 prints R_scheme 34.44 (35.44 by formula 59, and F 41.99 needs 35.44); formulas (55)/(56)
omit the pronominal terms.

A wrong dominant that belongs to another gold entity is WL by the paper's letter (the default,
flagged ``wrong_entity`` on the row); ``strict=True`` scores it as FN + FP (§4.4.2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..model import Document, Span
from .counts import harmonic
from .dominant import dominant_of
from .outcomes import LinkOutcome, OutcomeCounts, add_groups, group_by, typed_macro_formula, typed_micro_formula
from .scheme import Scheme

K_DEFAULT = (1.0, 0.75, 0.5, 0.25)


@dataclass(slots=True)
class TypedChain:
    """One chain in Z1 form: its dominant mention and the type code of every other mention."""

    dominant: Span
    referents: dict[Span, str]
    entity: int = 0
    eligible: bool = True
    """False when no mention was eligible (pronouns only): the first mention was taken (§4.4.6)."""


@dataclass(slots=True)
class Judgement:
    span: Span
    outcome: str
    gold_type: str | None
    response_type: str | None
    gold_dominant: Span | None
    response_dominant: Span | None
    wrong_entity: bool = False


def classify(gold: list[TypedChain], response: list[TypedChain], strict: bool = False) -> list[Judgement]:
    """Rules Z2–Z5 on the chains of one document."""
    g_ref = {s: (c.dominant, t, c) for c in gold for s, t in c.referents.items()}
    r_ref = {s: (c.dominant, t) for c in response for s, t in c.referents.items()}
    gold_entity = {s: i for i, c in enumerate(gold) for s in (c.dominant, *c.referents)}
    out: list[Judgement] = []
    for s, (gd, gt, gc) in g_ref.items():
        if s not in r_ref:
            out.append(Judgement(s, "FN", gt, None, gd, None))
            continue
        rd, rt = r_ref[s]
        dom_ok, type_ok = rd == gd, rt == gt
        wrong_entity = not dom_ok and gold_entity.get(rd) != gold_entity.get(s)
        if wrong_entity and strict:
            out.append(Judgement(s, "FN", gt, None, gd, None, True))
            out.append(Judgement(s, "FP", None, rt, None, rd, True))
            continue
        outcome = "TP" if dom_ok and type_ok else "WT" if dom_ok else "WL" if type_ok else "WTL"
        out.append(Judgement(s, outcome, gt, rt, gd, rd, wrong_entity))
    for s, (rd, rt) in r_ref.items():
        if s not in g_ref:
            out.append(Judgement(s, "FP", None, rt, None, rd))
    return out


def typed_chains(doc: Document | None, scheme: Scheme) -> list[TypedChain]:
    """Z1 form of a document's chains: dominant mention (§4.2) and each referent's type code."""
    if doc is None:
        return []
    out = []
    type_of = scheme.type_of
    for i, c in enumerate(doc.chains):
        by_span = {(m.start, m.end): m for m in c.mentions}
        if len(by_span) < 2:
            continue
        dom, eligible = dominant_of(doc, list(by_span.values()))
        d = (dom.start, dom.end)
        out.append(TypedChain(d, {sp: type_of(doc, m) for sp, m in by_span.items() if sp != d}, i, eligible))
    return out


def typed_rows(key: Document, response: Document | None, scheme: Scheme, k: tuple[float, ...] = K_DEFAULT,
               strict: bool = False, doc_id: str | None = None) -> list[LinkOutcome]:
    """Outcome rows (analysis ``typed``) of one document: class and type codes from ``scheme``."""
    return typed_document(key, response, scheme, k, strict, doc_id)[0]


def typed_document(key: Document, response: Document | None, scheme: Scheme, k: tuple[float, ...] = K_DEFAULT,
                   strict: bool = False, doc_id: str | None = None) -> tuple[list[LinkOutcome], int]:
    """The typed rows of one document and the number of its key chains without an eligible
    dominant mention."""
    doc_id = doc_id or key.doc_id
    credit = {"TP": k[0], "WT": k[1], "WL": k[2], "WTL": k[3], "FN": 0.0, "FP": 0.0}
    kmap = {(m.start, m.end): m for c in key.chains for m in c.mentions}
    rmap = {(m.start, m.end): m for c in response.chains for m in c.mentions} if response is not None else {}
    gold = typed_chains(key, scheme)
    rows = []
    classes: dict[str, str] = {}
    ktok = key.tokens
    rtok = response.tokens if response is not None else ktok
    for j in classify(gold, typed_chains(response, scheme), strict):
        fp = j.outcome == "FP"
        m = (rmap if fp else kmap)[j.span]
        code = (j.response_type if fp else j.gold_type) or "-"
        cls = classes.get(code)
        if cls is None:
            cls = classes[code] = scheme.class_of(code)
        feats = dict(m.features)
        if j.wrong_entity:
            feats["wrong_entity"] = "1"
        if j.response_type is not None:
            feats["response_type"] = j.response_type
        s, e = m.start, m.end
        rows.append(LinkOutcome("typed", doc_id, s, e, " ".join((rtok if fp else ktok)[s : e + 1]), j.outcome,
                                credit[j.outcome], j.gold_dominant, j.response_dominant, cls, code, feats))
    return rows, sum(1 for c in gold if not c.eligible)


def _prf(c: OutcomeCounts) -> dict[str, float | None]:
    p = c.credit / (c.resolved + c.fp) if c.resolved + c.fp else None
    r = c.credit / c.key_total if c.key_total else None
    f = harmonic(p, r) if p is not None and r is not None else None
    return {"precision": p, "recall": r, "f1": f}


def _counts_dict(c: OutcomeCounts) -> dict[str, Any]:
    return {"tp": c.tp, "wt": c.wt, "wl": c.wl, "wtl": c.wtl, "fn": c.fn, "fp": c.fp, "s_star": c.key_total,
            "credit": c.credit, **_prf(c)}


@dataclass(slots=True)
class TypedTables:
    """Per-class and per-type counts; micro, macro and scheme-coverage scores."""

    scheme: Scheme
    k: tuple[float, ...]
    classes: dict[str, OutcomeCounts] = field(default_factory=dict)
    types: dict[str, OutcomeCounts] = field(default_factory=dict)
    type_class: dict[str, str] = field(default_factory=dict)
    attempted: list[str] = field(default_factory=list)
    wrong_entity: int = 0
    no_dominant: int = 0
    """Key chains with no eligible dominant mention (all pronouns): their first mention was used."""

    def class_stats(self) -> list[float]:
        """Outcome statistics of the attempted classes, 3 columns per class in attempted order:
        the columns of :func:`typed_micro_formula` and :func:`typed_macro_formula`."""
        out: list[float] = []
        for c in self.attempted:
            out.extend(self.classes.get(c, OutcomeCounts()).stats())
        return out

    @property
    def micro(self) -> dict[str, float]:
        r, p, f = typed_micro_formula(self.class_stats())
        return {"precision": p, "recall": r, "f1": f}

    @property
    def macro(self) -> dict[str, float]:
        r, p, f = typed_macro_formula(self.class_stats())
        return {"precision": p, "recall": r, "f1": f}

    @property
    def scheme_coverage(self) -> dict[str, float]:
        r, p, f = typed_macro_formula(self.class_stats(), divisor=self.scheme.n)
        return {"precision": p, "recall": r, "f1": f, "n": self.scheme.n}

    def as_dict(self) -> dict[str, Any]:
        return {
            "k": list(self.k),
            "scheme": self.scheme.name,
            "attempted": list(self.attempted),
            "classes": {c: {"name": self.scheme.class_name(c), **_counts_dict(v)} for c, v in self.classes.items()},
            "types": {t: {"class": self.type_class[t], **_counts_dict(v)} for t, v in self.types.items()},
            "micro": self.micro,
            "macro": self.macro,
            "scheme_coverage": self.scheme_coverage,
            "wrong_entity_links": self.wrong_entity,
            "key_chains_without_dominant_candidate": self.no_dominant,
        }


@dataclass(frozen=True)
class TypedParts:
    """The typed rows' group-bys by class and by type, each type's class and the number of
    wrong-entity links: what :func:`typed_result` needs, adding up over runs of documents."""

    classes: dict
    types: dict
    type_class: dict
    wrong_entity: int

    def __add__(self, o: TypedParts) -> TypedParts:
        return TypedParts(add_groups(self.classes, o.classes), add_groups(self.types, o.types),
                          {**self.type_class, **o.type_class}, self.wrong_entity + o.wrong_entity)


def typed_parts(rows: Iterable[LinkOutcome]) -> TypedParts:
    """The :class:`TypedParts` of typed rows."""
    rows = list(rows)
    return TypedParts(group_by(rows, "cls"), group_by(rows, "type"), {r.type: r.cls for r in rows},
                      sum(1 for r in rows if r.outcome in ("WL", "WTL") and r.features.get("wrong_entity") == "1"))


def typed_result(parts: TypedParts, scheme: Scheme, k: tuple[float, ...] = K_DEFAULT,
                 attempted: list[str] | None = None) -> TypedTables:
    """The per-class and per-type tables from their parts. Attempted classes come from the
    argument, the scheme, or (default) every class that occurs in the key or the response (not
    the response alone: Z8)."""
    t = TypedTables(scheme, tuple(k), classes=parts.classes, types=parts.types)
    t.type_class = dict(parts.type_class)
    t.wrong_entity = parts.wrong_entity
    # default: the classes of the key (a class only the response uses, e.g. xrenner's 'none' on GUM,
    # was not attempted: counting it would let scheme coverage exceed macro, Z8)
    in_key = [c for c in sorted(t.classes) if t.classes[c].stats()[1] > 0]
    t.attempted = list(attempted or scheme.attempted or in_key)
    return t


def typed_tables(rows: Iterable[LinkOutcome], scheme: Scheme, k: tuple[float, ...] = K_DEFAULT,
                 attempted: list[str] | None = None) -> TypedTables:
    """The per-class and per-type tables: group-bys of the typed rows by ``cls`` and by ``type``
    (:func:`typed_parts`, :func:`typed_result`)."""
    return typed_result(typed_parts(rows), scheme, k, attempted)


class TypedAnalysis:
    """The pipeline's steps of the type-aware evaluation (:class:`~corefreport.scoring.registry.Analysis`):
    per run of documents the typed rows; the part is their :class:`TypedParts` and the number of key
    chains without a dominant candidate, which add up over runs of documents."""

    def __init__(self, settings) -> None:
        from .scheme import load_scheme

        self.settings = settings
        self.scheme = load_scheme(settings.scheme)

    def score(self, aligned: list) -> tuple[list[LinkOutcome], tuple[TypedParts, int]]:
        s = self.settings
        rows: list[LinkOutcome] = []
        no_dominant = 0
        for ad in aligned:
            trows, nd = typed_document(ad.key_doc, ad.response_doc, self.scheme, s.k, s.strict_dominant, ad.doc_id)
            rows.extend(trows)
            no_dominant += nd
        return rows, (typed_parts(rows), no_dominant)

    @staticmethod
    def options(s) -> dict:
        return {"scheme": s.scheme or "derived", "k": list(s.k), "strict_dominant": s.strict_dominant,
                "attempted": list(s.attempted) if s.attempted else None}

    @staticmethod
    def signature(s) -> list[tuple[str, str]]:
        from .settings import nums

        return ([("scheme", s.scheme or "derived"), ("k", nums(s.k))]
                + ([("attempted", ",".join(s.attempted))] if s.attempted else [])
                + ([("dominant", "strict")] if s.strict_dominant else []))

    @staticmethod
    def add(a: tuple[TypedParts, int], b: tuple[TypedParts, int]) -> tuple[TypedParts, int]:
        return a[0] + b[0], a[1] + b[1]

    def result(self, part: tuple[TypedParts, int]) -> TypedTables:
        s = self.settings
        t = typed_result(part[0], self.scheme, s.k, list(s.attempted) if s.attempted else None)
        t.no_dominant = part[1]
        return t
