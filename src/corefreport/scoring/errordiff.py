"""Two systems' errors side by side: which Kummerfeld & Klein (2013) errors only one system makes
and which both make, and what changed for each key entity.

**The same error.** An error row of system A and one of system B are the same error when their
document, class and mentions coincide (:func:`error_key`); a class's errors of A and of B are
matched as multisets: ``both = Σ min(n_A(e), n_B(e))``, ``only A = n_A − both``, ``only B = n_B −
both`` — so ``only A + both`` is A's count of the class and ``only B + both`` B's (the counts
:func:`~.compare.error_deltas` tests). This is the two-system error diff of cort (Martschat &
Strube 2014, its "errors of B not made by A") on the error classes of Kummerfeld & Klein (2013).

**What changed per key entity** (:func:`entity_changes`): for each key entity of two or more
mentions, how each system covers it — ``found`` (its mentions the response has), ``pieces`` (the
response entities holding them), ``largest`` (its mentions in the largest piece) and ``joined``
(the other key entities sharing a response entity with it); it is *resolved* when two of its
mentions share a response entity (``largest ≥ 2``). From A to B it is

* **newly found**: resolved by B and not by A; **lost**: resolved by A and not by B;
* resolved by both: **split** when B divides it over more entities than A, **reunited** when over
  fewer; **merged** when B joins it with more other key entities than A, **unmerged** when with
  fewer (an entity can be split and merged at once).

Spans are compared exactly, on the documents as read (single-mention chains dropped on both sides
when the scores drop them): the entity table needs ``--match exact``.

>>> a = [ErrorRow("Divided Entity", "d", 0, ((1, 1),), 1, ("PRONOUN",)),
...      ErrorRow("Extra Mention", "d", 0, ((4, 4),), 1, ("NAME",))]
>>> b = [ErrorRow("Divided Entity", "d", 0, ((1, 1),), 1, ("PRONOUN",)),
...      ErrorRow("Divided Entity", "d", 1, ((7, 7),), 1, ("PRONOUN",))]
>>> m = match_errors(a, b)
>>> m.counts()["Divided Entity"], m.counts()["Extra Mention"]
({'only_baseline': 0, 'only_system': 1, 'both': 1}, {'only_baseline': 1, 'only_system': 0, 'both': 0})
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from ..model import match_key
from .errorclasses import CLASSES, ErrorRow

Span = tuple[int, int]

SIDES = ("only_system", "only_baseline", "both")
"""The three groups of a class's errors, in the order the views list them: the errors only the
system (B) makes, only the baseline (A) makes, and both make."""
SIDE_LABELS = {"only_system": "only {b}", "only_baseline": "only {a}", "both": "both"}

KINDS = ("newly found", "lost", "split", "reunited", "merged", "unmerged")
"""What can change for a key entity from the baseline (A) to the system (B), in table order."""
KIND_DESCRIPTIONS = {
    "newly found": "resolved by {b}, not by {a}",
    "lost": "resolved by {a}, not by {b}",
    "split": "in more entities of {b} than of {a}",
    "reunited": "in fewer entities of {b} than of {a}",
    "merged": "joined with more key entities by {b}",
    "unmerged": "joined with fewer key entities by {b}",
}
"""Each kind in words (``{a}``: the baseline, ``{b}``: the system); resolved: two of the entity's
mentions in one response entity."""


def error_key(row: ErrorRow) -> tuple:
    """What makes two systems' error rows the same error: document, class, mentions (in order)."""
    return (row.doc_id, row.cls, tuple(sorted(row.mentions)))


