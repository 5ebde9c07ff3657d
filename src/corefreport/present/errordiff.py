"""Neutral tables of two systems' errors side by side (:mod:`corefreport.scoring.errordiff`): per
Kummerfeld & Klein (2013) class, the errors only the system makes, only the baseline makes and
both make; per kind of change, the key entities whose coverage changed (newly found, lost, split,
merged …) and the largest of them. Builders read fields; they compute nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .labels import short_doc
from .table import Table

if TYPE_CHECKING:
    from ..scoring.compare import Comparison

ENTITIES_SHOWN = 15
"""Changed key entities listed in the terminal, Markdown and report (largest first); every one is in
``compare -f json`` (``entity_changes``) and in the browser."""


def error_match_table(cmp: Comparison, system: str) -> Table:
    """Per class: the errors only ``system`` makes, only the baseline makes, and both make (an
    error is the same when its document, class and mentions are); ``system`` has its errors matched."""
    m = cmp.error_matches[system]
    a = cmp.baseline
    t = Table(f"The same errors? {system} vs {a} (Kummerfeld & Klein 2013)",
              ["class", f"only {system}", f"only {a}", "both"])
    for cls, c in m.counts().items():
        t.rows.append([cls, c["only_system"], c["only_baseline"], c["both"]])
    t.rows.append(["all", *(m.total(k) for k in ("only_system", "only_baseline", "both"))])
    t.breaks = [len(t.rows) - 1]
    t.note = (f"an error of {system} and one of {a} are the same when their document, class and mentions coincide; "
              f"only {system} + both = {system}'s errors of the class (the errors: compare --links, or tui KEY {a} "
              f"{system} -a errors, x)")
    return t


def entity_change_tables(cmp: Comparison, system: str, shown: int = ENTITIES_SHOWN) -> list[Table]:
    """Per kind of change, the key entities (of two or more mentions) whose coverage changed from
    the baseline to ``system``; then the largest of them with both systems' pieces and joins."""
    from ..scoring.errordiff import KIND_DESCRIPTIONS

    ch = cmp.entity_changes.get(system)
    if ch is None:
        return []
    a, b = cmp.baseline, system
    t = Table(f"Key entities that changed: {b} vs {a}", ["change", "entities", "what"])
    for kind, n in ch.counts().items():
        t.rows.append([kind, n, KIND_DESCRIPTIONS[kind].format(a=a, b=b)])
    t.note = (f"{len(ch.changes)} of the {ch.entities} key entities of two or more mentions changed (one may be "
              "split and merged at once); resolved: two of its mentions in one response entity; exact spans")
    top = sorted(ch.changes, key=lambda e: (-len(e.mentions), e.doc_id, e.mentions[0]))[:shown]
    e = Table(f"The largest key entities that changed: {b} vs {a}",
              ["entity", "document", "size", f"pieces {a}", f"pieces {b}", f"joined {a}", f"joined {b}", "change"])
    for x in top:
        e.rows.append([x.name, short_doc(x.doc_id), len(x.mentions), x.baseline.pieces, x.system.pieces,
                       x.baseline.joined, x.system.joined, ", ".join(x.kinds)])
    e.note = ("size: its key mentions; pieces: the response entities holding them; joined: the other key entities "
              "those also hold; "
              f"the {len(top)} largest of {len(ch.changes)} (all: compare -f json, entity_changes; the browser)")
    return [t, e] if top else [t]


__all__ = ["ENTITIES_SHOWN", "entity_change_tables", "error_match_table"]
