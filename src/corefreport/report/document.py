"""Paper-ready reports: ``write_report(ev, path)`` writes HTML, PDF or LaTeX (chosen by the
suffix) from one view model (:mod:`.model`) built from an :class:`Evaluation` — no score is
computed here. Renderers: :mod:`.html` (jinja2), :mod:`.pdf` (WeasyPrint, from the same HTML),
:mod:`.latex` (booktabs + siunitx tables); charts: :mod:`.svg`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..present.inert import inert
from ..present.latex import input_name_problem, latex_label
from ..present.output import output_target, write_atomic
from ..scoring.result import Evaluation
from .html import to_html
from .latex import bib_file, latex_main, to_latex
from .model import PDF_DOCUMENT_ROWS, SECTIONS, IntervalSettings, Report, build, methods_text, source_name
from .pdf import PdfChild, to_pdf

FORMATS = {".html": "html", ".htm": "html", ".pdf": "pdf", ".tex": "tex"}

__all__ = ["FORMATS", "PDF_DOCUMENT_ROWS", "SECTIONS", "Report", "build", "methods_text", "render", "rendered",
           "report_model", "stem_label_prefix", "to_html",
           "to_latex", "to_pdf", "write_figures", "write_report", "source_name", "summary_intervals"]


def summary_intervals(ev: Evaluation, name: str, resamples: int | None = None, seed: int | None = None,
                      ) -> tuple[dict[str, dict], IntervalSettings]:
    """The first page's bootstrap intervals of one system (computed by
    :func:`corefreport.scoring.intervals.score_intervals`) and how they were drawn."""
    from ..scoring import intervals as I

    b = I.RESAMPLES if resamples is None else resamples
    sd = I.SEED if seed is None else seed
    return ({name: I.score_intervals(ev, b, sd, I.CONFIDENCE)},
            IntervalSettings(b, sd, I.CONFIDENCE, len(ev.documents)))


def report_model(ev: Evaluation, fmt: str, title: str | None = None, sections: list[str] | None = None,
                 comparison=None, progress: Callable[[str], None] | None = None, name: str | None = None,
                 systems: dict[str, Evaluation] | None = None, extra=None, scope=None) -> Report:
    """The view model of the report as ``fmt`` shows it (the first page's intervals, the PDF's and
    the LaTeX's cut of the documents): one model for the file, its LaTeX wrapper and its BibTeX, so
    that the ``.bib`` holds every paper the ``.tex`` cites."""
    say = progress or (lambda _m: None)
    intervals = how = None
    if comparison is None and (not sections or "overview" in sections):
        say("resampling documents for the summary's intervals…")
        intervals, how = summary_intervals(ev, name or source_name(ev.response_source))
    say("building the report tables…")
    return build(ev, title, sections, PDF_DOCUMENT_ROWS if fmt in ("pdf", "tex") else None, comparison,
                 pdf=fmt == "pdf", name=name, systems=systems, intervals=intervals, interval_settings=how,
                 extra=extra, scope=scope)


def rendered(report: Report, fmt: str, progress: Callable[[str], None] | None = None,
             pdf_child: PdfChild | None = None, **latex) -> bytes:
    """The report model as bytes in ``fmt`` ("html", "pdf" or "tex")."""
    say = progress or (lambda _m: None)
    if fmt == "html":
        say("rendering HTML…")
        return to_html(report).encode("utf-8")
    if fmt == "pdf":
        return to_pdf(report, progress=say, child=pdf_child)
    if fmt == "tex":
        say("rendering LaTeX…")
        return to_latex(report, **latex).encode("utf-8")
    raise ValueError(f"unknown report format {fmt!r}: choose html, pdf or tex")


def render(ev: Evaluation, fmt: str, title: str | None = None, sections: list[str] | None = None,
           comparison=None, progress: Callable[[str], None] | None = None, name: str | None = None,
           systems: dict[str, Evaluation] | None = None, pdf_child: PdfChild | None = None, extra=None,
           scope=None, **latex) -> bytes:
    """The report as bytes in ``fmt`` ("html", "pdf" or "tex"). ``name``: the system's name
    (default: from the response path, see :func:`source_name`); ``systems``: every evaluation of a
    comparison, by name; ``pdf_child``: a :class:`~corefreport.report.pdf.PdfChild` to lay out the
    PDF; ``latex``: options of :func:`to_latex` (``layout``, ``label_prefix``)."""
    if fmt not in ("html", "pdf", "tex"):
        raise ValueError(f"unknown report format {fmt!r}: choose html, pdf or tex")
    report = report_model(ev, fmt, title, sections, comparison, progress, name, systems, extra, scope)
    return rendered(report, fmt, progress, pdf_child, **latex)


def stem_label_prefix(path: Path) -> str:
    r"""The default ``\label`` prefix of a ``.tex`` report: ``tab:`` + the file's stem + ``-``
    (``ml.tex`` → ``tab:ml-``), so that two reports ``\input`` into one paper never define a label
    twice.

    >>> stem_label_prefix(Path("out/ml.tex")), stem_label_prefix(Path("GUM vs ml.tex"))
    ('tab:ml-', 'tab:GUM-vs-ml-')
    """
    return f"tab:{latex_label(Path(path).stem)}-"


def write_figures(ev: Evaluation, directory: Path, force: bool = False, comparison=None, name: str | None = None,
                  systems: dict[str, Evaluation] | None = None, pdf: bool = True) -> list[Path]:
    """Every chart of the report as ``DIR/figure-N.svg`` (and ``.pdf``), numbered as in the report."""
    from .pdf import figure_files

    directory = Path(directory)
    if directory.exists() and not directory.is_dir():  # mkdir's own words were a raw '[Errno 17] File exists'
        raise FileExistsError(f"{directory}: is a file, not a folder for the charts (figure-N.svg, .pdf)")
    report = build(ev, None, None, None, comparison, name=name, systems=systems)
    directory.mkdir(parents=True, exist_ok=True)
    files = figure_files(report, pdf)
    for f in files:  # every clash refused before anything is written
        output_target(directory / f, force)
    out = []
    for f, data in files.items():
        write_atomic(directory / f, data, force)
        out.append(directory / f)
    return out


def write_report(ev: Evaluation, path: Path, title: str | None = None, sections: list[str] | None = None,
                 force: bool = False, comparison=None, progress: Callable[[str], None] | None = None,
                 name: str | None = None, systems: dict[str, Evaluation] | None = None,
                 pdf_child: PdfChild | None = None, extra=None, scope=None, **latex) -> None:
    """Write ``path`` as .html, .pdf or .tex (chosen by the suffix). An existing file is never
    overwritten without ``force`` (:class:`FileExistsError`); the file appears whole or not at all
    (written to a temporary file beside it, then renamed). ``sections``: names from
    :data:`SECTIONS` (default: all that were computed). ``comparison``: a
    :class:`~corefreport.scoring.compare.Comparison` of several responses (``ev`` is then the
    system described in detail). ``progress`` is called with a short message at each stage;
    ``pdf_child``: a :class:`~corefreport.report.pdf.PdfChild` started earlier lays out a PDF;
    ``extra``: sections placed after the overview (datasets, runs, groups: :mod:`.groups`);
    ``scope``: what a report on more than one pair is about (:class:`.groups.Scope`)."""
    path = Path(path)
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(f"{path}: the report is written as .pdf, .html or .tex")
    if sections:
        unknown = [s for s in sections if s not in SECTIONS]
        if unknown:
            raise ValueError(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    kind, _ = output_target(path, force)  # a device or a pipe is written to, never replaced
    main = path.with_name(f"{path.stem}-main.tex")
    bib = path.with_name(f"{path.stem}.bib")
    if fmt == "tex" and kind == "file":
        problem = input_name_problem(path.stem)
        if problem:  # the wrapper's \input{STEM} would break, or run what the name holds
            raise ValueError(f"{inert(str(path))}: {problem}; name the .tex report without them")
        output_target(main, force)
        output_target(bib, force)
    if fmt == "tex" and not latex.get("label_prefix"):
        latex["label_prefix"] = stem_label_prefix(path)
    report = report_model(ev, fmt, title, sections, comparison, progress, name, systems, extra, scope)
    write_atomic(path, rendered(report, fmt, progress, pdf_child, **latex), force)
    if fmt == "tex" and kind == "file":  # a wrapper that compiles the tables on their own: pdflatex STEM-main
        write_atomic(main, latex_main(report, path.stem, latex.get("layout", "acl")).encode("utf-8"), force)
        write_atomic(bib, bib_file(report).encode("utf-8"), force)  # every paper corefreport cites, this report's first
