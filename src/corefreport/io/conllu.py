"""Reader for CorefUD / Universal Anaphora CoNLL-U: coreference in the MISC column as ``Entity=``.

Format (CorefUD 1.x, the UA "compact" proposal) and the choices made here:

* Standard 10-column CoNLL-U, TAB-separated; ``#`` lines are comments. ``# newdoc`` (optionally
  ``id = X``) starts a document; a file without one is a single document named by the file stem
  (also a ``# newdoc`` without ``id``). A repeated id is renamed ``X#2`` with a warning, as the
  CoNLL-2012 reader does.
* Tokens are the lines whose ID is an integer, numbered 0.. across the document. Multi-word-token
  lines (``9-10``) are skipped (an ``Entity=`` on one is refused: CorefUD puts coreference on the
  words). Empty nodes (``15.1``) are not tokens (key and response may have different ones) but
  they are words of the mentions that contain them, as Udapi reads them: empty node ``w.k`` has the
  position ``w + k/100`` in the document's token numbering (``0.k``: half a token before the
  sentence's first word), so a mention's ``words`` (then explicit) sort in Udapi's order. A mention
  whose head is an empty node is a zero: it carries ``zero_head`` (that position),
  ``zero_sentence`` and ``zero_deps`` (its DEPS as positions) for ``--zero-match dependent``;
  its ``start``/``end`` are the tokens at or before its first and last word.
* A sentence starts at the first token after a blank line, a ``# sent_id`` line or a ``# newdoc``
  line, and wherever the word IDs restart.
* Columns: ``lemma``, ``upos``, ``pos`` (XPOS), ``deprel`` and ``head``: the HEAD of each word as a
  document-level token index (``"-1"`` for the root, ``"_"`` when HEAD is ``_`` or points outside
  the sentence; the column is left out when no word has a usable HEAD).
* ``Entity=`` brackets: ``(e5-person-1-`` opens a mention of entity ``e5``, ``e5)`` closes the most
  recently opened mention of ``e5``, ``(e5-person-1-)`` is a one-token mention; brackets concatenate
  (``(e1-x(e2-y)``, ``e3)(e4-z``) and are read left to right. OntoGUM's minimal ``(1`` … ``1)`` form
  is the same notation with the entity id alone. The chain label is the entity id; chains are in the
  order their id is first seen, a chain's mentions in the order they close.
* ``# global.Entity = eid-etype-head-other`` (anywhere before the brackets; it holds for the rest of
  the file) names the dash-separated fields of an opening bracket; without it the CorefUD default
  ``eid-etype-head-other`` is assumed. GUM declares
  ``GRP-etype-infstat-salience-centering-minspan-link-identity`` (``GRP`` is read as the entity id).
  A bracket with more fields than declared joins the rest into the last field. Mention features:
  ``etype``; when declared and not empty, ``infstat``, ``link_type`` (GUM's ``link`` field) and
  ``head`` (the 1-based position inside the mention turned into a document token index; an index
  that is not a number from 1 to the mention's word count is an error naming the line of its
  bracket — it used to become the first word, silently changing ``--match head`` scores). GUM's ``minspan`` is a set of positions, not a head, and is
  not read.
* GUM's ``link`` field, as found in the 20 GUM documents of the shared data, is *mostly* the type
  of the link that reaches the mention from its antecedent (``ana``, ``appos``, ``cata``, ``pred``,
  ``coref``); chain-initial mentions carry ``coref`` (a few chain-initial pronouns ``ana``),
  singletons ``sgl``, and ``disc`` marks the non-nominal *antecedent* of a discourse-deixis link,
  not the anaphor (which carries ``coref``). The value is passed on as written.
* Discontinuous mentions (``(e7[1/2]-…`` … ``e7[1/2])`` … ``(e7[2/2]-…`` … ``e7[2/2])``) are one
  mention whose words are the union of its parts (``Mention.words``, sorted; ``start``/``end`` the
  first and last word); its features come from part 1's bracket, its head from the last part's
  head index counted over all its words, as Udapi reads them. A part ``k > 1`` continues the
  entity's first unfinished discontinuous mention that is not open at that moment.
* ``SplitAnte=A<P,B<P`` (split antecedents: the plural entity P = A + B) is read as the Universal
  Anaphora reader reads ``ElementOf``: the mentions of A and B carry ``ElementOf=P``
  (:mod:`.corefud_splitante`), scored under ``--split-antecedents keep|only``, with one warning per
  file that says how many were read.
* ``Bridge=`` (bridging: an anaphor mention anchored on an entity) is read into
  ``Document.layers["bridging_entity"]`` (:mod:`.corefud_bridge`).
* Every empty node is kept, whether or not it carries coreference, in
  ``Document.layers["empty_nodes"]`` (:data:`EMPTY_NODES`) for CRAC 2026's empty-node score
  (:mod:`corefreport.scoring.empty_nodes`): one chain per node, labelled with its ID as written
  (``15.1``), holding one mention on the word it follows (the sentence's first word for ``0.k``)
  whose line is the node's and whose features are its ``sentence`` (0-based in the document),
  ``form``, ``lemma``, ``upos``, ``xpos``, ``feats`` and ``deps`` (the columns as written).
* A word line with a TAB after MISC (and text after it) is read as Udapi reads it: stripped at its end,
  its first 10 columns (a warning at the file's first such line).
* Every error names the file and line: a line with fewer than 10 columns, a bad ID, unreadable ``Entity=``
  text, a head index outside its mention, a closing bracket without an opening one, a mention never closed by the end of its document.
"""

