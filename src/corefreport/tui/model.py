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
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from rich.text import Text

from ..present.labels import METRIC_LABELS
from ..present.numbers import count as num
from ..present.numbers import pct
from ..scoring.registry import STANDARD_METRICS
from ..scoring.outcomes import OUTCOMES, LinkOutcome, OutcomeCounts, group_by, tally
from ..scoring.result import Evaluation

ANALYSES = ("immediate", "inferred", "anchor", "anchor_link", "typed")
ANALYSIS_TITLES = {"immediate": "ARCS 1 immediate", "inferred": "ARCS 2 inferred", "anchor": "ARCS 3 anchor",
                   "anchor_link": "ARCS 3 links", "typed": "typed (Žitkus)"}
"""Short names that fit an 80-column table; the report uses the registry's titles."""

OUTCOME_STYLE = {"TP": "green", "WT": "cyan", "WL": "yellow", "WTL": "magenta", "FN": "red", "FP": "blue"}
"""The 8 basic ANSI colours only, so that 16-colour terminals (tmux, old xterms) show them."""
OUTCOME_GLYPH = {"TP": "█", "WT": "▓", "WL": "▒", "WTL": "▚", "FN": "░", "FP": "▁"}
"""One shade per outcome, so the mix bar still reads without colour (``NO_COLOR``, monochrome)."""
ERRORS_FIRST = {"WTL": 0, "WL": 1, "WT": 2, "FN": 3, "FP": 4, "TP": 5}

COLUMN_TITLES = {"cls": "class", "type": "type", "doc_id": "document", "mtype": "mention type",
                 "pos_class": "POS class", "pronoun": "pronoun", "ne": "NE type", "genre": "genre"}
DEFAULT_BREAKDOWNS = ("mtype", "pos_class", "pronoun", "ne", "genre")
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


def analyses_present(ev: Evaluation) -> list[str]:
    """The link-level analyses that have rows: ARCS 1–3 and typed first, in that order."""
    index = _index(ev)
    return [a for a in ANALYSES if a in index] + sorted(a for a in index if a not in ANALYSES)


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


def total_rows(ev: Evaluation) -> list[TotalRow]:
    """Every metric computed (standard, then linguistically aware), CoNLL, mention identification,
    the ARCS scenario totals (scenario 3 with entity detection / entity mentions), the typed
    evaluation's micro, macro and scheme-coverage scores."""
    out: list[TotalRow] = []
    for name, s in ev.metrics.items():
        if name in ("blanc", "blanc_crac"):
            c = s.coref
            counts = "coref links " + _fraction(c.recall_num, c.recall_den) + " " + _fraction(c.precision_num,
                                                                                               c.precision_den)
        else:
            counts = _fraction(s.recall_num, s.recall_den) + "  " + _fraction(s.precision_num, s.precision_den)
        out.append(TotalRow(METRIC_LABELS.get(name, name), s.recall, s.precision, s.f1, counts, ("metric", name)))
    if ev.conll is not None:
        out.append(TotalRow("CoNLL", None, None, ev.conll, "mean F1 of MUC, B³, CEAF-e", ("metric", "conll")))
    m = ev.mentions
    out.append(TotalRow("mentions", m.recall, m.precision, m.f1,
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
                            "what `corefreport score` warns: Enter lists them", ("warnings", "")))
    return out


def warnings_view(ev: Evaluation) -> View:
    """The warnings ``corefreport score`` prints (documents missing from the response, repeated
    spans, token mismatches…), one a row."""
    def cell(w: str, full: bool) -> tuple:
        return (w,) if full else (re.sub(r"^\S*/([^/\s:]+):", r"\1:", w),)  # the file name, not its path

    return View("warnings", "warnings", ("warning",), list(ev.warnings), cell,
                note=f"{len(ev.warnings)} warning(s) from reading and aligning the key and the response",
                values=lambda w: {"warning": w})


