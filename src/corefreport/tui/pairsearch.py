"""The search (``/``) of the many-system browser's changed links: the one-system browser's query
language (:mod:`.search`: whole words, ``"a phrase"``, ``re:…``, ``in:mention|link|sentence``,
``-not``, ``doc:``, ``class:``, ``type:``) over :class:`~corefreport.scoring.compare.LinkChange` rows.

What differs, because a changed link has two outcomes and three antecedents:

* an outcome (``wl``, ``outcome:fn,fp``) matches when **either** system has it there (``none``: no
  row, as in the transitions);
* ``kind:gain`` (right only in the system), ``kind:loss`` (right only in the baseline),
  ``kind:change`` (wrong in both); ``baseline:WL``, ``system:TP``, ``transition:wl>tp``;
* ``in:link`` (default) matches words in the referent, the key's antecedent, **both** systems'
  antecedents and the document id.

Pure: the texts come from the evaluations (the key's words, each response's).
"""

from __future__ import annotations

from ..present.context import span_text
from ..scoring.compare import LinkChange
from .search import Query, Term, parse_query

COLUMNS = {"kind": lambda c: c.kind, "transition": lambda c: f"{c.baseline}>{c.system}".lower(),
           "baseline": lambda c: c.baseline, "system": lambda c: c.system, "cls": lambda c: c.cls,
           "type": lambda c: c.type, "side": lambda c: c.side}


def change_text(key_ev, baseline_ev, system_ev, c: LinkChange, where: str = "link") -> str:
    """The text the search's words are matched in: the referent (``mention``), its sentence in the
    key (``sentence``), or the referent, the key's and both systems' antecedents and the document
    id, one a line (``link``)."""
    if where == "mention":
        return c.text
    if where == "sentence":
        doc = key_ev.key_corpus.documents.get(c.doc_id) if key_ev.key_corpus is not None else None
        if doc is None:
            return c.text
        a, b = doc.sentence_bounds(doc.sentence_of(c.start))
        return " ".join(doc.tokens[a:b + 1])
    parts = [c.text]
    for ev, span, side in ((key_ev, c.key_antecedent, "key"), (baseline_ev, c.baseline_antecedent, "response"),
                           (system_ev, c.system_antecedent, "response")):
        parts.append(span_text(ev, c.doc_id, span, side) if span else "")
    return "\n".join(parts + [c.doc_id])


def _holds(t: Term, c: LinkChange, text) -> bool:
    if t.field == "outcome":
        values = t.value.upper().split(",")
        return c.baseline.upper() in values or c.system.upper() in values
    if t.field == "doc":
        return t.value in c.doc_id.lower()
    if t.field == "text":
        return t.pattern is not None and t.pattern.search(text()) is not None
    get = COLUMNS.get(t.field)
    return get is not None and str(get(c)).lower() == t.value


def matches(q: Query, c: LinkChange, text_of) -> bool:
    """Whether change ``c`` passes every term of ``q``; ``text_of(c, where)`` gives the text words
    are matched in (read once, when a word term needs it)."""
    cache: list[str] = []

    def text() -> str:
        if not cache:
            cache.append(text_of(c, q.where))
        return cache[0]

    return all(_holds(t, c, text) != t.negated for t in q.terms)


def search_changes(changes: list[LinkChange], query: str | Query, text_of) -> list[LinkChange]:
    """The changes matching ``query`` (a :class:`~.search.QueryError` for a bad one), in their order;
    ``text_of(change, where)``: :func:`change_text` of the systems compared.

    >>> a = LinkChange("arcs", "GUM_court_x", 5, 5, "his", "key", "PRP$", "t", "WL", "TP", (1, 1), (3, 3), (1, 1))
    >>> b = LinkChange("arcs", "GUM_news_y", 9, 9, "this", "key", "DT", "t", "TP", "FN", (2, 2), (2, 2), None)
    >>> text = lambda c, where: c.text if where == "mention" else c.text + "\\n" + c.doc_id
    >>> [[c.text for c in search_changes([a, b], q, text)] for q in ("his", "court", "fn", "kind:gain", "-wl")]
    [['his'], ['his'], ['this'], ['his'], ['this']]
    """
    q = parse_query(query) if isinstance(query, str) else query
    if not q:
        return list(changes)
    return [c for c in changes if matches(q, c, text_of)]
