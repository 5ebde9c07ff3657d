"""The browser's pages for the Universal Anaphora layers beside coreference: bridging pairs,
non-referring expressions, discourse-deixis chains and the bridging pairs skipped while reading,
as :class:`~.model.View`\\ s over the rows the scoring produces.

Nothing here computes a score: a bridging pair's outcome is :func:`~corefreport.scoring.bridging.pair_outcomes`'s
row (the rows ``bridging_ar``/``_fbm``/``_fbe`` count), a non-referring markable's is
:func:`~corefreport.scoring.nonref.nonref_outcomes`'s (the rows ``nonref`` counts); the DD chains
and the skipped pairs are the documents' layers as read (``Document.layers``, carried in the
evaluation). The app (``app.py``) renders the views and their detail (:func:`layer_detail`): each
anaphor and anchor, each non-referring markable, each DD mention in its sentence.

Pages (``Page("layer", column=NAME)``): ``bridging``, ``nonref``, ``deixis``, ``skipped``; their
rows on the totals page come from :func:`layer_total_rows`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from rich.text import Text

from ..model import Document
from ..present.context import Highlight, document_of, token_role
from ..present.inert import inert
from ..scoring.bridging import METRICS as BRIDGING_METRICS, PAIR_OUTCOMES, PairOutcome, is_entity_anchor, \
    pair_outcomes, skipped
from ..scoring.deixis import LAYER as DD_LAYER, METRICS as DD_METRICS
from ..scoring.nonref import NONREF_OUTCOMES, NonrefOutcome, nonref_outcomes
from ..scoring.result import Evaluation
from .model import BOTH_STYLE, KEY_STYLE, REFERENT_STYLE, RESPONSE_STYLE, ROLE_STYLE, TotalRow, View, cut_middle

LAYER_TITLES = {"bridging": "bridging pairs", "nonref": "non-referring", "deixis": "DD chains",
                "skipped": "skipped bridging pairs"}
"""Page name → its title (the crumb and the totals row)."""
OUTCOME_STYLE = {"anaphor found": "green", "matched": "green", "same entity": "cyan", "wrong anchor": "yellow", "missed": "red",
                 "spurious": "blue", "found": "green", "key": "bold", "response": "bold"}


# --------------------------------------------------------------------------- items


@dataclass(frozen=True, slots=True)
class BridgingItem:
    """One bridging pair outcome of a document."""

    doc_id: str
    row: PairOutcome


@dataclass(frozen=True, slots=True)
class NonrefItem:
    """One non-referring markable outcome of a document."""

    doc_id: str
    row: NonrefOutcome


@dataclass(frozen=True, slots=True)
class ChainItem:
    """One discourse-deixis chain of one side: its mentions' spans (``Mention.ident``) in document
    order, and how many of them the other side has as DD mentions."""

    doc_id: str
    side: str
    label: str
    spans: tuple[tuple, ...]
    shared: int


@dataclass(frozen=True, slots=True)
class SkippedItem:
    """A bridging pair skipped while reading (``ANAPHOR→ANCHOR`` MarkableIDs, one not in IDENTITY)."""

    doc_id: str
    side: str
    pair: str


def _pairs_of_docs(ev: Evaluation) -> Iterator[tuple[str, Document | None, Document | None]]:
    for d in ev.documents:
        yield d.doc_id, document_of(ev, d.doc_id, "key"), document_of(ev, d.doc_id, "response")


_CACHE: dict[tuple[int, str], tuple[Evaluation, list]] = {}


def _cached(ev: Evaluation, name: str, make) -> list:
    hit = _CACHE.get((id(ev), name))
    if hit is None or hit[0] is not ev:
        if len(_CACHE) > 16:
            _CACHE.clear()
        hit = _CACHE[(id(ev), name)] = (ev, make())
    return hit[1]


def bridging_items(ev: Evaluation) -> list[BridgingItem]:
    """Every document's bridging pair outcomes, in key order (singletons as the scores took them)."""
    drop = ev.settings.singletons == "drop"
    return _cached(ev, "bridging", lambda: [
        BridgingItem(doc_id, r) for doc_id, k, s in _pairs_of_docs(ev) if k is not None
        for r in pair_outcomes(k, s, drop)])


