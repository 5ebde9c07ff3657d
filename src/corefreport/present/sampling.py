"""Choosing the few examples a table or a report shows: spread over documents first."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar


class _InDocument(Protocol):
    doc_id: str


T = TypeVar("T", bound=_InDocument)


def spread_over_documents(items: Iterable[T], k: int, fill: bool = True) -> list[T]:
    """Up to ``k`` of ``items`` in their order, the first of each document first; with ``fill``,
    a corpus with fewer documents than ``k`` gives further items of the same documents.

    >>> from types import SimpleNamespace as N
    >>> rows = [N(doc_id=d, i=i) for i, d in enumerate("aabbc")]
    >>> [r.i for r in spread_over_documents(rows, 3)], [r.i for r in spread_over_documents(rows, 4)]
    ([0, 2, 4], [0, 2, 4, 1])
    >>> [r.i for r in spread_over_documents(rows[:2], 2, fill=False)]
    [0]
    """
    pool = list(items)
    out: list[T] = []
    docs: set[str] = set()
    for r in pool:
        if len(out) == k:
            return out
        if r.doc_id not in docs:
            out.append(r)
            docs.add(r.doc_id)
    if fill:
        for r in pool:
            if len(out) == k:
                break
            if r not in out:
                out.append(r)
    return out
