"""The standard metrics scored document by document, in memory flat in the corpus size.

:func:`evaluate_stream` gives the :class:`~corefreport.scoring.result.Evaluation` that
:func:`~corefreport.scoring.evaluate.evaluate` gives for the same key, response and settings —
the same numbers, per-document results, statistics, signature, warnings (same text, same order)
and duplicate reports — but reads each side one document at a time and keeps only per-document
results: never the corpora (``key_corpus`` and ``response_corpus`` are ``None``). It serves the
runs that need no more (:func:`streams`: the standard metrics with exact matching, no analysis).

Pairing is that of :func:`~corefreport.scoring.align.pair_documents`. While the response names
its documents in the key's order, both are read in step. At the first key document whose
response is not the next one, the response is gone through once to list every document with
where it is; each key document's response is then read again from its place
(:meth:`DocumentSource.read`). Problems that :func:`~corefreport.scoring.align.align` turns into
errors (no document, no mention, no shared id, token counts that differ) raise
:class:`~corefreport.errors.InputError` here too; the caller may then read the files whole to
report them in the whole-file order.
"""

from __future__ import annotations

import hashlib
from typing import Callable, Iterator, Protocol

from ..errors import InputError
from ..model import Document
from .align import Alignment, _match_key, align_document, duplicate_warnings, pairing_warnings
from .counts import Counts
from .evaluate import _totals, document_scorer, document_stats, hash_document
from .registry import PER_DOCUMENT_METRICS
from .result import DocumentResult, Evaluation, SideStats
from .settings import Settings, signature

Progress = Callable[[int, int], None]


class DocumentSource(Protocol):
    """One side's documents in order, each with where it is (``corefreport.io.stream.DocumentStream``)."""

    source: str

    def documents(self, warnings: list[str]) -> Iterator[tuple[Document, tuple]]: ...

    def read(self, where: tuple) -> Document: ...


def streams(settings: Settings) -> bool:
    """Whether :func:`evaluate_stream` can score a run: only spans are compared (standard metrics,
    exact matching, zeros kept, no analysis, no linguistic metric, no p-link)."""
    return (not settings.needs_features and not settings.analyses and settings.match == "exact"
            and settings.zeros == "keep" and settings.zero_match == "linear" and not settings.plink_by
            and all(m in PER_DOCUMENT_METRICS for m in settings.metrics))


class _Side:
    """Running statistics of one side: documents, mentions, chains, singletons; any chain at all."""

    def __init__(self) -> None:
        self.total = [0, 0, 0, 0]
        self.chains = False

    def add(self, doc: Document) -> None:
        for i, x in enumerate(document_stats(doc)):
            self.total[i] += x
        self.chains = self.chains or bool(doc.chains)

    def stats(self) -> SideStats:
        return SideStats(*self.total)


class _Index:
    """Every response document in file order with where it is, read in one pass (after the
    response left the key's order): ids, the first id of each ``(name, part)``, statistics and
    reader warnings of the whole response."""

    def __init__(self, response: DocumentSource) -> None:
        self.warnings: list[str] = []
        self.where: dict[str, tuple] = {}
        self.by_norm: dict[tuple[str, int], str] = {}
        self.side = _Side()
        for doc, where in response.documents(self.warnings):
            self.where[doc.doc_id] = where
            self.by_norm.setdefault(_match_key(doc.doc_id), doc.doc_id)
            self.side.add(doc)

    def find(self, doc_id: str) -> str | None:
        return doc_id if doc_id in self.where else self.by_norm.get(_match_key(doc_id))


def evaluate_stream(key: DocumentSource, response: DocumentSource, settings: Settings,
                    progress: Progress | None = None) -> Evaluation:
    """Score ``response`` against ``key`` document by document (see the module docstring).

    ``progress(done, 0)`` is called after each key document (the total is not known in advance).
    """
    if not streams(settings):
        raise ValueError("evaluate_stream scores only the standard metrics with exact matching")
    score = document_scorer(settings)
    names = [m for m in settings.metrics if m in PER_DOCUMENT_METRICS]
    h = hashlib.sha256()
    kside, rside = _Side(), _Side()
    key_warnings: list[str] = []
    step_warnings: list[str] = []
    aligned = Alignment()  # collects token warnings and duplicates; documents are not kept
    docs: list[DocumentResult] = []
    mentions = Counts()
    missing: list[str] = []
    used: set[str] = set()
    response_docs = response.documents(step_warnings)
    index: _Index | None = None
    for kd, _ in key.documents(key_warnings):
        hash_document(h, kd)
        kside.add(kd)
        rd: Document | None = None
        if index is None:
            nxt = next(response_docs, None)
            if nxt is not None and nxt[0].doc_id == kd.doc_id:
                rd = nxt[0]
                rside.add(rd)
            else:
                response_docs.close()
                index = _Index(response)
        if index is not None:
            rid = index.find(kd.doc_id)
            rd = response.read(index.where[rid]) if rid is not None else None
        if rd is None:
            missing.append(kd.doc_id)
        else:
            used.add(rd.doc_id)
        ad = align_document(kd, rd, aligned, settings.singletons, settings.strict_tokens, settings.key_duplicates)
        res = score(ad, ad)
        mentions = mentions + res.mentions
        docs.append(res)
        if progress is not None:
            progress(len(docs), 0)
    if index is None:  # in step to the end: the response documents after the key's last are extra
        extra = []
        for rd, _ in response_docs:
            rside.add(rd)
            extra.append(rd.doc_id)
        response_warnings, response_side = step_warnings, rside
    else:
        response_warnings, response_side = index.warnings, index.side
        extra = [i for i in index.where if i not in used]
    if not docs:
        raise InputError(key.source, None, "the key holds no document")
    if not kside.chains:
        raise InputError(key.source, None, "the key has no mentions")
    if not response_side.total[0]:
        raise InputError(response.source, None, "the response holds no document")
    if len(missing) == len(docs):
        raise InputError(response.source, None, "key and response share no document id")
    warnings = (key_warnings + response_warnings
                + pairing_warnings(response_side.total[0], response_side.chains, missing, extra)
                + aligned.warnings + duplicate_warnings(aligned.duplicates, settings.key_duplicates))
    sig = signature(settings, h.hexdigest()[:10], pos_missing=False)
    return Evaluation(
        settings=settings, signature=sig, key_source=key.source, response_source=response.source,
        metrics=_totals(docs, names), documents=docs, mentions=mentions, key_stats=kside.stats(),
        response_stats=response_side.stats(), warnings=warnings, duplicates=aligned.duplicates, complete=True)

