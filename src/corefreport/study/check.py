"""``corefreport check KEY RESPONSE…``: a submission checked before it is uploaded (docs/check.md).

Every problem is one :class:`Problem` — ``FILE:LINE: message`` — either an **error** (the
submission is not what the task asks for, or an official program stops on it) or a **warning**
(an official program reads the file differently from corefreport: docs/matching.md's deliberate
differences). A pair of files, a key and several responses, or two folders paired by file name
(``--preset crac``: a submission folder against the key folder) are checked:

1. **The files**: each key file has its response file (folders: the same file name); a response
   file without a key is a warning. A CRAC submission (``--preset crac``) is CorefUD CoNLL-U.
2. **Each line** of a CoNLL-U response (all of them, not only the first a reader stops on): 10
   TAB-separated columns, a word, multi-word-token or empty-node ID, readable ``Entity=`` brackets
   (discontinuous parts ``e7[1/2]``), every bracket closed in its document and opened before it
   closes, well-formed ``SplitAnte=`` and ``Bridge=`` values, document ids (``# newdoc id``)
   unique in the file and sentence ids (``# sent_id``) unique in their document, ``Entity=`` only
   after a ``# global.Entity`` line (Udapi, which corefud-scorer reads with, stops without one).
3. **The documents**: every key document is in the response (an error naming the key's line);
   each has the key's words (the first differing words named by line) and sentences; the key's
   empty nodes (``--empty-nodes same``: a task that gives them) or any empty nodes
   (``predicted``: CRAC 2024–2026, where systems predict them; the default of ``--preset crac``).
4. **Warnings** where an official program reads the file otherwise: a span written twice (without
   ``--preset crac`` corefreport scores it as scorer.pl v8.01, corefud-scorer otherwise), an entity
   id in two documents of a file, a key zero without DEPS (corefud-scorer's dependent zero matching
   stops), a response document the key lacks, and — where empty nodes are scored — what
   ``crac2026_empty_nodes_eval.py`` reads otherwise: a second blank line or a sentence without a
   blank line before it (the script numbers sentences by blank lines), documents in another order
   than the key's, an empty node whose DEPS has no ``head:deprel`` or whose first head is an empty
   node (the script stops: an error under ``--preset crac``).

The files are read through :mod:`.read` (the one caller of the readers); nothing is scored.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError, SettingsError
from ..model import Corpus, Document
from . import read

EMPTY_NODE_RULES = ("same", "predicted")
"""``--empty-nodes``: the response keeps the key's empty nodes (``same``), or predicts its own
(``predicted``: CRAC 2024–2026; the default under ``--preset crac``)."""
MAX_WORDS = 10
"""Differing words named per document (then how many more)."""
SCRIPT = "crac2026_empty_nodes_eval.py"
EMPTY = "empty_nodes"
"""Where the reader keeps a document's empty nodes (``Document.layers``)."""
_DISCONTINUOUS = re.compile(r"[^\[\]]+\[(\d{1,5})/(\d{1,5})\]$")


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem of one file: where (``path``, ``line``: ``None`` for the file or a folder), what,
    and whether it is only a warning."""

    path: str
    line: int | None
    message: str
    warning: bool = False

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {'warning: ' if self.warning else ''}{self.message}"


@dataclass(frozen=True)
class CheckReport:
    """What :func:`check` found: every problem in order, and the (key, response) files checked."""

    problems: tuple[Problem, ...]
    files: tuple[tuple[str, str], ...]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.warning]

    @property
    def clean(self) -> bool:
        """No error (warnings allowed)."""
        return not self.errors


def check(key: str, responses: list[str], preset: str | None = None, empty_nodes: str | None = None) -> CheckReport:
    """Check each response (a file, or a folder of files named as the key folder's) against ``key``
    (module docstring). ``preset``: ``crac`` for a CRAC submission; ``empty_nodes``: one of
    :data:`EMPTY_NODE_RULES` (default: ``predicted`` under ``crac``, else ``same``)."""
    if preset not in (None, "crac"):
        raise SettingsError(f"check knows --preset crac only (got {preset!r})")
    rule = empty_nodes or ("predicted" if preset == "crac" else "same")
    if rule not in EMPTY_NODE_RULES:
        raise SettingsError(f"--empty-nodes takes {' or '.join(EMPTY_NODE_RULES)}, got {rule!r}")
    if not responses:
        raise SettingsError("check takes KEY and at least one RESPONSE")
    problems: list[Problem] = []
    pairs = _pairs(key, responses, problems)
    keys: dict[str, tuple[Corpus | None, list[Problem]]] = {}
    for k, r in pairs:
        if k not in keys:
            keys[k] = _read_key(k)
        kc, kproblems = keys[k]
        problems.extend(p for p in kproblems if p not in problems)
        if kc is not None:
            problems.extend(check_files(kc, r, preset == "crac", rule))
    return CheckReport(tuple(problems), tuple(pairs))


# --------------------------------------------------------------------------- files


def _pairs(key: str, responses: list[str], problems: list[Problem]) -> list[tuple[str, str]]:
    """(key file, response file) pairs: a file and files, or folders paired by file name."""
    from .manifest import _by_stem

    kp = Path(key)
    if not kp.exists():
        raise InputError(key, None, "no such file or directory")
    for r in responses:
        if not Path(r).exists():
            raise InputError(r, None, "no such file or directory")
        if Path(r).is_dir() != kp.is_dir():
            raise SettingsError(f"{r}: KEY and each RESPONSE are all files, or all folders (one file per dataset, "
                                "paired by name)")
    if not kp.is_dir():
        return [(key, r) for r in responses]
    out = []
    keys = _by_stem(kp, "key")
    if not keys:
        raise InputError(key, None, "the key folder holds no file")
    for r in responses:
        found = _by_stem(Path(r), "response")
        for stem, k in keys.items():
            if stem in found:
                out.append((str(k), str(found[stem])))
            else:
                problems.append(Problem(r, None, f"no response file for dataset {stem!r} (key {k}): name it "
                                                 f"{k.name}"))
        problems.extend(Problem(str(p), None, "a response file without a key file of the same name: it is not "
                                              "scored", True) for s, p in found.items() if s not in keys)
    return out


def _read_key(path: str) -> tuple[Corpus | None, list[Problem]]:
    try:
        fmt, text = read.file_text(path)
        return read.checked_corpus(path, text, fmt), []
    except InputError as err:
        return None, [Problem(err.path, err.line, f"the key cannot be read: {err.problem}")]


def check_files(key: Corpus, path: str, crac: bool, rule: str) -> list[Problem]:
    """The problems of one response file against a key read whole (``crac``: a CRAC submission;
    ``rule``: :data:`EMPTY_NODE_RULES`)."""
    try:
        fmt, text = read.file_text(path)
    except InputError as err:
        return [Problem(err.path, err.line, err.problem)]
    problems: list[Problem] = []
    if crac and fmt != "conllu":
        return [Problem(path, None, f"a CRAC submission is CorefUD CoNLL-U; this file reads as {fmt}")]
    layout: list[Problem] = []
    words = Corpus(source=path, format=fmt)
    if fmt == "conllu":
        problems += scan(path, text, crac, layout, words)
    try:
        rc = read.checked_corpus(path, text, fmt)
    except InputError as err:  # the documents' words as the scan found them
        if not any(p.line == err.line and not p.warning for p in problems):
            problems.append(Problem(err.path, err.line, err.problem))
        return problems + compare_words(key, words, False) if words.documents else problems
    said = {(p.path, p.line) for p in problems}
    problems += [p for p in _reader_warnings(rc) if (p.path, p.line) not in said]
    problems += compare(key, rc, crac, rule)
    if any(d.layers.get(EMPTY) for d in (*key, *rc)):
        problems += layout
    return problems


def _reader_warnings(rc: Corpus) -> list[Problem]:
    """The reader's warnings as problems: a document id written twice is an error (ids are unique)."""
    out = []
    for w in rc.warnings:
        if "SplitAnte= annotation(s)" in w:  # what is scored, not a problem
            continue
        path, line, message = rc.source, None, w
        if w.startswith(rc.source + ":"):
            rest = w[len(rc.source) + 1:]
            m = re.match(r"(\d+): (.*)", rest, re.S)
            line, message = (int(m.group(1)), m.group(2)) if m else (None, rest.strip())
        renamed = "repeats; renamed" in message
        out.append(Problem(path, line, message + (" (document ids must be unique)" if renamed else ""), not renamed))
    return out


# --------------------------------------------------------------------------- lines


@dataclass
class _Scan:
    """The state of a line scan: the document's ids, open brackets, the sentence being read."""

    docs: dict[str, int]
    sent_ids: dict[str, int]
    open: dict[str, list[int]]
    doc: str = ""
    in_sentence: bool = False
    separator: list[int] | None = None  # lines between two sentences; None before the first
    empty_line: bool = False  # one of them is truly empty
    blanks: int = 0
    second_blank: int = 0  # the line of a second blank line in a row, until a sentence follows
    prev_id: int = 0
    global_entity: bool = False
    said_global: bool = False
    words: Corpus | None = None  # the documents' words, as a reader that does not stop would read them
    starts: bool = False  # a sentence has begun and its first word is still to come
    current: Document | None = None


def scan(path: str, text: str, crac: bool, layout: list[Problem], words: Corpus | None = None) -> list[Problem]:
    """The line-level problems of a CoNLL-U response (module docstring, 2); ``layout`` receives the
    warnings that matter where empty nodes are scored (how crac2026_empty_nodes_eval.py numbers
    sentences); ``words`` the documents with their words, sentences and lines (what is compared
    with the key when a reader stops at an error)."""
    out: list[Problem] = []
    st = _Scan({}, {}, {}, words=words)
    lines = text.replace("\r\n", "\n").split("\n")
    for n, line in enumerate(lines, 1):
        if not line.strip():
            if st.in_sentence:
                st.in_sentence, st.separator, st.empty_line, st.blanks = False, [], False, 0
            if st.separator is not None:
                st.separator.append(n)
                st.empty_line |= not line
                st.blanks = st.blanks + 1 if not line else st.blanks
                if st.blanks == 2:
                    st.second_blank = n
            continue
        if st.second_blank:
            layout.append(Problem(path, st.second_blank, f"a second blank line in a row: {SCRIPT} counts a sentence at "
                                                         "every blank line, so it compares each later sentence of this "
                                                         "file with another sentence of the key", True))
        st.blanks, st.second_blank = 0, 0
        if line.startswith("#"):
            _comment(path, line, n, st, out, layout)
            continue
        cols = line.split("\t")
        if len(cols) > 10 and len(line.rstrip().split("\t")) >= 10:  # Udapi reads the first 10 (rstrip, split)
            out.append(Problem(path, n, f"a TAB after the MISC column ({len(cols)} TAB-separated fields): the UD "
                                        "validator refuses the line; Udapi (corefud-scorer) and corefreport read its "
                                        "first 10 columns", not crac))
            cols = line.rstrip().split("\t")[:10]
        if len(cols) != 10:
            out.append(Problem(path, n, f"a CoNLL-U word line has 10 TAB-separated columns, this one has {len(cols)}"))
            continue
        _word(path, cols, n, st, crac, out, layout)
    _unclosed(path, st, out)
    return out


def _new_document(path: str, doc_id: str, n: int, st: _Scan) -> None:
    """A document of the scan's words: named as the reader names it (the file's stem without an
    id; a repeated id gets ``#2``)."""
    if st.words is None:
        return
    doc_id = doc_id or Path(path).name.split(".")[0]
    k, name = 2, doc_id
    while name in st.words.documents:
        name, k = f"{doc_id}#{k}", k + 1
    st.current = st.words.documents[name] = Document(name, source=path, line=n, columns={"line": []})


def _sentence_starts(path: str, n: int, st: _Scan, layout: list[Problem], what: str) -> None:
    if st.in_sentence:
        layout.append(Problem(path, n, f"{what} starts a sentence without a blank line before it: {SCRIPT} reads it "
                                       "as part of the sentence before (every later sentence is then another one)",
                              True))
    elif st.separator and not st.empty_line:
        layout.append(Problem(path, st.separator[0], f"a line of white space only, no blank line, ends the sentence "
                                                     f"before: {SCRIPT} does not count it, so it numbers every later "
                                                     "sentence of this file one lower", True))
    if st.separator is not None:
        st.separator, st.empty_line = [], False


def _comment(path: str, line: str, n: int, st: _Scan, out: list[Problem], layout: list[Problem]) -> None:
    body = line[1:].strip()
    if body.startswith("newdoc") and (len(body) == 6 or body[6] in " \t="):
        _unclosed(path, st, out)
        rest = body[6:].strip()
        doc = rest[2:].strip().lstrip("=").strip() if rest.startswith("id") else ""
        if doc and doc in st.docs:
            out.append(Problem(path, n, f"document id {doc!r} is also on line {st.docs[doc]} (document ids must be "
                                        "unique)"))
        st.docs.setdefault(doc, n)
        st.doc, st.sent_ids = doc, {}
        _new_document(path, doc, n, st)
    elif body.startswith("global.Entity") and "=" in body:
        st.global_entity = True
    elif body.startswith("sent_id") and "=" in body:
        sid = body.split("=", 1)[1].strip()
        if sid in st.sent_ids:
            out.append(Problem(path, n, f"sentence id {sid!r} is also on line {st.sent_ids[sid]} of this document "
                                        "(sentence ids must be unique)"))
        st.sent_ids.setdefault(sid, n)
        _sentence_starts(path, n, st, layout, "a '# sent_id' line")
        st.in_sentence, st.prev_id = False, 0


def _word(path: str, cols: list[str], n: int, st: _Scan, crac: bool, out: list[Problem],
          layout: list[Problem]) -> None:
    tid = cols[0]
    word = tid.isascii() and tid.isdigit()
    a, dot, b = tid.partition(".")
    empty = bool(dot) and a.isascii() and a.isdigit() and b.isascii() and b.isdigit()
    a, dash, b = tid.partition("-")
    mwt = bool(dash) and a.isascii() and a.isdigit() and b.isascii() and b.isdigit()
    if not (word or empty or mwt):
        out.append(Problem(path, n, f"bad ID {tid[:20]!r} (expected a word ID such as 7, a multi-word-token range "
                                    "such as 7-8, or an empty node such as 7.1)"))
        return
    if word and st.in_sentence and int(tid) <= st.prev_id:
        _sentence_starts(path, n, st, layout, f"word ID {tid}")
        st.prev_id = 0
        st.in_sentence = False
    elif not st.in_sentence:
        _sentence_starts(path, n, st, layout, "")
    st.starts |= not st.in_sentence  # the sentence's first word is still to come (0.1 may precede it)
    st.in_sentence = True
    if word:
        st.prev_id = int(tid)
        if st.words is not None:
            if st.current is None:
                _new_document(path, "", n, st)
            doc = st.current
            if st.starts or not doc.sentence_starts:
                doc.sentence_starts.append(len(doc.tokens))
            st.starts = False
            doc.tokens.append(cols[1])
            doc.columns["line"].append(str(n))
    if empty:
        _empty_deps(path, tid, cols[8], n, crac, out)
    for item in cols[9].split("|"):
        key, eq, value = item.partition("=")
        if not eq or key not in ("Entity", "SplitAnte", "Bridge") or value in ("", "_"):
            continue
        if key == "Entity":
            _entity(path, value, n, st, mwt, crac, out)
            continue
        try:
            (read.split_ante_pairs if key == "SplitAnte" else read.bridge_links)(value, path, n)
        except InputError as err:
            out.append(Problem(path, n, err.problem))


def _empty_deps(path: str, tid: str, deps: str, n: int, crac: bool, out: list[Problem]) -> None:
    """An empty node's DEPS as crac2026_empty_nodes_eval.py reads it (its first ``head:deprel``)."""
    head, colon, _ = deps.split("|", 1)[0].partition(":")
    if not colon:
        why = f"empty node {tid} has no head:deprel in DEPS ({deps[:20]!r})"
    elif not (head.isascii() and head.isdigit()):
        why = f"the first DEPS head of empty node {tid} is {head[:20]!r}, not a word ID"
    else:
        return
    out.append(Problem(path, n, f"{why}: {SCRIPT} stops on it (ValueError); corefreport's empty-node score keys "
                                "the node by that head as written", not crac))


def _entity(path: str, value: str, n: int, st: _Scan, mwt: bool, crac: bool, out: list[Problem]) -> None:
    if mwt:
        out.append(Problem(path, n, "a multi-word-token line carries an Entity= annotation (CorefUD puts coreference "
                                    "on the word lines)"))
        return
    brackets = read.entity_brackets(value)
    if brackets is None:
        out.append(Problem(path, n, f"cannot read Entity={value[:60]!r} (expected brackets '(eid-…', 'eid)' or "
                                    "'(eid-…)')"))
        return
    if not st.global_entity and not st.said_global:
        st.said_global = True
        out.append(Problem(path, n, "Entity= before any '# global.Entity = …' line: Udapi (corefud-scorer's reader) "
                                    "stops on the file; corefreport reads the default eid-etype-head-other",
                           not crac))
    for kind, eid, _ in brackets:
        if ("[" in eid or "]" in eid) and not ((m := _DISCONTINUOUS.match(eid)) and 1 <= int(m.group(1))
                                               <= int(m.group(2))):
            out.append(Problem(path, n, f"cannot read the discontinuous mention label {eid[:30]!r} (expected e.g. "
                                        "e7[1/2])"))
            continue
        if kind == "open":
            st.open.setdefault(eid, []).append(n)
        elif kind == "close":
            if st.open.get(eid):
                st.open[eid].pop()
            else:
                out.append(Problem(path, n, f"'{eid})' closes a mention of entity {eid!r} that was never opened"
                                            + (f" in document {st.doc!r}" if st.doc else "")))


def _unclosed(path: str, st: _Scan, out: list[Problem]) -> None:
    for eid, opened in st.open.items():
        out.extend(Problem(path, ln, f"mention of entity {eid!r} opened here is never closed"
                                     + (f" in document {st.doc!r}" if st.doc else "")) for ln in opened)
    st.open = {}


# --------------------------------------------------------------------------- documents


def _line(doc: Document, token: int) -> int:
    """The line of a document's word (its document line where the format keeps none)."""
    lines = doc.columns.get("line")
    return int(lines[token]) if lines and 0 <= token < len(lines) else doc.line


def compare(key: Corpus, resp: Corpus, crac: bool, rule: str) -> list[Problem]:
    """The problems of a response corpus against its key (module docstring, 3 and 4)."""
    out = compare_words(key, resp, any(d.layers.get(EMPTY) for d in (*key, *resp)))
    for doc_id in (d.doc_id for d in resp if d.doc_id in key.documents):
        kd, rd = key.documents[doc_id], resp.documents[doc_id]
        if kd.tokens == rd.tokens and kd.sentence_starts == rd.sentence_starts:
            _empty_nodes(kd, rd, rule, crac, out)
        _mentions(kd, rd, crac, out)
    if crac:
        _entity_ids(resp, out)
    return out


def compare_words(key: Corpus, resp: Corpus, empty: bool) -> list[Problem]:
    """Every key document in the response, with its words and sentences; ``empty``: empty nodes
    are scored (documents in another order are then a warning)."""
    out: list[Problem] = []
    rpath = resp.source
    for kd in key:
        if kd.doc_id not in resp.documents:
            out.append(Problem(kd.source, kd.line, f"document {kd.doc_id!r} is missing from the response ({rpath})"))
    shared = [d.doc_id for d in resp if d.doc_id in key.documents]
    for rd in resp:
        if rd.doc_id not in key.documents:
            out.append(Problem(rd.source, rd.line, f"document {rd.doc_id!r} is not in the key: it is not scored", True))
    order = [i for i in key.documents if i in resp.documents]
    if shared != order and empty:
        first = next(r for r, k in zip(shared, order) if r != k)
        rd = resp.documents[first]
        out.append(Problem(rd.source, rd.line, f"the documents are in another order than the key's (document "
                                               f"{first!r} here): {SCRIPT} compares the files sentence by sentence "
                                               "in file order", True))
    for doc_id in shared:
        kd, rd = key.documents[doc_id], resp.documents[doc_id]
        if _words(kd, rd, out):
            _sentences(kd, rd, out)
    return out


def _words(kd: Document, rd: Document, out: list[Problem]) -> bool:
    """The key's words, the same number of them; ``False`` when the counts differ."""
    kt, rt = kd.tokens, rd.tokens
    if len(kt) != len(rt):
        out.append(Problem(rd.source, rd.line, f"document {kd.doc_id!r} has {len(rt)} words here but {len(kt)} in "
                                               f"the key ({kd.source}:{kd.line})"))
        return False
    diff = [t for t, (a, b) in enumerate(zip(kt, rt)) if a != b]
    for t in diff[:MAX_WORDS]:
        s = kd.sentence_of(t)
        first, _ = kd.sentence_bounds(s)
        out.append(Problem(rd.source, _line(rd, t), f"document {kd.doc_id!r}, sentence {s + 1}, word {t - first + 1} "
                                                    f"is {rt[t][:40]!r} here but {kt[t][:40]!r} in the key "
                                                    f"({kd.source}:{_line(kd, t)})"))
    if len(diff) > MAX_WORDS:
        out.append(Problem(rd.source, rd.line, f"document {kd.doc_id!r}: {len(diff) - MAX_WORDS} more words differ "
                                               "from the key's"))
    return True


def _sentences(kd: Document, rd: Document, out: list[Problem]) -> bool:
    """The key's sentences (the same words in each); ``False`` at the first that differs."""
    ks, rs = kd.sentence_starts, rd.sentence_starts
    if ks == rs:
        return True
    j = next((i for i, (a, b) in enumerate(zip(ks, rs)) if a != b), min(len(ks), len(rs)))
    k = max(0, j - 1)  # sentences before j start alike: sentence k ends otherwise (the words are the same)
    (kfirst, klast), (rfirst, rlast) = kd.sentence_bounds(k), rd.sentence_bounds(k)
    out.append(Problem(rd.source, _line(rd, rfirst), f"document {kd.doc_id!r}: sentence {k + 1} has "
                                                     f"{rlast - rfirst + 1} words here but {klast - kfirst + 1} in the "
                                                     f"key ({kd.source}:{_line(kd, kfirst)}): the sentences do not "
                                                     "line up"))
    return False


def _nodes(doc: Document) -> list[tuple[tuple[int, str], int]]:
    return [((int(c.mentions[0].features["sentence"]), c.label), c.mentions[0].line) for c in doc.layers.get(EMPTY, ())]


def _empty_nodes(kd: Document, rd: Document, rule: str, crac: bool, out: list[Problem]) -> None:
    gold, system = _nodes(kd), _nodes(rd)
    if rule == "predicted":
        if gold and not system and crac:
            out.append(Problem(rd.source, rd.line, f"document {kd.doc_id!r} has no empty node where the key has "
                                                   f"{len(gold)}: its zeros and the empty-node score can find none",
                               True))
        return
    g, s = Counter(k for k, _ in gold), Counter(k for k, _ in system)
    missing, extra = g - s, s - g
    for (sentence, nid), line in gold:
        if missing[(sentence, nid)] > 0:
            missing[(sentence, nid)] -= 1
            out.append(Problem(kd.source, line, f"empty node {nid} of sentence {sentence + 1} of document "
                                                f"{kd.doc_id!r} is missing from the response ({rd.source})"))
    for (sentence, nid), line in system:
        if extra[(sentence, nid)] > 0:
            extra[(sentence, nid)] -= 1
            out.append(Problem(rd.source, line, f"empty node {nid} (sentence {sentence + 1} of document "
                                                f"{kd.doc_id!r}) is not in the key (--empty-nodes same: the response "
                                                "keeps the key's empty nodes)"))


def _mentions(kd: Document, rd: Document, crac: bool, out: list[Problem]) -> None:
    """Mentions Udapi refuses (across sentences), spans written twice, key zeros without DEPS."""
    seen: dict[tuple, str] = {}
    for c in rd.chains:
        for m in c.mentions:
            if rd.sentence_of(m.start) != rd.sentence_of(m.end):
                out.append(Problem(rd.source, m.line, f"a mention of entity {c.label!r} crosses a sentence boundary: "
                                                      "Udapi (corefud-scorer's reader) stops on it ('Cross-sentence "
                                                      "mentions not supported')", not crac))
            if not crac and m.ident in seen:
                where = "twice in entity" if seen[m.ident] == c.label else f"in entity {seen[m.ident]!r} and in"
                out.append(Problem(rd.source, m.line, f"this span is written {where} {c.label!r}: corefreport scores "
                                                      "it as scorer.pl v8.01 does, corefud-scorer otherwise (--preset "
                                                      "crac does as it does; docs/matching.md rule 5)", True))
            seen.setdefault(m.ident, c.label)
    for c in kd.chains:
        for m in c.mentions:
            if "zero_head" in m.features and not m.features.get("zero_deps"):
                out.append(Problem(kd.source, m.line, f"a zero of entity {c.label!r} whose empty node has no DEPS: "
                                                      "corefud-scorer's dependent zero matching (its default and "
                                                      "--preset crac's) stops on it (ZeroDivisionError); corefreport "
                                                      "pairs it with no response zero", True))


def _entity_ids(resp: Corpus, out: list[Problem]) -> None:
    """An entity id used in an earlier document of the file, in a document that writes a span in two
    entities: there corefud-scorer orders that entity by its first mention in the file, and which
    entity is "last" for the span can differ (docs/matching.md, "Not reproduced")."""
    first: dict[tuple[str, str], str] = {}
    for d in resp:
        spans: dict[tuple, str] = {}
        shared = False
        for c in d.chains:
            for m in c.mentions:
                shared |= spans.setdefault(m.ident, c.label) != c.label
        reused = [c for c in d.chains if first.get((d.source, c.label), d.doc_id) != d.doc_id]
        if shared and reused:
            c = reused[0]
            out.append(Problem(d.source, c.mentions[0].line, f"entity id {c.label!r} is also used in document "
                                                             f"{first[(d.source, c.label)]!r}, and this document writes "
                                                             "a span in two entities: corefud-scorer may score it "
                                                             "otherwise (docs/matching.md, 'Not reproduced')", True))
        for c in d.chains:
            first.setdefault((d.source, c.label), d.doc_id)
