"""The ``corefreport`` command line.

:func:`main` is the console entry point. ``corefreport score`` with its everyday options runs
through :mod:`.fast` without importing typer (its option parsing alone costs ~0.1–0.2 s); every
other command line goes to the typer application of :mod:`.commands`, which also gives ``--help`` and
every usage error. ``from corefreport.cli import app`` (and the other names of :mod:`.commands`) still
work: they are loaded on first use.
"""

from __future__ import annotations

import sys


SUBMODULES = ("build", "commands", "compare", "fast", "options", "output", "report", "score", "spec", "tui")


def __getattr__(name: str):
    """``app``, ``example_paths``… from :mod:`.commands`, imported on first use."""
    import importlib

    if name in SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name.startswith("__"):
        raise AttributeError(name)
    commands = importlib.import_module(f"{__name__}.commands")
    try:
        return getattr(commands, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


INTERRUPTED = {2: 130, 15: 143}
"""Exit code of a run stopped by SIGINT (Ctrl-C) or SIGTERM (a batch system's ``kill``): 128 + signal."""


def _interrupted(signum, frame) -> None:  # pragma: no cover - runs in a subprocess
    """Ctrl-C and SIGTERM stop the run the same way: an exception in the main thread, so that every
    ``finally`` runs (the output writer removes its temporary file) before :func:`main` says so."""
    raise SystemExit(INTERRUPTED.get(signum, 128 + signum))


def interrupted_code(err: BaseException) -> int | None:
    """The exit code of :func:`_interrupted`'s ``SystemExit`` when ``err`` wraps it (a signal that
    lands while a class is being defined comes back as the ``RuntimeError`` of ``__set_name__``,
    the exit as its cause); None when it does not.

    >>> try:
    ...     raise RuntimeError("Error calling __set_name__") from SystemExit(143)
    ... except RuntimeError as err:
    ...     interrupted_code(err), interrupted_code(ValueError())
    (143, None)
    """
    seen: set[int] = set()
    while err is not None and id(err) not in seen:
        seen.add(id(err))
        if isinstance(err, SystemExit) and err.code in INTERRUPTED.values():
            return err.code
        err = err.__cause__ or err.__context__
    return None


def one_blas_thread(environ) -> None:
    """One OpenBLAS thread unless the user set ``OPENBLAS_NUM_THREADS``: numpy's OpenBLAS starts a
    thread per core when numpy is imported (60 of its 150 ms on 2 cores, more on a cluster node),
    and corefreport's matrix products (the bootstrap's ``W @ X``, 1,000 × documents × statistics)
    are as fast on one thread (measured on the 2,400-document shape: 16 ms vs 23 ms)."""
    environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def replace_unencodable(streams: tuple = ()) -> None:
    """Standard output and error (or ``streams``) in a legacy encoding write ``?`` for a character
    they cannot encode instead of raising :class:`UnicodeEncodeError`. Windows writes redirected
    output in its ANSI code page (cp1252), which lacks Δ, ≥, ∩, φ …; a Linux shell with
    ``PYTHONIOENCODING=latin-1`` does the same. A UTF-8 stream, or one that already replaces or
    escapes, is left as it is."""
    import codecs

    for stream in streams or (sys.stdout, sys.stderr):
        try:
            utf8 = codecs.lookup(stream.encoding or "ascii").name == "utf-8"
        except (AttributeError, LookupError):
            utf8 = False
        if not utf8 and getattr(stream, "errors", None) == "strict" and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError):  # a closed or detached stream: nothing will be written
                pass


def main() -> None:
    """Console-script entry point: Ctrl-C exits 130 and SIGTERM 143, each with ``corefreport:
    interrupted`` and no temporary file left behind; a closed pipe or a full disk exits with one
    error line, never a traceback. Once the output is flushed, the process ends at once
    (:func:`os._exit`): the interpreter's teardown of the corpus objects costs 0.1–0.2 s on a
    large corpus and there is nothing left for it to do."""
    import os
    import signal

    import importlib

    one_blas_thread(os.environ)
    replace_unencodable()
    study = importlib.import_module("corefreport.study.run")
    signal.signal(signal.SIGINT, _interrupted)
    signal.signal(signal.SIGTERM, _interrupted)
    study.FREEZE = True
    code: object = 0

    def stdout_id() -> tuple[int, int] | None:
        try:
            st = os.fstat(sys.__stdout__.fileno())
            return (st.st_dev, st.st_ino)
        except (OSError, ValueError, AttributeError):
            return None

    before = stdout_id()
    try:
        try:
            fast = importlib.import_module(f"{__name__}.fast")
            if not (fast.try_score(sys.argv[1:]) or fast.try_tui(sys.argv[1:]) or fast.try_report(sys.argv[1:])):
                importlib.import_module(f"{__name__}.commands").app()
        except SystemExit as exit_:
            code = exit_.code
        except Exception as err:  # Ctrl-C or SIGTERM inside an import, wrapped by Python
            code = interrupted_code(err)
            if code is None:
                raise
        pacified = False
        if "typer" in sys.modules:
            try:  # typer vendors click (typer._click) in recent releases; older ones depend on click
                from typer._click.utils import PacifyFlushWrapper
            except ImportError:  # pragma: no cover
                from click.utils import PacifyFlushWrapper

            pacified = isinstance(sys.stdout, PacifyFlushWrapper)
        if pacified or (code == 1 and stdout_id() != before):
            # click or rich swallowed a closed pipe (| head) and pointed stdout at /dev/null
            raise BrokenPipeError(32, "the reader closed the pipe")
        sys.stdout.flush()
    except KeyboardInterrupt:
        code = 130
    except OSError as err:
        # a closed pipe (| head) or a full device (> /dev/full): stdout is unusable; say so once
        try:
            sys.stderr.write(f"corefreport: error: cannot write the output: {err.strerror or err}\n")
        except OSError:
            pass
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        code = 2
    if code in INTERRUPTED.values():
        try:
            sys.stderr.write("corefreport: interrupted\n")
        except OSError:
            pass
    if code is None or isinstance(code, int):
        try:
            sys.stderr.flush()
        except OSError:
            pass
        os._exit(code or 0)
    raise SystemExit(code)
