"""The report's sections for more than one corpus pair (issue 28): scores per group of documents
(``report --subsets``), mean ± sd over runs (``report --runs``) and one row per dataset
(``report --datasets``; the CRAC ranking under ``--preset crac``). The tables are
:mod:`corefreport.present`'s — the same as ``score`` prints — so nothing is computed here."""

from __future__ import annotations

from collections.abc import Sequence

from dataclasses import dataclass

from ..present.datasets import datasets_table, main_table
from ..present.groupdeltas import datasets_comparison_tables, runs_comparison_tables
from ..present.labels import METRIC_LABELS
from ..present.numbers import count, mean_sd
from ..present.runs import runs_table
from ..present.subsets import subsets_table
from .model import CORRECTION_CITES
from .structure import Para, Section

TITLES = {"subsets": "Scores per group of documents", "runs": "Runs: mean ± sd", "datasets": "Datasets",
          "compare-datasets": "Systems compared over the datasets", "compare-runs": "Groups of runs compared"}


@dataclass(frozen=True, slots=True)
class Scope:
    """What a report on more than one pair is about, for its title page and methods: ``subject``
    (the default title's end), ``subtitle``, ``corpus`` (the methods' phrase saying what was scored,
    in place of one key and one response), ``matching`` (a sentence in place of the one mention
    matching, when the datasets are scored in several ways) and ``signature``."""

    subject: str
    subtitle: str
    corpus: str
    signature: str
    matching: str | None = None
    cites: tuple[str, ...] = ()
    """Keys of the registry's references the extra sections cite."""


def subsets_section(subs: Sequence, intervals: Sequence[dict] | None = None, metric: str = "conll") -> Section | None:
    """One table per grouping (:class:`~corefreport.study.subsets.Subsets`); ``intervals``: per
    grouping, each row's 95 % interval of ``metric``'s F1
    (:func:`~corefreport.study.groupdeltas.group_intervals`), as a last column."""
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


def systems_subsets_section(groupings: Sequence[dict], comparisons: Sequence = ()) -> Section | None:
    """Several systems' scores per group of documents (``report -r A -r B --subsets genre``): per
    grouping, each system's table (:class:`~corefreport.study.subsets.Subsets`, the baseline first),
    then per system the groups' deltas of the headline score with their intervals and p-values
    (``comparisons``: :class:`~corefreport.study.groupdeltas.DatasetsComparison` over the groups)."""
    if not groupings:
        return None
    from ..present.groupdeltas import groups_comparison_tables

    blocks: list = [Para("Each system's scores per group of documents: each group is scored micro over its documents "
                         "(each metric's per-document counts summed within the group, the reference scorer's corpus "
                         "rule); micro: every document; macro: the unweighted mean over the groups."
                         + (" Then each system against the baseline per group: the difference with its 95 % interval "
                            "and p-value from a paired bootstrap and approximate randomization over the group's "
                            "documents (Koehn 2004; Riezler & Maxwell 2005); avg: the unweighted mean over the groups, "
                            "resampled within each group." if comparisons else ""))]
    for k, subs in enumerate(groupings):
        by = next(iter(subs.values())).by
        for name, sub in subs.items():
            t = subsets_table(sub)
            t.title = f"{name}: {t.title}"
            blocks.append(t)
        if k < len(comparisons):
            blocks += groups_comparison_tables(comparisons[k], by)
            blocks.append(Para(str(comparisons[k].signature), "sig"))
    return Section("subsets", TITLES["subsets"], blocks)


def runs_table_mean_sd(rv):
    """``score --runs``'s table with the mean and the sd in one cell (``64.83 ± 0.41``), as papers
    print them; then min, max and each run's F1."""
    t = runs_table(rv)
    t.title = f"{rv.system}: F1 mean ± sd over {len(rv.runs)} runs"
    t.header = [t.header[0], "mean_sd", *t.header[3:]]
    if t.labels is not None:
        t.labels = [t.labels[0], "mean ± sd", *t.labels[3:]]
    for row in t.rows:
        m, sd = row[1], row[2]
        row[1:3] = [mean_sd(m, float("nan") if sd is None else sd) if m is not None else None]
    return t


def runs_section(rv, more: Sequence = ()) -> Section:
    """The runs' F1 per metric: mean ± sample sd (one cell), min, max and each run's
    (:class:`~corefreport.study.runs.RunsEvaluation`; ``more``: other groups' tables below it);
    the detailed sections describe the first run."""
    groups = [rv, *more]
    blocks: list = [Para(f"{len(rv.runs)} runs of {rv.system} ({', '.join(rv.names)}) against the same key"
                         + "".join(f"; {len(g.runs)} runs of {g.system} ({', '.join(g.names)})" for g in more)
                         + "; per metric the mean ± sample standard deviation (N − 1) of the runs' F1, their minimum "
                         "and maximum, and each run's F1. "
                         f"The sections that follow describe the first run of {rv.system}, {rv.names[0]}.")]
    blocks += [runs_table_mean_sd(g) for g in groups]
    blocks.append(Para(str(rv.signature), "sig"))
    return Section("runs", TITLES["runs"], blocks)


