"""Paired significance tests by resampling documents, over per-document count matrices.

Every score corefreport prints is a function of counts *summed over documents*: MUC, B³, CEAF,
LEA, the linguistically aware metrics and mention identification keep
``(recall_num, recall_den, precision_num, precision_den)``; BLANC two such vectors (coreference and
non-coreference links); an outcome-row analysis (ARCS scenarios, Žitkus et al.'s typed evaluation,
any class or type of referent) ``(Σ credit, TP+WT+WL+WTL+FN, TP+WT+WL+WTL+FP)``. So one system on
``n`` documents is a matrix ``X`` of shape (documents, columns), its corpus score is ``f(Σ_d X[d])``,
and a resample of the documents is a weighted sum ``w @ X`` — nothing is ever re-scored. A
*scorer* here maps summed columns of shape (..., columns) to scores of shape (..., K), vectorised
over any leading axes, so that one call scores thousands of resamples.

Formulas (``R``/``P`` are 0 when their denominator is 0, as the reference scorer prints them)::

    counts:   R = Σ recall_num / Σ recall_den,  P = Σ precision_num / Σ precision_den,
              F = 2PR / (P + R)  (0 when P + R = 0)
    BLANC:    F = (F_C + F_N) / 2 — F_N alone when the key has no coreference link, F_C alone when
              it has no non-coreference link, 0 when it has neither (reference v8.01)
    CoNLL:    (F_MUC + F_B³ + F_CEAF-e) / 3, each F from its own summed counts
    outcomes: R = Σ credit / (TP+WT+WL+WTL+FN),  P = Σ credit / (TP+WT+WL+WTL+FP)
    macro:    P_i, R_i per class (0 when undefined), P = Σ_i P_i / m,  R = Σ_i R_i / m,  F = hm(P, R)
              (m = the attempted classes for Žitkus's macro, the scheme's n for scheme coverage)

Paired bootstrap (Koehn 2004). Draw ``B`` resamples of the ``n`` documents with replacement; the
same draw serves both systems (that is what makes it *paired*) and every metric. A draw is stored
as a multiplicity matrix ``W`` (B × n, row sums n), so the resampled sums of all metrics are one
matrix product ``W @ X``. Reported: each system's and the difference's percentile interval (the
2.5th and 97.5th percentiles of the B resampled values, numpy's linear interpolation between order
statistics) and a bootstrap p-value by the shift method,
``p_boot = (#{b : |Δ_b − Δ| ≥ |Δ|} + 1) / (B + 1)`` — the resampled differences re-centred on the
null hypothesis Δ = 0 (Berg-Kirkpatrick, Burkett & Klein 2012 state it one-sided as δ_b > 2δ).

Approximate randomization (Noreen 1989; Riezler & Maxwell 2005). Under the null hypothesis the two
systems' outputs are exchangeable per document. In each of ``R`` trials every document's counts
are swapped between the systems with probability ½ (a 0/1 matrix ``S``, R × n); with
``D = X_b − X_a`` the pseudo-systems' sums are ``ΣX_a + S @ D`` and ``ΣX_b − S @ D``, again one
matrix product for all metrics. With ``c`` the number of trials whose absolute score difference
is at least the observed ``|Δ|`` (up to 1e-12, for sums taken in a different order),
``p = (c + 1) / (R + 1)``, which never rejects more often than the nominal level. Both tests are
two-sided.

How this relates to sacrebleu's implementation (Post 2018; its significance module, described here
in prose): sacrebleu resamples *sentence* statistics and re-aggregates them per resample in a
Python loop, in float32; it estimates a bootstrap interval as the mean ± half the distance between
the order statistics n//40 and n − n//40 − 1; its bootstrap p-value follows the Moses script (the
absolute resampled differences minus their mean, compared with the observed difference); and both
its tests count only *strictly* larger differences (after multeval), so that a system compared
with itself gets p = 1/(R+1). Here documents are the resampling unit (coreference chains never
cross documents, so documents are the independent units), all arithmetic is float64, the
comparison is ``≥`` as in Riezler & Maxwell, so a system compared with itself gets p = 1, and
every metric is scored from one matrix product per block of resamples.

Randomness is reproducible and independent of what is compared: block ``i`` (of ``BLOCK``
resamples or trials) draws from ``numpy.random.default_rng([seed, stream, i])`` with stream 0 for
the bootstrap and 1 for randomization, so every metric and every system is tested on the same
document draws, and the result for a pair does not depend on which other systems or metrics are
in the comparison.

References: P. Koehn (2004), Statistical significance tests for machine translation evaluation,
EMNLP. S. Riezler & J. T. Maxwell (2005), On some pitfalls in automatic evaluation and
significance testing for MT, ACL workshop on intrinsic and extrinsic evaluation measures.
E. W. Noreen (1989), Computer-Intensive Methods for Testing Hypotheses. T. Berg-Kirkpatrick,
D. Burkett & D. Klein (2012), An empirical investigation of statistical significance in NLP,
EMNLP-CoNLL. M. Post (2018), A call for clarity in reporting BLEU scores, WMT.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

Scorer = Callable[[np.ndarray], np.ndarray]
"""Summed columns (..., C) → scores (..., K)."""

BLOCK = 1000
"""Resamples (or randomization trials) drawn per generator block; fixed, so results do not depend
on memory or on how many resamples are requested in total beyond the blocks they share."""

TIE = 1e-12
"""Absolute tolerance when a resampled difference is compared with the observed one."""

BOOTSTRAP_STREAM = 0
RANDOMIZATION_STREAM = 1


# --------------------------------------------------------------------------------------------
# Blocks of columns, scored by the registry's formulas
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Block:
    """``width`` count columns that yield ``size`` scores: ``rpf`` maps (..., width) to
    (..., size, 3) recall, precision, F."""

    width: int
    size: int
    rpf: Callable[[np.ndarray], np.ndarray]


def metric_block(key: str, groups: int = 1) -> Block:
    """The columns of one registry metric (``groups`` groups of them side by side, as the per-class
    and per-type outcome statistics) scored by its :attr:`~corefreport.scoring.registry.Metric.formula`."""
    from .registry import get

    m = get(key)
    return Block(len(m.columns) * groups, groups, lambda c: m.rpf(c, groups))


def shared_block(metrics: Sequence[tuple[str, dict]], width: int) -> Block:
    """Several registry metrics over the same ``width`` columns (typed micro, macro and scheme
    coverage over the per-class statistics), each with its formula parameters."""
    from .registry import get

    ms = [(get(k), params) for k, params in metrics]
    return Block(width, len(ms), lambda c: np.concatenate([m.rpf(c, **p) for m, p in ms], axis=-2))


def stack(blocks: Sequence[Block]) -> tuple[Callable[[np.ndarray], np.ndarray], int, int]:
    """One scorer for blocks laid side by side: (..., Σ width) → (..., Σ size, 3); with the total
    width and size."""
    spans = []
    at = 0
    for b in blocks:
        spans.append((at, at + b.width, b))
        at += b.width

    def rpf(cols: np.ndarray) -> np.ndarray:
        parts = [b.rpf(cols[..., lo:hi]) for lo, hi, b in spans]
        return np.concatenate(parts, axis=-2) if parts else np.zeros(cols.shape[:-1] + (0, 3))

    return rpf, at, sum(b.size for b in blocks)


def f1_scorer(rpf: Callable[[np.ndarray], np.ndarray]) -> Scorer:
    """The F column of an R/P/F scorer: what the tests resample."""
    return lambda cols: rpf(cols)[..., 2]


# --------------------------------------------------------------------------------------------
# Resampling
# --------------------------------------------------------------------------------------------

def _rng(seed: int, stream: int, block: int) -> np.random.Generator:
    return np.random.default_rng([seed, stream, block])


def bootstrap_weights(n_docs: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """Blocks of document multiplicities (m × n_docs, each row sums to n_docs): row b says how often
    each document occurs in resample b (documents drawn uniformly with replacement)."""
    for i, start in enumerate(range(0, resamples, BLOCK)):
        m = min(BLOCK, resamples - start)
        idx = _rng(seed, BOOTSTRAP_STREAM, i).integers(0, n_docs, size=(m, n_docs))
        flat = (idx + (np.arange(m) * n_docs)[:, None]).ravel()
        yield np.bincount(flat, minlength=m * n_docs).reshape(m, n_docs).astype(float)


def randomization_masks(n_docs: int, trials: int, seed: int) -> Iterator[np.ndarray]:
    """Blocks of swap masks (m × n_docs, 0/1): 1 where a trial swaps that document's counts."""
    for i, start in enumerate(range(0, trials, BLOCK)):
        m = min(BLOCK, trials - start)
        yield _rng(seed, RANDOMIZATION_STREAM, i).integers(0, 2, size=(m, n_docs)).astype(float)