from __future__ import annotations

import re

from pathlib import Path

from ..model import Chain, Corpus, Document, Mention
from .conll2012 import check_line_ends, read_text
from .corefud_bridge import read_bridges
from .corefud_splitante import read_split_antecedents
from ..errors import InputError

EMPTY_NODES = "empty_nodes"
"""The key of the empty nodes in :attr:`Document.layers` (one chain per node, see the module docstring)."""
DEFAULT_FIELDS: tuple[str, ...] = ("eid", "etype", "head", "other")
FIELD_ALIASES = {"grp": "eid", "link": "link_type"}
KEPT_FEATURES = ("etype", "infstat", "link_type")
EMPTY_VALUES = frozenset(("", "_"))

Bracket = tuple[str, str, list[str]]
"""One bracket of an ``Entity=`` value: kind (``open``/``single``/``close``), entity id, fields."""


def parse_entity(value: str) -> list[Bracket] | None:
    """Split an ``Entity=`` value into brackets, left to right; ``None`` when it is not bracket text.

    ``(e1-person-1-(e2-x)e3)`` → ``[("open", "e1", ["e1", "person", "1", ""]), ("single", "e2",
    ["e2", "x"]), ("close", "e3", [])]``. An opening bracket's text runs to the next ``(`` or ``)``.
    """
    out: list[Bracket] = []
    i, n = 0, len(value)
    while i < n:
        if value[i] == "(":
            nxt_open = value.find("(", i + 1)
            nxt_close = value.find(")", i + 1)
            single = nxt_close >= 0 and (nxt_open < 0 or nxt_close < nxt_open)
            j = nxt_close if single else (nxt_open if nxt_open >= 0 else n)
            fields = value[i + 1 : j].split("-")
            if not fields[0]:
                return None
            out.append(("single" if single else "open", fields[0], fields))
            i = j + 1 if single else j
        else:
            j = value.find(")", i)
            if j <= i or "(" in value[i:j]:
                return None
            out.append(("close", value[i:j], []))
            i = j + 1
    return out


