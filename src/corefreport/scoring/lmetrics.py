"""Linguistically aware metrics (Chen & Ng 2013): LMUC, LB³, LCEAF-m, LCEAF-e.

Chen & Ng observe that MUC, B³ and both CEAFs interact with chains only through three weight
functions — w_c of a cell C = K_i ∩ S_j, w_k of a key chain, w_s of a response chain (their §2.5) —
and make them linguistically aware by weighting coreference *links* by the types of their mentions.
The rules below are numbered as in ``metric-semantics.md`` §3 (L1–L9); equation numbers are the paper's.

* **L1 link weight** (§3.1): ``w_l(x, y)`` = w_nam if x or y is a NAME, else w_nom if x or y is a
  NOMINAL, else w_pro. The order of the rules, not the size of the weights, decides.
* **L2** ``MST(C)`` = weight of a maximum spanning tree of the complete graph on C under w_l
  (|C| − 1 edges; 0 for |C| ≤ 1). When w_nam ≥ w_nom ≥ w_pro ("monotone" weights),
  ``MST(C) = (|C| − 1) · max_{m ∈ C} v(τ(m))`` (a star on the most informative mention).
* **L3** cell weight, eq. (8): ``w_c^L(C) = MST(C)`` if |C| ≥ 2; ``w_sing`` if |C| = |K_i| = |S_j| = 1;
  else 0.
* **L4** key-chain weight, eq. (9): ``w_k^L(K) = MST(K)`` if |K| ≥ 2, else ``w_sing``.
* **L5** response-chain weight, eq. (11): ``w_s^L(S) = w_sing`` if |S| = 1, else
  ``Σ_{C ∈ P(S)} w_c^L(C) + W(E_t(S))``, where P(S) partitions S by the key chains (eq. 1) and
  E_t(S) — the heaviest ne − 1 spurious links joining the ne non-empty cells — is the maximum
  spanning tree of the *contracted* graph whose nodes are the cells and whose edge weight between two
  cells is their best single link ``max_{x ∈ A, y ∈ B} w_l(x, y)``. (The symmetric eq. (10) is not
  used: it charges sub-optimal but correct links to precision.)
* **L6 LMUC** (eqs. 2–4 with w^L): R = Σ w_c^L / Σ_i w_k^L(K_i), P = Σ w_c^L / Σ_j w_s^L(S_j).
* **L7 LB³** (eq. 5 with w^L): R = mean over key mentions m of w_c^L(C(m)) / w_k^L(K(m)),
  P = mean over response mentions of w_c^L(C(m)) / w_s^L(S(m)).
* **L8 LCEAF-m** (eq. 6): φ3^L(K, S) = w_c^L(K ∩ S); Φ* = best one-to-one alignment (Kuhn–Munkres);
  R = Φ* / Σ w_k^L, P = Φ* / Σ w_s^L.
* **L9 LCEAF-e** (eq. 7): φ4^L(K, S) = 2 w_c^L(K ∩ S) / (w_k^L(K) + w_s^L(S));
  R = Φ* / |K(d)|, P = Φ* / |S(d)| (φ4^L(X, X) = 1 for every chain).

Mentions the paper does not cover (it scores gold mentions only; ``metric-semantics.md`` §3.3.1):

* a **response mention in no key chain** (twinless) forms its own cell of P(S_j) with w_c^L = 0 and
  is joined to the other cells by one E_t link; a twinless response singleton has w_s^L = w_sing and
  contributes nothing correct — a pure precision loss;
* a **key mention in no response chain** is by default a pure recall loss (it is in no cell), as
  B³ and CEAF of the reference scorer treat it; ``absent_key_as_singletons=True`` instead adds it
  to the response as a singleton (the spec's reading of "gold mentions": a correct key singleton then
  earns w_sing, and every absent mention adds w_sing to the precision denominators).

All counts are sums over chains, cells or mentions, so :class:`Counts` of several documents add up
to the corpus score (micro average as in ``metric-semantics.md`` §3.3.5): LB³ sums per-mention ratios
over the mention count, LCEAF-e sums Φ* over the chain counts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Hashable, Iterable, Mapping, Sequence

from .assignment import max_alignment
from .counts import Counts

NAME, NOMINAL, PRONOUN = "NAME", "NOMINAL", "PRONOUN"
MENTION_TYPES: tuple[str, ...] = (NAME, NOMINAL, PRONOUN)
"""The mention types in the precedence order of rule L1 (a NAME end decides first)."""

_RANK = {t: r for r, t in enumerate(MENTION_TYPES)}

LMETRICS: tuple[str, ...] = ("lmuc", "lbcub", "lceafm", "lceafe")

M = Hashable
Chains = Sequence[Sequence[M]]


@dataclass(frozen=True, slots=True)
class Weights:
    """W = (w_nam, w_nom, w_pro, w_sing) of Chen & Ng (2013) §3.1; the default is their W4.

    Every weight must be a finite number ≥ 0, and w_sing > 0: a zero singleton weight makes the
    denominators of eqs. (5) and (7) zero (the paper's fn. 8 uses 10⁻²⁰ instead).
    """

    name: float = 1.0
    nominal: float = 0.75
    pronoun: float = 0.5
    singleton: float = 1.0

    def __post_init__(self) -> None:
        for label, value in zip(("w_nam", "w_nom", "w_pro", "w_sing"), self.as_tuple()):
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ValueError(f"LMetrics weight {label} must be a finite number >= 0, got {value!r}")
        if self.singleton <= 0:
            raise ValueError("LMetrics singleton weight w_sing must be > 0 (a zero makes the denominators "
                             "zero; Chen & Ng 2013, fn. 8 use 1e-20)")

    def as_tuple(self) -> tuple[float, float, float, float]:
        return (self.name, self.nominal, self.pronoun, self.singleton)

    def of_type(self, mtype: str) -> float:
        """v(τ): the weight of a link whose deciding end (rule L1) has type ``mtype``."""
        return (self.name, self.nominal, self.pronoun)[_RANK[mtype]]

    @property
    def monotone(self) -> bool:
        """w_nam ≥ w_nom ≥ w_pro: then w_l(x, y) = max(v(τ(x)), v(τ(y))) and the closed forms hold."""
        return self.name >= self.nominal >= self.pronoun


W4 = Weights(1.0, 0.75, 0.5, 1.0)
W5 = Weights(1.0, 0.5, 0.25, 1.0)
PRESETS: dict[str, Weights] = {
    "W1": Weights(1.0, 1.0, 1.0, 1e-20),
    "W2": Weights(1.0, 1.0, 1.0, 0.5),
    "W3": Weights(1.0, 1.0, 1.0, 1.0),
    "W4": W4,
    "W5": W5,
}
"""The five weight vectors of the paper's §4.1."""


def parse_weights(text: str) -> Weights:
    """``"1,0.75,0.5,1"`` (NAM,NOM,PRO,SING) or a preset name ``W1``…``W5`` → :class:`Weights`.

    Raises :class:`ValueError` with a message fit for a command line on anything else.
    """
    raw = text.strip()
    if raw.upper() in PRESETS:
        return PRESETS[raw.upper()]
    parts = [p.strip() for p in raw.split(",")]
    if len(parts) != 4:
        raise ValueError(f"weights take four numbers NAM,NOM,PRO,SING (or W1..W5), got {text!r}")
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"weights take four numbers NAM,NOM,PRO,SING (or W1..W5), got {text!r}") from None
    return Weights(*values)


