"""One link in its sentence: which tokens to show and what each token is, for every view.

An outcome row (:class:`~corefreport.scoring.outcomes.LinkOutcome`) names a referent and the
antecedents the key and the response gave it; this module turns it into the words of the
sentence(s) from the earliest antecedent to the referent, each token marked with its *role*
(``referent``, ``key``, ``response``, ``both`` where the two antecedents coincide, or none).
It computes no score and knows no style: the TUI maps roles to terminal styles
(``tui/model.py``), the report to HTML marks (``report/examples.py``); the sentence saying why
the outcome is what it is comes from :mod:`.why`. The tokens come from the corpora carried in
the evaluation (``Evaluation.key_corpus``, ``response_corpus``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import match_key
from ..scoring.outcomes import LinkOutcome
from ..scoring.result import Evaluation

Span = tuple[int, int]
ROLES = ("referent", "both", "key", "response")
END_TAGS = {"key": "[K]", "response": "[R]", "both": "[K=R]"}
"""Tags after the last token of an antecedent, so that the marks read without colour."""


_BY_MATCH: dict[int, tuple[object, dict[tuple[str, int], object]]] = {}


def document_of(ev: Evaluation, doc_id: str, side: str):
    """The key's or the response's :class:`~corefreport.model.Document` (None when not carried);
    rows are named by the key's id, and a response's document is found under its own id or the id
    it was paired by (``NAME`` ↔ ``NAME; part 0``)."""
    corpus = ev.key_corpus if side == "key" else ev.response_corpus
    if corpus is None:
        return None
    doc = corpus.documents.get(doc_id)
    if doc is not None or side == "key":
        return doc
    hit = _BY_MATCH.get(id(corpus))
    if hit is None or hit[0] is not corpus:
        if len(_BY_MATCH) > 8:
            _BY_MATCH.clear()
        hit = _BY_MATCH[id(corpus)] = (corpus, {match_key(d): v for d, v in corpus.documents.items()})
    return hit[1].get(match_key(doc_id))


def span_text(ev: Evaluation, doc_id: str, span: Span | None, side: str = "key") -> str:
    """The words of a span (``—`` for none), from the key's or the response's tokens."""
    if span is None:
        return "—"
    doc = document_of(ev, doc_id, side) or document_of(ev, doc_id, "key")
    if doc is None:
        return f"{span[0]}–{span[1]}"
    return doc.text(*span)


@dataclass(slots=True)
class Highlight:
    """Token spans of a link shown in context: the referent, the key's and the response's antecedent."""

    referent: Span
    key: Span | None
    response: Span | None
    sentences: list[Span] = field(default_factory=list)
    """(first token, last token) of each sentence shown; a gap between two means "…"."""


def highlight(ev: Evaluation, row: LinkOutcome, max_gap: int = 3) -> Highlight:
    """Which sentences to show: from the first to the last marked span (the referent, the key's and
    the response's antecedent), or just the sentences holding them when more than ``max_gap``
    sentences lie between."""
    h = Highlight(row.span, row.key_antecedent, row.response_antecedent)
    doc = document_of(ev, row.doc_id, "key")
    if doc is None:
        return h
    spans = [row.span] + [s for s in (row.key_antecedent, row.response_antecedent) if s]
    first = doc.sentence_of(min(a for a, _ in spans))
    last = doc.sentence_of(max(b for _, b in spans))  # an antecedent may follow (a dominant mention, cataphora)
    ids = sorted({doc.sentence_of(t) for sp in spans for t in sp}) if last - first > max_gap else list(
        range(first, last + 1))
    h.sentences = [doc.sentence_bounds(i) for i in ids]
    return h


def token_role(h: Highlight, t: int) -> str:
    """``referent``, ``both``, ``key``, ``response`` or "" for token ``t`` (the referent wins)."""
    in_key = h.key is not None and h.key[0] <= t <= h.key[1]
    in_resp = h.response is not None and h.response[0] <= t <= h.response[1]
    if h.referent[0] <= t <= h.referent[1]:
        return "referent"
    if in_key and in_resp:
        return "both"
    if in_key:
        return "key"
    if in_resp:
        return "response"
    return ""


def end_tag(h: Highlight, t: int) -> tuple[str, str] | None:
    """The tag after token ``t`` when an antecedent ends there: (``[K]``/``[R]``/``[K=R]``/``[K][R]``, role)."""
    k = h.key is not None and h.key[1] == t
    r = h.response is not None and h.response[1] == t
    if k and r and h.key == h.response:
        return END_TAGS["both"], "both"
    if k and r:
        return END_TAGS["key"] + END_TAGS["response"], "key"
    if k:
        return END_TAGS["key"], "key"
    if r:
        return END_TAGS["response"], "response"
    return None


@dataclass(frozen=True, slots=True)
class Piece:
    """One token of a link's context: its text, its role, the tag after it (or ""), and whether
    sentences were skipped before it (shown as "…")."""

    text: str
    role: str = ""
    tag: str = ""
    gap: bool = False


def context(ev: Evaluation, row: LinkOutcome, max_gap: int = 3) -> list[Piece]:
    """The tokens of :func:`highlight`'s sentences with their roles; [] when the corpus is not carried."""
    doc = document_of(ev, row.doc_id, "key")
    if doc is None:
        return []
    h = highlight(ev, row, max_gap)
    out: list[Piece] = []
    prev_last = None
    for a, b in h.sentences:
        gap = prev_last is not None and a != prev_last + 1
        for t in range(a, b + 1):
            tag = end_tag(h, t)
            out.append(Piece(doc.tokens[t], token_role(h, t), tag[0] if tag else "", gap and t == a))
        prev_last = b
    return out


def chain_spans(ev: Evaluation, doc_id: str, span: Span, side: str) -> list[Span]:
    """The spans of the chain (entity) holding ``span`` on one side, in document order."""
    doc = document_of(ev, doc_id, side)
    if doc is None:
        return []
    for c in doc.chains:
        for m in c.mentions:
            if m.span == span:
                return sorted({x.span for x in c.mentions})
    return []


NAMED = "chain_names"
"""``Document.meta`` key a reader sets when the chains' labels are names (BookCoref's characters,
:mod:`corefreport.io.bookcoref`)."""


def chain_name(ev: Evaluation, doc_id: str, span: Span, side: str) -> str:
    """The name of the chain holding ``span`` on one side — a BookCoref character's — or "" when its
    file names no chain."""
    doc = document_of(ev, doc_id, side)
    if doc is None or not doc.meta.get(NAMED):
        return ""
    for c in doc.chains:
        if any(m.span == span for m in c.mentions):
            return c.label if not c.label.isdigit() else ""
    return ""
