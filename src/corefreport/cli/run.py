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
from pathlib import Path
from typing import Iterator, Optional

from ..errors import InputError, SettingsError
from ..io import FORMATS
from ..scoring.options import document_grouping
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


InFormat = Enum("InFormat", {f: f for f in FORMATS}, type=str)
"""The input formats (``--key-format``, ``--response-format``): the readers' (``io.FORMATS``)."""


def example_paths() -> tuple[str, str]:
    """The bundled example: GUM gold (3 documents) and the xrenner ml/gum response for them."""
    from importlib import resources  # ~10 ms of imports: only for the example

    base = resources.files("corefreport") / "data" / "example"
    return str(base / "gum_key.conll"), str(base / "xrenner_response.conll")


def write_output(text: str, output: Optional[Path], force: bool) -> None:
    """``text`` to stdout, or to ``output`` (:func:`~corefreport.present.output.write_atomic`: a file
    atomically and never over an existing one without --force, a symlink through to its target, a
    device, FIFO or /dev/stdout in place). Every failure is one error line, exit 2."""
    from ..present.output import write_atomic

    if output is None:
        sys.stdout.write(on_terminal(text, sys.stdout))
        return
    try:
        write_atomic(output, text, force)
    except FileExistsError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write {output}: {err.strerror or err}")
    wrote(output)


def wrote(output) -> None:
    """``wrote OUTPUT`` on stderr, the name made inert."""
    from ..present.inert import inert

    sys.stderr.write(f"wrote {inert(str(output))}\n")


def on_terminal(text: str, stream) -> str:
    """``text`` as written to ``stream``: made inert, line breaks kept, when the stream is a terminal
    (CSV keeps a document id's exact characters in a file or a pipe, but a terminal would act on
    its escape sequences); as it is otherwise. The table, Markdown, LaTeX and JSON are inert by
    themselves."""
    try:
        tty = stream.isatty()
    except (AttributeError, ValueError, OSError):
        tty = False
    if not tty:
        return text
    from ..present.inert import terminal_text

    return terminal_text(text)


def _refuse_existing(path: Optional[Path], force: bool) -> None:
    """Stop before any work when ``path`` cannot be written as asked: an existing file (or a
    symlink's existing target) without --force, a folder, a missing folder. A device, a FIFO or
    /dev/stdout needs no --force: writing to it replaces no file."""
    if path is None:
        return
    from ..present.output import output_target

    try:
        output_target(path, force)
    except FileExistsError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write {path}: {err.strerror or err}")


def _load(spec: str, fmt: Optional[InFormat], key: bool = False, columns: bool = True, repeated: str = "last"):
    from ..io import load_corpus

    return load_corpus(spec, fmt.value if fmt else None, key=key, columns=columns, repeated=repeated)


def spans_only(settings: Settings) -> bool:
    """Whether the run sees only the mentions' spans and words (the standard metrics with exact
    matching): the readers then need not keep the other columns."""
    return not settings.needs_features and not settings.analyses and settings.match == "exact"


PROGRESS_AFTER = 1.0
"""Seconds of scoring after which a progress bar appears (on a terminal)."""


class _ProgressBar:
    """``progress(done, total)`` for :func:`~corefreport.scoring.evaluate.evaluate` (``total`` 0:
    not known): a Rich progress bar on stderr, started only once the run has taken
    :data:`PROGRESS_AFTER` seconds, so that a short run never imports Rich; :meth:`close` removes it."""

    def __init__(self) -> None:
        import time

        self._clock = time.monotonic
        self._start = self._clock()
        self._bar = None
        self._task = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if self._clock() - self._start < PROGRESS_AFTER:
                return
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task("scoring documents", total=total or None)
        self._bar.update(self._task, completed=done)
        if total and done >= total:
            self.close()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _progress_callback() -> _ProgressBar | None:
    """A progress bar on stderr when it is a terminal (:class:`_ProgressBar`), else ``None``."""
    return _ProgressBar() if sys.stderr.isatty() else None


