"""Differences between two systems over many datasets, and between two groups of runs, with the
interval and p-values of each — saying which unit was resampled.

**Datasets** (``compare --datasets``). A dataset's delta is that of its micro scores, tested as
``compare`` tests one corpus (:func:`~.significance.paired_tests`: documents resampled). The
macro delta is ``Δ = (1/N) Σ_d [F(Σ B_d) − F(Σ A_d)]`` (the CRAC rule: the unweighted mean of the
datasets' scores); its interval is a *stratified* paired bootstrap — in each resample every
dataset's documents are drawn with replacement within that dataset, both systems get the same
draw, and the macro delta is recomputed — and its p-value the bootstrap shift test and an
approximate randomization that swaps whole documents between the systems within each dataset
(Koehn 2004; Riezler & Maxwell 2005; Dror et al. 2018 for many datasets).

**Runs** (``compare --runs``). Group A's runs ``a_1…a_m`` and group B's ``b_1…b_n`` (seeds),
each scored against the same key: ``Δ = mean_j F(b_j) − mean_i F(a_i)``. Two tests, both
reported:

* runs as the unit (the seed variance): a permutation test over the assignment of the m + n runs
  to the groups — every assignment when there are at most ``trials`` of them (then the smallest p
  is ``1 / C(m+n, m)``: 0.1 for 3 against 3 runs, which no test can beat), else ``trials`` random
  ones — and a percentile interval from resampling each group's runs with replacement;
* documents as the unit (the test-set variance): a paired bootstrap over the documents, each
  resample's Δ the difference of the groups' mean scores on the same draw.

The significance verdict is the runs' when each group has two runs or more, else the documents'.

>>> import numpy as np
>>> from corefreport.scoring.significance import f1_scorer, metric_block
>>> f = f1_scorer(metric_block("muc").rpf)
>>> a = [np.array([[1, 2, 1, 2], [0, 1, 0, 1]]), np.array([[2, 2, 2, 2]])]
>>> b = [np.array([[2, 2, 2, 2], [1, 1, 1, 1]]), np.array([[2, 2, 2, 2]])]
>>> d = macro_delta(a, b, f, resamples=200, trials=200)
>>> round(d.baseline, 4), round(d.system, 4), round(d.delta, 4), d.unit
(0.6667, 1.0, 0.3333, 'documents')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from ..scoring.significance import TIE, interval

Scorer = Callable[[np.ndarray], np.ndarray]

STREAMS = {"datasets_bootstrap": 20, "datasets_randomization": 21, "runs_bootstrap": 22, "runs_permutation": 23,
           "runs_documents": 24}
"""Random streams of :func:`numpy.random.default_rng` ``[seed, stream, block]``, apart from
:mod:`.significance`'s."""


@dataclass(frozen=True, slots=True)
class Delta:
    """One difference: both sides' values, the difference, its 95 % interval, the p-value of the
    randomization or permutation test (``p_value``) and of the bootstrap shift test, the unit
    resampled (``documents`` or ``runs``) and how (``method``)."""

    baseline: float
    system: float
    delta: float
    delta_ci: tuple[float, float]
    p_value: float
    p_bootstrap: float
    unit: str
    method: str

    @property
    def p(self) -> float:
        return self.p_bootstrap if math.isnan(self.p_value) else self.p_value

    def significant(self, alpha: float = 0.05) -> bool:
        return self.p < alpha

    def as_dict(self) -> dict:
        def num(x: float) -> float | None:
            return None if math.isnan(x) else float(x)

        return {"baseline": num(self.baseline), "system": num(self.system), "delta": num(self.delta),
                "delta_ci": None if math.isnan(self.delta_ci[0]) else [float(self.delta_ci[0]), float(self.delta_ci[1])],
                "p_value": num(self.p_value), "p_bootstrap": num(self.p_bootstrap), "unit": self.unit,
                "method": self.method, "significant": self.significant()}


