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

One document: every bootstrap resample is that document, so there is no interval (NaN, shown
"one document: no interval") and no bootstrap p-value; approximate randomization can only swap it or
not, both reproduce ±Δ, so its p is 1 — the floor of the test on one document, not evidence that the
systems are alike (:func:`smallest_p`).

Multiple comparisons (:func:`adjust`): over a family of ``m`` p-values ``p_(1) ≤ … ≤ p_(m)``,
Holm (1979) ``p̃_(i) = max_{j ≤ i} min(1, (m − j + 1) p_(j))`` (controls the family-wise error rate);
Benjamini & Hochberg (1995) ``p̃_(i) = min_{j ≥ i} min(1, m p_(j) / j)`` (controls the false
discovery rate). An undefined p (NaN: a test not run, a score undefined) is not in the family.

References: P. Koehn (2004), Statistical significance tests for machine translation evaluation,
EMNLP. S. Riezler & J. T. Maxwell (2005), On some pitfalls in automatic evaluation and
significance testing for MT, ACL workshop on intrinsic and extrinsic evaluation measures.
E. W. Noreen (1989), Computer-Intensive Methods for Testing Hypotheses. T. Berg-Kirkpatrick,
D. Burkett & D. Klein (2012), An empirical investigation of statistical significance in NLP,
EMNLP-CoNLL. M. Post (2018), A call for clarity in reporting BLEU scores, WMT. S. Holm (1979), A
simple sequentially rejective multiple test procedure, Scandinavian Journal of Statistics 6(2).
Y. Benjamini & Y. Hochberg (1995), Controlling the false discovery rate, JRSS B 57(1).
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
    (..., size, 3) recall, precision, F; ``defined`` (when the score's recall and precision are each
    one fraction) maps them to (..., size, 2): whether R's and P's denominators are non-zero."""

    width: int
    size: int
    rpf: Callable[[np.ndarray], np.ndarray]
    defined: Callable[[np.ndarray], np.ndarray] | None = None


def denominators(key: str) -> tuple[int, int] | None:
    """The columns of recall's and precision's denominators in a registry metric's statistics when
    each is one fraction of counts (``recall_den``, ``precision_den``: the metrics whose 0/0 ``score``
    prints as n/a, :func:`corefreport.present.numbers.shown_rpf`); ``None`` for any other shape
    (BLANC, CoNLL, the typed averages, outcome rows: their formulas and tables keep the reference's
    0 there).

    >>> denominators("muc"), denominators("zero"), denominators("immediate"), denominators("conll")
    ((1, 3), (1, 3), None, None)
    """
    from .registry import COUNTS, get

    m = get(key)
    return (1, 3) if m.columns == COUNTS and not m.per_class and not m.requires else None


def metric_block(key: str, groups: int = 1) -> Block:
    """The columns of one registry metric (``groups`` groups of them side by side, as the per-class
    and per-type outcome statistics) scored by its :attr:`~corefreport.scoring.registry.Metric.formula`."""
    from .registry import get

    m = get(key)
    w = len(m.columns)
    dens = denominators(key)
    defined = None
    if dens is not None:
        def defined(c: np.ndarray) -> np.ndarray:
            return np.stack([c[..., dens[0]::w][..., :groups] != 0, c[..., dens[1]::w][..., :groups] != 0], axis=-1)
    return Block(w * groups, groups, lambda c: m.rpf(c, groups), defined)


def shared_block(metrics: Sequence[tuple[str, dict]], width: int) -> Block:
    """Several registry metrics over the same ``width`` columns (typed micro, macro and scheme
    coverage over the per-class statistics), each with its formula parameters."""
    from .registry import get

    ms = [(get(k), params) for k, params in metrics]
    return Block(width, len(ms), lambda c: np.concatenate([m.rpf(c, **p) for m, p in ms], axis=-2))


def defined_scores(blocks: Sequence[Block], cols: np.ndarray) -> np.ndarray:
    """For summed columns (Σ width,) of blocks laid side by side: (Σ size, 2) whether each score's
    recall and precision are defined (a block without :attr:`Block.defined`: always)."""
    out = []
    at = 0
    for b in blocks:
        out.append(b.defined(cols[at:at + b.width]) if b.defined is not None else np.ones((b.size, 2), dtype=bool))
        at += b.width
    return np.concatenate(out) if out else np.ones((0, 2), dtype=bool)


def f1_defined(key: str, cols: np.ndarray) -> bool:
    """Whether the F1 of registry metric ``key`` is defined on its summed statistics ``cols`` (one
    group): both denominators non-zero when R and P are fractions (:func:`denominators`), else
    always. ``score`` and the browser print "n/a" where it is not (``present.numbers.shown_rpf``).

    >>> f1_defined("zero", np.array([0.0, 0, 0, 0])), f1_defined("zero", np.array([0.0, 0, 0, 3]))
    (False, False)
    >>> f1_defined("muc", np.array([1.0, 2, 1, 2])), f1_defined("conll", np.zeros(12))
    (True, True)
    """
    dens = denominators(key)
    return dens is None or bool(cols[dens[0]] != 0 and cols[dens[1]] != 0)


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
    if resamples <= 0 or n <= 1:  # one document: every resample is that document, no interval
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
    if randomization > 0:  # (one document: every trial swaps it or not, p = 1)
        always = 0
        for s in randomization_masks(n_docs, randomization, seed):
            total = s.sum(axis=1)
            always += int(np.count_nonzero((total == 0) | (total == n_docs)))
        return (always + 1) / (randomization + 1)
    return 1 / (bootstrap + 1) if bootstrap > 0 and n_docs > 1 else float("nan")


class Decided:
    """The p that decides a test's significance, for a result with ``p_value`` (randomization or
    permutation; NaN where not run), ``p_bootstrap``, ``p_adjusted`` and ``correction``:
    :class:`PairedTest` and the study's :class:`~corefreport.study.groupdeltas.Delta`."""

    __slots__ = ()
    p_value: float
    p_bootstrap: float
    p_adjusted: float
    correction: str

    @property
    def p_raw(self) -> float:
        """The p-value of the deciding test: randomization's, else the bootstrap's."""
        return self.p_bootstrap if math.isnan(self.p_value) else self.p_value

    @property
    def p(self) -> float:
        """The p-value that decides significance: :attr:`p_raw`, adjusted when a correction is set."""
        return self.p_adjusted if self.correction else self.p_raw

    def significant(self, alpha: float = 0.05) -> bool:
        return self.p < alpha  # False for NaN