def nonref_items(ev: Evaluation) -> list[NonrefItem]:
    """Every document's non-referring markable outcomes, in key order."""
    return _cached(ev, "nonref", lambda: [
        NonrefItem(doc_id, r) for doc_id, k, s in _pairs_of_docs(ev) if k is not None for r in nonref_outcomes(k, s)])


def chain_items(ev: Evaluation) -> list[ChainItem]:
    """Per document, the key's DD chains then the response's, in the order they open."""
    def make() -> list[ChainItem]:
        out = []
        for doc_id, k, s in _pairs_of_docs(ev):
            sides = {"key": k, "response": s}
            spans = {side: {m.ident for c in (d.layers.get(DD_LAYER, ()) if d else ()) for m in c.mentions}
                     for side, d in sides.items()}
            for side, d in sides.items():
                other = spans["response" if side == "key" else "key"]
                for c in (d.layers.get(DD_LAYER, ()) if d else ()):
                    ids = tuple(sorted({m.ident for m in c.mentions}))
                    out.append(ChainItem(doc_id, side, c.label, ids, sum(1 for x in ids if x in other)))
        return out
    return _cached(ev, "deixis", make)


def skipped_items(ev: Evaluation) -> list[SkippedItem]:
    """The bridging pairs skipped in either side's documents."""
    return _cached(ev, "skipped", lambda: [
        SkippedItem(doc_id, side, p) for doc_id, k, s in _pairs_of_docs(ev)
        for side, d in (("key", k), ("response", s)) for p in skipped(d)])


def layers_present(ev: Evaluation) -> list[str]:
    """The layer pages the evaluation has: a layer whose scores were computed (and the documents
    carried), the skipped pairs when there are some."""
    if ev.key_corpus is None:
        return []
    out = []
    if any(n in ev.metrics for n in BRIDGING_METRICS):
        out.append("bridging")
        if skipped_items(ev):
            out.append("skipped")
    if "nonref" in ev.metrics:
        out.append("nonref")
    if any(n in ev.metrics for n in DD_METRICS):
        out.append("deixis")
    return out


def tally(items: list, outcomes: tuple[str, ...]) -> str:
    """``matched 3 missed 1`` — the outcomes that occur, in ``outcomes``' order."""
    seen: dict[str, int] = {}
    for it in items:
        seen[it.row.outcome] = seen.get(it.row.outcome, 0) + 1
    return " ".join(f"{o} {seen[o]}" for o in outcomes if seen.get(o))


def layer_counts(ev: Evaluation, name: str) -> str:
    """The counts shown beside a layer's row on the totals page."""
    if name == "bridging":
        return tally(bridging_items(ev), PAIR_OUTCOMES) or "no pairs"
    if name == "nonref":
        return tally(nonref_items(ev), NONREF_OUTCOMES) or "no markables"
    if name == "deixis":
        items = chain_items(ev)
        k = sum(1 for c in items if c.side == "key")
        return f"key {k} chains, response {len(items) - k}"
    items = skipped_items(ev)
    k = sum(1 for c in items if c.side == "key")
    return f"key {k}, response {len(items) - k}"


def layer_total_rows(ev: Evaluation) -> list[TotalRow]:
    """The totals page's layer rows (``model.total_rows``' ``extra``), one per layer page (Enter
    opens it), with its outcome counts."""
    return [TotalRow(LAYER_TITLES[name], None, None, None, layer_counts(ev, name), ("layer", name))
            for name in layers_present(ev)]


# --------------------------------------------------------------------------- views


