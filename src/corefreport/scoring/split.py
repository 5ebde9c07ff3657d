"""Split antecedents scored as the Universal Anaphora scorer v1 scores them (Paun, Yu et al. 2022,
"Universal Anaphora: the first three years"; Yu et al. 2021, "Evaluating split antecedents";
``juntaoy/universal-anaphora-scorer`` f4adb45, ``coval/ua/reader.py`` ``process_clusters`` and
``coval/eval/evaluator.py``):

* **the pseudo-mention.** A plural entity P (whose members carry ``ElementOf=P``) gains one mention
  more, ``⟨P⟩ = {the chains of its member entities}``, members that are plural themselves replaced by
  theirs (recursively). Two pseudo-mentions are the same when their sets of member chains are.
* **merged chains.** Each chain becomes a set (a span written twice in one entity counts once); a
  chain whose pseudo-mention is already in an earlier chain is merged into it.
* **alignment.** Per document and metric μ, every key pseudo-mention k and response pseudo-mention
  r are scored against each other as two small documents (k's member chains against r's, MUC
  counting singletons): R_μ(k, r), P_μ(k, r), F_μ(k, r). Kuhn–Munkres on F aligns them one to one
  (a side without any gets one empty dummy; ties as ``scipy.optimize.linear_sum_assignment``).
* **scoring.** Inside μ an aligned pseudo-mention counts R_μ in recall, P_μ in precision and F_μ in
  CEAF and BLANC, where an ordinary mention found counts 1; an unaligned one counts 0:

      MUC:   tp(c) = |c| − |p(c)|, the aligned pseudo-mention of c adding score instead of 1 when its
             counterpart's chain is among p(c)
      B³:    Σ_c Σ_g (Σ_{m ∈ c ∩ g} w(m))² / |c|,        w = 1, or the pair's R (recall) / P
      CEAF:  φ3(K, R) = Σ_{m ∈ K ∩ R} w(m),  φ4 = 2 φ3 / (|K| + |R|),   w = F
      LEA:   Σ_c |c| · Σ_{i<j} w(m_i)·w(m_j) [same chain] / link(c) / Σ_c |c|
      BLANC: coreference links Σ_c Σ_{i<j} w(m_i) [m_j found in the same chain];
             non-coreference links Σ w(m_i)·w(m_j) over pairs of different key and response chains

``--split-antecedents only`` scores the pseudo-mentions alone: R = Σ_aligned R-numerators / Σ the
key's R-denominators (likewise P), v1's ``only_split_antecedent``.

v1's order effects are kept, so its numbers come out to the last digit: a chain's mentions are taken
in the order of v1's ``set`` (mentions hash as v1's ``Markable``: the frozenset of start and end; a
pseudo-mention: its frozenset of member chains), which LEA (a pseudo-mention's score multiplies into
the links of its chain's later mentions and stays for the rest of the row) and BLANC's coreference
links (a pseudo-mention found only when its counterpart is identical) depend on. What v1 would loop
forever on (an entity that is its own member) is cut here: a member seen before is not expanded again.

>>> from corefreport.model import Chain, Document, Mention
>>> def doc(*chains):
...     return Document("d", chains=[Chain(l, [Mention(s, e, l, features=dict(f)) for s, e, f in ms]) for l, ms in chains])
>>> key = doc(("1", [(0, 0, {"ElementOf": "3"})]), ("2", [(1, 1, {"ElementOf": "3"})]), ("3", [(5, 5, {})]))
>>> split_counts("muc", key, key)  # the plural entity {⟨1 2⟩, 5}: one link, found
Counts(recall_num=1.0, recall_den=1, precision_num=1.0, precision_den=1)
>>> half = doc(("1", [(0, 0, {"ElementOf": "3"})]), ("2", [(1, 1, {})]), ("3", [(5, 5, {})]))
>>> split_counts("muc", key, half)  # ⟨1⟩ aligned with ⟨1 2⟩: R = 1/2 (MUC with singletons), P = 1
Counts(recall_num=0.5, recall_den=1, precision_num=1.0, precision_den=1)
"""

from __future__ import annotations

from collections import defaultdict, deque
from typing import Hashable, Iterable

from ..model import Document
from .counts import Counts

MODES = ("drop", "keep", "only")
"""``--split-antecedents``: drop (``ElementOf`` ignored, the plural entity an ordinary one; UA v1's
``remove_split_antecedent``) | keep (v1's default) | only (the pseudo-mentions alone)."""

METRICS = ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc", "blanc_crac")
"""The metrics that score pseudo-mentions (v1's six; ``blanc`` and ``blanc_crac`` share the counts)."""

LAYER = "non_referring"


