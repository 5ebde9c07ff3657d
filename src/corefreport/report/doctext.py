"""The documents of the error examples as running text, for the HTML and PDF reports: every word of
a document with the key's ``[N … ]`` and each response's ``{N … }`` (``< >``, … for more systems)
mentions, coloured by entity, errors marked (``*``: a mention only one side has; ``!``: a response
mention that is a key mention of another entity) — the TUI's document view (``v``) on paper.

One model, two views: the marks, their numbers and flags are
:func:`corefreport.present.document_text.documents_text`'s (the TUI draws the same
:class:`~corefreport.present.document_text.DocumentText` with Rich); this module only lays them out
as pieces for the template and gives each example's referent an anchor, so that an example links to
its place in the document (and the referent is boxed there, as in the example). It reads without
colour: the brackets carry the entity numbers and the flags.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..present.document_text import SHAPES, DocumentText
from ..scoring.result import Evaluation

PDF_DOCUMENTS = 3
"""The PDF shows the documents of this many examples' documents (those with the most examples); the HTML all."""
LONG_DOCUMENT = 300
"""A document of more sentences (a book) shows only the sentences of its examples' referents, with
:data:`CONTEXT` sentences around each: a whole book would be hundreds of pages (a 60,000-word one:
84 pages of the PDF, 23 s); the browser's document view shows it whole."""
CONTEXT = 2
"""Sentences shown before and after each example's sentence in a long document."""
PALETTE_SIZE = 12
"""Entity colours (``report.css``: ``.c0`` … ``.c11``), repeated after."""


@dataclass(frozen=True, slots=True)
class TextPiece:
    """One item of the running text: an opening or closing bracket (``kind`` "open"/"close") or a
    word ("word"). ``cls``: CSS classes (entity colour ``cN``, ``err`` for a flagged mention, the
    entity ``xS-N`` — side S, entity N — of a bracket or of every mention a word is in); ``anchor``:
    the id an example links to (a referent's first word); ``selected``: the entity classes of the
    mentions at that referent (highlighted when the link is followed)."""

    kind: str
    text: str
    cls: str = ""
    anchor: str = ""
    selected: str = ""


@dataclass(slots=True)
class RunningText:
    """One document as sentences of :class:`TextPiece`."""

    doc_id: str
    anchor: str
    legend: str
    sentences: list[list[TextPiece]]
    examples: int = 0
    """How many examples of the report link here."""
    sides: list[tuple[str, str]] = field(default_factory=list)
    """Each side's name and brackets, in bracket order (the key's first): the HTML's toggles."""
    disagree: list[bool] = field(default_factory=list)
    """Per sentence: whether it holds a mention the sides do not all agree on ("disagreements only")."""
    numbers: list[int] = field(default_factory=list)
    """Each shown sentence's number in the document (1-based)."""
    total: int = 0
    """The document's sentences."""

    @property
    def gaps(self) -> list[int]:
        """Per shown sentence: the sentences left out just before it (a long document's excerpt)."""
        return [n - (self.numbers[k - 1] if k else 0) - 1 for k, n in enumerate(self.numbers)]

    @property
    def left_after(self) -> int:
        """Sentences left out after the last one shown."""
        return self.total - self.numbers[-1] if self.numbers else self.total

    @property
    def excerpted(self) -> bool:
        """Whether sentences are left out (a long document's excerpt)."""
        return bool(self.numbers) and (any(self.gaps) or self.left_after > 0)


@dataclass(slots=True)
class DocumentTexts:
    """The report block: the documents of the examples, with a note on what is shown."""

    documents: list[RunningText] = field(default_factory=list)
    note: str = ""


def entity_class(shape: int, entity: int) -> str:
    return f"x{shape}-{entity}"


