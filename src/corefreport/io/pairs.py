"""Key and response documents as *pairs*, in key order: the one input of scoring.

Every run — one process or a pool, a file read a document at a time or a corpus in memory, the
command line, the browser or the report — scores the same sequence of items:

* one :class:`Pair` per key document, in key order, with its response document (``None``: the
  response lacks it, and the key document is scored against an empty response);
* then one :class:`Pair` without a key document for each response document that no key document
  took (it counts in the response's statistics and is reported as extra).

Pairing is by document id (``NAME; part N``; a response named ``NAME`` also matches ``NAME; part 0``,
:func:`match_key`). Two CoNLL-2012 documents paired although their names are written otherwise after
``#begin document`` (``(d);part 000`` and ``(d); part 000``) are named in a warning: scorer.pl v8.01
pairs by the name as written and would score the key document as missing (:func:`renamed_warning`). While the response names its documents in the key's order both sides are read
in step; at the first key document whose response is not the next one, the response's documents
are listed once with where each is (its ids only are read), and each later key document's response
is read from its place.

:class:`DocumentPairs` reads two files (or directories, or globs): CoNLL-2012 and JSON lines a
document at a time (memory flat in the corpus size), CoNLL-U and WebAnno TSV whole, and so is
standard input (``-``, for one side only), a pipe or a FIFO (it cannot be seeked). A process of a
pool asks for its *share* — every ``n``-th run of :data:`CHUNK` items — and parses only the
documents of its share (the others' ids are read, so every process pairs as the others do).
:func:`CorpusPairs` pairs two corpora already in memory (the library's ``evaluate(key,
response)``, tests) the same way. Both keep where each key and response document is, so a view can ask for a
document of a run that kept none (:meth:`DocumentPairs.document`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Callable

from ..errors import InputError
from ..model import Corpus, Document, match_key

CHUNK = 32
"""Items a process of a pool scores in a row before the next process's turn."""


@dataclass(slots=True)
class Pair:
    """A key document and its response (either may be ``None``, never both); ``index``: its
    place in the run's sequence of items."""

    index: int
    key: Document | None
    response: Document | None


@dataclass(slots=True)
class Reading:
    """What a pass over the pairs learns besides them: each side's reader warnings (complete when
    the pass has ended), the number of key items (key documents) and of all items."""

    key_warnings: list[str] = field(default_factory=list)
    response_warnings: list[str] = field(default_factory=list)
    key_documents: int = 0
    items: int = 0


Share = tuple[int, int]
"""``(k, n)``: process ``k`` of ``n`` — the runs of :data:`CHUNK` items whose number modulo ``n`` is ``k``."""