def _weights(rng: np.random.Generator, n: int, m: int) -> np.ndarray:
    """``m`` bootstrap draws of ``n`` documents as multiplicities (m × n)."""
    idx = rng.integers(0, n, size=(m, n))
    flat = (idx + (np.arange(m) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=m * n).reshape(m, n).astype(float)


def _scalar(x) -> np.ndarray:
    return np.reshape(np.asarray(x, dtype=float), (-1,))


def macro_delta(a: Sequence[np.ndarray], b: Sequence[np.ndarray], score: Scorer, resamples: int = 1000,
                trials: int = 10000, seed: int = 12345, block: int = 500) -> Delta:
    """The macro delta over datasets (see the module docstring): ``a[d]``, ``b[d]`` are dataset
    ``d``'s (documents × columns) count matrices of the baseline and the system, rows paired;
    ``score`` maps summed columns to one score."""
    a = [np.asarray(x, dtype=float) for x in a]
    b = [np.asarray(x, dtype=float) for x in b]
    fa = np.array([_scalar(score(x.sum(0)))[0] for x in a])
    fb = np.array([_scalar(score(x.sum(0)))[0] for x in b])
    obs = float(np.mean(fb - fa))
    nan = (math.nan, math.nan)
    ci, p_boot, p_rand = nan, math.nan, math.nan
    if resamples > 0:
        d = np.zeros(resamples)
        for i, (x, y) in enumerate(zip(a, b)):
            rng = np.random.default_rng([seed, STREAMS["datasets_bootstrap"], i])
            for lo in range(0, resamples, block):
                w = _weights(rng, len(x), min(block, resamples - lo))
                d[lo:lo + len(w)] += score(w @ y).reshape(len(w)) - score(w @ x).reshape(len(w))
        d /= len(a)
        ci = tuple(float(v) for v in interval(d[:, None])[0])
        p_boot = float((np.sum(np.abs(d - obs) >= abs(obs) - TIE) + 1) / (resamples + 1))
    if trials > 0:
        d = np.zeros(trials)
        for i, (x, y) in enumerate(zip(a, b)):
            rng = np.random.default_rng([seed, STREAMS["datasets_randomization"], i])
            ta, tb, diff = x.sum(0), y.sum(0), y - x
            for lo in range(0, trials, block):
                s = rng.integers(0, 2, size=(min(block, trials - lo), len(x))).astype(float)
                moved = s @ diff
                d[lo:lo + len(s)] += score(tb - moved).reshape(len(s)) - score(ta + moved).reshape(len(s))
        d /= len(a)
        p_rand = float((np.sum(np.abs(d) >= abs(obs) - TIE) + 1) / (trials + 1))
    return Delta(float(np.mean(fa)), float(np.mean(fb)), obs, ci, p_rand, p_boot, "documents",
                 "stratified paired bootstrap and approximate randomization over each dataset's documents")


@dataclass(frozen=True, slots=True)
class RunsDelta:
    """Two groups of runs on one score: the runs' values, and the difference tested with the runs as
    the unit and with the documents as the unit; ``verdict``: which of the two decides."""

    baseline_values: tuple[float, ...]
    system_values: tuple[float, ...]
    runs: Delta
    documents: Delta

    @property
    def baseline_stats(self):
        """Mean, sample sd, min and max of the baseline group's runs (:class:`~.runs.RunStats`)."""
        from .runs import RunStats

        return RunStats.of(self.baseline_values)

    @property
    def system_stats(self):
        from .runs import RunStats

        return RunStats.of(self.system_values)

    @property
    def verdict(self) -> Delta:
        return self.runs if min(len(self.baseline_values), len(self.system_values)) >= 2 else self.documents

    def as_dict(self) -> dict:
        return {"baseline_values": list(self.baseline_values), "system_values": list(self.system_values),
                "runs": self.runs.as_dict(), "documents": self.documents.as_dict(),
                "verdict": self.verdict.unit}


def _assignments(m: int, n: int, trials: int, rng: np.random.Generator) -> tuple[np.ndarray, bool]:
    """Boolean (k × (m+n)) rows: which runs form group A. Every assignment (``True``) when there
    are at most ``trials``, else ``trials`` random ones (``False``)."""
    total = math.comb(m + n, m)
    if total <= trials:
        rows = np.zeros((total, m + n), dtype=bool)
        for k, chosen in enumerate(combinations(range(m + n), m)):
            rows[k, list(chosen)] = True
        return rows, True
    rows = np.zeros((trials, m + n), dtype=bool)
    for k in range(trials):
        rows[k, rng.permutation(m + n)[:m]] = True
    return rows, False


def runs_delta(a: Sequence[np.ndarray], b: Sequence[np.ndarray], score: Scorer, resamples: int = 1000,
               trials: int = 10000, seed: int = 12345, block: int = 500) -> RunsDelta:
    """Group B's runs against group A's (see the module docstring): ``a[i]``, ``b[j]`` are run
    (documents × columns) count matrices, the same documents in the same order."""
    a = [np.asarray(x, dtype=float) for x in a]
    b = [np.asarray(x, dtype=float) for x in b]
    va = np.array([_scalar(score(x.sum(0)))[0] for x in a])
    vb = np.array([_scalar(score(x.sum(0)))[0] for x in b])
    obs = float(vb.mean() - va.mean())
    nan = (math.nan, math.nan)
    # runs as the unit
    ci, p_boot, p_perm, how = nan, math.nan, math.nan, "no test (one run a side)"
    m, n = len(va), len(vb)
    if m >= 2 and n >= 2:
        values = np.concatenate([va, vb])
        rows, exact = _assignments(m, n, max(trials, 1), np.random.default_rng([seed, STREAMS["runs_permutation"], 0]))
        perm = np.array([values[~r].mean() - values[r].mean() for r in rows])
        hits = int(np.sum(np.abs(perm) >= abs(obs) - TIE))
        p_perm = hits / len(rows) if exact else (hits + 1) / (len(rows) + 1)
        how = (f"exact permutation test over all {len(rows)} assignments of the runs" if exact else
               f"permutation test over {len(rows)} random assignments of the runs")
        if resamples > 0:
            rng = np.random.default_rng([seed, STREAMS["runs_bootstrap"], 0])
            d = (vb[rng.integers(0, n, size=(resamples, n))].mean(1) - va[rng.integers(0, m, size=(resamples, m))].mean(1))
            ci = tuple(float(v) for v in interval(d[:, None])[0])
            p_boot = float((np.sum(np.abs(d - obs) >= abs(obs) - TIE) + 1) / (resamples + 1))
            how += "; runs resampled with replacement within each group for the interval"
    by_runs = Delta(float(va.mean()), float(vb.mean()), obs, ci, p_perm, p_boot, "runs", how)
    # documents as the unit
    ci, p_boot = nan, math.nan
    if resamples > 0 and len(a[0]):
        rng = np.random.default_rng([seed, STREAMS["runs_documents"], 0])
        d = np.zeros(resamples)
        for lo in range(0, resamples, block):
            w = _weights(rng, len(a[0]), min(block, resamples - lo))
            d[lo:lo + len(w)] = (np.mean([score(w @ y).reshape(len(w)) for y in b], axis=0)
                                 - np.mean([score(w @ x).reshape(len(w)) for x in a], axis=0))
        ci = tuple(float(v) for v in interval(d[:, None])[0])
        p_boot = float((np.sum(np.abs(d - obs) >= abs(obs) - TIE) + 1) / (resamples + 1))
    by_docs = Delta(float(va.mean()), float(vb.mean()), obs, ci, math.nan, p_boot, "documents",
                    "paired bootstrap over the documents, each resample's difference of the groups' mean scores")
    return RunsDelta(tuple(float(x) for x in va), tuple(float(x) for x in vb), by_runs, by_docs)


# -- from evaluations ------------------------------------------------------------------------------

def compared_metrics(evaluations: Sequence) -> list[str]:
    """The scores compared: the per-document metrics every evaluation computed, CoNLL after the
    standard ones (when MUC, B³ and CEAF-e are there), and mention identification last."""
    from ..scoring.registry import REGISTRY, per_document

    first = evaluations[0]
    names = [m for m in first.metrics if per_document(m) and all(m in ev.metrics for ev in evaluations)]
    standard = [m for m in names if REGISTRY[m].family == "standard"]
    rest = [m for m in names if m not in standard]
    conll = ["conll"] if all(p in names for p in REGISTRY["conll"].requires) else []
    return standard + conll + rest + ["mentions"]


def score_columns(ev, metrics: Sequence[str], doc_ids: Sequence[str]) -> dict[str, np.ndarray]:
    """Each compared score's (documents × columns) counts in ``doc_ids`` order (CoNLL: MUC's, B³'s
    and CEAF-e's side by side), from the evaluation's per-document results."""
    from ..scoring.compare import document_matrix
    from ..scoring.registry import REGISTRY

    mats = document_matrix(ev, list(doc_ids))
    return {m: np.hstack([mats[p] for p in REGISTRY["conll"].requires]) if m == "conll" else mats[m] for m in metrics}


def f1_of(metric: str) -> Scorer:
    """Summed columns → the metric's F1 (the registry's formula)."""
    from ..scoring.significance import f1_scorer, metric_block

    return f1_scorer(metric_block(metric).rpf)


@dataclass(frozen=True)
class DatasetsComparison:
    """Systems against a baseline on many datasets: per dataset and score, the paired tests over
    its documents (:class:`~.significance.PairedTest`); per score, the macro :class:`Delta`."""

    baseline: str
    systems: tuple[str, ...]
    datasets: tuple[str, ...]
    documents: dict[str, int]
    metrics: tuple[str, ...]
    per_dataset: dict[str, dict[str, dict[str, object]]]
    """system → dataset → score → PairedTest."""
    macro: dict[str, dict[str, Delta]]
    """system → score → the macro delta."""
    bootstrap: int
    randomization: int
    seed: int
    signature: object
    warnings: tuple[str, ...] = ()

    @property
    def headline(self) -> str:
        return "conll" if "conll" in self.metrics else self.metrics[0]

    def as_dict(self) -> dict:
        return {
            "baseline": self.baseline, "systems": list(self.systems), "metrics": list(self.metrics),
            "datasets": {d: {"documents": self.documents[d],
                             "systems": {s: {m: t.as_dict() for m, t in self.per_dataset[s][d].items()}
                                         for s in self.systems}} for d in self.datasets},
            "macro": {s: {m: x.as_dict() for m, x in self.macro[s].items()} for s in self.systems},
            "resampling": {"unit": "documents", "per_dataset": "paired bootstrap and approximate randomization over "
                           "the dataset's documents", "macro": "stratified: each dataset's documents within it",
                           "bootstrap": self.bootstrap, "randomization": self.randomization, "seed": self.seed},
            "signature": str(self.signature), "warnings": list(self.warnings)}


def compare_datasets(evaluations: dict[str, dict[str, object]], baseline: str, bootstrap: int = 1000,
                     randomization: int = 10000, seed: int = 12345) -> DatasetsComparison:
    """``evaluations``: dataset → system → :class:`~.result.Evaluation` (the systems of a dataset
    scored against its key; every dataset has every system). The baseline first among the systems."""
    if bootstrap < 0 or randomization < 0:
        raise ValueError("bootstrap and randomization take a number ≥ 0")
    datasets = list(evaluations)
    if not datasets:
        raise ValueError("no dataset to compare")
    systems = list(next(iter(evaluations.values())))
    if baseline not in systems:
        raise ValueError(f"the baseline {baseline!r} is not among the systems")
    metrics = compared_metrics([ev for d in datasets for ev in evaluations[d].values()])
    mats: dict[str, dict[str, dict[str, np.ndarray]]] = {}
    for d in datasets:
        evs = evaluations[d]
        doc_ids = [x.doc_id for x in evs[baseline].documents]
        mats[d] = {s: score_columns(evs[s], metrics, doc_ids) for s in systems}
    first = evaluations[datasets[0]][baseline].signature
    sig = first.extended(datasets=len(datasets), resample="docs-within-datasets", bootstrap=bootstrap,
                         ar=randomization, seed=seed)
    return _compare_blocks(mats, systems, baseline, metrics, bootstrap, randomization, seed, sig)


def compare_groups(evaluations: dict[str, object], by, baseline: str, bootstrap: int = 1000,
                   randomization: int = 10000, seed: int = 12345) -> DatasetsComparison:
    """The systems of ``evaluations`` (name → :class:`~.result.Evaluation` of one key, the baseline
    among them) compared within each group of documents of the grouping ``by``
    (:class:`~.subsets.Grouping`) as :func:`compare_datasets` compares datasets: per group a paired
    bootstrap and approximate randomization over its documents, the macro delta stratified by group.
    The groups are in :func:`~.subsets.subsets`' order; the result's ``datasets`` are the groups."""
    if bootstrap < 0 or randomization < 0:
        raise ValueError("bootstrap and randomization take a number ≥ 0")
    if baseline not in evaluations:
        raise ValueError(f"the baseline {baseline!r} is not among the systems")
    systems = list(evaluations)
    base = evaluations[baseline]
    metrics = compared_metrics(list(evaluations.values()))
    doc_ids = [d.doc_id for d in base.documents]
    full = {s: score_columns(ev, metrics, doc_ids) for s, ev in evaluations.items()}
    members: dict[str, list[int]] = {}
    for i, d in enumerate(base.documents):
        members.setdefault(by.of(d), []).append(i)
    order = [g for g in by.order if g in members] if by.order is not None else sorted(members)
    mats = {g: {s: {m: full[s][m][members[g]] for m in metrics} for s in systems} for g in order}
    sig = base.signature.extended(groups=len(order), by=by.name, resample="docs-within-groups", bootstrap=bootstrap,
                                  ar=randomization, seed=seed)
    return _compare_blocks(mats, systems, baseline, metrics, bootstrap, randomization, seed, sig)


def _compare_blocks(mats: dict[str, dict[str, dict[str, np.ndarray]]], systems: list[str], baseline: str,
                    metrics: list[str], bootstrap: int, randomization: int, seed: int, sig) -> DatasetsComparison:
    """The comparison of ``mats`` (block → system → score → the block's documents × columns): per
    block and score the paired tests, per score the macro delta over the blocks."""
    from ..scoring.significance import paired_tests

    others = [s for s in systems if s != baseline]
    blocks = list(mats)
    per = {s: {d: {} for d in blocks} for s in others}
    cols: dict[str, dict[str, list[np.ndarray]]] = {s: {m: [] for m in metrics} for s in systems}
    documents: dict[str, int] = {}
    for d in blocks:
        documents[d] = len(next(iter(mats[d][baseline].values()))) if metrics else 0
        for m in metrics:
            for s in systems:
                cols[s][m].append(mats[d][s][m])
            for s in others:
                per[s][d][m] = paired_tests(mats[d][baseline][m], mats[d][s][m], f1_of(m), bootstrap, randomization,
                                            seed)[0]
    macro = {s: {m: macro_delta(cols[baseline][m], cols[s][m], f1_of(m), bootstrap, randomization, seed)
                 for m in metrics} for s in others}
    return DatasetsComparison(baseline, tuple(others), tuple(blocks), documents, tuple(metrics), per, macro,
                              bootstrap, randomization, seed, sig)


@dataclass(frozen=True)
class RunsComparison:
    """Groups of runs against a baseline group: each group's runs (names), each score's
    :class:`RunsDelta` per system."""

    baseline: str
    groups: dict[str, tuple[str, ...]]
    metrics: tuple[str, ...]
    deltas: dict[str, dict[str, RunsDelta]]
    """system → score → RunsDelta."""
    bootstrap: int
    randomization: int
    seed: int
    signature: object

    @property
    def systems(self) -> list[str]:
        return [s for s in self.groups if s != self.baseline]

    def as_dict(self) -> dict:
        return {"baseline": self.baseline, "groups": {g: list(r) for g, r in self.groups.items()},
                "metrics": list(self.metrics),
                "systems": {s: {m: x.as_dict() for m, x in self.deltas[s].items()} for s in self.systems},
                "resampling": {"units": ["runs", "documents"], "bootstrap": self.bootstrap,
                               "permutations": self.randomization, "seed": self.seed,
                               "verdict": "runs when each group has two runs or more, else documents"},
                "signature": str(self.signature)}


def compare_runs(groups: dict[str, dict[str, object]], baseline: str, bootstrap: int = 1000,
                 randomization: int = 10000, seed: int = 12345) -> RunsComparison:
    """``groups``: system → run name → :class:`~.result.Evaluation` (every run against the same key)."""
    if bootstrap < 0 or randomization < 0:
        raise ValueError("bootstrap and randomization take a number ≥ 0")
    if baseline not in groups:
        raise ValueError(f"the baseline {baseline!r} is not among the groups")
    all_evs = [ev for runs in groups.values() for ev in runs.values()]
    metrics = compared_metrics(all_evs)
    doc_ids = [x.doc_id for x in all_evs[0].documents]
    mats = {g: [score_columns(ev, metrics, doc_ids) for ev in runs.values()] for g, runs in groups.items()}
    deltas = {s: {m: runs_delta([x[m] for x in mats[baseline]], [x[m] for x in mats[s]], f1_of(m), bootstrap,
                                randomization, seed) for m in metrics} for s in groups if s != baseline}
    sig = all_evs[0].signature.extended(runs="+".join(str(len(r)) for r in groups.values()),
                                        resample="runs+docs", bootstrap=bootstrap, perm=randomization, seed=seed)
    return RunsComparison(baseline, {g: tuple(r) for g, r in groups.items()}, tuple(metrics), deltas, bootstrap,
                          randomization, seed, sig)


# -- intervals of the groups of documents ------------------------------------------------------------

def group_intervals(documents: Sequence, by, metric: str = "conll", resamples: int = 1000, seed: int = 12345,
                    block: int = 500) -> dict[str, tuple[float, float]]:
    """The 95 % percentile intervals of ``metric``'s F1 per group of documents
    (:class:`~.subsets.Grouping` ``by`` over :class:`~.result.DocumentResult` s): each group's
    documents resampled within the group (Koehn 2004); ``micro``: every document; ``macro``: the
    unweighted mean of the groups' F1, each group resampled within itself (stratified, as the macro
    delta of :func:`macro_delta`). Undefined (NaN) bounds without resamples.

    >>> from corefreport.scoring.counts import Counts
    >>> from corefreport.scoring.result import DocumentResult
    >>> from corefreport.study.subsets import grouping
    >>> docs = [DocumentResult(f"nw/a/{i}", {"muc": Counts(1, 2, 1, 2)}, Counts()) for i in range(4)]
    >>> group_intervals(docs, grouping("genre"), "muc", resamples=50)["nw/a"]
    (0.5, 0.5)
    """
    from ..scoring.compare import counts_vector
    from ..scoring.registry import REGISTRY

    parts = REGISTRY["conll"].requires if metric == "conll" else (metric,)
    score = f1_of(metric)
    rows: dict[str, list] = {}
    for d in documents:
        rows.setdefault(by.of(d), []).append([v for p in parts for v in counts_vector(d.metrics[p])])
    nan = (math.nan, math.nan)
    if resamples <= 0 or not rows:
        return {**{g: nan for g in rows}, "micro": nan, "macro": nan}

    def resampled(x: np.ndarray, stream: int) -> np.ndarray:
        rng = np.random.default_rng([seed, 25, stream])
        out = np.zeros(resamples)
        for lo in range(0, resamples, block):
            w = _weights(rng, len(x), min(block, resamples - lo))
            out[lo:lo + len(w)] = score(w @ x).reshape(len(w))
        return out

    out: dict[str, tuple[float, float]] = {}
    per = []
    for i, (g, r) in enumerate(rows.items()):
        samples = resampled(np.asarray(r, dtype=float), i + 1)
        per.append(samples)
        out[g] = tuple(float(v) for v in interval(samples[:, None])[0])
    every = np.asarray([v for r in rows.values() for v in r], dtype=float)
    out["micro"] = tuple(float(v) for v in interval(resampled(every, 0)[:, None])[0])
    out["macro"] = tuple(float(v) for v in interval(np.mean(per, axis=0)[:, None])[0])
    return out
