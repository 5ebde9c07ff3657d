"""Readers: turn key and response files into a :class:`~corefreport.model.Corpus`.

``load_corpus(spec)`` accepts a file, a directory, or a glob (``'gold/*.conll'``, expanded here, so
it works quoted), or ``-`` (standard input), a pipe or a FIFO (read whole once); the format of each file is detected from its content unless ``fmt`` is given.
"""

from __future__ import annotations

import glob as _glob
from pathlib import Path

from ..model import Corpus
from ..errors import InputError

from .formats import FORMATS, KNOWN_SUFFIXES, MARKUP, format_of  # noqa: F401 (the table of formats)


def sniff(path: str, text: str) -> str:
    """Detect the format of one file from its content."""
    from .detect import detect_format

    return detect_format(path, text)


def expand(spec: str) -> list[str]:
    """Files named by ``spec``: the file itself, the corpus files of a directory, or a glob's matches;
    ``-`` (standard input), a pipe or a FIFO is itself (read whole once, :mod:`.streams`)."""
    from .streams import is_stream

    if is_stream(spec):
        return [spec]
    p = Path(spec)
    if p.is_file():
        return [str(p)]
    if p.is_dir():
        files = _corpus_files(str(p))
        if not files:
            raise InputError(spec, None, "directory holds no corpus files (*.conll, *_conll, *.conllu, *.jsonlines, "
                             "*.tsv)")
        return files
    if any(ch in spec for ch in "*?["):
        files = sorted(f for f in _glob.glob(spec, recursive=True) if Path(f).is_file())
        if not files:
            raise InputError(spec, None, "the pattern matches no file")
        return files
    raise InputError(spec, None, "no such file or directory")


def _corpus_files(folder: str) -> list[str]:
    """The corpus files under ``folder`` (sub-folders too, not through links to folders; hidden
    files aside), sorted. A folder that cannot be listed is an error: its files would be left out."""
    import os

    denied: list[OSError] = []
    files = [os.path.join(root, name) for root, _, names in os.walk(folder, onerror=denied.append) for name in names
             if not name.startswith(".") and name.endswith(KNOWN_SUFFIXES) and os.path.isfile(os.path.join(root, name))]
    if denied:
        err = denied[0]
        where = err.filename or folder
        raise InputError(str(where), None, f"cannot read this folder: {err.strerror or err}"
                         + ("" if str(where) == folder else f" (inside {folder}; its files would be left out)"))
    return sorted(files)


def load_markup(spec: str, fmt: str | None = None) -> tuple[str, list] | None:
    """The format and the documents (:class:`~.markup.MarkupDocument`, every line of every file
    in order) of a markup response, or ``None`` when ``spec`` is not markup (given as ``fmt``, or
    detected)."""
    from .conll2012 import read_text
    from .markup import read_markup
    from .streams import display_name

    if fmt is not None and fmt not in MARKUP:
        return None
    files = expand(spec)
    texts = [(display_name(f), read_text(f)) for f in files]
    fmts = [fmt or sniff(f, t) for f, t in texts]
    if not fmts or fmts[0] not in MARKUP:
        return None
    if len(set(fmts)) > 1:
        raise InputError(spec, None, "mixes markup text with other formats")
    docs = [d for (f, t), ff in zip(texts, fmts) for d in read_markup(f, t, ff)]
    return fmts[0], docs


def load_corpus(spec: str, fmt: str | None = None, key: bool = False, columns: bool = True,
                repeated: str = "last") -> Corpus:
    """Read every file named by ``spec`` into one corpus (documents in file order).

    ``key``: the files are the gold side (a JSON-lines key must hold gold ``clusters``, never only
    ``predicted_clusters``). ``columns=False``: the CoNLL-2012 reader keeps only words and chains,
    not the other columns (a run of the standard metrics needs no more). The same document id in
    two files is an error naming both; an id written twice in one CoNLL-2012 file gives its last
    copy (``repeated="last"``, as scorer.pl v8.01) or each copy renamed (``"rename"``)."""
    from .conll2012 import read_text
    from .streams import display_name

    files = expand(spec)
    texts = [(display_name(f), read_text(f)) for f in files]
    fmts = [sniff(f, t) for f, t in texts] if (fmt is None or len(texts) > 1) else [fmt]
    if fmt is not None and len(texts) > 1:
        keep = [i for i, x in enumerate(fmts) if x == fmt]
        if not keep:
            raise InputError(spec, None, f"none of its {len(texts)} files is in {fmt} format")
        texts = [texts[i] for i in keep]
        fmts = [fmt] * len(texts)
    if fmt is None and len(set(fmts)) > 1 and Path(spec).is_dir():
        counts = {x: fmts.count(x) for x in sorted(set(fmts))}
        raise InputError(spec, None, "directory mixes formats " + ", ".join(f"{k} ({v} files)" for k, v in counts.items())
                         + ": choose one with --key-format/--response-format")
    corpus = Corpus(source=display_name(spec), format=fmts[0] if fmts else "")
    for (f, text), ff in zip(texts, fmts):
        if ff in MARKUP:
            raise InputError(f, None, f"{ff} markup (one document per line) is read onto the key's words: it can "
                             "only be scored as the RESPONSE against a KEY, not be the KEY or read alone")
        part = format_of(ff).read(f, text, key=key, columns=columns, repeated=repeated)
        corpus.warnings.extend(part.warnings)
        for doc_id, doc in part.documents.items():
            if doc_id in corpus.documents:
                from .ucdcr import FORMAT as UCDCR, merge

                if doc.meta.get("format") == UCDCR == corpus.documents[doc_id].meta.get("format"):
                    # a split's entity_mentions.json and event_mentions.json hold the same documents
                    corpus.documents[doc_id] = merge(corpus.documents[doc_id], doc)
                    continue
                raise InputError(f, doc.line, f"document id {doc_id!r} is also in {corpus.documents[doc_id].source}: "
                                 "a document may be given once (remove one of the two files from the "
                                 "directory or pattern)")
            corpus.documents[doc_id] = doc
    return corpus
