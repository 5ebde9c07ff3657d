"""The standard coreference metrics, as the CoNLL-2012 reference scorer v8.01 computes them.

Every function takes the key chains and the response chains of ONE document as lists of lists of
hashable mention ids (we use (start, end) spans) and returns the raw :class:`Counts`, which sum over
documents into the corpus score (micro average, as the reference does). Key chains hold each mention
once; response chains may repeat a mention that is not in the key (the reference keeps such
repeats, see :mod:`corefreport.scoring.align`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Hashable, Sequence

from . import corefud_metrics as CM
from .assignment import components, max_alignment
from .counts import Counts, Num, counts_formula, harmonic, ratio, where

Chains = Sequence[Sequence[Hashable]]


def _index(chains: Chains) -> dict[Hashable, int]:
    """Mention → index of the (last) chain that contains it, as the reference's ``Indexa``."""
    return {m: i for i, c in enumerate(chains) for m in c}


@dataclass(slots=True)
class Contingency:
    """The sufficient statistics every metric derives from, computed once per document.

    ``cells[(i, j)] = |K_i ∩ R_j|`` counted over the members of key chain K_i, and the chain sizes
    (response sizes count a repeated non-key mention twice, as the reference does). Metrics whose
    inputs repeat a mention fall back to their literal definitions.
    """

    key: Chains
    response: Chains
    key_sizes: list[int]
    response_sizes: list[int]
    cells: dict[tuple[int, int], int]
    key_repeats: bool
    response_repeats: bool
    comps: list | None = None
    """The connected components of the cells' chain pairs (:func:`_components`), once needed."""
    corefud: bool = False
    """Chains that share a mention are scored as corefud-scorer v1.2 scores them
    (:mod:`.corefud_metrics`; ``--preset crac``) instead of as reference v8.01 does."""

    @property
    def shared(self) -> bool:
        """corefud-scorer's literal formulas apply: :attr:`corefud` and a mention in two chains."""
        return self.corefud and (self.key_repeats or self.response_repeats)


def _components(ct: Contingency) -> list:
    """The components of the chain pairs sharing a mention, computed once for CEAF-m and CEAF-e."""
    if ct.comps is None:
        ct.comps = components(ct.cells)
    return ct.comps


def contingency(key: Chains, response: Chains, corefud: bool = False) -> Contingency:
    """Build the :class:`Contingency` of one document (one pass over the key's mentions);
    ``corefud``: see :attr:`Contingency.corefud`."""
    ridx = _index(response)
    cells: dict[tuple[int, int], int] = {}
    for i, k in enumerate(key):
        for m in k:
            j = ridx.get(m)
            if j is not None:
                cells[(i, j)] = cells.get((i, j), 0) + 1
    ksz = [len(k) for k in key]
    rsz = [len(r) for r in response]
    return Contingency(key, response, ksz, rsz, cells, _repeats(key), _repeats(response), corefud=corefud)


def muc(key: Chains, response: Chains, ct: Contingency | None = None) -> Counts:
    """MUC (Vilain et al. 1995): links of a spanning tree per chain.

    R = Σ_K (|K| − |p(K)|) / Σ_K (|K| − 1), where p(K) partitions K by the response chains (key
    mentions absent from the response are singletons of p(K)); P symmetrically. Both numerators equal
    Σ over non-empty cells K ∩ R of (|K ∩ R| − 1). A key of singletons only gives 0/0 → 0 (reference).

    Vilain et al.'s example: key {A B C D}, response {A B} {C D}: R = (4 − 2) / 3, P = 2 / 2.

    >>> muc([["A", "B", "C", "D"]], [["A", "B"], ["C", "D"]])
    Counts(recall_num=2, recall_den=3, precision_num=2, precision_den=2)
    """
    ct = ct or contingency(key, response)
    if ct.shared:
        return CM.muc(key, response)
    if ct.key_repeats:
        kidx = _index(key)
        correct = 0
        for r in response:
            cells = Counter(kidx[m] for m in set(r) if m in kidx)
            correct += sum(n - 1 for n in cells.values())
    else:
        correct = sum(ct.cells.values()) - len(ct.cells)
    key_links = sum(n - 1 for n in ct.key_sizes if n)
    resp_links = sum(n - 1 for n in ct.response_sizes if n)
    return Counts(correct, key_links, correct, resp_links)