# --------------------------------------------------------------------------------------------------
# Link and tree weights (L1, L2)


def _check_type(mtype: str) -> str:
    if mtype not in _RANK:
        raise ValueError(f"mention type must be one of {', '.join(MENTION_TYPES)}, got {mtype!r}")
    return mtype


def link_weight(a: str, b: str, w: Weights) -> float:
    """L1: w_l of a link between mentions of types ``a`` and ``b`` — the first of NAME, NOMINAL,
    PRONOUN present at either end decides (Chen & Ng §3.1, rules 1–3)."""
    return w.of_type(MENTION_TYPES[min(_RANK[a], _RANK[b])])


def best_link_weight(a: Iterable[str], b: Iterable[str], w: Weights) -> float:
    """The heaviest single link between two mention sets, given their types: max_{x∈A, y∈B} w_l(x, y)."""
    tb = set(b)
    return max(link_weight(x, y, w) for x in set(a) for y in tb)


def _mst_closed(types: Sequence[str], w: Weights) -> float:
    """L2 closed form for monotone W: (|C| − 1) · max_{m ∈ C} v(τ(m))."""
    if len(types) < 2:
        return 0.0
    return (len(types) - 1) * max(w.of_type(t) for t in types)


def _max_spanning_tree(n: int, edges: Iterable[tuple[int, int, float]]) -> float:
    """Total weight of a maximum spanning tree (networkx, Kruskal) of a connected graph on 0..n−1."""
    if n < 2:
        return 0.0
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from(edges)
    tree = nx.maximum_spanning_tree(g, weight="weight", algorithm="kruskal")
    return float(sum(d["weight"] for _, _, d in tree.edges(data=True)))


