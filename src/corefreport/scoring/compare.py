"""Several systems scored against one key: every score side by side, paired significance against
a baseline, per-class and per-type gains and losses, and the links one system gets right and the
other wrong.

Everything comes from the systems' :class:`~corefreport.scoring.result.Evaluation` objects — never
from re-scoring:

* per-document counts (:class:`DocumentResult` metrics and mention counts, which sum to the corpus
  totals exactly) and per-document group-bys of the outcome rows become one (documents × columns)
  matrix per system (:func:`document_matrix`), which :mod:`.significance` resamples;
* outcome rows, keyed by (analysis, doc_id, referent span, side), give the link-level comparison.

The rows of the side-by-side table, in order: the standard metrics, CoNLL, the linguistically aware
metrics, mention identification, the three ARCS scenarios (ARCS 3 = its Entity Mentions rows) and
the typed micro, macro and scheme-coverage scores — whatever every evaluation computed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .counts import Counts
from .errorclasses import CLASSES as ERROR_CLASSES, STEPS as ERROR_STEPS
from .errordiff import SIDES, EntityChanges, ErrorMatch, entity_changes, match_errors
from .metrics import BlancCounts
from .outcomes import LinkOutcome, group_by
from .result import Evaluation
from .settings import Signature
from .registry import ANALYSIS_REGISTRY, REGISTRY, ROW_ANALYSES, analysis_of
from .significance import (CORRECTIONS, Block, PairedTest, check_resampling, correct, defined_scores, f1_scorer,
                           metric_block, paired_bootstrap, paired_tests, shared_block, smallest_p, stack, undefined_test)

ARCS = tuple(r.name for r in ANALYSIS_REGISTRY["arcs"].rows)
GROUPINGS = ("cls", "type")
RESPONSE_FIELDS = ("markup",)
"""Signature fields that say how one response was read (LLM markup read onto the key's words): a
system whose response is of another kind lacks them, which is no difference of settings."""
ALPHA = 0.05

BY_LABELS = {"cls": "class", "type": "type"}
NO_ROW = "none"
"""The outcome of a referent for which a system has no row (e.g. a spurious link it did not make)."""


# --------------------------------------------------------------------------------------------
# Result model
# --------------------------------------------------------------------------------------------

@dataclass(slots=True)
class MetricRow:
    """One row of the side-by-side table: each system's R, P, F (R/P None where undefined, as for
    CoNLL), each system's own 95 % bootstrap interval of F, and the tests against the baseline.
    Its label and family are the registry's (:mod:`corefreport.scoring.registry`)."""

    name: str
    recall: dict[str, float | None]
    precision: dict[str, float | None]
    f1: dict[str, float]
    ci: dict[str, tuple[float, float]]
    tests: dict[str, PairedTest]
    best: list[str]
    counts: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    """Each system's summed ``recall_num, recall_den, precision_num, precision_den`` when R and P
    are each one fraction of counts: the JSON keeps them where a 0/0 makes R, P or F1 undefined (NaN)."""

    @property
    def label(self) -> str:
        return REGISTRY[self.name].label if self.name in REGISTRY else ROW_ANALYSES[self.name].short

    @property
    def family(self) -> str:
        return REGISTRY[self.name].family if self.name in REGISTRY else "outcomes"

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "family": self.family,
                "systems": {s: {"recall": _opt_num(self.recall[s]), "precision": _opt_num(self.precision[s]),
                                "f1": _opt_num(self.f1[s]), "ci": _pair(self.ci.get(s)),
                                **(dict(zip(COUNT_KEYS, self.counts[s])) if s in self.counts else {})}
                            for s in self.f1},
                "best": list(self.best),
                "tests": {s: t.as_dict() for s, t in self.tests.items()}}


@dataclass(slots=True)
class GroupDelta:
    """F1 of one class or type of referents (a group-by over outcome rows) for the baseline and a
    system, with the paired tests of the difference. ``label`` is the annotation scheme's name of
    a typed class or type, else the group value itself. ``key_referents`` = TP+WT+WL+WTL+FN of the
    baseline (the group's size in the key); ``response_referents`` = TP+WT+WL+WTL+FP of baseline and
    system (the referents each response resolves)."""

    analysis: str
    by: str
    group: str
    label: str
    key_referents: int
    response_referents: tuple[int, int]
    test: PairedTest

    @property
    def delta(self) -> float:
        return self.test.delta

    @property
    def support(self) -> int:
        return max(self.key_referents, *self.response_referents)

    def as_dict(self) -> dict[str, Any]:
        return {"analysis": self.analysis, "by": BY_LABELS.get(self.by, self.by), "group": self.group,
                "label": self.label, "key_referents": self.key_referents,
                "response_referents": {"baseline": self.response_referents[0], "system": self.response_referents[1]},
                **self.test.as_dict()}


