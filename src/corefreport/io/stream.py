"""Documents one at a time: the readers' input for a run that scores document by document.

:class:`DocumentStream` names the same documents, in the same order and with the same reader
warnings, as :func:`~corefreport.io.load_corpus` on the same KEY or RESPONSE, but a CoNLL-2012
file is read a block at a time (:func:`~corefreport.io.conll2012.iter_conll2012`), so that only one
document of it is held at a time, and any of its documents can be read again from its byte offset
(:meth:`DocumentStream.read`) when key and response are not in the same order. JSON lines are read
a line (a document) at a time alike. Other formats (CoNLL-U, WebAnno TSV) are read whole by
:func:`~corefreport.io.load_corpus` and handed out one document at a time.

Errors may come in a different order than from :func:`~corefreport.io.load_corpus` (a document
of the response can fail before the end of the key is reached): a caller that wants the whole-file
semantics reads the files again with :func:`~corefreport.io.load_corpus` when a stream raises
:class:`~corefreport.errors.InputError`.
"""

from __future__ import annotations

from typing import Callable, Iterator

from ..errors import InputError
from ..model import Document

HEAD = 1 << 20
"""Bytes of a file that decide its format (:func:`~corefreport.io.detect.detect_format` reads the
first 200 lines and looks for a ``#begin document`` line)."""

Locator = tuple
"""Where a document is: ``(path, byte offset, line, doc id)`` of a streamed CoNLL-2012 file, or
``(document,)`` of one read whole."""


STREAMED = ("conll2012", "jsonlines")
"""The formats read a document at a time; the others are read whole."""


def _streamed_format(path: str) -> str | None:
    """The format of a file as :func:`~corefreport.io.detect.detect_format` would say on the whole
    file, decided from its head, when it is one of :data:`STREAMED` (else ``None``): JSON lines
    when the head says so (rule 1 reads the first character only); CoNLL-2012 when a ``#begin
    document`` line is in the first megabyte (and the first 200 lines, which the other rules read,
    inside it)."""
    from .detect import BEGIN_RE, detect_format

    try:
        with open(path, "rb") as f:
            data = f.read(HEAD + 1)
    except OSError:
        return None
    whole = len(data) <= HEAD
    head = data[:HEAD].decode("utf-8-sig", errors="ignore")
    fmt = detect_format(path, head)
    if fmt == "jsonlines":
        return fmt
    if fmt != "conll2012" or not BEGIN_RE.search(head) or (not whole and head.count("\n") < 200):
        return None
    return fmt


class DocumentStream:
    """The documents of KEY or RESPONSE (a file, a directory or a glob), read one at a time.

    ``fmt``: the format given on the command line (``None``: detected per file, as
    :func:`~corefreport.io.load_corpus` does). ``key``: the gold side. ``columns``: keep the
    per-token columns (``False`` for the standard metrics).
    """

    def __init__(self, spec: str, fmt: str | None = None, key: bool = False, columns: bool = False) -> None:
        from . import expand

        self.source = spec
        self.fmt = fmt
        self.key = key
        self.columns = columns
        self.files = expand(spec)
        self.formats = [_streamed_format(f) for f in self.files]
        self.streamed = (all(self.formats) and len(set(self.formats)) == 1
                         and (fmt is None or (len(self.files) == 1 and fmt == self.formats[0])))
        self.format = self.formats[0] if self.streamed else ""

    def documents(self, warnings: list[str], parse: Callable[[], bool] | None = None
                  ) -> Iterator[tuple[Document, Locator]]:
        """Every document in order with where it is; the reader warnings go to ``warnings``
        (complete once the iteration has ended). A document id given in two files is an
        :class:`InputError`. ``parse``, when given, is asked before each document of a streamed
        file whether to read it; the others come as their id and line alone (a process of a pool
        reads only its share, :mod:`corefreport.scoring.streaming`)."""
        if not self.streamed:
            from . import load_corpus

            corpus = load_corpus(self.source, self.fmt, key=self.key, columns=self.columns)
            self.format = corpus.format
            warnings.extend(corpus.warnings)
            for doc in corpus:
                yield doc, (doc,)
            return
        from .conll2012 import iter_conll2012
        from .jsonlines import iter_jsonlines

        seen_all: dict[str, str] = {}
        for path in self.files:
            seen: set[str] = set()
            if self.format == "jsonlines":  # every line is parsed: its doc_key is in the JSON
                docs = iter_jsonlines(path, warnings, self.key)
            else:
                docs = iter_conll2012(path, seen, warnings, self.columns, parse=parse)
            for doc, offset, line in docs:
                if doc.doc_id in seen_all and len(self.files) > 1:
                    raise InputError(path, doc.line, f"document id {doc.doc_id!r} is also in {seen_all[doc.doc_id]}")
                seen_all[doc.doc_id] = path
                yield doc, (path, offset, line, doc.doc_id)

    def __iter__(self) -> Iterator[Document]:
        return (doc for doc, _ in self.documents([]))

    def read(self, where: Locator) -> Document:
        """The document at ``where`` (from :meth:`documents`), read again."""
        if len(where) == 1:
            return where[0]
        path, offset, line, doc_id = where
        if self.format == "jsonlines":
            from .jsonlines import read_jsonlines_at

            return read_jsonlines_at(path, offset, line, doc_id, self.key)
        from .conll2012 import read_conll2012_at

        return read_conll2012_at(path, offset, line, doc_id, self.columns)