def _mst_graph(types: Sequence[str], w: Weights) -> float:
    """L2 in general: a real maximum spanning tree of the complete graph on the mentions under w_l."""
    n = len(types)
    return _max_spanning_tree(n, ((i, j, link_weight(types[i], types[j], w)) for i, j in combinations(range(n), 2)))


def mst_weight(types: Sequence[str], w: Weights, closed_form: bool | None = None) -> float:
    """L2: MST(C), the weight of a maximum spanning tree over mentions of the given types.

    ``closed_form=None`` uses the closed form exactly when W is monotone, a networkx tree otherwise;
    ``True``/``False`` force one or the other (``True`` is only correct for monotone W).
    """
    use_closed = w.monotone if closed_form is None else closed_form
    return _mst_closed(types, w) if use_closed else _mst_graph(types, w)


def spurious_tree_weight(cells: Sequence[Sequence[str]], w: Weights, closed_form: bool | None = None) -> float:
    """L5: W(E_t(S)), the heaviest ne − 1 links that join the ne non-empty cells of P(S).

    = maximum spanning tree of the contracted graph (one node per cell, edge weight = best single
    link between the two cells). Monotone closed form: (ne − 1) · max_{m ∈ S} v(τ(m)). 0 if ne ≤ 1.
    """
    ne = len(cells)
    if ne < 2:
        return 0.0
    use_closed = w.monotone if closed_form is None else closed_form
    if use_closed:
        return (ne - 1) * max(w.of_type(t) for c in cells for t in c)
    distinct = [frozenset(c) for c in cells]
    edges = ((i, j, best_link_weight(distinct[i], distinct[j], w)) for i, j in combinations(range(ne), 2))
    return _max_spanning_tree(ne, edges)


# --------------------------------------------------------------------------------------------------
# The decomposition of one document into w_k^L, w_s^L and w_c^L (L3–L5)


@dataclass(slots=True)
class Decomposition:
    """The weights of one document that every LMetric is built from.

    ``key_weights[i]`` = w_k^L(K_i); ``response_weights[j]`` = w_s^L(S_j);
    ``cells[(i, j)]`` = (|K_i ∩ S_j|, w_c^L(K_i ∩ S_j)) for every non-empty cell with a key chain
    (twinless cells weigh 0 and are not listed); ``response_sizes[j]`` = |S_j| (mentions counted by
    LB³ precision, twinless ones included).
    """

    key_weights: list[float] = field(default_factory=list)
    key_sizes: list[int] = field(default_factory=list)
    response_weights: list[float] = field(default_factory=list)
    response_sizes: list[int] = field(default_factory=list)
    cells: dict[tuple[int, int], tuple[int, float]] = field(default_factory=dict)


