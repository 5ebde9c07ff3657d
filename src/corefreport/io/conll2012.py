"""Reader for CoNLL-2012 (``*_conll``) files with the reference scorer's semantics.

* ``#begin document (NAME); part NNN`` … ``#end document``; also ``# begin document NAME`` without
  parentheses or part. Several documents per file; a document id written twice gives its last copy,
  as scorer.pl v8.01 reads it, with a warning (:data:`REPEATED`; ``rename`` keeps every copy).
* Tokens are numbered across the whole document (mentions may cross sentences); a blank line ends a
  sentence; comment lines (``#…``) inside a document are not tokens (the reference counts them and
  shifts every index after them — we do not).
* Columns are split on TAB when the line has one, else on runs of spaces (the reference splits on TAB
  only and then mis-reads space-aligned files).
* The coreference annotation is the last non-empty column, as scorer.pl reads it (TABs or spaces
  after it are ignored, on the first line of a document as on any other): ``(n``, ``n)``, ``(n)``, joined by ``|`` or not
  (``(1(3``); labels may be any text without brackets or ``|`` (``person-12-Lord_Byron``); ``-``,
  ``_`` or an empty cell mean "no mention". ``(n+m)`` split-antecedent marks are dropped as the
  reference does. Within a cell, one-token mentions are taken first, then openings, then closings,
  each left to right — the reference's order, which fixes chain order and thus which copy of a
  repeated mention is kept.
* Column layouts: 3 columns (index, word, coref); CoNLL-2012 (≥ 12 columns: word 4, POS 5, parse bits 6
  (``parse``, for ``--match mina``), lemma 7,
  speaker 10, NE 11, extra columns 12.., coref last); CoNLL-U-plus (first column a CoNLL-U ID:
  FORM 2, LEMMA 3, UPOS 4, XPOS 5, coref last); other widths: word in column 4 (the reference test
  files), POS in column 5 when there are at least 6 columns. The layout is the first token line's;
  a line of another width is read too (its last field is its annotation, as scorer.pl reads it;
  a line too short to have the word column has the word ``""``).
"""

from __future__ import annotations

import re
from sys import intern
from bisect import bisect_left
from itertools import compress, repeat
from operator import itemgetter, ne, not_
from pathlib import Path
from typing import Callable, Iterator

from ..model import Chain, Corpus, Document, Mention
from ..errors import InputError

BEGIN_RE = re.compile(r"^#\s*begin document\s*(.*?)\s*$")
WRITTEN_RE = re.compile(r"^#\s*begin document (.*)$")
r"""The name as scorer.pl v8.01 takes it (``GetFileNames``: ``/^#\s*begin document (.*?)$/`` on the
line without its CR) and pairs key and response documents by, spaces and all."""
END_RE = re.compile(r"^#\s*end document")
NAME_PART_RE = re.compile(r"^\((.*)\)\s*;?\s*(?:part\s+(\d+))?\s*$")
CELL_SPLIT_RE = re.compile(r"([()|])")
DELIMITERS = frozenset("()|")
SPLIT_ANTE_RE = re.compile(r"\([^()|]*\+[^()|]*\)")
CONLLU_ID_RE = re.compile(r"^\d+(?:[-.]\d+)?$")
EMPTY_CELLS = frozenset(("", "-", "_"))
NO_MENTION_ENDS = ("\t-", "\t_")
LAST, RENAME, ALL = "last", "rename", "all"
REPEATED = (LAST, RENAME)
"""What a document id written twice in one file gives: ``last`` (default), only its last copy is read,
as scorer.pl v8.01 reads it (``GetFileNames`` keeps the last offset of each name, both for the key
and for the response); ``rename``: every copy, the second as ``ID#2`` (and so on), each scored as
a document of its own. (``all``: every copy under its own id, for a scan of the ids alone.)"""


def written_name(doc_id: str) -> str:
    """The usual way of writing id ``doc_id`` after ``#begin document``: ``(NAME); part N`` for
    ``NAME; part N``, else the id. A document written otherwise keeps what it wrote as
    ``Document.meta["name"]`` (the pairing warns when scorer.pl would not pair two documents).

    >>> written_name("bc/cnn/00/cnn_0004; part 000"), written_name("GUM_bio_byron")
    ('(bc/cnn/00/cnn_0004); part 000', 'GUM_bio_byron')
    """
    name, sep, part = doc_id.rpartition("; part ")
    return f"({name}); part {part}" if sep and part.isdigit() else doc_id


def document_id(raw: str, fallback: str) -> str:
    """Canonical id from the text after ``begin document``: ``NAME`` or ``NAME; part N``.

    ``(bc/cnn/00/cnn_0004); part 000`` → ``bc/cnn/00/cnn_0004; part 000``; ``GUM_bio_byron`` → itself;
    an empty name takes ``fallback`` (the file's stem), as OntoGUM's files need.
    """
    raw = raw.strip()
    m = NAME_PART_RE.match(raw)
    if m:
        name, part = m.group(1).strip(), m.group(2)
        name = name or fallback
        return f"{name}; part {part}" if part is not None else name
    return raw or fallback


