"""Bridging scored as the Universal Anaphora scorer v1 does (``coval/eval/evaluator.py``
``evaluate_bridgings``; juntaoy/universal-anaphora-scorer, main, f4adb45; Yu et al. 2022, the
CODI-CRAC 2022 shared task): three scores over the bridging pairs ``anaphor → anchor`` of
``Document.layers["bridging"]`` (:mod:`corefreport.io.ua_layers`), markables compared by span.

Per document, K and S map each anaphor span of the key and the response to its anchor span (one
pair per anaphor span: a later pair with the same anaphor span replaces the anchor, as v1's
dictionary keyed by markable does); E(m) is the key entity holding span m (the key's referring
chains — singletons dropped when they are, non-referring markables in none; the last chain holding
m, as v1's ``mention_to_gold``):

* **anaphor recognition** (``bridging_ar``): TP = |K ∩ S| (anaphor spans in both), FN = |K \\ S|,
  FP = |S \\ K|;
* **full bridging, markable level** (``bridging_fbm``): TP = #{a ∈ K ∩ S : K[a] = S[a]},
  FN = |K| − TP, FP = |S| − TP;
* **full bridging, entity level** (``bridging_fbe``): TP = #{a ∈ K ∩ S : K[a] = S[a] or
  E(K[a]) = E(S[a]) defined}, FN = |K| − TP, FP = |S| − TP;

and R = TP / (TP + FN), P = TP / (TP + FP), F = 2RP / (R + P) (0 where a denominator is 0), summed
over documents. A pair whose markable is not in the IDENTITY column is not a pair (v1 skips it and
prints a line; :func:`skipped_warnings` says how many per document and side).

>>> from corefreport.model import Chain, Document, Mention
>>> a, b, c, d = Mention(1, 1), Mention(3, 4), Mention(6, 6), Mention(8, 8)
>>> key = Document("d", chains=[Chain("1", [a]), Chain("2", [b, d]), Chain("3", [c])],
...                layers={"bridging": [Chain("r", [c, b])]})
>>> resp = Document("d", layers={"bridging": [Chain("r", [c, d]), Chain("r", [a, b])]})
>>> bridging_counts(key, resp)
(Counts(recall_num=1, recall_den=1, precision_num=1, precision_den=2), Counts(recall_num=0, recall_den=1, precision_num=0, precision_den=2), Counts(recall_num=1, recall_den=1, precision_num=1, precision_den=2))
"""

from __future__ import annotations

from ..model import Document
from .counts import Counts

LAYER = "bridging"
SKIPPED = "bridging_skipped"
METRICS = ("bridging_ar", "bridging_fbm", "bridging_fbe")
"""The three scores, in v1's printing order."""


def pairs(doc: Document | None) -> dict[tuple, tuple]:
    """anaphor span → anchor span of a document's bridging layer (a repeated anaphor span: the last anchor)."""
    if doc is None:
        return {}
    return {c.mentions[0].ident: c.mentions[1].ident for c in doc.layers.get(LAYER, ()) if len(c.mentions) == 2}


def entities(doc: Document, drop_singletons: bool = False) -> dict[tuple, int]:
    """span → the index of the (last) key chain holding it."""
    out: dict[tuple, int] = {}
    for i, c in enumerate(doc.chains):
        if drop_singletons and len(c.mentions) == 1:
            continue
        for m in c.mentions:
            out[m.ident] = i
    return out


def bridging_counts(key: Document, response: Document | None,
                    drop_singletons: bool = False) -> tuple[Counts, Counts, Counts]:
    """(anaphor recognition, full bridging markable level, entity level) of one document."""
    k, s = pairs(key), pairs(response)
    if not k and not s:
        return Counts(), Counts(), Counts()
    ent = entities(key, drop_singletons) if k and s else {}
    ar = fbm = fbe = 0
    for ana, k_ant in k.items():
        s_ant = s.get(ana)
        if s_ant is None:
            continue
        ar += 1
        if s_ant == k_ant:
            fbm += 1
            fbe += 1
        elif k_ant in ent and s_ant in ent and ent[k_ant] == ent[s_ant]:
            fbe += 1
    return (Counts(ar, len(k), ar, len(s)), Counts(fbm, len(k), fbm, len(s)), Counts(fbe, len(k), fbe, len(s)))


def skipped(doc: Document | None) -> list[str]:
    """The ``ANAPHOR→ANCHOR`` MarkableIDs of the pairs skipped in a document (a markable not in IDENTITY)."""
    return [] if doc is None else [c.label for c in doc.layers.get(SKIPPED, ())]


def skipped_warnings(key: Document, response: Document | None) -> list[str]:
    """One warning per side of a document whose bridging pairs were skipped, with their count."""
    out = []
    for side, doc in (("key", key), ("response", response)):
        gone = skipped(doc)
        if gone:
            shown = ", ".join(gone[:5]) + (", …" if len(gone) > 5 else "")
            out.append(f"{doc.source or side}: document {doc.doc_id!r}: {len(gone)} {side} bridging pair(s) skipped, "
                       f"a MarkableID not in the IDENTITY column ({shown}); the UA scorer v1 skips them too")
    return out
