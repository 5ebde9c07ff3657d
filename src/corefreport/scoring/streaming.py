"""The standard metrics scored document by document, in memory flat in the corpus size.

:func:`evaluate_stream` gives the :class:`~corefreport.scoring.result.Evaluation` that
:func:`~corefreport.scoring.evaluate.evaluate` gives for the same key, response and settings —
the same numbers, per-document results, statistics, signature, warnings (same text, same order)
and duplicate reports — but reads each side one document at a time and keeps only per-document
results: never the corpora (``key_corpus`` and ``response_corpus`` are ``None``). It serves the
runs that need no more (:func:`streams`: the standard and CorefUD metrics, no analysis), under
every ``--match``, ``--zeros`` and ``--zero-match``: corefud-scorer matches mentions within a
document, so each pair of documents is matched here as the whole-corpus run matches it
(:func:`~corefreport.scoring.matching.match_pair`, after
:func:`~corefreport.scoring.matching.drop_document_zeros`), MOR is scored on the mentions as
written and the zero score on the response as written.

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
from dataclasses import dataclass, field
from itertools import count
from typing import Callable, Iterator, Protocol

from ..errors import InputError
from ..model import Document
from .align import Alignment, _match_key, align_document, duplicate_warnings, pairing_warnings
from .counts import Counts
from .matching import drop_document_zeros, formats_by_rule, heads_warning, match_pair
from .standard import HashFeed, document_scorer, document_stats, hash_document, totals
from .registry import PER_DOCUMENT_METRICS
from .result import DocumentResult, Evaluation, SideStats
from .settings import Settings, signature

Progress = Callable[[int, int], None]


class DocumentSource(Protocol):
    """One side's documents in order, each with where it is (``corefreport.io.stream.DocumentStream``)."""

    source: str
    format: str

    def documents(self, warnings: list[str], parse: Callable[[], bool] | None = None
                  ) -> Iterator[tuple[Document, tuple]]: ...

    def read(self, where: tuple) -> Document: ...


def streams(settings: Settings) -> bool:
    """Whether :func:`evaluate_stream` can score a run: every number comes from one document at a
    time (the standard and CorefUD metrics under any matching; no analysis, no linguistic metric,
    no p-link)."""
    return (not settings.needs_features and not settings.analyses and not settings.plink_by
            and all(m in PER_DOCUMENT_METRICS for m in settings.metrics))


def _has_chains(doc: Document, drop_zeros: bool) -> bool:
    """Whether ``doc`` has a chain left once its zeros are dropped (``drop_zeros``), as the
    whole-corpus run's checks and warnings see it."""
    return bool(doc.chains) and (not drop_zeros or bool(drop_document_zeros(doc).chains))


Prepare = Callable[[Document, "Document | None"], tuple[Document, "Document | None", "Document | None"]]


def _preparer(settings: Settings, key: DocumentSource, response: DocumentSource) -> Prepare | None:
    """``prepare(kd, rd) -> (key, response, response as written)``: one pair of documents as the
    metrics score them — zeros dropped (``--zeros drop``), response mentions matched onto the key's
    (``--match head|partial``, ``--zero-match dependent``) — as
    :func:`~corefreport.scoring.evaluate.evaluate` prepares the corpora; ``None`` when the
    documents are scored as read."""
    drop = settings.zeros == "drop"
    match = settings.match != "exact" or settings.zero_match != "linear"
    if not drop and not match:
        return None

    def prepare(kd: Document, rd: Document | None):
        if drop:
            kd = drop_document_zeros(kd)
            rd = drop_document_zeros(rd) if rd is not None else None
        written = rd
        if match and rd is not None:
            kd, rd = match_pair(kd, rd, key.format, response.format, settings.match,
                                settings.singletons == "drop", settings.zero_match, annotate=False)
        return kd, rd, written

    return prepare