class Span:
    """An ordinary markable: equal by its identity (``Mention.ident``), hashed as v1's ``Markable``
    (``hash(frozenset((start, end)))``) so that sets of them iterate in v1's order."""

    __slots__ = ("ident", "_hash")

    def __init__(self, ident: tuple, start: int, end: int) -> None:
        self.ident = ident
        self._hash = hash(frozenset((start, end)))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Span) and other.ident == self.ident

    def __repr__(self) -> str:
        return f"Span{self.ident}"


class Plural:
    """The pseudo-mention of a plural entity: the set of its member chains (tuples of
    :class:`Span`), equal and hashed by that set (v1's ``split_antecedent_members``)."""

    __slots__ = ("members", "_hash")

    def __init__(self, members: frozenset) -> None:
        self.members = members
        self._hash = hash(members)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Plural) and other.members == self.members

    def __repr__(self) -> str:
        return f"Plural{sorted(tuple(m.ident for m in c) for c in self.members)}"


Cluster = list
Weights = dict  # pseudo-mention → (its counterpart, score)


def clusters(doc: Document | None, plural: bool = True) -> list[list[Hashable]]:
    """The chains v1 scores for one side (``process_clusters`` with singletons and split
    antecedents kept): non-referring entities out, each plural entity with its :class:`Plural`,
    chains as v1's sets (in their iteration order), chains sharing a pseudo-mention merged.
    ``plural`` false: ``ElementOf`` ignored (only the sets)."""
    if doc is None:
        return []
    referring = [(c.label, [Span(m.ident, m.start, m.end) for m in c.mentions]) for c in doc.chains]
    pseudo = [(c.label, [Span(m.ident, m.start, m.end) for m in c.mentions]) for c in doc.layers.get(LAYER, ())]
    every = dict(referring + pseudo)
    members: dict[str, list[str]] = {}
    if plural:
        for c in list(doc.chains) + list(doc.layers.get(LAYER, ())):
            for m in c.mentions:
                for p in m.features.get("ElementOf", "").split(","):
                    if p:
                        members.setdefault(p, []).append(c.label)
    out: list[Cluster] = []
    for label, spans in referring:
        chain: list = list(spans)
        if label in members:
            chain.append(Plural(_expand(label, members, every)))
        out.append(chain)
    if not plural:
        return [list(set(c)) for c in out]
    merged: list[set] = []
    for chain in out:
        existing = None
        for m in chain:
            if isinstance(m, Plural):
                for c2 in merged:
                    if m in c2:
                        existing = c2
                        break
        if existing is not None:
            existing.update(chain)
        else:
            merged.append(set(chain))
    return [list(c) for c in merged]


def _expand(label: str, members: dict[str, list[str]], every: dict[str, list]) -> frozenset:
    """v1's breadth-first expansion of a plural entity into its singular member chains."""
    found = set()
    queue = deque([label])
    seen = {label}
    while queue:
        cur = queue.popleft()
        if cur in members:
            for c in members[cur]:
                if c not in seen:
                    seen.add(c)
                    queue.append(c)
        else:
            found.add(tuple(every.get(cur, ())))
    return frozenset(found)


def _where(chains: Iterable[Cluster]) -> dict:
    """Mention → index of the (last) chain holding it (v1's ``get_markable_assignments``)."""
    return {m: i for i, c in enumerate(chains) for m in c}


def _f1(pn: float, pd: float, rn: float, rd: float) -> float:
    p = 0 if pd == 0 else pn / pd
    r = 0 if rd == 0 else rn / rd
    return 0 if p + r == 0 else 2 * p * r / (p + r)


# --- v1's metrics on chains holding pseudo-mentions (one side's chains, the other side's index) ---

def _muc(chains: list, others: list, where: dict, w: Weights, singletons: bool = False) -> tuple[float, float]:
    tp = p = 0.0
    for c in chains:
        if len(c) == 1 and singletons:
            p += 1
            if c[0] in where and len(others[where[c[0]]]) == 1:
                tp += 1
            continue
        p += len(c) - 1
        tp += len(c)
        linked = set()
        plural = None
        for m in c:
            if isinstance(m, Plural):
                plural = m
            elif m in where:
                linked.add(where[m])
            else:
                tp -= 1
        if plural is not None:
            if plural in w:
                other, score = w[plural]
                tp -= (1 - score) if where[other] in linked else 1
            else:
                tp -= 1
        tp -= len(linked)
    return tp, p


def _bcub(chains: list, where: dict, w: Weights) -> tuple[float, float]:
    num = den = 0.0
    for c in chains:
        counts: dict = defaultdict(float)
        for m in c:
            if isinstance(m, Plural):
                if m in w:
                    other, score = w[m]
                    counts[where[other]] += score
            elif m in where:
                counts[where[m]] += 1
        num += sum(v * v for v in counts.values()) / len(c)
        den += len(c)
    return num, den


