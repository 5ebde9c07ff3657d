"""Detect a corpus file's format from its content."""

from __future__ import annotations


def detect_format(path: str, text: str) -> str:
    """One of ``conll2012``, ``conllu``, ``jsonlines``, ``webanno``.

    ``{`` first → JSON lines; ``#FORMAT=WebAnno`` → WebAnno TSV; a ``#begin document`` line →
    CoNLL-2012 (also CoNLL-U-plus files that carry one, such as the jsonlines sample's ``singe.conll``);
    ``# newdoc``, ``# global.Entity`` or ``Entity=`` in 10-column lines → CorefUD CoNLL-U; otherwise
    CoNLL-2012 (whose reader then says what is wrong).
    """
    head = text[:20000]
    first = head.lstrip()[:1]
    if first in ("{", "["):
        return "jsonlines"
    if head.lstrip().startswith("#FORMAT=WebAnno"):
        return "webanno"
    for line in head.splitlines():
        s = line.strip()
        if s.startswith("#") and s[1:].strip().startswith("begin document"):
            return "conll2012"
    if "# newdoc" in head or "# global.Entity" in head or ("Entity=" in head and "\t" in head):
        return "conllu"
    return "conll2012"