def _types_of(mentions: Iterable[M], mtype: Mapping[M, str]) -> list[str]:
    out = []
    for m in mentions:
        try:
            out.append(_check_type(mtype[m]))
        except KeyError:
            raise ValueError(f"no mention type (NAME/NOMINAL/PRONOUN) given for mention {m!r}") from None
    return out


def _clean_response(key_index: Mapping[M, int], response: Chains) -> list[list[M]]:
    """Response chains with in-chain repeats removed and each key mention kept in its first chain only
    (as :func:`corefreport.scoring.align.align` already guarantees); twinless repeats across chains stay.
    """
    seen_key: set = set()
    out: list[list[M]] = []
    for chain in response:
        kept: list[M] = []
        in_chain: set = set()
        for m in chain:
            if m in in_chain or (m in key_index and m in seen_key):
                continue
            in_chain.add(m)
            if m in key_index:
                seen_key.add(m)
            kept.append(m)
        if kept:
            out.append(kept)
    return out


def _partition(chain: Sequence[M], key_index: Mapping[M, int]) -> list[tuple[int | None, list[M]]]:
    """P(S_j), eq. (1): the non-empty cells of a response chain, each with its key-chain index
    (``None`` for a twinless mention, which is a cell of its own)."""
    by_key: dict[int, list[M]] = {}
    cells: list[tuple[int | None, list[M]]] = []
    for m in chain:
        i = key_index.get(m)
        if i is None:
            cells.append((None, [m]))
        elif i in by_key:
            by_key[i].append(m)
        else:
            by_key[i] = [m]
            cells.append((i, by_key[i]))
    return cells


def cell_weight(types: Sequence[str], key_size: int, response_size: int, w: Weights,
                closed_form: bool | None = None) -> float:
    """L3, eq. (8): w_c^L(C) = MST(C) if |C| ≥ 2; w_sing if |C| = |K_i| = |S_j| = 1; else 0."""
    if len(types) >= 2:
        return mst_weight(types, w, closed_form)
    if len(types) == 1 and key_size == 1 and response_size == 1:
        return w.singleton
    return 0.0


def key_chain_weight(types: Sequence[str], w: Weights, closed_form: bool | None = None) -> float:
    """L4, eq. (9): w_k^L(K) = MST(K) if |K| ≥ 2, else w_sing."""
    return mst_weight(types, w, closed_form) if len(types) >= 2 else w.singleton


def decompose(key: Chains, response: Chains, mtype: Mapping[M, str], weights: Weights = W4, *,
              absent_key_as_singletons: bool = False, closed_form: bool | None = None) -> Decomposition:
    """Compute w_k^L of every key chain, w_s^L of every response chain and w_c^L of every cell.

    Key chains must not share mentions (the pipeline de-duplicates them); repeated response mentions
    are handled as in :func:`_clean_response`. ``mtype`` maps every mention to NAME/NOMINAL/PRONOUN.
    """
    key_lists = [list(dict.fromkeys(k)) for k in key if k]
    key_index = {m: i for i, k in enumerate(key_lists) for m in k}
    resp = _clean_response(key_index, response)
    if absent_key_as_singletons:
        present = {m for r in resp for m in r}
        resp += [[m] for k in key_lists for m in k if m not in present]
    d = Decomposition()
    for k in key_lists:
        d.key_weights.append(key_chain_weight(_types_of(k, mtype), weights, closed_form))
        d.key_sizes.append(len(k))
    for j, s in enumerate(resp):
        d.response_sizes.append(len(s))
        d.response_weights.append(_response_chain(j, s, key_index, key_lists, mtype, weights, closed_form, d))
    return d


def _response_chain(j: int, chain: Sequence[M], key_index: Mapping[M, int], key_lists: list[list[M]],
                    mtype: Mapping[M, str], w: Weights, closed_form: bool | None, d: Decomposition) -> float:
    """Record the cells of S_j in ``d`` and return w_s^L(S_j) (L5, eq. 11)."""
    cells = _partition(chain, key_index)
    cell_types = [_types_of(c, mtype) for _, c in cells]
    total = 0.0
    for (i, c), types in zip(cells, cell_types):
        if i is None:
            continue
        wc = cell_weight(types, len(key_lists[i]), len(chain), w, closed_form)
        d.cells[(i, j)] = (len(c), wc)
        total += wc
    if len(chain) == 1:
        return w.singleton
    return total + spurious_tree_weight(cell_types, w, closed_form)


