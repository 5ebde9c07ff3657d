"""``corefreport report``: the command's work, called by the typer command (:mod:`.commands`) and
by the fast option parser (:mod:`.fast`) with the same arguments."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from ..errors import InputError, SettingsError
from ..scoring.settings import Settings
from .build import fail
from .run import (InFormat, _load, _refuse_existing, _warn, collector_paused, example_paths,
                  score_files, wrote)

SUFFIXES = (".pdf", ".html", ".htm", ".tex")
LATEX_LAYOUTS = ("acl", "single")


class _Quiet:
    """The status line's stand-in when stderr is not a terminal: says nothing, imports nothing."""

    def update(self, _message: str) -> None:
        pass


@contextmanager
def status_line(quiet: bool) -> Iterator:
    """A Rich status line on stderr while the report is made (only on a terminal, not with ``-q``).
    Its messages name systems and files: each is shown as inert text, never as Rich markup."""
    if quiet or not sys.stderr.isatty():
        yield _Quiet()
        return
    from rich.console import Console
    from rich.text import Text

    from ..present.inert import inert

    class _Inert:
        def __init__(self, status) -> None:
            self._status = status

        def update(self, message: str) -> None:
            self._status.update(Text(inert(message)))

    with Console(stderr=True).status("reading the corpora…") as status:
        yield _Inert(status)


def _special(path: Path) -> bool:
    """Whether ``path`` is a device, a FIFO or a socket: written to in place, with no wrapper beside it."""
    try:
        return path.exists() and not path.is_file() and not path.is_dir()
    except OSError:
        return False


def score_systems(key: str, named: dict[str, str], settings: Settings, key_format, response_format,
                  status=None) -> dict:
    """The evaluation of each named response against one key (read once), in the order given."""
    from ..scoring.evaluate import evaluate

    with collector_paused():
        try:
            kc = _load(key, key_format, key=True, repeated=settings.repeated_documents)
            evs = {}
            for name, path in named.items():
                if status is not None:
                    status(f"scoring {name} on {len(kc)} documents…")
                evs[name] = evaluate(kc, _load(path, response_format, repeated=settings.repeated_documents), settings)
            return evs
        except (InputError, SettingsError) as err:
            fail(str(err))


