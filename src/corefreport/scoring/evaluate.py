"""``evaluate(pairs, settings) -> Evaluation``: the one pipeline, from document pairs to scores.

Every run is the same three steps::

    pairs = DocumentPairs(key, response)             # or CorpusPairs(key_corpus, response_corpus)
    part  = Σ DocumentScorer(settings).score(run)     # over runs of pairs, in this process or a pool
    ev    = finish(part, settings, …)                 # checks, warnings, analyses' results, signature

The pairs come in key order (:mod:`corefreport.io.pairs`); a run of them is scored into a
:class:`~.part.Part` (:mod:`.document`); parts add up in key order; :func:`~.finish.finish` is
the only place where their sum becomes an :class:`~.result.Evaluation`. With ``jobs`` ≥ 2 the
runs are scored by that many processes (this one and forked children, each parsing only its own
documents and sending each run's part back as it is made, so memory stays flat); where
:func:`os.fork` is missing or refused the same fold runs in this process, to the same bytes.

``on_stage`` (a view's first numbers): the per-document metrics are folded first and handed over
as an evaluation with ``complete=False``; the rest (linguistically aware metrics, p-link, the
analyses) is folded next and joined to that part — nothing is scored twice.
"""

from __future__ import annotations

import hashlib
import threading
from itertools import groupby
from typing import Callable, Iterator

from ..model import Corpus, Document
from .document import DocumentScorer
from .part import FIELDS, Part
from .registry import per_document
from .result import DocumentResult, Evaluation
from .settings import Settings

Progress = Callable[[int, int], None]
"""``progress(done, total)``: key documents scored so far (``total`` 0: not known yet)."""


