"""Systems compared per stratum of chains (``compare --strata``): for each stratification, stratum
and score, the difference of the systems' F1 with its 95 % interval and p-values.

A stratum's score is micro over the documents (each document's counts of that stratum summed,
:mod:`corefreport.scoring.strata`), so it is tested as ``compare`` tests a corpus
(:func:`~corefreport.scoring.significance.paired_tests`): the documents are resampled — every
document with its counts of that stratum, zeros where it has no chain of it —, both systems on the
same draw (paired bootstrap, Koehn 2004) and documents swapped between the systems (approximate
randomization, Riezler & Maxwell 2005). No macro row: every stratum holds the same documents, so
a mean over the strata is not a stratified resample.

>>> from corefreport.scoring.counts import Counts
>>> from corefreport.scoring.strata import StratumScores
>>> rows = [{"1": StratumScores({"muc": Counts(1, 2, 1, 2)})}, {}]
>>> score_matrix([r.get("1") for r in rows], "muc").tolist()
[[1.0, 2.0, 1.0, 2.0], [0.0, 0.0, 0.0, 0.0]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..scoring.registry import REGISTRY


@dataclass(frozen=True)
class StrataComparison:
    """Systems against a baseline per stratum of one stratification: ``tests`` system → stratum →
    score → :class:`~corefreport.scoring.significance.PairedTest` (a score no system has a count of
    in a stratum — MUC on singletons — is not tested)."""

    spec: str
    kind: str
    title: str
    unit: str
    baseline: str
    systems: tuple[str, ...]
    strata: tuple[str, ...]
    metrics: tuple[str, ...]
    tests: dict[str, dict[str, dict[str, Any]]]
    documents: int
    bootstrap: int
    randomization: int
    seed: int
    signature: object

    def as_dict(self) -> dict:
        return {"kind": self.kind, "baseline": self.baseline, "systems": list(self.systems),
                "metrics": list(self.metrics), "documents": self.documents,
                "strata": {st: {s: {m: t.as_dict() for m, t in self.tests[s][st].items()} for s in self.systems}
                           for st in self.strata},
                "resampling": {"unit": "documents", "per_stratum": "paired bootstrap and approximate randomization "
                               "over the documents, each with its counts of the stratum", "bootstrap": self.bootstrap,
                               "randomization": self.randomization, "seed": self.seed},
                "signature": str(self.signature)}


def score_matrix(scores: list, metric: str) -> np.ndarray:
    """(documents × columns) of ``metric``: one row per document's scores (anything with
    ``metrics`` and ``mentions``: a document's result, its windows, its stratum), zeros where a
    document has none (``None``: no chain of the stratum); ``mentions``: mention identification;
    ``conll``: MUC's, B³'s and CEAF-e's columns side by side."""
    from ..scoring.compare import counts_vector

    parts = REGISTRY["conll"].requires if metric == "conll" else (metric,)
    width = {p: len(counts_vector(REGISTRY[p].empty())) if p != "mentions" else 4 for p in parts}
    out = []
    for x in scores:
        row: list[float] = []
        for p in parts:
            if x is None:
                row.extend([0.0] * width[p])
            else:
                row.extend(counts_vector(x.mentions if p == "mentions" else x.metrics[p]))
        out.append(row)
    return np.asarray(out, dtype=float).reshape(len(scores), sum(width.values()))


def compared(names: tuple[str, ...]) -> list[str]:
    """The scores compared per stratum: the stratified metrics, CoNLL after the standard ones
    (when MUC, B³ and CEAF-e are there), mention identification last."""
    standard = [m for m in names if REGISTRY[m].family == "standard"]
    rest = [m for m in names if m not in standard]
    conll = ["conll"] if all(p in names for p in REGISTRY["conll"].requires) else []
    return standard + conll + rest + ["mentions"]


def compare_strata(evaluations: dict[str, Any], spec: str, baseline: str, bootstrap: int = 1000,
                   randomization: int = 10000, seed: int = 12345) -> StrataComparison:
    """The systems of ``evaluations`` (name → :class:`~corefreport.scoring.result.Evaluation` of one
    key, scored with ``--strata spec``) compared per stratum (module docstring)."""
    from ..scoring.significance import paired_tests
    from .groupdeltas import f1_of

    if baseline not in evaluations:
        raise ValueError(f"the baseline {baseline!r} is not among the systems")
    base = evaluations[baseline]
    totals = base.strata[spec]
    st = totals.stratification
    found = [s for ev in evaluations.values() for s in ev.strata[spec].strata]
    strata = st.order(found)
    metrics = compared(totals.metrics)
    doc_ids = [d.doc_id for d in base.documents]
    rows = {}
    for name, ev in evaluations.items():
        by_id = {d.doc_id: d.strata.get(spec, {}) for d in ev.documents}
        rows[name] = [by_id.get(i, {}) for i in doc_ids]
    others = [s for s in evaluations if s != baseline]
    tests: dict = {s: {x: {} for x in strata} for s in others}
    for x in strata:
        for m in metrics:
            a = score_matrix([r.get(x) for r in rows[baseline]], m)
            b = {s: score_matrix([r.get(x) for r in rows[s]], m) for s in others}
            if not a.any() and not any(v.any() for v in b.values()):
                continue  # no count on any side (MUC on singletons: no links): nothing to test
            for s in others:
                tests[s][x][m] = paired_tests(a, b[s], f1_of(m), bootstrap, randomization, seed)[0]
    sig = base.signature.extended(resample="docs", bootstrap=bootstrap, ar=randomization, seed=seed)
    return StrataComparison(spec, st.kind, st.title, st.unit, baseline, tuple(others), tuple(strata), tuple(metrics),
                            tests, len(doc_ids), bootstrap, randomization, seed, sig)


__all__ = ["StrataComparison", "compare_strata", "compared", "score_matrix"]
