"""p-link, the partitioned link score (Zeldes & Simonson 2016): MUC broken down by mention category.

Not a group-by over outcome rows, by nature: p-link partitions MUC's *links* (each end earns half a
link for its own category), while an outcome row is one referent judged against one antecedent;
its tables are sums of per-document :class:`Counts` per category instead.

Every MUC link — consecutive mentions of a chain — has two equally responsible ends; each end earns
half the link for its own category π (a sentence type, a genre, any mention feature). Rules P1–P8 of
``metric-semantics.md`` §1, checked there against the authors' Perl (``scorer.pl plink``, v8.1):

* **P2 order.** A chain's mentions are ordered by their closing token (ties: one-token mentions first,
  then closing brackets left to right) — the order :func:`corefreport.io.conll2012.read_conll2012`
  already gives every chain. Pass ``order`` to sort by another key; :func:`closing_order` builds the
  P2 key of a (start, end) span.
* **P3 pre-processing.** A repeated response span that is a key mention is kept only in the first
  chain that holds it; a repeated span that is *not* a key mention stays in every place it is
  written, so D_R sums to MUC's precision denominator (reference v8.01). ``compat=True`` keeps only
  the first occurrence of every response mention, as the Perl does. (Key mentions
  missing from the response and twinless response singletons have no links, so they change nothing;
  twinless mentions inside response chains stay and count in D_R.)
* **P4 key denominator**, for a chain k_1..k_n every consecutive link (k_t, k_t+1) adds ``split`` to
  cat(k_t) and 1 − ``split`` to cat(k_t+1) (the paper: 0.5 and 0.5):
  ``D_K(π) = Σ_K (|K^π| − ½[cat(k_1)=π] − ½[cat(k_n)=π])`` for chains with n ≥ 2 — the paper's
  ``Σ (|K_i^π| − 1)`` with the "−1" shared by the chain's two end mentions.
* **P5 response denominator** D_R(π): the same over the response chains.
* **P6 numerator** N(π) ("correct links"): for every response chain S and key chain K, the cell
  C = S ∩ K in S's order c_1..c_m; every consecutive pair (c_t, c_t+1) is a correct link and is
  credited as in P4 — the paper's ``Σ (|K_i^π| − p(K_i^π))``. The two ends need not be adjacent in S.
* **P7** ``R_π = N(π) / D_K(π)``, ``P_π = N(π) / D_R(π)``; **P8** N, D_K, D_R add up over documents.

Summed over all categories, N, D_K and D_R are the MUC numerator and denominators.

**Category of a mention** (§1.4.1). Default: the key-file value for every mention in the key, the
response-file value only for twinless response mentions — one category per mention, so R_π ≤ 1.
``compat=True`` reproduces the Perl: N and D_R use the response-file value, D_K the key-file value,
and on the response side (D_R) labels made of digits only are skipped (P5 quirk).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Hashable, Mapping, Sequence

from ..errors import InputError
from ..model import Document, Span
from .counts import Counts

M = Hashable
Chains = Sequence[Sequence[M]]

MISSING_CATEGORY = "_"
"""Category of a mention whose category mapping has no value for it."""

_NUMERIC = re.compile(r"^[0-9]+$")


def closing_order(span: Span) -> tuple[int, int]:
    """P2 sort key of a (start, end) span: closing token, then one-token mentions before longer ones.

    Remaining ties (two multi-token mentions of one chain closing on the same token) keep the input
    order, which the CoNLL reader takes from the left-to-right order of the closing brackets.
    """
    start, end = span
    return (end, 0 if start == end else 1)


def mention_categories(doc: Document, column: str) -> dict[Span, str]:
    """P1: category of every mention of ``doc``: the value of input column ``column`` on the mention's
    last token (as the Perl reads its penultimate column), or, for a mention-level feature such as
    ``mtype``, ``ne`` or ``genre``, the mention's own feature value."""
    values = doc.columns.get(column)
    if values is not None:
        return {m.span: (values[m.end] or MISSING_CATEGORY) for c in doc.chains for m in c.mentions}
    out = {}
    for c in doc.chains:
        for m in c.mentions:
            if column not in m.features:
                raise KeyError(f"document {doc.doc_id!r} has no column or mention feature {column!r}")
            out[m.span] = m.features[column] or MISSING_CATEGORY
    return out