class _Side:
    """Running statistics of one side: documents, mentions, chains, singletons; any chain at all."""

    def __init__(self) -> None:
        self.total = [0, 0, 0, 0]
        self.chains = False

    def add(self, stats: tuple[int, int, int, int], chains: bool) -> None:
        for i, x in enumerate(stats):
            self.total[i] += x
        self.chains = self.chains or chains

    def add_doc(self, doc: Document, drop_zeros: bool = False) -> None:
        self.add(document_stats(doc), _has_chains(doc, drop_zeros))

    def stats(self) -> SideStats:
        return SideStats(*self.total)


class _Index:
    """Every response document in file order with where it is, read in one pass (after the
    response left the key's order): ids, the first id of each ``(name, part)``, statistics and
    reader warnings of the whole response."""

    def __init__(self, response: DocumentSource, drop_zeros: bool = False) -> None:
        self.warnings: list[str] = []
        self.where: dict[str, tuple] = {}
        self.by_norm: dict[tuple[str, int], str] = {}
        self.side = _Side()
        for doc, where in response.documents(self.warnings):
            self.where[doc.doc_id] = where
            self.by_norm.setdefault(_match_key(doc.doc_id), doc.doc_id)
            self.side.add_doc(doc, drop_zeros)

    def find(self, doc_id: str) -> str | None:
        return doc_id if doc_id in self.where else self.by_norm.get(_match_key(doc_id))


@dataclass(slots=True)
class _Record:
    """What one key document adds to the corpus: its scores, the statistics of its two sides,
    the id of its response (``None``: missing), its token warning and repeated spans, and (in a
    pool) the bytes it feeds to the corpus hash."""

    result: DocumentResult
    key_stats: tuple[int, int, int, int]
    key_chains: bool
    response_id: str | None
    response_stats: tuple[int, int, int, int] | None
    response_chains: bool
    warnings: list[str]
    duplicates: list
    feed: bytes = b""


@dataclass(slots=True)
class _Summary:
    """What one pass learns besides the records: reader warnings, the response documents after
    the key's last (in step) with the statistics of those it read, or the index (out of step)."""

    key_warnings: list[str] = field(default_factory=list)
    response_warnings: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    extra_side: _Side = field(default_factory=_Side)
    index: _Index | None = None
    key_documents: int = 0


class _NotInStep(Exception):
    """A process of a pool met a response document out of the key's order."""


