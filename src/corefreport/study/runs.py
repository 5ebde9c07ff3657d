"""Several runs of one system (seeds) against one key: each run scored as a corpus, then every
metric's mean, standard deviation, minimum and maximum over the runs.

The rule (as papers report "mean ± sd over N seeds"): for each metric and each of recall,
precision and F1, ``mean = (1/N) Σ x_i`` and the **sample** standard deviation
``sd = sqrt(Σ (x_i − mean)² / (N − 1))`` (undefined, ``nan``, for one run); CoNLL per run is the
mean of its MUC, B³ and CEAF-e F1. The key is read once; every run scores against the same key
corpus in memory (:func:`~.evaluate.evaluate` changes neither side).

>>> s = RunStats.of([0.6, 0.7, 0.8]); round(s.mean, 10), round(s.sd, 10), s.low, s.high
(0.7, 0.1, 0.6, 0.8)
>>> math.isnan(RunStats.of([0.5]).sd)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import SettingsError
from ..model import Corpus
from ..scoring.result import Evaluation
from ..scoring.settings import Signature


@dataclass(frozen=True, slots=True)
class RunStats:
    """Mean, sample sd, min and max of one number over the runs (and the values, in run order)."""

    mean: float
    sd: float
    low: float
    high: float
    values: tuple[float, ...]

    @classmethod
    def of(cls, values: Sequence[float]) -> RunStats:
        xs = tuple(float(v) for v in values)
        if not xs or any(math.isnan(x) for x in xs):
            nan = math.nan
            return cls(nan, nan, nan, nan, xs)
        mean = math.fsum(xs) / len(xs)
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else math.nan
        return cls(mean, sd, min(xs), max(xs), xs)

    def as_dict(self) -> dict:
        """The JSON object (an undefined value, such as one run's sd, is ``None``)."""
        def num(x: float) -> float | None:
            return None if math.isnan(x) else x

        return {"mean": num(self.mean), "sd": num(self.sd), "min": num(self.low), "max": num(self.high),
                "values": [num(x) for x in self.values]}


@dataclass(frozen=True)
class RunsEvaluation:
    """One system's runs: each run's :class:`Evaluation` in order."""

    system: str
    runs: tuple[tuple[str, Evaluation], ...]

    @property
    def names(self) -> list[str]:
        return [n for n, _ in self.runs]

    @property
    def metrics(self) -> tuple[str, ...]:
        return tuple(self.runs[0][1].metrics)

    def stats(self, metric: str, part: str = "f1") -> RunStats:
        """``part`` (``recall``, ``precision``, ``f1``) of ``metric`` over the runs (``conll``: F1)."""
        if metric == "conll":
            return RunStats.of([math.nan if ev.conll is None else ev.conll for _, ev in self.runs])
        return RunStats.of([getattr(ev.metrics[metric], part) for _, ev in self.runs])

    @property
    def has_conll(self) -> bool:
        return all(m in self.metrics for m in ("muc", "bcub", "ceafe"))

    @property
    def warnings(self) -> list[str]:
        out: dict[str, None] = {}
        for name, ev in self.runs:
            for w in ev.warnings:
                out[f"{name}: {w}"] = None
        return list(out)

    @property
    def signature(self) -> Signature:
        """The first run's signature (the key is the same for all), with ``runs:N`` and ``sd:sample``."""
        first = self.runs[0][1].signature
        fields = [f for f in first.fields if f[0] != "version"]
        return Signature(tuple(fields) + (("runs", str(len(self.runs))), ("sd", "sample"),
                                          ("version", first.get("version"))))


def evaluate_runs(system: str, key: Corpus, runs: Iterable[tuple[str, Corpus]], settings, *,
                  jobs: int = 1) -> RunsEvaluation:
    """Score each ``(run name, response corpus)`` against ``key`` under ``settings`` (the runs
    taken one at a time: only one response need be in memory)."""
    from ..scoring.evaluate import evaluate

    out: list[tuple[str, Evaluation]] = []
    for name, response in runs:
        if any(n == name for n, _ in out):
            raise SettingsError(f"two runs are called {name!r}")
        out.append((name, evaluate(key, response, settings, jobs=jobs, rows=False, documents=False)))
    if not out:
        raise SettingsError("no run to score")
    return RunsEvaluation(system, tuple(out))
