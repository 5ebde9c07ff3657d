"""Reader for CoNLL-2012 (``*_conll``) files with the reference scorer's semantics.

* ``#begin document (NAME); part NNN`` … ``#end document``; also ``# begin document NAME`` without
  parentheses or part. Several documents per file.
* Tokens are numbered across the whole document (mentions may cross sentences); a blank line ends a
  sentence; comment lines (``#…``) inside a document are not tokens (the reference counts them and
  shifts every index after them — we do not).
* Columns are split on TAB when the line has one, else on runs of spaces (the reference splits on TAB
  only and then mis-reads space-aligned files).
* The coreference annotation is the last column: ``(n``, ``n)``, ``(n)``, joined by ``|`` or not
  (``(1(3``); labels may be any text without brackets or ``|`` (``person-12-Lord_Byron``); ``-``,
  ``_`` or an empty cell mean "no mention". ``(n+m)`` split-antecedent marks are dropped as the
  reference does. Within a cell, one-token mentions are taken first, then openings, then closings,
  each left to right — the reference's order, which fixes chain order and thus which copy of a
  repeated mention is kept.
* Column layouts: 3 columns (index, word, coref); CoNLL-2012 (≥ 12 columns: word 4, POS 5, lemma 7,
  speaker 10, NE 11, extra columns 12.., coref last); CoNLL-U-plus (first column a CoNLL-U ID:
  FORM 2, LEMMA 3, UPOS 4, XPOS 5, coref last); other widths: word in column 4 (the reference test
  files), POS in column 5 when there are at least 6 columns.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..model import Chain, Corpus, Document, Mention
from .errors import InputError

BEGIN_RE = re.compile(r"^#\s*begin document\s*(.*?)\s*$")
END_RE = re.compile(r"^#\s*end document")
NAME_PART_RE = re.compile(r"^\((.*)\)\s*;?\s*(?:part\s+(\d+))?\s*$")
BRACKET_RE = re.compile(r"\(([^()|]+)\)|\(([^()|]+)|([^()|]+)\)")
SPLIT_ANTE_RE = re.compile(r"\([^()|]*\+[^()|]*\)")
CONLLU_ID_RE = re.compile(r"^\d+(?:[-.]\d+)?$")
EMPTY_CELLS = frozenset(("", "-", "_"))


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
        lay.update(lemma=6, speaker=9, ne=10)
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
    pos = 0
    for m in BRACKET_RE.finditer(cell):
        gap = cell[pos : m.start()]
        if gap.strip("| "):
            return None
        pos = m.end()
        s, o, c = m.groups()
        if s is not None:
            singles.append(s.strip())
        elif o is not None:
            opens.append(o.strip())
        else:
            closes.append(c.strip())
    if cell[pos:].strip("| "):
        return None
    return singles, opens, closes


def read_conll2012(path: str | Path, text: str | None = None) -> Corpus:
    """Read every document of one CoNLL-2012-style file into a :class:`Corpus`."""
    path = str(path)
    if text is None:
        text = read_text(path)
    stem = Path(path).name.split(".")[0]
    corpus = Corpus(source=path, format="conll2012")
    lines = text.splitlines()
    n = len(lines)
    i = 0
    while i < n:
        line = lines[i]
        i += 1
        if not line.strip():
            continue
        m = BEGIN_RE.match(line)
        if not m:
            if line.startswith("#"):
                continue
            raise InputError(path, i, "token line outside a document (no '#begin document' line before it)")
        doc_id = document_id(m.group(1), stem)
        if doc_id in corpus.documents:
            k = 2
            while f"{doc_id}#{k}" in corpus.documents:
                k += 1
            corpus.warnings.append(f"{path}:{i}: document id {doc_id!r} repeats; renamed to {doc_id}#{k}")
            doc_id = f"{doc_id}#{k}"
        doc, i = _read_document(path, lines, i, doc_id, begin_line=i)
        corpus.documents[doc_id] = doc
    return corpus


def _read_document(path: str, lines: list[str], i: int, doc_id: str, begin_line: int) -> tuple[Document, int]:
    doc = Document(doc_id=doc_id, source=path, line=begin_line)
    tokens = doc.tokens
    rows: list[list[str]] = []
    sentence_starts = doc.sentence_starts
    new_sentence = True
    open_stacks: dict[str, list[tuple[int, int]]] = {}
    chain_index: dict[str, int] = {}
    chains = doc.chains
    layout: dict[str, int] | None = None
    ncols = 0
    n = len(lines)
    empty = EMPTY_CELLS
    while i < n:
        line = lines[i]
        i += 1
        if not line or line.isspace():
            new_sentence = True
            continue
        if line[0] == "#":
            if END_RE.match(line):
                break
            if BEGIN_RE.match(line):
                raise InputError(path, i, f"'#begin document' inside document {doc_id!r} (begun at line {begin_line}) "
                                 "which has no '#end document'")
            continue
        cols = line.split("\t") if "\t" in line else line.split()
        if layout is None:
            ncols = len(cols)
            layout = _layout(ncols, cols[0])
        elif len(cols) != ncols and len(cols) < 2:
            raise InputError(path, i, f"expected {ncols} columns, found {len(cols)}")
        t = len(tokens)
        if new_sentence:
            sentence_starts.append(t)
            new_sentence = False
        rows.append(cols)
        w = layout["word"]
        tokens.append(cols[w] if w < len(cols) - 1 or len(cols) == 1 else "")
        cell = cols[-1].strip() if len(cols) > 1 else ""
        if cell in empty:
            continue
        parsed = parse_coref_cell(cell)
        if parsed is None:
            raise InputError(path, i, f"cannot read coreference annotation {cell!r} in the last column "
                             "(expected '(n', 'n)', '(n)' joined by '|', or '-')")
        singles, opens, closes = parsed
        for label in singles:
            ci = chain_index.get(label)
            if ci is None:
                ci = chain_index[label] = len(chains)
                chains.append(Chain(label))
            chains[ci].mentions.append(Mention(t, t, label, i))
        for label in opens:
            if label not in chain_index:
                chain_index[label] = len(chains)
                chains.append(Chain(label))
            open_stacks.setdefault(label, []).append((t, i))
        for label in closes:
            stack = open_stacks.get(label)
            if not stack:
                raise InputError(path, i, f"closing bracket '{label})' of document {doc_id!r} has no opening "
                                 f"'({label}' before it")
            start, _ = stack.pop()
            ci = chain_index[label]
            chains[ci].mentions.append(Mention(start, t, label, i))
    else:
        raise InputError(path, begin_line, f"document {doc_id!r} has no '#end document' line")
    for label, stack in open_stacks.items():
        if stack:
            raise InputError(path, stack[0][1], f"bracket '({label}' opened in document {doc_id!r} is never closed")
    doc.chains = [c for c in chains if c.mentions]
    if layout:
        for name, idx in layout.items():
            if name == "word":
                continue
            if idx < ncols - 1:
                doc.columns[name] = [r[idx] if idx < len(r) - 1 else "" for r in rows]
        if ncols >= 12 and "upos" not in layout:
            for idx in range(11, ncols - 1):
                doc.columns[f"col{idx + 1}"] = [r[idx] if idx < len(r) - 1 else "" for r in rows]
    return doc, i


def read_text(path: str) -> str:
    """Read a UTF-8 file (BOM tolerated), turning OS and decoding errors into :class:`InputError`."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise InputError(path, None, f"cannot read file: {err.strerror or err}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise InputError(path, line, f"not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})") from None
