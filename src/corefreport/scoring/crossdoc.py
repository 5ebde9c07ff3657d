"""Cross-document coreference: entity labels global across the documents of a topic.

The rule (what the cross-document literature does, and neleval's ``--cross-doc``): the documents of
a topic — the whole key (``corpus``), or each group of documents a topic rule gives — are scored as
**one document**, their concatenation in key order, so that two mentions in different documents
written with the same label are one entity. Barhom et al. (2019) and Cattan et al. (2021) write
the documents of ECB+ as one CoNLL document and run the reference scorer on it; neleval
(``prepare-conll-coref --cross-doc``) keeps the labels global over every document of the file.
Each topic is then a document of the corpus: the corpus score is micro over the topics.

:func:`cross_document_pairs` is that transformation of the document pairs (the one place it is
done): each topic's key documents are concatenated (tokens, sentences, columns; spans shifted by
the words before them; chains merged by label, first seen first), and so are their responses *in
the key's order*, a missing response standing in as its key's words without mentions. The
per-token column ``document`` keeps where each document was (:func:`boundaries`). A response
document no key document has stays an extra document of its own.

Without ``--cross-document`` labels are per document, as the reference scorer reads them; when the
key's labels look global — the same label names the same name in two documents (:func:`label_trace`,
:func:`repeated_labels_warning`) — a warning says so.

>>> from corefreport.model import Chain, Document, Mention
>>> a = Document("1_a", tokens=["Obama", "spoke"], sentence_starts=[0], chains=[Chain("7", [Mention(0, 0, "7")])])
>>> b = Document("1_b", tokens=["Obama", "left"], sentence_starts=[0], chains=[Chain("7", [Mention(0, 0, "7")])])
>>> doc = concatenate("1", [a, b])
>>> [(c.label, [m.span for m in c]) for c in doc.chains], doc.sentence_starts, boundaries(doc)
([('7', [(0, 0), (2, 2)])], [0, 2], [('1_a', 0, 1), ('1_b', 2, 3)])
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..errors import InputError, SettingsError
from ..model import Chain, Document, Mention

CORPUS_TOPIC = "corpus"
"""The name of the one document of ``--cross-document`` without a topic rule."""

DOCUMENT_COLUMN = "document"
"""The per-token column of a concatenation naming the document each word comes from."""

LABEL_DOCUMENTS = 500
"""Key documents (the first ones) whose labels :func:`label_trace` records for the warning."""

SHARED_NAMES = 0.1
"""The warning's threshold: the share of a repeated label's later documents that repeat a name
under it (measured: 0.3–2.5 % on GUM, OntoGUM, LitBank and xrenner's outputs, whose labels are
numbered per document; a quarter on the ECB+-style fixture of ``tests/data/crossdoc``)."""


def document_name(doc_id: str) -> str:
    """The id without ``; part N`` and its brackets (``(36_1ecb); part 000`` → ``36_1ecb``)."""
    return doc_id.split(";")[0].strip().lstrip("(").rstrip(")")


@dataclass(frozen=True)
class Topics:
    """How documents form topics under ``--cross-document``: ``pattern`` searched in a document's
    name (its group 1 when it has one, else the match), or ``mapping`` ((document id or name,
    topic) pairs, ``--topic-from FILE``); neither: the whole corpus is one topic."""

    pattern: str | None = None
    mapping: tuple[tuple[str, str], ...] | None = None

    @property
    def mode(self) -> str:
        return "corpus" if self.pattern is None and self.mapping is None else "topics"

    def check(self) -> None:
        """Refuse a rule no run can follow (each message names the option)."""
        if self.pattern is not None and self.mapping is not None:
            raise SettingsError("--topic-from takes a pattern or a TSV file, not both")
        if self.mapping is not None and not self.mapping:
            raise SettingsError("--topic-from: the topics file names no document")
        if self.pattern is not None:
            try:
                re.compile(self.pattern)
            except re.error as err:
                raise SettingsError(f"--topic-from: {self.pattern!r} is not a regular expression ({err})") from None

    def topic(self, doc_id: str) -> str | None:
        """The document's topic; ``None`` when the rule does not give one."""
        if self.mapping is not None:
            by_id, by_name = _tables(self.mapping)
            found = by_id.get(doc_id)
            return found if found is not None else by_name.get(document_name(doc_id))
        if self.pattern is not None:
            m = re.search(self.pattern, document_name(doc_id))
            if m is None:
                return None
            return m.group(1) if m.re.groups else m.group(0)
        return CORPUS_TOPIC

    def signature_fields(self) -> list[tuple[str, str]]:
        """``xdoc:corpus``, or ``xdoc:topics`` with ``topics:re=PATTERN`` (``re#HASH`` if it holds
        ``|``) or ``topics:tsv#HASH`` (of the sorted document → topic pairs)."""
        if self.mode == "corpus":
            return [("xdoc", "corpus")]
        if self.pattern is not None:
            p = self.pattern
            return [("xdoc", "topics"), ("topics", f"re={p}" if "|" not in p else
                                         "re#" + hashlib.sha256(p.encode()).hexdigest()[:10])]
        text = "\n".join(f"{d}\t{t}" for d, t in sorted(self.mapping or ()))
        return [("xdoc", "topics"), ("topics", "tsv#" + hashlib.sha256(text.encode()).hexdigest()[:10])]

    def as_dict(self) -> dict:
        """The JSON's ``settings.cross_document``."""
        return {"mode": self.mode, "topic_pattern": self.pattern,
                "topic_documents": None if self.mapping is None else len(self.mapping)}


