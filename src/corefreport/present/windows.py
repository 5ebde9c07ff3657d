"""What ``--window N`` adds to every output: the full documents and the windows side by side (each
metric's R, P, F1 both ways and what the cut costs), the windows' scores with their numerators and
denominators, and the key's antecedent links found within one window and across windows — and, for
``compare``, per system the difference of each score on the full documents and on the windows, and
of the links' recall, with its interval and p-value. The numbers come from
:class:`~corefreport.scoring.windows.Windows` and :class:`~corefreport.study.windows.WindowsComparison`;
nothing is computed here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..scoring.registry import REGISTRY
from .labels import METRIC_LABELS
from .numbers import interval, p_value, pct, signed
from .table import Table
from .tables import METRIC_COLUMN_LABELS, METRIC_GROUPS, METRIC_HEADER, metric_row

if TYPE_CHECKING:
    from ..scoring.result import Evaluation
    from ..scoring.windows import Windows
    from ..study.windows import WindowsComparison

LINK_TITLES = {"within": "within one window", "across": "across windows"}
"""The antecedent links by where their two mentions are."""


def rule_note(size: int) -> str:
    """The rule of the cut, in a table's note."""
    return (f"windows: a window closes at the end of the first sentence that brings it to {size} words or more; a "
            "mention is in the window of its first word, a chain cut by a border is one chain per window; each window "
            "scored as a document, micro over documents (docs/windows.md)")


LINKS_NOTE = ("antecedent links: each mention with the nearest earlier mention of its chain; a key link is found when "
              "the response has both mentions in one chain of the full document, a response link right when both "
              "are in one key chain (xCoRe's cross-context links: Martinelli, Gatti & Navigli 2025)")


def _scores(w: Windows) -> list[tuple[str, float | None, float | None, float, float | None, float | None, float]]:
    """(score, full R, full P, full F1, windowed R, windowed P, windowed F1): each metric, its
    derived scores (CoNLL), mention identification."""
    out = []
    for m in w.metrics:
        a, b = w.full[m], w.scores.metrics[m]
        out.append((m, a.recall, a.precision, a.f1, b.recall, b.precision, b.f1))
    cut = w.scores.derived
    for d, f in w.full_derived.items():
        if all(p in w.metrics for p in REGISTRY[d].requires) and d in cut:
            out.append((d, "", "", f, "", "", cut[d]))
    a, b = w.full_mentions, w.scores.mentions
    out.append(("mentions", a.recall, a.precision, a.f1, b.recall, b.precision, b.f1))
    return out


def side_by_side_table(w: Windows, signature: str = "") -> Table:
    """Per score: R, P, F1 on the full documents and on the windows, and the cost (windowed F1 − full F1)."""
    t = Table(f"Full documents and windows of {w.size} words ({w.scores.windows} windows)",
              ["metric", "full_recall", "full_precision", "full_f1", "windows_recall", "windows_precision",
               "windows_f1", "cost"],
              labels=["Metric", "R", "P", "F1", "R", "P", "F1", "Δ F1"],
              groups=[("Full documents (%)", 3), (f"Windows of {w.size} (%)", 3), ("", 1)])
    cost = w.cost
    for name, *values in _scores(w):
        if name == "mentions" or (REGISTRY.get(name) is not None and REGISTRY[name].requires):
            t.breaks.append(len(t.rows))
        t.rows.append([name, *values, signed(cost[name])])
    t.breaks = sorted(set(t.breaks) - {0})
    t.note = rule_note(w.size) + "; Δ F1: windows − full" + (f"; {signature}" if signature else "")
    return t


def windows_table(w: Windows) -> Table:
    """The windows' scores: each metric's R, P, F1 with numerators and denominators (what scorer.pl
    prints on the files cut into windows), CoNLL, mentions."""
    t = Table(f"Scores on windows of {w.size} words", list(METRIC_HEADER), groups=list(METRIC_GROUPS),
              labels=list(METRIC_COLUMN_LABELS))
    for m in w.metrics:
        t.rows.append(metric_row(m, w.scores.metrics[m]))
    t.breaks.append(len(t.rows))
    for d, f in w.scores.derived.items():
        if all(p in w.metrics for p in REGISTRY[d].requires):
            t.rows.append([d, "", "", f, None, None, None, None])
    t.rows.append(metric_row("mentions", w.scores.mentions))
    t.note = (f"{w.scores.windows} windows, {w.scores.key_chains} key and {w.scores.response_chains} response chains "
              f"(pieces); " + rule_note(w.size))
    return t


