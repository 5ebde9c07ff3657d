"""MINA minimum spans (Moosavi, Born, Poesio and Strube 2019, "Using automatically extracted minimum
spans to disentangle coreference evaluation from boundary detection", ACL), as coval computes them
(ns-moosavi/coval 87071a6, ``coval/conll/util.py`` ``extract_annotated_parse`` and
``coval/conll/mention.py`` ``set_min_span``; ``--match mina``):

* the identity of a mention — key **or response** — is ``(sentence, MINA set)``; the MINA set is
  computed from the **key's** constituency parse (CoNLL-2012 column 6, the parse bits) and POS
  (column 5) over the mention's own words; two mentions are the same when these are equal (an
  equality, not ``--match min``'s containment);
* the tree of a mention is read from the parse bits of its words alone (brackets opened before
  the mention are absent, brackets it closes that it did not open close nothing; several trees
  left are joined under an ``NP``); the words between two brackets form one *terminal* whose
  text is the words joined by spaces and whose index is the word (in the sentence) where the
  bracket after them stands (the last word for ``)``, the next word for ``(``);
* a terminal is *valid* when one of its words has a letter or digit (or is ``%``), is not
  ``-LRB-``/``-RRB-`` and its POS is not CC, DT or IN;
* the phrase kind: NP-like (NP, NML, QP, NX) when the root is NP/NML or has an NP/NML child,
  VP when the root or, failing NP, a child is VP, else NP-like;
* MINA = the root's valid terminal children; else, for each child phrase of that kind, the
  valid terminals at the smallest depth reached breadth-first through phrases of that kind;
  else the same search from the root with the kind fixed at the first NP/VP node met; else the
  mention's words, each numbered by its position in the mention;
* a mention whose words carry no parse bit has its span as its identity.

A response mention with the identity of a key mention then carries that key mention's words
(the first key mention with that identity, :func:`.matching.alignment`).

>>> words = ["The", "president", "of", "the", "company"]
>>> pos = ["DT", "NN", "IN", "DT", "NN"]
>>> bits = ["(NP(NP*", "*)", "(PP*", "(NP*", "*)))"]
>>> sorted(mina_set(words, pos, bits, 0, 4)), sorted(mina_set(words, pos, bits, 0, 1))
([('The president', 1)], [('The president', 1)])
>>> sorted(mina_set(words, pos, bits, 4, 4)), sorted(mina_set(words, pos, bits, 3, 4))  # the terminals differ
([('company', 4)], [('the company', 4)])
"""

from __future__ import annotations

from dataclasses import dataclass, field

NP_KIND = ("NP", "NM", "QP", "NX")
VP_KIND = ("VP",)
_NO_HEAD_POS = ("CC", "DT", "IN")


@dataclass(eq=False)
class _Node:
    """A node of a mention's tree: a phrase (``tag`` its label) or a terminal (``tag`` its words)."""

    tag: str
    index: int
    terminal: bool
    pos: list[str] = field(default_factory=list)
    children: list["_Node"] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.tag[:2]


def _valid(text: str, pos: list[str]) -> bool:
    """A terminal that can be (part of) a minimum span (module docstring)."""
    ws = text.split()
    if len(ws) != 1:
        return any(_valid(w, [p]) for w, p in zip(ws, pos))
    ok = any(c.isalpha() or c.isdigit() for c in text) or text == "%"
    return ok and text not in ("-LRB-", "-RRB-") and pos[0] not in _NO_HEAD_POS


def _tree(words: list[str], pos: list[str], bits: list[str], start: int) -> _Node | None:
    """The tree of the parse bits ``bits`` (one per word, the first word being number ``start``
    of its sentence), read bracket by bracket as coval reads them (module docstring)."""
    stack: list[_Node] = []
    roots: list[_Node] = []
    last: _Node | None = None
    label: list[str] = []
    opened = False
    held: list[str] = []
    held_pos: list[str] = []

    def attach(node: _Node) -> None:
        if stack:
            stack[-1].children.append(node)
        else:
            stack.append(node)

    def push(index: int) -> None:
        """Open the phrase whose label was read: a child of the open one, then the open one."""
        nonlocal label
        node = _Node("".join(label), index, False)
        if stack:
            stack[-1].children.append(node)
        stack.append(node)
        label = []

    def flush(index: int) -> None:
        nonlocal held, held_pos
        attach(_Node(" ".join(held), index, True, held_pos))
        held, held_pos = [], []

    n = len(bits)
    for i, cell in enumerate(bits):
        here = start + i
        for j, c in enumerate(cell):
            if c == "(":
                if opened:
                    push(here)
                if held:
                    if any(w.isalpha() or w.isdigit() for w in held):
                        flush(here)
                    else:
                        held, held_pos = [], []
                opened = True
            elif c == "*":
                held.append(words[i])
                held_pos.append(pos[i])
                if opened:
                    push(here)
                    opened = False
                elif label:
                    roots.append(_Node("".join(label), here, False))
            elif c == ")":
                if held:
                    flush(here)
                if stack:
                    last = stack.pop()
                    if not stack:
                        roots.append(last)
                opened = False
            elif c.isalpha():
                label.append(c)
            if i == n - 1 and j == len(cell) - 1 and held:
                flush(here)
    while stack:
        last = stack.pop()
        if not stack:
            roots.append(last)
    if len(roots) > 1:
        return _Node("NP", start, False, children=roots)
    return last


