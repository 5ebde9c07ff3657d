"""The ``corefreport`` command line (typer): reads the corpora, builds :class:`Settings` from the shared
options (:mod:`.options`), calls the pure scoring and hands the result to a view — the terminal
renderers of :mod:`corefreport.present`, the report, or the TUI. It never computes a score."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..scoring.registry import ALL_METRICS
from ..scoring.settings import Settings
from .options import fail, output_path, scoring_options, typer_option
from .spec import option
from .build import VIEW_ANALYSES
from .run import (  # noqa: F401 (example_paths, render, tui_producer, write_output: this module's interface)
    InFormat, OutFormat, _refuse_existing, _warn, example_paths, render, run_score, run_systems_command,
    run_tui_command, named_systems,
    tui_producer, write_output,
)

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
    help="Coreference evaluation: the official CoNLL numbers, and why. "
    "Run 'corefreport score --example' to see it on a bundled GUM sample.",
)


def _version(value: bool) -> None:
    if value:
        from ..version import __version__

        typer.echo(f"corefreport {__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                                help="Print the version and exit.")] = False) -> None:
    """Coreference evaluation: the official CoNLL numbers, and why."""


KeyArg = Annotated[Optional[str], typer.Argument(metavar="KEY", help="Gold corpus: a file, a directory, or a quoted glob.")]
ResponseArg = Annotated[Optional[str], typer.Argument(metavar="RESPONSE", help="System corpus: a file, a directory, "
                                                      "or a quoted glob.")]


class Declared:
    """``S.dest``: the typer declaration of option ``dest`` of a command (:mod:`.spec`), its type from
    how it is parsed; ``S.dest_as(T)``: of type ``T``."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __getattr__(self, dest: str):
        if dest.endswith("_as"):
            return lambda annotation: typer_option(option(self.command, dest[:-3]), annotation)
        return typer_option(option(self.command, dest))


SCORE, REPORT, TUI = Declared("score"), Declared("report"), Declared("tui")


def D(command: str, dest: str):  # noqa: N802
    """Its default."""
    return option(command, dest).default


@app.command()
@scoring_options()
def score(
    key: KeyArg = None,
    response: ResponseArg = None,
    fmt: SCORE.fmt_as(OutFormat) = OutFormat(D("score", "fmt")),
    output: SCORE.output_as(Optional[Path]) = None,
    force: SCORE.force = D("score", "force"),
    per_doc: SCORE.per_doc = D("score", "per_doc"),
    links: SCORE.links_as(Optional[Path]) = None,
    key_format: SCORE.key_format_as(Optional[InFormat]) = None,
    response_format: SCORE.response_format_as(Optional[InFormat]) = None,
    example: SCORE.example = D("score", "example"),
    quiet: SCORE.quiet = D("score", "quiet"),
    jobs: SCORE.jobs_as(Optional[int]) = None,
    subsets: SCORE.subsets = D("score", "subsets"),
    runs: SCORE.runs = D("score", "runs"),
    datasets: SCORE.datasets = D("score", "datasets"),
    *,
    settings: Settings,
) -> None:
    """Score RESPONSE against KEY and print R, P, F1 (with numerators and denominators) per metric.
    With --datasets: MANIFEST, or KEYDIR RESPONSEDIR — one row per dataset and their mean."""
    if runs and datasets:
        fail("--runs and --datasets go separately: score each dataset's runs alone")
    if runs:
        from .runs import run_runs

        return run_runs(key, response, fmt, output, force, per_doc, links, key_format, response_format, example,
                        quiet, jobs, settings, subsets=subsets)
    if datasets:
        from .datasets import run_datasets

        return run_datasets(key, response, fmt, output, force, per_doc, links, key_format, response_format, example,
                            quiet, jobs, settings, subsets=subsets)
    run_score(key, response, fmt, output, force, per_doc, links, key_format, response_format, example, quiet, jobs,
              settings=settings, subsets=subsets)


RESAMPLING_MEMORY_LIMIT = 2 * 1024 ** 3
"""Bytes the resampling of ``compare`` may take (estimated before it starts)."""


def _check_resampling_memory(bootstrap: int, randomization: int, evs: dict) -> None:
    """Refuse resample counts whose arrays cannot fit: the resampling keeps, per resample, a weight or
    sign per document and a statistics row per system and metric (8 bytes each)."""
    ev = next(iter(evs.values()))
    n_docs = max(len(ev.documents), 1)
    columns = 3 * max(len(ev.metrics), 1) * len(evs)
    need = 8 * max(bootstrap, randomization) * (n_docs + columns)
    if need > RESAMPLING_MEMORY_LIMIT:
        most = RESAMPLING_MEMORY_LIMIT // (8 * (n_docs + columns))
        fail(f"{max(bootstrap, randomization):,} resamples of {n_docs} documents and {len(evs)} systems need about "
             f"{need / 1024 ** 3:.1f} GiB; use at most {most:,} (--bootstrap / --randomization)")


