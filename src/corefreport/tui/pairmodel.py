"""The view model of the many-system browser (``corefreport tui KEY A B [C…]``): pure functions
from :class:`Systems` — each system's :class:`Evaluation` (scored once, through the one pipeline)
and ``compare``'s :class:`~corefreport.scoring.compare.Comparison` of them — to what each page
shows, as :class:`~corefreport.tui.model.View` objects.

Nothing here computes a score: totals, deltas, intervals and p-values are the comparison's fields
(``MetricRow``, ``GroupDelta``, ``LinkComparison``, ``DocumentDelta``, ``ErrorClassDelta``); the
outcome mixes are :func:`~corefreport.scoring.outcomes.group_by` over each system's outcome rows;
every drill-down is a filter (:class:`ChangeScope`) of the referents ``compare`` found changed.

Pages: totals side by side (Δ, its interval, p) → the classes or types of an analysis, both systems'
outcomes side by side → the changed links of a group; the transitions of an analysis (WL→TP …) →
their links; the documents by Δ of the headline score → the changed links of a document; the error
classes of both. A changed link's detail is both systems' single-link details (``model.link_detail``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from rich.text import Text

from ..present.context import span_text
from ..present.why import why
from ..present.inert import inert
from ..present.labels import METRIC_LABELS
from ..present.numbers import NA, interval, p_value, pct, signed, signed_count
from ..scoring.registry import ROW_ANALYSES
from ..scoring.outcomes import LinkOutcome, OutcomeCounts, group_by
from ..scoring.result import Evaluation
from ..study.nodes import Systems  # noqa: F401 (what every view here shows)
from . import model as M

if TYPE_CHECKING:  # numpy comes with compare: not before the app's first paint
    from ..scoring.compare import Comparison, LinkChange, MetricRow

KIND_ORDER = {"gain": 0, "loss": 1, "change": 2}
KIND_LABEL = {"gain": "right only in {b}", "loss": "right only in {a}", "change": "wrong in both, differently"}
GROUP_BY = ("cls", "type")


def _short(name: str, n: int = 8) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"


def _sig(test: Any, alpha: float) -> str:
    return "*" if test is not None and test.significant(alpha) else ""


# --------------------------------------------------------------------------- totals


@dataclass(frozen=True, slots=True)
class PairRow:
    """A row of the side-by-side totals: a metric (``metric``) or a link-level analysis's changed
    links (``target``: ("analysis", name) opens its classes, ("changes", name) its transitions,
    ("errors", "") the error classes, ("documents", metric) the documents by Δ)."""

    label: str
    metric: MetricRow | None
    target: tuple[str, str] | None = None
    counts: tuple[int, int] | None = None
    """A "right only" row: the links right only in the baseline, right only in the system."""


ANALYSIS_OF_ROW = {"immediate": "immediate", "inferred": "inferred", "anchor": "anchor", "typed_micro": "typed"}
"""The metric rows of ``compare`` that are an analysis's totals: Enter opens its classes."""


def total_rows(sy: Systems, system: str) -> list[PairRow]:
    """Every row of ``compare``'s side-by-side table, then per analysis the links only one system
    gets right, then the error classes (with ``-a errors``)."""
    cmp = sy.comparison
    out: list[PairRow] = []
    for m in cmp.metrics:
        analysis = ANALYSIS_OF_ROW.get(m.name)
        target = ("analysis", analysis) if analysis and analysis in cmp.links.get(system, {}) else (
            ("documents", m.name) if m.name == cmp.headline else None)
        out.append(PairRow(m.label, m, target))
    for analysis, lc in cmp.links.get(system, {}).items():
        short = ROW_ANALYSES[analysis].short if analysis in ROW_ANALYSES else analysis
        out.append(PairRow(f"{short} right only", None, ("changes", analysis), (lc.losses, lc.gains)))
    if cmp.errors.get(system):
        out.append(PairRow("error classes", None, ("errors", "")))
    return out