def _layout(ncols: int, first: str) -> dict[str, int]:
    """Column indices of word/pos/lemma/speaker/ne for a line of ``ncols`` columns."""
    if ncols <= 2:
        return {"word": 0}
    if ncols == 3:
        return {"word": 1}
    if ncols >= 11 and CONLLU_ID_RE.match(first):
        return {"word": 1, "lemma": 2, "upos": 3, "pos": 4}
    if ncols == 4:
        return {"word": 1}
    lay = {"word": 3}
    if ncols >= 6:
        lay["pos"] = 4
    if ncols >= 12:
        lay.update(parse=5, lemma=6, speaker=9, ne=10)
    return lay


def parse_coref_cell(cell: str) -> tuple[list[str], list[str], list[str]] | None:
    """Split one coreference cell into (one-token labels, opened labels, closed labels).

    Returns ``None`` when the cell holds text that is not bracket notation.
    """
    if "+" in cell:
        cell = SPLIT_ANTE_RE.sub("", cell)
    if "|" not in cell:  # fast paths for the common one-bracket cells
        n_open, n_close = cell.count("("), cell.count(")")
        if n_open == 1 and n_close == 1 and cell[0] == "(" and cell[-1] == ")" and len(cell) > 2:
            return [cell[1:-1].strip()], [], []
        if n_open == 1 and n_close == 0 and cell[0] == "(" and len(cell) > 1:
            return [], [cell[1:].strip()], []
        if n_open == 0 and n_close == 1 and cell[-1] == ")" and len(cell) > 1:
            return [], [], [cell[:-1].strip()]
    singles: list[str] = []
    opens: list[str] = []
    closes: list[str] = []
    # one left-to-right pass over the cell cut at its delimiters: linear in the cell's length (a
    # regular expression tried at every offset took quadratic time on a long cell without brackets)
    parts = [p for p in CELL_SPLIT_RE.split(cell) if p]
    k, n = 0, len(parts)
    while k < n:
        p = parts[k]
        if p == "(":
            label = parts[k + 1] if k + 1 < n else ""
            if label in DELIMITERS or not label:
                return None  # "(" before a delimiter or at the end: not bracket notation
            if k + 2 < n and parts[k + 2] == ")":
                singles.append(label.strip())
                k += 3
            else:
                opens.append(label.strip())
                k += 2
        elif p == ")":
            return None  # ")" with no label before it
        elif p == "|":
            k += 1
        elif k + 1 < n and parts[k + 1] == ")":
            closes.append(p.strip())
            k += 2
        elif p.strip("| "):
            return None  # text between brackets
        else:
            k += 1
    return singles, opens, closes


SINGLE, OPEN, CLOSE = 0, 1, 2
CELL_OPS_MAX = 1 << 16
_CELL_OPS: dict[str, tuple[tuple[int, str], ...]] = {}


def _cell_ops(cell: str) -> tuple[tuple[int, str], ...] | None:
    """The bracket operations of one coreference cell as written: ``(SINGLE|OPEN|CLOSE, label)``
    in the reference's order (one-token mentions, then openings, then closings, each left to
    right); ``()`` for a cell without a mention; ``None`` for text that is not bracket notation.
    Remembered (a corpus repeats the same few thousand cells; the memory is emptied past
    :data:`CELL_OPS_MAX` cells)."""
    stripped = cell.strip()
    if cell in EMPTY_CELLS or stripped in EMPTY_CELLS:
        ops: tuple[tuple[int, str], ...] = ()
    else:
        parsed = parse_coref_cell(stripped)
        if parsed is None:
            return None
        singles, opens, closes = parsed
        ops = tuple([(SINGLE, x) for x in singles] + [(OPEN, x) for x in opens] + [(CLOSE, x) for x in closes])
    if len(_CELL_OPS) >= CELL_OPS_MAX:
        _CELL_OPS.clear()
    _CELL_OPS[cell] = ops
    return ops


SCORER_PL_RES = (re.compile(r"\((\d+)\)"), re.compile(r"\((\d+)"), re.compile(r"(\d+)\)"))
SPACED_NOTE = "read as scorer.pl v8.01 reads that TAB-separated field"


def scorer_pl_ops(field: str) -> tuple[tuple[int, str], ...] | None:
    """The bracket operations scorer.pl v8.01 finds in a last TAB-separated field that holds a space
    before the annotation (``* (1)``, a parse bit and the coreference column joined by a space):
    ``GetCoreference`` drops ``(n+m)``, then takes ``(n)``, then ``(n``, then ``n)`` wherever they are
    in the field, digits only, each removed as found. ``None`` when the field's last word is not
    bracket notation or ``-``/``_`` (not such a line: an error, as any unreadable cell).

    >>> scorer_pl_ops("* (1)"), scorer_pl_ops("*) 3)|(4"), scorer_pl_ops("* -")
    (((0, '1'),), ((1, '4'), (2, '3')), ())
    >>> scorer_pl_ops("John Smith") is None
    True
    """
    pieces = field.split()
    if len(pieces) < 2 or _cell_ops(pieces[-1]) is None:
        return None
    s = SPLIT_ANTE_RE.sub("", field)
    ops: list[tuple[int, str]] = []
    for kind, rx in zip((SINGLE, OPEN, CLOSE), SCORER_PL_RES):
        while (m := rx.search(s)) is not None:
            ops.append((kind, m.group(1)))
            s = s[:m.start()] + s[m.end():]
    return tuple(ops)


