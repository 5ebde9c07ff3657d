"""``corefreport score KEY RESPONSE --runs``: RESPONSE names several runs of one system
(``NAME=RUN1,RUN2,…`` or a glob/directory, one run a file); the key is read once and every run
scored against it (:mod:`corefreport.scoring.runs`), shown as mean ± sd (:mod:`corefreport.present.runs`)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, Optional

from ..errors import InputError, SettingsError
from ..scoring.settings import Settings
from .build import fail
from .run import OutFormat, _refuse_existing, _warn, collector_paused, render_summary, spans_only


def run_runs(key: Optional[str], response: Optional[str], fmt: OutFormat, output: Optional[Path], force: bool,
             per_doc: bool, links: Optional[Path], key_format, response_format, example: bool, quiet: bool,
             jobs: Optional[int], settings: Settings, subsets: Optional[list[str]] = None) -> None:
    """Score every run and print the statistics (or JSON, CSV, Markdown, LaTeX)."""
    from ..io import load_corpus
    from ..io.runs import run_files
    from ..scoring.runs import evaluate_runs

    if example:
        fail("--example takes no --runs")
    for given, flag in ((per_doc, "--per-doc"), (links is not None, "--links"), (subsets, "--subsets")):
        if given:
            fail(f"{flag} is not available with --runs: score one run alone")
    if not key or not response:
        fail("--runs takes KEY and RUNS (NAME=RUN1,RUN2,… or a quoted glob of run files)")
    if jobs is not None and not 1 <= jobs <= 64:
        fail(f"--jobs takes a number from 1 to 64, got {jobs}")
    _refuse_existing(output, force)
    columns = not spans_only(settings)
    rf = response_format.value if response_format else None
    with collector_paused():
        try:
            files = run_files(response)
            key_corpus = load_corpus(key, key_format.value if key_format else None, key=True, columns=columns)

            def read() -> Iterator[tuple]:
                for name, path in files.runs:
                    yield name, load_corpus(path, rf, columns=columns)

            rv = evaluate_runs(files.system, key_corpus, read(), settings, jobs=jobs or 1)
        except (InputError, SettingsError) as err:
            fail(str(err))
    _warn(rv.warnings, quiet)
    from ..present import runs as P

    render_summary(fmt, output, force, data=P.runs_data(rv), table=P.runs_table(rv), markdown=P.runs_markdown(rv),
                   show=lambda **kw: P.print_runs(rv, **kw), signature=rv.signature, label="tab:corefreport-runs")
