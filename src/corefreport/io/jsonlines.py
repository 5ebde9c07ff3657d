"""Reader for JSON lines as neural coreference systems write them (the e2e-coref family).

Format: one JSON object per line, one line per document.

* ``doc_key`` (required): the document id. ``(NAME); part NNN`` becomes ``NAME; part NNN`` with
  :func:`~corefreport.io.conll2012.document_id`, so that a CoNLL-2012 key and a jsonlines response
  name the same document alike; any other key is kept as written (an empty one takes the file stem).
  A repeated ``doc_key`` is an error (a response that lists a document twice cannot be scored).
* ``sentences`` (required): a list of token lists. Tokens are numbered across the whole document
  (every offset is into the flattened token list); each non-empty sentence starts a sentence.
* ``clusters`` (or the key given as ``field``): a list of clusters, each a list of ``[start, end]``
  mentions with an **inclusive** end. The chain label is the cluster's index in the list, as a
  string; empty clusters are dropped. A key (``key=True``) is read by ``clusters``: missing or not a
  list, an error. A response document with a ``predicted_clusters`` list (system output; ``[]``: a
  system that found nothing) is read by it (:func:`cluster_field`: warned when it has no
  ``clusters``, and once a file when gold ``clusters`` are beside it, as e2e-coref writes its
  predictions into its input documents); else a missing ``clusters`` is read as no mentions with a
  warning, and one that is ``null`` or not a list is an error (never a silent empty score).
* ``speakers`` and ``pos`` (optional, the shape of ``sentences``) become the ``speaker`` and ``pos``
  columns; one whose token count differs from ``sentences`` is ignored with a warning.
* Other keys (``paragraphs``, ``constituents``, ``ner``, …) are ignored.
* Current systems' layout (text2text-coref's ``conllu2json``/``json2conllu``, Maverick's
  ``predict()`` saved as JSON): ``doc_id`` stands for ``doc_key``, ``tokens`` (a flat list of
  words: one sentence; or a list of token lists) for ``sentences``, ``clusters_token_offsets``
  (inclusive ``[start, end]`` token offsets, as both write them) for ``clusters`` — in a key too.
  Tokens written ``##``/``##FORM`` (text2text-coref's empty nodes) are not words: they are
  removed and the offsets renumbered; a mention of empty nodes alone (a zero) is dropped, with a
  warning. ``clusters_text_mentions``/``clusters_char_offsets`` are ignored.
* BookCoref's books (``gutenberg_key``, ``characters`` with names): each book one document, its
  chains named after its characters (:mod:`.bookcoref`).
* SciCo's topics (an object with ``id``, ``tokens`` as paragraphs, ``doc_ids`` and ``mentions``
  ``[paragraph, start, end, cluster]``): each topic one document, its paragraphs in order — the
  cross-document clusters of a topic scored as SciCo's evaluation does (:func:`_scico`).
* A file whose first character is ``[`` is one JSON array of such objects (text2text-coref
  writes one); each object's line is where it starts. An array of WEC-Eng mentions (objects with
  ``mention_context``, ``tokens_number``, ``coref_chain``, ``doc_id``) is read by :mod:`.wec`; one of
  uCDCR's mentions (which also place their context in the document) by :mod:`.ucdcr`.
* Errors name the file and line: a line that is not valid JSON (with the JSON error), not an
  object, no ``doc_key`` or ``sentences``, ``sentences`` not a list of lists, a cluster that is not a
  list, a mention that is not two integers, ``start > end``, a negative offset or one beyond the
  document (with the doc_key, the offset and the document length), a repeated ``doc_key``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..model import Chain, Corpus, Document, Mention
from .conll2012 import document_id, read_text
from ..errors import InputError

COLUMN_KEYS = (("speakers", "speaker"), ("pos", "pos"), ("_document_ids", "document"))
T2T = "\x00text2text"
"""Marks an object read by text2text-coref's keys (``Document.meta["format"] = "text2text"``)."""


def read_jsonlines(path: str | Path, text: str | None = None, field: str = "clusters", key: bool = False) -> Corpus:
    """Read every document of one JSON-lines file (see the module docstring for the format)."""
    path = str(path)
    if text is None:
        text = read_text(path)
    corpus = Corpus(source=path, format="jsonlines")
    body = text.lstrip("\ufeff \t\r\n")
    lines: Iterable = (_array_objects(path, text) if body.startswith("[")
                       else enumerate(text.split("\n"), 1))
    if body.startswith("["):  # WEC-Eng: an array of mentions, each with its context (io/wec.py)
        from itertools import chain

        from .ucdcr import is_ucdcr, read_ucdcr
        from .wec import is_wec, read_wec

        first = next(iter(lines), None)
        if first is not None and is_ucdcr(first[1]):  # uCDCR: WEC's mentions placed in their documents
            return read_ucdcr(path, chain([first], lines), key=key)
        if first is not None and is_wec(first[1]):
            return read_wec(path, chain([first], lines), key=key)
        lines = chain([first] if first is not None else [], lines)
    for doc in scan_jsonlines(path, lines, field, key, corpus.warnings):
        corpus.documents[doc.doc_id] = doc
    return corpus