# --------------------------------------------------------------------------------------------------
# The four metrics (L6–L9)


def lmuc(d: Decomposition) -> Counts:
    """L6, LMUC (eqs. 2–4 with w^L): R = Σ_{i,j} w_c^L / Σ_i w_k^L(K_i), P = Σ_{i,j} w_c^L / Σ_j w_s^L(S_j)."""
    common = sum(wc for _, wc in d.cells.values())
    return Counts(common, sum(d.key_weights), common, sum(d.response_weights))


def lbcub(d: Decomposition) -> Counts:
    """L7, LB³ (eq. 5 with w^L): per mention R(m) = w_c^L(C)/w_k^L(K(m)), P(m) = w_c^L(C)/w_s^L(S(m)).

    Counts: recall_num = Σ_cells |C| · w_c^L(C)/w_k^L(K), recall_den = number of key mentions;
    precision_num = Σ_cells |C| · w_c^L(C)/w_s^L(S), precision_den = number of response mentions.
    """
    rnum = pnum = 0.0
    for (i, j), (size, wc) in d.cells.items():
        if wc:
            rnum += size * wc / d.key_weights[i]
            pnum += size * wc / d.response_weights[j]
    return Counts(rnum, sum(d.key_sizes), pnum, sum(d.response_sizes))


def lceafm(d: Decomposition) -> Counts:
    """L8, LCEAF-m (eq. 6): φ3^L(K, S) = w_c^L(K ∩ S); R = Φ*/Σ w_k^L, P = Φ*/Σ w_s^L."""
    phi = max_alignment({p: wc for p, (_, wc) in d.cells.items()})
    return Counts(phi, sum(d.key_weights), phi, sum(d.response_weights))


def lceafe(d: Decomposition) -> Counts:
    """L9, LCEAF-e (eq. 7): φ4^L(K, S) = 2 w_c^L(K∩S) / (w_k^L(K) + w_s^L(S)); R = Φ*/|K(d)|, P = Φ*/|S(d)|."""
    sims = {(i, j): 2.0 * wc / (d.key_weights[i] + d.response_weights[j])
            for (i, j), (_, wc) in d.cells.items() if wc > 0}
    phi = max_alignment(sims)
    return Counts(phi, len(d.key_weights), phi, len(d.response_weights))


def lmetric_counts(key: Chains, response: Chains, mtype: Mapping[M, str], weights: Weights = W4, *,
                   absent_key_as_singletons: bool = False, closed_form: bool | None = None) -> dict[str, Counts]:
    """LMUC, LB³, LCEAF-m and LCEAF-e of one document as summable :class:`Counts`.

    ``key`` / ``response``: chains as lists of hashable mention ids (the pipeline passes spans);
    ``mtype``: mention → NAME / NOMINAL / PRONOUN for every key and response mention;
    returns ``{"lmuc", "lbcub", "lceafm", "lceafe"}``. See the module docstring for the rules.
    """
    d = decompose(key, response, mtype, weights, absent_key_as_singletons=absent_key_as_singletons,
                  closed_form=closed_form)
    return {"lmuc": lmuc(d), "lbcub": lbcub(d), "lceafm": lceafm(d), "lceafe": lceafe(d)}


__all__ = [
    "Weights", "W4", "W5", "PRESETS", "parse_weights", "MENTION_TYPES", "LMETRICS",
    "link_weight", "best_link_weight", "mst_weight", "spurious_tree_weight", "cell_weight", "key_chain_weight",
    "Decomposition", "decompose", "lmuc", "lbcub", "lceafm", "lceafe", "lmetric_counts", "max_alignment",
]
