#!/usr/bin/env python3
"""Phase timer of one real ``corefreport`` command line, in-process: where the wall-clock time goes.

    python bench/phases.py score bench-data/base.key bench-data/base.response -f json

Wraps (without changing them) the functions the CLI calls in order and prints, on stderr, the
milliseconds from the process start to each phase's end and each phase's own share:

* ``start-up``  interpreter, imports and option parsing, until the key is read;
* ``read key`` / ``read response``  the readers (``io.load_corpus``);
* ``evaluate``  statistics, signature, alignment and every metric (``scoring.evaluate.evaluate``,
  with its imports);
* ``read + score (streamed)``  the same for a run scored document by document
  (``scoring.streaming.evaluate_stream``), with the time spent reading token lines after it;
* ``read + score (shares)``  the same for a report scored in shares by a pool of processes
  (``cli.reporting`` → ``cli.run._score_shares``);
* ``render``    the output (``cli.render``);
* for ``report``: ``intervals`` (the summary's bootstrap), ``view model`` (``report.model.build``),
  ``html`` (jinja2), ``pdf layout`` and ``pdf write`` (WeasyPrint, with its import when no child
  process imported it beforehand);
* ``exit``      from the end of rendering to the end of ``main`` (teardown after that is not seen
  here: compare the sum with the whole-process time of ``bench/run.py`` or ``/usr/bin/time``).
"""

from __future__ import annotations

import atexit
import sys
import time

T0 = time.perf_counter()
marks: list[tuple[str, float]] = []
reading = {"s": 0.0}


def mark(name: str) -> None:
    marks.append((name, time.perf_counter()))


def wrap(module, attr: str, before: str | None, after: str) -> None:
    fn = getattr(module, attr)

    def timed(*a, **k):
        if before:
            mark(before)
        try:
            return fn(*a, **k)
        finally:
            mark(after)

    setattr(module, attr, timed)


def report() -> None:
    prev = T0
    out = []
    for name, t in marks:
        out.append(f"{name:>24} {1000 * (t - T0):8.1f} ms  (+{1000 * (t - prev):7.1f})")
        prev = t
    if reading["s"]:
        out.append(f"{'(token lines read)':>24} {1000 * reading['s']:8.1f} ms  (within read + score)")
    print("\n".join(out), file=sys.stderr)


def main() -> None:
    # only what ``corefreport score`` imports itself (the whole-corpus evaluation is timed through
    # cli.run._score_pair, so that scoring.evaluate is imported only when the run imports it)
    import corefreport.io as io_pkg
    import corefreport.cli as cli
    import corefreport.cli.run as run

    mark("import corefreport.cli")
    calls = {"n": 0}
    load = io_pkg.load_corpus

    def timed_load(*a, **k):
        if calls["n"] == 0:
            mark("start-up (parsing)")
        try:
            return load(*a, **k)
        finally:
            calls["n"] += 1
            mark("read key" if calls["n"] == 1 else "read response")

    io_pkg.load_corpus = timed_load
    import corefreport.io.conll2012 as conll
    import corefreport.io.stream as stream_mod
    import corefreport.scoring.streaming as streaming

    init = stream_mod.DocumentStream.__init__

    def timed_init(self, *a, **k):
        if calls["n"] == 0:
            mark("start-up (parsing)")
        calls["n"] += 1
        init(self, *a, **k)

    stream_mod.DocumentStream.__init__ = timed_init
    read_document = conll._read_document

    def timed_read(*a, **k):
        t = time.perf_counter()
        try:
            return read_document(*a, **k)
        finally:
            reading["s"] += time.perf_counter() - t

    conll._read_document = timed_read
    wrap(streaming, "evaluate_stream", None, "read + score (streamed)")
    score_pair = run._score_pair

    def timed_score_pair(*a, **k):
        try:
            return score_pair(*a, **k)
        finally:
            if marks[-1][0] not in ("read + score (streamed)", "read + score (shares)"):
                mark("evaluate")

    run._score_pair = timed_score_pair
    import corefreport.cli.reporting as reporting

    reporting._score_pair = timed_score_pair
    wrap(reporting, "_score_shares", None, "read + score (shares)")
    wrap(run, "render", None, "render")
    if sys.argv[1:2] == ["report"]:
        wrap_report()
    atexit.register(report)
    import os

    exit_now = os._exit

    def exit_reported(code: int) -> None:  # main() ends the process with os._exit after flushing
        mark("main returned")
        report()
        exit_now(code)

    os._exit = exit_reported
    sys.argv = ["corefreport", *sys.argv[1:]]
    try:
        cli.main()
    finally:
        mark("main returned")


def wrap_report() -> None:
    """Phases of ``corefreport report``: the summary's intervals, the view model, the HTML, the
    PDF's layout and writing (``weasyprint.HTML.render`` / ``Document.write_pdf``)."""
    import corefreport.report.document as doc
    import corefreport.report.pdf as pdf

    wrap(doc, "summary_intervals", None, "intervals")
    wrap(doc, "build", None, "view model")
    wrap(doc, "to_html", None, "html")
    wrap(pdf, "to_html", None, "html")
    render_pdf = pdf.render_pdf

    def timed_render_pdf(html, progress=None):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            import weasyprint
        mark("import weasyprint")
        wrap(weasyprint.HTML, "render", None, "pdf layout")
        wrap(weasyprint.document.Document, "write_pdf", None, "pdf write")
        return render_pdf(html, progress)

    pdf.render_pdf = timed_render_pdf


if __name__ == "__main__":
    main()
