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

from pathlib import Path

from ..model import Corpus
from .conll2012 import read_share, read_text


class Shares:
    """The key and the response, each one CoNLL-2012 file, ready to be read in shares."""

    def __init__(self, key: str, response: str, key_path: str, response_path: str) -> None:
        self.key, self.response = key, response
        self.key_path, self.response_path = key_path, response_path
        self.key_text, self.response_text = read_text(key_path), read_text(response_path)

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
        return (kc, rc) if key_ids == response_ids else None