def document_pairs(key: str, response: str, settings: Settings, key_format, response_format):
    """The key/response document pairs of two paths, reading the columns ``settings`` need (heads by
    rule 3a read the key's; features and analyses both sides')."""
    from ..io.pairs import DocumentPairs

    pairs = DocumentPairs(key, response, key_format.value if key_format else None,
                          response_format.value if response_format else None, columns=not spans_only(settings),
                          repeated=settings.repeated_documents)
    if not (settings.needs_features or settings.analyses or settings.plink_by):
        pairs.response.columns = False
        if settings.match != "exact":
            pairs.key.columns = HEAD_COLUMNS
    return pairs


HEAD_COLUMNS = ("pos", "upos", "head", "parse")
"""The key's columns heads by rule 3a are read from (``scoring.matching.head_finder``), and the
parse bits of ``--match mina`` (``scoring.mina``)."""


def score_files(key: str, response: str, settings: Settings, key_format=None, response_format=None,
                jobs: int | None = 1, quiet: bool = False, rows: bool | int = False, documents: bool = False):
    """The :class:`Evaluation` of a key and a response given as paths: their document pairs
    scored by :func:`pool_size` processes (:func:`~corefreport.scoring.evaluate.evaluate`); a
    problem of the input or the options is an error (exit 2) naming it."""
    from ..scoring.evaluate import evaluate

    progress = None if quiet else _progress_callback()  # its clock starts before reading
    with collector_paused():
        try:
            pairs = document_pairs(key, response, settings, key_format, response_format)
            return evaluate(pairs, settings=settings, progress=progress, jobs=pool_size(jobs, pairs.key.files),
                            rows=rows, documents=documents)
        except (InputError, SettingsError) as err:
            fail(str(err))
        finally:
            if progress is not None:
                progress.close()


MAX_JOBS = 4
"""The default ``--jobs`` is the number of idle cores, at most this many."""
POOL_BYTES = 2_000_000
"""Below this size of the key (about 75 CoNLL-2012 documents of 500 tokens) one process scores as
fast as a pool: forking and adding the parts up cost about what the second core saves
(measured on 2 cores, bench/README.md)."""


def pool_size(jobs: int | None, key_files: list[str]) -> int:
    """Processes to score with: ``--jobs`` when given; by default 1 for a key under
    :data:`POOL_BYTES`, else the idle cores (:func:`corefreport.forking.idle_cores`, at most
    :data:`MAX_JOBS`). Where :func:`os.fork` is missing, the pool's fold runs in one process."""
    import os

    if jobs is not None:
        return jobs
    try:
        if sum(os.path.getsize(f) for f in key_files) < POOL_BYTES:
            return 1
    except OSError:
        return 1
    from ..forking import idle_cores

    return max(1, min(idle_cores(), MAX_JOBS))


def _warn(warnings: list[str], quiet: bool, prefix: str = "") -> None:
    """Each warning as one ``corefreport: warning:`` line on stderr, made inert (document ids, file
    and system names in it are shown with their control characters escaped)."""
    if not quiet:
        from ..present.inert import inert

        for w in warnings:
            sys.stderr.write(f"corefreport: warning: {inert(prefix + w)}\n")


def run_score(key: Optional[str], response: Optional[str], fmt: OutFormat = OutFormat.table,
              output: Optional[Path] = None, force: bool = False, per_doc: bool = False,
              links: Optional[Path] = None, key_format: Optional[InFormat] = None,
              response_format: Optional[InFormat] = None, example: bool = False, quiet: bool = False,
              jobs: Optional[int] = None, *, settings: Settings, subsets: Optional[list[str]] = None) -> None:
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
    # 64 processes is more than any machine this runs on scores faster with (the pool forks N - 1
    # children whatever the corpus size); a larger N, such as a stray 10**20, once forked until the
    # file descriptors ran out. The bound is fixed, not the CPU count, so a command line behaves the
    # same on every machine.
    if jobs is not None and not 1 <= jobs <= 64:
        fail(f"--jobs takes a number from 1 to 64, got {jobs}")
    groupings = None
    if subsets or any(document_grouping(f) for f in settings.by):
        from .subsets import groupings_of

        groupings = groupings_of(subsets or [], settings)
    ev = score_files(key, response, settings, key_format, response_format, jobs, quiet, rows=links is not None)
    _warn(ev.warnings, quiet)
    if links is not None:
        from ..present.output import rows_text

        write_output(rows_text(ev.rows, links.suffix.lower() == ".csv"), links, force)
    groups = ()
    if groupings:
        from ..scoring.subsets import subsets as split

        groups = tuple(split(ev.documents, list(ev.metrics), g) for g in groupings)
    render(ev, fmt, output, force, per_doc, groups)


