"""A neutral table model built from an :class:`~corefreport.scoring.result.Evaluation`, and its
renderings as CSV, Markdown and LaTeX (the Rich terminal rendering lives in the CLI).

Builders only read fields of the result; they never compute a score.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field

from ..scoring.result import Evaluation

METRIC_LABELS = {
    "muc": "MUC", "bcub": "B³", "ceafm": "CEAF-m", "ceafe": "CEAF-e", "blanc": "BLANC", "lea": "LEA",
    "lmuc": "LMUC", "lbcub": "LB³", "lceafm": "LCEAF-m", "lceafe": "LCEAF-e", "conll": "CoNLL",
    "mentions": "Mentions", "immediate": "ARCS 1", "inferred": "ARCS 2", "anchor": "ARCS 3 (EM)",
    "typed": "typed micro",
}
LATEX_LABELS = METRIC_LABELS | {"bcub": "B$^3$", "lbcub": "LB$^3$"}


@dataclass(slots=True)
class Table:
    """Header, rows of cells (str or number) and a caption; numbers are fractions unless ``percent``."""

    title: str
    header: list[str]
    rows: list[list] = field(default_factory=list)
    note: str = ""
    groups: list[tuple[str, int]] = field(default_factory=list)
    """Column groups over ``header[1:]``, left to right: (label, number of columns); "" for none."""
    labels: list[str] | None = None
    """Display labels parallel to ``header`` (the report's R / P / F1 under a group label)."""
    breaks: list[int] = field(default_factory=list)
    """Row indices before which a rule is drawn (between classes, before a total)."""
    best: str = ""
    """"column": the best score of each score column is bold (rows are systems)."""


def pct(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.2f}"


def num(x: float) -> str:
    return f"{x:g}" if float(x).is_integer() else f"{x:.4f}"


def metrics_table(ev: Evaluation) -> Table:
    """R, P, F1 and raw counts per metric, the CoNLL score, and mention identification."""
    t = Table("Coreference scores", ["metric", "recall", "precision", "f1", "recall_num", "recall_den",
                                     "precision_num", "precision_den"])
    for name, s in ev.metrics.items():
        if name == "blanc":  # two kinds of links: their counts are in the JSON, not one fraction
            t.rows.append([name, s.recall, s.precision, s.f1, None, None, None, None])
        else:
            t.rows.append([name, s.recall, s.precision, s.f1, s.recall_num, s.recall_den, s.precision_num,
                           s.precision_den])
    if ev.conll is not None:
        t.rows.append(["conll", None, None, ev.conll, None, None, None, None])
    m = ev.mentions
    t.rows.append(["mentions", m.recall, m.precision, m.f1, m.recall_num, m.recall_den, m.precision_num,
                   m.precision_den])
    t.note = ev.signature
    return t


def per_document_table(ev: Evaluation) -> Table:
    """One row per document: F1 of each metric and the CoNLL score, worst CoNLL (or first metric) first."""
    names = [n for n in ev.metrics]
    t = Table("Per-document F1", ["document"] + names + (["conll"] if ev.conll is not None else []))
    for d in ev.documents:
        row = [d.doc_id] + [d.metrics[n].f1 for n in names]
        if ev.conll is not None:
            row.append(d.conll())
        t.rows.append(row)
    key = len(t.header) - 1
    t.rows.sort(key=lambda r: (r[key] if r[key] is not None else 0.0, r[0]))
    return t


def plink_table(ev: Evaluation) -> Table | None:
    """p-link per category (Zeldes & Simonson 2016): R, P, F1 and N / D_K / D_R per category."""
    pl = ev.analyses.get("plink")
    if pl is None:
        return None
    t = Table(f"p-link by {pl.by}" + (" (Perl-compatible categories)" if pl.compat else ""),
              ["category", "recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den"])
    for cat, c in sorted(pl.categories.items()):
        t.rows.append([cat, c.recall if c.recall_den else None, c.precision if c.precision_den else None,
                       c.f1 if c.recall_den and c.precision_den else None,
                       c.recall_num, c.recall_den, c.precision_num, c.precision_den])
    t.note = "n/a where a denominator is 0 (metric-semantics P1.4.3)"
    return t


OUTCOME_HEADER = ["tp", "wl", "fn", "fp", "recall", "precision", "f1", "accuracy"]


def arcs_tables(ev: Evaluation) -> list[Table]:
    """One table per ARCS scenario: the total, then every value of every breakdown feature;
    and scenario 3's Entity Detection / Entity Mentions / Fφ by anchor NE type."""
    from ..scoring.analyses import ARCS_TITLES

    arcs = ev.analyses.get("arcs")
    if arcs is None:
        return []
    out = []
    for name, sc in arcs.scenarios.items():
        t = Table(ARCS_TITLES[name], ["group"] + OUTCOME_HEADER)
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


def typed_tables(ev: Evaluation) -> list[Table]:
    """Žitkus et al. (2023): per class, per type (grouped by class, as their Appendix D), and the
    micro / macro / scheme-coverage summary."""
    tt = ev.analyses.get("typed")
    if tt is None:
        return []
    d = tt.as_dict()
    k = ",".join(f"{x:g}" for x in tt.k)
    classes = Table(f"Typed evaluation by class (scheme {tt.scheme.name}, k = {k})", ["class"] + TYPED_HEADER)
    for c, v in d["classes"].items():
        classes.rows.append([f"{c} ({v['name']})" if v["name"] != c else c] + [v[h] for h in TYPED_HEADER])
    types = Table("Typed evaluation by type", ["type"] + TYPED_HEADER)
    for c in d["classes"]:
        for t, v in d["types"].items():
            if v["class"] == c:
                types.rows.append([t] + [v[h] for h in TYPED_HEADER])
    summary = Table(f"Typed evaluation: micro, macro (n_a = {len(tt.attempted)}: {', '.join(tt.attempted)}) and "
                    f"scheme coverage (n = {tt.scheme.n})", ["average", "precision", "recall", "f1"])
    for name in ("micro", "macro", "scheme_coverage"):
        summary.rows.append([name.replace("_", " "), d[name]["precision"], d[name]["recall"], d[name]["f1"]])
    notes = []
    if tt.wrong_entity:
        notes.append(f"{tt.wrong_entity} WL/WTL link(s) point to another entity's dominant mention "
                     "(--strict-dominant scores them FN + FP)")
    if tt.no_dominant:
        notes.append(f"{tt.no_dominant} key chain(s) have no eligible dominant mention (pronouns only): "
                     "their first mention was used")
    summary.note = "; ".join(notes)
    return [classes, types, summary]


def all_tables(ev: Evaluation, per_doc: bool = False) -> list[Table]:
    """Every table the result holds, in the order the CLI and the report show them."""
    out = [metrics_table(ev)]
    for builder in (plink_table,):
        t = builder(ev)
        if t is not None:
            out.append(t)
    out.extend(arcs_tables(ev))
    out.extend(typed_tables(ev))
    if per_doc:
        out.append(per_document_table(ev))
    return out


def _cell(v, percent: bool) -> str:
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, int):
        return str(v)
    return pct(v) if percent else num(v)


