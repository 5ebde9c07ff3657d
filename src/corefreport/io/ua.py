"""Read Universal Anaphora CoNLL-U Plus files (CODI-CRAC 2021/2022, ARRAU in UA form).

The format (Universal Anaphora 1.0; the UA scorer v1 reads it in ``coval/ua/reader.py``):

* ``# global.columns = ID FORM … IDENTITY BRIDGING DISCOURSE_DEIXIS …`` names the columns; they
  are found **by name** (the UA scorer v1 takes the 11th, 12th and 13th field whatever the header
  says). Fields are separated by runs of whitespace (the files are space-aligned); trailing fields
  after the last one read may be missing (an empty last column), and are read as ``_``.
* ``# newdoc id = NAME`` starts a document; other ``#`` lines and blank lines (sentence ends) carry
  no word. Every word line is a token, numbered 0.. across the document, as the UA scorer numbers
  them — an empty node (a decimal ID, ``5.1``) included.
* The IDENTITY cell is ``_`` or closers followed by openers: ``)`` closes the markable opened last
  (LIFO); ``markable_7)`` closes the named markable (crossing markables); an opener is
  ``(EntityID=E|MarkableID=M|Min=…|SemType=…|ElementOf=…``, closed on the same word when it ends
  with ``)``. A MarkableID written twice in a document is one discontinuous markable (its parts'
  words). ``EntityID`` ending in ``-Pseudo`` marks a non-referring expression.

Referring entities become :attr:`Document.chains` (in the order their first markable opens, as the
UA scorer orders its clusters); non-referring ones go to ``Document.layers["non_referring"]`` —
one chain per ``-Pseudo`` entity — so the coreference layer never holds them. Every mention keeps
its ``MarkableID``, ``EntityID``, ``SemType``, ``Min`` and ``ElementOf`` as features. The raw
``BRIDGING`` and ``DISCOURSE_DEIXIS`` cells are kept in :attr:`Document.columns` under those names
for the layers that read them.

Every malformed cell is an :class:`~corefreport.errors.InputError` naming the file, the line and
the problem.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..model import Chain, Corpus, Document, Mention

IDENTITY = "IDENTITY"
KEPT_COLUMNS = ("BRIDGING", "DISCOURSE_DEIXIS")
"""Raw layers kept per token in :attr:`Document.columns` (``_`` where a file lacks the column)."""
PSEUDO = "-Pseudo"
NON_REFERRING = "non_referring"
"""The key of the non-referring layer in :attr:`Document.layers`."""


@dataclass
class _Markable:
    """A markable being read: its entity, its parts ``[start, end]`` (end ``None`` while open)."""

    mid: str
    entity: str
    info: dict[str, str]
    line: int
    parts: list[list] = field(default_factory=list)
    """``[start, end]`` of each part: word numbers, or an empty node's position (a float)."""


def parse_opener(body: str, path: str, line: int) -> dict[str, str]:
    """The ``key=value|…`` attributes of one opener (without its brackets).

    >>> parse_opener("EntityID=1|MarkableID=markable_1|Min=2|SemType=dn", "f", 1)["MarkableID"]
    'markable_1'
    """
    info: dict[str, str] = {}
    for item in body.split("|"):
        k, eq, v = item.partition("=")
        if not eq or not k:
            raise InputError(path, line, f"IDENTITY opener '({body}': attribute {item!r} is not KEY=VALUE")
        if k in info:
            raise InputError(path, line, f"IDENTITY opener '({body}': attribute {k!r} written twice")
        info[k] = v
    for need in ("EntityID", "MarkableID"):
        if not info.get(need):
            raise InputError(path, line, f"IDENTITY opener '({body}' has no {need}")
    return info