def totals_view(ev: Evaluation) -> View:
    def cell(r: TotalRow, full: bool) -> tuple:
        label = r.label + (" ›" if r.target and r.target[0] == "analysis" and not full else "")
        return (label, pct(r.recall), pct(r.precision), pct(r.f1), r.counts)

    def values(r: TotalRow) -> dict[str, Any]:
        return {"metric": r.label.removesuffix(" ›").strip(), "R": r.recall, "P": r.precision, "F1": r.f1,
                "counts": r.counts}

    return View("totals", "totals", ("metric", "R", "P", "F1", "counts"), total_rows(ev), cell,
                note=summary(ev), numeric=frozenset({1, 2, 3}), values=values)


def summary(ev: Evaluation) -> str:
    """Corpus sizes of both sides (key/response) and the signature (printed under the totals)."""
    k, r = ev.key_stats, ev.response_stats
    lines = [f"key/resp.: {k.documents}/{r.documents} docs, {k.mentions}/{r.mentions} mentions, "
             f"{k.chains}/{r.chains} chains ({k.singletons}/{r.singletons} single)"]
    if ev.warnings:
        lines.append(f"⚠ {len(ev.warnings)} warning(s): the last row of the table (End, Enter) lists them")
    lines.append(str(ev.signature))
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


@dataclass(frozen=True, slots=True)
class Query:
    """A link filter: every term must hold (AND); a term starting with ``-`` or ``!`` must not.

    Terms: ``doc:ID`` (substring of the document id), ``outcome:WL,FN`` or a bare outcome name
    (``wl``, ``fn``…), ``type:T``, ``class:C`` and any feature (``mtype:PRONOUN``; exact, case-
    insensitive), and free words, matched in the referent, the key and response antecedents' text
    and the document id. ``fn court -his`` = FN links about "court" whose referent is not "his"."""

    terms: tuple[tuple[bool, str, str], ...] = ()
    """(negated, field, value): field "text", "doc", "outcome" or a row column."""

    def __bool__(self) -> bool:
        return bool(self.terms)

    def matches(self, r: LinkOutcome, texts: Callable[[LinkOutcome], str] | None = None) -> bool:
        """``texts(r)``: the antecedents' text (lower case) for free words; without it, the referent's."""
        haystack: str | None = None
        for neg, field_, value in self.terms:
            if field_ == "outcome":
                hit = r.outcome in value.split(",")
            elif field_ == "doc":
                hit = value in r.doc_id.lower()
            elif field_ == "text":
                if haystack is None:
                    haystack = r.text.lower() + "\n" + r.doc_id.lower() + ("\n" + texts(r) if texts else "")
                hit = value in haystack
            else:
                hit = r.get(field_).lower() == value
            if hit == neg:
                return False
        return True


FIELDS = {"doc": "doc", "document": "doc", "d": "doc", "outcome": "outcome", "o": "outcome",
          "class": "cls", "cls": "cls", "c": "cls", "type": "type", "t": "type"}


def parse_query(q: str) -> Query:
    terms: list[tuple[bool, str, str]] = []
    for word in q.split():
        neg = word[:1] in ("-", "!") and len(word) > 1
        if neg:
            word = word[1:]
        field_, _, value = word.partition(":")
        f = FIELDS.get(field_.lower(), field_)
        if value and f == "outcome":
            terms.append((neg, "outcome", ",".join(v.upper() for v in value.split(","))))
        elif value and field_.lower() not in ("http", "https"):
            terms.append((neg, f, value.lower()))
        elif word.upper() in OUTCOMES:
            terms.append((neg, "outcome", word.upper()))
        else:
            terms.append((neg, "text", word.lower()))
    return Query(tuple(terms))


def type_pair(r: LinkOutcome) -> str:
    """Key link type → response link type of a typed row (``—`` where a side has no link)."""
    key = "—" if r.outcome == "FP" else r.type
    resp = "—" if r.outcome == "FN" else (r.features.get("response_type") or (r.type if r.outcome != "FN" else "—"))
    return f"{key} → {resp}"