@lru_cache(maxsize=8)
def _tables(mapping: tuple[tuple[str, str], ...]) -> tuple[dict[str, str], dict[str, str]]:
    """A mapping's lookups (built once): by id as written, and by name (``(NAME); part N`` → ``NAME``)."""
    return dict(mapping), {document_name(k): v for k, v in mapping}


# -- the concatenation -----------------------------------------------------------------------------

def _shifted(m: Mention, offset: int, part: int) -> Mention:
    """``m`` moved ``offset`` words on: its span, its words, its ``head`` feature; a zero's sentence
    is made that of document ``part`` (zeros are paired within one sentence of one document)."""
    feats = m.features
    if offset and ("head" in feats or "zero_sentence" in feats):
        feats = dict(feats)
        h = feats.get("head")
        if h is not None and h.lstrip("-").isdigit() and int(h) >= 0:
            feats["head"] = str(int(h) + offset)
    if "zero_sentence" in feats:
        feats = dict(feats)
        feats["zero_sentence"] = f"{part}/{m.features['zero_sentence']}"
    words = None if m.words is None else tuple(w + offset for w in m.words)
    return Mention(m.start + offset, m.end + offset, m.label, m.line, feats, words)


def _column(name: str, doc: Document, offset: int) -> list[str]:
    values = doc.columns.get(name)
    if values is None:
        return ["_"] * len(doc.tokens)
    if name == "head" and offset:
        return [str(int(v) + offset) if v.isdigit() else v for v in values]
    return list(values)


def concatenate(topic: str, docs: Sequence[Document], lengths: Sequence[int] | None = None) -> Document:
    """One document of ``docs`` in order, named ``topic`` (see the module docstring); ``lengths``:
    the words each document takes (its key's: a response is laid on its key's words), by default
    its own."""
    lengths = lengths or [len(d.tokens) for d in docs]
    names = list(dict.fromkeys(n for d in docs for n in d.columns if n != DOCUMENT_COLUMN))
    out = Document(topic, source=docs[0].source if docs else "", line=docs[0].line if docs else 0)
    columns: dict[str, list[str]] = {n: [] for n in names}
    where: list[str] = []
    chains: dict[str, Chain] = {}
    offset = 0
    for part, (d, n) in enumerate(zip(docs, lengths)):
        tokens = d.tokens + [""] * (n - len(d.tokens))
        out.tokens.extend(tokens)
        out.sentence_starts.extend(s + offset for s in (d.sentence_starts or [0]) if s < n)
        for name in names:
            col = _column(name, d, offset)
            columns[name].extend(col + ["_"] * (n - len(col)))
        where.extend([d.doc_id] * n)
        for c in d.chains:
            chain = chains.get(c.label)
            if chain is None:
                chain = chains[c.label] = Chain(c.label)
            chain.mentions.extend(_shifted(m, offset, part) for m in c.mentions)
        offset += n
    out.columns = {**columns, DOCUMENT_COLUMN: where}
    out.chains = list(chains.values())
    return out


def boundaries(doc: Document) -> list[tuple[str, int, int]]:
    """Each document of a concatenation: (its id, first word, last word)."""
    out: list[tuple[str, int, int]] = []
    for i, name in enumerate(doc.columns.get(DOCUMENT_COLUMN, ())):
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1], i)
        else:
            out.append((name, i, i))
    return out


def _stand_in(key: Document) -> Document:
    """The response of a key document the response lacks: its words, no mention."""
    return Document(key.doc_id, tokens=list(key.tokens), sentence_starts=list(key.sentence_starts), source="")


