"""Mention features: type NAME / NOMINAL / PRONOUN, head, POS class, lemma, NE type, sentence, genre.

The rules (documented in docs/formats.md, configurable through :class:`TypingRules`):

* **Head**: when the input has a dependency head per token (CoNLL-U), the mention token whose head
  lies outside the mention; otherwise the last noun-like token (POS ``NN*``/``PRP*``/``CD``, UPOS
  ``NOUN``/``PROPN``/``PRON``/``NUM``) before the first preposition, relative pronoun, verb or comma
  that follows a noun; otherwise the last token.
* **Type** (first rule that applies):
  1. PRONOUN — a one-token mention whose POS is a pronoun tag (``PRP``, ``PRP$``, ``WP``, ``WP$``,
     UPOS ``PRON``) or, without POS, whose word is an English pronoun (closed-class list);
  2. NAME — the head's POS is a proper-noun tag (``NNP``, ``NNPS``, UPOS ``PROPN``), or, in input
     without POS, an NE span of the NE column covers the head, or (a POS column of ``_``/``-``
     placeholders and no NE column) the head is capitalised and not the first word of its
     sentence (with POS the NE column is not used:
     GUM's NE column types every mention, "the prevalence" included);
  3. NOMINAL — everything else (common-noun phrases, and multi-token mentions such as "his own").
  On the Chen & Ng (2013) §4.1 example this gives Jesus, Jerusalem NAME; "the city", "your enemies"
  NOMINAL; he, it, I, you, your, They PRONOUN.
* **Missing POS.** ``_``, ``-`` or an empty cell in the POS/UPOS column is a missing tag, not a
  tag (LitBank's CoNLL files hold ``_`` everywhere): such mentions are typed from the word as above;
  :func:`lacks_pos` detects it, ``evaluate`` warns once and the signature says ``pos:missing``.
* **POS class** (ARCS, Tuggener 2014): ``NOUN`` for multi-token mentions and one-token nouns
  (NN, NNS, NNP, NNPS), else the POS tag itself (PRP, PRP$, DT, …).
* **lemma**: the head's lemma (or lower-cased word); **pronoun**: the lower-cased word of a pronoun.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field, replace
from itertools import compress

from ..model import Chain, Document, Mention, Span

ENGLISH_PRONOUNS = frozenset(
    """i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself
    she her hers herself it its itself they them their theirs themselves one oneself this that these those
    who whom whose which what""".split()
)


@dataclass(frozen=True)
class TypingRules:
    """POS tag sets that decide a mention's type; change them for other tag sets or languages."""

    pronoun_pos: frozenset[str] = frozenset({"PRP", "PRP$", "WP", "WP$", "PRON"})
    name_pos: frozenset[str] = frozenset({"NNP", "NNPS", "PROPN"})
    noun_pos: frozenset[str] = frozenset({"NN", "NNS", "NNP", "NNPS"})
    headlike_pos: frozenset[str] = frozenset(
        {"NN", "NNS", "NNP", "NNPS", "PRP", "PRP$", "CD", "NOUN", "PROPN", "PRON", "NUM"}
    )
    stop_pos: frozenset[str] = frozenset({"IN", "TO", "WDT", "WP", "WP$", ",", "ADP", "SCONJ", "PUNCT"})
    pronouns: frozenset[str] = field(default=ENGLISH_PRONOUNS)


DEFAULT_RULES = TypingRules()

MISSING_TAGS = frozenset({"", "_", "-"})
"""Values of a POS / UPOS column that mean "no tag" (LitBank's CoNLL files have ``_`` everywhere)."""


def _tag_column(doc: Document, name: str) -> list[str] | None:
    """Column ``name`` of ``doc``, or None when it is absent or holds no real tag at all."""
    col = doc.columns.get(name)
    if not col or (col[0] in MISSING_TAGS and MISSING_TAGS.issuperset(col)):
        return None
    return col


def lacks_pos(doc: Document) -> bool:
    """True when some token of ``doc`` has no POS tag (no POS/UPOS column, or ``_``/``-`` in it):
    such mentions are typed from the word (closed-class pronoun list) and NE column/capitalisation."""
    list(doc.columns)  # the names first: a reader that cuts its columns lazily then cuts them in one pass
    pos, upos = _tag_column(doc, "pos"), _tag_column(doc, "upos")
    if pos is None and upos is None:
        return True
    col = pos if pos is not None else upos
    return not MISSING_TAGS.isdisjoint(col)


def ne_spans(tags: list[str]) -> dict[int, tuple[int, int, str]]:
    """Map each token covered by an NE span of a CoNLL-2012 NE column to (start, end, type).

    The column uses ``(PERSON*``, ``*``, ``*)``, ``(GPE)``; spans do not nest.
    """
    cover: dict[int, tuple[int, int, str]] = {}
    start = -1
    kind = ""
    # only the cells other than "*" matter (most are "*"): find them without a Python step per token
    for i in compress(range(len(tags)), map("*".__ne__, tags)):
        tag = tags[i]
        if not tag or tag in ("-", "_"):
            continue
        if tag.startswith("("):
            kind = tag[1:].rstrip("*)").strip() or "-"
            start = i
        if tag.endswith(")") and start >= 0:
            for t in range(start, i + 1):
                cover[t] = (start, i, kind)
            start = -1
    return cover