class EntityFields:
    """Which dash-separated field of an opening bracket holds which attribute (``# global.Entity``)."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.kept = [(name, names.index(name)) for name in KEPT_FEATURES if name in names]
        self.head = names.index("head") if "head" in names else -1

    @classmethod
    def parse(cls, value: str) -> EntityFields:
        """From the text after ``# global.Entity =`` (lower-cased; ``GRP`` → ``eid``, ``link`` → ``link_type``)."""
        names = [f.strip().lower() for f in value.split("-")]
        return cls(tuple(FIELD_ALIASES.get(f, f) for f in names))

    def value(self, attrs: list[str], k: int) -> str:
        """Field ``k`` of a bracket; the last declared field takes all the rest (a dash in its value)."""
        if k >= len(attrs):
            return ""
        if k == len(self.names) - 1 and len(attrs) > k + 1:
            return "-".join(attrs[k:])
        return attrs[k]

    def features(self, attrs: list[str], start: int, end: int, head: bool = True) -> dict[str, str]:
        """Features of one mention from the fields of its opening bracket (see the module docstring).
        ``head``: read the head index too (a :class:`ValueError` saying why when it is not one of
        the mention's words)."""
        feats = {}
        for name, k in self.kept:
            v = self.value(attrs, k)
            if v and v != "_":
                feats[name] = v
        if head:
            h = self.head_index(attrs, end - start + 1)
            if h is not None:
                feats["head"] = str(start + h - 1)
        return feats

    def head_index(self, attrs: list[str], n: int) -> int | None:
        """The 1-based head index of a bracket whose mention has ``n`` words (``None``: no head field,
        or it is empty or ``_``). An index that is not a number from 1 to ``n`` is a
        :class:`ValueError`: taking the first word instead would silently change ``--match head``
        scores (MUC 100 → 0 on a two-word mention with head 7)."""
        if self.head < 0:
            return None
        h = self.value(attrs, self.head)
        if not h or h == "_":
            return None
        if not (h.isdecimal() and h.isascii()):
            raise ValueError(f"head index {h[:20]!r} is not a number (expected 1 to {n}, a position in the mention)")
        if not 1 <= int(h) <= n:
            raise ValueError(f"head index {h[:20]} is outside the mention's {n} word{'s' if n != 1 else ''} "
                             f"(expected 1 to {n})")
        return int(h)


DEFAULT_ENTITY_FIELDS = EntityFields(DEFAULT_FIELDS)