_named = named_systems


@app.command()
@scoring_options(default_metrics=ALL_METRICS, default_analyses=VIEW_ANALYSES, unsupported=("plink_compat",))
def compare(
    key: Annotated[str, typer.Argument(metavar="KEY", help="Gold corpus.")],
    systems: Annotated[list[str], typer.Argument(metavar="BASELINE SYSTEM…", help="BASELINE SYSTEM [SYSTEM …], each "
                       "FILE or NAME=FILE; the first is the baseline.")],
    bootstrap: Annotated[int, typer.Option("--bootstrap", help="Paired bootstrap resamples of the documents "
                         "(0: none).")] = 1000,
    randomization: Annotated[int, typer.Option("--randomization", help="Approximate randomization trials "
                             "(0: none).")] = 10000,
    seed: Annotated[int, typer.Option("--seed", help="Random seed (printed in the signature).")] = 12345,
    no_analyses: Annotated[bool, typer.Option("--no-analyses", help="Compare the metrics only (faster).")] = False,
    top: Annotated[int, typer.Option("--top", help="Largest gains and losses shown per analysis.")] = 3,
    min_support: Annotated[int, typer.Option("--min-support", help="Smallest group (key referents) among the "
                           "gains and losses shown.")] = 20,
    examples: Annotated[int, typer.Option("--examples", help="Example links shown per analysis and direction "
                        "(0: none).")] = 2,
    links: Annotated[Optional[Path], typer.Option("--links", parser=output_path, metavar="FILE", help="Write every referent whose outcome changed "
                     "to FILE: .jsonl or .csv.")] = None,
    fmt: Annotated[OutFormat, typer.Option("--format", "-f", help="Output format.")] = OutFormat.table,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", parser=output_path, metavar="FILE",
                                                   help="Write to FILE.")] = None,
    force: SCORE.force = D("score", "force"),
    key_format: SCORE.key_format_as(Optional[InFormat]) = None,
    response_format: SCORE.response_format_as(Optional[InFormat]) = None,
    quiet: SCORE.quiet = D("score", "quiet"),
    datasets: Annotated[bool, typer.Option("--datasets", help="Many datasets: 'compare --datasets KEYDIR BASEDIR "
                        "SYSDIR…' (files paired by name) or 'compare --datasets BASE_MANIFEST SYSTEM_MANIFEST…'; the "
                        "delta per dataset and the macro delta with a stratified interval (docs/datasets.md).")] = False,
    runs: Annotated[bool, typer.Option("--runs", help="Groups of runs: 'compare KEY --runs BASE=r1,r2,… "
                    "SYS=r1,r2,…' (or quoted globs); mean ± sd per group and the difference tested with the runs and "
                    "with the documents as the unit (docs/datasets.md).")] = False,
    *,
    settings: Settings,
) -> None:
    """Compare systems against one key: every metric side by side, paired bootstrap intervals and
    approximate-randomization p-values over documents, per-class and per-type gains and losses
    (--by COLUMN: other groupings, such as mtype or genre), the links one system gets right and the
    other wrong."""
    from dataclasses import replace

    from ..scoring.compare import GROUPINGS
    from ..scoring.compare import compare as run_compare

    if datasets or runs:
        if datasets and runs:
            fail("--datasets and --runs go separately")
        if bootstrap < 0 or randomization < 0:
            fail("--bootstrap and --randomization take a number ≥ 0")
        from . import groupcompare as G

        run = G.run_compare_datasets if datasets else G.run_compare_runs
        return run(key, systems, settings, key_format, response_format, bootstrap, randomization, seed, fmt, output,
                   force, quiet)
    if len(systems) < 2:
        fail("give a BASELINE and at least one SYSTEM")
    if settings.plink_by:
        fail("compare does not resample p-link categories; use 'corefreport score -m plink' per system")
    named = _named(systems)
    # a negative count once passed silently (--top -1 showed all but the last gain) or reached numpy's
    # message without the option's name (--seed -1: 'expected non-negative integer')
    for flag, value in (("--bootstrap", bootstrap), ("--randomization", randomization), ("--seed", seed),
                        ("--top", top), ("--min-support", min_support), ("--examples", examples)):
        if value < 0:
            fail(f"{flag} takes a number ≥ 0, got {value}")
    _refuse_existing(links, force)
    _refuse_existing(output, force)
    if no_analyses:
        settings = replace(settings, analyses=())
    from .reporting import score_systems

    evs = score_systems(key, named, settings, key_format, response_format)
    for name, ev in evs.items():
        _warn(ev.warnings, quiet, f"{name}: ")
    _check_resampling_memory(bootstrap, randomization, evs)
    try:
        cmp = run_compare(evs, next(iter(named)), bootstrap, randomization, seed, groupings=settings.by or GROUPINGS)
    except ValueError as err:
        fail(str(err))
    from ..present import render as R
    from ..present.terminal import print_comparison

    if fmt is OutFormat.json:
        from ..present.inert import json_inert

        write_output(json_inert(json.dumps(cmp.as_dict(), indent=2, ensure_ascii=False, allow_nan=False)) + "\n",
                     output, force)
    elif fmt is OutFormat.csv:
        write_output(R.comparison_csv(cmp), output, force)
    elif fmt is OutFormat.markdown:
        write_output(R.comparison_markdown(cmp, top, min_support), output, force)
    elif fmt is OutFormat.latex:
        write_output(R.comparison_latex(cmp), output, force)
    elif output is not None:
        from io import StringIO

        buf = StringIO()
        print_comparison(cmp, file=buf, color=False, top=top, examples=examples, min_support=min_support)
        write_output(buf.getvalue(), output, force)
    else:
        print_comparison(cmp, top=top, examples=examples, min_support=min_support)
    if links is not None:
        from ..present.output import changed_links_text

        write_output(changed_links_text(cmp, links.suffix.lower() == ".csv"), links, force)


