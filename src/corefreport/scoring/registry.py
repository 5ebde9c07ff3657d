"""The registry: one :class:`Metric` per score corefreport reports — its key, labels, citation,
family, the shape of its sufficient statistics and the formula from summed statistics.

Corpus scores, per-document scores, the paired bootstrap and approximate randomization all call a
metric's :attr:`Metric.formula`: applied to one row of summed statistics (Python floats) it gives a
corpus or document score; applied to numpy columns (one value per resample, or per resample and
group) it scores every resample at once. One formula, one code path
(:mod:`corefreport.scoring.counts` explains how its helpers accept both).

How the per-document statistics are computed stays with each metric's module
(:mod:`~corefreport.scoring.metrics`, :mod:`~corefreport.scoring.lmetrics`,
:mod:`~corefreport.scoring.outcomes`); :attr:`Metric.compute` names the function for the
standard metrics, which the pipeline calls per document.

Adding a metric: its function in its module, one entry here, its tests — nothing in the views
(docs/architecture.md walks through an example).

>>> REGISTRY["muc"].score((220, 338, 220, 312))[2] == Counts(220, 338, 220, 312).f1
True
>>> [m.key for m in family("standard")]
['muc', 'bcub', 'ceafm', 'ceafe', 'blanc', 'lea']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Callable, Sequence

from . import metrics as M
from .counts import Counts, Num, counts_formula  # noqa: F401 (Counts: the doctests)
from .matching import mention_overlap
from .metrics import BlancCorefudCounts, BlancCounts, blanc_corefud_formula, blanc_formula, conll_formula
from .zeros import document_counts as zero_counts
from .empty_nodes import METRICS as EMPTY_NODE_METRICS, NAMES as EMPTY_NODE_NAMES, empty_node_counts
from .nonref import nonref_counts
from .outcomes import OUTCOME_COLUMNS, outcome_formula, typed_macro_formula, typed_micro_formula

Formula = Callable[..., tuple[Num, Num, Num]]


def layer_counts(names, key, response, settings) -> dict:
    """The Universal Anaphora layers' scores of one document (:func:`.layers.layer_counts`, loaded
    when a layer is scored)."""
    from .layers import layer_counts as counts

    return counts(names, key, response, settings)
"""Summed statistics (a sequence of columns: floats or arrays) → (recall, precision, F1)."""

@dataclass(frozen=True)
class Metric:
    """One score: what it is called, where it comes from, what it sums and how it divides."""

    key: str
    label: str
    """Plain-text label (Unicode): "B³", "CEAF-e", "ARCS 1"."""
    latex: str
    """LaTeX label: "B$^3$"."""
    citation: str
    """A key of :data:`REFERENCES`."""
    family: str
    """standard | conll | linguistic | mentions | arcs | typed | plink."""
    columns: tuple[str, ...]
    """Names of the sufficient statistics (per group for per-class statistics)."""
    formula: Formula
    compute: Callable | None = field(default=None, compare=False)
    """Standard metrics: (key chains, response chains, contingency) → statistics of one document
    (MOR: the chains as written; the zero score: the documents, :func:`.zeros.document_counts`)."""
    requires: tuple[str, ...] = ()
    """Metrics whose statistics this one is computed from (CoNLL: MUC, B³, CEAF-e)."""
    per_class: bool = False
    """The statistics repeat per class (typed averages): ``columns`` × the attempted classes."""
    title: str = ""
    """A longer description for captions and help."""
    also_cites: tuple[str, ...] = ()
    """Further keys of :data:`REFERENCES` a use of the metric cites (BLANC: Recasens & Hovy 2011,
    who defined it, beside Luo et al. 2014, who extended it to system mentions)."""
    inputs: str = ""
    """How the pipeline computes it per document — what :attr:`compute` takes (:data:`INPUTS`); ""
    for a score another step computes (the linguistically aware metrics, an analysis's scores) or
    one derived from others (:attr:`requires`)."""
    empty: Callable[[], object] = field(default=Counts, compare=False)
    """The statistics of no document: what :attr:`compute` returns adds to it (``+``)."""
    layer: str = ""
    """A layer score of entities: the ``Document.layers`` entry whose chains it scores (discourse
    deixis), which ``--strata`` filters as it filters the coreference chains (:mod:`.strata`);
    "" for every other score."""
    chains: bool = True
    """The score is about coreference chains: a key without any is refused. ``False``: a score of
    other annotation the files carry (CRAC 2026's empty nodes), computed on files with or without
    coreference."""

    @property
    def citations(self) -> tuple[str, ...]:
        """Every reference the metric cites: :attr:`citation` first."""
        return (self.citation,) + self.also_cites

    @property
    def fraction(self) -> bool:
        """Recall and precision are each one fraction of its statistics (a table shows their
        numerators and denominators); a score of two kinds of links (BLANC) is not."""
        return self.columns == COUNTS

    @property
    def derived(self) -> bool:
        """Computed from other scores (:attr:`requires`), not per document."""
        return bool(self.requires)

    def derive(self, scores: Mapping) -> float | None:
        """The F1 of a derived score from ``scores`` (metric → statistics): the mean F1 of
        :attr:`requires` (CoNLL: MUC, B³, CEAF-e; Pradhan et al. 2014); ``None`` unless all are there.

        >>> REGISTRY["conll"].derive({"muc": Counts(1, 2, 1, 2), "bcub": Counts(1, 1, 1, 1), "ceafe": Counts(0, 1, 0, 1)})
        0.5
        """
        if not self.requires or not all(r in scores for r in self.requires):
            return None
        return sum(scores[r].f1 for r in self.requires) / len(self.requires)

    def score(self, stats: Sequence[Num], **params) -> tuple[Num, Num, Num]:
        """(R, P, F1) of summed statistics: one row (floats) or columns of arrays."""
        return self.formula(stats, **params)

    def rpf(self, matrix, groups: int = 1, **params):
        """Vectorised: ``matrix`` (..., width·groups) of summed statistics, groups interleaved as
        ``[g0 c0, g0 c1, …, g1 c0, …]`` → (..., groups, 3) recall, precision, F1."""
        import numpy as np

        if self.per_class:
            cols = [matrix[..., i] for i in range(matrix.shape[-1])]
            r, p, f = self.formula(cols, **params)  # no class at all (a key without mentions): numbers
            return np.stack([np.broadcast_to(x, matrix.shape[:-1]) for x in (r, p, f)], axis=-1)[..., None, :]
        w = len(self.columns)
        cols = [matrix[..., i::w][..., :groups] for i in range(w)]
        r, p, f = self.formula(cols, **params)
        return np.stack(np.broadcast_arrays(r, p, f), axis=-1)


COUNTS = ("recall_num", "recall_den", "precision_num", "precision_den")
BLANC = tuple(f"coref_{c}" for c in COUNTS) + tuple(f"noncoref_{c}" for c in COUNTS)

INPUTS = {
    "chains": "compute(key chains, response chains, contingency): the aligned chains of a document, after "
              "mention matching (the standard metrics)",
    "written": "compute(key chains, response chains): the response as written, before --match (MOR)",
    "zeros": "compute(key document, response document, response as written, singletons dropped, match) (the zero "
             "score)",
    "documents": "compute(key document, response document): the aligned documents (a layer of them: non-referring "
                 "markables)",
    "layers": "compute(names, key document, response document, settings) -> {name: statistics}: the documents as "
              "read, whatever --match did to the chains; one call for every score of the same function (the "
              "Universal Anaphora layers)",
}
"""The ways the pipeline computes a metric per document (:attr:`Metric.inputs`): what
:attr:`Metric.compute` takes. Nothing in the pipeline names a metric: it calls each metric as its
inputs say (:mod:`corefreport.scoring.document`)."""
PER_DOCUMENT = frozenset(INPUTS)

_ENTRIES = [
    Metric("muc", "MUC", "MUC", "Vilain et al. 1995", "standard", COUNTS, counts_formula, M.muc, inputs="chains",
           title="MUC: links of a spanning tree per chain"),
    Metric("bcub", "B³", "B$^3$", "Bagga & Baldwin 1998", "standard", COUNTS, counts_formula, M.bcub, inputs="chains",
           title="B³: per-mention overlap of key and response chains"),
    Metric("ceafm", "CEAF-m", "CEAF-m", "Luo 2005", "standard", COUNTS, counts_formula, M.ceafm, inputs="chains",
           title="mention-based CEAF"),
    Metric("ceafe", "CEAF-e", "CEAF-e", "Luo 2005", "standard", COUNTS, counts_formula, M.ceafe, inputs="chains",
           title="entity-based CEAF"),
    Metric("blanc", "BLANC", "BLANC", "Luo et al. 2014", "standard", BLANC, blanc_formula, M.blanc, inputs="chains", empty=BlancCounts,
           title="BLANC: coreference and non-coreference links", also_cites=("Recasens & Hovy 2011",)),
    Metric("lea", "LEA", "LEA", "Moosavi & Strube 2016", "standard", COUNTS, counts_formula, M.lea, inputs="chains",
           title="LEA: link-based entity-aware metric"),
    Metric("blanc_crac", "BLANC (CorefUD)", "BLANC$_{\\mathrm{UD}}$", "Novák et al. 2024", "corefud", BLANC,
           blanc_corefud_formula, M.blanc_corefud, inputs="chains", empty=BlancCorefudCounts,
           title="BLANC averaged as corefud-scorer v1.2 does (a component counts when key or response has links)",
           also_cites=("Recasens & Hovy 2011", "Luo et al. 2014")),
    Metric("mor", "MOR", "MOR", "Žabokrtský et al. 2022", "corefud", COUNTS, counts_formula, mention_overlap, inputs="written",
           title="mention overlap ratio: words shared by 1-to-1 paired overlapping key and response mentions"),
    Metric("zero", "Zeros", "Zeros", "Novák et al. 2024", "corefud", COUNTS, counts_formula, zero_counts, inputs="zeros",
           title="anaphor-decomposable score of zero mentions (corefud-scorer's zero): "
                 "R = TP/(TP+FN+WL), P = TP/(TP+FP+WL) over zeros that are not first in their chain"),
    Metric("nonref", "Non-referring", "Non-referring", "Yu et al. 2022", "ua", COUNTS, counts_formula, nonref_counts, inputs="documents",
           title="non-referring markables (UA '-Pseudo' entities) found with their span, as the Universal "
                 "Anaphora scorer v1 scores them: R = TP/|K|, P = TP/(TP+FP)"),
    Metric("bridging_ar", "Bridging AR", "Bridging AR", "Yu et al. 2022", "ua", COUNTS, counts_formula, layer_counts, inputs="layers",
           title="bridging anaphor recognition (UA BRIDGING column): key and response anaphors with the same span, "
                 "as the Universal Anaphora scorer v1 counts them"),
    Metric("bridging_fbm", "Bridging FB-m", "Bridging FB$_m$", "Yu et al. 2022", "ua", COUNTS, counts_formula, layer_counts, inputs="layers",
           title="full bridging, markable level: anaphor and anchor spans both right (UA scorer v1)"),
    Metric("bridging_fbe", "Bridging FB-e", "Bridging FB$_e$", "Yu et al. 2022", "ua", COUNTS, counts_formula, layer_counts, inputs="layers",
           title="full bridging, entity level: anaphor right, anchor the key's anchor or in its key entity (UA scorer v1)"),
    *(Metric(f"dd_{k}", f"DD {label}", f"DD {latex}", "Yu et al. 2022", "ua", cols, formula, layer_counts,
             title=f"discourse deixis (UA DISCOURSE_DEIXIS column) scored by {label}, singletons kept (UA scorer v1)",
             also_cites=(cite,), inputs="layers", empty=empty, layer="discourse_deixis")
      for k, label, latex, cols, formula, empty, cite in (
          ("muc", "MUC", "MUC", COUNTS, counts_formula, Counts, "Vilain et al. 1995"),
          ("bcub", "B³", "B$^3$", COUNTS, counts_formula, Counts, "Bagga & Baldwin 1998"),
          ("ceafm", "CEAF-m", "CEAF-m", COUNTS, counts_formula, Counts, "Luo 2005"),
          ("ceafe", "CEAF-e", "CEAF-e", COUNTS, counts_formula, Counts, "Luo 2005"),
          ("blanc", "BLANC", "BLANC", BLANC, blanc_corefud_formula, BlancCorefudCounts, "Luo et al. 2014"),
          ("lea", "LEA", "LEA", COUNTS, counts_formula, Counts, "Moosavi & Strube 2016"))),
    Metric("dd_conll", "DD CoNLL", "DD CoNLL", "Yu et al. 2022", "ua_conll", COUNTS * 3, conll_formula,
           requires=("dd_muc", "dd_bcub", "dd_ceafe"), title="discourse deixis: mean F1 of DD MUC, DD B³, DD CEAF-e "
                                                           "(the CoNLL score the UA scorer v1 prints in this mode)"),
    *(Metric(key, f"Empty nodes {EMPTY_NODE_NAMES[key]}", "Empty " + EMPTY_NODE_NAMES[key].replace("_", "\\_"),
             "Straka 2026", "empty_nodes", COUNTS, counts_formula, empty_node_counts, inputs="layers", chains=False,
             title=f"CRAC 2026 empty nodes, {EMPTY_NODE_NAMES[key]}: predicted empty nodes keyed by (sentence, head"
                   + (f", {text}" if text else "") + ") as multisets, as crac2026_empty_nodes_eval.py scores them")
      for key, text in zip(EMPTY_NODE_METRICS, ("", "deprel", "word order", "deprel, word order", "FORM", "LEMMA",
                                                "UPOS", "XPOS", "FEATS", "deprel, word order, FORM, LEMMA, UPOS, "
                                                "XPOS, FEATS"))),
    Metric("conll", "CoNLL", "CoNLL", "Pradhan et al. 2014", "conll", COUNTS * 3, conll_formula,
           requires=("muc", "bcub", "ceafe"), title="CoNLL-2012 score: mean F1 of MUC, B³ and CEAF-e"),
    Metric("lmuc", "LMUC", "LMUC", "Chen & Ng 2013", "linguistic", COUNTS, counts_formula),
    Metric("lbcub", "LB³", "LB$^3$", "Chen & Ng 2013", "linguistic", COUNTS, counts_formula),
    Metric("lceafm", "LCEAF-m", "LCEAF-m", "Chen & Ng 2013", "linguistic", COUNTS, counts_formula),
    Metric("lceafe", "LCEAF-e", "LCEAF-e", "Chen & Ng 2013", "linguistic", COUNTS, counts_formula),
    Metric("mentions", "Mentions", "Mentions", "Pradhan et al. 2014", "mentions", COUNTS, counts_formula,
           title="mention identification: key and response spans that match"),
    Metric("immediate", "ARCS 1", "ARCS 1", "Tuggener 2014", "arcs", OUTCOME_COLUMNS, outcome_formula,
           title="ARCS 1: immediate antecedent"),
    Metric("inferred", "ARCS 2", "ARCS 2", "Tuggener 2014", "arcs", OUTCOME_COLUMNS, outcome_formula,
           title="ARCS 2: closest preceding nominal antecedent"),
    Metric("anchor", "ARCS 3 (EM)", "ARCS 3 (EM)", "Tuggener 2014", "arcs", OUTCOME_COLUMNS, outcome_formula,
           title="ARCS 3: anchor (first nominal) mention"),
    Metric("anchor_link", "ARCS 3 (links)", "ARCS 3 (links)", "Tuggener 2014", "arcs", OUTCOME_COLUMNS,
           outcome_formula, title="ARCS 3: links to the anchor mention"),
    Metric("typed_micro", "typed micro", "typed micro", "Žitkus et al. 2023", "typed", OUTCOME_COLUMNS,
           typed_micro_formula, per_class=True, title="type-aware evaluation, micro average"),
    Metric("typed_macro", "typed macro", "typed macro", "Žitkus et al. 2023", "typed", OUTCOME_COLUMNS,
           typed_macro_formula, per_class=True, title="type-aware evaluation, macro average"),
    Metric("typed_scheme", "typed scheme", "typed scheme", "Žitkus et al. 2023", "typed", OUTCOME_COLUMNS,
           typed_macro_formula, per_class=True, title="type-aware evaluation, scheme coverage"),
    Metric("referents", "referents", "referents", "Tuggener 2014", "outcomes", OUTCOME_COLUMNS, outcome_formula,
           title="any group of outcome rows (a class, a type, a feature value)"),
    Metric("errors", "K&K errors", "K\\&K errors", "Kummerfeld & Klein 2013", "errors", COUNTS, counts_formula,
           title="Kummerfeld & Klein error classes: F1 gained when each class is fixed (MUC, B³, CEAF-e, LEA, CoNLL)"),
    Metric("plink", "p-link", "p-link", "Zeldes & Simonson 2016", "plink", COUNTS, counts_formula,
           title="p-link: MUC links partitioned by a category"),
]

REGISTRY: dict[str, Metric] = {m.key: m for m in _ENTRIES}
"""Every metric by key, in display order (those :func:`register_metric` adds last)."""

STANDARD_METRICS = tuple(m.key for m in _ENTRIES if m.family == "standard")
"""The six standard metrics: what ``score`` computes when no ``--metric`` is given (a metric
registered later, whatever its family, is computed when asked for by name)."""
LINGUISTIC_METRICS = tuple(m.key for m in _ENTRIES if m.family == "linguistic")
ALL_METRICS = STANDARD_METRICS + LINGUISTIC_METRICS
"""The metrics ``--metric all`` selects."""
COREFUD_METRICS = tuple(m.key for m in _ENTRIES if m.family == "corefud")
"""corefud-scorer's own scores (its BLANC average, MOR): asked for by name or by ``--preset crac``."""
UA_METRICS = tuple(m.key for m in _ENTRIES if m.family == "ua")
"""The Universal Anaphora scorer's own layers (non-referring expressions): by name or by a UA preset."""
KNOWN_METRICS = ALL_METRICS + COREFUD_METRICS + UA_METRICS
"""Every metric ``--metric`` accepts by name."""
PER_DOCUMENT_METRICS = STANDARD_METRICS + COREFUD_METRICS + UA_METRICS
"""The built-in metrics computed per document by :attr:`Metric.compute` (with those registered:
:func:`per_document`)."""


def per_document(name: str) -> bool:
    """Whether the pipeline computes ``name`` per document (its :attr:`Metric.inputs`)."""
    m = REGISTRY.get(name)
    return m is not None and m.inputs in PER_DOCUMENT


def known_metrics() -> tuple[str, ...]:
    """Every metric ``--metric`` accepts by name: the built-in ones and those registered."""
    return KNOWN_METRICS + tuple(k for k, m in REGISTRY.items() if k not in KNOWN_METRICS and m.inputs in PER_DOCUMENT)


def derived_scores(scores: Mapping) -> dict[str, float]:
    """The F1 of every derived score whose parts are in ``scores`` (CoNLL, DD CoNLL, …), each after
    the score its parts begin with: in ``scores``' order.

    >>> derived_scores({"muc": Counts(1, 2, 1, 2), "bcub": Counts(1, 1, 1, 1), "ceafe": Counts(0, 1, 0, 1)})
    {'conll': 0.5}
    """
    found = [(list(scores).index(m.requires[0]), m.key, m.derive(scores)) for m in REGISTRY.values()
             if m.requires and m.requires[0] in scores]
    return {k: f for _, k, f in sorted(found) if f is not None}


def register_metric(metric: Metric) -> None:
    """Add ``metric`` (its :attr:`~Metric.inputs` say how the pipeline computes it per document,
    its :attr:`~Metric.columns`, :attr:`~Metric.formula` and :attr:`~Metric.empty` its shape):
    ``--metric KEY`` and the API's ``metrics=`` accept it, and every view shows it (its label and
    citation from the entry). A key already known is refused."""
    from ..errors import SettingsError

    if metric.key in REGISTRY:
        raise SettingsError(f"metric {metric.key!r} is already registered")
    if metric.inputs not in PER_DOCUMENT:
        raise SettingsError(f"metric {metric.key!r}: inputs must be one of {', '.join(INPUTS)}")
    if metric.citation not in REFERENCES:
        raise SettingsError(f"metric {metric.key!r}: its citation {metric.citation!r} is not a key of REFERENCES "
                            "(add_reference first)")
    REGISTRY[metric.key] = metric


def unregister_metric(key: str) -> None:
    """Remove a metric :func:`register_metric` added (tests)."""
    if key in KNOWN_METRICS or key not in REGISTRY:
        raise KeyError(key)
    del REGISTRY[key]


def add_reference(key: str, text: str, bibtex: tuple[str, str, dict[str, str]] | None = None) -> None:
    """A reference a registered metric or analysis cites: its full text (and BibTeX entry)."""
    REFERENCES[key] = text
    if bibtex is not None:
        BIBTEX[key] = bibtex
@dataclass(frozen=True)
class RowAnalysis:
    """One value of an outcome row's ``analysis`` column (an ARCS scenario, the typed links): how
    every view names it."""

    name: str
    title: str
    """"ARCS 1 (immediate antecedent)": captions and the report."""
    short: str
    """"ARCS 1": table cells (capitalised "Typed": a bare "typed" is the micro score)."""
    label: str
    """"ARCS 1 immediate": a row of an 80-column table (the browser)."""
    examples: bool = True
    """Whether the report's error examples show its rows."""


ARCS_ROWS = (
    RowAnalysis("immediate", "ARCS 1 (immediate antecedent)", "ARCS 1", "ARCS 1 immediate"),
    RowAnalysis("inferred", "ARCS 2 (nominal antecedent)", "ARCS 2", "ARCS 2 inferred"),
    RowAnalysis("anchor", "ARCS 3 (anchor mention)", "ARCS 3", "ARCS 3 anchor"),
    RowAnalysis("anchor_link", "ARCS 3 (links to the anchor)", "ARCS 3L", "ARCS 3 links", examples=False),
)
ARCS_SCENARIOS = tuple(r.name for r in ARCS_ROWS[:3])
"""The ARCS analysis's three scenarios, in the slides' order (``anchor_link``: the optional reading)."""


@dataclass(frozen=True)
class Analysis:
    """One analysis (``-a NAME``, or p-link with ``-m plink``): its names, citation, the row
    analyses it produces and its steps — ``steps`` names a class (``module:Class``) that the
    pipeline calls: ``Class(settings)`` once per run, ``.score(aligned documents) -> (outcome rows,
    part)`` for each run of documents, ``Class.add(part, part) -> part`` (parts add up over runs
    of documents: an associative ``+``) and ``.result(part) -> value``, which
    :class:`~corefreport.scoring.result.Evaluation` holds as ``field`` (and its JSON under that name,
    through the value's ``as_dict()``). An analysis with options (fields of ``Settings``) also owns
    their signature fields and JSON: ``Class.signature(settings)``, ``Class.options(settings)``."""

    name: str
    title: str
    short: str
    citation: str
    rows: tuple[RowAnalysis, ...]
    """The row analyses of the outcome rows it produces (empty: it produces none)."""
    steps: str
    field: str
    option: bool = True
    """Chosen with ``-a NAME`` (p-link is chosen with ``-m plink --by FEATURE``)."""
    tables: str = ""
    """``module:function`` of the presentation layer: ``function(result) -> list of Table`` — the
    analysis's tables in score's output (table, CSV, Markdown, LaTeX) and, for an analysis added by
    :func:`register`, its section of the report (the built-in ones have sections of their own)."""
    digest: bool = False
    """Its parts can keep only a digest of what its tables read (``Class(settings, complete=False)``):
    a run whose policy asks for no rows (``score``'s tables) stays flat in memory."""
    apart: bool = False
    """Its steps give no outcome rows and a part small beside their work (the error classes: 0.4 MB
    pickled for a second of work on a 200,000-word book): run beside other analyses, it may be
    scored in a forked process on an idle core (:meth:`~.document.DocumentScorer.analyse`)."""

    def implementation(self):
        """The steps class (``steps``)."""
        return _load(self.steps)

    def table_builder(self):
        """The function of ``tables`` (``result -> list of Table``), or None."""
        return _load(self.tables) if self.tables else None

    def start(self, settings, complete: bool = True):
        """The run's steps object (``Class(settings)``; ``Class(settings, complete=False)`` when
        the run keeps only what the tables read and the entry has a ``digest``)."""
        if self.digest and not complete:
            return self.implementation()(settings, complete=False)
        return self.implementation()(settings)

    def add(self, a, b):
        return self.implementation().add(a, b)

    def signature(self, settings) -> list[tuple[str, str]]:
        """Its signature fields (the steps class's ``signature(settings)``; none when it has no option)."""
        own = getattr(self.implementation(), "signature", None)
        return own(settings) if own is not None else []

    def options(self, settings) -> dict | None:
        """Its options in the JSON's ``settings`` (the steps class's ``options(settings)``)."""
        own = getattr(self.implementation(), "options", None)
        return own(settings) if own is not None else None

    def active(self, settings) -> bool:
        """Whether ``settings`` ask for this analysis."""
        return self.name in settings.analyses if self.option else bool(getattr(settings, f"{self.name}_by", None))


def _load(path: str):
    """The object ``module:name`` names (imported when first asked for)."""
    import importlib

    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


ANALYSIS_REGISTRY: dict[str, Analysis] = {a.name: a for a in (
    Analysis("plink", "p-link", "p-link", "Zeldes & Simonson 2016", (),
             "corefreport.scoring.plink:PlinkAnalysis", "plink", option=False,
             tables="corefreport.present.tables:plink_tables"),
    Analysis("arcs", "ARCS (application-related coreference scores)", "ARCS", "Tuggener 2014", ARCS_ROWS,
             "corefreport.scoring.analyses:ArcsAnalysis", "arcs", tables="corefreport.present.tables:arcs_tables"),
    Analysis("typed", "type-aware evaluation", "typed", "Žitkus et al. 2023",
             (RowAnalysis("typed", "typed (dominant mention and type)", "Typed", "typed (Žitkus)"),),
             "corefreport.scoring.typed:TypedAnalysis", "typed", tables="corefreport.present.tables:typed_tables"),
    Analysis("errors", "error classes", "errors", "Kummerfeld & Klein 2013", (),
             "corefreport.scoring.errorclasses:ErrorsAnalysis", "errors",
             tables="corefreport.present.tables:error_tables", digest=True, apart=True),
)}
"""Every analysis by name, in the order their rows and tables come."""

ROW_ANALYSES: dict[str, RowAnalysis] = {r.name: r for a in ANALYSIS_REGISTRY.values() for r in a.rows}
"""Every row analysis (the ``analysis`` column of an outcome row) by name, in the order views list them."""


class RowNames(Mapping):
    """One attribute of every :class:`RowAnalysis` by name (``RowNames("title")``): a live view of
    :data:`ROW_ANALYSES`, so an analysis :func:`register` adds is named in every view."""

    def __init__(self, attribute: str) -> None:
        self.attribute = attribute

    def __getitem__(self, name: str) -> str:
        return getattr(ROW_ANALYSES[name], self.attribute)

    def __iter__(self):
        return iter(ROW_ANALYSES)

    def __len__(self) -> int:
        return len(ROW_ANALYSES)


ANALYSIS_TITLES = RowNames("title")
"""Titles of the outcome-row analyses."""


def register(analysis: Analysis) -> None:
    """Add an analysis (the extension point; docs/architecture.md): ``-a NAME`` then computes it,
    its outcome rows are named and browsed in every view, its result is in the JSON under its
    ``field`` and its tables (:attr:`Analysis.tables`) in score's tables and the report."""
    ANALYSIS_REGISTRY[analysis.name] = analysis
    for r in analysis.rows:
        ROW_ANALYSES[r.name] = r


def unregister(name: str) -> None:
    """Remove an analysis :func:`register` added (tests)."""
    analysis = ANALYSIS_REGISTRY.pop(name)
    for r in analysis.rows:
        ROW_ANALYSES.pop(r.name, None)


def analysis_names() -> tuple[str, ...]:
    """The analyses ``--analysis`` accepts now (the built-in ones and those registered)."""
    return tuple(a.name for a in ANALYSIS_REGISTRY.values() if a.option)


def analysis_of(row_analysis: str) -> Analysis | None:
    """The analysis whose outcome rows carry ``row_analysis`` in their ``analysis`` column."""
    return next((a for a in ANALYSIS_REGISTRY.values() if any(r.name == row_analysis for r in a.rows)), None)


def active_analyses(settings) -> list[Analysis]:
    """The analyses ``settings`` ask for, in registry order."""
    return [a for a in ANALYSIS_REGISTRY.values() if a.active(settings)]

REFERENCES = {
    "Benjamini & Hochberg 1995": "Yoav Benjamini and Yosef Hochberg. 1995. Controlling the false discovery rate: a "
                                 "practical and powerful approach to multiple testing. Journal of the Royal "
                                 "Statistical Society, Series B 57(1), 289–300.",
    "Bouthillier et al. 2021": "Xavier Bouthillier, Pierre Delaunay, Mirko Bronzi, Assya Trofimov, Brennan "
                               "Nichyporuk, Justin Szeto, Nazanin Mohammadi Sepahvand, Edward Raff, Kanika Madan, "
                               "Vikram Voleti, Samira Ebrahimi Kahou, Vincent Michalski, Tal Arbel, Chris Pal, Gaël "
                               "Varoquaux and Pascal Vincent. 2021. Accounting for variance in machine learning "
                               "benchmarks. In Proceedings of Machine Learning and Systems 3 (MLSys 2021).",
    "Davison & Hinkley 1997": "Anthony C. Davison and David V. Hinkley. 1997. Bootstrap Methods and their "
                              "Application. Cambridge University Press (§3.8, hierarchical data).",
    "Holm 1979": "Sture Holm. 1979. A simple sequentially rejective multiple test procedure. Scandinavian Journal of "
                 "Statistics 6(2), 65–70.",
    "Martinelli et al. 2025": "Giuliano Martinelli, Tommaso Bonomo, Pere-Lluís Huguet Cabot and Roberto Navigli. "
                              "2025. BookCoref: Coreference resolution at book scale. In Proceedings of ACL 2025 "
                              "(Volume 1: Long Papers), 24526–24544.",
    "Martinelli, Gatti & Navigli 2025": "Giuliano Martinelli, Bruno Gatti and Roberto Navigli. 2025. xCoRe: "
                                        "Cross-context coreference resolution. In Proceedings of EMNLP 2025, "
                                        "34252–34266.",
    "Duron-Tejedor et al. 2023": "Ana-Isabel Duron-Tejedor, Pascal Amsili and Thierry Poibeau. 2023. How to evaluate "
                                 "coreference in literary texts? arXiv:2401.00238.",
    "Bagga & Baldwin 1998": "Amit Bagga and Breck Baldwin. 1998. Algorithms for scoring coreference chains. In "
                            "Proceedings of the LREC 1998 Workshop on Linguistic Coreference, 563–566.",
    "Chen & Ng 2013": "Chen Chen and Vincent Ng. 2013. Linguistically aware coreference evaluation metrics. In "
                      "Proceedings of IJCNLP 2013, 1366–1374.",
    "Kummerfeld & Klein 2013": "Jonathan K. Kummerfeld and Dan Klein. 2013. Error-driven analysis of challenges "
                                "in coreference resolution. In Proceedings of EMNLP 2013, 265–277.",
    "Koehn 2004": "Philipp Koehn. 2004. Statistical significance tests for machine translation evaluation. In "
                  "Proceedings of EMNLP 2004, 388–395.",
    "Luo 2005": "Xiaoqiang Luo. 2005. On coreference resolution performance metrics. In Proceedings of HLT/EMNLP "
                "2005, 25–32.",
    "Luo et al. 2014": "Xiaoqiang Luo, Sameer Pradhan, Marta Recasens and Eduard Hovy. 2014. An extension of BLANC "
                       "to system mentions. In Proceedings of ACL 2014 (Volume 2), 24–29.",
    "Moosavi & Strube 2016": "Nafise Sadat Moosavi and Michael Strube. 2016. Which coreference evaluation metric "
                             "do you trust? A proposal for a link-based entity aware metric. In Proceedings of ACL "
                             "2016, 632–642.",
    "Novák et al. 2024": "Michal Novák, Barbora Dohnalová, Miloslav Konopík, Anna Nedoluzhko, Martin Popel, "
                         "Ondřej Pražák, Jakub Sido, Milan Straka, Zdeněk Žabokrtský and Daniel Zeman. 2024. "
                         "Findings of the third shared task on multilingual coreference resolution. In "
                         "Proceedings of CRAC 2024, 78–96.",
    "Pradhan et al. 2014": "Sameer Pradhan, Xiaoqiang Luo, Marta Recasens, Eduard Hovy, Vincent Ng and Michael "
                           "Strube. 2014. Scoring coreference partitions of predicted mentions: a reference "
                           "implementation. In Proceedings of ACL 2014 (Volume 2), 30–35.",
    "Recasens & Hovy 2011": "Marta Recasens and Eduard Hovy. 2011. BLANC: implementing the Rand index for "
                            "coreference evaluation. Natural Language Engineering 17(4), 485–510. "
                            "doi:10.1017/S135132491000029X.",
    "Riezler & Maxwell 2005": "Stefan Riezler and John T. Maxwell. 2005. On some pitfalls in automatic evaluation "
                              "and significance testing for MT. In Proceedings of the ACL Workshop on Intrinsic and "
                              "Extrinsic Evaluation Measures, 57–64.",
    "Straka 2026": "Milan Straka. 2026. CRAC 2026 Empty Nodes Baseline: crac2026_empty_nodes_eval.py. "
                   "https://github.com/ufal/crac2026_empty_nodes_baseline (commit bc167f2).",
    "Tuggener 2014": "Don Tuggener. 2014. Coreference resolution evaluation for higher level applications. In "
                     "Proceedings of EACL 2014 (Volume 2: Short Papers), 231–235.",
    "Vilain et al. 1995": "Marc Vilain, John Burger, John Aberdeen, Dennis Connolly and Lynette Hirschman. 1995. A "
                          "model-theoretic coreference scoring scheme. In Proceedings of MUC-6, 45–52.",
    "Yu et al. 2022": "Juntao Yu, Sopan Khosla, Nafise Sadat Moosavi, Silviu Paun, Sameer Pradhan and Massimo "
                      "Poesio. 2022. The Universal Anaphora scorer. In Proceedings of LREC 2022, 4873–4883.",
    "Zeldes & Simonson 2016": "Amir Zeldes and Dan Simonson. 2016. Different flavors of GUM: evaluating genre and "
                              "sentence type effects on multilayer corpus annotation quality. In Proceedings of the "
                              "10th Linguistic Annotation Workshop (LAW-X).",
    "Žabokrtský et al. 2022": "Zdeněk Žabokrtský, Miloslav Konopík, Anna Nedoluzhko, Michal Novák, Maciej "
                              "Ogrodniczuk, Martin Popel, Ondřej Pražák, Jakub Sido, Daniel Zeman and Yilun Zhu. "
                              "2022. Findings of the shared task on multilingual coreference resolution. In "
                              "Proceedings of the CRAC 2022 Shared Task, 1–17.",
    "Žitkus et al. 2023": "Voldemaras Žitkus, Rita Butkienė and Rimantas Butleris. 2023. Linguistically aware "
                          "evaluation of coreference resolution from the perspective of higher-level applications. "
                          "Natural Language Engineering. doi:10.1017/S1351324923000293.",
}
"""Full references, keyed by :attr:`Metric.citation` (and by the significance tests' sources)."""

_ACL = "Association for Computational Linguistics"
BIBTEX: dict[str, tuple[str, str, dict[str, str]]] = {
    "Benjamini & Hochberg 1995": ("article", "benjamini-hochberg-1995-controlling", {
        "author": "Benjamini, Yoav and Hochberg, Yosef",
        "title": "Controlling the False Discovery Rate: A Practical and Powerful Approach to Multiple Testing",
        "journal": "Journal of the Royal Statistical Society: Series B (Methodological)", "volume": "57",
        "number": "1", "year": "1995", "pages": "289--300", "doi": "10.1111/j.2517-6161.1995.tb02031.x"}),
    "Bouthillier et al. 2021": ("inproceedings", "bouthillier-etal-2021-accounting", {
        "author": "Bouthillier, Xavier and Delaunay, Pierre and Bronzi, Mirko and Trofimov, Assya and Nichyporuk, "
                  "Brennan and Szeto, Justin and Mohammadi Sepahvand, Nazanin and Raff, Edward and Madan, Kanika and "
                  "Voleti, Vikram and Ebrahimi Kahou, Samira and Michalski, Vincent and Arbel, Tal and Pal, Chris "
                  "and Varoquaux, Ga{\\\"e}l and Vincent, Pascal",
        "title": "Accounting for Variance in Machine Learning Benchmarks",
        "booktitle": "Proceedings of Machine Learning and Systems", "volume": "3", "year": "2021"}),
    "Davison & Hinkley 1997": ("book", "davison-hinkley-1997-bootstrap", {
        "author": "Davison, Anthony C. and Hinkley, David V.",
        "title": "Bootstrap Methods and their Application", "publisher": "Cambridge University Press",
        "year": "1997", "doi": "10.1017/CBO9780511802843"}),
    "Holm 1979": ("article", "holm-1979-simple", {
        "author": "Holm, Sture", "title": "A Simple Sequentially Rejective Multiple Test Procedure",
        "journal": "Scandinavian Journal of Statistics", "volume": "6", "number": "2", "year": "1979",
        "pages": "65--70"}),
    "Martinelli et al. 2025": ("inproceedings", "martinelli-etal-2025-bookcoref", {
        "author": "Martinelli, Giuliano and Bonomo, Tommaso and Huguet Cabot, Pere-Llu{\\'\\i}s and Navigli, Roberto",
        "title": "{BOOKCOREF}: Coreference Resolution at Book Scale",
        "booktitle": "Proceedings of the 63rd Annual Meeting of the Association for Computational Linguistics "
                     "(Volume 1: Long Papers)", "year": "2025", "pages": "24526--24544", "publisher": _ACL}),
    "Martinelli, Gatti & Navigli 2025": ("inproceedings", "martinelli-etal-2025-xcore", {
        "author": "Martinelli, Giuliano and Gatti, Bruno and Navigli, Roberto",
        "title": "x{C}o{R}e: Cross-context Coreference Resolution",
        "booktitle": "Proceedings of the 2025 Conference on Empirical Methods in Natural Language Processing",
        "year": "2025", "pages": "34252--34266", "publisher": _ACL}),
    "Duron-Tejedor et al. 2023": ("misc", "duron-tejedor-etal-2023-evaluate", {
        "author": "Duron-Tejedor, Ana-Isabel and Amsili, Pascal and Poibeau, Thierry",
        "title": "How to Evaluate Coreference in Literary Texts?", "year": "2023", "eprint": "2401.00238",
        "archivePrefix": "arXiv", "primaryClass": "cs.CL"}),
    "Bagga & Baldwin 1998": ("inproceedings", "bagga-baldwin-1998-algorithms", {
        "author": "Bagga, Amit and Baldwin, Breck", "title": "Algorithms for Scoring Coreference Chains",
        "booktitle": "Proceedings of the {LREC} 1998 Workshop on Linguistic Coreference", "year": "1998",
        "pages": "563--566"}),
    "Chen & Ng 2013": ("inproceedings", "chen-ng-2013-linguistically", {
        "author": "Chen, Chen and Ng, Vincent", "title": "Linguistically Aware Coreference Evaluation Metrics",
        "booktitle": "Proceedings of the Sixth International Joint Conference on Natural Language Processing",
        "year": "2013", "pages": "1366--1374"}),
    "Kummerfeld & Klein 2013": ("inproceedings", "kummerfeld-klein-2013-error", {
        "author": "Kummerfeld, Jonathan K. and Klein, Dan",
        "title": "Error-Driven Analysis of Challenges in Coreference Resolution",
        "booktitle": "Proceedings of the 2013 Conference on Empirical Methods in Natural Language Processing",
        "year": "2013", "pages": "265--277", "publisher": _ACL}),
    "Koehn 2004": ("inproceedings", "koehn-2004-statistical", {
        "author": "Koehn, Philipp", "title": "Statistical Significance Tests for Machine Translation Evaluation",
        "booktitle": "Proceedings of the 2004 Conference on Empirical Methods in Natural Language Processing",
        "year": "2004", "pages": "388--395", "publisher": _ACL}),
    "Luo 2005": ("inproceedings", "luo-2005-coreference", {
        "author": "Luo, Xiaoqiang", "title": "On Coreference Resolution Performance Metrics",
        "booktitle": "Proceedings of Human Language Technology Conference and Conference on Empirical Methods in "
                     "Natural Language Processing", "year": "2005", "pages": "25--32", "publisher": _ACL}),
    "Yu et al. 2022": ("inproceedings", "yu-etal-2022-universal", {
        "author": "Yu, Juntao and Khosla, Sopan and Moosavi, Nafise Sadat and Paun, Silviu and Pradhan, Sameer "
                  "and Poesio, Massimo",
        "title": "The Universal Anaphora Scorer",
        "booktitle": "Proceedings of the Thirteenth Language Resources and Evaluation Conference",
        "year": "2022", "pages": "4873--4883", "publisher": "European Language Resources Association"}),
    "Luo et al. 2014": ("inproceedings", "luo-etal-2014-extension", {
        "author": "Luo, Xiaoqiang and Pradhan, Sameer and Recasens, Marta and Hovy, Eduard",
        "title": "An Extension of {BLANC} to System Mentions",
        "booktitle": "Proceedings of the 52nd Annual Meeting of the Association for Computational Linguistics "
                     "(Volume 2: Short Papers)", "year": "2014", "pages": "24--29", "publisher": _ACL,
        "doi": "10.3115/v1/P14-2005"}),
    "Moosavi & Strube 2016": ("inproceedings", "moosavi-strube-2016-coreference", {
        "author": "Moosavi, Nafise Sadat and Strube, Michael",
        "title": "Which Coreference Evaluation Metric Do You Trust? {A} Proposal for a Link-based Entity Aware "
                 "Metric",
        "booktitle": "Proceedings of the 54th Annual Meeting of the Association for Computational Linguistics "
                     "(Volume 1: Long Papers)", "year": "2016", "pages": "632--642", "publisher": _ACL,
        "doi": "10.18653/v1/P16-1060"}),
    "Novák et al. 2024": ("inproceedings", "novak-etal-2024-findings", {
        "author": "Nov{\\'a}k, Michal and Dohnalov{\\'a}, Barbora and Konop{\\'i}k, Miloslav and Nedoluzhko, Anna "
                  "and Popel, Martin and Pra{\\v{z}}{\\'a}k, Ond{\\v{r}}ej and Sido, Jakub and Straka, Milan and "
                  "{\\v{Z}}abokrtsk{\\'y}, Zden{\\v{e}}k and Zeman, Daniel",
        "title": "Findings of the Third Shared Task on Multilingual Coreference Resolution",
        "booktitle": "Proceedings of the Seventh Workshop on Computational Models of Reference, Anaphora and "
                     "Coreference", "year": "2024", "pages": "78--96", "publisher": _ACL}),
    "Pradhan et al. 2014": ("inproceedings", "pradhan-etal-2014-scoring", {
        "author": "Pradhan, Sameer and Luo, Xiaoqiang and Recasens, Marta and Hovy, Eduard and Ng, Vincent and "
                  "Strube, Michael",
        "title": "Scoring Coreference Partitions of Predicted Mentions: A Reference Implementation",
        "booktitle": "Proceedings of the 52nd Annual Meeting of the Association for Computational Linguistics "
                     "(Volume 2: Short Papers)", "year": "2014", "pages": "30--35", "publisher": _ACL,
        "doi": "10.3115/v1/P14-2006"}),
    "Recasens & Hovy 2011": ("article", "recasens-hovy-2011-blanc", {
        "author": "Recasens, Marta and Hovy, Eduard",
        "title": "{BLANC}: Implementing the {R}and index for coreference evaluation",
        "journal": "Natural Language Engineering", "volume": "17", "number": "4", "year": "2011",
        "pages": "485--510", "doi": "10.1017/S135132491000029X"}),
    "Riezler & Maxwell 2005": ("inproceedings", "riezler-maxwell-2005-pitfalls", {
        "author": "Riezler, Stefan and Maxwell, John T.",
        "title": "On Some Pitfalls in Automatic Evaluation and Significance Testing for {MT}",
        "booktitle": "Proceedings of the {ACL} Workshop on Intrinsic and Extrinsic Evaluation Measures for Machine "
                     "Translation and/or Summarization", "year": "2005", "pages": "57--64", "publisher": _ACL}),
    "Straka 2026": ("misc", "straka-2026-crac2026-empty-nodes", {
        "author": "Straka, Milan", "title": "{CRAC} 2026 Empty Nodes Baseline",
        "howpublished": "\\url{https://github.com/ufal/crac2026_empty_nodes_baseline}",
        "note": "crac2026\\_empty\\_nodes\\_eval.py, commit bc167f2", "year": "2026"}),
    "Tuggener 2014": ("inproceedings", "tuggener-2014-coreference", {
        "author": "Tuggener, Don", "title": "Coreference Resolution Evaluation for Higher Level Applications",
        "booktitle": "Proceedings of the 14th Conference of the European Chapter of the Association for "
                     "Computational Linguistics, volume 2: Short Papers", "year": "2014", "pages": "231--235",
        "publisher": _ACL, "doi": "10.3115/v1/E14-4045"}),
    "Vilain et al. 1995": ("inproceedings", "vilain-etal-1995-model", {
        "author": "Vilain, Marc and Burger, John and Aberdeen, John and Connolly, Dennis and Hirschman, Lynette",
        "title": "A Model-Theoretic Coreference Scoring Scheme",
        "booktitle": "Sixth Message Understanding Conference ({MUC}-6)", "year": "1995", "pages": "45--52"}),
    "Zeldes & Simonson 2016": ("inproceedings", "zeldes-simonson-2016-different", {
        "author": "Zeldes, Amir and Simonson, Dan",
        "title": "Different Flavors of {GUM}: Evaluating Genre and Sentence Type Effects on Multilayer Corpus "
                 "Annotation Quality",
        "booktitle": "Proceedings of the 10th Linguistic Annotation Workshop held in conjunction with {ACL} 2016 "
                     "({LAW}-{X} 2016)", "year": "2016", "pages": "68--78", "publisher": _ACL,
        "doi": "10.18653/v1/W16-1709"}),
    "Žabokrtský et al. 2022": ("inproceedings", "zabokrtsky-etal-2022-findings", {
        "author": "{\\v{Z}}abokrtsk{\\'y}, Zden{\\v{e}}k and Konop{\\'i}k, Miloslav and Nedoluzhko, Anna and "
                  "Nov{\\'a}k, Michal and Ogrodniczuk, Maciej and Popel, Martin and Pra{\\v{z}}{\\'a}k, "
                  "Ond{\\v{r}}ej and Sido, Jakub and Zeman, Daniel and Zhu, Yilun",
        "title": "Findings of the Shared Task on Multilingual Coreference Resolution",
        "booktitle": "Proceedings of the CRAC 2022 Shared Task on Multilingual Coreference Resolution",
        "year": "2022", "pages": "1--17", "publisher": _ACL}),
    "Žitkus et al. 2023": ("article", "zitkus-etal-2023-linguistically", {
        "author": "{\\v{Z}}itkus, Voldemaras and Butkien{\\.{e}}, Rita and Butleris, Rimantas",
        "title": "Linguistically aware evaluation of coreference resolution from the perspective of higher-level "
                 "applications", "journal": "Natural Language Engineering", "year": "2023",
        "doi": "10.1017/S1351324923000293"}),
}
"""The BibTeX of every reference (type, key, fields), keyed as :data:`REFERENCES`: the one home of
what a paper cites (:func:`bibtex`)."""


def bibtex(citations) -> str:
    """The BibTeX entries of ``citations`` (keys of :data:`REFERENCES`), in the order given,
    without repeats.

    >>> print(bibtex(["Recasens & Hovy 2011"]))
    @article{recasens-hovy-2011-blanc,
      author = {Recasens, Marta and Hovy, Eduard},
      title = {{BLANC}: Implementing the {R}and index for coreference evaluation},
      journal = {Natural Language Engineering},
      volume = {17},
      number = {4},
      year = {2011},
      pages = {485--510},
      doi = {10.1017/S135132491000029X},
    }
    <BLANKLINE>
    """
    out = []
    for c in dict.fromkeys(citations):
        kind, key, fields = BIBTEX[c]
        out.append(f"@{kind}{{{key},\n" + "".join(f"  {k} = {{{v}}},\n" for k, v in fields.items()) + "}\n")
    return "\n".join(out)


def bibtex_key(citation: str) -> str:
    """The BibTeX key of a reference (``\\cite{…}``)."""
    return BIBTEX[citation][1]


def family(name: str) -> list[Metric]:
    """The metrics of one family, in registry order."""
    return [m for m in _ENTRIES if m.family == name]


def get(key: str) -> Metric:
    """The metric ``key``; a :class:`KeyError` names the known keys."""
    try:
        return REGISTRY[key]
    except KeyError:
        raise KeyError(f"unknown metric {key!r}; known: {', '.join(REGISTRY)}") from None
