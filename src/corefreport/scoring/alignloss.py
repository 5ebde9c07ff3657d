"""What text2text-coref's format and reading a markup response onto the key's words cost, apart
from what the model lost.

A response in text2text-coref's JSON (``conllu2json``) or markup (``conllu2text``; or inline
brackets) holds what that conversion can hold: a discontinuous mention only as its head's part, no
zero mention (``corefreport.io.roundtrip``). Markup is also aligned to the key's words before it is
scored. Its :class:`AlignmentLoss` holds the scores of

* the **round-trip ceiling** — the key against its own conversion, read back —,
* for markup, the **alignment ceiling** — the key's own markup (converted) put through the
  response's edit script and scored like the response —,

so that, per metric's F1 and CoNLL,

* round-trip cost = 100 − round trip (points the format itself cannot hold),
* alignment cost = round trip − alignment ceiling (points the alignment lost on these words),
* model loss = ceiling − score (the alignment ceiling for markup, the round trip for JSON),

and score = 100 − round-trip cost − alignment cost − model loss. For markup, the alignment's
diagnostics (summed over documents, and per document) and the words it did not match (``edits``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .metrics import conll_score

WORDS = ("key_words", "response_words", "matched", "substituted", "inserted", "deleted", "empty_nodes",
         "truncated_tail")
TAGS = ("tags", "tags_dropped_by_alignment", "tags_bad_id", "repaired_orphan_close", "repaired_unclosed",
        "unclosed_dropped", "crossing_sentences", "zero_mentions_dropped", "mentions")


REDUCTIONS = ("discontinuous_reduced", "zeros_dropped")
"""What the round trip changes in the key (``corefreport.io.roundtrip.losses``)."""
EDIT_FIELDS = ("document", "what", "key_word_number", "key_word", "response_word_number", "response_word")
"""The fields of one word the alignment did not match (:meth:`AlignmentLoss.edit_rows`)."""
JSON = "json"
"""The ``policy`` of a response in text2text-coref's JSON (no alignment: the round trip only)."""


@dataclass(frozen=True)
class AlignmentLoss:
    """What text2text-coref's conversion and a markup response's alignment cost (see the module
    docstring). ``policy``: the markup policy, or :data:`JSON`; ``totals`` and each of
    ``documents``' entries: the counts of ``corefreport.io.markup.Diagnostics``; ``ceiling``,
    ``round_trip`` and ``score``: F1 per metric and ``conll`` (0–1) of the alignment ceiling (none
    for JSON), of the round-trip ceiling and of the response; ``reductions``: what the round trip
    changed, in total (:data:`REDUCTIONS`); ``edits``: the words the alignment did not match
    (document, then ``Diagnostics.edits``' fields)."""

    policy: str
    totals: dict[str, int]
    documents: list[tuple[str, dict[str, int]]] = field(default_factory=list)
    ceiling: dict[str, float] = field(default_factory=dict)
    score: dict[str, float] = field(default_factory=dict)
    round_trip: dict[str, float] = field(default_factory=dict)
    reductions: dict[str, int] = field(default_factory=dict)
    edits: list[tuple] = field(default_factory=list)

    @classmethod
    def of(cls, policy: str, diagnostics: list[tuple[str, Any]], ceiling_ev, ev, round_trip_ev=None,
           reductions: dict[str, dict[str, int]] | None = None) -> "AlignmentLoss":
        """From each document's diagnostics (objects with ``as_dict()`` and ``edits``), the
        evaluations of the alignment ceiling (``None``: JSON), of the response and of the round
        trip, and what the round trip changed in each key document."""
        docs = [(doc_id, d.as_dict()) for doc_id, d in diagnostics]
        totals: dict[str, int] = {k: 0 for k in WORDS + TAGS} if policy != JSON else {}
        for _, d in docs:
            for k, v in d.items():
                totals[k] = totals.get(k, 0) + v
        edits = [(doc_id, *e) for doc_id, d in diagnostics for e in getattr(d, "edits", ())]
        reduced = {k: sum(r.get(k, 0) for r in (reductions or {}).values()) for k in REDUCTIONS}
        return cls(policy, totals, docs, _f1s(ceiling_ev) if ceiling_ev is not None else {}, _f1s(ev),
                   _f1s(round_trip_ev) if round_trip_ev is not None else {}, reduced, edits)

    @property
    def markup(self) -> bool:
        """Whether the response was markup (aligned), not text2text-coref's JSON."""
        return self.policy != JSON

    def cost(self, metric: str = "conll") -> tuple[float, float] | None:
        """(alignment cost, model loss) in points for ``metric`` (``conll`` or a metric key) of a
        markup response: round trip − alignment ceiling, alignment ceiling − score."""
        if metric not in self.ceiling or metric not in self.score:
            return None
        c, s = self.ceiling[metric] * 100.0, self.score[metric] * 100.0
        return self.round_trip.get(metric, 1.0) * 100.0 - c, c - s

    def round_trip_cost(self, metric: str = "conll") -> tuple[float, float] | None:
        """(round-trip cost, model loss) in points for ``metric``: 100 − round trip, and what the
        response lost below its ceiling (the alignment ceiling for markup, the round trip for JSON)."""
        if metric not in self.round_trip or metric not in self.score:
            return None
        rt, s = self.round_trip[metric] * 100.0, self.score[metric] * 100.0
        below = self.ceiling[metric] * 100.0 if metric in self.ceiling else rt
        return 100.0 - rt, below - s

    def edit_rows(self) -> list[dict[str, Any]]:
        """Every word the alignment did not match, as a record (:data:`EDIT_FIELDS`)."""
        return [dict(zip(EDIT_FIELDS, e)) for e in self.edits]

    def as_dict(self) -> dict[str, Any]:
        """The ``alignment`` object of the JSON output (docs/json-schema.md)."""
        cost = self.cost()
        trip = self.round_trip_cost()
        out: dict[str, Any] = {"policy": self.policy}
        if self.markup:
            out.update(words={k: self.totals[k] for k in WORDS}, tags={k: self.totals[k] for k in TAGS},
                       ceiling=dict(self.ceiling), alignment_cost=cost[0] if cost else None,
                       model_loss=cost[1] if cost else None)
        else:
            out["model_loss"] = trip[1] if trip else None
        out.update(round_trip=dict(self.round_trip), round_trip_cost=trip[0] if trip else None,
                   reductions=dict(self.reductions), per_document={doc_id: d for doc_id, d in self.documents})
        return out


def _f1s(ev) -> dict[str, float]:
    out = {name: s.f1 for name, s in ev.metrics.items() if hasattr(s, "f1")}
    m = ev.metrics
    if all(k in m for k in ("muc", "bcub", "ceafe")):
        out["conll"] = conll_score(m["muc"], m["bcub"], m["ceafe"])
    return out