def _lea(chains: list, others: list, where: dict, w: Weights) -> tuple[float, float]:
    num = den = 0.0
    for c in chains:
        if len(c) == 1:
            links = 1
            common = 1 if c[0] in where and len(others[where[c[0]]]) == 1 else 0
        else:
            common = 0
            links = len(c) * (len(c) - 1) / 2.0
            for i, m in enumerate(c):
                score = 1
                if isinstance(m, Plural) and m in w:
                    m, score = w[m]
                if m in where:
                    for m2 in c[i + 1:]:
                        if isinstance(m2, Plural) and m2 in w:
                            m2, score2 = w[m2]
                            score *= score2  # v1: kept for the rest of the row
                        if m2 in where and where[m] == where[m2]:
                            common += score
        num += len(c) * common / float(links)
        den += len(c)
    return num, den


def _ceaf(key: list, response: list, where: dict, w: Weights, entity: bool) -> tuple[float, float, float, float]:
    """φ3 or φ4 over the chain pairs that share a mention, aligned by Kuhn–Munkres (only the sum of
    the best alignment matters, so any optimum gives v1's number). A mention counts in every response
    chain that holds it (v1's ``phi3`` tests membership), a span in two chains too."""
    from .assignment import components, max_alignment

    every: dict = defaultdict(list)  # v1's φ3 asks ``m in c2`` of every response chain, not the last only
    for j, c in enumerate(response):
        for m in dict.fromkeys(c):
            every[m].append(j)
    cells: dict[tuple[int, int], float] = defaultdict(float)
    for i, c in enumerate(key):
        for m in c:
            if isinstance(m, Plural):
                if m in w:
                    other, score = w[m]
                    for j in every.get(other, ()):
                        cells[(i, j)] += score
            else:
                for j in every.get(m, ()):
                    cells[(i, j)] += 1
    if entity:
        cells = defaultdict(float, {(i, j): 2 * v / (len(key[i]) + len(response[j])) for (i, j), v in cells.items()})
    cells = {p: v for p, v in cells.items() if v}
    phi = max_alignment(cells, components(cells)) if cells else 0.0
    if entity:
        return phi, len(response), phi, len(key)
    return phi, sum(len(c) for c in response), phi, sum(len(c) for c in key)


def _blancc(sys: list, key: list, where: dict, w: Weights) -> tuple[float, float, float, float]:
    num = 0.0
    for c in key:
        for i, m in enumerate(c):
            score = 1
            if isinstance(m, Plural) and m in w:
                m, score = w[m]
            if m in where:
                j = where[m]
                for m2 in c[i + 1:]:
                    if m2 in where and where[m2] == j:
                        num += score
    rd = sum(len(c) * (len(c) - 1) / 2 for c in key)
    pd = sum(len(c) * (len(c) - 1) / 2 for c in sys)
    return num, pd, num, rd


