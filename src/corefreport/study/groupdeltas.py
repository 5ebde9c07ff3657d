"""Differences between two systems over many datasets, and between two groups of runs, with the
interval and p-values of each — saying which unit was resampled.

**Datasets** (``compare --datasets``). A dataset's delta is that of its micro scores, tested as
``compare`` tests one corpus (:func:`~.significance.paired_tests`: documents resampled). The
macro delta is ``Δ = (1/N) Σ_d [F(Σ B_d) − F(Σ A_d)]`` (the CRAC rule: the unweighted mean of the
datasets' scores); its interval is a *stratified* paired bootstrap — in each resample every
dataset's documents are drawn with replacement within that dataset, both systems get the same
draw, and the macro delta is recomputed — and its p-value the bootstrap shift test and an
approximate randomization that swaps whole documents between the systems within each dataset
(Koehn 2004; Riezler & Maxwell 2005; Dror et al. 2018 for many datasets). ``P(B > A)`` is the share
of the stratified resamples in which the system's macro score beats the baseline's (ties count
half; Koehn 2004 reports it as "system B better in x % of the samples").

**Runs** (``compare --runs``). Group A's runs ``a_1…a_m`` and group B's ``b_1…b_n`` (seeds),
each scored against the same key: ``Δ = mean_j F(b_j) − mean_i F(a_i)``. Three tests, all
reported:

* **runs and documents together, the deciding one**: a two-level (hierarchical) bootstrap —
  each resample draws ``m`` of A's runs and ``n`` of B's with replacement, then the documents with
  replacement, the same draw for every run of both groups (paired by document), and recomputes
  ``Δ_b = mean_j F(w · B_{r_j}) − mean_i F(w · A_{r_i})`` (Davison & Hinkley 1997, §3.8, two-stage
  resampling; Bouthillier et al. 2021 on accounting for seeds and test-set sampling together);
  its percentile interval and shift-method p-value ``(#{|Δ_b − Δ| ≥ |Δ|} + 1) / (B + 1)``;
* runs as the unit (the seed variance alone): a permutation test over the assignment of the m + n
  runs to the groups — every assignment when there are at most ``trials`` of them, else ``trials``
  random ones. The observed assignment always counts, and with m = n so does its mirror (the groups
  swapped), so an exact test cannot go below ``2 / C(m+n, m)`` (``1 / C(m+n, m)`` when m ≠ n):
  0.1 for 3 against 3 runs — its *floor*, printed beside it;
* documents as the unit (the test-set variance alone): a paired bootstrap over the documents,
  each resample's Δ the difference of the groups' mean scores on the same draw.

With few runs the hierarchical bootstrap sees only those runs' values: its interval is as wide as
their spread allows, no wider (three seeds a side estimate the seed variance roughly).

>>> import numpy as np
>>> from corefreport.scoring.significance import f1_scorer, metric_block
>>> f = f1_scorer(metric_block("muc").rpf)
>>> a = [np.array([[1, 2, 1, 2], [0, 1, 0, 1]]), np.array([[2, 2, 2, 2]])]
>>> b = [np.array([[2, 2, 2, 2], [1, 1, 1, 1]]), np.array([[2, 2, 2, 2]])]
>>> d = macro_delta(a, b, f, resamples=200, trials=200)
>>> round(d.baseline, 4), round(d.system, 4), round(d.delta, 4), d.unit
(0.6667, 1.0, 0.3333, 'documents')
>>> permutation_floor(3, 3, 10000), round(permutation_floor(3, 4, 10000), 4)
(0.1, 0.0286)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import TypeVar

import numpy as np

from ..scoring.significance import TIE, Decided, adjust, check_resampling, interval

Scorer = Callable[[np.ndarray], np.ndarray]

STREAMS = {"datasets_bootstrap": 20, "datasets_randomization": 21, "runs_bootstrap": 22, "runs_permutation": 23,
           "runs_documents": 24, "runs_hierarchical": 26, "datasets_macro": 27}
"""Random streams of :func:`numpy.random.default_rng` ``[seed, stream, block]``, apart from
:mod:`.significance`'s (25: :func:`group_intervals`)."""

NAN2 = (math.nan, math.nan)


