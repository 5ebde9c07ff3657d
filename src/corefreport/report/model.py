"""The report's view model: sections of tables, charts and paragraphs built from an
:class:`~corefreport.scoring.result.Evaluation`. Nothing here computes a score — every number is a
field of the result or of its analyses' group-bys over outcome rows (and of a
:class:`~corefreport.scoring.compare.Comparison` for several systems). HTML, PDF and LaTeX render
this one model (:mod:`.html`, :mod:`.pdf`, :mod:`.latex`).

Table cells keep raw values (fractions for scores, ints or floats for counts); renderers format
them — scores as percentages with two decimals.
"""

from __future__ import annotations

import datetime as _dt
import os
from dataclasses import dataclass
from pathlib import Path

from ..version import __version__
from ..scoring.result import Evaluation
from . import svg
from ..present import tables as T
from ..present.errortables import mention_set
from ..present.labels import FEATURE_TITLES, METRIC_LABELS, SHORT_ANALYSIS
from ..scoring.registry import LINGUISTIC_METRICS as LINGUISTIC
from ..scoring.registry import ANALYSIS_REGISTRY, REFERENCES, REGISTRY, bibtex
from ..scoring.registry import STANDARD_METRICS as STANDARD
from .errors import errors_section as _errors_section
from .layers import LAYER_METRICS, LAYERS, layer_section
from .structure import Para, Report, Section

SECTIONS = ("overview", "summary", "metrics", "linguistic", "nonref", "bridging", "deixis", "plink", "arcs", "typed",
            "examples", "errors", "documents", "methods")
SECTION_TITLES = {
    "overview": "Summary", "compare": "Systems compared", "summary": "Corpus", "metrics": "Standard metrics",
    "linguistic": "Linguistically aware metrics", "plink": "p-link by category",
    "arcs": "Application scenarios (ARCS)", "typed": "Type-aware evaluation", "documents": "Per-document scores",
    "errors": "Error classes (Kummerfeld & Klein 2013)",
    "methods": "Methods", "warnings": "Appendix: warnings", "examples": "Error examples",
    **{sid: title for sid, (title, _, _) in LAYERS.items()},
}
HEADLINE = ("muc", "bcub", "ceafe")
MATCH_PHRASES = {"exact": "by exact span",
                 "head": "by their head word, as corefud-scorer does (--match head; a table breaks the links down "
                         "by how their mention was matched)",
                 "partial": "partially, as corefud-scorer does (--match partial: the response mention lies inside "
                            "the key mention and holds its head; a table breaks the links down by how their "
                            "mention was matched)",
                 "min": "by minimum span (--match min: the response mention holds the key's Min= span and lies "
                        "inside the key mention, as corefud-scorer's partial-corefud on Universal Anaphora files)",
                 "mina": "by MINA minimum span (--match mina: computed from the key's parse for both "
                         "mentions, which are the same when their sentence and minimum span are, as coval does)",
                 "craft": "partially, as the CRAFT 2019 task does (--match craft: a part of the response mention "
                          "lies inside the key mention's first part)"}
FEATURE_PHRASES = {"mtype": "mention type", "pos_class": "POS class", "pronoun": "pronoun lemma", "ne": "NE type",
                   "genre": "genre", "match": "how the mention was matched"}
FEATURE_ORDER = {"mtype": ("NAME", "NOMINAL", "PRONOUN")}
NAN = float("nan")
N_ARCS = "n: key referents (TP+WL+FN)"
N_TYPED = "n: key referents (S* = TP+WT+WL+WTL+FN)"
PDF_DOCUMENT_ROWS = 40
"""The PDF and the LaTeX list the worst documents only (all are in the HTML, the JSON and the CSV)."""