def run_report(key: Optional[str], response: Optional[str], responses: list[str], output: Path,
               title: Optional[str], name: Optional[str], latex_layout: str, figures: Optional[Path],
               label_prefix: str, section: list[str], key_format: Optional[InFormat],
               response_format: Optional[InFormat], force: bool, example: bool, quiet: bool,
               settings: Settings, subsets: Optional[list[str]] = None, runs: bool = False,
               datasets: bool = False) -> None:
    """Write the report of ``response`` (or of the systems ``responses``, NAME=FILE) against ``key``
    to ``output`` (.pdf, .html or .tex); the options are ``corefreport report``'s (``subsets``,
    ``runs``, ``datasets``: the sections of :mod:`corefreport.report.groups`)."""
    from ..report.document import SECTIONS, source_name, write_report

    if example:
        key, response = example_paths()
    if (runs or datasets) and example:
        fail(f"{'--runs' if runs else '--datasets'} takes no --example")
    if runs and datasets:
        fail("--runs and --datasets go separately")
    named: dict[str, str] = {}
    others: list[str] = []  # --runs/--datasets -r NAME=…: groups of runs, or datasets, to compare
    if runs or datasets:
        others, responses = list(responses), []
    for item in responses:
        system, sep, path = item.partition("=")
        if not sep or not system or not path:
            fail(f"--response takes NAME=FILE, got {item!r}")
        if system in named:  # a dict would keep only the last: refuse, as compare does
            fail(f"two systems are called {system!r}: give each -r NAME=FILE its own NAME")
        named[system] = path
    if response and named:
        first = name or source_name(response)
        if first in named:
            fail(f"two systems are called {first!r}: give each -r NAME=FILE its own NAME")
        named = {first: response, **named}
    if datasets:
        if not key:
            fail("--datasets takes a MANIFEST file, or KEYDIR and RESPONSEDIR")
    elif not key or not (response or named):
        fail("give KEY and RESPONSE, or KEY and -r NAME=FILE … (or --example)")
    if output.suffix.lower() not in SUFFIXES:
        fail(f"{output}: the report is written as .pdf, .html or .tex")
    _refuse_existing(output, force)
    for sec in section:
        if sec not in SECTIONS:
            fail(f"unknown section {sec!r}; choose from {', '.join(SECTIONS)}")
    if latex_layout not in LATEX_LAYOUTS:
        fail(f"--latex-layout takes acl or single, got {latex_layout!r}")
    from ..present.latex import LABEL_CHARACTERS, input_name_problem

    if LABEL_CHARACTERS.search(label_prefix):
        fail(f"--label-prefix takes letters, digits and : . _ / + -, got {label_prefix!r}")
    if output.suffix.lower() == ".tex" and not _special(output) and input_name_problem(output.stem):
        fail(f"{output}: {input_name_problem(output.stem)}; name the .tex report without them")
    from ..report.pdf import pdf_child
    from .run import pool_size

    try:  # the pool's size is decided before the PDF child starts, which then shares the cores with it
        from ..io import expand

        jobs = pool_size(None, expand(key)) if len(named) <= 1 else 1
    except InputError as err:
        fail(str(err))
    # forked before any thread starts: WeasyPrint's import runs on another core while this scores
    child = pdf_child() if output.suffix.lower() == ".pdf" and figures is None else None
    groupings = None
    if subsets:
        from .subsets import groupings_of

        groupings = groupings_of(subsets, settings)
    extra: list = []
    scope = None
    with status_line(quiet) as status:
        cmp = None
        if datasets or runs:
            ev, extra, evs, scope = _many_pairs(key, response, settings, key_format, response_format, datasets, status,
                                                others)
            if datasets:
                section = list(section) or ["methods"]
        elif len(named) > 1:
            from ..scoring.compare import compare as run_compare

            evs = score_systems(key, named, settings, key_format, response_format, status.update)
            status.update("resampling documents for significance…")
            cmp = run_compare(evs, next(iter(evs)))
            ev = evs[list(evs)[-1]]
        else:
            evs = None
            from ..report.examples import CANDIDATES

            path = response or next(iter(named.values()))
            # of the rows, what the report shows: their digest (the examples' candidates, the counts)
            ev = score_files(key, path, settings, key_format, response_format, jobs, quiet, rows=CANDIDATES,
                             documents=True)
        if groupings:
            from ..report.groups import subsets_section
            from ..scoring.groupdeltas import group_intervals
            from ..scoring.subsets import subsets as split

            subs = [split(ev.documents, list(ev.metrics), g) for g in groupings]
            headline = "conll" if all(m in ev.metrics for m in ("muc", "bcub", "ceafe")) else subs[0].metrics[0]
            status.update("resampling each group's documents for its interval…")
            extra.append(subsets_section(subs, [group_intervals(ev.documents, g, headline) for g in groupings],
                                         headline))
        status.update(f"rendering {output.suffix[1:].upper()}…")
        try:
            if figures is not None:
                from ..report.document import write_figures

                status.update(f"writing the charts to {figures}…")
                write_figures(ev, figures, force, cmp, name, evs)
            write_report(ev, output, title, list(section) or None, force=force, comparison=cmp,
                         progress=status.update, name=name, systems=evs, pdf_child=child, layout=latex_layout,
                         label_prefix=label_prefix, extra=extra, scope=scope)
        except (FileExistsError, ValueError) as err:
            fail(str(err))
        except OSError as err:
            fail(f"cannot write {output}: {err.strerror or err}")
    for system, e in (evs or {"": ev}).items():  # with -r A -r B each warning names its system
        _warn(e.warnings, quiet, f"{system}: " if system else "")
    if not quiet:  # -q: nothing on stderr but errors
        wrote(output)