def confusion_view(ev: Evaluation) -> View:
    """The typed evaluation's confusion: one row per (key type → response type), largest first —
    ``Evaluation.group_by`` over the typed rows; Enter opens that cell's links."""
    counts = ev.group_by("typed", type_pair)
    items = sorted(counts.items(), key=lambda kv: (-(kv[1].key_total + kv[1].fp), kv[0]))

    def n(c: OutcomeCounts) -> int:
        return c.tp + c.wt + c.wl + c.wtl + c.fn + c.fp

    def cell(it: tuple[str, OutcomeCounts], full: bool) -> tuple:
        pair, c = it
        return (pair if full else pair[:40], str(n(c)), mix_bar(c), mix_label(c))

    return View("confusion", "confusion", ("key type → response type", "links", "mix", "outcomes"), items, cell,
                numeric=frozenset({1}), values=lambda it: {"key type → response type": it[0], "links": n(it[1])},
                note=f"{len(items)} type pairs of the typed evaluation, most links first — Enter: the links")


def entity_rows(ev: Evaluation, row: LinkOutcome) -> list[LinkOutcome]:
    """The rows of ``row``'s analysis whose referent is a mention of its key entity (its key chain)."""
    spans = set(chain_spans(ev, row.doc_id, row.span, "key")) or {row.span}
    return [r for r in ev.select(row.analysis, doc_id=row.doc_id) if r.span in spans]


def referent_rows(ev: Evaluation, row: LinkOutcome) -> list[LinkOutcome]:
    """The same referent (document and span) in every analysis computed."""
    return [r for a in analyses_present(ev) for r in ev.select(a, doc_id=row.doc_id) if r.span == row.span]


def link_rows(ev: Evaluation, scope: Scope, query: str | Query = "",
              pick: Callable[[Evaluation], list[LinkOutcome]] | None = None) -> list[LinkOutcome]:
    """The outcome rows in ``scope`` (or those ``pick`` chooses) matching ``query``: errors first
    (WTL, WL, WT, FN, FP, then TP), then in document order."""
    q = parse_query(query) if isinstance(query, str) else query
    rows = pick(ev) if pick is not None else scope.rows(ev)
    if q:
        def texts(r: LinkOutcome) -> str:
            return (span_text(ev, r.doc_id, r.key_antecedent, "key") + "\n"
                    + span_text(ev, r.doc_id, r.response_antecedent, "response")).lower()

        rows = [r for r in rows if q.matches(r, texts)]
    return sorted(rows, key=lambda r: (ERRORS_FIRST.get(r.outcome, 9), r.doc_id, r.start, r.end))


def span_text(ev: Evaluation, doc_id: str, span: tuple[int, int] | None, side: str = "key") -> str:
    """The words of a span (``—`` for none), from the key's or the response's tokens."""
    if span is None:
        return "—"
    doc = _doc(ev, doc_id, side) or _doc(ev, doc_id, "key")
    if doc is None:
        return f"{span[0]}–{span[1]}"
    return doc.text(*span)