@dataclass(frozen=True, slots=True)
class Delta(Decided):
    """One difference: both sides' values, the difference, its 95 % interval, the p-value of the
    randomization or permutation test (``p_value``) and of the bootstrap shift test, the unit
    resampled (``documents``, ``runs`` or ``runs+documents``) and how (``method``).

    ``floor``: the smallest p the deciding test can give on these units, whatever the scores, when
    the data (few runs, few documents) and not the number of resamples sets it; ``limit`` says why
    ("3+3 runs", "5 documents", "1 document"), else "". ``p_superior``: P(system beats baseline)
    over the bootstrap resamples (the macro delta). ``p_adjusted``: the deciding p adjusted for
    multiple comparisons when ``correction`` names a method (then it is :attr:`p`)."""

    baseline: float
    system: float
    delta: float
    delta_ci: tuple[float, float]
    p_value: float
    p_bootstrap: float
    unit: str
    method: str
    floor: float = math.nan
    limit: str = ""
    p_superior: float = math.nan
    p_adjusted: float = math.nan
    correction: str = ""

    def as_dict(self) -> dict:
        def num(x: float) -> float | None:
            return None if math.isnan(x) else float(x)

        out = {"baseline": num(self.baseline), "system": num(self.system), "delta": num(self.delta),
               "delta_ci": None if math.isnan(self.delta_ci[0]) else [float(self.delta_ci[0]), float(self.delta_ci[1])],
               "p_value": num(self.p_value), "p_bootstrap": num(self.p_bootstrap), "unit": self.unit,
               "method": self.method, "significant": self.significant()}
        if self.limit:
            out["p_floor"] = {"p": num(self.floor), "because": self.limit}
        if not math.isnan(self.p_superior):
            out["p_system_better"] = self.p_superior
        if self.correction:
            out["p_adjusted"], out["correction"] = num(self.p_adjusted), self.correction
        return out


def undefined_delta(d: Delta) -> Delta:
    """``d`` with nothing tested: a side's score is undefined (0/0 somewhere), so the difference is."""
    return Delta(math.nan, math.nan, math.nan, NAN2, math.nan, math.nan, d.unit, d.method + " (undefined: 0/0)")