@dataclass(slots=True)
class ErrorMatch:
    """The errors of the baseline (A) and of a system (B) matched (:func:`match_errors`): per side
    (:data:`SIDES`), the rows — B's for "only_system", A's for "only_baseline", pairs (A's, B's)
    for "both" — in document order."""

    only_baseline: list[ErrorRow] = field(default_factory=list)
    only_system: list[ErrorRow] = field(default_factory=list)
    both: list[tuple[ErrorRow, ErrorRow]] = field(default_factory=list)

    def rows(self, side: str, cls: str | None = None) -> list:
        """The errors of one side (and class): rows, or (A's, B's) pairs for "both"."""
        rows = getattr(self, side)
        if cls is None:
            return list(rows)
        return [r for r in rows if (r[0] if side == "both" else r).cls == cls]

    def counts(self) -> dict[str, dict[str, int]]:
        """Per class (every class, in the analyser's order): errors only in B, only in A, in both."""
        out = {c: {s: 0 for s in ("only_baseline", "only_system", "both")} for c in CLASSES}
        for side in SIDES:
            for r in getattr(self, side):
                out.setdefault((r[0] if side == "both" else r).cls,
                               {s: 0 for s in ("only_baseline", "only_system", "both")})[side] += 1
        return out

    def total(self, side: str) -> int:
        """The errors of one side, every class: the sum of its :meth:`counts`."""
        return len(getattr(self, side))

    def as_dict(self) -> dict:
        return {"counts": self.counts()}


def match_errors(baseline: Iterable[ErrorRow], system: Iterable[ErrorRow]) -> ErrorMatch:
    """The errors of ``baseline`` (A) and ``system`` (B) matched as multisets on
    :func:`error_key`: an error of A pairs with the first unpaired error of B with the same key."""
    pending: dict[tuple, list[ErrorRow]] = {}
    b_rows = list(system)
    for r in b_rows:
        pending.setdefault(error_key(r), []).append(r)
    out = ErrorMatch()
    paired: set[int] = set()
    for r in baseline:
        same = pending.get(error_key(r))
        if same:
            other = same.pop(0)
            paired.add(id(other))
            out.both.append((r, other))
        else:
            out.only_baseline.append(r)
    out.only_system = [r for r in b_rows if id(r) not in paired]
    return out


# --------------------------------------------------------------------------------------------
# Per key entity
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Cover:
    """How one system covers a key entity: its mentions found, the response entities holding them,
    its mentions in the largest of those, and the other key entities they also hold."""

    found: int
    pieces: int
    largest: int
    joined: int

    @property
    def resolved(self) -> bool:
        """Two of its mentions share a response entity."""
        return self.largest >= 2

    def as_dict(self) -> dict:
        return {"found": self.found, "pieces": self.pieces, "largest": self.largest, "joined": self.joined,
                "resolved": self.resolved}


@dataclass(frozen=True, slots=True)
class EntityChange:
    """One key entity whose coverage changed from the baseline (A) to the system (B)."""

    doc_id: str
    label: str
    name: str
    mentions: tuple[Span, ...]
    baseline: Cover
    system: Cover
    kinds: tuple[str, ...]

    def as_dict(self) -> dict:
        return {"doc_id": self.doc_id, "entity": self.label, "name": self.name, "mentions": len(self.mentions),
                "first": list(self.mentions[0]), "baseline": self.baseline.as_dict(),
                "system": self.system.as_dict(), "changes": list(self.kinds)}


@dataclass(slots=True)
class EntityChanges:
    """The key entities (of two or more mentions) whose coverage changed, and how many were compared."""

    entities: int = 0
    changes: list[EntityChange] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """Entities per kind of change (:data:`KINDS`; an entity may count under two)."""
        c = Counter(k for e in self.changes for k in e.kinds)
        return {k: c.get(k, 0) for k in KINDS}

    def as_dict(self) -> dict:
        return {"entities": self.entities, "counts": self.counts(), "changed": [e.as_dict() for e in self.changes]}


def cover(entity: Sequence[Span], where: dict[Span, int], members: dict[int, set[int]], own: int) -> Cover:
    """:class:`Cover` of the key entity ``own`` (its spans ``entity``) by a response: ``where`` maps
    a span to its response entity, ``members`` a response entity to the key entities it holds."""
    pieces = Counter(where[s] for s in entity if s in where)
    joined = set().union(*(members[p] for p in pieces)) - {own} if pieces else set()
    return Cover(sum(pieces.values()), len(pieces), max(pieces.values(), default=0), len(joined))