def totals_view(sy: Systems, system: str, width: int = 120) -> View:
    """The totals of the baseline and ``system`` side by side: F1 of each, Δ (``*``: p < α), the
    interval of Δ and the p-value of the deciding test — ``compare``'s :class:`MetricRow` fields."""
    cmp = sy.comparison
    a, b = cmp.baseline, system
    alpha = cmp.resampling.alpha

    def cell(r: PairRow, full: bool) -> tuple:
        drill = " ›" if r.target and not full else ""
        if r.metric is None:
            n = r.counts or ("", "")
            return (r.label + drill, str(n[0]), str(n[1]), "", "", "")
        m = r.metric
        t = m.tests.get(b)
        if t is None:
            return (r.label + drill, pct(m.f1[a]), pct(m.f1.get(b)), "", "", "")
        d = signed(t.delta) + _sig(t, alpha)
        return (r.label + drill, pct(m.f1[a]), pct(m.f1[b]), d,
                interval(t.delta_ci) if sy.final else "…", p_value(t.p) if sy.final else "…")

    def values(r: PairRow) -> dict[str, Any]:
        m = r.metric
        t = m.tests.get(b) if m is not None else None
        return {"metric": r.label, a: m.f1[a] if m else None, b: m.f1[b] if m else None,
                "delta": t.delta if t else None, "delta low": t.delta_ci[0] if t else None,
                "delta high": t.delta_ci[1] if t else None, "p": t.p if t else None,
                "right only": list(r.counts) if r.counts else None}

    rs = cmp.resampling
    test = (f"approximate randomization, {rs.randomization} trials" if rs.randomization else
            f"paired bootstrap, {rs.bootstrap} resamples")
    lines = [f"{b} against {a} on {len(cmp.documents)} documents; Δ in points, * p < {alpha:g} ({test}, "
             f"seed {rs.seed}); interval: {rs.confidence:.0%} bootstrap of Δ; \"right only\": links right in one "
             "system only" if sy.final else
             (f"{b} against {a} on {len(cmp.documents)} documents: the standard metrics; the analyses, intervals "
              "and p-values are being computed" if b in cmp.names else
              f"{a} on {len(cmp.documents)} documents: the standard metrics; {b} is being scored")]
    lines += [inert(c.message) for c in cmp.cautions]
    if len(cmp.names) > 2:
        lines.append("n: compare the next system with " + a + " (" + ", ".join(cmp.systems) + ")")
    cols = ("metric", _short(a), _short(b), "Δ", "Δ interval", "p")
    return M.View("pair-totals", "totals", cols, total_rows(sy, system), cell, note="\n".join(lines),
                  numeric=frozenset({1, 2, 3, 5}), values=values)


# --------------------------------------------------------------------------- classes and types


@dataclass(frozen=True, slots=True)
class GroupPair:
    """One class or type: ``compare``'s :class:`GroupDelta` and each system's outcome counts
    (a group-by over its rows)."""

    group: str
    label: str
    delta: Any  # GroupDelta
    counts: tuple[OutcomeCounts | None, OutcomeCounts | None]


def group_counts(ev: Evaluation, analysis: str, by: str) -> dict[str, OutcomeCounts]:
    """The outcome counts of each value of ``by`` among ``ev``'s rows of ``analysis``."""
    return group_by(M.rows_of(ev, analysis), by)


def groups_view(sy: Systems, system: str, analysis: str, by: str = "cls") -> View:
    """The classes (``by="cls"``) or types of an analysis: key referents, both systems' outcome mix
    side by side, their F1, Δ (``*``: p < α) and p — ``compare``'s per-group tests. Largest first
    (key referents, or either response's when more)."""
    cmp = sy.comparison
    a, b = cmp.baseline, system
    ca, cb = group_counts(sy.ev(a), analysis, by), group_counts(sy.ev(b), analysis, by)
    rows = [GroupPair(g.group, g.label, g, (ca.get(g.group), cb.get(g.group)))
            for g in cmp.group_deltas(system, analysis, by)]
    rows.sort(key=lambda g: (-g.delta.support, g.delta.delta, g.group))
    alpha = cmp.resampling.alpha
    outs = M.outcome_columns(analysis)

    def mix(c: OutcomeCounts | None) -> Text:
        return M.mix_bar(c) if c is not None else Text(" " * 10)

    def cell(g: GroupPair, full: bool) -> tuple:
        t = g.delta.test
        name = g.group if not full or g.label == g.group else f"{g.group} ({g.label})"
        return (name if full else name[:20], str(g.delta.key_referents), mix(g.counts[0]), mix(g.counts[1]),
                pct(t.baseline), pct(t.system), signed(t.delta) + _sig(t, alpha), p_value(t.p))

    def values(g: GroupPair) -> dict[str, Any]:
        t = g.delta.test
        out: dict[str, Any] = {"group": g.group, "label": g.label, "key referents": g.delta.key_referents}
        for name, c in zip((a, b), g.counts):
            out |= {f"{name} {o}": (getattr(c, o.lower()) if c else 0) for o in outs}
        return out | {f"{a} F1": t.baseline, f"{b} F1": t.system, "delta": t.delta, "p": t.p}

    what = {"cls": "classes", "type": "types"}[by]
    cols = (M.COLUMN_TITLES.get(by, by), "key", f"mix {_short(a, 6)}", f"mix {_short(b, 6)}", _short(a, 7),
            _short(b, 7), "Δ", "p")
    note = (f"{len(rows)} {what} of {M.ANALYSIS_TITLES.get(analysis, analysis)}, largest first (7: by Δ); "
            f"mix: █ TP ▒ WL ░ FN ▁ FP; Δ * p < {alpha:g}; b: {'types' if by == 'cls' else 'classes'}; "
            "Enter: the changed links")
    return M.View("pair-groups", what, cols, rows, cell, note=note, numeric=frozenset({1, 4, 5, 6, 7}),
                  values=values)


