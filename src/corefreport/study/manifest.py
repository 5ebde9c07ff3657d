"""Several key/response pairs named as datasets (``score --datasets``): a manifest file, or two
directories paired by file name.

* **Manifest**: one dataset a line, ``NAME<TAB>KEY<TAB>RESPONSE``; paths relative to the manifest's
  folder (absolute ones as they are); blank lines and lines starting with ``#`` are skipped. KEY and
  RESPONSE may be files, directories or globs (``gold/*.conll``: each one corpus, as ``score KEY
  RESPONSE`` reads them). A name given twice, a line without three fields (the fields counted are
  quoted), a carriage return inside a line, a path that does not exist or a glob that matches no
  file is an error naming the manifest's line. Lines end at LF (CRLF too); nothing else ends one.
* A **FIFO** manifest is waited for at most :data:`FIFO_WAIT` seconds for its first byte (a writer
  that never comes would block the open for ever, as ``cat``), then read to its end.
* **Two directories**: every file of KEYDIR (hidden files aside) is a dataset named by its stem
  (the name without its last suffix: ``en_gum-corefud-dev.conllu`` → ``en_gum-corefud-dev``), its
  response the file of RESPONSEDIR with the same stem. A key file without a response is an error
  (a ranking that silently left a dataset out would not be the task's); a response file without a
  key is reported (:attr:`DatasetFiles.unpaired`) and not scored.

Only the paths are found here; each dataset is read once by the caller (:func:`load_corpus`).
"""

from __future__ import annotations

import glob
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError

FIFO_WAIT = 10
"""Seconds a FIFO manifest is waited for before its first byte (then it is read to its end)."""


@dataclass(frozen=True, slots=True)
class DatasetSpec:
    """One dataset: its name and the paths of its key and response."""

    name: str
    key: str
    response: str


@dataclass(frozen=True, slots=True)
class DatasetFiles:
    """The datasets in order, and the response files no key file took (directory pairing)."""

    datasets: tuple[DatasetSpec, ...]
    unpaired: tuple[str, ...] = field(default=())


def read_manifest(path: str) -> DatasetFiles:
    """The datasets of a manifest (see the module docstring)."""
    manifest = Path(path)
    try:
        text = _manifest_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(path, None, "the manifest is not UTF-8 text") from None
    except OSError as err:
        raise InputError(path, None, f"cannot read the manifest: {err.strerror or err}") from None
    base = manifest.parent
    out: list[DatasetSpec] = []
    seen: dict[str, int] = {}
    for n, raw in enumerate(text.split("\n"), 1):
        raw = raw.removesuffix("\r")
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if "\r" in raw:
            raise InputError(path, n, f"a carriage return (CR) inside the line, after {raw.split(chr(13))[0][:60]!r}: "
                             "a line is NAME<TAB>KEY<TAB>RESPONSE ending at a newline")
        cols = [c.strip() for c in raw.split("\t")]
        if len(cols) != 3 or not all(cols):
            fields = ", ".join(repr(c if len(c) <= 40 else c[:39] + "…") for c in cols[:6])
            more = f", … ({len(cols) - 6} more)" if len(cols) > 6 else ""
            hint = " (a TAB at the end of the line?)" if len(cols) > 3 and not cols[-1] else \
                " (an empty field)" if len(cols) == 3 else ""
            raise InputError(path, n, f"a dataset line is NAME<TAB>KEY<TAB>RESPONSE, got {len(cols)} field(s){hint}: "
                             f"[{fields}{more}]")
        name, key, response = cols
        if name in seen:
            raise InputError(path, n, f"dataset {name!r} is also on line {seen[name]}")
        seen[name] = n
        paths = [_side_path(base, side, p, path, n, name) for side, p in (("key", key), ("response", response))]
        out.append(DatasetSpec(name, *paths))
    if not out:
        raise InputError(path, None, "the manifest names no dataset (lines NAME<TAB>KEY<TAB>RESPONSE)")
    return DatasetFiles(tuple(out))


