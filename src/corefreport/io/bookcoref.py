"""BookCoref's books (Martinelli et al. 2025, the Hugging Face dataset ``sapienzanlp/bookcoref``): a
dialect of the JSON lines the e2e-coref family writes (:mod:`.jsonlines` reads it, one document per
book, a document at a time), with what it adds:

* ``doc_key`` (the dataset card's YAML; its README example writes ``doc_id``: either is read) and
  ``gutenberg_key``, the book's Project Gutenberg number, kept as ``Document.meta["gutenberg_key"]``;
* ``sentences``: the book's word-tokenised sentences; ``clusters``: ``[start, end]`` word offsets over
  the whole book with an **inclusive** end, as OntoNotes-style JSON lines write them (docs/formats.md
  says where that is checked);
* ``characters``: one object per character, its ``name`` and its mention offsets (``mentions`` in the
  card's YAML, ``cluster`` in the README's example: either is read). The cluster holding exactly those
  mentions (else the one holding most of them) is named after the character: its chain's label is
  the name (``Mr Bennet``; a second character of the same name ``Mr Bennet (2)``) and
  ``Document.meta["chain_names"]`` says so, so the browser and the report name the entity; a cluster
  of no character keeps its number. A ``characters`` that is
  not a list of such objects (system outputs write ``{}``) names nothing; a character whose mentions
  are in no cluster is a warning.

>>> from corefreport.model import Chain, Document, Mention
>>> doc = Document("b", chains=[Chain("0", [Mention(0, 1), Mention(5, 5)]), Chain("1", [Mention(3, 3)])])
>>> warnings = []
>>> name_chains("f", 1, {"characters": [{"name": "Mr Bennet", "mentions": [[0, 1], [5, 5]]}]}, doc, warnings)
>>> [c.label for c in doc.chains], [m.label for m in doc.chains[0].mentions], warnings
(['Mr Bennet', '1'], ['Mr Bennet', 'Mr Bennet'], [])
"""

from __future__ import annotations

from typing import Any

from ..model import Document

NAMED = "chain_names"
"""``Document.meta`` key set when chains' labels are names (``"characters"``: BookCoref's; the views
read it as :data:`corefreport.present.context.NAMED`)."""
CHARACTER_MENTIONS = ("mentions", "cluster")
"""Where a character object lists its mentions: the card's YAML, the README's example."""


def is_book(obj: dict[str, Any]) -> bool:
    """Whether a JSON object is a BookCoref item (it has ``characters`` or ``gutenberg_key``)."""
    return "characters" in obj or "gutenberg_key" in obj


def _spans(value: Any) -> set[tuple[int, int]] | None:
    if not isinstance(value, list):
        return None
    out = set()
    for m in value:
        if not (isinstance(m, list) and len(m) == 2 and all(type(x) is int for x in m)):
            return None
        out.add((m[0], m[1]))
    return out


def name_chains(path: str, ln: int, obj: dict[str, Any], doc: Document, warnings: list[str]) -> None:
    """Read ``gutenberg_key`` into ``doc.meta`` and name ``doc``'s chains after ``obj``'s characters
    (see the module docstring); what cannot be named is a warning in ``warnings``."""
    key = obj.get("gutenberg_key")
    if isinstance(key, (str, int)) and not isinstance(key, bool) and str(key).strip():
        doc.meta["gutenberg_key"] = str(key).strip()
    characters = obj.get("characters")
    if not isinstance(characters, list) or not characters:
        if characters not in (None, {}, [], ""):  # system outputs write {}; anything else is a mistake
            warnings.append(f"{path}:{ln}: 'characters' of {doc.doc_id!r} is not a list of {{name, mentions}} "
                            f"objects ({type(characters).__name__}): no entity is named")
        return
    spans = [{(m.start, m.end) for m in c.mentions} for c in doc.chains]
    names: dict[int, str] = {}
    unplaced = []
    malformed = []
    for n, ch in enumerate(characters):
        if not isinstance(ch, dict) or not isinstance(ch.get("name"), str):
            malformed.append(f"{n} (no 'name' string)")
            continue
        mentions = next((_spans(ch[k]) for k in CHARACTER_MENTIONS if k in ch), None)
        if mentions is None:
            malformed.append(f"{n} {ch['name']!r} (no 'mentions' or 'cluster' of [start, end] pairs)")
            continue
        if not mentions:
            continue
        best = max(range(len(spans)), key=lambda i: (spans[i] == mentions, len(spans[i] & mentions)), default=None)
        if best is None or not spans[best] & mentions or best in names:
            unplaced.append(ch["name"])
            continue
        names[best] = ch["name"].strip() or ch["name"]
    if names:
        doc.meta[NAMED] = "characters"
    used: dict[str, int] = {}
    for i, name in sorted(names.items()):
        used[name] = used.get(name, 0) + 1
        label = name if used[name] == 1 else f"{name} ({used[name]})"
        chain = doc.chains[i]
        chain.label = label
        for m in chain.mentions:
            m.label = label
    if malformed:
        warnings.append(f"{path}:{ln}: {len(malformed)} character(s) of {doc.doc_id!r} not read: "
                        + "; ".join(malformed[:3]) + (" …" if len(malformed) > 3 else ""))
    if unplaced:
        warnings.append(f"{path}:{ln}: {len(unplaced)} character(s) of {doc.doc_id!r} name no cluster of their own "
                        f"(their mentions are in no cluster, or in one another character names): "
                        + ", ".join(repr(n) for n in unplaced[:5]) + (" …" if len(unplaced) > 5 else ""))


__all__ = ["CHARACTER_MENTIONS", "NAMED", "is_book", "name_chains"]