def bcub(key: Chains, response: Chains, ct: Contingency | None = None) -> Counts:
    """B³ (Bagga & Baldwin 1998), reference variant without Cai & Strube's twinless adjustments.

    R = Σ_{m ∈ key} |K(m) ∩ R(m)| / |K(m)| over all key mentions, divided by their number;
    P = Σ_{m ∈ response} |K(m) ∩ R(m)| / |R(m)|, divided by the number of response mentions
    (a response mention absent from the key adds 0 to the numerator and 1 to the denominator).
    A key that repeats a mention (only kept with ``key_duplicates="keep"``) is scored literally as
    the reference does: K(m) is the last key chain holding m, |K ∩ R| counts R's members found in K.

    Key {1 2 3 4 5}, response {1 2} {3 4 5}: R = (2·2/5 + 3·3/5) / 5 = 0.52, P = 5/5.

    >>> bcub([[1, 2, 3, 4, 5]], [[1, 2], [3, 4, 5]])
    Counts(recall_num=2.6, recall_den=5, precision_num=5.0, precision_den=5)
    """
    ct = ct or contingency(key, response)
    if ct.shared:
        return CM.bcub(key, response)
    if ct.key_repeats:
        return _bcub_literal(key, response, _index(key))
    ks, rs = ct.key_sizes, ct.response_sizes
    rnum = pnum = 0.0
    for (i, j), n in ct.cells.items():
        rnum += n * n / ks[i]
        pnum += n * n / rs[j]
    return Counts(rnum, sum(ks), pnum, sum(rs))


def _repeats(chains: Chains) -> bool:
    """True when some mention occurs twice (in one chain or in two)."""
    return sum(len(c) for c in chains) != len({m for c in chains for m in c})


def _bcub_literal(key: Chains, response: Chains, kidx: dict) -> Counts:
    rnum = pnum = 0.0
    sets = [set(k) for k in key]
    for r in response:
        for m in r:
            ki = kidx.get(m)
            if ki is None:
                continue
            ci = sum(1 for x in r if x in sets[ki])
            pnum += ci / len(r)
            rnum += ci / len(key[ki])
    return Counts(rnum, sum(len(k) for k in key), pnum, sum(len(r) for r in response))


def ceafm(key: Chains, response: Chains, ct: Contingency | None = None) -> Counts:
    """Mention-based CEAF (Luo 2005): φ3(K, R) = |K ∩ R|; R = Φ*/Σ|K|, P = Φ*/Σ|R|.

    Φ* is the best one-to-one chain alignment (:func:`~corefreport.scoring.assignment.max_alignment`).
    ``|K ∩ R|`` counts K's members, so a mention the key repeats counts twice (reference
    ``SIMMentionBased``).

    >>> ceafm([[1, 2, 3, 4, 5]], [[1, 2], [3, 4, 5]])   # best alignment {1..5} ↔ {3 4 5}: φ3 = 3
    Counts(recall_num=3.0, recall_den=5, precision_num=3.0, precision_den=5)
    """
    ct = ct or contingency(key, response)
    if ct.shared:
        return CM.ceafm(key, response)
    phi = max_alignment({p: float(n) for p, n in ct.cells.items()}, _components(ct))
    return Counts(phi, sum(ct.key_sizes), phi, sum(ct.response_sizes))


def ceafe(key: Chains, response: Chains, ct: Contingency | None = None) -> Counts:
    """Entity-based CEAF (Luo 2005): φ4(K, R) = 2|K ∩ R| / (|K| + |R|); R = Φ*/#K, P = Φ*/#R.

    >>> ceafe([[1, 2, 3, 4, 5]], [[1, 2], [3, 4, 5]])   # φ4({1..5}, {3 4 5}) = 6/8
    Counts(recall_num=0.75, recall_den=1, precision_num=0.75, precision_den=2)
    """
    ct = ct or contingency(key, response)
    if ct.shared:
        return CM.ceafe(key, response)
    ks, rs = ct.key_sizes, ct.response_sizes
    phi = max_alignment({(i, j): 2.0 * n / (ks[i] + rs[j]) for (i, j), n in ct.cells.items()}, _components(ct))
    return Counts(phi, sum(1 for n in ks if n), phi, sum(1 for n in rs if n))


