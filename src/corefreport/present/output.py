"""Writing what a view produced: every file appears whole or not at all (a temporary file beside
it, renamed when complete), and an existing file is never replaced without ``force``.

Outcome rows and changed links are written as JSON lines, or as CSV when the name ends in
``.csv`` (spans as ``start-end``).
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from ..scoring.outcomes import LinkOutcome

if TYPE_CHECKING:  # numpy is loaded only when a comparison is made
    from ..scoring.compare import Comparison

ROW_FIELDS = ["analysis", "doc_id", "start", "end", "text", "outcome", "credit", "key_antecedent",
              "response_antecedent", "class", "type"]
"""The CSV columns of outcome rows (the JSON lines carry every feature too)."""


def write_atomic(path: Path, data: bytes | str, force: bool = False) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename it.
    :class:`FileExistsError` when ``path`` exists and ``force`` is not given."""
    path = Path(path)
    if path.exists() and not force:
        raise FileExistsError(f"{path} exists; use --force to overwrite it")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent if str(path.parent) else ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        if not force and path.exists():
            raise FileExistsError(f"{path} exists; use --force to overwrite it")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _span(x) -> str:
    return "-".join(map(str, x)) if x else ""


def rows_text(rows: Iterable[LinkOutcome], csv_format: bool) -> str:
    """Outcome rows as JSON lines (every field and feature) or CSV (:data:`ROW_FIELDS`)."""
    buf = io.StringIO()
    if csv_format:
        w = csv.writer(buf, lineterminator="\r\n")
        w.writerow(ROW_FIELDS)
        for r in rows:
            w.writerow([r.analysis, r.doc_id, r.start, r.end, r.text, r.outcome, r.credit, _span(r.key_antecedent),
                        _span(r.response_antecedent), r.cls, r.type])
    else:
        for r in rows:
            buf.write(json.dumps(r.as_dict(), ensure_ascii=False) + "\n")
    return buf.getvalue()


def changed_links_text(cmp: Comparison, csv_format: bool) -> str:
    """Every referent whose outcome changed (:meth:`Comparison.link_rows`) as JSON lines or CSV."""
    from ..scoring.compare import LINK_FIELDS

    rows = cmp.link_rows()
    buf = io.StringIO()
    if csv_format:
        w = csv.DictWriter(buf, fieldnames=list(LINK_FIELDS), lineterminator="\r\n")
        w.writeheader()
        for r in rows:
            w.writerow({k: "-".join(map(str, v)) if isinstance(v, list) else v for k, v in r.items()})
    else:
        for r in rows:
            buf.write(json.dumps(r, ensure_ascii=False) + "\n")
    return buf.getvalue()
