"""Mention matching (corefud-scorer v1.2): map response mentions onto key mentions before scoring.

``--match exact|head|partial`` decides which response mention *is* which key mention. The step
runs before :mod:`.align`: it returns a copy of the response corpus in which every response
mention matched to a key mention carries that key mention's words (``start``, ``end``, ``words``),
so every metric and every analysis downstream sees matched mentions as identical spans. The rules
and the corefud-scorer source lines they come from are in ``docs/matching.md``:

* the words of a mention are a set (discontinuous mentions included); its head is the ``head``
  field of its CorefUD ``Entity`` bracket, else its first word (Udapi ``CorefMention.__init__``);
* **exact**: same word set. **head**: same word set *and* head are matched first; then mentions
  with the same head, scored |K ∩ R| / |K|. **partial**: same word set first; then a response
  whose words all lie in the key mention and include the key mention's head, scored |R| / |K|;
* the alignment is 1-to-1: remaining key and response mentions are sorted by (first word, last
  word, number of words) and the maximum-weight assignment of ``scipy.optimize.linear_sum_assignment``
  on that score matrix is taken (pairs with score 0 are not matches), exactly as corefud-scorer,
  so ties fall the same way;
* with ``singletons="drop"`` one-mention chains are removed before matching (as the scorer does);
* a response mention that is left unmatched but has a key mention's words (head matching, other
  head) stays a different mention: its ``words`` get a ``-1`` marker so its identity differs.

>>> from ..model import Chain, Document, Mention
>>> key = Document("d", tokens=list("abcde"), chains=[Chain("k", [Mention(0, 2, "k", features={"head": "1"})])])
>>> resp = Document("d", tokens=list("abcde"), chains=[Chain("r", [Mention(1, 1, "r")])])
>>> [m.span for m in match_document(key, resp, "partial").mentions]
[(0, 2)]
>>> [m.span for m in match_document(key, resp, "exact").mentions]
[(1, 1)]
"""

from __future__ import annotations

from dataclasses import replace

from ..model import Chain, Corpus, Document, Mention
from .counts import Counts

MATCHES = ("exact", "head", "partial")


def ident_words(ident: tuple) -> frozenset[int]:
    """The words of a mention identity as :mod:`.align` builds chains (``Mention.ident``)."""
    if len(ident) > 2:
        return frozenset(w for w in ident[2] if w >= 0)
    return frozenset(range(ident[0], ident[1] + 1))


def mention_overlap(key: list[list[tuple]], response: list[list[tuple]], ct=None) -> Counts:
    """MOR, the mention overlap ratio (Žabokrtský et al. 2022; corefud-scorer
    ``scorer/eval/evaluator.py`` ``mention_overlap``, lines 317–373): key and response mentions are
    swept in document order into groups of overlapping spans; in each group key and response
    mentions are paired 1-to-1 to maximise the words they share (Σ ov). R = Σ ov / Σ |K|,
    P = Σ ov / Σ |R|, over *unmatched* mentions (it ignores ``--match``, as the scorer does).

    >>> mention_overlap([[(0, 3)], [(5, 5)]], [[(1, 3), (5, 6)]])
    Counts(recall_num=4.0, recall_den=5, precision_num=4.0, precision_den=5)
    """
    from .assignment import max_assignment

    items = [(ident_words(i), True) for c in key for i in c] + [(ident_words(i), False) for c in response for i in c]
    items.sort(key=lambda x: (min(x[0]), max(x[0]), len(x[0])))
    total = 0.0
    group: list = []
    rbound = None

    def flush() -> float:
        ks = [w for w, is_key in group if is_key]
        rs = [w for w, is_key in group if not is_key]
        if not ks or not rs:
            return 0.0
        return max_assignment([[float(len(k & r)) for r in rs] for k in ks])

    for words, is_key in items:
        if rbound is not None and min(words) > rbound:
            total += flush()
            group, rbound = [], None
        group.append((words, is_key))
        rbound = max(words) if rbound is None else max(rbound, max(words))
    total += flush()
    kd = sum(len(w) for w, is_key in items if is_key)
    rd = sum(len(w) for w, is_key in items if not is_key)
    return Counts(total, kd, total, rd)