@dataclass(slots=True)
class LinkChange:
    """One referent whose outcome differs between the baseline and a system. ``side`` is "key" for a
    key referent (TP, WT, WL, WTL or FN) and "response" for a mention only a response resolves (FP);
    "none" means the system has no row there (right on the response side: nothing spurious)."""

    analysis: str
    doc_id: str
    start: int
    end: int
    text: str
    side: str
    cls: str
    type: str
    baseline: str
    system: str
    key_antecedent: tuple[int, int] | None
    baseline_antecedent: tuple[int, int] | None
    system_antecedent: tuple[int, int] | None

    @property
    def kind(self) -> str:
        """"gain" (right only in the system), "loss" (right only in the baseline), or "change"."""
        a, b = _right(self.baseline, self.side), _right(self.system, self.side)
        return "gain" if b and not a else "loss" if a and not b else "change"

    def as_dict(self) -> dict[str, Any]:
        return {"analysis": self.analysis, "doc_id": self.doc_id, "start": self.start, "end": self.end,
                "text": self.text, "side": self.side, "class": self.cls, "type": self.type,
                "baseline_outcome": self.baseline, "system_outcome": self.system, "kind": self.kind,
                "key_antecedent": _span(self.key_antecedent), "baseline_antecedent": _span(self.baseline_antecedent),
                "system_antecedent": _span(self.system_antecedent)}


COUNT_KEYS = ("recall_num", "recall_den", "precision_num", "precision_den")


def _opt_num(x: float | None) -> float | None:
    return None if x is None else _num(x)


LINK_FIELDS = ("baseline", "system", "analysis", "doc_id", "start", "end", "text", "side", "class", "type",
               "baseline_outcome", "system_outcome", "kind", "key_antecedent", "baseline_antecedent",
               "system_antecedent")
"""The fields of :meth:`Comparison.link_rows`: the two systems' names, then one changed referent."""
ERROR_LINK_FIELDS = ("baseline", "system", "analysis", "doc_id", "start", "end", "text", "error_class", "errors",
                     "sentence", "mentions")
"""The fields of :meth:`Comparison.error_rows`: the two systems' names, then one error (its first
mention's span, its mentions' words joined by " | ", its class, whose error it is)."""


def _right(outcome: str, side: str) -> bool:
    return outcome == "TP" or (side == "response" and outcome == NO_ROW)


@dataclass(slots=True)
class LinkComparison:
    """One analysis, baseline against a system: how every referent's outcome moved
    (``transitions[(baseline outcome, system outcome)]``, "none" = no row) and the referents that changed."""

    analysis: str
    transitions: dict[tuple[str, str], int]
    changes: list[LinkChange]

    @property
    def gains(self) -> int:
        """Referents right only in the system."""
        return sum(1 for c in self.changes if c.kind == "gain")

    @property
    def losses(self) -> int:
        """Referents right only in the baseline."""
        return sum(1 for c in self.changes if c.kind == "loss")

    @property
    def both_right(self) -> int:
        return self.transitions.get(("TP", "TP"), 0)

    def as_dict(self, links: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"analysis": self.analysis, "right_only_in_system": self.gains,
                               "right_only_in_baseline": self.losses, "both_right": self.both_right,
                               "transitions": {f"{a}>{b}": n for (a, b), n in sorted(self.transitions.items())}}
        if links:
            out["changes"] = [c.as_dict() for c in self.changes]
        return out


@dataclass(slots=True)
class DocumentDelta:
    """The headline score (CoNLL, else the first metric) of one document for baseline and system."""

    doc_id: str
    baseline: float
    system: float

    @property
    def delta(self) -> float:
        return self.system - self.baseline

    def as_dict(self) -> dict[str, Any]:
        return {"doc_id": self.doc_id, "baseline": self.baseline, "system": self.system, "delta": self.delta}


@dataclass(slots=True)
class ErrorClassDelta:
    """One Kummerfeld & Klein (2013) error class, baseline against a system: the number of errors
    (``count``: baseline, system, Δ and its paired tests) and what fixing them gains in CoNLL F1,
    cumulatively in the analyser's order (``cost``; a negative Δ: the class costs the system less)."""

    cls: str
    count: PairedTest
    cost: PairedTest

    def as_dict(self) -> dict[str, Any]:
        return {"class": self.cls, "count": self.count.as_dict(), "conll_cost": self.cost.as_dict()}


ERROR_STATES = ("none",) + ERROR_STEPS
ERROR_COST_METRICS = ("muc", "bcub", "ceafe")