def _records(key: DocumentSource, response: DocumentSource, settings: Settings, summary: _Summary, h,
             share: tuple[int, int] = (0, 1)) -> Iterator[tuple[int, _Record]]:
    """The records of the key documents of ``share`` ``(k, n)`` (those whose position modulo ``n``
    is ``k``; all when ``n`` is 1), in key order, each with its position. Alone (``n == 1``), the
    hash ``h`` is fed here; in a pool each record carries its bytes, the other documents are only
    skimmed (:meth:`DocumentSource.documents` with ``parse``), and a response out of the key's
    order raises :class:`_NotInStep`."""
    k, n = share
    pool = n > 1
    score = document_scorer(settings)
    keep = settings.singletons == "keep"
    drop_zeros = settings.zeros == "drop"
    prepare = _preparer(settings, key, response)
    mor = "mor" in settings.metrics and (settings.match != "exact" or settings.zero_match != "linear")
    kpos, rpos = count(), count()
    kparse = (lambda: next(kpos) % n == k) if pool else None
    rparse = (lambda: next(rpos) % n == k) if pool else None
    response_docs = response.documents(summary.response_warnings, rparse)
    index: _Index | None = None
    i = -1
    for i, (kd, _) in enumerate(key.documents(summary.key_warnings, kparse)):
        rd: Document | None = None
        if index is None:
            nxt = next(response_docs, None)
            if nxt is not None and nxt[0].doc_id == kd.doc_id:
                rd = nxt[0]
            elif pool:
                raise _NotInStep
            else:
                response_docs.close()
                index = summary.index = _Index(response, drop_zeros)
        if index is not None:
            rid = index.find(kd.doc_id)
            rd = response.read(index.where[rid]) if rid is not None else None
        if pool and i % n != k:
            continue
        feed = HashFeed() if pool else h
        hash_document(feed, kd)
        aligned = Alignment()
        if prepare is None:
            ad = align_document(kd, rd, aligned, settings.singletons, settings.strict_tokens, settings.key_duplicates)
            written, as_written = rd, ad
        else:
            pkd, prd, written = prepare(kd, rd)
            ad = align_document(pkd, prd, aligned, settings.singletons, settings.strict_tokens,
                                settings.key_duplicates)
            as_written = ad
            if mor and written is not None:  # MOR ignores --match: the response as written
                as_written = align_document(pkd, written, Alignment(), settings.singletons, False,
                                            settings.key_duplicates)
        if keep and not drop_zeros:
            # the aligned chains are all the chains: their distinct spans are the mentions (matching
            # maps distinct response mentions to distinct ones: 1-to-1, the unmatched marked apart)
            kstats = (1, ad.key_mentions, len(kd.chains), sum(1 for c in kd.chains if len(c.mentions) == 1))
            rstats = None if rd is None else (1, ad.response_mentions, len(rd.chains),
                                              sum(1 for c in rd.chains if len(c.mentions) == 1))
        else:
            kstats, rstats = document_stats(kd), None if rd is None else document_stats(rd)
        yield i, _Record(score(ad, as_written, written), kstats, _has_chains(kd, drop_zeros),
                         rd.doc_id if rd is not None else None, rstats, rd is not None and _has_chains(rd, drop_zeros),
                         aligned.warnings, aligned.duplicates, b"".join(feed.parts) if pool else b"")
    summary.key_documents = i + 1
    if index is None:  # in step to the end: the response documents after the key's last are extra
        for j, (rd, _) in enumerate(response_docs, start=i + 1):
            summary.extra.append(rd.doc_id)
            if not pool or j % n == k:
                summary.extra_side.add_doc(rd, drop_zeros)


def evaluate_stream(key: DocumentSource, response: DocumentSource, settings: Settings,
                    progress: Progress | None = None, jobs: int = 1) -> Evaluation:
    """Score ``response`` against ``key`` document by document (see the module docstring).

    ``jobs`` ≥ 2: that many processes (:func:`os.fork`), each reading both files but parsing and
    scoring only every ``jobs``-th document; the records come back to this one and are added up in
    key order, so the result is that of ``jobs=1``. A response out of the key's order is scored
    by one process. ``progress(done, 0)`` is called after each key document this process scores
    (the total is not known in advance).
    """
    if not streams(settings):
        raise ValueError("evaluate_stream scores only the per-document metrics, without analyses")
    if jobs > 1:
        h = hashlib.sha256()
        summary = _Summary()
        try:
            return _evaluation(key, response, settings, h, _pool(key, response, settings, jobs, progress, h, summary),
                               summary)
        except _NotInStep:
            pass  # one process reads the response from its offsets
    h = hashlib.sha256()
    summary = _Summary()
    records = _progressed(_records(key, response, settings, summary, h), progress)
    return _evaluation(key, response, settings, h, (rec for _, rec in records), summary)


def _progressed(records: Iterator[tuple[int, _Record]], progress: Progress | None) -> Iterator[tuple[int, _Record]]:
    """``records`` as they come, telling ``progress`` how many key documents are done."""
    for i, rec in records:
        yield i, rec
        if progress is not None:
            progress(i + 1, 0)


