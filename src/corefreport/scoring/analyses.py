"""Link-level analyses as group-bys over outcome rows: the ARCS tables (Tuggener 2014).

The rows themselves come from :mod:`corefreport.scoring.arcs` (ARCS) and
:mod:`corefreport.scoring.typed` (Žitkus et al. 2023); this module only aggregates them into the
tables every view shows — totals per scenario and breakdowns by any mention feature.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .outcomes import LinkOutcome, OutcomeCounts, add_counts, add_groups, group_by, tally

from .registry import ARCS_SCENARIOS


def _arcs_dict(c: OutcomeCounts) -> dict[str, float]:
    """ARCS counts use tp/wl/fn/fp only (WT and WTL never occur)."""
    return {"tp": c.tp, "wl": c.wl, "fn": c.fn, "fp": c.fp, "recall": c.recall, "precision": c.precision,
            "f1": c.f1, "accuracy": c.accuracy}


@dataclass(slots=True)
class ArcsScenario:
    """One scenario: totals, breakdowns per feature, and (scenario 3) entity-level scores."""

    name: str
    total: OutcomeCounts
    by: dict[str, dict[str, OutcomeCounts]] = field(default_factory=dict)
    entity: Any = None  # scenario 3: Entity Detection / Entity Mentions / F_phi (from arcs.anchor_scores)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "total": _arcs_dict(self.total),
            "by": {f: {v: _arcs_dict(c) for v, c in vals.items()} for f, vals in self.by.items()},
        }
        if self.entity is not None:
            out.update(self.entity.as_dict() if hasattr(self.entity, "as_dict") else self.entity)
        return out


@dataclass(slots=True)
class ArcsResult:
    """ARCS tables for the three application scenarios."""

    scenarios: dict[str, ArcsScenario] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {name: s.as_dict() for name, s in self.scenarios.items()}


ArcsParts = dict[str, tuple[OutcomeCounts, dict[str, dict[str, OutcomeCounts]]]]
"""Per scenario: the counts of all its rows and the breakdowns (:func:`arcs_parts`)."""


def arcs_parts(rows: list[LinkOutcome], by: tuple[str, ...]) -> ArcsParts:
    """Per ARCS scenario (and ``anchor_link`` when it has rows): the tally of its rows and their
    group-bys by each feature of ``by``. The parts of consecutive runs of documents add up
    (:func:`add_parts`) to those of all of them."""
    names = ARCS_SCENARIOS + (("anchor_link",) if any(r.analysis == "anchor_link" for r in rows) else ())
    of: dict[str, list[LinkOutcome]] = {name: [] for name in names}
    for r in rows:
        sub = of.get(r.analysis)
        if sub is not None:
            sub.append(r)
    return {name: (tally(sub), group_by(sub, *by, separately=True) if by else {}) for name, sub in of.items()}


def add_parts(a: ArcsParts, b: ArcsParts) -> ArcsParts:
    """The parts of two runs of documents, ``a``'s before ``b``'s, as one: counts added, the
    values of each breakdown in sorted order (as :func:`~.outcomes.group_by` gives them)."""
    out: ArcsParts = {}
    for name in list(a) + [n for n in b if n not in a]:
        ta, ba = a.get(name, (OutcomeCounts(), {}))
        tb, bb = b.get(name, (OutcomeCounts(), {}))
        out[name] = (add_counts(ta, tb), {f: add_groups(ba.get(f, {}), bb.get(f, {})) for f in list(ba) + [
            f for f in bb if f not in ba]})
    return out


def arcs_result(parts: ArcsParts, entity: Any = None) -> ArcsResult:
    """The ARCS tables from their parts; ``entity``: scenario 3's entity-level scores."""
    result = ArcsResult()
    for name, (total, by) in parts.items():
        result.scenarios[name] = ArcsScenario(name, total, by, entity if name == "anchor" else None)
    return result


def arcs_tables(rows: list[LinkOutcome], by: tuple[str, ...], entity: Any = None) -> ArcsResult:
    """Totals and per-feature breakdowns of the ARCS rows, one :class:`ArcsScenario` each."""
    return arcs_result(arcs_parts(rows, by), entity)


class ArcsAnalysis:
    """The pipeline's steps of ARCS (:class:`~corefreport.scoring.registry.Analysis`): per run of
    documents the rows of every scenario and scenario 3's entity counts; the part is the rows'
    tables (:func:`arcs_parts`) and those counts, which add up over runs of documents."""

    def __init__(self, settings) -> None:
        from .arcs import ANCHOR_LINK, SCENARIOS, ArcsOptions

        self.by = settings.breakdowns
        # --arcs-compat reproduces v1.2 everywhere: scenario 3 with the response's singletons too
        self.options = ArcsOptions(compat=settings.arcs_compat,
                                   anchor_singletons=settings.arcs_singletons or settings.arcs_compat)
        self.scenarios = SCENARIOS + ((ANCHOR_LINK,) if settings.arcs_anchor_links else ())

    def score(self, aligned: list) -> tuple[list[LinkOutcome], tuple[ArcsParts, Any]]:
        from .arcs import AnchorScores, arcs_document

        rows: list[LinkOutcome] = []
        anchor = AnchorScores()
        for ad in aligned:
            arows, ascores = arcs_document(ad.key_doc, ad.response_doc, doc_id=ad.doc_id, options=self.options,
                                           scenarios=self.scenarios)
            rows.extend(arows)
            anchor += ascores
        return rows, (arcs_parts(rows, self.by), anchor)

    @staticmethod
    def options(s) -> dict:
        """Its options in the JSON's ``settings``."""
        return {"by": list(s.breakdowns), "compat": s.arcs_compat, "singletons": s.arcs_singletons or s.arcs_compat,
                "anchor_links": s.arcs_anchor_links}

    @staticmethod
    def signature(s) -> list[tuple[str, str]]:
        """Its signature fields: the options that change its numbers, when any is on."""
        on = [n for n, v in (("v1.2", s.arcs_compat), ("singletons", s.arcs_singletons),
                             ("anchor-links", s.arcs_anchor_links)) if v]
        return [("arcs", "+".join(on))] if on else []

    @staticmethod
    def add(a: tuple[ArcsParts, Any], b: tuple[ArcsParts, Any]) -> tuple[ArcsParts, Any]:
        return add_parts(a[0], b[0]), a[1] + b[1]

    def result(self, part: tuple[ArcsParts, Any]) -> ArcsResult:
        return arcs_result(*part)