# --------------------------------------------------------------------------- transitions and changed links


@dataclass(frozen=True, slots=True)
class Transition:
    """How many referents went from outcome ``before`` (the baseline's) to ``after`` (the
    system's); "none": no row (nothing spurious)."""

    before: str
    after: str
    n: int
    kind: str


def transitions_view(sy: Systems, system: str, analysis: str) -> View:
    """The transitions ``compare`` counted for one analysis (baseline outcome → system outcome),
    the changed ones only — a group-by of its changed referents by (outcome before, after, kind:
    "none" is right only on the response side, where it means nothing spurious): gains first,
    then losses, then the rest, largest first."""
    cmp = sy.comparison
    lc = cmp.links[system][analysis]
    a, b = cmp.baseline, system
    counts = Counter((c.baseline, c.system, c.kind) for c in lc.changes)
    rows = [Transition(x, y, n, k) for (x, y, k), n in counts.items()]
    rows.sort(key=lambda t: (KIND_ORDER[t.kind], -t.n, t.before, t.after))

    def cell(t: Transition, full: bool) -> tuple:
        return (f"{t.before} → {t.after}", KIND_LABEL[t.kind].format(a=a, b=b), str(t.n))

    def values(t: Transition) -> dict[str, Any]:
        return {a: t.before, b: t.after, "kind": t.kind, "links": t.n}

    note = (f"{M.ANALYSIS_TITLES.get(analysis, analysis)}: {lc.gains} right only in {b}, {lc.losses} right only "
            f"in {a}, {lc.both_right} right in both; none = no row (no spurious link). Enter: the links")
    return M.View("transitions", "transitions", (f"{_short(a)} → {_short(b)}", "which", "links"), rows, cell,
                  note=note, numeric=frozenset({2}), values=values)


@dataclass(frozen=True, slots=True)
class ChangeScope:
    """A selection of the changed links of one analysis: equality filters over ``transition``
    ("WL>TP"), ``kind``, ``cls``, ``type``, ``doc_id``. Every drill step adds one."""

    analysis: str
    where: tuple[tuple[str, str], ...] = ()
    query: str = ""
    """A search (``/``, :mod:`.pairsearch`) over the changes the filters keep."""

    def add(self, column: str, value: str) -> "ChangeScope":
        return ChangeScope(self.analysis, self.where + ((column, value),), self.query)

    def searched(self, query: str) -> "ChangeScope":
        return ChangeScope(self.analysis, self.where, query.strip())

    def matches(self, c: LinkChange) -> bool:
        for col, v in self.where:
            got = (f"{c.baseline}>{c.system}" if col == "transition" else c.kind if col == "kind"
                   else getattr(c, col))
            if got != v:
                return False
        return True

    def changes(self, sy: Systems, system: str) -> list[LinkChange]:
        lc = sy.comparison.links.get(system, {}).get(self.analysis)
        if lc is None:
            return []
        rows = [c for c in lc.changes if self.matches(c)]
        if self.query:
            from .pairsearch import change_text, search_changes

            key, a, b = sy.ev(sy.baseline), sy.ev(sy.baseline), sy.ev(system)
            rows = search_changes(rows, self.query, lambda c, where: change_text(key, a, b, c, where))
        return rows


