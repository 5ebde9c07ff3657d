"""What reading a markup response onto the key's words cost, apart from what the model lost.

A markup response (``corefreport.io.markup``: text2text-coref's or inline brackets) is aligned to
the key's words before it is scored. Its :class:`AlignmentLoss` holds the alignment's diagnostics
(summed over documents, and per document) and the scores of the **alignment ceiling** — the key's
own markup put through the response's edit script and scored like the response — so that

* alignment cost = 100 − ceiling (points no markup could have kept on these words), and
* model loss = ceiling − score (points the model's markup lost on them),

for the CoNLL F1 and each metric's F1; score = 100 − alignment cost − model loss.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .metrics import conll_score

WORDS = ("key_words", "response_words", "matched", "substituted", "inserted", "deleted", "empty_nodes",
         "truncated_tail")
TAGS = ("tags", "tags_dropped_by_alignment", "tags_bad_id", "repaired_orphan_close", "repaired_unclosed",
        "unclosed_dropped", "crossing_sentences", "zero_mentions_dropped", "mentions")


@dataclass(frozen=True)
class AlignmentLoss:
    """The alignment of a markup response (see the module docstring). ``totals`` and each of
    ``documents``' entries: the counts of ``corefreport.io.markup.Diagnostics``; ``ceiling`` and
    ``score``: F1 per metric and ``conll`` (0–1) of the ceiling and of the response."""

    policy: str
    totals: dict[str, int]
    documents: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    ceiling: dict[str, float] = field(default_factory=dict)
    score: dict[str, float] = field(default_factory=dict)

    @classmethod
    def of(cls, policy: str, diagnostics: list[tuple[str, Any]], ceiling_ev, ev) -> "AlignmentLoss":
        """From each document's diagnostics (objects with ``as_dict()``) and the evaluations of the
        ceiling and of the response."""
        docs = [(doc_id, d.as_dict()) for doc_id, d in diagnostics]
        totals: dict[str, int] = {k: 0 for k in WORDS + TAGS}
        for _, d in docs:
            for k, v in d.items():
                totals[k] = totals.get(k, 0) + v
        return cls(policy, totals, docs, _f1s(ceiling_ev), _f1s(ev))

    def cost(self, metric: str = "conll") -> tuple[float, float] | None:
        """(alignment cost, model loss) in points for ``metric`` (``conll`` or a metric key)."""
        if metric not in self.ceiling or metric not in self.score:
            return None
        c, s = self.ceiling[metric] * 100.0, self.score[metric] * 100.0
        return 100.0 - c, c - s

    def as_dict(self) -> dict[str, Any]:
        """The ``alignment`` object of the JSON output (docs/json-schema.md)."""
        cost = self.cost()
        return {
            "policy": self.policy,
            "words": {k: self.totals[k] for k in WORDS},
            "tags": {k: self.totals[k] for k in TAGS},
            "ceiling": dict(self.ceiling),
            "alignment_cost": cost[0] if cost else None,
            "model_loss": cost[1] if cost else None,
            "per_document": {doc_id: d for doc_id, d in self.documents},
        }


def _f1s(ev) -> dict[str, float]:
    out = {name: s.f1 for name, s in ev.metrics.items() if hasattr(s, "f1")}
    m = ev.metrics
    if all(k in m for k in ("muc", "bcub", "ceafe")):
        out["conll"] = conll_score(m["muc"], m["bcub"], m["ceafe"])
    return out
