"""Export a table of the browser: every row as values (numbers unformatted), not only those on
screen, to a CSV or JSON file named after where the table is."""

from __future__ import annotations

import re
from pathlib import Path

from . import model as M


def slug(parts: list[str]) -> str:
    """A file name stem from the last breadcrumb parts (where you are), ASCII, at most ~50 characters."""
    import unicodedata

    def one(p: str) -> str:
        p = unicodedata.normalize("NFKD", p).encode("ascii", "ignore").decode()
        return re.sub(r"[^A-Za-z0-9._]+", "_", p).strip("_")

    words = [w for w in (one(p) for p in parts if p) if w]
    keep: list[str] = []
    for w in reversed(words):
        if keep and len("-".join([w] + keep)) > 40:
            break
        keep.insert(0, w[:40])
    return "corefreport-" + "-".join(keep) if keep else "corefreport"


def export_view(view: M.View, stem: str, fmt: str, directory: Path | None = None) -> Path:
    """Write every row of ``view`` as values (numbers unformatted; links with document ids and token
    offsets), not only the rows on screen, to ``stem.csv`` or
    ``stem.json`` in ``directory`` (default: the working directory), choosing ``stem-2``,
    ``stem-3``… rather than overwriting an existing file."""
    import csv
    import json

    directory = directory or Path.cwd()
    records = view.records()
    columns = list(records[0]) if records else list(view.columns)
    n = 1
    while True:
        path = directory / (f"{stem}.{fmt}" if n == 1 else f"{stem}-{n}.{fmt}")
        try:
            f = open(path, "x", encoding="utf-8", newline="")  # never overwrites, even in a race
        except FileExistsError:
            n += 1
            continue
        break
    with f:
        if fmt == "csv":
            w = csv.DictWriter(f, columns)
            w.writeheader()
            w.writerows(records)  # numbers as numbers (repr: no rounding), None as an empty cell
        else:
            json.dump(records, f, ensure_ascii=False, indent=1)
            f.write("\n")
    return path
