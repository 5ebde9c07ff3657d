"""The TUI's view model: pure functions from an :class:`Evaluation` to what each page shows.

Nothing here computes a score. Totals are fields of the result (``ev.metrics``, ``ev.arcs``, ``ev.typed``);
every other table is a :func:`~corefreport.scoring.outcomes.group_by` over the outcome rows and
every drill-down a filter of them (a :class:`Scope`). The app (``app.py``) only renders
:class:`View` objects, so tests can check what each page shows without a terminal.

Pages: totals → groups (classes of an analysis, or values of a breakdown feature) → groups (types
inside one class) → links (the outcome rows of one type, class or document) → one link in its
sentence. Documents (per-document scores, worst first) are reachable from every page.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from rich.text import Text

from ..present.context import Highlight, chain_name, chain_spans, end_tag, highlight, span_text, token_role
from ..present.why import why
from ..present.context import document_of as _doc
from ..present.inert import inert
from ..present.labels import COLUMN_TITLES, METRIC_LABELS, ROW_LABELS, SHORT_ANALYSIS
from ..present.numbers import count as num
from ..present.numbers import pct, shown_rpf
from ..present.tables import mentions_label
from ..scoring.registry import REGISTRY, ROW_ANALYSES, STANDARD_METRICS
from ..scoring.outcomes import ERRORS_FIRST_ORDER, OUTCOMES, LinkOutcome, OutcomeCounts, group_by, tally
from ..scoring.settings import DEFAULT_BY
from ..scoring.result import Evaluation, dd_conll
from .search import FIELDS, Query, QueryError, parse_query  # noqa: F401 (the link search lives in tui/search.py)

ANALYSIS_TITLES = ROW_LABELS
"""Short names that fit an 80-column table (the registry's :class:`RowAnalysis`); the report uses its titles."""

OUTCOME_STYLE = {"TP": "green", "WT": "cyan", "WL": "yellow", "WTL": "magenta", "FN": "red", "FP": "blue"}
"""The 8 basic ANSI colours only, so that 16-colour terminals (tmux, old xterms) show them."""
OUTCOME_GLYPH = {"TP": "█", "WT": "▓", "WL": "▒", "WTL": "▚", "FN": "░", "FP": "▁"}
"""One shade per outcome, so the mix bar still reads without colour (``NO_COLOR``, monochrome)."""
ERRORS_FIRST = {o: k for k, o in enumerate(ERRORS_FIRST_ORDER + ("TP",))}

DEFAULT_BREAKDOWNS = DEFAULT_BY
GROUP_SORTS = ("name", "F1", "size", "errors")
"""What ``s`` cycles through on a class/type table: name, F1 worst first, size and errors largest first."""


# --------------------------------------------------------------------------- views


@dataclass(slots=True)
class View:
    """One page's table: ``items`` (one per row: what Enter opens) and a formatter for their cells.

    Cells are formatted lazily (``rows(start, stop)``), so a page of 20,000 links costs only the rows
    the table loads; ``plain()`` formats everything, untruncated (export, tests).
    """

    kind: str
    title: str
    columns: tuple[str, ...]
    items: Sequence[Any]
    cell: Callable[[Any, bool], tuple]
    note: str = ""
    numeric: frozenset[int] = frozenset()
    values: Callable[[Any], dict[str, Any]] | None = None
    """One item as values for export (numbers as numbers, ids and offsets), column → value."""
    cell_cursor: bool = False
    """← → move a cursor over the cells (a matrix: Enter opens one cell) instead of scrolling."""

    def __len__(self) -> int:
        return len(self.items)

    def rows(self, start: int = 0, stop: int | None = None) -> list[tuple]:
        return [self.cell(it, False) for it in self.items[start:stop]]

    def plain(self, full: bool = True) -> list[list[str]]:
        return [[c.plain if isinstance(c, Text) else str(c) for c in self.cell(it, full)] for it in self.items]

    def records(self) -> list[dict[str, Any]]:
        """Every row as values (export): numbers stay numbers; without ``values``, the plain cells."""
        if self.values is not None:
            return [self.values(it) for it in self.items]
        return [dict(zip(self.columns, r)) for r in self.plain(full=True)]


SORT_MARK = {False: " ▲", True: " ▼"}
"""Shown after the header of the column a table is sorted by: ▲ ascending, ▼ descending."""


def sort_view(view: View, column: int, reverse: bool = False) -> View:
    """``view`` with its rows ordered by one column: by its value (numbers as numbers, from
    ``view.values`` when it has the column, else the plain cell; text case-insensitively), rows without a value last, ties in
    the view's own order; the column's header marked ▲ (ascending) or ▼ (``reverse``)."""
    name = view.columns[column]
    items = list(view.items)
    probe = view.values(items[0]) if view.values is not None and items else {}
    if name in probe:
        raw = [view.values(it).get(name) for it in items]
    else:
        raw = []
        for it in items:
            c = view.cell(it, True)[column]
            raw.append(c.plain if isinstance(c, Text) else c)

    numeric = column in view.numeric

    def number(v: Any) -> Any:
        if isinstance(v, str) and not numeric:
            return v.lower()
        if isinstance(v, str):
            try:
                return float(v.replace("%", ""))
            except ValueError:
                return v.lower()
        return v

    keyed = [(number(v), i) for i, v in enumerate(raw)]
    present = [k for k in keyed if k[0] is not None and k[0] != ""]
    nums = [k for k in present if not isinstance(k[0], str)]
    words = [k for k in present if isinstance(k[0], str)]
    order = sorted(nums, key=lambda k: k[0], reverse=reverse) + sorted(words, key=lambda k: k[0], reverse=reverse)
    order += [k for k in keyed if k[0] is None or k[0] == ""]
    cols = tuple(c + SORT_MARK[reverse] if j == column else c for j, c in enumerate(view.columns))
    note = f"sorted by {name}{SORT_MARK[reverse]} (again: reverse) — " + view.note
    return View(view.kind, view.title, cols, [items[i] for _, i in order], view.cell,
                note=note, numeric=view.numeric, values=view.values, cell_cursor=view.cell_cursor)


@dataclass(frozen=True, slots=True)
class Scope:
    """A selection of outcome rows: one analysis and equality filters (``cls``, ``type``, ``doc_id``,
    a feature). Every drill step adds one filter."""

    analysis: str
    where: tuple[tuple[str, str], ...] = ()

    def add(self, column: str, value: str) -> "Scope":
        return Scope(self.analysis, self.where + ((column, value),))

    @property
    def filters(self) -> dict[str, str]:
        return dict(self.where)

    def crumbs(self) -> list[str]:
        return [ANALYSIS_TITLES.get(self.analysis, self.analysis)] + [
            v if c in ("cls", "type", "doc_id") else f"{COLUMN_TITLES.get(c, c)} {v}" for c, v in self.where]

    def rows(self, ev: Evaluation) -> list[LinkOutcome]:
        sub = rows_of(ev, self.analysis)
        for c, v in self.where:
            sub = [r for r in sub if r.get(c) == v]
        return sub


# --------------------------------------------------------------------------- row index

_INDEX: dict[int, tuple[list[LinkOutcome], int, dict[str, list[LinkOutcome]]]] = {}


def _index(ev: Evaluation) -> dict[str, list[LinkOutcome]]:
    """The rows of each analysis, built once per row list (drill steps stay fast on 80k rows)."""
    rows = ev.rows
    hit = _INDEX.get(id(rows))
    if hit is None or hit[0] is not rows or hit[1] != len(rows):
        index: dict[str, list[LinkOutcome]] = {}
        for r in rows:
            index.setdefault(r.analysis, []).append(r)
        if len(_INDEX) > 4:
            _INDEX.clear()
        hit = _INDEX[id(rows)] = (rows, len(rows), index)
    return hit[2]


def rows_of(ev: Evaluation, analysis: str) -> list[LinkOutcome]:
    """The rows of one analysis (``ev.rows_of`` without a scan per call)."""
    return _index(ev).get(analysis, [])


_BY_DOC: dict[int, tuple[list[LinkOutcome], dict[str, list[LinkOutcome]]]] = {}


def doc_rows(ev: Evaluation, analysis: str, doc_id: str) -> list[LinkOutcome]:
    """The rows of one analysis in one document (an index built once per analysis: jumps stay
    fast on 80k rows)."""
    rows = rows_of(ev, analysis)
    hit = _BY_DOC.get(id(rows))
    if hit is None or hit[0] is not rows:
        by: dict[str, list[LinkOutcome]] = {}
        for r in rows:
            by.setdefault(r.doc_id, []).append(r)
        if len(_BY_DOC) > 16:
            _BY_DOC.clear()
        hit = _BY_DOC[id(rows)] = (rows, by)
    return hit[1].get(doc_id, [])


def analyses_present(ev: Evaluation) -> list[str]:
    """The link-level analyses that have rows: ARCS 1–3 and typed first, in that order."""
    index = _index(ev)
    return [a for a in ROW_ANALYSES if a in index] + sorted(a for a in index if a not in ROW_ANALYSES)


# --------------------------------------------------------------------------- totals


@dataclass(frozen=True, slots=True)
class TotalRow:
    label: str
    recall: float | None
    precision: float | None
    f1: float | None
    counts: str
    target: tuple[str, str] | None = None
    """("analysis", name): Enter opens its classes; ("metric", name): the documents, worst first."""


def mix_label(c: OutcomeCounts) -> str:
    return " ".join(f"{k} {v}" for k, v in zip(OUTCOMES, (c.tp, c.wt, c.wl, c.wtl, c.fn, c.fp)) if v)


def _fraction(num_: float, den: float) -> str:
    return f"{num(num_)}/{num(den)}"


def parts_label(name: str) -> str:
    """The scores a derived one is the mean of, their shared prefix written once: "MUC, B³, CEAF-e";
    "DD MUC, B³, CEAF-e"."""
    labels = [METRIC_LABELS.get(p, p) for p in REGISTRY[name].requires]
    prefix = labels[0].rsplit(" ", 1)[0] + " " if " " in labels[0] else ""
    if prefix and all(lab.startswith(prefix) for lab in labels):
        return ", ".join([labels[0], *(lab[len(prefix):] for lab in labels[1:])])
    return ", ".join(labels)


def total_rows(ev: Evaluation, extra: Sequence[TotalRow] = ()) -> list[TotalRow]:
    """Every metric computed (standard, then linguistically aware), CoNLL, DD CoNLL, ``extra`` (the
    app's: the Universal Anaphora layers' pages, :func:`.layermodel.layer_total_rows`), mention identification,
    the ARCS scenario totals (scenario 3 with entity detection / entity mentions), the typed
    evaluation's micro, macro and scheme-coverage scores."""
    out: list[TotalRow] = []
    for name, s in ev.metrics.items():
        metric = REGISTRY.get(name)
        if metric is None or metric.fraction:
            counts = _fraction(s.recall_num, s.recall_den) + "  " + _fraction(s.precision_num, s.precision_den)
            rpf = shown_rpf(s.recall, s.precision, s.f1, s.recall_den, s.precision_den)  # 0/0: n/a
        else:  # two kinds of links (BLANC): the coreference links' fractions
            c = getattr(s, "coref", None)
            counts = "coref links " + _fraction(c.recall_num, c.recall_den) + " " + _fraction(
                c.precision_num, c.precision_den) if c is not None else ""
            rpf = (s.recall, s.precision, s.f1)
        out.append(TotalRow(METRIC_LABELS.get(name, name), *rpf, counts, ("metric", name)))
    for name, f in ev.derived.items():  # CoNLL, DD CoNLL (Enter: the documents by it)
        out.append(TotalRow(METRIC_LABELS.get(name, name), None, None, f, "mean F1 of " + parts_label(name),
                            ("metric", name)))
    out.extend(extra)
    out.extend(alignment_rows(ev))
    m = ev.mentions
    out.append(TotalRow(mentions_label(ev).lower(), *shown_rpf(m.recall, m.precision, m.f1, m.recall_den, m.precision_den),
                        _fraction(m.recall_num, m.recall_den) + "  " + _fraction(m.precision_num, m.precision_den)))
    arcs = ev.arcs
    for name in analyses_present(ev):
        scen = arcs.scenarios.get(name) if arcs is not None and name != "typed" else None
        if name == "typed":
            continue
        c = scen.total if scen is not None else tally(rows_of(ev, name))
        out.append(TotalRow(ANALYSIS_TITLES.get(name, name), c.recall, c.precision, c.f1, mix_label(c),
                            ("analysis", name)))
        entity = getattr(scen, "entity", None) if scen is not None else None
        if entity is not None:
            d = entity.as_dict() if hasattr(entity, "as_dict") else entity
            for key, label in (("ed", "  entity detection"), ("em", "  entity mentions")):
                e = d.get(key)
                if e:
                    out.append(TotalRow(label, e["recall"], e["precision"], e["f1"],
                                        f"TP {e['tp']} FN {e['fn']} FP {e['fp']}", ("analysis", name)))
            if d.get("f_phi") is not None:
                out.append(TotalRow("  Fφ (ED, EM)", None, None, d["f_phi"], "harmonic mean", ("analysis", name)))
    if rows_of(ev, "typed"):
        typed = ev.typed
        c = tally(rows_of(ev, "typed"))
        out.append(TotalRow(ANALYSIS_TITLES["typed"], c.recall, c.precision, c.f1, mix_label(c), ("analysis", "typed")))
        if typed is not None:
            scheme = getattr(getattr(typed, "scheme", None), "name", "")
            for label, d in (("  micro", typed.micro), ("  macro", typed.macro),
                             ("  scheme coverage", typed.scheme_coverage)):
                out.append(TotalRow(label, d["recall"], d["precision"], d["f1"],
                                    f"scheme {scheme}, {len(typed.attempted)} classes attempted"
                                    if label == "  micro" else "", ("analysis", "typed")))
    if ev.warnings:
        out.append(TotalRow(f"⚠ {len(ev.warnings)} warning(s) ›", None, None, None,
                            "Enter lists them", ("warnings", "")))
    return out


def alignment_rows(ev: Evaluation) -> list[TotalRow]:
    """A text2text-coref response's split of the CoNLL score (:mod:`corefreport.scoring.alignloss`):
    the round-trip ceiling (the key through the format and back) with what the format cost, then for
    markup the alignment ceiling with what alignment cost and what the model lost (F1 points);
    Enter on the alignment row lists the words the alignment did not match."""
    loss = ev.results.get("alignment")
    if loss is None:
        return []
    out = []
    trip = loss.round_trip_cost("conll")
    if trip is not None:
        r = loss.reductions
        what = ("JSON" if not loss.markup else "markup") + " round trip"
        out.append(TotalRow(f"  {what}", None, None, loss.round_trip["conll"],
                            f"cost {trip[0]:.2f}: {r.get('discontinuous_reduced', 0)} discontinuous → head part, "
                            f"{r.get('zeros_dropped', 0)} zeros dropped"
                            + (f"; model {trip[1]:.2f}" if not loss.markup else "")))
    cost = loss.cost("conll")
    if cost is not None:
        out.append(TotalRow("  alignment ceiling", None, None, loss.ceiling["conll"],
                            f"cost: alignment {cost[0]:.2f}, model {cost[1]:.2f}", ("alignment", "")))
    return out


def alignment_view(ev: Evaluation) -> View:
    """The words a markup response's alignment did not match, one a row, in the key's order:
    document, what (substituted, inserted: a key word the response lacks, deleted: a response word
    the key lacks), the key's word and its number, the response's word and its number."""
    loss = ev.results.get("alignment")
    items = loss.edit_rows() if loss is not None else []

    def cell(r: dict, full: bool) -> tuple:
        return (inert(r["document"]), r["what"], "" if r["key_word_number"] < 0 else str(r["key_word_number"]),
                inert(r["key_word"]), "" if r["response_word_number"] < 0 else str(r["response_word_number"]),
                inert(r["response_word"]))

    counts = ", ".join(f"{loss.totals[w] if loss is not None else 0} {w}" for w in ("substituted", "inserted", "deleted"))
    return View("alignment", "alignment", ("document", "what", "key #", "key word", "resp. #", "response word"),
                items, cell, note=f"words the alignment did not match: {counts} (score --alignment-words FILE "
                                  "writes them)", numeric=frozenset({2, 4}), values=lambda r: dict(r))


def alignment_line(ev: Evaluation) -> str | None:
    """The words and tags of a markup response's alignment, in one line (under the totals)."""
    loss = ev.results.get("alignment")
    if loss is None:
        return None
    t = loss.totals
    words = ", ".join(f"{t.get(k, 0)} {w}" for k, w in (("matched", "matched"), ("substituted", "misspelt"),
                                                        ("inserted", "missing"), ("deleted", "extra")))
    tags = t.get("tags_dropped_by_alignment", 0) + t.get("tags_bad_id", 0) + t.get("unclosed_dropped", 0)
    return f"markup: {words} words; {tags} tag(s) lost"


def warnings_view(ev: Evaluation) -> View:
    """The warnings ``corefreport score`` prints (documents missing from the response, repeated
    spans, token mismatches…), one a row."""
    def cell(w: str, full: bool) -> tuple:
        return (w,) if full else (re.sub(r"^\S*/([^/\s:]+):", r"\1:", w),)  # the file name, not its path

    return View("warnings", "warnings", ("warning",), list(ev.warnings), cell,
                note=f"{len(ev.warnings)} warning(s) from reading and aligning the key and the response",
                values=lambda w: {"warning": w})


NARROW_OUTCOMES = (("anaphor found ", "AR "), ("same entity ", "ent "), ("wrong anchor ", "wrong "), ("matched ", "ok "), ("missed ", "FN "),
                   ("spurious ", "FP "), ("found ", "TP "))
"""The UA layers' outcome words (tui/layermodel.py) as an 80-column totals row writes them."""


def compact_mix(counts: str) -> str:
    """``TP 742 WT 121`` → ``TP742 WT121``, ``matched 3 missed 1`` → ``ok3 FN1``: an outcome mix
    that fits 80 columns."""
    for word, short in NARROW_OUTCOMES:
        counts = re.sub(rf"\b{word}(?=\d)", short, counts)
    return re.sub(r"\b(TP|WT|WL|WTL|FN|FP|ok|ent|wrong|AR) (\d)", r"\1\2", counts)


def totals_view(ev: Evaluation, width: int = 120, extra: Sequence[TotalRow] = ()) -> View:
    """Every total; below 100 columns the outcome mixes are written without spaces (``TP742``)
    and only the analysis rows themselves carry the drill-in mark, so the counts fit 80 columns."""
    narrow = width < 100

    def cell(r: TotalRow, full: bool) -> tuple:
        drill = r.target and r.target[0] in ("analysis", "layer", "strata", "windows") and not full and not (narrow and r.label.startswith("  "))
        label = r.label + (" ›" if drill else "")
        counts = compact_mix(r.counts) if narrow and not full else r.counts
        return (label, pct(r.recall), pct(r.precision), pct(r.f1), counts)

    def values(r: TotalRow) -> dict[str, Any]:
        return {"metric": r.label.removesuffix(" ›").strip(), "R": r.recall, "P": r.precision, "F1": r.f1,
                "counts": r.counts}

    return View("totals", "totals", ("metric", "R", "P", "F1", "counts"), total_rows(ev, extra), cell,
                note=summary(ev), numeric=frozenset({1, 2, 3}), values=values)


def summary(ev: Evaluation) -> str:
    """Corpus sizes of both sides (key/response) and the signature (printed under the totals)."""
    k, r = ev.key_stats, ev.response_stats
    lines = [f"key/resp.: {k.documents}/{r.documents} docs, {k.mentions}/{r.mentions} mentions, "
             f"{k.chains}/{r.chains} chains ({k.singletons}/{r.singletons} single)"]
    if ev.settings.singletons == "drop":  # the sizes are as read: say what was scored
        m = ev.mentions
        lines[0] += f", as read; scored without singletons: {num(m.recall_den)}/{num(m.precision_den)} mentions"
    markup = alignment_line(ev)
    if markup:
        lines.append(markup)
    if ev.warnings:
        lines.append(f"⚠ {len(ev.warnings)} warning(s): the last row of the table (End, Enter) lists them")
    lines.append(inert(str(ev.signature)))  # a scheme path may hold a line break
    return "\n".join(lines)


# --------------------------------------------------------------------------- groups


@dataclass(frozen=True, slots=True)
class GroupRow:
    key: str
    counts: OutcomeCounts
    scope: Scope
    """The rows of this group: what Enter drills into."""


def mix_bar(c: OutcomeCounts, width: int = 10) -> Text:
    """A stacked bar of the outcome mix: one colour and one shade per outcome, always ``width``
    cells (largest remainders), every non-zero outcome at least one cell when there is room."""
    counts = [(k, v) for k, v in zip(OUTCOMES, (c.tp, c.wt, c.wl, c.wtl, c.fn, c.fp)) if v]
    total = sum(v for _, v in counts)
    bar = Text(no_wrap=True, overflow="crop")
    if not total:
        bar.append(" " * width)
        return bar
    exact = [width * v / total for _, v in counts]
    cells = [int(x) for x in exact]
    if len(counts) <= width:
        for i, n in enumerate(cells):
            if n == 0:
                cells[i] = 1
    while sum(cells) > width:  # take from outcomes that keep at least one cell
        i = max((j for j in range(len(cells)) if cells[j] > 1 or len(counts) > width),
                key=lambda j: (cells[j] - exact[j], cells[j]))
        cells[i] -= 1
    while sum(cells) < width:
        i = max(range(len(cells)), key=lambda j: exact[j] - cells[j])
        cells[i] += 1
    for (k, _), n in zip(counts, cells):
        if n:
            bar.append(OUTCOME_GLYPH[k] * n, style=OUTCOME_STYLE[k])
    return bar


def breakdowns(ev: Evaluation, analysis: str) -> list[str]:
    """What a class table can group by, computed now from the rows (any feature, whatever the run
    chose): the class, the chosen breakdown features, every other feature the rows carry, the document."""
    feats = ev.features(analysis)
    by = [f for f in (ev.settings.by or DEFAULT_BREAKDOWNS) if f in feats]
    return ["cls"] + by + [f for f in feats if f not in by] + ["doc_id"]


def group_rows(ev: Evaluation, scope: Scope, column: str) -> list[GroupRow]:
    return [GroupRow(k, c, scope.add(column, k)) for k, c in group_by(scope.rows(ev), column).items()]


def sort_groups(groups: list[GroupRow], sort: str, reverse: bool = False) -> list[GroupRow]:
    """``name``; ``F1``/``P``/``R`` worst first; ``size`` (key referents + FP) and ``errors`` (all but
    TP) and the outcome columns largest first. ``reverse`` flips the order."""
    def errors(c: OutcomeCounts) -> int:
        return c.resolved + c.fn + c.fp - c.tp

    keys: dict[str, Callable[[GroupRow], Any]] = {
        "name": lambda g: g.key,
        "F1": lambda g: (g.counts.f1, g.key), "P": lambda g: (g.counts.precision, g.key),
        "R": lambda g: (g.counts.recall, g.key),
        "size": lambda g: (-(g.counts.key_total + g.counts.fp), g.key),
        "errors": lambda g: (-errors(g.counts), g.key),
    }
    for o in OUTCOMES:
        keys[o] = lambda g, o=o: (-getattr(g.counts, o.lower()), g.key)
    keys["mix"] = lambda g: (-(g.counts.tp / ((g.counts.key_total + g.counts.fp) or 1)), g.key)
    return sorted(groups, key=keys.get(sort, keys["name"]), reverse=reverse)


def outcome_columns(analysis: str) -> tuple[str, ...]:
    """ARCS has no WT/WTL: those columns are left out to fit 80 columns."""
    return OUTCOMES if analysis == "typed" else ("TP", "WL", "FN", "FP")


def group_view(ev: Evaluation, scope: Scope, column: str, sort: str = "name", reverse: bool = False) -> View:
    """Classes (``column="cls"``), types (``"type"``), documents (``"doc_id"``) or the values of a
    feature, of the rows in ``scope``: outcome counts, P, R, F1 and a bar of the outcome mix."""
    outs = outcome_columns(scope.analysis)
    groups = sort_groups(group_rows(ev, scope, column), sort, reverse)
    typed = ev.typed if scope.analysis == "typed" else None
    scheme = getattr(typed, "scheme", None)

    def cell(g: GroupRow, full: bool) -> tuple:
        c = g.counts
        key = g.key
        if full and scheme is not None and column == "cls":
            key = f"{g.key} ({scheme.class_name(g.key)})" if scheme.class_name(g.key) != g.key else g.key
        return (key if full else key[:28], mix_bar(c), *(str(getattr(c, o.lower())) for o in outs),
                pct(c.precision), pct(c.recall), pct(c.f1))

    cols = (COLUMN_TITLES.get(column, column), "mix", *outs, "P", "R", "F1")
    n = len(cols)

    def values(g: GroupRow) -> dict[str, Any]:
        c = g.counts
        return {cols[0]: g.key, **{o: getattr(c, o.lower()) for o in outs},
                "P": c.precision, "R": c.recall, "F1": c.f1}

    what = {"cls": "classes", "type": "types", "doc_id": "documents"}.get(
        column, f"values of {COLUMN_TITLES.get(column, column)}")
    order = {"name": "name", "F1": "F1, worst first", "P": "P, worst first", "R": "R, worst first",
             "size": "size, largest first", "errors": "errors, most first", "mix": "share of TP, largest first"}
    return View("groups", "", cols, groups, cell, numeric=frozenset(range(2, n)), values=values,
                note=f"{len(groups)} {what}, by {order.get(sort, sort + ', largest first')}"
                     + (" (reversed)" if reverse else "") + " — s: sort" + (", b: group by" if column != "type" else ""))


# --------------------------------------------------------------------------- links


def type_pair(r: LinkOutcome) -> str:
    """Key link type → response link type of a typed row (``—`` where a side has no link)."""
    key = "—" if r.outcome == "FP" else r.type
    resp = "—" if r.outcome == "FN" else (r.features.get("response_type") or (r.type if r.outcome != "FN" else "—"))
    return f"{key} → {resp}"


NO_LINK = "—"
"""A side without a link in the confusion matrix: the "—" column holds the FN (no response
link), the "—" row the FP (no key link)."""


def type_sides(r: LinkOutcome, level: str = "type", scheme: Any = None) -> tuple[str, str]:
    """(key side, response side) of a typed row, as link types (``level="type"``) or their classes
    (``"cls"``), ``—`` where a side has no link."""
    key, _, resp = type_pair(r).partition(" → ")
    if level == "cls":
        def cls(t: str) -> str:
            if t == NO_LINK:
                return t
            return scheme.class_of(t) if scheme is not None else t

        return cls(key), cls(resp)
    return key, resp


@dataclass(frozen=True, slots=True)
class ConfusionRow:
    key: str
    """The key's link type (or class); ``—`` for the response's links the key does not have (FP)."""
    counts: dict[str, int]
    """Response type (or class) → how many referents."""


def confusion_view(ev: Evaluation, level: str = "cls") -> View:
    """The typed evaluation's confusion matrix: key link type (rows) × response link type
    (columns), counting referents — ``Evaluation.group_by`` over the typed rows by the pair of
    types; ``level="cls"`` groups the types by class. The diagonal holds TP and WL (right type),
    the rest WT and WTL (wrong type); the "—" column the FN, the "—" row the FP. Enter on a cell
    opens its links (on the first column: every link of the row)."""
    typed = ev.typed
    scheme = getattr(typed, "scheme", None)
    level = level if level in ("cls", "type") else "cls"
    pairs = ev.group_by("typed", lambda r: "\t".join(type_sides(r, level, scheme)))
    table: dict[str, dict[str, int]] = {}
    totals: dict[str, int] = {}
    for pair, c in pairs.items():
        k, r = pair.split("\t")
        n = c.tp + c.wt + c.wl + c.wtl + c.fn + c.fp
        table.setdefault(k, {})[r] = n
        totals[r] = totals.get(r, 0) + n

    def order(labels: Any, size: Callable[[str], int]) -> list[str]:
        return sorted((x for x in labels if x != NO_LINK), key=lambda x: (-size(x), x)) + (
            [NO_LINK] if NO_LINK in labels else [])

    rows = [ConfusionRow(k, table[k]) for k in order(table, lambda k: sum(table[k].values()))]
    cols = order(totals, lambda r: totals[r])
    label = {"cls": "class", "type": "type"}[level]

    def cell(row: ConfusionRow, full: bool) -> tuple:
        out: list[Any] = [row.key]
        for r in cols:
            n = row.counts.get(r, 0)
            style = "bold" if r == row.key and r != NO_LINK else ""
            out.append(Text(str(n), style=style) if n else Text("·", style="dim"))
        out.append(str(sum(row.counts.values())))
        return tuple(out)

    def values(row: ConfusionRow) -> dict[str, Any]:
        return {f"key {label} \\ response": row.key, **{r: row.counts.get(r, 0) for r in cols},
                "total": sum(row.counts.values())}

    right = sum(n for row in rows for r, n in row.counts.items() if r == row.key and r != NO_LINK)
    both = sum(n for row in rows for r, n in row.counts.items() if row.key != NO_LINK and r != NO_LINK)
    return View("confusion", "confusion", (f"key {label} \\ response", *cols, "total"), rows, cell,
                numeric=frozenset(range(1, len(cols) + 2)), values=values, cell_cursor=True,
                note=f"typed: key {label} (rows) × response {label} (columns); {right} of {both} linked on both "
                     f"sides have the key's {label}; — = no link (FN column, FP row). ← → pick a cell, Enter: its "
                     f"links; b: by {'type' if level == 'cls' else 'class'}")


def confusion_possible(ev: Evaluation) -> bool:
    """Whether the typed confusion matrix can hold a cell off its diagonal: the key's and the
    response's link types come from each side's annotation. Under a scheme whose types are derived
    from the referent itself (``source = "derived"``, the default for CoNLL-2012) both sides type
    the same mention alike, so every linked referent is on the diagonal (no WT, no WTL) and the
    matrix says nothing the classes page does not (docs/typed-evaluation.md)."""
    scheme = getattr(ev.typed, "scheme", None)
    return bool(rows_of(ev, "typed")) and getattr(scheme, "source", "") != "derived"


def empty_cell_reason(key: str, response: str | None, level: str = "cls") -> str:
    """Why a cell of the confusion matrix holds no referent (one status line: short, to fit 80 columns).

    >>> empty_cell_reason("—", "—")
    'always empty: a referent neither side links is not a row'
    >>> empty_cell_reason("ana", "coref")
    'empty: no key ana link was typed coref by the response (WT/WTL)'
    """
    label = {"cls": "class", "type": "type"}.get(level, level)
    if response is None:
        return f"empty: no key link of {label} {key}"
    if key == NO_LINK and response == NO_LINK:
        return "always empty: a referent neither side links is not a row"
    if key == NO_LINK:
        return f"empty: no spurious response {response} link (FP)"
    if response == NO_LINK:
        return f"empty: no key {key} link is missed (FN)"
    if key == response:
        return f"empty: no key {key} link got a response {response} link (TP/WL)"
    return f"empty: no key {key} link was typed {response} by the response (WT/WTL)"


def confusion_rows(ev: Evaluation, level: str, key: str, response: str | None) -> list[LinkOutcome]:
    """The typed rows of one cell of the confusion matrix (``response=None``: the whole row)."""
    scheme = getattr(ev.typed, "scheme", None)
    out = []
    for r in rows_of(ev, "typed"):
        k, p = type_sides(r, level, scheme)
        if k == key and (response is None or p == response):
            out.append(r)
    return out


def entity_rows(ev: Evaluation, row: LinkOutcome) -> list[LinkOutcome]:
    """The rows of ``row``'s analysis whose referent is a mention of its key entity (its key chain)."""
    spans = set(chain_spans(ev, row.doc_id, row.span, "key")) or {row.span}
    return [r for r in doc_rows(ev, row.analysis, row.doc_id) if r.span in spans]


def referent_rows(ev: Evaluation, row: LinkOutcome) -> list[LinkOutcome]:
    """The same referent (document and span) in every analysis computed."""
    return [r for a in analyses_present(ev) for r in doc_rows(ev, a, row.doc_id) if r.span == row.span]


def search_text(ev: Evaluation, r: LinkOutcome, where: str = "link") -> str:
    """The text a search's words are matched in (:mod:`.search`, ``in:WHERE``): ``mention`` the
    referent's words; ``sentence`` the referent's sentence (the key's tokens); ``link`` the referent,
    the key's and the response's antecedent and the document id (its ``_`` separating words)."""
    if where == "mention":
        return r.text
    if where == "sentence":
        doc = _doc(ev, r.doc_id, "key")
        if doc is None:
            return r.text
        a, b = doc.sentence_bounds(doc.sentence_of(r.start))
        return " ".join(doc.tokens[a:b + 1])
    return "\n".join((r.text, span_text(ev, r.doc_id, r.key_antecedent, "key") if r.key_antecedent else "",
                      span_text(ev, r.doc_id, r.response_antecedent, "response") if r.response_antecedent else "",
                      r.doc_id))


def link_rows(ev: Evaluation, scope: Scope, query: str | Query = "",
              pick: Callable[[Evaluation], list[LinkOutcome]] | None = None) -> list[LinkOutcome]:
    """The outcome rows in ``scope`` (or those ``pick`` chooses) matching ``query``: errors first
    (WTL, WL, WT, FN, FP, then TP), then in document order."""
    q = parse_query(query) if isinstance(query, str) else query
    rows = pick(ev) if pick is not None else scope.rows(ev)
    if q:
        rows = [r for r in rows if q.matches(r, lambda r, where: search_text(ev, r, where))]
    return sorted(rows, key=lambda r: (ERRORS_FIRST.get(r.outcome, 9), r.doc_id, r.start, r.end))


def cut_middle(s: str, n: int) -> str:
    """``s`` in ``n`` characters, cut in the middle (document ids differ at their end:
    ``GUM_academic_exposure`` → ``GUM_…_exposure``), a CoNLL-2012 ``; part 000`` dropped first
    (other parts kept as ``·N``)."""
    if len(s) <= n:
        return s
    part = re.match(r"(.*); part (\d+)$", s)  # CoNLL-2012 ids: "GUM_news_nasa; part 000"
    if part:
        s = part.group(1) + ("" if int(part.group(2)) == 0 else f"·{int(part.group(2))}")
        if len(s) <= n:
            return s
    head = (n - 1) // 3
    return s[:head] + "…" + s[len(s) - (n - 1 - head):]


def link_widths(width: int) -> tuple[int, int, int, int]:
    """Widths of the referent, key antecedent, response antecedent and document columns for a
    terminal ``width`` columns wide (80 → 17, 14, 16, 14)."""
    free = max(61, width - 19) - 61  # 7 (outcome) + 10 (cell padding) + 2 (scrollbar) + 61 at 80 columns
    return 17 + free * 3 // 10, 14 + free * 2 // 10, 16 + free * 2 // 10, 14 + free * 3 // 10


def link_view(ev: Evaluation, scope: Scope, query: str = "", width: int = 80,
              pick: Callable[[Evaluation], list[LinkOutcome]] | None = None) -> View:
    """The outcome rows of a scope (or of ``pick``): outcome, referent, key antecedent, response
    antecedent, document (cut to fit ``width`` terminal columns; ``plain()`` gives them whole)."""
    rows = link_rows(ev, scope, query, pick)
    w_ref, w_key, w_resp, w_doc = link_widths(width)

    def cut(s: str, n: int) -> str:
        return s if len(s) <= n else s[: n - 1] + "…"

    analyses = {r.analysis for r in rows}
    by_analysis = len(analyses) > 1  # the same referent in every analysis (a): say which one each row is

    def last(r: LinkOutcome, full: bool) -> str:
        if by_analysis:
            return ROW_LABELS.get(r.analysis, r.analysis) if full else SHORT_ANALYSIS.get(r.analysis, r.analysis)
        return r.doc_id if full else cut_middle(r.doc_id, w_doc)

    def cell(r: LinkOutcome, full: bool) -> tuple:
        key = span_text(ev, r.doc_id, r.key_antecedent, "key")
        resp = span_text(ev, r.doc_id, r.response_antecedent, "response")
        if full:
            return (r.outcome, r.text, key, resp, last(r, True))
        return (Text(r.outcome, style=OUTCOME_STYLE.get(r.outcome, "")), cut(r.text, w_ref), cut(key, w_key),
                cut(resp, w_resp), last(r, False))

    def values(r: LinkOutcome) -> dict[str, Any]:
        k, p = r.key_antecedent, r.response_antecedent
        return {"outcome": r.outcome, "referent": r.text, "key antecedent": span_text(ev, r.doc_id, k, "key"),
                "resp. antecedent": span_text(ev, r.doc_id, p, "response"), "document": r.doc_id,
                "start": r.start, "end": r.end, "key start": k[0] if k else None, "key end": k[1] if k else None,
                "resp. start": p[0] if p else None, "resp. end": p[1] if p else None,
                "class": r.cls, "type": r.type, "credit": r.credit, "analysis": r.analysis}

    total = len(pick(ev) if pick is not None else scope.rows(ev))
    note = f"{len(rows)} links" + (inert(f" of {total} match “{query}”") if query else "")
    if by_analysis:
        docs = sorted({r.doc_id for r in rows})
        note += inert(f" in {len(analyses)} analyses, one a row (the analysis column); document "
                      f"{', '.join(docs)}")
    return View("links", "", ("outcome", "referent", "key antecedent", "resp. antecedent",
                              "analysis" if by_analysis else "document"),
                rows, cell, note=note, values=values)


# --------------------------------------------------------------------------- documents


@dataclass(frozen=True, slots=True)
class DocRow:
    doc_id: str
    conll: float | None
    f1: dict[str, float]
    mentions: float


def document_rows(ev: Evaluation, sort: str | None = None) -> list[DocRow]:
    """Per-document scores, worst first by ``sort`` (a metric name, ``conll``, ``mentions``, or
    ``name``); by default CoNLL, or the first metric when CoNLL is not computed."""
    out = [DocRow(d.doc_id, d.conll(), {n: s.f1 for n, s in d.metrics.items()} | _dd_conll(d), d.mentions.f1)
           for d in ev.documents]
    if sort is None:
        sort = "conll" if ev.conll is not None else next(iter(ev.metrics), "name")
    if sort == "name":
        return sorted(out, key=lambda d: d.doc_id)

    def value(d: DocRow) -> float:
        if sort == "conll":
            return d.conll if d.conll is not None else 0.0
        if sort == "mentions":
            return d.mentions
        return d.f1.get(sort, 0.0)

    return sorted(out, key=lambda d: (value(d), d.doc_id))


def _dd_conll(d: Any) -> dict[str, float]:
    """A document's DD CoNLL (the result's, :func:`~corefreport.scoring.result.dd_conll`), to sort by."""
    f = dd_conll(d.metrics)
    return {} if f is None else {"dd_conll": f}


def document_sorts(ev: Evaluation) -> list[str]:
    return ((["conll"] if ev.conll is not None else []) + list(ev.metrics)
            + (["dd_conll"] if ev.dd_conll is not None else []) + ["mentions", "name"])


def document_view(ev: Evaluation, sort: str | None = None, width: int = 120) -> View:
    """Per-document F1, worst first: CoNLL, the standard metrics, mention identification, and the
    metric sorted by when it is another one (linguistically aware metrics are sortable with ``s``
    but not all shown: every extra column costs each repaint of an 80-column table)."""

    rows = document_rows(ev, sort)
    has_conll = ev.conll is not None
    sort = sort or ("conll" if has_conll else next(iter(ev.metrics), "name"))
    names = [n for n in ev.metrics if n in STANDARD_METRICS or n == sort] + (["dd_conll"] if sort == "dd_conll" else [])

    cols = ("document",) + (("CoNLL",) if has_conll else ()) + tuple(METRIC_LABELS.get(n, n) for n in names) + (
        "mentions",)
    # every score column in sight: the document ids give way (cut in the middle) down to 12 characters
    room = width - 2 - sum(max(5, len(c)) + 2 for c in cols[1:]) - 2 - len(SORT_MARK[False])  # room for ▲
    longest = max((len(d.doc_id) for d in rows), default=8)
    id_width = max(12, room) if room < longest else longest
    cut_ids = id_width < longest

    def cell(d: DocRow, full: bool) -> tuple:
        return ((d.doc_id if full else cut_middle(d.doc_id, id_width),) + ((pct(d.conll),) if has_conll else ()) + tuple(pct(d.f1.get(n)) for n in names)
                + (pct(d.mentions),))

    label = "name" if sort == "name" else METRIC_LABELS.get(sort, sort) + " F1, worst first"

    def values(d: DocRow) -> dict[str, Any]:
        return dict(zip(cols, (d.doc_id,) + ((d.conll,) if has_conll else ()) + tuple(d.f1.get(n) for n in names)
                        + (d.mentions,)))

    return View("documents", "documents", cols, rows, cell, numeric=frozenset(range(1, len(cols))), values=values,
                note=f"{len(rows)} documents by {label} (s: next metric)"
                     + (" — ids cut to fit (Enter, export: whole)" if cut_ids else ""))


def document_column_sorts(ev: Evaluation, view: View) -> list[str]:
    """The sort key of each column of a documents view (for a click on its header)."""

    by_label = {METRIC_LABELS.get(n, n): n for n in ev.metrics if n in STANDARD_METRICS} | {
        METRIC_LABELS.get(n, n): n for n in (*ev.metrics, "dd_conll")}
    return ["name"] + [("conll" if c == "CoNLL" else "mentions" if c == "mentions" else by_label.get(c, "name"))
                       for c in view.columns[1:]]


# --------------------------------------------------------------------------- one link

REFERENT_STYLE = "bold reverse"
KEY_STYLE = "bold green underline"
RESPONSE_STYLE = "bold red underline"
BOTH_STYLE = "bold cyan underline"
ROLE_STYLE = {"referent": REFERENT_STYLE, "both": BOTH_STYLE, "key": KEY_STYLE, "response": RESPONSE_STYLE, "": ""}


def token_style(h: Highlight, t: int) -> str:
    return ROLE_STYLE[token_role(h, t)]


def _end_tag(h: Highlight, t: int) -> tuple[str, str] | None:
    tag = end_tag(h, t)
    return (tag[0], ROLE_STYLE[tag[1]]) if tag else None



def link_detail(ev: Evaluation, row: LinkOutcome, chain_limit: int = 12, width: int = 76) -> Text:
    """The sentence(s) from the earliest antecedent to the referent with the referent (reverse
    video), the key's antecedent (green), the response's (red; cyan where both agree), each span
    also tagged with ``[K]``/``[R]``/``[K=R]`` so it reads without colour; then the key chain and
    the response chain side by side (:func:`chains_side_by_side`) in ``width`` columns."""
    out = Text()
    out.append(f" {row.outcome} ", style=f"bold reverse {OUTCOME_STYLE.get(row.outcome, '')}")
    out.append(inert(f" {ANALYSIS_TITLES.get(row.analysis, row.analysis)} · {row.cls} › {row.type} · {row.doc_id} "
                     f"@{row.start}") + "\n")  # ids and words: their control characters as escapes
    out.append("why: ", style="bold")
    out.append(inert(why(ev, row)) + "\n")
    doc = _doc(ev, row.doc_id, "key")
    if doc is None:
        out.append(inert(row.text) + "\n")
        return out
    h = highlight(ev, row)
    prev_last = None
    for a, b in h.sentences:
        if prev_last is not None and a != prev_last + 1:
            out.append("… ", style="dim")
        for t in range(a, b + 1):
            style = token_style(h, t)
            out.append(inert(doc.tokens[t]), style=style)
            end_tag = _end_tag(h, t)
            if end_tag:
                out.append(end_tag[0], style=end_tag[1])
            out.append(" ")
        prev_last = b
    out.append("\n")
    key_txt = inert(span_text(ev, row.doc_id, row.key_antecedent, "key"))
    resp_txt = inert(span_text(ev, row.doc_id, row.response_antecedent, "response"))
    out.append("referent            ", style="bold")
    out.append(inert(row.text), style=REFERENT_STYLE)
    out.append("\nkey antecedent      ", style="bold")
    out.append(key_txt, style=KEY_STYLE if row.key_antecedent else "dim")
    out.append("\nresponse antecedent ", style="bold")
    same = row.key_antecedent is not None and row.key_antecedent == row.response_antecedent
    out.append(resp_txt, style=(BOTH_STYLE if same else RESPONSE_STYLE) if row.response_antecedent else "dim")
    out.append("\n")
    out.append_text(chains_side_by_side(ev, row, width, chain_limit))
    return out


def link_summary(ev: Evaluation, row: LinkOutcome) -> str:
    """One link as plain text (the ``y`` copy): where it is, both antecedents, why."""
    key = span_text(ev, row.doc_id, row.key_antecedent, "key")
    resp = span_text(ev, row.doc_id, row.response_antecedent, "response")
    return (f"{row.outcome}\t{ANALYSIS_TITLES.get(row.analysis, row.analysis)}\t{row.doc_id}\t{row.start}-{row.end}"
            f"\t{row.text}\nkey antecedent: {key} {row.key_antecedent or ''}\n"
            f"response antecedent: {resp} {row.response_antecedent or ''}\nwhy: {why(ev, row)}")


CHAIN_RULE = " │ "


def chains_side_by_side(ev: Evaluation, row: LinkOutcome, width: int = 76, limit: int = 12) -> Text:
    """The key chain and the response chain of the referent in two columns, one mention a line,
    aligned by span in document order: a mention both sides have sits on one line, one that only a
    side has leaves the other column empty. The referent's line starts with ``▶`` (reverse video),
    each side's antecedent is tagged ``[K]`` / ``[R]``; ``@N`` is the mention's first token.
    Longer chains keep ``limit`` lines around the referent ("… N earlier", "… N later")."""
    key = chain_spans(ev, row.doc_id, row.span, "key")
    resp = chain_spans(ev, row.doc_id, row.span, "response")
    col = max(12, (width - len(CHAIN_RULE)) // 2)
    t = Text()
    names = [chain_name(ev, row.doc_id, row.span, side) for side in ("key", "response")]
    named = [f" {n}" if n else "" for n in names]  # a BookCoref character's name (present.context.chain_name)
    heads = (f"key chain ({len(key)} mentions){named[0]}" if key else "key chain: none (not a key mention)",
             f"response chain ({len(resp)} mentions){named[1]}" if resp else
             "response chain: none (not a response mention)")
    t.append(heads[0][:col].ljust(col), style="bold")
    t.append(CHAIN_RULE, style="dim")
    t.append(heads[1][:col] + "\n", style="bold")
    in_key, in_resp = set(key), set(resp)
    spans = sorted(in_key | in_resp | {row.span})
    i = spans.index(row.span)
    lo = max(0, min(i - limit // 2, len(spans) - limit))
    shown = spans[lo: lo + limit]
    if lo:
        t.append(f"… {lo} earlier\n", style="dim")

    def cell(s: tuple[int, int], side: str, present: bool, ante: tuple[int, int] | None) -> Text:
        c = Text()
        if not present:
            return Text(" " * col)
        mark = "▶ " if s == row.span else "  "
        tag = ("[K]" if side == "key" else "[R]") if s == ante else ""
        words = inert(span_text(ev, row.doc_id, s, side))
        head = f"{mark}@{s[0]} "
        room = col - len(head) - len(tag)
        if len(words) > room:
            words = words[: max(1, room - 1)] + "…"
        c.append(head, style="bold" if s == row.span else "dim")
        style = REFERENT_STYLE if s == row.span else (
            (KEY_STYLE if side == "key" else RESPONSE_STYLE) if tag else "")
        c.append(words, style=style)
        if tag:
            c.append(tag, style=KEY_STYLE if side == "key" else RESPONSE_STYLE)
        c.pad_right(col - c.cell_len)
        return c

    for s in shown:
        t.append_text(cell(s, "key", s in in_key, row.key_antecedent))
        t.append(CHAIN_RULE, style="dim")
        right = cell(s, "response", s in in_resp, row.response_antecedent)
        right.rstrip()
        t.append_text(right)
        t.append("\n")
    rest = len(spans) - lo - len(shown)
    if rest:
        t.append(f"… {rest} later\n", style="dim")
    return t


# --------------------------------------------------------------------------- palette


def document_ids(ev: Evaluation) -> list[str]:
    return [d.doc_id for d in ev.documents]


def type_index(ev: Evaluation) -> list[tuple[str, str, str, int]]:
    """(analysis, class, type, rows) of every type, for the command palette's jump."""
    out = []
    for a in analyses_present(ev):
        seen: dict[tuple[str, str], int] = {}
        for r in rows_of(ev, a):
            k = (r.cls, r.type)
            seen[k] = seen.get(k, 0) + 1
        out.extend((a, c, t, n) for (c, t), n in sorted(seen.items()))
    return out