def interval(samples: np.ndarray, confidence: float = 0.95) -> np.ndarray:
    """Percentile interval of each column of ``samples`` (B × K) → (K, 2)."""
    tail = 100 * (1 - confidence) / 2
    return np.percentile(samples, [tail, 100 - tail], axis=0).T


@dataclass(slots=True)
class BootstrapResult:
    """Per score (K): each system's and the difference's interval, and the shift-method p-value."""

    a_ci: np.ndarray
    b_ci: np.ndarray
    delta_ci: np.ndarray
    p_value: np.ndarray
    resamples: int


def paired_bootstrap(a: np.ndarray, b: np.ndarray, score: Scorer, resamples: int = 1000, seed: int = 12345,
                     confidence: float = 0.95) -> BootstrapResult:
    """Koehn's paired bootstrap over documents: ``a`` and ``b`` are (documents × columns) count
    matrices of the baseline and the system; ``score`` maps summed columns to K scores."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    n = a.shape[0]
    observed = score(b.sum(0)) - score(a.sum(0))
    k = np.shape(observed)[-1] if np.ndim(observed) else 1
    if resamples <= 0 or n == 0:
        nan = np.full((k, 2), np.nan)
        return BootstrapResult(nan, nan.copy(), nan.copy(), np.full(k, np.nan), 0)
    sa, sb = [], []
    for w in bootstrap_weights(n, resamples, seed):
        sa.append(score(w @ a))
        sb.append(score(w @ b))
    xa = np.concatenate(sa).reshape(resamples, -1)
    xb = np.concatenate(sb).reshape(resamples, -1)
    d = xb - xa
    obs = np.reshape(observed, -1)
    hits = np.sum(np.abs(d - obs) >= np.abs(obs) - TIE, axis=0)
    return BootstrapResult(interval(xa, confidence), interval(xb, confidence), interval(d, confidence),
                           (hits + 1) / (resamples + 1), resamples)


def approximate_randomization(a: np.ndarray, b: np.ndarray, score: Scorer, trials: int = 10000,
                              seed: int = 12345) -> np.ndarray:
    """Two-sided approximate-randomization p-values (K,) for the difference ``score(Σb) − score(Σa)``,
    swapping whole documents between the systems: ``p = (c + 1) / (trials + 1)``."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    n = a.shape[0]
    ta, tb = a.sum(0), b.sum(0)
    observed = np.abs(np.reshape(score(tb) - score(ta), -1))
    if trials <= 0 or n == 0:
        return np.full(observed.shape, np.nan)
    diff = b - a
    hits = np.zeros(observed.shape, dtype=np.int64)
    for s in randomization_masks(n, trials, seed):
        moved = s @ diff
        d = score(tb - moved) - score(ta + moved)
        hits += np.sum(np.abs(d.reshape(len(s), -1)) >= observed - TIE, axis=0)
    return (hits + 1) / (trials + 1)