def _phrase_kind(root: _Node) -> tuple[str, ...] | None:
    if root.kind == "VP":
        return VP_KIND
    if root.kind in ("NP", "NM"):
        return NP_KIND
    if not root.children:
        return None
    kinds = {c.kind for c in root.children}
    if "NP" in kinds or "NM" in kinds:
        return NP_KIND
    return VP_KIND if "VP" in kinds else NP_KIND


def _search(root: _Node, kind: tuple[str, ...] | None, out: set, fixed: bool = True) -> None:
    """The valid terminals at the smallest depth reached breadth-first from ``root`` through
    phrases of ``kind`` (``fixed=False``: the kind is the first NP-like or VP node's met)."""
    shallowest = float("inf")
    queue = [(root, 0)]
    while queue:
        node, depth = queue.pop(0)
        if not fixed and not kind:
            if node.kind in ("NP", "NM"):
                kind = NP_KIND
            elif node.kind == "VP":
                kind = VP_KIND
        if node.terminal and depth <= shallowest:
            if _valid(node.tag, node.pos):
                out.add((node.tag, node.index))
                shallowest = min(shallowest, depth)
        elif (not out or depth < shallowest) and node.children and (depth == 0 or not kind or node.kind in kind):
            for child in node.children:
                if not child.terminal or (kind and node.kind in kind):
                    queue.append((child, depth + 1))


def mina_set(words: list[str], pos: list[str], bits: list[str], start: int, end: int) -> frozenset | None:
    """The MINA set of the mention of sentence words ``start``..``end`` (0-based, inclusive) of a
    sentence with ``words``, ``pos`` and parse ``bits``: (terminal text, sentence word number)
    pairs; ``None`` when those words carry no tree (module docstring)."""
    ws, ps, bs = words[start:end + 1], pos[start:end + 1], bits[start:end + 1]
    root = _tree(ws, ps, bs, start)
    if root is None:
        return None
    out: set = set()
    kind = _phrase_kind(root)
    phrases = []
    if root.terminal and _valid(root.tag, root.pos):
        out.add((root.tag, root.index))
    elif root.children:
        out.update((c.tag, c.index) for c in root.children if c.terminal and _valid(c.tag, c.pos))
        if not out:
            phrases = [c for c in root.children if c.children and c.kind in kind]
    if not out:
        if phrases:
            for p in phrases:
                _search(p, kind, out)
        else:
            _search(root, None, out, fixed=False)
    if not out:
        out = {(w, i) for i, w in enumerate(ws)}
    return frozenset(out)


def identity_finder(doc):
    """For a key document read with its ``parse`` and ``pos`` columns: a function giving a mention's
    MINA identity ``(sentence, MINA set)``, or ``(sentence, first word, last word)`` when its words
    carry no parse bit. ``None`` when the document has no parse column."""
    bits = doc.columns.get("parse")
    if bits is None or all(b in ("", "-", "_") for b in bits):
        return None
    pos = doc.columns.get("pos") or [""] * len(doc.tokens)
    cache: dict[tuple[int, int], tuple] = {}

    def find(m) -> tuple:
        key = (m.start, m.end)
        got = cache.get(key)
        if got is None:
            s = doc.sentence_of(m.start)
            a, b = doc.sentence_bounds(s)
            if m.end > b:
                got = (s, m.start, m.end)
            else:
                found = mina_set(doc.tokens[a:b + 1], pos[a:b + 1], bits[a:b + 1], m.start - a, m.end - a)
                got = (s, m.start, m.end) if found is None else (s, found)
            cache[key] = got
        return got

    return find


def canonical_pair(key, response):
    """``key`` and ``response`` (Documents) with every mention replaced by the first mention of its
    MINA identity on its side (:func:`identity_finder`; in chain order), except response mentions
    with a key mention's identity, which the alignment gives that key mention's words (and marks as
    matched by ``mina``): mentions coval holds equal then have equal words. ``None`` when the key
    has no parse."""
    from dataclasses import replace

    from ..model import Chain, Mention

    find = identity_finder(key)
    if find is None:
        return None
    first: dict = {}
    keyed: set = set()

    def canon(m):
        ident = find(m)
        if ident in keyed:  # a response mention with a key mention's identity: the alignment moves it
            return m
        c = first.setdefault(ident, m)
        if c is m or (c.start == m.start and c.end == m.end and c.words == m.words):
            return m
        return Mention(c.start, c.end, m.label, m.line, m.features, c.words)

    def side(doc):
        return replace(doc, chains=[Chain(ch.label, [canon(m) for m in ch.mentions]) for ch in doc.chains])

    key = side(key)
    keyed.update(first)
    return key, side(response)
