"""``corefreport score`` once its options are parsed (by typer or by :mod:`.fast`): the plan of a
pair, one system's runs (``--runs``) or one system's datasets (``--datasets``), its study, and the
output the presentation layer makes of it (:func:`~corefreport.present.study.score_output`)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..errors import InputError, SettingsError
from ..scoring.settings import Settings
from .build import fail
from .output import (OutFormat, check_jobs, emit, example_paths, fmt_value, progress_bar, refuse_existing, warn,
                     write_output)


def run_score(key: Optional[str], response: Optional[str], fmt: OutFormat = OutFormat.table,
              output: Optional[Path] = None, force: bool = False, per_doc: bool = False,
              links: Optional[Path] = None, key_format=None, response_format=None, example: bool = False,
              quiet: bool = False, jobs: Optional[int] = None, *, settings: Settings,
              subsets: Optional[list[str]] = None, runs: bool = False, datasets: bool = False,
              alignment_words: Optional[Path] = None) -> None:
    """Score RESPONSE against KEY (or its runs, or several datasets) and write the result."""
    from ..study.plan import Policy, plan_of
    from ..study.run import run

    several = "--runs" if runs else "--datasets" if datasets else None
    if example:
        if several:
            fail(f"--example takes no {several}")
        if key or response:
            fail("--example takes no KEY or RESPONSE")
        key, response = example_paths()
    if not several and (not key or not response):
        fail("give KEY and RESPONSE (or --example)")
    if several:
        what = "one run" if runs else "one dataset"
        for given, flag in ((per_doc, "--per-doc"), (links is not None, "--links"), (subsets, "--subsets"),
                            (alignment_words is not None, "--alignment-words")):
            if given:
                fail(f"{flag} is not available with {several}: score {what} alone")
    if links is not None and not settings.analyses:
        fail("--links needs an --analysis (e.g. --analysis arcs)")
    refuse_existing(links, force)
    refuse_existing(alignment_words, force)
    refuse_existing(output, force)
    check_jobs(jobs)
    watch = progress_bar(quiet) if not several else None  # its clock starts before reading
    try:
        plan = plan_of("score", key, [response] if response else [], settings, runs=runs, datasets=datasets,
                       subsets=subsets or [], kf=fmt_value(key_format), rf=fmt_value(response_format),
                       policy=Policy(rows=links is not None, documents=links is not None,  # --links: each row's why
                                     jobs=jobs if not several else jobs or 1,
                                     digest=links is None and fmt.value != "json",  # the tables' digest of the errors
                                     apart=jobs != 1))
        if len(plan.systems) > 1:
            fail("score takes one system; compare several with 'corefreport compare'")
        study = run(plan, watch)
    except (InputError, SettingsError) as err:
        fail(str(err))
    finally:
        if watch is not None:
            watch.close()
    warn(study.warnings, quiet)
    if links is not None:
        from ..present.output import rows_text

        write_output(rows_text(study.evaluation.rows, links.suffix.lower() == ".csv", study.evaluation), links, force)
    if alignment_words is not None:
        from ..present.alignment import edits_text

        text = edits_text(study.evaluation, alignment_words.suffix.lower() == ".csv")
        if text is None:
            fail("--alignment-words lists the words a markup response's alignment did not match: RESPONSE is not "
                 "markup (text2text or brackets)")
        write_output(text, alignment_words, force)
    from ..present.study import score_output

    emit(score_output(study, fmt.value, per_doc), output, force)
