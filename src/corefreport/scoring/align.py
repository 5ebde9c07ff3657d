"""Prepare the chains of a key document and its response exactly as the reference scorer does.

* Documents are paired by id (:mod:`corefreport.io.pairs`). A key document missing from the
  response is scored against an empty response (all its mentions are missed, as in the reference);
  a response document not in the key is ignored; both are reported as warnings
  (:func:`pairing_warnings`).
* Tokens of matched documents must agree: a mismatch is an error naming the document, sentence,
  token position and both words (the reference silently mis-scores such pairs).
* **Repeated key mentions** (the same span twice in the key, in one or two chains) are kept in every
  chain by default (``key_duplicates="keep"``), as reference v8.01 does, so its numbers are
  reproduced (e.g. OntoGUM's GUM_bio_emperor); the reference then scores such a key against itself
  below 100 % (B³ F 62.5 % on its test case). ``key_duplicates="dedupe"`` keeps the span once, in
  its first chain, with a warning that says the numbers differ from the reference.
* **Repeated response mentions** are treated exactly as reference v8.01 does, so its numbers are
  reproduced: a repeated span that is also a key mention is kept only in the first chain (in chain
  order); a repeated span that is not in the key is kept in every chain (it then counts twice in B³,
  CEAF-m and LEA denominators and in MUC links). Chains left empty are dropped. Every affected span
  and chain is reported. The reference aborts after 10 such repeats; we never do.
* ``singletons="drop"`` removes one-mention chains from both sides before anything else.
* Under ``--preset crac`` (``corefud=`` the match mode) repeated spans are handled as corefud-scorer
  v1.2 does instead (:mod:`.repeats`, docs/matching.md rule 5): the chains come already without
  repeats within a chain and without singletons (:func:`.repeats.prepare`, before matching), a span
  in two chains of a side stays in both (on either side), and under head matching the same words
  with two heads are two mentions (:func:`.repeats.identities`).
* Under the Universal Anaphora presets (``repeats="ua1"``) a span written under two MarkableIDs is
  handled as the UA scorer v1 does (``coval/ua/reader.py``: a cluster is the list of its markables,
  ``get_markable_assignments`` maps a span to the last cluster holding it): every copy stays in the
  chain it is written in — twice in one chain counts twice, and a chain of one span written twice
  is no singleton —, and the metrics are v1's literal loops (:mod:`.corefud_metrics`, the formulas
  corefud-scorer inherited from it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Document, Span
from ..errors import InputError

@dataclass(slots=True)
class DuplicateReport:
    """One repeated span: where it is, which chain labels hold it, and what we did."""

    doc_id: str
    side: str
    span: Span
    labels: list[str]
    action: str
    source: str = ""
    """The file of that side (for the warnings)."""

    def as_dict(self) -> dict:
        return {"document": self.doc_id, "side": self.side, "span": list(self.span), "chains": self.labels,
                "action": self.action, "file": self.source}

    def where(self) -> str:
        """``document 'd' of FILE, tokens 3–5 in chains e1, e2`` (for a warning)."""
        span = f"tokens {self.span[0]}–{self.span[1]}" if self.span[0] != self.span[1] else f"token {self.span[0]}"
        return (f"document {self.doc_id!r}" + (f" of {self.source}" if self.source else "")
                + f", {span} in chain{'s' if len(set(self.labels)) > 1 else ''} {', '.join(dict.fromkeys(self.labels))}")


@dataclass(slots=True)
class AlignedDocument:
    """A key document with its response and the chains the metrics see, as span lists."""

    doc_id: str
    key_doc: Document
    response_doc: Document | None
    key: list[list[Span]]
    response: list[list[Span]]
    key_mentions: int = 0
    response_mentions: int = 0
    matched_mentions: int = 0
    ident: object = None
    """The identity the chains' entries were made with (``None``: ``Mention.ident``; under
    ``--preset crac`` with head matching it may carry a head, :func:`.repeats.identities`)."""


@dataclass(slots=True)
class Alignment:
    """What aligning a run of documents reports: words that differ, repeated spans."""

    warnings: list[str] = field(default_factory=list)
    duplicates: list[DuplicateReport] = field(default_factory=list)


def check_tokens(kd: Document, rd: Document, strict: bool = False) -> str | None:
    """Compare the tokens of a matched key and response document.

    Different token counts are an :class:`InputError` (mentions would be misaligned). Different words
    at the same positions return a warning naming the document, sentence, token position and both
    words — or raise with ``strict`` (``--strict-tokens``). Words alone are not an error by default
    because the reference scorer's own test files rename response tokens (TC-A-3: 'jnk' vs 'x').
    """
    kt, rt = kd.tokens, rd.tokens
    if kt == rt:
        return None
    if len(kt) != len(rt):
        raise InputError(rd.source, None, f"{kd.lengths_differ(rd)}: the files are not aligned")
    diff = [t for t, (a, b) in enumerate(zip(kt, rt)) if a != b and a and b]
    if not diff:
        return None
    t = diff[0]
    s = kd.sentence_of(t)
    first, _ = kd.sentence_bounds(s)
    msg = (f"document {kd.doc_id!r}: token {t} (sentence {s + 1}, word {t - first + 1}) is {kt[t]!r} in the key "
           f"({kd.source}) but {rt[t]!r} in the response ({rd.source})")
    if strict:
        raise InputError(rd.source, None, msg)
    return msg + (f"; {len(diff) - 1} more token(s) differ" if len(diff) > 1 else "")


def _chains(doc: Document | None, drop_singletons: bool, ident=None) -> list[tuple[str, list[Span]]]:
    if doc is None:
        return []
    out = []
    for c in doc.chains:
        if ident is not None:
            spans = [ident(m) for m in c.mentions]
        else:
            spans = [(m.start, m.end) if m.words is None else m.ident for m in c.mentions]
        if drop_singletons and len(spans) == 1:
            continue
        out.append((c.label, spans))
    return out


def pairing_warnings(response_documents: int, response_mentions: bool, missing: list[str],
                     extra: list[str]) -> list[str]:
    """The warnings about the pairing of documents: a response without any mention, key documents
    missing from the response, response documents not in the key."""
    out = []
    if not response_mentions:
        out.append(
            f"the response has no mentions in any of its {response_documents} document(s), so every score is 0: "
            "if the system did predict mentions, its coreference annotation was not read (CoNLL-2012: "
            "brackets in the LAST column; CoNLL-U: Entity= in MISC; JSON lines: 'clusters' or "
            "'predicted_clusters')")
    if missing:
        out.append(
            f"{len(missing)} key document(s) missing from the response, scored as empty responses: "
            + ", ".join(missing[:10]) + (" …" if len(missing) > 10 else "")
        )
    if extra:
        out.append(
            f"{len(extra)} response document(s) not in the key, ignored: "
            + ", ".join(extra[:10]) + (" …" if len(extra) > 10 else "")
        )
    return out


def align_document(kd: Document, rd: Document | None, result: Alignment, singletons: str = "keep",
                   strict_tokens: bool = False, key_duplicates: str = "keep",
                   corefud: str | None = None, repeats: str = "ref801") -> AlignedDocument:
    """One key document and its response (``None``: missing) as the chains the metrics score; a
    token mismatch is added to ``result.warnings``, every repeated span to ``result.duplicates``.
    ``corefud``: the match mode, to handle repeated spans as corefud-scorer does; ``repeats="ua1"``:
    as the UA scorer v1 does (module docstring)."""
    drop = singletons == "drop"
    if rd is not None:
        problem = check_tokens(kd, rd, strict_tokens)
        if problem:
            result.warnings.append(problem)
    if corefud is not None:
        from .repeats import identities

        return _align_every(kd, rd, result, drop, identities(kd, rd, corefud),
                            "in two chains: kept in both, looked up in the last (as corefud-scorer)")
    if repeats == "ua1":
        return _align_every(kd, rd, result, drop, None, "every copy kept where it is written, looked up in the last "
                                                        "chain (as the UA scorer v1)")
    kchains: list[list[Span]] = []
    seen_key: dict[Span, str] = {}
    for label, spans in _chains(kd, drop):
        kept = []
        for s in spans:
            if s in seen_key:
                if key_duplicates == "keep":
                    result.duplicates.append(DuplicateReport(kd.doc_id, "key", s, [seen_key[s], label],
                                                             "kept in both places (as reference v8.01)", kd.source))
                    kept.append(s)
                    continue
                result.duplicates.append(DuplicateReport(kd.doc_id, "key", s, [seen_key[s], label],
                                                         "kept once, in the first chain", kd.source))
                continue
            seen_key[s] = label
            kept.append(s)
        if kept:
            kchains.append(kept)
    rchains: list[list[Span]] = []
    seen_resp: dict[Span, str] = {}
    for label, spans in _chains(rd, drop):
        kept = []
        for s in spans:
            if s in seen_resp:
                if s in seen_key:
                    action = "key mention: kept only in the first chain (as reference v8.01)"
                    result.duplicates.append(DuplicateReport(kd.doc_id, "response", s, [seen_resp[s], label], action,
                                                             rd.source))
                    continue
                result.duplicates.append(DuplicateReport(
                    kd.doc_id, "response", s, [seen_resp[s], label],
                    "not a key mention: kept in both chains, counted twice (as reference v8.01)", rd.source))
            else:
                seen_resp[s] = label
            kept.append(s)
        if kept:
            rchains.append(kept)
    ad = AlignedDocument(kd.doc_id, kd, rd, kchains, rchains)
    ad.key_mentions = len(seen_key)
    ad.response_mentions = len(seen_resp)
    ad.matched_mentions = sum(1 for s in seen_resp if s in seen_key)
    return ad


def _align_every(kd: Document, rd: Document | None, result: Alignment, drop: bool, ident, action: str) -> AlignedDocument:
    """:func:`align_document` under ``--preset crac`` or the UA presets: every chain as it comes, a
    span written twice on a side kept every time (reported once per further copy, with ``action``)."""
    sides = []
    for side, doc in (("key", kd), ("response", rd)):
        chains: list[list[Span]] = []
        seen: dict[Span, str] = {}
        for label, spans in _chains(doc, drop, ident):
            for s in spans:
                if s in seen:
                    result.duplicates.append(DuplicateReport(kd.doc_id, side, s, [seen[s], label], action, doc.source))
                else:
                    seen[s] = label
            if spans:
                chains.append(spans)
        sides.append((chains, seen))
    (kchains, seen_key), (rchains, seen_resp) = sides
    ad = AlignedDocument(kd.doc_id, kd, rd, kchains, rchains)
    ad.key_mentions = len(seen_key)
    ad.response_mentions = len(seen_resp)
    ad.matched_mentions = sum(1 for s in seen_resp if s in seen_key)
    ad.ident = ident
    return ad


def duplicate_warnings(duplicates: list[DuplicateReport], key_duplicates: str = "keep",
                       corefud: bool = False, ua1: bool = False) -> list[str]:
    """The summary warnings of the repeated key and response mentions, each naming the first
    (document, file, tokens, chains); ``corefud``: handled as corefud-scorer (``--preset crac``);
    ``ua1``: as the UA scorer v1 (the UA presets)."""
    if not duplicates:
        return []
    out = []
    n_key = sum(1 for d in duplicates if d.side == "key")
    counts = (("key", n_key), ("response", len(duplicates) - n_key))
    first = {side: next((d for d in duplicates if (d.side == "key") == (side == "key")), None) for side, _ in counts}
    if ua1 or corefud:
        for side, n in counts:
            if not n:
                continue
            if ua1:
                out.append(f"{n} repeated {side} span(s) (one span under two MarkableIDs) handled as the UA scorer v1 "
                           "(--repeats ua1, the UA presets): every copy counts in the chain it is written in, a span "
                           f"is looked up in the last chain holding it; first: {first[side].where()} (see 'duplicates' "
                           "in the JSON; docs/universal-anaphora.md)")
            else:
                out.append(f"{n} repeated {side} span(s) handled as corefud-scorer v1.2 (--preset crac): written twice "
                           "in a chain, kept once; in two chains, kept in both and looked up in the last; first: "
                           f"{first[side].where()}: {first[side].action} (see 'duplicates' in the JSON; "
                           "docs/matching.md rule 5)")
        return out
    n_key, n_resp = counts[0][1], counts[1][1]
    if n_key:
        what = ("kept in both chains, as reference v8.01 does (--key-duplicates dedupe keeps each once)"
                if key_duplicates == "keep"
                else "de-duplicated (kept once, in the first chain): numbers differ from reference v8.01, "
                     "which keeps the span in every chain it is written in (the default, --key-duplicates keep)")
        out.append(f"{n_key} repeated key mention(s) {what}; first: {first['key'].where()}; see 'duplicates' in "
                   "the JSON")
    if n_resp:
        r = first["response"]
        out.append(f"{n_resp} repeated response mention(s) handled as reference v8.01; first: {r.where()}: "
                   f"{r.action} (see 'duplicates' in the JSON)")
    return out
