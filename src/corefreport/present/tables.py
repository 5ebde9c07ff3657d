"""Neutral tables built from an :class:`~corefreport.scoring.result.Evaluation` or a
:class:`~corefreport.scoring.compare.Comparison`: header keys, rows of values (numbers stay
numbers: fractions for scores), a title and a note. Every view renders these — the terminal
(:mod:`.terminal`), CSV/Markdown/LaTeX (:mod:`.render`), the report and the TUI's exports.

Builders only read fields of the result and group its outcome rows; they never compute a score.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..scoring.registry import ANALYSIS_REGISTRY, ANALYSIS_TITLES, REGISTRY
from ..scoring.result import Evaluation
from .errortables import examples_table, feature_table, joined_types_table
from .table import Table
from .labels import ARROW, METRIC_LABELS, SHORT_ANALYSIS, group_name, metric_label, short_doc
from .numbers import ascii_text, cell, count, interval, is_score_column, p_value, shown_rpf, signed

if TYPE_CHECKING:  # numpy is loaded only when a comparison is made
    from ..scoring.compare import Comparison, GroupDelta


METRIC_HEADER = ["metric", "recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den"]
METRIC_GROUPS = [("Score (%)", 3), ("Recall", 2), ("Precision", 2)]
METRIC_COLUMN_LABELS = ["Metric", "R", "P", "F1", "num.", "den.", "num.", "den."]


def metric_row(name: str, s) -> list:
    """R, P, F1 and the counts of one score (a score whose recall and precision are not one
    fraction each — BLANC's two kinds of links — shows no counts: they are in the JSON); a 0/0
    ratio NaN, shown "n/a" (:func:`~.numbers.shown_rpf`)."""
    metric = REGISTRY.get(name)
    if metric is not None and not metric.fraction:
        return [name, s.recall, s.precision, s.f1, None, None, None, None]
    return [name, *shown_rpf(s.recall, s.precision, s.f1, s.recall_den, s.precision_den), s.recall_num, s.recall_den,
            s.precision_num, s.precision_den]


def metrics_table(ev: Evaluation, names: list[str] | None = None, title: str = "Coreference scores",
                  totals: bool = True) -> Table:
    """R, P, F1 and raw counts per metric (``names``, default all computed); with ``totals`` the
    CoNLL score and mention identification after a rule."""
    t = Table(title, list(METRIC_HEADER), groups=list(METRIC_GROUPS), labels=list(METRIC_COLUMN_LABELS))
    for name in ev.metrics if names is None else names:
        t.rows.append(metric_row(name, ev.metrics[name]))
    if totals:
        t.breaks.append(len(t.rows))
        shown = {r[0] for r in t.rows}
        for name, f in ev.derived.items():  # CoNLL (and any score derived from those shown): its F1
            if all(p in shown for p in REGISTRY[name].requires):
                t.rows.append([name, None, None, f, None, None, None, None])
        t.rows.append(metric_row("mentions", ev.mentions))
    t.note = str(ev.signature)
    return t


LAYER_FAMILIES = ("ua", "ua_conll")
"""Registry families of the Universal Anaphora layer scores (non-referring, bridging, discourse deixis)."""


def mentions_label(ev: Evaluation) -> str:
    """The label of the mention-identification row: ``Mentions (coreference layer)`` when every
    score computed is a Universal Anaphora layer's (``--preset codicrac22dd``, ``codicrac22br``):
    the row counts the IDENTITY column's mentions — the coreference layer's, which no score of the
    table is about — not the DISCOURSE_DEIXIS or BRIDGING markables.

    >>> from types import SimpleNamespace as NS
    >>> mentions_label(NS(metrics={"dd_muc": 0})), mentions_label(NS(metrics={"muc": 0, "dd_muc": 0}))
    ('Mentions (coreference layer)', 'Mentions')
    """
    layers_only = bool(ev.metrics) and all(REGISTRY[n].family in LAYER_FAMILIES for n in ev.metrics if n in REGISTRY)
    return METRIC_LABELS["mentions"] + (" (coreference layer)" if layers_only else "")


def scored_sizes(ev: Evaluation) -> str:
    """What was scored when singletons were dropped (``--drop-singletons``, ``--preset crac``): the
    corpus sizes are counted as read, before the drop; the mentions scored are the mention
    identification's denominators (key: R's, response: P's), the chains those of two or more
    mentions. Empty when singletons were kept (what was read was scored).

    On GUM against xrenner's ml-gum: 5,249 − 2,026 = 3,223 key and 5,385 − 2,536 = 2,849 response
    mentions scored."""
    if ev.settings.singletons != "drop":
        return ""
    k, r, m = ev.key_stats, ev.response_stats, ev.mentions
    return (f"singletons dropped before scoring: {count(m.recall_den)}/{count(m.precision_den)} key/response "
            f"mentions scored in {k.chains - k.singletons}/{r.chains - r.singletons} chains (the sizes above are "
            f"as read, singletons included)")


def per_document_table(ev: Evaluation) -> Table:
    """One row per document: F1 of each metric and the CoNLL score, worst CoNLL (or first metric) first."""
    names = [n for n in ev.metrics]
    t = Table("Per-document F1", ["document"] + names + (["conll"] if ev.conll is not None else []))
    for d in ev.documents:
        row = [d.doc_id] + [metric_row(n, d.metrics[n])[3] for n in names]  # a 0/0 F1: NaN, shown n/a
        if ev.conll is not None:
            row.append(d.conll())
        t.rows.append(row)
    key = len(t.header) - 1
    t.rows.sort(key=lambda r: (r[key] if r[key] is not None else 0.0, r[0]))
    return t


def plink_tables(pl) -> list[Table]:
    """The p-link table of a :class:`~corefreport.scoring.plink.PlinkResult` (none without one)."""
    t = plink_table(pl)
    return [t] if t is not None else []


def plink_table(pl) -> Table | None:
    """p-link per category (Zeldes & Simonson 2016): R, P, F1 and N / D_K / D_R per category."""
    if pl is None:
        return None
    t = Table(f"p-link by {pl.by}" + (" (Perl-compatible categories)" if pl.compat else ""),
              ["category", "recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den"])
    for cat, c in sorted(pl.categories.items()):
        t.rows.append([cat, c.recall if c.recall_den else None, c.precision if c.precision_den else None,
                       c.f1 if c.recall_den and c.precision_den else None,
                       c.recall_num, c.recall_den, c.precision_num, c.precision_den])
    t.note = "n/a where a denominator is 0"
    return t


OUTCOME_HEADER = ["tp", "wl", "fn", "fp", "recall", "precision", "f1", "accuracy"]


def arcs_tables(arcs) -> list[Table]:
    """One table per ARCS scenario: the total, then every value of every breakdown feature;
    and scenario 3's Entity Detection / Entity Mentions / Fφ by anchor NE type."""
    if arcs is None:
        return []
    out = []
    for name, sc in arcs.scenarios.items():
        t = Table(REGISTRY[name].title, ["group"] + OUTCOME_HEADER)
        for label, c in [("total", sc.total)] + [(f"{f}={v}", c) for f, vals in sc.by.items() for v, c in vals.items()]:
            t.rows.append([label, c.tp, c.wl, c.fn, c.fp, c.recall, c.precision, c.f1, c.accuracy])
        if name == "anchor":
            t.note = "scenario 3 rows are Entity Mentions outcomes (tp = K ∩ R, fn = K \\ R, fp = R \\ K)"
        out.append(t)
        if name == "anchor" and sc.entity is not None:
            d = sc.entity.as_dict()
            e = Table("ARCS 3: Entity Detection (ED), Entity Mentions (EM) and F_phi by anchor NE type",
                      ["ne", "ed_recall", "ed_precision", "ed_f1", "em_recall", "em_precision", "em_f1", "f_phi"])
            for label, x in [("total", d)] + list(d["by_ne"].items()):
                e.rows.append([label, x["ed"]["recall"], x["ed"]["precision"], x["ed"]["f1"], x["em"]["recall"],
                               x["em"]["precision"], x["em"]["f1"], x["f_phi"]])
            out.append(e)
    return out


TYPED_HEADER = ["tp", "wt", "wl", "wtl", "fn", "fp", "s_star", "precision", "recall", "f1"]
TYPED_GROUPS = [("Referents", 7), ("Score (%)", 3)]
TYPED_LABELS = ["TP", "WT", "WL", "WTL", "FN", "FP", "S*", "P", "R", "F1"]


def typed_row(label: str, d: dict) -> list:
    """One class or type: its counts, S* and P, R, F1 (from the typed JSON)."""
    return [label] + [d[h] for h in TYPED_HEADER]


def typed_summary(tt, title: str) -> Table:
    """Micro, macro and scheme-coverage averages."""
    d = tt.as_dict()
    t = Table(title, ["average", "precision", "recall", "f1"], labels=["Average", "P", "R", "F1"])
    for name in ("micro", "macro", "scheme_coverage"):
        t.rows.append([name.replace("_", " "), d[name]["precision"], d[name]["recall"], d[name]["f1"]])
    return t


def typed_notes(tt) -> list[str]:
    """What a reader of the typed tables should know: wrong-entity links, chains without a dominant."""
    notes = []
    if tt.wrong_entity:
        notes.append(f"{tt.wrong_entity} WL/WTL link(s) point to another entity's dominant mention "
                     "(--strict-dominant scores them FN + FP)")
    if tt.no_dominant:
        notes.append(f"{tt.no_dominant} key chain(s) have no eligible dominant mention (pronouns only): "
                     "their first mention was used")
    return notes


def typed_tables(tt) -> list[Table]:
    """Žitkus et al. (2023): per class, per type (grouped by class, as their Appendix D), and the
    micro / macro / scheme-coverage summary."""
    if tt is None:
        return []
    d = tt.as_dict()
    k = ",".join(f"{x:g}" for x in tt.k)
    classes = Table(f"Typed evaluation by class (scheme {tt.scheme.name}, k = {k})", ["class"] + TYPED_HEADER,
                    groups=list(TYPED_GROUPS), labels=["Class"] + TYPED_LABELS)
    for c, v in d["classes"].items():
        classes.rows.append(typed_row(f"{c} ({v['name']})" if v["name"] != c else c, v))
    types = Table("Typed evaluation by type", ["type"] + TYPED_HEADER, groups=list(TYPED_GROUPS),
                  labels=["Type"] + TYPED_LABELS)
    for c in d["classes"]:
        for t, v in d["types"].items():
            if v["class"] == c:
                types.rows.append(typed_row(t, v))
    summary = typed_summary(tt, f"Typed evaluation: micro, macro (n_a = {len(tt.attempted)}: "
                                f"{', '.join(tt.attempted)}) and scheme coverage (n = {tt.scheme.n})")
    summary.note = "; ".join(typed_notes(tt))
    return [classes, types, summary]


ERROR_COST_HEADER = ["muc", "bcub", "ceafe", "lea", "conll"]


def error_tables(er) -> list[Table]:
    """Kummerfeld & Klein (2013): errors per class with the F1 fixing them gains (cumulatively in
    the analyser's order, and alone), and the errors per class and mention type."""
    if er is None:
        return []
    from ..scoring.errorclasses import CLASSES, LEFTOVER
    from .errortables import cost_start, mention_set, reading_note

    counts = er.counts()
    header = (["class", "count"] + [f"cumulative_{m}_f1" for m in ERROR_COST_HEADER]
              + [f"alone_{m}_f1" for m in ERROR_COST_HEADER])
    t = Table(f"Error classes (Kummerfeld & Klein 2013) on {mention_set(er)}: F1 gained by fixing each class",
              header, groups=[("", 1), ("Fixed cumulatively (Δ F1)", 5), ("Fixed alone (Δ F1)", 5)],
              labels=["Class", "Errors"] + [metric_label(m) for m in ERROR_COST_HEADER] * 2)
    reading = er.reading()
    for c in er.costs():
        if c["class"] == LEFTOVER or (reading and c["class"] == CLASSES[0]):
            t.breaks.append(len(t.rows))
        t.rows.append([c["class"], er.count_of(c["class"])] + [c["cumulative"][m] for m in ERROR_COST_HEADER]
                      + [c["alone"][m] for m in ERROR_COST_HEADER])
    start = cost_start(er)
    t.note = "; ".join(x for x in (
        f"Δ F1 in points; cumulative: fixed after the rows above, in the analyser's order, {start} to 100"
        if start else "Δ F1 in points; cumulative: fixed after the rows above, in the analyser's order",
        reading_note(er),
        "leftover: the gap after every fix (its count: response mentions outside the key that survive; the rest of "
        "the gap are key singletons the response misses, which no class covers)") if x)

    by = er.tally("cls", "mtype")
    mtypes = sorted({m for _, m in by})
    b = Table("Error classes by mention type of the mentions involved", ["class"] + mtypes + ["total"])
    for c in CLASSES:
        b.rows.append([c] + [by.get((c, m), 0) for m in mtypes] + [counts[c]])
    b.note = "mention types of an error's mentions joined with + (e.g. NAME+PRONOUN); types as the analyser assigns them"

    return [t, b, joined_types_table(er)] + [feature_table(er, f) for f in er.features()] + [examples_table(er)]


def error_documents_table(ev: Evaluation) -> Table | None:
    """Per document: errors per class and the CoNLL F1 fixing them gains (cumulatively), largest
    total gap first."""
    er = ev.errors
    if er is None:
        return None
    from ..scoring.errorclasses import CLASSES, LEFTOVER

    by = er.tally("doc_id", "cls")
    reading = er.reading()
    t = Table("Error classes per document: count and CoNLL F1 gained (cumulative)",
              ["document"] + [f"{r} conll_f1" for r in reading] + [h for c in CLASSES for h in (c, f"{c} conll_f1")]
              + ["leftover_conll_f1"])
    gaps = {}
    for d, gains in er.per_document.items():
        row = [d] + [gains.get(r, 0.0) for r in reading]
        for c in CLASSES:
            row += [by.get((d, c), 0), gains.get(c, 0.0)]
        row.append(gains.get(LEFTOVER, 0.0))
        gaps[d] = sum(gains.get(c, 0.0) for c in CLASSES)
        t.rows.append(row)
    t.rows.sort(key=lambda r: (-gaps[r[0]], r[0]))
    if reading:
        from .errortables import reading_note

        t.note = reading_note(er)
    return t


def analysis_tables(analysis, ev: Evaluation) -> list[Table]:
    """The tables of an analysis (its entry's ``tables`` builder over its result) — none when it
    has no builder or ``ev`` did not compute it."""
    build, result = analysis.table_builder(), ev.result(analysis.field)
    return build(result) if build is not None and result is not None else []


def all_tables(ev: Evaluation, per_doc: bool = False) -> list[Table]:
    """Every table the result holds, in the order the CLI and the report show them: the metrics,
    then each analysis's (the registry's order, those :func:`~corefreport.scoring.registry.register`
    adds last)."""
    out = [metrics_table(ev)]
    for a in ANALYSIS_REGISTRY.values():
        out.extend(analysis_tables(a, ev))
    from .alignment import alignment_tables

    out.extend(alignment_tables(ev))
    if per_doc and ev.errors is not None:
        out.append(error_documents_table(ev))
    if per_doc:
        out.append(per_document_table(ev))
    return out



# --------------------------------------------------------------------------------------------
# Comparisons
# --------------------------------------------------------------------------------------------

def star(t, alpha: float = 0.05) -> str:
    return "*" if t.significant(alpha) else ""


def delta_cell(t, alpha: float = 0.05) -> str:
    """Δ in points with ``*`` when p < alpha: ``+4.41*``."""
    return signed(t.delta) + star(t, alpha)


def _table_key(name: str) -> str:
    """Row label of neutral tables: the metric key where the renderers know it (B³ → B$^3$ in
    LaTeX), else the readable label."""
    return name if name in METRIC_LABELS and name not in ("typed",) else metric_label(name)


def group_label(g: GroupDelta) -> str:
    return group_name(g.group, g.label, g.analysis, g.by)


def legend(cmp: Comparison) -> str:
    """One line: what ``*`` means, how the intervals were drawn, the seed."""
    r = cmp.resampling
    parts = []
    if r.randomization:
        parts.append(f"* p < {r.alpha:g} (two-sided approximate randomization, {r.randomization} trials)")
    elif r.bootstrap:
        parts.append(f"* p < {r.alpha:g} (paired bootstrap)")
    if r.bootstrap:
        parts.append(f"{round(100 * r.confidence)} % CI: paired bootstrap, {r.bootstrap} resamples "
                     f"of the {len(cmp.documents)} documents")
    parts.append(f"seed {r.seed}")
    return "; ".join(parts)


def _summary_analysis(cmp: Comparison, system: str) -> str | None:
    analyses = {g.analysis for g in cmp.groups.get(system, [])}
    for a in ("typed", "inferred", "immediate", "anchor"):
        if a in analyses:
            return a
    return next(iter(sorted(analyses)), None)


def highlights(cmp: Comparison, system: str, top: int = 2, min_support: int = 20) -> str:
    """One sentence: the headline difference, then the largest per-type gains and losses, e.g.
    "ml vs rules: CoNLL +4.21* (p = 0.0001); typed, by type: +4.1 on possessive pronoun (n = 206) …"."""
    parts = []
    if cmp.headline:
        t = cmp.metric(cmp.headline).tests[system]
        parts.append(f"{metric_label(cmp.headline)} {delta_cell(t)} (p = {p_value(t.p)})")
    a = _summary_analysis(cmp, system)
    if a is not None:
        by = "type" if any(g.by == "type" for g in cmp.group_deltas(system, a)) else "cls"
        ups = cmp.gains(system, a, by, top, min_support)
        downs = cmp.losses(system, a, by, top, min_support)
        items = [f"{delta_cell(g.test)} on {g.label} (n = {g.key_referents})" for g in ups + downs]
        if items:
            parts.append(f"{SHORT_ANALYSIS.get(a, a)} by {'type' if by == 'type' else 'class'}: " + ", ".join(items))
    return f"{system} vs {cmp.baseline}: " + "; ".join(parts) if parts else f"{system} vs {cmp.baseline}"


def scores_table(cmp: Comparison) -> Table:
    """Every metric side by side: F1 of each system, then per system Δ (``*``: p < 0.05), the 95 %
    bootstrap interval of Δ and the randomization p-value; the best system(s) per metric."""
    others = cmp.systems
    header = (["metric"] + [f"f1_{n}" for n in cmp.names]
              + [h for n in others for h in (f"delta_{n}", f"ci_{n}", f"p_{n}")] + ["best"])
    t = Table(f"F1 against the baseline {cmp.baseline}", header)
    for m in cmp.metrics:
        row: list = [_table_key(m.name)] + [m.f1[n] for n in cmp.names]
        for n in others:
            test = m.tests[n]
            row += [ascii_text(delta_cell(test)), ascii_text(interval(test.delta_ci)), p_value(test.p)]
        row.append(", ".join(m.best))
        t.rows.append(row)
    t.note = str(cmp.signature)
    return t


def group_table(cmp: Comparison, system: str, analysis: str, top: int = 5, min_support: int = 20) -> Table:
    """The largest gains and losses of ``system`` by class and type in one analysis."""
    rows = cmp.gains(system, analysis, None, top, min_support) + cmp.losses(system, analysis, None, top, min_support)
    t = Table(f"{ANALYSIS_TITLES.get(analysis, analysis)}: largest F1 changes by class and type, {system} vs "
              f"{cmp.baseline} (≥ {min_support} referents)",
              ["group", "by", "n", f"f1_{cmp.baseline}", f"f1_{system}", "delta", "p"])
    for g in rows:
        t.rows.append([group_label(g), "class" if g.by == "cls" else g.by, g.key_referents, g.test.baseline,
                       g.test.system, ascii_text(delta_cell(g.test)), p_value(g.test.p)])
    t.note = "n = key referents of the group (TP+WT+WL+WTL+FN in the baseline); p not corrected for multiple comparisons"
    return t


def transitions(lc, top: int = 3) -> str:
    moved = sorted(((n, a, b) for (a, b), n in lc.transitions.items() if a != b), key=lambda x: (-x[0], x[1], x[2]))
    return ", ".join(f"{a}{ARROW}{b} {n}" for n, a, b in moved[:top])


def links_table(cmp: Comparison, system: str) -> Table:
    """Per analysis: referents right only in the system, right only in the baseline, right in both,
    and the most frequent outcome changes (``none``: no row, e.g. a spurious link not made)."""
    t = Table(f"Links: {system} vs {cmp.baseline}",
              ["analysis", f"right only in {system}", f"right only in {cmp.baseline}", "both right", "most frequent changes"])
    for a, lc in cmp.links.get(system, {}).items():
        t.rows.append([SHORT_ANALYSIS.get(a, a), lc.gains, lc.losses, lc.both_right, transitions(lc)])
    t.note = "right = TP for a key referent, no row for a response-only mention (FP avoided)"
    return t


def documents_table(cmp: Comparison, system: str, top: int = 3) -> Table:
    rows = cmp.per_document.get(system, [])
    pick = [d for d in reversed(rows) if d.delta > 0][:top] + [d for d in rows if d.delta < 0][:top]
    label = metric_label(cmp.headline)
    t = Table(f"Documents that changed most: {label} F1, {system} vs {cmp.baseline}",
              ["document", f"f1_{cmp.baseline}", f"f1_{system}", "delta"])
    for d in pick:
        t.rows.append([short_doc(d.doc_id), d.baseline, d.system, ascii_text(signed(d.delta))])
    return t


def comparison_tables(cmp: Comparison, top: int = 5, min_support: int = 20) -> list[Table]:
    """Every table of the comparison, in the order the terminal shows them."""
    out = [scores_table(cmp)]
    for n in cmp.systems:
        for a in dict.fromkeys(g.analysis for g in cmp.groups.get(n, [])):
            t = group_table(cmp, n, a, top, min_support)
            if t.rows:
                out.append(t)
        if cmp.links.get(n):
            out.append(links_table(cmp, n))
        if cmp.errors.get(n):
            from .errortables import compare_errors_table

            out.append(compare_errors_table(cmp, n))
        if cmp.error_matches.get(n):  # the errors themselves: only one system's, both's; per key entity
            from .errordiff import entity_change_tables, error_match_table

            out.append(error_match_table(cmp, n))
            out += entity_change_tables(cmp, n)
        if cmp.per_document.get(n):
            out.append(documents_table(cmp, n))
    return out


def bold_cells(t: Table) -> set[tuple[int, int]]:
    """(row, column) of the best values: per score column when ``t.best == "column"`` (rows are
    systems); per row among ``f1_<system>`` columns when there are several (the comparison)."""
    out: set[tuple[int, int]] = set()
    if t.best == "column" and len(t.rows) > 1:
        for j, key in enumerate(t.header):
            if j == 0 or not is_score_column(key):
                continue
            vals = [(cell(r[j], key), i) for i, r in enumerate(t.rows) if isinstance(r[j], float) and r[j] == r[j]]
            if vals:
                top = max(float(v) for v, _ in vals)
                out |= {(i, j) for v, i in vals if float(v) == top}
    systems = [j for j, key in enumerate(t.header) if key.startswith("f1_")]
    if len(systems) > 1:
        for i, r in enumerate(t.rows):
            vals = [(cell(r[j], t.header[j]), j) for j in systems if isinstance(r[j], float) and r[j] == r[j]]
            if vals:
                top = max(float(v) for v, _ in vals)
                out |= {(i, j) for v, j in vals if float(v) == top}
    return out


def numeric_columns(t: Table) -> list[bool]:
    """Whether each column holds numbers only (right-aligned; siunitx ``S`` columns in LaTeX)."""
    out = []
    for j in range(len(t.header)):
        cells = [r[j] for r in t.rows if j < len(r) and r[j] is not None]
        out.append(j > 0 and bool(cells) and all(isinstance(c, (int, float)) and not isinstance(c, bool)
                                                 for c in cells))
    return out
