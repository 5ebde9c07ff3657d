"""``corefreport compare --datasets`` and ``compare --runs``: a baseline against systems over many
datasets (deltas per dataset and the macro delta with its interval), or groups of runs against a
baseline group (runs and documents as the resampling unit) — :mod:`corefreport.scoring.groupdeltas`,
shown by :mod:`corefreport.present.groupdeltas`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from ..errors import InputError, SettingsError
from ..scoring.settings import Settings
from .build import fail
from .run import OutFormat, _refuse_existing, _warn, collector_paused, spans_only, write_output


def _named_paths(items: list[str]) -> list[tuple[str, str]]:
    """``NAME=PATH`` or ``PATH`` (named by its stem) → (name, path), names distinct."""
    out: list[tuple[str, str]] = []
    for item in items:
        name, sep, path = item.partition("=")
        if not sep or Path(item).exists():
            name, path = Path(item).stem or Path(item).name, item
        out.append((name, path))
    names = [n for n, _ in out]
    if len(set(names)) != len(names):
        fail(f"two systems are called {next(n for n in names if names.count(n) > 1)!r}: name them NAME=PATH")
    return out


def run_compare_datasets(key: str, systems: list[str], settings: Settings, key_format, response_format,
                         bootstrap: int, randomization: int, seed: int, fmt: OutFormat, output: Optional[Path],
                         force: bool, quiet: bool) -> None:
    """``compare --datasets KEYDIR BASEDIR SYSDIR…`` (directories paired by file name) or
    ``compare --datasets BASE_MANIFEST SYSTEM_MANIFEST…`` (the same datasets and keys)."""
    from dataclasses import replace

    settings = replace(settings, analyses=(), plink_by=None)  # the scores alone: analyses are not compared here
    _refuse_existing(output, force)
    cmp, warnings, _ = datasets_comparison(key, systems, settings, key_format, response_format, bootstrap,
                                        randomization, seed)
    _warn(warnings, quiet)
    from ..present import groupdeltas as P

    _render(fmt, output, force, cmp, P.datasets_comparison_tables(cmp), "tab:corefreport-compare-datasets")


def datasets_comparison(key: str, systems: list[str], settings: Settings, key_format, response_format,
                        bootstrap: int = 1000, randomization: int = 10000, seed: int = 12345,
                        status=None) -> tuple:
    """Score and compare the datasets of ``compare --datasets`` (and of ``report --datasets … -r``):
    ``key`` a KEYDIR with ``systems`` response directories, or ``key`` the baseline's manifest with
    ``systems`` the others'; each key read once. Returns (the
    :class:`~corefreport.scoring.groupdeltas.DatasetsComparison`, the warnings, dataset → system →
    evaluation)."""
    from ..io import load_corpus
    from ..io.datasets import dataset_files
    from ..scoring.evaluate import evaluate
    from ..scoring.groupdeltas import compare_datasets

    try:
        if Path(key).is_dir():
            named = _named_paths(systems)
            files = {n: dataset_files(key, p) for n, p in named}
        else:
            named = _named_paths([key, *systems])
            files = {n: dataset_files(p, None) for n, p in named}
    except InputError as err:
        fail(str(err))
    if len(named) < 2:
        fail("compare --datasets takes KEYDIR BASEDIR SYSDIR… or BASE_MANIFEST SYSTEM_MANIFEST…")
    baseline = named[0][0]
    base = files[baseline].datasets
    for n, f in files.items():
        if [(d.name, Path(d.key).resolve()) for d in f.datasets] != [(d.name, Path(d.key).resolve()) for d in base]:
            fail(f"{n}: its datasets (names and keys) are not the baseline's {', '.join(d.name for d in base)}")
    columns = not spans_only(settings)
    kf = key_format.value if key_format else None
    rf = response_format.value if response_format else None
    evaluations: dict[str, dict] = {}
    warnings: list[str] = []
    with collector_paused():
        try:
            for i, spec in enumerate(base):
                if status is not None:
                    status(f"scoring dataset {spec.name} ({i + 1} of {len(base)})…")
                kc = load_corpus(spec.key, kf, key=True, columns=columns)
                evaluations[spec.name] = {}
                for n, f in files.items():
                    ev = evaluate(kc, load_corpus(f.datasets[i].response, rf, columns=columns), settings, rows=False,
                                  documents=False)
                    evaluations[spec.name][n] = ev
                    warnings += [f"{spec.name}: {n}: {w}" for w in ev.warnings]
            if status is not None:
                status("resampling each dataset's documents…")
            cmp = compare_datasets(evaluations, baseline, bootstrap, randomization, seed)
        except (InputError, SettingsError, ValueError) as err:
            fail(str(err))
    return cmp, warnings, evaluations


def run_compare_runs(key: str, systems: list[str], settings: Settings, key_format, response_format,
                     bootstrap: int, randomization: int, seed: int, fmt: OutFormat, output: Optional[Path],
                     force: bool, quiet: bool) -> None:
    """``compare KEY --runs BASE=r1,r2,… SYS=r1,r2,…`` (each group as ``score --runs`` takes it)."""
    from dataclasses import replace

    settings = replace(settings, analyses=(), plink_by=None)  # the scores alone: analyses are not compared here
    if len(systems) < 2:
        fail("compare --runs takes KEY and two groups of runs or more: BASE=RUN1,RUN2,… SYSTEM=RUN1,RUN2,…")
    _refuse_existing(output, force)
    cmp, warnings, _ = runs_comparison(key, systems, settings, key_format, response_format, bootstrap, randomization,
                                       seed)
    _warn(warnings, quiet)
    from ..present import groupdeltas as P

    _render(fmt, output, force, cmp, P.runs_comparison_tables(cmp), "tab:corefreport-compare-runs")


def runs_comparison(key: str, systems: list[str], settings: Settings, key_format, response_format,
                    bootstrap: int = 1000, randomization: int = 10000, seed: int = 12345, status=None,
                    first=None) -> tuple:
    """Score and compare the groups of runs of ``compare --runs`` (and of ``report --runs … -r``):
    the key read once, every run once. ``first(key corpus, response corpus)``: the evaluation of the
    baseline's first run (the report's detailed one), when the caller wants more of it than the
    scores. Returns (the :class:`~corefreport.scoring.groupdeltas.RunsComparison`, the warnings,
    group → run → evaluation)."""
    from ..io import load_corpus
    from ..io.runs import run_files
    from ..scoring.evaluate import evaluate
    from ..scoring.groupdeltas import compare_runs

    columns = not spans_only(settings)
    rf = response_format.value if response_format else None
    warnings: list[str] = []
    with collector_paused():
        try:
            groups = [run_files(s) for s in systems]
            names = [g.system for g in groups]
            if len(set(names)) != len(names):
                fail("two groups of runs have the same name: name them NAME=RUN1,RUN2,…")
            kc = load_corpus(key, key_format.value if key_format else None, key=True, columns=columns)
            evs: dict[str, dict] = {}
            for g in groups:
                evs[g.system] = {}
                for k, (run, path) in enumerate(g.runs):
                    if status is not None:
                        status(f"scoring {g.system}: run {run} ({k + 1} of {len(g.runs)})…")
                    rc = load_corpus(path, rf, columns=columns)
                    if first is not None and g is groups[0] and k == 0:
                        ev = first(kc, rc)
                    else:
                        ev = evaluate(kc, rc, settings, rows=False, documents=False)
                    evs[g.system][run] = ev
                    warnings += [f"{g.system}/{run}: {w}" for w in ev.warnings]
            if status is not None:
                status("resampling runs and documents…")
            cmp = compare_runs(evs, names[0], bootstrap, randomization, seed)
        except (InputError, SettingsError, ValueError) as err:
            fail(str(err))
    return cmp, warnings, evs


def _render(fmt: OutFormat, output: Optional[Path], force: bool, cmp, tables: list, label: str) -> None:
    from ..present import groupdeltas as P

    sig = str(cmp.signature)
    if fmt is OutFormat.json:
        from ..present.inert import json_inert

        write_output(json_inert(json.dumps(cmp.as_dict(), indent=2, ensure_ascii=False, allow_nan=False)) + "\n",
                     output, force)
    elif fmt is OutFormat.csv:
        from ..present.render import to_csv

        write_output("".join(to_csv(t) for t in tables), output, force)
    elif fmt is OutFormat.markdown:
        write_output(P.markdown(tables, sig), output, force)
    elif fmt is OutFormat.latex:
        from dataclasses import replace

        from ..present.render import latex_document

        write_output(latex_document([replace(t, note=f"{t.note}; {sig}") for t in tables], label), output, force)
    elif output is not None:
        from io import StringIO

        buf = StringIO()
        P.print_blocks(P.blocks(tables, sig), file=buf, color=False)
        write_output(buf.getvalue(), output, force)
    else:
        P.print_blocks(P.blocks(tables, sig))
