"""The report's section of strata of entities (``--strata``): per stratification, the F1 of every
score per stratum and the full table (R, P, F1 with numerators and denominators); with several
systems, each system's F1 per stratum and then, per system, the difference per stratum and score
with its interval and p-value. The tables are :mod:`corefreport.present.strata`'s — the same as
``score`` and ``compare`` print — so nothing is computed here."""

from __future__ import annotations

from ..present.strata import comparison_tables, headline_table, strata_table
from .structure import Para, Section

TITLE = "Scores per stratum of entities"

RULE = ("Each stratification puts every chain in one stratum by a property of its own — its mentions "
        "(chain length), the sentences from its first to its last mention (spread), or its entity type — and "
        "scores every metric on the chains of one stratum alone: key chains by their own property, response "
        "chains by theirs (the rule of Duron-Tejedor et al. 2023, who score long chains, short chains and "
        "singletons apart). A stratum's score is what the reference scorer gives on a key and a response each "
        "filtered to that stratum's chains: its denominators are its own chains' mentions, and a response mention "
        "whose chain falls in another stratum than its key mention's is found in neither. Each stratum is micro "
        "over the documents (its per-document counts summed).")


def strata_section(ev) -> Section | None:
    """One pair's strata (none without ``--strata``)."""
    if not ev.strata:
        return None
    blocks: list = [Para(RULE)]
    for st in ev.strata.values():
        blocks += [headline_table(st), strata_table(st)]
    return Section("strata", TITLE, blocks)


def systems_strata_section(evaluations: dict, comparisons=()) -> Section | None:
    """Several systems' strata (the baseline first) and the strata's deltas (``comparisons``:
    :class:`~corefreport.study.strata.StrataComparison`, one per stratification)."""
    first = next(iter(evaluations.values()))
    if not first.strata:
        return None
    blocks: list = [Para(RULE + (" Then each system against the baseline per stratum: the difference with its 95 % "
                                 "interval and p-value from a paired bootstrap and approximate randomization over "
                                 "the documents, each with its counts of the stratum (Koehn 2004; Riezler & Maxwell "
                                 "2005)." if comparisons else ""))]
    for k, spec in enumerate(first.strata):
        for name, ev in evaluations.items():
            t = headline_table(ev.strata[spec])
            t.title = f"{name}: {t.title}"
            blocks.append(t)
        if k < len(comparisons):
            blocks += comparison_tables(comparisons[k])
    return Section("strata", TITLE, blocks)
