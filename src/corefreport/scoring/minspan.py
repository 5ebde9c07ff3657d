"""Minimum spans: Universal Anaphora ``Min=`` matching and the CRAFT partial variant, as
corefud-scorer v1.2 runs the Universal Anaphora test suite (``scorer/ua/mention.py``,
``scorer/base/mention.py`` ``corefud_partial_match_score``, ``scorer/base/reader.py``
``get_assignments_by_match_score``; the MIN evaluation of Poesio et al. 2018, CRAC 2018, and of
the CODI-CRAC shared tasks; CRAFT: Cohen et al. 2017, the CRAFT 2019 coreference task):

* **exact first**: a response mention with a key mention's words is that mention (done by
  :mod:`.matching` before this step);
* **min** (``--match min``): among the mentions left, key mention K with minimum span MIN(K) (its
  ``Min=N`` or ``Min=N,M``: words N..M of the document, 1-based) and response mention R score

      s(K, R) = |K ∩ R| / |K|   when MIN(K) ⊆ R ⊆ K,   else 0   (0 when K has no Min)

  and the maximum-weight 1-to-1 assignment on s (key and response sorted by first word, last word,
  number of words; ties as ``scipy.optimize.linear_sum_assignment``) pairs them, pairs of score 0
  left out;
* **craft** (``--match craft``): MIN(K) is K's first written part [a, b]; s(K, R) = |K ∩ R| / |K|
  when some part [s, e] of R lies within it (a ≤ s, e ≤ b), else 0 (zeros never); pairs are taken
  greedily — each response mention in that order takes the first key mention of positive score,
  and stays unmatched when that one is taken already.

A matched response mention then carries its key mention's words (:func:`.matching.match_documents`).

>>> from corefreport.model import Mention
>>> k = Mention(0, 4, features={"Min": "3"})
>>> min_score(k, Mention(2, 3)), min_score(k, Mention(3, 5)), min_score(k, Mention(0, 1))
(0.4, 0.0, 0.0)
>>> craft_score(Mention(0, 1, words=(0, 1, 5)), Mention(1, 6, words=(1, 6)))  # its part 1–1 lies in 0–1
0.3333333333333333
"""

from __future__ import annotations

from ..model import Mention

MODES = ("min", "craft")


def min_words(m: Mention) -> frozenset[int]:
    """The words of ``Min=N`` / ``Min=N,M`` (1-based document word numbers), empty without one."""
    value = m.features.get("Min")
    if not value:
        return frozenset()
    parts = [int(x) - 1 for x in value.split(",")]
    return frozenset(range(parts[0], parts[-1] + 1))


def parts(m: Mention) -> list[tuple[int, int]]:
    """The runs of consecutive words of a mention, in order (a contiguous mention: one)."""
    if m.words is None:
        return [(m.start, m.end)]
    ws = sorted(int(w) for w in m.words if w >= 0)
    out: list[list[int]] = []
    for w in ws:
        if out and w == out[-1][1] + 1:
            out[-1][1] = w
        else:
            out.append([w, w])
    return [(a, b) for a, b in out]


def min_score(k: Mention, r: Mention) -> float:
    """s(K, R) of ``--match min`` (module docstring)."""
    mins = min_words(k)
    kw, rw = k.word_set, r.word_set
    if mins and mins <= rw and rw <= kw:
        return len(kw & rw) / len(kw)
    return 0.0


def craft_score(k: Mention, r: Mention) -> float:
    """s(K, R) of ``--match craft`` (module docstring)."""
    if "zero_head" in k.features or "zero_head" in r.features:
        return 0.0
    a, b = parts(k)[0]
    if any(s >= a and e <= b for s, e in parts(r)):
        return len(k.word_set & r.word_set) / len(k.word_set)
    return 0.0


def min_step(ks: list, rs: list, out: dict, mode: str) -> None:
    """Pair the key and response mentions left after the exact step (``ks``, ``rs``: objects with
    ``m`` the mention, ``ident`` its identity and ``order`` its sort key) into ``out`` (response
    identity → key mention), by ``mode`` (:data:`MODES`)."""
    if not ks or not rs:
        return
    ks = sorted(ks, key=lambda i: i.order)
    rs = sorted(rs, key=lambda i: i.order)
    if mode == "craft":
        used: set[int] = set()
        for r in rs:
            for a, k in enumerate(ks):
                if craft_score(k.m, r.m) > 0:
                    if a not in used:
                        used.add(a)
                        out[r.ident] = k.m
                    break
        return
    from ..lsap import assign

    sim = [[min_score(k.m, r.m) for r in rs] for k in ks]
    if not any(any(row) for row in sim):
        return
    for a, b in assign(sim):
        if sim[a][b] > 0:
            out[rs[b].ident] = ks[a].m
