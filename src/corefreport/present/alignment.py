"""The tables of a response in text2text-coref's markup or JSON (:mod:`corefreport.scoring.alignloss`):
the score split into what the format's round trip cost, what alignment cost and what the model lost,
and the alignment's diagnostics."""

from __future__ import annotations

from ..scoring.result import Evaluation
from .table import Table

WORD_ROWS = (("key words", "key_words"), ("response words", "response_words"), ("matched", "matched"),
             ("substituted (misspelt)", "substituted"), ("inserted (key words missing)", "inserted"),
             ("deleted (extra words)", "deleted"), ("truncated tail (key words)", "truncated_tail"),
             ("empty nodes (##)", "empty_nodes"))
TAG_ROWS = (("tags written", "tags"), ("tags dropped by alignment", "tags_dropped_by_alignment"),
            ("tags with a refused id", "tags_bad_id"), ("orphan close → one word", "repaired_orphan_close"),
            ("unclosed → one word", "repaired_unclosed"), ("unclosed, lost", "unclosed_dropped"),
            ("mentions crossing sentences", "crossing_sentences"), ("zero mentions dropped", "zero_mentions_dropped"),
            ("mentions read", "mentions"))


REDUCTION_ROWS = (("discontinuous mentions → their head's part", "discontinuous_reduced"),
                  ("zero mentions dropped", "zeros_dropped"))
"""What the round trip changed in the key (``AlignmentLoss.reductions``)."""


def alignment_tables(ev: Evaluation) -> list[Table]:
    """The tables of ``ev``'s round trip and alignment, or none when the response was neither
    text2text-coref's markup nor its JSON."""
    loss = ev.results.get("alignment")
    if loss is None:
        return []
    reduced = "; ".join(f"{loss.reductions.get(k, 0)} {label}" for label, k in REDUCTION_ROWS)
    if not loss.markup:
        rows = []
        for name in list(ev.metrics) + ["conll"]:
            cost = loss.round_trip_cost(name)
            if cost is not None:
                rows.append([name, loss.score[name], loss.round_trip[name], cost[0] / 100.0, cost[1] / 100.0])
        return [Table("JSON round-trip ceiling (the key through text2text-coref's conllu2json, read back)",
                      ["metric", "score_f1", "round_trip_f1", "round_trip_cost_f1", "model_loss_f1"], rows,
                      note=f"round trip: the key against its own JSON ({reduced}); round-trip cost = 100 − round "
                           "trip, model loss = round trip − score (F1 points)")]
    rows = []
    for name in list(ev.metrics) + ["conll"]:
        cost = loss.cost(name)
        trip = loss.round_trip_cost(name)
        if cost is not None:
            rows.append([name, loss.score[name], loss.round_trip.get(name), loss.ceiling[name],
                         trip[0] / 100.0 if trip else None, cost[0] / 100.0, cost[1] / 100.0])
    split = Table(f"alignment ceiling (markup read onto the key's words, policy {loss.policy})",
                  ["metric", "score_f1", "round_trip_f1", "ceiling_f1", "round_trip_cost_f1", "alignment_cost_f1",
                   "model_loss_f1"], rows,
                  note="round trip: the key against its own conversion (conllu2text) read back; ceiling: the key's own "
                       "markup put through the response's edit script and scored; round-trip cost = 100 − round "
                       "trip, alignment cost = round trip − ceiling, model loss = ceiling − score (F1 points)")
    t = {**loss.totals, **loss.reductions}
    always = {"key_words", "response_words", "matched", "substituted", "inserted", "deleted", "mentions"}
    diag = Table("alignment diagnostics", ["what", "count"],
                 [[label, t[k]] for label, k in WORD_ROWS + TAG_ROWS + REDUCTION_ROWS if k in t and (t[k] or k in always)])
    return [split, diag]


def edits_text(ev: Evaluation, csv_format: bool) -> str | None:
    """The words a markup response's alignment did not match (``AlignmentLoss.edit_rows``) as JSON
    lines or CSV, in the key's document order; ``None`` when the response was not markup."""
    import csv
    import io
    import json

    from ..scoring.alignloss import EDIT_FIELDS
    from .inert import json_inert

    loss = ev.results.get("alignment")
    if loss is None or not loss.markup:
        return None
    buf = io.StringIO()
    if csv_format:
        w = csv.writer(buf, lineterminator="\r\n")
        w.writerow(EDIT_FIELDS)
        for r in loss.edit_rows():
            w.writerow([r[k] for k in EDIT_FIELDS])
    else:
        for r in loss.edit_rows():
            buf.write(json_inert(json.dumps(r, ensure_ascii=False)) + "\n")
    return buf.getvalue()
