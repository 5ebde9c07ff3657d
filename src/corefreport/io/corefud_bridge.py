"""CorefUD's ``Bridge=`` (MISC) read into the bridging layer, as Udapi reads it
(``udapi/core/coref.py``, ``BridgingLinks.from_string``; udapi/udapi-python c05494e).

``Bridge=TRG<SRC[:REL],…`` on a word: the mention of entity ``SRC`` opened last at that word (Udapi's
``entities[SRC].mentions[-1]``; its writer puts the attribute on the mention's first word) is a
bridging anaphor whose anchor is the **entity** ``TRG`` (not one of its mentions), with the
relation ``REL`` (may be empty). GUM writes ``Bridge=54<57``; CorefUD ``Bridge=e12<e15:part``.

Each link becomes a chain of ``Document.layers["bridging_entity"]``: ``[anaphor, *the anchor
entity's mentions]`` labelled with ``REL``. A link whose ``SRC`` has no mention opened by then or
whose ``TRG`` has no mention in the document is skipped (``layers["bridging_skipped"]``, labelled
``SRC→TRG``; ``meta["bridging"] = "entity"`` marks the document), as the UA scorer skips pairs whose markable is missing. Because the anchor is an
entity, only anaphor recognition is defined for these pairs (:mod:`corefreport.scoring.bridging`).

>>> from corefreport.model import Chain, Document, Mention
>>> d = Document("d", chains=[Chain("54", [Mention(0, 1)]), Chain("57", [Mention(5, 6), Mention(9, 9)])])
>>> read_bridges(d, [("54<57:part", 5, 10), ("54<58", 9, 12)], "f")
>>> [(c.label, [m.span for m in c.mentions]) for c in d.layers["bridging_entity"]], [c.label for c in d.layers["bridging_skipped"]]
([('part', [(5, 6), (0, 1)])], ['58→54'])
"""

from __future__ import annotations



from ..errors import InputError
from ..model import Chain, Document, Mention

ENTITY_LAYER = "bridging_entity"
SKIPPED = "bridging_skipped"


def parse_bridge(value: str, path: str, line: int) -> list[tuple[str, str, str]]:
    """``(TRG, SRC, REL)`` of each comma-separated link of a ``Bridge=`` value.

    >>> parse_bridge("e12<e15:part,e3<e15", "f", 1)
    [('e12', 'e15', 'part'), ('e3', 'e15', '')]
    """
    out = []
    for link in value.split(","):
        trg, lt, src = link.partition("<")
        src, _, rel = src.partition(":")
        if not lt or not trg or not src:
            raise InputError(path, line, f"Bridge= link {link!r} is not ANCHOR<ANAPHOR or ANCHOR<ANAPHOR:RELATION "
                             "(entity ids, as in Bridge=e12<e15:part)")
        if trg == src:
            raise InputError(path, line, f"Bridge= link {link!r} anchors entity {src!r} on itself")
        out.append((trg, src, rel))
    return out


def read_bridges(doc: Document, items: list[tuple[str, float, int]], path: str) -> None:
    """Put the ``Bridge=`` values ``items`` — (value, token position of its word, line) in file
    order — of a read document into its layers (module docstring)."""
    if not items:
        return
    doc.meta["bridging"] = "entity"  # what the scorer's warnings say of skipped pairs
    chains = {c.label: c for c in doc.chains}
    kept, skipped = [], []
    for value, t, line in items:
        for trg, src, rel in parse_bridge(value, path, line):
            src_chain, trg_chain = chains.get(src), chains.get(trg)
            opened = [m for m in (src_chain.mentions if src_chain else ()) if _first_word(m) <= t]
            if not opened or trg_chain is None:
                skipped.append(Chain(f"{src}→{trg}"))
                continue
            anaphor = max(opened, key=_first_word)  # the last opened: the latest first word (ties: the first)
            kept.append(Chain(rel, [anaphor, *trg_chain.mentions]))
    if kept:
        doc.layers[ENTITY_LAYER] = kept
    if skipped:
        doc.layers.setdefault(SKIPPED, []).extend(skipped)


def _first_word(m: Mention) -> float:
    if m.words is not None:
        return m.words[0]
    zero = m.features.get("zero_head")
    return float(zero) if zero is not None and m.start == m.end else m.start