def _evaluation(key: DocumentSource, response: DocumentSource, settings: Settings, h, records,
                summary: _Summary) -> Evaluation:
    """Add the records up (in key order) into the :class:`Evaluation` that
    :func:`~corefreport.scoring.evaluate.evaluate` gives; the problems it refuses raise
    :class:`InputError`. ``summary`` is complete once ``records`` is exhausted."""
    names = [m for m in settings.metrics if m in PER_DOCUMENT_METRICS]
    kside, rside = _Side(), _Side()
    docs: list[DocumentResult] = []
    mentions = Counts()
    missing: list[str] = []
    used: set[str] = set()
    token_warnings: list[str] = []
    duplicates: list = []
    for rec in records:
        kside.add(rec.key_stats, rec.key_chains)
        if rec.response_id is None:
            missing.append(rec.result.doc_id)
        else:
            used.add(rec.response_id)
            rside.add(rec.response_stats, rec.response_chains)
        token_warnings.extend(rec.warnings)
        duplicates.extend(rec.duplicates)
        mentions = mentions + rec.result.mentions
        docs.append(rec.result)
    if summary.index is None:
        rside.add(tuple(summary.extra_side.total), summary.extra_side.chains)
        extra = summary.extra
    else:
        rside = summary.index.side
        summary.response_warnings = summary.index.warnings
        extra = [i for i in summary.index.where if i not in used]
    if not docs:
        raise InputError(key.source, None, "the key holds no document")
    if not kside.chains:
        raise InputError(key.source, None, "the key has no mentions")
    if not rside.total[0]:
        raise InputError(response.source, None, "the response holds no document")
    if len(missing) == len(docs):
        raise InputError(response.source, None, "key and response share no document id")
    ruled = formats_by_rule(key.format, response.format) if settings.match != "exact" else []
    warnings = (summary.key_warnings + summary.response_warnings
                + ([heads_warning(settings.match, ruled)] if ruled else [])
                + pairing_warnings(rside.total[0], rside.chains, missing, extra)
                + token_warnings + duplicate_warnings(duplicates, settings.key_duplicates))
    sig = signature(settings, h.hexdigest()[:10], pos_missing=False, heads_rule=bool(ruled))
    return Evaluation(
        settings=settings, signature=sig, key_source=key.source, response_source=response.source,
        metrics=totals(docs, names), documents=docs, mentions=mentions, key_stats=kside.stats(),
        response_stats=rside.stats(), warnings=warnings, duplicates=duplicates, complete=True)


def _pool(key: DocumentSource, response: DocumentSource, settings: Settings, jobs: int,
          progress: Progress | None, h, summary: _Summary) -> Iterator[_Record]:
    """Every record in key order from ``jobs`` processes: this one and ``jobs - 1`` forked
    children, each sending its records through a pipe as it makes them, taken in turn (so that
    only a few are held at a time); each record's bytes go to the corpus hash ``h``, and
    ``summary`` is complete at the end. :class:`_NotInStep` when the response is not in the key's
    order; an input problem in any process raises :class:`InputError` (the caller reads the files
    whole to name it)."""
    from ..forking import Child

    def share(k: int):
        def work(send) -> tuple:
            mine = _Summary()
            try:
                for pair in _records(key, response, settings, mine, None, (k, jobs)):
                    send(pair)
            except _NotInStep:
                return ("out of step",)
            return ("ok", mine)
        return work

    children = [Child(share(k)) for k in range(1, jobs)]
    try:
        streams_ = [_progressed(_records(key, response, settings, summary, None, (0, jobs)), progress)]
        streams_ += [child.items() for child in children]
        for i in count():
            pair = next(streams_[i % jobs], None)
            if pair is None:
                break
            if pair[0] != i:  # pragma: no cover - the shares are every jobs-th document
                raise RuntimeError(f"pool: document {pair[0]} came where {i} was due")
            rec = pair[1]
            h.update(rec.feed)
            yield rec
        for stream in streams_:  # every share has ended too: this one's summary completes, each child finishes
            for _ in stream:
                raise RuntimeError("pool: a share has more documents than the key")  # pragma: no cover
        for child in children:
            if child.value is None:
                raise InputError(key.source, None, "a process of the pool died")
            if child.value[0] != "ok":
                raise _NotInStep
            side = child.value[1].extra_side
            summary.extra_side.add(tuple(side.total), side.chains)
    except BaseException:
        for child in children:
            child.kill()
        raise
