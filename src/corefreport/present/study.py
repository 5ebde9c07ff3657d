"""A study (:mod:`corefreport.study.nodes`) in the output formats of ``score`` and ``compare``: JSON,
CSV, Markdown, LaTeX and the terminal table. One function per command, dispatching on the node's
type; each returns an :class:`Output` — the text of a file format (in pieces, so that a corpus of
thousands of documents is never one string) or the terminal view, drawn by :meth:`Output.show`.
The tables come from the node renderers beside this module; nothing here computes a score.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TextIO

from .inert import json_inert

if TYPE_CHECKING:
    from ..study.nodes import Study

FORMATS = ("table", "json", "csv", "markdown", "latex")


@dataclass(frozen=True)
class Output:
    """What a command writes: ``chunks`` (a file format's text, in pieces) or ``draw(file, color)``
    (the terminal table: Rich on a terminal, the same characters without it elsewhere)."""

    chunks: Iterable[str] | None = None
    draw: Callable[..., None] | None = None

    def text(self) -> str:
        """The whole output as one string (the terminal table without colour)."""
        if self.chunks is not None:
            return "".join(self.chunks)
        from io import StringIO

        buf = StringIO()
        self.draw(file=buf, color=False)
        return buf.getvalue()

    def show(self, file: TextIO | None = None) -> None:
        """Write it to ``file`` (stdout) as it comes."""
        if self.chunks is None:
            self.draw(file=file)
            return
        out = file or sys.stdout
        for chunk in self.chunks:
            out.write(chunk)


def _json(data: Any) -> Output:
    return Output([json_inert(json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)) + "\n"])


def _summary(fmt: str, *, data: dict, table, markdown: str, show, signature: object, label: str) -> Output:
    """A result of several evaluations (datasets, runs): ``data`` (JSON), ``table`` (CSV; LaTeX with
    the signature in its note), ``markdown``, ``show(file=…, color=…)`` (the terminal table)."""
    if fmt == "json":
        return Output([json.dumps(data, indent=2, ensure_ascii=False) + "\n"])
    if fmt == "csv":
        from .render import to_csv

        return Output([to_csv(table)])
    if fmt == "markdown":
        return Output([markdown])
    if fmt == "latex":
        from .render import latex_document

        return Output([latex_document([replace(table, note=f"{table.note}; {signature}")], label)])
    return Output(draw=show)


# --------------------------------------------------------------------------- score


def score_output(study: Study, fmt: str, per_doc: bool = False) -> Output:
    """What ``score`` writes for ``study``: a pair's scores (and its groups of documents), one system's
    runs, or one system's datasets."""
    from ..study.nodes import Datasets, Pair, Runs

    if isinstance(study, Pair):
        return evaluation_output(study.evaluation, fmt, per_doc, study.subsets)
    if isinstance(study, Runs):
        from . import runs as P

        rv = study.groups[0]
        return _summary(fmt, data=P.runs_data(rv), table=P.runs_table(rv), markdown=P.runs_markdown(rv),
                        show=lambda **kw: P.print_runs(rv, **kw), signature=rv.signature, label="tab:corefreport-runs")
    if isinstance(study, Datasets):
        from . import datasets as P

        dev = study.baseline
        return _summary(fmt, data=P.datasets_data(dev), table=P.datasets_table(dev, intervals=True),
                        markdown=P.datasets_markdown(dev),
                        show=lambda **kw: P.print_datasets(dev, **kw), signature=dev.signature,
                        label="tab:corefreport-datasets")
    raise TypeError(f"score renders one system: not {type(study).__name__}")


def _json_per_document(data: dict, ev) -> Iterator[str]:
    """``json.dumps(data | {"per_document": …}, indent=2, ensure_ascii=False) + "\\n"`` in pieces,
    one document at a time: a corpus of thousands of documents is never held as one dict of dicts
    (nor one string), so that ``score --per-doc`` runs in memory flat in the corpus size."""
    head = json_inert(json.dumps(data, indent=2, ensure_ascii=False))
    yield head[:-2] + ',\n  "per_document": {\n'
    last = len(ev.documents) - 1
    for k, d in enumerate(ev.documents):
        entry = json.dumps(d.as_dict(), indent=2, ensure_ascii=False).replace("\n", "\n    ")
        yield json_inert(f"    {json.dumps(d.doc_id, ensure_ascii=False)}: {entry}{',' if k < last else ''}\n")
    yield "  }\n}\n"


def evaluation_output(ev, fmt: str, per_doc: bool = False, subsets: tuple = ()) -> Output:
    """An evaluation in one output format (``subsets``: its scores per group of documents,
    :mod:`corefreport.study.subsets`, after its own tables)."""
    extra = []
    if ev.strata:  # --strata: per stratification, each stratum's scores (present/strata.py)
        from .strata import strata_tables

        extra = strata_tables(ev)
    if ev.windows is not None:  # --window: full documents and windows side by side, the links (present/windows.py)
        from .windows import windows_tables

        extra += windows_tables(ev)
    if subsets:
        from .subsets import subsets_data, subsets_table

        extra += [subsets_table(s) for s in subsets]
    if fmt == "json":
        from .jsondata import evaluation_data

        data = evaluation_data(ev)
        if subsets:
            data["subsets"] = {s.by: subsets_data(s) for s in subsets}
        if not per_doc or not ev.documents:
            if per_doc:
                data["per_document"] = {}
            return Output([json_inert(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"])
        return Output(_json_per_document(data, ev))
    from . import render as R
    from .tables import all_tables

    if fmt == "csv":
        return Output([R.tables_csv(all_tables(ev, per_doc=per_doc) + extra)])
    if fmt == "markdown":
        return Output(["\n".join(f"### {R.md_escape(t.title)}\n\n" + R.to_markdown(t)
                                 for t in all_tables(ev, per_doc=per_doc) + extra)])
    if fmt == "latex":
        return Output([R.latex_document(all_tables(ev, per_doc=per_doc) + extra)])
    from .scoreview import print_evaluation

    return Output(draw=lambda file=None, color=None: print_evaluation(ev, per_doc=per_doc, file=file, color=color,
                                                                       extra=extra))


# --------------------------------------------------------------------------- compare


def compare_output(study: Study, fmt: str, top: int = 3, examples: int = 2, min_support: int = 20) -> Output:
    """What ``compare`` writes for ``study``: systems on one key (and per group of documents), groups of
    runs, or systems on several datasets."""
    from ..study.nodes import Datasets, Runs, Systems

    if isinstance(study, Systems):
        return _systems(study, fmt, top, examples, min_support)
    from . import groupdeltas as P

    if isinstance(study, Runs):
        return _deltas(fmt, study.comparison, P.runs_comparison_tables(study.comparison),
                       "tab:corefreport-compare-runs")
    if isinstance(study, Datasets):  # the systems × datasets table, then each system's deltas
        from .datasets import main_table

        return _deltas(fmt, study.comparison, [main_table(study.systems),
                                               *P.datasets_comparison_tables(study.comparison)],
                       "tab:corefreport-compare-datasets")
    raise TypeError(f"compare renders several systems: not {type(study).__name__}")


def _systems(study, fmt: str, top: int, examples: int, min_support: int) -> Output:
    from . import render as R

    cmp = study.comparison
    groups = _groups_tables(study)
    strata = _strata_tables(study)
    windows = _windows_tables(study)
    if fmt == "json":
        data = cmp.as_dict()
        if study.subsets:
            data["subsets"] = systems_subsets_data(study)
        if study.strata:
            data["strata"] = systems_strata_data(study)
        if study.windows is not None:
            data["windows"] = systems_windows_data(study)
        return _json(data)
    if fmt == "csv":
        from .render import to_csv

        return Output([R.comparison_csv(cmp), *(to_csv(t) for t in groups), *(to_csv(t) for t in strata),
                       *(to_csv(t) for t in windows)])
    if fmt == "markdown":
        from .groupdeltas import markdown

        return Output([R.comparison_markdown(cmp, top, min_support)]
                      + ([markdown(groups, str(study.groups[0].signature))] if groups else [])
                      + ([markdown(strata, str(study.strata[0].signature))] if strata else [])
                      + ([markdown(windows, str(study.windows.signature))] if windows else []))
    if fmt == "latex":
        from .render import latex_document

        out = [R.comparison_latex(cmp)]
        for tables, nodes, label in ((groups, study.groups, "groups"), (strata, study.strata, "strata"),
                                     (windows, (study.windows,), "windows")):
            if tables:
                sig = str(nodes[0].signature)
                out.append("\n" + latex_document([replace(t, note=f"{t.note}; {sig}") for t in tables],
                                                  f"tab:corefreport-compare-{label}"))
        return Output(out)

    def draw(file=None, color=None) -> None:
        from .terminal import print_comparison

        print_comparison(cmp, file=file, color=color, top=top, examples=examples, min_support=min_support)
        for tables, nodes in ((groups, study.groups), (strata, study.strata), (windows, (study.windows,))):
            if tables:
                from .groupdeltas import blocks, print_blocks

                print_blocks(blocks(tables, str(nodes[0].signature)), file=file, color=color)

    return Output(draw=draw)


def _strata_tables(study) -> list:
    """Per stratification of the chains and system, the strata's deltas (``compare --strata``)."""
    from .strata import comparison_tables

    return [t for cmp in study.strata for t in comparison_tables(cmp)]


def _windows_tables(study) -> list:
    """Per system, the deltas on the full documents and on windows (``compare --window``)."""
    if study.windows is None:
        return []
    from .windows import comparison_tables

    return comparison_tables(study.windows)


def systems_windows_data(study) -> dict[str, Any]:
    """``windows``: each system's windows (``systems.<name>``, as ``score --window``) and the deltas
    (``comparison``: per setting, system and score the paired tests)."""
    return {"systems": {n: ev.windows.as_dict() for n, ev in study.evaluations.items()},
            "comparison": study.windows.as_dict()}


def systems_strata_data(study) -> dict[str, Any]:
    """``strata.<stratification>``: each system's strata (``systems.<name>``, as ``score --strata``)
    and the strata's deltas (``comparison``: per stratum, system and score the paired tests)."""
    out: dict[str, Any] = {}
    for cmp in study.strata:
        out[cmp.spec] = {"systems": {n: ev.strata[cmp.spec].as_dict() for n, ev in study.evaluations.items()},
                         "comparison": cmp.as_dict()}
    return out


def _groups_tables(study) -> list:
    """Per grouping of documents and system, the groups' deltas (``compare --subsets``)."""
    from .groupdeltas import groups_comparison_tables

    return [t for sub, cmp in zip(study.subsets, study.groups)
            for t in groups_comparison_tables(cmp, next(iter(sub.values())).by)]


def systems_subsets_data(study) -> dict[str, Any]:
    """``subsets.<grouping>``: each system's groups (``systems.<name>``, as ``score --subsets``)
    and, when compared, the groups' deltas (``comparison``: per system, group and score the paired
    tests; ``macro`` the stratified delta)."""
    from .groupdeltas import groups_comparison_data
    from .subsets import subsets_data

    out: dict[str, Any] = {}
    for k, sub in enumerate(study.subsets):
        by = next(iter(sub.values())).by
        entry: dict[str, Any] = {"systems": {n: subsets_data(s) for n, s in sub.items()}}
        if k < len(study.groups):
            entry["comparison"] = groups_comparison_data(study.groups[k])
        out[by] = entry
    return out


def _deltas(fmt: str, cmp, tables: list, label: str) -> Output:
    from . import groupdeltas as P

    sig = str(cmp.signature)
    if fmt == "json":
        return _json(cmp.as_dict())
    if fmt == "csv":
        from .render import to_csv

        return Output(["".join(to_csv(t) for t in tables)])
    if fmt == "markdown":
        return Output([P.markdown(tables, sig)])
    if fmt == "latex":
        from .render import latex_document

        return Output([latex_document([replace(t, note=f"{t.note}; {sig}") for t in tables], label)])
    return Output(draw=lambda file=None, color=None: P.print_blocks(P.blocks(tables, sig), file=file, color=color))


__all__ = ["FORMATS", "Output", "compare_output", "evaluation_output", "score_output", "systems_subsets_data"]
