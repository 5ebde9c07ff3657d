"""The input formats, one row each: its name (``--key-format``, ``--response-format``), its reader,
the file suffixes a directory is searched for, and what the rest of the pipeline needs to know of
it — read a document at a time (:class:`~.pairs.Side`), or LLM/seq2seq markup read onto the key's
words (a response only, :mod:`.markup`). A format is added here (and detected in :mod:`.detect`):
:func:`~corefreport.io.load_corpus` and the pairs read every format through this table.

>>> [f.name for f in TABLE if f.stream], [f.name for f in TABLE if f.markup]
(['conll2012', 'jsonlines'], ['text2text', 'brackets'])
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable

from ..model import Corpus


@dataclass(frozen=True)
class Format:
    """One input format (see the module docstring). ``reader``: ``module:function`` whose
    ``function(path, text, **options)`` reads a whole file into a :class:`Corpus`; ``options``: which
    of ``key`` (the gold side), ``columns`` (keep the per-token columns) and ``repeated`` (a
    document id written twice: ``last`` or ``rename``) it takes."""

    name: str
    reader: str
    suffixes: tuple[str, ...]
    options: tuple[str, ...] = ()
    stream: bool = False
    """Read a document at a time (and read again at an offset) when paired."""
    markup: bool = False
    """One document per line of markup text, read onto the key's words: a response only."""

    def read(self, path: str, text: str, *, key: bool = False, columns: bool = True, repeated: str = "last") -> Corpus:
        """The corpus of one file of this format."""
        given = {"key": key, "columns": bool(columns), "repeated": repeated}
        return self.function()(path, text, **{o: given[o] for o in self.options})

    def function(self) -> Callable[..., Corpus]:
        module, _, name = self.reader.partition(":")
        return getattr(importlib.import_module(module), name)


TABLE: tuple[Format, ...] = (
    Format("conll2012", "corefreport.io.conll2012:read_conll2012", (".conll", "_conll", ".conll2012"),
           ("columns", "repeated"), stream=True),
    Format("conllu", "corefreport.io.conllu:read_conllu", (".conllu",)),
    Format("jsonlines", "corefreport.io.jsonlines:read_jsonlines", (".jsonlines", ".jsonl", ".json"), ("key",),
           stream=True),
    Format("webanno", "corefreport.io.webanno:read_webanno", (".tsv",)),
    Format("text2text", "corefreport.io.markup:read_markup", (".txt",), markup=True),
    Format("brackets", "corefreport.io.markup:read_markup", (".txt",), markup=True),
    Format("ua", "corefreport.io.ua:read_ua", (".CONLLUA", ".conllua")),
)
"""Every format, in the order ``--key-format`` lists them."""

BY_NAME = {f.name: f for f in TABLE}
FORMATS = tuple(BY_NAME)
MARKUP = tuple(f.name for f in TABLE if f.markup)
"""Formats read onto the key's words (:mod:`.markup`): a response only."""
STREAMED = tuple(f.name for f in TABLE if f.stream)
"""The formats read a document at a time; the others are read whole."""
KNOWN_SUFFIXES = tuple(dict.fromkeys(s for f in TABLE for s in f.suffixes))
"""The files of a directory that are read (hidden files aside)."""


def format_of(name: str) -> Format:
    """The row of ``name``; an unknown name is a :class:`ValueError` naming the known ones."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown format {name!r} (choose one of {', '.join(FORMATS)})") from None