def error_matrices(ev: Evaluation, doc_ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per document (in ``doc_ids`` order): errors per class (documents × 7) and the MUC, B³,
    CEAF-e counts of the response before any correction and after each class is fixed,
    cumulatively (documents × 8·12, one CoNLL group of 12 columns per state)."""
    er = ev.errors
    counts = er.document_counts()
    n = np.zeros((len(doc_ids), len(ERROR_CLASSES)))
    states = np.zeros((len(doc_ids), len(ERROR_STATES) * 12))
    for i, d in enumerate(doc_ids):
        c = counts.get(d)
        if c is not None:
            n[i] = [c[k] for k in ERROR_CLASSES]
        st = er.document_states.get(d)
        if st is not None:
            states[i] = [x for s in ERROR_STATES for m in ERROR_COST_METRICS for x in counts_vector(st[s][m])]
    return n, states


def error_cost_scorer(cols: np.ndarray) -> np.ndarray:
    """Summed state columns (..., 8·12) → the CoNLL F1 each class gains, fixed cumulatively (..., 7):
    the differences of consecutive states' CoNLL scores (the registry's CoNLL formula)."""
    conll = REGISTRY["conll"].rpf(cols, len(ERROR_STATES))[..., 2]
    return np.diff(conll, axis=-1)


def error_deltas(evs: dict[str, Evaluation], doc_ids: list[str], bootstrap: int, randomization: int, seed: int,
                 confidence: float, warnings: list[str]) -> dict[str, list[ErrorClassDelta]]:
    """Per system but the baseline (the first): the :class:`ErrorClassDelta` of each class, tested
    with the paired bootstrap and approximate randomization over the same document draws as the
    metrics. Empty unless every evaluation computed ``-a errors``."""
    have = [n for n, ev in evs.items() if ev.errors is not None]
    if len(have) != len(evs):
        if have:
            warnings.append("error classes not computed for every system, left out")
        return {}
    names = list(evs)
    mats = {n: error_matrices(evs[n], doc_ids) for n in names}
    out: dict[str, list[ErrorClassDelta]] = {}
    for n in names[1:]:
        count = paired_tests(mats[names[0]][0], mats[n][0], lambda c: c, bootstrap, randomization, seed, confidence)
        cost = paired_tests(mats[names[0]][1], mats[n][1], error_cost_scorer, bootstrap, randomization, seed,
                            confidence)
        out[n] = [ErrorClassDelta(c, a, b) for c, a, b in zip(ERROR_CLASSES, count, cost)]
    return out


@dataclass(frozen=True, slots=True)
class Resampling:
    """How the paired tests resample: bootstrap resamples and randomization trials over documents
    (0: that test is not run), the seed, the interval's confidence and the significance level."""

    bootstrap: int = 1000
    randomization: int = 10000
    seed: int = 12345
    confidence: float = 0.95
    alpha: float = ALPHA
    groupings: tuple[str, ...] = GROUPINGS
    correction: str = "none"
    """Multiple-comparison correction of the p-values (:data:`~.significance.CORRECTIONS`): ``none``,
    ``holm`` or ``bh``, over every difference the comparison tests."""

    def as_dict(self) -> dict[str, Any]:
        return {"bootstrap": self.bootstrap, "randomization": self.randomization, "seed": self.seed,
                "confidence": self.confidence, "alpha": self.alpha, "resampling_unit": "document",
                "correction": self.correction}


@dataclass(frozen=True, slots=True)
class Caution:
    """A trap between the numbers and a sentence in a paper, said with the comparison (terminal,
    pipe, JSON): ``too_few_documents`` (no p-value can fall below α on so few documents) or
    ``multiple_comparisons`` (many differences tested at the same α, none corrected)."""

    kind: str
    message: str
    value: float

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "value": self.value}


def documents_needed(alpha: float) -> int:
    """The fewest documents on which exhaustive randomization can give p < ``alpha``: the smallest
    ``n`` with ``2 / 2ⁿ < alpha`` (6 for α = 0.05)."""
    return max(1, math.floor(math.log2(2 / alpha)) + 1)


def family(tested: int, systems: int, groups: int) -> tuple[int, str]:
    """The family of differences a comparison tests — ``tested`` scores per system, ``groups`` class
    and type groups in all — its size and its description ("18 scores × 2 systems and 64 class and
    type groups")."""
    what = f"{tested} scores" + (f" × {systems} systems" if systems > 1 else "")
    if groups:
        what += f" and {groups} class and type groups"
    return tested * systems + groups, what


def cautions(n_docs: int, floor: float, resampling: "Resampling", tested: int, systems: int,
             groups: int, corrected: int | None = None) -> list[Caution]:
    """What a reader must know before writing "significant": ``floor`` is the smallest p-value the
    deciding test can give (:func:`~corefreport.scoring.significance.smallest_p`), ``tested`` the
    scores tested per system, ``groups`` the class and type groups tested in all. With one document
    there is no interval and p = 1 says nothing (``one_document``); with a correction the family
    it was applied over (``corrected``: its size, the tests with a p-value) is said (``correction``)
    instead of the uncorrected count."""
    r = resampling
    out = []
    if n_docs == 1 and (r.randomization or r.bootstrap):
        out.append(Caution("one_document", "one document: no interval (every bootstrap resample is that document) "
                           "and p = 1 by construction (randomization can only swap it or not): the tests say nothing "
                           "about the difference", 1.0))
    elif not math.isnan(floor) and floor >= r.alpha:
        test = (f"approximate randomization ({r.randomization} trials, seed {r.seed})" if r.randomization
                else f"the paired bootstrap ({r.bootstrap} resamples)")
        need = (f"; at least {documents_needed(r.alpha)} documents are needed" if r.randomization else
                "; draw more resamples")
        out.append(Caution("too_few_documents",
                           f"on {n_docs} document{'s' if n_docs != 1 else ''} the smallest p-value {test} can give "
                           f"is {floor:.4f}: no difference can be significant at p < {r.alpha:g}, however large"
                           f"{need}", floor))
    total, what = family(tested, systems, groups)
    if r.correction != "none" and (r.randomization or r.bootstrap):
        total = corrected if corrected is not None else total
        out.append(Caution("correction",
                           f"p-values {CORRECTIONS[r.correction]}-adjusted ({correction_aim(r.correction)}) over the "
                           f"family of the {total} differences this comparison tests ({what}); * marks an adjusted "
                           f"p < {r.alpha:g}", float(total)))
    elif total > 1 and (r.randomization or r.bootstrap):
        out.append(Caution("multiple_comparisons",
                           f"{total} differences were tested ({what}), each at α = {r.alpha:g} and not corrected for "
                           f"multiple comparisons: about {r.alpha * total:.0f} could reach p < {r.alpha:g} by chance "
                           f"if nothing differed; name the one test you planned, or correct (Bonferroni: "
                           f"p < {r.alpha / total:.2g})", float(total)))
    return out


