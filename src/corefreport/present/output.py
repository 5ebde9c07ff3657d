"""Writing what a view produced: every file appears whole or not at all (a temporary file beside
it, synced and renamed when complete), and an existing file is never replaced without ``force``.
A symlink is written through to its target (the link kept); a device, a FIFO or ``/dev/stdout`` is
written to in place, never replaced.

Outcome rows and changed links are written as JSON lines, or as CSV when the name ends in
``.csv`` (spans as ``start-end``).
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from ..scoring.outcomes import LinkOutcome
from .inert import json_inert, terminal_text

if TYPE_CHECKING:  # numpy is loaded only when a comparison is made
    from ..scoring.compare import Comparison
    from ..scoring.result import Evaluation

ROW_FIELDS = ["analysis", "doc_id", "start", "end", "text", "outcome", "credit", "key_antecedent",
              "response_antecedent", "class", "type", "why"]
"""The CSV columns of outcome rows (the JSON lines carry every feature too); ``why``: what happened
to the referent, in words (:func:`~.why.why`; empty when the documents are not carried)."""


def _fd_link(path: Path) -> int | None:
    """The descriptor number when ``path`` names one of this process's open descriptors
    (``/dev/stdout``, ``/dev/fd/N``, ``/proc/self/fd/N``), followed hop by hop through symlinks:
    such a path means "this descriptor", as in the shell, not the file it happens to point at."""
    here = str(path)
    for _ in range(40):  # the kernel's own limit on a symlink chain
        parent, _sep, name = here.rpartition("/")
        if name.isdigit() and parent in ("/dev/fd", "/proc/self/fd", f"/proc/{os.getpid()}/fd"):
            return int(name)
        if not os.path.islink(here):
            return None
        here = os.path.join(os.path.dirname(here), os.readlink(here))
    return None


def output_target(path: Path, force: bool = False) -> tuple[str, Path]:
    """Where writing ``path`` goes, and how: ``("fd", path)`` for an open descriptor
    (``/dev/stdout``), ``("special", path)`` for a device, FIFO or socket (written to in place, never
    replaced, no ``force`` needed: writing to a device overwrites no file), ``("file", target)`` for a
    regular file or a new name, with a symlink followed to its target (replaced there, the link
    kept). Raises what the user must hear before anything is computed: :class:`FileExistsError` for
    an existing file without ``force``, :class:`IsADirectoryError` for a folder,
    :class:`FileNotFoundError` for a missing folder."""
    path = Path(path)
    if _fd_link(path) is not None:
        return "fd", path
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "it is a folder; give a file name", str(path))
    if mode is not None and not stat.S_ISREG(mode):
        return "special", target
    folder = target.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise FileNotFoundError(errno.ENOENT, f"the folder {folder} {what}", str(path))
    if mode is not None and not force:
        raise FileExistsError(f"{path} exists; use --force to overwrite it")
    return "file", target


def _write_all(fd: int, raw: bytes) -> None:
    """Every byte of ``raw`` to ``fd`` (a pipe or a device may take fewer at a time)."""
    view = memoryview(raw)
    while view:
        view = view[os.write(fd, view):]


def _write_in_place(kind: str, path: Path, raw: bytes, text: bool = False) -> None:
    """``raw`` written to a descriptor or a special file as it is: no temporary file, no rename. A
    ``text`` written to a terminal (``-o /dev/stdout``, ``-o /dev/tty``) is made inert first
    (:func:`~.inert.terminal_text`), as on standard output."""
    if kind == "fd":
        for stream in (sys.stdout, sys.stderr):  # what was printed before stays before
            try:
                stream.flush()
            except (OSError, ValueError, AttributeError):
                pass
        fd = os.dup(_fd_link(path))
    else:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))  # a FIFO waits here for its reader
    try:
        if text and os.isatty(fd):
            raw = terminal_text(raw.decode("utf-8")).encode("utf-8")
        _write_all(fd, raw)
    finally:
        os.close(fd)


def _replace_atomically(target: Path, raw: bytes) -> None:
    """``raw`` written to a temporary file beside ``target``, synced, then renamed over it: the
    file appears whole or not at all. The temporary file is removed on any error or interrupt
    (Ctrl-C, SIGTERM: both raise in this process)."""
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, target)
        tmp = None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def write_atomic(path: Path, data: bytes | str, force: bool = False) -> None:
    """Write ``data`` to ``path`` (see :func:`output_target`): a regular file through a temporary
    file in the same folder, synced and renamed; a symlink's target likewise, the link kept; a
    device, FIFO or ``/dev/stdout`` written to in place. :class:`FileExistsError` when a file exists
    and ``force`` is not given."""
    kind, target = output_target(Path(path), force)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if kind == "file":
        _replace_atomically(target, raw)
    else:
        _write_in_place(kind, target, raw, text=isinstance(data, str))


def _span(x) -> str:
    return "-".join(map(str, x)) if x else ""


def rows_text(rows: Iterable[LinkOutcome], csv_format: bool, ev: Evaluation | None = None) -> str:
    """Outcome rows as JSON lines (every field and feature, then ``why``) or CSV
    (:data:`ROW_FIELDS`); ``ev``: the evaluation they come from, whose documents say why each
    row got its outcome (:func:`~.why.why`; without it ``why`` is empty)."""
    from .why import why

    def said(r: LinkOutcome) -> str:
        return why(ev, r) if ev is not None and ev.key_corpus is not None else ""

    buf = io.StringIO()
    if csv_format:
        w = csv.writer(buf, lineterminator="\r\n")
        w.writerow(ROW_FIELDS)
        for r in rows:
            w.writerow([r.analysis, r.doc_id, r.start, r.end, r.text, r.outcome, r.credit, _span(r.key_antecedent),
                        _span(r.response_antecedent), r.cls, r.type, said(r)])
    else:
        for r in rows:
            buf.write(json_inert(json.dumps({**r.as_dict(), "why": said(r)}, ensure_ascii=False)) + "\n")
    return buf.getvalue()


def changed_links_text(cmp: Comparison, csv_format: bool) -> str:
    """Every referent whose outcome changed (:meth:`Comparison.link_rows`) as JSON lines or CSV;
    with ``-a errors``, then every Kummerfeld & Klein error of either system (:meth:`Comparison.error_rows`:
    ``analysis`` "errors", ``error_class``, ``errors``: only_baseline, only_system or both) — CSV
    columns :data:`~corefreport.scoring.compare.ERROR_LINK_FIELDS` added after the links'."""
    from ..scoring.compare import ERROR_LINK_FIELDS, LINK_FIELDS

    rows = cmp.link_rows()
    errors = cmp.error_rows()
    buf = io.StringIO()
    if csv_format:
        fields = list(LINK_FIELDS) + ([f for f in ERROR_LINK_FIELDS if f not in LINK_FIELDS] if errors else [])
        w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\r\n", restval="")
        w.writeheader()
        for r in rows + errors:
            w.writerow({k: _csv_value(v) for k, v in r.items()})
    else:
        for r in rows + errors:
            buf.write(json_inert(json.dumps(r, ensure_ascii=False)) + "\n")
    return buf.getvalue()


def _csv_value(v):
    """A span as ``start-end``, a list of spans as ``s-e s-e``."""
    if isinstance(v, list):
        if v and isinstance(v[0], list):
            return " ".join("-".join(map(str, x)) for x in v)
        return "-".join(map(str, v))
    return v
