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
from ..present.why import outcome_index, why
from ..present.inert import inert
from ..present.labels import METRIC_LABELS, short_doc
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
    if cmp.entity_changes.get(system) is not None:
        out.append(PairRow("key entities changed", None, ("entities", ""),
                           (len(cmp.entity_changes[system].changes), cmp.entity_changes[system].entities)))
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


_ROWS: dict[int, dict[tuple, LinkOutcome]] = {}


def system_row(ev: Evaluation, c: LinkChange) -> LinkOutcome | None:
    """The system's outcome row of a changed referent (None: it has none there) — keyed as
    ``compare`` keys them (:func:`~corefreport.present.why.outcome_key`)."""
    index = _ROWS.get(id(ev.rows))
    if index is None:
        if len(_ROWS) > 16:
            _ROWS.clear()
        index = _ROWS[id(ev.rows)] = outcome_index(ev)
    return index.get((c.analysis, c.doc_id, c.start, c.end, c.side))


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
    :class:`ErrorClassDelta` rows; then how many of a class's errors only one system makes
    (``compare``'s :class:`~corefreport.scoring.errordiff.ErrorMatch`). Enter: the errors."""
    cmp = sy.comparison
    a, b = cmp.baseline, system
    rows = list(cmp.errors.get(system, []))
    alpha = cmp.resampling.alpha
    match = cmp.error_matches.get(system)
    counts = match.counts() if match is not None else {}

    def only(e: Any) -> tuple[str, str]:
        c = counts.get(e.cls)
        return (str(c["only_system"]), str(c["only_baseline"])) if c else ("", "")

    def cell(e: Any, full: bool) -> tuple:
        n, c = e.count, e.cost
        return (e.cls, signed_count(n.baseline).lstrip("+"), signed_count(n.system).lstrip("+"),
                signed_count(n.delta) + _sig(n, alpha), p_value(n.p), *only(e), signed(c.baseline), signed(c.system),
                signed(c.delta) + _sig(c, alpha))

    def values(e: Any) -> dict[str, Any]:
        c = counts.get(e.cls, {})
        return {"class": e.cls, f"{a} errors": e.count.baseline, f"{b} errors": e.count.system,
                "delta": e.count.delta, "p": e.count.p, f"only {b}": c.get("only_system"),
                f"only {a}": c.get("only_baseline"), "both": c.get("both"), f"{a} cost": e.cost.baseline,
                f"{b} cost": e.cost.system, "cost delta": e.cost.delta, "cost p": e.cost.p}

    cols = ("class", _short(a, 7), _short(b, 7), "Δ", "p", f"only {_short(b, 5)}", f"only {_short(a, 5)}",
            f"cost {_short(a, 5)}", f"cost {_short(b, 5)}", "Δ cost")
    return M.View("pair-errors", "error classes", cols, rows, cell, numeric=frozenset(range(1, 10)), values=values,
                  note=f"errors of each class in {a} and {b}, Δ (* p < {alpha:g}); only: errors one system makes and "
                       "the other does not (same document, class and mentions); cost: CoNLL F1 points fixing the "
                       "class gains, cumulatively in the analyser's order. Enter: the errors of a class")


@dataclass(frozen=True, slots=True)
class ErrorItem:
    """One error of a class in the two-system list: whose it is (:data:`~corefreport.scoring.errordiff.SIDES`)
    and each system's row (None where that system does not make it)."""

    side: str
    baseline: Any  # ErrorRow | None
    system: Any  # ErrorRow | None

    @property
    def row(self) -> Any:
        return self.system if self.system is not None else self.baseline

    @property
    def doc_id(self) -> str:
        return self.row.doc_id

    @property
    def start(self) -> int:
        return min(self.row.mentions)[0]

    @property
    def end(self) -> int:
        return min(self.row.mentions)[1]


ERROR_SIDE_STYLE = {"only_system": "red", "only_baseline": "green", "both": "yellow"}
"""Only the system's error: a loss for it (red); only the baseline's: avoided (green); both: yellow."""


def error_items(sy: Systems, system: str, cls: str) -> list[ErrorItem]:
    """The errors of class ``cls``: only the system's, then only the baseline's, then both's, each
    in document order (``compare``'s :class:`~corefreport.scoring.errordiff.ErrorMatch`)."""
    from ..scoring.errordiff import SIDES

    m = sy.comparison.error_matches.get(system)
    if m is None:
        return []
    out = []
    for side in SIDES:
        for r in m.rows(side, cls):
            out.append(ErrorItem(side, r[0], r[1]) if side == "both" else
                       ErrorItem(side, r, None) if side == "only_baseline" else ErrorItem(side, None, r))
    order = {d: i for i, d in enumerate(sy.comparison.documents)}
    return sorted(out, key=lambda it: (SIDES.index(it.side), order.get(it.doc_id, len(order)), it.row.sentence,
                                       min(it.row.mentions)))


def error_list_view(sy: Systems, system: str, cls: str, width: int = 80) -> View:
    """The errors of one class in three groups: those only the system makes, only the baseline
    makes, and both make — document, sentence, the mentions' words, their types."""
    from ..scoring.errordiff import SIDE_LABELS

    a, b = sy.baseline, system
    rows = error_items(sy, system, cls)
    w = max(20, width - 60)

    def whose(it: ErrorItem) -> str:
        return SIDE_LABELS[it.side].format(a=a, b=b)

    def words(it: ErrorItem) -> str:
        r = it.row
        return ", ".join(r.texts) if r.texts else ", ".join(f"{x}-{y}" for x, y in r.mentions)

    def cell(it: ErrorItem, full: bool) -> tuple:
        r = it.row
        text = words(it)
        return (Text(whose(it) if full else _short(whose(it), 12), style="" if full else ERROR_SIDE_STYLE[it.side]),
                r.doc_id if full else M.cut_middle(short_doc(r.doc_id), 22), str(r.sentence + 1),
                Text(inert(text if full or len(text) <= w else text[: w - 1] + "…")), "+".join(dict.fromkeys(r.mtypes)))

    def values(it: ErrorItem) -> dict[str, Any]:
        r = it.row
        return {"errors": it.side, "whose": whose(it), "class": r.cls, "document": r.doc_id, "sentence": r.sentence + 1,
                "mentions": words(it), "spans": " ".join(f"{x}-{y}" for x, y in r.mentions),
                "types": "+".join(dict.fromkeys(r.mtypes))}

    m = sy.comparison.error_matches.get(system)
    n = (m.counts().get(cls) if m is not None else None) or dict.fromkeys(ERROR_SIDE_STYLE, 0)
    note = (f"{cls}: {n['only_system']} only {b} (red), {n['only_baseline']} only {a} (green), {n['both']} both "
            f"(yellow) — the same error: same document, class and mentions. Enter: both systems' detail; v: the text")
    return M.View("pair-error-list", cls, ("whose", "document", "sent.", "mentions", "types"), rows, cell,
                  note=note, numeric=frozenset({2}), values=values)


def _holders(ev: Evaluation, doc_id: str, spans: tuple) -> list[tuple[tuple[int, int], list[tuple[int, int]]]]:
    """For each span: the mentions of the response entity that holds it ([] where none does)."""
    from ..present.context import document_of

    doc = document_of(ev, doc_id, "response")
    chains = [sorted({(m.start, m.end) for m in c.mentions}) for c in (doc.chains if doc is not None else [])]
    where = {sp: c for c in chains for sp in c}
    return [(sp, where.get(sp, [])) for sp in spans]


def error_pair_detail(sy: Systems, system: str, it: ErrorItem, width: int = 76):
    """One error of the two-system list: whose it is, then for each system either its error (the
    explanation and the key and response entities, :func:`~corefreport.tui.errors.error_detail`) or,
    where it does not make it, the response entity it puts each of the error's mentions in."""
    from rich.console import Group

    from ..scoring.errordiff import SIDE_LABELS
    from .errors import error_detail

    a, b = sy.baseline, system
    r = it.row
    head = Text()
    head.append(f" {SIDE_LABELS[it.side].format(a=a, b=b)} ", style=f"bold reverse {ERROR_SIDE_STYLE[it.side]}")
    head.append(inert(f" {r.cls} · {short_doc(r.doc_id)}, sentence {r.sentence + 1}"))
    parts: list = [head]
    for name, row in ((a, it.baseline), (b, it.system)):
        ev = sy.ev(name)
        parts.append(Text(f"── {inert(name)} " + "─" * max(0, width - len(name) - 4), style="bold"))
        if row is not None:
            parts.append(error_detail(ev, row))
            continue
        lines = Text(inert(f"{name} makes no {r.cls} error with these mentions:") + "\n")
        for sp, chain in _holders(ev, r.doc_id, r.mentions):
            words = span_text(ev, r.doc_id, sp, "key")
            if not chain:
                lines.append(inert(f"  “{words}” @{sp[0]}: not a mention of {name}") + "\n")
                continue
            others = [f"“{span_text(ev, r.doc_id, x, 'response')}” @{x[0]}" for x in chain if x != sp][:6]
            more = ", …" if len(chain) > 7 else ""
            lines.append(inert(f"  “{words}” @{sp[0]}: in an entity of {len(chain)} mention"
                               f"{'' if len(chain) == 1 else 's'}" + (" with " + ", ".join(others) + more if others
                                                                     else " (alone)")) + "\n")
        parts.append(lines)
    return Group(*parts)


def entities_view(sy: Systems, system: str, width: int = 80) -> View:
    """The key entities (two or more mentions) whose coverage changed from the baseline to the
    system (``compare``'s :class:`~corefreport.scoring.errordiff.EntityChanges`): newly found, lost,
    split, reunited, merged, unmerged — largest first."""
    cmp = sy.comparison
    a, b = cmp.baseline, system
    ch = cmp.entity_changes.get(system)
    rows = sorted(ch.changes, key=lambda e: (-len(e.mentions), e.doc_id, e.mentions[0])) if ch is not None else []
    d = 16 if width < 100 else 26
    w = max(14, width - 50 - d)
    bad = {"lost", "split", "merged"}

    def cell(e: Any, full: bool) -> tuple:
        kinds = ", ".join(e.kinds)
        style = "red" if set(e.kinds) <= bad else "green" if not set(e.kinds) & bad else "yellow"
        return (Text(inert(e.name if full or len(e.name) <= w else e.name[: w - 1] + "…")),
                e.doc_id if full else M.cut_middle(short_doc(e.doc_id), d), str(len(e.mentions)),
                f"{e.baseline.pieces}→{e.system.pieces}", f"{e.baseline.joined}→{e.system.joined}",
                Text(kinds, style="" if full else style))

    def values(e: Any) -> dict[str, Any]:
        return {"entity": e.name, "label": e.label, "document": e.doc_id, "mentions": len(e.mentions),
                f"pieces {a}": e.baseline.pieces, f"pieces {b}": e.system.pieces, f"joined {a}": e.baseline.joined,
                f"joined {b}": e.system.joined, f"found {a}": e.baseline.found, f"found {b}": e.system.found,
                "changes": ", ".join(e.kinds), "start": e.mentions[0][0], "end": e.mentions[0][1]}

    if ch is None:
        note = "the key entities that changed are compared on exact spans (--match exact) with -a errors"
    else:
        counts = ", ".join(f"{n} {k}" for k, n in ch.counts().items())
        note = (f"{len(rows)} of {ch.entities} key entities changed from {a} to {b}: {counts} (docs/compare.md). "
                f"pieces: the response entities holding its mentions ({a}→{b}); joined: the other key entities those "
                "hold. Enter: the document, the entity highlighted")
    return M.View("pair-entities", "key entities changed", ("entity", "document", "size", "pieces", "joined", "change"),
                  rows, cell, note=note, numeric=frozenset({2}), values=values)


View = M.View
MakeView = Callable[[Systems, str, int], View]
__all__ = ["ChangeScope", "ErrorItem", "GroupPair", "PairRow", "Systems", "Transition", "change_detail", "changes_view",
           "documents_view", "entities_view", "error_items", "error_list_view", "error_pair_detail", "errors_view",
           "groups_view", "system_row", "totals_view", "transitions_view", "NA"]
