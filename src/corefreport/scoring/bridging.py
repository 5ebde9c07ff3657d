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

from dataclasses import dataclass

from ..model import Document
from .counts import Counts

LAYER = "bridging"
ENTITY_LAYER = "bridging_entity"
"""CorefUD's ``Bridge=``: an anaphor mention anchored on an entity (:mod:`corefreport.io.corefud_bridge`)."""
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


PAIR_OUTCOMES = ("matched", "same entity", "wrong anchor", "anaphor found", "missed", "spurious")
"""What a pair is, per anaphor span (:func:`pair_outcomes`): both sides anchor it to the same span
(``matched``: counts for all three scores); to spans of one key entity (``same entity``: anaphor
recognition and entity level); elsewhere (``wrong anchor``: anaphor recognition only); only the
key has the anaphor (``missed``); only the response (``spurious``). A pair anchored on an
**entity** (CorefUD's ``Bridge=``) has no anchor markable: both sides having its anaphor is
``anaphor found`` (anaphor recognition only), and it is in neither full-bridging score (UA v1
defines them over anchor markables), whose counts stay 0/0."""
AR_TP = frozenset({"matched", "same entity", "wrong anchor", "anaphor found"})
FBE_TP = frozenset({"matched", "same entity"})


@dataclass(frozen=True, slots=True)
class PairOutcome:
    """One anaphor span of a document's bridging pairs and what each side anchors it to (spans as
    :attr:`Mention.ident`; ``None``: the side has no pair on that anaphor); ``key_rel`` and
    ``response_rel``: each side's ``Rel``."""

    anaphor: tuple
    key_anchor: tuple | None
    response_anchor: tuple | None
    outcome: str
    key_rel: str = ""
    response_rel: str = ""


def labelled_pairs(doc: Document | None) -> dict[tuple, tuple[tuple, str]]:
    """anaphor span → (anchor span, Rel), as :func:`pairs` (the last pair of a repeated anaphor
    span); an entity anchor (CorefUD) is ``("entity", its mentions' spans in order)``."""
    if doc is None:
        return {}
    out = {c.mentions[0].ident: (c.mentions[1].ident, c.label)
           for c in doc.layers.get(LAYER, ()) if len(c.mentions) == 2}
    for c in doc.layers.get(ENTITY_LAYER, ()):
        if len(c.mentions) > 1:
            out[c.mentions[0].ident] = (("entity", tuple(sorted(m.ident for m in c.mentions[1:]))), c.label)
    return out


def is_entity_anchor(anchor: tuple | None) -> bool:
    """Whether an anchor of :func:`labelled_pairs` is an entity (CorefUD's ``Bridge=``)."""
    return anchor is not None and anchor[0] == "entity"


def pair_outcomes(key: Document, response: Document | None, drop_singletons: bool = False) -> list[PairOutcome]:
    """One row per anaphor span of either side (the key's in file order, then the response's
    spurious ones): the rows :func:`bridging_counts` counts.

    >>> from corefreport.model import Chain, Document, Mention
    >>> a, b, c, d = Mention(1, 1), Mention(3, 4), Mention(6, 6), Mention(8, 8)
    >>> key = Document("d", chains=[Chain("1", [a]), Chain("2", [b, d]), Chain("3", [c])],
    ...                layers={"bridging": [Chain("part", [c, b])]})
    >>> resp = Document("d", layers={"bridging": [Chain("part", [c, d]), Chain("set", [a, b])]})
    >>> [(o.anaphor, o.outcome) for o in pair_outcomes(key, resp)]
    [((6, 6), 'same entity'), ((1, 1), 'spurious')]
    """
    k, s = labelled_pairs(key), labelled_pairs(response)
    if not k and not s:
        return []
    ent = entities(key, drop_singletons) if k and s else {}
    out = []
    for ana, (k_ant, k_rel) in k.items():
        s_ant, s_rel = s.get(ana, (None, ""))
        if s_ant is None:
            outcome = "missed"
        elif is_entity_anchor(k_ant) or is_entity_anchor(s_ant):
            outcome = "anaphor found"
        elif s_ant == k_ant:
            outcome = "matched"
        elif k_ant in ent and s_ant in ent and ent[k_ant] == ent[s_ant]:
            outcome = "same entity"
        else:
            outcome = "wrong anchor"
        out.append(PairOutcome(ana, k_ant, s_ant, outcome, k_rel, s_rel))
    out.extend(PairOutcome(ana, None, s_ant, "spurious", "", s_rel) for ana, (s_ant, s_rel) in s.items() if ana not in k)
    return out


def bridging_counts(key: Document, response: Document | None,
                    drop_singletons: bool = False) -> tuple[Counts, Counts, Counts]:
    """(anaphor recognition, full bridging markable level, entity level) of one document: the
    rows of :func:`pair_outcomes` counted (|K|: every row but the spurious ones; |S|: every row
    but the missed ones)."""
    rows = pair_outcomes(key, response, drop_singletons)
    if not rows:
        return Counts(), Counts(), Counts()
    nk = sum(1 for r in rows if r.outcome != "spurious")
    ns = sum(1 for r in rows if r.outcome != "missed")
    ar = sum(1 for r in rows if r.outcome in AR_TP)
    markable = [r for r in rows if not is_entity_anchor(r.key_anchor) and not is_entity_anchor(r.response_anchor)]
    mk = sum(1 for r in markable if r.outcome != "spurious")
    ms = sum(1 for r in markable if r.outcome != "missed")
    fbm = sum(1 for r in markable if r.outcome == "matched")
    fbe = sum(1 for r in markable if r.outcome in FBE_TP)
    return (Counts(ar, nk, ar, ns), Counts(fbm, mk, fbm, ms), Counts(fbe, mk, fbe, ms))


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
            why = ("an entity without a mention (opened by then)" if doc.meta.get("bridging") == "entity"
                   else "a MarkableID not in the IDENTITY column")
            out.append(f"{doc.source or side}: document {doc.doc_id!r}: {len(gone)} {side} bridging pair(s) skipped, "
                       f"{why} ({shown}); the UA scorer v1 skips them too")
    return out