def correction_aim(method: str) -> str:
    """What a correction controls: ``holm`` the family-wise error rate, ``bh`` the false discovery rate."""
    return {"holm": "family-wise error rate", "bh": "false discovery rate"}.get(method, "")


@dataclass(slots=True)
class Comparison:
    """Several systems against one key (built by :func:`compare`)."""

    names: list[str]
    baseline: str
    documents: list[str]
    metrics: list[MetricRow]
    groups: dict[str, list[GroupDelta]]
    links: dict[str, dict[str, LinkComparison]]
    per_document: dict[str, list[DocumentDelta]]
    headline: str
    sources: dict[str, str] = field(default_factory=dict)
    resampling: Resampling = Resampling()
    signature: Signature | None = None
    """The baseline's signature extended by the resampling settings."""
    warnings: list[str] = field(default_factory=list)
    errors: dict[str, list[ErrorClassDelta]] = field(default_factory=dict)
    """Per system: Kummerfeld & Klein error classes against the baseline (with ``-a errors``)."""
    smallest_p: float = float("nan")
    """The smallest p-value the deciding test can give on these documents (NaN: no test run)."""
    cautions: list[Caution] = field(default_factory=list)
    """Too few documents for significance; several differences tested (:func:`cautions`)."""
    error_matches: dict[str, ErrorMatch] = field(default_factory=dict)
    """Per system: its error rows and the baseline's matched — only in one, in both (:mod:`.errordiff`)."""
    entity_changes: dict[str, EntityChanges] = field(default_factory=dict)
    """Per system: the key entities whose coverage changed from the baseline (:mod:`.errordiff`)."""

    @property
    def systems(self) -> list[str]:
        """The systems compared with the baseline (every name but the baseline's)."""
        return [n for n in self.names if n != self.baseline]

    @property
    def settings(self) -> dict[str, Any]:
        """The ``settings`` object of the JSON output: resampling, documents and the signature."""
        return {**self.resampling.as_dict(), "documents": len(self.documents), "smallest_p": _num(self.smallest_p),
                "groupings": list(self.resampling.groupings), "signature": str(self.signature or "")}

    def metric(self, name: str) -> MetricRow:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(name)

    @property
    def scores(self) -> dict[str, dict[str, float]]:
        """metric → system → F1."""
        return {m.name: dict(m.f1) for m in self.metrics}

    @property
    def tests(self) -> dict[str, dict[str, PairedTest]]:
        """metric → system → its test against the baseline."""
        return {m.name: dict(m.tests) for m in self.metrics}

    def best(self, metric: str) -> str:
        """The first system with the highest F1 of ``metric`` (all of them: ``metric(name).best``)."""
        return self.metric(metric).best[0]

    def group_deltas(self, system: str, analysis: str | None = None, by: str | None = None,
                     min_support: int = 0) -> list[GroupDelta]:
        return [g for g in self.groups.get(system, []) if (analysis is None or g.analysis == analysis)
                and (by is None or g.by == by) and g.support >= min_support]

    def gains(self, system: str, analysis: str | None = None, by: str | None = None, top: int = 3,
              min_support: int = 20) -> list[GroupDelta]:
        """The groups where ``system`` gains most F1 on the baseline (largest positive Δ first)."""
        rows = [g for g in self.group_deltas(system, analysis, by, min_support) if g.delta > 0]
        return sorted(rows, key=lambda g: (-g.delta, g.group))[:top]

    def losses(self, system: str, analysis: str | None = None, by: str | None = None, top: int = 3,
               min_support: int = 20) -> list[GroupDelta]:
        """The groups where ``system`` loses most F1 to the baseline (most negative Δ first)."""
        rows = [g for g in self.group_deltas(system, analysis, by, min_support) if g.delta < 0]
        return sorted(rows, key=lambda g: (g.delta, g.group))[:top]

    @property
    def disagreements(self) -> dict[str, dict[str, tuple[int, int]]]:
        """system → analysis → (referents right only in the baseline, right only in the system)."""
        return {s: {a: (lc.losses, lc.gains) for a, lc in per.items()} for s, per in self.links.items()}

    def link_rows(self) -> list[dict[str, Any]]:
        """Every changed referent of every system and analysis as flat dicts with the fields of
        :data:`LINK_FIELDS` (for JSONL / CSV)."""
        return [{"baseline": self.baseline, "system": s, **c.as_dict()} for s, per in self.links.items()
                for lc in per.values() for c in lc.changes]

    def as_dict(self, links: bool = False) -> dict[str, Any]:
        """The JSON contract of ``corefreport compare -f json`` (docs/compare.md). Scores are
        fractions. The changed referents themselves (thousands on a large corpus) are included only
        with ``links=True``; their counts and transitions always are (see also :meth:`link_rows`)."""
        return {
            "baseline": self.baseline,
            "systems": list(self.names),
            "sources": dict(self.sources),
            "documents": len(self.documents),
            "settings": dict(self.settings),
            "headline": self.headline,
            "scores": {m: {n: _opt_num(f) for n, f in f1.items()} for m, f1 in self.scores.items()},
            "metrics": [m.as_dict() for m in self.metrics],
            "significance": {m.name: {s: t.as_dict() for s, t in m.tests.items()} for m in self.metrics},
            "groups": {s: [g.as_dict() for g in rows] for s, rows in self.groups.items()},
            "links": {s: {a: lc.as_dict(links) for a, lc in per.items()} for s, per in self.links.items()},
            "per_document": {s: [d.as_dict() for d in rows] for s, rows in self.per_document.items()},
            "warnings": list(self.warnings),
            "cautions": [c.as_dict() for c in self.cautions],
        } | ({"errors": {s: [d.as_dict() for d in rows] for s, rows in self.errors.items()}} if self.errors else {}) \
          | ({"error_matches": {s: m.as_dict() for s, m in self.error_matches.items()}} if self.error_matches else {}) \
          | ({"entity_changes": {s: c.as_dict() for s, c in self.entity_changes.items()}}
             if self.entity_changes else {})

    def error_rows(self) -> list[dict[str, Any]]:
        """Every error of every system and of the baseline, matched (:mod:`.errordiff`), as flat dicts
        for ``--links``: the two systems' names, ``analysis`` "errors", the error's place, its class
        (``error_class``) and whose it is (``errors``: only_baseline, only_system or both)."""
        out = []
        for s, m in self.error_matches.items():
            for side in SIDES:
                for r in m.rows(side):
                    row = r[0] if side == "both" else r
                    first = min(row.mentions)
                    out.append({"baseline": self.baseline, "system": s, "analysis": "errors", "doc_id": row.doc_id,
                                "start": first[0], "end": first[1], "text": " | ".join(row.texts),
                                "error_class": row.cls, "errors": side, "sentence": row.sentence,
                                "mentions": [list(x) for x in row.mentions]})
        return out


