"""Reader for WebAnno TSV 3.2/3.3 (WebAnno/INCEpTION) coreference with typed, directed links.

GUM's gold files (``coref/gum/tsv``) and xrenner's ``-o webannotsv`` output use this layout::

    #FORMAT=WebAnno TSV 3.2
    #T_SP=webanno.custom.Referent|entity|infstat|…
    #T_RL=webanno.custom.Coref|type|BT_webanno.custom.Referent
    #Text=Byron received his early formal education …
    2-1   26-31  Byron  person[4]              new[4]              …  ana  2-3[7_4]
    2-3   41-44  his    abstract[6]|person[7]  giv:act[6]|giv:act[7]  …  ana  3-10[23_7]

One file is one document, its id the file stem. Choices made here:

* Columns are laid out from the ``#T_SP`` (span), ``#T_CH`` (chain) and ``#T_RL`` (relation)
  headers in their order, after the three fixed columns (``SENT-TOK``, character offsets, token).
  The markables are the span layer the relation's ``BT_`` feature points to (else the first span
  layer); their entity type is the ``entity`` feature (else the layer's first feature), their
  information status the ``infstat`` feature when there is one. An empty trailing column (GUM's
  lines end with a TAB) is allowed.
* Tokens are numbered across the document; a new sentence number starts a sentence. Sub-token rows
  (``2-3.1``) are skipped, and refused when they carry a markable or a link.
* ``entity[7]`` is a markable with id 7 (multi-token, or stacked with another on the token); it
  spans the rows where ``[7]`` appears, which must be consecutive. ``entity`` without an id is a
  one-token markable; several of them on one row (xrenner writes ``abstract|abstract``) have the
  same span and cannot be told apart by a link, so they are read as one markable.
* Links: the ``type`` column and the ``BT_`` column hold ``|``-separated pairs; a repeated pair
  (xrenner writes ``coref|coref|coref|coref`` with repeated targets) counts once. A target is
  ``SENT-TOK`` (both ends one-token markables) or ``SENT-TOK[X_Y]``: ``X`` is the markable at
  ``SENT-TOK``, ``Y`` the markable on the link's own row (``0`` = the one-token markable there).
* Direction, checked on GUM's gold files against GUM's CoNLL-U (``dep/``): the link sits on the row
  of the **antecedent** and points to the mention it introduces. For ``coref``, ``ana``, ``appos``,
  ``pred``, ``disc`` and ``bridge:*`` that mention is later in the text; for ``cata`` (cataphora)
  the row holds the full noun phrase and the link points back to the *earlier* pronoun. In both
  cases the pointed-to mention is the one GUM's CoNLL-U gives that link type.
* Chains are the connected components of the identity links: every link type except ``bridge*``
  (GUM's ``bridge:def``/``bridge:other``/``bridge:aggr``, xrenner's ``bridge``), which is not
  coreference and is left out (counted in a warning). xrenner's ``none`` links count as identity
  (its CoNLL output puts their ends in one cluster); an untyped link does too. A markable without identity links is a
  singleton chain. Within a chain, markables with the same span count once (xrenner writes such
  pairs). Chains are ordered by their first mention, mentions by closing position (as the CoNLL
  readers order them), chain labels are ``0``, ``1``, … in that order.
* Links that name a markable that does not exist (xrenner writes e.g. ``3-10[24_0]`` on a row with
  no one-token markable) are skipped with a warning naming their lines.
* Mention features: ``etype``, ``infstat`` (when declared), ``link_type`` = the type of the link
  that points to the mention from its antecedent (the first one in file order if there are
  several); a mention no link points to gets ``coref`` when its chain has other mentions and
  ``sgl`` when it is a singleton, as in GUM's CoNLL-U; ``antecedent`` = ``"start-end"`` of the
  markable that incoming link comes from.
* Known difference from GUM's CoNLL-U ``link`` field (same chains and tokens, see
  :mod:`corefreport.io.conllu`): GUM's CoNLL-U writes ``disc`` on the discourse-deixis
  *antecedent* and ``coref`` on the anaphor, ``ana`` on a few chain-initial pronouns, and ``coref``
  (not ``sgl``) on markables whose only links are bridging; here every mention gets the type of its
  own incoming identity link.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..model import Chain, Corpus, Document, Mention
from .conll2012 import check_line_ends, read_text
from ..errors import InputError

EMPTY_CELL = frozenset(("", "_"))  # no annotation on the row
NO_VALUE = frozenset(("", "_", "*"))  # no feature value ("*": an annotation whose feature is unset)


@dataclass(slots=True)
class Layout:
    """Where the markable and link columns are, from the ``#T_…`` headers."""

    width: int = 3
    entity: int = -1
    infstat: int = -1
    link_type: int = -1
    link_target: int = -1


