"""``corefreport tui --datasets …`` and ``tui KEY RESPONSE --subsets …``: the browser that opens on a
page of datasets (or groups of documents) above each one's usual browser
(:mod:`corefreport.tui.levels`, :mod:`corefreport.tui.datasetmodel`).

What the app's worker runs (the app never reads or scores):

* **datasets** — each dataset read once and scored once per variant, in order
  (:func:`~corefreport.scoring.datasets.evaluate_datasets` with ``browse``: the first variant with
  its outcome rows and documents, the browser's; under ``--preset crac`` the three other variants
  compute only the ranking's metrics); the page grows a row at a time;
* **groups** — the pair read once and scored once (the page: every group's scores from the
  per-document counts, :func:`~corefreport.scoring.subsets.subsets`, and the whole corpus's
  browser on ``micro``), then each group's documents scored on their own for its browser (every
  document a second time, from the corpora in memory).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Optional

from ..errors import InputError, SettingsError
from ..model import Corpus
from ..scoring.settings import Settings
from .build import fail
from .run import InFormat, _load, collector_paused


def part_of(corpus: Corpus, ids: list[str]) -> Corpus:
    """The documents of ``corpus`` named in ``ids`` (in ``ids``' order; one a response lacks is left out)."""
    return replace(corpus, documents={i: corpus.documents[i] for i in ids if i in corpus.documents}, warnings=[])


def datasets_producer(key: str, response: Optional[str], settings: Settings, key_format: Optional[InFormat] = None,
                      response_format: Optional[InFormat] = None):
    """The producer of ``tui --datasets MANIFEST`` / ``KEYDIR RESPONSEDIR`` (errors in the manifest or
    the settings exit before the browser starts)."""
    from ..io import load_corpus
    from ..io.datasets import dataset_files
    from ..scoring.datasets import dataset_variants, evaluate_datasets
    from ..tui.datasetmodel import Level

    try:
        files = dataset_files(key, response)
        ranking = settings.preset == "crac"
        variants = dataset_variants(settings)
    except (InputError, SettingsError) as err:
        fail(str(err))
    kf = key_format.value if key_format else None
    rf = response_format.value if response_format else None
    names = tuple(d.name for d in files.datasets)

    def produce(report, on_level):
        evaluations: dict = {}

        def read():
            for i, spec in enumerate(files.datasets):
                report(f"scoring {spec.name}: dataset", i + 1, len(names))
                yield spec.name, load_corpus(spec.key, kf, key=True), load_corpus(spec.response, rf)

        def grown(dev) -> None:
            last = dev.datasets[-1]
            evaluations[last.name] = last.evaluations[variants[0].name]
            on_level(Level("datasets", "dataset", dev, dict(evaluations), names, final=len(dev.datasets) == len(names)))

        with collector_paused():
            dev = evaluate_datasets(read(), variants, ranking=ranking, unpaired=files.unpaired, browse=True,
                                    on_dataset=grown)
        return Level("datasets", "dataset", dev, dict(evaluations), names, final=True)

    return produce


def groups_producer(key: str, response: str, settings: Settings, grouping, key_format: Optional[InFormat] = None,
                    response_format: Optional[InFormat] = None):
    """The producer of ``tui KEY RESPONSE --subsets SPEC``."""
    from ..scoring.evaluate import evaluate
    from ..scoring.subsets import subsets
    from ..tui.datasetmodel import MICRO, Level

    def produce(report, on_level):
        with collector_paused():
            kc = _load(key, key_format, key=True, repeated=settings.repeated_documents)
            rc = _load(response, response_format, repeated=settings.repeated_documents)
            ev = evaluate(kc, rc, settings, progress=lambda d, t: report("scoring documents", d, len(kc)),
                          jobs=1, rows=True, documents=True)
            sub = subsets(ev.documents, list(ev.metrics), grouping)
            names = tuple(g.name for g in sub.groups)
            evaluations = {MICRO: ev}
            on_level(Level("groups", grouping.name, sub, dict(evaluations), names, final=not names))
            ids: dict[str, list[str]] = {}
            for d in ev.documents:
                ids.setdefault(grouping.of(d), []).append(d.doc_id)
            for i, g in enumerate(names):
                report(f"scoring the group {g}:", i + 1, len(names))
                evaluations[g] = evaluate(part_of(kc, ids[g]), part_of(rc, ids[g]), settings, jobs=1, rows=True,
                                          documents=True)
                on_level(Level("groups", grouping.name, sub, dict(evaluations), names, final=i == len(names) - 1))
        return Level("groups", grouping.name, sub, dict(evaluations), names, final=True)

    return produce


def run_levels_command(key: Optional[str], responses: list[str], key_format: Optional[InFormat],
                       response_format: Optional[InFormat], settings: Settings, subsets: list[str],
                       datasets: bool) -> int:
    """``corefreport tui --datasets …`` or ``tui KEY RESPONSE --subsets SPEC``: the browser's exit code."""
    import os

    if datasets and subsets:
        fail("--datasets and --subsets go separately: browse one dataset's groups with 'tui KEY RESPONSE --subsets'")
    if settings.plink_by:
        fail("the terminal browser has no p-link view; use 'corefreport score -m plink' or the report")
    if settings.cross_document is not None:
        fail("--cross-document is not available with --datasets or --subsets in the browser")
    from ..io.streams import STDIN

    if datasets:
        if not key or len(responses) > 1:
            fail("tui --datasets takes a MANIFEST file, or KEYDIR and RESPONSEDIR")
        paths = [key, *responses]
    else:
        if not key or len(responses) != 1:
            fail("tui --subsets takes KEY and RESPONSE")
        if len(subsets) > 1:
            fail("the browser opens on one grouping: give --subsets once")
        paths = [key, responses[0]]
    if STDIN in paths:
        fail("the terminal browser reads the keyboard from standard input, so no input can be '-'")
    if datasets:
        producer = datasets_producer(key, responses[0] if responses else None, settings, key_format, response_format)
        title = f"datasets of {Path(key).name}" if not responses else f"datasets {Path(key).name} × " \
            f"{Path(responses[0]).name}"
    else:
        from .subsets import groupings_of

        grouping = groupings_of(subsets, settings)[0]
        producer = groups_producer(key, responses[0], settings, grouping, key_format, response_format)
        title = f"{Path(responses[0]).name} by {grouping.name}"
    if not (sys.stdin.isatty() and sys.stdout.isatty()) and not os.environ.get("TEXTUAL_DRIVER"):
        fail("the terminal browser needs an interactive terminal (stdin and stdout are not a TTY); for pipes "
             "and files use 'corefreport score --datasets' or 'score --subsets'")
    from ..tui.levels import run_levels_tui

    return run_levels_tui(producer, title)