def _num(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def _pair(x: tuple[float, float] | None) -> list[float] | None:
    return None if x is None or math.isnan(x[0]) else [float(x[0]), float(x[1])]


def _span(x: tuple[int, int] | None) -> list[int] | None:
    return list(x) if x is not None else None


# --------------------------------------------------------------------------------------------
# Per-document count matrices
# --------------------------------------------------------------------------------------------

def counts_vector(s: Counts | BlancCounts) -> list[float]:
    """A metric's sufficient statistics: 4 columns, BLANC 8 (coreference then non-coreference)."""
    if isinstance(s, BlancCounts):
        return counts_vector(s.coref) + counts_vector(s.noncoref)
    return [s.recall_num, s.recall_den, s.precision_num, s.precision_den]


def outcome_columns(rows: list[LinkOutcome], doc_index: dict[str, int], by: str | None = None,
                    values: list[str] | None = None) -> np.ndarray:
    """Per-document outcome statistics of ``rows``: (documents, 3·groups) with, per group,
    ``Σ credit, TP+WT+WL+WTL+FN, TP+WT+WL+WTL+FP`` — the group-by of
    :func:`~corefreport.scoring.outcomes.group_by` over (doc_id, ``by``), laid out as a matrix.
    ``values`` are the groups in column order (rows of other values are left out); without ``by``,
    one group of all rows."""
    counts = group_by(rows, "doc_id", by) if by is not None else group_by(rows, "doc_id")
    return counts_matrix(counts, doc_index, by is not None, values)


def counts_matrix(counts: dict, doc_index: dict[str, int], grouped: bool = False,
                  values: list[str] | None = None) -> np.ndarray:
    """:func:`outcome_columns` of a group-by already made: ``counts`` by document, or by (document,
    value) when ``grouped`` (``values``: the groups in column order)."""
    groups = values if grouped else [None]
    gidx = {v: g for g, v in enumerate(groups)}
    out = np.zeros((len(doc_index), 3 * len(groups)))
    for key, c in counts.items():
        doc, value = (key if grouped else (key, None))
        d = doc_index.get(doc)
        if d is None:
            raise ValueError(f"outcome row of document {doc!r}, which is not in the evaluation")
        g = gidx.get(value)
        if g is not None:
            out[d, 3 * g:3 * g + 3] = c.stats()
    return out


def document_matrix(ev: Evaluation, doc_ids: list[str]) -> dict[str, np.ndarray]:
    """Per-document sufficient statistics of every metric, of mention identification and of every
    analysis' total, in ``doc_ids`` order: name → (documents, columns). Metric columns sum to
    ``ev.metrics[name]`` exactly (the same additions in the same order); analysis columns are
    ``Σ credit, TP+WT+WL+WTL+FN, TP+WT+WL+WTL+FP`` (typed: of the attempted classes)."""
    by_doc = {d.doc_id: d for d in ev.documents}
    missing = [i for i in doc_ids if i not in by_doc]
    if missing:
        raise ValueError(f"{len(missing)} document(s) not in the evaluation, e.g. {missing[0]!r}")
    out: dict[str, np.ndarray] = {}
    for name in ev.metrics:
        out[name] = np.array([counts_vector(by_doc[i].metrics[name]) for i in doc_ids], dtype=float)
    out["mentions"] = np.array([counts_vector(by_doc[i].mentions) for i in doc_ids], dtype=float)
    index = {d: k for k, d in enumerate(doc_ids)}
    store = ev.outcomes
    for a in store.analyses():
        if a == "typed":
            if ev.typed is not None:
                out[a] = counts_matrix(store.per_document(a, set(ev.typed.attempted)), index)
        else:
            out[a] = counts_matrix(store.per_document(a), index)
    return out


# --------------------------------------------------------------------------------------------
# Statistics: what is resampled, as blocks of columns
# --------------------------------------------------------------------------------------------

@dataclass(slots=True)
class _Stat:
    """A block of columns and the scores it yields: metric rows (``names``) or groups."""

    block: Block
    names: list[str]
    columns: Callable[[str], np.ndarray]  # system name → (documents, width)
    analysis: str = ""
    by: str = ""


def _group_label(ev: Evaluation, analysis: str, by: str, value: str) -> str:
    """The scheme's name of a typed class or type; any other group is its value."""
    if analysis == "typed" and ev.typed is not None:
        scheme = ev.typed.scheme
        return scheme.class_name(value) if by == "cls" else scheme.types.get(value, value)
    return value


def _analysis_order(names: Iterable[str]) -> list[str]:
    known = [a for a in ROW_ANALYSES if a in names]
    return known + sorted(set(names) - set(known))


def _computed(ev: Evaluation, analysis: str) -> bool:
    """Whether ``ev`` computed the analysis an outcome row belongs to (its registry entry's result)."""
    entry = analysis_of(analysis)
    return entry is not None and ev.result(entry.field) is not None


def _stats(evs: dict[str, Evaluation], doc_ids: list[str], groupings: tuple[str, ...],
           warnings: list[str]) -> tuple[list[_Stat], dict[str, list[str]], dict[str, dict[str, list[LinkOutcome]]]]:
    names = list(evs)
    base = evs[names[0]]
    mats = {n: document_matrix(ev, doc_ids) for n, ev in evs.items()}
    stats: list[_Stat] = []
    metric_names = [m for m in base.metrics if all(m in ev.metrics for ev in evs.values())]
    skipped = sorted({m for ev in evs.values() for m in ev.metrics} - set(metric_names))
    if skipped:
        warnings.append(f"not computed for every system, left out: {', '.join(skipped)}")
    standard = [m for m in metric_names if REGISTRY[m].family == "standard"]
    rest = [m for m in metric_names if REGISTRY[m].family != "standard"]
    for m in standard:
        stats.append(_Stat(metric_block(m), [m], lambda s, m=m: mats[s][m]))
    conll = REGISTRY["conll"]
    if all(p in metric_names for p in conll.requires):
        stats.append(_Stat(metric_block("conll"), ["conll"],
                           lambda s: np.hstack([mats[s][p] for p in conll.requires])))
    for m in rest:
        stats.append(_Stat(metric_block(m), [m], lambda s, m=m: mats[s][m]))
    dd = REGISTRY["dd_conll"]  # the discourse-deixis layer's CoNLL, as CoNLL from its parts
    if all(p in metric_names for p in dd.requires):
        stats.append(_Stat(metric_block("dd_conll"), ["dd_conll"],
                           lambda s: np.hstack([mats[s][p] for p in dd.requires])))
    stats.append(_Stat(metric_block("mentions"), ["mentions"], lambda s: mats[s]["mentions"]))

    found = _analysis_order({a for ev in evs.values() for a in ev.outcomes.analyses()})
    analyses = [a for a in found if all(_computed(ev, a) for ev in evs.values())]
    left_out = [a for a in found if a not in analyses]
    if left_out:
        warnings.append(f"analyses not computed for every system, left out: {', '.join(left_out)}")
    index = {d: k for k, d in enumerate(doc_ids)}
    for a in analyses:
        if a == "typed":
            tables = [ev.typed for ev in evs.values()]
            attempted = list(dict.fromkeys(c for t in tables for c in t.attempted))
            for n, t in zip(names, tables):
                if list(t.attempted) != attempted:
                    warnings.append(f"typed: {n} attempted {', '.join(t.attempted)}; compared over "
                                    f"{', '.join(attempted)} for every system")
            if len({(t.scheme.name, t.scheme.n, tuple(t.k)) for t in tables}) > 1:
                warnings.append("typed: the systems were evaluated with different schemes or k")
            typed_cols = {n: counts_matrix(evs[n].outcomes.per_document_class(a), index, True, attempted)
                          for n in names}
            block = shared_block([("typed_micro", {}), ("typed_macro", {}),
                                  ("typed_scheme", {"divisor": tables[0].scheme.n})], 3 * len(attempted))
            stats.append(_Stat(block, ["typed_micro", "typed_macro", "typed_scheme"], lambda s, c=typed_cols: c[s]))
        else:
            # a system that computed the analysis but has none of its rows (ARCS's 'inferred' or
            # 'anchor' when nothing of that kind occurs) scores zeros there, not a KeyError
            totals = {n: mats[n][a] if a in mats[n] else counts_matrix({}, index) for n in names}
            # a registered analysis's rows are scored as any group of outcome rows ("referents")
            stats.append(_Stat(metric_block(a if a in REGISTRY else "referents"), [a], lambda s, c=totals: c[s]))  # document_matrix's columns
    group_labels: dict[str, list[str]] = {}
    rows = {n: {a: ev.outcomes.rows_of(a) for a in analyses} if groupings or len(evs) > 1 else {}
            for n, ev in evs.items()}
    for a in analyses:
        for by in groupings:
            values = sorted({r.get(by) for n in names for r in rows[n].get(a, [])})
            if not values:
                continue
            cols = {n: outcome_columns(rows[n].get(a, []), index, by, values) for n in names}
            stats.append(_Stat(metric_block("referents", len(values)), values, lambda s, c=cols: c[s], a, by))
            group_labels[f"{a}|{by}"] = [_group_label(base, a, by, v) for v in values]
    return stats, group_labels, {n: {a: rows[n].get(a, []) for a in analyses} for n in names}


# --------------------------------------------------------------------------------------------
# Link-level comparison
# --------------------------------------------------------------------------------------------

def referent_key(r: LinkOutcome) -> tuple[str, int, int, str]:
    """How a referent is keyed across systems: (doc_id, start, end, side); side "response" for an
    FP row, else "key"."""
    return r.doc_id, r.start, r.end, "response" if r.outcome == "FP" else "key"


def _keyed(rows: list[LinkOutcome]) -> dict[tuple, LinkOutcome]:
    """Rows by :func:`referent_key` and occurrence (1 unless a key repeats)."""
    keys = [referent_key(r) + (1,) for r in rows]
    out = dict(zip(keys, rows))
    if len(out) == len(rows):
        return out
    out = {}
    seen: Counter = Counter()
    for k, r in zip(keys, rows):
        seen[k] += 1
        out[k[:4] + (seen[k],)] = r
    return out


def compare_links(analysis: str, baseline: list[LinkOutcome] | dict, system: list[LinkOutcome]) -> LinkComparison:
    """Outcome rows of one analysis keyed by (doc_id, span, side): the transition counts and the
    referents whose outcome differs (``baseline`` may be given already keyed by :func:`_keyed`)."""
    a = baseline if isinstance(baseline, dict) else _keyed(baseline)
    b = _keyed(system)
    transitions: Counter = Counter()
    changes: list[LinkChange] = []
    for k in list(a) + [k for k in b if k not in a]:
        ra, rb = a.get(k), b.get(k)
        oa, ob = (ra.outcome if ra else NO_ROW), (rb.outcome if rb else NO_ROW)
        transitions[(oa, ob)] += 1
        if oa == ob:
            continue
        r = ra or rb
        changes.append(LinkChange(analysis, r.doc_id, r.start, r.end, r.text, k[3], r.cls, r.type, oa, ob,
                                  r.key_antecedent if k[3] == "key" else None,
                                  ra.response_antecedent if ra else None, rb.response_antecedent if rb else None))
    return LinkComparison(analysis, dict(transitions), changes)


# --------------------------------------------------------------------------------------------
# compare()
# --------------------------------------------------------------------------------------------

def _check(evaluations: dict[str, Evaluation], baseline: str) -> tuple[list[str], list[str]]:
    if baseline not in evaluations:
        raise ValueError(f"baseline {baseline!r} is not one of the systems ({', '.join(evaluations)})")
    base = evaluations[baseline]
    doc_ids = [d.doc_id for d in base.documents]
    warnings: list[str] = []
    for name, ev in evaluations.items():
        if ev.signature.get("key") != base.signature.get("key"):
            raise ValueError(f"{name} was scored against another key than {baseline} "
                             f"({ev.signature.get('key')} vs {base.signature.get('key')})")
        if sorted(d.doc_id for d in ev.documents) != sorted(doc_ids):
            raise ValueError(f"{name} and {baseline} cover different documents")
        diff = {k: v for k, v in ev.signature.diff(base.signature).items() if all(v) or k not in RESPONSE_FIELDS}
        if diff:
            warnings.append(f"{name} was evaluated with other settings than {baseline}: "
                            + ", ".join(f"{k} {a or '-'} vs {b or '-'}" for k, (a, b) in diff.items()))
    return doc_ids, warnings


def compare(evaluations: dict[str, Evaluation], baseline: str, bootstrap: int = 1000, randomization: int = 10000,
            seed: int = 12345, *, groupings: tuple[str, ...] = GROUPINGS, confidence: float = 0.95,
            correction: str = "none") -> Comparison:
    """Compare every system with ``baseline``, paired over the key's documents.

    ``evaluations`` maps system names to evaluations of the same key (their order is the display
    order; the baseline comes first). ``bootstrap`` resamples and ``randomization`` trials (0: that
    test is not run) with ``seed``; ``groupings`` are the outcome-row columns the per-group deltas
    are computed for (``cls``, ``type``, or any feature such as ``mtype`` or ``genre``);
    ``correction`` (``none``, ``holm``, ``bh``) adjusts the p-values over the family of every
    difference tested (each score of each system, the error classes' counts and costs, the class and
    type groups: :func:`family`).

    A score whose recall or precision has a zero denominator over the corpus (the zero score on a
    corpus without zeros) is undefined for that system: its R, P or F1 NaN (``score`` prints n/a),
    and a difference with an undefined side is not tested (NaN).
    """
    check_resampling(bootstrap, randomization, correction)
    doc_ids, warnings = _check(evaluations, baseline)
    names = [baseline] + [n for n in evaluations if n != baseline]
    evs = {n: evaluations[n] for n in names}
    stats, group_labels, rows = _stats(evs, doc_ids, groupings, warnings)
    blocks = [s.block for s in stats]
    rpf, _, _ = stack(blocks)
    X = {n: (np.hstack([s.columns(n) for s in stats]) if stats else np.zeros((len(doc_ids), 0))) for n in names}
    observed = {n: rpf(X[n].sum(0)) for n in names}  # (size, 3)
    defined = {n: defined_scores(blocks, X[n].sum(0)) for n in names}  # (size, 2): R's and P's denominators ≠ 0
    for n in names:  # 0/0: undefined, as score prints it (n/a), not the reference scorer's 0
        observed[n] = observed[n].copy()
        observed[n][:, 0][~defined[n][:, 0]] = np.nan
        observed[n][:, 1][~defined[n][:, 1]] = np.nan
        observed[n][:, 2][~defined[n].all(axis=1)] = np.nan
    f1_ok = {n: ~np.isnan(observed[n][:, 2]) for n in names}
    score = f1_scorer(rpf)
    tests = {n: [undefined_test(t, bool(f1_ok[baseline][i]), bool(f1_ok[n][i])) for i, t in
                 enumerate(paired_tests(X[baseline], X[n], score, bootstrap, randomization, seed, confidence))]
             for n in names[1:]}
    if names[1:]:
        base_ci = [t.baseline_ci for t in tests[names[1]]]
    else:
        bs = paired_bootstrap(X[baseline], X[baseline], score, bootstrap, seed, confidence)
        base_ci = [(float(lo), float(hi)) if f1_ok[baseline][i] else (float("nan"),) * 2
                   for i, (lo, hi) in enumerate(bs.a_ci)]
    sums = {n: X[n].sum(0) for n in names}

    metrics: list[MetricRow] = []
    groups: dict[str, list[GroupDelta]] = {n: [] for n in names[1:]}
    k = 0
    for st in stats:
        for j, label in enumerate(st.names):
            idx = k + j
            if not st.by:
                f1 = {n: float(observed[n][idx, 2]) for n in names}
                top = max((v for v in f1.values() if not math.isnan(v)), default=None)
                counts = {}
                # R and P: None where the score has none (CoNLL), NaN where a fraction is 0/0 (n/a)
                rp = _num if st.block.defined is None else float
                if st.block.defined is not None:
                    lo = sum(s.block.width for s in stats[:stats.index(st)])
                    for n in names:
                        c = sums[n][lo:lo + st.block.width]
                        counts[n] = tuple(float(x) for x in c)
                metrics.append(MetricRow(
                    label,
                    {n: rp(observed[n][idx, 0]) for n in names}, {n: rp(observed[n][idx, 1]) for n in names},
                    f1, {baseline: base_ci[idx], **{n: tests[n][idx].system_ci for n in names[1:]}},
                    {n: tests[n][idx] for n in names[1:]}, [n for n in names if f1[n] == top], counts))
            else:
                cols = slice(3 * j, 3 * j + 3)
                base_cols = st.columns(baseline)[:, cols].sum(0)
                for n in names[1:]:
                    sys_cols = st.columns(n)[:, cols].sum(0)
                    groups[n].append(GroupDelta(st.analysis, st.by, label, group_labels[f"{st.analysis}|{st.by}"][j],
                                                int(base_cols[1]), (int(base_cols[2]), int(sys_cols[2])),
                                                tests[n][idx]))
        k += st.block.size

    links: dict[str, dict[str, LinkComparison]] = {}
    base_keyed = {a: _keyed(r) for a, r in rows[baseline].items()} if names[1:] else {}
    for n in names[1:]:
        links[n] = {a: compare_links(a, base_keyed[a], rows[n][a]) for a in rows[n]}

    headline = "conll" if any(m.name == "conll" for m in metrics) else (metrics[0].name if metrics else "")
    per_document: dict[str, list[DocumentDelta]] = {}
    if headline:
        hidx = next(i for i, m in enumerate(_flat_names(stats)) if m == headline)
        per_doc = {n: f1_scorer(rpf)(X[n])[:, hidx] for n in names}
        for n in names[1:]:
            per_document[n] = sorted((DocumentDelta(d, float(per_doc[baseline][i]), float(per_doc[n][i]))
                                      for i, d in enumerate(doc_ids)), key=lambda x: (x.delta, x.doc_id))

    base = evs[baseline]
    resampling = Resampling(bootstrap, randomization, seed, confidence, ALPHA, tuple(groupings), correction)
    sig = base.signature.extended(resample="docs", bootstrap=bootstrap, ar=randomization, seed=seed,
                                  **({"correction": correction} if correction != "none" else {}))
    sources = {n: ev.response_source for n, ev in evs.items()}
    errors = error_deltas(evs, doc_ids, bootstrap, randomization, seed, confidence, warnings)
    matches: dict[str, ErrorMatch] = {}
    entities: dict[str, EntityChanges] = {}
    if errors:  # the errors themselves: only in one system, in both; what changed per key entity
        for n in names[1:]:
            matches[n] = match_errors(evs[baseline].errors.rows, evs[n].errors.rows)
            changes = entity_changes(evs[baseline], evs[n], doc_ids)
            if changes is not None:
                entities[n] = changes
    size = correct([t for n in names[1:] for t in tests[n]] + [x for rows in errors.values() for d in rows
                                                               for x in (d.count, d.cost)], correction)
    floor = smallest_p(len(doc_ids), randomization, bootstrap, seed)
    # the scores tested (an undefined one, 0/0, is not) and each error class's count and cost
    tested = sum(1 for m in metrics if not any(math.isnan(t.delta) for t in m.tests.values()))
    tested += 2 * len(ERROR_CLASSES) if errors else 0
    notes = cautions(len(doc_ids), floor, resampling, tested, len(names) - 1,
                     sum(len(g) for g in groups.values()), size)
    return Comparison(names, baseline, doc_ids, metrics, groups, links, per_document, headline, sources, resampling,
                      sig, warnings, errors, floor, notes, matches, entities)


def _flat_names(stats: list[_Stat]) -> list[str]:
    return [("" if s.by else name) for s in stats for name in s.names]
