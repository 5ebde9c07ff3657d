"""Command-line option values → :class:`~corefreport.scoring.settings.Settings`, without typer.

:func:`build_settings` is the one place the shared scoring options become a ``Settings``; both the
typer commands (:mod:`.options`) and the fast ``score`` path (:mod:`.fast`) call it.
"""

from __future__ import annotations

import os
import sys
import typing
from pathlib import Path

from ..errors import SettingsError
from ..scoring.options import metric_names, settings_from
from ..scoring.registry import STANDARD_METRICS
from ..scoring.settings import Settings

VIEW_ANALYSES = ("arcs", "typed")
"""What compare, report and tui compute by default (-a errors adds the error classes: slower, and
its rows are a different kind of analysis)."""


def fail(message: str, code: int = 2) -> typing.NoReturn:
    """Print ``corefreport: error: MESSAGE`` on stderr and exit (2: bad input or usage). The message
    is made inert (:func:`~corefreport.present.inert.inert`): it may quote a file's line, a
    document id or a file name, whose control characters must not reach the terminal."""
    from ..present.inert import inert

    sys.stderr.write(f"corefreport: error: {inert(str(message))}\n")
    raise SystemExit(code)


def output_path(text: str | Path) -> Path:
    """An output option's FILE: a path ending in a slash names a folder, not a file, and is refused
    (a ``Path`` drops the slash: ``-o results/`` once wrote a file named ``results``, and
    ``-o scores.json/ --force`` replaced ``scores.json``)."""
    if isinstance(text, Path):  # a default, or typer's own conversion
        return text
    if text.endswith(("/", os.sep)) and text.strip("/" + os.sep):
        fail(f"{text}: ends with '{text[-1]}', so it names a folder, not a file to write; give a file name")
    return Path(text)


def _numbers(text: str, option: str, count: int, what: str) -> tuple[float, ...]:
    try:
        values = tuple(float(x) for x in text.split(","))
    except ValueError:
        fail(f"{option} takes {count} numbers {what}, got {text!r}")
    if len(values) != count:
        fail(f"{option} takes {count} numbers {what}, got {len(values)}")
    return values


def parse_metrics(items: list[str]) -> tuple[tuple[str, ...], bool]:
    """Metric keys from ``--metric`` values (aliases b3, bcubed; ``all``), and whether p-link was asked."""
    try:
        return metric_names(items)
    except SettingsError as err:
        fail(str(err))


def build_settings(metric: list[str], analysis: list[str], singletons: bool | None, key_duplicates: str,
                   repeats: str | None,
                   match: str | None, zeros: bool, zero_match: str | None, preset: str | None, strict_tokens: bool, weights: str, by: list[str], arcs_compat: bool, arcs_singletons: bool,
                   arcs_anchor_links: bool,
                   scheme: str | None, k: str, attempted: str | None, strict_dominant: bool, plink_compat: bool,
                   errors_drop_response_singletons: bool = False, markup_policy: str = "organisers",
                   repeated_documents: str = "last", truncate: bool = False, cross_document: bool = False,
                   topic_from: str | None = None, decoupled: bool = False, split_antecedents: str | None = None,
                   strata: list[str] | None = None, window: str | None = None, response_windows: bool = False, *,
                   default_metrics: tuple[str, ...] = STANDARD_METRICS,
                   default_analyses: tuple[str, ...] = ()) -> Settings:
    """The one place command-line options become :class:`Settings` (exit 2 with a message on a
    value no evaluation can honour)."""
    chosen = tuple(a.strip() for a in attempted.split(",") if a.strip()) if attempted is not None else None
    if chosen == ():  # "," or " ": no class at all, which once fell back to the default classes silently
        fail(f"--attempted takes class names separated by commas, got {attempted!r}")
    if decoupled:  # Cattan et al. (2021): coreference without singletons, mention detection with them
        if singletons:
            fail("--decoupled scores coreference without singletons: leave out --keep-singletons")
        singletons = False
    try:
        settings = settings_from(
            metrics=metric, analyses=analysis, preset=preset, singletons=singletons, match=match, zero_match=zero_match,
            zeros=zeros, repeats=repeats, split_antecedents=split_antecedents, by=by, default_metrics=default_metrics, default_analyses=default_analyses,
            key_duplicates=key_duplicates, strict_tokens=strict_tokens,
            weights=_numbers(weights, "--weights", 4, "NAM,NOM,PRO,SING"), arcs_compat=arcs_compat,
            arcs_singletons=arcs_singletons, arcs_anchor_links=arcs_anchor_links, scheme=scheme,
            k=_numbers(k, "--k", 4, "in [0, 1] (k1,k2,k3,k4)"),
            attempted=chosen,
            strict_dominant=strict_dominant, plink_compat=plink_compat,
            errors_drop_response_singletons=errors_drop_response_singletons,
            markup_policy=markup_policy, repeated_documents=repeated_documents,
            truncate=truncate, strata=tuple(dict.fromkeys(strata or ())), window=_window(window),
            response_windows=response_windows,
            **cross_document_fields(cross_document, topic_from),
            **({"mention_singletons": "keep"} if decoupled else {}))
    except SettingsError as err:
        fail(str(err))
    from ..present.numbers import print_truncated

    print_truncated(settings.truncate)  # every view of this command prints percentages so (one command a process)
    return settings


