"""``corefreport compare`` once its options are parsed: the plan of several systems on one key (and
per group of documents with ``--subsets``), groups of runs (``--runs``) or systems on several
datasets (``--datasets``), its study, and the output the presentation layer makes of it
(:func:`~corefreport.present.study.compare_output`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Optional

from ..errors import InputError, SettingsError
from ..scoring.settings import Settings
from .build import fail
from .output import OutFormat, emit, fmt_value, refuse_existing, warn, write_output

def check_correction(correction: str) -> None:
    """``--correction`` is none, holm or bh: else exit 2 saying so."""
    from ..scoring.significance import check_resampling

    try:
        check_resampling(0, 0, correction)
    except ValueError as e:
        fail(str(e))


def run_compare(key: str, systems: list[str], settings: Settings, *, bootstrap: int = 1000,
                randomization: int = 10000, seed: int = 12345, no_analyses: bool = False, top: int = 3,
                min_support: int = 20, examples: int = 2, links: Optional[Path] = None,
                fmt: OutFormat = OutFormat.table, output: Optional[Path] = None, force: bool = False,
                key_format=None, response_format=None, quiet: bool = False, datasets: bool = False,
                runs: bool = False, subsets: Optional[list[str]] = None, correction: str = "none") -> None:
    """Compare the systems (the first is the baseline) and write the comparison."""
    from ..study.plan import Policy, Resampling, plan_of
    from ..study.run import run

    several = "--runs" if runs else "--datasets" if datasets else None
    if datasets and runs:
        fail("--datasets and --runs go separately")
    # a negative count once passed silently (--top -1 showed all but the last gain) or reached numpy's
    # message without the option's name (--seed -1: 'expected non-negative integer')
    for flag, value in (("--bootstrap", bootstrap), ("--randomization", randomization), ("--seed", seed),
                        ("--top", top), ("--min-support", min_support), ("--examples", examples)):
        if value < 0:  # with --runs/--datasets too: the message names the option and the value
            fail(f"{flag} takes a number ≥ 0, got {value}")
    check_correction(correction)
    if several:
        settings = replace(settings, analyses=(), plink_by=None)  # the scores alone: analyses are not compared here
        if links is not None or subsets:
            fail(f"{'--links' if links is not None else '--subsets'} is not available with {several}")
    elif no_analyses:
        settings = replace(settings, analyses=())
    refuse_existing(links, force)
    refuse_existing(output, force)
    try:
        plan = plan_of("compare", key, systems, settings, runs=runs, datasets=datasets, subsets=subsets or [],
                       kf=fmt_value(key_format), rf=fmt_value(response_format),
                       compare=Resampling(bootstrap, randomization, seed, correction=correction),
                       policy=Policy(rows=not several, documents=not several))
        study = run(plan)
    except (InputError, SettingsError, ValueError) as err:
        fail(str(err))
    warn(study.warnings, quiet)
    from ..present.study import compare_output

    emit(compare_output(study, fmt.value, top, examples, min_support), output, force)
    if links is not None:
        from ..present.output import changed_links_text

        write_output(changed_links_text(study.comparison, links.suffix.lower() == ".csv", study.evaluations), links, force)
