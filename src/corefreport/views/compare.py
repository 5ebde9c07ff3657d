"""Renderings of a :class:`~corefreport.scoring.compare.Comparison`: Rich for the terminal (fits 80
columns; plain ASCII when piped), and neutral :class:`~corefreport.report.tables.Table` objects
for Markdown, LaTeX, CSV and the report. Views only format fields of the comparison.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import TextIO

from rich import box
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from ..report.tables import METRIC_LABELS, Table, to_csv, to_latex, to_markdown
from ..scoring.compare import ANALYSIS_LABELS, LABELS, LINK_FIELDS, Comparison, GroupDelta, LinkChange
from ..scoring.significance import PairedTest

SHORT_ANALYSIS = {"immediate": "ARCS 1", "inferred": "ARCS 2", "anchor": "ARCS 3", "anchor_link": "ARCS 3L",
                  "typed": "Typed"}
"""Short analysis names (capitalised "Typed": the report maps a bare "typed" to "typed micro")."""
ARROW = "→"


# --------------------------------------------------------------------------------------------
# Formatting helpers
# --------------------------------------------------------------------------------------------

def pct(x: float | None) -> str:
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:.2f}"


def signed(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:+.2f}".replace("-", "−")


def star(t: PairedTest, alpha: float = 0.05) -> str:
    return "*" if t.significant(alpha) else ""


def delta_cell(t: PairedTest, alpha: float = 0.05) -> str:
    """Δ in points with ``*`` when p < alpha: ``+4.41*``."""
    return signed(t.delta) + star(t, alpha)


def ci_cell(ci: tuple[float, float]) -> str:
    if math.isnan(ci[0]):
        return "n/a"
    return f"[{signed(ci[0])}, {signed(ci[1])}]"


def p_cell(p: float) -> str:
    if math.isnan(p):
        return "n/a"
    return f"{p:.4f}" if p >= 5e-5 else f"{p:.1e}"


def _ascii(s: str) -> str:
    return s.replace("−", "-").replace(ARROW, "->")


def metric_label(name: str) -> str:
    return LABELS.get(name, name)


def _table_key(name: str) -> str:
    """Row label of neutral tables: the metric key where the shared renderers know it (B³ → B$^3$
    in LaTeX), else the readable label."""
    return name if name in METRIC_LABELS and name not in ("typed",) else metric_label(name)


def _group_name(g: GroupDelta) -> str:
    """The label, with a short code (a POS tag) when the label is a description of it."""
    if g.label.strip('"') == g.group or g.analysis == "typed" or len(g.group) > 5:
        return g.label
    return f"{g.label} ({g.group})"


def _doc(doc_id: str) -> str:
    return doc_id.removesuffix("; part 000")


def legend(cmp: Comparison) -> str:
    s = cmp.settings
    parts = []
    if s.get("randomization"):
        parts.append(f"* p < {s.get('alpha', 0.05):g} (two-sided approximate randomization, {s['randomization']} trials)")
    elif s.get("bootstrap"):
        parts.append(f"* p < {s.get('alpha', 0.05):g} (paired bootstrap)")
    if s.get("bootstrap"):
        parts.append(f"{round(100 * s.get('confidence', 0.95))} % CI: paired bootstrap, {s['bootstrap']} resamples "
                     f"of the {len(cmp.documents)} documents")
    parts.append(f"seed {s.get('seed')}")
    return "; ".join(parts)


# --------------------------------------------------------------------------------------------
# Summary sentences
# --------------------------------------------------------------------------------------------

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
        parts.append(f"{metric_label(cmp.headline)} {delta_cell(t)} (p = {p_cell(t.p)})")
    a = _summary_analysis(cmp, system)
    if a is not None:
        by = "type" if any(g.by == "type" for g in cmp.group_deltas(system, a)) else "cls"
        ups = cmp.gains(system, a, by, top, min_support)
        downs = cmp.losses(system, a, by, top, min_support)
        items = [f"{delta_cell(g.test)} on {g.label} (n = {g.key_referents})" for g in ups + downs]
        if items:
            parts.append(f"{SHORT_ANALYSIS.get(a, a)} by {'type' if by == 'type' else 'class'}: " + ", ".join(items))
    return f"{system} vs {cmp.baseline}: " + "; ".join(parts) if parts else f"{system} vs {cmp.baseline}"


# --------------------------------------------------------------------------------------------
# Neutral tables (Markdown, LaTeX, CSV, report)
# --------------------------------------------------------------------------------------------

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
            row += [_ascii(delta_cell(test)), _ascii(ci_cell(test.delta_ci)), p_cell(test.p)]
        row.append(", ".join(m.best))
        t.rows.append(row)
    t.note = cmp.signature
    return t


def group_table(cmp: Comparison, system: str, analysis: str, top: int = 5, min_support: int = 20) -> Table:
    """The largest gains and losses of ``system`` by class and type in one analysis."""
    rows = cmp.gains(system, analysis, None, top, min_support) + cmp.losses(system, analysis, None, top, min_support)
    t = Table(f"{ANALYSIS_LABELS.get(analysis, analysis)}: largest F1 changes by class and type, {system} vs "
              f"{cmp.baseline} (≥ {min_support} referents)",
              ["group", "by", "n", f"f1_{cmp.baseline}", f"f1_{system}", "delta", "p"])
    for g in rows:
        t.rows.append([_group_name(g), "class" if g.by == "cls" else g.by, g.key_referents, g.test.baseline,
                       g.test.system, _ascii(delta_cell(g.test)), p_cell(g.test.p)])
    t.note = "n = key referents of the group (TP+WT+WL+WTL+FN in the baseline); p not corrected for multiple comparisons"
    return t


def _transitions(lc, top: int = 3) -> str:
    moved = sorted(((n, a, b) for (a, b), n in lc.transitions.items() if a != b), key=lambda x: (-x[0], x[1], x[2]))
    return ", ".join(f"{a}{ARROW}{b} {n}" for n, a, b in moved[:top])


def links_table(cmp: Comparison, system: str) -> Table:
    """Per analysis: referents right only in the system, right only in the baseline, right in both,
    and the most frequent outcome changes (``none``: no row, e.g. a spurious link not made)."""
    t = Table(f"Links: {system} vs {cmp.baseline}",
              ["analysis", f"right only in {system}", f"right only in {cmp.baseline}", "both right", "most frequent changes"])
    for a, lc in cmp.links.get(system, {}).items():
        t.rows.append([SHORT_ANALYSIS.get(a, a), lc.gains, lc.losses, lc.both_right, _transitions(lc)])
    t.note = "right = TP for a key referent, no row for a response-only mention (FP avoided)"
    return t


def documents_table(cmp: Comparison, system: str, top: int = 3) -> Table:
    rows = cmp.per_document.get(system, [])
    pick = [d for d in reversed(rows) if d.delta > 0][:top] + [d for d in rows if d.delta < 0][:top]
    label = metric_label(cmp.headline)
    t = Table(f"Documents that changed most: {label} F1, {system} vs {cmp.baseline}",
              ["document", f"f1_{cmp.baseline}", f"f1_{system}", "delta"])
    for d in pick:
        t.rows.append([_doc(d.doc_id), d.baseline, d.system, _ascii(signed(d.delta))])
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
        if cmp.per_document.get(n):
            out.append(documents_table(cmp, n))
    return out


def comparison_markdown(cmp: Comparison, top: int = 5, min_support: int = 20) -> str:
    parts = [f"**{highlights(cmp, n)}**\n" for n in cmp.systems]
    parts += [f"### {t.title}\n\n" + to_markdown(t) for t in comparison_tables(cmp, top, min_support)]
    parts.append(legend(cmp) + "\n")
    return "\n".join(parts)


def comparison_latex(cmp: Comparison) -> str:
    """The side-by-side table as booktabs LaTeX: best F1 in bold, Δ with ``*``, p-values; the
    signature and the test settings as ``%`` comments."""
    return f"% {legend(cmp)}\n" + to_latex(scores_table(cmp))


CSV_HEADER = ["kind", "analysis", "by", "item", "label", "system", "n", "recall", "precision", "f1", "ci_low",
              "ci_high", "delta", "delta_ci_low", "delta_ci_high", "p_randomization", "p_bootstrap", "significant",
              "best", "signature"]


def _num(x: float | None) -> float | None:
    return None if x is None or math.isnan(x) else x


def comparison_csv(cmp: Comparison) -> str:
    """One tidy CSV: a row per (metric, system) — the baseline too — and per (class or type,
    system); scores as fractions, empty where not defined; the signature in every row."""
    t = Table("comparison", list(CSV_HEADER))
    sig = cmp.signature
    for m in cmp.metrics:
        for n in cmp.names:
            test = m.tests.get(n)
            ci = m.ci.get(n, (float("nan"),) * 2)
            row = ["metric", "", "", m.name, m.label, n, None, _num(m.recall[n]), _num(m.precision[n]), m.f1[n],
                   _num(ci[0]), _num(ci[1])]
            if test is None:
                row += [None] * 6
            else:
                row += [test.delta, _num(test.delta_ci[0]), _num(test.delta_ci[1]), _num(test.p_value),
                        _num(test.p_bootstrap), str(test.significant()).lower()]
            t.rows.append(row + [str(n in m.best).lower(), sig])
    for n in cmp.systems:
        for g in cmp.groups.get(n, []):
            x = g.test
            t.rows.append(["group", g.analysis, "class" if g.by == "cls" else g.by, g.group, g.label, n,
                           g.key_referents, None, None, x.system, _num(x.system_ci[0]), _num(x.system_ci[1]), x.delta,
                           _num(x.delta_ci[0]), _num(x.delta_ci[1]), _num(x.p_value), _num(x.p_bootstrap),
                           str(x.significant()).lower(), None, sig])
    return to_csv(t)


def write_links(cmp: Comparison, path: Path) -> int:
    """Every referent whose outcome changed (:meth:`Comparison.link_rows`) as JSON lines, or as CSV
    when ``path`` ends in ``.csv`` (spans as ``start-end``); returns the number of rows."""
    rows = cmp.link_rows()
    with open(path, "w", encoding="utf-8", newline="") as f:
        if Path(path).suffix.lower() == ".csv":
            import csv

            w = csv.DictWriter(f, fieldnames=list(LINK_FIELDS))
            w.writeheader()
            for r in rows:
                w.writerow({k: "-".join(map(str, v)) if isinstance(v, list) else v for k, v in r.items()})
        else:
            import json

            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return len(rows)


# --------------------------------------------------------------------------------------------
# Terminal
# --------------------------------------------------------------------------------------------

def _rt(title: str | None, tty: bool) -> RichTable:
    return RichTable(title=title, box=box.SIMPLE_HEAD if tty else box.ASCII2, pad_edge=False,
                     title_justify="left", show_edge=tty)


def _short(path: str, width: int = 60) -> str:
    if len(path) <= width:
        return path
    name = Path(path).name
    return name if len(name) <= width else "…" + name[-(width - 1):]


def print_comparison(cmp: Comparison, console: Console | None = None, *, file: TextIO | None = None,
                     color: bool | None = None, top: int = 3, examples: int = 2, min_support: int = 20,
                     documents: int = 3) -> None:
    """Print the comparison: the systems, a sentence per system, every metric side by side with Δ,
    its 95 % interval and p, per-class and per-type gains and losses, link counts with a few
    example links, the documents that moved most, the legend and the signature."""
    if console is None:
        file = file or sys.stdout
        tty = file.isatty() if hasattr(file, "isatty") else False
        console = Console(file=file, width=None if tty else 100, no_color=color is False or not tty,
                          force_terminal=tty if color is None else color, highlight=False)
    else:
        tty = console.is_terminal
    fix = (lambda s: s) if tty else _ascii
    cmp_sys = cmp.systems
    console.print(f"{len(cmp.names)} systems on {len(cmp.documents)} documents; baseline {cmp.baseline}")
    names = RichTable(box=None, pad_edge=False, show_header=False)
    names.add_column(style="bold")
    names.add_column(overflow="ellipsis", no_wrap=True)
    for n in cmp.names:
        names.add_row(n, _short(cmp.sources.get(n, "")))
    console.print(names)
    for w in cmp.warnings:
        console.print(f"[yellow]warning:[/yellow] {w}")
    for n in cmp_sys:
        console.print(Text(fix(highlights(cmp, n, min_support=min_support)), style="bold" if tty else ""))
    console.print()

    # every metric side by side
    one = len(cmp_sys) == 1
    t = _rt("F1 (%)" + (f", {cmp_sys[0]} against {cmp.baseline}" if one else ""), tty)
    t.add_column("metric", no_wrap=True)
    for n in cmp.names:
        t.add_column(n, justify="right", overflow="fold")
    if one:
        t.add_column("Δ", justify="right", no_wrap=True)
        t.add_column("95 % CI of Δ", justify="right", no_wrap=True)
        t.add_column("p", justify="right", no_wrap=True)
    else:
        for n in cmp_sys:
            t.add_column(f"Δ {n}", justify="right", overflow="fold")
    family = None
    for m in cmp.metrics:
        if family is not None and m.family != family:
            t.add_section()
        family = m.family
        cells = [m.label] + [Text(pct(m.f1[n]), style="bold" if n in m.best and len(cmp.names) > 1 else "")
                             for n in cmp.names]
        if one:
            x = m.tests[cmp_sys[0]]
            cells += [fix(delta_cell(x)), fix(ci_cell(x.delta_ci)), p_cell(x.p)]
        else:
            cells += [fix(delta_cell(m.tests[n])) for n in cmp_sys]
        t.add_row(*[c if isinstance(c, Text) else Text(c) for c in cells])
    console.print(t)
    if not one:
        for n in cmp_sys:
            d = _rt(f"{n} against {cmp.baseline}", tty)
            for h, j in (("metric", "left"), ("Δ", "right"), ("95 % CI of Δ", "right"), ("p", "right")):
                d.add_column(h, justify=j, no_wrap=True)
            for m in cmp.metrics:
                x = m.tests[n]
                d.add_row(m.label, fix(delta_cell(x)), fix(ci_cell(x.delta_ci)), p_cell(x.p))
            console.print(d)

    # classes and types
    for n in cmp_sys:
        g = _rt(f"Where {n} gains and loses: F1 by class and type (n ≥ {min_support} key referents)", tty)
        for h, j in (("analysis", "left"), ("group", "left"), ("n", "right"), (cmp.baseline, "right"),
                     (n, "right"), ("Δ", "right"), ("p", "right")):
            g.add_column(h, justify=j, overflow="fold", max_width=26 if h == "group" else None,
                         no_wrap=h not in ("group", cmp.baseline, n))
        any_rows = False
        for a in dict.fromkeys(x.analysis for x in cmp.groups.get(n, [])):
            rows = cmp.gains(n, a, None, top, min_support) + cmp.losses(n, a, None, top, min_support)
            if any_rows and rows:
                g.add_section()
            for x in rows:
                any_rows = True
                g.add_row(SHORT_ANALYSIS.get(a, a), fix(_group_name(x)), str(x.key_referents), pct(x.test.baseline),
                          pct(x.test.system), fix(delta_cell(x.test)), p_cell(x.test.p))
        if any_rows:
            console.print(g)

        # links
        per = cmp.links.get(n, {})
        if per:
            lt = _rt(f"Links: right only in {n} / only in {cmp.baseline} / in both", tty)
            for h, j in (("analysis", "left"), (f"{n}", "right"), (cmp.baseline, "right"), ("both", "right"),
                         ("most frequent changes", "left")):
                lt.add_column(h, justify=j, overflow="fold")
            for a, lc in per.items():
                lt.add_row(SHORT_ANALYSIS.get(a, a), str(lc.gains), str(lc.losses), str(lc.both_right),
                           fix(_transitions(lc)))
            console.print(lt)
            if examples > 0:
                ex = _rt(f"Example links ({cmp.baseline} {fix(ARROW)} {n})", tty)
                for h in ("analysis", "document", "mention", "outcome"):
                    ex.add_column(h, overflow="fold", max_width=30 if h in ("document", "mention") else None)
                shown = False
                for a, lc in per.items():
                    for kind in ("gain", "loss"):
                        for c in _examples(lc.changes, kind, examples):
                            shown = True
                            ex.add_row(SHORT_ANALYSIS.get(a, a), _doc(c.doc_id), _mention(c),
                                       fix(f"{c.baseline}{ARROW}{c.system}"))
                if shown:
                    console.print(ex)

        # documents
        docs = cmp.per_document.get(n, [])
        if docs and documents > 0:
            dt = documents_table(cmp, n, documents)
            r = _rt(dt.title, tty)
            for h, j in (("document", "left"), (cmp.baseline, "right"), (n, "right"), ("Δ", "right")):
                r.add_column(h, justify=j, overflow="fold")
            for row in dt.rows:
                r.add_row(row[0], pct(row[1]), pct(row[2]), fix(row[3]))
            console.print(r)
    console.print(f"[dim]{fix(legend(cmp))}; F1 in %, Δ in points, best in bold[/dim]")
    console.print(f"[dim]{cmp.signature}[/dim]")


def _examples(changes: list[LinkChange], kind: str, k: int) -> list[LinkChange]:
    """``k`` changes of ``kind`` from different documents, key referents before spurious mentions."""
    pool = sorted((c for c in changes if c.kind == kind), key=lambda c: c.side != "key")
    out: list[LinkChange] = []
    docs: set[str] = set()
    for c in pool:
        if c.doc_id not in docs:
            out.append(c)
            docs.add(c.doc_id)
        if len(out) == k:
            break
    return out


def _mention(c: LinkChange) -> str:
    text = c.text if len(c.text) <= 24 else c.text[:23] + "…"
    return f"{text} [{c.start}-{c.end}]" + (" (spurious)" if c.side == "response" else "")


def render(cmp: Comparison, width: int = 80, **kwargs) -> str:
    """The terminal rendering as plain text (no colour) at ``width`` columns."""
    from io import StringIO

    buf = StringIO()
    console = Console(file=buf, width=width, no_color=True, force_terminal=False, highlight=False)
    print_comparison(cmp, console, **kwargs)
    return buf.getvalue()