def _ordered(chains: Chains, order: Mapping[M, tuple] | None, keep_repeats: bool = False) -> list[list[M]]:
    """Non-empty chains, sorted by ``order`` when given (stable sort); in-chain repeats are dropped
    unless ``keep_repeats`` (then :func:`_dedupe_response` decides)."""
    out = []
    for c in chains:
        chain = list(c) if keep_repeats else list(dict.fromkeys(c))
        if order is not None:
            chain.sort(key=lambda m: order[m])
        if chain:
            out.append(chain)
    return out


def _dedupe_response(response: list[list[M]], only: set | None = None) -> list[list[M]]:
    """P3: a response mention is kept only where it first occurs. With ``only`` (the key mentions),
    only those are de-duplicated: a repeated span that is not a key mention stays in every place it
    is written, as MUC's precision denominator counts it (reference v8.01)."""
    seen: set = set()
    out = []
    for chain in response:
        kept = []
        for m in chain:
            if m in seen and (only is None or m in only):
                continue
            seen.add(m)
            kept.append(m)
        if kept:
            out.append(kept)
    return out


def _credit_links(chain: Sequence[M], category: Mapping[M, str], tally: dict[str, float], split: float,
                  skip_numeric: bool = False) -> None:
    """Add ``split`` to the category of the earlier end and 1 − ``split`` to the later end of every
    consecutive link of ``chain``."""
    for a, b in zip(chain, chain[1:]):
        for m, share in ((a, split), (b, 1.0 - split)):
            cat = category.get(m, MISSING_CATEGORY)
            if skip_numeric and _NUMERIC.match(cat):
                continue
            tally[cat] += share


def _cells(response: list[list[M]], key: list[list[M]]) -> list[list[M]]:
    """P6: the cells S ∩ K with at least two mentions, each in S's order."""
    key_index = {m: i for i, k in enumerate(key) for m in k}
    cells: list[list[M]] = []
    for chain in response:
        by_key: dict[int, list[M]] = defaultdict(list)
        for m in chain:
            if m in key_index:
                by_key[key_index[m]].append(m)
        cells.extend(c for c in by_key.values() if len(c) > 1)
    return cells


def plink_tallies(key: Chains, response: Chains, key_category: Mapping[M, str],
                  response_category: Mapping[M, str], order: Mapping[M, tuple] | None = None, *,
                  compat: bool = False, split: float = 0.5) -> tuple[dict[str, float], dict[str, float], dict[str, float]]:
    """(N, D_K, D_R) per category for one document — the Perl's "Partitions totals", "Key partitions
    totals" and "Response partitions totals" (P4–P7)."""
    if not 0.0 <= split <= 1.0:
        raise ValueError(f"p-link split weight must lie in [0, 1], got {split!r}")
    k = _ordered(key, order)
    key_mentions = {m for c in k for m in c}
    if compat:
        r = _dedupe_response(_ordered(response, order))
    else:
        r = _dedupe_response(_ordered(response, order, keep_repeats=True), only=key_mentions)
    if compat:
        cat_n, cat_k, cat_r = response_category, key_category, response_category
    else:
        unified = {m: response_category.get(m, MISSING_CATEGORY) for c in r for m in c if m not in key_mentions}
        unified.update({m: key_category.get(m, MISSING_CATEGORY) for m in key_mentions})
        cat_n = cat_k = cat_r = unified
    num: dict[str, float] = defaultdict(float)
    dk: dict[str, float] = defaultdict(float)
    dr: dict[str, float] = defaultdict(float)
    for chain in k:
        _credit_links(chain, cat_k, dk, split)
    for chain in r:
        _credit_links(chain, cat_r, dr, split, skip_numeric=compat)
    for cell in _cells(r, k):
        _credit_links(cell, cat_n, num, split)
    return dict(num), dict(dk), dict(dr)