class _DocumentBuilder:
    """The state of the document being read: tokens, sentences, columns, open brackets, chains."""

    def __init__(self, path: str, doc_id: str, line: int) -> None:
        self.path = path
        self.doc = Document(doc_id=doc_id, source=path, line=line)
        self.rows: list[list[str]] = []
        self.heads: list[int] = []  # document index of the head; -1 root; -2 unknown
        self.chains: dict[str, Chain] = {}
        self.open: dict[str, list[tuple]] = {}  # eid -> [(start, fields, line, discontinuous part | None)]
        self.discontinuous: dict[str, list[dict]] = {}  # eid -> discontinuous mentions being read
        self.empties: list[float] = []  # positions of the empty nodes (zeros), in document order
        self.empty_info: dict[float, tuple[int, tuple]] = {}  # position -> (sentence, DEPS)
        self.new_sentence = True
        self.prev_id = 0
        self.opened = 0  # opening brackets read so far (a mention's place among copies of its span)
        self.order: dict[int, int] = {}  # id(mention) -> the number of its opening bracket
        self.bridges: list[tuple[str, float, int]] = []  # Bridge= values: (value, token position, line)
        self.split_antes: list[tuple[str, int]] = []  # SplitAnte= values: (value, line)
        self.lines: list[int] | None = None  # each word's line (read_conllu(..., lines=True))

    def add_words(self, rows: list[list[str]], ids: list[int]) -> int:
        """Append a run of word lines (split into columns) with their integer IDs; return the
        document index of the first. Built with comprehensions: this is the per-token hot path."""
        doc = self.doc
        t0 = len(doc.tokens)
        if self.new_sentence or ids[0] <= self.prev_id:
            doc.sentence_starts.append(t0)
        doc.sentence_starts.extend(t0 + k for k in range(1, len(ids)) if ids[k] <= ids[k - 1])
        self.new_sentence = False
        self.prev_id = ids[-1]
        doc.tokens.extend([r[1] for r in rows])
        self.rows.extend(rows)
        self.heads.extend([(t0 + k - ids[k] + int(r[6]) if r[6] != "0" else -1)
                           if r[6].isdecimal() and len(r[6]) < 10 else -2 for k, r in enumerate(rows)])
        return t0

    def chain(self, eid: str) -> Chain:
        chain = self.chains.get(eid)
        if chain is None:
            chain = self.chains[eid] = Chain(eid)
        return chain

    def add_entity(self, value: str, t: int, line: int, fields: EntityFields) -> None:
        """Apply the brackets of one ``Entity=`` value found on token ``t``."""
        brackets = parse_entity(value)
        if brackets is None:
            raise InputError(self.path, line, f"cannot read Entity={value!r} (expected brackets '(eid-…', "
                             "'eid)' or '(eid-…)')")
        for kind, eid, attrs in brackets:
            part = None
            if "[" in eid or "]" in eid:
                eid, part = self.part(eid, kind, line)
            if kind == "open":
                self.opened += 1
                self.open.setdefault(eid, []).append((t, attrs, line, part, self.opened))
                self.chain(eid)
            elif kind == "single":
                self.opened += 1
                if part is None:
                    self.add_mention(eid, t, t, attrs, line, fields, self.opened)
                else:
                    self.add_part(eid, part, t, t, attrs, fields, line)
            else:
                stack = self.open.get(eid)
                if not stack:
                    raise InputError(self.path, line, f"'{eid})' closes a mention of entity {eid!r} that was never "
                                     f"opened in document {self.doc.doc_id!r}")
                start, opening, first_line, opened_part, seq = stack.pop()
                if opened_part is None:
                    self.add_mention(eid, start, t, opening, first_line, fields, seq)
                else:
                    self.add_part(eid, opened_part, start, t, opening, fields, first_line)

    def part(self, label: str, kind: str, line: int) -> tuple[str, tuple[dict, int, int]]:
        """A discontinuous-mention label ``e7[2/3]``: the entity id and (the mention being built,
        part number, number of parts). Part 1 opens a new mention; a later part continues the
        entity's first unfinished mention that is not open now (as Udapi's ``load_coref_from_misc``)."""
        eid, _, rest = label.partition("[")
        k, _, n = rest.rstrip("]").partition("/")
        if not (eid and k.isdecimal() and n.isdecimal() and 1 <= int(k) <= int(n) and len(k) < 6 and len(n) < 6):
            raise InputError(self.path, line, f"cannot read the discontinuous mention label {label!r} "
                             "(expected e.g. e7[1/2])")
        if kind == "close":
            return eid, None  # the part is known from its opening bracket
        pending = self.discontinuous.setdefault(eid, [])
        if int(k) == 1:
            building = {"words": [], "attrs": None, "line": line}
            pending.append(building)
            return eid, (building, 1, int(n))
        opened = [id(p[3][0]) for p in self.open.get(eid, []) if p[3] is not None]
        for building in pending:
            if id(building) not in opened:
                return eid, (building, int(k), int(n))
        raise InputError(self.path, line, f"part {k}/{n} of a discontinuous mention of entity {eid!r} has no "
                         "part 1 before it")

    def add_part(self, eid: str, part: tuple[dict, int, int], start: int, end: int, attrs: list[str],
                 fields: EntityFields, line: int | None = None) -> None:
        """One part of a discontinuous mention read; the last part makes the mention: its words are
        the union of the parts, its features those of part 1's bracket, its head the last part's
        head index counted over all its words (Udapi)."""
        building, k, n = part
        building["words"].extend(self.words_between(start, end))
        if building["attrs"] is None:
            building["attrs"] = attrs
        if k < n:
            return
        self.discontinuous[eid].remove(building)
        self.finish_mention(eid, building["words"], building["attrs"], attrs, building["line"], fields, line)

    def add_empty(self, pos: float, sentence: int, deps: tuple) -> None:
        self.empties.append(pos)
        self.empty_info[pos] = (sentence, deps)

    def keep_empty_node(self, cols: list[str], first: int, sentence: int, line: int) -> None:
        """Keep empty node ``cols`` (its 10 columns; ``line``: its line) of sentence ``sentence``
        (whose first word is document token ``first``) in ``layers["empty_nodes"]``."""
        word = int(cols[0].partition(".")[0])
        t = first + word - 1 if word else first
        feats = {"form": cols[1], "lemma": cols[2], "upos": cols[3], "xpos": cols[4], "feats": cols[5], "deps": cols[8],
                 "sentence": str(sentence)}
        self.doc.layers.setdefault(EMPTY_NODES, []).append(Chain(cols[0], [Mention(t, t, cols[0], line, feats)]))

    def words_between(self, start: float, end: float) -> list[float]:
        """The words and empty nodes from ``start`` to ``end`` (Udapi: a mention holds the empty
        nodes inside its span)."""
        import math
        from bisect import bisect_left, bisect_right

        ws: list[float] = list(range(math.ceil(start), math.floor(end) + 1))
        if self.empties:
            ws.extend(self.empties[bisect_left(self.empties, start):bisect_right(self.empties, end)])
            ws.sort()
        return ws

    def add_mention(self, eid: str, start: float, end: float, attrs: list[str], line: int,
                    fields: EntityFields, seq: int = 0) -> None:
        if self.empties and (type(start) is float or type(end) is float
                             or self.words_between(start, end)[-1] != end or len(self.words_between(start, end))
                             != end - start + 1):
            self.finish_mention(eid, self.words_between(start, end), attrs, attrs, line, fields)
            return
        try:
            feats = fields.features(attrs, start, end)
        except ValueError as err:
            raise InputError(self.path, line, f"mention of entity {eid!r}: {err}") from None
        self.append(self.chain(eid), Mention(start, end, eid, line, feats), seq)

    def append(self, chain: Chain, m: Mention, seq: int) -> None:
        """Add ``m`` (its opening bracket the ``seq``-th) to ``chain`` in closing order — except that
        copies of one span keep the order they were opened in (``(e1(e1`` … ``e1)e1)`` closes the
        second copy first), as Udapi orders them: which copy (and head) is first matters to
        corefud-scorer (docs/matching.md rule 5a)."""
        ms = chain.mentions
        k = len(ms)
        while k and ms[k - 1].start == m.start and ms[k - 1].end == m.end and ms[k - 1].words is None \
                and self.order.get(id(ms[k - 1]), 0) > seq:
            k -= 1
        ms.insert(k, m)
        self.order[id(m)] = seq

    def finish_mention(self, eid: str, words: list[float], attrs: list[str], head_attrs: list[str], line: int,
                       fields: EntityFields, head_line: int | None = None) -> None:
        """A mention from its words (ints: words, floats: empty nodes): features from ``attrs``, the
        head index of ``head_attrs`` (written on line ``head_line``, default ``line``) counted over
        ``words``; a zero (head on an empty node) carries ``zero_head``, ``zero_sentence`` and
        ``zero_deps`` for --zero-match dependent."""
        import math

        words = sorted(set(words))
        first, last = max(0, math.floor(words[0])), max(0, math.floor(words[-1]))
        feats = fields.features(attrs, first, last, head=False)
        head = words[0]
        try:
            h = fields.head_index(head_attrs, len(words))
        except ValueError as err:
            raise InputError(self.path, head_line or line, f"mention of entity {eid!r}: {err}") from None
        if h is not None:
            head = words[h - 1]
            if type(head) is int:
                feats["head"] = str(head)
        if type(head) is float:
            sentence, deps = self.empty_info[head]
            feats["zero_head"] = repr(head)
            feats["zero_sentence"] = str(sentence)
            feats["zero_deps"] = "|".join(f"{p!r}:{r}" for p, r in deps)
        contiguous = all(type(w) is int for w in words) and len(words) == last - first + 1
        self.chain(eid).mentions.append(Mention(first, last, eid, line, feats,
                                                None if contiguous else tuple(words)))

    def finish(self) -> tuple[Document, int]:
        """Check that every bracket closed, fill the columns; return the document and the number of
        HEAD values that pointed outside their sentence."""
        doc = self.doc
        for eid, stack in self.open.items():
            if stack:
                raise InputError(self.path, stack[0][2], f"mention of entity {eid!r} opened here is never closed "
                                 f"in document {doc.doc_id!r}")
        for eid, pending in self.discontinuous.items():
            if pending:
                raise InputError(self.path, pending[0]["line"], f"discontinuous mention of entity {eid!r} begun "
                                 f"here lacks its last part in document {doc.doc_id!r}")
        doc.chains = [c for c in self.chains.values() if c.mentions]
        read_split_antecedents(doc, self.split_antes, self.path)
        rows = self.rows
        doc.columns = {"lemma": [r[2] for r in rows], "upos": [r[3] for r in rows], "pos": [r[4] for r in rows],
                       "deprel": [r[7] for r in rows]}
        read_bridges(doc, self.bridges, self.path)
        if self.lines is not None:
            doc.columns["line"] = [str(n) for n in self.lines]
        bad = self._check_heads()
        if any(h != -2 for h in self.heads):
            doc.columns["head"] = ["-1" if h == -1 else "_" if h == -2 else str(h) for h in self.heads]
        return doc, bad

    def _check_heads(self) -> int:
        """Mark heads outside their own sentence as unknown; return how many there were."""
        heads, starts = self.heads, self.doc.sentence_starts
        bad = 0
        for k, lo in enumerate(starts):
            hi = starts[k + 1] if k + 1 < len(starts) else len(heads)
            if all(h < 0 or lo <= h < hi for h in heads[lo:hi]):
                continue
            for t in range(lo, hi):
                h = heads[t]
                if h >= 0 and not lo <= h < hi:
                    heads[t] = -2
                    bad += 1
        return bad


