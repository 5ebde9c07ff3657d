"""The corpus model every reader produces and every scorer consumes.

A :class:`Corpus` is an ordered mapping of document id to :class:`Document`; a document holds its
tokens (numbered 0.. across the whole document, as the CoNLL reference scorer numbers them), the
sentence boundaries, per-token columns (POS, lemma, speaker, NE, extra columns), and its coreference
chains. A chain is a list of :class:`Mention` objects in the order the reference scorer builds it
(order of the closing bracket); chains are in the order their label is first seen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

Span = tuple[int, int]
"""A mention's (first token, last token), both inclusive, document-level token indices."""


@dataclass(slots=True)
class Mention:
    """One mention: an inclusive token span of a document, with its features.

    ``features`` hold what later analyses break scores down by: ``mtype`` (NAME / NOMINAL /
    PRONOUN), ``head_pos``, ``pos_class``, ``lemma``, ``ne``, ``sentence``, ``genre``, any extra
    input column, and for typed corpora ``link_type`` / ``etype``.
    """

    start: int
    end: int
    label: str = ""
    line: int = 0
    features: dict[str, str] = field(default_factory=dict)
    words: tuple[int, ...] | None = None
    """The token indices of a discontinuous mention (CorefUD ``e7[1/2]``), sorted; ``None`` for a
    contiguous mention, whose words are ``start..end``."""

    @property
    def span(self) -> Span:
        return (self.start, self.end)

    @property
    def ident(self) -> tuple:
        """What makes two mentions the same mention for the metrics: the span of a contiguous
        mention, ``(start, end, words)`` of a discontinuous one (so it never equals a span)."""
        return (self.start, self.end) if self.words is None else (self.start, self.end, self.words)

    @property
    def word_set(self) -> frozenset[int]:
        return frozenset(self.words) if self.words is not None else frozenset(range(self.start, self.end + 1))


@dataclass(slots=True)
class Chain:
    """A coreference chain (entity) with its label as written in the file."""

    label: str
    mentions: list[Mention] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.mentions)

    def __iter__(self) -> Iterator[Mention]:
        return iter(self.mentions)


@dataclass(slots=True)
class Document:
    """One document (CoNLL-2012: name + part) with tokens, sentences, columns and chains."""

    doc_id: str
    tokens: list[str] = field(default_factory=list)
    sentence_starts: list[int] = field(default_factory=list)
    columns: dict[str, list[str]] = field(default_factory=dict)
    chains: list[Chain] = field(default_factory=list)
    source: str = ""
    line: int = 0
    layers: dict[str, list[Chain]] = field(default_factory=dict)
    """Chains of layers other than coreference, by name (a Universal Anaphora file's
    ``non_referring`` expressions, one chain per ``-Pseudo`` entity; :mod:`corefreport.io.ua`)."""
    meta: dict[str, str] = field(default_factory=dict)
    """What the file says of the document as a whole: ``genre`` (CoNLL-U ``# meta::genre =`` or
    ``# genre =``, a JSON ``"genre"``)."""

    @property
    def mentions(self) -> list[Mention]:
        return [m for c in self.chains for m in c.mentions]

    @property
    def genre(self) -> str:
        """The genre the file gives (``meta``), else the document-id prefix CoNLL-2012 uses as genre
        (``bc/cnn/00/cnn_0001`` → ``bc/cnn``)."""
        given = self.meta.get("genre")
        if given:
            return given
        name = self.doc_id.split(";")[0].strip().lstrip("(").rstrip(")")
        parts = name.split("/")
        if len(parts) >= 3:
            return "/".join(parts[:2])
        if len(parts) == 2:
            return parts[0]
        if "_" in name:  # GUM_news_iodine → GUM_news
            return "_".join(name.split("_")[:2])
        return name or "-"

    def sentence_of(self, token: int) -> int:
        """Index of the sentence containing ``token`` (binary search over sentence starts)."""
        from bisect import bisect_right

        if not self.sentence_starts:
            return 0
        return max(0, bisect_right(self.sentence_starts, token) - 1)

    def sentence_bounds(self, index: int) -> tuple[int, int]:
        """(first token, last token) of sentence ``index``."""
        starts = self.sentence_starts or [0]
        first = starts[index]
        last = starts[index + 1] - 1 if index + 1 < len(starts) else len(self.tokens) - 1
        return first, last

    def text(self, start: int, end: int) -> str:
        return " ".join(self.tokens[start : end + 1])

    def lengths_differ(self, response: Document) -> str:
        """What is wrong when this key document and ``response`` have different numbers of tokens
        (the start of the pairing's and the alignment's error, :func:`~corefreport.scoring.align.check_tokens`)."""
        return (f"document {self.doc_id!r} has {len(self.tokens)} tokens in the key ({self.source}) but "
                f"{len(response.tokens)} in the response")


@dataclass(slots=True)
class Corpus:
    """Documents in input order, keyed by document id, plus reader warnings."""

    documents: dict[str, Document] = field(default_factory=dict)
    source: str = ""
    format: str = ""
    warnings: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.documents)

    def __iter__(self) -> Iterator[Document]:
        return iter(self.documents.values())


PART_RE = re.compile(r"^(.*); part (\d+)$")


def match_key(doc_id: str) -> tuple[str, int]:
    """``(NAME, N)`` of ``NAME; part N``; ``(ID, 0)`` of any other id: how a key's and a
    response's documents are paired, so ``GUM_bio_byron`` finds ``GUM_bio_byron; part 000``."""
    m = PART_RE.match(doc_id)
    if m:
        return m.group(1), int(m.group(2))
    return doc_id, 0
