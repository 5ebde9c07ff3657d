"""Reader for JSON lines as neural coreference systems write them (e2e-coref family).

One JSON object per line: ``doc_key``, ``sentences`` (token lists; offsets are over the flattened
document), ``clusters`` (lists of ``[start, end]``, end inclusive), optional ``speakers`` and ``pos``
(same shape as ``sentences``). When ``clusters`` is empty or absent and ``predicted_clusters`` is
there (system output), those are read, with a warning. ``doc_key`` ``(NAME); part NNN`` becomes
``NAME; part NNN`` so that it matches a CoNLL-2012 key.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..model import Chain, Corpus, Document, Mention
from .conll2012 import document_id, read_text
from .errors import InputError


def read_jsonlines(path: str | Path, text: str | None = None, field: str = "clusters") -> Corpus:
    path = str(path)
    if text is None:
        text = read_text(path)
    corpus = Corpus(source=path, format="jsonlines")
    for ln, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(path, ln, f"not valid JSON: {err.msg} (column {err.colno})") from None
        if not isinstance(obj, dict):
            raise InputError(path, ln, f"expected a JSON object per line, found {type(obj).__name__}")
        for key in ("doc_key", "sentences"):
            if key not in obj:
                raise InputError(path, ln, f"the object has no {key!r}")
        sents = obj["sentences"]
        if not isinstance(sents, list) or not all(isinstance(s, list) for s in sents):
            raise InputError(path, ln, "'sentences' must be a list of token lists")
        doc_id = document_id(str(obj["doc_key"]), Path(path).stem)
        if doc_id in corpus.documents:
            raise InputError(path, ln, f"doc_key {obj['doc_key']!r} repeats")
        doc = Document(doc_id=doc_id, source=path, line=ln)
        for s in sents:
            doc.sentence_starts.append(len(doc.tokens))
            doc.tokens.extend(str(w) for w in s)
        n = len(doc.tokens)
        for col in ("speakers", "pos"):
            vals = obj.get(col)
            if isinstance(vals, list) and all(isinstance(s, list) for s in vals):
                flat = [str(v) for s in vals for v in s]
                if len(flat) == n:
                    doc.columns["speaker" if col == "speakers" else "pos"] = flat
        clusters = obj.get(field)
        if not clusters and field == "clusters" and obj.get("predicted_clusters"):
            clusters = obj["predicted_clusters"]
            corpus.warnings.append(f"{path}:{ln}: document {doc_id!r} has no 'clusters'; read 'predicted_clusters'")
        if clusters is None:
            clusters = []
        if not isinstance(clusters, list):
            raise InputError(path, ln, f"{field!r} must be a list of clusters")
        for ci, cluster in enumerate(clusters):
            chain = Chain(str(ci))
            if not isinstance(cluster, list):
                raise InputError(path, ln, f"cluster {ci} of {doc_id!r} is not a list of [start, end] pairs")
            for m in cluster:
                if (not isinstance(m, list) or len(m) != 2 or not all(isinstance(x, int) and not isinstance(x, bool)
                                                                     for x in m)):
                    raise InputError(path, ln, f"cluster {ci} of {doc_id!r}: mention {m!r} is not [start, end]")
                s, e = m
                if s < 0 or e < s:
                    raise InputError(path, ln, f"cluster {ci} of {doc_id!r}: bad span [{s}, {e}]")
                if e >= n:
                    raise InputError(path, ln, f"cluster {ci} of {doc_id!r}: span [{s}, {e}] ends beyond the "
                                     f"document ({n} tokens)")
                chain.mentions.append(Mention(s, e, str(ci)))
            if chain.mentions:
                doc.chains.append(chain)
        corpus.documents[doc_id] = doc
    return corpus