def lea(key: Chains, response: Chains, ct: Contingency | None = None) -> Counts:
    """LEA (Moosavi & Strube 2016): link-based entity-aware metric.

    R = Σ_K |K| · (Σ_R link(K ∩ R) / link(K)) / Σ_K |K|, with link(n) = n(n−1)/2; P swaps key and
    response. A singleton has one self-link, resolved when the other side has it as a singleton too.

    Key {1..5} (10 links), response {1 2} {3 4 5}: 1 + 3 key links resolved, R = 5·(4/10) / 5;
    each response entity's links are all in the key, P = (2·1 + 3·1) / 5.

    >>> lea([[1, 2, 3, 4, 5]], [[1, 2], [3, 4, 5]])
    Counts(recall_num=2.0, recall_den=5, precision_num=5.0, precision_den=5)
    """
    ct = ct or contingency(key, response)
    if ct.shared:
        return CM.lea(key, response)
    ks, rs = ct.key_sizes, ct.response_sizes
    if ct.key_repeats:
        rnum, pnum = _lea_side(key, response), _lea_side(response, key)
        return Counts(rnum, sum(ks), pnum, sum(rs))
    rres: dict[int, float] = {}
    pres: dict[int, float] = {}
    for (i, j), n in ct.cells.items():
        if ks[i] == 1:
            if rs[j] == 1:
                rres[i] = 1.0
        elif n > 1:
            rres[i] = rres.get(i, 0.0) + n * (n - 1) / 2
        if rs[j] == 1:
            if ks[i] == 1:
                pres[j] = 1.0
        elif n > 1:
            pres[j] = pres.get(j, 0.0) + n * (n - 1) / 2
    rnum = sum(v if ks[i] == 1 else ks[i] * v / (ks[i] * (ks[i] - 1) / 2) for i, v in rres.items())
    pnum = sum(v if rs[j] == 1 else rs[j] * v / (rs[j] * (rs[j] - 1) / 2) for j, v in pres.items())
    return Counts(rnum, sum(ks), pnum, sum(rs))


def _lea_side(gold: Chains, other: Chains) -> float:
    """One side of LEA by its definition (used when the key repeats a mention)."""
    oidx = _index(other)
    total = 0.0
    for g in gold:
        n = len(g)
        if n == 0:
            continue
        if n == 1:
            j = oidx.get(g[0])
            if j is not None and len(other[j]) == 1:
                total += 1.0
            continue
        cells = Counter(oidx[m] for m in g if m in oidx)
        resolved = sum(c * (c - 1) / 2 for c in cells.values())
        total += n * resolved / (n * (n - 1) / 2)
    return total


def blanc_formula(cols: Sequence[Num]) -> tuple[Num, Num, Num]:
    """BLANC (Luo et al. 2014) from coreference (columns 0–3) and non-coreference (4–7) link counts:
    R = (R_C + R_N) / 2, P = (P_C + P_N) / 2, F = (F_C + F_N) / 2 — the N scores alone when the key
    has no coreference link, the C scores alone when it has no non-coreference link, 0 when it has
    neither (reference v8.01).

    >>> blanc_formula((1, 2, 1, 1, 0, 0, 0, 0))
    (0.5, 1.0, 0.6666666666666666)
    """
    c = counts_formula(cols[0:4])
    n = counts_formula(cols[4:8])
    no_c = cols[1] == 0
    no_n = cols[5] == 0
    out = []
    for cv, nv in zip(c, n):
        out.append(where(no_c & no_n, 0.0, where(no_c, nv, where(no_n, cv, (cv + nv) / 2))))
    return out[0], out[1], out[2]


def blanc_corefud_formula(cols: Sequence[Num]) -> tuple[Num, Num, Num]:
    """BLANC as corefud-scorer v1.2 averages it (``scorer/eval/evaluator.py`` lines 271–285): the mean
    of the C and N scores over the components in which the key *or the response* has a link; 0 when
    neither has any. Differs from :func:`blanc_formula` when the key has no link of a kind the
    response has (CoNLL test cases M3, M6, N3, N6): the reference leaves that component out.

    >>> blanc_corefud_formula((0, 0, 0, 1, 1, 1, 1, 1))
    (0.5, 0.5, 0.5)
    >>> blanc_formula((0, 0, 0, 1, 1, 1, 1, 1))
    (1.0, 1.0, 1.0)
    """
    c = counts_formula(cols[0:4])
    n = counts_formula(cols[4:8])
    no_c = (cols[1] == 0) & (cols[3] == 0)
    no_n = (cols[5] == 0) & (cols[7] == 0)
    out = []
    for cv, nv in zip(c, n):
        out.append(where(no_c & no_n, 0.0, where(no_c, nv, where(no_n, cv, (cv + nv) / 2))))
    return out[0], out[1], out[2]


def conll_formula(cols: Sequence[Num]) -> tuple[Num, Num, Num]:
    """CoNLL-2012 (Pradhan et al. 2014): (F_MUC + F_B³ + F_CEAF-e) / 3 from MUC (columns 0–3), B³
    (4–7) and CEAF-e (8–11) counts; R and P are NaN (the score averages F1 values only)."""
    f = (counts_formula(cols[0:4])[2] + counts_formula(cols[4:8])[2] + counts_formula(cols[8:12])[2]) / 3
    nan = f * float("nan")
    return nan, nan, f


