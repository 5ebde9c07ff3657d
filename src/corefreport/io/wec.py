"""Reader for WEC-Eng (Eirew, Cattan & Dagan 2021, *WEC: Deriving a large-scale cross-document event
coreference dataset from Wikipedia*; github.com/AlonEirew/extract-wec, huggingface.co/datasets/Intel/WEC-Eng).

**What users have.** A split (``Dev_Event_gold_mentions_validated.json``, …) is one JSON array of
*mentions*, not of documents: each mention carries its own context window — ``mention_context``, the
tokenized paragraph around it —, ``tokens_number`` (the mention's token indices in that context),
``doc_id`` (the title of the Wikipedia article the paragraph comes from), ``coref_chain`` (the
cluster: the Wikipedia article the mention links to, an id global over the split) and
``mention_id``; ``topic_id`` is -1 everywhere: there are no topics. The articles themselves are not
in the data: only the paragraphs holding a mention are, so a Wikipedia article cannot be rebuilt as
a document, and within-document coreference of an article is not annotated.

**How it is read.** The whole split is one document (id :data:`DOCUMENT`, so that a key and a
response pair whatever their file names), as WEC's evaluation clusters every mention of a split
together (Eirew et al. 2021, §5: CoNLL F1 over the gold mentions, no topics) — what scoring the
concatenation of the paragraphs as one CoNLL document gives, and ``--cross-document`` would give on
the articles as documents. Each distinct paragraph (an article's identical ``mention_context``
read once, however many mentions it holds) is one sentence; sentences are ordered by article title
and then by their text, so that two files holding the same paragraphs in any order read as the same
words. The ``document`` column names each word's article. A mention is the span from its first to
its last token number (they must be consecutive), its chain the ``coref_chain`` id.

**A response.** WEC's code writes a system's clusters into the gold file as
``predicted_coref_chain`` (``null`` in the released data): a response whose mentions all have one is
read by it (some but not all: an error); otherwise by ``coref_chain`` (a system writing WEC's
format with its own chains). A
response must hold the key's paragraphs (gold mentions, as WEC is evaluated); a key is always read
by ``coref_chain``.

>>> text = json.dumps([
...     {"doc_id": "A", "mention_context": ["The", "war", "ended", "."], "tokens_number": [1],
...      "coref_chain": 7, "mention_id": "1"},
...     {"doc_id": "B", "mention_context": ["After", "the", "World", "War", "..."], "tokens_number": [2, 3],
...      "coref_chain": 7, "mention_id": "2"}])
>>> doc = read_wec("dev.json", json.loads(text), key=True).documents[DOCUMENT]
>>> [[doc.tokens[m.start:m.end + 1] for m in c.mentions] for c in doc.chains]
[[['war'], ['World', 'War']]]
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from ..errors import InputError
from ..model import Chain, Corpus, Document, Mention

DOCUMENT = "WEC"
"""The id of the one document a WEC split is read as."""
FIELDS = ("mention_context", "tokens_number", "coref_chain", "doc_id")
"""What makes a JSON object a WEC mention."""


def is_wec(obj: Any) -> bool:
    """Whether ``obj`` (an element of a JSON array) is a WEC mention."""
    return isinstance(obj, dict) and all(k in obj for k in FIELDS)


def chain_field_of(path: str, items: list[tuple[int, Any]], key: bool) -> str:
    """The field a file of mentions (``(line, object)`` pairs) gives each mention's cluster in, as
    WEC's and uCDCR's code write it: ``predicted_coref_chain`` in a response whose every mention has
    one, else ``coref_chain``. A response with some mentions predicted and others not is an
    :class:`InputError` naming the first without (scoring its gold chains instead would be a
    silently perfect score)."""
    if key:
        return "coref_chain"
    predicted = [isinstance(m, dict) and m.get("predicted_coref_chain") is not None for _, m in items]
    if any(predicted) and not all(predicted):
        ln = items[predicted.index(False)][0]
        raise InputError(path, ln, "this mention has no 'predicted_coref_chain' where others have one: a response "
                         "gives every mention's predicted cluster, or none (then 'coref_chain' is read)")
    return "predicted_coref_chain" if items and all(predicted) else "coref_chain"


def read_wec(path: str, mentions: Iterable[tuple[int, Any]] | list, key: bool = False) -> Corpus:
    """The WEC split of ``mentions`` (``(line, object)`` pairs, or the objects) as one document
    (see the module docstring); every problem an :class:`InputError` naming the line."""
    items = [(i + 1, m) if not isinstance(m, tuple) else m for i, m in enumerate(mentions)]
    chain_field = chain_field_of(path, items, key)
    paragraphs: dict[tuple[str, tuple[str, ...]], list[tuple[int, int, int, str]]] = {}
    for ln, m in items:
        if not is_wec(m):
            raise InputError(path, ln, "a WEC mention needs 'doc_id', 'mention_context', 'tokens_number' and "
                             f"'coref_chain'; got {_keys(m)}")
        context, numbers, chain, article = m["mention_context"], m["tokens_number"], m[chain_field], m["doc_id"]
        if not isinstance(context, list) or not all(isinstance(t, str) for t in context):
            raise InputError(path, ln, "'mention_context' must be a list of words")
        if (not isinstance(numbers, list) or not numbers or not all(type(x) is int for x in numbers)
                or sorted(numbers) != list(range(min(numbers), max(numbers) + 1))
                or min(numbers) < 0 or max(numbers) >= len(context)):
            raise InputError(path, ln, f"'tokens_number' must be consecutive token numbers within the context "
                             f"({len(context)} words), got {str(numbers)[:60]}")
        if chain is None or isinstance(chain, (list, dict, bool)):
            raise InputError(path, ln, f"'{chain_field}' must be a cluster id, got {json.dumps(chain)[:40]}")
        where = paragraphs.setdefault((str(article), tuple(context)), [])
        where.append((min(numbers), max(numbers), ln, json.dumps(chain)))
    tokens: list[str] = []
    articles: list[str] = []
    sentence_starts: list[int] = []
    chains: dict[str, list[Mention]] = {}
    for (article, context), spans in sorted(paragraphs.items(), key=lambda kv: (kv[0][0], " ".join(kv[0][1]))):
        start = len(tokens)
        sentence_starts.append(start)
        tokens += context
        articles += [article] * len(context)
        for first, last, _, chain in sorted(spans):
            chains.setdefault(chain, []).append(Mention(start + first, start + last))
    doc = Document(DOCUMENT, tokens=tokens, sentence_starts=sentence_starts, columns={"document": articles},
                   chains=[Chain(c, ms) for c, ms in chains.items()], source=path, line=items[0][0] if items else 0)
    corpus = Corpus(source=path, format="jsonlines")
    if items:
        corpus.documents[DOCUMENT] = doc
    return corpus


def _keys(obj: Any) -> str:
    if not isinstance(obj, dict):
        return f"a JSON {type(obj).__name__}"
    return "keys " + ", ".join(sorted(obj)[:6]) if obj else "an empty object"