def is_score_column(name: str) -> bool:
    if name.startswith("f1_"):
        return True
    return (name in ("recall", "precision", "f1", "accuracy", "f_phi") or (name in METRIC_LABELS and name != "mentions")
            or name.endswith(("_recall", "_precision", "_f1")))


def to_csv(t: Table) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(t.header)
    for r in t.rows:
        w.writerow(["" if v is None else (v if isinstance(v, str) else (repr(v) if isinstance(v, float) else v))
                    for v in r])
    return buf.getvalue()


def to_markdown(t: Table) -> str:
    head = [METRIC_LABELS.get(h, h) for h in t.header]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|"]
    for r in t.rows:
        cells = [METRIC_LABELS.get(r[0], r[0]) if isinstance(r[0], str) else str(r[0])]
        cells += [_cell(v, is_score_column(h)) for h, v in zip(t.header[1:], r[1:])]
        lines.append("| " + " | ".join(cells) + " |")
    if t.note:
        lines.append("")
        lines.append(f"`{t.note}`")
    return "\n".join(lines) + "\n"


COUNT_COLUMNS = ("tp", "wt", "wl", "wtl", "fn", "fp", "s_star")

LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "|": r"\textbar{}",
                 "<": r"\textless{}", ">": r"\textgreater{}"}


def latex_escape(s: str) -> str:
    return "".join(LATEX_ESCAPES.get(ch, ch) for ch in s)


def _latex_header(h: str) -> str:
    if h in LATEX_LABELS:
        return LATEX_LABELS[h]
    if h == "s_star":
        return "$S^*$"
    if h in COUNT_COLUMNS:
        return h.upper()
    for prefix, tex in (("f1_", "F1 "), ("delta_", r"$\Delta$ "), ("p_", "$p$ ")):
        if h.startswith(prefix):
            return tex + latex_escape(h[len(prefix):])
    return latex_escape(h.replace("_", " ").capitalize())


def to_latex(t: Table) -> str:
    """A booktabs table; metric names as row labels, R/P/F as percentages with two decimals."""
    cols = [h for h in t.header[1:] if is_score_column(h) or h in COUNT_COLUMNS or h.startswith(("delta_", "p_"))]
    idx = [t.header.index(h) for h in cols]
    out = []
    if t.note:
        out.append(f"% {t.note}")
    out.append(r"\begin{tabular}{l" + "r" * len(cols) + "}")
    out.append(r"\toprule")
    out.append(" & ".join([latex_escape(t.header[0].capitalize())] +
                          [_latex_header(h) for h in cols]) + r" \\")
    out.append(r"\midrule")
    systems = [i for i in idx if t.header[i].startswith("f1_")]
    for r in t.rows:
        label = r[0]
        best = max((r[i] for i in systems if isinstance(r[i], float)), default=None) if len(systems) > 1 else None
        label = LATEX_LABELS.get(label, latex_escape(str(label)))
        cells = []
        for i in idx:
            c = _cell(r[i], is_score_column(t.header[i]))
            if best is not None and i in systems and r[i] == best:
                c = r"\textbf{" + c + "}"
            cells.append(latex_escape(c) if t.header[i].startswith(("ci_", "delta_")) else c)
        out.append(" & ".join([label] + cells) + r" \\")
    out.append(r"\bottomrule")
    out.append(r"\end{tabular}")
    return "\n".join(out) + "\n"


def comparison_tables(cmp) -> list[Table]:
    """The comparison's tables (built by :mod:`corefreport.views.compare`)."""
    from ..views.compare import comparison_tables as build

    return build(cmp)
