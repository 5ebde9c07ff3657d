"""The TUI's view model: pure functions from an :class:`Evaluation` to what each screen shows.

Nothing here computes a score: totals are fields of the result, every other table is a
:func:`~corefreport.scoring.outcomes.group_by` over the outcome rows, every drill-down a filter.
Screens (``app.py``) only render these.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from ..report.tables import METRIC_LABELS
from ..scoring.outcomes import LinkOutcome, OutcomeCounts, group_by
from ..scoring.result import Evaluation

ANALYSIS_TITLES = {"immediate": "ARCS 1 immediate", "inferred": "ARCS 2 inferred", "anchor": "ARCS 3 anchor",
                   "typed": "typed (Žitkus)"}
"""Short names that fit an 80-column table; the report uses the long ones of ``ARCS_TITLES``."""
OUTCOME_STYLE = {"TP": "green", "WT": "cyan", "WL": "yellow", "WTL": "magenta", "FN": "red", "FP": "blue"}
MAX_LINK_ROWS = 500


@dataclass(frozen=True, slots=True)
class TotalRow:
    label: str
    recall: float | None
    precision: float | None
    f1: float | None
    detail: str
    analysis: str | None = None  # Enter opens this analysis' classes


def pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.2f}"


def totals(ev: Evaluation) -> list[TotalRow]:
    """Every metric and every analysis total; rows with ``analysis`` drill into classes."""
    out: list[TotalRow] = []
    for name, s in ev.metrics.items():
        detail = "" if name == "blanc" else f"{s.recall_num:g}/{s.recall_den:g}  {s.precision_num:g}/{s.precision_den:g}"
        out.append(TotalRow(METRIC_LABELS.get(name, name), s.recall, s.precision, s.f1, detail))
    if ev.conll is not None:
        out.append(TotalRow("CoNLL", None, None, ev.conll, "mean F1 of MUC, B³, CEAF-e"))
    present = {r.analysis for r in ev.rows}
    for name, title in ANALYSIS_TITLES.items():
        if name in present:
            c = outcome_total(ev.rows, name)
            out.append(TotalRow(title, c.recall, c.precision, c.f1, mix_label(c), name))
    typed = ev.analyses.get("typed")
    if typed is not None:
        for label, d in (("  micro", typed.micro), ("  macro", typed.macro), ("  scheme coverage", typed.scheme_coverage)):
            out.append(TotalRow(label, d["recall"], d["precision"], d["f1"], f"scheme {typed.scheme.name}", "typed"))
    return out


def outcome_total(rows: list[LinkOutcome], analysis: str) -> OutcomeCounts:
    c = OutcomeCounts()
    for r in of_analysis(rows, analysis):
        c.add(r)
    return c


def mix_label(c: OutcomeCounts) -> str:
    parts = [f"{k} {v}" for k, v in (("TP", c.tp), ("WT", c.wt), ("WL", c.wl), ("WTL", c.wtl), ("FN", c.fn),
                                       ("FP", c.fp)) if v]
    return " ".join(parts)


def mix_bar(c: OutcomeCounts, width: int = 12) -> Text:
    """A small stacked bar of the outcome mix (one colour per outcome)."""
    counts = [("TP", c.tp), ("WT", c.wt), ("WL", c.wl), ("WTL", c.wtl), ("FN", c.fn), ("FP", c.fp)]
    total = sum(v for _, v in counts) or 1
    bar = Text()
    used = 0
    for k, v in counts:
        n = round(width * v / total)
        n = min(n, width - used)
        if n:
            bar.append("█" * n, style=OUTCOME_STYLE[k])
            used += n
    if used < width:
        bar.append("·" * (width - used), style="dim")
    return bar


@dataclass(frozen=True, slots=True)
class GroupRow:
    key: str
    counts: OutcomeCounts


_BY_ANALYSIS: dict[int, tuple[list[LinkOutcome], dict[str, list[LinkOutcome]]]] = {}


def of_analysis(rows: list[LinkOutcome], analysis: str) -> list[LinkOutcome]:
    """The rows of one analysis, indexed once per row list (drill steps stay fast on 80k rows)."""
    hit = _BY_ANALYSIS.get(id(rows))
    if hit is None or hit[0] is not rows:
        index: dict[str, list[LinkOutcome]] = {}
        for r in rows:
            index.setdefault(r.analysis, []).append(r)
        _BY_ANALYSIS.clear()
        hit = _BY_ANALYSIS[id(rows)] = (rows, index)
    return hit[1].get(analysis, [])


def groups(rows: list[LinkOutcome], analysis: str, column: str, **where: str) -> list[GroupRow]:
    """Rows of one analysis (optionally filtered) grouped by ``column`` — classes, types, docs."""
    sub = [r for r in of_analysis(rows, analysis) if all(r.get(k) == v for k, v in where.items())]
    return [GroupRow(k, c) for k, c in group_by(sub, column).items()]


def links(rows: list[LinkOutcome], analysis: str, text: str = "", **where: str) -> list[LinkOutcome]:
    """The outcome rows of one analysis matching ``where`` and containing ``text`` (case-insensitive
    in the referent, the document id or the outcome); errors first, then document order."""
    text = text.lower()
    out = [r for r in of_analysis(rows, analysis) if all(r.get(k) == v for k, v in where.items())
           and (not text or text in r.text.lower() or text in r.doc_id.lower() or text == r.outcome.lower())]
    order = {"WTL": 0, "WL": 1, "WT": 2, "FN": 3, "FP": 4, "TP": 5}
    out.sort(key=lambda r: (order[r.outcome], r.doc_id, r.start, r.end))
    return out


def documents(ev: Evaluation) -> list[tuple[str, float | None, dict[str, float]]]:
    """Per-document CoNLL (or first metric) F1, worst first."""
    out = []
    for d in ev.documents:
        f = {n: s.f1 for n, s in d.metrics.items()}
        out.append((d.doc_id, d.conll(), f))
    out.sort(key=lambda x: (x[1] if x[1] is not None else min(x[2].values(), default=0.0), x[0]))
    return out


def span_text(ev: Evaluation, doc_id: str, span: tuple[int, int] | None, side: str = "key") -> str:
    if span is None:
        return "—"
    corpus = ev.key_corpus if side == "key" else ev.response_corpus
    doc = corpus.documents.get(doc_id) if corpus else None
    if doc is None:
        return f"{span[0]}–{span[1]}"
    return doc.text(*span)


def link_detail(ev: Evaluation, row: LinkOutcome) -> Text:
    """The sentence(s) from the earliest antecedent to the referent, with the referent (bold
    reverse), the key's antecedent (green underline) and the response's (red underline)."""
    corpus = ev.key_corpus
    doc = corpus.documents.get(row.doc_id) if corpus else None
    out = Text()
    out.append(f"{row.outcome}", style=f"bold {OUTCOME_STYLE[row.outcome]}")
    out.append(f"  {row.analysis}  class {row.cls}  type {row.type}  {row.doc_id}\n\n")
    if doc is None:
        out.append(row.text)
        return out
    starts = [row.start] + [s[0] for s in (row.key_antecedent, row.response_antecedent) if s]
    first_sent = doc.sentence_of(min(starts))
    last_sent = doc.sentence_of(row.end)
    if last_sent - first_sent > 3:  # a far antecedent: show its sentence, an ellipsis, the referent's
        shown = [first_sent, last_sent]
    else:
        shown = list(range(first_sent, last_sent + 1))
    key_ante = row.key_antecedent
    resp_ante = row.response_antecedent
    prev = None
    for s in shown:
        if prev is not None and s != prev + 1:
            out.append(" … ", style="dim")
        a, b = doc.sentence_bounds(s)
        for t in range(a, b + 1):
            style = ""
            if row.start <= t <= row.end:
                style = "bold reverse"
            elif key_ante and key_ante[0] <= t <= key_ante[1] and resp_ante and resp_ante[0] <= t <= resp_ante[1]:
                style = "bold underline green"
            elif key_ante and key_ante[0] <= t <= key_ante[1]:
                style = "underline green"
            elif resp_ante and resp_ante[0] <= t <= resp_ante[1]:
                style = "underline red"
            out.append(doc.tokens[t], style=style)
            out.append(" ")
        prev = s
    out.append("\n\n")
    out.append("referent ", style="bold")
    out.append(row.text + "\n", style="bold reverse")
    out.append("key antecedent ", style="bold")
    out.append(span_text(ev, row.doc_id, key_ante) + "\n", style="green")
    out.append("response antecedent ", style="bold")
    out.append(span_text(ev, row.doc_id, resp_ante) + "\n", style="red")
    for side, label in (("key", "key chain"), ("response", "response chain")):
        chain = chain_of(ev, row.doc_id, row.span, side)
        if chain:
            out.append(f"{label}: ", style="bold")
            out.append(" ← ".join(chain) + "\n")
    return out


def chain_of(ev: Evaluation, doc_id: str, span: tuple[int, int], side: str) -> list[str]:
    corpus = ev.key_corpus if side == "key" else ev.response_corpus
    doc = corpus.documents.get(doc_id) if corpus else None
    if doc is None:
        return []
    for c in doc.chains:
        spans = sorted({m.span for m in c.mentions})
        if span in spans:
            return [doc.text(*s) for s in spans]
    return []