def _antecedent(ev: Evaluation, c: LinkChange, span: tuple[int, int] | None, side: str) -> str:
    return span_text(ev, c.doc_id, span, side) if span else "—"


def changes_view(sy: Systems, system: str, scope: ChangeScope, width: int = 80) -> View:
    """The referents whose outcome changed: the transition, the referent, the key antecedent, each
    system's antecedent, the document — right only in the system first, then right only in the
    baseline, then the rest; in document order inside each."""
    cmp = sy.comparison
    a, b = cmp.baseline, system
    eva, evb = sy.ev(a), sy.ev(b)
    rows = sorted(scope.changes(sy, system), key=lambda c: (KIND_ORDER[c.kind], c.doc_id, c.start, c.end))
    w_ref, w_key, w_ab, w_doc = 13, 12, 12, 11
    if width > 80:
        free = width - 80
        w_ref, w_key, w_ab, w_doc = 13 + free * 3 // 10, 12 + free * 2 // 10, 12 + free // 10, 11 + free * 2 // 10

    def cut(s: str, n: int) -> str:
        return s if len(s) <= n else s[: n - 1] + "…"

    def texts(c: LinkChange) -> tuple[str, str, str]:
        key = _antecedent(eva, c, c.key_antecedent, "key")
        return key, _antecedent(eva, c, c.baseline_antecedent, "response"), \
            _antecedent(evb, c, c.system_antecedent, "response")

    def cell(c: LinkChange, full: bool) -> tuple:
        key, ta, tb = texts(c)
        tr = f"{c.baseline}→{c.system}"
        if full:
            return (tr, c.text, key, ta, tb, c.doc_id)
        style = "green" if c.kind == "gain" else "red" if c.kind == "loss" else "yellow"
        return (Text(tr, style=style), cut(c.text, w_ref), cut(key, w_key), cut(ta, w_ab), cut(tb, w_ab),
                M.cut_middle(c.doc_id, w_doc))

    def values(c: LinkChange) -> dict[str, Any]:
        key, ta, tb = texts(c)
        return {a: c.baseline, b: c.system, "kind": c.kind, "referent": c.text, "key antecedent": key,
                f"{a} antecedent": ta, f"{b} antecedent": tb, "document": c.doc_id, "start": c.start, "end": c.end,
                "class": c.cls, "type": c.type, "analysis": c.analysis}

    gains = sum(1 for c in rows if c.kind == "gain")
    losses = sum(1 for c in rows if c.kind == "loss")
    found = inert(f" matching “{scope.query}”") if scope.query else ""
    note = (f"{len(rows)} changed links{found}: {gains} right only in {b} (green), {losses} right only in {a} (red), "
            f"{len(rows) - gains - losses} wrong in both (yellow); v: the document with the key's, {a}'s and {b}'s mentions")
    cols = (f"{_short(a, 4)}→{_short(b, 4)}", "referent", "key antec.", f"{_short(a, 6)} antec.",
            f"{_short(b, 6)} antec.", "document")
    return M.View("changes", "changed links", cols, rows, cell, note=note, values=values)


_ROWS: dict[tuple[int, str], dict[tuple, LinkOutcome]] = {}


def system_row(ev: Evaluation, c: LinkChange) -> LinkOutcome | None:
    """The system's outcome row of a changed referent (None: it has none there) — keyed as
    ``compare`` keys them: document, span, side ("response" for an FP row)."""
    k = (id(ev.rows), c.analysis)
    index = _ROWS.get(k)
    if index is None:
        if len(_ROWS) > 16:
            _ROWS.clear()
        index = _ROWS[k] = {}
        for r in M.rows_of(ev, c.analysis):
            index.setdefault((r.doc_id, r.start, r.end, "response" if r.outcome == "FP" else "key"), r)
    return index.get((c.doc_id, c.start, c.end, c.side))