def find_head(doc: Document, m: Mention, rules: TypingRules = DEFAULT_RULES) -> int:
    """Head token index of ``m`` (see the module docstring)."""
    heads = doc.columns.get("head")
    if heads:
        for t in range(m.start, m.end + 1):
            try:
                h = int(heads[t])
            except (ValueError, IndexError):
                continue
            if h < m.start or h > m.end:
                return t
    pos = _tag_column(doc, "upos") or _tag_column(doc, "pos")
    if not pos or m.start == m.end:
        return m.end
    return pos_head(pos, m.start, m.end, rules.headlike_pos, rules.stop_pos)


def _capitalised_name(doc: Document, head: int, word: str, rules: TypingRules) -> bool:
    """Without POS and NE tags: a capitalised head that is not a pronoun and not the first word of
    its sentence (where every word is capitalised) is taken for a name."""
    if not word[:1].isupper() or word.lower() in rules.pronouns:
        return False
    return head > 0 and doc.sentence_of(head - 1) == doc.sentence_of(head)


KEPT = ("head", "mtype", "ne")
"""Features a reader may set itself (its value wins over the derived one)."""


def mention_features(doc: Document, rules: TypingRules = DEFAULT_RULES) -> list[dict[str, str]]:
    """The features of every mention of ``doc``, in ``doc.mentions`` order: what the reader gave
    (``m.features``), completed by the derived ones. ``doc`` is not changed.

    A reader's ``head``, ``mtype`` and ``ne`` win over the derived ones; ``ne`` falls back to the
    reader's entity type (``etype``) when no NE span of the NE column covers the head; an extra
    input column ``colN`` gives the value at the mention's last token.
    """
    return _features_of(doc, Derived(doc, rules))


class Derived:
    """The derived features of a document's spans (the rules of the module docstring), each span
    computed once when first asked for. One instance may serve every document whose
    :func:`derivation_inputs` equal its document's (a response that repeats the key's columns)."""

    __slots__ = ("doc", "rules", "spans", "_derive")

    def __init__(self, doc: Document, rules: TypingRules = DEFAULT_RULES) -> None:
        self.doc = doc
        self.rules = rules
        self.spans: dict[Span, dict[str, str]] = {}
        self._derive = None

    @property
    def derive(self):
        """The function computing one mention's derived features (columns looked up once)."""
        if self._derive is None:
            self._derive = _deriver(self.doc, self.rules)
        return self._derive


def _features_of(doc: Document, derived: Derived) -> list[dict[str, str]]:
    """:func:`mention_features` with the derived features of ``derived``."""
    # the names first: a reader that cuts its columns lazily then cuts them all in one pass
    extra = [(k, doc.columns[k]) for k in list(doc.columns) if k.startswith("col")]
    cache = derived.spans
    out = []
    for c in doc.chains:
        spread = spread_bucket(doc, c)
        for m in c.mentions:
            span = (m.start, m.end)
            d = cache.get(span)
            if d is None:
                d = cache[span] = derived.derive(m)
            mf = m.features
            if mf:
                f = dict(mf)
                for k, v in d.items():
                    if k not in KEPT or k not in mf:
                        f[k] = v
                if not f["ne"]:
                    f["ne"] = mf.get("etype", "-") if "ne" not in mf else f["ne"]
            else:
                f = dict(d)
                if not f["ne"]:
                    f["ne"] = "-"
            for k, col in extra:
                if k not in f:
                    f[k] = col[m.end]
            f["spread"] = spread
            out.append(f)
    return out


SPREAD_BUCKETS = ((0, "00"), (2, "01-02"), (9, "03-09"), (None, "10+"))
"""Entity spread buckets, by upper edge: the sentences between an entity's first and last mention
(``00``: one sentence; zero-padded so that the tables, sorted by value, list them in order).
corefreport's edges, in the spirit of the long-range entity analyses (an entity that spans ten
sentences or more is long-range)."""


def spread_bucket(doc: Document, chain) -> str:
    """The :data:`SPREAD_BUCKETS` label of ``chain``'s spread: ``sentence(last) − sentence(first)``
    over its mentions (sentences by ``doc.sentence_starts``; a document without sentence breaks is
    one sentence).

    >>> from corefreport.model import Chain, Mention
    >>> d = Document("d", tokens=["w"] * 40, sentence_starts=[0, 10, 20, 30])
    >>> spread_bucket(d, Chain("a", [Mention(1, 1), Mention(35, 36)])), spread_bucket(d, Chain("b", [Mention(3, 3)]))
    ('03-09', '00')
    """
    starts = doc.sentence_starts
    if not starts or not chain.mentions:
        return SPREAD_BUCKETS[0][1]
    sentences = [bisect_right(starts, m.start) - 1 for m in chain.mentions]
    n = max(sentences) - min(sentences)
    return next(label for edge, label in SPREAD_BUCKETS if edge is None or n <= edge)