def smallest_p(n_docs: int, randomization: int, bootstrap: int, seed: int) -> float:
    """The smallest p-value the deciding test can give on ``n_docs`` documents, whatever the scores.

    Approximate randomization: a trial that swaps no document reproduces the observed difference and
    one that swaps every document reproduces it with the opposite sign, so both always count; with
    ``c`` such trials among the ``R`` drawn from ``seed`` (:func:`randomization_masks`; about
    ``R · 2 / 2ⁿ``), ``p ≥ (c + 1) / (R + 1)``. On 5 documents, 10,000 trials and seed 12345:
    c = 619, p ≥ 0.0620 — no difference can reach p < 0.05, however large. (Exhaustive
    randomization would give 2/2ⁿ = 0.0625.) The bootstrap alone (``R = 0``): ``1 / (B + 1)``.
    NaN when neither test is run or there are no documents.

    >>> round(smallest_p(5, 10000, 1000, 12345), 4), round(smallest_p(40, 10000, 1000, 12345), 6)
    (0.062, 0.0001)
    """
    if n_docs <= 0:
        return float("nan")
    if randomization > 0:
        always = 0
        for s in randomization_masks(n_docs, randomization, seed):
            total = s.sum(axis=1)
            always += int(np.count_nonzero((total == 0) | (total == n_docs)))
        return (always + 1) / (randomization + 1)
    return 1 / (bootstrap + 1) if bootstrap > 0 else float("nan")


