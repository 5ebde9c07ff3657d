"""What a study found: one typed node per shape, each holding the results of :mod:`corefreport.scoring`
and of this package (never a view's object). Every command and view renders one of them:

* :class:`Pair` — one system's :class:`~corefreport.scoring.result.Evaluation` (and its groups
  of documents, :class:`~.subsets.Subsets`);
* :class:`Systems` — each system's evaluation, their :class:`~corefreport.scoring.compare.Comparison`
  (and per grouping of documents each system's groups and the groups' deltas,
  :class:`~.groupdeltas.DatasetsComparison` over the groups);
* :class:`Runs` — each system's :class:`~.runs.RunsEvaluation` (and their
  :class:`~.groupdeltas.RunsComparison`);
* :class:`Datasets` — each system's :class:`~.datasets.DatasetsEvaluation` (and their
  :class:`~.groupdeltas.DatasetsComparison`);
* :class:`Groups` — one pair's documents in groups, each group scored on its own (the browser's
  level above a group's totals).

``final`` is ``False`` on the first numbers a staged run hands over (:func:`~.run.stages`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..scoring.result import Evaluation

if TYPE_CHECKING:  # the types only: numpy comes with the comparisons
    from ..scoring.compare import Comparison
    from .datasets import DatasetsEvaluation
    from .groupdeltas import DatasetsComparison, RunsComparison
    from .runs import RunsEvaluation
    from .strata import StrataComparison
    from .subsets import Subsets
    from .windows import WindowsComparison


def _prefixed(pairs) -> list[str]:
    """Each (prefix, warnings) pair's warnings, prefixed."""
    return [f"{p}{w}" for p, ws in pairs for w in ws]


@dataclass(frozen=True)
class Pair:
    """One system's evaluation against the key; ``subsets``: its scores per group of documents (one
    :class:`~.subsets.Subsets` per grouping) and ``intervals`` each group's interval (the report's)."""

    system: str
    evaluation: Evaluation
    subsets: tuple[Subsets, ...] = ()
    intervals: tuple[dict, ...] = ()
    headline: str = "conll"
    final: bool = True

    @property
    def warnings(self) -> list[str]:
        return list(self.evaluation.warnings)


@dataclass(frozen=True)
class Systems:
    """Several systems against one key: each one's evaluation (the baseline first) and ``compare``'s
    :class:`~corefreport.scoring.compare.Comparison` of them. ``final``: the comparison of the
    complete evaluations with its resampling; otherwise the first numbers (every system's standard
    metrics, compared without resampling). ``subsets``: per grouping of documents, each system's
    :class:`~.subsets.Subsets`; ``groups``: per grouping, the groups' deltas, intervals and p-values
    (:class:`~.groupdeltas.DatasetsComparison`, a group in place of a dataset)."""

    evaluations: dict[str, Evaluation]
    comparison: Comparison
    final: bool = True
    subsets: tuple[dict[str, Subsets], ...] = ()
    groups: tuple[DatasetsComparison, ...] = ()
    strata: tuple[StrataComparison, ...] = ()
    """Per stratification of the chains (``--strata``), the strata's deltas, intervals and p-values
    (:class:`~.strata.StrataComparison`); each system's strata are its evaluation's."""
    windows: WindowsComparison | None = None
    """``--window``: the systems' deltas on the full documents and on windows, and of their recall of
    the key's antecedent links within one window and across windows (:class:`~.windows.WindowsComparison`);
    each system's windows are its evaluation's."""

    @property
    def baseline(self) -> str:
        return self.comparison.baseline

    @property
    def systems(self) -> list[str]:
        """The systems compared with the baseline."""
        return self.comparison.systems

    def ev(self, name: str) -> Evaluation:
        return self.evaluations[name]

    @property
    def warnings(self) -> list[str]:
        """Each system's warnings, prefixed with its name, then the comparison's."""
        return _prefixed((f"{n}: ", ev.warnings) for n, ev in self.evaluations.items()) + \
            list(self.comparison.warnings if self.final else [])


@dataclass(frozen=True)
class Runs:
    """Groups of runs against one key: each system's runs (``groups``, the baseline first), their
    comparison (two groups or more), and the first run's evaluation in detail (``detailed``)."""

    groups: tuple[RunsEvaluation, ...]
    comparison: RunsComparison | None = None
    detailed: Evaluation | None = None
    final: bool = True

    @property
    def warnings(self) -> list[str]:
        if len(self.groups) == 1:
            return self.groups[0].warnings
        return _prefixed((f"{g.system}/{run}: ", ev.warnings) for g in self.groups for run, ev in g.runs)


@dataclass(frozen=True)
class Datasets:
    """One or more systems on several datasets: each system's
    :class:`~.datasets.DatasetsEvaluation` (the baseline first) and their comparison (two systems or
    more); ``evaluations``: dataset → system → the evaluation of the first variant."""

    systems: dict[str, DatasetsEvaluation]
    comparison: DatasetsComparison | None = None
    final: bool = True
    names: tuple[str, ...] = ()
    """Every dataset to come, in order (the browser lists those not scored yet as waiting)."""

    @property
    def baseline(self) -> DatasetsEvaluation:
        return next(iter(self.systems.values()))

    @property
    def evaluations(self) -> dict[str, dict[str, Evaluation]]:
        out: dict[str, dict[str, Evaluation]] = {}
        for name, dev in self.systems.items():
            v = dev.variants[0].name
            for d in dev.datasets:
                out.setdefault(d.name, {})[name] = d.evaluations[v]
        return out

    @property
    def warnings(self) -> list[str]:
        if len(self.systems) == 1:
            return self.baseline.warnings
        return _prefixed((f"{d}: {n}: ", ev.warnings) for d, evs in self.evaluations.items()
                         for n, ev in evs.items())


@dataclass(frozen=True)
class Groups:
    """One pair's documents in the groups of a grouping: the :class:`~.subsets.Subsets` table and
    each group's own evaluation (by group name; ``micro``: every document), as each comes."""

    subsets: Subsets
    evaluations: dict[str, Evaluation] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    final: bool = True

    @property
    def warnings(self) -> list[str]:
        from .subsets import MICRO

        ev = self.evaluations.get(MICRO)
        return list(ev.warnings) if ev is not None else []


Study = Pair | Systems | Runs | Datasets | Groups
"""A study's result: the node of its shape."""


def evaluation_of(study: Any) -> Evaluation | None:
    """The evaluation a study's detailed views describe: a pair's; the last system's; the first
    run's; the baseline's first dataset's."""
    if isinstance(study, Pair):
        return study.evaluation
    if isinstance(study, Systems):
        return list(study.evaluations.values())[-1]
    if isinstance(study, Runs):
        return study.detailed or study.groups[0].runs[0][1]
    if isinstance(study, Datasets):
        dev = study.baseline
        return dev.datasets[0].evaluations[dev.variants[0].name]
    if isinstance(study, Groups):
        return next(iter(study.evaluations.values()), None)
    return None


__all__ = ["Datasets", "Groups", "Pair", "Runs", "Study", "Systems", "evaluation_of"]
