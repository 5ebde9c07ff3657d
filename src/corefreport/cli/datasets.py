"""``corefreport score --datasets``: several key/response pairs, each read once, scored under one
setting or the four CRAC variants (:mod:`corefreport.scoring.datasets`), shown as one table
(:mod:`corefreport.present.datasets`)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, Optional

from ..errors import InputError, SettingsError
from ..scoring.settings import Settings
from .build import fail
from .run import OutFormat, _refuse_existing, _warn, collector_paused, render_summary, spans_only


def run_datasets(key: Optional[str], response: Optional[str], fmt: OutFormat, output: Optional[Path], force: bool,
                 per_doc: bool, links: Optional[Path], key_format, response_format, example: bool, quiet: bool,
                 jobs: Optional[int], settings: Settings, subsets: Optional[list[str]] = None) -> None:
    """Score every dataset of ``--datasets MANIFEST`` (``key``) or ``--datasets KEYDIR RESPONSEDIR``
    (``key``, ``response``) and print the table (or JSON, CSV, Markdown, LaTeX)."""
    from ..io import load_corpus
    from ..io.datasets import dataset_files
    from ..scoring.datasets import dataset_variants, evaluate_datasets

    if example:
        fail("--example takes no --datasets")
    if subsets:
        fail("--subsets is not available with --datasets: score one dataset alone")
    if per_doc or links is not None:
        fail(f"{'--per-doc' if per_doc else '--links'} is not available with --datasets: score one dataset alone")
    if not key:
        fail("--datasets takes a MANIFEST file, or KEYDIR and RESPONSEDIR")
    if jobs is not None and not 1 <= jobs <= 64:
        fail(f"--jobs takes a number from 1 to 64, got {jobs}")
    _refuse_existing(output, force)
    try:
        files = dataset_files(key, response)
    except InputError as err:
        fail(str(err))
    ranking = settings.preset == "crac"
    try:
        variants = dataset_variants(settings)
    except SettingsError as err:
        fail(str(err))
    columns = not all(spans_only(v.settings) for v in variants)
    kf = key_format.value if key_format else None
    rf = response_format.value if response_format else None

    def read() -> Iterator[tuple]:
        for spec in files.datasets:
            yield (spec.name, load_corpus(spec.key, kf, key=True, columns=columns),
                   load_corpus(spec.response, rf, columns=columns))

    with collector_paused():
        try:
            dev = evaluate_datasets(read(), variants, ranking=ranking, jobs=jobs or 1, unpaired=files.unpaired)
        except (InputError, SettingsError) as err:
            fail(str(err))
    _warn(dev.warnings, quiet)
    render_datasets(dev, fmt, output, force)


def render_datasets(dev, fmt: OutFormat, output: Optional[Path], force: bool) -> None:
    """The datasets' table in one output format, to stdout or ``output``."""
    from ..present import datasets as P

    render_summary(fmt, output, force, data=P.datasets_data(dev), table=P.datasets_table(dev),
                   markdown=P.datasets_markdown(dev), show=lambda **kw: P.print_datasets(dev, **kw),
                   signature=dev.signature, label="tab:corefreport-datasets")