def _window(value: str | None) -> int:
    """``--window N``: a whole number of words ≥ 1 (0: none given)."""
    if value is None:
        return 0
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        fail(f"--window takes a whole number of words ≥ 1 (BookCoref's windows: 1500), got {value!r}")
    return n


def cross_document_fields(cross_document: bool, topic_from: str | None) -> dict:
    """The :class:`Settings` fields of ``--cross-document`` and ``--topic-from``: a file of
    ``DOC_ID<TAB>TOPIC`` lines when it names one (:func:`topic_source`), ``meta:NAME`` a field of
    each document's metadata, else a pattern."""
    if topic_from is not None and not cross_document:
        fail("--topic-from says how documents form topics for --cross-document: give both")
    if not cross_document:
        return {}
    from ..scoring.crossdoc import Topics

    if topic_from is None:
        return {"cross_document": Topics()}
    if topic_from.startswith("meta:"):  # a field of each document's metadata (uCDCR's topic, subtopic_id)
        return {"cross_document": Topics(field=topic_from[5:])}
    if topic_source(topic_from) == "pattern":
        return {"cross_document": Topics(pattern=topic_from)}
    from ..errors import InputError
    from ..study.groupsources import read_groups

    try:
        groups = read_groups(topic_from, "topic")
    except InputError as err:
        fail(f"{err} (--topic-from)")
    return {"cross_document": Topics(mapping=tuple(groups.items()))}


TOPIC_FILE_ENDINGS = (".tsv", ".txt", ".tab")
"""A ``--topic-from`` value ending so names a file, never a pattern."""


def topic_source(value: str) -> str:
    """Whether ``--topic-from VALUE`` is a ``"file"`` or a ``"pattern"``: an existing file is a
    file; an existing folder is an error; a value that looks like a path (holds ``/``, or ends in
    ``.tsv``, ``.txt`` or ``.tab``) but names nothing is an error ("no such file") — it once
    became a pattern matching no document, and per-document topics were scored with a warning
    only; anything else is a pattern."""
    path = Path(value)
    if path.is_file():
        return "file"
    if path.is_dir():
        fail(f"--topic-from {value}: is a folder; give a file of DOC_ID<TAB>TOPIC lines or a pattern")
    if path.exists():  # a pipe: --topic-from <(cut -f1,3 meta.tsv)
        return "file"
    if "/" in value or value.lower().endswith(TOPIC_FILE_ENDINGS):
        fail(f"--topic-from {value}: no such file (a file of DOC_ID<TAB>TOPIC lines; a pattern holds no '/'"
             f" and does not end in {', '.join(TOPIC_FILE_ENDINGS)})")
    return "pattern"