def split_cell(cell: str, path: str, line: int) -> tuple[list[str | None], list[tuple[str, bool]]]:
    """``(closers, openers)`` of an IDENTITY (or DISCOURSE_DEIXIS) cell: each closer ``None`` (close
    the last opened) or a MarkableID; each opener its attribute text and whether it closes on this
    word.

    >>> split_cell("))(EntityID=9|MarkableID=m_2)", "f", 1)
    ([None, None], [('EntityID=9|MarkableID=m_2', True)])
    >>> split_cell("m_1)m_3)", "f", 1)
    (['m_1', 'm_3'], [])
    """
    head, _, rest = cell.partition("(")
    closers: list[str | None] = []
    if head:
        if not head.endswith(")"):
            raise InputError(path, line, f"cell {cell!r}: {head!r} before the first '(' is not closing brackets")
        if set(head) == {")"}:
            closers = [None] * len(head)
        else:
            names = head[:-1].split(")")
            if any(not n for n in names):
                raise InputError(path, line, f"cell {cell!r}: mixes ')' with named closers 'MarkableID)'")
            closers = list(names)
    openers: list[tuple[str, bool]] = []
    if "(" in cell:
        for piece in rest.split("("):
            single = piece.endswith(")")
            body = piece[:-1] if single else piece
            if not body:
                raise InputError(path, line, f"cell {cell!r}: an empty opener '(' or '()'")
            if ")" in body:
                raise InputError(path, line, f"cell {cell!r}: a closer after an opener (closers come first on a word, "
                                 "a one-word markable ends with a single ')')")
            openers.append((body, single))
    return closers, openers


class _UAReader:
    def __init__(self, path: str) -> None:
        self.path = path
        self.columns: list[str] | None = None
        self.corpus = Corpus(source=path, format="ua")
        self.min_outside: list[str] = []

    def read(self, text: str) -> Corpus:
        doc: _Doc | None = None
        sentence_open = False
        for n, raw in enumerate(text.split("\n"), 1):  # lines as every reader numbers them (not at U+2028)
            line = raw.strip()
            if line.startswith("#"):
                body = line[1:].strip()
                if body.startswith("global.columns"):
                    self._header(body, n)
                elif body.startswith("newdoc"):
                    name = body.partition("=")[2].strip() if "=" in body else ""
                    if not name:
                        raise InputError(self.path, n, "'# newdoc' without 'id = NAME'")
                    if doc is not None:
                        self._add(doc)
                    doc = _Doc(self.path, name, n, self.columns)
                    sentence_open = False
                continue
            if not line:
                sentence_open = False
                continue
            if self.columns is None:
                raise InputError(self.path, n, "a word line before '# global.columns = … IDENTITY …'")
            if doc is None:
                raise InputError(self.path, n, "a word line before the first '# newdoc id = NAME'")
            if not sentence_open:
                doc.doc.sentence_starts.append(len(doc.doc.tokens))
                sentence_open = True
            doc.word(line.split(), n)
        if doc is not None:
            self._add(doc)
        plural = sum(1 for d in self.corpus.documents.values() for m in d.mentions if "ElementOf" in m.features)
        if plural:
            self.corpus.warnings.append(f"{self.path}: {plural} markable(s) with ElementOf (split antecedents of plural "
                                        "entities): scored under --split-antecedents keep|only (--preset codicrac22ar, "
                                        "as the UA scorer v1 by default), ignored otherwise (docs/universal-anaphora.md)")
        if self.min_outside:
            self.corpus.warnings.append(f"{self.path}: {len(self.min_outside)} markable(s) whose Min= names a word "
                                        f"outside the markable (first: {self.min_outside[0]}): --match min matches "
                                        "them only by their exact words, as corefud-scorer (docs/universal-anaphora.md)")
        return self.corpus  # without a document: empty, as every reader's (the pipeline says what is missing)

    def _header(self, body: str, n: int) -> None:
        names = body.partition("=")[2].split()
        if IDENTITY not in names or "FORM" not in names:
            raise InputError(self.path, n, "'# global.columns' names no IDENTITY or no FORM column: not a Universal "
                             "Anaphora file")
        if len(set(names)) != len(names):
            raise InputError(self.path, n, "'# global.columns' names a column twice")
        if self.columns is not None and self.columns != names:
            raise InputError(self.path, n, "a second '# global.columns' that differs from the first")
        self.columns = names

    def _add(self, reading: _Doc) -> None:
        doc = reading.finish()
        self.min_outside.extend(reading.min_outside)
        if doc.doc_id in self.corpus.documents:
            raise InputError(self.path, doc.line, f"document id {doc.doc_id!r} is written twice in this file")
        self.corpus.documents[doc.doc_id] = doc