def _side_path(base: Path, side: str, p: str, path: str, n: int, name: str) -> str:
    """The KEY or RESPONSE of manifest line ``n`` as the readers take it: a path relative to the
    manifest's folder ``base`` (absolute as it is), or a glob there that matches a file."""
    full = Path(p) if Path(p).is_absolute() else base / p
    if full.exists():
        return str(full)
    if glob.has_magic(p):
        from .read import expand

        pattern = p if Path(p).is_absolute() else os.path.join(glob.escape(str(base)), p)
        try:
            expand(pattern)
        except InputError:
            raise InputError(path, n, f"dataset {name!r}: {side} pattern {str(full)!r} matches no file") from None
        return pattern
    raise InputError(path, n, f"dataset {name!r}: {side} {str(full)!r} does not exist")


def _manifest_bytes(path: str) -> bytes:
    """The manifest's bytes; a FIFO's once its first byte comes within :data:`FIFO_WAIT` seconds
    (its open does not wait for a writer: ``O_NONBLOCK``, then ``poll``)."""
    if not stat.S_ISFIFO(os.stat(path).st_mode):
        return Path(path).read_bytes()
    import select

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP)
        if not poller.poll(FIFO_WAIT * 1000):
            raise InputError(path, None, f"a FIFO that nothing wrote to in {FIFO_WAIT} s: start the program that "
                             "writes the manifest first, or give a file")
        os.set_blocking(fd, True)
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _natural(p: Path) -> list:
    """Sort key: names with their numbers compared as numbers (``ds2`` before ``ds10``)."""
    return [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.split(r"(\d+)", p.name)]


def _by_stem(folder: Path, what: str) -> dict[str, Path]:
    try:
        files = sorted((p for p in folder.iterdir() if p.is_file() and not p.name.startswith(".")), key=_natural)
    except OSError as err:
        raise InputError(str(folder), None, f"cannot list the {what} directory: {err.strerror or err}") from None
    out: dict[str, Path] = {}
    for p in files:
        stem = p.stem
        if stem in out:
            raise InputError(str(p), None, f"two {what} files have the stem {stem!r} ({out[stem].name}, {p.name}): "
                             "one dataset each")
        out[stem] = p
    return out


def pair_directories(key_dir: str, response_dir: str) -> DatasetFiles:
    """The datasets of two directories paired by file stem (see the module docstring)."""
    for d, what in ((key_dir, "KEYDIR"), (response_dir, "RESPONSEDIR")):
        if not Path(d).is_dir():
            raise InputError(d, None, f"--datasets {what} is not a directory (a manifest is given alone: "
                             "--datasets MANIFEST)")
    keys, responses = _by_stem(Path(key_dir), "key"), _by_stem(Path(response_dir), "response")
    if not keys:
        raise InputError(key_dir, None, "the key directory holds no file")
    missing = [s for s in keys if s not in responses]
    if missing:
        raise InputError(response_dir, None, f"no response file for dataset {missing[0]!r} (key "
                         f"{keys[missing[0]].name}): name it {missing[0]}.<ext>"
                         + (f" ({len(missing) - 1} more missing)" if len(missing) > 1 else ""))
    return DatasetFiles(tuple(DatasetSpec(s, str(k), str(responses[s])) for s, k in keys.items()),
                        tuple(str(p) for s, p in responses.items() if s not in keys))


def dataset_files(first: str, second: str | None) -> DatasetFiles:
    """``--datasets MANIFEST`` (``second`` None) or ``--datasets KEYDIR RESPONSEDIR``."""
    if second is None:
        if Path(first).is_dir():
            raise InputError(first, None, "--datasets takes a MANIFEST file, or KEYDIR and RESPONSEDIR")
        return read_manifest(first)
    return pair_directories(first, second)
