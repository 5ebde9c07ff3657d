"""What ``score --subsets`` (and ``--by genre`` without an analysis) adds: one table per grouping
of documents — a row per group (micro over its documents), then ``micro`` (the corpus) and
``macro`` (the unweighted mean over the groups) — and its JSON. The numbers come from
:class:`~corefreport.study.subsets.Subsets`; nothing is computed here."""

from __future__ import annotations

import math
from typing import Any

from ..study.subsets import GroupScores, Subsets
from .labels import METRIC_LABELS
from .table import Table


def _f(x: float | None) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


def _has_conll(sub: Subsets) -> bool:
    return all(m in sub.metrics for m in ("muc", "bcub", "ceafe"))


def subsets_table(sub: Subsets) -> Table:
    """F1 of each metric (and CoNLL) per group, ``micro`` and ``macro`` last."""
    conll = _has_conll(sub)
    header = ["group", "documents", "words", *sub.metrics, *(["conll"] if conll else [])]
    t = Table(f"F1 per {sub.by}", header,
              labels=[sub.by, "docs", "words", *(METRIC_LABELS.get(m, m) for m in header[3:])],
              note="each group micro over its documents (counts summed); micro: every document; macro: unweighted "
                   "mean over the groups")

    def row(g: GroupScores, label: str) -> list:
        return [label, g.documents, g.tokens, *(_f(g.metrics[m].f1) for m in sub.metrics),
                *([_f(g.conll)] if conll else [])]

    for g in sub.groups:
        t.rows.append(row(g, g.name))
    t.breaks = [len(t.rows)]
    t.rows.append(row(sub.micro, "micro"))
    t.rows.append(["macro", None, None, *(_f(sub.macro(m).f1) for m in sub.metrics),
                   *([_f(sub.macro("conll").f1)] if conll else [])])
    return t


def subsets_data(sub: Subsets) -> dict[str, Any]:
    """``groups.<group>`` (documents, words, each metric's scores and counts, CoNLL), ``micro`` and
    ``macro`` (means of recall, precision and F1)."""

    def group(g: GroupScores) -> dict[str, Any]:
        metrics = {m: s.as_dict() for m, s in g.metrics.items()}
        if _has_conll(sub):
            metrics["conll"] = {"f1": g.conll}
        return {"documents": g.documents, "words": g.tokens, "metrics": metrics}

    macro: dict[str, Any] = {m: sub.macro(m).as_dict() for m in sub.metrics}
    if _has_conll(sub):
        macro["conll"] = {"f1": sub.macro("conll").f1}
    return {"groups": {g.name: group(g) for g in sub.groups}, "micro": group(sub.micro), "macro": macro}