def _hash_lines(text: str):
    """(start, end) offsets of every line that begins with '#', found with str.find (C speed)."""
    pos = 0 if text.startswith("#") else text.find("\n#")
    if pos > 0:
        pos += 1
    while pos >= 0:
        end = text.find("\n", pos)
        if end < 0:
            end = len(text)
        yield pos, end
        nxt = text.find("\n#", end)
        pos = nxt + 1 if nxt >= 0 else -1


def read_conll2012(path: str | Path, text: str | None = None, columns: bool = True, repeated: str = LAST) -> Corpus:
    """Read every document of one CoNLL-2012-style file into a :class:`Corpus`.

    The file is cut into documents by a regex over its ``#`` lines (begin, end, comments), so that
    only the token lines of each document are visited one by one. ``columns=False``: keep only
    the words and the chains, not the token lines the other columns are cut from on demand
    (enough for the standard metrics, and the corpus then takes about half the memory).
    ``repeated``: what a document id written twice gives (:data:`REPEATED`).
    """
    path = str(path)
    if text is None:
        text = read_text(path)
    check_line_ends(path, text)
    corpus = Corpus(source=path, format="conll2012")
    last = None
    if repeated == LAST:
        last = last_copies(scan_documents(path, text, {}, [], parse=lambda: False, repeated=ALL))
    for doc in scan_documents(path, text, {}, corpus.warnings, columns=columns, repeated=repeated, last=last):
        corpus.documents[doc.doc_id] = doc
    return corpus


def last_copies(docs) -> dict[str, list[int]]:
    """``{doc id: [begin line of each copy]}`` for the ids written more than once among ``docs``
    (documents, or ``(document, offset, line)`` items)."""
    lines: dict[str, list[int]] = {}
    for doc in docs:
        doc = doc[0] if isinstance(doc, tuple) else doc
        lines.setdefault(doc.doc_id, []).append(doc.line)
    return {k: v for k, v in lines.items() if len(v) > 1}


def _repeat_warning(path: str, doc_id: str, lines: list[int]) -> str:
    """The warning of an id written at ``lines`` of ``path`` of which only the last copy is read."""
    def listed(xs: list[int]) -> str:
        return " and ".join(filter(None, (", ".join(map(str, xs[:-1])), str(xs[-1]))))

    earlier = lines[:-1]
    ignored = (f"the copy at line {earlier[0]} is ignored" if len(earlier) == 1
               else f"the copies at lines {listed(earlier)} are ignored")
    return (f"{path}:{lines[-1]}: document id {doc_id!r} is written {len(lines)} times (#begin document at lines "
            f"{listed(lines)}): only this last copy (line {lines[-1]}) is scored, as scorer.pl v8.01 does; {ignored} "
            "(--repeated-documents rename scores each copy)")


def repeat_warning_of(warnings: list[str], doc: Document) -> str | None:
    """What :func:`_repeat_warning` said of ``doc`` (the last copy of a repeated id), without its
    ``FILE:LINE:``, if ``warnings`` holds it."""
    head = f"{doc.source}:{doc.line}: document id {doc.doc_id!r} is written "
    found = next((w for w in warnings if w.startswith(head)), None)
    return None if found is None else "writes this id " + found[len(head):]