def changed(a: Cover, b: Cover) -> tuple[str, ...]:
    """The kinds of change (:data:`KINDS`) from ``a`` (the baseline's cover) to ``b``.

    >>> changed(Cover(3, 1, 3, 0), Cover(3, 2, 2, 1))
    ('split', 'merged')
    >>> changed(Cover(1, 1, 1, 0), Cover(2, 1, 2, 0)), changed(Cover(2, 1, 2, 0), Cover(0, 0, 0, 0))
    (('newly found',), ('lost',))
    """
    if a.resolved != b.resolved:
        return ("newly found",) if b.resolved else ("lost",)
    if not a.resolved:
        return ()
    out = []
    if b.pieces != a.pieces:
        out.append("split" if b.pieces > a.pieces else "reunited")
    if b.joined != a.joined:
        out.append("merged" if b.joined > a.joined else "unmerged")
    return tuple(out)


def _chains(doc, drop_singletons: bool) -> list[tuple[str, list[Span]]]:
    out = []
    for c in (doc.chains if doc is not None else ()):
        spans = sorted({(m.start, m.end) for m in c.mentions})
        if spans and not (drop_singletons and len(spans) == 1):
            out.append((c.label, spans))
    return sorted(out, key=lambda lc: lc[1][0])


def _index(key_of: dict[Span, int], chains: list[tuple[str, list[Span]]]) -> tuple[dict, dict]:
    where: dict[Span, int] = {}
    members: dict[int, set[int]] = {}
    for j, (_label, spans) in enumerate(chains):
        members[j] = {key_of[s] for s in spans if s in key_of}
        for s in spans:
            where.setdefault(s, j)  # a span in two chains: its first (as the reference keeps a key span)
    return where, members


def document_changes(key_doc, baseline_doc, system_doc, drop_singletons: bool = False) -> tuple[int, list[EntityChange]]:
    """The key entities of two or more mentions of one document, and those whose coverage changed
    from ``baseline_doc`` to ``system_doc`` (:class:`~corefreport.model.Document` s on the key's
    words; None: no mention)."""
    key = _chains(key_doc, drop_singletons)
    key_of: dict[Span, int] = {}
    for i, (_label, spans) in enumerate(key):
        for s in spans:
            key_of.setdefault(s, i)
    a_where, a_members = _index(key_of, _chains(baseline_doc, drop_singletons))
    b_where, b_members = _index(key_of, _chains(system_doc, drop_singletons))
    out = []
    n = 0
    for i, (label, spans) in enumerate(key):
        if len(spans) < 2:
            continue
        n += 1
        ca = cover(spans, a_where, a_members, i)
        cb = cover(spans, b_where, b_members, i)
        kinds = changed(ca, cb)
        if kinds:
            out.append(EntityChange(key_doc.doc_id, label, key_doc.text(*spans[0]), tuple(spans), ca, cb, kinds))
    return n, out


def _responses(corpus) -> Callable[[str], object]:
    """A key document id → the response's document paired with it (by id, else by :func:`match_key`)."""
    by_key: dict = {}
    for i, d in corpus.documents.items():
        by_key.setdefault(match_key(i), d)

    def find(doc_id: str):
        doc = corpus.documents.get(doc_id)
        return doc if doc is not None else by_key.get(match_key(doc_id))
    return find


def entity_changes(baseline, system, doc_ids: Sequence[str]) -> EntityChanges | None:
    """:func:`document_changes` over ``doc_ids`` for two :class:`~corefreport.scoring.result.Evaluation` s
    of one key; None when their documents are not carried or the mentions are not matched exactly."""
    s = baseline.settings
    if s.match != "exact" or system.settings.match != "exact" or baseline.key_corpus is None \
            or baseline.response_corpus is None or system.response_corpus is None:
        return None
    out = EntityChanges()
    drop = s.singletons == "drop"
    in_a, in_b = _responses(baseline.response_corpus), _responses(system.response_corpus)
    for d in doc_ids:
        kd = baseline.key_corpus.documents.get(d)
        if kd is None:
            continue
        n, rows = document_changes(kd, in_a(d), in_b(d), drop)
        out.entities += n
        out.changes += rows
    return out


__all__ = ["Cover", "EntityChange", "EntityChanges", "ErrorMatch", "KINDS", "KIND_DESCRIPTIONS", "SIDES",
           "SIDE_LABELS", "changed", "cover", "document_changes", "entity_changes", "error_key", "match_errors"]