def json_per_document(data: dict, ev) -> Iterator[str]:
    """``json.dumps(data | {"per_document": …}, indent=2, ensure_ascii=False) + "\n"`` in pieces,
    one document at a time: a corpus of thousands of documents is never held as one dict of dicts
    (nor one string), so that ``score --per-doc`` runs in memory flat in the corpus size."""
    from ..present.inert import json_inert

    head = json_inert(json.dumps(data, indent=2, ensure_ascii=False))
    yield head[:-2] + ',\n  "per_document": {\n'
    last = len(ev.documents) - 1
    for k, d in enumerate(ev.documents):
        entry = json.dumps(d.as_dict(), indent=2, ensure_ascii=False).replace("\n", "\n    ")
        yield json_inert(f"    {json.dumps(d.doc_id, ensure_ascii=False)}: {entry}{',' if k < last else ''}\n")
    yield "  }\n}\n"


def render_summary(fmt: OutFormat, output: Optional[Path], force: bool, *, data: dict, table, markdown: str,
                   show, signature: object, label: str) -> None:
    """A result of several evaluations (datasets, runs) in one output format, to stdout or
    ``output``: ``data`` (JSON), ``table`` (CSV; LaTeX with the signature in its note), ``markdown``,
    ``show(file=…, color=…)`` (the terminal table)."""
    if fmt is OutFormat.json:
        write_output(json.dumps(data, indent=2, ensure_ascii=False) + "\n", output, force)
    elif fmt is OutFormat.csv:
        from ..present.render import to_csv

        write_output(to_csv(table), output, force)
    elif fmt is OutFormat.markdown:
        write_output(markdown, output, force)
    elif fmt is OutFormat.latex:
        from dataclasses import replace

        from ..present.render import latex_document

        write_output(latex_document([replace(table, note=f"{table.note}; {signature}")], label), output, force)
    elif output is not None:
        from io import StringIO

        buf = StringIO()
        show(file=buf, color=False)
        write_output(buf.getvalue(), output, force)
    else:
        show()


def render(ev, fmt: OutFormat, output: Optional[Path], force: bool, per_doc: bool, subsets: tuple = ()) -> None:
    """An evaluation in one output format, to stdout or ``output`` (``subsets``: its scores per
    group of documents, :mod:`corefreport.scoring.subsets`, after its own tables)."""
    extra = []
    if subsets:
        from ..present.subsets import subsets_data, subsets_table

        extra = [subsets_table(s) for s in subsets]
    if fmt is OutFormat.json:
        from ..present.jsondata import evaluation_data

        data = evaluation_data(ev)
        if subsets:
            data["subsets"] = {s.by: subsets_data(s) for s in subsets}
        if not per_doc or not ev.documents:
            if per_doc:
                data["per_document"] = {}
            from ..present.inert import json_inert

            write_output(json_inert(json.dumps(data, indent=2, ensure_ascii=False)) + "\n", output, force)
            return
        chunks = json_per_document(data, ev)
        if output is None:
            for chunk in chunks:
                sys.stdout.write(chunk)
        else:
            write_output("".join(chunks), output, force)
        return
    from ..present import render as R
    from ..present.tables import all_tables

    if fmt is OutFormat.csv:
        write_output(R.tables_csv(all_tables(ev, per_doc=per_doc) + extra), output, force)
    elif fmt is OutFormat.markdown:
        write_output("\n".join(f"### {R.md_escape(t.title)}\n\n" + R.to_markdown(t)
                                for t in all_tables(ev, per_doc=per_doc) + extra), output, force)
    elif fmt is OutFormat.latex:
        write_output(R.latex_document(all_tables(ev, per_doc=per_doc) + extra), output, force)
    else:  # the terminal tables build their own
        from ..present.scoreview import print_evaluation

        if output is not None:
            from io import StringIO

            buf = StringIO()
            print_evaluation(ev, per_doc=per_doc, file=buf, color=False, extra=extra)
            write_output(buf.getvalue(), output, force)
        else:
            print_evaluation(ev, per_doc=per_doc, extra=extra)