def in_share(index: int, share: Share) -> bool:
    """Whether item ``index`` is scored by process ``share[0]`` of ``share[1]``."""
    k, n = share
    return n == 1 or (index // CHUNK) % n == k


HEAD = 1 << 20
"""Bytes of a file that decide its format (:func:`~corefreport.io.detect.detect_format` reads the
first 200 lines and looks for a ``#begin document`` line)."""

from .formats import STREAMED  # noqa: E402 (the formats read a document at a time)

Locator = tuple
"""Where a document is: ``(path, byte offset, line, doc id)`` in a file read a document at a time,
``(document,)`` for one read whole."""


def _streamed_format(path: str) -> str | None:
    """The format of a file as :func:`~corefreport.io.detect.detect_format` says on the whole file,
    decided from its head, when it is one of :data:`STREAMED` (else ``None``)."""
    from .detect import BEGIN_RE, detect_format

    try:
        with open(path, "rb") as f:
            data = f.read(HEAD + 1)
    except OSError:
        return None
    whole = len(data) <= HEAD
    head = data[:HEAD].decode("utf-8-sig", errors="ignore")
    fmt = detect_format(path, head)
    if fmt == "jsonlines":  # a JSON array is read whole
        return None if head.lstrip("\ufeff \t\r\n").startswith("[") else fmt
    if fmt != "conll2012" or not BEGIN_RE.search(head) or (not whole and head.count("\n") < 200):
        return None
    return fmt


class Side:
    """The documents of KEY or RESPONSE (a file, a directory or a glob), in file order.

    ``fmt``: the format given on the command line (``None``: detected per file, as
    :func:`~corefreport.io.load_corpus` does). ``key``: the gold side. ``columns``: keep the
    per-token columns (``False`` when only spans are scored).
    """

    def __init__(self, spec: str, fmt: str | None = None, key: bool = False, columns: bool = True,
                 repeated: str = "last") -> None:
        from . import expand
        from .streams import is_stream

        self.source = spec
        self.fmt = fmt
        self.key = key
        self.columns = columns
        self.repeated = repeated
        self.repeats: dict[str, dict[str, list[int]]] = {}
        """Per CoNLL-2012 file read a document at a time, the ids it repeats (learnt on the first pass)."""
        self.files = expand(spec)
        # standard input, a pipe or a FIFO cannot be read twice or seeked: it is read whole (load)
        formats = [None if is_stream(f) else _streamed_format(f) for f in self.files]
        self.streamed = (all(formats) and len(set(formats)) == 1
                         and (fmt is None or (len(self.files) == 1 and fmt == formats[0])))
        self.format = formats[0] if self.streamed else ""
        self.corpus: Corpus | None = None
        self.markup: list | None = None
        """A markup response's documents (:mod:`.markup`), read onto the key's words when paired."""
        self.cutter = None
        """How a CoNLL-2012 document's columns are cut (:class:`~.conll2012.SharedColumns`, set by the pairs)."""

    @classmethod
    def of(cls, corpus: Corpus) -> Side:
        """The side of a corpus already in memory."""
        side = cls.__new__(cls)
        side.source, side.fmt, side.key, side.columns, side.files = corpus.source, corpus.format, False, True, []
        side.repeated, side.repeats = "last", {}
        side.streamed, side.format, side.corpus, side.markup, side.cutter = False, corpus.format, corpus, None, None
        return side

    def load(self) -> None:
        """Read a side that is not read a document at a time, once (a pool reads it before it forks)."""
        if not self.streamed and self.corpus is None:
            from . import load_corpus, load_markup

            if not self.key:
                found = load_markup(self.source, self.fmt)
                if found is not None:
                    self.format, self.markup = found
                    self.corpus = Corpus(source=self.source, format=self.format)
                    return
            self.corpus = load_corpus(self.source, self.fmt, key=self.key, columns=self.columns,
                                      repeated=self.repeated)
            self.format = self.corpus.format

    def documents(self, warnings: list[str], parse: Callable[[], bool] | None = None
                  ) -> Iterator[tuple[Document, Locator]]:
        """Every document in order with where it is; the reader warnings go to ``warnings``
        (complete once the iteration has ended). ``parse``, when given, is asked before each
        document of a file read a document at a time whether to read it; the others come as their
        id and line alone. A document id given in two files is an :class:`InputError`."""
        if not self.streamed:
            self.load()
            warnings.extend(self.corpus.warnings)
            for doc in self.corpus:
                yield doc, (doc,)
            return
        from .conll2012 import LAST, iter_conll2012, repeated_ids
        from .jsonlines import iter_jsonlines

        seen_all: dict[str, str] = {}
        for path in self.files:
            if self.format == "jsonlines":  # every line is parsed: its doc_key is in the JSON
                docs = iter_jsonlines(path, warnings, self.key)
            else:
                if self.repeated == LAST and path not in self.repeats:
                    self.repeats[path] = repeated_ids(path)
                docs = iter_conll2012(path, {}, warnings, self.columns, parse=parse, repeated=self.repeated,
                                      last=self.repeats.get(path), cutter=self.cutter)
            for doc, offset, line in docs:
                if doc.doc_id in seen_all and len(self.files) > 1:
                    raise InputError(path, doc.line, f"document id {doc.doc_id!r} is also in {seen_all[doc.doc_id]}")
                seen_all[doc.doc_id] = path
                yield doc, (path, offset, line, doc.doc_id)

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


class _Index:
    """Every response document in file order with where it is (its ids only read), after the
    response left the key's order."""

    def __init__(self, response: Side) -> None:
        self.where: dict[str, Locator] = {}
        self.by_norm: dict[tuple[str, int], str] = {}
        self.names: dict[str, tuple[str, str, int]] = {}
        """Each document's name as written (:func:`written`), its file and line."""
        self.warnings: list[str] = []
        """The reader warnings of the whole response."""
        for doc, where in response.documents(self.warnings, lambda: False):
            self.where[doc.doc_id] = where
            self.by_norm.setdefault(match_key(doc.doc_id), doc.doc_id)
            self.names[doc.doc_id] = (written(doc), doc.source, doc.line or 0)

    def find(self, doc_id: str) -> str | None:
        return doc_id if doc_id in self.where else self.by_norm.get(match_key(doc_id))


class Documents(Mapping[str, Document]):
    """One side's documents by id, each read when first asked for (for views of a run that kept
    no document: the report's examples); the places are those the last pass found."""

    def __init__(self, side: Side, places: dict[str, Locator]) -> None:
        self.side, self.places = side, places
        self.cache: dict[str, Document] = {}

    def __getitem__(self, doc_id: str) -> Document:
        doc = self.cache.get(doc_id)
        if doc is None:
            doc = self.cache[doc_id] = self.side.read(self.places[doc_id])
        return doc

    def __iter__(self) -> Iterator[str]:
        return iter(self.places)

    def __len__(self) -> int:
        return len(self.places)


class DocumentPairs:
    """The pairs of a KEY and a RESPONSE given as paths (see the module docstring)."""

    def __init__(self, key: str, response: str, key_format: str | None = None, response_format: str | None = None,
                 columns: bool = True, repeated: str = "last") -> None:
        from .streams import STDIN, STDIN_NAME

        if key == STDIN and response == STDIN:
            raise InputError(STDIN_NAME, None, "standard input ('-') can be KEY or RESPONSE, not both")
        self.with_sides(Side(key, key_format, key=True, columns=columns, repeated=repeated),
                        Side(response, response_format, columns=columns, repeated=repeated))

    def with_sides(self, key: Side, response: Side) -> DocumentPairs:
        self.key, self.response = key, response
        self.places: tuple[dict[str, Locator], dict[str, Locator]] = ({}, {})
        self.markup_policy = "organisers"
        self.ceiling_side = False
        self.round_trip_side = False
        self.reductions: dict[str, dict[str, int]] = {}
        """The round trip's pairs (:meth:`round_trip`): what it changed in each key document."""
        self.read_markup: dict[int, tuple] = {}
        """A markup response: key item → (response document, ceiling document, diagnostics)."""
        return self

    @property
    def markup(self) -> bool:
        """Whether the response is markup text read onto the key's words (known after :meth:`prepare`)."""
        return self.response.markup is not None and not self.round_trip_side

    @property
    def round_trips(self) -> bool:
        """Whether the response went through text2text-coref's conversion: markup, or its JSON
        (``doc_id``, ``tokens``, ``clusters_token_offsets``; known after :meth:`prepare`)."""
        if self.round_trip_side or self.ceiling_side:
            return False
        if self.response.markup is not None:
            return True
        corpus = self.response.corpus
        return corpus is not None and any(d.meta.get("format") == "text2text" for d in corpus)

    def round_trip(self) -> DocumentPairs:
        """The pairs of each key document and its round trip through text2text-coref's conversion
        (the round-trip ceiling's pairs): its JSON read back (:func:`.roundtrip.round_trip`), or for
        a markup response its markup (:func:`.markup.key_markup`) read back onto its own words;
        after a pass, ``reductions`` holds what each lost (:func:`.roundtrip.losses`)."""
        other = DocumentPairs.__new__(DocumentPairs).with_sides(self.key, self.response)
        other.round_trip_side = True
        other.markup_policy = self.markup_policy
        return other

    def ceiling(self) -> DocumentPairs:
        """The pairs of the key and the alignment ceiling of a markup response (:mod:`.markup`)."""
        other = DocumentPairs.__new__(DocumentPairs).with_sides(self.key, self.response)
        other.markup_policy, other.ceiling_side, other.read_markup = self.markup_policy, True, self.read_markup
        return other

    def diagnostics(self) -> list[tuple[str, object]]:
        """Each markup document's :class:`~.markup.Diagnostics`, in key order, by document id."""
        return [(v[0].doc_id, v[2]) for _, v in sorted(self.read_markup.items())]

    def _markup_pairs(self, reading: Reading) -> Iterator[Pair]:
        """A markup response's line ``k`` read onto key document ``k`` (no ids: by position)."""
        from .markup import read_onto_key

        docs = self.response.markup
        kplaces = self.places[0]
        i = -1
        for i, (kd, kwhere) in enumerate(self.key.documents(reading.key_warnings)):
            kplaces[kd.doc_id] = kwhere
            rd = None
            if i < len(docs):
                if i not in self.read_markup:
                    rdoc, cdoc, diag, warnings = read_onto_key(docs[i], kd, self.markup_policy)
                    self.read_markup[i] = (rdoc, cdoc, diag, warnings)
                rdoc, cdoc, diag, warnings = self.read_markup[i]
                if not self.ceiling_side:
                    reading.response_warnings.extend(warnings)
                rd = cdoc if self.ceiling_side else rdoc
                self.places[1][rd.doc_id] = (rd,)
            yield Pair(i, kd, rd)
        reading.key_documents = i + 1
        reading.items = i + 1
        if len(docs) > i + 1:
            extra = docs[i + 1]
            raise InputError(extra.source, extra.line, f"the markup response has {len(docs)} documents (lines), the "
                             f"key {i + 1}: line k is read as the key's document k, so the counts must agree")
        if len(docs) < i + 1 and not self.ceiling_side:
            reading.response_warnings.append(f"{self.response.source}: the markup response has {len(docs)} "
                                             f"documents (lines), the key {i + 1}: the key's last {i + 1 - len(docs)} "
                                             "are scored against no response")

    @property
    def sources(self) -> tuple[str, str]:
        return self.key.source, self.response.source

    @property
    def formats(self) -> tuple[str, str]:
        """The two sides' formats (known once a pass began, or :meth:`prepare` ran)."""
        if self.round_trip_side:
            return self.key.format, self.key.format
        return self.key.format, self.response.format

    def prepare(self, markup_policy: str | None = None) -> None:
        """Read what is read whole, before a pool forks (its processes then share it);
        ``markup_policy``: how a markup response is read (:data:`.markup.POLICIES`)."""
        self.key.load()
        self.response.load()
        if markup_policy is not None and markup_policy != self.markup_policy:
            self.markup_policy = markup_policy
            self.read_markup.clear()

    def pairs(self, reading: Reading, share: Share = (0, 1)) -> Iterator[Pair]:
        """The items of ``share`` in order (every item's place is counted in ``reading``; the
        documents of other shares are not parsed)."""
        key, response = self.key, self.response
        if self.round_trip_side:  # each key document and its round trip, in one process
            from .roundtrip import losses, round_trip

            i = -1
            for i, (kd, kwhere) in enumerate(key.documents(reading.key_warnings)):
                self.places[0][kd.doc_id] = kwhere
                self.reductions[kd.doc_id] = losses(kd)
                if response.markup is not None:  # the key's own markup read back onto its words
                    from .markup import MarkupDocument, key_markup, read_onto_key

                    rd = read_onto_key(MarkupDocument(kd.source, kd.line or 0, key_markup(kd)), kd, self.markup_policy,
                                       ceiling=False)[0]
                else:
                    rd = round_trip(kd)
                self.places[1][kd.doc_id] = (rd,)
                yield Pair(i, kd, rd)
            reading.key_documents = reading.items = i + 1
            return
        if response.markup is not None:  # read whole, scored in one process
            yield from self._markup_pairs(reading)
            return
        key.cutter = response.cutter = None
        if key.streamed and response.streamed and key.format == response.format == "conll2012" and key.columns \
                and response.columns:  # response document i, read just after key document i, may take its columns
            from .conll2012 import SharedColumns

            shared = SharedColumns()
            key.cutter, response.cutter = shared.key, shared.response
        mine = (lambda i: in_share(i, share))
        kcount, rcount = [0], [0]

        def kparse() -> bool:
            kcount[0] += 1
            return mine(kcount[0] - 1)

        def rparse() -> bool:  # in step, response document i goes with key document i
            rcount[0] += 1
            return mine(rcount[0] - 1)

        pool = share[1] > 1
        kplaces, rplaces = self.places
        response_docs = response.documents(reading.response_warnings, rparse if pool else None)
        index: _Index | None = None
        used: set[str] = set()
        renamed: list[tuple[str, str, int, str, str, int]] = []
        names: bool | None = None  # both sides CoNLL-2012 (known once each side has begun)
        i = -1
        for i, (kd, kwhere) in enumerate(key.documents(reading.key_warnings, kparse if pool else None)):
            kplaces[kd.doc_id] = kwhere
            rd: Document | None = None
            rname: tuple[str, str, int] | None = None
            if index is None:
                nxt = next(response_docs, None)
                if nxt is not None and nxt[0].doc_id == kd.doc_id:
                    rd = nxt[0]
                    rplaces[rd.doc_id] = nxt[1]
                    used.add(rd.doc_id)
                    rname = (written(rd), rd.source, rd.line or 0)
                else:
                    response_docs.close()
                    index = _Index(response)
                    rplaces.update(index.where)
                    reading.response_warnings[:] = index.warnings
            if index is not None:
                rid = index.find(kd.doc_id)
                rd = None
                if rid is not None:
                    used.add(rid)
                    rname = index.names[rid]
                    if mine(i):
                        rd = response.read(index.where[rid])
            if names is None:
                names = key.format == response.format == "conll2012"
            if names and rname is not None and rname[0] != written(kd):
                renamed.append((written(kd), kd.source, kd.line or 0, *rname))
            if mine(i):
                if rd is not None and len(kd.tokens) != len(rd.tokens):
                    _repeated_copy(kd, rd, reading)
                yield Pair(i, kd, rd)
        reading.key_documents = i + 1
        reading.response_warnings.extend(renamed_warning(renamed))
        j = i
        if index is None:  # in step to the end: the response documents after the key's last are extra
            for j, (rd, rwhere) in enumerate(response_docs, start=i + 1):
                rplaces[rd.doc_id] = rwhere
                if mine(j):
                    yield Pair(j, None, rd)
        else:
            for rid, where in index.where.items():
                if rid not in used:
                    j += 1
                    if mine(j):
                        yield Pair(j, None, response.read(where))
        reading.items = j + 1

    def documents(self) -> tuple[Mapping[str, Document], Mapping[str, Document]]:
        """The key's and the response's documents by id, read when asked for (after a pass)."""
        return Documents(self.key, self.places[0]), Documents(self.response, self.places[1])


def written(doc: Document) -> str:
    """A CoNLL-2012 document's name as written after ``#begin document`` (what scorer.pl pairs by)."""
    from .conll2012 import written_name

    return doc.meta.get("name") or written_name(doc.doc_id)


def renamed_warning(renamed: list[tuple[str, str, int, str, str, int]]) -> list[str]:
    """The warning on key and response documents paired although their names are written otherwise
    (each ``(key name, key file, line, response name, response file, line)``), naming the first three.

    >>> renamed_warning([("(d); part 000", "k.conll", 1, "(d);part 000", "r.conll", 1)])[0][:94]
    "1 response document(s) paired with a key document whose name is written otherwise: '(d);part 0"
    """
    if not renamed:
        return []
    shown = "; ".join(f"{r!r} ({rf}:{rl}) with {k!r} ({kf}:{kl})" for k, kf, kl, r, rf, rl in renamed[:3])
    return [f"{len(renamed)} response document(s) paired with a key document whose name is written otherwise: "
            f"{shown}{' …' if len(renamed) > 3 else ''}; scorer.pl v8.01 pairs documents by the name as written after "
            "'#begin document' and would score such a key document as missing (docs/formats.md)"]


def _repeated_copy(kd: Document, rd: Document, reading: Reading) -> None:
    """An :class:`InputError` when a key and a response document of different lengths are the last
    copy of an id their file writes more than once (of which only the last is read, as scorer.pl
    v8.01): the repetition is the likelier cause, and its warning would never be printed."""
    from .conll2012 import repeat_warning_of

    for side, doc, warnings in (("key", kd, reading.key_warnings), ("response", rd, reading.response_warnings)):
        note = repeat_warning_of(warnings, doc)
        if note is not None:
            raise InputError(doc.source, doc.line, f"{kd.lengths_differ(rd)} ({rd.source}), and the {side} {note}")


def CorpusPairs(key: Corpus, response: Corpus) -> DocumentPairs:
    """The pairs of two corpora in memory: the same items as :class:`DocumentPairs` gives for the
    files they were read from."""
    return DocumentPairs.__new__(DocumentPairs).with_sides(Side.of(key), Side.of(response))