def derivation_inputs(doc: Document) -> tuple:
    """Everything of ``doc`` the derived features of a span depend on: two documents with equal
    inputs give every span the same derived features (a response file usually repeats the key's
    words and columns), so one computation serves both."""
    cols = doc.columns
    list(cols)  # the names first: a reader that cuts its columns lazily then cuts them in one pass
    return (doc.genre, doc.tokens, doc.sentence_starts, "pos" in cols or "upos" in cols,
            *(cols.get(k) for k in ("pos", "upos", "lemma", "ne", "head")))


def _deriver(doc: Document, rules: TypingRules):
    """The function giving the derived features of one mention of ``doc`` (the rules of the module
    docstring), with the document's columns, NE spans and sentence starts looked up once."""
    ne_col = doc.columns.get("ne")
    cols = {"pos": _tag_column(doc, "pos"), "upos": _tag_column(doc, "upos"), "lemma": doc.columns.get("lemma"),
            "ne": ne_spans(ne_col) if ne_col else {}, "genre": doc.genre,
            "placeholder_pos": "pos" in doc.columns or "upos" in doc.columns}
    pos, upos, lemma, ne, genre = cols["pos"], cols["upos"], cols["lemma"], cols["ne"], cols["genre"]
    heads = doc.columns.get("head")
    head_pos = upos or pos  # find_head's tag column
    tokens = doc.tokens
    ntok = len(tokens)
    starts = doc.sentence_starts
    headlike, stop_pos = rules.headlike_pos, rules.stop_pos
    pronoun_pos, name_pos, noun_pos, pronouns = rules.pronoun_pos, rules.name_pos, rules.noun_pos, rules.pronouns

    def derive(m: Mention) -> dict[str, str]:
        s, e = m.start, m.end
        one = s == e
        if heads or (head_pos and not one):
            head = find_head(doc, m, rules) if heads else pos_head(head_pos, s, e, headlike, stop_pos)
        else:
            head = e
        word = tokens[head] if 0 <= head < ntok else ""
        hpos = pos[head] if pos else (upos[head] if upos else "-")
        hupos = upos[head] if upos else "-"
        # "_" / "-" is a missing tag, not a tag: type such a mention from its words
        untagged = hpos in MISSING_TAGS and hupos in MISSING_TAGS
        if one and (hpos in pronoun_pos or hupos == "PRON" or (untagged and word.lower() in pronouns)):
            mtype = "PRONOUN"
        elif (hpos in name_pos or hupos == "PROPN"
              or (untagged and (head in ne or (not ne and cols["placeholder_pos"]
                                               and _capitalised_name(doc, head, word, rules))))):
            mtype = "NAME"
        else:
            mtype = "NOMINAL"
        lem = lemma[head] if lemma and lemma[head] not in ("", "-", "_") else word
        span = ne.get(head)
        sentence = (bisect_right(starts, s) - 1 if starts else 0)
        return {
            "head": str(head),
            "head_pos": hpos or "-",
            "mtype": mtype,
            "pos_class": "NOUN" if (not one or hpos in noun_pos) else (hpos or "-"),
            "lemma": lem.lower(),
            "pronoun": word.lower() if mtype == "PRONOUN" else "-",
            "ne": span[2] if span and span[0] >= s and span[1] <= e else "",
            "sentence": str(sentence if sentence > 0 else 0),
            "genre": genre,
        }

    return derive


def pos_head(pos: list[str], start: int, end: int, headlike: frozenset[str], stop_pos: frozenset[str]) -> int:
    """:func:`find_head` from a POS column (no dependency heads), for a mention of several tokens:
    the last head-like word before the first stop word or verb after one, else ``end`` (also the
    rule of head matching, :func:`.matching.head_finder`)."""
    head = -1
    for t in range(start, end + 1):
        p = pos[t]
        if p in headlike:
            head = t
        elif head >= 0 and (p in stop_pos or p.startswith("VB") or p in ("VERB", "AUX")):
            break
    return head if head >= 0 else end


def annotated(doc: Document, rules: TypingRules = DEFAULT_RULES, derived: Derived | None = None) -> Document:
    """A copy of ``doc`` whose mentions carry :func:`mention_features` (tokens and columns are
    shared, mentions are new objects): scoring never writes into the reader's corpus. ``derived``
    may be another document's :class:`Derived` when their :func:`derivation_inputs` are equal."""
    feats = iter(_features_of(doc, derived if derived is not None else Derived(doc, rules)))
    chains = [Chain(c.label, [Mention(m.start, m.end, m.label, m.line, next(feats), m.words) for m in c.mentions])
              for c in doc.chains]
    return replace(doc, chains=chains)