def run_tui_command(key: Optional[str], response: Optional[str], key_format: Optional[InFormat],
                    response_format: Optional[InFormat], example: bool, settings: Settings,
                    serve: Optional[int] = None) -> int:
    """``corefreport tui`` once its options are parsed (by typer, or by :mod:`.fast`): the
    browser's exit code; ``serve``: the port of ``--serve``."""
    if example:
        key, response = example_paths()
    if not key or not response:
        fail("give KEY and RESPONSE (or --example)")
    if settings.plink_by:
        fail("the terminal browser has no p-link view; use 'corefreport score -m plink' or the report")
    from ..io.streams import STDIN

    if STDIN in (key, response):
        # the browser reads the keyboard from standard input: a corpus piped into it would be its keys
        fail("the terminal browser reads the keyboard from standard input, so KEY and RESPONSE cannot be '-'; "
             "give a file, a FIFO or a process substitution such as <(zcat key.gz)")
    if serve is not None:
        from ..tui.serve import serve_tui

        return serve_tui(port=serve)
    import os

    # under --serve each browser tab runs this command with pipes and Textual's web driver
    if not (sys.stdin.isatty() and sys.stdout.isatty()) and not os.environ.get("TEXTUAL_DRIVER"):
        fail("the terminal browser needs an interactive terminal (stdin and stdout are not a TTY); for pipes "
             "and files use 'corefreport score' or 'corefreport report', for a browser 'corefreport tui --serve'")
    from ..tui.app import run_tui

    return run_tui(tui_producer(key, response, settings, key_format, response_format), Path(response).name)


def named_systems(items: list[str]) -> dict[str, str]:
    """``compare``'s and ``tui``'s systems: each ``FILE`` (named by its stem) or ``NAME=FILE``
    (a path that exists is a file even with an ``=``); a name given twice is an error."""
    named: dict[str, str] = {}
    for item in items:
        name, _, path = item.partition("=") if "=" in item and not Path(item).exists() else (Path(item).stem, "", item)
        if not name or not path:
            fail(f"a system is FILE or NAME=FILE, got {item!r}")
        if name in named:
            fail(f"two systems are called {name!r}: name them with NAME=FILE")
        named[name] = path
    return named


def run_systems_command(key: Optional[str], named: dict[str, str], key_format: Optional[InFormat],
                        response_format: Optional[InFormat], settings: Settings, serve: Optional[int] = None) -> int:
    """``corefreport tui KEY A B [C…]``: the many-system browser's exit code (each system scored
    once, then compared: :func:`systems_producer`); ``serve``: the port of ``--serve`` (each browser
    tab runs this command without ``--serve``)."""
    if not key:
        fail("give KEY and two or more systems")
    if settings.plink_by:
        fail("the terminal browser has no p-link view; use 'corefreport score -m plink' or the report")
    from ..io.streams import STDIN

    if STDIN in (key, *named.values()):
        fail("the terminal browser reads the keyboard from standard input, so KEY and the systems cannot be '-'")
    if serve is not None:
        from ..tui.serve import serve_tui

        return serve_tui(port=serve)
    import os

    if not (sys.stdin.isatty() and sys.stdout.isatty()) and not os.environ.get("TEXTUAL_DRIVER"):
        fail("the terminal browser needs an interactive terminal (stdin and stdout are not a TTY); for pipes "
             "and files use 'corefreport compare', for a browser 'corefreport tui KEY A B --serve'")
    from ..tui.systems import run_systems_tui

    return run_systems_tui(systems_producer(key, named, settings, key_format, response_format), list(named))