class _Doc:
    """One document being read."""

    def __init__(self, path: str, name: str, line: int, columns: list[str] | None) -> None:
        self.path = path
        self.doc = Document(name, source=path, line=line)
        self.index = {c: i for i, c in enumerate(columns or [])}
        self.width = max((self.index[c] for c in ("FORM", IDENTITY, *KEPT_COLUMNS) if c in self.index), default=0) + 1
        for c in KEPT_COLUMNS:
            self.doc.columns[c] = []
        self.markables: dict[str, _Markable] = {}
        self.min_outside: list[str] = []
        """Each markable whose ``Min=`` names a word outside it (:func:`_min_inside`)."""
        self.open: dict[str, None] = {}
        """The markables open now, in the order they opened: a ``)`` closes the last (a named closer
        costs one look-up)."""
        self.layers = None
        if any(c in self.index for c in KEPT_COLUMNS):  # bridging pairs, discourse-deixis chains
            from .ua_layers import LayerReader

            self.layers = LayerReader(path, self.index, split_cell, lambda: _Doc(path, name, line, None))

    def word(self, fields: list[str], n: int) -> None:
        if len(fields) < self.width:
            last = next(c for c, j in self.index.items() if j == self.width - 1)
            raise InputError(self.path, n, f"{len(fields)} fields: column {last} is field {self.width} of "
                             "'# global.columns'")
        if len(fields) > len(self.index):
            raise InputError(self.path, n, f"{len(fields)} fields, more than the {len(self.index)} columns of "
                             "'# global.columns' (a space inside a field?)")
        tid = fields[0] if "ID" in self.index else "1"
        cell = fields[self.index[IDENTITY]]
        if self.layers is not None:
            self.layers.word(tid, len(self.doc.tokens), fields, n)
        if _decimal(tid):
            from .conllu import empty_position

            word, _, sub = tid.partition(".")
            pos = empty_position(self.doc.sentence_starts[-1], int(word), int(sub))
            if cell != "_":
                self._cell(cell, pos, n)
            return
        if not tid.isdigit():
            raise InputError(self.path, n, f"token ID {tid!r} is neither a number nor an empty node's N.M")
        i = len(self.doc.tokens)
        self.doc.tokens.append(fields[self.index["FORM"]])
        for c in KEPT_COLUMNS:
            j = self.index.get(c)
            self.doc.columns[c].append(fields[j] if j is not None and j < len(fields) else "_")
        if cell != "_":
            self._cell(cell, i, n)

    def _cell(self, cell: str, i: float, n: int) -> None:
        closers, openers = split_cell(cell, self.path, n)
        if type(i) is float and (closers or not all(single for _, single in openers)):
            raise InputError(self.path, n, f"IDENTITY {cell!r}: a markable starts or ends on an empty node without "
                             "being that one word (a zero)")
        for name in closers:
            if name is None:
                if not self.open:
                    raise InputError(self.path, n, f"IDENTITY {cell!r}: ')' closes no open markable")
                mid = next(reversed(self.open))
            else:
                if name not in self.open:
                    raise InputError(self.path, n, f"IDENTITY {cell!r}: closes {name!r}, which is not open")
                mid = name
            del self.open[mid]
            self.markables[mid].parts[-1][1] = i
        for body, single in openers:
            info = parse_opener(body, self.path, n)
            mid, entity = info["MarkableID"], info["EntityID"]
            m = self.markables.get(mid)
            if m is None:
                m = self.markables[mid] = _Markable(mid, entity, info, n)
            elif m.entity != entity:
                raise InputError(self.path, n, f"markable {mid!r} is in entity {entity!r} here and {m.entity!r} at "
                                 f"line {m.line}")
            elif mid in self.open:
                raise InputError(self.path, n, f"markable {mid!r} opens again before it is closed")
            m.parts.append([i, i if single else None])
            if not single:
                self.open[mid] = None
            if "Min" in info:
                _min(info["Min"], self.path, n)

    def finish(self) -> Document:
        if self.open:
            m = self.markables[next(reversed(self.open))]
            raise InputError(self.path, m.line, f"markable {m.mid!r} is never closed in document {self.doc.doc_id!r}")
        chains: dict[str, Chain] = {}
        pseudo: dict[str, Chain] = {}
        for m in self.markables.values():
            runs = _runs(m.parts)
            zeros = sorted(s for s, _ in m.parts if type(s) is float)
            features = {"MarkableID": m.mid, "EntityID": m.entity}
            if zeros:
                features["zero_head"] = repr(zeros[0])
            for k in ("SemType", "Min", "ElementOf"):
                if k in m.info:
                    features[k] = m.info[k]
            if "Min" in m.info:
                outside = _min_inside(m, runs, len(self.doc.tokens) if self.index else None, self.path)
                if outside is not None:
                    self.min_outside.append(outside)
            ends = [x for r in runs[:1] + runs[-1:] for x in r] + zeros
            first, last = max(0, math.floor(min(ends))), max(0, math.floor(max(ends)))
            words = None  # contiguous: its first to its last word
            if zeros or len(runs) > 1:  # the words one by one (as many as the markable's parts cover)
                words = tuple(sorted([w for a, b in runs for w in range(a, b + 1)] + zeros))
            mention = Mention(first, last, m.entity, m.line, features, words)
            target = pseudo if m.entity.endswith(PSEUDO) else chains
            target.setdefault(m.entity, Chain(m.entity)).mentions.append(mention)
        self.doc.chains = list(chains.values())
        if pseudo:
            self.doc.layers[NON_REFERRING] = list(pseudo.values())
        if self.layers is not None:
            self.layers.finish(self.doc)
        return self.doc


