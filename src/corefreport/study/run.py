"""``run(plan) -> Study``: every shape read and scored one way.

:func:`stages` is the study as a generator of :mod:`.nodes`: with a staged policy (the browser) it
first hands over the first numbers — a pair's per-document metrics; every system's, compared without
resampling; the datasets scored so far; the whole corpus before its groups — and always ends with
the complete study (``final``). :func:`run` is its last value. Nothing here runs a thread: the
systems' evaluations are generators (:func:`corefreport.scoring.evaluate.stages`) advanced in turn.

Every pair is read through :mod:`.read`; a key shared by several responses is read once.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from ..scoring.evaluate import stages as evaluation_stages
from ..scoring.result import Evaluation
from ..scoring.settings import Settings
from . import read
from .nodes import Datasets, Groups, Pair, Runs, Study, Systems
from .plan import DATASETS, PAIR, RUNS, Plan

FREEZE = False
"""Set by the console entry point: after reading and scoring, move every object into the
collector's permanent generation (:func:`gc.freeze`) instead of letting the first collections
walk the whole corpus. Library and test callers keep the ordinary collector."""

MAX_JOBS = 4
"""The default ``--jobs`` is the number of idle cores, at most this many."""
POOL_BYTES = 2_000_000
"""Below this size of the key (about 75 CoNLL-2012 documents of 500 tokens) one process scores as
fast as a pool: forking and adding the parts up cost about what the second core saves
(measured on 2 cores, bench/README.md)."""


class Watch:
    """What a study says as it goes; each method does nothing here (a view overrides them):
    :meth:`stage` when a step begins (a status line), :meth:`documents` after each run of
    documents (a progress bar), :meth:`read` once the inputs read whole are in memory."""

    def stage(self, message: str) -> None:
        pass

    def documents(self, phase: str, done: int, total: int) -> None:
        pass

    def read(self) -> None:
        pass


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off while reading and scoring (many small objects, no cycles): with
    :data:`FREEZE` the objects built are then frozen, so no later collection walks them again."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if FREEZE:
            gc.freeze()
        if was:
            gc.enable()


def pool_size(jobs: int | None, key_files: list[str]) -> int:
    """Processes to score with: ``jobs`` when given; by default 1 for a key under
    :data:`POOL_BYTES`, else the idle cores (:func:`corefreport.forking.idle_cores`, at most
    :data:`MAX_JOBS`). Where :func:`os.fork` is missing, the pool's fold runs in one process."""
    import os

    if jobs is not None:
        return jobs
    try:
        if sum(os.path.getsize(f) for f in key_files) < POOL_BYTES:
            return 1
    except OSError:
        return 1
    from ..forking import idle_cores

    return max(1, min(idle_cores(), MAX_JOBS))


def decide_jobs(plan: Plan) -> Plan:
    """``plan`` with its processes decided now (``policy.jobs`` ``None``: by the key's size and the
    cores idle now, :func:`pool_size`) — before a command starts other work on the cores (the
    report's PDF child). Several systems, runs or datasets score in one process."""
    if plan.policy.jobs is not None:
        return plan
    jobs = pool_size(None, read.expand(plan.key.path)) if plan.shape == PAIR else 1
    return plan.with_policy(jobs=jobs)


def run(plan: Plan, watch: Watch | None = None) -> Study:
    """The complete study of ``plan``."""
    out = None
    for out in stages(plan, watch, staged=False):
        pass
    return out


def stages(plan: Plan, watch: Watch | None = None, staged: bool = True) -> Iterator[Study]:
    """The study of ``plan`` as it grows (see the module docstring); the last is final."""
    watch = watch or Watch()
    with collector_paused():
        if plan.shape == DATASETS:
            yield from _datasets(plan, watch, staged)
        elif plan.shape == RUNS:
            yield from _runs(plan, watch)
        elif plan.policy.browse and plan.groupings:
            yield from _groups(plan, watch)
        elif plan.shape == PAIR:
            yield from _pair(plan, watch, staged)
        else:
            yield from _systems(plan, watch, staged)


