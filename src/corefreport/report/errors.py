"""The report's section on Kummerfeld & Klein (2013) error classes (``-a errors``): the counts and
costs table of ``score -a errors``, the cost of each class as a bar chart (CoNLL F1 gained by
fixing it, cumulatively in the analyser's order), the classes by the mention types joined or
split, and examples of each class in their sentences
with the error's mentions marked «like this» and the sentence saying why the error got its class.

With several systems the section describes the last one; the per-class comparison with the
baseline is in the "Systems compared" section (:func:`~corefreport.present.tables.comparison_tables`).
Every number is a field of the evaluation's ``errors``; nothing is computed.
"""

from __future__ import annotations

from ..present import tables as T
from ..present.errortables import (cost_start, examples, feature_table, head_type_table, joined_types_table,
                                   mention_set, reading_note)
from ..present.explain import in_context, explain
from ..present.labels import short_doc
from ..present.numbers import count, signed
from ..scoring.errorclasses import CLASSES, LEFTOVER
from ..scoring.result import Evaluation
from . import svg
from .structure import Para, Section

TITLE = "Error classes (Kummerfeld & Klein 2013)"
EXAMPLES = 4
"""Examples per class (from different documents where there are)."""
BAR_COLOUR = svg.OUTCOME_COLOURS["fn"]



def cost_chart(ev: Evaluation, width: float = svg.WIDTH) -> svg.Chart:
    """One horizontal bar per class: the CoNLL F1 (points) fixing it gains after the classes above
    it, with the number of errors at the right; the leftover gap last."""
    er = ev.errors
    items = [(c["class"], c["cumulative"]["conll"], er.count_of(c["class"])) for c in er.costs()]
    row, bar, size = 16.0, 11.0, svg.FONT_SIZE
    label_w = svg._label_width([lab for lab, *_ in items], size, 30)
    right_w = 110.0
    x0, plot_w = label_w, svg._r(width - label_w - right_w)
    top = max([v for _, v, _ in items] + [1e-9])
    step = next(s for s in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0) if top <= 4 * s)
    scale = 4 * step
    ch = svg.Chart("CoNLL F1 gained by fixing each error class, cumulatively in the analyser's order", width, 0,
                   note="points of CoNLL F1; the count at the right is the number of errors of the class "
                        "(leftover: response mentions outside the key that survive every correction)")
    y = 4.0
    for label, v, n in items:
        ch.texts.append(svg.Text(svg._r(label_w - 5), svg._r(y + 11), svg._clip(label, 30), "end"))
        if v > 0:
            w = plot_w * min(v, scale) / scale
            ch.rects.append(svg.Rect(x0, svg._r(y + (row - bar) / 2), svg._r(w), bar, BAR_COLOUR,
                                     f"{label}: {signed(v)} points, {count(n)} errors", svg.SEGMENT_STROKE))
        ch.texts.append(svg.Text(svg._r(x0 + plot_w + 6), svg._r(y + 11), signed(v), size=size - 0.5, bold=True))
        ch.texts.append(svg.Text(svg._r(width - 2), svg._r(y + 11), f"n = {count(n)}", "end", size=size - 0.5,
                                 fill="#444"))
        y += row
    svg._axis(ch, x0, plot_w, 2, svg._r(y + 1), [(i / 4, f"{100 * step * i:g}") for i in range(5)])
    ch.height = svg._r(y + 16)
    return ch


def errors_section(ev: Evaluation, comparison=None, title: str = TITLE):
    """The section (None without ``-a errors``)."""
    er = ev.errors
    if er is None:
        return None
    s = Section("errors", title)
    start = cost_start(er)
    s.blocks.append(Para(
        "The response is turned into the key by a sequence of transformations (alter a span, split an entity, "
        "remove or introduce a mention, merge entities) and each is classified as one of seven errors "
        "(Kummerfeld & Klein 2013): Span Error, Conflated Entities, Extra Mention, Extra Entity, Divided Entity, "
        f"Missing Mention, Missing Entity. The classes are found on {mention_set(er)}. The cost of a class is the "
        "F1 gained by fixing its errors, after the classes before it (cumulative) or alone; the cumulative costs "
        f"and the leftover add up {start or 'from the scored F1'} to 100."
        + (f" {reading_note(er)}." if er.reading() else "")))
    tables = T.error_tables(er)
    s.blocks.append(tables[0])
    s.blocks.append(cost_chart(ev))
    s.blocks.append(head_type_table(er))
    s.blocks.append(joined_types_table(er))
    s.blocks += [feature_table(er, f) for f in er.features()]
    s.blocks.append(Para("Examples", "heading"))
    counts = er.counts()
    for c in CLASSES + (LEFTOVER,):
        ex = examples(er, c, EXAMPLES)
        if not ex:
            continue
        if c == LEFTOVER:
            n = len(er.leftovers)
            s.blocks.append(Para(f"{c}: {count(n)} mention{'' if n == 1 else 's'} no class fixes", "heading"))
        else:
            n = counts[c]
            s.blocks.append(Para(f"{c} ({count(n)} error{'' if n == 1 else 's'})", "heading"))
        for r in ex:
            context = in_context(ev, r)
            where = f"{short_doc(r.doc_id)}, sentence {r.sentence + 1}"
            s.blocks.append(Para(f"{where}: {context}" if context else where))
            s.blocks.append(Para(explain(r) + ".", "note"))
    s.blocks.append(Para("The error's mentions are marked «like this» (a Span Error: the key's span).", "note"))
    return s