def running_text(dt: DocumentText, anchor: str,
                 targets: dict[int, tuple[tuple[int, int], str]] | None = None,
                 only: set[int] | None = None) -> RunningText:
    """``dt`` as sentences of pieces; ``targets``: a referent's first word → (its span, the id of its
    anchor); ``only``: the sentences to show (0-based; default all) — a mention that crosses into a
    sentence left out shows only the bracket on the shown side.

    >>> from corefreport.present.document_text import Mark
    >>> dt = DocumentText("d", ["He", "left"], [0], [Mark("key", (0, 0), 1), Mark("response", (0, 0), 1, "*")])
    >>> [(p.kind, p.text, p.cls) for p in running_text(dt, "doc-1").sentences[0]]
    [('open', '[1', 'c0 x0-1 s0'), ('open', '{1*', 'c0 x1-1 s1 err'), ('word', 'He', 'x0-1 x1-1'), ('close', '}', 'c0 x1-1 s1'), ('close', ']', 'c0 x0-1 s0'), ('word', 'left', '')]

    A word's classes name the entities of the mentions covering it, the innermost first (a click on
    the word highlights those of the innermost on each side); a bracket at a span every side agrees
    on is ``agreek`` (the key's) or ``agree`` (a response's: hidden while agreeing mentions are
    written once).
    """
    targets = targets or {}
    shape_of = {m.side: (m.shape if m.shape >= 0 else (0 if m.side == "key" else 1)) for m in dt.marks}
    shape_of.update((side, i) for i, side in enumerate(dt.sides) if side not in shape_of)
    at_span: dict[tuple[int, int], list[str]] = {}
    covering: dict[int, list[str]] = {}
    for m in sorted(dt.marks, key=lambda m: m.span[1] - m.span[0]):  # the innermost mention first
        c = entity_class(shape_of[m.side], m.entity)
        at_span.setdefault(m.span, []).append(c)
        for t in range(m.span[0], m.span[1] + 1):
            covering.setdefault(t, []).append(c)
    agree = dt.agreeing()

    def bracket(m) -> str:
        """A bracket's classes: colour, entity, side (``sK``), flag; at a span every side agrees on,
        ``agreek`` (the key's, kept when written once) or ``agree`` (a response's, hidden then)."""
        out = f"c{(m.entity - 1) % PALETTE_SIZE} {entity_class(shape_of[m.side], m.entity)} s{shape_of[m.side]}"
        if m.span in agree:
            out += " agreek" if m.side == "key" else " agree"
        return out

    sentences = []
    bounds = dt.sentence_bounds()
    shown = [i for i in range(len(bounds)) if only is None or i in only]
    for i in shown:
        a, b = bounds[i]
        pieces: list[TextPiece] = []
        for t in range(a, b):
            for m in dt.opens.get(t, []):
                pieces.append(TextPiece("open", m.open.strip(), bracket(m) + (" err" if m.flag else "")))
            hit = targets.get(t)
            pieces.append(TextPiece("word", dt.tokens[t], " ".join(dict.fromkeys(covering.get(t, []))),
                                    hit[1] if hit else "", " ".join(dict.fromkeys(at_span.get(hit[0], []))) if hit else ""))
            for m in dt.closes.get(t, []):
                pieces.append(TextPiece("close", m.close.strip(), bracket(m)))
        sentences.append(pieces)
    disagreeing = set(dt.disagreeing_sentences())
    sides = [(side, " ".join(SHAPES[min(i, len(SHAPES) - 1)])) for i, side in enumerate(dt.sides)]
    return RunningText(dt.doc_id, anchor, dt.legend(once=True), sentences, sides=sides,
                       disagree=[i in disagreeing for i in shown], numbers=[i + 1 for i in shown], total=len(bounds))


def anchor_of(doc_index: int, span: tuple[int, int]) -> str:
    return f"doc-{doc_index}-t{span[0]}-{span[1]}"