def _doc(ev: Evaluation, doc_id: str, side: str):
    corpus = ev.key_corpus if side == "key" else ev.response_corpus
    return corpus.documents.get(doc_id) if corpus is not None else None


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

    def cell(r: LinkOutcome, full: bool) -> tuple:
        key = span_text(ev, r.doc_id, r.key_antecedent, "key")
        resp = span_text(ev, r.doc_id, r.response_antecedent, "response")
        if full:
            return (r.outcome, r.text, key, resp, r.doc_id)
        return (Text(r.outcome, style=OUTCOME_STYLE.get(r.outcome, "")), cut(r.text, w_ref), cut(key, w_key),
                cut(resp, w_resp), cut(r.doc_id, w_doc))

    def values(r: LinkOutcome) -> dict[str, Any]:
        k, p = r.key_antecedent, r.response_antecedent
        return {"outcome": r.outcome, "referent": r.text, "key antecedent": span_text(ev, r.doc_id, k, "key"),
                "resp. antecedent": span_text(ev, r.doc_id, p, "response"), "document": r.doc_id,
                "start": r.start, "end": r.end, "key start": k[0] if k else None, "key end": k[1] if k else None,
                "resp. start": p[0] if p else None, "resp. end": p[1] if p else None,
                "class": r.cls, "type": r.type, "credit": r.credit, "analysis": r.analysis}

    total = len(pick(ev) if pick is not None else scope.rows(ev))
    note = f"{len(rows)} links" + (f" of {total} match “{query}”" if query else "")
    return View("links", "", ("outcome", "referent", "key antecedent", "resp. antecedent", "document"),
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
    out = [DocRow(d.doc_id, d.conll(), {n: s.f1 for n, s in d.metrics.items()}, d.mentions.f1) for d in ev.documents]
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


def document_sorts(ev: Evaluation) -> list[str]:
    return (["conll"] if ev.conll is not None else []) + list(ev.metrics) + ["mentions", "name"]


def document_view(ev: Evaluation, sort: str | None = None) -> View:
    """Per-document F1, worst first: CoNLL, the standard metrics, mention identification, and the
    metric sorted by when it is another one (linguistically aware metrics are sortable with ``s``
    but not all shown: every extra column costs each repaint of an 80-column table)."""

    rows = document_rows(ev, sort)
    has_conll = ev.conll is not None
    sort = sort or ("conll" if has_conll else next(iter(ev.metrics), "name"))
    names = [n for n in ev.metrics if n in STANDARD_METRICS or n == sort]

    def cell(d: DocRow, full: bool) -> tuple:
        return ((d.doc_id,) + ((pct(d.conll),) if has_conll else ()) + tuple(pct(d.f1.get(n)) for n in names)
                + (pct(d.mentions),))

    cols = ("document",) + (("CoNLL",) if has_conll else ()) + tuple(METRIC_LABELS.get(n, n) for n in names) + (
        "mentions",)
    label = "name" if sort == "name" else METRIC_LABELS.get(sort, sort) + " F1, worst first"

    def values(d: DocRow) -> dict[str, Any]:
        return dict(zip(cols, (d.doc_id,) + ((d.conll,) if has_conll else ()) + tuple(d.f1.get(n) for n in names)
                        + (d.mentions,)))

    return View("documents", "documents", cols, rows, cell, numeric=frozenset(range(1, len(cols))), values=values,
                note=f"{len(rows)} documents by {label} (s: next metric)")


def document_column_sorts(ev: Evaluation, view: View) -> list[str]:
    """The sort key of each column of a documents view (for a click on its header)."""

    by_label = {METRIC_LABELS.get(n, n): n for n in ev.metrics if n in STANDARD_METRICS} | {
        METRIC_LABELS.get(n, n): n for n in ev.metrics}
    return ["name"] + [("conll" if c == "CoNLL" else "mentions" if c == "mentions" else by_label.get(c, "name"))
                       for c in view.columns[1:]]


# --------------------------------------------------------------------------- one link

REFERENT_STYLE = "bold reverse"
KEY_STYLE = "bold green underline"
RESPONSE_STYLE = "bold red underline"
BOTH_STYLE = "bold cyan underline"


@dataclass(slots=True)
class Highlight:
    """Token spans of the detail pane: the referent, the key's and the response's antecedent."""

    referent: tuple[int, int]
    key: tuple[int, int] | None
    response: tuple[int, int] | None
    sentences: list[tuple[int, int]] = field(default_factory=list)
    """(first token, last token) of each sentence shown; a gap between two means "…"."""


def highlight(ev: Evaluation, row: LinkOutcome, max_gap: int = 3) -> Highlight:
    """Which sentences to show: from the earliest antecedent's to the referent's, or just those two
    when more than ``max_gap`` sentences lie between them."""
    h = Highlight(row.span, row.key_antecedent, row.response_antecedent)
    doc = _doc(ev, row.doc_id, "key")
    if doc is None:
        return h
    starts = [row.start] + [s[0] for s in (row.key_antecedent, row.response_antecedent) if s]
    first, last = doc.sentence_of(min(starts)), doc.sentence_of(row.end)
    ids = sorted({doc.sentence_of(s) for s in starts} | {last}) if last - first > max_gap else list(
        range(first, last + 1))
    h.sentences = [doc.sentence_bounds(i) for i in ids]
    return h


def token_style(h: Highlight, t: int) -> str:
    in_key = h.key is not None and h.key[0] <= t <= h.key[1]
    in_resp = h.response is not None and h.response[0] <= t <= h.response[1]
    if h.referent[0] <= t <= h.referent[1]:
        return REFERENT_STYLE
    if in_key and in_resp:
        return BOTH_STYLE
    if in_key:
        return KEY_STYLE
    if in_resp:
        return RESPONSE_STYLE
    return ""


def link_detail(ev: Evaluation, row: LinkOutcome, chain_limit: int = 12) -> Text:
    """The sentence(s) from the earliest antecedent to the referent with the referent (reverse
    video), the key's antecedent (green), the response's (red; cyan where both agree), each span
    also tagged with ``[K]``/``[R]``/``[K=R]`` so it reads without colour; then both chains."""
    out = Text()
    out.append(f" {row.outcome} ", style=f"bold reverse {OUTCOME_STYLE.get(row.outcome, '')}")
    out.append(f" {ANALYSIS_TITLES.get(row.analysis, row.analysis)} · {row.cls} › {row.type} · {row.doc_id} "
               f"@{row.start}\n")
    out.append("why: ", style="bold")
    out.append(why(ev, row) + "\n")
    doc = _doc(ev, row.doc_id, "key")
    if doc is None:
        out.append(row.text + "\n")
        return out
    h = highlight(ev, row)
    prev_last = None
    for a, b in h.sentences:
        if prev_last is not None and a != prev_last + 1:
            out.append("… ", style="dim")
        for t in range(a, b + 1):
            style = token_style(h, t)
            out.append(doc.tokens[t], style=style)
            end_tag = _end_tag(h, t)
            if end_tag:
                out.append(end_tag[0], style=end_tag[1])
            out.append(" ")
        prev_last = b
    out.append("\n")
    key_txt = span_text(ev, row.doc_id, row.key_antecedent, "key")
    resp_txt = span_text(ev, row.doc_id, row.response_antecedent, "response")
    out.append("referent            ", style="bold")
    out.append(row.text, style=REFERENT_STYLE)
    out.append("\nkey antecedent      ", style="bold")
    out.append(key_txt, style=KEY_STYLE if row.key_antecedent else "dim")
    out.append("\nresponse antecedent ", style="bold")
    same = row.key_antecedent is not None and row.key_antecedent == row.response_antecedent
    out.append(resp_txt, style=(BOTH_STYLE if same else RESPONSE_STYLE) if row.response_antecedent else "dim")
    out.append("\n")
    for side, label in (("key", "key chain      "), ("response", "response chain ")):
        out.append(label, style="bold")
        chain = chain_spans(ev, row.doc_id, row.span, side)
        if not chain:
            out.append("(the referent is in no chain of this side)\n", style="dim")
            continue
        out.append(f"({len(chain)}) ", style="dim")
        out.append_text(_chain_text(ev, row, chain, side, chain_limit))
        out.append("\n")
    return out


def _entity(ev: Evaluation, doc_id: str, span: tuple[int, int] | None) -> str:
    """The key entity holding ``span``, named by its first mention (and its size)."""
    if span is None:
        return ""
    chain = chain_spans(ev, doc_id, span, "key")
    if not chain:
        return "no key entity (a mention the key does not have)"
    first = span_text(ev, doc_id, chain[0], "key")
    return f"the key singleton “{first}”" if len(chain) == 1 else f"the key entity “{first}” ({len(chain)} mentions)"


def why(ev: Evaluation, row: LinkOutcome) -> str:
    """:func:`_why`, and the span the response actually wrote when it was matched by head or partially."""
    return _why(ev, row) + row.match_note


def _why(ev: Evaluation, row: LinkOutcome) -> str:
    """The outcome in words: which antecedent each side chose, which entity the response joined
    (WL, WTL) and, for the typed evaluation, which link type each side gave (WT, WTL)."""
    key = span_text(ev, row.doc_id, row.key_antecedent, "key")
    resp = span_text(ev, row.doc_id, row.response_antecedent, "response")
    rtype = row.features.get("response_type")
    typed = row.analysis == "typed"
    type_note = (f"; the response's link type is “{rtype}”, the key's “{row.type}”"
                 if typed and rtype is not None else "")
    if row.outcome == "TP":
        return f"the response links it to “{resp}”, an antecedent of the same key entity" + (
            f", with the key's type “{row.type}”" if typed else "")
    if row.outcome == "WT":
        return f"right antecedent (“{resp}”), wrong link type" + type_note
    if row.outcome in ("WL", "WTL"):
        return (f"the response links it to “{resp}”, which belongs to "
                f"{_entity(ev, row.doc_id, row.response_antecedent)}, not to the referent's key entity "
                f"(key antecedent “{key}”)" + (type_note if row.outcome == "WTL" else ""))
    if row.outcome == "FN":
        return f"the key links it to “{key}”; the response gives it no antecedent"
    if row.outcome == "FP":
        return f"the response links it to “{resp}”; the key gives this referent no antecedent here"
    return row.outcome


def link_summary(ev: Evaluation, row: LinkOutcome) -> str:
    """One link as plain text (the ``y`` copy): where it is, both antecedents, why."""
    key = span_text(ev, row.doc_id, row.key_antecedent, "key")
    resp = span_text(ev, row.doc_id, row.response_antecedent, "response")
    return (f"{row.outcome}\t{ANALYSIS_TITLES.get(row.analysis, row.analysis)}\t{row.doc_id}\t{row.start}-{row.end}"
            f"\t{row.text}\nkey antecedent: {key} {row.key_antecedent or ''}\n"
            f"response antecedent: {resp} {row.response_antecedent or ''}\nwhy: {why(ev, row)}")


def _end_tag(h: Highlight, t: int) -> tuple[str, str] | None:
    k = h.key is not None and h.key[1] == t
    r = h.response is not None and h.response[1] == t
    if k and r and h.key == h.response:
        return "[K=R]", BOTH_STYLE
    tags = []
    if k:
        tags.append(("[K]", KEY_STYLE))
    if r:
        tags.append(("[R]", RESPONSE_STYLE))
    if not tags:
        return None
    return "".join(x for x, _ in tags), tags[0][1]


def chain_spans(ev: Evaluation, doc_id: str, span: tuple[int, int], side: str) -> list[tuple[int, int]]:
    """The spans of the chain (entity) holding ``span`` on one side, in document order."""
    doc = _doc(ev, doc_id, side)
    if doc is None:
        return []
    for c in doc.chains:
        for m in c.mentions:
            if m.span == span:
                return sorted({x.span for x in c.mentions})
    return []


def _chain_text(ev: Evaluation, row: LinkOutcome, chain: list[tuple[int, int]], side: str, limit: int) -> Text:
    """The chain's mentions in document order joined by →, the referent and this side's antecedent marked; long chains
    are cut around the referent."""
    i = chain.index(row.span) if row.span in chain else 0
    lo = max(0, min(i - limit + 2, len(chain) - limit))
    shown = chain[lo: lo + limit]
    ante = row.key_antecedent if side == "key" else row.response_antecedent
    t = Text()
    if lo > 0:
        t.append(f"{lo} earlier … → ", style="dim")
    for j, s in enumerate(shown):
        if j:
            t.append(" → ", style="dim")
        style = REFERENT_STYLE if s == row.span else (KEY_STYLE if side == "key" else RESPONSE_STYLE) if s == ante else ""
        t.append(span_text(ev, row.doc_id, s, side), style=style)
    rest = len(chain) - lo - len(shown)
    if rest > 0:
        t.append(f" → … {rest} later", style="dim")
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
