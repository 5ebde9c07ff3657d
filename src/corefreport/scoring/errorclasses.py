"""Kummerfeld & Klein (2013) error classes: why a system fails.

Rule: per document, (1) *alter span*: a response mention whose span differs from a key mention
only by a leading "the"/one-character non-letter token or a trailing "'s"/non-letter token, or
that shares the key mention's head (here: its last token) with exactly one unmatched key mention,
is moved onto the key span (**Span Error**); (2) per confusion group (key and response entities
connected by shared mentions) that differs, the response is transformed into the key by *split*
(each response entity into its pieces per key entity; mentions in no key entity split off and
*removed*), *introduce* (missing key mentions as singletons) and *merge* (pieces into their key
entity); (3) operations are classified, in the analyser's order:

* **Extra Entity**: the removed mentions of a response entity holding no key non-pronoun, ≥ 2 of them;
* **Missing Entity**: a key entity with ≥ 2 missing mentions and no non-pronoun the response has;
* no error for the split / merge of the piece holding the entity's earliest non-pronoun mention;
* **Extra Mention**: any remaining removed single mention;
* **Missing Mention**: a remaining merge of one introduced mention (not the earliest non-pronoun);
* **Conflated Entities**: any remaining split; **Divided Entity**: any remaining merge.

Kummerfeld, J. K. and Klein, D. (2013). Error-Driven Analysis of Challenges in Coreference
Resolution. EMNLP 2013, 265–277. Rules with the analyser's source lines: docs/error-classes.md.

>>> key = [[(0, 0), (2, 2), (5, 5)], [(7, 8), (10, 10)]]
>>> response = [[(0, 0), (2, 2), (7, 8), (10, 10)]]
>>> [e.cls for e in classify_spans(key, response, {(0, 0): "NAME", (7, 8): "NAME"})]
['Conflated Entities', 'Missing Mention']
"""

from __future__ import annotations

import string
from collections import Counter
from operator import attrgetter
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from . import metrics as M
from .counts import Counts
from .groupscores import GroupKey, add_rows, as_counts
from .metrics import conll_score

Span = tuple[int, int]

CLASSES = ("Span Error", "Conflated Entities", "Extra Mention", "Extra Entity", "Divided Entity",
           "Missing Mention", "Missing Entity")
"""The seven classes in the order the analyser corrects them (its ``*_prog`` files)."""
LEFTOVER = "Leftover (not classified)"
REPEATED = "Repeated mentions read once"
"""Not an error class: the F1 change from reading each span once, in its first entity, as the
analyser's reader does (the scores count a repeated span as the reference scorer does)."""
DROPPED = "Response singletons dropped"
"""Not an error class: the F1 change from dropping the response's one-mention chains (the analyser's
mode T, ``--errors-drop-response-singletons``); the key keeps its singletons."""
READING = (("read", REPEATED), ("none", DROPPED))
"""The states between the scored response and the one the classes start from, with their rows."""
"""What no class fixes: its rows are the response mentions outside the key that survive every
correction (``detail`` "extra") and the key mentions the corrected response still lacks ("missing")."""
STEPS = ("span", "split", "extra_mention", "extra_entity", "merge", "missing_mention", "missing_entity")
STEP_CLASS = dict(zip(STEPS, CLASSES))
COST_METRICS = ("muc", "bcub", "ceafe", "lea")
ROW_COLUMNS = ("cls", "doc_id", "sentence", "mtype", "size", "joined")
"""The columns of every error row (:meth:`ErrorRow.get`); its first mention's features add others."""
BREAKDOWN_FEATURES = ("ne", "genre")
"""Mention features the errors are broken down by when the documents carry them."""


@dataclass(slots=True)
class ErrorRow:
    """One error: its class, where it is, the mentions and entities it involves."""

    cls: str
    doc_id: str
    sentence: int
    mentions: tuple[Span, ...]
    entities: int
    mtypes: tuple[str, ...]
    features: dict[str, str] = field(default_factory=dict)
    texts: tuple[str, ...] = ()
    """The words of each mention in ``mentions`` (empty without tokens)."""
    key_entity: "EntityRef | None" = None
    """The key entity the error is about: the one a split piece belongs to (Conflated), the one a
    piece or mention joins (Divided, Missing Mention), the missing one (Missing Entity), the one
    whose span the response mention takes (Span Error); None for Extra Mention / Entity."""
    response_entity: "EntityRef | None" = None
    """The response entity involved: the one split (Conflated, Extra Mention, Extra Entity), the one
    holding the piece that joins its key entity (Divided); None for Missing Mention / Entity."""
    other_entity: "EntityRef | None" = None
    """Conflated: the key entity of the response entity's earliest non-pronoun mention (what the piece
    is wrongly joined to); Divided: the response entity holding the key entity's earliest
    non-pronoun mention (what the piece is wrongly apart from). None if there is none."""
    detail: str = ""
    """Span Error: "trim" (equal after stripping "the"/punctuation/"'s") or "head" (same last token)."""

    def get(self, column: str) -> str:
        """Value of a column for group-bys: cls, doc_id, sentence, mtype (the mention types
        joined, e.g. ``NAME+PRONOUN``), size, or a feature."""
        if column == "cls":
            return self.cls
        if column == "doc_id":
            return self.doc_id
        if column == "sentence":
            return str(self.sentence)
        if column == "mtype":
            return "+".join(sorted(set(self.mtypes))) or "-"
        if column == "size":
            return str(len(self.mentions))
        if column == "joined":
            return self.joined_types()
        return self.features.get(column, "-")

    def joined_types(self) -> str:
        """Conflated: the types of the two sides wrongly joined (the piece's earliest non-pronoun
        type, else PRONOUN, and the same for the entity it stays with), as "NAME/PRONOUN"; Divided:
        the two sides wrongly apart; "-" for the other classes. Types: the analyser's mention types
        (K&K 2013, Tables 4 and 5 break Conflated/Divided entities down this way)."""
        if self.cls not in ("Conflated Entities", "Divided Entity"):
            return "-"
        own = head_type(self.mtypes)
        other = self.other_entity
        return f"{own}/{head_type(other.mtypes) if other is not None else '-'}"

    def as_dict(self) -> dict:
        out = {"class": self.cls, "doc_id": self.doc_id, "sentence": self.sentence,
               "mentions": [list(m) for m in self.mentions], "entities": self.entities,
               "mtypes": list(self.mtypes), "texts": list(self.texts)}
        for name in ("key_entity", "response_entity", "other_entity"):
            ref = getattr(self, name)
            out[name] = ref.as_dict() if ref is not None else None
        if self.detail:
            out["detail"] = self.detail
        return out


def head_type(mtypes: Sequence[str]) -> str:
    """NAME if any mention is a name, else NOMINAL if any is nominal, else PRONOUN (the piece's most
    informative mention type)."""
    for t in ("NAME", "NOMINAL", "PRONOUN"):
        if t in mtypes:
            return t
    return "-"


@dataclass(frozen=True, slots=True)
class EntityRef:
    """An entity an error involves: its side, its label in the file, its name (the words of its
    earliest non-pronoun mention, else of its first), and its mentions with their types (``texts``:
    their words where a caller filled them; the views read words from the corpus)."""

    side: str
    label: str
    name: str
    mentions: tuple[Span, ...]
    texts: tuple[str, ...] = ()
    mtypes: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        """Side, label, name and size (its mentions are in the files: a row's JSON stays small)."""
        return {"side": self.side, "label": self.label, "name": self.name, "size": len(self.mentions)}