def _parts(pairs, scorer: DocumentScorer, reading, share=(0, 1)) -> Iterator[tuple[int, Part, int]]:
    """(number of the run, its part, key documents in it) for each run of ``share``: the pairs of a
    run are scored as they are read, each let go once scored."""
    from ..io.pairs import CHUNK

    for n, run in groupby(pairs.pairs(reading, share), key=lambda pair: pair.index // CHUNK):
        part = scorer.score(run)
        yield n, part, len(part.documents)


class _Fold:
    """The running sum of parts in key order; the content hash is fed as the parts come (their
    bytes are not kept)."""

    def __init__(self, progress: Progress | None) -> None:
        self.total = Part()
        self.hash = hashlib.sha256()
        self.done = 0
        self.progress = progress

    def add(self, part: Part, documents: int) -> None:
        self.hash.update(part.feed)
        part.feed = b""
        self.total += part
        self.done += documents
        if self.progress is not None and documents:
            self.progress(self.done, 0)


def _pool(pairs, scorer: DocumentScorer, reading, jobs: int, fold: _Fold) -> bool:
    """Fold the parts of ``jobs`` processes (this one and forked children) in key order into
    ``fold``; ``False`` (nothing folded) when no child could be started."""
    from ..forking import Child, can_fork

    if not can_fork():
        return False

    def share(k: int):
        def work(send) -> None:
            for item in _parts(pairs, scorer, type(reading)(), (k, jobs)):
                send(item)
        return work

    try:
        children = [Child(share(k)) for k in range(1, jobs)]
    except OSError:
        return False
    try:
        streams = [_parts(pairs, scorer, reading, (0, jobs))] + [child.items() for child in children]
        for n in range(1 << 62):
            item = next(streams[n % jobs], None)
            if item is None:
                break
            if item[0] != n:  # pragma: no cover - each process takes every jobs-th run
                raise RuntimeError(f"pool: run {item[0]} came where {n} was due")
            fold.add(item[1], item[2])
        for stream in streams:  # every process has ended too
            for _ in stream:  # pragma: no cover
                raise RuntimeError("pool: a process has more runs than the key")
        for child in children:
            if child.died:
                raise RuntimeError("a process of the pool died")
    except BaseException:
        for child in children:
            child.kill()
        raise
    return True


def _fold(pairs, scorer: DocumentScorer, jobs: int, progress: Progress | None):
    from ..io.pairs import Reading

    reading = Reading()
    fold = _Fold(progress)
    if jobs < 2 or not _pool(pairs, scorer, reading, jobs, fold):
        for _, part, docs in _parts(pairs, scorer, reading):
            fold.add(part, docs)
    return fold, reading


def _join(first: Part, rest: Part) -> Part:
    """The part of the per-document metrics (``first``) joined with that of the rest of the same
    documents (``rest``): each document's metrics, the rest's after the first's; every other field
    from the stage that filled it (the other left it empty)."""
    empty = Part()
    out = Part(**{f.name: getattr(rest, f.name) if getattr(rest, f.name) != getattr(empty, f.name)
                  else getattr(first, f.name) for f in FIELDS})
    out.documents = [DocumentResult(a.doc_id, {**a.metrics, **b.metrics}, a.mentions, a.tokens, a.genre, a.strata,
                                     a.windows)
                     for a, b in zip(first.documents, rest.documents)]
    return out


def evaluate(key, response: Corpus | None = None, settings: Settings | None = None,
             progress: Progress | None = None, on_stage: Callable[[Evaluation], None] | None = None, *,
             jobs: int = 1, rows: bool | int = True, documents: bool = True, digest: bool = False,
             apart: bool = False) -> Evaluation:
    """Score a run: ``key`` is the document pairs (:class:`~corefreport.io.pairs.DocumentPairs`,
    :class:`~corefreport.io.pairs.CorpusPairs`), or the key :class:`Corpus` with ``response`` the
    response's (neither is changed).

    ``jobs``: processes (see the module docstring). ``rows``: keep the outcome rows (``True``),
    their digest with that many rows per error group (an ``int``), or neither (``False``: the
    tables alone). ``documents``: the evaluation carries the documents as scored (in one process)
    or read again when a view asks (in a pool). ``digest``: the analyses keep only what the tables
    read where they can (the error classes; not for the JSON). ``apart``: a large document's error
    classes may be scored in a forked process while this one scores the other analyses, when a core
    is idle (:meth:`~.document.DocumentScorer.analyse`; the command line's choice — not in an
    evaluation loop's process). ``progress(done, 0)`` after each run of documents;
    ``on_stage``: see the module docstring (:func:`stages` gives the same evaluations as a generator).
    """
    for ev in stages(key, response, settings, progress, jobs=jobs, rows=rows, documents=documents,
                     staged=on_stage is not None, digest=digest, apart=apart):
        if not ev.complete and on_stage is not None:
            on_stage(ev)
    return ev


def stages(key, response: Corpus | None = None, settings: Settings | None = None,
           progress: Progress | None = None, *, jobs: int = 1, rows: bool | int = True, documents: bool = True,
           staged: bool = True, digest: bool = False, apart: bool = False) -> Iterator[Evaluation]:
    """The evaluations of a run as they are ready (arguments as :func:`evaluate`'s): with
    ``staged``, first the per-document metrics (``complete=False``) when more is asked for, then the
    complete evaluation, always last — nothing is scored twice. A caller that stops after the first
    has scored only the per-document metrics; the generator holds no thread and no lock."""
    settings = settings or Settings()
    if isinstance(key, Corpus):
        from ..io.pairs import CorpusPairs

        pairs = CorpusPairs(key, response)
    else:
        pairs = key
    if settings.cross_document is not None:  # each topic's documents as one pair
        from .crossdoc import cross_document_pairs

        pairs, jobs = cross_document_pairs(pairs, settings), 1
    pairs.prepare(settings.markup_policy)
    markup = getattr(pairs, "markup", False)
    if markup:  # read whole and aligned in this process
        jobs = 1
        markup = not pairs.ceiling_side
    keep = documents and jobs < 2
    std = [m for m in settings.metrics if per_document(m)]
    rest = (settings.linguistic or settings.analyses or settings.plink_by)
    kwargs = dict(sources=pairs.sources, markup=bool(getattr(pairs, "markup", False)))
    from .finish import finish

    if staged and rest and std:
        first = DocumentScorer(settings, pairs.formats, stage="standard")
        fold, reading = _fold(pairs, first, jobs, progress)
        key_hash = fold.hash.hexdigest()
        yield finish(fold.total, settings, formats=pairs.formats, key_hash=key_hash,
                     reader_warnings=(reading.key_warnings, reading.response_warnings), complete=False,
                     documents=pairs.documents() if documents else None, **kwargs)
        scorer = DocumentScorer(settings, pairs.formats, rows, keep, stage="rest", digest=digest, apart=apart)
        fold2, _ = _fold(pairs, scorer, jobs, progress)
        total = _join(fold.total, fold2.total)
    else:
        scorer = DocumentScorer(settings, pairs.formats, rows, keep, digest=digest, apart=apart)
        fold, reading = _fold(pairs, scorer, jobs, progress)
        key_hash = fold.hash.hexdigest()
        total = fold.total
    docs = None
    if documents:
        docs = (total.key_documents, total.response_documents) if keep else pairs.documents()
    ev = finish(total, settings, formats=pairs.formats, key_hash=key_hash,
                reader_warnings=(reading.key_warnings, reading.response_warnings), analyses=scorer.analyses or None,
                documents=docs, **kwargs)
    if settings.mention_singletons == "keep" and settings.singletons == "drop" and not markup:
        ev = _with_mention_singletons(ev, key, response, settings)
    yield _with_alignment(ev, pairs, settings) if markup or getattr(pairs, "round_trips", False) else ev


def _with_mention_singletons(ev: Evaluation, key, response, settings: Settings) -> Evaluation:
    """``ev`` with its mention scores (totals and per document) those of the same pairs with
    one-mention chains kept: Cattan et al. (2021, *Realistic evaluation principles for
    cross-document coreference resolution*): mention detection is scored with singletons,
    coreference without them. The pairs are read once more, for the mentions only."""
    from dataclasses import replace

    plain = replace(settings, singletons="keep", mention_singletons="same", analyses=(), plink_by=None, by=(),
                    metrics=("muc",))
    md = evaluate(key, response, plain, rows=False, documents=False)
    by_id = {d.doc_id: d.mentions for d in md.documents}
    return replace(ev, mentions=md.mentions,
                   documents=[replace(d, mentions=by_id.get(d.doc_id, d.mentions)) for d in ev.documents])


def _with_alignment(ev: Evaluation, pairs, settings: Settings) -> Evaluation:
    """``ev`` of a response in text2text-coref's markup or JSON with its
    :class:`~.alignloss.AlignmentLoss`: the round-trip ceiling (the key against its own conversion)
    and, for markup, the alignment ceiling (the key's markup through the response's edit script),
    scored with the same per-document metrics."""
    from dataclasses import replace

    from .alignloss import JSON, AlignmentLoss

    plain = replace(settings, metrics=tuple(m for m in settings.metrics if per_document(m)) or ("muc",),
                    analyses=(), plink_by=None, by=(), strata=(), cross_document=None)
    trip = pairs.round_trip()
    round_trip = evaluate(trip, settings=plain, rows=False, documents=False)
    if pairs.markup:
        ceiling = evaluate(pairs.ceiling(), settings=plain, rows=False, documents=False)
        loss = AlignmentLoss.of(settings.markup_policy, pairs.diagnostics(), ceiling, ev, round_trip, trip.reductions)
    else:
        loss = AlignmentLoss.of(JSON, [], None, ev, round_trip, trip.reductions)
    return replace(ev, results={**ev.results, "alignment": loss})


class Running:
    """An evaluation built one document pair at a time, in the order given (the API's
    :class:`corefreport.api.Scorer`, for evaluation loops): each pair is scored into a part as it
    comes and added to the sum, so :meth:`evaluation` is what :func:`evaluate` gives for the same
    pairs in the same order — at any point, as often as asked."""

    def __init__(self, settings: Settings, formats: tuple[str, str] = ("jsonlines", "jsonlines"),
                 sources: tuple[str, str] = ("<key>", "<response>"), rows: bool | int = False) -> None:
        self.settings = settings
        self.formats = formats
        self.sources = sources
        self.scorer = DocumentScorer(settings, formats, rows)
        self._fold = _Fold(None)
        self._seen: set[str] = set()
        self._lock = threading.Lock()  # an evaluation loop's threads may add documents at once

    def __len__(self) -> int:
        """Documents added so far."""
        return len(self._seen)

    def add(self, key: Document, response: Document | None) -> DocumentResult | None:
        """Score ``key`` against ``response`` (``None``: the system wrote nothing for it) and add
        them to the sum; the document's own scores (``None`` when no per-document metric is asked)."""
        from ..errors import SettingsError
        from ..io.pairs import Pair

        if response is not None and response.doc_id != key.doc_id:
            raise SettingsError(f"the response document is {response.doc_id!r}, the key's {key.doc_id!r}")
        with self._lock:  # one document at a time: its number, the check of its id and the sum
            if key.doc_id in self._seen:
                raise SettingsError(f"document {key.doc_id!r} was already added: each document is scored once")
            part = self.scorer.score([Pair(len(self._seen), key, response)])
            self._seen.add(key.doc_id)
            self._fold.add(part, 1)
        return part.documents[-1] if part.documents else None

    def evaluation(self) -> Evaluation:
        """The :class:`Evaluation` of every pair added so far."""
        from .finish import finish

        with self._lock:
            total = Part() + self._fold.total  # finish sees a copy: adding goes on after it
            key_hash = self._fold.hash.copy().hexdigest()
        return finish(total, self.settings, formats=self.formats, key_hash=key_hash,
                      sources=self.sources, analyses=self.scorer.analyses or None)