def head_of(m: Mention) -> int:
    """The head word of a mention: its ``head`` feature (document token index from the CorefUD
    bracket, or set by :func:`with_heads`), else its first word, as Udapi does when a bracket has
    no head index (``udapi/core/coref.py``, ``CorefMention.__init__``)."""
    z = m.features.get("zero_head")
    if z is not None:
        return float(z)
    h = m.features.get("head")
    if h is not None and h.lstrip("-").isdigit():
        return int(h)
    return m.words[0] if m.words else m.start


def is_zero(m: Mention) -> bool:
    """A zero: a mention whose head is an empty node (corefud-scorer ``scorer/corefud/mention.py`` 67)."""
    return "zero_head" in m.features


def _zero_deps(m: Mention) -> set[tuple[float, str]]:
    out = set()
    for item in m.features.get("zero_deps", "").split("|"):
        p, sep, r = item.partition(":")
        if sep:
            out.add((float(p), r))
    return out


def _f(a: set, b: set) -> float:
    common = len(a & b)
    if not common:
        return 0.0
    p, r = common / len(a), common / len(b)
    return 2 * p * r / (p + r)


def zero_score(k: Mention, r: Mention) -> float:
    """``--zero-match dependent`` (corefud-scorer ``scorer/corefud/mention.py`` 91–113): 0 unless
    both zeros are in one sentence; else 10 × F1 of their (parent, relation) DEPS pairs + F1 of their
    parents."""
    if k.features.get("zero_sentence") != r.features.get("zero_sentence"):
        return 0.0
    kd, rd = _zero_deps(k), _zero_deps(r)
    return 10 * _f(kd, rd) + _f({p for p, _ in kd}, {p for p, _ in rd})


def with_heads(doc: Document) -> Document:
    """A copy of a document from a format without CorefUD head fields (CoNLL-2012, JSON lines …)
    whose mentions without a ``head`` get the head of :func:`.features.find_head`: the first word
    whose dependency HEAD lies outside the mention, else the last noun-like word before a verb or
    preposition (by POS), else the last word."""
    from .features import find_head

    chains = []
    for c in doc.chains:
        ms = [m if "head" in m.features else
              Mention(m.start, m.end, m.label, m.line, {**m.features, "head": str(find_head(doc, m))}, m.words)
              for m in c.mentions]
        chains.append(Chain(c.label, ms))
    return replace(doc, chains=chains)


class _Info:
    """A mention's word set, head, scorer identity and sort order, computed once."""

    __slots__ = ("m", "words", "head", "ident", "order")

    def __init__(self, m: Mention, mode: str) -> None:
        self.m = m
        self.head = head_of(m)
        self.ident = _ident(m, mode, self.head)

    def prepare(self) -> "_Info":
        """Word set and sort order (first word, last word, number of words), for step 2 only."""
        self.words = ws = self.m.word_set
        self.order = (min(ws), max(ws), len(ws))
        return self


def _ident(m: Mention, mode: str, head: int | None = None) -> tuple:
    """Equality of two mentions in step 1 of the scorer: the word set (``Mention.ident`` names it
    uniquely: a span, or the sorted words of a discontinuous mention); in head mode also the head."""
    return (m.ident, head_of(m) if head is None else head) if mode == "head" else (m.ident,)


def score(k: Mention, r: Mention, mode: str) -> float:
    """Match score of key mention ``k`` and response mention ``r`` (0: no match)."""
    kw, rw = k.word_set, r.word_set
    if mode == "head":
        if head_of(k) == head_of(r):
            return len(kw & rw) / len(kw)
        return 0.0
    if mode == "partial":
        if head_of(k) in rw and rw <= kw:
            return len(kw & rw) / len(kw)
        return 0.0
    return 1.0 if kw == rw else 0.0


def _mentions(doc: Document | None, drop_singletons: bool) -> list[Mention]:
    if doc is None:
        return []
    return [m for c in doc.chains if not (drop_singletons and len(c.mentions) == 1) for m in c.mentions]


def _lsa(sim):
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(-sim)
    return [(a, b) for a, b in zip(rows, cols) if sim[a, b] > 0]


