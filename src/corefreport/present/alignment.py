"""The tables of a markup response's alignment (:mod:`corefreport.scoring.alignloss`): the score
split into what alignment cost and what the model lost, and the alignment's diagnostics."""

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


def alignment_tables(ev: Evaluation) -> list[Table]:
    """The two tables of ``ev``'s alignment, or none when the response was not markup."""
    loss = ev.results.get("alignment")
    if loss is None:
        return []
    rows = []
    for name in list(ev.metrics) + ["conll"]:
        cost = loss.cost(name)
        if cost is not None:
            rows.append([name, loss.score[name], loss.ceiling[name], cost[0] / 100.0, cost[1] / 100.0])
    split = Table(f"alignment ceiling (markup read onto the key's words, policy {loss.policy})",
                  ["metric", "score_f1", "ceiling_f1", "alignment_cost_f1", "model_loss_f1"], rows,
                  note="ceiling: the key's own markup put through the response's edit script and scored; "
                       "alignment cost = 100 − ceiling, model loss = ceiling − score (F1 points)")
    t = loss.totals
    always = {"key_words", "response_words", "matched", "substituted", "inserted", "deleted", "mentions"}
    diag = Table("alignment diagnostics", ["what", "count"],
                 [[label, t[k]] for label, k in WORD_ROWS + TAG_ROWS if k in t and (t[k] or k in always)])
    return [split, diag]
