"""The analyses of one run scored by a pool of processes, each taking a *share* of consecutive
documents, added up into the :class:`~corefreport.scoring.result.Evaluation` that
:func:`~corefreport.scoring.evaluate.evaluate` gives — for views that show tables, not rows.

Each process scores its share's documents exactly as ``evaluate`` does (features, alignment,
the standard and the linguistically aware metrics, ARCS and typed rows: the same functions,
:class:`~corefreport.scoring.evaluate.DocumentAnalyses`) and keeps, instead of the rows, what
the tables are made of: per-document results, the rows' counts per group
(:func:`~corefreport.scoring.analyses.arcs_parts`, :func:`~corefreport.scoring.typed.typed_parts`),
the entity scores, statistics, warnings and the bytes of the corpus hash (a :class:`Share`).
The shares, added up in document order, give the same numbers, statistics, warnings (same text,
same order) and signature as ``evaluate``; ``rows`` is empty and the corpora are not kept.

Sums of credits are exact because the shares' credits are multiples of a power of two
(:func:`shareable`); every count is an integer. Which runs qualify is :func:`shareable`; a run
whose input ``evaluate`` would refuse gives ``None`` here, and the caller scores it whole so
that the refusal reads as always.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import reduce
from operator import add, or_
from typing import Any, Callable

from ..errors import InputError, SettingsError
from ..model import Corpus
from .align import Alignment, align_document, duplicate_warnings, pairing_warnings
from .counts import Counts
from .evaluate import DocumentAnalyses, Requested, annotate_pair, check_requests, pos_warnings
from .features import lacks_pos
from .registry import REGISTRY
from .result import DocumentResult, Evaluation, SideStats
from .settings import Settings, signature
from .standard import HashFeed, document_scorer, document_stats, hash_document, totals

Read = Callable[[int, int], "tuple[Corpus, Corpus] | None"]
"""``read(k, n)``: share ``k`` of ``n`` (key and response, the same documents in the same order),
or ``None`` when the input cannot be cut so (``corefreport.io.shares.Shares.read``)."""
Progress = Callable[[int, int], None]


def shareable(settings: Settings) -> bool:
    """Whether a run can be scored in shares: analyses or linguistically aware metrics asked for
    (else :mod:`.streaming` scores it), exact matching with zeros kept (``--match`` and zero
    alignment pair mentions across the corpus), no p-link and no error classes (their tables
    need every row), and typed credits ``--k`` that are multiples of 2⁻²⁰ (so that their sums
    do not depend on where the documents are cut)."""
    return (bool(settings.analyses or settings.linguistic) and settings.match == "exact"
            and settings.zeros == "keep" and settings.zero_match == "linear" and not settings.plink_by
            and "errors" not in settings.analyses and all((x * 2 ** 20).is_integer() for x in settings.k))


@dataclass
class Share:
    """What one process sends back: what the tables of its documents are made of."""

    documents: list[DocumentResult] = field(default_factory=list)
    mentions: Counts = field(default_factory=Counts)
    key_side: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    response_side: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    key_chains: bool = False
    response_chains: bool = False
    token_warnings: list[str] = field(default_factory=list)
    duplicates: list = field(default_factory=list)
    untagged: list[str] = field(default_factory=list)
    feed: bytes = b""
    arcs: Any = None
    anchor: Any = None
    typed: Any = None
    no_dominant: int = 0
    requested: Requested = field(default_factory=Requested)
    digest: Any = None


def score_share(key: Corpus, response: Corpus, settings: Settings, progress: Progress | None = None,
                total: int = 0, keep: int = 0) -> Share:
    """The :class:`Share` of a key and a response holding the same documents in the same order;
    with ``keep`` > 0 also the :class:`~.digest.RowDigest` of its rows (``keep`` rows per error group)."""
    out = Share()
    score = document_scorer(settings)
    stage = DocumentAnalyses(settings)
    alignment = Alignment()
    feed = HashFeed()
    for idx, (kd, rd) in enumerate(zip(key, response)):
        hash_document(feed, kd)
        for side, doc in ((out.key_side, kd), (out.response_side, rd)):
            for i, x in enumerate(document_stats(doc)):
                side[i] += x
        out.key_chains = out.key_chains or bool(kd.chains)
        out.response_chains = out.response_chains or bool(rd.chains)
        if settings.needs_features and lacks_pos(kd):
            out.untagged.append(kd.doc_id)
        written = rd
        if settings.needs_features:
            kd, rd = annotate_pair(kd, rd)
        ad = align_document(kd, rd, alignment, settings.singletons, settings.strict_tokens, settings.key_duplicates)
        standard = score(ad, ad, written)
        res = dict(standard.metrics)
        stage.add(ad, res)
        out.documents.append(DocumentResult(ad.doc_id, res, standard.mentions))
        out.mentions = out.mentions + standard.mentions
        if progress is not None:
            progress(idx + 1, total)
    out.token_warnings, out.duplicates = alignment.warnings, alignment.duplicates
    out.feed = b"".join(feed.parts)
    out.requested = stage.requested()
    if stage.anchor is not None:
        from .analyses import arcs_parts

        out.arcs, out.anchor = arcs_parts(stage.rows, settings.breakdowns), stage.anchor
    if stage.scheme is not None:
        from .typed import typed_parts

        out.typed = typed_parts([r for r in stage.rows if r.analysis == "typed"])
        out.no_dominant = stage.no_dominant
    if keep > 0:
        from .digest import RowDigest

        out.digest = RowDigest.of(stage.rows, keep)
    return out


def evaluate_shares(read: Read, settings: Settings, jobs: int, progress: Progress | None = None,
                    keep: int = 0, on_wait: Callable[[], None] | None = None) -> Evaluation | None:
    """Score a run in ``jobs`` shares, this process taking the first and ``jobs - 1`` forked
    children the others (see the module docstring); ``None`` when the input cannot be cut in
    shares or ``evaluate`` would refuse it (the caller then scores it whole). ``keep`` > 0: the
    evaluation carries the :class:`~.digest.RowDigest` of its rows, ``keep`` rows per error group.
    ``on_wait``: work of the caller's that this process does once its share is scored, while the
    children finish theirs (the report imports what its intervals need)."""
    from ..forking import Child

    def work(k: int):
        def run(send) -> tuple:
            try:
                pair = read(k, jobs)
                return ("out of step",) if pair is None else ("ok", score_share(*pair, settings, keep=keep))
            except (InputError, SettingsError, ValueError) as err:
                return ("failed", str(err))
        return run

    children = [Child(work(k)) for k in range(1, jobs)]
    try:
        pair = read(0, jobs)
        if pair is None:
            return None
        key, response = pair
        shares = [score_share(key, response, settings, progress, len(key) * jobs, keep)]
        if on_wait is not None:
            on_wait()
        for child in children:
            value = child.result()
            if value is None or value[0] != "ok":
                return None
            shares.append(value[1])
    except (InputError, SettingsError):
        return None
    finally:
        for child in children:
            child.kill()
    return _evaluation(shares, settings, key, response)


def _evaluation(shares: list[Share], settings: Settings, key: Corpus, response: Corpus) -> Evaluation | None:
    """The shares added up, in order, into what ``evaluate`` gives (``key`` and ``response``: the
    first share's corpora, for their sources and whole-file warnings); ``None`` for an input
    ``evaluate`` refuses."""
    docs = [d for s in shares for d in s.documents]
    if not docs or not any(s.key_chains for s in shares):
        return None  # evaluate names the problem (no document, no mention)
    key_side = [sum(x) for x in zip(*(s.key_side for s in shares))]
    response_side = [sum(x) for x in zip(*(s.response_side for s in shares))]
    untagged = [i for s in shares for i in s.untagged]
    duplicates = [d for s in shares for d in s.duplicates]
    h = hashlib.sha256()
    for s in shares:
        h.update(s.feed)
    scheme = None
    if "typed" in settings.analyses:
        from .scheme import load_scheme

        scheme = load_scheme(settings.scheme)
    check_requests(settings, reduce(or_, (s.requested for s in shares)), scheme)
    arcs = typed = None
    if shares[0].arcs is not None:
        from .analyses import add_parts, arcs_result

        arcs = arcs_result(reduce(add_parts, (s.arcs for s in shares)), reduce(add, (s.anchor for s in shares)))
    if shares[0].typed is not None:
        from .typed import typed_result

        typed = typed_result(reduce(add, (s.typed for s in shares)), scheme, settings.k,
                             list(settings.attempted) if settings.attempted else None)
        typed.no_dominant = sum(s.no_dominant for s in shares)
    mentions = reduce(add, (s.mentions for s in shares))
    digest = reduce(add, (s.digest for s in shares)) if shares[0].digest is not None else None
    warnings = (list(key.warnings) + list(response.warnings) + pos_warnings(untagged, [], settings.match)
                + pairing_warnings(response_side[0], any(s.response_chains for s in shares), [], [])
                + [w for s in shares for w in s.token_warnings] + duplicate_warnings(duplicates, settings.key_duplicates))
    names = [m for m in settings.metrics if m in REGISTRY]
    return Evaluation(
        settings=settings, signature=signature(settings, h.hexdigest()[:10], pos_missing=bool(untagged)),
        key_source=key.source, response_source=response.source, metrics=totals(docs, names), documents=docs,
        mentions=mentions, key_stats=SideStats(*key_side), response_stats=SideStats(*response_side),
        warnings=warnings, duplicates=duplicates, arcs=arcs, typed=typed, complete=True, digest=digest)
