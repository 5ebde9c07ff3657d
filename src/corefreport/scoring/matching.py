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
  word, number of words) and the maximum-weight assignment ``scipy.optimize.linear_sum_assignment``
  returns on that score matrix is taken (pairs with score 0 are not matches), exactly as
  corefud-scorer, so ties fall the same way (scipy's algorithm, :mod:`corefreport.lsap`);
* with ``singletons="drop"`` one-mention chains are removed before matching (as the scorer does);
* every mention says how it was matched (feature ``match``, :data:`MATCH_KINDS`): the drill
  dimension of ``--by match``;
* a response mention that is left unmatched but has a key mention's words (head matching, other
  head) stays a different mention: its ``words`` get a ``-1`` marker so its identity differs.

>>> from ..model import Chain, Document, Mention
>>> key = Document("d", tokens=list("abcde"), chains=[Chain("k", [Mention(0, 2, "k", features={"head": "1"})])])
>>> resp = Document("d", tokens=list("abcde"), chains=[Chain("r", [Mention(1, 1, "r")])])
>>> [m.span for m in match_documents(key, resp, "partial")[1].mentions]
[(0, 2)]
>>> [m.span for m in match_documents(key, resp, "head")[1].mentions]  # its one word is the key's head
[(0, 2)]
"""

from __future__ import annotations

from dataclasses import replace

from ..model import Chain, Document, Mention
from .counts import Counts

MATCHES = ("exact", "head", "partial", "min", "craft", "mina")
"""``--match``: ``min`` and ``craft`` are the Universal Anaphora minimum spans (``Min=``) and CRAFT's
partial variant (:mod:`.minspan`); ``mina`` coval's MINA minimum spans from the key's parse
(:mod:`.mina`)."""


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


def head_finder(doc: Document):
    """For a document from a format without CorefUD head fields (CoNLL-2012, JSON lines …): a function
    giving a mention's head — its ``head`` feature if it has one, else :func:`.features.find_head`:
    the first word whose dependency HEAD lies outside the mention, else the last noun-like word before
    a verb or preposition (by POS), else the last word. The document's columns are read once."""
    from .features import DEFAULT_RULES, MISSING_TAGS, pos_head

    cols: list = []  # [HEAD as ints or None, POS or None], read at the first mention that needs them
    headlike, stop = DEFAULT_RULES.headlike_pos, DEFAULT_RULES.stop_pos

    def columns() -> list:
        if not cols:
            hint = None
            if "head" in doc.columns:
                hint = []
                for v in doc.columns["head"]:
                    try:
                        hint.append(int(v))
                    except ValueError:
                        hint.append(None)
            pos = None
            for name in ("upos", "pos"):
                if name in doc.columns:
                    col = doc.columns[name]
                    if col and not all(v in MISSING_TAGS for v in col):
                        pos = col
                        break
            cols.extend((hint, pos))
        return cols

    def find(m: Mention) -> int:
        h = m.features.get("head")
        if h is not None and h.lstrip("-").isdigit():
            return int(h)
        s, e = m.start, m.end
        if s == e:  # a one-word mention is its own head under every branch below
            return e
        hint, pos = columns()
        if hint is not None:
            for t in range(s, e + 1):
                v = hint[t] if t < len(hint) else None
                if v is not None and (v < s or v > e):
                    return t
        if pos is None:
            return e
        return pos_head(pos, s, e, headlike, stop)

    return find


class _Info:
    """A remaining mention of step 2: its head and identity; its word set made when first needed."""

    __slots__ = ("m", "head", "ident", "_words")

    def __init__(self, m: Mention, ident: tuple, head) -> None:
        self.m = m
        self.head = head
        self.ident = ident
        self._words: frozenset[int] | None = None

    @property
    def words(self) -> frozenset[int]:
        """The mention's word set (made at the first use: most remaining mentions have no candidate)."""
        ws = self._words
        if ws is None:
            ws = self._words = self.m.word_set
        return ws

    @property
    def order(self) -> tuple[int, int, int]:
        """The scorer's sort key: first word, last word, number of words."""
        m = self.m
        if m.words is None:
            return (m.start, m.end, m.end - m.start + 1)
        ws = self.words
        return (min(ws), max(ws), len(ws))


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


