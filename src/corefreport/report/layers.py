"""The report's sections for the Universal Anaphora layers beside coreference — non-referring
expressions, bridging, discourse deixis — one per layer the evaluation scored: its metrics with
counts (and the layer's CoNLL score for discourse deixis), what they count, their F1 intervals when
the report has them. Nothing is computed here: the rows are :func:`~corefreport.present.tables.metrics_table`'s.
"""

from __future__ import annotations

from typing import Callable

from ..present import tables as T
from ..scoring.result import Evaluation
from .structure import Para, Section

LAYERS = {
    "nonref": ("Non-referring expressions", ("nonref",),
               "Markables of a '-Pseudo' entity (expletives, predicates …), out of the coreference layer on both "
               "sides, found by their span (one per entity: its first markable), as the Universal Anaphora scorer "
               "v1 scores them: R = TP/|K|, P = TP/(TP+FP)."),
    "bridging": ("Bridging", ("bridging_ar", "bridging_fbm", "bridging_fbe"),
                 "Bridging pairs (anaphor → anchor, the BRIDGING column) as the Universal Anaphora scorer v1 counts "
                 "them: anaphor recognition (the anaphor's span found), full bridging at markable level (anaphor "
                 "and anchor spans right) and at entity level (the anchor in the key anchor's entity). A pair whose "
                 "markable is not in the IDENTITY column is skipped, as by v1, and listed among the warnings."),
    "deixis": ("Discourse deixis", ("dd_lea", "dd_muc", "dd_bcub", "dd_ceafe", "dd_ceafm", "dd_blanc"),
               "The DISCOURSE_DEIXIS column's chains scored by the standard metrics, singletons kept, as the "
               "Universal Anaphora scorer v1 scores them (evaluate_discourse_deixis); DD CoNLL is the mean F1 of DD "
               "MUC, B³ and CEAF-e. Split antecedents (ElementOf in the DD column) are scored as v1 scores them "
               "here: a plural entity's pseudo-mention aligned by Kuhn–Munkres."),
}
"""Section id → (title, the layer's metric keys, what the section says)."""
LAYER_METRICS = frozenset(m for _, names, _ in LAYERS.values() for m in names)


def layer_section(ev: Evaluation, sid: str, cis: dict | None = None,
                  add_ci: Callable | None = None) -> Section | bool:
    """The section of layer ``sid`` (a key of :data:`LAYERS`), or ``False`` when none of its
    metrics was scored (the layer is not in the data or not asked for); ``add_ci(table, cis,
    row keys)`` adds the F1 intervals (:func:`.model.add_ci`)."""
    title, keys, text = LAYERS[sid]
    names = [m for m in keys if m in ev.metrics]
    if not names:
        return False
    t = T.metrics_table(ev, names, f"{title}, micro-averaged over documents", totals=False)
    if sid == "deixis" and ev.dd_conll is not None:
        t.breaks.append(len(t.rows))
        t.rows.append(["dd_conll", None, None, ev.dd_conll, None, None, None, None])
    t.note = ""
    if add_ci is not None:
        add_ci(t, cis, [r[0] for r in t.rows])
    return Section(sid, title, [Para(text), t])
