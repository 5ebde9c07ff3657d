"""Build CorefUD CoNLL-U key/response pairs from real data: GUM gold (20 documents in
``../shared/data/gum``) and the xrenner system output for the same documents (``../shared/data/xrenner``).

Usage: ``python tests/data/corefud_gum/build_pairs.py OUT_DIR`` (standard library only; deterministic:
``expected.json`` holds the SHA-256 of every file it writes, and the test rebuilds them and checks).

* Skeleton: ``gum/dep/DOC.conllu`` (gold UD trees, empty nodes kept) for the documents in :data:`DOCS`,
  concatenated; only the comments ``newdoc``, ``sent_id`` and ``text`` are kept, and the MISC column
  loses ``Entity``/``Bridge``/``SplitAnte`` (and everything else: it is set to ``_`` or the new ``Entity``).
* Coreference: the key's from ``gum/derived/gum_conll_numeric/DOC.conll`` (GUM scheme, singletons
  included), the response's from xrenner's GUM-scheme run ``xrenner/ml/gum/DOC.conll``; both are
  bracket columns over the same document-level token index as the skeleton's words.
* ``# global.Entity = eid-etype-head-other``, brackets ``(eN--H``: the head index H (1-based over the
  mention's words *and* the empty nodes inside it, as Udapi counts them) points at the mention's word
  highest in the dependency tree (the first of those, on ties) — the rule of Udapi's
  ``corefud.MoveHead`` on which CorefUD's head annotation is built, written here from its description.

Responses (the same key for all):

* ``xrenner``: xrenner's mentions and chains as they are;
* ``nohead``: the same, but without the ``head`` field (``global.Entity = eid-etype``): a mention's head
  is then its first word (Udapi), which is what head matching sees for a system that writes no heads;
* ``shrunk``: every mention of two or more words loses its last word (head recomputed): many lose
  the head word, so head and partial matching differ;
* ``extended``: every mention gains the next word of its sentence (head word kept): same head,
  but no longer inside the key mention (partial matching fails where head matching holds).

A perturbed span that another mention already has keeps its original span: corefud-scorer and
corefreport treat one span in two chains differently (docs/matching.md, "not reproduced").
A mention xrenner writes across a sentence boundary would be refused by Udapi; there is none in these
documents (the script stops if there is).
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[4] / "shared" / "data"
DOCS = ("GUM_academic_eegimaa", "GUM_bio_emperor", "GUM_interview_cyclone", "GUM_news_iodine", "GUM_court_loan")
"""One document per genre of the shared subset; three of them have empty nodes."""
VARIANTS = ("xrenner", "nohead", "shrunk", "extended")


def brackets(path: Path) -> list[list[tuple[int, int]]]:
    """Chains (in order of first appearance) of (first, last) token spans from a 3-column bracket file."""
    chains: dict[str, list[tuple[int, int]]] = {}
    open_: dict[str, list[int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        tok, col = int(cols[0]), cols[2] if len(cols) > 2 else ""
        for one, start, end in re.findall(r"\((\d+)\)|\((\d+)|(\d+)\)", col):
            if one:
                chains.setdefault(one, []).append((tok, tok))
            elif start:
                chains.setdefault(start, [])
                open_.setdefault(start, []).append(tok)
            else:
                chains[end].append((open_[end].pop(), tok))
    out = []
    for spans in chains.values():
        seen = list(dict.fromkeys(spans))
        out.append(seen)
    return out


class Doc:
    """One skeleton document: its kept lines, word rows, sentence of each word, tree depth, parents."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.lines: list[list[str] | str] = []  # comment/blank lines as str, word/empty rows as columns
        self.word_row: list[int] = []  # token index -> index into lines
        self.sentence: list[int] = []
        self.parent: list[int] = []
        self.empties_after: dict[int, int] = {}  # token index -> empty nodes right after it in its sentence
        sent, base, parents, n_sent = [], 0, [], -1
        text = (SHARED / "gum" / "dep" / f"{name}.conllu").read_text(encoding="utf-8")
        for line in text.splitlines():
            if line.startswith("#"):
                if line.startswith(("# newdoc", "# sent_id", "# text =")):
                    self.lines.append(line)
                if line.startswith("# sent_id"):
                    n_sent += 1
                    base = len(self.word_row)
                continue
            if not line:
                self.lines.append("")
                continue
            cols = line.split("\t")
            if "-" in cols[0]:
                self.lines.append(cols[:9] + ["_"])
                continue
            cols = cols[:9] + ["_"]
            if "." in cols[0]:
                w = int(cols[0].split(".")[0])
                self.empties_after[base + w - 1] = self.empties_after.get(base + w - 1, 0) + 1
                self.lines.append(cols)
                continue
            self.word_row.append(len(self.lines))
            self.sentence.append(n_sent)
            self.parent.append(base + int(cols[6]) - 1 if cols[6] != "0" else -1)
            self.lines.append(cols)
        self.depth = [self._depth(t) for t in range(len(self.parent))]

    def _depth(self, t: int) -> int:
        d = 0
        while self.parent[t] >= 0 and d < 1000:
            t, d = self.parent[t], d + 1
        return d

    def head(self, start: int, end: int) -> int:
        """The word of start..end highest in the tree (first on ties)."""
        return min(range(start, end + 1), key=lambda t: (self.depth[t], t))

    def head_index(self, start: int, end: int, head: int) -> int:
        """1-based position of ``head`` among the mention's words and the empty nodes inside it."""
        return head - start + 1 + sum(self.empties_after.get(t, 0) for t in range(start, head))