def alignment(key: Document, response: Document, mode: str, drop_singletons: bool = False,
              zero_match: str = "linear") -> dict[tuple, Mention]:
    """The 1-to-1 alignment: response identity (:func:`_ident`) → the key mention it is matched to."""
    kmap: dict[tuple, _Info] = {}
    for m in _mentions(key, drop_singletons):
        i = _Info(m, mode)
        kmap.setdefault(i.ident, i)
    rmap: dict[tuple, _Info] = {}
    for m in _mentions(response, drop_singletons):
        i = _Info(m, mode)
        rmap.setdefault(i.ident, i)
    out: dict[tuple, Mention] = {}
    used: set[tuple] = set()
    if zero_match == "dependent":  # step 0: zeros by their dependencies (scorer/base/reader.py 316-325)
        kz = sorted((i.prepare() for i in kmap.values() if is_zero(i.m)), key=lambda i: i.order)
        rz = sorted((i.prepare() for i in rmap.values() if is_zero(i.m)), key=lambda i: i.order)
        if kz and rz:
            import numpy as np

            sim = np.array([[zero_score(k.m, r.m) for r in rz] for k in kz])
            for a, b in _lsa(sim):
                out[rz[b].ident] = kz[a].m
                used.add(kz[a].ident)
    for i in rmap:
        if i in kmap and i not in out and i not in used:
            out[i] = kmap[i].m
            used.add(i)
    if mode == "exact":
        return out
    ks = sorted((i.prepare() for i in kmap.values() if i.ident not in used), key=lambda i: i.order)
    rs = sorted((i.prepare() for i in rmap.values() if i.ident not in out), key=lambda i: i.order)
    if not ks or not rs:
        return out
    import numpy as np

    sim = np.zeros((len(ks), len(rs)))
    any_pair = False
    for a, k in enumerate(ks):
        kw, kh = k.words, k.head
        n = len(kw)
        for b, r in enumerate(rs):
            if mode == "head":
                if r.head != kh:
                    continue
            elif kh not in r.words or not r.words <= kw:
                continue
            sim[a, b] = len(kw & r.words) / n
            any_pair = True
    if not any_pair:
        return out
    for a, b in _lsa(sim):
        out[rs[b].ident] = ks[a].m
    return out


def match_document(key: Document, response: Document, mode: str, drop_singletons: bool = False,
                   zero_match: str = "linear") -> Document:
    """A copy of ``response`` whose mentions matched to key mentions carry those key mentions' words."""
    if mode == "exact" and zero_match == "linear":
        return response
    matched = alignment(key, response, mode, drop_singletons, zero_match)
    key_sets = {m.ident for m in key.mentions} if mode == "head" else set()
    chains = []
    for c in response.chains:
        ms = []
        for m in c.mentions:
            k = matched.get(_ident(m, mode))
            if k is not None:
                if k.start != m.start or k.end != m.end or k.words != m.words or mode == "head":
                    feats = dict(m.features)
                    if "head" in k.features:
                        feats["head"] = k.features["head"]
                    m = Mention(k.start, k.end, m.label, m.line, feats, k.words)
            elif key_sets and m.ident in key_sets:
                m = Mention(m.start, m.end, m.label, m.line, m.features, tuple(sorted(m.word_set)) + (-1,))
            ms.append(m)
        chains.append(Chain(c.label, ms))
    return replace(response, chains=chains)


def drop_zeros(corpus: Corpus) -> Corpus:
    """A copy of ``corpus`` without zero mentions (:func:`is_zero`); chains left empty are dropped
    (corefud-scorer's ``keep_zeros=False``, ``scorer/corefud/reader.py`` 80–93)."""
    docs = {}
    for i, d in corpus.documents.items():
        if any(is_zero(m) for m in d.mentions):
            chains = [Chain(c.label, [m for m in c.mentions if not is_zero(m)]) for c in d.chains]
            d = replace(d, chains=[c for c in chains if c.mentions])
        docs[i] = d
    return replace(corpus, documents=docs)


def match_corpus(key: Corpus, response: Corpus, mode: str, drop_singletons: bool = False,
                 zero_match: str = "linear") -> Corpus:
    """:func:`match_document` on every response document paired with a key document."""
    from .align import pair_documents

    pairs, _, _ = pair_documents(key, response)
    docs = dict(response.documents)
    for kd, rd in pairs:
        if rd is not None:
            if key.format != "conllu":
                kd = with_heads(kd)
            if response.format != "conllu":
                rd = with_heads(rd)
            docs[rd.doc_id] = match_document(kd, rd, mode, drop_singletons, zero_match)
    return replace(response, documents=docs)
