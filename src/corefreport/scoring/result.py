"""The one typed result every view renders: :class:`Evaluation`.

Views never compute scores: everything they show is a field of :class:`Evaluation`, or a group-by
over its outcome rows (:meth:`Evaluation.group_by`, :meth:`Evaluation.select`, from
:mod:`corefreport.scoring.outcomes`), computed on demand for any row column or mention feature.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..model import Corpus
from .align import DuplicateReport
from .counts import Counts
from .metrics import BlancCounts
from .outcomes import LinkOutcome, OutcomeCounts, group_by, select
from .registry import derived_scores
from .settings import Settings, Signature

if TYPE_CHECKING:  # annotations only: a plain score imports none of the analyses
    from .analyses import ArcsResult
    from .digest import RowDigest, RowList
    from .errorclasses import ErrorsResult
    from .plink import PlinkResult
    from .strata import Strata
    from .windows import Windows, WindowScores
    from .typed import TypedTables

Score = Counts | BlancCounts


def dd_conll(m: dict) -> float | None:
    """Mean F1 of ``dd_muc``, ``dd_bcub`` and ``dd_ceafe`` in ``m`` (``None`` unless all three are)."""
    return derived_scores(m).get("dd_conll")


@dataclass(frozen=True, slots=True)
class SideStats:
    """Size of one side of the corpus: documents, mentions, chains, singleton chains."""

    documents: int = 0
    mentions: int = 0
    chains: int = 0
    singletons: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"documents": self.documents, "mentions": self.mentions, "chains": self.chains,
                "singletons": self.singletons}


@dataclass(frozen=True, slots=True)
class DocumentResult:
    """Scores of one document (raw counts, so that they sum to the corpus totals)."""

    doc_id: str
    metrics: dict[str, Score]
    mentions: Counts
    tokens: int = 0
    """Words of the key document (document-length subsets, :mod:`.subsets`)."""
    genre: str = ""
    """The genre the key file gives the document (``Document.meta``; "": none, the id's is used)."""
    strata: dict = field(default_factory=dict)
    """``--strata``: stratification → stratum → :class:`~.strata.StratumScores` of this document
    (only the strata some chain of it is in)."""
    windows: WindowScores | None = None
    """``--window``: this document cut into windows, its windows' statistics summed and its
    antecedent links within one window and across windows (:class:`~.windows.WindowScores`)."""

    def conll(self) -> float | None:
        return derived_scores(self.metrics).get("conll")

    def as_dict(self) -> dict[str, Any]:
        """The document's entry of ``per_document`` in the JSON: each metric's statistics, then each
        derived score's F1 (CoNLL)."""
        out = {"metrics": {n: s.as_dict() for n, s in self.metrics.items()}
               | {n: {"f1": f} for n, f in derived_scores(self.metrics).items()},
               "mentions": self.mentions.as_dict()}
        if self.strata:
            out["strata"] = {spec: {s: x.as_dict() for s, x in by.items()} for spec, by in self.strata.items()}
        if self.windows is not None:
            out["windows"] = self.windows.as_dict()
        return out


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Everything scored for one key/response pair under one :class:`Settings`."""

    settings: Settings
    signature: Signature
    key_source: str
    response_source: str
    metrics: dict[str, Score]
    """Corpus totals per metric key, in the order of ``settings.metrics``."""
    documents: list[DocumentResult]
    mentions: Counts
    key_stats: SideStats
    response_stats: SideStats
    warnings: list[str] = field(default_factory=list)
    duplicates: list[DuplicateReport] = field(default_factory=list)
    rows: list[LinkOutcome] = field(default_factory=list)
    """Outcome rows of every analysis: one per referent and analysis."""
    arcs: ArcsResult | None = None
    typed: TypedTables | None = None
    plink: PlinkResult | None = None
    errors: ErrorsResult | None = None
    """Kummerfeld & Klein (2013) error rows and class costs (``-a errors``)."""
    results: dict[str, Any] = field(default_factory=dict)
    """The results of analyses added by :func:`~corefreport.scoring.registry.register`, by field."""
    complete: bool = True
    """False for the standard scores that :func:`~corefreport.scoring.evaluate.evaluate` hands
    to ``on_stage`` before the slower metrics and analyses."""
    key_corpus: Corpus | None = field(default=None, repr=False)
    response_corpus: Corpus | None = field(default=None, repr=False)
    strata: dict[str, Strata] = field(default_factory=dict)
    """``--strata``: each stratification's totals (:class:`~.strata.Strata`), by its spec."""
    windows: Windows | None = None
    """``--window``: the corpus on windows next to the full documents (:class:`~.windows.Windows`)."""
    digest: RowDigest | None = field(default=None, repr=False)
    """When the rows were not kept (``rows`` empty; scored in shares, :mod:`.shares`): their group
    sizes, the first rows of each error group and per-document counts (:mod:`.digest`) — what the
    report's error examples and intervals need."""

    def result(self, field_name: str) -> Any:
        """The result an analysis's entry names by ``field`` (``arcs``, …, or a registered one's)."""
        if field_name in _OWN_RESULTS:
            return getattr(self, field_name)
        return self.results.get(field_name)

    @property
    def outcomes(self) -> RowDigest | RowList:
        """The outcome rows as the views ask for them (:mod:`.digest`): the rows, or their digest
        when the run kept only that."""
        if self.digest is not None and not self.rows:
            return self.digest
        from .digest import RowList

        return RowList(self.rows)

    def rows_of(self, analysis: str) -> list[LinkOutcome]:
        """The outcome rows of one analysis ("immediate", "inferred", "anchor", "typed")."""
        return [r for r in self.rows if r.analysis == analysis]

    def group_by(self, analysis: str, column: str | Callable[[LinkOutcome], str],
                 **where: str) -> dict[str, OutcomeCounts]:
        """Outcome counts of one analysis per value of ``column`` (a row column or any mention
        feature), over the rows matching ``where`` — a table, computed now."""
        return group_by(select(self.rows, analysis=analysis, **where), column)

    def select(self, analysis: str, **where: str) -> list[LinkOutcome]:
        """The rows of one analysis matching ``where`` — a drill-down."""
        return select(self.rows, analysis=analysis, **where)

    def features(self, analysis: str | None = None) -> list[str]:
        """The mention features the rows carry (what :meth:`group_by` can group by)."""
        out: set[str] = set()
        for r in self.rows:
            if analysis is None or r.analysis == analysis:
                out.update(r.features)
        return sorted(out)

    def sentence_text(self, doc_id: str, token: int, side: str = "key") -> tuple[int, int, list[str]]:
        """(first token, last token, words) of the sentence holding ``token`` — for link views."""
        corpus = self.key_corpus if side == "key" else self.response_corpus
        if corpus is None or doc_id not in corpus.documents:
            return token, token, []
        doc = corpus.documents[doc_id]
        first, last = doc.sentence_bounds(doc.sentence_of(token))
        return first, last, doc.tokens[first : last + 1]

    @property
    def derived(self) -> dict[str, float]:
        """The F1 of every score derived from the metrics computed (:attr:`.registry.Metric.requires`):
        CoNLL, DD CoNLL."""
        return derived_scores(self.metrics)

    @property
    def conll(self) -> float | None:
        """The CoNLL score (Pradhan et al. 2014): the mean F1 of MUC, B³ and CEAF-e."""
        return self.derived.get("conll")

    @property
    def dd_conll(self) -> float | None:
        """The discourse-deixis layer's CoNLL score (:mod:`.deixis`), when its three parts were scored."""
        return self.derived.get("dd_conll")

    def as_dict(self, per_doc: bool = False) -> dict[str, Any]:
        """The stable JSON contract (documented in docs/json-schema.md)."""
        metrics: dict[str, Any] = {name: s.as_dict() for name, s in self.metrics.items()}
        metrics.update((name, {"f1": f}) for name, f in self.derived.items())
        out: dict[str, Any] = {
            "signature": str(self.signature),
            "settings": self.settings.as_dict(),
            "key": self.key_source,
            "response": self.response_source,
            "documents": self.key_stats.documents,
            "corpus": {"key": self.key_stats.as_dict(), "response": self.response_stats.as_dict()},
            "mentions": self.mentions.as_dict(),
            "metrics": metrics,
            "warnings": list(self.warnings),
            "duplicates": [d.as_dict() for d in self.duplicates],
        }
        for name, value in (("arcs", self.arcs), ("typed", self.typed), ("plink", self.plink),
                            ("errors", self.errors), *self.results.items()):
            if value is not None:
                out[name] = value.as_dict()
        if self.strata:
            out["strata"] = {spec: st.as_dict() for spec, st in self.strata.items()}
        if self.windows is not None:
            out["windows"] = self.windows.as_dict()
        if per_doc:
            out["per_document"] = {d.doc_id: d.as_dict() for d in self.documents}
        return out


_OWN_RESULTS = frozenset(("arcs", "typed", "plink", "errors"))
"""The analyses' results :class:`Evaluation` holds as fields of its own (the others: ``results``)."""
