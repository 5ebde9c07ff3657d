"""Systems compared on the full documents and on windows (``compare --window N``): per setting and
score, the difference of the systems' F1 with its 95 % interval and p-values, and the difference of
their recall of the key's antecedent links within one window and across windows.

Every setting is micro over the documents (each document's counts, :mod:`corefreport.scoring.windows`),
so it is tested as ``compare`` tests a corpus (:func:`~corefreport.scoring.significance.paired_tests`):
the documents are resampled — each with its counts on the full document, on its windows, or of its
links —, both systems on the same draw (paired bootstrap, Koehn 2004) and documents swapped between
the systems (approximate randomization, Riezler & Maxwell 2005). The full setting's tests are those
``compare`` gives the corpus (the same draws).

>>> from corefreport.scoring.counts import Counts
>>> rows = [{"within": Counts(1, 2, 1, 3)}, {"within": Counts(0, 1, 0, 0)}]
>>> link_matrix(rows, "within").tolist()
[[1.0, 2.0, 1.0, 3.0], [0.0, 1.0, 0.0, 0.0]]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..scoring.windows import LINKS
from .strata import compared, score_matrix

SETTINGS = ("full", "windows")
"""The settings every score is compared in: the full documents, the windows."""
LINK_SCORE = "links"
"""The score of the antecedent links (its settings: :data:`~corefreport.scoring.windows.LINKS`): their recall."""


@dataclass(frozen=True)
class WindowsComparison:
    """Systems against a baseline on the full documents and on windows of :attr:`size` words:
    ``tests`` system → setting → score → :class:`~corefreport.scoring.significance.PairedTest`
    (settings ``full`` and ``windows``: each score's F1; ``within`` and ``across``: the recall of
    the key's antecedent links, score :data:`LINK_SCORE`)."""

    size: int
    baseline: str
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    tests: dict[str, dict[str, dict[str, Any]]]
    documents: int
    bootstrap: int
    randomization: int
    seed: int
    signature: object

    score_settings = SETTINGS
    """The settings each score's F1 is compared in."""
    link_settings = LINKS
    """The settings the links' recall is compared in (within one window, across windows)."""
    link_score = LINK_SCORE

    @property
    def settings(self) -> tuple[str, ...]:
        return SETTINGS + LINKS

    def as_dict(self) -> dict:
        return {"size": self.size, "baseline": self.baseline, "systems": list(self.systems),
                "metrics": list(self.metrics), "documents": self.documents,
                "settings": {x: {s: {m: t.as_dict() for m, t in self.tests[s][x].items()} for s in self.systems}
                             for x in self.settings},
                "resampling": {"unit": "documents", "per_setting": "paired bootstrap and approximate randomization "
                               "over the documents, each with its counts on the full document, on its windows or of "
                               "its antecedent links (their recall)", "bootstrap": self.bootstrap,
                               "randomization": self.randomization, "seed": self.seed},
                "signature": str(self.signature)}


def link_matrix(rows: list[dict], kind: str) -> np.ndarray:
    """(documents × 4) of the antecedent links of ``kind`` (within | across) of each document."""
    from ..scoring.compare import counts_vector

    return np.asarray([counts_vector(r[kind]) for r in rows], dtype=float).reshape(len(rows), 4)


def recall_of(cols: np.ndarray) -> np.ndarray:
    """Summed link columns → their recall (key links found / key links), one score."""
    from ..scoring.counts import ratio

    return np.asarray(ratio(cols[..., 0], cols[..., 1]))[..., None]


def compare_windows(evaluations: dict[str, Any], baseline: str, bootstrap: int = 1000, randomization: int = 10000,
                    seed: int = 12345) -> WindowsComparison:
    """The systems of ``evaluations`` (name → :class:`~corefreport.scoring.result.Evaluation` of one
    key, scored with ``--window``) compared on the full documents and on the windows (module docstring)."""
    from ..scoring.significance import paired_tests
    from .groupdeltas import f1_of

    if baseline not in evaluations:
        raise ValueError(f"the baseline {baseline!r} is not among the systems")
    base = evaluations[baseline]
    windows = base.windows
    doc_ids = [d.doc_id for d in base.documents]
    docs = {}
    for name, ev in evaluations.items():
        by_id = {d.doc_id: d for d in ev.documents}
        docs[name] = [by_id[i] for i in doc_ids]
    metrics = compared(windows.metrics)
    others = [s for s in evaluations if s != baseline]
    tests: dict = {s: {x: {} for x in SETTINGS + LINKS} for s in others}
    for setting in SETTINGS:
        for m in metrics:
            windowed = setting == "windows"
            a = score_matrix([d.windows if windowed else d for d in docs[baseline]], m)
            for s in others:
                b = score_matrix([d.windows if windowed else d for d in docs[s]], m)
                tests[s][setting][m] = paired_tests(a, b, f1_of(m), bootstrap, randomization, seed)[0]
    for kind in LINKS:
        a = link_matrix([d.windows.links for d in docs[baseline]], kind)
        for s in others:
            b = link_matrix([d.windows.links for d in docs[s]], kind)
            tests[s][kind][LINK_SCORE] = paired_tests(a, b, recall_of, bootstrap, randomization, seed)[0]
    sig = base.signature.extended(resample="docs", bootstrap=bootstrap, ar=randomization, seed=seed)
    return WindowsComparison(windows.size, baseline, tuple(others), tuple(metrics), tests, len(doc_ids), bootstrap,
                             randomization, seed, sig)


__all__ = ["LINK_SCORE", "SETTINGS", "WindowsComparison", "compare_windows", "link_matrix",
           "recall_of"]