def _lsa(sim: list[list[float]]) -> list[tuple[int, int]]:
    """The pairs of positive score in the maximum-weight assignment of ``sim`` (rows: key mentions,
    columns: response mentions) that ``linear_sum_assignment(-sim)`` returns, as corefud-scorer
    solves it (``scorer/base/reader.py`` 118–121; :func:`corefreport.lsap.assign`)."""
    from ..lsap import assign

    return [(a, b) for a, b in assign(sim) if sim[a][b] > 0]


def _mentions(doc: Document | None, drop_singletons: bool) -> list[Mention]:
    if doc is None:
        return []
    return [m for c in doc.chains if not (drop_singletons and len(c.mentions) == 1) for m in c.mentions]


def alignment(key: Document, response: Document, mode: str, drop_singletons: bool = False,
              zero_match: str = "linear", key_head=head_of, response_head=head_of,
              same_heads: bool = False) -> dict[int, Mention]:
    """The 1-to-1 alignment: ``id`` of each matched response mention → the key mention it is matched
    to (a mention repeated in the document is matched, or not, with its first copy).

    ``same_heads``: key and response heads come from one rule on identical columns, so mentions with
    the same words have the same head and step 1 need not compute heads (speed only)."""
    by_ident, rids, rms = _by_ident(key, response, mode, drop_singletons, zero_match, key_head,
                                    response_head, same_heads)
    return {id(m): by_ident[i] for i, m in zip(rids, rms) if i in by_ident}


def _by_ident(key: Document, response: Document, mode: str, drop_singletons: bool, zero_match: str,
              key_head, response_head, same_heads: bool
              ) -> tuple[dict[tuple, Mention], list[tuple], list[Mention]]:
    """:func:`alignment` by identity: (response identity → key mention, the identity of each
    response mention taking part, those mentions).
    Identities are ``Mention.ident``, with the head under head matching unless ``same_heads``."""
    kms, rms = _mentions(key, drop_singletons), _mentions(response, drop_singletons)
    if mode == "head" and not same_heads:
        kids = [(m.ident, key_head(m)) for m in kms]
        rids = [(m.ident, response_head(m)) for m in rms]
    else:  # Mention.ident, inline: this runs for every mention of the corpus
        kids = [(m.start, m.end) if m.words is None else (m.start, m.end, m.words) for m in kms]
        rids = [(m.start, m.end) if m.words is None else (m.start, m.end, m.words) for m in rms]
    kmap, rmap = _first_of(kids, kms), _first_of(rids, rms)
    if mode == "mina":  # coval's MINA identity, from the key's parse, on both sides (scoring/mina.py)
        return _mina_by_ident(key, kmap, rmap), rids, rms
    by_ident: dict[tuple, Mention] = {}
    used: set[tuple] = set()
    if zero_match == "dependent":  # step 0: zeros by their dependencies (scorer/base/reader.py 130-138)
        kz = sorted((_Info(m, i, None) for i, m in kmap.items() if is_zero(m)), key=lambda x: x.order)
        rz = sorted((_Info(m, i, None) for i, m in rmap.items() if is_zero(m)), key=lambda x: x.order)
        if kz and rz:
            sim = [[zero_score(k.m, r.m) for r in rz] for k in kz]
            for a, b in _lsa(sim):
                by_ident[rz[b].ident] = kz[a].m
                used.add(kz[a].ident)
    if by_ident:
        for i in rmap:
            if i in kmap and i not in by_ident and i not in used:
                by_ident[i] = kmap[i]
                used.add(i)
    else:  # the same, without zeros matched first
        by_ident = {i: kmap[i] for i in rmap if i in kmap}
        used = set(by_ident)
    if mode in ("min", "craft"):  # Universal Anaphora minimum spans (scoring/minspan.py)
        from .minspan import min_step

        min_step([_Info(m, i, None) for i, m in kmap.items() if i not in used],
                 [_Info(m, i, None) for i, m in rmap.items() if i not in by_ident], by_ident, mode)
    elif mode != "exact":
        if mode == "head" and not same_heads:  # the identities hold the heads step 1 computed
            ks = [_Info(m, i, i[1]) for i, m in kmap.items() if i not in used]
            rs = [_Info(m, i, i[1]) for i, m in rmap.items() if i not in by_ident]
        else:
            ks = [_Info(m, i, key_head(m)) for i, m in kmap.items() if i not in used]
            rhead = response_head if mode == "head" else (lambda m: None)  # partial: response heads unused (rule 7)
            rs = [_Info(m, i, rhead(m)) for i, m in rmap.items() if i not in by_ident]
        _partial_step(ks, rs, by_ident, mode)
    return by_ident, rids, rms