def _lean(settings: Settings) -> Settings:
    """The metrics alone (the several-pair shapes' comparisons)."""
    return replace(settings, analyses=(), plink_by=None)


# --------------------------------------------------------------------------- one pair


def _subsets(plan: Plan, ev: Evaluation) -> tuple:
    from .subsets import subsets

    return tuple(subsets(ev.documents, list(ev.metrics), g) for g in plan.groupings)


def headline(ev: Evaluation, subs: tuple) -> str:
    """The score the groups' intervals are of: CoNLL when MUC, B³ and CEAF-e were scored, else the
    first metric the groups hold."""
    return "conll" if all(m in ev.metrics for m in ("muc", "bcub", "ceafe")) else subs[0].metrics[0]


def _pair(plan: Plan, watch: Watch, staged: bool) -> Iterator[Pair]:
    ds = plan.datasets[0]
    system = ds.systems[0]
    policy = plan.policy
    pairs = read.pairs(ds.key, system.response, plan.settings)
    jobs = pool_size(policy.jobs, pairs.key.files)
    if staged:
        pairs.prepare()
        watch.read()
    phase = ["scoring"]

    def progress(done: int, total: int) -> None:
        watch.documents(phase[0], done, total)

    for ev in evaluation_stages(pairs, settings=plan.settings, progress=progress, jobs=jobs, rows=policy.rows,
                                documents=policy.documents, staged=staged, digest=policy.digest,
                                apart=policy.apart):
        if not ev.complete:
            phase[0] = "analyses"
            yield Pair(system.name, ev, final=False)
    subs = _subsets(plan, ev)
    intervals: tuple = ()
    head = headline(ev, subs) if subs else "conll"
    if subs and policy.intervals:
        from .groupdeltas import group_intervals

        watch.stage("resampling each group's documents for its interval…")
        intervals = tuple(group_intervals(ev.documents, g, head) for g in plan.groupings)
    yield Pair(system.name, ev, subs, intervals, head)


# --------------------------------------------------------------------------- several systems


RESAMPLING_MEMORY_LIMIT = 2 * 1024 ** 3
"""Bytes the resampling of a comparison may take (estimated before it starts)."""


def check_resampling_memory(resampling, evaluations: dict[str, Evaluation]) -> None:
    """Refuse resample counts whose arrays cannot fit: the resampling keeps, per resample, a weight or
    sign per document and a statistics row per system and metric (8 bytes each)."""
    from .plan import PlanError

    ev = next(iter(evaluations.values()))
    n_docs = max(len(ev.documents), 1)
    columns = 3 * max(len(ev.metrics), 1) * len(evaluations)
    draws = max(resampling.bootstrap, resampling.randomization)
    need = 8 * draws * (n_docs + columns)
    if need > RESAMPLING_MEMORY_LIMIT:
        most = RESAMPLING_MEMORY_LIMIT // (8 * (n_docs + columns))
        raise PlanError(f"{draws:,} resamples of {n_docs} documents and {len(evaluations)} systems need about "
                        f"{need / 1024 ** 3:.1f} GiB; use at most {most:,} (--bootstrap / --randomization)")


def _compare(plan: Plan, evs: dict[str, Evaluation], final: bool):
    from ..scoring.compare import GROUPINGS, compare

    baseline = next(iter(evs))
    c = plan.compare
    if not final or c is None:
        return compare(evs, baseline, 0, 0)
    check_resampling_memory(c, evs)
    return compare(evs, baseline, c.bootstrap, c.randomization, c.seed,
                   groupings=c.groupings or plan.settings.by or GROUPINGS, correction=c.correction)


