"""The BRIDGING and DISCOURSE_DEIXIS columns of a Universal Anaphora file, read into layers of the
:class:`~corefreport.model.Document` (``Document.layers``), as the UA scorer v1 reads them
(``coval/ua/reader.py`` ``get_doc_markables``; juntaoy/universal-anaphora-scorer, main, f4adb45).

**Bridging** (``layers["bridging"]``). A BRIDGING cell is ``_`` or closers and openers as in the
IDENTITY column; an opener ``(MarkableID=A|Rel=R|MentionAnchor=B|EntityAnchor=E`` says that the
markable ``A`` of the IDENTITY column is a bridging anaphor whose anchor is the markable ``B``
(closers carry nothing: v1 reads the openers only). A document's pairs are read in file order, one
per anaphor MarkableID (a MarkableID given two anchors keeps the last, as v1's dictionary does).
Each pair becomes a two-mention :class:`~corefreport.model.Chain` ``[anaphor, anchor]`` labelled with
its ``Rel`` — the very mentions of the IDENTITY column (referring or non-referring). A pair whose
anaphor or anchor MarkableID is not in the IDENTITY column is **skipped**, as v1 skips it
(``Skip bridging pair … as markable_id does not exist in identity column!``), and kept in
``layers["bridging_skipped"]`` as an empty chain labelled ``ANAPHOR→ANCHOR``, so the scorer can count
and report it.

**Discourse deixis** (``layers["discourse_deixis"]``). The DISCOURSE_DEIXIS cell has the syntax of
the IDENTITY cell (openers with ``EntityID`` and ``MarkableID``, LIFO or named closers, ``ElementOf``
…) and is read by the same rules (:class:`corefreport.io.ua._Doc`, a second instance fed this
column): its referring entities are the layer's chains, in the order their first markable opens.

Every malformed cell is an :class:`~corefreport.errors.InputError` naming file, line and column.
"""

from __future__ import annotations

from typing import Callable

from ..errors import InputError
from ..model import Chain, Document, Mention

BRIDGING = "bridging"
"""The key of the bridging pairs in :attr:`Document.layers`."""
BRIDGING_SKIPPED = "bridging_skipped"
"""The key of the pairs skipped because a MarkableID is not in the IDENTITY column."""
DISCOURSE_DEIXIS = "discourse_deixis"
"""The key of the discourse-deixis chains in :attr:`Document.layers`."""


def bridging_openers(openers: list[tuple[str, bool]], path: str, line: int) -> list[dict[str, str]]:
    """The attributes of each opener of a BRIDGING cell (``split_cell``'s openers; closers are
    ignored, as by v1).

    >>> bridging_openers([("MarkableID=markable_91|Rel=undersp-rel|MentionAnchor=markable_6|EntityAnchor=6", False)], "f", 1)
    [{'MarkableID': 'markable_91', 'Rel': 'undersp-rel', 'MentionAnchor': 'markable_6', 'EntityAnchor': '6'}]
    """
    out = []
    for body, _single in openers:
        info: dict[str, str] = {}
        for item in body.split("|"):
            k, eq, v = item.partition("=")
            if not eq or not k:
                raise InputError(path, line, f"BRIDGING opener '({body}': attribute {item!r} is not KEY=VALUE")
            info[k] = v
        for need in ("MarkableID", "MentionAnchor"):
            if not info.get(need):
                raise InputError(path, line, f"BRIDGING opener '({body}' has no {need}")
        out.append(info)
    return out


class LayerReader:
    """The layers of one document being read: :meth:`word` for each word line, :meth:`finish` once."""

    def __init__(self, path: str, index: dict[str, int], split_cell: Callable, dd_reader: Callable) -> None:
        """``split_cell``: the IDENTITY cell splitter (:func:`corefreport.io.ua.split_cell`);
        ``dd_reader``: makes the reader of a document's IDENTITY column, here fed the DD column."""
        self.path = path
        self.split_cell = split_cell
        self.bridging = index.get("BRIDGING")
        self.deixis = index.get("DISCOURSE_DEIXIS")
        self.pairs: dict[str, tuple[str, str]] = {}
        """anaphor MarkableID → (anchor MarkableID, Rel)."""
        self.dd = dd_reader() if self.deixis is not None else None

    def word(self, tid: str, i: int, fields: list[str], n: int) -> None:
        """Read the layers' cells of word line ``n`` (token ``i``; ``tid`` its ID field)."""
        br = fields[self.bridging] if self.bridging is not None and self.bridging < len(fields) else "_"
        dd = fields[self.deixis] if self.deixis is not None and self.deixis < len(fields) else "_"
        if br == "_" and dd == "_":
            return
        if "." in tid:
            raise InputError(self.path, n, "a BRIDGING or DISCOURSE_DEIXIS annotation on an empty node (not read)")
        for info in (bridging_openers(self.split_cell(br, self.path, n)[1], self.path, n) if br != "_" else ()):
            self.pairs[info["MarkableID"]] = (info["MentionAnchor"], info.get("Rel", ""))
        if dd != "_" and self.dd is not None:
            try:
                self.dd._cell(dd, i, n)
            except InputError as e:
                raise InputError(self.path, n, "DISCOURSE_DEIXIS: " + e.problem.replace("IDENTITY ", "cell ")) from None

    def finish(self, doc: Document) -> None:
        """Put the layers into ``doc`` (its IDENTITY chains and non-referring layer already read)."""
        if self.dd is not None:
            try:
                chains = self.dd.finish().chains
            except InputError as e:
                raise InputError(self.path, e.line, "DISCOURSE_DEIXIS: " + e.problem) from None
            if chains:
                doc.layers[DISCOURSE_DEIXIS] = chains
        if not self.pairs:
            return
        by_id: dict[str, Mention] = {}
        for c in (*doc.chains, *doc.layers.get("non_referring", ())):
            for m in c.mentions:
                by_id[m.features.get("MarkableID", "")] = m
        kept, skipped = [], []
        for ana, (ant, rel) in self.pairs.items():
            if ana in by_id and ant in by_id:
                kept.append(Chain(rel, [by_id[ana], by_id[ant]]))
            else:
                skipped.append(Chain(f"{ana}→{ant}"))
        if kept:
            doc.layers[BRIDGING] = kept
        if skipped:
            doc.layers[BRIDGING_SKIPPED] = skipped