def _first_of(idents: list[tuple], mentions: list[Mention]) -> dict[tuple, Mention]:
    """Each identity → the first of ``mentions`` that has it, in the order of first occurrence."""
    out = dict(zip(idents, mentions))
    if len(out) != len(mentions):  # a mention repeated: its first copy stands for it
        out = {}
        for i, m in zip(idents, mentions):
            out.setdefault(i, m)
    return out


def _partial_step(ks: list[_Info], rs: list[_Info], out: dict, mode: str) -> None:
    """Step 2 (head / partial-corefud): the maximum-weight 1-to-1 assignment over the mentions left,
    sorted as the scorer sorts them, on |K ∩ R| / |K| where the pair is allowed. The matrix holds
    every remaining mention, as the scorer's does (zero rows and columns included: dropping them
    can change which of several equally good assignments the solver returns); only the allowed
    pairs are visited (by head, or by the words covering the key's head), not all of them."""
    if not ks or not rs:
        return
    if mode == "head":
        rheads: dict = {}
        for r in rs:
            rheads.setdefault(r.head, []).append(r)
        cand = {id(k): [r for r in rheads.get(k.head, ())] for k in ks}
    else:
        covering: dict = {}
        for r in rs:
            for w in r.words:
                covering.setdefault(w, []).append(r)
        cand = {id(k): [r for r in covering.get(k.head, ()) if r.words <= k.words] for k in ks}
    if not any(cand.values()):
        return
    ks.sort(key=lambda i: i.order)
    rs.sort(key=lambda i: i.order)
    col = {id(r): b for b, r in enumerate(rs)}
    sim = [[0.0] * len(rs) for _ in ks]
    for a, k in enumerate(ks):
        kw, n = k.words, len(k.words)
        row = sim[a]
        for r in cand[id(k)]:
            row[col[id(r)]] = len(kw & r.words) / n
    for a, b in _lsa(sim):
        out[rs[b].ident] = ks[a].m


def _mina_by_ident(key: Document, kmap: dict[tuple, Mention], rmap: dict[tuple, Mention]) -> dict[tuple, Mention]:
    """``--match mina``: response identity → the first key mention whose (sentence, MINA set), both
    computed from the key's parse bits, equals the response mention's (:mod:`.mina`)."""
    from ..errors import InputError
    from .mina import identity_finder

    if not kmap and not rmap:
        return {}
    find = identity_finder(key)
    if find is None:
        raise InputError(key.source or key.doc_id, key.line or None, f"--match mina needs the key's constituency "
                         f"parse (CoNLL-2012 column 6, the parse bits); document {key.doc_id!r} has none")
    by_mina: dict[tuple, Mention] = {}
    for m in kmap.values():
        by_mina.setdefault(find(m), m)
    out = {}
    for i, m in rmap.items():
        k = by_mina.get(find(m))
        if k is not None:
            out[i] = k
    return out