def links_table(w: Windows) -> Table:
    """The key's antecedent links within one window and across windows: found of the key's (recall),
    right of the response's (precision), F1."""
    t = Table(f"Antecedent links within one window and across windows of {w.size} words",
              ["links", "key_links", "found", "recall", "response_links", "right", "precision", "f1"],
              labels=["Links", "key", "found", "R", "response", "right", "P", "F1"],
              groups=[("Key links", 3), ("Response links", 3), ("", 1)])
    for kind, title in LINK_TITLES.items():
        c = w.scores.links[kind]
        t.rows.append([title, c.recall_den, c.recall_num, c.recall, c.precision_den, c.precision_num, c.precision,
                       c.f1])
    t.note = LINKS_NOTE
    return t


def windows_tables(ev: Evaluation) -> list[Table]:
    """The tables of ``--window`` (none without it)."""
    w = ev.windows
    if w is None:
        return []
    return [side_by_side_table(w), windows_table(w), links_table(w)]


def headline_table(w: Windows) -> Table:
    """One row per score: full F1, windowed F1 and the cost; then the links' recall within one
    window and across windows — the browser's page and the report's summary."""
    t = Table(f"Full documents against windows of {w.size} words", ["score", "full_f1", "windows_f1", "cost"],
              labels=["score", "full F1", f"windows of {w.size} F1", "Δ"], note=rule_note(w.size))
    cost = w.cost
    for name, _, _, full, _, _, cut in _scores(w):
        t.rows.append([METRIC_LABELS.get(name, name), full, cut, signed(cost[name])])
    t.breaks.append(len(t.rows))
    for kind, title in LINK_TITLES.items():
        c = w.scores.links[kind]
        t.rows.append([f"key links {title}: recall ({c.recall_num:g} of {c.recall_den:g})", None, c.recall, ""])
    return t


# --------------------------------------------------------------------------- compare


def comparison_tables(cmp: WindowsComparison) -> list[Table]:
    """One table per system: per score, on the full documents and on the windows, the baseline's and
    the system's F1, the difference, its 95 % interval and p-value; then the recall of the key's
    antecedent links within one window and across windows, the same way."""
    out = []
    names = {"full": "full documents", "windows": f"windows of {cmp.size}"}
    for s in cmp.systems:
        t = Table(f"{s} vs {cmp.baseline}: full documents and windows of {cmp.size} words",
                  ["metric", "setting", "baseline_f1", "system_f1", "delta", "delta_ci", "p"],
                  labels=["Score", "setting", cmp.baseline, s, "Δ", "95% CI of Δ", "p"],
                  note=(f"Δ, its interval and p: paired bootstrap ({cmp.bootstrap}) and approximate randomization "
                        f"({cmp.randomization}) over the documents, each with its counts on the full document, on its "
                        "windows or of its links; F1, and for the links the recall of the key's; "
                        + rule_note(cmp.size)))
        for m in cmp.metrics:
            if t.rows:
                t.breaks.append(len(t.rows))
            for setting in cmp.score_settings:
                x = cmp.tests[s][setting][m]
                t.rows.append([m, names[setting], pct(x.baseline), pct(x.system), signed(x.delta),
                               interval(x.delta_ci), p_value(x.p)])
        t.breaks.append(len(t.rows))
        for kind in cmp.link_settings:
            x = cmp.tests[s][kind][cmp.link_score]
            title = LINK_TITLES[kind]
            t.rows.append(["key links found", title, pct(x.baseline), pct(x.system), signed(x.delta),
                           interval(x.delta_ci), p_value(x.p)])
        out.append(t)
    return out


__all__ = ["LINK_TITLES", "comparison_tables", "headline_table", "links_table", "rule_note", "side_by_side_table",
           "windows_table", "windows_tables"]