class _ConlluReader:
    """Reads one file into a :class:`Corpus`: comment and blank lines one by one, the runs of word
    lines between them in batches."""

    def __init__(self, path: str, lines: bool = False) -> None:
        self.path = path
        self.lines = lines
        self.stem = Path(path).name.split(".")[0]
        self.corpus = Corpus(source=path, format="conllu")
        self.fields = DEFAULT_ENTITY_FIELDS
        self.builder: _DocumentBuilder | None = None
        self.split_ante = 0
        self.bridges = 0
        self.bad_heads = 0
        self.after_misc: int | None = None
        """The first word line with a TAB after MISC (:meth:`beyond_misc`)."""

    def read(self, text: str) -> Corpus:
        if "\r" in text:
            text = text.replace("\r\n", "\n")
        lines = text.split("\n")
        special = [k for k, line in enumerate(lines) if not line or line[0] in "# \t\r"]
        special.append(len(lines))
        prev = -1
        for k in special:
            if k > prev + 1:
                self.word_run(lines, prev + 1, k)
            prev = k
            if k == len(lines):
                break
            line = lines[k]
            if line[:1] == "#":
                self.comment(line, k + 1)
            elif not line.strip():
                if self.builder is not None:
                    self.builder.new_sentence = True
            else:  # a word line that starts with white space: read alone (its ID is then an error)
                self.word_run(lines, k, k + 1)
        self.finish_document()
        self.add_warnings()
        return self.corpus

    def comment(self, line: str, ln: int) -> None:
        body = line[1:].strip()
        if body.startswith("newdoc") and (len(body) == 6 or body[6] in " \t="):
            self.start_document(_newdoc_id(body[6:]) or self.stem, ln)
        elif body.startswith("global.Entity") and "=" in body:
            self.fields = EntityFields.parse(body.split("=", 1)[1].strip())
        elif body.startswith("sent_id") and self.builder is not None:
            self.builder.new_sentence = True
        elif self.builder is not None and (m := GENRE_COMMENT.match(body)):  # GUM's "# meta::genre = news"
            self.builder.doc.meta.setdefault("genre", m.group(1).strip())

    def start_document(self, doc_id: str, ln: int) -> None:
        self.finish_document()
        docs = self.corpus.documents
        if doc_id in docs:
            k = 2
            while f"{doc_id}#{k}" in docs:
                k += 1
            self.corpus.warnings.append(f"{self.path}:{ln}: document id {doc_id!r} repeats; renamed to {doc_id}#{k}")
            doc_id = f"{doc_id}#{k}"
        self.builder = _DocumentBuilder(self.path, doc_id, ln)
        if self.lines:
            self.builder.lines = []

    def finish_document(self) -> None:
        if self.builder is None:
            return
        doc, bad = self.builder.finish()
        self.bad_heads += bad
        self.corpus.documents[doc.doc_id] = doc
        self.builder = None

    def word_run(self, lines: list[str], a: int, b: int) -> None:
        """Lines ``a``..``b-1`` (0-based), none blank or a comment: words, multi-word tokens, empty nodes."""
        rows = [line.split("\t") for line in lines[a:b]]
        if any(len(r) != 10 for r in rows):
            rows = [r if len(r) == 10 else self.beyond_misc(lines[a + k], a + k + 1) for k, r in enumerate(rows)]
        line_of = list(range(a + 1, b + 1))
        everything = None
        if not all(r[0].isdigit() and r[0].isascii() for r in rows):
            keep = [k for k, r in enumerate(rows) if self.is_word(r, a + k + 1)]
            everything = rows
            rows = [rows[k] for k in keep]
            line_of = [a + k + 1 for k in keep]
            if not rows:
                for k, r in enumerate(everything):
                    if _is_range(r[0], ".") and "Entity=" in r[9]:
                        raise InputError(self.path, a + k + 1, f"empty node {r[0]} carries an Entity= annotation "
                                         "but its sentence has no words")
                return
        if any(len(r[0]) > 9 for r in rows):
            k = next(k for k, r in enumerate(rows) if len(r[0]) > 9)
            raise InputError(self.path, line_of[k], f"word ID {rows[k][0][:20]}… is too large")
        ids = [int(r[0]) for r in rows]
        if 0 in ids:
            raise InputError(self.path, line_of[ids.index(0)], "word ID 0 (CoNLL-U word IDs start at 1)")
        if self.builder is None:
            self.start_document(self.stem, line_of[0])
        builder = self.builder
        assert builder is not None
        t0 = builder.add_words(rows, ids)
        if builder.lines is not None:
            builder.lines.extend(line_of)
        if everything is not None and any(_is_range(r[0], ".") for r in everything):
            self.with_empty_nodes(everything, a, t0)
            return
        for k in [k for k, r in enumerate(rows) if "=" in r[9] and ("Entity=" in r[9] or "Bridge=" in r[9]
                                                                     or "SplitAnte=" in r[9])]:
            self.misc(rows[k][9], t0 + k, line_of[k])

    def with_empty_nodes(self, rows: list[list[str]], a: int, t0: int) -> None:
        """A run of lines with empty nodes: give each empty node its position (:func:`empty_position`),
        then read the coreference of words and empty nodes in line order."""
        builder = self.builder
        assert builder is not None
        sentence = len(builder.doc.sentence_starts) - 1
        first = builder.doc.sentence_starts[-1] if builder.doc.sentence_starts else t0
        t = t0 - 1
        positions: list[float | None] = []
        for r in rows:
            tid = r[0]
            if tid.isdigit() and tid.isascii():
                t += 1
                positions.append(t)
            elif _is_range(tid, "."):
                sub = int(tid.partition(".")[2][:4])
                pos = t + sub / 100 if t >= first else first - 0.5 + sub / 100  # after the word before it
                builder.add_empty(pos, sentence, _deps(r[8], first))
                builder.keep_empty_node(r, first, sentence, a + len(positions) + 1)
                positions.append(pos)
            else:
                positions.append(None)
        for k, r in enumerate(rows):
            if positions[k] is not None and "=" in r[9] and ("Entity=" in r[9] or "Bridge=" in r[9]
                                                           or "SplitAnte=" in r[9]):
                self.misc(r[9], positions[k], a + k + 1)

    def misc(self, misc: str, t: int, ln: int) -> None:
        """The coreference items of one MISC cell: ``Entity=`` read, ``SplitAnte=``/``Bridge=`` counted."""
        builder = self.builder
        assert builder is not None
        for item in misc.split("|"):
            if item.startswith("Entity="):
                value = item[7:]
                if value not in EMPTY_VALUES:
                    builder.add_entity(value, t, ln, self.fields)
            elif item.startswith("SplitAnte="):
                self.split_ante += 1
                builder.split_antes.append((item[10:], ln))
            elif item.startswith("Bridge="):
                self.bridges += item.count(",") + 1
                builder.bridges.append((item[7:], t, ln))

    def is_word(self, cols: list[str], ln: int) -> bool:
        """Whether a line is a word; multi-word-token lines (``9-10``) and empty nodes (``15.1``) are
        not (and refused when they carry ``Entity=``); any other ID is an error."""
        tid = cols[0]
        if tid.isdigit() and tid.isascii():
            return True
        entity = any(item.startswith("Entity=") and item[7:] not in EMPTY_VALUES for item in cols[9].split("|"))
        if _is_range(tid, "-"):
            if entity:
                raise InputError(self.path, ln, f"multi-word-token line {tid} carries an Entity= annotation "
                                 "(CorefUD puts coreference on the word lines)")
        elif _is_range(tid, "."):
            pass  # an empty node: positioned between the words by with_empty_nodes
        else:
            raise InputError(self.path, ln, f"bad ID {tid!r} (expected a word ID such as 7, a multi-word-token "
                             "range such as 7-8, or an empty node such as 7.1)")
        return False

    def beyond_misc(self, line: str, ln: int) -> list[str]:
        """The 10 columns of a word line that does not split into 10 at its TABs, as Udapi reads it
        (``udapi/block/read/conllu.py``: the line ``rstrip``-ped, split at TABs, fields after the tenth
        ignored): a TAB after MISC, and what follows it, is dropped with a warning (the first line
        of the file); fewer than 10 columns are an error."""
        cols = line.rstrip().split("\t")
        if len(cols) < 10:
            raise InputError(self.path, ln, f"a CoNLL-U word line has 10 TAB-separated columns, this one has "
                             f"{len(line.split(chr(9)))}")
        if self.after_misc is None:
            self.after_misc = ln
            extra = "\t".join(cols[10:])
            self.corpus.warnings.append(
                f"{self.path}:{ln}: a TAB after the MISC column"
                + (f" and {_shown_text(extra)} after it" if extra else "")
                + ": not valid CoNLL-U; read as Udapi (corefud-scorer) reads it, the first 10 columns (later such "
                  "lines of this file are not listed)")
        return cols[:10]

    def add_warnings(self) -> None:
        if self.split_ante:
            self.corpus.warnings.append(
                f"{self.path}: {self.split_ante} SplitAnte= annotation(s) (split antecedents of plural entities): "
                "scored under --split-antecedents keep|only, ignored otherwise (docs/universal-anaphora.md)")
        if self.bad_heads:
            self.corpus.warnings.append(f"{self.path}: {self.bad_heads} HEAD value(s) point outside their "
                                        "sentence; read as unknown")


