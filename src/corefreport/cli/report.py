"""``corefreport report`` once its options are parsed (by typer or by :mod:`.fast`): the plan — one
system, several (``-r NAME=FILE``), groups of runs (``--runs``, each ``NAME=RUN1,RUN2,…``) or
datasets (``--datasets``), with ``--subsets`` where one key is scored — its study, and the report
written from it (:func:`corefreport.report.study.report_of`)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..errors import InputError, SettingsError
from ..scoring.settings import Settings
from .build import fail
from .output import example_paths, fmt_value, refuse_existing, status_line, warn, wrote

SUFFIXES = (".pdf", ".html", ".htm", ".tex")
LATEX_LAYOUTS = ("acl", "single")


def _special(path: Path) -> bool:
    """Whether ``path`` is a device, a FIFO or a socket: written to in place, with no wrapper beside it."""
    try:
        return path.exists() and not path.is_file() and not path.is_dir()
    except OSError:
        return False


def _check_view(output: Path, section: list[str], latex_layout: str, label_prefix: Optional[str], force: bool) -> None:
    """What the report itself can be asked for: a known suffix, sections and layout, a label prefix
    LaTeX takes, a .tex name its wrapper can \\input."""
    from ..present.latex import LABEL_CHARACTERS, input_name_problem
    from ..report.document import SECTIONS

    if output.suffix.lower() not in SUFFIXES:
        fail(f"{output}: the report is written as .pdf, .html or .tex")
    refuse_existing(output, force)
    for sec in section:
        if sec not in SECTIONS:
            fail(f"unknown section {sec!r}; choose from {', '.join(SECTIONS)}")
    if latex_layout not in LATEX_LAYOUTS:
        fail(f"--latex-layout takes acl or single, got {latex_layout!r}")
    if label_prefix and LABEL_CHARACTERS.search(label_prefix):
        fail(f"--label-prefix takes letters, digits and : . _ / + -, got {label_prefix!r}")
    if output.suffix.lower() == ".tex" and not _special(output) and input_name_problem(output.stem):
        fail(f"{output}: {input_name_problem(output.stem)}; name the .tex report without them")


def _check_figures(figures: Optional[Path]) -> None:
    """``--figures DIR`` names a folder (made when missing): an existing file, or a path through
    one, is refused before anything is computed (it once ended in a raw ``[Errno 17]``)."""
    if figures is None:
        return
    for folder in (figures, *figures.parents):
        if folder.exists():
            if not folder.is_dir():
                what = "is a file" if folder == figures else f"goes through {folder}, a file"
                fail(f"--figures {figures}: {what}, not a folder; give a folder for the charts (figure-N.svg, .pdf)")
            return


def _items(response: Optional[str], responses: list[str], name: Optional[str], several: bool) -> list[str]:
    """The systems as ``plan_of`` takes them: RESPONSE (named by ``--name`` or its file) and each
    ``-r NAME=FILE`` (with --runs or --datasets: another group of runs, or system's datasets)."""
    from ..report.document import source_name

    if several:
        return ([response] if response else []) + list(responses)
    named: list[str] = []
    seen: set[str] = set()
    for item in responses:
        system, sep, path = item.partition("=")
        if not sep or not system or not path:
            fail(f"--response takes NAME=FILE, got {item!r}")
        if system in seen:  # a dict would keep only the last: refuse, as compare does
            fail(f"two systems are called {system!r}: give each -r NAME=FILE its own NAME")
        seen.add(system)
        named.append(item)
    if response and named:
        first = name or source_name(response)
        if first in seen:
            fail(f"two systems are called {first!r}: give each -r NAME=FILE its own NAME")
        return [f"{first}={response}", *named]
    return named or ([response] if response else [])


def report_plan(key: Optional[str], response: Optional[str], responses: list[str], name: Optional[str],
                settings: Settings, key_format=None, response_format=None, example: bool = False,
                subsets: Optional[list[str]] = None, runs: bool = False, datasets: bool = False,
                correction: str = "none"):
    """The plan of ``report``'s arguments: one system (its outcome rows' digest, the pool's size
    decided now), several compared (every row), groups of runs (the first run in detail) or
    datasets (the scores alone); an error exits 2."""
    from dataclasses import replace

    from ..report.examples import CANDIDATES
    from ..study.plan import Policy, Resampling, plan_of
    from ..study.run import decide_jobs

    several = "--runs" if runs else "--datasets" if datasets else None
    if example:
        if several:
            fail(f"{several} takes no --example")
        key, response = example_paths()
    items = _items(response, responses, name, bool(several))
    if not key or not (items or datasets):
        fail("--datasets takes a MANIFEST file, or KEYDIR and RESPONSEDIR" if datasets else
             "--runs takes KEY and RUNS (NAME=RUN1,RUN2,… or a quoted glob of run files)" if runs else
             "give KEY and RESPONSE, or KEY and -r NAME=FILE … (or --example)")
    if datasets:
        settings = replace(settings, analyses=(), plink_by=None)  # the table and the methods alone
    compared = bool(responses) if several else len(items) > 1
    policy = Policy(rows=False if datasets else True if compared and not runs else CANDIDATES,
                    documents=not datasets, jobs=1 if several or compared else None, intervals=True)
    try:
        return decide_jobs(plan_of("report", key, items, settings, runs=runs, datasets=datasets,
                                   subsets=subsets or [], kf=fmt_value(key_format), rf=fmt_value(response_format),
                                   compare=Resampling(correction=correction) if compared else None,
                                   policy=policy))
    except (InputError, SettingsError) as err:
        fail(str(err))


def run_report(key: Optional[str], response: Optional[str], responses: list[str], output: Path,
               title: Optional[str], name: Optional[str], latex_layout: str, figures: Optional[Path],
               label_prefix: Optional[str], section: list[str], key_format, response_format, force: bool, example: bool,
               quiet: bool, settings: Settings, subsets: Optional[list[str]] = None, runs: bool = False,
               datasets: bool = False, correction: str = "none") -> None:
    """Write the report of the study the arguments name to ``output`` (.pdf, .html or .tex)."""
    from ..report.document import write_figures, write_report
    from ..report.pdf import pdf_child
    from ..report.study import report_of
    from ..study.run import run

    if runs and datasets:
        fail("--runs and --datasets go separately")
    _check_view(output, section, latex_layout, label_prefix, force)
    from .compare import check_correction

    check_correction(correction)
    _check_figures(figures)
    plan = report_plan(key, response, responses, name, settings, key_format, response_format, example, subsets, runs,
                       datasets, correction)  # the pool's size decided before the PDF child starts on another core
    child = pdf_child() if output.suffix.lower() == ".pdf" and figures is None else None
    with status_line(quiet) as status:
        try:
            parts = report_of(run(plan, status))
            status.update(f"rendering {output.suffix[1:].upper()}…")
            if figures is not None:
                status.update(f"writing the charts to {figures}…")
                try:
                    write_figures(parts.evaluation, figures, force, parts.comparison, name, parts.systems)
                except OSError as err:
                    if isinstance(err, FileExistsError):
                        raise
                    fail(f"--figures {figures}: cannot write the charts: {err.strerror or err}")
            write_report(parts.evaluation, output, title, list(section) or parts.sections, force=force,
                         comparison=parts.comparison, progress=status.update, name=name, systems=parts.systems,
                         pdf_child=child, layout=latex_layout, label_prefix=label_prefix, extra=parts.extra,
                         scope=parts.scope)
        except (InputError, SettingsError, FileExistsError, ValueError) as err:
            fail(str(err))
        except OSError as err:
            fail(f"cannot write {output}: {err.strerror or err}")
    for prefix, warnings in parts.warnings:  # with -r A -r B each warning names its system
        warn(warnings, quiet, prefix)
    if not quiet:  # -q: nothing on stderr but errors
        wrote(output)