def report_date() -> str:
    """Today, or SOURCE_DATE_EPOCH's day when set (byte-identical PDFs on any day)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        return _dt.datetime.fromtimestamp(int(epoch), _dt.UTC).date().isoformat()
    return _dt.date.today().isoformat()


# --------------------------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------------------------

GLOB_CHARS = "*?["


def source_name(path: str) -> str:
    """A system's name from its response path: the file's stem; for a directory, or a glob such
    as ``out/ml/*.tsv``, the directory's name (``ml``) — never the pattern."""
    p = Path(path)
    parts = list(p.parts)
    globbed = False
    while parts and any(c in parts[-1] for c in GLOB_CHARS):
        parts.pop()
        globbed = True
    if globbed:
        return parts[-1] if parts and parts[-1] not in (".", "..", "/") else "response"
    if not p.suffix:  # a directory of documents
        return p.name or "response"
    return p.stem or "response"


def relative(text: str, cwd: str | None = None) -> str:
    """``text`` with absolute paths under the working directory written relative to it."""
    base = (cwd or os.getcwd()).rstrip("/") + "/"
    return text.replace(base, "") if base != "/" else text


def display_source(path: str) -> str:
    """How a corpus is named in the text: a file by its name, a directory or a glob by its path
    relative to the working directory (``data/gum/*.tsv``, never a bare ``*.tsv``)."""
    p = Path(path)
    if any(c in path for c in GLOB_CHARS) or not p.suffix:
        try:
            return os.path.relpath(os.path.abspath(path))
        except ValueError:  # another drive (Windows)
            return path
    return p.name


def _system_name(ev: Evaluation, name: str | None = None) -> str:
    return name or source_name(ev.response_source)


def headline_table(ev: Evaluation, comparison=None) -> T.Table | None:
    """The paper table: one row per system, R / P / F1 grouped under MUC, B³ and CEAF-e, and the
    CoNLL score; with several systems the best value of each column is bold."""
    if not all(m in ev.metrics for m in HEADLINE):
        return None
    header = ["system"] + [f"{m}_{x}" for m in HEADLINE for x in ("recall", "precision", "f1")] + ["conll"]
    t = T.Table("CoNLL-2012 scores (%)", header, groups=[(METRIC_LABELS[m], 3) for m in HEADLINE] + [("CoNLL", 1)],
                labels=["System"] + ["R", "P", "F1"] * len(HEADLINE) + ["F1"])
    if comparison is not None:
        rows = {m.name: m for m in comparison.metrics}
        for n in comparison.names:
            row: list = [n]
            for m in HEADLINE:
                r = rows[m]
                row += [r.recall[n], r.precision[n], r.f1[n]]
            row.append(rows["conll"].f1[n] if "conll" in rows else None)
            t.rows.append(row)
        t.best = "column" if len(comparison.names) > 1 else ""
    else:
        row = [_system_name(ev)]
        for m in HEADLINE:
            s = ev.metrics[m]
            row += [s.recall, s.precision, s.f1]
        t.rows.append(row + [ev.conll])
    return t


def summary_section(ev: Evaluation, pdf: bool, systems: dict[str, Evaluation] | None = None,
                    name: str | None = None) -> Section:
    """Corpus size of the key and of every system's response; the spans repeated in two chains of
    one side, for the key once and for every system."""
    systems = systems or {_system_name(ev, name): ev}
    several = len(systems) > 1
    s = Section("summary", SECTION_TITLES["summary"])
    t = T.Table("Corpus size", ["side", "documents", "mentions", "chains", "singletons", "file"],
                labels=["Side", "Documents", "Mentions", "Chains", "Singletons", "File"])
    first = next(iter(systems.values()))
    t.rows.append(["key", first.key_stats.documents, first.key_stats.mentions, first.key_stats.chains,
                   first.key_stats.singletons, display_source(first.key_source)])
    for sys_name, e in systems.items():
        st = e.response_stats
        t.rows.append([f"response {sys_name}" if several else "response", st.documents, st.mentions, st.chains,
                       st.singletons, display_source(e.response_source)])
    if not several:
        t.note = T.scored_sizes(first)  # --drop-singletons, --preset crac: what was scored
    s.blocks.append(t)
    dups = [("key", x) for x in first.duplicates if x.side == "key"]
    for sys_name, e in systems.items():
        dups += [(sys_name if several else "response", x) for x in e.duplicates if x.side != "key"]
    if dups:
        limit = 30 if pdf else len(dups)
        d = T.Table("Repeated mentions (a span written twice on one side)",
                    ["document", "side", "span", "chains", "action"],
                    labels=["Document", "System" if several else "Side", "Tokens", "Chains", "What was done"])
        for side, x in dups[:limit]:
            d.rows.append([x.doc_id, side, f"{x.span[0]}–{x.span[1]}", ", ".join(x.labels), x.action])
        if len(dups) > limit:
            d.note = f"The first {limit} of {len(dups)}; all of them are in the HTML report and the JSON."
        s.blocks.append(d)
    else:
        s.blocks.append(Para("No span occurs twice on either side" + (" of any system." if several else "."), "note"))
    n_warn = sum(len(e.warnings) for e in systems.values())
    if n_warn:
        s.blocks.append(Para(f"The readers and the scorer reported {n_warn} warning(s): see the appendix.", "note"))
    return s


def warnings_section(systems: dict[str, Evaluation]) -> Section | None:
    """Appendix: every warning of the readers and the scorer, paths relative to the working directory."""
    several = len(systems) > 1
    items = [(n, w) for n, e in systems.items() for w in dict.fromkeys(e.warnings)]
    if not items:
        return None
    s = Section("warnings", SECTION_TITLES["warnings"])
    s.blocks += [Para((f"{n}: " if several else "") + relative(w), "warning") for n, w in items]
    return s


SUMMARY_SCORES = ("conll", "muc", "bcub", "ceafe", "lea", "typed_micro", "typed_macro", "typed_scheme", "immediate",
                  "inferred", "anchor")
"""The first page's headline scores, in this order (those computed)."""


@dataclass(frozen=True, slots=True)
class IntervalSettings:
    """How the first page's intervals were drawn (stated in the methods)."""

    resamples: int
    seed: int
    confidence: float
    documents: int


def overview_section(systems: dict[str, Evaluation], intervals: dict[str, dict], how: IntervalSettings,
                     signature: str) -> Section:
    """The first page: systems, corpus, the headline F1 of every system with its bootstrap interval
    over documents (``intervals``: system → metric → ScoreInterval), and the signature."""
    first = next(iter(systems.values()))
    names = list(systems)
    several = len(names) > 1
    s = Section("overview", SECTION_TITLES["overview"])
    ks = first.key_stats
    s.blocks.append(Para(
        f"{'Systems' if several else 'System'}: {', '.join(names)}. Corpus: {display_source(first.key_source)}, "
        f"{ks.documents} documents, {ks.mentions} key mentions in {ks.chains} chains. "
        f"F1 in %; {round(100 * how.confidence)} % CI: percentile interval of {how.resamples} bootstrap resamples "
        f"of the {how.documents} documents (seed {how.seed}; see Methods)."))
    keys = [m for m in SUMMARY_SCORES if all(m in intervals.get(n, {}) for n in names)]
    header = ["metric"] + [h for n in names for h in (f"f1_{n}", f"ci_{n}")]
    t = T.Table("Headline scores with bootstrap intervals over documents", header,
                groups=[(n, 2) for n in names] if several else [],
                labels=["Score"] + ["F1", f"{round(100 * how.confidence)} % CI"] * len(names))
    for m in keys:
        row: list = [m]
        for n in names:
            iv = intervals[n][m]
            row += [iv.f1, (iv.low, iv.high)]
        t.rows.append(row)
    notes = []
    if "anchor" in keys:
        notes.append("ARCS 3 (EM): Entity Mentions F1 of scenario 3")
    if any(m.startswith("typed") for m in keys):
        notes.append("typed scheme: scheme coverage")
    t.note = "; ".join(notes) + ("." if notes else "")
    s.blocks.append(t)
    s.blocks.append(Para("Signature (every setting that changes a number):", "sighead"))
    s.blocks.append(Para(signature, "sig"))
    return s


def add_ci(t: T.Table, cis: dict | None, keys: list[str | None]) -> None:
    """Append the 95 % bootstrap interval of each row's F1 (``cis``: score key → ScoreInterval, from
    the summary's resampling; ``keys``: each row's score key, None for none)."""
    if not cis:
        return
    t.header.append("f1_ci")
    if t.labels is not None:
        t.labels.append("F1" if t.groups else "95 % CI of F1")
    if t.groups:
        t.groups.append(("95 % CI", 1))
    for row, k in zip(t.rows, keys):
        iv = cis.get(k) if k else None
        row.append((iv.low, iv.high) if iv is not None else None)


def metrics_section(ev: Evaluation, comparison=None, cis: dict | None = None) -> Section:
    s = Section("metrics", SECTION_TITLES["metrics"])
    if (h := headline_table(ev, comparison)) is not None:
        s.blocks.append(h)
    names = [m for m in ev.metrics if m not in LINGUISTIC and m not in LAYER_METRICS]  # layers: their sections
    t = T.metrics_table(ev, names, "Every standard metric, micro-averaged over documents")
    t.note = ""
    add_ci(t, cis, [r[0] for r in t.rows])
    links = [METRIC_LABELS.get(n, n) for n in names if not REGISTRY[n].fraction]
    if links:  # two kinds of links make no one fraction
        one = len(links) == 1
        t.note = (f"{' and '.join(links)} average{'s' if one else ''} coreference and non-coreference links: "
                  f"{'its' if one else 'their'} link counts are in the JSON.")
    s.blocks.append(t)
    from ..present.alignment import alignment_tables

    s.blocks.extend(alignment_tables(ev))  # a markup response: alignment cost apart from model loss
    return s


def linguistic_section(ev: Evaluation, cis: dict | None = None) -> Section | None:
    names = [m for m in ev.metrics if m in LINGUISTIC]
    if not names:
        return None
    w = list(ev.settings.weights)
    wtxt = ", ".join(f"{x:g}" for x in w)
    s = Section("linguistic", SECTION_TITLES["linguistic"])
    s.blocks.append(Para(f"Links are weighted by the types of the mentions they join (Chen & Ng 2013) with "
                         f"W = ({wtxt}) for (name, nominal, pronoun, singleton)."))
    t = T.metrics_table(ev, names, f"Linguistically aware metrics, W = ({wtxt})", totals=False)
    t.note = ""
    add_ci(t, cis, [r[0] for r in t.rows])
    s.blocks.append(t)
    return s


def plink_section(ev: Evaluation) -> Section | None:
    t = T.plink_table(ev.plink)
    if t is None:
        return None
    t.groups = [("Score (%)", 3), ("Recall", 2), ("Precision", 2)]
    t.labels = ["Category", "R", "P", "F1", "num.", "den.", "num.", "den."]
    return Section("plink", SECTION_TITLES["plink"], [t])


def _feature_values(feature: str, scenarios: dict) -> list[str]:
    values: dict[str, int] = {}
    for sc in scenarios.values():
        for v, c in sc.by.get(feature, {}).items():
            values[v] = values.get(v, 0) + c.key_total + c.fp
    if feature == "pronoun":
        values.pop("-", None)  # not a pronoun
    order = FEATURE_ORDER.get(feature)
    if order:
        return [v for v in order if v in values] + sorted(v for v in values if v not in order)
    return sorted(values, key=lambda v: (v == "-", -values[v], v))


BREAKDOWN_VALUES = 8
"""The PDF and the LaTeX show the most frequent values of an ARCS breakdown (all are in the HTML)."""


def arcs_section(ev: Evaluation, max_values: int | None = None, cis: dict | None = None) -> Section:
    arcs = ev.arcs
    scen = arcs.scenarios
    s = Section("arcs", SECTION_TITLES["arcs"])
    s.blocks.append(Para(
        "Each referent (a mention the key or the response links to an antecedent) is judged in three application "
        "scenarios (Tuggener 2014): 1, is its immediate antecedent right; 2, is its closest preceding nominal "
        "antecedent right; 3, is it attached to the right anchor, the entity's first nominal mention. "
        "TP: right, WL: resolved to a wrong antecedent, FN: not resolved, FP: resolved but not a key referent; "
        "R = TP/(TP+WL+FN), P = TP/(TP+WL+FP), accuracy = TP/(TP+WL). Throughout, n is the number of key "
        "referents (TP+WL+FN); n/a marks an undefined score (a zero denominator)."))
    tot = T.Table("ARCS totals per scenario", ["scenario", "tp", "wl", "fn", "fp", "recall", "precision", "f1",
                                                "accuracy"],
                  groups=[("Referents", 4), ("Score (%)", 4)],
                  labels=["Scenario", "TP", "WL", "FN", "FP", "R", "P", "F1", "Acc."])
    for name, sc in scen.items():
        c = sc.total
        acc = None if name == "anchor" else c.accuracy  # EM has no WL: its accuracy is always 100
        tot.rows.append([REGISTRY[name].title, c.tp, c.wl, c.fn, c.fp, c.recall, c.precision, c.f1, acc])
    if "anchor" in scen:
        tot.note = "Scenario 3 counts Entity Mentions outcomes: TP in both key and response anchor sets, FN key only, " \
                   "FP response only; it has no WL, so no accuracy is given."
    add_ci(tot, cis, list(scen))
    s.blocks.append(tot)
    if any("mtype" in sc.by for sc in scen.values()):
        items: list = []
        for v in _feature_values("mtype", scen):
            items.append((v, None))
            items += [(SHORT_ANALYSIS[n], sc.by["mtype"][v]) for n, sc in scen.items() if v in sc.by.get("mtype", {})]
        s.blocks.append(svg.stacked("ARCS outcomes by mention type of the referent", items, ("tp", "wl", "fn", "fp"),
                                    note=N_ARCS))
    for feature in dict.fromkeys(f for sc in scen.values() for f in sc.by):
        if (t := arcs_breakdown(scen, feature, max_values)) is not None:
            s.blocks.append(t)
    anchor = scen.get("anchor")
    if anchor is not None and anchor.entity is not None:
        d = anchor.entity.as_dict()
        e = T.Table("ARCS 3 by the anchor's NE type: Entity Detection, Entity Mentions and Fφ",
                    ["ne", "ed_recall", "ed_precision", "ed_f1", "em_recall", "em_precision", "em_f1", "f_phi"],
                    groups=[("Entity Detection", 3), ("Entity Mentions", 3), ("", 1)],
                    labels=["NE type", "R", "P", "F1", "R", "P", "F1", "Fφ"])
        for label, x in [("total", d)] + sorted(d["by_ne"].items()):
            e.rows.append(["(none)" if label == "-" else label, x["ed"]["recall"], x["ed"]["precision"],
                           x["ed"]["f1"], x["em"]["recall"], x["em"]["precision"], x["em"]["f1"], x["f_phi"]])
        e.breaks.append(1)
        e.note = "Fφ: harmonic mean of Entity Detection F1 and Entity Mentions F1."
        s.blocks.append(e)
    return s


def arcs_breakdown(scen: dict, feature: str, max_values: int | None = None) -> T.Table | None:
    """One breakdown of the three scenarios, as in Tuggener's tables: per value and scenario the raw
    TP / WL / FN / FP, n = TP+WL+FN with its share of the scenario's key referents, and R, P, F1.
    A value with no key referent in any scenario (false positives only) is left out and named in
    the note with its FP; a breakdown with one value is None (the totals again). ``max_values``: the
    most frequent values only (the PDF and the LaTeX), the others counted in the note."""
    values = _feature_values(feature, scen)
    if len(values) < 2:
        return None
    phrase = FEATURE_PHRASES.get(feature, feature)
    t = T.Table(f"ARCS by {phrase}", ["value", "scenario", "tp", "wl", "fn", "fp", "n", "share", "recall",
                                      "precision", "f1"],
                groups=[("", 1), ("Referents", 4), ("Key referents", 2), ("Score (%)", 3)],
                labels=[FEATURE_TITLES.get(feature, feature), "Scenario", "TP", "WL", "FN", "FP", "n", "%", "R", "P",
                        "F1"])
    empty: list[str] = []
    shown = 0
    cut: list[str] = []
    for v in values:
        label = "(none)" if v == "-" else v
        cs = {n: sc.by.get(feature, {}).get(v) for n, sc in scen.items()}
        if all(c is None or c.key_total == 0 for c in cs.values()):
            fp = sum(c.fp for c in cs.values() if c is not None)
            empty.append(f"{label} (FP {fp})" if fp else label)
            continue
        if max_values is not None and shown >= max_values:
            cut.append(label)
            continue
        shown += 1
        if t.rows:
            t.breaks.append(len(t.rows))
        for n, c in cs.items():
            if c is None or c.key_total + c.fp == 0:
                continue
            total = scen[n].total.key_total
            t.rows.append([label, SHORT_ANALYSIS.get(n, n), c.tp, c.wl, c.fn, c.fp, c.key_total,
                           c.key_total / total if total else NAN, c.recall if c.key_total else NAN,
                           c.precision if c.resolved + c.fp else NAN,
                           c.f1 if c.key_total and c.resolved + c.fp else NAN])
    t.note = (N_ARCS + "; %: its share of the scenario's key referents"
              + ("; non-pronouns are left out" if feature == "pronoun" else "")
              + "; R, P, F1 in %, n/a where undefined"
              + (f"; the {len(cut)} less frequent values ({', '.join(cut)}) are in the HTML report" if cut else "")
              + (f"; left out, no key referent in any scenario (only false positives): {', '.join(empty)}" if empty
                 else "") + ".")
    return t


def typed_section(ev: Evaluation, cis: dict | None = None) -> Section:
    tt = ev.typed
    k = ", ".join(f"{x:g}" for x in tt.k)
    s = Section("typed", SECTION_TITLES["typed"])
    s.blocks.append(Para(
        f"Each non-dominant mention of a key or response chain is a referent linked to its chain's dominant mention "
        f"and typed by scheme '{tt.scheme.name}' (Žitkus et al. 2023). TP: dominant mention and type right, WT: "
        f"type wrong, WL: dominant mention wrong, WTL: both wrong, FN/FP: a referent of one side only; "
        f"S* = TP+WT+WL+WTL+FN. Credits k = ({k}) for TP, WT, WL, WTL; P = credit/(TP+WT+WL+WTL+FP), "
        f"R = credit/S*. Attempted classes (n_a = {len(tt.attempted)}): {', '.join(tt.attempted) or 'none'}; "
        f"scheme classes n = {tt.scheme.n}."))
    classes = list(tt.classes)

    def cname(c: str) -> str:
        n = tt.scheme.class_name(c)
        return f"{c} ({n})" if n and n != c else c

    items = [(cname(c), tt.classes[c]) for c in classes]
    s.blocks.append(svg.stacked("Outcomes per class", items, ("tp", "wt", "wl", "wtl", "fn", "fp"), note=N_TYPED))
    d = tt.as_dict()
    s.blocks.append(svg.prf("Precision, recall and F1 per class",
                            [(cname(c), v["precision"], v["recall"], v["f1"]) for c, v in d["classes"].items()]))
    t = T.Table(f"Typed evaluation by class (scheme {tt.scheme.name}, k = ({k}))", ["class"] + T.TYPED_HEADER,
                groups=T.TYPED_GROUPS, labels=["Class"] + T.TYPED_LABELS)
    for c in classes:
        t.rows.append(T.typed_row(cname(c), d["classes"][c]))
    s.blocks.append(t)
    summ = T.typed_summary(tt, "Micro, macro and scheme-coverage averages")
    add_ci(summ, cis, ["typed_micro", "typed_macro", "typed_scheme"])
    summ.note = (f"micro pools the counts of the {len(tt.attempted)} attempted classes; macro averages their P and R; "
                 f"scheme coverage divides the sums by the scheme's {tt.scheme.n} classes.")
    notes = T.typed_notes(tt)
    s.blocks.append(summ)
    s.blocks += [Para(n[0].upper() + n[1:] + ".", "note") for n in notes]
    by_class: dict[str, list[str]] = {}
    for typ, c in tt.type_class.items():
        if typ in tt.types:
            by_class.setdefault(c, []).append(typ)
    items = []
    for c in classes + [c for c in by_class if c not in classes]:
        if c not in by_class:
            continue
        items.append((cname(c), None))
        items += [(typ.split("/", 1)[-1] if typ.startswith(c + "/") else typ, tt.types[typ]) for typ in by_class[c]]
    if items:
        s.blocks.append(svg.stacked("Outcomes per type, grouped by class", items,
                                    ("tp", "wt", "wl", "wtl", "fn", "fp"), note=N_TYPED))
    for c in classes + [c for c in by_class if c not in classes]:
        if c not in by_class:
            continue
        tt_ = T.Table(f"Types of class {cname(c)}", ["type"] + T.TYPED_HEADER, groups=T.TYPED_GROUPS,
                      labels=["Type"] + T.TYPED_LABELS)
        for typ in by_class[c]:
            tt_.rows.append(T.typed_row(typ, d["types"][typ]))
        if len(by_class[c]) > 1 and c in tt.classes:
            tt_.breaks.append(len(tt_.rows))
            tt_.rows.append(T.typed_row("class total", d["classes"][c]))
        s.blocks.append(tt_)
    return s


def examples_section(ev: Evaluation, system: str = "", systems: dict[str, Evaluation] | None = None,
                     pdf: bool = False) -> Section | None:
    """The most frequent error groups of each analysis with example links in their sentences
    (:mod:`.examples`), then the documents they come from as running text with the key's and each
    system's mentions (:mod:`.doctext`), each example linked to its place there."""
    from .doctext import example_documents
    from .examples import GROUPS, PER_GROUP, example_blocks

    blocks = example_blocks(ev)
    if not blocks:
        return None
    s = Section("examples", SECTION_TITLES["examples"])
    s.blocks.append(Para(
        (f"Errors of {system}. " if system else "") + f"For each analysis, the {GROUPS} most frequent errors by outcome, class and type of the referent (its "
        f"share of the analysis' error rows), each with {PER_GROUP} example links — from different documents, and "
        "not shown for an earlier analysis, where possible: the referent is boxed, the key's antecedent underlined "
        "and tagged [K], the response's antecedent underlined with dashes and tagged [R] ([K=R] where they coincide). Long sentences are "
        "shortened around the marks (…); → in the document: the link's place in its document's running text "
        "(below). Every error link can be browsed with corefreport tui."))
    s.blocks += blocks
    texts = example_documents(blocks, systems or {system or "response": ev}, pdf)
    if texts is not None:
        s.blocks.append(Para("The examples in their documents", "heading"))
        s.blocks.append(Para(texts.note, "note"))
        s.blocks.append(texts)
    return s


def documents_section(ev: Evaluation, max_documents: int | None,
                      systems: dict[str, Evaluation] | None = None) -> Section:
    """One table per system (the worst documents first)."""
    s = Section("documents", SECTION_TITLES["documents"])
    if not systems or len(systems) == 1:
        s.blocks.append(documents_table(ev, max_documents))
    else:
        for n, e in systems.items():
            s.blocks.append(documents_table(e, max_documents, n))
    return s


def documents_table(ev: Evaluation, max_documents: int | None, system: str = "") -> T.Table:
    names = [m for m in ev.metrics if m in STANDARD]
    cols = names + (["conll"] if ev.conll is not None else [])
    header = ["document", "key_mentions", "response_mentions"] + [f"{m}_f1" if m != "conll" else "conll"
                                                                   for m in cols] + ["mentions_f1"]
    t = T.Table("Per-document scores, worst first", header,
                groups=[("Mentions", 2), ("F1 (%)", len(cols)), ("Mention", 1)],
                labels=["Document", "key", "resp."] + [METRIC_LABELS[m] for m in cols] + ["F1"])
    rows = []
    for d in ev.documents:
        row = [d.doc_id, d.mentions.recall_den, d.mentions.precision_den] + [d.metrics[m].f1 for m in names]
        if ev.conll is not None:
            row.append(d.conll())
        row.append(d.mentions.f1)
        rows.append(row)
    key = len(header) - 2 if ev.conll is not None else 3
    rows.sort(key=lambda r: (r[key] if r[key] is not None else 0.0, r[0]))
    order = "CoNLL" if ev.conll is not None else METRIC_LABELS.get(names[0], names[0]) if names else "document"
    t.title = f"Per-document scores{' of ' + system if system else ''}, worst {order} first"
    if max_documents is not None and len(rows) > max_documents:
        t.note = (f"The {max_documents} worst of {len(rows)} documents; every document is in the HTML report and in "
                  "the JSON of corefreport score --per-doc -f json.")
        rows = rows[:max_documents]
    t.rows = rows
    return t


def methods_text(ev: Evaluation, comparison=None, intervals: IntervalSettings | None = None,
                 scope=None) -> list[str]:
    """Paragraphs stating every setting, citing the papers (the signature is shown after them).
    ``scope`` (:class:`~.groups.Scope`): a report on more than one pair says what was scored."""
    s = ev.settings
    metrics = ", ".join(f"{METRIC_LABELS.get(m, m)} ({'; '.join(REGISTRY[m].citations)})" for m in s.metrics)
    corpus = scope.corpus if scope is not None else (
        f"{ev.key_stats.documents} key documents ({display_source(ev.key_source)}) and the response "
        f"{display_source(ev.response_source)}")
    text = [
        f"Scores were computed with corefreport {__version__} on {corpus}. Metrics: {metrics}"
        + ("; the CoNLL score is the mean F1 of MUC, B³ and CEAF-e (Pradhan et al. 2014)" if ev.conll is not None
           else "")
        + (". Numerators and denominators are summed over documents before dividing, as the CoNLL reference scorer "
           "v8.01 does (Pradhan et al. 2014), whose numbers corefreport reproduces."),
        (f"Mentions are matched {MATCH_PHRASES.get(s.match, s.match)}; singletons were "
         f"{'kept' if s.singletons == 'keep' else 'removed'}; "
         + ("repeated spans are handled as corefud-scorer v1.2 handles them (a span written twice in a chain counts "
            "once, before singletons are removed; a span in two chains of a side counts in both)."
            if s.repeats == "corefud12" else
            "repeated spans are handled as the Universal Anaphora scorer v1 handles them (a span written under two "
            "markable ids counts every time, in the chain it is written in, and is looked up in the last)."
            if s.repeats == "ua1" else
            "a span repeated in the response is handled as the reference scorer handles it, and a span repeated in "
            f"the key was {'kept twice (reference behaviour)' if s.key_duplicates == 'keep' else 'kept once'}.")),
    ]
    if scope is not None and scope.matching:  # several matchings (the CRAC variants)
        text[1] = scope.matching
    if s.linguistic:
        text.append("Linguistically aware metrics (Chen & Ng 2013) weight links by mention type with "
                    f"W = ({', '.join(f'{x:g}' for x in s.weights)}) for (name, nominal, pronoun, singleton).")
    if ev.arcs is not None:
        by = ", ".join(FEATURE_PHRASES.get(f, f) for f in s.breakdowns)
        text.append("Application scenarios follow Tuggener (2014): immediate antecedent, closest preceding nominal "
                    "antecedent and anchor mention (Entity Detection, Entity Mentions and their harmonic mean Fφ); "
                    f"R = TP/(TP+WL+FN), P = TP/(TP+WL+FP); breakdowns by {by}"
                    + ("; the released v1.2 scorer's conventions were reproduced (--arcs-compat)." if s.arcs_compat
                       else "."))
    if ev.errors is not None:
        text.append("Error classes follow Kummerfeld & Klein (2013), found on " + mention_set(ev.errors)
                    + "; a class's cost is the F1 gained by fixing it.")
    if ev.typed is not None:
        tt = ev.typed
        text.append(f"The type-aware evaluation follows Žitkus et al. (2023) with scheme '{tt.scheme.name}' and "
                    f"k = ({', '.join(f'{x:g}' for x in s.k)}) for TP, WT, WL, WTL; micro scores pool the attempted "
                    "classes, macro scores average them, scheme coverage divides by the scheme's number of classes; "
                    f"dominant mentions were matched {'strictly' if s.strict_dominant else 'by span'}. "
                    f"Attempted classes: {', '.join(tt.attempted)}.")
    if ev.plink is not None:
        text.append(f"p-link (Zeldes & Simonson 2016) partitions MUC links by '{ev.plink.by}'"
                    + (" with the Perl scorer's categories." if ev.plink.compat else "."))
    if comparison is not None:
        r = comparison.resampling
        corrected = (f"adjusted for multiple comparisons by {CORRECTION_CITES[r.correction]} over the family of "
                     f"the {_family_size(comparison)} differences tested" if r.correction != "none" else
                     "not corrected for multiple comparisons")
        text.append(f"Systems were compared with {Path(comparison.baseline).name} as the baseline, paired over the "
                    f"{len(comparison.documents)} documents of the key: a paired bootstrap ({r.bootstrap} resamples "
                    f"of the documents with replacement; Koehn 2004) gives {round(100 * r.confidence)} % percentile "
                    f"intervals and two-sided approximate randomization ({r.randomization} trials, whole documents "
                    f"swapped; Riezler & Maxwell 2005) the p-values, * marking p < {r.alpha:g} ({corrected}); "
                    f"random seed {r.seed}. A score undefined for a system (a zero denominator) is n/a and not "
                    "tested.")
    elif intervals is not None:
        text.append(f"The {round(100 * intervals.confidence)} % intervals of the summary are percentile intervals "
                    f"of the corpus F1 over {intervals.resamples} bootstrap resamples of the {intervals.documents} "
                    f"documents with replacement (Koehn 2004), each resample scored with the formulas of the "
                    f"scores themselves; random seed {intervals.seed}.")
    return text


BIB_NOTE = ("Two reports in one paper: the .bib written beside each .tex report holds the BibTeX of every paper "
            "corefreport cites (the report's own first), so give one of them, \\bibliography{ml} and not "
            "\\bibliography{ml,cmp}: BibTeX refuses an entry defined in two files. If the paper's own .bib already "
            "holds these ACL Anthology keys (anthology.bib), give none of them.")
"""How to combine two reports' ``.bib`` files (the methods' BibTeX note and the ``.tex`` header)."""
SIGNATURE_SENTENCE = "The signature below names every setting that changes a number; quote it with the scores."


def cited(ev: Evaluation, comparison=None, intervals: bool = False) -> list[str]:
    """The references the report cites, in alphabetical order."""
    return [REFERENCES[k] for k in cited_keys(ev, comparison, intervals)]


CORRECTION_CITES = {"holm": "Holm (1979)", "bh": "Benjamini & Hochberg (1995)"}
CORRECTION_KEYS = {"holm": "Holm 1979", "bh": "Benjamini & Hochberg 1995"}


def _family_size(cmp) -> int:
    """The differences a comparison's correction was applied over (its caution's count)."""
    c = next((c for c in cmp.cautions if c.kind in ("correction", "multiple_comparisons")), None)
    return int(c.value) if c is not None else 0


def quoted_keys(sections) -> set[str]:
    """The keys of the registry's references that the paragraphs of ``sections`` quote ("Davison &
    Hinkley 1997"): the sections for more than one pair cite by writing the key."""
    text = " ".join(t for s in sections or () for t in s.text)
    return {k for k in REFERENCES if k in text}


def cited_keys(ev: Evaluation, comparison=None, intervals: bool = False, scope=None, more=()) -> list[str]:
    """The keys (of the registry's references) of every paper the report cites, in alphabetical order
    (``more``: further keys, those the extra sections quote)."""
    keys = {c for m in ev.settings.metrics for c in REGISTRY[m].citations} | {"Pradhan et al. 2014"}
    keys |= set(scope.cites if scope is not None else ()) | set(more)
    if ev.arcs is not None:
        keys.add("Tuggener 2014")
    if ev.typed is not None:
        keys.add("Žitkus et al. 2023")
    if ev.plink is not None:
        keys.add("Zeldes & Simonson 2016")
    if ev.errors is not None:
        keys.add("Kummerfeld & Klein 2013")
    if comparison is not None:
        keys |= {"Koehn 2004", "Riezler & Maxwell 2005"}
        if comparison.resampling.correction in CORRECTION_KEYS:
            keys.add(CORRECTION_KEYS[comparison.resampling.correction])
    if ev.strata:  # --strata: the rule of the strata (report/strata.py)
        keys.add("Duron-Tejedor et al. 2023")
    if ev.windows is not None:  # --window: BookCoref's windows, xCoRe's cross-context links (report/windows.py)
        keys |= {"Martinelli et al. 2025", "Martinelli, Gatti & Navigli 2025"}
    if intervals:
        keys.add("Koehn 2004")
    return sorted(keys, key=lambda k: k.replace("Ž", "Z"))


def methods_section(ev: Evaluation, comparison=None, intervals: IntervalSettings | None = None,
                    scope=None, more=()) -> Section:
    s = Section("methods", SECTION_TITLES["methods"],
                [Para(p) for p in methods_text(ev, comparison, intervals, scope)])
    sig = scope.signature if scope is not None else str(comparison.signature) if comparison is not None \
        else str(ev.signature)
    s.blocks.append(Para(SIGNATURE_SENTENCE, "sighead"))  # kept on one page with the signature
    s.blocks.append(Para(sig, "sig"))
    s.blocks.append(Para("References", "heading"))
    keys = cited_keys(ev, comparison, intervals is not None, scope, more)
    s.blocks += [Para(REFERENCES[k], "ref") for k in keys]
    s.blocks.append(Para("BibTeX", "heading"))
    s.blocks.append(Para(BIB_NOTE, "note"))
    s.blocks.append(Para(bibtex(keys), "bibtex"))
    return s


def _adjusted_over(cmp) -> str:
    """"p adjusted by Holm (1979) over the family of the 12 differences tested"."""
    return (f"p adjusted by {CORRECTION_CITES[cmp.resampling.correction]} over the family of the "
            f"{_family_size(cmp)} differences tested")


def compare_section(comparison) -> Section:
    cmp = comparison
    s = Section("compare", SECTION_TITLES["compare"])
    s.blocks.append(Para(
        f"Baseline: {cmp.baseline}. The corpus and per-document sections cover every system; the metric, ARCS, "
        f"typed and error-example sections below describe {cmp.names[-1]}. Δ: difference to the "
        f"baseline in points; 95 % CI: its paired-bootstrap interval ({cmp.resampling.bootstrap} resamples of the "
        f"documents); p: approximate randomization ({cmp.resampling.randomization} trials), * for p < 0.05 "
        "(Koehn 2004; Riezler & Maxwell 2005)"
        + (f", {_adjusted_over(cmp)}" if cmp.resampling.correction != "none" else "")
        + ("; n/a: a score undefined for a system (a zero denominator), not tested." if _undefined(cmp) else ".")
        + "".join(f" {c.message[:1].upper()}{c.message[1:]}." for c in cmp.cautions
                  if c.kind in ("one_document", "too_few_documents"))))
    s.blocks += T.comparison_tables(cmp)
    for t in s.tables:
        if t.note == str(cmp.signature):  # printed once, under the title
            t.note = differing_note(cmp)
            if cmp.resampling.correction != "none":
                t.note = (t.note + " " if t.note else "") + (
                    f"{_adjusted_over(cmp)}; * for an adjusted p < {cmp.resampling.alpha:g}.")
            if _undefined(cmp):
                t.note = (t.note + " " if t.note else "") + "n/a: undefined (a zero denominator), not tested."
    return s


def _undefined(cmp) -> bool:
    """Whether a score of the comparison is undefined for a system (NaN: a zero denominator)."""
    return any(f != f for m in cmp.metrics for f in m.f1.values())


def differing_note(cmp) -> str:
    """How many documents each system's headline F1 differs on from the baseline's; with few of
    them, the smallest p-value randomization can give (a large p then says little)."""
    if not cmp.per_document:
        return ""
    label = METRIC_LABELS.get(cmp.headline, cmp.headline)
    parts = []
    for n in cmp.systems:
        docs = cmp.per_document.get(n, [])
        k = sum(1 for d in docs if d.delta != 0)
        part = f"{n} differs from {cmp.baseline} on {k} of {len(docs)} documents ({label} F1)"
        if 0 < k <= 10 and cmp.resampling.randomization:
            part += (f"; swapping {k} document(s) cannot give a p-value below about {2 ** (1 - k):.3g}, so a large p "
                     "here means too few differing documents, not equal systems")
        parts.append(part)
    return "; ".join(parts) + "."


# --------------------------------------------------------------------------------------------

ANALYSIS_OF = {"linguistic": "the linguistically aware metrics", "plink": "p-link",
               "arcs": "the ARCS analysis", "typed": "the typed analysis", "errors": "-a errors",
               "examples": "the ARCS or typed analysis"}


def errors_section(ev: Evaluation, comparison=None) -> Section | None:
    return _errors_section(ev, comparison, SECTION_TITLES["errors"])


def build(ev: Evaluation, title: str | None = None, sections: list[str] | None = None,
          max_documents: int | None = None, comparison=None, pdf: bool = False, name: str | None = None,
          systems: dict[str, Evaluation] | None = None, intervals: dict[str, dict] | None = None,
          interval_settings: IntervalSettings | None = None, extra: list[Section] | None = None,
          scope=None) -> Report:
    """The report's sections, in order, for the parts the evaluation computed. A section asked for
    (or a default one) whose analysis was not computed is left out with a note. With a
    ``comparison`` (several responses), a first section sets the systems side by side and the
    detailed sections describe ``ev`` (the last system)."""
    asked = list(sections) if sections else None
    want = asked or list(SECTIONS)
    out: list[Section] = []
    notes: list[str] = []
    if comparison is not None and systems is None:
        systems = {n: ev for n in comparison.names[-1:]}
    if systems is None:
        systems = {_system_name(ev, name): ev}
    signature = scope.signature if scope is not None else str(comparison.signature) if comparison is not None \
        else str(ev.signature)
    if comparison is not None and intervals is None:
        intervals = {n: {m.name: _ci(m, n) for m in comparison.metrics} for n in comparison.names}
        r = comparison.resampling
        interval_settings = IntervalSettings(r.bootstrap, r.seed, r.confidence, len(comparison.documents))
    detail = comparison.names[-1] if comparison is not None else _system_name(ev, name)
    cis = (intervals or {}).get(detail)  # the detailed sections' F1 intervals (ev's)
    if "overview" in want and intervals:
        out.append(overview_section({n: systems.get(n, ev) for n in intervals}, intervals, interval_settings,
                                    signature))
    if comparison is not None:
        out.append(compare_section(comparison))
    out += extra or []  # more than one pair: datasets, runs, groups of documents (report/groups.py)
    builders = {
        "overview": lambda: False,
        "summary": lambda: summary_section(ev, pdf, systems, name),
        "metrics": lambda: metrics_section(ev, comparison, cis),
        "linguistic": lambda: linguistic_section(ev, cis),
        **{sid: (lambda sid=sid: layer_section(ev, sid, cis, add_ci)) for sid in LAYERS},
        "plink": lambda: plink_section(ev),
        "arcs": lambda: arcs_section(ev, BREAKDOWN_VALUES if max_documents is not None else None, cis)
        if ev.arcs is not None else None,
        "typed": lambda: typed_section(ev, cis) if ev.typed is not None else None,
        "examples": lambda: examples_section(ev, detail if comparison is not None else "", systems, pdf),
        "errors": lambda: errors_section(ev, comparison),  # report/errors.py
        "documents": lambda: documents_section(ev, max_documents, systems),
        "methods": lambda: methods_section(ev, comparison, interval_settings if intervals else None, scope,
                                           quoted_keys(extra)),
    }
    for sid in SECTIONS:
        if sid not in want:
            continue
        sec = builders[sid]()
        if sec is False:
            continue
        if sec is None:
            if asked is not None or sid not in ("plink", "errors"):
                notes.append(f"{SECTION_TITLES[sid]}: left out, {ANALYSIS_OF[sid]} was not computed.")
            continue
        out.append(sec)
    for a in ANALYSIS_REGISTRY.values():  # the analyses added by register(), after the built-in ones
        tables = T.analysis_tables(a, ev) if a.name not in builders and (asked is None or a.name in asked) else []
        if tables:
            out.append(Section(a.name, a.title[:1].upper() + a.title[1:], tables))
    if (w := warnings_section(systems)) is not None:
        out.append(w)
    key = display_source(ev.key_source)
    if scope is not None:  # more than one pair (report/groups.py)
        default, subtitle = f"Coreference evaluation of {scope.subject}", scope.subtitle
    elif comparison is not None:
        names = ", ".join(comparison.names)
        default, subtitle = f"Coreference evaluation of {names}", f"Systems {names} against the key {key}"
    else:
        resp = _system_name(ev, name)
        default, subtitle = f"Coreference evaluation of {resp}", f"Response {resp} against the key {key}"
    cites = cited_keys(ev, comparison, bool(intervals), scope, quoted_keys(extra))
    return Report(title or default, subtitle, signature, out, notes, report_date(), cites=cites)


def _ci(row, system: str):
    from ..scoring.intervals import ScoreInterval

    lo, hi = row.ci.get(system, (float("nan"), float("nan")))
    return ScoreInterval(row.f1[system], lo, hi)


