"""A study as a report: which evaluation the detailed sections describe, the sections for more than
one pair (:mod:`.groups`), the comparison and the title page's scope — one function per shape
(:func:`report_of`), so that the command only writes what it gets."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..scoring.result import Evaluation
from . import groups as G
from . import strata as S
from . import windows as W


@dataclass(frozen=True)
class ReportParts:
    """What :func:`~.document.write_report` takes for a study: the evaluation described in detail,
    the extra sections after the overview, the systems' comparison and evaluations, the scope of a
    report on more than one pair, and the sections shown when none are asked for (``None``: all)."""

    evaluation: Evaluation
    extra: list
    comparison: Any = None
    systems: dict[str, Evaluation] | None = None
    scope: Any = None
    sections: list[str] | None = None
    warnings: tuple[tuple[str, list[str]], ...] = ()
    """(prefix, warnings) to print: each system's with its name."""


def report_of(study) -> ReportParts:
    """The report's parts of ``study`` (a :mod:`corefreport.study.nodes` node)."""
    from ..study.nodes import Datasets, Pair, Runs, Systems

    if isinstance(study, Pair):
        ev = study.evaluation
        extra = [G.subsets_section(list(study.subsets), list(study.intervals) or None, study.headline)] \
            if study.subsets else []
        extra += [s for s in (S.strata_section(ev), W.windows_section(ev)) if s is not None]
        return ReportParts(ev, extra, warnings=(("", ev.warnings),))
    if isinstance(study, Systems):
        extra = [G.systems_subsets_section(study.subsets, study.groups)] if study.subsets else []
        extra += [s for s in (S.systems_strata_section(study.evaluations, study.strata),
                              W.systems_windows_section(study.evaluations, study.windows)) if s is not None]
        evs = study.evaluations
        return ReportParts(list(evs.values())[-1], extra, study.comparison, evs,
                           warnings=tuple((f"{n}: ", e.warnings) for n, e in evs.items()))
    if isinstance(study, Runs):
        first, rest = study.groups[0], study.groups[1:]
        ev = study.detailed or first.runs[0][1]
        if study.comparison is None:
            return ReportParts(ev, [G.runs_section(first)], warnings=(("", first.warnings),))
        warnings = study.warnings
        return ReportParts(replace(ev, warnings=warnings), [G.runs_section(first, rest),
                                                           G.runs_comparison_section(study.comparison)],
                           warnings=(("", warnings),))
    if isinstance(study, Datasets):
        if study.comparison is None:
            dev = study.baseline
            ev = dev.datasets[0].evaluations[dev.variants[0].name]
            return ReportParts(ev, [G.datasets_section(dev)], scope=G.datasets_scope(dev), sections=["methods"],
                               warnings=(("", dev.warnings),))
        cmp = study.comparison
        warnings = study.warnings
        ev = replace(study.evaluations[cmp.datasets[0]][cmp.baseline], warnings=warnings)
        return ReportParts(ev, [G.datasets_comparison_section(cmp, study.systems)],
                           scope=G.datasets_comparison_scope(cmp),
                           sections=["methods"], warnings=(("", warnings),))
    raise TypeError(f"no report of a {type(study).__name__}")