def _systems(plan: Plan, watch: Watch, staged: bool) -> Iterator[Systems]:
    ds = plan.datasets[0]
    policy = plan.policy
    key = read.Key(ds.key, plan.settings)
    watch.read()
    names = [s.name for s in ds.systems]
    running = {}
    first: dict[str, Evaluation] = {}
    final: dict[str, Evaluation] = {}
    for i, system in enumerate(ds.systems):
        watch.stage(f"scoring {system.name} on {len(key)} documents…")

        def progress(done: int, total: int, name=system.name) -> None:
            watch.documents(f"scoring {name}", done, total or len(key))

        gen = evaluation_stages(key.pairs(system.response), settings=plan.settings, progress=progress, jobs=1,
                                rows=policy.rows, documents=policy.documents, staged=staged, apart=policy.apart)
        ev = next(gen)
        if ev.complete:
            final[system.name] = ev
            continue
        running[system.name] = gen
        first[system.name] = ev
        if len(first) < len(names):  # the baseline's column first, the rest as they come
            yield Systems(dict(first), _compare(plan, dict(first), False), final=False)
    if first:
        yield Systems(dict(first), _compare(plan, dict(first), False), final=False)
    for name, gen in running.items():
        for ev in gen:
            final[name] = ev
    evs = {n: final[n] for n in names}
    if plan.compare is not None:
        watch.stage("resampling documents for significance…")
    comparison = _compare(plan, evs, True)
    subsets: tuple = ()
    groups: tuple = ()
    if plan.groupings:
        from .groupdeltas import compare_groups
        from .subsets import subsets as split

        subsets = tuple({n: split(ev.documents, list(ev.metrics), g) for n, ev in evs.items()}
                        for g in plan.groupings)
        c = plan.compare
        if c is not None:
            watch.stage("resampling each group's documents…")
            groups = tuple(compare_groups(evs, g, names[0], c.bootstrap, c.randomization, c.seed, c.correction)
                           for g in plan.groupings)
    strata: tuple = ()
    if plan.strata and plan.compare is not None:
        from .strata import compare_strata

        c = plan.compare
        watch.stage("resampling each stratum's counts…")
        strata = tuple(compare_strata(evs, st.spec, names[0], c.bootstrap, c.randomization, c.seed)
                       for st in plan.strata)
    windows = None
    if plan.settings.window and plan.compare is not None:
        from .windows import compare_windows

        c = plan.compare
        watch.stage("resampling each document's windows…")
        windows = compare_windows(evs, names[0], c.bootstrap, c.randomization, c.seed)
    yield Systems(evs, comparison, True, subsets, groups, strata, windows)


# --------------------------------------------------------------------------- groups of runs


def _runs(plan: Plan, watch: Watch) -> Iterator[Runs]:
    from .runs import RunsEvaluation

    ds = plan.datasets[0]
    policy = plan.policy
    settings = _lean(plan.settings) if policy.lean else plan.settings
    key = read.Key(ds.key, settings)
    groups = []
    detailed = None
    for g, system in enumerate(ds.systems):
        out = []
        for k, (run, source) in enumerate(system.runs):
            first = g == 0 and k == 0
            watch.stage(f"scoring {system.name}: run {run} ({k + 1} of {len(system.runs)})…" if len(ds.systems) > 1
                        else f"scoring run {run} ({k + 1} of {len(system.runs)})…")
            ev = _last(evaluation_stages(key.pairs(source), settings=settings, jobs=policy.jobs or 1,
                                         rows=policy.rows if first else False,
                                         documents=policy.documents and first, staged=False))
            if first and (policy.rows or policy.documents):
                detailed = ev
            out.append((run, ev))
        groups.append(RunsEvaluation(system.name, tuple(out)))
    comparison = None
    if plan.compare is not None:
        from .groupdeltas import compare_runs

        c = plan.compare
        watch.stage("resampling runs and documents…")
        comparison = compare_runs({g.system: dict(g.runs) for g in groups}, groups[0].system, c.bootstrap,
                                  c.randomization, c.seed, c.correction)
    yield Runs(tuple(groups), comparison, detailed)


def _last(evaluations: Iterator[Evaluation]) -> Evaluation:
    ev = None
    for ev in evaluations:
        pass
    return ev


# --------------------------------------------------------------------------- datasets