def _kind(k: Mention, r: Mention, mode: str) -> str:
    if k.start == r.start and k.end == r.end and k.words == r.words:
        return "exact"
    if k.word_set == r.word_set:
        return "exact"
    if is_zero(k) and is_zero(r):
        return "zero"
    return mode


def _span_text(doc: Document, m: Mention) -> tuple[str, str]:
    words = sorted(w for w in m.word_set if w == int(w))
    span = f"{m.start}-{m.end}" if len(words) == m.end - m.start + 1 else ",".join(str(int(w)) for w in words)
    return span, " ".join(doc.tokens[int(w)] for w in words if 0 <= w < len(doc.tokens))


def match_documents(key: Document, response: Document, mode: str, drop_singletons: bool = False,
                    zero_match: str = "linear", key_head=head_of, response_head=head_of,
                    same_heads: bool = False, annotate: bool = True) -> tuple[Document, Document]:
    """Copies of ``key`` and ``response`` for scoring after matching (``--match`` head or partial,
    or ``--zero-match dependent``):

    * a response mention matched to a key mention carries that key mention's words (and head);
    * every mention of both copies carries the feature ``match`` (:data:`MATCH_KINDS`: how it was
      matched — words identical, same head, partial, a zero by its dependencies — or ``unmatched``),
      the drill dimension of ``--by match``; a matched mention whose response span differs from the
      key span also carries ``response_span`` (``start-end``, 0-based tokens, or the word list of a
      discontinuous mention) and ``response_text``: what the response actually wrote.

    ``key_head`` / ``response_head`` give a mention's head (default :func:`head_of`; for formats
    without head fields, :func:`head_finder`); ``same_heads``: see :func:`alignment`. With
    ``annotate=False`` (no outcome rows will be built) the ``match`` features are left out and the
    key is returned as it is.
    """
    if mode == "mina":  # coval's identity: mentions with one MINA set are one mention (scoring/mina.py)
        from ..errors import InputError
        from .mina import canonical_pair

        pair = canonical_pair(key, response)
        if pair is None:
            raise InputError(key.source or key.doc_id, key.line or None, f"--match mina needs the key's "
                             f"constituency parse (CoNLL-2012 column 6, the parse bits); document {key.doc_id!r} "
                             "has none")
        key, response = pair
    marks = mode == "head" or zero_match == "dependent"
    matched = alignment(key, response, mode, drop_singletons, zero_match, key_head, response_head, same_heads)
    key_sets = {m.ident for m in key.mentions} if marks else set()
    if not annotate:
        return key, replace(response, chains=[Chain(c.label, [_moved(m, matched.get(id(m)), key_sets) for m in c.mentions])
                                              for c in response.chains])
    how: dict[int, dict[str, str]] = {}
    unmatched = {"match": "unmatched"}
    chains = []
    for c in response.chains:
        ms = []
        for m in c.mentions:
            k = matched.get(id(m))
            if k is not None:
                extra = {"match": _kind(k, m, mode)}
                if extra["match"] != "exact":
                    extra["response_span"], extra["response_text"] = _span_text(response, m)
                how.setdefault(id(k), extra)
                feats = {**m.features, **extra}
                if "head" in k.features:
                    feats["head"] = k.features["head"]
                m = Mention(k.start, k.end, m.label, m.line, feats, k.words)
            else:
                words = m.words
                if key_sets and m.ident in key_sets:
                    words = tuple(sorted(m.word_set)) + (-1,)
                m = Mention(m.start, m.end, m.label, m.line, {**m.features, **unmatched}, words)
            ms.append(m)
        chains.append(Chain(c.label, ms))
    kchains = [Chain(c.label, [Mention(m.start, m.end, m.label, m.line, {**m.features, **how.get(id(m), unmatched)},
                                       m.words) for m in c.mentions]) for c in key.chains]
    return replace(key, chains=kchains), replace(response, chains=chains)


