"""The one caller of the readers: a :class:`~.plan.Source` (a path and its format) becomes document
pairs or a corpus, with the columns the settings need and the repeated-document rule they ask for.

Every command and shape reads through here, so no setting can be lost on the way for one shape
(``--repeated-documents`` once reached the plain pair but not ``--runs``, ``--datasets`` or
``compare``). The rules, in one place:

* **columns** — a run that sees only spans and words (the standard metrics with exact matching)
  keeps no other column; a run with features or analyses keeps them all on both sides; heads by
  rule 3a (``--match head|partial|…``) keep the key's head columns alone (:data:`HEAD_COLUMNS`);
* **repeated documents** — a document id written twice in one CoNLL-2012 file: ``last`` (as
  scorer.pl v8.01) or ``rename`` (``settings.repeated_documents``), on both sides, in every shape;
* **one key, several responses** — the key of several systems or runs is read once, whole
  (:class:`Key`), and each response is paired with it a document at a time;
* **one key, one response** — both read a document at a time (:func:`pairs`), so a pool's
  processes each parse only their own documents.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InputError
from ..io import FORMATS, MARKUP, expand, load_corpus
from ..io.clusters import Clusters, Tokens  # noqa: F401 (the API's types of clusters)
from ..io.clusters import corpus as clusters_corpus
from ..io.clusters import document as clusters_document
from ..io.pairs import CorpusPairs, DocumentPairs, Side
from ..io.streams import STDIN, is_stream
from ..model import Corpus
from ..scoring.settings import Settings

__all__ = ["FORMATS", "MARKUP", "STDIN", "HEAD_COLUMNS", "Key", "Source", "corpus", "clusters_corpus", "clusters_document",
           "columns", "expand", "is_stream", "pairs", "read_corpus", "CorpusPairs", "InputError", "file_text",
           "checked_corpus", "entity_brackets", "split_ante_pairs", "bridge_links", "response_corpus"]

@dataclass(frozen=True, slots=True)
class Source:
    """A corpus on disk as a command names it: a file, a directory, a quoted glob or ``-``
    (standard input), and its format (``None``: detected per file)."""

    path: str
    format: str | None = None

    @property
    def stem(self) -> str:
        """The name a system takes from its file: the file's stem (a directory's or a glob's own name)."""
        from pathlib import Path

        return Path(self.path).stem or Path(self.path).name


HEAD_COLUMNS = ("pos", "upos", "head", "parse")
"""The key's columns heads by rule 3a are read from (``scoring.matching.head_finder``), and the
parse bits of ``--match mina`` (``scoring.mina``)."""


def spans_only(settings: Settings) -> bool:
    """Whether the run sees only the mentions' spans and words (the standard metrics with exact
    matching): the readers then need not keep the other columns."""
    return (not settings.needs_features and not settings.analyses and settings.match == "exact"
            and not typed_strata(settings))


def typed_strata(settings: Settings) -> bool:
    """Whether ``--strata etype`` types each side's chains (from their mentions' columns)."""
    return any(s.partition(":")[0] == "etype" for s in settings.strata)


def columns(settings: Settings) -> tuple[object, object]:
    """The columns each side keeps under ``settings``: (key's, response's), each ``True`` (all),
    ``False`` (words and chains) or :data:`HEAD_COLUMNS`."""
    every = not spans_only(settings)
    if settings.needs_features or settings.analyses or settings.plink_by or typed_strata(settings):
        return every, every
    return (HEAD_COLUMNS if settings.match != "exact" else every), False


def _fmt(source: Source) -> str | None:
    return source.format


def pairs(key: Source, response: Source, settings: Settings) -> DocumentPairs:
    """The key/response document pairs of two sources, both read a document at a time where their
    format allows (:class:`~corefreport.io.pairs.DocumentPairs`); a response of windows
    (``--response-windows``) read whole and put back onto the key's documents."""
    if settings.response_windows:
        kc = read_corpus(key, settings, key=True)
        return CorpusPairs(kc, response_corpus(response, settings, kc))
    kcols, rcols = columns(settings)
    out = DocumentPairs(key.path, response.path, _fmt(key), _fmt(response), columns=not spans_only(settings),
                        repeated=settings.repeated_documents)
    out.key.columns, out.response.columns = kcols, rcols
    return out