def write(docs: list[Doc], chains_of: dict[str, list[list[tuple[int, int, int]]]], with_head: bool) -> str:
    """CoNLL-U text: the skeletons with ``Entity=`` brackets for chains of (first, last, head) mentions."""
    out = [f"# global.Entity = {'eid-etype-head-other' if with_head else 'eid-etype'}"]
    for k, doc in enumerate(docs, 1):
        opens: dict[int, list[tuple[int, str]]] = {}
        closes: dict[int, list[str]] = {}
        singles: dict[int, list[str]] = {}
        for n, chain in enumerate(chains_of[doc.name], 1):
            eid = f"d{k}e{n}"  # unique in the file: Udapi keeps one entity per eid
            for start, end, head in chain:
                label = f"{eid}--{doc.head_index(start, end, head)}" if with_head else f"{eid}-"
                if start == end:
                    singles.setdefault(start, []).append(f"({label})")
                else:
                    opens.setdefault(start, []).append((end, f"({label}"))
                    closes.setdefault(end, []).append(f"{eid})")
        misc: dict[int, str] = {}
        for t in range(len(doc.word_row)):
            parts = closes.get(t, []) + [b for _, b in sorted(opens.get(t, []), key=lambda x: -x[0])]
            parts += singles.get(t, [])
            if parts:
                misc[doc.word_row[t]] = "Entity=" + "".join(parts)
        for i, line in enumerate(doc.lines):
            if isinstance(line, str):
                out.append(line)
            else:
                out.append("\t".join(line[:9] + [misc.get(i, "_")]))
    return "\n".join(out) + "\n"


def mentions(doc: Doc, spans: list[list[tuple[int, int]]], variant: str) -> list[list[tuple[int, int, int]]]:
    """Chains of (first, last, head) for one variant of a document's spans."""
    n = len(doc.word_row)
    used = {(s, e) for chain in spans for s, e in chain}
    out = []
    for chain in spans:
        ms = []
        for s, e in chain:
            if doc.sentence[s] != doc.sentence[e]:
                raise SystemExit(f"{doc.name}: mention {s}-{e} crosses a sentence boundary")
            h, e0 = doc.head(s, e), e
            if variant == "shrunk" and e > s:
                e -= 1
                h = doc.head(s, e)
            elif variant == "extended" and e + 1 < n and doc.sentence[e + 1] == doc.sentence[e]:
                e += 1
            if e != e0 and (s, e) in used:  # never write one span into two chains (see docs/matching.md)
                e, h = e0, doc.head(s, e0)
            used.add((s, e))
            ms.append((s, e, h))
        out.append(list(dict.fromkeys(ms)))
    return out


def build(out_dir: Path) -> dict[str, str]:
    """Write key.conllu and response-VARIANT.conllu into ``out_dir``; return file name -> SHA-256."""
    out_dir.mkdir(parents=True, exist_ok=True)
    docs = [Doc(name) for name in DOCS]
    key_spans = {d.name: brackets(SHARED / "gum" / "derived" / "gum_conll_numeric" / f"{d.name}.conll") for d in docs}
    sys_spans = {d.name: brackets(SHARED / "xrenner" / "ml" / "gum" / f"{d.name}.conll") for d in docs}
    files = {"key.conllu": write(docs, {d.name: mentions(d, key_spans[d.name], "key") for d in docs}, True)}
    for v in VARIANTS:
        chains = {d.name: mentions(d, sys_spans[d.name], v) for d in docs}
        files[f"response-{v}.conllu"] = write(docs, chains, v != "nohead")
    digests = {}
    for name, text in files.items():
        (out_dir / name).write_text(text, encoding="utf-8")
        digests[name] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return digests


if __name__ == "__main__":
    print(json.dumps(build(Path(sys.argv[1])), indent=1))