@dataclass(slots=True)
class PairedTest(Decided):
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
    p_adjusted: float = float("nan")
    """The deciding p adjusted for multiple comparisons (:func:`adjust`) when ``correction`` names a
    method; then it is :attr:`p`."""
    correction: str = ""

    def as_dict(self) -> dict:
        return {"baseline": _num(self.baseline), "system": _num(self.system), "delta": _num(self.delta),
                "baseline_ci": _pair(self.baseline_ci), "system_ci": _pair(self.system_ci),
                "delta_ci": _pair(self.delta_ci), "p_value": _num(self.p_value), "p_bootstrap": _num(self.p_bootstrap),
                **({"p_adjusted": _num(self.p_adjusted), "correction": self.correction} if self.correction else {}),
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


def undefined_test(test: PairedTest, baseline: bool, system: bool) -> PairedTest:
    """``test`` with the score of a side whose F1 is undefined (0/0: ``baseline`` or ``system``
    False) NaN, and then the difference, its interval and p-values NaN too: nothing to test."""
    nan = float("nan")
    if baseline and system:
        return test
    return PairedTest(test.baseline if baseline else nan, test.system if system else nan, nan,
                      test.baseline_ci if baseline else (nan, nan), test.system_ci if system else (nan, nan),
                      (nan, nan), nan, nan)


CORRECTIONS = {"none": "", "holm": "Holm", "bh": "Benjamini–Hochberg"}
"""``--correction``'s methods and their names (``none``: each p as it is)."""


def adjust(p_values: Sequence[float], method: str) -> list[float]:
    """The p-values adjusted for multiple comparisons over their family (NaN ones left out of it and
    left NaN): ``holm`` (Holm 1979, step-down: ``max_{j ≤ i} min(1, (m − j + 1) p_(j))``) or ``bh``
    (Benjamini & Hochberg 1995, step-up: ``min_{j ≥ i} min(1, m p_(j) / j)``); ``none``: as given.

    >>> adjust([0.01, 0.04, 0.03, 0.2], "holm")
    [0.04, 0.09, 0.09, 0.2]
    >>> [round(x, 4) for x in adjust([0.01, 0.04, 0.03, 0.2], "bh")]
    [0.04, 0.0533, 0.0533, 0.2]
    """
    if method not in CORRECTIONS:
        raise ValueError(f"--correction takes {', '.join(CORRECTIONS)}, got {method!r}")
    out = [float(p) for p in p_values]
    if method == "none":
        return out
    idx = sorted((i for i, p in enumerate(out) if not math.isnan(p)), key=lambda i: (out[i], i))
    m = len(idx)
    adjusted = [0.0] * m
    if method == "holm":
        running = 0.0
        for k, i in enumerate(idx):
            running = max(running, min(1.0, (m - k) * out[i]))
            adjusted[k] = running
    else:
        running = 1.0
        for k in range(m - 1, -1, -1):
            running = min(running, min(1.0, m * out[idx[k]] / (k + 1)))
            adjusted[k] = running
    for k, i in enumerate(idx):
        out[i] = adjusted[k]
    return out


def check_resampling(bootstrap: int, randomization: int, correction: str) -> None:
    """``ValueError`` unless the resample and trial counts are ≥ 0 and ``correction`` is one of
    :data:`CORRECTIONS` (the message names ``--correction``, as the command line's)."""
    if bootstrap < 0 or randomization < 0:
        raise ValueError("bootstrap and randomization take a number ≥ 0")
    if correction not in CORRECTIONS:
        raise ValueError(f"--correction takes {', '.join(CORRECTIONS)}, got {correction!r}")


def correct(tests: Sequence, method: str) -> int:
    """Adjust the deciding p-values of ``tests`` (:class:`PairedTest` s, set in place) as one
    family (:func:`adjust`); the family's size (tests with a p-value). ``none``: nothing changes."""
    if method != "none" and tests:
        for t, q in zip(tests, adjust([t.p_raw for t in tests], method)):
            t.p_adjusted, t.correction = q, method
    return sum(1 for t in tests if not math.isnan(t.p_raw))


def paired_test(a: np.ndarray, b: np.ndarray, scorer: Scorer, bootstrap: int = 1000, randomization: int = 10000,
                seed: int = 12345) -> PairedTest:
    """Both tests for one score (``scorer`` returns a scalar per summed vector)."""
    return paired_tests(a, b, lambda c: np.asarray(scorer(c))[..., None], bootstrap, randomization, seed)[0]
