"""Documents from clusters given in Python (the API's input): ``{doc_id: [[(start, end), …], …]}``.

A cluster is a list of mentions; a mention is ``(start, end)`` — **inclusive** token offsets into
the whole document, as CoNLL-2012 and the e2e-coref JSON lines number them — or
``(sentence, start, end)`` with offsets inside sentence ``sentence`` (0-based), which needs the
document's words by sentence (``tokens=[[word, …], …]``) to place it. Lists and tuples are both
accepted; the chain label is the cluster's index. Empty clusters are dropped.

Every problem is an :class:`~corefreport.errors.InputError` naming the side, the document, the
cluster, the mention and what is wrong (never a silently empty document).
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Union

from ..errors import InputError
from ..model import Chain, Corpus, Document, Mention

SpanLike = Union[Sequence[int], tuple[int, int], tuple[int, int, int]]
Clusters = Sequence[Sequence[SpanLike]]
"""One document's clusters: a list of clusters, each a list of ``(start, end)`` or
``(sentence, start, end)`` mentions."""
Tokens = Union[Sequence[str], Sequence[Sequence[str]]]
"""A document's words: a flat list, or a list of sentences (each a list of words)."""


def _sentences(tokens: Tokens | None) -> tuple[list[str], list[int]] | None:
    """``(words, first word of each sentence)`` of ``tokens``; ``None`` when none were given."""
    if tokens is None:
        return None
    if isinstance(tokens, (str, bytes)):
        raise TypeError("tokens must be a list of words or a list of sentences, not a string")
    if all(isinstance(t, str) for t in tokens):
        return [str(t) for t in tokens], [0] if tokens else []
    words: list[str] = []
    starts: list[int] = []
    for sentence in tokens:
        if isinstance(sentence, (str, bytes)) or not isinstance(sentence, Sequence):
            raise TypeError("tokens must be a list of words or a list of sentences (lists of words)")
        starts.append(len(words))
        words.extend(str(w) for w in sentence)
    return words, starts


def document(doc_id: str, clusters: Clusters, tokens: Tokens | None = None, side: str = "key") -> Document:
    """The :class:`Document` ``doc_id`` with ``clusters`` (see the module docstring); ``side``
    names the input in errors (``key`` or ``response``)."""
    if not isinstance(doc_id, str):
        raise TypeError(f"document ids are strings, got {type(doc_id).__name__} {doc_id!r}")
    laid = _sentences(tokens)
    doc = Document(doc_id=doc_id, source=f"<{side}>")
    if laid is not None:
        doc.tokens, doc.sentence_starts = laid
    if isinstance(clusters, (str, bytes)) or not isinstance(clusters, Sequence):
        raise InputError(f"<{side}>", None, f"document {doc_id!r}: clusters must be a list of clusters, got "
                         f"{type(clusters).__name__}")
    n = len(doc.tokens) if laid is not None else None
    limit = n if n is not None else 1 << 62
    for c, cluster in enumerate(clusters):
        if isinstance(cluster, (str, bytes)) or not isinstance(cluster, Sequence):
            raise InputError(f"<{side}>", None, f"document {doc_id!r}, cluster {c}: a cluster is a list of mentions, "
                             f"got {type(cluster).__name__}")
        label = str(c)
        if type(cluster) in _SEQUENCES and all(type(m) in _SEQUENCES and len(m) == 2 and type(m[0]) is int
                                               and type(m[1]) is int and 0 <= m[0] <= m[1] < limit for m in cluster):
            mentions = [Mention(m[0], m[1], label) for m in cluster]  # the common case, checked in one pass
        else:
            mentions = [_mention(doc, side, c, k, m, n) for k, m in enumerate(cluster)]
        if mentions:
            doc.chains.append(Chain(str(c), mentions))
    return doc


_SEQUENCES = (list, tuple)


def _mention(doc: Document, side: str, c: int, k: int, m: object, n: int | None) -> Mention:
    """Mention ``k`` of cluster ``c``, checked and placed at document offsets."""
    where = f"document {doc.doc_id!r}, cluster {c}, mention {k}"
    try:  # integers of any kind (numpy's too), never booleans or floats
        if isinstance(m, (str, bytes)) or len(m) not in (2, 3) or any(isinstance(x, bool) for x in m):
            raise TypeError
        m = tuple(operator.index(x) for x in m)
    except TypeError:
        raise InputError(f"<{side}>", None, f"{where}: {m!r} is not (start, end) or (sentence, start, end) "
                         "integers") from None
    if len(m) == 3:
        sentence, start, end = m
        if n is None:
            raise InputError(f"<{side}>", None, f"{where}: (sentence, start, end) needs the document's sentences "
                             "(tokens=[[word, …], …]) to place it")
        starts = doc.sentence_starts
        if not 0 <= sentence < len(starts):
            raise InputError(f"<{side}>", None, f"{where}: sentence {sentence} does not exist ({len(starts)} "
                             "sentences)")
        length = (starts[sentence + 1] if sentence + 1 < len(starts) else n) - starts[sentence]
        if not 0 <= start <= end < length:
            raise InputError(f"<{side}>", None, f"{where}: bad span ({start}, {end}) in sentence {sentence} of "
                             f"{length} words (offsets are 0-based and inclusive)")
        start, end = start + starts[sentence], end + starts[sentence]
    else:
        start, end = m
        if start < 0 or start > end:
            raise InputError(f"<{side}>", None, f"{where}: bad span ({start}, {end}) (offsets are 0-based, inclusive, "
                             "start ≤ end)")
        if n is not None and end >= n:
            raise InputError(f"<{side}>", None, f"{where}: span ({start}, {end}) ends beyond the document ({n} words)")
    return Mention(start, end, str(c))


def corpus(clusters: Mapping[str, Clusters], tokens: Mapping[str, Tokens] | None = None,
           side: str = "key") -> Corpus:
    """A :class:`Corpus` of ``{doc_id: clusters}`` in the mapping's order, each document with its
    words from ``tokens`` when given."""
    if not isinstance(clusters, Mapping):
        raise TypeError(f"the {side} must be a mapping of document id to clusters "
                        f"({{'doc': [[(0, 1), (5, 5)]]}}), got {type(clusters).__name__}")
    out = Corpus(source=f"<{side}>", format="jsonlines")
    for doc_id, doc_clusters in clusters.items():
        out.documents[doc_id] = document(doc_id, doc_clusters, (tokens or {}).get(doc_id), side)
    return out
