"""What ``--strata`` adds to every output: per stratification one table — per stratum of chains,
its key and response chains and each metric's R, P, F1 with numerators and denominators (CoNLL
and mention identification after them) — and, for ``compare``, per system and stratification the
difference of each score with its interval and p-value. The numbers come from
:class:`~corefreport.scoring.strata.Strata` and :class:`~corefreport.study.strata.StrataComparison`;
nothing is computed here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..scoring.registry import REGISTRY
from .labels import METRIC_LABELS
from .numbers import interval, p_value, pct, signed
from .table import Table
from .tables import METRIC_HEADER, metric_row

if TYPE_CHECKING:
    from ..scoring.result import Evaluation
    from ..scoring.strata import Strata
    from ..study.strata import StrataComparison

HEADER = ["metric", "stratum", "key_chains", "response_chains", *METRIC_HEADER[1:]]
LABELS = ["Metric", "stratum", "key chains", "resp. chains", "R", "P", "F1", "R num.", "R den.", "P num.", "P den."]


def rule_note(kind: str) -> str:
    """The rule, in a table's note."""
    what = {"chain-length": "length", "spread": "spread", "etype": "type"}.get(kind, "mentions' value")
    return (f"each stratum: the metric on that stratum's chains alone, key chains by their own {what} and response "
            f"chains by theirs (Duron-Tejedor et al. 2023), micro over documents; its denominators are its own "
            "chains' mentions (docs/strata.md)")


def strata_table(st: Strata, signature: str = "") -> Table:
    """One stratification: per stratum each metric's row (R, P, F1, counts), its CoNLL, its mentions."""
    kind = st.stratification
    t = Table(f"Scores per {kind.title} (strata {kind.spec})", list(HEADER), labels=list(LABELS),
              groups=[("", 3), ("Score (%)", 3), ("Recall", 2), ("Precision", 2)], keys=2)
    t.labels[1] = kind.unit
    for name, x in st.strata.items():
        if t.rows:
            t.breaks.append(len(t.rows))
        chains = [x.key_chains, x.response_chains]
        for m in st.metrics:
            r = metric_row(m, x.metrics[m])
            t.rows.append([r[0], name, *chains, *r[1:]])
        for d, f in x.derived.items():
            if all(p in st.metrics for p in REGISTRY[d].requires):
                t.rows.append([d, name, *chains, "", "", f, None, None, None, None])
        r = metric_row("mentions", x.mentions)
        t.rows.append([r[0], name, *chains, *r[1:]])
    t.note = rule_note(kind.kind) + (f"; {signature}" if signature else "")
    return t


def strata_tables(ev: Evaluation) -> list[Table]:
    """The table of each stratification of ``ev`` (none without ``--strata``)."""
    return [strata_table(st) for st in ev.strata.values()]


def headline_table(st: Strata) -> Table:
    """One row per stratum: its chains and each score's F1 (CoNLL first) — the browser's page and
    the report's summary."""
    names = [d for d in REGISTRY if REGISTRY[d].requires and all(p in st.metrics for p in REGISTRY[d].requires)]
    header = ["stratum", "key_chains", "response_chains", *names, *st.metrics, "mentions_f1"]
    t = Table(f"F1 per {st.stratification.title} (strata {st.spec})", header,
              labels=[st.stratification.unit, "key chains", "resp. chains",
                      *(METRIC_LABELS.get(h, h) for h in header[3:-1]), METRIC_LABELS["mentions"]],
              note=rule_note(st.stratification.kind))
    for name, x in st.strata.items():
        derived = x.derived
        t.rows.append([name, x.key_chains, x.response_chains, *(derived.get(d) for d in names),
                       *(metric_row(m, x.metrics[m])[3] for m in st.metrics), metric_row("mentions", x.mentions)[3]])
    return t


# --------------------------------------------------------------------------- compare


def comparison_tables(cmp: StrataComparison) -> list[Table]:
    """One table per system: per stratum and score, the baseline's and the system's F1, the
    difference, its 95 % interval and p-value (the documents resampled, each document's counts
    of that stratum)."""
    out = []
    for s in cmp.systems:
        t = Table(f"{s} vs {cmp.baseline}: F1 per {cmp.title} (strata {cmp.spec})",
                  ["metric", "stratum", "baseline_f1", "system_f1", "delta", "delta_ci", "p"],
                  labels=["Metric", cmp.unit, cmp.baseline, s, "Δ", "95% CI of Δ", "p"],
                  note=(f"Δ, its interval and p: paired bootstrap ({cmp.bootstrap}) and approximate "
                        f"randomization ({cmp.randomization}) over the documents, each with its counts of the "
                        "stratum; " + rule_note(cmp.kind)))
        for stratum in cmp.strata:
            if t.rows:
                t.breaks.append(len(t.rows))
            for m in cmp.metrics:
                x = cmp.tests[s][stratum].get(m)
                if x is None:  # no count on any side (MUC on singletons)
                    continue
                t.rows.append([m, stratum, pct(x.baseline), pct(x.system), signed(x.delta), interval(x.delta_ci),
                               p_value(x.p)])
        out.append(t)
    return out


__all__ = ["HEADER", "comparison_tables", "headline_table", "rule_note", "strata_table", "strata_tables"]
