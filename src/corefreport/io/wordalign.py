"""Word-level edit distance between a response's words and the key's: the edit script a markup
response is read through (:mod:`.markup`).

The rule is text2text-coref's ``_word_level_edit_distance`` (github.com/ondfa/text2text-coref,
``output_cleaner.py``, commit 56d67ec), the CRAC 2025/2026 LLM track's cleaner, reproduced step for
step so that the same words keep the same tags:

* the table: ``d[i][0] = i``, ``d[0][j] = j``; ``d[i][j] = d[i-1][j]`` when response word ``i``
  is an empty node (starts with ``##``: deleted for free); ``d[i-1][j-1]`` when the words are
  equal; else ``1 + min(d[i-1][j], d[i][j-1], d[i-1][j-1])``;
* the walk back from ``(m, n)`` while ``i > 0`` and ``j > 0``, first rule that applies: an empty
  node is *kept* (``i-1``); equal words are a *match* (``i-1, j-1``); ``d[i][j] = d[i-1][j-1] + 1``
  is a *substitution*; ``d[i][j] = d[i-1][j] + 1`` a *deletion* (a response word the key lacks);
  else an *insertion* (a key word the response lacks, ``j-1``). Key words left when ``i`` reaches
  0 are insertions; response words left when ``j`` reaches 0 are dropped (the cleaner does not
  count them: here they are deletions).

Time O(m·n); memory one row of 4-byte integers per response word (``array('i')``: 40 MB for two
documents of 3,000 words).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

MATCH, SUBSTITUTE, INSERT, DELETE, EMPTY = "match", "substitute", "insert", "delete", "empty"
"""The operations of an edit script: a response word equal to its key word, a response word put
in place of a different key word, a key word the response lacks, a response word the key lacks,
an empty node (``##``) of the response."""


@dataclass(frozen=True, slots=True)
class Step:
    """One operation: ``op``, the response word's index ``i`` (``-1``: none) and the key word's
    ``j`` (``-1``: none)."""

    op: str
    i: int
    j: int


def is_empty_node(word: str) -> bool:
    """An empty node of text2text-coref's markup: a word written ``##`` or ``##FORM``."""
    return word.startswith("##")


def edit_script(response: list[str], key: list[str]) -> list[Step]:
    """The steps that turn ``response`` into ``key``, in order (see the module docstring).

    >>> [(s.op, s.i, s.j) for s in edit_script(["the", "dgo", "barks", "loud"], ["the", "dog", "barks"])]
    [('match', 0, 0), ('substitute', 1, 1), ('match', 2, 2), ('delete', 3, -1)]
    >>> [s.op for s in edit_script(["a", "b"], ["a", "b", "c", "d"])]
    ['match', 'match', 'insert', 'insert']
    """
    m, n = len(response), len(key)
    rows = [array("i", range(n + 1))]
    for i in range(1, m + 1):
        prev = rows[-1]
        w = response[i - 1]
        if is_empty_node(w):
            rows.append(array("i", prev))
            continue
        cur = array("i", [i]) * (n + 1)
        left = i
        for j in range(1, n + 1):
            if w == key[j - 1]:
                left = prev[j - 1]
            else:
                a, b, c = prev[j], prev[j - 1], left
                left = (a if a < b else b)
                if c < left:
                    left = c
                left += 1
            cur[j] = left
        rows.append(cur)
    steps: list[Step] = []
    i, j = m, n
    while i > 0 and j > 0:
        if is_empty_node(response[i - 1]):
            steps.append(Step(EMPTY, i - 1, -1))
            i -= 1
        elif response[i - 1] == key[j - 1]:
            steps.append(Step(MATCH, i - 1, j - 1))
            i -= 1
            j -= 1
        elif rows[i][j] == rows[i - 1][j - 1] + 1:
            steps.append(Step(SUBSTITUTE, i - 1, j - 1))
            i -= 1
            j -= 1
        elif rows[i][j] == rows[i - 1][j] + 1:
            steps.append(Step(DELETE, i - 1, -1))
            i -= 1
        else:
            steps.append(Step(INSERT, -1, j - 1))
            j -= 1
    while j > 0:
        steps.append(Step(INSERT, -1, j - 1))
        j -= 1
    while i > 0:  # the cleaner drops these silently, empty nodes too
        steps.append(Step(DELETE, i - 1, -1))
        i -= 1
    steps.reverse()
    return steps