def _datasets(plan: Plan, watch: Watch, staged: bool) -> Iterator[Datasets]:
    from .datasets import DatasetsEvaluation, dataset_result, dataset_variants, lean_variants, single_variant

    policy = plan.policy
    settings = _lean(plan.settings) if policy.lean else plan.settings
    names = [s.name for s in plan.datasets[0].systems]
    several = len(names) > 1
    variants = single_variant(settings) if several else dataset_variants(settings)
    lean = lean_variants(variants, policy.browse)
    ranking = settings.preset == "crac" and not several
    reading = settings if several else variants[0].settings
    done: dict[str, list] = {n: [] for n in names}
    datasets = [d.name for d in plan.datasets]
    if len(set(datasets)) != len(datasets):
        from ..errors import SettingsError

        raise SettingsError(f"two datasets are called {next(n for n in datasets if datasets.count(n) > 1)!r}")

    def node(final: bool, comparison=None) -> Datasets:
        return Datasets({n: DatasetsEvaluation(variants, tuple(done[n]), ranking, plan.unpaired) for n in names},
                        comparison, final, tuple(datasets))

    for i, ds in enumerate(plan.datasets):
        watch.stage(f"scoring dataset {ds.name} ({i + 1} of {len(plan.datasets)})…")
        watch.documents(f"scoring {ds.name}: dataset", i + 1, len(plan.datasets))
        kc = read.read_corpus(ds.key, _reading(reading, variants), key=True)
        for system in ds.systems:
            rc = read.read_corpus(system.response, _reading(reading, variants))
            done[system.name].append(dataset_result(ds.name, kc, rc, variants, lean, jobs=policy.jobs or 1,
                                                    rows=policy.rows, documents=policy.documents))
        if staged and i < len(plan.datasets) - 1:
            yield node(False)
    comparison = None
    if plan.compare is not None and several:
        from .groupdeltas import compare_datasets

        c = plan.compare
        watch.stage("resampling each dataset's documents…")
        evaluations = {d.name: {n: done[n][i].evaluations[variants[0].name] for n in names}
                       for i, d in enumerate(plan.datasets)}
        comparison = compare_datasets(evaluations, names[0], c.bootstrap, c.randomization, c.seed, c.correction)
    yield node(True, comparison)


def _reading(settings: Settings, variants) -> Settings:
    """The settings the corpora of a dataset are read with: the columns every variant needs."""
    return next((v.settings for v in variants if not read.spans_only(v.settings)), settings)


# --------------------------------------------------------------------------- groups of documents


def _groups(plan: Plan, watch: Watch) -> Iterator[Groups]:
    """One pair and each group of its documents scored on its own (the browser's level of groups)."""
    from .subsets import MICRO, subsets

    ds = plan.datasets[0]
    settings = plan.settings
    key = read.Key(ds.key, settings)
    rc = read.response_corpus(ds.systems[0].response, settings, key.corpus)
    grouping = plan.groupings[0]
    ev = _last(evaluation_stages(read.CorpusPairs(key.corpus, rc), settings=settings,
                                 progress=lambda d, t: watch.documents("scoring documents", d, len(key)),
                                 jobs=1, rows=True, documents=True, staged=False))
    sub = subsets(ev.documents, list(ev.metrics), grouping)
    names = tuple(g.name for g in sub.groups)
    evaluations = {MICRO: ev}
    yield Groups(sub, dict(evaluations), names, final=not names)
    ids: dict[str, list[str]] = {}
    for d in ev.documents:
        ids.setdefault(grouping.of(d), []).append(d.doc_id)
    for i, g in enumerate(names):
        watch.documents("scoring the group {g}:".format(g=g), i + 1, len(names))
        evaluations[g] = _last(evaluation_stages(key.part(rc, ids[g]), settings=settings, jobs=1, rows=True,
                                                 documents=True, staged=False))
        yield Groups(sub, dict(evaluations), names, final=i == len(names) - 1)


__all__ = ["FREEZE", "MAX_JOBS", "POOL_BYTES", "Watch", "collector_paused", "decide_jobs", "headline", "pool_size", "run",
           "stages"]
