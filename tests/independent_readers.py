"""The tests' own readers, written here independently of corefreport's (they are the tests'
reference: never replace them with corefreport's readers): a plain-text table's row, and the
mentions of a CoNLL-2012 file's coreference brackets."""

from __future__ import annotations

import re
from collections import defaultdict


def row_cells(table: str, name: str) -> list[str]:
    """The cells of the row named ``name`` in a plain-text table (cells between ``|``), the name left
    out, across the parts of a table split to fit its width (each part repeats the row's name)."""
    return [c.strip() for line in table.splitlines()
            if "|" in line and line.split("|", 1)[0].strip() == name for c in line.split("|")[1:]]


Mention = tuple[int, int, str]
"""(first word, last word, label): word numbers from 0 in the document."""


def conll_mentions(path) -> list[tuple[str, str, list[list[str]], list[Mention]]]:
    """Per document of a CoNLL-2012 file: its name and part (``#begin document (NAME); part PART``),
    its token lines' tab-separated columns, and its mentions in the order their brackets close,
    read from the last column: ``(L)`` one word, ``(L`` opens, ``L)`` ends the innermost open
    mention of label L; ``-`` none."""
    docs = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#begin document"):
            m = re.match(r"#begin document \((.*)\); part (\d+)", line)
            name, part, rows, mentions, opened = m[1], m[2], [], [], defaultdict(list)
        elif line.startswith("#end document"):
            docs.append((name, part, rows, mentions))
        elif line.strip():
            cols = line.rstrip("\n").split("\t")
            t = len(rows)
            rows.append(cols)
            for cell in cols[-1].split("|"):
                label = cell.strip("()")
                if cell == "-" or not label:
                    continue
                if cell.startswith("(") and cell.endswith(")"):
                    mentions.append((t, t, label))
                elif cell.startswith("("):
                    opened[label].append(t)
                else:
                    mentions.append((opened[label].pop(), t, label))
    return docs