def _blancn(sys: list, key: list, where: dict, w: Weights) -> tuple[float, float, float, float]:
    """Non-coreference links: Σ w(m)·w(m') over pairs of key mentions in different key chains found
    in different response chains (as the sum of all such pairs less those in one response chain)."""
    total = 0.0
    by_key: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for cid, c in enumerate(key):
        for m in c:
            score = 1
            if isinstance(m, Plural) and m in w:
                m, score = w[m]
            if m in where:
                by_key[cid].append((where[m], score))
    found = [x for xs in by_key.values() for x in xs]
    if len(found) > 1 and any(s != 1 for _, s in found):
        for a, xs in by_key.items():  # v1's literal double loop when a pseudo-mention weighs
            for b, ys in by_key.items():
                if b > a:
                    total += sum(s1 * s2 for j1, s1 in xs for j2, s2 in ys if j1 != j2)
    else:
        n = len(found)
        same_key = sum(len(xs) * (len(xs) - 1) // 2 for xs in by_key.values())
        cell: dict[tuple[int, int], int] = defaultdict(int)
        sys_count: dict[int, int] = defaultdict(int)
        for cid, xs in by_key.items():
            for j, _ in xs:
                cell[(cid, j)] += 1
                sys_count[j] += 1
        same_sys = sum(k * (k - 1) // 2 for k in sys_count.values())
        both = sum(k * (k - 1) // 2 for k in cell.values())
        total = n * (n - 1) // 2 - same_key - same_sys + both
    nk = sum(len(c) for c in key)
    ns = sum(len(c) for c in sys)
    rd = nk * (nk - 1) / 2 - sum(len(c) * (len(c) - 1) / 2 for c in key)
    pd = ns * (ns - 1) / 2 - sum(len(c) * (len(c) - 1) / 2 for c in sys)
    return total, pd, total, rd


def _update(metric: str, key: list, sys: list, k2s: dict, s2k: dict, key_r: Weights, sys_p: Weights,
            key_f: Weights, alignment: bool = False) -> tuple[float, float, float, float]:
    """v1's ``Evaluator.__update__``: (pn, pd, rn, rd) of one metric; ``k2s`` maps a mention to its
    response chain, ``s2k`` to its key chain."""
    if metric in ("ceafe", "ceafm"):
        return _ceaf(key, sys, k2s, key_f, metric == "ceafe")
    if metric == "blancc":
        return _blancc(sys, key, k2s, key_f)
    if metric == "blancn":
        return _blancn(sys, key, k2s, key_f)
    if metric == "lea":
        pn, pd = _lea(sys, key, s2k, sys_p)
        rn, rd = _lea(key, sys, k2s, key_r)
        return pn, pd, rn, rd
    if metric == "muc":
        pn, pd = _muc(sys, key, s2k, sys_p, alignment)
        rn, rd = _muc(key, sys, k2s, key_r, alignment)
        return pn, pd, rn, rd
    pn, pd = _bcub(sys, s2k, sys_p)
    rn, rd = _bcub(key, k2s, key_r)
    return pn, pd, rn, rd


def align(metric: str, key: list, sys: list) -> tuple[Weights, Weights, Weights, tuple[float, float, float, float]]:
    """v1's ``align_split_antecedents``: the key pseudo-mentions' (counterpart, R) and (counterpart,
    F), the response's (counterpart, P) — each pair with a score above 0 — and the counts of the
    aligned pairs (pn, pd, rn, rd: pd over the first key row, rd over the first response column)."""
    from ..lsap import assign

    ks = [m for c in key for m in c if isinstance(m, Plural)]
    ss = [m for c in sys for m in c if isinstance(m, Plural)]
    if not ks and not ss:
        return {}, {}, {}, (0.0, 0.0, 0.0, 0.0)
    ks = ks or [None]
    ss = ss or [None]
    kcs = [[list(c) for c in k.members] if k is not None else [] for k in ks]
    scs = [[list(c) for c in s.members] if s is not None else [] for s in ss]
    kw = [_where(c) for c in kcs]
    sw = [_where(c) for c in scs]
    raw = [[_update(metric, kcs[i], scs[j], sw[j], kw[i], {}, {}, {}, True) for j in range(len(ss))]
           for i in range(len(ks))]
    f = [[_f1(*raw[i][j]) for j in range(len(ss))] for i in range(len(ks))]
    pairs = assign(f)
    key_r: Weights = {}
    sys_p: Weights = {}
    key_f: Weights = {}
    for i, j in pairs:
        pn, pd, rn, rd = raw[i][j]
        r = 0 if rn == 0 else rn / rd
        p = 0 if pn == 0 else pn / pd
        if r > 0:
            key_r[ks[i]] = (ss[j], r)
        if p > 0:
            sys_p[ss[j]] = (ks[i], p)
        if f[i][j] > 0:
            key_f[ks[i]] = (ss[j], f[i][j])
    counts = (sum(raw[i][j][0] for i, j in pairs), sum(raw[0][j][1] for j in range(len(ss))),
              sum(raw[i][j][2] for i, j in pairs), sum(raw[i][0][3] for i in range(len(ks))))
    return key_r, sys_p, key_f, counts


def _component(metric: str, key: list, sys: list, only: bool) -> tuple[float, float, float, float]:
    key_r, sys_p, key_f, counts = align(metric, key, sys)
    if only:
        return counts
    return _update(metric, key, sys, _where(sys), _where(key), key_r, sys_p, key_f)


def split_counts(metric: str, key: Document, response: Document | None, mode: str = "keep"):
    """The counts of ``metric`` (one of :data:`METRICS`) on one document with split antecedents
    (``mode`` keep or only, module docstring): a :class:`Counts`, or for BLANC its link counts."""
    k, s = clusters(key), clusters(response)
    only = mode == "only"
    if metric in ("blanc", "blanc_crac"):
        from .metrics import BlancCorefudCounts, BlancCounts

        parts = [_component(c, k, s, only) for c in ("blancc", "blancn")]
        kind = BlancCorefudCounts if metric == "blanc_crac" else BlancCounts
        return kind(*(Counts(rn, rd, pn, pd) for pn, pd, rn, rd in parts))
    pn, pd, rn, rd = _component(metric, k, s, only)
    return Counts(rn, rd, pn, pd)
