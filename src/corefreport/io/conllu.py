"""Reader for CorefUD / Universal Anaphora CoNLL-U (coreference in the MISC column, ``Entity=``).

* ``# newdoc id = X`` starts a document (a file without one is one document named by its stem).
* Tokens are the lines whose ID is an integer: multi-word-token lines (``9-10``) carry no
  coreference and are skipped; empty nodes (``15.1``) are skipped, and refused with an error when
  they carry an ``Entity=`` bracket (zeros are not supported yet).
* ``Entity=`` brackets: ``(e5-person-1-`` opens a mention, ``e5)`` closes it, ``(e5-person-1-)`` is a
  one-token mention; brackets concatenate (``(e1-x(e2-y)``). ``# global.Entity = …`` names the
  dash-separated fields (CorefUD: ``eid-etype-head-other``; GUM:
  ``GRP-etype-infstat-salience-centering-minspan-link-identity``); ``etype``, ``infstat`` and ``link``
  (GUM's type of the mention's incoming link: ``coref``, ``ana``, ``appos``, ``cata``, ``pred``, …)
  become mention features ``etype``, ``infstat``, ``link_type``; ``head`` (1-based inside the
  mention) becomes the absolute head token.
* Discontinuous mentions (``[1/2]``) are refused with an error naming file and line.
* ``SplitAnte=`` and ``Bridge=`` are not identity coreference: ignored, with one warning per file.
* Columns: ``lemma``, ``upos``, ``pos`` (XPOS), ``head`` (document-level index of the syntactic head,
  ``-1`` for the root), ``deprel``.
"""

from __future__ import annotations

from pathlib import Path

from ..model import Chain, Corpus, Document, Mention
from .conll2012 import read_text
from .errors import InputError

DEFAULT_FIELDS = ["eid", "etype", "head", "other"]


def parse_entity(value: str) -> list[tuple[str, str, list[str]]] | None:
    """Split an ``Entity=`` value into ("open"|"single"|"close", eid, attribute fields)."""
    out: list[tuple[str, str, list[str]]] = []
    i, n = 0, len(value)
    while i < n:
        if value[i] == "(":
            j = i + 1
            while j < n and value[j] not in "()":
                j += 1
            fields = value[i + 1 : j].split("-")
            if not fields[0]:
                return None
            if j < n and value[j] == ")":
                out.append(("single", fields[0], fields))
                i = j + 1
            else:
                out.append(("open", fields[0], fields))
                i = j
        else:
            j = value.find(")", i)
            if j < 0 or "(" in value[i:j]:
                return None
            out.append(("close", value[i:j], []))
            i = j + 1
    return out


def read_conllu(path: str | Path, text: str | None = None) -> Corpus:
    """Read a CorefUD CoNLL-U file (see the module docstring)."""
    path = str(path)
    if text is None:
        text = read_text(path)
    stem = Path(path).name.split(".")[0]
    corpus = Corpus(source=path, format="conllu")
    fields = DEFAULT_FIELDS
    doc: Document | None = None
    rows: list[list[str]] = []
    sent_first = 0
    stacks: dict[str, list[tuple[int, list[str], int]]] = {}
    chain_of: dict[str, Chain] = {}
    warned = False
    new_sentence = True

    def finish() -> None:
        nonlocal doc
        if doc is None:
            return
        for eid, stack in stacks.items():
            if stack:
                raise InputError(path, stack[0][2], f"mention of entity {eid!r} opened in document {doc.doc_id!r} "
                                 "is never closed")
        doc.columns = {name: [r[k] for r in rows] for name, k in (("lemma", 2), ("upos", 3), ("pos", 4),
                                                                     ("deprel", 7))}
        doc.columns["head"] = [r[10] for r in rows]
        doc.chains = [c for c in chain_of.values() if c.mentions]
        corpus.documents[doc.doc_id] = doc
        doc = None

    def start(doc_id: str, line: int) -> Document:
        nonlocal rows, stacks, chain_of, new_sentence
        finish()
        rows, stacks, chain_of, new_sentence = [], {}, {}, True
        if doc_id in corpus.documents:
            raise InputError(path, line, f"document id {doc_id!r} repeats")
        return Document(doc_id=doc_id, source=path, line=line)

    for ln, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            new_sentence = True
            continue
        if line.startswith("#"):
            body = line[1:].strip()
            if body.startswith("newdoc"):
                doc_id = body.split("=", 1)[1].strip() if "=" in body else f"{stem}#{len(corpus.documents) + 1}"
                doc = start(doc_id, ln)
            elif body.startswith("global.Entity"):
                fields = [f.strip().lower() for f in body.split("=", 1)[1].strip().split("-")]
                if fields and fields[0] == "grp":
                    fields[0] = "eid"
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            raise InputError(path, ln, f"a CoNLL-U token line has 10 TAB-separated columns, this one has {len(cols)}")
        tid = cols[0]
        misc = cols[9]
        if not tid.isdigit():
            if "." in tid and "Entity=" in misc:
                raise InputError(path, ln, f"empty node {tid} carries an Entity annotation: zeros are not supported yet")
            continue
        if doc is None:
            doc = start(stem, ln)
        t = len(doc.tokens)
        if new_sentence:
            doc.sentence_starts.append(t)
            sent_first = t
            new_sentence = False
        elif tid == "1":
            doc.sentence_starts.append(t)
            sent_first = t
        doc.tokens.append(cols[1])
        head = cols[6]
        cols.append(str(sent_first + int(head) - 1) if head.isdigit() and head != "0" else "-1")
        rows.append(cols)
        if misc == "_" or "Entity=" not in misc:
            continue
        for item in misc.split("|"):
            if item.startswith("SplitAnte=") or item.startswith("Bridge="):
                if not warned:
                    corpus.warnings.append(f"{path}: SplitAnte/Bridge annotations are not identity coreference; ignored")
                    warned = True
            if not item.startswith("Entity="):
                continue
            parsed = parse_entity(item[7:])
            if parsed is None:
                raise InputError(path, ln, f"cannot read {item!r} (expected '(eid-…', 'eid)' or '(eid-…)')")
            for kind, eid, attrs in parsed:
                if "[" in eid:
                    raise InputError(path, ln, f"discontinuous mention {eid!r}: not supported yet")
                if kind == "close":
                    stack = stacks.get(eid)
                    if not stack:
                        raise InputError(path, ln, f"'{eid})' closes a mention that was never opened")
                    s, a, _ = stack.pop()
                    _add(chain_of, eid, s, t, a, fields)
                elif kind == "single":
                    _add(chain_of, eid, t, t, attrs, fields)
                else:
                    stacks.setdefault(eid, []).append((t, attrs, ln))
                    chain_of.setdefault(eid, Chain(eid))
    finish()
    return corpus


def _add(chain_of: dict[str, Chain], eid: str, start: int, end: int, attrs: list[str], fields: list[str]) -> None:
    m = Mention(start, end, eid)
    named = dict(zip(fields, attrs))
    if len(attrs) > len(fields) and fields:  # an identity with dashes: the rest belongs to the last field
        named[fields[-1]] = "-".join(attrs[len(fields) - 1 :])
    if named.get("etype"):
        m.features["etype"] = named["etype"]
        m.features["ne"] = named["etype"]
    if named.get("infstat"):
        m.features["infstat"] = named["infstat"]
    if named.get("link"):
        m.features["link_type"] = named["link"]
    h = named.get("head") or named.get("minspan")
    if named.get("head") and h.isdigit():
        m.features["head"] = str(start + int(h) - 1)
    chain_of.setdefault(eid, Chain(eid)).mentions.append(m)
