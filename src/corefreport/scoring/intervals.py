"""95 % bootstrap intervals of one system's corpus scores, over documents.

A single system is a comparison with itself: :func:`~corefreport.scoring.compare.compare` lays out
the per-document statistics (:func:`~corefreport.scoring.compare.document_matrix`, the typed
per-class columns, the ARCS scenario totals), and
:func:`~corefreport.scoring.significance.paired_bootstrap` resamples the documents ``resamples``
times with ``seed`` and scores every resample with the registry's formulas. Nothing is re-scored:
the point estimate is the corpus score itself, the interval the percentile interval of the
resampled scores (Koehn 2004).
"""

from __future__ import annotations

from dataclasses import dataclass

from .result import Evaluation

RESAMPLES = 1000
SEED = 12345
CONFIDENCE = 0.95


@dataclass(frozen=True, slots=True)
class ScoreInterval:
    """A corpus F1 and its bootstrap percentile interval (fractions)."""

    f1: float
    low: float
    high: float


def score_intervals(ev: Evaluation, resamples: int = RESAMPLES, seed: int = SEED,
                    confidence: float = CONFIDENCE) -> dict[str, ScoreInterval]:
    """Every score the evaluation resamples (standard metrics, CoNLL, the linguistically aware
    metrics, mentions, each ARCS scenario, typed micro / macro / scheme coverage) → its F1 and
    interval. NaN bounds when ``resamples`` is 0 or there are no documents."""
    from .compare import compare

    name = "system"
    cmp = compare({name: ev}, name, bootstrap=resamples, randomization=0, seed=seed, groupings=(),
                  confidence=confidence)
    return {m.name: ScoreInterval(m.f1[name], *m.ci[name]) for m in cmp.metrics}
