"""Several systems scored against one key: side-by-side scores, paired significance against a
baseline, per-class deltas and links one system gets right and the other wrong.

Everything comes from the systems' :class:`Evaluation` objects: per-document counts (which sum to
the corpus scores exactly) and outcome rows; :mod:`significance` resamples those counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .counts import Counts
from .metrics import BlancCounts
from .outcomes import LinkOutcome, OutcomeCounts, group_by
from .result import Evaluation
from .significance import PairedTest, blanc_f1, counts_f1, paired_test

ANALYSES = ("immediate", "inferred", "anchor", "typed")


def _vec(s: Counts | BlancCounts) -> list[float]:
    if isinstance(s, BlancCounts):
        return _vec(s.coref) + _vec(s.noncoref)
    return [s.recall_num, s.recall_den, s.precision_num, s.precision_den]


def _outcome_vec(c: OutcomeCounts) -> list[float]:
    return [c.credit, c.key_total, c.credit, c.resolved + c.fp]


def document_matrix(ev: Evaluation, doc_ids: list[str]) -> dict[str, np.ndarray]:
    """Per-document count columns of every metric and analysis, in ``doc_ids`` order."""
    by_doc = {d.doc_id: d for d in ev.documents}
    out: dict[str, np.ndarray] = {}
    for name in ev.metrics:
        out[name] = np.array([_vec(by_doc[i].metrics[name]) for i in doc_ids], dtype=float)
    for analysis in ANALYSES:
        rows = [r for r in ev.rows if r.analysis == analysis]
        if not rows:
            continue
        if analysis == "typed" and "typed" in ev.analyses:
            attempted = set(ev.analyses["typed"].attempted)
            rows = [r for r in rows if r.cls in attempted]
        per = group_by(rows, "doc_id")
        out[analysis] = np.array([_outcome_vec(per.get(i, OutcomeCounts())) for i in doc_ids], dtype=float)
    return out


def _scorer(name: str):
    return blanc_f1 if name == "blanc" else counts_f1


@dataclass(slots=True)
class Comparison:
    names: list[str]
    baseline: str
    scores: dict[str, dict[str, float]]  # metric -> system -> F1
    tests: dict[str, dict[str, PairedTest]]  # metric -> system -> test against the baseline
    class_deltas: dict[str, dict[str, list[tuple[str, float, float, float]]]]  # system -> analysis -> rows
    disagreements: dict[str, dict[str, tuple[int, int]]]  # system -> analysis -> (baseline only, system only)
    settings: dict[str, Any] = field(default_factory=dict)

    def best(self, metric: str) -> str:
        return max(self.scores[metric], key=lambda s: self.scores[metric][s])

    def as_dict(self) -> dict[str, Any]:
        return {
            "baseline": self.baseline,
            "systems": self.names,
            "settings": self.settings,
            "scores": self.scores,
            "significance": {m: {s: t.as_dict() for s, t in ts.items()} for m, ts in self.tests.items()},
            "class_deltas": {s: {a: [{"class": c, "baseline_f1": fa, "system_f1": fb, "delta": d}
                                     for c, fa, fb, d in rows] for a, rows in per.items()}
                             for s, per in self.class_deltas.items()},
            "link_disagreements": {s: {a: {"right_only_in_baseline": x, "right_only_in_system": y}
                                       for a, (x, y) in per.items()} for s, per in self.disagreements.items()},
        }


def _class_deltas(a: list[LinkOutcome], b: list[LinkOutcome]) -> list[tuple[str, float, float, float]]:
    ga, gb = group_by(a, "cls"), group_by(b, "cls")
    out = []
    for c in sorted(set(ga) | set(gb)):
        fa = ga.get(c, OutcomeCounts()).f1
        fb = gb.get(c, OutcomeCounts()).f1
        out.append((c, fa, fb, fb - fa))
    out.sort(key=lambda x: -abs(x[3]))
    return out


def _disagreements(a: list[LinkOutcome], b: list[LinkOutcome]) -> tuple[int, int]:
    ok_a = {(r.doc_id, r.start, r.end) for r in a if r.outcome == "TP"}
    ok_b = {(r.doc_id, r.start, r.end) for r in b if r.outcome == "TP"}
    return len(ok_a - ok_b), len(ok_b - ok_a)


def compare(evaluations: dict[str, Evaluation], baseline: str, bootstrap: int = 1000,
            randomization: int = 10000, seed: int = 12345) -> Comparison:
    """Compare every system with ``baseline`` (paired over the key's documents)."""
    names = list(evaluations)
    base = evaluations[baseline]
    doc_ids = [d.doc_id for d in base.documents]
    mats = {n: document_matrix(ev, doc_ids) for n, ev in evaluations.items()}
    metrics = [m for m in mats[baseline] if all(m in mats[n] for n in names)]
    scores: dict[str, dict[str, float]] = {}
    tests: dict[str, dict[str, PairedTest]] = {}
    rng = np.random.default_rng(seed)
    conll_parts = ("muc", "bcub", "ceafe")
    for m in metrics:
        scores[m] = {n: float(_scorer(m)(mats[n][m].sum(0))) for n in names}
    if all(p in metrics for p in conll_parts):
        scores["conll"] = {n: sum(scores[p][n] for p in conll_parts) / 3 for n in names}

        def conll(cols: np.ndarray) -> np.ndarray:
            return (counts_f1(cols[..., 0:4]) + counts_f1(cols[..., 4:8]) + counts_f1(cols[..., 8:12])) / 3

        for n in names:
            mats[n]["conll"] = np.concatenate([mats[n][p] for p in conll_parts], axis=1)
    for m in scores:
        scorer = conll if m == "conll" else _scorer(m)
        tests[m] = {}
        for n in names:
            if n == baseline:
                continue
            tests[m][n] = paired_test(mats[baseline][m], mats[n][m], scorer, bootstrap, randomization, rng)
    class_deltas: dict = {}
    disagreements: dict = {}
    for n in names:
        if n == baseline:
            continue
        class_deltas[n] = {}
        disagreements[n] = {}
        for a in ANALYSES:
            ra = base.rows_of(a)
            rb = evaluations[n].rows_of(a)
            if ra or rb:
                class_deltas[n][a] = _class_deltas(ra, rb)
                disagreements[n][a] = _disagreements(ra, rb)
    settings = {"bootstrap": bootstrap, "randomization": randomization, "seed": seed,
                "signature": base.signature + f"|bootstrap:{bootstrap}|ar:{randomization}|seed:{seed}"}
    return Comparison(names, baseline, scores, tests, class_deltas, disagreements, settings)
