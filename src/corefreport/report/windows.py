"""The report's section of windows (``--window N``): the full documents and the windows side by side
(each score's F1 both ways and what the cut costs), the key's antecedent links found within one
window and across windows, and the windows' scores with their numerators and denominators; with
several systems, each system's side by side and then, per system, the differences on the full
documents, on the windows and of the links' recall with their intervals and p-values. The tables
are :mod:`corefreport.present.windows`' — the same as ``score`` and ``compare`` print — so nothing
is computed here."""

from __future__ import annotations

from ..present.windows import comparison_tables, headline_table, links_table, side_by_side_table, windows_table
from .structure import Para, Section

TITLE = "Full documents and windows"


def rule(size: int) -> str:
    """The section's paragraph: how documents are cut and what the links are."""
    return (f"Every document is also cut into windows of {size} words, as systems that cannot read a whole book are "
            "run on windows (BookCoref's split configuration, Martinelli et al. 2025): a window closes at the end of "
            f"the first sentence that brings it to {size} words or more, a mention is in the window of its first "
            "word, and a chain cut by a window border becomes one chain per window, on the key's side and the "
            "response's. Each window is scored as a document, micro over the documents — what the reference scorer "
            "gives on the files cut into windows. The difference of F1 says what the cut costs (or gains: a chain "
            "cut into pieces is easier to get right). Antecedent links pair each mention with the nearest earlier "
            "mention of its chain; a key link is within one window when both mentions are, across windows "
            "otherwise (the cross-context links of Martinelli, Gatti & Navigli 2025), and found when the response "
            "puts both mentions in one chain of the full document.")


def windows_section(ev) -> Section | None:
    """One pair's windows (none without ``--window``)."""
    w = ev.windows
    if w is None:
        return None
    return Section("windows", TITLE, [Para(rule(w.size)), side_by_side_table(w), links_table(w), windows_table(w)])


def systems_windows_section(evaluations: dict, comparison=None) -> Section | None:
    """Several systems' windows (the baseline first) and the differences (``comparison``:
    :class:`~corefreport.study.windows.WindowsComparison`)."""
    first = next(iter(evaluations.values()))
    if first.windows is None:
        return None
    blocks: list = [Para(rule(first.windows.size) + (
        " Then each system against the baseline, on the full documents and on the windows: the difference with its "
        "95 % interval and p-value from a paired bootstrap and approximate randomization over the documents "
        "(Koehn 2004; Riezler & Maxwell 2005)." if comparison is not None else ""))]
    for name, ev in evaluations.items():
        t = headline_table(ev.windows)
        t.title = f"{name}: {t.title}"
        blocks.append(t)
    if comparison is not None:
        blocks += comparison_tables(comparison)
    return Section("windows", TITLE, blocks)