@dataclass(slots=True)
class Markable:
    """A span annotation of the referent layer, with the first incoming identity link."""

    start: int
    end: int
    line: int
    features: dict[str, str] = field(default_factory=dict)
    incoming: tuple[str, str] | None = None  # (link type, key of the antecedent markable)


def parse_layout(headers: list[tuple[int, str]], path: str) -> Layout:
    """Column positions from the ``#T_SP``/``#T_CH``/``#T_RL`` header lines (with their line numbers)."""
    spans: list[tuple[str, list[str], int]] = []  # (layer, features, first column)
    relations: list[tuple[list[str], int]] = []  # (features, first column)
    col = 3
    for _, line in headers:
        kind, _, rest = line.partition("=")
        parts = rest.split("|")
        features = parts[1:]
        if kind == "#T_SP":
            spans.append((parts[0], features, col))
        elif kind == "#T_RL":
            relations.append((features, col))
        col += max(1, len(features))
    layout = Layout(width=col)
    if not spans:
        raise InputError(path, headers[0][0] if headers else 1, "no '#T_SP=' span layer header: not a WebAnno TSV "
                         "3 file with markables (WebAnno's own '#T_CH=' chain layer is not supported)")
    targets = {f[3:] for features, _ in relations for f in features if f.startswith("BT_")}
    layer, features, first = next((s for s in spans if s[0] in targets), spans[0])
    layout.entity = first + (features.index("entity") if "entity" in features else 0)
    if "infstat" in features:
        layout.infstat = first + features.index("infstat")
    for features, first in relations:
        bt = [k for k, f in enumerate(features) if f.startswith("BT_")]
        if bt and features[bt[0]][3:] == layer:
            layout.link_target = first + bt[0]
            others = [k for k, f in enumerate(features) if not f.startswith("BT_")]
            layout.link_type = first + others[0] if others else -1
            break
    return layout


def split_cell(cell: str) -> list[str]:
    """Split a stacked cell on ``|``, honouring WebAnno's backslash escapes (``\\|``)."""
    if "\\" not in cell:
        return cell.split("|")
    out, cur, escaped = [], [], False
    for ch in cell:
        if escaped:
            cur.append(ch)
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "|":
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


def split_id(value: str) -> tuple[str, str]:
    """``person[7]`` → (``person``, ``7``); ``person`` → (``person``, ``""``)."""
    if value.endswith("]"):
        i = value.rfind("[")
        if i >= 0:
            return value[:i], value[i + 1 : -1]
    return value, ""


