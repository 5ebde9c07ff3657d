"""The JSON object of an evaluation (``score -f json``, docs/json-schema.md), as a dict: what the
command line prints and the Python API returns, built in one place."""

from __future__ import annotations

from typing import Any


def evaluation_data(ev, per_doc: bool = False) -> dict[str, Any]:
    """:meth:`Evaluation.as_dict` with each error row's explanation (``-a errors``); with
    ``per_doc`` also ``per_document`` (document id → its metrics and mention counts)."""
    data = ev.as_dict(per_doc=False)
    if ev.errors is not None:
        from .explain import with_explanations

        with_explanations(data["errors"], ev.errors.rows, ev.errors.leftovers)
    if per_doc:
        data["per_document"] = {d.doc_id: d.as_dict() for d in ev.documents}
    return data