@dataclass(frozen=True, slots=True)
class BlancCounts:
    """BLANC link counts (Luo et al. 2014): coreference links C and non-coreference links N.

    R_C = |C_k ∩ C_r| / |C_k|, P_C = |C_k ∩ C_r| / |C_r|, likewise N; BLANC = the mean of the C and N
    values. As in reference v8.01: with no key coreference links BLANC is the N score alone, with no
    key non-coreference links the C score alone, with neither 0; a component with no response links
    has precision 0. Across documents the counts are summed first.
    """

    coref: Counts = Counts()
    noncoref: Counts = Counts()

    def __add__(self, other: "BlancCounts") -> "BlancCounts":
        return BlancCounts(self.coref + other.coref, self.noncoref + other.noncoref)

    def stats(self) -> tuple[float, ...]:
        """The sufficient statistics, in the order of :func:`blanc_formula`'s columns."""
        return self.coref.stats() + self.noncoref.stats()

    def _rpf(self) -> tuple[float, float, float]:
        return blanc_formula(self.stats())

    @property
    def recall(self) -> float:
        return self._rpf()[0]

    @property
    def precision(self) -> float:
        return self._rpf()[1]

    @property
    def f1(self) -> float:
        return self._rpf()[2]

    def as_dict(self) -> dict:
        r, p, f = self._rpf()
        return {
            "recall": r,
            "precision": p,
            "f1": f,
            "coref_links": {"correct": self.coref.recall_num, "key": self.coref.recall_den,
                            "response": self.coref.precision_den},
            "noncoref_links": {"correct": self.noncoref.recall_num, "key": self.noncoref.recall_den,
                               "response": self.noncoref.precision_den},
        }


@dataclass(frozen=True, slots=True)
class BlancCorefudCounts(BlancCounts):
    """BLANC link counts scored as corefud-scorer averages them (:func:`blanc_corefud_formula`)."""

    def __add__(self, other: "BlancCounts") -> "BlancCorefudCounts":
        return BlancCorefudCounts(self.coref + other.coref, self.noncoref + other.noncoref)

    def _rpf(self) -> tuple[float, float, float]:
        return blanc_corefud_formula(self.stats())


def blanc_corefud(key: Chains, response: Chains, ct: Contingency | None = None) -> BlancCorefudCounts:
    """:func:`blanc`'s link counts, scored by :func:`blanc_corefud_formula` (``--preset crac``)."""
    b = blanc(key, response, ct)
    return BlancCorefudCounts(b.coref, b.noncoref)


def _pairs(n: int) -> int:
    return n * (n - 1) // 2


