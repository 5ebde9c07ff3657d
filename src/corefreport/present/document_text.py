"""A whole document as running text with the key's and the response's mentions bracketed and
numbered by entity — the view of cort's HTML output and the Berkeley analyser's dumps, readable
without colour.

Notation (:data:`LEGEND`): a key mention is ``[3 … ]`` (key entity 3), a response mention
``{3 … }`` (the response entity numbered after the key entity it shares most mentions with, so
that the same number on both sides means the same referent); marks after the number say what
is wrong: ``*`` a mention only one side has (key: missed, response: spurious), ``!`` a response
mention that is a key mention of *another* entity than its number says (a wrong link). Nested
mentions nest: ``[3 [7 his ] mother ]``.

Several responses (:func:`documents_text`, the many-system browser and the report): each has its
own brackets (:data:`SHAPES`: ``{ }``, then ``< >``, ``( )``, ``| |``), each numbered the same
way; a response entity that matches no key entity takes the number of an earlier response's
entity it shares most mentions with, so that one number is one referent across all of them.

The entities are those of the corpora as read (``Evaluation.key_corpus`` / ``response_corpus``),
numbered in the order their first mention appears. Computes no score and knows no style: a view
maps :class:`Mark` to colours (``tui/document.py``).
"""

from __future__ import annotations

from bisect import bisect_right

from collections import Counter
from dataclasses import dataclass, field

LEGEND = ("[N … ]: key entity N   {N … }: response entity N (numbered after the key entity it shares "
          "most mentions with)   *: only on this side (missed / spurious)   !: a key mention of another entity")

Span = tuple[int, int]
SHAPES = (("[", "]"), ("{", "}"), ("<", ">"), ("(", ")"), ("|", "|"))
"""The brackets of the key (first) and of each response in turn (the fifth and later share the last)."""


@dataclass(frozen=True, slots=True)
class Mark:
    """One mention: its side ("key", "response" or a system's name), span, entity number, error flag
    ("", "*", "!") and shape (the index of its side's brackets in :data:`SHAPES`)."""

    side: str
    span: Span
    entity: int
    flag: str = ""
    shape: int = -1

    @property
    def brackets(self) -> tuple[str, str]:
        shape = self.shape if self.shape >= 0 else (0 if self.side == "key" else 1)
        return SHAPES[min(shape, len(SHAPES) - 1)]

    @property
    def open(self) -> str:
        return f"{self.brackets[0]}{self.entity}{self.flag} "

    @property
    def close(self) -> str:
        return f" {self.brackets[1]}"