def group_by(rows: Iterable[ErrorRow], *columns: str | Callable[[ErrorRow], str]) -> dict:
    """Number of errors per value of ``column`` (as :func:`.outcomes.group_by`, counting rows).

    >>> rows = [ErrorRow("Extra Mention", "d", 0, ((1, 1),), 1, ("PRONOUN",)),
    ...         ErrorRow("Extra Mention", "d", 2, ((4, 5),), 1, ("NOMINAL",)),
    ...         ErrorRow("Divided Entity", "e", 0, ((0, 0),), 2, ("NAME",))]
    >>> group_by(rows, "cls")
    {'Divided Entity': 1, 'Extra Mention': 2}
    >>> group_by(rows, "cls", "mtype")[("Extra Mention", "PRONOUN")]
    1
    """
    getters = [c if callable(c) else attrgetter(c) if c in ("cls", "doc_id") else (lambda r, c=c: r.get(c))
               for c in columns]
    if len(getters) == 1:
        keys = map(getters[0], rows)
    elif all(c in ("cls", "doc_id") for c in columns):
        keys = map(attrgetter(*columns), rows)
    else:
        keys = (tuple(g(r) for g in getters) for r in rows)
    return dict(sorted(Counter(keys).items()))


# ----------------------------------------------------------------------------------------------
# Span errors (classify_coreference_errors.py, match_boundaries)
# ----------------------------------------------------------------------------------------------

def _trim(span: Span, tokens: Sequence[str]) -> Span:
    """Strip a leading "the" or one-character non-letter token, a trailing "'s" or one-character
    non-letter token, while the span keeps ≥ 1 token. A discontinuous mention (or one marked by
    matching, ``(start, end, words)``) is trimmed by its first and last token."""
    s, e = span[0], span[1]
    while s < e and (tokens[s] == "the" or (len(tokens[s]) == 1 and tokens[s][0] not in string.ascii_letters)):
        s += 1
    while s < e and (tokens[e] == "'s" or (len(tokens[e]) == 1 and tokens[e][0] not in string.ascii_letters)):
        e -= 1
    return s, e


def span_fixes(key_spans: set[Span], resp_spans: set[Span], tokens: Sequence[str],
               sentence_of: Callable[[int], int]) -> dict[Span, Span]:
    """Response span → key span: first equal after trimming (same sentence), then the only unmatched
    response and the only unmatched key mention with the same head (last token). A discontinuous
    mention (CorefUD; ``(start, end, words)``) takes no part: the analyser knows none, and it is
    never altered.

    >>> span_fixes({(0, 1), (5, 6)}, {(1, 1), (4, 6)}, "the dog saw a big cat .".split(), lambda t: 0)
    {(1, 1): (0, 1), (4, 6): (5, 6)}
    """
    out: dict[Span, Span] = {}
    # a discontinuous mention (start, end, words) is never altered: it matches only itself
    key_spans = {g for g in key_spans if len(g) == 2}
    resp_spans = {a for a in resp_spans if len(a) == 2}
    # the unmatched key mentions by (sentence, trimmed span), each list in document order: a response
    # mention takes the first one not yet taken
    free: dict[tuple[int, Span], list[Span]] = {}
    for g in sorted(key_spans - resp_spans):
        free.setdefault((sentence_of(g[0]), _trim(g, tokens)), []).append(g)
    for a in sorted(resp_spans - key_spans):
        same = free.get((sentence_of(a[0]), _trim(a, tokens)))
        if same:
            out[a] = same.pop(0)
    now = {out.get(a, a) for a in resp_spans}
    heads: dict = {}
    for a in now - key_spans:
        heads.setdefault((sentence_of(a[0]), a[1]), ([], []))[0].append(a)
    for g in key_spans - now:
        heads.setdefault((sentence_of(g[0]), g[1]), ([], []))[1].append(g)
    back = {v: k for k, v in out.items()}
    for auto, gold in heads.values():
        if len(auto) == 1 and len(gold) == 1:
            out[back.get(auto[0], auto[0])] = gold[0]
    return dict(sorted(out.items()))


# ----------------------------------------------------------------------------------------------
# Operations and classes (repair, categorise)
# ----------------------------------------------------------------------------------------------

@dataclass(slots=True)
class Change:
    """One classified operation: the mentions moved (``part``) and the entity it comes from or goes to."""

    step: str
    part: frozenset
    entity: frozenset


def _min_np(cluster: Iterable[Span], mtype: Callable[[Span], str]) -> Span | None:
    """Earliest non-pronoun mention (None if all are pronouns); remembered per frozenset while
    ``mtype`` (one document's) is in use."""
    memo = getattr(mtype, "memo", None)
    if memo is not None and type(cluster) is frozenset:
        if cluster in memo:
            return memo[cluster]
        out = memo[cluster] = min((m for m in cluster if mtype(m) != "PRONOUN"), default=None)
        return out
    return min((m for m in cluster if mtype(m) != "PRONOUN"), default=None)


