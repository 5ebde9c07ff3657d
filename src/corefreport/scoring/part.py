"""``Part``: what a run of documents adds to an evaluation — the one thing scoring sums.

A part holds per-document results, both sides' statistics, the pairing's missing and extra
documents, warnings about words and repeated spans, the bytes of the key's content hash, each
analysis's additive part (:data:`~corefreport.scoring.registry.ANALYSIS_REGISTRY`), and the outcome
rows or their digest. Parts form a monoid: ``Part()`` is the identity and ``+`` is associative
(every field adds by the function its metadata names: lists concatenate, counts add), so a
corpus is scored as the sum of its documents' parts in key order, in one process or in a pool.
:func:`~corefreport.scoring.finish.finish` turns the sum into the :class:`Evaluation`.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field, fields
from typing import Any, Callable

from ..model import Document
from .counts import Counts
from .result import DocumentResult, SideStats
from .verdict import Evidence


def _concat(a, b):
    return a + b if b else a


def _sides(a: SideStats, b: SideStats) -> SideStats:
    return SideStats(a.documents + b.documents, a.mentions + b.mentions, a.chains + b.chains,
                     a.singletons + b.singletons)


def _sample(a: tuple, b: tuple) -> tuple:
    return a if len(a) >= SAMPLE else (a + b)[:SAMPLE]


def _maybe(add: Callable) -> Callable:
    """``add`` where neither side is ``None``; else the one that is not."""
    return lambda a, b: b if a is None else a if b is None else add(a, b)


def _add_analyses(a: dict, b: dict) -> dict:
    if not b:
        return a
    if not a:
        return b
    from .registry import ANALYSIS_REGISTRY

    out = dict(a)
    for name, part in b.items():
        out[name] = ANALYSIS_REGISTRY[name].add(out[name], part) if name in out else part
    return out


def _merge(a: dict, b: dict) -> dict:
    return {**a, **b} if b else a


SAMPLE = 3
"""Response document ids a part keeps, for the message of a response that shares no id with the key."""


def _adds(add: Callable) -> dict:
    return {"add": add}


@dataclass(slots=True)
class Requested:
    """What the outcome rows hold that the requests are checked against: whether there are rows,
    the features they carry (only when ``--by`` asks for some), whether there are typed rows and
    their classes. Those of several row sets add up (``|``)."""

    rows: bool = False
    features: frozenset[str] = frozenset()
    typed_rows: bool = False
    classes: frozenset[str] = frozenset()

    def __or__(self, o: Requested) -> Requested:
        return Requested(self.rows or o.rows, self.features | o.features, self.typed_rows or o.typed_rows,
                         self.classes | o.classes)


@dataclass(slots=True)
class Part:
    """What a run of documents adds to an evaluation (see the module docstring)."""

    documents: list[DocumentResult] = field(default_factory=list, metadata=_adds(_concat))
    """Per key document, in key order: its metrics' statistics and its mention counts."""
    mentions: Counts = field(default_factory=Counts, metadata=_adds(operator.add))
    key_side: SideStats = field(default_factory=SideStats, metadata=_adds(_sides))
    response_side: SideStats = field(default_factory=SideStats, metadata=_adds(_sides))
    key_chains: bool = field(default=False, metadata=_adds(operator.or_))
    """Whether a key document has a chain (after ``--drop-zeros``)."""
    response_chains: bool = field(default=False, metadata=_adds(operator.or_))
    response_ids: tuple[str, ...] = field(default=(), metadata=_adds(_sample))
    """The first response documents' ids (:data:`SAMPLE`)."""
    missing: list[str] = field(default_factory=list, metadata=_adds(_concat))
    """Key documents the response lacks."""
    extra: list[str] = field(default_factory=list, metadata=_adds(_concat))
    """Response documents the key lacks."""
    token_warnings: list[str] = field(default_factory=list, metadata=_adds(_concat))
    duplicates: list = field(default_factory=list, metadata=_adds(_concat))
    untagged: list[str] = field(default_factory=list, metadata=_adds(_concat))
    """Key documents with tokens without a POS tag (when features are derived)."""
    feed: bytes = field(default=b"", metadata=_adds(_concat))
    """The bytes of the key's content hash (:func:`~corefreport.scoring.document.hash_document`)."""
    analyses: dict[str, Any] = field(default_factory=dict, metadata=_adds(_add_analyses))
    """Each analysis's additive part, by analysis name."""
    rows: list = field(default_factory=list, metadata=_adds(_concat))
    """The outcome rows, when the run keeps them."""
    digest: Any = field(default=None, metadata=_adds(_maybe(operator.add)))
    """Their :class:`~corefreport.scoring.digest.RowDigest`, when the run keeps only that."""
    requested: Requested = field(default_factory=Requested, metadata=_adds(operator.or_))
    labels: list = field(default_factory=list, metadata=_adds(_concat))
    """The first key documents' labels and names (:func:`~.crossdoc.label_trace`), for the warning
    when labels look global across documents (not under ``--cross-document``)."""
    evidence: Evidence = field(default_factory=Evidence, metadata=_adds(operator.add))
    """What the documents whose response mentions mostly match no key mention say of a systematic
    cause (:mod:`.verdict`)."""
    key_documents: dict[str, Document] = field(default_factory=dict, metadata=_adds(_merge))
    """The key documents as scored (matched, annotated), when the run keeps them (the browser)."""
    response_documents: dict[str, Document] = field(default_factory=dict, metadata=_adds(_merge))

    def __add__(self, other: Part) -> Part:
        """The part of ``self``'s documents followed by ``other``'s."""
        return Part(**{f.name: f.metadata["add"](getattr(self, f.name), getattr(other, f.name)) for f in FIELDS})

    def __iadd__(self, other: Part) -> Part:
        """``self + other`` into ``self`` (lists are extended in place: a fold stays linear)."""
        for f in FIELDS:
            mine = getattr(self, f.name)
            if type(mine) is list and f.metadata["add"] is _concat:
                mine.extend(getattr(other, f.name))
            else:
                setattr(self, f.name, f.metadata["add"](mine, getattr(other, f.name)))
        return self


FIELDS = fields(Part)