def scan_documents(path: str, text: str, seen: dict[str, int], warnings: list[str], line_base: int = 0,
                   columns: bool = True, offsets: list[int] | None = None,
                   parse: Callable[[], bool] | None = None, lines: list[int] | None = None,
                   intern_words: bool = True, repeated: str = ALL,
                   last: dict[str, list[int]] | None = None, cutter: Cut | None = None) -> Iterator[Document]:
    """The documents of ``text`` in file order: the whole file, or one segment of it that begins
    outside any document (after ``line_base`` lines of the file) and ends just after an
    ``#end document`` line (:func:`iter_conll2012`). ``seen`` holds the document ids met so far
    (with their begin lines); ``repeated`` says what a repeated id gives (:data:`REPEATED`): with
    ``last``, ``last`` holds the begin lines of every id the whole file repeats
    (:func:`last_copies`), and a copy before the last is skipped (not yielded, its lines not
    looked at), the last one yielded with a warning naming every copy's line; with ``rename`` the
    second copy is renamed ``ID#2`` with a warning; with ``all`` (a scan of the ids) every copy is
    yielded under its id. ``offsets``, when given, receives the text offset of each
    yielded document's ``#begin document`` line. ``parse``, when given, is asked before each
    document whether to read it: a document it declines is yielded as its id and line only (no
    tokens, no chains), its lines not looked at. ``lines``, when given, receives the number of
    line breaks in ``text`` once the documents are exhausted. ``intern_words``: intern the words
    of documents read with their columns (worth it for a corpus kept whole, not for documents let
    go one at a time). ``cutter``: how the columns are cut (:func:`_read_document`)."""
    stem = Path(path).name.split(".")[0]
    pos = 0
    line_no = line_base + 1
    inside: tuple[str, int, int, int, bool] | None = None  # (doc id, begin line, offset of its first line, of its
    # begin, whether it is skipped)
    outside_from = 0  # text offset where the current stretch outside any document began
    outside_line = line_base + 1  # and the file line it is on
    for start, stop in _hash_lines(text):
        line_no += text.count("\n", pos, start)
        pos = start
        line = text[start:stop].rstrip("\r")
        begin = BEGIN_RE.match(line)
        if begin and inside is None:
            _check_outside(path, text, outside_from, start, line_no - text.count("\n", outside_from, start))
        if begin:
            if inside is not None:
                raise InputError(path, line_no, f"'#begin document' inside document {inside[0]!r} (begun at line "
                                 f"{inside[1]}) which has no '#end document'")
            doc_id = document_id(begin.group(1), stem)
            skip = False
            if repeated == LAST and last and doc_id in last:
                copies = last[doc_id]
                skip = line_no != copies[-1]
                if not skip:
                    warnings.append(_repeat_warning(path, doc_id, copies))
            elif repeated == RENAME and doc_id in seen:
                k = 2
                while f"{doc_id}#{k}" in seen:
                    k += 1
                warnings.append(f"{path}:{line_no}: document id {doc_id!r} repeats (first at line {seen[doc_id]}); "
                                f"renamed to {doc_id}#{k} and scored as a document of its own "
                                "(--repeated-documents rename; scorer.pl v8.01 scores only the last copy)")
                doc_id = f"{doc_id}#{k}"
            seen.setdefault(doc_id, line_no)
            written = WRITTEN_RE.match(line)
            name = written.group(1) if written else line  # without the space scorer.pl finds no name
            inside = (doc_id, line_no, stop + 1, start, skip, name if name != written_name(doc_id) else None)
        elif END_RE.match(line):
            if inside is None:
                continue
            doc_id, begin_line, offset, begin_at, skip, name = inside
            inside = None
            outside_from = stop
            outside_line = line_no
            if skip:
                continue
            if offsets is not None:
                offsets.append(begin_at)
            if parse is None or parse():
                block = text[offset:start] if offset <= start else ""
                if ("\t " in block or "\t\r" in block) and not any(BLANK_FIELD_NOTE in w for w in warnings):
                    _warn_blank_field(path, block, begin_line + 1, warnings)
                doc = _read_document(path, block, begin_line + 1, doc_id, begin_line, columns, intern_words, warnings,
                                     cutter)
            else:
                doc = Document(doc_id=doc_id, source=path, line=begin_line)
            if name is not None:
                doc.meta["name"] = name
            yield doc
    if inside is not None:
        raise InputError(path, inside[1], f"document {inside[0]!r} has no '#end document' line")
    _check_outside(path, text, outside_from, len(text), outside_line)
    if lines is not None:
        lines.append(line_no - line_base - 1 + text.count("\n", pos))


BLOCK = 1 << 20
"""Bytes read at a time by :func:`iter_conll2012`."""


def end_cut(buf: bytes, line_start: bool = True) -> int:
    """Offset just after the last complete ``#end document`` line of ``buf`` (``-1``: none). Only
    ``#``, spaces or TABs, ``end document`` count here (a subset of what :data:`END_RE` accepts),
    so a cut is always outside any document. ``line_start``: whether ``buf`` begins a line."""
    stop = len(buf)
    while True:
        k = buf.rfind(b"end document", 0, stop)
        if k < 0:
            return -1
        nl = buf.rfind(b"\n", 0, k)
        head = buf[nl + 1 : k]
        if (nl >= 0 or line_start) and head[:1] == b"#" and not head[1:].strip(b" \t"):
            nl = buf.find(b"\n", k)
            if nl >= 0:
                return nl + 1
        stop = k


def _decode(path: str, data: bytes, first: bool, line_base: int = 0, byte_base: int = 0) -> str:
    """``data`` (bytes ``byte_base`` on, lines ``line_base`` on, of ``path``) as text; a byte that is
    not UTF-8 is an :class:`InputError` naming its line and offset, as :func:`read_text` does."""
    try:
        return data.decode("utf-8-sig" if first else "utf-8")
    except UnicodeDecodeError as err:
        line = line_base + data[: err.start].count(b"\n") + 1
        raise InputError(path, line, f"not valid UTF-8 (byte 0x{data[err.start]:02x} at offset "
                         f"{byte_base + err.start})") from None


