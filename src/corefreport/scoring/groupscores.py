"""MUC, B³, CEAF-e and LEA of one confusion group, as one flat row of sufficient statistics.

Every one of the four scores is a sum over the non-empty cells |K_i ∩ R_j| and the chain sizes,
and CEAF-e's alignment Φ* never pairs chains that share no mention; so a document's counts are the
sums of its confusion groups' counts (key and response chains connected through shared mentions,
Kummerfeld & Klein 2013, §3). The error analysis corrects one group at a time: it re-scores only
the groups a correction changed and sums rows (:func:`add_rows`) instead of re-scoring the
document. The formulas are those of :mod:`.metrics` (reference scorer v8.01), for chains in which
no mention repeats:

* MUC: R = Σ (|K ∩ R| − 1) / Σ_K (|K| − 1), P = Σ (|K ∩ R| − 1) / Σ_R (|R| − 1) (Vilain et al. 1995);
* B³: R = Σ |K ∩ R|² / |K| / Σ|K|, P = Σ |K ∩ R|² / |R| / Σ|R| (Bagga & Baldwin 1998);
* CEAF-e: Φ* = max Σ 2|K ∩ R| / (|K| + |R|) over one-to-one alignments, R = Φ*/#K, P = Φ*/#R
  (Luo 2005);
* LEA: R = Σ_K |K| · Σ_R link(K ∩ R) / link(K) / Σ|K|, link(n) = n(n − 1)/2, a singleton's one
  self-link resolved when the other side has it as a singleton too (Moosavi & Strube 2016).

>>> g = GroupKey([[(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]])
>>> row = g.row([[(1, 1), (2, 2)], [(3, 3), (4, 4), (5, 5)]])
>>> row[0:4], row[4:8], row[8:12], row[12:16]   # MUC: links 1 + 2 of 4; the rest: metrics.bcub, ceafe, lea
((3, 4, 3, 3), (2.6, 5, 5.0, 5), (0.75, 1, 0.75, 2), (2.0, 5, 5.0, 5))
"""

from __future__ import annotations

from collections import Counter
from typing import Hashable, Iterable, Sequence

from .assignment import max_alignment
from .counts import Counts

METRICS = ("muc", "bcub", "ceafe", "lea")
"""The order of the four scores in a row, each as recall_num, recall_den, precision_num, precision_den."""


class GroupKey:
    """The key side of one confusion group, built once: its chains, each mention's chain, sizes."""

    __slots__ = ("index", "sizes", "size_sum", "links", "entities")

    def __init__(self, chains: Sequence[Iterable[Hashable]]):
        self.index: dict[Hashable, int] = {}
        self.sizes: list[int] = []
        for i, c in enumerate(chains):
            n = 0
            for m in c:
                self.index[m] = i
                n += 1
            self.sizes.append(n)
        self.size_sum = sum(self.sizes)
        self.links = sum(n - 1 for n in self.sizes if n)
        self.entities = sum(1 for n in self.sizes if n)

    def row(self, response: Iterable[Sequence[Hashable]]) -> tuple:
        """The 16 statistics (:data:`METRICS` × 4) of ``response`` (this group's response chains,
        no mention in two of them) against this key; MUC's and every denominator stay integers."""
        of = {m: j for j, r in enumerate(response) for m in r}
        return self.row_of(of, of)

    def row_of(self, mentions: Iterable[Hashable], entity_of: dict) -> tuple:
        """:meth:`row` of the response that puts each of ``mentions`` (this group's key and
        response mentions, each once) in the entity ``entity_of[m]`` (absent: in none)."""
        return self.row_members(self.members(mentions), entity_of)

    def members(self, mentions: Iterable[Hashable]) -> tuple[list[Hashable], list[int | None]]:
        """The mentions and each one's key chain (None outside the key): :meth:`row_members`'
        input, built once for a group scored many times."""
        ms = list(mentions)
        return ms, list(map(self.index.get, ms))

    def row_members(self, members: tuple[list[Hashable], list[int | None]], entity_of: dict,
                    alias: dict | None = None) -> tuple:
        """:meth:`row_of` given :meth:`members`; ``alias``: entity numbers renamed (an entity
        ``j`` of ``entity_of`` counts as ``alias.get(j, j)``). The cells are counted by
        :class:`~collections.Counter` in the members' order (so every float sum below adds in the
        same order as a loop over the members would)."""
        ms, ki = members
        ks = self.sizes
        js = list(map(entity_of.get, ms))
        if alias:
            js = list(map(alias.get, js, js))
        rs = Counter(js)
        rs.pop(None, None)
        cells = Counter(zip(js, ki))  # (j, i) → |K_i ∩ R_j|, with j or i None where a side has none
        rsum = sum(rs.values())
        correct = 0
        rnum_b = pnum_b = 0.0
        weights: dict[tuple[int, int], float] = {}
        rres: dict[int, float] = {}
        pres: dict[int, float] = {}
        for (j, i), n in cells.items():
            if j is None or i is None:
                continue
            ki, rj = ks[i], rs[j]
            correct += n - 1
            rnum_b += n * n / ki
            pnum_b += n * n / rj
            weights[(i, j)] = 2.0 * n / (ki + rj)
            if ki == 1:
                if rj == 1:
                    rres[i] = 1.0
            elif n > 1:
                rres[i] = rres.get(i, 0.0) + n * (n - 1) / 2
            if rj == 1:
                if ki == 1:
                    pres[j] = 1.0
            elif n > 1:
                pres[j] = pres.get(j, 0.0) + n * (n - 1) / 2
        if len(weights) == 1:
            phi = next(iter(weights.values()))
        else:
            phi = best_alignment(weights) if weights else 0.0
        rnum = sum(v if ks[i] == 1 else ks[i] * v / (ks[i] * (ks[i] - 1) / 2) for i, v in rres.items())
        pnum = sum(v if rs[j] == 1 else rs[j] * v / (rs[j] * (rs[j] - 1) / 2) for j, v in pres.items())
        return (correct, self.links, correct, rsum - len(rs),
                rnum_b, self.size_sum, pnum_b, rsum,
                phi, self.entities, phi, len(rs),
                rnum, self.size_sum, pnum, rsum)


