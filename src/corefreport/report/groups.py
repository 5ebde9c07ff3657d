"""The report's sections for more than one corpus pair (issue 28): scores per group of documents
(``report --subsets``), mean ± sd over runs (``report --runs``) and one row per dataset
(``report --datasets``; the CRAC ranking under ``--preset crac``). The tables are
:mod:`corefreport.present`'s — the same as ``score`` prints — so nothing is computed here."""

from __future__ import annotations

from collections.abc import Sequence

from ..present.datasets import datasets_table
from ..present.labels import METRIC_LABELS
from ..present.runs import runs_table
from ..present.subsets import subsets_table
from .structure import Para, Section

TITLES = {"subsets": "Scores per group of documents", "runs": "Runs: mean ± sd", "datasets": "Datasets"}


def subsets_section(subs: Sequence, intervals: Sequence[dict] | None = None, metric: str = "conll") -> Section | None:
    """One table per grouping (:class:`~corefreport.scoring.subsets.Subsets`); ``intervals``: per
    grouping, each row's 95 % interval of ``metric``'s F1
    (:func:`~corefreport.scoring.groupdeltas.group_intervals`), as a last column."""
    if not subs:
        return None
    blocks: list = [Para("Each group is scored micro over its documents (each metric's per-document counts summed "
                         "within the group, the reference scorer's corpus rule); micro: every document; macro: the "
                         "unweighted mean over the groups." + (
                             f" The last column is the 95 % bootstrap interval of {METRIC_LABELS.get(metric, metric)} "
                             "F1: each group's documents resampled within the group, the macro row's every group "
                             "within itself." if intervals else ""))]
    for k, s in enumerate(subs):
        t = subsets_table(s)
        if intervals:
            t.header.append("f1_ci")
            if t.labels is not None:
                t.labels.append(f"95 % CI of {METRIC_LABELS.get(metric, metric)}")
            for row in t.rows:
                row.append(intervals[k].get(str(row[0])))
        blocks.append(t)
    return Section("subsets", TITLES["subsets"], blocks)


def runs_section(rv) -> Section:
    """The runs' F1 per metric: mean, sample sd, min, max and each run's
    (:class:`~corefreport.scoring.runs.RunsEvaluation`); the detailed sections describe the first run."""
    t = runs_table(rv)
    t.title = f"{rv.system}: F1 mean ± sd over {len(rv.runs)} runs"
    return Section("runs", TITLES["runs"], [
        Para(f"{len(rv.runs)} runs of {rv.system} ({', '.join(rv.names)}) against the same key; per metric the mean "
             "and sample standard deviation (N − 1) of the runs' F1, their minimum and maximum, and each run's F1. "
             f"The sections that follow describe the first run, {rv.names[0]}."),
        t, Para(str(rv.signature), "sig")])


def datasets_section(dev) -> Section:
    """One row per dataset and their unweighted mean
    (:class:`~corefreport.scoring.datasets.DatasetsEvaluation`)."""
    t = datasets_table(dev)
    what = ("the CRAC ranking: each dataset's CoNLL F1 in the four official variants, head match without singletons "
            "the primary" if dev.ranking else "each metric's F1 per dataset")
    return Section("datasets", TITLES["datasets"], [
        Para(f"{len(dev.datasets)} datasets, each scored micro over its own documents; {what}; avg is the unweighted "
             "mean over the datasets."), t, Para(str(dev.signature), "sig")])
