"""Reader for uCDCR's mention JSON (Zhukova, Ruas, Wahle & Gipp 2026, *Piecing Together
Cross-Document Coreference Resolution Datasets: Systematic Dataset Analysis and Unification*,
arXiv 2603.00621; github.com/anastasia-zhukova/uCDCR, huggingface.co/datasets/AnZhu/uCDCR).

**What users have.** uCDCR gives 12 English CDCR corpora (ECB+, ECB+METAm, WEC-Eng, GVC, FCC-T,
MEANTIME, NewsWCL50r, CD2CR, CEREC, HyperCoref, NiDENT, NP4E) in one format: per split a folder with
``entity_mentions.json`` and ``event_mentions.json``, each one JSON array of *mentions* (WEC-Eng's
format, extended). A mention carries its chain (``coref_chain``, an id global over the corpus), its
document (``doc_id``; ``conll_doc_key`` = ``topic/subtopic/doc``, unique in a dataset), its
``topic``/``topic_id`` and ``subtopic_id``, its context (``mention_context``: about 100 words
either side, whole sentences), where that context lies in the document
(``context_start_end_global_id``: its first and last word, inclusive), the mention's words in the
context (``tokens_number_context``), the sentence it is in (``mention_sentence_start_end``, within
the context), ``mention_type`` (``HUM``, ``ACT`` …), ``coref_type``, ``is_singleton`` and ``split``.

**How it is read.** One :class:`~corefreport.model.Document` per ``conll_doc_key`` (its id): every
context of its mentions laid at its place in the document, so the document's words are those the
contexts cover (a word no context covers is ``""``), its sentences start where a context or a
mention's sentence starts; a mention is its words (``context start + tokens_number_context``),
its chain ``coref_chain``. ``Document.meta`` holds ``topic`` (``topic_id``) and ``subtopic``
(``topic_id/subtopic_id``), which ``--cross-document --topic-from meta:topic|meta:subtopic`` group by
(:mod:`corefreport.scoring.crossdoc`). Each mention keeps ``kind`` — ``entity`` or ``event``, from
its file's name (``entity_mentions.json``, ``event_mentions.json``; ``""`` otherwise) —,
``mention_type`` (also as ``etype``), ``coref_type`` and ``mention_id`` as features: ``--strata
feature:kind`` scores entity and event chains apart. The two files of a split hold the same
documents: :func:`merge` joins a document read from both (:func:`corefreport.io.load_corpus`).

**A response**: a system writes the format with its own chains — in ``coref_chain``, or, as WEC's
code does, in ``predicted_coref_chain`` (read when every mention of the file has one; some with it
and some without is an error naming the first without).

>>> m = {"coref_chain": "HUM1", "doc_id": "10", "topic_id": "12", "subtopic_id": "12ecb", "conll_doc_key": "12/12ecb/10",
...      "mention_context": ["The", "navy", "caught", "pirates", "."], "context_start_end_global_id": [20, 24],
...      "tokens_number_context": [3], "mention_sentence_start_end": [0, 5], "mention_type": "HUM"}
>>> doc = read_ucdcr("val/entity_mentions.json", [m], key=True).documents["12/12ecb/10"]
>>> doc.tokens[20:], [(c.label, [(x.start, x.end, x.features["kind"]) for x in c.mentions]) for c in doc.chains]
(['The', 'navy', 'caught', 'pirates', '.'], [('HUM1', [(23, 23, 'entity')])])
>>> doc.meta["topic"], doc.meta["subtopic"]
('12', '12/12ecb')
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from ..errors import InputError
from ..model import Chain, Corpus, Document, Mention
from .wec import _keys, chain_field_of

FIELDS = ("coref_chain", "mention_context", "context_start_end_global_id", "tokens_number_context")
"""What makes a JSON object a uCDCR mention (besides a document: ``conll_doc_key`` or ``doc_id``)."""
FORMAT = "ucdcr"
"""``Document.meta["format"]`` of a document read here (two files' copies are merged)."""
FEATURES = ("mention_type", "coref_type", "mention_id")


def is_ucdcr(obj: Any) -> bool:
    """Whether ``obj`` (an element of a JSON array) is a uCDCR mention (a WEC-Eng mention lacks the
    context's place in its document)."""
    return isinstance(obj, dict) and all(k in obj for k in FIELDS) and ("conll_doc_key" in obj or "doc_id" in obj)


def kind_of(path: str) -> str:
    """``entity`` or ``event`` from the file's name, as uCDCR names its files (else ``""``)."""
    name = Path(path).name.lower()
    return "entity" if "entity" in name else "event" if "event" in name else ""


def read_ucdcr(path: str, mentions: Iterable[tuple[int, Any]] | list, key: bool = False) -> Corpus:
    """The documents of one uCDCR mention file (``(line, object)`` pairs, or the objects; module
    docstring); every problem an :class:`InputError` naming the line."""
    items = [(i + 1, m) if not isinstance(m, tuple) else m for i, m in enumerate(mentions)]
    field = chain_field_of(path, items, key)
    kind = kind_of(path)
    docs: dict[str, _Doc] = {}
    for ln, m in items:
        if not is_ucdcr(m):
            raise InputError(path, ln, "a uCDCR mention needs 'coref_chain', 'mention_context', "
                             "'context_start_end_global_id', 'tokens_number_context' and 'conll_doc_key' (or "
                             f"'doc_id'); got {_keys(m)}")
        doc_id = _document(m)
        d = docs.get(doc_id)
        if d is None:
            d = docs[doc_id] = _Doc(doc_id, ln, str(m.get("topic_id", m.get("topic", ""))),
                                    str(m.get("subtopic_id", m.get("subtopic", ""))))
        start = d.context(path, ln, m)
        words = m["tokens_number_context"]
        if not isinstance(words, list) or not words or not all(type(x) is int and 0 <= x < len(m["mention_context"])
                                                                for x in words):
            raise InputError(path, ln, "'tokens_number_context' must be word numbers within 'mention_context' "
                             f"({len(m['mention_context'])} words), got {str(words)[:60]}")
        chain = m[field]
        if chain is None or isinstance(chain, (list, dict, bool)):
            raise InputError(path, ln, f"'{field}' must be a cluster id, got {json.dumps(chain)[:40]}")
        label = chain if isinstance(chain, str) else json.dumps(chain)
        at = sorted({start + x for x in words})
        feats = {"kind": kind, **{k: str(m[k]) for k in FEATURES if m.get(k) is not None}}
        if "mention_type" in feats:
            feats["etype"] = feats["mention_type"]
        head = m.get("mention_head_id_context")
        if type(head) is int and start + head in at:
            feats["head"] = str(start + head)
        contiguous = at == list(range(at[0], at[-1] + 1))
        d.chains.setdefault(label, []).append(Mention(at[0], at[-1], label, ln, feats,
                                                      None if contiguous else tuple(at)))
    corpus = Corpus(source=path, format="jsonlines")
    for doc_id, d in docs.items():
        corpus.documents[doc_id] = d.document(path)
    return corpus


def _document(m: dict) -> str:
    key = m.get("conll_doc_key")
    if key not in (None, ""):
        return str(key)
    return "/".join(str(m.get(k, "")) for k in ("topic_id", "subtopic_id", "doc_id"))


class _Doc:
    """A document being read: its words by position, sentence starts, chains."""

    def __init__(self, doc_id: str, line: int, topic: str, subtopic: str) -> None:
        self.doc_id, self.line, self.topic, self.subtopic = doc_id, line, topic, subtopic
        self.words: dict[int, str] = {}
        self.starts: set[int] = {0}
        self.chains: dict[str, list[Mention]] = {}

    def context(self, path: str, ln: int, m: dict) -> int:
        """Lay mention ``m``'s context at its place; its first word's position."""
        ctx, span = m["mention_context"], m["context_start_end_global_id"]
        if not isinstance(ctx, list) or not ctx or not all(isinstance(t, str) for t in ctx):
            raise InputError(path, ln, "'mention_context' must be a non-empty list of words")
        if (not isinstance(span, list) or len(span) != 2 or not all(type(x) is int for x in span) or span[0] < 0
                or span[1] - span[0] + 1 != len(ctx)):
            raise InputError(path, ln, f"'context_start_end_global_id' must be the context's first and last word in "
                             f"the document ({len(ctx)} words), got {json.dumps(span)[:40]}")
        start = span[0]
        for i, w in enumerate(ctx, start):
            had = self.words.setdefault(i, w)
            if had != w:
                raise InputError(path, ln, f"document {self.doc_id!r}: word {i} is {w!r} in this mention's context "
                                 f"but {had!r} in an earlier one")
        self.starts.add(start)
        sentence = m.get("mention_sentence_start_end")
        if isinstance(sentence, list) and sentence and type(sentence[0]) is int and 0 <= sentence[0] < len(ctx):
            self.starts.add(start + sentence[0])
        if isinstance(sentence, list) and len(sentence) == 2 and type(sentence[1]) is int and 0 < sentence[1] < len(ctx):
            self.starts.add(start + sentence[1])
        return start

    def document(self, path: str) -> Document:
        n = max(self.words) + 1
        return Document(self.doc_id, tokens=[self.words.get(i, "") for i in range(n)],
                        sentence_starts=sorted(s for s in self.starts if s < n),
                        chains=[Chain(label, ms) for label, ms in self.chains.items()], source=path, line=self.line,
                        meta={"format": FORMAT, "topic": self.topic, "subtopic": f"{self.topic}/{self.subtopic}"})


def merge(a: Document, b: Document) -> Document:
    """One document of its copies in two files of a split (``entity_mentions.json`` and
    ``event_mentions.json``): the words of both (a word the two give differently is an error), the
    sentence starts of both, the chains of ``a`` then ``b``'s (one chain per label)."""
    n = max(len(a.tokens), len(b.tokens))
    words = []
    for i in range(n):
        x = a.tokens[i] if i < len(a.tokens) else ""
        y = b.tokens[i] if i < len(b.tokens) else ""
        if x and y and x != y:
            raise InputError(b.source, b.line, f"document {a.doc_id!r}: word {i} is {y!r} here but {x!r} in {a.source}")
        words.append(x or y)
    chains = {c.label: Chain(c.label, list(c.mentions)) for c in a.chains}
    for c in b.chains:
        chains.setdefault(c.label, Chain(c.label)).mentions.extend(c.mentions)
    return Document(a.doc_id, tokens=words, sentence_starts=sorted(set(a.sentence_starts) | set(b.sentence_starts)),
                    chains=list(chains.values()), source=a.source, line=a.line, meta=dict(a.meta))