def best_alignment(weights: dict[tuple[int, int], float]) -> float:
    """Φ* = max Σ φ over one-to-one alignments of the pairs in ``weights`` (all > 0), as
    :func:`.assignment.max_alignment`: one chain on a side → the best pair; a pair of chains that
    share mentions with no other chain → aligned; of the rest, ≤ 4 chains on the smaller side →
    exact dynamic programming over the subsets of that side; else ``max_alignment``.

    >>> best_alignment({(0, 0): 0.5, (0, 1): 0.8, (1, 1): 0.6})   # 0↔0 and 1↔1 beat 0↔1 alone
    1.1
    >>> best_alignment({(0, 0): 0.5, (1, 1): 0.25, (2, 1): 0.75})   # 0↔0 by itself, then 2↔1
    1.25
    """
    if len(weights) == 1:
        return next(iter(weights.values()))
    deg_l: dict = {}
    deg_r: dict = {}
    for i, j in weights:
        deg_l[i] = deg_l.get(i, 0) + 1
        deg_r[j] = deg_r.get(j, 0) + 1
    if len(deg_l) == 1 or len(deg_r) == 1:
        return max(weights.values())
    # a pair whose chains share a mention with no other chain is aligned as it is
    alone = 0.0
    rest: dict[tuple, float] = {}
    for (i, j), w in weights.items():
        if deg_l[i] == 1 and deg_r[j] == 1:
            alone += w
        else:
            rest[(i, j)] = w
    if not rest:
        return alone
    if len(rest) < len(weights):
        return alone + best_alignment(rest)
    left, right = set(deg_l), set(deg_r)
    flip = len(right) > len(left)  # the bits: the smaller side
    small = sorted(left if flip else right)
    if len(small) > 4:
        return max_alignment(weights)
    bit = {x: 1 << n for n, x in enumerate(small)}
    edges: dict[int, list[tuple[int, float]]] = {}
    for (i, j), w in weights.items():
        a, b = (j, i) if flip else (i, j)
        edges.setdefault(a, []).append((bit[b], w))
    best = {0: 0.0}
    for a in sorted(edges):
        new = dict(best)
        for mask, v in best.items():
            for b, w in edges[a]:
                if not mask & b:
                    t = v + w
                    if t > new.get(mask | b, -1.0):
                        new[mask | b] = t
        best = new
    return max(best.values())


def add_rows(rows: Iterable[Sequence]) -> tuple:
    """Column sums of rows (a document's counts from its groups' rows)."""
    return tuple(sum(col) for col in zip(*rows))


def as_counts(row: Sequence) -> dict[str, Counts]:
    """A row as one :class:`Counts` per score of :data:`METRICS`."""
    return {k: Counts(*row[4 * n:4 * n + 4]) for n, k in enumerate(METRICS)}