class _WebAnnoReader:
    """Reads one file (one document) into a :class:`Corpus`."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.layout = Layout()
        self.doc = Document(doc_id=Path(path).name.split(".")[0], source=path, line=1)
        self.rows: list[tuple[int, list[str]]] = []  # (line, columns) of the token rows
        self.position: dict[str, int] = {}  # "SENT-TOK" -> document token index
        self.markables: dict[str, Markable] = {}  # "7" (id) or "@12" (one-token markable on token 12)
        self.parent: dict[str, str] = {}
        self.dangling: list[int] = []
        self.bridges = 0
        self.subtokens = 0

    def read(self, text: str) -> Corpus:
        """Tokens first, then markables, then links (a link may point forward), then chains."""
        self.read_rows(text)
        for t, (ln, cols) in enumerate(self.rows):
            self.read_markables(t, ln, cols)
        if self.layout.link_target >= 0:
            for t, (ln, cols) in enumerate(self.rows):
                self.read_links(t, ln, cols)
        self.doc.chains = self.build_chains()
        corpus = Corpus(source=self.path, format="webanno", documents={self.doc.doc_id: self.doc})
        corpus.warnings.extend(self.collect_warnings())
        return corpus

    # -- tokens ---------------------------------------------------------------------------------
    def read_rows(self, text: str) -> None:
        """The ``#T_`` headers (before the first token row) and the token rows, with their line numbers."""
        headers: list[tuple[int, str]] = []
        in_header = True
        last_sentence = ""
        for ln, line in enumerate(text.split("\n"), 1):
            line = line.removesuffix("\r")
            if not line or line.isspace():
                continue
            if line[0] == "#":
                if in_header and line.startswith(("#T_SP=", "#T_CH=", "#T_RL=")):
                    headers.append((ln, line))
                continue
            if in_header:
                self.layout = parse_layout(headers, self.path)
                in_header = False
            cols = self.check_columns(line.split("\t"), ln)
            sentence, _, token = cols[0].partition("-")
            if not (sentence.isascii() and sentence.isdigit() and token):
                raise InputError(self.path, ln, f"bad token id {cols[0]!r} (expected SENT-TOK such as 2-3)")
            if not (token.isascii() and token.isdigit()):
                self.sub_token(cols, ln)
                continue
            if cols[0] in self.position:
                raise InputError(self.path, ln, f"token id {cols[0]} repeats")
            t = len(self.doc.tokens)
            self.position[cols[0]] = t
            if sentence != last_sentence:
                self.doc.sentence_starts.append(t)
                last_sentence = sentence
            self.doc.tokens.append(cols[2])
            self.rows.append((ln, cols))
        if in_header and headers:
            self.layout = parse_layout(headers, self.path)

    def check_columns(self, cols: list[str], ln: int) -> list[str]:
        """The row's columns, when there are as many as the headers declare (extra empty ones allowed)."""
        width = self.layout.width
        if len(cols) < width or any(cols[width:]):
            raise InputError(self.path, ln, f"expected {width} TAB-separated columns (from the #T_ headers), found "
                             f"{len(cols)}")
        return cols

    def sub_token(self, cols: list[str], ln: int) -> None:
        """A sub-token row (``2-3.1``): skipped, unless it carries a markable or a link."""
        base, dot, sub = cols[0].partition("-")[2].partition(".")
        if not (dot and base.isascii() and base.isdigit() and sub.isascii() and sub.isdigit()):
            raise InputError(self.path, ln, f"bad token id {cols[0]!r} (expected SENT-TOK such as 2-3)")
        lay = self.layout
        if any(k >= 0 and cols[k] not in EMPTY_CELL for k in (lay.entity, lay.link_target)):
            raise InputError(self.path, ln, f"sub-token {cols[0]} carries a markable or link: annotations on "
                             "sub-tokens are not supported")
        self.subtokens += 1

    # -- markables ------------------------------------------------------------------------------
    def read_markables(self, t: int, ln: int, cols: list[str]) -> None:
        """The markables on row ``t``: new ones are created, ``[id]`` ones seen before are extended."""
        cell = cols[self.layout.entity]
        if cell in EMPTY_CELL:
            return
        infstat = self.feature_values(cols, self.layout.infstat)
        unnamed = 0
        for value in split_cell(cell):
            label, mid = split_id(value)
            if mid and not (mid.isascii() and mid.isdigit()):
                raise InputError(self.path, ln, f"bad markable {value!r} (expected TYPE or TYPE[id])")
            if mid:
                key, status = mid, infstat[0].get(mid, "")
            else:
                key = f"@{t}"
                status = infstat[1][unnamed] if unnamed < len(infstat[1]) else ""
                unnamed += 1
            known = self.markables.get(key)
            if known is not None:
                if mid and known.end == t - 1:
                    known.end = t
                elif mid and known.end != t:
                    raise InputError(self.path, ln, f"markable [{mid}] (begun on line {known.line}) is not "
                                     "contiguous: it skips tokens")
                continue
            feats = {}
            if label not in NO_VALUE:
                feats["etype"] = label
            if status not in NO_VALUE:
                feats["infstat"] = status
            self.markables[key] = Markable(t, t, ln, feats)
            self.parent[key] = key

    def feature_values(self, cols: list[str], k: int) -> tuple[dict[str, str], list[str]]:
        """Values of one stacked feature column: by markable id, and the id-less ones in order."""
        if k < 0 or cols[k] in NO_VALUE:
            return {}, []
        named: dict[str, str] = {}
        unnamed: list[str] = []
        for value in split_cell(cols[k]):
            v, mid = split_id(value)
            if mid:
                named[mid] = v
            else:
                unnamed.append(v)
        return named, unnamed

    # -- links ----------------------------------------------------------------------------------
    def read_links(self, t: int, ln: int, cols: list[str]) -> None:
        """The links on row ``t`` (each distinct type/target pair once)."""
        targets = cols[self.layout.link_target]
        if targets in EMPTY_CELL:
            return
        target_list = split_cell(targets)
        k = self.layout.link_type
        if k < 0 or cols[k] in NO_VALUE:  # untyped links
            types = [""] * len(target_list)
        else:
            types = split_cell(cols[k])
            if len(types) != len(target_list):
                raise InputError(self.path, ln, f"{len(types)} link type(s) but {len(target_list)} link target(s)")
        for typ, target in dict.fromkeys(zip(types, target_list)):
            self.add_link(t, ln, typ, target)

    def add_link(self, t: int, ln: int, typ: str, target: str) -> None:
        """One link from the markable on row ``t`` to ``target``: joins two chains unless it is bridging."""
        address, there, here = self.parse_target(target, ln)
        tt = self.position.get(address)
        if tt is None:
            raise InputError(self.path, ln, f"link target {target!r}: {address} is not a token of this document")
        source = here if here not in ("", "0") else f"@{t}"
        dest = there if there not in ("", "0") else f"@{tt}"
        if source not in self.markables or dest not in self.markables:
            self.dangling.append(ln)
            return
        if typ.startswith("bridge"):
            self.bridges += 1
            return
        if source == dest:
            return
        a, b = self.find(source), self.find(dest)
        if a != b:
            self.parent[a] = b
        m = self.markables[dest]
        if m.incoming is None:
            m.incoming = (typ if typ not in NO_VALUE else "", source)

    def parse_target(self, target: str, ln: int) -> tuple[str, str, str]:
        """``2-3[7_4]`` → (``2-3``, ``7``, ``4``); ``2-3`` → (``2-3``, ``""``, ``""``)."""
        address, bracket, rest = target.partition("[")
        there = here = ""
        if bracket:
            inner = rest[:-1] if rest.endswith("]") else None
            there, sep, here = (inner or "").partition("_")
            if inner is None or not sep or not (there + here).isascii() or not there.isdigit() or not here.isdigit():
                raise InputError(self.path, ln, f"bad link target {target!r} (expected SENT-TOK or SENT-TOK[id_id])")
        return address, there, here

    def find(self, key: str) -> str:
        """The representative of a markable's chain (union-find with path halving)."""
        parent = self.parent
        while parent[key] != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    # -- chains ---------------------------------------------------------------------------------
    def build_chains(self) -> list[Chain]:
        """Connected components of the identity links, in order of their first mention."""
        marks = self.markables
        groups: dict[str, list[str]] = {}
        for key in sorted(marks, key=lambda k: (marks[k].start, marks[k].end)):
            groups.setdefault(self.find(key), []).append(key)
        chains = []
        for members in groups.values():
            label = str(len(chains))
            kept = self.distinct_spans(members)
            mentions = [self.mention(marks[k], label, len(kept) > 1) for k in kept]
            mentions.sort(key=lambda m: (m.end, -m.start))
            chains.append(Chain(label, mentions))
        return chains

    def distinct_spans(self, members: list[str]) -> list[str]:
        """Members with distinct spans (the first of each span; it inherits a duplicate's incoming link)."""
        by_span: dict[tuple[int, int], str] = {}
        for k in members:
            m = self.markables[k]
            first = by_span.setdefault((m.start, m.end), k)
            if first != k and self.markables[first].incoming is None:
                self.markables[first].incoming = m.incoming
        return list(by_span.values())

    def mention(self, m: Markable, label: str, in_chain: bool) -> Mention:
        """The mention of a markable, with ``link_type`` and ``antecedent`` from its incoming link."""
        feats = dict(m.features)
        if m.incoming is not None:
            typ, source = m.incoming
            ante = self.markables[source]
            feats["link_type"] = typ or "coref"
            feats["antecedent"] = f"{ante.start}-{ante.end}"
        else:
            feats["link_type"] = "coref" if in_chain else "sgl"
        return Mention(m.start, m.end, label, m.line, feats)

    def collect_warnings(self) -> list[str]:
        """One warning per kind of thing skipped: dangling links, bridging links, sub-token rows."""
        out = []
        if self.dangling:
            lines = ", ".join(str(x) for x in self.dangling[:5]) + (" …" if len(self.dangling) > 5 else "")
            out.append(f"{self.path}: {len(self.dangling)} link(s) name a markable that does not exist (lines "
                       f"{lines}); ignored")
        if self.bridges:
            out.append(f"{self.path}: {self.bridges} bridging link(s) ignored (bridging is not identity coreference)")
        if self.subtokens:
            out.append(f"{self.path}: {self.subtokens} sub-token row(s) without annotations skipped")
        return out


def read_webanno(path: str | Path, text: str | None = None) -> Corpus:
    """Read one WebAnno TSV 3.x file as one document (see the module docstring for the format)."""
    path = str(path)
    if text is None:
        text = read_text(path)
    check_line_ends(path, text)
    return _WebAnnoReader(path).read(text)