def confusion_groups(key: list[frozenset], resp: list[frozenset]) -> list[tuple[list, list]]:
    """(response entities, key entities) connected through shared mentions."""
    parent = list(range(len(key) + len(resp)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner = {m: i for i, c in enumerate(key) for m in c}
    for j, c in enumerate(resp):
        for m in c:
            i = owner.get(m)
            if i is not None:
                parent[find(len(key) + j)] = find(i)
    groups: dict[int, tuple[list, list]] = {}
    for i, c in enumerate(key):
        groups.setdefault(find(i), ([], []))[1].append(c)
    for j, c in enumerate(resp):
        groups.setdefault(find(len(key) + j), ([], []))[0].append(c)
    return [groups[k] for k in sorted(groups, key=lambda k: min(min(c) for c in groups[k][0] + groups[k][1]))]


def classify_group(auto: list[frozenset], gold: list[frozenset], key_mentions: set, auto_mentions: set,
                   mtype: Callable[[Span], str]) -> list[Change]:
    """Classified operations of one confusion group (repair, then categorise)."""
    # each response entity's intersections with the key entities, in the key entities' order (the
    # key entities are disjoint: a mention's key entity is found by the mention, not by trying all)
    owner = {m: gi for gi, g in enumerate(gold) for m in g}
    inters: list[list[frozenset]] = []
    split: list[tuple[frozenset, frozenset, bool]] = []   # (part, entity, going nowhere)
    for a in auto:
        by: dict[int, list[Span]] = {}
        nowhere: list[Span] = []
        for m in a:
            gi = owner.get(m)
            if gi is None:
                nowhere.append(m)
            else:
                by.setdefault(gi, []).append(m)
        mine = [frozenset(by[gi]) for gi in sorted(by)]
        inters.append(mine)
        for inter in mine:
            if len(inter) != len(a):
                split.append((inter, a, False))
        for m in sorted(nowhere):
            split.append((frozenset({m}), a, True))
    introduced = [frozenset({m}) for g in gold for m in sorted(g) if m not in auto_mentions]
    # pieces after splitting: each response entity's intersections with key entities, the introduced
    # (all disjoint: each piece is in one merge at most, into the key entity holding it)
    pieces = [i for mine in inters for i in mine] + introduced
    into: list[list[frozenset]] = [[] for _ in gold]
    for p in pieces:
        into[owner[next(iter(p))]].append(p)
    merge = [(p, g) for g, ps in zip(gold, into) for p in ps if p != g]
    out: list[Change] = []
    done_split: set[int] = set()  # operations consumed by a class or by "no error"
    done_merge: set[int] = set()
    # Extra Entity
    by_entity: dict = {}
    keyless: dict[frozenset, bool] = {}  # the entity has no key non-pronoun mention
    for n, (part, a, _) in enumerate(split):
        k = keyless.get(a)
        if k is None:
            k = keyless[a] = all(not (m in key_mentions and mtype(m) != "PRONOUN") for m in a)
        if k and not (part & key_mentions):
            by_entity.setdefault(a, []).append(n)
    for a, ns in by_entity.items():
        part = frozenset().union(*(split[n][0] for n in ns))
        if len(part) == 1:
            continue
        out.append(Change("extra_entity", part, a))
        done_split.update(ns)
    # Missing Entity
    merge_of = {p: n for n, (p, _) in enumerate(merge)}
    for g in gold:
        missing = [m for m in g if m not in auto_mentions]
        if len(missing) > 1 and all(mtype(m) == "PRONOUN" for m in g if m in auto_mentions):
            out.append(Change("missing_entity", g, g))
            for m in missing:
                n = merge_of.get(frozenset({m}))
                if n is not None:
                    done_merge.add(n)
    # no error for the piece holding the earliest non-pronoun mention
    for n, (part, a, _) in enumerate(split):
        if n not in done_split:
            x, y = _min_np(part, mtype), _min_np(a, mtype)
            if x == y and not (x is None and min(part) != min(a)):
                done_split.add(n)
    for n, (p, g) in enumerate(merge):
        if n not in done_merge:
            x, y = _min_np(p, mtype), _min_np(g, mtype)
            if x == y and not (x is None and min(p) != min(g)):
                done_merge.add(n)
    # Extra Mention: remaining removed single mentions
    for n, (part, a, nowhere) in enumerate(split):
        if nowhere and n not in done_split:
            done_split.add(n)
            out.append(Change("extra_mention", part, a))
    # Missing Mention: remaining merges of one introduced mention
    singles = {next(iter(part)) for n, (part, _, _) in enumerate(split) if n not in done_split and len(part) == 1}
    for n, (p, g) in enumerate(merge):
        if n not in done_merge and len(p) == 1:
            m = next(iter(p))
            if m not in singles and m != _min_np(g, mtype) and m not in auto_mentions:
                out.append(Change("missing_mention", p, g))
                done_merge.add(n)
    out.extend(Change("split", part, a) for n, (part, a, _) in enumerate(split) if n not in done_split)
    out.extend(Change("merge", p, g) for n, (p, g) in enumerate(merge) if n not in done_merge)
    order = {s: i for i, s in enumerate(STEPS)}
    out.sort(key=lambda c: (order[c.step], min(c.part)))
    return out


# ----------------------------------------------------------------------------------------------
# Corrections: the response with each class fixed (alone, and cumulatively in the analyser's order)
# ----------------------------------------------------------------------------------------------

class _State:
    """A response as span → entity, corrected in place. ``of[m]`` is the entity's internal number and
    ``ids`` its spans, so a merge moves the smaller entity's spans into the larger; an entity's
    *number* — what a score's row sees (``alias.get(of[m], of[m])``, :meth:`.GroupKey.row_members`) — is that of the entity merged into
    (``alias``: internal number → number where they differ), as if every span had been relabelled."""

    def __init__(self, chains: Iterable[Iterable[Span]] = ()):
        self.of: dict[Span, int] = {}
        self.ids: dict[int, set[Span]] = {}
        self.alias: dict[int, int] = {}
        self.next = 0
        self.order: dict[frozenset, list[Span]] = {}  # an entity's mentions sorted, shared by copies
        for c in chains:
            self.next += 1
            for m in c:
                self.put(m, self.next)

    def copy(self) -> "_State":
        s = _State(())
        s.of, s.next, s.order, s.alias = dict(self.of), self.next, self.order, dict(self.alias)
        s.ids = {i: set(ms) for i, ms in self.ids.items()}
        return s

    def new(self) -> int:
        self.next += 1
        return self.next

    def put(self, m: Span, i: int) -> None:
        """Span ``m`` in the entity of internal number ``i`` (out of the one it was in)."""
        old = self.of.get(m)
        if old is not None:
            self._leave(m, old)
        self.of[m] = i
        self.ids.setdefault(i, set()).add(m)

    def drop(self, m: Span) -> None:
        """Span ``m`` in no entity."""
        old = self.of.pop(m, None)
        if old is not None:
            self._leave(m, old)

    def _leave(self, m: Span, i: int) -> None:
        ms = self.ids[i]
        ms.discard(m)
        if not ms:
            del self.ids[i]
            self.alias.pop(i, None)

    def sorted(self, entity: frozenset) -> list[Span]:
        """The mentions of ``entity`` in order (``sorted``, remembered)."""
        out = self.order.get(entity)
        if out is None:
            out = self.order[entity] = sorted(entity)
        return out

    def chains(self) -> list[list[Span]]:
        out: dict[int, list[Span]] = {}
        for m, i in sorted(self.of.items()):
            out.setdefault(i, []).append(m)
        return list(out.values())

    def apply(self, c: Change, key_mentions: set, mtype: Callable[[Span], str]) -> None:
        if c.step == "split":
            i = self.new()
            for m in c.part:
                self.put(m, i)
            if len(c.entity) - len(c.part) == 1:  # the part is in the entity: one mention is left
                rest = c.entity - c.part
                if len(rest) == 1 and next(iter(rest)) not in key_mentions:
                    self.drop(next(iter(rest)))
        elif c.step in ("extra_mention", "extra_entity"):
            for m in c.part:
                self.drop(m)
        elif c.step == "merge":
            anchor = _min_np(c.entity, mtype) or self.sorted(c.entity)[0]
            if anchor not in self.of:
                self.put(anchor, self.new())
            target = self.of[anchor]
            number = self.alias.get(target, target)
            for m in c.part:
                old = self.of.get(m)
                if old is None:
                    self.put(m, target)
                elif old != target:  # the whole entity of ``m`` joins the target's, under its number
                    if len(self.ids[old]) > len(self.ids[target]):
                        old, target = target, old
                    moved = self.ids.pop(old)
                    self.alias.pop(old, None)
                    for x in moved:
                        self.of[x] = target
                    self.ids[target] |= moved
                    if target == number:
                        self.alias.pop(target, None)
                    else:
                        self.alias[target] = number
        elif c.step == "missing_mention":
            m = next(iter(c.part))
            first = next((x for x in self.sorted(c.entity) if x in self.of), None)  # min of those present
            if first is not None:
                self.put(m, self.of[first])
            else:
                i = self.new()
                self.put(self.sorted(c.entity)[0], i)
                self.put(m, i)
        elif c.step == "missing_entity":
            i = self.new()
            for m in c.part:
                self.put(m, i)


def _scores(key: list[list[Span]], chains: list[list[Span]]) -> dict[str, Counts]:
    ct = M.contingency(key, chains)
    return {"muc": M.muc(key, chains, ct), "bcub": M.bcub(key, chains, ct), "ceafe": M.ceafe(key, chains, ct),
            "lea": M.lea(key, chains, ct)}


@dataclass(slots=True)
class DocumentErrors:
    """The errors of one document and the scores of the corrected responses."""

    rows: list[ErrorRow]
    cumulative: dict[str, dict[str, Counts]]
    """"scored" (the chains as the scores see them), "read" (each span read once), "none" (the
    response the analyser starts from: "read" without the response's singletons in its mode T),
    then after each step, fixes accumulated."""
    alone: dict[str, dict[str, Counts]]
    """Each step fixed alone (span alone from "none", the others from the span-corrected response)."""
    leftover: int
    """Response mentions outside the key that survive every correction."""
    leftovers: list[ErrorRow] = field(default_factory=list)
    """What differs between the key and the response with every class fixed, one row per mention
    (class :data:`LEFTOVER`)."""
    repeated: int = 0
    """Mentions written again (a span repeated in a chain or in two chains, either side) that the
    analyser reads once: the scores count them, the classes do not (state "scored" → "read")."""
    dropped: int = 0
    """Response singletons dropped (the analyser's mode T only; state "read" → "none")."""


class _Refs:
    """:class:`EntityRef` of each entity of a document, built once."""

    def __init__(self, tokens: Sequence[str] | None, mtype: Callable, spans: Sequence[Span] | None = None):
        self.tokens, self.mtype, self.spans = tokens, mtype, spans
        """``spans``: the mentions are numbers, ``spans[m]`` the span of ``m`` (:func:`analyse`)."""
        self.memo: dict = {}

    def text(self, m) -> str:
        """The words of mention ``m``: its span, or a discontinuous mention's words (with "…" between parts)."""
        if self.tokens is None:
            return ""
        if self.spans is not None:
            m = self.spans[m]
        if len(m) == 2:
            return " ".join(self.tokens[m[0]:m[1] + 1])
        words, out = [w for w in m[2] if w == int(w)], []  # an empty node (a zero, at w.k) has no word
        for i, t in enumerate(words):
            if i and t != words[i - 1] + 1:
                out.append("…")
            out.append(self.tokens[int(t)])
        return " ".join(out) or "∅"  # a zero: an empty node alone

    def get(self, side: str, label: str, entity: frozenset) -> EntityRef:
        ref = self.memo.get((side, entity))
        if ref is None:
            ms = tuple(sorted(entity))
            name = _min_np(entity, self.mtype) or ms[0]
            ref = self.memo[(side, entity)] = EntityRef(
                side, label, self.text(name), ms if self.spans is None else tuple([self.spans[m] for m in ms]), (),
                tuple(self.mtype(m) for m in ms))
        return ref


def classify_spans(key: Sequence[Sequence[Span]], response: Sequence[Sequence[Span]],
                   mtypes: dict[Span, str] | None = None, tokens: Sequence[str] | None = None,
                   sentence_of: Callable[[int], int] | None = None, keep_singletons: bool = False,
                   doc_id: str = "", key_labels: Sequence[str] | None = None,
                   response_labels: Sequence[str] | None = None) -> list[ErrorRow]:
    """Error rows of one document given as span lists (mention types default to NOMINAL)."""
    return analyse(key, response, mtypes, tokens, sentence_of, keep_singletons, doc_id, costs=False,
                   key_labels=key_labels, response_labels=response_labels).rows


def analyse(key: Sequence[Sequence[Span]], response: Sequence[Sequence[Span]],
            mtypes: dict[Span, str] | None = None, tokens: Sequence[str] | None = None,
            sentence_of: Callable[[int], int] | None = None, keep_singletons: bool = False,
            doc_id: str = "", costs: bool = True, key_labels: Sequence[str] | None = None,
            response_labels: Sequence[str] | None = None, full_rescore: bool = False) -> DocumentErrors:
    """Classify the errors of one document; with ``costs``, score every corrected response.
    ``key_labels`` / ``response_labels``: each chain's label in its file (default 1, 2, …);
    ``full_rescore``: score each corrected response whole instead of only its changed groups
    (the same counts, slower: for tests).

    The classes and corrections work on each mention's *number*, its place among the document's
    spans in order (so ``min`` and ``sorted`` give what they give for spans, and a number hashes
    and compares at once where a span of two large ints does not: half the time on a book); the
    rows and entities carry spans again."""
    mtypes = mtypes or {}
    sentence_of = sentence_of or (lambda t: 0)
    key_chains: list[list[Span]] = []
    klabels: list[str] = []
    seen: set = set()
    for i, c in enumerate(key):  # a span in two key entities stays in the first too (the analyser reads both alike)
        c = [m for m in dict.fromkeys(map(tuple, c)) if m not in seen]
        seen.update(c)
        if c:
            key_chains.append(c)
            klabels.append(key_labels[i] if key_labels else str(i + 1))
    seen = set()
    resp, rlabels = [], []
    read: list[list[Span]] = []  # the response read once per span, its singletons still there
    for i, c in enumerate(response):  # a span in two response entities stays in the first (the analyser's reader)
        c = [m for m in dict.fromkeys(map(tuple, c)) if m not in seen]
        seen.update(c)
        if c:
            read.append(c)
        if c and (keep_singletons or len(c) > 1):
            resp.append(c)
            rlabels.append(response_labels[i] if response_labels else str(i + 1))
    # what the analyser's reading leaves out of the scored chains: repeated spans (each read once,
    # in its first entity) and, in its mode T, the response's singletons
    given_key = [list(map(tuple, c)) for c in key if len(c)]
    given_response = [list(map(tuple, c)) for c in response if len(c)]
    repeated = (sum(map(len, given_key)) - sum(map(len, key_chains))
                + sum(map(len, given_response)) - sum(map(len, read)))
    dropped = sum(map(len, read)) - sum(map(len, resp))
    key_spans = {m for c in key_chains for m in c}
    resp_spans = dict.fromkeys(m for c in resp for m in c)  # in the response's order, as a state holds them
    spans = sorted(key_spans.union(*read))
    num = {m: n for n, m in enumerate(spans)}
    types = [mtypes.get(m, "NOMINAL") for m in spans]
    starts = [m[0] for m in spans]

    def mtype(m: int) -> str:
        return types[m]

    mtype.memo = {}  # type: ignore[attr-defined]  # _min_np per entity, this document only

    def sentence(m: int) -> int:
        return sentence_of(starts[m])

    def shown(ms) -> tuple[Span, ...]:
        return tuple([spans[m] for m in ms])

    none = _State([num[m] for m in c] for c in resp)
    key_mentions = {num[m] for m in key_spans}
    rows: list[ErrorRow] = []
    fixes: dict[int, int] = {}
    if tokens is not None:
        fixes = {num[a]: num[g] for a, g in span_fixes(key_spans, set(resp_spans), tokens, sentence_of).items()}
    base = _State(())
    base.next = none.next
    for m, i in none.of.items():
        base.put(fixes.get(m, m), i)
    auto_entities: dict[int, set] = {}
    auto_spans: dict[int, set] = {}  # the same as spans, built alike: the order a group's mentions are scored in
    for m, i in base.of.items():
        auto_entities.setdefault(i, set()).add(m)
        auto_spans.setdefault(i, set()).add(spans[m])
    auto = [frozenset(c) for c in auto_entities.values()]
    gold = [frozenset(num[m] for m in c) for c in key_chains]
    auto_mentions = set(base.of)
    refs = _Refs(tokens, mtype, spans)
    gold_label = dict(zip(gold, klabels))
    auto_label = {frozenset(c): rlabels[i - 1] for i, c in auto_entities.items()}
    gold_of = {m: g for g in gold for m in g}
    auto_of = {m: a for a in auto for m in a}

    def kref(g: frozenset | None) -> EntityRef | None:
        return None if g is None else refs.get("key", gold_label[g], g)

    def rref(a: frozenset | None) -> EntityRef | None:
        return None if a is None else refs.get("response", auto_label[a], a)

    for a, g in fixes.items():
        how = "trim" if tokens is not None and _trim(spans[a], tokens) == _trim(spans[g], tokens) else "head"
        rows.append(ErrorRow("Span Error", doc_id, sentence(g), shown((a, g)), 1, (mtype(g),),
                             texts=(refs.text(a), refs.text(g)), key_entity=kref(gold_of.get(g)),
                             response_entity=rref(auto_of.get(g)), detail=how))
    changes: list[tuple[int, Change]] = []  # (its confusion group, the change)
    groups = confusion_groups(gold, auto)
    for gi, (ga, gg) in enumerate(groups):
        if set(ga) == set(gg):  # no error in this group
            continue
        for c in classify_group(ga, gg, key_mentions, auto_mentions, mtype):
            ms = tuple(sorted(c.part))
            ents = len({gold_of[m] for m in ms if m in gold_of}) + len({auto_of[m] for m in ms if m in auto_of})
            k = r = o = None
            if c.step in ("split", "extra_mention", "extra_entity"):
                r = rref(c.entity)
                if c.step == "split":
                    k = kref(gold_of.get(ms[0]))
                    o = kref(gold_of.get(_min_np(c.entity, mtype) or min(c.entity)))
            else:
                k = kref(c.entity)
                if c.step == "merge":
                    r = rref(auto_of.get(ms[0]))
                    o = rref(auto_of.get(_min_np(c.entity, mtype) or min(c.entity)))
                elif c.step == "missing_entity":
                    r = rref(next((auto_of[m] for m in ms if m in auto_of), None))
            rows.append(ErrorRow(STEP_CLASS[c.step], doc_id, sentence(ms[0]), shown(ms), max(ents, 1),
                                 tuple(mtype(m) for m in ms), texts=tuple(refs.text(m) for m in ms),
                                 key_entity=k, response_entity=r, other_entity=o))
            changes.append((gi, c))
    if not costs:
        return DocumentErrors(rows, {}, {}, 0, repeated=repeated, dropped=dropped)
    # a state no correction reached scores as the one before it (each score computed once)
    by_step: dict[str, list[tuple[int, Change]]] = {}
    for gc in changes:
        by_step.setdefault(gc[1].step, []).append(gc)
    if full_rescore or len(key_mentions) != sum(map(len, key_chains)):  # a key mention in two entities
        cumulative = {"none": _scores(key_chains, [shown(c) for c in none.chains()])}
        one = _rescore_documents(key_chains, spans, base, by_step, cumulative, bool(fixes), key_mentions, mtype)
    else:
        # each group's mentions scored in the order of the same sets of spans (the float sums add alike)
        cumulative = {"none": as_counts(GroupKey(gold).row_of([num[m] for m in key_spans | resp_spans.keys()],
                                                              none.of))}
        as_spans = dict(zip(map(id, gold), (frozenset(c) for c in key_chains)))
        as_spans.update(zip(map(id, auto), map(frozenset, auto_spans.values())))
        span_groups = [([as_spans[id(a)] for a in ga], [as_spans[id(g)] for g in gg]) for ga, gg in groups]
        one = _rescore_groups(groups, span_groups, num, base, by_step, cumulative, bool(fixes), key_mentions, mtype)
    state = one.pop("_final")
    # the states before the analyser's reading: the chains as scored ("scored"), then each span read
    # once ("read"), then (mode T) without the response's singletons ("none"); one object where
    # nothing changed
    cumulative["read"] = _scores(key_chains, read) if dropped else cumulative["none"]
    cumulative["scored"] = _scores(given_key, given_response) if repeated else cumulative["read"]
    left: list[ErrorRow] = []
    for m in sorted(state.of.keys() - key_mentions):
        left.append(ErrorRow(LEFTOVER, doc_id, sentence(m), shown((m,)), 1, (mtype(m),), texts=(refs.text(m),),
                             response_entity=rref(auto_of.get(m)), detail="extra"))
    extra = len(left)
    for m in sorted(key_mentions - state.of.keys()):
        left.append(ErrorRow(LEFTOVER, doc_id, sentence(m), shown((m,)), 1, (mtype(m),), texts=(refs.text(m),),
                             key_entity=kref(gold_of.get(m)), detail="missing"))
    left.sort(key=lambda r: r.mentions)
    return DocumentErrors(rows, cumulative, one, extra, left, repeated, dropped)


def _rescore_groups(groups: list[tuple[list, list]], span_groups: list[tuple[list, list]], num: dict,
                    base: _State, by_step: dict, cumulative: dict, fixed_spans: bool, key_mentions: set,
                    mtype: Callable[[int], str]) -> dict:
    """Fill ``cumulative`` with the counts after each step and return the counts of each step alone.

    Every correction stays inside its confusion group (of the span-corrected response), and every
    score is a sum over groups (:mod:`.groupscores`): each group is scored once as it is, then again
    only after a step that changed it; a state's counts are the sum of its groups' rows.
    ``span_groups``: the groups' entities as sets of spans, ``num`` each span's number: a group's
    mentions are scored in the order of its set of spans (the float sums add as they always have)."""
    touched = sorted({gi for items in by_step.values() for gi, _ in items})
    keys = {gi: GroupKey(groups[gi][1]) for gi in touched}
    members = {gi: keys[gi].members([num[m] for m in {m for c in span_groups[gi][1] for m in c}.union(
        *span_groups[gi][0])]) for gi in touched}

    def row(state: _State, gi: int) -> tuple:
        return keys[gi].row_members(members[gi], state.of, state.alias)

    base_rows = {gi: row(base, gi) for gi in touched}
    # the groups no step changes, scored together once
    untouched = [gi for gi in range(len(groups)) if gi not in base_rows]
    static = (0,) * 16
    if untouched:
        static = GroupKey([c for gi in untouched for c in groups[gi][1]]).row_of(
            [num[m] for m in {m for gi in untouched for part in span_groups[gi] for c in part for m in c}], base.of)

    def total(rows: dict[int, tuple]) -> dict[str, Counts]:
        return as_counts(add_rows([static, *rows.values()]))

    cumulative["span"] = total(base_rows) if fixed_spans else cumulative["none"]
    # applying every group's changes step by step (in the analyser's class order) to one response
    # gives each cumulative state in turn
    state = base.copy()
    current = dict(base_rows)
    first: dict[tuple[str, int], tuple] = {}  # a group's row after the first step that changed it
    prev = "span"
    for s in STEPS[1:]:
        items = by_step.get(s)
        if items:
            for _, c in items:
                state.apply(c, key_mentions, mtype)
            for gi in {gi for gi, _ in items}:
                if current[gi] is base_rows[gi]:
                    current[gi] = first[(s, gi)] = row(state, gi)
                else:
                    current[gi] = row(state, gi)
            cumulative[s] = total(current)
        else:
            cumulative[s] = cumulative[prev]
        prev = s
    one = {"span": cumulative["span"], "split": cumulative["split"], "_final": state}  # split: the first
    for s in STEPS[2:]:
        items = by_step.get(s)
        if items:
            # a group this step is the first to change is, fixed alone, as fixed cumulatively
            alone = base.copy()
            for gi, c in items:
                if (s, gi) not in first:
                    alone.apply(c, key_mentions, mtype)
            rows = dict(base_rows)
            for gi in {gi for gi, _ in items}:
                rows[gi] = first.get((s, gi)) or row(alone, gi)
            one[s] = total(rows)
        else:
            one[s] = cumulative["span"]
    return one


def _rescore_documents(key_chains: list[list[Span]], spans: list[Span], base: _State, by_step: dict,
                       cumulative: dict, fixed_spans: bool, key_mentions: set, mtype: Callable[[int], str]) -> dict:
    """As :func:`_rescore_groups`, scoring every corrected response whole with :mod:`.metrics`
    (the straightforward way: used when a key mention is in two entities, and by the tests);
    ``spans``: each mention number's span."""
    def score(state: _State) -> dict[str, Counts]:
        return _scores(key_chains, [[spans[m] for m in c] for c in state.chains()])

    cumulative["span"] = score(base) if fixed_spans else cumulative["none"]
    state = base.copy()
    prev = "span"
    for s in STEPS[1:]:
        for _, c in by_step.get(s, ()):
            state.apply(c, key_mentions, mtype)
        cumulative[s] = score(state) if s in by_step else cumulative[prev]
        prev = s
    one = {"span": cumulative["span"], "split": cumulative["split"], "_final": state}
    for s in STEPS[2:]:
        if s in by_step:
            alone = base.copy()
            for _, c in by_step[s]:
                alone.apply(c, key_mentions, mtype)
            one[s] = score(alone)
        else:
            one[s] = cumulative["span"]
    return one


def _costs(cumulative: dict, alone: dict, reading: tuple[str, ...] = ()) -> list[dict]:
    """Per row: the F1 change of each metric, cumulative (from the state before) and alone. The
    rows: the analyser's reading (``reading``: :data:`REPEATED`, :data:`DROPPED`; from "scored"),
    the classes that fixed something, then :data:`LEFTOVER` (the gap to 100 %). So the cumulative
    changes add up from the scores' F1 ("scored") to 1, exactly."""
    out = []
    prev = "none"
    if reading and "scored" in cumulative:
        prev = "scored"
        for s, name in READING:
            if name in reading:
                a, b = f1s(cumulative[prev]), f1s(cumulative[s])
                d = {k: b[k] - a[k] for k in b}
                out.append({"class": name, "cumulative": d, "alone": dict(d)})
                prev = s
            elif s in cumulative:  # a reading not shown changes nothing: continue from its state
                prev = s
    for s in STEPS:
        if s not in cumulative:
            continue
        a, b = f1s(cumulative[prev]), f1s(cumulative[s])
        base = f1s(cumulative["none" if s == "span" else "span"])
        solo = f1s(alone[s])
        out.append({"class": STEP_CLASS[s], "cumulative": {k: b[k] - a[k] for k in b},
                    "alone": {k: solo[k] - base[k] for k in solo}})
        prev = s
    if cumulative:
        last = f1s(cumulative[prev])
        out.append({"class": LEFTOVER, "cumulative": {k: 1.0 - v for k, v in last.items()},
                    "alone": {k: 1.0 - v for k, v in last.items()}})
    return out


def f1s(scores: dict[str, Counts]) -> dict[str, float]:
    """F1 of each cost metric and the CoNLL score."""
    out = {k: scores[k].f1 for k in COST_METRICS}
    out["conll"] = conll_score(scores["muc"], scores["bcub"], scores["ceafe"])
    return out


EXAMPLES = 5
"""Rows per class kept as the candidates of the examples (:meth:`ErrorsResult.example_rows`): the
first ``EXAMPLES`` rows of each of the first ``EXAMPLES`` documents with the class — among them are
the up to ``EXAMPLES`` rows :func:`~corefreport.present.sampling.spread_over_documents` chooses (one
per document first, in document order, then further rows of the same documents)."""
TALLIES = (("cls",), ("cls", "mtype"), ("cls", "head"), ("joined", "cls"), ("doc_id", "cls"))
"""The group-bys of the rows every view reads (:meth:`ErrorsResult.tally`); ``head``: the error's
most informative mention type (:func:`head_type`); ``joined`` is tallied over Conflated Entities and
Divided Entity only. Each ``--by`` feature and :data:`BREAKDOWN_FEATURES` add ``("cls", feature)``."""
JOINED = ("Conflated Entities", "Divided Entity")


def _head(r: ErrorRow) -> str:
    """The ``head`` column of a tally: the error's most informative mention type."""
    return head_type(r.mtypes)


def _plus(total: dict[str, dict[str, Counts]], states: dict[str, dict[str, Counts]]) -> None:
    """Add one document's states to ``total`` in place (``0 +`` the first document, then each in
    turn, in document order: the floats of a sum over the documents)."""
    for step, sc in states.items():
        t = total.setdefault(step, {})
        for k, c in sc.items():
            t[k] = (t.get(k) or Counts(0, 0, 0, 0)) + c


def _conll(states: dict[str, dict[str, Counts]]) -> dict[str, float]:
    """Each state's CoNLL F1 (untouched steps share their counts: one CoNLL each)."""
    memo: dict[int, float] = {}
    return {s: memo[id(c)] if id(c) in memo else memo.setdefault(id(c), conll_score(c["muc"], c["bcub"], c["ceafe"]))
            for s, c in states.items()}


@dataclass(slots=True)
class ErrorsResult:
    """Kummerfeld & Klein (2013) errors of a corpus: rows, and F1 of the corrected responses.

    The mentions are the scores' (``singletons``: the scores' policy, kept or dropped on both
    sides), so the costs add up from the scored F1; with ``drop_response_singletons`` (the
    analyser's mode T) the response's singletons are dropped and the key's kept, and the costs say
    what that changes (row :data:`DROPPED`).

    What every table reads is kept as the documents come, in memory bounded by the classes and
    features, not by the documents: the group-bys of the rows (:meth:`tally`), the candidates of
    the examples (:meth:`example_rows`), the corpus counts of each state (:attr:`cumulative`,
    :attr:`alone`) and each document's CoNLL F1 per state (:attr:`per_document`). With
    ``complete`` (the default) every row, leftover row and document's states is kept too: the
    JSON lists every row, ``compare`` resamples the documents' states, the browser and the report
    show the rows. ``complete=False`` (``score``'s tables) keeps only the digest: :attr:`rows`,
    :attr:`leftovers`, :attr:`document_states` and :attr:`alone_states` then hold at most the
    documents of one run of the pipeline (added to the sums when runs add up)."""

    singletons: str = "keep"
    """The scores' singletons (``--singletons``): kept or dropped on both sides."""
    drop_response_singletons: bool = False
    rows: list[ErrorRow] = field(default_factory=list)
    leftovers: list[ErrorRow] = field(default_factory=list)
    """The leftover's mentions (:attr:`DocumentErrors.leftovers`): not errors of any class, so not
    in :attr:`rows`."""
    by: tuple[str, ...] = ()
    """Features asked for with ``--by``: a breakdown table each (mention features of the error's
    first mention: mtype, ne, genre, an input column ``colN`` …)."""
    leftover: int = 0
    document_states: dict[str, dict[str, dict[str, Counts]]] = field(default_factory=dict)
    """Per document: the MUC, B³, CEAF-e, LEA counts of the response before any correction
    ("none") and after each step, fixed cumulatively (they sum to :attr:`cumulative`); what
    ``compare`` resamples."""
    alone_states: list[dict[str, dict[str, Counts]]] = field(default_factory=list)
    """Per document: the counts after each step fixed alone (they sum to :attr:`alone`)."""
    _sums: dict = field(default_factory=dict, repr=False, compare=False)

    repeated: int = 0
    """Mentions the scores count again that the analyser reads once (:data:`REPEATED`)."""
    dropped: int = 0
    """Response singletons dropped (:data:`DROPPED`, mode T only)."""
    complete: bool = True
    """Every row and document's states kept (see the class docstring); False: the digest alone."""
    tallies: dict[tuple[str, ...], Counter] = field(default_factory=dict, repr=False, compare=False)
    candidates: dict[str, dict[str, list[ErrorRow]]] = field(default_factory=dict, repr=False, compare=False)
    """Per class (and ``LEFTOVER + " extra"`` / ``LEFTOVER + " missing"``): document → its first
    :data:`EXAMPLES` rows, for the first :data:`EXAMPLES` documents."""
    states: dict[str, dict[str, dict[str, Counts]]] = field(default_factory=dict, repr=False, compare=False)
    """The corpus counts: ``"cumulative"`` and ``"alone"``, each state's sum over the documents."""
    document_conll: dict[str, dict[str, float]] = field(default_factory=dict, repr=False, compare=False)
    """Per document: the CoNLL F1 of each state (what :attr:`per_document`'s gains are made of)."""
    known: set[str] = field(default_factory=set, repr=False, compare=False)
    """The features the errors' mentions carry (:meth:`check_by`)."""
    present: set[str] = field(default_factory=set, repr=False, compare=False)
    """The features some error's mention has a value of (:meth:`features`)."""

    def __post_init__(self) -> None:
        rows, leftovers = self.rows, self.leftovers  # rows given whole (the tests, a caller): their digest
        if (rows or leftovers) and not self.tallies:
            self.rows, self.leftovers = [], []
            self._take(rows, leftovers)

    def _columns(self) -> tuple[tuple[str, ...], ...]:
        return tuple(dict.fromkeys(TALLIES + tuple(("cls", f) for f in (*self.by, *BREAKDOWN_FEATURES))))

    def _take(self, rows: list[ErrorRow], leftovers: list[ErrorRow]) -> None:
        """Add one document's rows (or rows in document order) to the digest (and, ``complete``, to the rows)."""
        if self.complete:
            self.rows.extend(rows)
            self.leftovers.extend(leftovers)
        for columns in self._columns():
            t = self.tallies.setdefault(columns, Counter())
            sub = [r for r in rows if r.cls in JOINED] if columns[0] == "joined" else rows
            t.update(group_by(sub, *(_head if c == "head" else c for c in columns)))
        for r in rows:
            if r.features:
                self.known.update(r.features)
                self.present.update(k for k, v in r.features.items() if v not in ("", "-"))
            self._candidate(r.cls, r)
        for r in leftovers:
            self._candidate(LEFTOVER + (" extra" if r.detail == "extra" else " missing"), r)

    def _candidate(self, name: str, r: ErrorRow) -> None:
        docs = self.candidates.setdefault(name, {})
        kept = docs.get(r.doc_id)
        if kept is None:
            if len(docs) < EXAMPLES:
                docs[r.doc_id] = [r]
        elif len(kept) < EXAMPLES:
            kept.append(r)

    def _states(self, doc_id: str, cumulative: dict, alone: dict) -> None:
        """One document's states: into the sums and its CoNLL per state (and, ``complete`` or for
        the run being scored, kept whole)."""
        self.document_states[doc_id] = cumulative
        self.alone_states.append(alone)
        _plus(self.states.setdefault("cumulative", {}), cumulative)
        _plus(self.states.setdefault("alone", {}), alone)
        self.document_conll[doc_id] = _conll(cumulative)

    @property
    def keep_singletons(self) -> bool:
        """Whether the response's singletons take part (as in the scores, unless mode T)."""
        return not self.drop_response_singletons

    def reading(self) -> tuple[str, ...]:
        """The rows of the analyser's reading shown before the classes: :data:`REPEATED` when a
        span was written again, :data:`DROPPED` in mode T."""
        return tuple(name for name, on in ((REPEATED, self.repeated > 0), (DROPPED, self.drop_response_singletons))
                     if on)

    def count_of(self, name: str) -> int:
        """The number shown with a row of :meth:`costs`: errors of a class, the leftover's
        surviving response mentions, the mentions read once, the singletons dropped."""
        if name == LEFTOVER:
            return self.leftover
        if name == REPEATED:
            return self.repeated
        if name == DROPPED:
            return self.dropped
        return self.counts().get(name, 0)

    def scored(self) -> dict[str, float]:
        """F1 of the response as scored (MUC, B³, CEAF-e, LEA, CoNLL): where the costs start."""
        c = self.cumulative
        return f1s(c["scored"]) if "scored" in c else {}

    def add(self, d: DocumentErrors, doc_id: str = "") -> None:
        self._take(d.rows, d.leftovers)
        self.leftover += d.leftover
        self.repeated += d.repeated
        self.dropped += d.dropped
        if d.cumulative:
            self._states(doc_id, d.cumulative, d.alone)
        self._sums.clear()

    def __add__(self, other: "ErrorsResult") -> "ErrorsResult":
        """Both results, ``self``'s documents first: the tallies and counts added, the candidates
        of ``self`` then ``other``'s, the sums continued document by document over ``other``'s
        states where it holds them (the same floats as one sum over every document)."""
        out = ErrorsResult(self.singletons, self.drop_response_singletons, by=self.by,
                           complete=self.complete and other.complete)
        for x in (self, other):
            out.leftover += x.leftover
            out.repeated += x.repeated
            out.dropped += x.dropped
            out.known |= x.known
            out.present |= x.present
        out.tallies = {k: self.tallies.get(k, Counter()) + other.tallies.get(k, Counter())
                       for k in dict.fromkeys([*self.tallies, *other.tallies])}
        out.candidates = {k: {d: list(rows) for d, rows in v.items()} for k, v in self.candidates.items()}
        for name, docs in other.candidates.items():
            for r in (r for rows in docs.values() for r in rows):
                out._candidate(name, r)
        out.states = {k: {s: dict(sc) for s, sc in v.items()} for k, v in self.states.items()}
        out.document_conll = {**self.document_conll, **other.document_conll}
        if out.complete:
            out.rows = self.rows + other.rows
            out.leftovers = self.leftovers + other.leftovers
            out.document_states = {**self.document_states, **other.document_states}
            out.alone_states = self.alone_states + other.alone_states
        if other.alone_states and len(other.alone_states) == len(other.document_states):
            for cumulative, alone in zip(other.document_states.values(), other.alone_states):
                _plus(out.states.setdefault("cumulative", {}), cumulative)
                _plus(out.states.setdefault("alone", {}), alone)
        else:
            for k, v in other.states.items():
                _plus(out.states.setdefault(k, {}), v)
        return out

    @property
    def cumulative(self) -> dict[str, dict[str, Counts]]:
        """Corpus counts before any correction ("none") and after each step, fixed cumulatively."""
        return self.states.get("cumulative", {})

    @property
    def alone(self) -> dict[str, dict[str, Counts]]:
        """Corpus counts after each step fixed alone (Span Error from the response itself, the
        others from the span-corrected response)."""
        return self.states.get("alone", {})

    @property
    def per_document(self) -> dict[str, dict[str, float]]:
        """Per document: CoNLL F1 gained by each class, fixed cumulatively (Leftover: the gap left;
        first the rows of the analyser's reading, :meth:`reading`): they add up from the document's
        scored CoNLL F1 to 1."""
        if "per_document" not in self._sums:
            out = {}
            reading = self.reading()
            for doc_id, conll in self.document_conll.items():
                gains, prev = {}, "none"
                if reading and "scored" in conll:
                    prev = "scored"
                    for s, name in READING:
                        if name in reading:
                            gains[name] = conll[s] - conll[prev]
                        prev = s
                for s in STEPS:
                    gains[STEP_CLASS[s]] = conll[s] - conll[prev]
                    prev = s
                gains[LEFTOVER] = 1.0 - conll[prev]
                out[doc_id] = gains
            self._sums["per_document"] = out
        return self._sums["per_document"]

    def check_by(self) -> None:
        """Refuse a ``--by`` feature no error's mention has (naming the ones there are)."""
        if not self.by or not self.tally("cls"):
            return
        known = set(ROW_COLUMNS) | self.known
        unknown = [f for f in self.by if f not in known]
        if unknown:
            from ..errors import SettingsError

            raise SettingsError(f"--by {unknown[0]!r}: no such feature of the errors' mentions; they have "
                                + ", ".join(sorted(known)))

    def tally(self, *columns: str) -> dict:
        """:func:`group_by` over every row (as the documents came), from the digest: the errors
        per value of ``columns`` — one of :data:`TALLIES`, or ``("cls", feature)`` for a ``--by``
        feature or one of :data:`BREAKDOWN_FEATURES`."""
        t = self.tallies.get(columns)
        if t is None:
            if columns in self._columns():
                return {}
            raise ValueError(f"the errors keep no tally by {columns}")
        return dict(sorted((k, n) for k, n in t.items() if n))

    def example_rows(self, name: str, k: int) -> list[ErrorRow]:
        """The candidates of ``k`` examples of class ``name`` (``LEFTOVER + " extra"`` /
        ``" missing"``: the leftover's surviving response mentions / missing key mentions), in
        document order: :func:`~corefreport.present.sampling.spread_over_documents` over them
        chooses what it would over every row of the class."""
        if k > EXAMPLES:
            raise ValueError(f"the errors keep {EXAMPLES} candidate examples per class; {k} are asked for")
        return [r for rows in self.candidates.get(name, {}).values() for r in rows]

    def counts(self) -> dict[str, int]:
        """Errors per class, every class listed, in the analyser's order."""
        g = self.tally("cls")
        return {c: g.get(c, 0) for c in CLASSES}

    def features(self) -> list[str]:
        """The breakdown features: the ``--by`` features, then NE type and genre where the rows carry
        them with some value."""
        return list(dict.fromkeys([*self.by, *(f for f in BREAKDOWN_FEATURES if f in self.present)]))

    def document_counts(self) -> dict[str, dict[str, int]]:
        """Per document: errors per class (every class listed)."""
        by = self.tally("doc_id", "cls")
        return {d: {c: by.get((d, c), 0) for c in CLASSES} for d in self.document_conll}

    def costs(self) -> list[dict]:
        """Per class: F1 gain of each metric when its errors are fixed after the previous classes
        (``cumulative``) and alone (``alone``); then the leftovers (every class fixed → key). First
        the rows of the analyser's reading (:meth:`reading`): the cumulative gains add up from the
        scored F1 to 100 %."""
        return _costs(self.cumulative, self.alone, self.reading())

    def as_dict(self) -> dict:
        if not self.complete:
            raise ValueError("the errors kept only their digest (score's tables): the JSON lists every row")
        by_doc: dict[str, dict[str, int]] = {}
        for (doc, c), n in group_by(self.rows, "doc_id", "cls").items():
            by_doc.setdefault(doc, {})[c] = n
        return {"singletons": self.singletons, "drop_response_singletons": self.drop_response_singletons,
                "keep_singletons": self.keep_singletons, "scored_f1": self.scored(),
                "repeated_mentions": self.repeated, "dropped_singletons": self.dropped,
                "counts": self.counts(), "costs": self.costs(),
                "per_document": {d: {"counts": by_doc.get(d, {}), "conll_gain": g}
                                 for d, g in self.per_document.items()},
                "leftover_mentions": self.leftover,
                "leftovers": [r.as_dict() for r in self.leftovers],
                "by_mtype": {f"{c}|{t}": n for (c, t), n in group_by(self.rows, "cls", "mtype").items()},
                "by_joined_types": {f"{c}|{t}": n for (c, t), n in group_by(
                    [r for r in self.rows if r.cls in ("Conflated Entities", "Divided Entity")], "cls", "joined").items()},
                "by_feature": {f: {f"{c}|{v}": n for (c, v), n in group_by(self.rows, "cls", f).items()}
                               for f in self.features()},
                "rows": [r.as_dict() for r in self.rows]}


PRONOUN_POS = frozenset({"PRP", "PRP$", "WP", "WP$", "WDT", "WRB", "DT"})
PRONOUN_WORDS = frozenset("""i me my mine myself we us our ours ourselves you your yours yourself yourselves ya thyself
he him his himself she her hers herself it its itself they them their theirs themselves em 'em one
this that these those who whom whose whoever whomever whatever what which when where how
everybody everyone anybody anyone somebody someone nobody noone none all few several some many most
something nothing everything""".split())
"""Words the analyser types as pronouns when a mention is one token (nlp_util/coreference.py)."""


def kk_type(span: Span, tokens: Sequence[str], pos: Sequence[str]) -> str:
    """The analyser's mention type with its head falling back to the last token (no parse):
    PRONOUN if one token tagged PRP, PRP$, WP, WP$, WDT, WRB or DT or in :data:`PRONOUN_WORDS`;
    NAME if the head is tagged NNP or NNPS; else NOMINAL.

    >>> kk_type((0, 0), ["It", "rains"], ["PRP", "VBZ"]), kk_type((0, 1), ["New", "York"], ["NNP", "NNP"])
    ('PRONOUN', 'NAME')
    """
    s, e = span
    if s == e and (pos[e] in PRONOUN_POS or tokens[e].lower() in PRONOUN_WORDS):
        return "PRONOUN"
    return "NAME" if pos[e] in ("NNP", "NNPS") else "NOMINAL"


def document_errors(ad, keep_singletons: bool = True) -> DocumentErrors:
    """:func:`analyse` on one aligned document (``keep_singletons``: the response's singletons take
    part, as in the scores; False: the analyser's mode T). Mention types: :func:`kk_type` from the
    key's POS column where there is one, else the ``mtype`` feature — the reader's, else derived
    (:func:`.features.annotated`, the key's derivation shared with the response as the pipeline
    shares it), the key's first. So the types, hence the counts, are the same whether or not another
    analysis had the documents annotated. Mentions are keyed by their identity (a discontinuous
    mention's words included)."""
    mtypes: dict[tuple, str] = {}
    feats: dict[tuple, dict] = {}
    kd = ad.key_doc
    tokens, ntok = kd.tokens, len(kd.tokens)
    pos = kd.columns.get("pos")
    usable = bool(pos) and len(pos) == ntok and any(p not in ("-", "_", "") for p in pos)
    rd = ad.response_doc
    sides = ((kd, ad.key), (rd, ad.response))  # the key first: its types and features win
    typed = usable or all(m.features.get("mtype") for d, _ in sides if d is not None for c in d.chains
                          for m in c.mentions)
    if not typed:  # derive the types as the pipeline's annotation does (document.annotate_pair)
        from .features import Derived, annotated, derivation_inputs

        x = Derived(kd)
        same = rd is not None and derivation_inputs(rd) == derivation_inputs(kd)
        sides = ((annotated(kd, derived=x), ad.key),
                 (annotated(rd, derived=x if same else None) if rd is not None else None, ad.response))
    labels = []
    for doc, chains in sides:
        of: dict[tuple, str] = {}
        for ch in (doc.chains if doc is not None else ()):
            label = ch.label
            for m in ch.mentions:
                sp = m.ident
                if sp not in of:
                    of[sp] = label
                f = m.features
                if f and sp not in feats:
                    feats[sp] = f
                if sp in mtypes:
                    continue
                if usable and 0 <= m.start <= m.end < ntok:
                    mtypes[sp] = kk_type((m.start, m.end), tokens, pos)
                elif f and f.get("mtype"):
                    mtypes[sp] = f["mtype"]
        labels.append([of.get(c[0], str(i + 1)) if c else "" for i, c in enumerate(chains)])
    starts = kd.sentence_starts
    sentence_of = kd.sentence_of
    if starts and starts[0] <= 0:  # tokens ≥ 0: the sentence is the last start ≤ the token
        def sentence_of(t: int, s: list[int] = starts) -> int:
            return bisect_right(s, t) - 1
    d = analyse(ad.key, ad.response, mtypes, tokens, sentence_of, keep_singletons, ad.doc_id,
                key_labels=labels[0], response_labels=labels[1])
    # the features of each error's first mention (its key span for a Span Error), where the
    # documents carry them (when another analysis annotated them): breakdowns by NE type, genre …
    if feats:
        for r in d.rows:
            r.features = feats.get(r.mentions[-1] if r.cls == "Span Error" else r.mentions[0], {})
    return d


class ErrorsAnalysis:
    """The pipeline's steps of the error classes (:class:`~corefreport.scoring.registry.Analysis`):
    the part is an :class:`ErrorsResult` of the run's documents; two add up (:meth:`add`).
    ``complete``: the parts keep every row and document's states (False: their digest, what
    ``score``'s tables read — :attr:`ErrorsResult.complete`)."""

    def __init__(self, settings, complete: bool = True) -> None:
        self.singletons = settings.singletons
        self.drop_response = settings.errors_drop_response_singletons
        self.by = settings.by
        self.complete = complete

    def _empty(self) -> ErrorsResult:
        return ErrorsResult(self.singletons, self.drop_response, by=self.by, complete=self.complete)

    def score(self, aligned: list) -> tuple[list, ErrorsResult]:
        out = self._empty()
        for ad in aligned:
            out.add(document_errors(ad, not self.drop_response), ad.doc_id)
        return [], out

    @staticmethod
    def options(s) -> dict:
        return {"singletons": s.singletons, "drop_response_singletons": s.errors_drop_response_singletons}

    @staticmethod
    def signature(s) -> list[tuple[str, str]]:
        return [("errors", "drop-response-singletons")] if s.errors_drop_response_singletons else []

    @staticmethod
    def add(a: ErrorsResult, b: ErrorsResult) -> ErrorsResult:
        return a + b

    def result(self, part: ErrorsResult) -> ErrorsResult:
        return part
