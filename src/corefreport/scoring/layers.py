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
HASHED = ("bridging", "discourse_deixis")
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
