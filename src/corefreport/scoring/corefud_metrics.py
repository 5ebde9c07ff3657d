"""The standard metrics as corefud-scorer v1.2 computes them on chains that share a mention.

Used under ``--preset crac`` when a span is written in two chains of one side (docs/matching.md
rule 5d); elsewhere :mod:`.metrics`' contingency-table forms give the same numbers. Chains hold
each mention once (:mod:`.repeats` has removed repeats within a chain), a mention may be in several
chains, and ``side(m)`` — which chain *of a side* holds ``m`` — is the **last** one
(``get_mention_to_clusterid_map``, ``scorer/base/reader.py`` 73–82). Every formula below is the
literal loop of ``scorer/eval/evaluator.py`` (line numbers there), with matched response mentions
already carrying their key mention's identity (:mod:`.matching`):

* MUC (492–525): per chain *c* of one side, ``|c| − 1`` links, ``|c| − #{m ∈ c absent from the other
  side} − #{other side's chains holding c's mentions}`` of them correct;
* B³ (469–489): per chain *c*, ``Σ_{j} n_j² / |c|`` where ``n_j`` counts c's mentions whose chain on
  the other side is ``j``; denominators ``Σ |c|``;
* CEAF (528–569): φ3(K, R) = #{m ∈ K : m ∈ R} (membership, every chain), φ4 = 2 φ3 / (|K| + |R|);
* LEA (572–616): per chain, ``|c| · common / links`` with common the pairs of *c* whose chains on
  the other side are one; a one-mention chain is resolved when its mention's other-side chain has
  one mention;
* BLANC (619–664): coreference links of pairs within a key chain both found in one response chain,
  non-coreference links of pairs across two key chains found in two response chains; the
  denominators count every chain's pairs (``Σ |c|`` mentions, repeats included).
"""

from __future__ import annotations

from collections import Counter
from typing import Hashable, Sequence

from .counts import Counts

Chains = Sequence[Sequence[Hashable]]


def side_of(chains: Chains) -> dict[Hashable, int]:
    """Mention → the last chain holding it."""
    return {m: i for i, c in enumerate(chains) for m in c}


def _muc_side(chains: Chains, other: dict) -> tuple[int, int]:
    tp = p = 0
    for c in chains:
        p += len(c) - 1
        linked = {other[m] for m in c if m in other}
        tp += sum(1 for m in c if m in other) - len(linked)
    return tp, p


def muc(key: Chains, response: Chains) -> Counts:
    """MUC (evaluator.py 492–525)."""
    rn, rd = _muc_side(key, side_of(response))
    pn, pd = _muc_side(response, side_of(key))
    return Counts(rn, rd, pn, pd)


def _bcub_side(chains: Chains, other: dict) -> tuple[float, int]:
    num, den = 0.0, 0
    for c in chains:
        counts = Counter(other[m] for m in c if m in other)
        num += sum(n * n for n in counts.values()) / len(c)
        den += len(c)
    return num, den


def bcub(key: Chains, response: Chains) -> Counts:
    """B³ (evaluator.py 469–489)."""
    rn, rd = _bcub_side(key, side_of(response))
    pn, pd = _bcub_side(response, side_of(key))
    return Counts(rn, rd, pn, pd)


def _phi3(key: Chains, response: Chains) -> dict[tuple[int, int], float]:
    sets = [set(r) for r in response]
    where: dict[Hashable, list[int]] = {}
    for j, r in enumerate(sets):
        for m in r:
            where.setdefault(m, []).append(j)
    cells: dict[tuple[int, int], float] = {}
    for i, k in enumerate(key):
        for m in k:
            for j in where.get(m, ()):
                cells[(i, j)] = cells.get((i, j), 0.0) + 1.0
    return cells


def ceafm(key: Chains, response: Chains) -> Counts:
    """CEAF-m (evaluator.py 558–569): the best 1-to-1 alignment of φ3."""
    from .assignment import components, max_alignment

    cells = _phi3(key, response)
    phi = max_alignment(cells, components(cells))
    return Counts(phi, sum(len(k) for k in key), phi, sum(len(r) for r in response))


def ceafe(key: Chains, response: Chains) -> Counts:
    """CEAF-e (evaluator.py 546–555): the best 1-to-1 alignment of φ4."""
    from .assignment import components, max_alignment

    cells = {(i, j): 2.0 * n / (len(key[i]) + len(response[j])) for (i, j), n in _phi3(key, response).items()}
    phi = max_alignment(cells, components(cells))
    return Counts(phi, len(key), phi, len(response))


def _lea_side(chains: Chains, other_chains: Chains, other: dict) -> tuple[float, int]:
    num, den = 0.0, 0
    for c in chains:
        n = len(c)
        den += n
        if n == 1:
            j = other.get(c[0])
            num += 1.0 if j is not None and len(other_chains[j]) == 1 else 0.0
            continue
        cells = Counter(other[m] for m in c if m in other)
        common = sum(k * (k - 1) / 2 for k in cells.values())
        num += n * common / (n * (n - 1) / 2)
    return num, den


def lea(key: Chains, response: Chains) -> Counts:
    """LEA (evaluator.py 572–616)."""
    rn, rd = _lea_side(key, response, side_of(response))
    pn, pd = _lea_side(response, key, side_of(key))
    return Counts(rn, rd, pn, pd)


def blanc(key: Chains, response: Chains) -> tuple[Counts, Counts]:
    """BLANC's coreference and non-coreference link counts (evaluator.py 619–664)."""
    rside = side_of(response)
    cells = [Counter(rside[m] for m in k if m in rside) for k in key]
    c_ok = sum(n * (n - 1) // 2 for cell in cells for n in cell.values())
    n_ok = 0
    total: Counter = Counter()  # response chains of the mentions of the key chains after this one
    for cell in reversed(cells):
        found = sum(cell.values())
        later = sum(total.values())
        n_ok += found * later - sum(n * total[j] for j, n in cell.items())
        total.update(cell)
    ck = sum(len(k) * (len(k) - 1) // 2 for k in key)
    cr = sum(len(r) * (len(r) - 1) // 2 for r in response)
    nk = sum(len(k) for k in key)
    nr = sum(len(r) for r in response)
    return (Counts(c_ok, ck, c_ok, cr),
            Counts(n_ok, nk * (nk - 1) // 2 - ck, n_ok, nr * (nr - 1) // 2 - cr))
