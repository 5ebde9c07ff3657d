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

The cleaner fills the whole table: time and memory O(m·n), 1.7 GB for a 21,000-word document. Here
the table is filled only where an alignment can go, in four steps:

1. **anchors**: runs of equal words, found left to right: from where the last run ended, the
   nearest place (fewest words skipped on the longer side, ``max(a, b)``) where :data:`ANCHOR`
   words in a row of the response recur in the key, extended while the words stay equal (empty
   nodes are skipped; the key's word runs are indexed once, so a stretch with no run in common is
   crossed in one pass);
2. **the corridor**: every cell between two anchors (the rectangle of the words they leave
   unmatched, from the start and to the end too) and :data:`MARGIN` words on either side of the
   anchors' diagonals and of those rectangles;
3. the table inside the corridor (a cell of equal words whose diagonal neighbour is outside takes
   its other neighbours' cheapest plus one): its last cell is the cost ``D`` of an alignment;
4. **the band** (Ukkonen 1985): reaching cell (c, j) costs at least |c − j| and finishing from it
   |(m − c) − (n − j)|, so every alignment of cost ≤ ``D`` — the cleaner's cheapest among them —
   stays on the diagonals δ = c − j with |δ| + |δ − (m − n)| ≤ ``D``. The cleaner's table on those
   ``D + 1`` diagonals has the cleaner's values on every cell of a cheapest alignment and on every
   neighbour the walk compares them with (a neighbour outside, or above its true value, is on no
   cheapest alignment and fails the comparison alike), so **its walk is the cleaner's**. Filled when
   it holds at most :data:`EXACT_CELLS` cells (and checked: its last cell ≤ ``D``; else the whole
   table when that is as small); beyond, the corridor's walk is the script — a walk of the
   corridor's cheapest alignment, the cleaner's when every cheapest alignment stays in it.

``tests/test_alignment_long.py`` checks the script against the whole table on random texts and on
GUM documents with scattered and block edits (words left out, repeated, replaced). Time and memory
O((m + n)·MARGIN) plus the rectangles between anchors, then O(m·D) for the band: a 5,000-word
markup with 300 edits in about 0.4 s; a 21,000-word one (1,200 edits: beyond the band) aligns in
its corridor in about 0.5 s and 50 MB.

A response so unlike its key that the rectangles exceed :data:`CELLS` cells (say 20,000 words of
another text) is not aligned: :class:`TooDifferent` says how much of the key's words its anchors
matched ("the response's words match 3 % of the key's: not the same text").
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from dataclasses import dataclass

MATCH, SUBSTITUTE, INSERT, DELETE, EMPTY = "match", "substitute", "insert", "delete", "empty"
"""The operations of an edit script: a response word equal to its key word, a response word put
in place of a different key word, a key word the response lacks, a response word the key lacks,
an empty node (``##``) of the response."""

ANCHOR = 4
"""Words in a row a response and its key must share for an anchor."""
MARGIN = 16
"""Words the corridor extends on either side of the anchors' diagonals and the rectangles between them."""
CELLS = 25_000_000
"""The most cells a corridor may have (about 100 MB of table): beyond, :class:`TooDifferent`."""
EXACT_CELLS = 6_000_000
"""The most cells of the diagonals filled after the corridor to give the cleaner's walk exactly
(about 24 MB and 1 s): beyond, the corridor's walk is the script."""
INF = 1 << 30
"""The value of a cell outside the corridor (no alignment reaches it there)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One operation: ``op``, the response word's index ``i`` (``-1``: none) and the key word's
    ``j`` (``-1``: none)."""

    op: str
    i: int
    j: int


class TooDifferent(ValueError):
    """The response and the key have too little text in common to align (see the module docstring)."""

    def __init__(self, share: float, cells: int) -> None:
        if share < 0.5:
            text = f"the response's words match {share:.0%} of the key's: not the same text"
        else:
            text = (f"the response's words match {share:.0%} of the key's, but what lies between their common "
                    f"runs would need a table of {cells:,} cells (at most {CELLS:,}): too far apart to align")
        super().__init__(text.replace("%", " %"))


def is_empty_node(word: str) -> bool:
    """An empty node of text2text-coref's markup: a word written ``##`` or ``##FORM``."""
    return word.startswith("##")


def anchors(response: list[str], key: list[str]) -> list[tuple[int, int, int]]:
    """Runs of equal words ``(c, j, length)``: response word ``c`` of the response without its
    empty nodes equals key word ``j``, and so on for ``length`` words; in order on both sides
    (see the module docstring, step 1).

    >>> anchors("a b c d e f g".split(), "a b c x d e f g".split())
    [(0, 0, 3), (3, 4, 4)]
    """
    m, n = len(response), len(key)
    grams: dict[tuple[str, ...], list[int]] = {}
    for j in range(n - ANCHOR + 1):
        grams.setdefault(tuple(key[j:j + ANCHOR]), []).append(j)
    out: list[tuple[int, int, int]] = []
    c = j = 0
    while c < m and j < n:
        if response[c] != key[j]:  # the nearest place a run of ANCHOR words recurs
            best: tuple[int, int, int, int] | None = None  # (max(a, b), |a - b|, a, b): the fewest words skipped
            for a in range(m - c - ANCHOR + 1):
                if best is not None and a > best[0]:
                    break
                at = grams.get(tuple(response[c + a:c + a + ANCHOR]))
                if not at:
                    continue
                k = bisect_left(at, j)
                if k < len(at):
                    b = at[k] - j
                    cost = (max(a, b), abs(a - b), a, b)
                    if best is None or cost < best:
                        best = cost
            if best is None:
                break
            c, j = c + best[2], j + best[3]
        start_c, start_j = c, j
        while c < m and j < n and response[c] == key[j]:
            c += 1
            j += 1
        out.append((start_c, start_j, c - start_c))
    return out


def _corridor(m: int, n: int, runs: list[tuple[int, int, int]]) -> tuple[list[int], list[int]]:
    """Per row ``c`` (0 … m) of the table without empty nodes, the first and last column of the corridor."""
    lo = [n + 1] * (m + 1)
    hi = [-1] * (m + 1)

    def box(c0: int, c1: int, j0: int, j1: int) -> None:
        for c in range(max(c0 - MARGIN, 0), min(c1 + MARGIN, m) + 1):
            if j0 - MARGIN < lo[c]:
                lo[c] = max(j0 - MARGIN, 0)
            if j1 + MARGIN > hi[c]:
                hi[c] = min(j1 + MARGIN, n)

    c, j = 0, 0
    for c0, j0, length in runs:
        box(c, c0, j, j0)  # the rectangle before the run
        for t in range(length + 1):
            r = c0 + t
            a, b = max(j0 + t - MARGIN, 0), min(j0 + t + MARGIN, n)
            if a < lo[r]:
                lo[r] = a
            if b > hi[r]:
                hi[r] = b
        c, j = c0 + length, j0 + length
    box(c, m, j, n)
    return lo, hi


def _window(row: array, first: int, a: int, b: int) -> array:
    """The values of ``row`` (whose first column is ``first``) over columns ``a`` … ``b``, :data:`INF` where it has none."""
    out = array("i", [INF]) * (b - a + 1)
    s, e = max(a, first), min(b, first + len(row) - 1)
    if s <= e:
        out[s - a:e - a + 1] = row[s - first:e - first + 1]
    return out


def edit_script(response: list[str], key: list[str]) -> list[Step]:
    """The steps that turn ``response`` into ``key``, in order (see the module docstring): the
    corridor's table, then — when the diagonals any alignment as cheap as the corridor's can use
    hold at most :data:`EXACT_CELLS` cells — the table over those diagonals, whose walk is the
    cleaner's.

    >>> [(s.op, s.i, s.j) for s in edit_script(["the", "dgo", "barks", "loud"], ["the", "dog", "barks"])]
    [('match', 0, 0), ('substitute', 1, 1), ('match', 2, 2), ('delete', 3, -1)]
    >>> [s.op for s in edit_script(["a", "b"], ["a", "b", "c", "d"])]
    ['match', 'match', 'insert', 'insert']
    """
    n = len(key)
    words = [w for w in response if not is_empty_node(w)]
    runs = anchors(words, key)
    clo, chi = _corridor(len(words), n, runs)
    cells = sum(max(0, h - lo + 1) for lo, h in zip(clo, chi))
    if cells > CELLS:
        raise TooDifferent(sum(r[2] for r in runs) / max(n, 1), cells)
    lo, rows = _table(response, key, clo, chi, bound=True)
    cost = _last(lo, rows, n)  # finite: the corridor joins the table's corners
    for band in (_band(len(words), n, cost), _band(len(words), n, INF)):
        if band is not None:  # exact when that band holds an alignment of at most ``cost``
            blo, brows = _table(response, key, *band)
            if _last(blo, brows, n) <= cost:  # (the whole table's last cell is the least cost)
                return _walk(response, key, blo, brows)
    return _walk(response, key, lo, rows)


def _last(lo: list[int], rows: list[array], n: int) -> int:
    """The table's value in its last row and column (:data:`INF` when outside the table)."""
    t = n - lo[-1]
    return rows[-1][t] if 0 <= t < len(rows[-1]) else INF


def _band(m: int, n: int, cost: int) -> tuple[list[int], list[int]] | None:
    """Per row ``c`` (0 … m), the first and last column of the diagonals every alignment of at most
    ``cost`` can visit (module docstring, step 4); None when they hold more than :data:`EXACT_CELLS`
    cells. Reaching cell (c, j) costs at least |c − j| and finishing from it |(m − c) − (n − j)|,
    so only the diagonals δ = c − j with |δ| + |δ − (m − n)| ≤ cost are used."""
    if cost >= INF:  # the whole table
        return ([0] * (m + 1), [n] * (m + 1)) if (m + 1) * (n + 1) <= EXACT_CELLS else None
    d = m - n
    low, high = -((cost - d) // 2), (cost + d) // 2  # ⌈(d − cost)/2⌉ … ⌊(d + cost)/2⌋
    if low > high or (m + 1) * (high - low + 1) > EXACT_CELLS:
        return None
    return [max(c - high, 0) for c in range(m + 1)], [min(c - low, n) for c in range(m + 1)]


def _table(response: list[str], key: list[str], clo: list[int], chi: list[int],
           bound: bool = False) -> tuple[list[int], list[array]]:
    """The cleaner's table inside the columns ``clo[c]`` … ``chi[c]`` of each row ``c`` of the
    response without its empty nodes (:data:`INF` elsewhere): per row ``i`` of the response, its
    first column and its values; an empty node's row is the row before it (the same values).
    ``bound``: a cell of equal words whose diagonal neighbour is outside takes the cheapest of its
    other neighbours plus one (the value of an alignment, so the last cell bounds the cleaner's)."""
    m = len(response)
    lo = [0] * (m + 1)
    rows: list[array] = [array("i", range(min(chi[0], len(key)) + 1))]
    c = 0
    for i in range(1, m + 1):
        w = response[i - 1]
        if is_empty_node(w):
            lo[i] = lo[i - 1]
            rows.append(rows[-1])
            continue
        c += 1
        a, b = clo[c], chi[c]
        if a > b:  # no column of this row is in the corridor
            lo[i] = a
            rows.append(array("i"))
            continue
        prev = _window(rows[-1], lo[i - 1], a - 1, b)
        cur = array("i", [INF]) * (b - a + 1)
        left = INF
        t = 0
        for j in range(a, b + 1):
            if j == 0:
                left = i
            elif w == key[j - 1] and (prev[t] < INF or not bound):
                left = prev[t]
            else:
                x, y = prev[t + 1], prev[t]
                if y < x:
                    x = y
                if left < x:
                    x = left
                left = x + 1 if x < INF else INF
            cur[t] = left
            t += 1
        lo[i] = a
        rows.append(cur)
    return lo, rows


def _walk(response: list[str], key: list[str], lo: list[int], rows: list[array]) -> list[Step]:
    """The cleaner's walk back through the table of :func:`_table`."""

    def d(i: int, j: int) -> int:
        t = j - lo[i]
        r = rows[i]
        return r[t] if 0 <= t < len(r) else INF

    steps: list[Step] = []
    i, j = len(response), len(key)
    while i > 0 and j > 0:
        if is_empty_node(response[i - 1]):
            steps.append(Step(EMPTY, i - 1, -1))
            i -= 1
        elif response[i - 1] == key[j - 1]:
            steps.append(Step(MATCH, i - 1, j - 1))
            i -= 1
            j -= 1
        elif d(i, j) == d(i - 1, j - 1) + 1:
            steps.append(Step(SUBSTITUTE, i - 1, j - 1))
            i -= 1
            j -= 1
        elif d(i, j) == d(i - 1, j) + 1:
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
