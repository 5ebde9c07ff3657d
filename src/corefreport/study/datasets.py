"""Many datasets at once: each scored micro over its own documents, the macro average over them,
and the CRAC ranking (the same datasets under the four official variants).

The rule (CRAC 2022–2024 shared tasks, Žabokrtský et al. 2022, Novák et al. 2024): a dataset's
score is corefud-scorer's micro score over its documents; the ranking score is the **unweighted
mean over datasets** of the per-dataset CoNLL F1, ``macro = (1/N) Σ_d F1_d`` — a small dataset
weighs as much as a large one. The primary variant is head matching without singletons; the
tasks also publish partial and exact matching without singletons and head matching with
singletons (:data:`CRAC_VARIANTS`). The macro recall and precision of any metric are the means of
the datasets' recall and precision (not recomputed from the mean F1).

CRAC 2026 also scores the **empty nodes** a system predicts (:mod:`corefreport.scoring.empty_nodes`,
``crac2026_empty_nodes_eval.py``): in the ranking, a dataset whose key has empty nodes is scored by
its ten rows once (in the primary variant: they depend on neither matching nor singletons), and the
ranking shows its ARC F1 (:data:`EMPTY_NODE_COLUMN`) with the mean over those datasets alone.

Every dataset is read once by the caller and handed over as two corpora in memory; each variant
scores those same corpora (:func:`~.evaluate.evaluate` changes neither), so N variants read no
file N times.

>>> from corefreport.model import Chain, Corpus, Document, Mention
>>> def corpus(chains):
...     doc = Document("d", tokens=["w"] * 6, chains=[Chain(str(i), [Mention(s, s) for s in c])
...                                                    for i, c in enumerate(chains)])
...     return Corpus(documents={"d": doc})
>>> key = corpus([[0, 1, 2], [3, 4]])
>>> dev = evaluate_datasets([("a", key, corpus([[0, 1, 2], [3, 4]])), ("b", key, corpus([[0, 1], [2, 3, 4]]))],
...                         single_variant(Settings(metrics=("muc",))))
>>> [round(dev.score("a", "", "muc").f1, 4), round(dev.score("b", "", "muc").f1, 4)], round(dev.macro("", "muc").f1, 4)
([1.0, 0.6667], 0.8333)
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from ..errors import SettingsError
from ..model import Corpus
from ..version import __version__
from ..scoring.evaluate import evaluate
from ..scoring.empty_nodes import METRICS as EMPTY_NODE_METRICS, has_empty_nodes
from ..scoring.result import Evaluation
from ..scoring.settings import Settings, Signature
from .subsets import MacroScore, mean


@dataclass(frozen=True, slots=True)
class Variant:
    """One way of scoring every dataset: ``name`` (the JSON key and the table's column), a short
    ``title`` and its :class:`Settings`."""

    name: str
    title: str
    settings: Settings


CRAC_VARIANTS: tuple[tuple[str, str, str, str], ...] = (
    ("head", "head match (primary)", "head", "drop"),
    ("partial", "partial match", "partial", "drop"),
    ("exact", "exact match", "exact", "drop"),
    ("head_singletons", "head match with singletons", "head", "keep"),
)
"""The CRAC ranking's variants: (name, title, ``match``, ``singletons``), the primary first
(CRAC 2023/2024 results pages: "head-match … without singletons" is the official ranking; the
three others are published beside it)."""

RANKING_METRICS = ("muc", "bcub", "ceafe")
"""What the ranking's CoNLL F1 is the mean of (Pradhan et al. 2014)."""
EMPTY_NODE_COLUMN = "empty_nodes_arc"
"""The empty-node row the ranking shows (ARC: a predicted empty node under the gold one's parent);
the JSON has all ten."""


def crac_variants(base: Settings) -> tuple[Variant, ...]:
    """The four CRAC variants of ``base`` (its preset, zeros and other options; only ``match``
    and ``singletons`` change). The metrics must include MUC, B³ and CEAF-e."""
    missing = [m for m in RANKING_METRICS if m not in base.metrics]
    if missing:
        raise SettingsError(f"the CRAC ranking is CoNLL F1: the metrics must include muc, bcub and ceafe "
                            f"(missing {', '.join(missing)})")
    return tuple(Variant(name, title, replace(base, match=match, singletons=singletons))
                 for name, title, match, singletons in CRAC_VARIANTS)


def single_variant(settings: Settings) -> tuple[Variant, ...]:
    """One variant (named ``""``): the datasets under ``settings`` as given."""
    return (Variant("", "", settings),)


def dataset_variants(settings: Settings) -> tuple[Variant, ...]:
    """The variants every dataset is scored in: under ``--preset crac`` the CRAC ranking's four
    (:func:`crac_variants`; the preset's default metric list becomes :data:`RANKING_METRICS`, what
    the ranking's CoNLL F1 needs, four times faster than all of corefud-scorer's metrics; a
    ``--match`` or singleton option other than the preset's is refused, as the ranking sets both per
    variant), else ``settings`` as given."""
    if settings.preset != "crac":
        return single_variant(settings)
    from dataclasses import replace

    from ..scoring.options import settings_from

    if settings.match != "head" or settings.singletons != "drop":
        raise SettingsError("--datasets --preset crac scores the four CRAC variants (head, partial and exact match "
                            "without singletons, head match with them): leave out --match and --keep-singletons, or "
                            "score one setting without --preset crac")
    if settings.metrics == settings_from(preset="crac").metrics:
        settings = replace(settings, metrics=RANKING_METRICS)
    return crac_variants(settings)


@dataclass(frozen=True, slots=True)
class DatasetResult:
    """One dataset: its name, sources and one :class:`Evaluation` per variant (by name)."""

    name: str
    key_source: str
    response_source: str
    evaluations: Mapping[str, Evaluation]

    def conll(self, variant: str) -> float | None:
        return self.evaluations[variant].conll


@dataclass(frozen=True)
class DatasetsEvaluation:
    """Every dataset under every variant, the macro averages and the signature."""

    variants: tuple[Variant, ...]
    datasets: tuple[DatasetResult, ...]
    ranking: bool = False
    """The CRAC ranking (:data:`CRAC_VARIANTS`) rather than one variant."""
    unpaired: tuple[str, ...] = field(default=())
    """Response files no dataset took (directory pairing)."""

    @property
    def names(self) -> list[str]:
        return [d.name for d in self.datasets]

    @property
    def metrics(self) -> tuple[str, ...]:
        """The metrics every variant computed, in order."""
        return self.variants[0].settings.metrics

    def dataset(self, name: str) -> DatasetResult:
        return next(d for d in self.datasets if d.name == name)

    def score(self, dataset: str, variant: str, metric: str):
        """The micro score (``Counts``/``BlancCounts``) of ``metric`` in one dataset and variant."""
        return self.dataset(dataset).evaluations[variant].metrics[metric]

    def macro(self, variant: str, metric: str) -> MacroScore:
        """The mean over datasets of ``metric``'s recall, precision and F1 (``conll``: its F1 alone)."""
        if metric == "conll":
            return MacroScore(math.nan, math.nan, mean([d.conll(variant) for d in self.datasets]))
        return MacroScore.of([d.evaluations[variant].metrics[metric] for d in self.datasets])

    def macro_conll(self, variant: str) -> float:
        return self.macro(variant, "conll").f1

    def empty_node_datasets(self) -> list[str]:
        """The datasets whose key has empty nodes and whose primary variant scored them (the CRAC
        2026 empty-node score: :mod:`corefreport.scoring.empty_nodes`)."""
        v = self.variants[0].name
        return [d.name for d in self.datasets if EMPTY_NODE_COLUMN in d.evaluations[v].metrics
                and d.evaluations[v].metrics[EMPTY_NODE_COLUMN].recall_den > 0]

    def empty_nodes(self, dataset: str, metric: str = EMPTY_NODE_COLUMN):
        """A dataset's empty-node score (``Counts``), ``None`` when its key has no empty nodes."""
        return self.score(dataset, self.variants[0].name, metric) if dataset in self.empty_node_datasets() else None

    def macro_empty_nodes(self, metric: str = EMPTY_NODE_COLUMN) -> MacroScore | None:
        """The mean of an empty-node score over the datasets whose key has empty nodes (``None``: none has)."""
        names = self.empty_node_datasets()
        return MacroScore.of([self.score(n, self.variants[0].name, metric) for n in names]) if names else None

    def macro_shown(self, variant: str, metric: str) -> MacroScore:
        """:meth:`macro` as the tables show it: a mean over datasets one of which has that value
        undefined (a zero denominator: R, P, and F1 with either) is undefined (NaN, "n/a")."""
        x = self.macro(variant, metric)
        if metric == "conll":
            return x
        ok = [s.defined() if hasattr(s, "defined") else (True, True)
              for s in (d.evaluations[variant].metrics[metric] for d in self.datasets)]
        r, p = all(a for a, _ in ok), all(b for _, b in ok)
        return MacroScore(x.recall if r else math.nan, x.precision if p else math.nan, x.f1 if r and p else math.nan)

    INTERVAL_RESAMPLES = 1000
    INTERVAL_SEED = 12345

    def macro_interval(self, variant: str, metric: str) -> tuple[float, float]:
        """The 95 % interval of the macro F1 of ``metric`` (``conll``: the ranking score) in one
        variant: a stratified bootstrap, each dataset's documents resampled within that dataset
        (:data:`INTERVAL_RESAMPLES` resamples, seed :data:`INTERVAL_SEED`; Koehn 2004), each resample's
        macro the mean of the datasets' F1 on their drawn documents. NaN where a dataset's F1 is
        undefined (0/0) or a score is not computed per document."""
        return self.macro_intervals.get((variant, metric), (math.nan, math.nan))

    @cached_property
    def macro_intervals(self) -> dict[tuple[str, str], tuple[float, float]]:
        """(variant, metric) → :meth:`macro_interval`, every variant and per-document metric (and
        CoNLL where MUC, B³ and CEAF-e are there), drawn once."""
        out: dict[tuple[str, str], tuple[float, float]] = {}
        for v in self.variants:
            evs = [d.evaluations[v.name] for d in self.datasets]
            if all(len(ev.documents) <= 1 for ev in evs):  # one document a dataset: every resample is the data
                continue
            from ..scoring.registry import per_document
            from ..scoring.significance import f1_defined
            from .groupdeltas import f1_of, macro_interval, score_columns

            have = [m for m in evs[0].metrics if per_document(m) and all(m in ev.metrics for ev in evs)]
            if all(m in have for m in RANKING_METRICS):
                have.append("conll")
            mats = [score_columns(ev, have, [x.doc_id for x in ev.documents]) for ev in evs]
            for m in have:
                cols = [x[m] for x in mats]
                if not all(f1_defined(m, c.sum(0)) for c in cols):
                    continue
                f = f1_of(m)
                out[(v.name, m)] = macro_interval(cols, lambda c, f=f: f(c)[..., 0], self.INTERVAL_RESAMPLES,
                                                  self.INTERVAL_SEED)
        return out

    @property
    def warnings(self) -> list[str]:
        """Each warning once (the variants repeat them), prefixed with the datasets that gave it:
        their names (three at most), else how many and the first."""
        where: dict[str, list[str]] = {}
        for d in self.datasets:
            for ev in d.evaluations.values():
                for w in ev.warnings:
                    names = where.setdefault(w, [])
                    if d.name not in names:
                        names.append(d.name)
        out = []
        for w, names in where.items():
            who = ", ".join(names) if len(names) <= 3 else (
                f"all {len(names)} datasets" if len(names) == len(self.datasets) else f"{len(names)} datasets "
                f"({names[0]}, …)")
            out.append(f"{who}: {w}")
        out += [f"{path}: a response file without a key file of the same name was not scored" for path in self.unpaired]
        return out

    @property
    def signature(self) -> Signature:
        """The first variant's settings, then ``datasets:N``, the variants (ranking: their names
        instead of ``match`` and ``singletons``) and ``keys``: a hash of every dataset's name and
        key hash, so that two rankings over different keys never share a signature."""
        first = self.datasets[0].evaluations[self.variants[0].name].signature
        drop = {"key", "version"} | ({"match", "singletons", "heads"} if self.ranking else set())
        fields = [("datasets", str(len(self.datasets)))]
        if self.ranking:
            fields.append(("variants", "+".join(v.name for v in self.variants)))
        fields += [(k, "+".join(m for m in v.split("+") if m not in EMPTY_NODE_METRICS)) if self.ranking and k == "metrics"
                   else (k, v) for k, v in first.fields if k not in drop]
        if self.ranking and self.empty_node_datasets():
            fields.append(("empty", "crac2026"))
        if self.ranking and any(d.evaluations[v.name].signature.get("heads") for d in self.datasets
                                for v in self.variants):
            fields.append(("heads", "rule"))
        h = hashlib.sha256()
        for d in self.datasets:
            h.update(f"{d.name}\t{d.evaluations[self.variants[0].name].signature.get('key')}\n".encode())
        fields += [("keys", h.hexdigest()[:len(first.get("key")) or 12]), ("version", __version__)]
        return Signature(tuple(fields))


def lean_variants(variants: tuple[Variant, ...], browse: bool = False) -> list[Settings]:
    """Each variant's settings as scored: with ``browse`` (the terminal browser's dataset level) the
    variants after the first compute only :data:`RANKING_METRICS` (what their column shows)."""
    return [v.settings if k == 0 or not browse else
            replace(v.settings, metrics=tuple(m for m in RANKING_METRICS if m in v.settings.metrics) or
                    v.settings.metrics[:1], analyses=(), plink_by=None, by=())
            for k, v in enumerate(variants)]


def ranked(variants: tuple[Variant, ...]) -> bool:
    """Whether ``variants`` are the CRAC ranking's (:data:`CRAC_VARIANTS`)."""
    return tuple(v.name for v in variants) == tuple(c[0] for c in CRAC_VARIANTS)


def dataset_result(name: str, key, response, variants: tuple[Variant, ...], settings: list[Settings], *,
                   jobs: int = 1, rows: bool | int = False, documents: bool = False) -> DatasetResult:
    """One dataset scored under every variant (``settings``: each variant's, :func:`lean_variants`);
    ``key`` and ``response`` are corpora in memory (each variant scores the same corpora, read
    once). ``rows`` and ``documents``: kept by the first variant's evaluation. In the CRAC ranking
    a key with empty nodes also has them scored, in the first variant (:data:`EMPTY_NODE_METRICS`)."""
    settings = list(settings)
    if ranked(variants) and any(has_empty_nodes(d) for d in key):  # CRAC 2026: the empty nodes, once
        first = settings[0]
        settings[0] = replace(first, metrics=first.metrics + tuple(m for m in EMPTY_NODE_METRICS if m not in first.metrics))
    evs = {v.name: evaluate(key, response, settings[k], jobs=jobs, rows=rows if k == 0 else False,
                            documents=documents and k == 0) for k, v in enumerate(variants)}
    return DatasetResult(name, key.source, response.source, evs)


def evaluate_datasets(datasets: Iterable[tuple[str, Corpus, Corpus]], variants: tuple[Variant, ...], *,
                      ranking: bool = False, jobs: int = 1, unpaired: tuple[str, ...] = (), browse: bool = False,
                      on_dataset: Callable[[DatasetsEvaluation], None] | None = None) -> DatasetsEvaluation:
    """Score each ``(name, key corpus, response corpus)`` under every variant (the corpora scored
    as they are, once read); datasets are taken one at a time, so only one dataset's corpora need
    be in memory (the caller's iterable may read each when asked).

    ``browse`` (the terminal browser's dataset level): the first variant's evaluations keep their
    outcome rows and documents, and the other variants compute only :data:`RANKING_METRICS` (what
    their column shows). ``on_dataset``: called with the datasets scored so far after each one."""
    if not variants:
        raise SettingsError("no variant to score the datasets in")
    out: list[DatasetResult] = []
    seen: set[str] = set()
    lean = lean_variants(variants, browse)
    for name, key, response in datasets:
        if name in seen:
            raise SettingsError(f"two datasets are called {name!r}")
        seen.add(name)
        out.append(dataset_result(name, key, response, variants, lean, jobs=jobs, rows=browse, documents=browse))
        if on_dataset is not None:
            on_dataset(DatasetsEvaluation(variants, tuple(out), ranking, unpaired))
    if not out:
        raise SettingsError("no dataset to score")
    return DatasetsEvaluation(variants, tuple(out), ranking, unpaired)
