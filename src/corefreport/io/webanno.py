"""Reader for WebAnno TSV 3.2/3.3 (INCEpTION/WebAnno), with typed, directed coreference links.

Used by GUM and by xrenner's ``-o webannotsv`` output. One file is one document (id = file stem).

* ``#T_SP=…Referent|f1|f2|…`` declares the span-layer columns (the first feature is the entity
  type), ``#T_RL=…Coref|type|BT_…Referent`` the relation columns (link type, link target).
* Token ids ``SENT-TOK``; tokens are numbered across the document; sub-token rows (``1-5.1``) are
  skipped. A new sentence number starts a sentence.
* Markables: ``person[7]`` is a multi-token markable with id 7, ``person`` a one-token markable.
* Links sit on the antecedent's row and point forward: target ``SENT-TOK`` or ``SENT-TOK[tgt_src]``
  (0 = the one-token markable on that row). Repeated identical links (xrenner writes
  ``coref|coref|coref`` with equal targets) count once.
* Chains = connected components of the identity links; ``bridge*`` links are not coreference and
  are ignored (counted in a warning). Markables without links are singletons.
* Mention features: ``etype`` (also ``ne``), ``infstat`` when declared, ``link_type`` = type of the
  link that points to the mention from its antecedent (``coref`` for a chain's first mention, as
  GUM's CoNLL-U does), ``antecedent`` = "start-end" of that antecedent.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..model import Chain, Corpus, Document, Mention
from .conll2012 import read_text
from .errors import InputError

TARGET_RE = re.compile(r"^(\d+)-(\d+)(?:\[(\d+)_(\d+)\])?$")
ANNO_RE = re.compile(r"^(.*?)(?:\[(\d+)\])?$")


def read_webanno(path: str | Path, text: str | None = None) -> Corpus:
    path = str(path)
    if text is None:
        text = read_text(path)
    doc = Document(doc_id=Path(path).name.split(".")[0], source=path, line=1)
    corpus = Corpus(source=path, format="webanno")
    span_feats: list[str] = []
    n_rel = 0
    rows: list[tuple[int, str, list[str]]] = []  # (line, token id, columns)
    for ln, line in enumerate(text.splitlines(), 1):
        if line.startswith("#T_SP=") and "Referent" in line:
            span_feats = line.split("|")[1:]
        elif line.startswith("#T_RL="):
            n_rel = len(line.split("|")) - 1
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 3 + len(span_feats) + n_rel:
            raise InputError(path, ln, f"expected {3 + len(span_feats) + n_rel} TAB-separated columns, found {len(cols)}")
        if "." in cols[0]:
            continue
        rows.append((ln, cols[0], cols))
    if not span_feats:
        raise InputError(path, None, "no '#T_SP=…Referent|…' header: not a coreference WebAnno file")
    pos: dict[tuple[int, int], int] = {}
    sent = None
    for t, (ln, tid, cols) in enumerate(rows):
        m = TARGET_RE.match(tid)
        if not m or m.group(3):
            raise InputError(path, ln, f"bad token id {tid!r} (expected SENT-TOK)")
        key = (int(m.group(1)), int(m.group(2)))
        pos[key] = t
        if key[0] != sent:
            doc.sentence_starts.append(t)
            sent = key[0]
        doc.tokens.append(cols[2])
    # markables: id -> [start, end, features]; one-token markables keyed by ("s", token)
    marks: dict[tuple, list] = {}
    for t, (ln, _, cols) in enumerate(rows):
        values = [cols[3 + k].split("|") for k in range(len(span_feats))]
        if values[0] == ["_"]:
            continue
        for k, anno in enumerate(values[0]):
            am = ANNO_RE.match(anno)
            label, mid = am.group(1), am.group(2)
            key = ("m", int(mid)) if mid else ("s", t)
            feats = {}
            for f, vals in zip(span_feats[1:], values[1:]):
                if k < len(vals):
                    v = ANNO_RE.match(vals[k]).group(1)
                    if v and v != "_":
                        feats[f] = v
            if key in marks:
                marks[key][1] = t
            else:
                marks[key] = [t, t, {"etype": label, "ne": label, **feats}]
    # links
    parent: dict[tuple, tuple] = {k: k for k in marks}
    incoming: dict[tuple, tuple[str, tuple]] = {}
    bridges = 0
    dangling: list[str] = []

    def find(x: tuple) -> tuple:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    rel0 = 3 + len(span_feats)
    for t, (ln, _, cols) in enumerate(rows):
        if n_rel < 2 or cols[rel0 + 1] in ("_", ""):
            continue
        types = cols[rel0].split("|")
        targets = cols[rel0 + 1].split("|")
        for typ, target in dict.fromkeys(zip(types, targets)):
            tm = TARGET_RE.match(target)
            if not tm:
                raise InputError(path, ln, f"bad link target {target!r}")
            tt = pos.get((int(tm.group(1)), int(tm.group(2))))
            if tt is None:
                raise InputError(path, ln, f"link target {target!r} is not a token of this document")
            tgt_id, src_id = (int(tm.group(3)), int(tm.group(4))) if tm.group(3) else (0, 0)
            src = ("m", src_id) if src_id else ("s", t)
            tgt = ("m", tgt_id) if tgt_id else ("s", tt)
            if src not in marks or tgt not in marks:
                dangling.append(f"{ln}")
                continue
            if typ.startswith("bridge"):
                bridges += 1
                continue
            a, b = find(src), find(tgt)
            if a != b:
                parent[a] = b
            incoming.setdefault(tgt, (typ, src))
    if dangling:
        corpus.warnings.append(f"{path}: {len(dangling)} link(s) name a markable that does not exist (lines "
                               f"{', '.join(dangling[:5])}{' …' if len(dangling) > 5 else ''}); ignored")
    if bridges:
        corpus.warnings.append(f"{path}: {bridges} bridging link(s) are not identity coreference; ignored")
    groups: dict[tuple, list[tuple]] = {}
    for k in sorted(marks, key=lambda k: (marks[k][0], marks[k][1])):
        groups.setdefault(find(k), []).append(k)
    seen: set[tuple[int, int]] = set()
    for n, members in enumerate(groups.values()):
        chain = Chain(str(n))
        for k in members:
            s, e, feats = marks[k]
            if (s, e) in seen:  # the same span as two markables of one chain (xrenner) counts once
                continue
            seen.add((s, e))
            m = Mention(s, e, str(n), features=dict(feats))
            if k in incoming:
                typ, src = incoming[k]
                m.features["link_type"] = typ
                m.features["antecedent"] = f"{marks[src][0]}-{marks[src][1]}"
            else:
                m.features["link_type"] = "coref" if len(members) > 1 else "sgl"
            chain.mentions.append(m)
        if chain.mentions:
            doc.chains.append(chain)
    corpus.documents[doc.doc_id] = doc
    return corpus
