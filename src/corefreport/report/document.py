"""Paper-ready reports: one view model built from an :class:`Evaluation` (no score is computed
here — every number is a field of the result or a group-by over its rows), rendered as HTML
(jinja2), PDF (WeasyPrint, from the same HTML) or LaTeX (booktabs tables).
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from .. import __version__
from ..scoring.analyses import ARCS_TITLES
from ..scoring.result import Evaluation
from . import tables as T

SECTIONS = ("summary", "metrics", "linguistic", "plink", "arcs", "typed", "documents", "methods")
LINGUISTIC = ("lmuc", "lbcub", "lceafm", "lceafe")
CITATIONS = {
    "muc": "Vilain et al. 1995", "bcub": "Bagga & Baldwin 1998", "ceafm": "Luo 2005", "ceafe": "Luo 2005",
    "blanc": "Luo et al. 2014", "lea": "Moosavi & Strube 2016", "lmuc": "Chen & Ng 2013",
    "lbcub": "Chen & Ng 2013", "lceafm": "Chen & Ng 2013", "lceafe": "Chen & Ng 2013",
}
OUTCOME_COLOURS = {"tp": "#2e7d32", "wt": "#00838f", "wl": "#f9a825", "wtl": "#8e24aa", "fn": "#c62828", "fp": "#1565c0"}


@dataclass(slots=True)
class Chart:
    """A horizontal stacked bar chart of outcome counts per group (drawn as SVG by the template)."""

    title: str
    bars: list[tuple[str, list[tuple[str, int]], float]]  # label, [(outcome, count)], F1
    outcomes: tuple[str, ...] = ("tp", "wt", "wl", "wtl", "fn", "fp")
    width: int = 460


@dataclass(slots=True)
class Section:
    id: str
    title: str
    tables: list[T.Table] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)
    text: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Report:
    title: str
    signature: str
    sections: list[Section]
    version: str = __version__


def _split_metrics(ev: Evaluation) -> tuple[T.Table, T.Table | None]:
    full = T.metrics_table(ev)
    std = T.Table("Standard metrics (micro-averaged over documents, as the CoNLL reference scorer v8.01)",
                  full.header, [r for r in full.rows if r[0] not in LINGUISTIC], full.note)
    ling_rows = [r for r in full.rows if r[0] in LINGUISTIC]
    ling = None
    if ling_rows:
        w = ev.settings.get("weights", [])
        ling = T.Table(f"Linguistically aware metrics, W = ({', '.join(f'{x:g}' for x in w)}) for "
                       "(NAME, NOMINAL, PRONOUN, singleton)", full.header, ling_rows)
    return std, ling


def _chart(title: str, groups: dict, outcomes: tuple[str, ...]) -> Chart:
    bars = []
    for key, c in groups.items():
        d = c.as_dict()
        bars.append((str(key), [(o, int(d[o])) for o in outcomes if d[o]], c.f1))
    return Chart(title, bars, outcomes)


PDF_DOCUMENT_ROWS = 40
"""The PDF lists the worst documents only (all of them are in the HTML, the JSON and the CSV)."""


def build(ev: Evaluation, title: str | None = None, sections: list[str] | None = None,
          max_documents: int | None = None, comparison=None) -> Report:
    """The report's sections, in order, for the parts the evaluation computed. With a
    ``comparison`` (several responses), a first section sets the systems side by side and the
    detailed sections describe ``ev`` (the last system)."""
    want = list(sections or SECTIONS)
    out: list[Section] = []
    if comparison is not None:
        cmp = comparison
        text = [f"Baseline: {cmp.baseline}. The detailed sections below describe {comparison.names[-1]}. "
                f"Δ: difference to the baseline with its 95 % paired-bootstrap interval ({cmp.settings['bootstrap']} "
                f"resamples of the documents); p: approximate randomization ({cmp.settings['randomization']} trials), "
                "* for p < 0.05 (Koehn 2004; Riezler & Maxwell 2005)."]
        out.append(Section("compare", "Systems compared", T.comparison_tables(cmp), text=text))
    if "summary" in want:
        s = Section("summary", "Corpus")
        t = T.Table("Corpus size", ["side", "documents", "mentions", "chains", "singletons", "file"])
        for label, st, src in (("key", ev.key_stats, ev.key_source), ("response", ev.response_stats, ev.response_source)):
            t.rows.append([label, st.documents, st.mentions, st.chains, st.singletons, Path(src).name])
        s.tables.append(t)
        if ev.duplicates:
            d = T.Table("Repeated mentions", ["document", "side", "span", "chains", "what was done"])
            for x in ev.duplicates[:50]:
                d.rows.append([x.doc_id, x.side, f"{x.span[0]}–{x.span[1]}", ", ".join(x.labels), x.action])
            s.tables.append(d)
        s.text += [f"Warning: {w}" for w in ev.warnings]
        out.append(s)
    std, ling = _split_metrics(ev)
    if "metrics" in want:
        out.append(Section("metrics", "Standard metrics", [std]))
    if "linguistic" in want and ling is not None:
        out.append(Section("linguistic", "Linguistically aware metrics", [ling]))
    if "plink" in want and (pt := T.plink_table(ev)) is not None:
        out.append(Section("plink", "p-link by category", [pt]))
    if "arcs" in want and "arcs" in ev.analyses:
        s = Section("arcs", "Application scenarios (ARCS)", T.arcs_tables(ev))
        for name, sc in ev.analyses["arcs"].scenarios.items():
            if "pos_class" in sc.by:
                s.charts.append(_chart(f"{ARCS_TITLES[name]}: outcomes and F1 by POS class",
                                       sc.by["pos_class"], ("tp", "wl", "fn", "fp")))
        out.append(s)
    if "typed" in want and "typed" in ev.analyses:
        tt = ev.analyses["typed"]
        s = Section("typed", "Type-aware evaluation", T.typed_tables(ev))
        s.charts.append(_chart("Outcomes and F1 per class", tt.classes, ("tp", "wt", "wl", "wtl", "fn", "fp")))
        out.append(s)
    if "documents" in want:
        pd = T.per_document_table(ev)
        if max_documents is not None and len(pd.rows) > max_documents:
            pd.note = (f"The {max_documents} worst of {len(pd.rows)} documents; every document is in the HTML report "
                       "and in `corefreport score --per-doc -f json`.")
            pd.rows = pd.rows[:max_documents]
        out.append(Section("documents", "Per-document F1 (worst CoNLL first)", [pd]))
    if "methods" in want:
        out.append(Section("methods", "Methods", text=methods_text(ev)))
    return Report(title or f"Coreference evaluation of {Path(ev.response_source).name}", ev.signature, out)


def methods_text(ev: Evaluation) -> list[str]:
    """A paragraph stating every setting, citing the papers."""
    s = ev.settings
    metrics = ", ".join(f"{T.METRIC_LABELS.get(m, m)} ({CITATIONS.get(m, '')})" for m in s["metrics"])
    text = [
        f"Scores were computed with corefreport {__version__} on {ev.key_stats.documents} key documents. "
        f"Metrics: {metrics}; the CoNLL score is the mean F1 of MUC, B³ and CEAF-e (Pradhan et al. 2014). "
        "Numerators and denominators are summed over documents before dividing, as the CoNLL reference scorer "
        "v8.01 does, whose numbers corefreport reproduces exactly.",
        f"Mentions are matched by exact span; singletons were {'kept' if s['singletons'] == 'keep' else 'dropped'}; "
        f"repeated response mentions are handled as the reference scorer handles them, and repeated key mentions "
        f"were {'kept (reference behaviour)' if s.get('key_duplicates') == 'keep' else 'kept once'}.",
    ]
    if "weights" in s:
        text.append("Linguistically aware metrics (Chen & Ng 2013) weight links by mention type with "
                    f"W = {tuple(s['weights'])} for (name, nominal, pronoun, singleton).")
    if "arcs" in s:
        text.append("Application scenarios follow Tuggener (2014): immediate antecedent, closest preceding nominal "
                    "antecedent and anchor mention (Entity Detection, Entity Mentions and their harmonic mean Fφ); "
                    "R = tp/(tp+wl+fn), P = tp/(tp+wl+fp).")
    if "typed" in s:
        t = s["typed"]
        text.append(f"The type-aware evaluation follows Žitkus et al. (2023) with scheme '{t['scheme']}' and "
                    f"k = {tuple(t['k'])} for TP, WT, WL, WTL; micro scores pool the attempted classes, macro scores "
                    "average them, scheme coverage divides by the scheme's number of classes.")
    if "plink" in s:
        text.append(f"p-link (Zeldes & Simonson 2016) partitions MUC links by '{s['plink']['by']}'.")
    text.append(f"Signature: {ev.signature}")
    return text


def _fmt(v, header: str) -> str:
    if v is None:
        return "n/a" if T.is_score_column(header) else ""
    if isinstance(v, str):
        return v
    if T.is_score_column(header):
        return f"{100 * v:.2f}"
    if isinstance(v, int) or float(v).is_integer():
        return f"{int(v)}"
    return f"{v:.2f}"


def _environment():
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    base = resources.files("corefreport") / "templates"
    env = Environment(loader=FileSystemLoader(str(base)), autoescape=select_autoescape(["html", "j2"]))
    env.filters["cell"] = _fmt
    env.globals["label"] = lambda h: T.METRIC_LABELS.get(h, h.replace("_", " "))
    env.globals["colours"] = OUTCOME_COLOURS
    return env


def to_html(report: Report, pdf: bool = False) -> str:
    return _environment().get_template("report.html.j2").render(
        report=report, pdf=pdf, today=_dt.date.today().isoformat())


def to_pdf(report: Report, path: Path) -> None:
    """PDF from the same HTML (CSS paged media), with reproducible bytes (fixed identifier)."""
    import os

    from weasyprint import HTML

    html = to_html(report, pdf=True)
    # fontTools stamps subset fonts with the current time unless SOURCE_DATE_EPOCH is set
    old = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
    try:
        HTML(string=html, base_url=str(resources.files("corefreport") / "templates")).write_pdf(
            str(path), pdf_identifier=b"corefreport-" + report.signature.encode()[:32])
    finally:
        if old is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = old


def to_latex(report: Report) -> str:
    """Every table as booktabs LaTeX, the signature as a comment."""
    parts = [f"% {report.title}", f"% {report.signature}", "% \\usepackage{booktabs}", ""]
    for s in report.sections:
        for t in s.tables:
            if not any(T.is_score_column(h) for h in t.header[1:]) and s.id != "compare":
                continue
            parts.append(f"% {t.title}")
            parts.append(T.to_latex(T.Table(t.title, t.header, t.rows)))
    return "\n".join(parts)


def write_report(ev: Evaluation, path: Path, title: str | None = None, sections: list[str] | None = None,
                 comparison=None) -> None:
    """Write ``path`` as .html, .pdf or .tex (chosen by the suffix)."""
    suffix = path.suffix.lower()
    report = build(ev, title, sections, PDF_DOCUMENT_ROWS if suffix == ".pdf" else None, comparison)
    if suffix in (".html", ".htm"):
        path.write_text(to_html(report), encoding="utf-8")
    elif suffix == ".pdf":
        to_pdf(report, path)
    elif suffix == ".tex":
        path.write_text(to_latex(report), encoding="utf-8")
    else:
        raise ValueError(f"{path}: choose .html, .pdf or .tex")