def runs_comparison_section(cmp) -> Section:
    """``compare --runs`` in the report: per system against the baseline group, each score's
    means ± sd, the difference, and its interval and p-value with the runs and with the documents as
    the unit (:class:`~corefreport.study.groupdeltas.RunsComparison`)."""
    groups = ", ".join(f"{g} ({len(r)} runs)" for g, r in cmp.groups.items())
    first = next(iter(next(iter(cmp.deltas.values())).values()), None) if cmp.deltas else None
    floor = (f" With {first.runs.limit} the permutation test cannot give a p below {first.runs.floor:.4f}, however "
             "large the difference: it says how far the seeds alone go, not whether the systems differ."
             if first is not None and first.runs.limit else "")
    return Section("compare-runs", TITLES["compare-runs"], [
        Para(f"Groups of runs {groups} against the baseline {cmp.baseline}. The difference of the means is tested "
             "with the runs and the documents resampled together — a two-level bootstrap: each resample draws each "
             "group's runs with replacement, then the documents with replacement, the same draw for every run of both "
             "groups (Davison & Hinkley 1997; Bouthillier et al. 2021) — which gives the interval, the p-value and * "
             "(p < 0.05); then with the runs alone as the unit (a permutation test over which runs belong to which "
             "group; the seed variance) and with the documents alone (the test-set variance)." + floor
             + _correction_sentence(cmp.correction, f"the {cmp.family} tests of the table (every score of every "
                                                    "system)")),
        *runs_comparison_tables(cmp), Para(str(cmp.signature), "sig")])


def _correction_sentence(method: str, family: str) -> str:
    """The methods' sentence on ``--correction`` (empty without one)."""
    if method == "none":
        return ""
    return (f" The p-values are adjusted for multiple comparisons by {CORRECTION_CITES[method]} over the family "
            f"of {family}.")


def datasets_comparison_section(cmp, systems) -> Section:
    """``compare --datasets`` in the report: per system, the baseline's and the system's score per
    dataset, the difference with its 95 % interval and p-value over that dataset's documents, and
    the macro row with a stratified interval
    (:class:`~corefreport.study.groupdeltas.DatasetsComparison`), after the main table of every
    system's R, P and F1 per dataset (``systems``: name →
    :class:`~corefreport.study.datasets.DatasetsEvaluation`; :func:`~corefreport.present.datasets.main_table`)."""
    m = METRIC_LABELS.get(cmp.headline, cmp.headline)
    return Section("compare-datasets", TITLES["compare-datasets"], [
        Para(f"{', '.join(cmp.systems)} against the baseline {cmp.baseline} on {len(cmp.datasets)} datasets "
             f"({count(sum(cmp.documents.values()))} documents), {m} F1. Each dataset: a paired bootstrap "
             f"({cmp.bootstrap} resamples) and approximate randomization ({cmp.randomization} trials) over its "
             "documents (Koehn 2004; Riezler & Maxwell 2005), the smallest p its documents allow beside the p where "
             "they limit it (one document: no interval, and p = 1 by construction); avg: the unweighted mean over the "
             "datasets, its interval and p-value from a stratified resampling (each dataset's documents resampled "
             "within it), and the share of those resamples in which the system's mean is higher than the "
             "baseline's." + _correction_sentence(cmp.correction, f"the {cmp.family} tests of each score (every "
                                                                  "dataset and avg, every system)")),
        main_table(systems),
        *datasets_comparison_tables(cmp), Para(str(cmp.signature), "sig")])


def datasets_section(dev) -> Section:
    """One row per dataset and their unweighted mean
    (:class:`~corefreport.study.datasets.DatasetsEvaluation`)."""
    t = datasets_table(dev, intervals=True)
    what = ("the CRAC ranking: each dataset's CoNLL F1 in the four official variants, head match without singletons "
            "the primary" if dev.ranking else "each metric's F1 per dataset")
    return Section("datasets", TITLES["datasets"], [
        Para(f"{len(dev.datasets)} datasets, each scored micro over its own documents; {what}; avg is the unweighted "
             "mean over the datasets, and under it each average's 95 % interval from a stratified bootstrap (each "
             f"dataset's documents resampled within it, {dev.INTERVAL_RESAMPLES} resamples, seed "
             f"{dev.INTERVAL_SEED}; Koehn 2004)."), t, Para(str(dev.signature), "sig")])


SINGLETONS = {"keep": "singletons kept", "drop": "without singletons"}


def datasets_scope(dev) -> Scope:
    """The title page's and the methods' account of ``report --datasets``: every dataset, its key
    documents and its files (not the first dataset's alone); the four variants' matching under the
    CRAC ranking."""
    v = dev.variants[0].name
    docs = [(d.name, d.evaluations[v].key_stats.documents) for d in dev.datasets]
    total = sum(n for _, n in docs)
    listed = "; ".join(f"{name} ({count(n)} key document{'s' if n != 1 else ''})" for name, n in docs)
    corpus = (f"{len(docs)} datasets, {count(total)} key documents in all — {listed} — each dataset scored micro "
              "over its own documents against its response, the avg row the unweighted mean over the datasets")
    matching = None
    if dev.ranking:
        matching = ("Each dataset was scored in the four variants of the CRAC ranking, as corefud-scorer v1.2 scores "
                    "them: " + "; ".join(f"{x.title} ({SINGLETONS[x.settings.singletons]})" for x in dev.variants)
                    + "; the ranking score is the mean over the datasets of head match without singletons.")
    return Scope(f"{len(docs)} datasets", f"{len(docs)} datasets: " + ", ".join(n for n, _ in docs), corpus,
                 str(dev.signature), matching)


def datasets_comparison_scope(cmp) -> Scope:
    """The title page's and the methods' account of ``report --datasets … -r``."""
    total = sum(cmp.documents.values())
    listed = "; ".join(f"{d} ({count(n)} key documents)" for d, n in cmp.documents.items())
    names = ", ".join([cmp.baseline, *cmp.systems])
    return Scope(f"{names} on {len(cmp.datasets)} datasets", f"Systems {names} on {len(cmp.datasets)} datasets",
                 f"{len(cmp.datasets)} datasets, {count(total)} key documents in all — {listed} — each system "
                 "scored micro over each dataset's documents", str(cmp.signature),
                 cites=("Koehn 2004", "Riezler & Maxwell 2005"))