def scan_jsonlines(path: str, lines: Iterable[tuple[int, str]], field: str = "clusters", key: bool = False,
                   warnings: list[str] | None = None) -> Iterator[Document]:
    """The documents of numbered ``lines`` of one JSON-lines file, in order (reader warnings to
    ``warnings``): what :func:`read_jsonlines` reads, one document at a time."""
    stem = Path(path).name.split(".")[0]
    gold = key
    warnings = [] if warnings is None else warnings
    keys: dict[str, int] = {}
    first_line: dict[str, int] = {}
    for ln, line in lines:
        if isinstance(line, dict):  # an object of a JSON array
            obj = _normalize(path, ln, line, warnings)
        elif not line.strip():
            continue
        else:
            obj = _normalize(path, ln, _parse_line(path, ln, line), warnings)
        doc_key = obj["doc_key"]
        raw_key = doc_key if isinstance(doc_key, str) else json.dumps(doc_key)
        if raw_key in keys:
            raise InputError(path, ln, f"doc_key {raw_key!r} repeats (first on line {keys[raw_key]})")
        keys[raw_key] = ln
        if gold and field == "clusters" and not isinstance(obj.get("clusters"), list):
            what = "no 'clusters'" if "clusters" not in obj else "'clusters': " + _json_type(obj["clusters"])
            raise InputError(path, ln, f"key document {raw_key!r} has {what}: a key needs gold 'clusters' (a list "
                             "of clusters)" + ("; 'predicted_clusters' is system output, give it as the RESPONSE"
                                               if "predicted_clusters" in obj else ""))
        doc = _read_document(path, ln, obj, document_id(raw_key, stem), field, warnings, gold)
        if doc.doc_id in first_line:
            raise InputError(path, ln, f"doc_key {raw_key!r} names document {doc.doc_id!r} again (first on line "
                             f"{first_line[doc.doc_id]})")
        first_line[doc.doc_id] = ln
        yield doc


def iter_jsonlines(path: str, warnings: list[str], key: bool = False) -> Iterator[tuple[Document, int, int]]:
    """The documents of one JSON-lines file read a line at a time, each with the byte offset and the
    number of its line (for :func:`read_jsonlines_at`)."""
    try:
        f = open(path, "rb")
    except OSError as err:
        raise InputError(path, None, f"cannot read file: {err.strerror or err}") from None
    offsets: list[int] = []

    def numbered() -> Iterator[tuple[int, str]]:
        at = 0
        for ln, raw in enumerate(f, 1):
            offsets.append(at)
            at += len(raw)
            try:
                text = raw.decode("utf-8-sig" if ln == 1 else "utf-8")
            except UnicodeDecodeError:
                raise InputError(path, ln, "not valid UTF-8") from None  # the whole-file read says more
            yield ln, text[:-1] if text.endswith("\n") else text

    with f:
        for doc in scan_jsonlines(path, numbered(), "clusters", key, warnings):
            yield doc, offsets[doc.line - 1], doc.line


def read_jsonlines_at(path: str, offset: int, line: int, doc_id: str, key: bool = False) -> Document:
    """The document on the line at byte ``offset`` (line number ``line``) of ``path``, named ``doc_id``."""
    with open(path, "rb") as f:
        f.seek(offset)
        raw = f.readline()
    text = raw.decode("utf-8-sig" if offset == 0 else "utf-8")
    doc = _read_document(path, line, _normalize(path, line, _parse_line(path, line, text), []), doc_id, "clusters", [],
                         key)
    doc.doc_id = doc_id
    return doc


