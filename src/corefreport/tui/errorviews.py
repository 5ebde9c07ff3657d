"""The tables of the error-class browser (``x``, Kummerfeld & Klein 2013) as :class:`~.model.View`\\ s,
so that they behave as every other page of the browser: sorted by any column (``s``, ``1``–``9``),
filtered with the link search's syntax (``/``, :mod:`.search`), exported with their own values
(CSV / JSON), per document (``d``). Pure: no widget; the screen (``tui/errors.py``) draws them.

* :func:`totals_view` — per class: errors, CoNLL F1 gained fixing it cumulatively and alone;
* :func:`class_view` — the errors of one class (or of every class, or of one document), filtered;
* :func:`documents_view` — per document: errors of each class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text

from ..present.inert import inert
from ..present.labels import short_doc
from ..present.numbers import count, signed
from ..scoring.errorclasses import CLASSES, LEFTOVER
from .model import View, sort_view  # noqa: F401 (sort_view: the screen sorts with it)
from .search import Query, parse_query

if TYPE_CHECKING:
    from ..scoring.errorclasses import ErrorRow
    from ..scoring.result import Evaluation

ALL = "every class"
"""The class of :func:`class_view` that holds every error (a search from the totals, a document)."""


def totals_view(ev: Evaluation) -> View:
    """Per class, in the analyser's order: errors, Δ CoNLL F1 fixed cumulatively and alone; the leftover."""
    er = ev.errors
    items = []
    for c in er.costs():  # the reading rows (repeated mentions, dropped singletons) first, then the classes
        n = er.count_of(c["class"])
        items.append((c["class"], n, c["cumulative"]["conll"], c["alone"]["conll"]))

    def cell(it: tuple, full: bool) -> tuple:
        return (it[0], count(it[1]), signed(it[2]), signed(it[3]))

    def values(it: tuple) -> dict[str, Any]:
        return {"class": it[0], "errors": it[1], "conll_gain_cumulative": it[2], "conll_gain_alone": it[3]}

    return View("error-totals", "error classes", ("class", "errors", "Δ CoNLL cumulative", "Δ CoNLL alone"),
                items, cell, numeric=frozenset({1, 2, 3}), values=values,
                note="Enter: the errors of a class; /: search every error; d: per document")


def error_text(row: ErrorRow) -> str:
    """What a search's words are matched in: the mentions' words (one mention a line), the
    document id (``_`` separating words), the class and the mention types."""
    return "\n".join((*row.texts, row.doc_id, row.cls, " ".join(row.mtypes)))


def matches(q: Query, row: ErrorRow) -> bool:
    """The link search on an error: words, phrases and ``re:`` in :func:`error_text`; ``doc:`` in
    the document id; ``class:C`` the class (substring, case-insensitive); ``mtype:T`` / ``type:T``
    one of the mention types; any other term (outcomes have no meaning here) as words."""
    text = error_text(row)
    for t in q.terms:
        if t.field == "text":
            hit = t.pattern is not None and t.pattern.search(text) is not None
        elif t.field == "doc":
            hit = t.value in row.doc_id.lower()
        elif t.field == "cls":
            hit = t.value in row.cls.lower()
        elif t.field in ("mtype", "type"):
            hit = t.value in (m.lower() for m in row.mtypes)
        else:
            hit = t.value.lower() in text.lower()
        if hit == t.negated:
            return False
    return True


def error_rows(ev: Evaluation, cls: str, doc_id: str | None = None, query: str = "") -> list[ErrorRow]:
    """The errors of one class (:data:`ALL`: every class; :data:`LEFTOVER`: the leftover's
    mentions), of one document if given, that pass ``query`` — in document order."""
    er = ev.errors
    rows = list(er.leftovers) if cls == LEFTOVER else [r for r in er.rows if cls == ALL or r.cls == cls]
    if doc_id is not None:
        rows = [r for r in rows if r.doc_id == doc_id]
    q = parse_query(query) if query else None
    return [r for r in rows if q is None or matches(q, r)]


def class_view(ev: Evaluation, cls: str, doc_id: str | None = None, query: str = "") -> View:
    """The errors of a class (document, sentence, mentions, types; the class too when several)."""
    rows = error_rows(ev, cls, doc_id, query)
    several = cls == ALL

    def words(r: ErrorRow) -> str:
        return ", ".join(r.texts) if r.texts else ", ".join(f"{s}-{e}" for s, e in r.mentions)

    def cell(r: ErrorRow, full: bool) -> tuple:
        out = [Text(inert(short_doc(r.doc_id))), str(r.sentence + 1), Text(inert(words(r) if full else words(r)[:60])),
               Text("+".join(dict.fromkeys(r.mtypes)))]  # Text: never markup; inert: no control character
        return tuple(([Text(r.cls)] if several else []) + out)

    def values(r: ErrorRow) -> dict[str, Any]:
        return {**({"class": r.cls} if several else {}), "document": r.doc_id, "sentence": r.sentence + 1,
                "mentions": words(r), "types": "+".join(dict.fromkeys(r.mtypes)),
                "spans": " ".join(f"{s}-{e}" for s, e in r.mentions)}

    columns = (("class",) if several else ()) + ("document", "sentence", "mentions", "types")
    total = len(error_rows(ev, cls, doc_id))
    note = f"{len(rows)} errors" + (f" of {total} match “{query}”" if query else "")
    return View("error-class", cls, columns, rows, cell, numeric=frozenset({columns.index("sentence")}),
                values=values, note=note)


def documents_view(ev: Evaluation) -> View:
    """Per document: errors of each class and in all, most errors first (Enter: its errors)."""
    per = ev.errors.document_counts()
    items = sorted(per.items(), key=lambda kv: (-sum(kv[1].values()), kv[0]))
    short = {c: "".join(w[0] for w in c.split()) for c in CLASSES}  # "Span Error" → "SE"

    def cell(it: tuple, full: bool) -> tuple:
        doc, counts = it
        return (Text(inert(doc if full else short_doc(doc))), *(str(counts[c]) for c in CLASSES), str(sum(counts.values())))

    def values(it: tuple) -> dict[str, Any]:
        doc, counts = it
        return {"document": doc, **{c: counts[c] for c in CLASSES}, "errors": sum(counts.values())}

    return View("error-documents", "documents", ("document", *(short[c] for c in CLASSES), "all"), items, cell,
                numeric=frozenset(range(1, len(CLASSES) + 2)), values=values,
                note="errors per document, most first — " + ", ".join(f"{short[c]}: {c}" for c in CLASSES))