def change_detail(sy: Systems, system: str, c: LinkChange, width: int = 76) -> Text:
    """A changed link: the transition and what each system linked the referent to (its ``why``),
    then each system's single-link detail (``model.link_detail``: the sentences with the key's
    antecedent [K] and the system's [R], both chains side by side)."""
    a, b = sy.baseline, system
    out = Text()
    style = "green" if c.kind == "gain" else "red" if c.kind == "loss" else "yellow"
    out.append(f" {c.baseline} → {c.system} ", style=f"bold reverse {style}")
    out.append(inert(f" {KIND_LABEL[c.kind].format(a=a, b=b)} · {M.ANALYSIS_TITLES.get(c.analysis, c.analysis)} · "
                     f"{c.cls} › {c.type} · {c.doc_id} @{c.start}") + "\n")
    rows = []
    for name in (a, b):
        ev = sy.ev(name)
        r = system_row(ev, c)
        rows.append((name, ev, r))
        out.append(inert(f"{name}: "), style="bold")
        out.append(inert(f"{r.outcome} — {why(ev, r)}" if r is not None else
                         "no row: it links nothing there (right on the response side)") + "\n")
    for name, ev, r in rows:
        if r is None:
            continue
        out.append(f"── {inert(name)} " + "─" * max(0, width - len(name) - 4) + "\n", style="bold")
        out.append_text(M.link_detail(ev, r, width=width))
    return out


# --------------------------------------------------------------------------- documents and error classes


def documents_view(sy: Systems, system: str) -> View:
    """The documents by Δ of the headline score (CoNLL), largest loss of the system first:
    ``compare``'s :class:`DocumentDelta` rows."""
    cmp = sy.comparison
    a, b = cmp.baseline, system
    rows = list(cmp.per_document.get(system, []))
    label = METRIC_LABELS.get(cmp.headline, "CoNLL" if cmp.headline == "conll" else cmp.headline)

    def cell(d: Any, full: bool) -> tuple:
        return (d.doc_id if full else M.cut_middle(d.doc_id, 40), pct(d.baseline), pct(d.system), signed(d.delta))

    def values(d: Any) -> dict[str, Any]:
        return {"document": d.doc_id, a: d.baseline, b: d.system, "delta": d.delta}

    better = sum(1 for d in rows if d.delta > 0)
    worse = sum(1 for d in rows if d.delta < 0)
    return M.View("pair-documents", "documents", ("document", _short(a), _short(b), "Δ"), rows, cell,
                  numeric=frozenset({1, 2, 3}), values=values,
                  note=f"{len(rows)} documents by Δ {label} F1, largest loss of {b} first: {better} better, {worse} "
                       f"worse; Enter: the changed links of the document; v: its text")


def errors_view(sy: Systems, system: str) -> View:
    """The error classes of Kummerfeld & Klein (2013) of both systems: errors of each, Δ and p; the
    CoNLL F1 fixing the class gains each (cumulatively), Δ and p — ``compare``'s
    :class:`ErrorClassDelta` rows."""
    cmp = sy.comparison
    a, b = cmp.baseline, system
    rows = list(cmp.errors.get(system, []))
    alpha = cmp.resampling.alpha

    def cell(e: Any, full: bool) -> tuple:
        n, c = e.count, e.cost
        return (e.cls, signed_count(n.baseline).lstrip("+"), signed_count(n.system).lstrip("+"),
                signed_count(n.delta) + _sig(n, alpha), p_value(n.p), signed(c.baseline), signed(c.system),
                signed(c.delta) + _sig(c, alpha))

    def values(e: Any) -> dict[str, Any]:
        return {"class": e.cls, f"{a} errors": e.count.baseline, f"{b} errors": e.count.system,
                "delta": e.count.delta, "p": e.count.p, f"{a} cost": e.cost.baseline, f"{b} cost": e.cost.system,
                "cost delta": e.cost.delta, "cost p": e.cost.p}

    cols = ("class", _short(a, 7), _short(b, 7), "Δ", "p", f"cost {_short(a, 5)}", f"cost {_short(b, 5)}", "Δ cost")
    return M.View("pair-errors", "error classes", cols, rows, cell, numeric=frozenset(range(1, 8)), values=values,
                  note=f"errors of each class in {a} and {b}, Δ (* p < {alpha:g}); cost: CoNLL F1 points fixing the "
                       "class gains, cumulatively in the analyser's order (the errors themselves: tui KEY SYSTEM -a errors, x)")


View = M.View
MakeView = Callable[[Systems, str, int], View]
__all__ = ["ChangeScope", "GroupPair", "PairRow", "Systems", "Transition", "change_detail", "changes_view",
           "documents_view", "errors_view", "groups_view", "system_row", "totals_view", "transitions_view", "NA"]