def _parse_line(path: str, ln: int, line: str) -> dict[str, Any]:
    """The JSON object of one line, with its required keys checked."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        raise InputError(path, ln, f"not valid JSON: {err.msg} (column {err.colno}); JSON lines need one whole "
                         "object per line") from None
    except (ValueError, RecursionError) as err:  # e.g. an integer with too many digits, deep nesting
        raise InputError(path, ln, f"cannot read the JSON: {err or 'nested too deeply'}") from None
    if not isinstance(obj, dict):
        raise InputError(path, ln, f"expected a JSON object per line, found {_json_type(obj)}")
    return obj


def _array_objects(path: str, text: str) -> Iterator[tuple[int, Any]]:
    """The elements of a file holding one JSON array, each with the line where it starts."""
    decoder = json.JSONDecoder()
    at = text.index("[") + 1
    n = len(text)

    def skip(i: int) -> int:
        while i < n and text[i] in " \t\r\n":
            i += 1
        return i

    at = skip(at)
    if at < n and text[at] == "]":
        return
    while True:
        ln = text.count("\n", 0, at) + 1
        try:
            obj, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError as err:
            raise InputError(path, err.lineno, f"not valid JSON: {err.msg} (column {err.colno})") from None
        except (ValueError, RecursionError) as err:
            raise InputError(path, ln, f"cannot read the JSON: {err or 'nested too deeply'}") from None
        if not isinstance(obj, dict):
            raise InputError(path, ln, f"expected a JSON object in the array, found {_json_type(obj)}")
        yield ln, obj
        at = skip(at)
        if at < n and text[at] == ",":
            at = skip(at + 1)
            continue
        if at < n and text[at] == "]":
            if skip(at + 1) < n:
                raise InputError(path, text.count("\n", 0, skip(at + 1)) + 1, "text after the JSON array")
            return
        raise InputError(path, text.count("\n", 0, min(at, n)) + 1, "the JSON array is not closed by ']' "
                         "(expected ',' or ']')")


def _normalize(path: str, ln: int, obj: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    """``obj`` with current systems' keys read as e2e-coref's (see the module docstring): ``doc_id``
    → ``doc_key``, ``tokens`` → ``sentences``, ``clusters_token_offsets`` → ``clusters``, empty
    nodes (``##``) removed; the required keys checked."""
    if "doc_key" not in obj and "doc_ids" in obj and "mentions" in obj and "id" in obj:
        obj = _scico(path, ln, obj)
    if "doc_key" not in obj and "doc_id" in obj:
        obj = {**obj, "doc_key": obj["doc_id"]}
    if "doc_key" not in obj:
        raise InputError(path, ln, "the object has no 'doc_key' (or 'doc_id')")
    if "sentences" not in obj and "tokens" in obj:
        tokens = obj["tokens"]
        if not isinstance(tokens, list):
            raise InputError(path, ln, f"'tokens' of {obj['doc_key']!r} must be a list of words")
        sentences = tokens if tokens and all(isinstance(t, list) for t in tokens) else [tokens]
        obj = {**obj, "sentences": sentences}
        if "clusters" not in obj and "clusters_token_offsets" in obj:
            obj["clusters"] = obj["clusters_token_offsets"]
            obj[T2T] = True  # text2text-coref's JSON (the round-trip ceiling, io/roundtrip.py)
        if any(isinstance(t, str) and t.startswith("##") for s in sentences if isinstance(s, list) for t in s):
            obj = _without_empty_nodes(path, ln, obj, warnings)
    if "sentences" not in obj:
        if "coref_chain" in obj or "mention_context" in obj:  # a mention of WEC-Eng or uCDCR, not a document
            from .ucdcr import FIELDS as UCDCR

            missing = [f for f in UCDCR if f not in obj] + ([] if "conll_doc_key" in obj or "doc_id" in obj
                                                           else ["conll_doc_key (or doc_id)"])
            what = ("has no " + ", ".join(repr(f) for f in missing)) if missing else "is not inside a JSON array"
            raise InputError(path, ln, f"the object looks like a uCDCR (WEC-Eng) mention but {what}: a file of such "
                             "mentions is one JSON array of objects each with 'coref_chain', 'mention_context', "
                             "'context_start_end_global_id', 'tokens_number_context' and 'conll_doc_key' or "
                             "'doc_id' (docs/datasets.md)")
        raise InputError(path, ln, "the object has no 'sentences' (or 'tokens')")
    return obj


def _scico(path: str, ln: int, obj: dict[str, Any]) -> dict[str, Any]:
    """A SciCo topic (Cattan et al. 2021, github.com/ariecattan/SciCo: ``id``, ``tokens`` a list of
    paragraphs, ``doc_ids`` one per paragraph, ``mentions`` ``[paragraph, start, end, cluster]`` with
    an inclusive end, cluster ids global in the topic) as one document: the paragraphs in order (each
    a sentence), the clusters by id in order of first mention, the ``document`` column naming each
    word's paragraph id — the topic scored as SciCo's evaluation writes it, one CoNLL document."""
    topic = obj["id"]
    paragraphs, ids, mentions = obj.get("tokens"), obj["doc_ids"], obj["mentions"]
    if (not isinstance(paragraphs, list) or not all(isinstance(p, list) for p in paragraphs)
            or not isinstance(ids, list) or len(ids) != len(paragraphs)):
        raise InputError(path, ln, f"SciCo topic {topic!r}: 'tokens' must be a list of paragraphs (word lists) and "
                         "'doc_ids' one id per paragraph")
    offsets = _starts([len(p) for p in paragraphs])
    clusters: dict[Any, list] = {}
    for m in mentions if isinstance(mentions, list) else [None]:
        if not (isinstance(m, list) and len(m) == 4 and all(type(x) is int for x in m[:3])
                and 0 <= m[0] < len(paragraphs) and 0 <= m[1] <= m[2] < len(paragraphs[m[0]])):
            raise InputError(path, ln, f"SciCo topic {topic!r}: a mention is [paragraph, start, end, cluster] within "
                             f"its paragraph, got {_short(m)}")
        start = offsets[m[0]] if offsets else 0
        clusters.setdefault(json.dumps(m[3]), []).append([start + m[1], start + m[2]])
    return {"doc_key": str(topic), "sentences": paragraphs, "clusters": list(clusters.values()),
            "_document_ids": [[str(d)] * len(p) for d, p in zip(ids, paragraphs)]}


def _without_empty_nodes(path: str, ln: int, obj: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    """text2text-coref's empty nodes (tokens ``##…``) removed, the offsets renumbered; a mention of
    empty nodes alone is dropped (counted in a warning)."""
    sentences = obj["sentences"]
    flat = [t for s in sentences for t in s]
    real = [i for i, t in enumerate(flat) if not (isinstance(t, str) and t.startswith("##"))]
    new = {old: k for k, old in enumerate(real)}
    clusters = obj.get("clusters")
    dropped = 0
    if isinstance(clusters, list):
        out = []
        for cluster in clusters:
            if not isinstance(cluster, list):
                out.append(cluster)
                continue
            kept = []
            for m in cluster:
                if not (isinstance(m, list) and len(m) == 2 and all(type(x) is int for x in m)):
                    kept.append(m)
                    continue
                inside = [new[i] for i in range(m[0], m[1] + 1) if i in new]
                if inside:
                    kept.append([inside[0], inside[-1]])
                elif 0 <= m[0] <= m[1] < len(flat):
                    dropped += 1
                else:
                    kept.append(m)  # out of range: the reader's check names it
            out.append(kept)
        clusters = out
    if dropped:
        warnings.append(f"{path}:{ln}: {dropped} mention(s) of empty nodes alone ('##' tokens: zeros) in "
                        f"{obj['doc_key']!r} dropped")
    return {**obj, "sentences": [[t for t in s if not (isinstance(t, str) and t.startswith("##"))]
                                 for s in sentences], "clusters": clusters}


def _json_type(value: object) -> str:
    """What a JSON value is, in words, for error messages."""
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(value), "a number")


def _read_document(path: str, ln: int, obj: dict[str, Any], doc_id: str, field: str,
                   warnings: list[str], gold: bool = False) -> Document:
    """One document from its checked JSON object: tokens, sentences, columns, chains."""
    doc = Document(doc_id=doc_id, source=path, line=ln)
    if isinstance(obj.get("genre"), str) and obj["genre"].strip():  # a genre field, where a corpus has one
        doc.meta["genre"] = obj["genre"].strip()
    if obj.get(T2T):
        doc.meta["format"] = "text2text"
    sentences = obj["sentences"]
    if not isinstance(sentences, list) or not all(isinstance(s, list) for s in sentences):
        raise InputError(path, ln, f"'sentences' of {doc_id!r} must be a list of token lists")
    lengths = [len(s) for s in sentences]
    doc.sentence_starts = _starts(lengths)
    doc.tokens = [w for s in sentences for w in s]
    if set(map(type, doc.tokens)) - {str}:
        doc.tokens = [w if isinstance(w, str) else str(w) for w in doc.tokens]
    for key, column in COLUMN_KEYS:
        values = _column(obj.get(key), len(doc.tokens))
        if values is not None:
            doc.columns[column] = values
        elif key in obj:
            warnings.append(f"{path}:{ln}: {key!r} of {doc_id!r} does not have the shape of 'sentences'; ignored")
    clusters = _clusters(path, ln, obj, doc_id, cluster_field(path, ln, obj, doc_id, field, gold, warnings), warnings)
    n = len(doc.tokens)
    for index, cluster in enumerate(clusters):
        if type(cluster) is list and all(type(m) is list and len(m) == 2 and type(m[0]) is int
                                         and type(m[1]) is int and 0 <= m[0] <= m[1] < n for m in cluster):
            if cluster:  # the common case, checked in one pass
                label = str(index)
                doc.chains.append(Chain(label, [Mention(m[0], m[1], label, ln) for m in cluster]))
        else:
            _bad_cluster(path, ln, cluster, index, obj["doc_key"], n)
    if "characters" in obj or "gutenberg_key" in obj:  # a BookCoref book: its characters name its chains
        from .bookcoref import name_chains

        name_chains(path, ln, obj, doc, warnings)
    return doc


def _starts(lengths: list[int]) -> list[int]:
    """First token of every non-empty sentence, from the sentence lengths."""
    starts, t = [], 0
    for n in lengths:
        if n:
            starts.append(t)
            t += n
    return starts


def _column(values: object, n: int) -> list[str] | None:
    """A per-sentence list of lists flattened to ``n`` strings, or ``None`` when the shape is wrong."""
    if not isinstance(values, list) or not all(isinstance(s, list) for s in values):
        return None
    flat = [v if isinstance(v, str) else str(v) for s in values for v in s]
    return flat if len(flat) == n else None


BOTH_NOTE = "gives both 'clusters' and 'predicted_clusters'"
"""The warning of a response document with both lists (said once a file)."""


def cluster_field(path: str, ln: int, obj: dict[str, Any], doc_id: str, field: str, key: bool,
                  warnings: list[str]) -> str:
    """The key of ``obj`` a document's clusters are read from: ``field``; in a response read by
    ``clusters``, ``predicted_clusters`` whenever it is a list — system output: e2e-coref's
    prediction files are its input documents with ``predicted_clusters`` added, their gold
    ``clusters`` still beside them, so reading ``clusters`` there would score the gold against the
    key (a silently perfect score), and ``predicted_clusters: []`` is a system that found nothing.
    Warned: a document without ``clusters`` (each), one with both (once a file). A key is read by
    ``field`` alone."""
    if key or field != "clusters" or not isinstance(obj.get("predicted_clusters"), list):
        return field
    if not obj.get("clusters"):
        warnings.append(f"{path}:{ln}: document {doc_id!r} has no 'clusters'; read its 'predicted_clusters'")
    elif not any(BOTH_NOTE in w for w in warnings):
        warnings.append(f"{path}:{ln}: document {doc_id!r} {BOTH_NOTE}: the response's 'predicted_clusters' are "
                        "read (e2e-coref writes its predictions beside the gold 'clusters'; give the same file as "
                        "KEY to score them against each other); later such documents of this file are not listed")
    return "predicted_clusters"


def _clusters(path: str, ln: int, obj: dict[str, Any], doc_id: str, field: str, warnings: list[str]) -> list:
    """The cluster list ``field`` (:func:`cluster_field`); a missing ``field`` is no clusters
    (warned); a ``field`` that is not a list is an error."""
    clusters = obj.get(field)
    if field not in obj:
        warnings.append(f"{path}:{ln}: document {doc_id!r} has no {field!r}; read as no mentions")
        return []
    if not isinstance(clusters, list):  # null too: an empty score would hide a broken system output
        raise InputError(path, ln, f"{field!r} of document {doc_id!r} is {_json_type(clusters)}: it must be a list "
                         "of clusters ([] for a document without mentions)")
    return clusters


def _bad_cluster(path: str, ln: int, cluster: object, index: int, doc_key: object, n: int) -> None:
    """Raise the error that says what is wrong with a cluster that failed the quick check."""
    if not isinstance(cluster, list):
        raise InputError(path, ln, f"cluster {index} of doc_key {doc_key!r} is not a list of [start, end] pairs")
    for m in cluster:
        if not (isinstance(m, list) and len(m) == 2 and all(type(x) is int for x in m)):
            raise InputError(path, ln, f"cluster {index} of doc_key {doc_key!r}: mention {_short(m)} is not "
                             "[start, end] (two integers)")
        start, end = m
        if start > end:
            raise InputError(path, ln, f"cluster {index} of doc_key {doc_key!r}: bad span [{start}, {end}] "
                             "(start > end)")
        if start < 0:
            raise InputError(path, ln, f"cluster {index} of doc_key {doc_key!r}: bad span [{start}, {end}] "
                             f"(negative offset {start})")
        if end >= n:
            raise InputError(path, ln, f"cluster {index} of doc_key {doc_key!r}: span [{start}, {end}] ends beyond "
                             f"the document ({n} tokens): offset {end} > last token {n - 1}")
    raise AssertionError("unreachable: the cluster passed every check")  # pragma: no cover


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "…"
