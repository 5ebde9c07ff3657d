"""A grouping of documents given as a file (``score --subsets FILE``): one document a line,
``DOC_ID<TAB>GROUP``; blank lines and lines starting with ``#`` are skipped. A line without two
fields or a document id given twice is an error naming the line."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError


def read_groups(path: str, what: str = "group") -> dict[str, str]:
    """Document id → group, in file order. ``what``: the word for a group in the messages
    (``topic`` for ``--topic-from FILE``: "the topics file", ``DOC_ID<TAB>TOPIC``)."""
    name, column = f"the {what}s file", what.upper()
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(path, None, f"{name} is not UTF-8 text") from None
    except OSError as err:
        raise InputError(path, None, f"cannot read {name}: {err.strerror or err}") from None
    out: dict[str, str] = {}
    lines: dict[str, int] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        cols = [c.strip() for c in raw.split("\t")]
        if len(cols) != 2 or not all(cols):
            raise InputError(path, n, f"a line is DOC_ID<TAB>{column}, got {len(cols)} field(s): {raw.strip()[:60]!r}")
        doc, group = cols
        if doc in out:
            raise InputError(path, n, f"document {doc!r} is also on line {lines[doc]}")
        out[doc], lines[doc] = group, n
    if not out:
        raise InputError(path, None, f"{name} names no document (lines DOC_ID<TAB>{column})")
    return out