def iter_conll2012(path: str, seen: dict[str, int], warnings: list[str], columns: bool = False,
                   block: int = BLOCK, parse: Callable[[], bool] | None = None,
                   repeated: str = LAST, last: dict[str, list[int]] | None = None, cutter: Cut | None = None
                   ) -> Iterator[tuple[Document, int, int]]:
    """The documents of one CoNLL-2012 file read a block at a time, each with the byte offset and
    the line number of its ``#begin document`` line (for :func:`read_conll2012_at`): the file is
    cut after its last complete ``#end document`` line of every block, and each piece read as
    :func:`read_conll2012` reads a file, so the documents, the warnings and the errors are the
    same; only one block and one document are held at a time. ``parse``: as for
    :func:`scan_documents`. ``repeated``: as for :func:`read_conll2012`; with ``last`` the file's
    ids are first scanned once (:func:`repeated_ids`, unless ``last`` gives its result) so that a
    copy before the last is skipped. ``cutter``: how the columns are cut (:func:`_read_document`)."""
    if repeated == LAST and last is None:
        last = repeated_ids(path, block)
    try:
        f = open(path, "rb")
    except OSError as err:
        raise InputError(path, None, f"cannot read file: {err.strerror or err}") from None
    with f:
        pending: list[bytes] = []
        byte_base = line_base = 0
        first = True
        while True:
            try:
                data = f.read(block)
            except OSError as err:
                raise InputError(path, None, f"cannot read file: {err.strerror or err}") from None
            if data:
                if first and not pending:
                    check_line_ends(path, data)
                cut = end_cut(data, not pending or pending[-1].endswith(b"\n"))
                if cut < 0:
                    pending.append(data)
                    continue
                seg = b"".join(pending) + data[:cut] if pending else data[:cut]
                pending = [data[cut:]] if cut < len(data) else []
            else:
                seg = b"".join(pending)
                if not seg and not first:
                    return
            text = _decode(path, seg, first, line_base, byte_base)
            ascii_ = seg.isascii()
            at_char = 0
            at_byte = byte_base + (3 if first and seg.startswith(b"\xef\xbb\xbf") else 0)
            offsets: list[int] = []
            lines: list[int] = []
            for doc in scan_documents(path, text, seen, warnings, line_base, columns, offsets, parse, lines,
                                      intern_words=False, repeated=repeated, last=last, cutter=cutter):
                at = offsets[-1]
                at_byte += (at - at_char) if ascii_ else len(text[at_char:at].encode())
                at_char = at
                yield doc, at_byte, doc.line
            first = False
            byte_base += len(seg)
            line_base += lines[0]
            if not data:
                return




def repeated_ids(path: str, block: int = BLOCK) -> dict[str, list[int]]:
    """The ids ``path`` writes more than once, with the begin line of each copy (:func:`last_copies`):
    one pass over the file's bytes, ``block`` bytes at a time, finding ``begin document`` at C
    speed (no line is decoded but the ``#begin document`` ones: about a twelfth of the time of
    reading the documents)."""
    stem = Path(path).name.split(".")[0]
    lines: dict[str, list[int]] = {}
    line = 1
    rest = b"\n"  # the text before the first line, as if a line had just ended
    try:
        with open(path, "rb") as f:
            first = True
            while True:
                data = f.read(block)
                if first and data.startswith(b"\xef\xbb\xbf"):
                    data = data[3:]
                first = False
                buf = rest + data
                cut = buf.rfind(b"\n") + 1 if data else len(buf)
                at = 0
                k = buf.find(b"begin document", 0, cut)
                while k >= 0:  # str.find runs at C speed; the regular expression is asked per hit only
                    start = buf.rfind(b"\n", 0, k) + 1
                    stop = buf.find(b"\n", k, cut)
                    if stop < 0:  # the file's last line, without a line end
                        stop = cut
                    if buf[start:start + 1] == b"#":
                        line += buf.count(b"\n", at, start)
                        at = start
                        _begin_line(buf[start:stop], line - 1, stem, lines)
                    k = buf.find(b"begin document", stop, cut)
                line += buf.count(b"\n", at, cut)
                rest = buf[cut:]
                if not data:
                    break
    except OSError:
        return {}  # iter_conll2012 reports why the file cannot be read
    return {k: v for k, v in lines.items() if len(v) > 1}


def _begin_line(raw: bytes, line: int, stem: str, lines: dict[str, list[int]]) -> None:
    """Note the id of ``raw`` (file line ``line``) when it is a ``#begin document`` line."""
    begin = BEGIN_RE.match(raw.decode("utf-8", errors="replace").rstrip("\r"))
    if begin:
        lines.setdefault(document_id(begin.group(1), stem), []).append(line)


def read_conll2012_at(path: str, offset: int, line: int, doc_id: str, columns: bool = False) -> Document:
    """The document whose ``#begin document`` line is at byte ``offset`` (file line ``line``) of
    ``path``, named ``doc_id`` (its id after renaming, as :func:`iter_conll2012` gave it)."""
    with open(path, "rb") as f:
        f.seek(offset)
        buf = b""
        while True:
            data = f.read(BLOCK)
            buf += data
            cut = end_cut(buf)
            if not data or cut >= 0:
                break
    text = _decode(path, buf[:cut] if cut >= 0 else buf, False, line - 1, offset)
    for doc in scan_documents(path, text, {}, [], line - 1, columns, intern_words=False):
        doc.doc_id = doc_id
        return doc
    raise InputError(path, line, f"no document at line {line}")  # pragma: no cover - the file changed


BLANK_FIELD_RE = re.compile(r"^([^\n]*\S[^\n]*?)\t[ \r\f\v]+\t*$", re.M)
BLANK_FIELD_NOTE = "scorer.pl v8.01 reads the blank field"


def _warn_blank_field(path: str, block: str, first_line: int, warnings: list[str]) -> None:
    """Warn (once per file: the caller checks) at the first token line whose annotation is followed
    by a TAB and only blanks (spaces, or the CR of a CRLF line end): corefreport reads the last
    non-blank field; scorer.pl splits on TAB, drops only empty trailing fields and reads the blank
    one, so that line's brackets are lost there (silently, or as a bracket error)."""
    for m in BLANK_FIELD_RE.finditer(block):
        if m.group(1).lstrip().startswith("#"):
            continue
        cell = m.group(1).rstrip().rpartition("\t")[2].strip()
        if cell in EMPTY_CELLS:
            continue
        line = first_line + block.count("\n", 0, m.start())
        warnings.append(f"{path}:{line}: a TAB and blanks follow the coreference annotation {_shown(cell)}: read as "
                        f"the annotation (the last non-blank field); {BLANK_FIELD_NOTE} after it instead and loses "
                        "that line's brackets (README: deliberate differences; later such lines of this file are not "
                        "listed)")
        return