def _moved(m: Mention, k: Mention | None, key_sets: set) -> Mention:
    """Response mention ``m`` as the metrics must see it, without the ``match`` features: the key
    mention's words (and head) when matched to one, a marked identity when it has a key mention's
    words but was not matched to it (head matching), else ``m`` itself."""
    if k is not None:
        if k.start == m.start and k.end == m.end and k.words == m.words and k.features.get("head") == m.features.get("head"):
            return m
        feats = m.features
        if "head" in k.features:
            feats = {**feats, "head": k.features["head"]}
        return Mention(k.start, k.end, m.label, m.line, feats, k.words)
    if key_sets and m.ident in key_sets:
        return Mention(m.start, m.end, m.label, m.line, m.features, tuple(sorted(m.word_set)) + (-1,))
    return m


def drop_document_zeros(doc: Document) -> Document:
    """``doc`` without zero mentions (:func:`is_zero`); chains left empty are dropped (``doc``
    itself when it has no zero)."""
    if not any(is_zero(m) for m in doc.mentions):
        return doc
    chains = [Chain(c.label, [m for m in c.mentions if not is_zero(m)]) for c in doc.chains]
    return replace(doc, chains=[c for c in chains if c.mentions])


def match_pair(kd: Document, rd: Document, key_format: str, response_format: str, mode: str,
               drop_singletons: bool = False, zero_match: str = "linear",
               annotate: bool = True) -> tuple[Document, Document]:
    """:func:`match_documents` on one key document and its response, read from files of
    ``key_format`` and ``response_format`` (the whole-corpus and the streamed runs both call it).

    Heads of mentions of a format without CorefUD head fields (CoNLL-2012, JSON lines, WebAnno)
    come from :func:`head_finder` on the **key** document's columns, for response mentions too
    (rule 3a): the same words then have the same head, whatever the response file's own POS (or
    its lack of any) — a response with the key's very spans is matched exactly under every mode."""
    rule = head_finder(kd) if key_format not in HEADED or response_format not in HEADED else None
    kh = rule if key_format not in HEADED else head_of
    rh = head_of
    if response_format not in HEADED:
        # the key's columns, where the documents have the same tokens (else align reports it)
        rh = rule if len(rd.tokens) == len(kd.tokens) else head_finder(rd)
    same = kh is rh and kh is not head_of  # one rule on the key's columns: step 1 compares words only
    return match_documents(kd, rd, mode, drop_singletons, zero_match, kh, rh, same, annotate)


HEADED = ("conllu",)
"""The input formats whose mentions carry their head (CorefUD's ``Entity=…`` head index); every
other format's heads come from rule 3a (:func:`head_finder`)."""


def formats_by_rule(key_format: str, response_format: str) -> list[str]:
    """:func:`heads_by_rule` from the two formats."""
    return sorted({f or "unknown" for f in (key_format, response_format) if f not in HEADED})


def ruled_formats(match: str, formats: tuple[str, str]) -> list[str]:
    """The formats (key's, response's) whose heads come from rule 3a under ``match``: none when the
    mode does not match by heads (``exact``, ``min``, ``craft``, ``mina``), else :func:`formats_by_rule`."""
    return formats_by_rule(*formats) if match not in ("exact", "min", "craft", "mina") else []


def heads_warning(match: str, ruled: list[str]) -> str:
    """The warning of a run whose heads come from rule 3a (``ruled``: :func:`heads_by_rule`)."""
    return (f"--match {match}: {' and '.join(ruled)} mentions carry no head (only CorefUD CoNLL-U writes one); "
            "their heads come from the key's columns by corefreport's rule: the first word whose dependency "
            "HEAD lies outside the mention, else the last noun before a verb or preposition, else the last "
            "word (docs/matching.md rule 3a; signature heads:rule)")


