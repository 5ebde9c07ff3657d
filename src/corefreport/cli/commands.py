"""The ``corefreport`` command line (typer): builds :class:`Settings` from the shared options
(:mod:`.options`) and hands each command's arguments to its runner (:mod:`.score`, :mod:`.compare`,
:mod:`.report`, :mod:`.tui`), which makes a plan, runs its study and renders it. It never reads a
corpus or computes a score."""

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
from .output import InFormat, OutFormat, example_paths, write_output  # noqa: F401 (this module's interface)

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
    With --runs: RESPONSE is NAME=RUN1,RUN2,… (mean ± sd). With --datasets: MANIFEST, or KEYDIR
    RESPONSEDIR — one row per dataset and their mean."""
    from .score import run_score

    run_score(key, response, fmt, output, force, per_doc, links, key_format, response_format, example, quiet, jobs,
              settings=settings, subsets=subsets, runs=runs, datasets=datasets)


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
    subsets: Annotated[list[str], typer.Option("--subsets", metavar="genre|length[:EDGES]|FILE", help="Also per "
                       "group of documents (repeatable): each system's scores per group and, per group, the "
                       "difference with its interval and p-value over the group's documents; the macro row "
                       "stratified (docs/datasets.md).")] = [],
    correction: Annotated[str, typer.Option("--correction", metavar="none|holm|bh", help="Adjust the p-values "
                          "for multiple comparisons over the family of tests the command prints: holm (Holm-"
                          "Bonferroni, the family-wise error rate) or bh (Benjamini-Hochberg, the false discovery "
                          "rate); named in the signature (docs/compare.md).")] = "none",
    *,
    settings: Settings,
) -> None:
    """Compare systems against one key: every metric side by side, paired bootstrap intervals and
    approximate-randomization p-values over documents, per-class and per-type gains and losses
    (--by COLUMN: other groupings, such as mtype or genre), the links one system gets right and the
    other wrong; with --subsets the same per group of documents."""
    from .compare import run_compare

    run_compare(key, systems, settings, bootstrap=bootstrap, randomization=randomization, seed=seed,
                no_analyses=no_analyses, top=top, min_support=min_support, examples=examples, links=links, fmt=fmt,
                output=output, force=force, key_format=key_format, response_format=response_format, quiet=quiet,
                datasets=datasets, runs=runs, subsets=subsets, correction=correction)


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
    correction: REPORT.correction = D("report", "correction"),
    *,
    settings: Settings,
) -> None:
    """Write a paper-ready report (PDF, HTML) or all its tables as LaTeX, chosen by the -o suffix."""
    from .report import run_report

    run_report(key, response, responses, output, title, name, latex_layout, figures, label_prefix, section,
               key_format, response_format, force, example, quiet, settings, subsets=subsets, runs=runs,
               datasets=datasets, correction=correction)


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
    token: Annotated[Optional[str], typer.Option("--token", metavar="TEXT", help="Token of --serve (default: $COREFREPORT_TOKEN, "
                                                 "else a random one, printed in the address); other users see "
                                                 "a command line: prefer the variable.")] = None,
    max_sessions: Annotated[Optional[int], typer.Option("--max-sessions", min=1, metavar="N", help="Browser tabs --serve "
                                                        "runs at once; more are refused. [default: 2]")] = None,
    *,
    settings: Settings,
) -> None:
    """Browse the evaluation in the terminal: totals → classes → types → single links in their sentence.

    With two or more systems (KEY A B [C …], names as NAME=FILE): their totals side by side with Δ and
    its significance, per class and type, the links one gets right and the other wrong, the documents
    by Δ — compare's results.
    Enter drills in, Escape goes back, d shows per-document scores, / filters links, ? helps, q quits.
    Over SSH in a browser: --serve [--port N] on the cluster, then the printed ssh -L line on your laptop
    and the printed address with its ?token=… (only its owner can drive it).
    """
    from .tui import run_tui_command

    raise typer.Exit(run_tui_command(key, responses or [], key_format, response_format, example, settings,
                                     serve=port if serve else None, subsets=subsets, datasets=datasets,
                                     token=token, max_sessions=max_sessions))


@app.command()
def check(
    key: Annotated[str, typer.Argument(metavar="KEY", help="Gold file, or the folder of the key files (one a dataset).")],
    responses: Annotated[list[str], typer.Argument(metavar="RESPONSE…", help="System files (each checked against "
                         "KEY), or submission folders holding a file named as each key file.")],
    preset: Annotated[Optional[str], typer.Option("--preset", metavar="crac", help="crac: a CRAC shared-task "
                      "submission (CorefUD CoNLL-U; empty nodes predicted; what the official programs stop on is an "
                      "error).")] = None,
    empty_nodes: Annotated[Optional[str], typer.Option("--empty-nodes", metavar="same|predicted", help="'same': the "
                           "response keeps the key's empty nodes (a task that gives them; the default); 'predicted': "
                           "the system predicts its own (CRAC 2024-2026; the default of --preset crac).")] = None,
    no_warnings: Annotated[bool, typer.Option("--no-warnings", help="Print the errors only.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No count of errors and warnings on stderr.")] = False,
) -> None:
    """Check a submission before it is uploaded: every key document present with the key's words (and
    empty nodes where the task gives them), well-formed Entity/SplitAnte/Bridge values, unique ids, and
    as warnings what the official scorers read otherwise. One FILE:LINE line per problem; exit 0 when
    there is no error, 2 otherwise (docs/check.md)."""
    from .check import run_check

    raise typer.Exit(run_check(key, responses, preset, empty_nodes, no_warnings, quiet))