def _check_outside(path: str, text: str, start: int, stop: int, first_line: int) -> None:
    """Token lines outside any document are an error (the reference silently ignores them)."""
    gap = text[start:stop]
    if not gap.strip():
        return
    lines = gap.split("\n")
    for k, line in enumerate(lines):
        if line.strip() and line[:1] != "#":
            from .detect import markup_hint

            raise InputError(path, first_line + k, "token line outside a document (no '#begin document' line "
                             "before it)" + markup_hint(line))


WS_LINE_RE = re.compile(r"\n[ \t\f\v]+(?:\n|$)")
ODD_LINE_RE = re.compile(r"\n[# \t\f\v]")


class _LineIndex:
    """File line number of token t of a document, computed only when an error needs it."""

    def __init__(self, block: str, first_line: int) -> None:
        self._block = block
        self._first = first_line
        self._idx: list[int] | None = None

    def __getitem__(self, t: int) -> int:
        if self._idx is None:
            lines = self._block.split("\n")
            self._idx = [k for k, l in enumerate(lines) if l.strip() and l[0] != "#"]
        return self._idx[t] + self._first


def _read_document(path: str, block: str, first_line: int, doc_id: str, begin_line: int,
                   columns: bool = True, intern_words: bool = True, warnings: list[str] | None = None,
                   cutter: Cut | None = None) -> Document:
    """Read one document's lines (the text between ``#begin document`` and ``#end document``).

    ``first_line`` is the file line number of the block's first line, for error messages;
    ``warnings`` receives the first line of the file whose annotation follows a space (:func:`scorer_pl_ops`);
    ``cutter`` gives the columns of the rows (:func:`cut_columns`, or a side of :class:`SharedColumns`). Written
    with list comprehensions (not one Python loop step per token) because reading dominates the
    time to score a large corpus.
    """
    doc = Document(doc_id=doc_id, source=path, line=begin_line)
    if "\r" in block:
        block = block.replace("\r\n", "\n").replace("\r", "\n")
    # no comment and no whitespace-only line (one scan finds any line starting with '#' or blank space)
    simple = not ((block[:1] in ("#", " ", "\t", "\f", "\v") or ODD_LINE_RE.search(block) is not None)
                  and (block.startswith("#") or "\n#" in block or WS_LINE_RE.search("\n" + block)))
    if simple:  # no comment and no whitespace-only lines: cut sentences at "\n\n" with str.split (C speed)
        rows: list[str] = []
        starts: list[int] = []
        for chunk in block.split("\n\n"):
            chunk = chunk.strip("\n")
            if chunk:
                starts.append(len(rows))
                rows.extend(chunk.split("\n"))
    else:
        lines = block.split("\n")
        idx = [k for k, l in enumerate(lines) if l and l[0] != "#" and not l.isspace()]
        rows = [lines[k] for k in idx]
        # a sentence starts at the first token and at the first token after every blank line
        blanks = [k for k, l in enumerate(lines) if not l or l.isspace()]
        starts = sorted({0} | {t for t in (bisect_left(idx, k) for k in blanks) if t < len(idx)})
    if not rows:
        return doc
    doc.sentence_starts = starts
    line_of = _LineIndex(block, first_line)
    # the coreference annotation is the last non-empty field, as scorer.pl reads it (Perl's split
    # drops trailing empty fields): a TAB or space after it is not one more column, and a TAB only
    # after it does not make a space-separated line TAB-separated
    head = rows[0].rstrip()
    tab = "\t" in head
    first = head.split("\t") if tab else head.split()
    ncols = len(first)
    if tab:
        # only rows whose last cell is not "-" or "_" are looked at one by one (C-level scan)
        marked = list(compress(range(len(rows)), map(not_, map(str.endswith, rows, repeat(NO_MENTION_ENDS)))))
        # the last cell of each marked row, cut at C speed (rpartition); a trailing TAB is fixed below
        cells = zip(marked, map(itemgetter(2), map(str.rpartition, map(rows.__getitem__, marked), repeat("\t"))))
    else:
        cells = enumerate([r.split()[-1] for r in rows])  # every row's last field, whatever its width
    chain_index: dict[str, int] = {}
    chains = doc.chains
    open_stacks: dict[str, list[int]] = {}
    ops_of = _CELL_OPS.get
    for t, cell in cells:
        if tab and (not cell or cell.isspace()):  # a trailing TAB (or TAB and spaces): the last non-empty field,
            # when it is bracket notation or a no-mention mark (else the line's coreference field is empty and
            # what precedes it a word: no mention, as scorer.pl finds no bracket there)
            cell = rows[t].rstrip().rpartition("\t")[2]
            if cell not in _CELL_OPS and _cell_ops(cell) is None:
                cell = ""
        ops = ops_of(cell)
        if ops is None:
            ops = _cell_ops(cell)
            if ops is None and tab:  # "…\t* (1)": a space before the annotation, in the last TAB field
                ops = scorer_pl_ops(cell)
                if ops is not None and warnings is not None and not any(SPACED_NOTE in w for w in warnings):
                    warnings.append(f"{path}:{line_of[t]}: the coreference annotation follows a space, not a TAB "
                                    f"({_shown(cell.strip())}): its brackets {SPACED_NOTE} (digits only; later such "
                                    "lines of this file are not listed)")
            if ops is None:
                raise InputError(path, line_of[t], f"cannot read coreference annotation {_shown(cell.strip())} in the last "
                                 "column (expected '(n', 'n)', '(n)' joined by '|', or '-')")
        for kind, label in ops:
            if kind == SINGLE:
                ci = chain_index.get(label)
                if ci is None:
                    ci = chain_index[label] = len(chains)
                    chains.append(Chain(label))
                chains[ci].mentions.append(Mention(t, t, label))
            elif kind == OPEN:
                if label not in chain_index:
                    chain_index[label] = len(chains)
                    chains.append(Chain(label))
                open_stacks.setdefault(label, []).append(t)
            else:
                stack = open_stacks.get(label)
                if not stack:
                    raise InputError(path, line_of[t], f"closing bracket '{label})' of document {doc_id!r} has no "
                                     f"opening '({label}' before it")
                chains[chain_index[label]].mentions.append(Mention(stack.pop(), t, label))
    for label, stack in open_stacks.items():
        if stack:
            raise InputError(path, line_of[stack[0]], f"bracket '({label}' opened in document {doc_id!r} is never "
                             "closed")
    doc.chains = [c for c in chains if c.mentions]
    layout = _layout(ncols, first[0])
    w = layout.pop("word")
    try:
        # map over C methods: no Python step per token; with the columns (a corpus kept whole) words
        # are interned, so that it keeps one copy of each word form (and key and response share them);
        # not when documents are streamed (a key read with its columns for heads by rule 3a)
        if tab:
            words = map(itemgetter(w), map(str.split, rows, repeat("\t"), repeat(w + 1)))
        else:
            words = map(itemgetter(w), map(str.split, rows))
        doc.tokens = list(map(intern, words) if columns and intern_words else words)
    except IndexError:
        doc.tokens = _short_rows_tokens(rows, tab, w)
    if ncols <= w + 1:  # the word would be the coreference column itself
        doc.tokens = [_field(r.split("\t") if tab else r.split(), w) for r in rows]
    if not columns:
        return doc
    spec = {name: k for name, k in layout.items() if k < ncols - 1}
    if ncols >= 12 and "upos" not in layout:
        for k in range(11, ncols - 1):
            spec[f"col{k + 1}"] = k
    if columns is not True:  # only the columns named (matching's heads: POS, HEAD)
        spec = {name: k for name, k in spec.items() if name in columns}
    doc.columns = (cutter or cut_columns)(rows, spec, tab)
    return doc