def read_corpus(source: Source, settings: Settings, key: bool = False) -> Corpus:
    """The whole corpus of ``source`` (a key: gold JSON clusters only), with the settings' columns
    and repeated-document rule."""
    return load_corpus(source.path, _fmt(source), key=key, columns=columns(settings)[0 if key else 1] is not False,
                       repeated=settings.repeated_documents)


def response_corpus(source: Source, settings: Settings, key: Corpus) -> Corpus:
    """The whole response of ``source``; under ``--response-windows`` its window documents put back
    onto the documents of ``key`` whose words they cover (:func:`corefreport.io.windows.join_windows`)."""
    if not settings.response_windows:
        return read_corpus(source, settings)
    from ..io import load_markup
    from ..io.windows import join_windows

    if load_markup(source.path, _fmt(source)) is not None:
        raise InputError(source.path, None, "--response-windows puts documents with their own words back onto the "
                         "key's; markup text is read onto the key's words already: leave out --response-windows")
    return join_windows(key, read_corpus(source, settings))


def corpus(source: Source | str, key: bool = False, fmt: str | None = None) -> Corpus:
    """A corpus read whole with every column (the API's :func:`corefreport.load`)."""
    if isinstance(source, Source):
        source, fmt = source.path, source.format
    return load_corpus(source, fmt, key=key)


class Key:
    """A key read once, whole, for several responses (systems, runs): :meth:`pairs` pairs it with
    each response, which is read a document at a time where its format allows. The documents are
    shared, never changed (scoring annotates copies)."""

    def __init__(self, source: Source, settings: Settings) -> None:
        self.source = source
        self.settings = settings
        self.corpus = read_corpus(source, settings, key=True)

    def __len__(self) -> int:
        return len(self.corpus)

    def pairs(self, response: Source) -> DocumentPairs:
        """The pairs of this key and ``response``."""
        if self.settings.response_windows:
            return CorpusPairs(self.corpus, response_corpus(response, self.settings, self.corpus))
        side = Side(response.path, _fmt(response), columns=columns(self.settings)[1],
                    repeated=self.settings.repeated_documents)
        return DocumentPairs.__new__(DocumentPairs).with_sides(Side.of(self.corpus), side)

    def part(self, response: Corpus, ids: list[str]) -> DocumentPairs:
        """The pairs of the documents ``ids`` of this key and of ``response`` (a corpus in memory), in
        ``ids``' order (a document the response lacks is paired with nothing)."""
        from dataclasses import replace

        def of(c: Corpus) -> Corpus:
            return replace(c, documents={i: c.documents[i] for i in ids if i in c.documents}, warnings=[])

        return CorpusPairs(of(self.corpus), of(response))


# --------------------------------------------------------------------------- corefreport check


def file_text(path: str) -> tuple[str, str]:
    """(format, text) of one file as the readers see it (UTF-8, a BOM dropped; the format detected
    from the content): what ``corefreport check`` scans line by line."""
    from ..io import sniff
    from ..io.conll2012 import read_text

    text = read_text(path)
    return sniff(path, text), text


def checked_corpus(path: str, text: str, fmt: str) -> Corpus:
    """One file read whole with every column for ``corefreport check``; CoNLL-U with each word's
    line number (column ``line``) and its empty nodes (``layers["empty_nodes"]``)."""
    if fmt == "conllu":
        from ..io.conllu import read_conllu

        return read_conllu(path, text, lines=True)
    return load_corpus(path, fmt)


def entity_brackets(value: str):
    """The brackets of a CoNLL-U ``Entity=`` value (``None``: not bracket text), as the reader reads them."""
    from ..io.conllu import parse_entity

    return parse_entity(value)


def split_ante_pairs(value: str, path: str, line: int):
    """The (antecedent, plural entity) pairs of a ``SplitAnte=`` value; an :class:`InputError` when malformed."""
    from ..io.corefud_splitante import parse_split_ante

    return parse_split_ante(value, path, line)


def bridge_links(value: str, path: str, line: int):
    """The (anchor, anaphor, relation) links of a ``Bridge=`` value; an :class:`InputError` when malformed."""
    from ..io.corefud_bridge import parse_bridge

    return parse_bridge(value, path, line)