def _shown_text(text: str) -> str:
    """Some text of the file, quoted and cut for a message."""
    return repr(text if len(text) <= 40 else text[:40] + "…")


def empty_position(first: int, word: int, sub: int) -> float:
    """Where empty node ``word.sub`` of the sentence starting at document token ``first`` sorts among
    the words: ``sub``/100 after its word (``0.sub``: half a word before the first word). Words are
    integers, empty nodes never are; the order is Udapi's (sentence, ord)."""
    if word == 0:
        return first - 0.5 + sub / 100
    return first + word - 1 + sub / 100


def _deps(cell: str, first: int) -> tuple[tuple[float, str], ...]:
    """An empty node's DEPS (``15:nsubj|16.1:obj``) as (parent position, relation) pairs."""
    out = []
    for item in cell.split("|"):
        parent, sep, rel = item.partition(":")
        if not sep:
            continue
        word, _, sub = parent.partition(".")
        if not word.isdecimal() or (sub and not sub.isdecimal()):
            continue
        pos = -1.0 if word == "0" and not sub else (empty_position(first, int(word), int(sub)) if sub
                                                     else float(first + int(word) - 1))
        out.append((pos, rel))
    return tuple(out)


GENRE_COMMENT = re.compile(r"(?:meta::)?genre\s*=\s*(\S.*)$")
"""A document's genre in a comment: ``# meta::genre = academic`` (GUM) or ``# genre = nw``."""


def _newdoc_id(rest: str) -> str:
    """The id of a ``# newdoc`` line from the text after ``newdoc`` (``' id = X'`` → ``'X'``)."""
    rest = rest.strip()
    if rest.startswith("id"):
        rest = rest[2:].strip()
        if rest.startswith("="):
            return rest[1:].strip()
    return ""


def _is_range(tid: str, sep: str) -> bool:
    """``7-8`` (sep ``-``) or ``7.1`` (sep ``.``): two ASCII integers around ``sep``."""
    a, s, b = tid.partition(sep)
    return bool(s) and a.isascii() and a.isdigit() and b.isascii() and b.isdigit()


def read_conllu(path: str | Path, text: str | None = None, lines: bool = False) -> Corpus:
    """Read every document of one CorefUD CoNLL-U file (see the module docstring for the format);
    ``lines``: keep each word's line number as the column ``line`` (``corefreport check`` names them)."""
    path = str(path)
    if text is None:
        text = read_text(path)
    check_line_ends(path, text)
    return _ConlluReader(path, lines).read(text)