Cut = Callable[[list[str], dict[str, int], bool], dict[str, list[str]]]
"""``cutter(rows, spec, tab)``: the columns of ``spec`` (name → index) of a document's token rows."""


def cut_columns(rows: list[str], spec: dict[str, int], tab: bool) -> dict[str, list[str]]:
    """The columns of ``spec`` cut from ``rows`` (:func:`_columns`), the parse bits interned."""
    cols = _columns(rows, spec, tab)
    if "parse" in cols:  # few distinct parse bits ('*', '*)', '(NP*' …): one copy of each
        cols["parse"] = list(map(intern, cols["parse"]))
    return cols


class SharedColumns:
    """The key's columns lent to the response: a response document whose token rows repeat the
    rows of the key document read just before it but for their last field (a system's output
    written over the key file, as the CoNLL-2012 shared task asked, and as xrenner's and most
    systems' files are) has the same columns, so it takes the key's lists instead of cutting its
    own. The rows are compared, not the columns: equal rows but for the last field give equal
    columns (each column's cell is a field before the row's last, or ``""``, :func:`_columns`),
    and any other difference (a tag, a width, a TAB for a space) has the response cut its own.

    The key's side cuts with :meth:`key`, the response's with :meth:`response`, in step (the
    document pairs read key document *i*, then response document *i*); only the last key
    document's rows are held, until the response's next document is read. The features are then
    derived once for both sides (:func:`~corefreport.scoring.features.derivation_inputs` finds the
    same lists): every analysis on a 207,661-word book 2.58 → 2.22 s and 318 → 283 MiB (bench/HISTORY.md)."""

    def __init__(self) -> None:
        self._last: tuple[list[str], dict[str, int], bool, dict[str, list[str]]] | None = None

    def key(self, rows: list[str], spec: dict[str, int], tab: bool) -> dict[str, list[str]]:
        """The key document's columns (:func:`cut_columns`), kept with its rows for the response."""
        cols = cut_columns(rows, spec, tab)
        self._last = (rows, spec, tab, cols)
        return cols

    def response(self, rows: list[str], spec: dict[str, int], tab: bool) -> dict[str, list[str]]:
        """The key's columns (a new dict of the same lists) when ``rows`` repeat the last key
        document's but for their last field under the same ``spec``; else the response's own."""
        last, self._last = self._last, None
        if last is not None and last[1] == spec and last[2] == tab and same_but_last_field(last[0], rows, tab):
            return dict(last[3])
        return cut_columns(rows, spec, tab)


