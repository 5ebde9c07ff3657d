"""Detect a corpus file's format from its content (the file name is not used).

Rules, first match wins:

1. the first non-blank character is ``{`` (or ``[``, a JSON array — the JSON-lines reader then says
   that it wants one object per line) → ``jsonlines``;
2. the first non-blank line starts with ``#FORMAT=WebAnno``, or a ``#T_SP=`` header comes before any
   token line → ``webanno``;
3. a ``#begin document`` / ``# begin document`` line anywhere → ``conll2012``: this includes
   CoNLL-U-plus files with a coreference last column inside ``#begin document`` … ``#end document``
   (the jsonlines sample's ``singe.conll``), which the CoNLL-2012 reader handles;
4. a ``# global.columns`` line naming an ``IDENTITY`` column (among the first lines) → ``ua``
   (Universal Anaphora CoNLL-U Plus, :mod:`.ua`);
4a. ``# newdoc``, ``# global.Entity``, or a 10-column word line with an integer ID whose MISC column
   has ``Entity=`` (among the first lines), or the first token line is a 10-column line with a
   CoNLL-U ID → ``conllu``;
5. no line among the first has a TAB, and a word carries text2text-coref tags (``word|[e1``,
   ``word|e1]``, ``word|[e1]``, several comma-separated) → ``text2text``; or a line holds ``<m>``
   and ``</m>`` → ``brackets`` (Seq2seqCoref's inline mentions; :mod:`.markup`);
6. otherwise ``conll2012`` (whose reader then says what is wrong).
"""

from __future__ import annotations

import re

BEGIN_RE = re.compile(r"^#\s*begin document", re.MULTILINE)
HEAD_LINES = 200


def detect_format(path: str, text: str) -> str:
    """One of ``conll2012``, ``conllu``, ``ua``, ``jsonlines``, ``webanno`` (or a markup format) for the file ``path`` holding ``text``."""
    body = text.lstrip("\ufeff \t\r\n")
    if body[:1] in ("{", "["):
        return "jsonlines"
    if body.startswith("#FORMAT=WebAnno"):
        return "webanno"
    head = _first_lines(body, HEAD_LINES)
    if _webanno_header(head):
        return "webanno"
    if BEGIN_RE.search(text):
        return "conll2012"
    if any(line.startswith("# global.columns") and " IDENTITY" in line for line in head):
        return "ua"
    if _looks_like_conllu(head):
        return "conllu"
    markup = _markup(head)
    return markup or "conll2012"


T2T_TAG = re.compile(r"\S\|\[?[^\s|,\[\]]+\]?(,\[?[^\s|,\[\]]+\]?)*(\s|$)")


def _markup(lines: list[str]) -> str | None:
    """``text2text`` or ``brackets`` when the first lines are markup text (rule 5), else ``None``."""
    if any("\t" in line for line in lines):
        return None
    for line in lines:
        if "<m>" in line and "</m>" in line:
            return "brackets"
        if T2T_TAG.search(line) and ("|[" in line or "]" in line):
            return "text2text"
    return None


MARKUP_SIGN = re.compile(r"[^\s|\[\]]\]")
"""A text2text closing tag (``e1]``) anywhere on a line (:func:`markup_hint` looks for ``<m>``,
``</m>`` and ``|[`` first)."""


def markup_hint(line: str) -> str:
    """The hint an error on a token line gives when the line looks like LLM markup that detection
    did not take for it (rule 5 wants no TAB and a whole tag: a line of TABs, of tags only, or of
    ``</m>`` only is not), else ``""``.

    >>> markup_hint("|[e1] |e1] |[e2]")
    '; it looks like LLM markup: give --response-format text2text (docs/formats.md)'
    >>> markup_hint("John | 1 </m> saw his dog .")
    '; it looks like LLM markup: give --response-format brackets (docs/formats.md)'
    >>> markup_hint("doc 0 0 John NNP (1)|(2)")
    ''
    """
    if "<m>" in line or "</m>" in line:
        return "; it looks like LLM markup: give --response-format brackets (docs/formats.md)"
    if "|[" in line or MARKUP_SIGN.search(line) and "|" in line:
        return "; it looks like LLM markup: give --response-format text2text (docs/formats.md)"
    return ""


def _first_lines(text: str, n: int) -> list[str]:
    lines = text.split("\n", n)[:n]
    return [line.rstrip("\r") for line in lines]


def _webanno_header(lines: list[str]) -> bool:
    """A ``#T_SP=`` header before the first token line."""
    for line in lines:
        if line.startswith("#T_SP="):
            return True
        if line.strip() and not line.startswith("#"):
            return False
    return False


def _looks_like_conllu(lines: list[str]) -> bool:
    first_token_seen = False
    for line in lines:
        if line.startswith("#"):
            body = line[1:].lstrip()
            if body.startswith(("newdoc", "global.Entity")):
                return True
            continue
        if not line.strip():
            continue
        cols = line.split("\t")
        if len(cols) != 10:
            return False
        tid = cols[0]
        if tid.isascii() and tid.isdigit() and "Entity=" in cols[9]:
            return True
        if not first_token_seen and tid.isascii() and (tid.isdigit() or _is_conllu_range(tid)):
            first_token_seen = True
    return first_token_seen


def _is_conllu_range(tid: str) -> bool:
    for sep in ("-", "."):
        a, s, b = tid.partition(sep)
        if s and a.isdigit() and b.isdigit():
            return True
    return False