def tui_producer(key: str, response: str, settings: Settings, key_format: Optional[InFormat] = None,
                 response_format: Optional[InFormat] = None):
    """What the TUI's worker runs: score the pairs once, the per-document metrics first (see
    :data:`corefreport.tui.app.Producer`)."""

    def produce(report, on_stage):
        # the collector off from the read to the last analysis: the rows are many small objects
        # without cycles, and a collection over them every few thousand allocations costs the
        # browser ~0.5 s of its 2 s on the 300-document pair (frozen after, like score's)
        with collector_paused():
            return _produce(report, on_stage)

    def _produce(report, on_stage):
        from ..scoring.evaluate import evaluate

        pairs = document_pairs(key, response, settings, key_format, response_format)
        pairs.prepare()
        report("read", 0, 0)
        phase = ["scoring"]

        def staged(ev) -> None:
            phase[0] = "analyses"
            on_stage(ev)

        return evaluate(pairs, settings=settings, progress=lambda d, t: report(phase[0], d, t), on_stage=staged,
                        jobs=1, rows=True, documents=True)

    return produce


def systems_producer(key: str, named: dict[str, str], settings: Settings, key_format: Optional[InFormat] = None,
                     response_format: Optional[InFormat] = None, bootstrap: int = 1000, randomization: int = 10000,
                     seed: int = 12345):
    """What the many-system browser's worker runs (``corefreport tui KEY A B [C…]``): the key read
    once, each system scored once by :func:`~corefreport.scoring.evaluate.evaluate` (the one
    pipeline), then :func:`~corefreport.scoring.compare.compare` of them (``compare``'s defaults).

    The first numbers come soonest: each system's standard metrics (evaluate's first stage) are
    handed over (``on_stage``) as soon as they are scored — the baseline's alone, then compared
    without resampling as the others' come — before any system's analyses run.
    Each system's evaluate runs in a thread of its own that waits inside its ``on_stage`` until the
    others have reached theirs — one thread runs at a time, each evaluation is one call."""

    def produce(report, on_stage):
        with collector_paused():
            return _produce(report, on_stage)

    def _produce(report, on_stage):
        import threading

        from ..io.pairs import CorpusPairs
        from ..scoring.compare import compare
        from ..scoring.evaluate import evaluate
        from ..tui.pairmodel import Systems

        baseline = next(iter(named))
        kc = _load(key, key_format, key=True, repeated=settings.repeated_documents)
        report("read", 0, 0)
        staged: dict = {}
        final: dict = {}
        failed: list[BaseException] = []
        threads = []
        for name, path in named.items():
            rc = _load(path, response_format, repeated=settings.repeated_documents)
            reached, resume = threading.Event(), threading.Event()

            def stage(ev, name=name, reached=reached, resume=resume) -> None:
                staged[name] = ev
                reached.set()
                resume.wait()

            def run(name=name, rc=rc, reached=reached, stage=stage) -> None:
                try:
                    final[name] = evaluate(CorpusPairs(kc, rc), settings=settings, on_stage=stage,
                                           progress=lambda d, t, name=name: report(f"scoring {name}", d, t or len(kc)),
                                           jobs=1, rows=True, documents=True)
                except BaseException as err:  # handed to the worker, which reports it
                    failed.append(err)
                finally:
                    reached.set()

            t = threading.Thread(target=run, daemon=True, name=f"score {name}")
            threads.append((t, resume))
            t.start()
            reached.wait()
            if failed:
                break
            if name in staged and len(staged) < len(named):  # the baseline's column first, the rest as they come
                on_stage(Systems(dict(staged), compare(dict(staged), baseline, 0, 0), final=False))
        if not failed and len(staged) == len(named):
            on_stage(Systems(dict(staged), compare(dict(staged), baseline, 0, 0), final=False))
        for t, resume in threads:
            resume.set()
            t.join()
        if failed:
            raise failed[0]
        evs = {n: final[n] for n in named}
        return Systems(evs, compare(evs, baseline, bootstrap, randomization, seed,
                                    groupings=settings.by or ("cls", "type")), final=True)

    return produce