def _many_pairs(key: str, response: Optional[str], settings: Settings, key_format, response_format,
                datasets: bool, status, others: list[str] = ()) -> tuple:
    """``report --datasets`` or ``--runs``: the evaluation the detailed sections describe (the first
    dataset's, the first run's), the extra sections, ``None`` (no comparison of systems) and the
    report's :class:`~corefreport.report.groups.Scope` (``None``: the first pair's). ``others``
    (``-r``): more systems' datasets, or more groups of runs, compared with the first as
    ``compare --datasets`` / ``compare --runs`` compare them."""
    if others:
        return _compared_pairs(key, response, settings, key_format, response_format, datasets, status, others)
    from ..io import load_corpus
    from ..report import groups as G
    from ..report.examples import CANDIDATES
    from ..scoring.evaluate import evaluate

    kf = key_format.value if key_format else None
    rf = response_format.value if response_format else None
    with collector_paused():
        try:
            if datasets:
                from ..io.datasets import dataset_files
                from ..scoring.datasets import dataset_variants, evaluate_datasets

                from dataclasses import replace

                files = dataset_files(key, response)
                settings = replace(settings, analyses=(), plink_by=None)  # the table and the methods alone
                ranking = settings.preset == "crac"
                variants = dataset_variants(settings)
                status.update(f"scoring {len(files.datasets)} datasets…")
                dev = evaluate_datasets(((d.name, load_corpus(d.key, kf, key=True), load_corpus(d.response, rf))
                                         for d in files.datasets), variants, ranking=ranking, unpaired=files.unpaired)
                first = dev.datasets[0].evaluations[dev.variants[0].name]
                return first, [G.datasets_section(dev)], None, G.datasets_scope(dev)
            from ..io.runs import run_files
            from ..scoring.runs import RunsEvaluation

            if not response:
                fail("--runs takes KEY and RUNS (NAME=RUN1,RUN2,… or a quoted glob of run files)")
            files = run_files(response)
            kc = load_corpus(key, kf, key=True, repeated=settings.repeated_documents)
            out = []
            for i, (run, path) in enumerate(files.runs):
                status.update(f"scoring run {run} ({i + 1} of {len(files.runs)})…")
                rc = load_corpus(path, rf, repeated=settings.repeated_documents)
                out.append((run, evaluate(kc, rc, settings, rows=CANDIDATES if i == 0 else False, documents=i == 0)))
            rv = RunsEvaluation(files.system, tuple(out))
            return out[0][1], [G.runs_section(rv)], None, None
        except (InputError, SettingsError) as err:
            fail(str(err))


def _compared_pairs(key: str, response: Optional[str], settings: Settings, key_format, response_format,
                    datasets: bool, status, others: list[str]) -> tuple:
    """``report --datasets BASE… -r NAME=…`` and ``report KEY BASE=r1,… --runs -r NAME=r1,…``: the
    sections of ``compare --datasets`` / ``compare --runs`` (compare's resampling defaults), each
    file read once; the detailed sections describe the baseline's first dataset (the methods
    alone, as ``report --datasets``) or its first run."""
    from dataclasses import replace

    from ..report import groups as G
    from ..report.examples import CANDIDATES
    from ..scoring.evaluate import evaluate
    from ..scoring.runs import RunsEvaluation
    from . import groupcompare as C

    if datasets:
        systems = ([response] if response else []) + list(others)
        cmp, warnings, evs = C.datasets_comparison(key, systems, replace(settings, analyses=(), plink_by=None),
                                                   key_format, response_format, status=status.update)
        ev = evs[cmp.datasets[0]][cmp.baseline]
        return replace(ev, warnings=warnings), [G.datasets_comparison_section(cmp)], None, \
            G.datasets_comparison_scope(cmp)
    if not response:
        fail("--runs takes KEY and RUNS (NAME=RUN1,RUN2,… or a quoted glob of run files)")
    keep: dict = {}

    def detailed(kc, rc):
        keep["ev"] = evaluate(kc, rc, settings, rows=CANDIDATES, documents=True)
        return keep["ev"]

    cmp, warnings, evs = C.runs_comparison(key, [response, *others], settings, key_format, response_format,
                                           status=status.update, first=detailed)
    groups = [RunsEvaluation(g, tuple(runs.items())) for g, runs in evs.items()]
    return replace(keep["ev"], warnings=warnings), \
        [G.runs_section(groups[0], groups[1:]), G.runs_comparison_section(cmp)], None, None