@dataclass(slots=True)
class DocumentText:
    """A document's tokens with the marks opening and closing at each token, sentence starts, and
    each side's entities (number → spans)."""

    doc_id: str
    tokens: list[str]
    sentence_starts: list[int]
    marks: list[Mark]
    sides: tuple[str, ...] = ("key", "response")
    """The sides in bracket order: the key, then each response."""
    opens: dict[int, list[Mark]] = field(default_factory=dict)
    closes: dict[int, list[Mark]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        order = {s: i for i, s in enumerate(self.sides)}
        # outer mentions open first and close last: longer spans first at a start, key before response
        for m in sorted(self.marks, key=lambda m: (m.span[0], -m.span[1], order.get(m.side, 9))):
            self.opens.setdefault(m.span[0], []).append(m)
        # inner mentions close first: a later start first at an end, response before key
        for m in sorted(self.marks, key=lambda m: (m.span[1], -m.span[0], -order.get(m.side, 9))):
            self.closes.setdefault(m.span[1], []).append(m)

    def legend(self, once: bool = False) -> str:
        """What the brackets mean (:data:`LEGEND` for one response); ``once``: and that a mention
        every side agrees on is written once (:meth:`agreeing`)."""
        if self.sides == ("key", "response"):
            text = LEGEND
        else:
            parts = [f"{a}N … {b}: {'key entity N' if i == 0 else side}"
                     for i, (side, (a, b)) in enumerate(zip(self.sides, SHAPES))]
            text = ("   ".join(parts) + "   (a response entity is numbered after the key entity it shares most "
                    "mentions with)   *: only on this side (missed / spurious)   !: a key mention of another entity")
        return text + ("   all sides agree (span, entity): once, as [N … ]" if once else "")

    def agreeing(self, sides: tuple[str, ...] | None = None) -> set[Span]:
        """The spans the key and every response among ``sides`` (default: all) agree on: each has a
        mention there, in the entity of the same number, none flagged (so the same referent on
        every side). Empty unless ``sides`` holds the key and a response.

        >>> dt = documents_text(_example([[0, 2]]), {"A": _example([[0, 2]]), "B": _example([[0], [2]])})
        >>> sorted(dt.agreeing()), sorted(dt.agreeing(("key", "A")))
        ([(0, 0)], [(0, 0), (2, 2)])
        """
        sides = self.sides if sides is None else sides
        responses = [x for x in sides if x != "key"]
        if "key" not in sides or not responses:
            return set()
        at: dict[Span, dict[str, set]] = {}
        for m in self.marks:
            if m.side in sides:
                at.setdefault(m.span, {}).setdefault(m.side, set()).add((m.entity, m.flag))
        out = set()
        for span, by in at.items():
            key = by.get("key", set())
            if len(key) == 1 and next(iter(key))[1] == "" and all(by.get(r) == key for r in responses):
                out.add(span)
        return out

    def flag(self, m: Mark, sides: tuple[str, ...] | None = None) -> str:
        """``m``'s flag as the sides shown read it: a key mention no response among ``sides`` has is
        missed (``*``) there, though another response (not shown) has it; otherwise its own flag."""
        sides = self.sides if sides is None else sides
        if m.side != "key" or m.flag or set(sides) >= set(self.sides):
            return m.flag
        responses = [x for x in sides if x != "key"]
        if responses and not any(o.span == m.span and o.side in responses for o in self.opens.get(m.span[0], [])):
            return "*"
        return m.flag

    def opening(self, m: Mark, sides: tuple[str, ...] | None = None) -> str:
        """The opening bracket of ``m`` with its number and its flag for ``sides`` (:meth:`flag`)."""
        return f"{m.brackets[0]}{m.entity}{self.flag(m, sides)} "

    def shown(self, sides: tuple[str, ...] | None = None, once: bool = False,
              disagreements: bool = False) -> list[Mark]:
        """The marks drawn for ``sides``: every one; ``once``: at a span every side agrees on
        (:meth:`agreeing`) only the key's; ``disagreements``: none at such a span."""
        sides = self.sides if sides is None else sides
        agree = self.agreeing(sides) if once or disagreements else set()
        return [m for m in self.marks if m.side in sides and not (
            m.span in agree and (disagreements or m.side != "key"))]

    def entity_spans(self, side: str, entity: int) -> list[Span]:
        return [m.span for m in self.marks if m.side == side and m.entity == entity]

    def mark_at(self, side: str, span: Span) -> Mark | None:
        return next((m for m in self.marks if m.side == side and m.span == span), None)

    def sentence_bounds(self) -> list[tuple[int, int]]:
        """Each sentence's first token and the token after its last."""
        starts = self.sentence_starts or [0]
        return list(zip(starts, starts[1:] + [len(self.tokens)]))

    def sentence_of(self, t: int) -> int:
        """The sentence (0-based) holding token ``t``, found by bisection of the sentence starts:
        the last one starting at or before ``t`` (-1 before the first).

        >>> dt = DocumentText("d", ["w"] * 9, [0, 4, 6], [])
        >>> [dt.sentence_of(t) for t in (0, 3, 4, 8)]
        [0, 0, 1, 2]
        """
        return bisect_right(self.sentence_starts or [0], t) - 1

    def disagreeing_sentences(self, sides: tuple[str, ...] | None = None) -> list[int]:
        """The sentences (0-based) with a mention the sides do not all agree on (:meth:`shown`
        with ``disagreements``): what "disagreements only" keeps."""
        marked = {m.span[0] for m in self.shown(sides, disagreements=True)}
        bounds = self.sentence_bounds()
        hit = set()
        for t in marked:  # each mark's sentence found by its start (a book: 7,660 sentences, 30,000 marks)
            i = self.sentence_of(t)
            if i >= 0 and t < bounds[i][1]:
                hit.add(i)
        return sorted(hit)

    def sentence_lines(self, sides: tuple[str, ...] | None = None, once: bool = False,
                       disagreements: bool = False) -> list[str]:
        """The plain text, one sentence a line, with the marks of ``sides`` (default: all);
        ``once``: a mention every side agrees on written once, in the key's brackets;
        ``disagreements``: without those mentions' brackets (:meth:`shown`).

        >>> dt = documents_text(_example([[0, 2]]), {"A": _example([[0, 2]]), "B": _example([[0], [2]])})
        >>> dt.plain(), dt.plain(once=True), dt.plain(disagreements=True)
        ('[1 {1 <1 a > } ] b [1 {1 <2! c > } ]', '[1 a ] b [1 {1 <2! c > } ]', 'a b [1 {1 <2! c > } ]')
        """
        keep = set(map(id, self.shown(sides, once, disagreements)))
        out: list[str] = []
        for a, b in self.sentence_bounds():
            words = []
            for t in range(a, b):
                w = "".join(self.opening(m, sides) for m in self.opens.get(t, []) if id(m) in keep) + self.tokens[t]
                w += "".join(m.close for m in self.closes.get(t, []) if id(m) in keep)
                words.append(w)
            out.append(" ".join(words))
        return out

    def plain(self, sides: tuple[str, ...] | None = None, once: bool = False, disagreements: bool = False) -> str:
        return "\n".join(self.sentence_lines(sides, once, disagreements))


def _example(chains: list[list[int]]):
    """A three-word document ("a b c") with one-word mentions in ``chains`` (the doctests')."""
    from ..model import Chain, Document, Mention

    return Document("d", ["a", "b", "c"], [0], chains=[Chain(str(i), [Mention(s, s) for s in c])
                                                      for i, c in enumerate(chains)])


def _chains(doc) -> list[list[Span]]:
    """A document's chains as spans, ordered by their first mention (then their order in the file)."""
    chains = [sorted({(m.start, m.end) for m in c.mentions}) for c in (doc.chains if doc is not None else [])]
    chains = [c for c in chains if c]
    return sorted(chains, key=lambda c: c[0])


def number_response(key: list[list[Span]], response: list[list[Span]]) -> list[int]:
    """Each response chain's number: the key entity (1-based) sharing most of its spans, taken by the
    response chain sharing most with it (ties: the earlier chain); the others get numbers after the
    key's, in order.

    >>> number_response([[(0, 0), (5, 5)], [(2, 2)]], [[(2, 2), (5, 5)], [(0, 0)], [(9, 9)]])
    [1, 3, 4]
    """
    where = {s: i for i, c in enumerate(key) for s in c}
    best: list[tuple[int, int, int]] = []  # (shared, response index, key index)
    for j, c in enumerate(response):
        shared = Counter(where[s] for s in c if s in where)
        if shared:
            k, n = min(shared.items(), key=lambda kv: (-kv[1], kv[0]))
            best.append((n, j, k))
    taken: dict[int, int] = {}
    numbers = [0] * len(response)
    for n, j, k in sorted(best, key=lambda x: (-x[0], x[1])):
        if k not in taken:
            taken[k] = j
            numbers[j] = k + 1
    nxt = len(key)
    for j in range(len(response)):
        if not numbers[j]:
            nxt += 1
            numbers[j] = nxt
    return numbers


def document_text(key_doc, response_doc) -> DocumentText:
    """The running text of ``key_doc`` (a :class:`~corefreport.model.Document`) with its mentions
    and those of ``response_doc`` (the same words; None: the key's alone) marked."""
    return documents_text(key_doc, {"response": response_doc})


def documents_text(key_doc, responses: dict) -> DocumentText:
    """The running text of ``key_doc`` with its mentions and those of each response (name →
    document on the same words, or None) marked, each response in its brackets (:data:`SHAPES`).

    A key mention is ``*`` (missed) when no response has its span — with one response, that
    response; with several, the flag is each response's own (``*`` on its spurious mentions).
    Entity numbers: the key's by first mention; each response's by :func:`number_response`
    against the key's entities and the unmatched entities of the responses before it.

    >>> from corefreport.model import Chain, Document, Mention
    >>> def doc(chains):
    ...     return Document("d", ["a", "b", "c"], [0], chains=[Chain(str(i), [Mention(s, s) for s in c])
    ...                                                      for i, c in enumerate(chains)])
    >>> documents_text(doc([[0, 2]]), {"A": doc([[0, 1]]), "B": doc([[0, 2], [1]])}).plain()
    '[1 {1 <1 a > } ] {1* <2* b > } [1 <1 c > ]'
    """
    names = tuple(("key (system)" if n == "key" else n) for n in responses)
    key = _chains(key_doc)
    sides_chains = [_chains(d) for d in responses.values()]
    key_entity = {s: i + 1 for i, c in enumerate(key) for s in c}
    any_resp = {s for chains in sides_chains for c in chains for s in c}
    marks = [Mark("key", s, i + 1, "" if s in any_resp else "*", 0) for i, c in enumerate(key) for s in c]
    reference = list(key)
    for shape, (name, resp) in enumerate(zip(names, sides_chains), start=1):
        numbers = number_response(reference, resp)
        for n, c in zip(numbers, resp):
            for s in c:
                k = key_entity.get(s)
                marks.append(Mark(name, s, n, "*" if k is None else ("!" if k != n else ""), shape))
        extra = sorted((n, c) for n, c in zip(numbers, resp) if n > len(reference))
        reference += [c for _n, c in extra]
    return DocumentText(key_doc.doc_id, list(key_doc.tokens), list(key_doc.sentence_starts), marks,
                        ("key", *names))


def evaluation_document(ev, doc_id: str) -> DocumentText | None:
    """:func:`document_text` of one document of an evaluation (None when its corpora are not carried)."""
    k = ev.key_corpus.documents.get(doc_id) if ev.key_corpus is not None else None
    if k is None:
        return None
    from .context import document_of

    r = document_of(ev, doc_id, "response")  # under the id it was paired by, when the response names it otherwise
    return document_text(k, r)


def systems_document(evaluations: dict, doc_id: str) -> DocumentText | None:
    """:func:`documents_text` of one document with every system's mentions (name → the system's
    :class:`~corefreport.scoring.result.Evaluation`, all against one key; the key's words from the first)."""
    from .context import document_of

    first = next(iter(evaluations.values()), None)
    k = first.key_corpus.documents.get(doc_id) if first is not None and first.key_corpus is not None else None
    if k is None:
        return None
    return documents_text(k, {name: document_of(ev, doc_id, "response") for name, ev in evaluations.items()})