@dataclass(slots=True)
class PairedTest:
    """One score of a system against the baseline: corpus values, the difference, bootstrap
    intervals, the approximate-randomization p-value (``p_value``) and the bootstrap one. NaN where
    a test was not run (0 resamples or trials)."""

    baseline: float
    system: float
    delta: float
    baseline_ci: tuple[float, float]
    system_ci: tuple[float, float]
    delta_ci: tuple[float, float]
    p_value: float
    p_bootstrap: float = float("nan")

    @property
    def p(self) -> float:
        """The p-value that decides significance: randomization's, else the bootstrap's."""
        return self.p_bootstrap if math.isnan(self.p_value) else self.p_value

    def significant(self, alpha: float = 0.05) -> bool:
        return self.p < alpha  # False for NaN

    def as_dict(self) -> dict:
        return {"baseline": self.baseline, "system": self.system, "delta": self.delta,
                "baseline_ci": _pair(self.baseline_ci), "system_ci": _pair(self.system_ci),
                "delta_ci": _pair(self.delta_ci), "p_value": _num(self.p_value), "p_bootstrap": _num(self.p_bootstrap),
                "significant": self.significant()}


def _num(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def _pair(x: tuple[float, float]) -> list[float | None] | None:
    return None if math.isnan(x[0]) else [float(x[0]), float(x[1])]


def paired_tests(a: np.ndarray, b: np.ndarray, score: Scorer, bootstrap: int = 1000, randomization: int = 10000,
                 seed: int = 12345, confidence: float = 0.95) -> list[PairedTest]:
    """Both tests for every score of ``score``: one :class:`PairedTest` per score (K)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    sa = np.reshape(score(a.sum(0)), -1)
    sb = np.reshape(score(b.sum(0)), -1)
    bs = paired_bootstrap(a, b, score, bootstrap, seed, confidence)
    ar = approximate_randomization(a, b, score, randomization, seed)
    out = []
    for k in range(len(sa)):
        out.append(PairedTest(float(sa[k]), float(sb[k]), float(sb[k] - sa[k]), _t(bs.a_ci[k]), _t(bs.b_ci[k]),
                              _t(bs.delta_ci[k]), float(ar[k]), float(bs.p_value[k])))
    return out


def _t(x: np.ndarray) -> tuple[float, float]:
    return float(x[0]), float(x[1])


def paired_test(a: np.ndarray, b: np.ndarray, scorer: Scorer, bootstrap: int = 1000, randomization: int = 10000,
                seed: int = 12345) -> PairedTest:
    """Both tests for one score (``scorer`` returns a scalar per summed vector)."""
    return paired_tests(a, b, lambda c: np.asarray(scorer(c))[..., None], bootstrap, randomization, seed)[0]