def plink_counts(key: Chains, response: Chains, key_category: Mapping[M, str],
                 response_category: Mapping[M, str], order: Mapping[M, tuple] | None = None, *,
                 compat: bool = False, split: float = 0.5) -> dict[str, Counts]:
    """p-link of one document per category π: ``Counts(N(π), D_K(π), N(π), D_R(π))``.

    ``key`` / ``response``: chains of hashable mention ids, each in P2 order (or give ``order``,
    a sort key per mention, e.g. ``{s: closing_order(s) for s in spans}``); ``key_category`` /
    ``response_category``: the category column of the key and of the response file (P1).
    ``compat=True`` reproduces the Perl's category sources; ``split`` is the share of each link that
    goes to its earlier end (paper fn. 10; default ½). Categories come out sorted by name; a category
    with a zero denominator has an undefined R or P (report it as n/a, not 0).
    """
    num, dk, dr = plink_tallies(key, response, key_category, response_category, order, compat=compat, split=split)
    cats = sorted(set(num) | set(dk) | set(dr))
    return {c: Counts(num.get(c, 0.0), dk.get(c, 0.0), num.get(c, 0.0), dr.get(c, 0.0)) for c in cats}


def add_category_counts(total: dict[str, Counts], doc: Mapping[str, Counts]) -> dict[str, Counts]:
    """P8: micro aggregation — add one document's per-category counts into ``total`` (in place)."""
    for cat, c in doc.items():
        total[cat] = total[cat] + c if cat in total else c
    return total


__all__ = ["plink_counts", "plink_tallies", "closing_order", "mention_categories", "add_category_counts",
           "MISSING_CATEGORY"]


@dataclass(slots=True)
class PlinkResult:
    """Zeldes & Simonson (2016) p-link per category, summed over documents (rule P8)."""

    by: str
    compat: bool = False
    categories: dict[str, Counts] = field(default_factory=dict)

    def add(self, ad) -> None:
        try:
            kcat = mention_categories(ad.key_doc, self.by)
            rcat = mention_categories(ad.response_doc, self.by) if ad.response_doc is not None else {}
        except KeyError as err:
            raise InputError(ad.key_doc.source, None, f"p-link: {err.args[0]} (use a column such as col12, or "
                             "mtype, ne, head_pos, pos_class, genre)") from None
        add_category_counts(self.categories, plink_counts(ad.key, ad.response, kcat, rcat, compat=self.compat))

    def as_dict(self) -> dict:
        return {"by": self.by, "compat": self.compat,
                "categories": {k: v.as_dict() for k, v in sorted(self.categories.items())}}


class PlinkAnalysis:
    """The pipeline's steps of p-link (:class:`~corefreport.scoring.registry.Analysis`): the part
    is a :class:`PlinkResult` whose per-category counts add (P8)."""

    def __init__(self, settings) -> None:
        self.by, self.compat = settings.plink_by, settings.plink_compat

    def score(self, aligned: list) -> tuple[list, object]:
        out = PlinkResult(self.by, self.compat)
        for ad in aligned:
            out.add(ad)
        return [], out

    @staticmethod
    def options(s) -> dict:
        return {"by": s.plink_by, "compat": s.plink_compat}

    @staticmethod
    def signature(s) -> list[tuple[str, str]]:
        return [("plink", s.plink_by + ("+compat" if s.plink_compat else ""))]

    @staticmethod
    def add(a, b):
        out = PlinkResult(a.by, a.compat)
        add_category_counts(out.categories, a.categories)
        add_category_counts(out.categories, b.categories)
        return out

    def result(self, part):
        return part
