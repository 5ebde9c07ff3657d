"""What ``corefreport score`` does once its options are parsed, without typer: read the corpora,
score them once, hand the :class:`~corefreport.scoring.result.Evaluation` to a renderer.

Both entry points call :func:`run_score`: the typer command (:mod:`.commands`) and the fast path of
:mod:`.fast`, which parses the everyday ``score`` options without importing typer (so that
``corefreport score`` starts in a few tens of milliseconds). Nothing here imports typer, rich,
pydantic or a view library at import time.
"""

from __future__ import annotations

import gc
import json
import sys
from contextlib import contextmanager
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Iterator, Optional

from ..errors import InputError, SettingsError
from ..scoring.settings import Settings
from .build import fail

FREEZE = False
"""Set by the console entry point: after reading and scoring, move every object into the
collector's permanent generation (:func:`gc.freeze`) instead of letting the first collections
walk the whole corpus. Library and test callers keep the ordinary collector."""


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off while reading and scoring (many small objects, no cycles): with
    :data:`FREEZE` the objects built are then frozen, so no later collection walks them again."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if FREEZE:
            gc.freeze()
        if was:
            gc.enable()


class OutFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"
    latex = "latex"


class InFormat(str, Enum):
    conll2012 = "conll2012"
    conllu = "conllu"
    jsonlines = "jsonlines"
    webanno = "webanno"


def example_paths() -> tuple[str, str]:
    """The bundled example: GUM gold (3 documents) and the xrenner ml/gum response for them."""
    base = resources.files("corefreport") / "data" / "example"
    return str(base / "gum_key.conll"), str(base / "xrenner_response.conll")


def write_output(text: str, output: Optional[Path], force: bool) -> None:
    """``text`` to stdout, or to ``output`` (atomically, never over an existing file without --force)."""
    from ..present.output import write_atomic

    if output is None:
        sys.stdout.write(text)
        return
    try:
        write_atomic(output, text, force)
    except FileExistsError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write {output}: {err.strerror or err}")
    sys.stderr.write(f"wrote {output}\n")


def _refuse_existing(path: Optional[Path], force: bool) -> None:
    if path is not None and path.exists() and not force:
        fail(f"{path} exists; use --force to overwrite it")


def _load(spec: str, fmt: Optional[InFormat], key: bool = False, columns: bool = True):
    from ..io import load_corpus

    return load_corpus(spec, fmt.value if fmt else None, key=key, columns=columns)


def spans_only(settings: Settings) -> bool:
    """Whether the run sees only the mentions' spans and words (the standard metrics with exact
    matching): the readers then need not keep the other columns."""
    return not settings.needs_features and not settings.analyses and settings.match == "exact"


def _progress_callback(n_docs: int):
    """A Rich progress bar on stderr for corpora large enough to wait for (and a terminal to show it)."""
    if n_docs < 200 or not sys.stderr.isatty():
        return None
    from rich.progress import Progress

    state: dict = {}

    def cb(done: int, total: int) -> None:
        if "p" not in state:
            p = Progress(transient=True)
            p.start()
            state["p"] = p
            state["t"] = p.add_task("scoring documents", total=total)
        state["p"].update(state["t"], completed=done)
        if done == total:
            state["p"].stop()
            state.clear()

    return cb


def _score_pair(key: str, response: str, settings: Settings, key_format, response_format):
    from ..scoring.evaluate import evaluate

    with collector_paused():
        try:
            columns = not spans_only(settings)
            kc = _load(key, key_format, key=True, columns=columns)
            rc = _load(response, response_format, columns=columns)
            return evaluate(kc, rc, settings, progress=_progress_callback(len(kc)))
        except (InputError, SettingsError) as err:
            fail(str(err))


def _warn(warnings: list[str], quiet: bool, prefix: str = "") -> None:
    if not quiet:
        for w in warnings:
            sys.stderr.write(f"corefreport: warning: {prefix}{w}\n")


def run_score(key: Optional[str], response: Optional[str], fmt: OutFormat = OutFormat.table,
              output: Optional[Path] = None, force: bool = False, per_doc: bool = False,
              links: Optional[Path] = None, key_format: Optional[InFormat] = None,
              response_format: Optional[InFormat] = None, example: bool = False, quiet: bool = False, *,
              settings: Settings) -> None:
    """Score RESPONSE against KEY and print R, P, F1 (with numerators and denominators) per metric."""
    if example:
        if key or response:
            fail("--example takes no KEY or RESPONSE")
        key, response = example_paths()
    if not key or not response:
        fail("give KEY and RESPONSE (or --example)")
    if links is not None and not settings.analyses:
        fail("--links needs an --analysis (e.g. --analysis arcs)")
    _refuse_existing(links, force)
    _refuse_existing(output, force)
    ev = _score_pair(key, response, settings, key_format, response_format)
    _warn(ev.warnings, quiet)
    if links is not None:
        from ..present.output import rows_text

        write_output(rows_text(ev.rows, links.suffix.lower() == ".csv"), links, force)
    render(ev, fmt, output, force, per_doc)


def render(ev, fmt: OutFormat, output: Optional[Path], force: bool, per_doc: bool) -> None:
    """An evaluation in one output format, to stdout or ``output``."""
    from ..present import render as R
    from ..present.tables import all_tables

    if fmt is OutFormat.json:
        write_output(json.dumps(ev.as_dict(per_doc=per_doc), indent=2, ensure_ascii=False) + "\n", output, force)
        return
    parts = all_tables(ev, per_doc=per_doc)
    if fmt is OutFormat.csv:
        write_output(R.tables_csv(parts), output, force)
    elif fmt is OutFormat.markdown:
        write_output("\n".join(f"### {t.title}\n\n" + R.to_markdown(t) for t in parts), output, force)
    elif fmt is OutFormat.latex:
        write_output(R.latex_document(parts), output, force)
    else:
        from ..present.terminal import print_evaluation

        if output is not None:
            from io import StringIO

            buf = StringIO()
            print_evaluation(ev, per_doc=per_doc, file=buf, color=False)
            write_output(buf.getvalue(), output, force)
        else:
            print_evaluation(ev, per_doc=per_doc)
