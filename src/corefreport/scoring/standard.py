"""The standard metrics of one document, and what a corpus adds up from its documents.

Shared by :func:`~corefreport.scoring.evaluate.evaluate` (corpora read whole) and
:func:`~corefreport.scoring.streaming.evaluate_stream` (document by document), so that both give
the same numbers, statistics and signature: each metric's counts come from one contingency table
per document (:func:`~corefreport.scoring.metrics.contingency`) and are summed over documents in
document order (micro average, as reference scorer v8.01).
"""

from __future__ import annotations

from typing import Callable

from ..model import Document
from . import metrics as M
from .align import AlignedDocument
from .counts import Counts
from .registry import PER_DOCUMENT_METRICS, REGISTRY
from .result import DocumentResult
from .settings import Settings


class HashFeed:
    """A stand-in for the hash object of :func:`hash_document` that keeps the bytes it is fed (a
    process of a pool sends them back; the parent hashes them in document order)."""

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def update(self, data: bytes) -> None:
        self.parts.append(data)


def hash_document(h, d: Document) -> None:
    """Feed one document (id, tokens, chains' spans) to the corpus hash ``h``."""
    h.update(d.doc_id.encode())
    h.update("\x1f".join(d.tokens).encode())
    for c in d.chains:
        h.update(repr([(m.start, m.end) for m in c.mentions]).encode())


def document_stats(d: Document) -> tuple[int, int, int, int]:
    """(1, distinct mentions, chains, singleton chains) of one document: summed, a :class:`SideStats`."""
    return (1, len({m.ident for c in d.chains for m in c.mentions}), len(d.chains),
            sum(1 for c in d.chains if len(c.mentions) == 1))


def document_scorer(settings: Settings) -> Callable[..., DocumentResult]:
    """``score(ad, as_written, written_doc=None)``: the standard metrics of one aligned document,
    from one contingency table (MOR on ``as_written``, the mentions before ``--match``, as
    corefud-scorer; the zero score from the documents, with ``written_doc`` the response document
    as written — by default the aligned one)."""
    names = [m for m in settings.metrics if m in PER_DOCUMENT_METRICS]
    compute = [(n, REGISTRY[n].compute) for n in names if n not in ("mor", "zero")]
    mor = REGISTRY["mor"].compute if "mor" in names else None
    zero = REGISTRY["zero"].compute if "zero" in names else None
    drop = settings.singletons == "drop"

    def score(ad: AlignedDocument, as_written: AlignedDocument, written_doc: Document | None = None) -> DocumentResult:
        ct = M.contingency(ad.key, ad.response)
        res = {name: f(ad.key, ad.response, ct) for name, f in compute}
        if mor is not None:
            res["mor"] = mor(as_written.key, as_written.response)
        if zero is not None:  # which mentions are zeros, and the response as written
            rd = ad.response_doc
            res["zero"] = zero(ad.key_doc, rd, written_doc if written_doc is not None else rd, drop, settings.match)
        res = {name: res[name] for name in names}
        return DocumentResult(ad.doc_id, res,
                              Counts(ad.matched_mentions, ad.key_mentions, ad.matched_mentions, ad.response_mentions))

    return score


def totals(docs: list[DocumentResult], names: list[str]) -> dict:
    """Corpus totals: each metric's per-document counts added in document order (the first
    document's counts start the sum, so integer counts stay integers, as the JSON shows them)."""
    totals: dict = {}
    for name in names:
        total = None
        for d in docs:
            total = d.metrics[name] if total is None else total + d.metrics[name]
        empty = {"blanc": M.BlancCounts(), "blanc_crac": M.BlancCorefudCounts()}.get(name, Counts())
        totals[name] = total if total is not None else empty
    return totals
