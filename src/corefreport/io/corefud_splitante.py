"""CorefUD's ``SplitAnte=`` (split antecedents) read into the Universal Anaphora representation:
the members of a plural entity carry ``ElementOf=P`` (the UA reader's feature,
:mod:`corefreport.io.ua`), which :mod:`corefreport.scoring.split` scores under
``--split-antecedents keep|only``.

The rule (CorefUD 1.x, as Udapi reads it: ``udapi/core/coref.py`` ``load_coref_from_misc``,
udapi-python c05494e): a MISC item ``SplitAnte=A<P,B<P`` on any word of a document says that the
entity ``P`` (a plural entity) has the split antecedents ``A`` and ``B`` — entity ids as written in
``Entity=`` brackets (GUM: its ``GRP`` numbers) — so ``P`` = A + B. Udapi writes it on the first word
of ``P``'s first mention, one item per antecedent, antecedents of several plural entities joined
on one word (``SplitAnte=e3<e11,e4<e11,e6<e12,e7<e12``). Entity-level: every mention of ``A`` gains
``ElementOf=P`` (``ElementOf=P,Q`` when ``A`` is in two plural entities, in the order read).

Errors (``corefreport: error: FILE:LINE: …``, as Udapi's strict reading): an item that is not
``ANTE<PLURAL``, an entity its own split antecedent, and an id that names no entity with a mention in
the document.

>>> from corefreport.model import Chain, Document, Mention
>>> doc = Document("d", chains=[Chain("e1", [Mention(0, 0)]), Chain("e2", [Mention(2, 2)]),
...                             Chain("e3", [Mention(4, 5), Mention(7, 7)])])
>>> read_split_antecedents(doc, [("e1<e3,e2<e3", 5)], "f.conllu")
>>> [(c.label, [m.features.get("ElementOf") for m in c.mentions]) for c in doc.chains]
[('e1', ['e3']), ('e2', ['e3']), ('e3', [None, None])]
"""

from __future__ import annotations

from ..errors import InputError
from ..model import Document

FEATURE = "ElementOf"
"""The mention feature naming the plural entities an entity is a member of (UA's attribute)."""


def parse_split_ante(value: str, path: str, line: int) -> list[tuple[str, str]]:
    """The (antecedent, plural entity) pairs of one ``SplitAnte=`` value.

    >>> parse_split_ante("185<190,186<190", "f", 1)
    [('185', '190'), ('186', '190')]
    """
    pairs = []
    for item in value.split(","):
        ante, lt, plural = item.partition("<")
        if not lt or not ante or not plural or "<" in plural:
            raise InputError(path, line, f"SplitAnte= item {item!r} is not ANTECEDENT<PLURAL (e.g. e4<e54)")
        if ante == plural:
            raise InputError(path, line, f"SplitAnte= item {item!r}: an entity cannot be its own split antecedent")
        pairs.append((ante, plural))
    return pairs


def read_split_antecedents(doc: Document, values: list[tuple[str, int]], path: str) -> None:
    """Give the mentions of each split antecedent of ``doc`` the feature ``ElementOf`` (module
    docstring); ``values``: the document's ``SplitAnte=`` values with their line numbers."""
    if not values:
        return
    chains = {c.label: c for c in doc.chains if c.mentions}
    member_of: dict[str, list[str]] = {}
    for value, line in values:
        for ante, plural in parse_split_ante(value, path, line):
            for eid in (ante, plural):
                if eid not in chains:
                    raise InputError(path, line, f"SplitAnte= names entity {eid!r}, which has no mention in "
                                     f"document {doc.doc_id!r}")
            plurals = member_of.setdefault(ante, [])
            if plural not in plurals:
                plurals.append(plural)
    for ante, plurals in member_of.items():
        for m in chains[ante].mentions:
            m.features[FEATURE] = ",".join(plurals)