def same_but_last_field(a: list[str], b: list[str], tab: bool) -> bool:
    r"""Whether the rows of ``a`` and ``b`` are equal but for their last field: TAB-separated
    (``tab``), the text before each row's last TAB; else before its last run of blanks and the
    field after it. Rows equal as a whole are passed at C speed; only the others (usually those
    whose coreference fields differ) are cut.

    >>> same_but_last_field(["a\tNN\t(1)", "b\tVB\t-"], ["a\tNN\t-", "b\tVB\t-"], True)
    True
    >>> same_but_last_field(["a\tNN\t(1)"], ["a\tNNP\t(1)"], True), same_but_last_field(["a NN (1)"], ["a NN"], False)
    (False, False)
    """
    if len(a) != len(b):
        return False
    differ = compress(zip(a, b), map(ne, a, b))
    if tab:
        return all(x.rpartition("\t")[0] == y.rpartition("\t")[0] for x, y in differ)
    for x, y in differ:
        fx, fy = x.rsplit(None, 1), y.rsplit(None, 1)
        if len(fx) != 2 or len(fy) != 2 or fx[0] != fy[0]:
            return False
    return True


def _columns(rows: list[str], spec: dict[str, int], tab: bool) -> dict[str, list[str]]:
    """The per-token columns of ``spec`` (name → index), cut from the rows in one pass (each row
    split only as far as the last column asked for); a row too short for a column gives ``""``."""
    if not spec:
        return {}
    top = max(spec.values()) + 1
    if tab:
        # the common case, every row with a field after the last column asked for: the columns'
        # cells picked from each row in one C call (itemgetter) and turned into columns by zip, the
        # rest of each row let go at once (1.6× faster than keeping every row's fields on a book)
        pick = itemgetter(*spec.values(), top)
        try:
            cells = list(map(pick, map(str.split, rows, repeat("\t"), repeat(top))))
        except IndexError:  # a row too short: cell by cell below
            pass
        else:
            return dict(zip(spec, map(list, zip(*cells))))
    split = [r.split("\t", top) for r in rows] if tab else [r.split(None, top) for r in rows]
    width = len(split[0]) if split else 0
    uniform = all(len(c) == width for c in split)
    return {name: [c[idx] for c in split] if uniform and idx < width - 1
            else [c[idx] if idx < len(c) - 1 else "" for c in split] for name, idx in spec.items()}


SHOWN_MAX = 60
"""Characters of a bad cell quoted in an error message (the rest is counted, not echoed)."""


def _shown(cell: str) -> str:
    """``cell`` quoted for an error message: whole when short, else its start and its length (an
    80,000-letter cell must not make an 80,000-character error line)."""
    if len(cell) <= SHOWN_MAX:
        return repr(cell)
    return f"{cell[:SHOWN_MAX]!r}… ({len(cell)} characters)"


def _short_rows_tokens(rows: list[str], tab: bool, w: int) -> list[str]:
    """Words of rows some of which are too short to have a word column: such a row's word is ``""``
    (scorer.pl reads every line's last field whatever its width, so a short line is no error)."""
    return [_field(r.split("\t") if tab else r.split(), w) for r in rows]


def _field(cols: list[str], w: int) -> str:
    """The word column, or '' when the line is too short to have one besides the coref column."""
    if w < len(cols) - 1:
        return cols[w]
    return cols[0] if len(cols) == 1 and w == 0 else ""


def check_line_ends(path: str, text: str | bytes) -> None:
    r"""Refuse a text whose lines end with a carriage return alone (classic Mac OS line ends): every
    reader would see one line (and take the whole text for a document name); CRLF is read.

    >>> check_line_ends("f", "a\r\nb\r\n")
    >>> check_line_ends("f", "#begin document (d)\rx\r")
    Traceback (most recent call last):
    corefreport.errors.InputError: f:1: the lines end with a carriage return (CR) alone, not a line feed (LF or CRLF): the file reads as one line; convert its line ends first (e.g. tr '\r' '\n' < FILE > NEW)
    """
    cr, lf = ("\r", "\n") if isinstance(text, str) else (b"\r", b"\n")
    if cr in text and text.count(cr) - text.count(cr + lf) > text.count(lf):
        raise InputError(path, 1, "the lines end with a carriage return (CR) alone, not a line feed (LF or CRLF): the "
                         "file reads as one line; convert its line ends first (e.g. tr '\\r' '\\n' < FILE > NEW)")


def read_text(path: str) -> str:
    """Read a UTF-8 file (BOM tolerated), turning OS and decoding errors into :class:`InputError`.
    Standard input (``-``), a pipe or a FIFO is read whole once (:mod:`corefreport.io.streams`)."""
    from .streams import display_name, is_stream, read_stream

    if is_stream(path):
        data = read_stream(path)
        path = display_name(path)
    else:
        try:
            data = Path(path).read_bytes()
        except OSError as err:
            raise InputError(path, None, f"cannot read file: {err.strerror or err}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise InputError(path, line, f"not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})") from None