def blanc(key: Chains, response: Chains, ct: Contingency | None = None) -> BlancCounts:
    """BLANC link counts of one document, computed in O(mentions) from chain and cell sizes.

    Links are unordered pairs of distinct mentions: coreference links join two mentions of one chain,
    non-coreference links two mentions of different chains of the same side. The counts:
    C_k = Σ C(|K|,2); N_k = C(#key mentions, 2) − C_k (likewise response);
    |C_k ∩ C_r| = Σ_cells C(|K ∩ R|, 2); |N_k ∩ N_r| = pairs of mentions present on both sides
    that share neither a key nor a response chain (inclusion–exclusion over the common mentions M):
    C(|M|,2) − Σ_K C(|K∩M|,2) − Σ_R C(|R∩M|,2) + Σ_cells C(|K∩R|,2).
    A response that repeats a mention in two chains is scored with the reference's set semantics
    (links are sets of id pairs), by enumeration.

    Key {1..5} has 10 coreference links and no non-coreference link, so BLANC is the C score:
    R = 4/10, P = 4/4.

    >>> b = blanc([[1, 2, 3, 4, 5]], [[1, 2], [3, 4, 5]])
    >>> b.recall, b.precision, round(b.f1, 4)
    (0.4, 1.0, 0.5714)
    """
    ct = ct or contingency(key, response)
    if ct.shared:
        return BlancCounts(*CM.blanc(key, response))
    if ct.key_repeats or ct.response_repeats:
        return _blanc_sets(key, response)
    ks, rs = ct.key_sizes, ct.response_sizes
    ck = sum(n * (n - 1) // 2 for n in ks)
    cr = sum(n * (n - 1) // 2 for n in rs)
    nk = _pairs(sum(ks)) - ck
    nr = _pairs(sum(rs)) - cr
    kin: Counter = Counter()
    rin: Counter = Counter()
    c_ok = 0
    for (i, j), n in ct.cells.items():
        kin[i] += n
        rin[j] += n
        c_ok += n * (n - 1) // 2
    common = sum(kin.values())
    n_ok = _pairs(common) - sum(_pairs(v) for v in kin.values()) - sum(_pairs(v) for v in rin.values()) + c_ok
    return BlancCounts(Counts(c_ok, ck, c_ok, cr), Counts(n_ok, nk, n_ok, nr))


def _blanc_sets(key: Chains, response: Chains) -> BlancCounts:
    """BLANC's links as the reference counts them when a mention repeats (in one chain or in two):
    sets of mention pairs — ``{u, v}`` a coreference link when one chain holds both, a
    non-coreference link when one chain holds ``u`` and another ``v`` (``{u}`` alone: ``u`` twice in
    one chain, or in two chains) — counted without listing them: pairs of mentions that repeat on
    neither side by :func:`blanc`'s sums over chain and cell sizes, pairs with a repeated mention
    one by one (O(repeated mentions × mentions), not O(mentions²)).

    Key [1 2 3] [3 4]: coreference {1,2} {1,3} {2,3} {3,4}; non-coreference {1,3} {1,4} {2,3} {2,4}
    {3} {3,4}. Response [1 2] [3 4]: {1,2} {3,4}; {1,3} {1,4} {2,3} {2,4}.

    >>> b = _blanc_sets([[1, 2, 3], [3, 4]], [[1, 2], [3, 4]])
    >>> (b.coref.recall_num, b.coref.recall_den, b.coref.precision_den), (b.noncoref.recall_num, b.noncoref.recall_den)
    ((2, 4, 2), (4, 6))
    """
    sides = []
    for chains in (key, response):
        where: dict = {}  # mention → the chains holding it (a chain twice if it holds it twice)
        for i, c in enumerate(chains):
            for m in c:
                where.setdefault(m, []).append(i)
        sides.append(where)
    kw, rw = sides
    repeated = [m for w in sides for m, at in w.items() if len(at) > 1]
    repeated = list(dict.fromkeys(repeated))
    rep = set(repeated)
    # pairs of mentions that repeat on neither side: blanc()'s sums over chain and cell sizes
    b = blanc([[m for m in c if m not in rep] for c in key], [[m for m in c if m not in rep] for c in response])
    ck, c_ok, cr = b.coref.recall_den, b.coref.recall_num, b.coref.precision_den
    nk, n_ok, nr = b.noncoref.recall_den, b.noncoref.recall_num, b.noncoref.precision_den
    # pairs with a repeated mention, and a repeated mention's link with itself
    empty: frozenset = frozenset()
    ks = {m: frozenset(at) for m, at in kw.items()}
    rs = {m: frozenset(at) for m, at in rw.items()}
    order = {m: n for n, m in enumerate(repeated)}
    everyone = list(dict.fromkeys([*kw, *rw]))
    for q in repeated:
        a_k, a_r = ks.get(q, empty), rs.get(q, empty)
        for v in everyone:
            if v == q or order.get(v, len(repeated)) < order[q]:
                continue
            b_k, b_r = ks.get(v, empty), rs.get(v, empty)
            c1, c2 = bool(a_k & b_k), bool(a_r & b_r)
            n1 = bool(a_k) and bool(b_k) and not (len(a_k) == 1 and a_k == b_k)
            n2 = bool(a_r) and bool(b_r) and not (len(a_r) == 1 and a_r == b_r)
            ck += c1
            cr += c2
            nk += n1
            nr += n2
            c_ok += c1 and c2
            n_ok += n1 and n2
        at_k, at_r = kw.get(q, ()), rw.get(q, ())
        c1, c2 = len(at_k) > len(a_k), len(at_r) > len(a_r)  # twice in one chain
        n1, n2 = len(a_k) > 1, len(a_r) > 1  # in two chains
        ck += c1
        cr += c2
        nk += n1
        nr += n2
        c_ok += c1 and c2
        n_ok += n1 and n2
    return BlancCounts(Counts(c_ok, ck, c_ok, cr), Counts(n_ok, nk, n_ok, nr))


def conll_score(muc: Counts, bcub: Counts, ceafe: Counts) -> float:
    """CoNLL-2012 score of three metrics' counts (:func:`conll_formula`)."""
    return conll_formula(muc.stats() + bcub.stats() + ceafe.stats())[2]


__all__ = ["contingency", "Contingency", "muc", "bcub", "ceafm", "ceafe", "lea", "blanc", "BlancCounts", "conll_score", "blanc_formula", "conll_formula", "ratio", "harmonic"]
