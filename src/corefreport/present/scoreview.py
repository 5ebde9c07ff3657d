"""What ``corefreport score`` prints (``-f table``): the corpus sizes, the metrics table (R, P, F1
with numerators and denominators), the analyses' tables, per-document F1 and the signature —
built once as :class:`~.plain.Block`\\ s, drawn by Rich on a terminal
(:func:`corefreport.present.terminal.draw`) and as the same characters without Rich in a pipe or a
file (:func:`corefreport.present.plain.render`)."""

from __future__ import annotations

import sys
from typing import TextIO

from ..scoring.result import Evaluation
from .labels import METRIC_LABELS, short_path
from .numbers import cell, count, is_score_column, pct
from .plain import Block, Cell, fits, inert_block, line, render
from .table import grouped_labels
from .tables import Table, all_tables, mentions_label, metrics_table, per_document_table, scored_sizes


def evaluation_blocks(ev: Evaluation, per_doc: bool = False, tty: bool = False, extra: list[Table] = ()
                      ) -> list[Block]:
    """The blocks of a score's terminal view (``tty``: the styles a terminal shows; ``extra``: more
    tables after the evaluation's own, such as the scores per group of documents)."""
    blocks = [_sizes(ev)]
    if scored := scored_sizes(ev):
        blocks.append(line(scored, "dim"))
    blocks.append(_metrics(ev))
    for more in [*all_tables(ev)[1:], *extra]:
        blocks.extend(table_blocks(more, tty))
    if per_doc:
        pt = per_document_table(ev)
        blocks.append(Block("boxed", "per document, worst first", tuple(METRIC_LABELS.get(h, h) for h in pt.header),
                            tuple((str(row[0]), *[pct(v) for v in row[1:]]) for row in pt.rows),
                            "l" + "r" * (len(pt.header) - 1), fit=True, first_width=36))
    blocks.append(line(str(ev.signature), "dim", soft_wrap=True))
    return blocks


def _sizes(ev: Evaluation) -> Block:
    rows = tuple((label, str(st.documents), str(st.mentions), str(st.chains), str(st.singletons), short_path(src))
                 for label, st, src in (("key", ev.key_stats, ev.key_source),
                                        ("response", ev.response_stats, ev.response_source)))
    return Block("grid", header=("", "docs", "mentions", "chains", "singletons", "file"), rows=rows, justify="lrrrrl")


def _metrics(ev: Evaluation) -> Block:
    rows: list[tuple[Cell, ...]] = []
    for name, rr, pp, ff, rn, rd, pn, pd in metrics_table(ev).rows:
        label = mentions_label(ev) if name == "mentions" else METRIC_LABELS.get(name, name)
        if name in ev.derived:  # CoNLL: the mean of its parts' F1
            rows.append((label, "", "", (pct(ff), "bold"), "", ""))
        elif rn is None:  # BLANC: link counts of two kinds do not make one fraction (see the JSON)
            rows.append((label, pct(rr), pct(pp), pct(ff), "", ""))
        else:
            rows.append((label, pct(rr), pct(pp), pct(ff), f"{count(rn)}/{count(rd)}", f"{count(pn)}/{count(pd)}"))
    return Block("boxed", header=("metric", "R", "P", "F1", "R num/den", "P num/den"), rows=tuple(rows),
                 justify="lrrrrr", styles=("bold", "", "", "", "dim", "dim"))


def table_blocks(t: Table, tty: bool = False) -> list[Block]:
    """Any neutral :class:`~.tables.Table`: scores as percentages, counts as numbers, under a
    title and above its note. A table whose last column is ``explanation`` (sentences) is one
    line per row."""
    out: list[Block] = []
    if t.header and t.header[-1] == "explanation":
        out.append(line(t.title, "italic" if tty else ""))
        for row in t.rows:
            out.append(Block("line", parts=((" · ".join(str(c) for c in row[:-1]) + ": ", "bold" if tty else ""),
                                            (str(row[-1]), ""))))
    else:
        header = column_names(t)
        rows = []
        for row in t.rows:
            cells = [METRIC_LABELS.get(row[0], str(row[0])) if isinstance(row[0], str) else str(row[0])]
            for h, v in zip(t.header[1:], row[1:]):
                cells.append("n/a" if v is None and is_score_column(h) else cell(v, h))
            rows.append(tuple(cells))
        if t.keys > 1:  # the columns that name a row as one, repeated in every part of a cut table
            header = (" · ".join(header[:t.keys]), *header[t.keys:])
            rows = [(" · ".join(r[:t.keys]), *r[t.keys:]) for r in rows]
        out.append(Block("boxed", t.title, header, tuple(rows), "l" + "r" * (len(header) - 1), fit=True,
                         first_width=28))
    if t.note:
        out.append(line(t.note, "dim"))
    return out


def column_names(t: Table) -> tuple[str, ...]:
    """The column names a score's text view shows: the table's display labels (``R``, ``P``,
    ``S*``, the registry's metric labels), else its header keys with each metric key as its label
    (``cumulative_muc_f1`` → ``cumulative MUC f1``); where two columns would read alike, each is
    prefixed by its column group, the words all groups share dropped (the error classes' Δ F1 fixed
    cumulatively and alone: ``cumulatively MUC``, ``alone MUC``).

    >>> column_names(Table("", ["class", "a_muc", "b_muc"], groups=[("Fixed first (Δ)", 1), ("Fixed alone (Δ)", 1)],
    ...                    labels=["Class", "MUC", "MUC"]))
    ('Class', 'first MUC', 'alone MUC')
    """
    if t.labels and len(t.labels) == len(t.header):
        names = list(t.labels)
    else:
        names = [METRIC_LABELS.get(h) or " ".join(METRIC_LABELS.get(w, w) for w in h.split("_")) for h in t.header]
    if not t.groups or len(set(names)) == len(names):
        return tuple(names)
    groups = [g.split(" (")[0].split() for g, _ in t.groups]
    named = [g for g in groups if g]
    shared = 0
    while named and all(len(g) > shared + 1 and g[shared] == named[0][shared] for g in named):
        shared += 1
    return tuple(grouped_labels(names, [(" ".join(words[shared:]), n) for words, (_, n) in zip(groups, t.groups)]))


def print_evaluation(ev: Evaluation, per_doc: bool = False, file: TextIO | None = None,
                     color: bool | None = None, extra: list[Table] = ()) -> None:
    """Print the terminal view of ``ev`` to ``file`` (stdout): through Rich on a terminal or with
    ``color=True``, else as plain text when :func:`~.plain.fits` says that is what Rich prints."""
    out = file or sys.stdout
    tty = out.isatty() if hasattr(out, "isatty") else False
    show(evaluation_blocks(ev, per_doc, tty, extra), out, color)


def show(blocks: list[Block], file: TextIO | None = None, color: bool | None = None) -> None:
    """Print ``blocks`` to ``file`` (stdout), every text in them inert (ids, names, tokens: text
    only): through Rich on a terminal or with ``color=True``, else as plain text when
    :func:`~.plain.fits` says that is what Rich prints."""
    out = file or sys.stdout
    tty = out.isatty() if hasattr(out, "isatty") else False
    blocks = [inert_block(b) for b in blocks]
    if not tty and color is not True and fits(blocks):
        out.write(render(blocks))
        return
    from .terminal import draw

    draw(blocks, out, color)
