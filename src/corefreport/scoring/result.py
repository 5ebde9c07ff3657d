"""The one evaluation result model that every view (CLI, TUI, report) renders.

Views never compute scores: everything they show is a field of :class:`Evaluation`, or a group-by
over its outcome rows (:mod:`corefreport.scoring.outcomes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import Corpus
from .align import DuplicateReport
from .counts import Counts
from .metrics import BlancCounts, conll_score
from .outcomes import LinkOutcome

Score = Counts | BlancCounts


@dataclass(slots=True)
class SideStats:
    """Size of one side of the corpus: documents, mentions, chains, singleton chains."""

    documents: int = 0
    mentions: int = 0
    chains: int = 0
    singletons: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"documents": self.documents, "mentions": self.mentions, "chains": self.chains,
                "singletons": self.singletons}


@dataclass(slots=True)
class DocumentResult:
    """Scores of one document (raw counts, so that they sum to the corpus totals)."""

    doc_id: str
    metrics: dict[str, Score]
    mentions: Counts

    def conll(self) -> float | None:
        m = self.metrics
        if all(k in m for k in ("muc", "bcub", "ceafe")):
            return conll_score(m["muc"].f1, m["bcub"].f1, m["ceafe"].f1)
        return None


@dataclass(slots=True)
class Evaluation:
    """Everything scored for one key/response pair."""

    signature: str
    settings: dict[str, Any]
    key_source: str
    response_source: str
    metrics: dict[str, Score]
    documents: list[DocumentResult]
    mentions: Counts
    key_stats: SideStats
    response_stats: SideStats
    warnings: list[str] = field(default_factory=list)
    duplicates: list[DuplicateReport] = field(default_factory=list)
    rows: list[LinkOutcome] = field(default_factory=list)
    analyses: dict[str, Any] = field(default_factory=dict)
    key_corpus: Corpus | None = field(default=None, repr=False)
    response_corpus: Corpus | None = field(default=None, repr=False)

    def rows_of(self, analysis: str) -> list[LinkOutcome]:
        """The outcome rows of one analysis ("immediate", "inferred", "anchor", "typed")."""
        return [r for r in self.rows if r.analysis == analysis]

    def sentence_text(self, doc_id: str, token: int, side: str = "key") -> tuple[int, int, list[str]]:
        """(first token, last token, words) of the sentence holding ``token`` — for link views."""
        corpus = self.key_corpus if side == "key" else self.response_corpus
        if corpus is None or doc_id not in corpus.documents:
            return token, token, []
        doc = corpus.documents[doc_id]
        first, last = doc.sentence_bounds(doc.sentence_of(token))
        return first, last, doc.tokens[first : last + 1]

    @property
    def conll(self) -> float | None:
        m = self.metrics
        if all(k in m for k in ("muc", "bcub", "ceafe")):
            return conll_score(m["muc"].f1, m["bcub"].f1, m["ceafe"].f1)
        return None

    def as_dict(self, per_doc: bool = False) -> dict[str, Any]:
        """The stable JSON contract (documented in docs/json-schema.md)."""
        metrics: dict[str, Any] = {name: s.as_dict() for name, s in self.metrics.items()}
        if self.conll is not None:
            metrics["conll"] = {"f1": self.conll}
        out: dict[str, Any] = {
            "signature": self.signature,
            "settings": self.settings,
            "key": self.key_source,
            "response": self.response_source,
            "documents": self.key_stats.documents,
            "corpus": {"key": self.key_stats.as_dict(), "response": self.response_stats.as_dict()},
            "mentions": self.mentions.as_dict(),
            "metrics": metrics,
            "warnings": list(self.warnings),
            "duplicates": [d.as_dict() for d in self.duplicates],
        }
        for name, value in self.analyses.items():
            out[name] = value.as_dict() if hasattr(value, "as_dict") else value
        if per_doc:
            out["per_document"] = {
                d.doc_id: {
                    "metrics": {n: s.as_dict() for n, s in d.metrics.items()}
                    | ({"conll": {"f1": d.conll()}} if d.conll() is not None else {}),
                    "mentions": d.mentions.as_dict(),
                }
                for d in self.documents
            }
        return out