def _doc(ev: Evaluation, doc_id: str) -> Document | None:
    return document_of(ev, doc_id, "key")


def words(ev: Evaluation, doc_id: str, span: tuple | None) -> str:
    """The words of a span (a discontinuous one's parts with ``…``), ``—`` for none; an entity
    anchor (CorefUD's ``Bridge=``): ``FIRST MENTION (N)``, N its mentions."""
    if span is None:
        return "—"
    if is_entity_anchor(span):
        return f"{words(ev, doc_id, span[1][0])} ({len(span[1])})" if span[1] else "an entity"
    doc = _doc(ev, doc_id)
    if doc is None:
        return f"{span[0]}–{span[1]}"
    if len(span) > 2:
        ws = span[2]
        return " ".join(doc.tokens[t] if t - 1 in ws or t == ws[0] else "… " + doc.tokens[t] for t in ws)
    return doc.text(span[0], span[1])


def _styled(outcome: str) -> Text:
    return Text(outcome, style=OUTCOME_STYLE.get(outcome, ""))


def bridging_view(ev: Evaluation, width: int = 80) -> View:
    """Every bridging pair: its outcome, the anaphor, the key's and the response's anchors, the
    relation, the document; the detail pane shows them in their sentence(s)."""
    items = bridging_items(ev)
    w = max(8, (width - 14 - 12 - 16) // 3)

    def cell(it: BridgingItem, full: bool) -> tuple:
        r = it.row
        cut = (lambda s: s) if full else (lambda s: cut_middle(s, w))
        return (_styled(r.outcome), inert(cut(words(ev, it.doc_id, r.anaphor))),
                inert(cut(words(ev, it.doc_id, r.key_anchor))), inert(cut(words(ev, it.doc_id, r.response_anchor))),
                inert(r.key_rel or r.response_rel), inert(it.doc_id if full else cut_middle(it.doc_id, 14)))

    def values(it: BridgingItem) -> dict[str, Any]:
        r = it.row
        return {"outcome": r.outcome, "anaphor": words(ev, it.doc_id, r.anaphor),
                "key anchor": words(ev, it.doc_id, r.key_anchor),
                "resp. anchor": words(ev, it.doc_id, r.response_anchor), "rel": r.key_rel or r.response_rel,
                "document": it.doc_id, "anaphor_span": list(r.anaphor[:2]),
                "key_anchor_span": shown_span(r.key_anchor, r.anaphor),
                "response_anchor_span": shown_span(r.response_anchor, r.anaphor),
                "response_rel": r.response_rel}

    entity = any(is_entity_anchor(it.row.key_anchor) or is_entity_anchor(it.row.response_anchor) for it in items)
    note = (f"{len(items)} anaphors: {tally(items, PAIR_OUTCOMES) or 'none'}; " + (
        "anchors are entities (CorefUD's Bridge=): first mention (mentions); only AR is defined" if entity else
        "AR counts the anaphors in both, FB-m matched, FB-e matched + same entity"))
    return View("layer", LAYER_TITLES["bridging"], ("outcome", "anaphor", "key anchor", "resp. anchor", "rel",
                                                    "document"), items, cell, note=note, values=values)


def nonref_view(ev: Evaluation, width: int = 80) -> View:
    """Every non-referring markable of the key (found, missed) and the response's spurious ones."""
    items = nonref_items(ev)
    w = max(10, width - 12 - 14 - 16)

    def cell(it: NonrefItem, full: bool) -> tuple:
        r = it.row
        text = words(ev, it.doc_id, r.span)
        return (_styled(r.outcome), inert(text if full else cut_middle(text, w)), inert(r.entity),
                inert(it.doc_id if full else cut_middle(it.doc_id, 14)))

    def values(it: NonrefItem) -> dict[str, Any]:
        r = it.row
        return {"outcome": r.outcome, "markable": words(ev, it.doc_id, r.span), "entity": r.entity,
                "document": it.doc_id, "span": list(r.span[:2])}

    note = f"{len(items)} markables: {tally(items, NONREF_OUTCOMES) or 'none'} — R = found/(found+missed), " \
           "P = found/(found+spurious)"
    return View("layer", LAYER_TITLES["nonref"], ("outcome", "markable", "entity", "document"), items, cell,
                note=note, values=values)


def deixis_view(ev: Evaluation, width: int = 80) -> View:
    """Every DD chain of both sides: its size, how many of its mentions the other side has, its
    first mention; the detail pane lists its mentions in their sentences."""
    items = chain_items(ev)
    w = max(10, width - 10 - 10 - 9 - 9 - 16)

    def cell(it: ChainItem, full: bool) -> tuple:
        first = words(ev, it.doc_id, it.spans[0]) if it.spans else ""
        return (it.side, inert(it.label), str(len(it.spans)), str(it.shared),
                inert(first if full else cut_middle(first, w)), inert(it.doc_id if full else cut_middle(it.doc_id, 14)))

    def values(it: ChainItem) -> dict[str, Any]:
        return {"side": it.side, "entity": it.label, "mentions": len(it.spans), "in other": it.shared,
                "first mention": words(ev, it.doc_id, it.spans[0]) if it.spans else "", "document": it.doc_id}

    k = sum(1 for c in items if c.side == "key")
    note = (f"{k} key and {len(items) - k} response DD chains; 'in other': mentions the other side also has "
            "(scored by the DD metrics, singletons kept)")
    return View("layer", LAYER_TITLES["deixis"], ("side", "entity", "mentions", "in other", "first mention",
                                                  "document"), items, cell, note=note,
                numeric=frozenset({2, 3}), values=values)


def skipped_view(ev: Evaluation, width: int = 80) -> View:
    """The bridging pairs skipped while reading (a MarkableID in no IDENTITY cell), per side."""
    items = skipped_items(ev)

    def cell(it: SkippedItem, full: bool) -> tuple:
        return (it.side, inert(it.pair), inert(it.doc_id if full else cut_middle(it.doc_id, max(14, width - 50))))

    def values(it: SkippedItem) -> dict[str, Any]:
        return {"side": it.side, "pair": it.pair, "document": it.doc_id}

    return View("layer", LAYER_TITLES["skipped"], ("side", "pair", "document"), items, cell, values=values,
                note=f"{len(items)} pair(s) skipped: a MarkableID in no IDENTITY cell; the UA scorer v1 skips "
                     "them too, they count for no score")


VIEWS = {"bridging": bridging_view, "nonref": nonref_view, "deixis": deixis_view, "skipped": skipped_view}


def layer_view(ev: Evaluation, name: str, width: int = 80) -> View:
    """The page of layer ``name`` (a key of :data:`LAYER_TITLES`)."""
    return VIEWS[name](ev, width)


# --------------------------------------------------------------------------- detail


def sentences(doc: Document, spans: list[tuple], max_gap: int = 3) -> list[tuple[int, int]]:
    """(first, last token) of the sentences to show: from the first to the last span's, or only
    the sentences holding them when more than ``max_gap`` lie between (as a link's context)."""
    first = doc.sentence_of(min(s[0] for s in spans))
    last = doc.sentence_of(max(s[1] for s in spans))
    ids = sorted({doc.sentence_of(t) for s in spans for t in s[:2]}) if last - first > max_gap else \
        list(range(first, last + 1))
    return [doc.sentence_bounds(i) for i in ids]


def _tag(h: Highlight, t: int, names: tuple[str, str]) -> tuple[str, str] | None:
    k = h.key is not None and h.key[1] == t
    r = h.response is not None and h.response[1] == t
    if k and r and h.key == h.response:
        return f"[{names[0]}={names[1]}]", BOTH_STYLE
    if k and r:
        return f"[{names[0]}][{names[1]}]", KEY_STYLE
    if k:
        return f"[{names[0]}]", KEY_STYLE
    if r:
        return f"[{names[1]}]", RESPONSE_STYLE
    return None


def in_sentence(doc: Document, h: Highlight, mark: str, names: tuple[str, str] = ("K", "R")) -> Text:
    """The sentence(s) of ``h``'s spans, its referent in reverse video (tagged ``[mark]``), its key
    span green, its response span red (cyan when the same), each tagged so that it reads without colour."""
    out = Text()
    prev = None
    spans = [s for s in (h.referent, h.key, h.response) if s is not None]
    for a, b in sentences(doc, spans):
        if prev is not None and a != prev + 1:
            out.append("… ", style="dim")
        for t in range(a, b + 1):
            out.append(inert(doc.tokens[t]), style=ROLE_STYLE[token_role(h, t)])
            if t == h.referent[1]:
                out.append(f"[{mark}]", style=REFERENT_STYLE)
            tag = _tag(h, t, names)
            if tag:
                out.append(*tag)
            out.append(" ")
        prev = b
    out.append("\n")
    return out


BRIDGING_WHY = {
    "matched": "the response anchors it to the key's anchor: counts for AR, FB-m and FB-e",
    "same entity": "the response's anchor is another mention of the key anchor's entity: counts for AR and FB-e, "
                   "not FB-m",
    "wrong anchor": "the response has the anaphor but anchors it outside the key anchor's entity: counts for AR only",
    "missed": "the response has no bridging pair on this anaphor (a false negative of every bridging score)",
    "spurious": "the key has no bridging pair on this anaphor (a false positive of every bridging score)",
    "anaphor found": "both sides have a bridging pair on this anaphor; its anchor is an entity (CorefUD's Bridge=), "
                     "so only anaphor recognition is defined: counts for AR (shown: the anchor entity's mention "
                     "nearest before the anaphor)",
}


def shown_span(anchor: tuple | None, anaphor: tuple) -> tuple[int, int] | None:
    """The (start, end) of an anchor to mark in the sentence: an anchor markable's span; of an
    entity anchor, its last mention starting before the anaphor (else its first)."""
    if anchor is None:
        return None
    if is_entity_anchor(anchor):
        spans = anchor[1]
        if not spans:
            return None
        before = [x for x in spans if x[0] < anaphor[0]]
        return tuple(max(before)[:2]) if before else tuple(spans[0][:2])
    return tuple(anchor[:2])


def _head(outcome: str, where: str) -> Text:
    out = Text()
    out.append(f" {outcome} ", style=f"bold reverse {OUTCOME_STYLE.get(outcome, '')}")
    out.append(inert(f" {where}") + "\n")
    return out


def bridging_detail(ev: Evaluation, it: BridgingItem) -> Text:
    r = it.row
    out = _head(r.outcome, f"bridging · {it.doc_id} @{r.anaphor[0]}")
    out.append("why: ", style="bold")
    out.append(BRIDGING_WHY[r.outcome] + "\n")
    doc = _doc(ev, it.doc_id)
    if doc is not None:
        out.append_text(in_sentence(doc, Highlight(r.anaphor[:2], shown_span(r.key_anchor, r.anaphor),
                                                   shown_span(r.response_anchor, r.anaphor)), "A"))
    same = r.key_anchor is not None and r.key_anchor == r.response_anchor
    out.append("anaphor [A]     ", style="bold")
    out.append(inert(words(ev, it.doc_id, r.anaphor)), style=REFERENT_STYLE)
    out.append("\nkey anchor      ", style="bold")
    out.append(inert(words(ev, it.doc_id, r.key_anchor)), style=KEY_STYLE if r.key_anchor else "dim")
    out.append(inert(f"  ({r.key_rel})") if r.key_rel else "", style="dim")
    out.append("\nresponse anchor ", style="bold")
    out.append(inert(words(ev, it.doc_id, r.response_anchor)),
               style=(BOTH_STYLE if same else RESPONSE_STYLE) if r.response_anchor else "dim")
    out.append(inert(f"  ({r.response_rel})") if r.response_rel else "", style="dim")
    out.append("\n")
    return out


def _chain_of(doc: Document | None, span: tuple, layer: str | None = None) -> str | None:
    if doc is None:
        return None
    for c in (doc.layers.get(layer, ()) if layer else doc.chains):
        if any(m.ident == span for m in c.mentions):
            return c.label
    return None


def nonref_detail(ev: Evaluation, it: NonrefItem) -> Text:
    r = it.row
    out = _head(r.outcome, f"non-referring · {it.doc_id} @{r.span[0]}")
    out.append("why: ", style="bold")
    if r.outcome == "found":
        out.append("the response marks the same span non-referring\n")
    else:
        other = "response" if r.outcome == "missed" else "key"
        ref = _chain_of(document_of(ev, it.doc_id, other), r.span)
        out.append(f"the {other} does not mark this span non-referring"
                   + (inert(f"; it has it as a mention of its entity {ref}") if ref is not None else "") + "\n")
    doc = _doc(ev, it.doc_id)
    if doc is not None:
        out.append_text(in_sentence(doc, Highlight(r.span[:2], None, None), "NR"))
    return out


def deixis_detail(ev: Evaluation, it: ChainItem, limit: int = 12) -> Text:
    other = "response" if it.side == "key" else "key"
    out = _head(it.side, f"DD chain {it.label} · {it.doc_id}: {len(it.spans)} mention(s), "
                         f"{it.shared} also DD mention(s) of the {other}")
    doc = _doc(ev, it.doc_id)
    odoc = document_of(ev, it.doc_id, other)
    for s in it.spans[:limit]:
        there = _chain_of(odoc, s, DD_LAYER)
        out.append(f"@{s[0]} ", style="dim")
        out.append(f"[{other} {there}] " if there is not None else f"[not in the {other}] ",
                   style="green" if there is not None else "red")
        if doc is not None:
            out.append_text(in_sentence(doc, Highlight(s[:2], None, None), "DD"))
        else:
            out.append(inert(words(ev, it.doc_id, s)) + "\n")
    if len(it.spans) > limit:
        out.append(f"… {len(it.spans) - limit} more\n", style="dim")
    return out


def skipped_detail(ev: Evaluation, it: SkippedItem) -> Text:
    ana, _, ant = it.pair.partition("→")
    out = _head("skipped", f"bridging pair {it.pair} · {it.doc_id} ({it.side})")
    out.append(inert(f"The {it.side}'s BRIDGING column anchors {ana} to {ant}, but one of them is in no IDENTITY "
                     "cell of the document: the pair is not read into the bridging layer (the UA scorer v1 "
                     "prints 'Skip bridging pair' and skips it too) and counts for no bridging score.") + "\n")
    return out


def layer_detail(ev: Evaluation, item: Any, limit: int = 12) -> Text:
    """The detail of one row of a layer page (a DD chain: its first ``limit`` mentions)."""
    if isinstance(item, BridgingItem):
        return bridging_detail(ev, item)
    if isinstance(item, NonrefItem):
        return nonref_detail(ev, item)
    if isinstance(item, ChainItem):
        return deixis_detail(ev, item, limit)
    return skipped_detail(ev, item)



def item_crumb(ev: Evaluation, item: Any) -> str:
    """The breadcrumb of one row opened full screen."""
    if isinstance(item, BridgingItem):
        return f"{item.row.outcome} {words(ev, item.doc_id, item.row.anaphor)[:20]}"
    if isinstance(item, NonrefItem):
        return f"{item.row.outcome} {words(ev, item.doc_id, item.row.span)[:20]}"
    if isinstance(item, ChainItem):
        return f"{item.side} {item.label}"
    return f"skipped {item.pair}"
