#!/usr/bin/env python3
"""Phase timer of one real ``corefreport`` command line, in-process: where the wall-clock time goes.

    python bench/phases.py score bench-data/base.key bench-data/base.response -f json

Wraps (without changing them) the functions the CLI calls in order and prints, on stderr, the
milliseconds from the process start to each phase's end and each phase's own share:

* ``start-up``  interpreter, imports and option parsing, until the key is read;
* ``read key`` / ``read response``  the readers (``io.load_corpus``);
* ``evaluate``  statistics, signature, alignment and every metric (``scoring.evaluate.evaluate``);
* ``render``    the output (``cli.render``);
* ``exit``      from the end of rendering to the end of ``main`` (teardown after that is not seen
  here: compare the sum with the whole-process time of ``farm-bench``).
"""

from __future__ import annotations

import atexit
import sys
import time

T0 = time.perf_counter()
marks: list[tuple[str, float]] = []


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
    print("\n".join(out), file=sys.stderr)


def main() -> None:
    import corefreport.io as io_pkg

    mark("import corefreport.io")
    import corefreport.scoring.evaluate as ev_mod

    mark("import scoring.evaluate")
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
    wrap(ev_mod, "evaluate", None, "evaluate")
    wrap(run, "render", None, "render")
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


if __name__ == "__main__":
    main()
