"""Link-level analyses as group-bys over outcome rows: the ARCS tables (Tuggener 2014).

The rows themselves come from :mod:`corefreport.scoring.arcs` (ARCS) and
:mod:`corefreport.scoring.typed` (Žitkus et al. 2023); this module only aggregates them into the
tables every view shows — totals per scenario and breakdowns by any mention feature.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .outcomes import LinkOutcome, OutcomeCounts, group_by, tally

ARCS_SCENARIOS = ("immediate", "inferred", "anchor")


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


def arcs_tables(rows: list[LinkOutcome], by: tuple[str, ...], entity: Any = None) -> ArcsResult:
    """Totals and per-feature breakdowns of the ARCS rows, one :class:`ArcsScenario` each."""
    result = ArcsResult()
    names = ARCS_SCENARIOS + (("anchor_link",) if any(r.analysis == "anchor_link" for r in rows) else ())
    of: dict[str, list[LinkOutcome]] = {name: [] for name in names}
    for r in rows:
        sub = of.get(r.analysis)
        if sub is not None:
            sub.append(r)
    for name in names:
        sub = of[name]
        scen = ArcsScenario(name, tally(sub), group_by(sub, *by, separately=True) if by else {})
        if name == "anchor":
            scen.entity = entity
        result.scenarios[name] = scen
    return result