def _decimal(tid: str) -> bool:
    a, dot, b = tid.partition(".")
    return bool(dot) and a.isdigit() and b.isdigit()


def _min(value: str, path: str, n: int) -> None:
    parts = value.split(",")
    if not 1 <= len(parts) <= 2 or not all(p.isdigit() for p in parts):
        raise InputError(path, n, f"Min={value!r}: takes a word number or two, 'N' or 'N,M'")


def _runs(parts: list[list]) -> list[tuple[int, int]]:
    """The word runs ``(first, last)`` a markable's parts cover (empty nodes aside), in order,
    overlapping and adjacent parts merged: ``[[5, 7], [0, 1], [2, 2], [6.01, 6.01]]`` → ``[(0, 2), (5, 7)]``.
    A markable costs its number of parts, not its number of words (nesting stays linear)."""
    out: list[list[int]] = []
    for a, b in sorted((a, b) for a, b in parts if type(a) is not float):
        if out and a <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _min_inside(m: _Markable, runs: list[tuple[int, int]], size: int | None, path: str) -> str | None:
    """Check ``Min=N`` or ``Min=N,M``: words N..M of the document (1-based, N ≤ M, at most its last
    word; ``size`` ``None``: not known, a layer's reader) — else an :class:`InputError`. Words of
    the document outside the markable (its word ``runs``, :func:`_runs`) are read (the CODI-CRAC
    2022 files have them: 2,166 of 12,508 Min values in three dev files) and described in the
    returned text: ``--match min`` can never match such a markable but by its exact words."""
    value = m.info["Min"]
    lo, _, hi = value.partition(",")
    first, last = int(lo), int(hi or lo)
    where = f"Min={value} of markable {m.mid!r}"
    if first < 1:
        raise InputError(path, m.line, f"{where}: word numbers start at 1 (Min names document words, 1-based)")
    if first > last:
        raise InputError(path, m.line, f"{where}: reversed, {first} > {last} (write Min=N,M with N ≤ M)")
    if size is not None and last > size:
        raise InputError(path, m.line, f"{where}: the document has {size} word(s) (Min names document words, "
                         "1-based)")
    word = first - 1  # the first word of Min not yet seen inside a run (0-based)
    for a, b in runs:
        if a > word:
            break
        word = max(word, b + 1)
    if word > last - 1:
        return None
    span = "no word" if not runs else f"word {runs[0][0] + 1}" if runs[0][0] == runs[-1][1] else \
        f"words {runs[0][0] + 1}–{runs[-1][1] + 1}"
    return f"line {m.line}: {where} names word {word + 1}, outside the markable ({span})"


def read_ua(path: str | Path, text: str | None = None) -> Corpus:
    """Read every document of one Universal Anaphora CoNLL-U Plus file (module docstring)."""
    from .conll2012 import check_line_ends, read_text

    path = str(path)
    if text is None:
        text = read_text(path)
    check_line_ends(path, text)
    return _UAReader(path).read(text)