@app.command()
@scoring_options(default_metrics=ALL_METRICS, default_analyses=VIEW_ANALYSES)
def report(
    key: KeyArg = None,
    response: ResponseArg = None,
    responses: REPORT.responses = D("report", "responses"),
    output: REPORT.output_as(Path) = Path(D("report", "output")),
    title: REPORT.title = None,
    name: REPORT.name = None,
    latex_layout: REPORT.latex_layout = D("report", "latex_layout"),
    figures: REPORT.figures_as(Optional[Path]) = None,
    label_prefix: REPORT.label_prefix = D("report", "label_prefix"),
    section: REPORT.section = D("report", "section"),
    key_format: REPORT.key_format_as(Optional[InFormat]) = None,
    response_format: REPORT.response_format_as(Optional[InFormat]) = None,
    force: REPORT.force = D("report", "force"),
    example: REPORT.example = D("report", "example"),
    quiet: REPORT.quiet = D("report", "quiet"),
    subsets: REPORT.subsets = D("report", "subsets"),
    runs: REPORT.runs = D("report", "runs"),
    datasets: REPORT.datasets = D("report", "datasets"),
    *,
    settings: Settings,
) -> None:
    """Write a paper-ready report (PDF, HTML) or all its tables as LaTeX, chosen by the -o suffix."""
    from .reporting import run_report

    run_report(key, response, responses, output, title, name, latex_layout, figures, label_prefix, section,
               key_format, response_format, force, example, quiet, settings, subsets=subsets, runs=runs,
               datasets=datasets)


@app.command()
@scoring_options(default_metrics=ALL_METRICS, default_analyses=VIEW_ANALYSES)
def tui(
    key: KeyArg = None,
    responses: Annotated[Optional[list[str]], typer.Argument(
        metavar="RESPONSE [SYSTEM …]", help="System corpus; or two or more systems, each FILE or NAME=FILE (the "
        "first is the baseline), to browse why one beats the other.")] = None,
    key_format: TUI.key_format_as(Optional[InFormat]) = None,
    response_format: TUI.response_format_as(Optional[InFormat]) = None,
    example: TUI.example = D("tui", "example"),
    serve: Annotated[bool, typer.Option("--serve", help="Serve the browser as a web page on 127.0.0.1 (for an "
                                        "SSH tunnel; needs textual-serve).")] = False,
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port of --serve.")] = 8000,
    subsets: TUI.subsets = D("tui", "subsets"),
    datasets: TUI.datasets = D("tui", "datasets"),
    *,
    settings: Settings,
) -> None:
    """Browse the evaluation in the terminal: totals → classes → types → single links in their sentence.

    With two or more systems (KEY A B [C …], names as NAME=FILE): their totals side by side with Δ and
    its significance, per class and type, the links one gets right and the other wrong, the documents
    by Δ — compare's results.
    Enter drills in, Escape goes back, d shows per-document scores, / filters links, ? helps, q quits.
    Over SSH in a browser: --serve [--port N] on the cluster, then the printed ssh -L line on your laptop.
    """
    responses = responses or []
    if datasets or subsets:
        from .tuilevels import run_levels_command

        if example or serve:
            fail("--example and --serve browse one pair; give --datasets or --subsets without them")
        raise typer.Exit(run_levels_command(key, responses, key_format, response_format, settings, subsets, datasets))
    if len(responses) > 1:
        if example:
            fail("--example browses one system; give KEY A B [C …] without it")
        raise typer.Exit(run_systems_command(key, _named(responses), key_format, response_format, settings,
                                             serve=port if serve else None))
    raise typer.Exit(run_tui_command(key, responses[0] if responses else None, key_format, response_format, example,
                                     settings, serve=port if serve else None))