def example_documents(blocks: list, systems: dict[str, Evaluation], pdf: bool) -> DocumentTexts | None:
    """The running text of the documents the examples of ``blocks`` (:class:`~.examples.Examples`)
    come from, with the key's mentions and each system's (``systems``: name → evaluation; one system:
    the response's), and each example's ``href`` set to its referent's anchor. In the PDF only the
    :data:`PDF_DOCUMENTS` documents with the most examples (the others' examples carry no link).
    None when no example has a document carried."""
    counts: dict[str, int] = {}
    for b in blocks:
        for g in b.groups:
            for e in g.examples:
                if e.row is not None:
                    counts[e.doc_id] = counts.get(e.doc_id, 0) + 1
    if not counts:
        return None
    order = list(counts)  # first shown first
    chosen = sorted(order, key=lambda d: (-counts[d], order.index(d)))[:PDF_DOCUMENTS] if pdf else order
    chosen = [d for d in order if d in chosen]
    index = {d: i + 1 for i, d in enumerate(chosen)}
    targets: dict[str, dict[int, tuple[tuple[int, int], str]]] = {d: {} for d in chosen}
    for b in blocks:
        for g in b.groups:
            for k, e in enumerate(g.examples):
                if e.row is None or e.doc_id not in index:
                    continue
                span = (e.row.start, e.row.end)
                # one anchor per first word: a referent starting where another one does shares its anchor
                _s, a = targets[e.doc_id].setdefault(span[0], (span, anchor_of(index[e.doc_id], span)))
                g.examples[k] = replace(e, href=a)
    out = DocumentTexts()
    single = len(systems) == 1
    for d in chosen:
        dt = _document(systems, d, single)
        if dt is None:
            continue
        rt = running_text(dt, f"doc-{index[d]}", targets[d], excerpt(dt, targets[d]))
        rt.examples = counts[d]
        out.documents.append(rt)
    if not out.documents:
        return None
    left = len(order) - len(chosen)
    out.note = (f"The {len(out.documents)} document(s) the examples above come from" +
                (f" ({left} more in the HTML report: the PDF shows those with the most examples)" if left else "") +
                ", one sentence a line" + (f" (a document of more than {LONG_DOCUMENT} sentences: those of its examples, "
                                           f"{CONTEXT} before and after each; the browser's document view shows it "
                                           "whole)" if any(d.excerpted for d in out.documents) else "") +
                ". " + ("Key mentions are [N … ], the response's {N … }"
                                            if single else "Key mentions are [N … ], " + ", ".join(
                                                f"{n}'s {o}N … {c}" for n, (o, c) in zip(systems, SHAPES[1:]))) +
                ": N numbers the entity — a response entity after the key entity it shares most mentions with, so "
                "one number is one referent; * marks a mention only one side has (missed or spurious), ! a response "
                "mention that is a key mention of another entity (a wrong link); brackets are coloured by entity. "
                "A mention the key and every system agree on (same span, same entity) is written once, in the key's "
                "[N … ]. Each example's referent is boxed; its link (→ in the document) leads here."
                + ("" if pdf else " Click a word or a bracket to highlight its entities' mentions (again, or a "
                   "word outside any mention, to clear); the boxes above each document show or hide the key, each "
                   "system, every bracket, or only the sentences where the sides disagree — in this file, no "
                   "server needed."))
    return out


def excerpt(dt: DocumentText, targets: dict[int, tuple[tuple[int, int], str]]) -> set[int] | None:
    """The sentences (0-based) a long document shows: each example referent's first sentence with
    :data:`CONTEXT` sentences before and after it; None (all of them) up to :data:`LONG_DOCUMENT` sentences.

    >>> dt = DocumentText("d", ["w"] * 400, list(range(400)), [])
    >>> sorted(excerpt(dt, {10: ((10, 10), "a"), 399: ((399, 399), "b")}))
    [8, 9, 10, 11, 12, 397, 398, 399]
    >>> excerpt(DocumentText("d", ["w"] * 30, list(range(30)), []), {3: ((3, 3), "a")}) is None
    True
    """
    n = len(dt.sentence_bounds())
    if n <= LONG_DOCUMENT:
        return None
    hit = {dt.sentence_of(t) for t in targets}
    return {j for i in hit for j in range(i - CONTEXT, i + CONTEXT + 1) if 0 <= j < n}


def _document(systems: dict[str, Evaluation], doc_id: str, single: bool) -> DocumentText | None:
    from ..present.document_text import evaluation_document, systems_document

    if single:
        return evaluation_document(next(iter(systems.values())), doc_id)
    return systems_document(systems, doc_id)


__all__ = ["DocumentTexts", "RunningText", "TextPiece", "example_documents", "excerpt", "running_text"]
