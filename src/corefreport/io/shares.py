"""A key and a response CoNLL-2012 file read in *shares*: runs of consecutive documents, one per
process of a pool (:mod:`corefreport.scoring.shares`).

Both files are read from disk once, before the pool forks; each process then parses only its
share's documents (:func:`~.conll2012.read_share`): the key's documents whose ``#begin document``
line lies in its part of the file (the file cut into equal numbers of characters, so that shares
are about equally long), and the response's documents at the same places. That pairs them only
while the response names the key's documents in the key's order; otherwise :meth:`Shares.read`
says so (``None``) and the run is read whole.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from ..model import Corpus, Document
from .conll2012 import read_share, read_text, scan_documents


class Shares:
    """The key and the response, each one CoNLL-2012 file, ready to be read in shares."""

    def __init__(self, key: str, response: str, key_path: str, response_path: str) -> None:
        self.key, self.response = key, response
        self.key_path, self.response_path = key_path, response_path
        self.key_text, self.response_text = read_text(key_path), read_text(response_path)
        self.first: tuple[Corpus, Corpus] | None = None

    @classmethod
    def of(cls, key: str, response: str, key_format: str | None, response_format: str | None) -> Shares | None:
        """Both sides read from disk when each is one CoNLL-2012 file; else ``None`` (the run is
        read whole by :func:`~corefreport.io.load_corpus`)."""
        from . import sniff

        if not (Path(key).is_file() and Path(response).is_file()):
            return None
        shares = cls(key, response, str(Path(key)), str(Path(response)))
        for fmt, path, text in ((key_format, shares.key_path, shares.key_text),
                                (response_format, shares.response_path, shares.response_text)):
            if (fmt or sniff(path, text)) != "conll2012":
                return None
        return shares

    def read(self, k: int, n: int) -> tuple[Corpus, Corpus] | None:
        """Share ``k`` of ``n``: the key's documents that begin in the ``k``-th ``n``-th of the
        key file and the response's documents at the same places, each corpus with its reader's
        warnings about the whole file; ``None`` when the response does not name the key's
        documents in the key's order."""
        size = len(self.key_text)
        lo, hi = k * size // n, (k + 1) * size // n if k < n - 1 else size + 1
        picked: set[int] = set()

        def mine(i: int, offset: int) -> bool:
            if lo <= offset < hi:
                picked.add(i)
                return True
            return False

        kc, key_ids = read_share(self.key_path, self.key_text, mine, source=self.key)
        rc, response_ids = read_share(self.response_path, self.response_text, lambda i, _: i in picked,
                                      source=self.response)
        if key_ids != response_ids:
            return None
        if k == 0:
            self.first = (kc, rc)
        return kc, rc

    def corpora(self) -> tuple[Corpus, Corpus]:
        """The key and the response whose documents are read when first asked for
        (:class:`LazyDocuments`; those of the first share, read already, are kept): for views that
        show a few documents of a run scored in shares (the report's error examples)."""
        kc, rc = self.first if self.first is not None else (Corpus(), Corpus())
        return (Corpus(LazyDocuments(self.key_path, self.key_text, kc.documents), self.key, "conll2012"),
                Corpus(LazyDocuments(self.response_path, self.response_text, rc.documents), self.response,
                       "conll2012"))


class LazyDocuments(Mapping[str, Document]):
    """The documents of one CoNLL-2012 file by id, each read (as :func:`~.conll2012.read_share`
    reads it) when first asked for; ``known`` documents are taken as they are. The file's document
    ids and places are found by one pass over its ``#`` lines at the first miss."""

    def __init__(self, path: str, text: str, known: dict[str, Document]) -> None:
        self.path, self.text = path, text
        self.known = dict(known)
        self.places: dict[str, tuple[int, int, int]] | None = None  # id → (text from, to, line before)

    def _index(self) -> dict[str, tuple[int, int, int]]:
        if self.places is None:
            offsets: list[int] = []
            docs = list(scan_documents(self.path, self.text, set(), [], columns=False, offsets=offsets,
                                       parse=lambda: False))
            ends = offsets[1:] + [len(self.text)]
            self.places = {d.doc_id: (a, b, d.line - 1) for d, a, b in zip(docs, offsets, ends)}
        return self.places

    def __getitem__(self, doc_id: str) -> Document:
        doc = self.known.get(doc_id)
        if doc is not None:
            return doc
        a, b, before = self._index()[doc_id]  # KeyError: not a document of the file
        doc = next(scan_documents(self.path, self.text[a:b], set(), [], line_base=before, intern_words=False))
        doc.doc_id = doc_id  # a repeated id, renamed in the file's order
        self.known[doc_id] = doc
        return doc

    def __iter__(self) -> Iterator[str]:
        return iter(self._index())

    def __len__(self) -> int:
        return len(self._index())
