"""The Universal Anaphora layers beside coreference, per document: the bridging scores
(:mod:`.bridging`) and the discourse-deixis scores (:mod:`.deixis`), computed from the documents as
read (their ``Document.layers``), whatever ``--match`` did to the coreference chains (v1 compares
bridging and DD markables by exact span).

>>> sorted(LAYER_METRICS)[:4]
['bridging_ar', 'bridging_fbe', 'bridging_fbm', 'dd_bcub']
"""

from __future__ import annotations

from ..model import Document
from .bridging import METRICS as BRIDGING_METRICS, bridging_counts, skipped_warnings
from .deixis import METRICS as DD_METRICS, deixis_counts

LAYER_METRICS = frozenset(BRIDGING_METRICS) | frozenset(DD_METRICS)
"""The scores :func:`layer_counts` computes."""
HASHED = ("bridging", "bridging_entity", "discourse_deixis")
"""The layers a key's content hash covers beside its chains (the non-referring layer predates them)."""


def layer_counts(names, key: Document, response: Document | None, settings) -> dict:
    """The statistics of the layer scores among ``names`` of one document."""
    out: dict = {}
    if any(n in BRIDGING_METRICS for n in names):
        out.update(zip(BRIDGING_METRICS, bridging_counts(key, response, settings.singletons == "drop")))
    dd = [n for n in names if n in DD_METRICS]
    if dd:
        out.update(deixis_counts(dd, key, response))
    return out


def layer_warnings(names, key: Document, response: Document | None) -> list[str]:
    """Bridging pairs skipped in either document (a markable missing from IDENTITY), with counts."""
    return skipped_warnings(key, response) if any(n in BRIDGING_METRICS for n in names) else []


def hash_layers(h, d: Document) -> None:
    """Feed the spans of ``d``'s bridging pairs and discourse-deixis chains to the hash ``h``."""
    for name in HASHED:
        for c in d.layers.get(name, ()):
            h.update(f"{name}:{c.label}:{[m.ident for m in c.mentions]!r}".encode())


ENTITY_ANCHORED = {"conllu": "CorefUD's Bridge="}
"""Key formats whose bridging anchors an anaphor on an entity, not a markable (:mod:`corefreport.io.corefud_bridge`)."""
MARKABLE_LEVELS = ("bridging_fbm", "bridging_fbe")
"""The bridging scores defined over anchor markables only (UA v1's full bridging)."""


def defined_metrics(names: list[str], key_format: str) -> tuple[list[str], str | None]:
    """``names`` without the scores a key format's layers do not define, and the sentence that
    says why (``None``: all defined). CorefUD's ``Bridge=`` anchors an anaphor *mention* on an
    *entity*: anaphor recognition is defined, UA v1's full bridging at markable level (anchor
    markables compared) and at entity level (the key entity of each anchor markable) are not.

    >>> defined_metrics(["muc", "bridging_ar", "bridging_fbm", "bridging_fbe"], "conllu")[0]
    ['muc', 'bridging_ar']
    >>> defined_metrics(["bridging_ar", "bridging_fbm"], "ua")
    (['bridging_ar', 'bridging_fbm'], None)
    """
    source = ENTITY_ANCHORED.get(key_format)
    gone = [n for n in names if n in MARKABLE_LEVELS]
    if source is None or not gone:
        return names, None
    return [n for n in names if n not in MARKABLE_LEVELS], (
        f"bridging: {source} anchors an anaphor mention on an entity, not on a markable, so only anaphor "
        f"recognition (Bridging AR) is defined; {', '.join(gone)} (full bridging at markable and entity level, "
        "the Universal Anaphora scorer's, which compare anchor markables) are not printed")