class CrossDocumentPairs:
    """The pairs of ``inner`` (:class:`~corefreport.io.pairs.DocumentPairs` or ``CorpusPairs``)
    with each topic's documents concatenated into one pair, in the order of the topics' first key
    documents; response documents without a key document follow, each its own (extra) pair."""

    def __init__(self, inner, rule: Topics) -> None:
        self.inner, self.rule = inner, rule
        self.key_docs: dict[str, Document] = {}
        self.response_docs: dict[str, Document] = {}
        self.ceiling_side = False

    markup = False

    @property
    def sources(self) -> tuple[str, str]:
        return self.inner.sources

    @property
    def formats(self) -> tuple[str, str]:
        return self.inner.formats

    def prepare(self, markup_policy: str | None = None) -> None:
        self.inner.prepare(markup_policy)
        if getattr(self.inner, "markup", False):
            raise SettingsError("--cross-document concatenates documents read with ids: a markup response is read "
                                "onto the key's documents one by one")

    def pairs(self, reading, share=(0, 1)) -> Iterator:
        """The topics' pairs (one process: :func:`~.evaluate.evaluate` scores them in one)."""
        if share[1] != 1:
            raise SettingsError("--cross-document is scored in one process")
        Pair = None
        topics: dict[str, list] = {}
        extra: list = []
        lost: list[str] = []
        for pair in self.inner.pairs(reading):
            Pair = type(pair)
            if pair.key is None:
                extra.append(pair.response)
                continue
            topic = self.rule.topic(pair.key.doc_id)
            if topic is None:
                lost.append(pair.key.doc_id)
                topic = pair.key.doc_id
            topics.setdefault(topic, []).append(pair)
        if lost:
            how = "the pattern does not match" if self.rule.pattern else "the topics file does not name"
            reading.key_warnings.append(
                f"--topic-from: {how} {len(lost)} key document(s) ({lost[0]!r}{', …' if len(lost) > 1 else ''}): "
                "each is its own topic (its labels are read within it)")
        missing = [p.key.doc_id for group in topics.values() for p in group if p.response is None]
        if missing and len(missing) < sum(len(g) for g in topics.values()):
            reading.response_warnings.append(
                f"the response lacks {len(missing)} key document(s) ({missing[0]!r}{', …' if len(missing) > 1 else ''}):"
                " each is laid in its topic as its words without mentions")
        index = 0
        for topic, group in topics.items():
            keys = [p.key for p in group]
            responses = []
            for p in group:
                rd = p.response
                if rd is not None and len(rd.tokens) > len(p.key.tokens):
                    raise InputError(rd.source, rd.line, f"--cross-document lays each response document on its key "
                                     f"document's words: {rd.doc_id!r} has {len(rd.tokens)} words, the key's "
                                     f"{len(p.key.tokens)}")
                responses.append(rd if rd is not None else _stand_in(p.key))
            lengths = [len(k.tokens) for k in keys]
            kd = concatenate(topic, keys)
            answered = any(p.response is not None for p in group)
            rd = concatenate(topic, responses, lengths) if answered else None
            self.key_docs[topic] = kd
            if rd is not None:
                self.response_docs[topic] = rd
            yield Pair(index, kd, rd)
            index += 1
        reading.key_documents = index
        for rd in extra:
            self.response_docs[rd.doc_id] = rd
            yield Pair(index, None, rd)
            index += 1
        reading.items = index

    def documents(self) -> tuple[Mapping[str, Document], Mapping[str, Document]]:
        return self.key_docs, self.response_docs


def cross_document_pairs(pairs, settings):
    """``pairs`` as ``settings`` scores them: unchanged without ``cross_document``, else each topic
    one pair (:class:`CrossDocumentPairs`)."""
    if settings.cross_document is None:
        return pairs
    return CrossDocumentPairs(pairs, settings.cross_document)


# -- the warning when labels look global ------------------------------------------------------------

def label_trace(doc: Document) -> tuple[str, tuple[tuple[str, tuple[str, ...]], ...]]:
    """What the warning needs of a key document: its id and, per chain, its label and the *names*
    among its mentions' words — a word with a capital first letter, two letters or more, that the
    document never writes in lower case (so not a capitalised ``The`` or ``He``)."""
    lower = {t for t in doc.tokens if t[:1].islower()}
    last = len(doc.tokens) - 1
    out = []
    for c in doc.chains:
        names = {doc.tokens[i] for i in _covered(c.mentions, last)
                 if len(doc.tokens[i]) > 1 and doc.tokens[i][:1].isupper() and doc.tokens[i].lower() not in lower}
        out.append((c.label, tuple(sorted(names))))
    return doc.doc_id, tuple(out)


def _covered(mentions, last: int) -> Iterator[int]:
    """Each word from a mention's first to its last (at most ``last``) once: the mentions' ranges
    merged, so nested mentions cost their number, not the sum of their lengths."""
    reach = -1
    for a, b in sorted((m.start, min(m.end, last)) for m in mentions):
        if b > reach:
            yield from range(max(a, reach + 1), b + 1)
            reach = b


def repeated_labels_warning(traces: Sequence[tuple]) -> str | None:
    """The warning when the key's labels look global across documents: a label is written in two
    documents or more, and at least :data:`SHARED_NAMES` of its later documents name under it a
    name one of its earlier documents named (the same label, the same entity: what
    ``--cross-document`` is for). Labels numbered per document reuse numbers for unrelated
    entities, which rarely share a name."""
    seen: dict[str, set[str]] = {}
    first: dict[str, str] = {}
    later = shared = 0
    example = ""
    for doc_id, chains in traces:
        for label, names in chains:
            if label in seen:
                later += 1
                common = seen[label].intersection(names)
                if common:
                    shared += 1
                    example = example or (f"label {label!r} names {sorted(common)[0]!r} in {first[label]!r} and "
                                          f"{doc_id!r}")
                seen[label].update(names)
            else:
                seen[label], first[label] = set(names), doc_id
    if not shared or shared < SHARED_NAMES * later:
        return None
    return (f"the key's entity labels look global across documents ({shared} of {later} repeats of a label in a "
            f"later document name a name it named before; {example}), but each document is scored on its own: "
            "--cross-document scores the labels across documents (or per topic with --topic-from)")