def _weights(rng: np.random.Generator, n: int, m: int) -> np.ndarray:
    """``m`` bootstrap draws of ``n`` documents as multiplicities (m × n)."""
    idx = rng.integers(0, n, size=(m, n))
    flat = (idx + (np.arange(m) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=m * n).reshape(m, n).astype(float)


def resampled_scores(rng: np.random.Generator, x: np.ndarray, score: Scorer, resamples: int,
                     block: int = 500) -> np.ndarray:
    """``score(w @ x)`` for ``resamples`` bootstrap draws ``w`` of the rows (documents) of ``x``,
    drawn from ``rng`` ``block`` at a time (Koehn 2004): one value a resample."""
    out = np.zeros(resamples)
    for lo in range(0, resamples, block):
        w = _weights(rng, len(x), min(block, resamples - lo))
        out[lo:lo + len(w)] = score(w @ x).reshape(len(w))
    return out


def _scalar(x) -> np.ndarray:
    return np.reshape(np.asarray(x, dtype=float), (-1,))


def documents_limit(n: int, floor: float, trials: int) -> str:
    """Why a documents-level test cannot go below ``floor``: "1 document", "5 documents", or "" when
    the trials and not the documents set it (``floor`` no more than ``1 / (trials + 1)``)."""
    if n == 1:
        return "1 document"
    if not math.isnan(floor) and trials > 0 and floor > 1.5 / (trials + 1):
        return f"{n} documents"
    return ""


def macro_delta(a: Sequence[np.ndarray], b: Sequence[np.ndarray], score: Scorer, resamples: int = 1000,
                trials: int = 10000, seed: int = 12345, block: int = 500) -> Delta:
    """The macro delta over datasets (see the module docstring): ``a[d]``, ``b[d]`` are dataset
    ``d``'s (documents × columns) count matrices of the baseline and the system, rows paired;
    ``score`` maps summed columns to one score. The floor of the stratified randomization: the
    trials in which every dataset swaps none of its documents, or every one all of them, always
    count."""
    a = [np.asarray(x, dtype=float) for x in a]
    b = [np.asarray(x, dtype=float) for x in b]
    fa = np.array([_scalar(score(x.sum(0)))[0] for x in a])
    fb = np.array([_scalar(score(x.sum(0)))[0] for x in b])
    obs = float(np.mean(fb - fa))
    ci, p_boot, p_rand, better, floor = NAN2, math.nan, math.nan, math.nan, math.nan
    n_docs = sum(len(x) for x in a)
    varies = any(len(x) > 1 for x in a)  # one document in every dataset: every resample is the data
    if resamples > 0 and varies:
        d = np.zeros(resamples)
        for i, (x, y) in enumerate(zip(a, b)):
            rng = np.random.default_rng([seed, STREAMS["datasets_bootstrap"], i])
            for lo in range(0, resamples, block):
                w = _weights(rng, len(x), min(block, resamples - lo))
                d[lo:lo + len(w)] += score(w @ y).reshape(len(w)) - score(w @ x).reshape(len(w))
        d /= len(a)
        ci = tuple(float(v) for v in interval(d[:, None])[0])
        p_boot = float((np.sum(np.abs(d - obs) >= abs(obs) - TIE) + 1) / (resamples + 1))
        better = float((np.sum(d > TIE) + 0.5 * np.sum(np.abs(d) <= TIE)) / resamples)
    if trials > 0:
        d = np.zeros(trials)
        none = np.ones(trials, dtype=bool)
        every = np.ones(trials, dtype=bool)
        for i, (x, y) in enumerate(zip(a, b)):
            rng = np.random.default_rng([seed, STREAMS["datasets_randomization"], i])
            ta, tb, diff = x.sum(0), y.sum(0), y - x
            for lo in range(0, trials, block):
                s = rng.integers(0, 2, size=(min(block, trials - lo), len(x))).astype(float)
                moved = s @ diff
                d[lo:lo + len(s)] += score(tb - moved).reshape(len(s)) - score(ta + moved).reshape(len(s))
                total = s.sum(1)
                none[lo:lo + len(s)] &= total == 0
                every[lo:lo + len(s)] &= total == len(x)
        d /= len(a)
        p_rand = float((np.sum(np.abs(d) >= abs(obs) - TIE) + 1) / (trials + 1))
        floor = float((np.count_nonzero(none | every) + 1) / (trials + 1))
    elif resamples > 0 and varies:
        floor = 1 / (resamples + 1)
    limit = documents_limit(n_docs, floor, trials)
    if not varies and n_docs > 1:
        limit = f"{limit or f'{n_docs} documents'}, one a dataset"
    return Delta(float(np.mean(fa)), float(np.mean(fb)), obs, ci, p_rand, p_boot, "documents",
                 "stratified paired bootstrap and approximate randomization over each dataset's documents",
                 floor, limit, better)


def macro_interval(x: Sequence[np.ndarray], score: Scorer, resamples: int = 1000, seed: int = 12345,
                   block: int = 500) -> tuple[float, float]:
    """The 95 % percentile interval of one system's macro score ``(1/N) Σ_d F(Σ x_d)`` over ``N``
    datasets (``x[d]``: dataset ``d``'s documents × columns), each resample drawing every dataset's
    documents with replacement within that dataset (stratified; the macro delta's resampling for
    one system). NaN without resamples.

    >>> from corefreport.scoring.significance import f1_scorer, metric_block
    >>> f = lambda c: f1_scorer(metric_block("muc").rpf)(c)[..., 0]
    >>> macro_interval([np.array([[1, 2, 1, 2], [1, 2, 1, 2]]), np.array([[2, 2, 2, 2]])], f, 100)
    (0.75, 0.75)
    """
    if resamples <= 0 or not x or all(len(m) <= 1 for m in x):  # one document a dataset: no interval
        return NAN2
    d = np.zeros(resamples)
    for i, m in enumerate(x):
        d += resampled_scores(np.random.default_rng([seed, STREAMS["datasets_macro"], i]), np.asarray(m, dtype=float),
                              score, resamples, block)
    d /= len(x)
    return tuple(float(v) for v in interval(d[:, None])[0])


@dataclass(frozen=True, slots=True)
class RunsDelta:
    """Two groups of runs on one score: the runs' values, and the difference tested with runs and
    documents resampled together (``hierarchical``: the verdict), with the runs alone as the unit
    and with the documents alone as the unit."""

    baseline_values: tuple[float, ...]
    system_values: tuple[float, ...]
    runs: Delta
    documents: Delta
    hierarchical: Delta

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
        """The deciding test: runs and documents resampled together."""
        return self.hierarchical

    def as_dict(self) -> dict:
        return {"baseline_values": list(self.baseline_values), "system_values": list(self.system_values),
                "hierarchical": self.hierarchical.as_dict(), "runs": self.runs.as_dict(),
                "documents": self.documents.as_dict(), "verdict": self.verdict.unit}


def permutation_floor(m: int, n: int, trials: int) -> float:
    """The smallest p the runs' permutation test can give with ``m`` against ``n`` runs: exact (all
    ``C(m+n, m)`` assignments, when at most ``trials``), the observed assignment counts, and with
    ``m = n`` its mirror too: ``2 / C`` (``1 / C`` when ``m ≠ n``); with random assignments
    ``1 / (trials + 1)``."""
    total = math.comb(m + n, m)
    if total <= max(trials, 1):
        return (2 if m == n else 1) / total
    return 1 / (trials + 1)


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


def hierarchical_bootstrap(a: Sequence[np.ndarray], b: Sequence[np.ndarray], score: Scorer,
                           resamples: int = 1000, seed: int = 12345, block: int = 500) -> Delta:
    """Runs and documents resampled together (the module docstring): ``a[i]``, ``b[j]`` are run
    (documents × columns) count matrices over the same documents in the same order.

    Draws, per block of ``k`` resamples, from ``default_rng([seed, 26, 0])`` in this order: A's runs
    ``integers(0, m, (k, m))``, B's runs ``integers(0, n, (k, n))``, the documents
    ``integers(0, D, (k, D))`` (each row one resample's draw of the ``D`` documents, shared by every
    run of both groups). No test with one run a side on one document (every resample is the data)."""
    A = np.stack([np.asarray(x, dtype=float) for x in a])  # (m, D, C)
    B = np.stack([np.asarray(x, dtype=float) for x in b])
    m, n, docs = len(A), len(B), A.shape[1]
    va = np.array([_scalar(score(x.sum(0)))[0] for x in A])
    vb = np.array([_scalar(score(x.sum(0)))[0] for x in B])
    obs = float(vb.mean() - va.mean())
    how = (f"two-level bootstrap: {m} and {n} runs drawn with replacement within each group, then the "
           f"{docs} documents with replacement, the same draw for every run (paired by document)")
    if resamples <= 0 or docs == 0 or (m == 1 and n == 1 and docs == 1):
        return Delta(float(va.mean()), float(vb.mean()), obs, NAN2, math.nan, math.nan, "runs+documents", how)
    rng = np.random.default_rng([seed, STREAMS["runs_hierarchical"], 0])
    d = np.zeros(resamples)
    for lo in range(0, resamples, block):
        k = min(block, resamples - lo)
        ra = rng.integers(0, m, size=(k, m))
        rb = rng.integers(0, n, size=(k, n))
        w = _weights(rng, docs, k)
        fa = score(np.einsum("kd,mdc->kmc", w, A)).reshape(k, m)  # every run's score on each document draw
        fb = score(np.einsum("kd,mdc->kmc", w, B)).reshape(k, n)
        rows = np.arange(k)[:, None]
        d[lo:lo + k] = fb[rows, rb].mean(1) - fa[rows, ra].mean(1)
    ci = tuple(float(v) for v in interval(d[:, None])[0])
    p_boot = float((np.sum(np.abs(d - obs) >= abs(obs) - TIE) + 1) / (resamples + 1))
    return Delta(float(va.mean()), float(vb.mean()), obs, ci, math.nan, p_boot, "runs+documents", how)


def runs_delta(a: Sequence[np.ndarray], b: Sequence[np.ndarray], score: Scorer, resamples: int = 1000,
               trials: int = 10000, seed: int = 12345, block: int = 500) -> RunsDelta:
    """Group B's runs against group A's (see the module docstring): ``a[i]``, ``b[j]`` are run
    (documents × columns) count matrices, the same documents in the same order."""
    a = [np.asarray(x, dtype=float) for x in a]
    b = [np.asarray(x, dtype=float) for x in b]
    va = np.array([_scalar(score(x.sum(0)))[0] for x in a])
    vb = np.array([_scalar(score(x.sum(0)))[0] for x in b])
    obs = float(vb.mean() - va.mean())
    # runs as the unit
    ci, p_boot, p_perm, how = NAN2, math.nan, math.nan, "no test (one run a side)"
    floor, limit = math.nan, ""
    m, n = len(va), len(vb)
    if m >= 2 and n >= 2:
        values = np.concatenate([va, vb])
        rows, exact = _assignments(m, n, max(trials, 1), np.random.default_rng([seed, STREAMS["runs_permutation"], 0]))
        perm = np.array([values[~r].mean() - values[r].mean() for r in rows])
        hits = int(np.sum(np.abs(perm) >= abs(obs) - TIE))
        p_perm = hits / len(rows) if exact else (hits + 1) / (len(rows) + 1)
        floor = permutation_floor(m, n, max(trials, 1))
        limit = f"{m}+{n} runs" if exact else ""
        how = (f"exact permutation test over all {len(rows)} assignments of the runs" if exact else
               f"permutation test over {len(rows)} random assignments of the runs")
        if resamples > 0:
            rng = np.random.default_rng([seed, STREAMS["runs_bootstrap"], 0])
            d = (vb[rng.integers(0, n, size=(resamples, n))].mean(1) - va[rng.integers(0, m, size=(resamples, m))].mean(1))
            ci = tuple(float(v) for v in interval(d[:, None])[0])
            p_boot = float((np.sum(np.abs(d - obs) >= abs(obs) - TIE) + 1) / (resamples + 1))
            how += "; runs resampled with replacement within each group for the interval"
    by_runs = Delta(float(va.mean()), float(vb.mean()), obs, ci, p_perm, p_boot, "runs", how, floor, limit)
    # documents as the unit
    ci, p_boot = NAN2, math.nan
    docs = len(a[0])
    if resamples > 0 and docs > 1:
        rng = np.random.default_rng([seed, STREAMS["runs_documents"], 0])
        d = np.zeros(resamples)
        for lo in range(0, resamples, block):
            w = _weights(rng, docs, min(block, resamples - lo))
            d[lo:lo + len(w)] = (np.mean([score(w @ y).reshape(len(w)) for y in b], axis=0)
                                 - np.mean([score(w @ x).reshape(len(w)) for x in a], axis=0))
        ci = tuple(float(v) for v in interval(d[:, None])[0])
        p_boot = float((np.sum(np.abs(d - obs) >= abs(obs) - TIE) + 1) / (resamples + 1))
    by_docs = Delta(float(va.mean()), float(vb.mean()), obs, ci, math.nan, p_boot, "documents",
                    "paired bootstrap over the documents, each resample's difference of the groups' mean scores",
                    limit="1 document" if docs == 1 else "")
    both = hierarchical_bootstrap(a, b, score, resamples, seed, block)
    return RunsDelta(tuple(float(x) for x in va), tuple(float(x) for x in vb), by_runs, by_docs, both)


D = TypeVar("D", bound=Decided)


def corrected(deltas: Sequence[D], method: str) -> list[D]:
    """``deltas`` (:class:`Delta` s or :class:`~.significance.PairedTest` s) as one family, their
    deciding p-values adjusted (:func:`~.significance.adjust`): new ones, ``deltas`` unchanged."""
    if method == "none":
        return list(deltas)
    return [replace(d, p_adjusted=q, correction=method) for d, q in zip(deltas, adjust([d.p_raw for d in deltas],
                                                                                        method))]


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
    its documents (:class:`~.significance.PairedTest`); per score, the macro :class:`Delta`.

    ``floors``: per dataset, the smallest p its deciding test can give on its documents
    (:func:`~.significance.smallest_p`; 1 on one document). ``correction``: the p-values adjusted
    over, per score, the family of every dataset's test and the macro test of every system (the
    rows of that score's tables)."""

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
    floors: dict[str, float] = field(default_factory=dict)
    correction: str = "none"

    @property
    def headline(self) -> str:
        return "conll" if "conll" in self.metrics else self.metrics[0]

    def floor(self, dataset: str) -> tuple[float, str]:
        """The smallest p of ``dataset``'s deciding test and why ("5 documents", "1 document"), the
        reason "" when the trials and not the documents set it."""
        f = self.floors.get(dataset, math.nan)
        return f, documents_limit(self.documents[dataset], f, self.randomization or self.bootstrap)

    @property
    def family(self) -> int:
        """The tests of one score: every dataset's and the macro row, for every system."""
        return len(self.systems) * (len(self.datasets) + 1)

    def as_dict(self) -> dict:
        def floor(d: str) -> dict:
            f, why = self.floor(d)
            return {"p_floor": {"p": None if math.isnan(f) else f, "because": why}} if why else {}

        return {
            "baseline": self.baseline, "systems": list(self.systems), "metrics": list(self.metrics),
            "datasets": {d: {"documents": self.documents[d], **floor(d),
                             "systems": {s: {m: t.as_dict() for m, t in self.per_dataset[s][d].items()}
                                         for s in self.systems}} for d in self.datasets},
            "macro": {s: {m: x.as_dict() for m, x in self.macro[s].items()} for s in self.systems},
            "resampling": {"unit": "documents", "per_dataset": "paired bootstrap and approximate randomization over "
                           "the dataset's documents", "macro": "stratified: each dataset's documents within it",
                           "bootstrap": self.bootstrap, "randomization": self.randomization, "seed": self.seed,
                           "correction": self.correction,
                           **({"family": "per score: every dataset's test and the macro test, for every system "
                               f"({self.family} tests)"} if self.correction != "none" else {})},
            "signature": str(self.signature), "warnings": list(self.warnings)}


def _corrected_signature(sig, correction: str):
    return sig.extended(correction=correction) if correction != "none" else sig


def compare_datasets(evaluations: dict[str, dict[str, object]], baseline: str, bootstrap: int = 1000,
                     randomization: int = 10000, seed: int = 12345, correction: str = "none") -> DatasetsComparison:
    """``evaluations``: dataset → system → :class:`~.result.Evaluation` (the systems of a dataset
    scored against its key; every dataset has every system). The baseline first among the systems."""
    check_resampling(bootstrap, randomization, correction)
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
    return _compare_blocks(mats, systems, baseline, metrics, bootstrap, randomization, seed,
                           _corrected_signature(sig, correction), correction)


def compare_groups(evaluations: dict[str, object], by, baseline: str, bootstrap: int = 1000,
                   randomization: int = 10000, seed: int = 12345, correction: str = "none") -> DatasetsComparison:
    """The systems of ``evaluations`` (name → :class:`~.result.Evaluation` of one key, the baseline
    among them) compared within each group of documents of the grouping ``by``
    (:class:`~.subsets.Grouping`) as :func:`compare_datasets` compares datasets: per group a paired
    bootstrap and approximate randomization over its documents, the macro delta stratified by group.
    The groups are in :func:`~.subsets.subsets`' order; the result's ``datasets`` are the groups."""
    check_resampling(bootstrap, randomization, correction)
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
    return _compare_blocks(mats, systems, baseline, metrics, bootstrap, randomization, seed,
                           _corrected_signature(sig, correction), correction)


def _compare_blocks(mats: dict[str, dict[str, dict[str, np.ndarray]]], systems: list[str], baseline: str,
                    metrics: list[str], bootstrap: int, randomization: int, seed: int, sig,
                    correction: str = "none") -> DatasetsComparison:
    """The comparison of ``mats`` (block → system → score → the block's documents × columns): per
    block and score the paired tests, per score the macro delta over the blocks. A score undefined
    (0/0) for a side in some block is not tested there (NaN), nor its macro."""
    from ..scoring.significance import f1_defined, paired_tests, smallest_p, undefined_test

    others = [s for s in systems if s != baseline]
    blocks = list(mats)
    per = {s: {d: {} for d in blocks} for s in others}
    cols: dict[str, dict[str, list[np.ndarray]]] = {s: {m: [] for m in metrics} for s in systems}
    documents: dict[str, int] = {}
    ok = {m: True for m in metrics}
    for d in blocks:
        documents[d] = len(next(iter(mats[d][baseline].values()))) if metrics else 0
        for m in metrics:
            defined = {s: f1_defined(m, mats[d][s][m].sum(0)) for s in systems}
            ok[m] = ok[m] and all(defined.values())
            for s in systems:
                cols[s][m].append(mats[d][s][m])
            for s in others:
                test = paired_tests(mats[d][baseline][m], mats[d][s][m], f1_of(m), bootstrap, randomization, seed)[0]
                per[s][d][m] = undefined_test(test, defined[baseline], defined[s])
    macro = {s: {m: macro_delta(cols[baseline][m], cols[s][m], f1_of(m), bootstrap, randomization, seed)
                 for m in metrics} for s in others}
    for s in others:
        for m in metrics:
            if not ok[m]:
                macro[s][m] = undefined_delta(macro[s][m])
    for m in metrics:
        family = [(s, d) for s in others for d in blocks]
        fixed = corrected([per[s][d][m] for s, d in family] + [macro[s][m] for s in others], correction)
        for (s, d), t in zip(family, fixed):
            per[s][d][m] = t
        for s, x in zip(others, fixed[len(family):]):
            macro[s][m] = x
    floors = {d: smallest_p(documents[d], randomization, bootstrap, seed) for d in blocks}
    return DatasetsComparison(baseline, tuple(others), tuple(blocks), documents, tuple(metrics), per, macro,
                              bootstrap, randomization, seed, sig, floors=floors, correction=correction)


@dataclass(frozen=True)
class RunsComparison:
    """Groups of runs against a baseline group: each group's runs (names), each score's
    :class:`RunsDelta` per system; ``correction``: the deciding p-values adjusted over every score
    of every system (the rows of the tables)."""

    baseline: str
    groups: dict[str, tuple[str, ...]]
    metrics: tuple[str, ...]
    deltas: dict[str, dict[str, RunsDelta]]
    """system → score → RunsDelta."""
    bootstrap: int
    randomization: int
    seed: int
    signature: object
    correction: str = "none"

    @property
    def systems(self) -> list[str]:
        return [s for s in self.groups if s != self.baseline]

    @property
    def family(self) -> int:
        return sum(len(x) for x in self.deltas.values())

    def as_dict(self) -> dict:
        return {"baseline": self.baseline, "groups": {g: list(r) for g, r in self.groups.items()},
                "metrics": list(self.metrics),
                "systems": {s: {m: x.as_dict() for m, x in self.deltas[s].items()} for s in self.systems},
                "resampling": {"units": ["runs+documents", "runs", "documents"], "bootstrap": self.bootstrap,
                               "permutations": self.randomization, "seed": self.seed,
                               "verdict": "runs+documents: runs resampled within each group, then the documents "
                                          "(the same draw for both groups)",
                               "correction": self.correction,
                               **({"family": f"every score of every system ({self.family} tests)"}
                                  if self.correction != "none" else {})},
                "signature": str(self.signature)}


def compare_runs(groups: dict[str, dict[str, object]], baseline: str, bootstrap: int = 1000,
                 randomization: int = 10000, seed: int = 12345, correction: str = "none") -> RunsComparison:
    """``groups``: system → run name → :class:`~.result.Evaluation` (every run against the same key)."""
    from ..scoring.significance import f1_defined

    check_resampling(bootstrap, randomization, correction)
    if baseline not in groups:
        raise ValueError(f"the baseline {baseline!r} is not among the groups")
    all_evs = [ev for runs in groups.values() for ev in runs.values()]
    metrics = compared_metrics(all_evs)
    doc_ids = [x.doc_id for x in all_evs[0].documents]
    mats = {g: [score_columns(ev, metrics, doc_ids) for ev in runs.values()] for g, runs in groups.items()}
    deltas = {}
    for s in groups:
        if s == baseline:
            continue
        deltas[s] = {}
        for m in metrics:
            x = runs_delta([r[m] for r in mats[baseline]], [r[m] for r in mats[s]], f1_of(m), bootstrap,
                           randomization, seed)
            if not all(f1_defined(m, r[m].sum(0)) for g in (baseline, s) for r in mats[g]):
                x = replace(x, runs=undefined_delta(x.runs), documents=undefined_delta(x.documents),
                            hierarchical=undefined_delta(x.hierarchical))
            deltas[s][m] = x
    keys = [(s, m) for s in deltas for m in deltas[s]]
    fixed = corrected([deltas[s][m].hierarchical for s, m in keys], correction)
    for (s, m), h in zip(keys, fixed):
        deltas[s][m] = replace(deltas[s][m], hierarchical=h)
    sig = all_evs[0].signature.extended(runs="+".join(str(len(r)) for r in groups.values()),
                                        resample="runs+docs", bootstrap=bootstrap, perm=randomization, seed=seed)
    return RunsComparison(baseline, {g: tuple(r) for g, r in groups.items()}, tuple(metrics), deltas, bootstrap,
                          randomization, seed, _corrected_signature(sig, correction), correction)


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
        return resampled_scores(np.random.default_rng([seed, 25, stream]), x, score, resamples, block)

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
