"""Neutral tables of Kummerfeld & Klein (2013) error classes that the comparison and the views
share: per class, the errors and their cost of two systems with the paired tests
(:class:`~corefreport.scoring.compare.ErrorClassDelta`), and examples of errors with their
explanation (:mod:`.explain`). Builders read fields; they compute no score."""

from __future__ import annotations

from .sampling import spread_over_documents

from typing import TYPE_CHECKING

from .explain import explain
from .labels import short_doc
from .numbers import ascii_text, interval, p_value, pct, signed, signed_count
from .table import Table

if TYPE_CHECKING:
    from ..scoring.compare import Comparison
    from ..scoring.errorclasses import ErrorRow, ErrorsResult


def _star(t, alpha: float = 0.05) -> str:
    return "*" if t.significant(alpha) else ""


def compare_errors_table(cmp: Comparison, system: str) -> Table | None:
    """Per class: the errors of the baseline and ``system`` and their difference (``*``: p < 0.05,
    approximate randomization over documents), and the CoNLL F1 fixing the class gains for each
    (cumulatively, in the analyser's order) with its difference, interval and p-value."""
    rows = cmp.errors.get(system)
    if not rows:
        return None
    b = cmp.baseline
    t = Table(f"Error classes (Kummerfeld & Klein 2013): {system} vs {b}",
              ["class", f"errors_{b}", f"errors_{system}", "delta_errors", "p_errors",
               f"cost_{b}_f1", f"cost_{system}_f1", "delta_cost", "ci_cost", "p_cost"],
              groups=[("errors", 4), ("cost", 5)],
              labels=["class", b, system, "Δ", "p", b, system, "Δ", "95 % CI of Δ", "p"])
    for d in rows:
        c, x = d.count, d.cost
        t.rows.append([d.cls, c.baseline, c.system, ascii_text(signed_count(c.delta) + _star(c)), p_value(c.p),
                       x.baseline, x.system, ascii_text(signed(x.delta) + _star(x)), ascii_text(interval(x.delta_ci)),
                       p_value(x.p)])
    t.note = ("errors: count per class; cost: CoNLL F1 (%, Δ in points) gained by fixing the class after the classes above; "
              "a negative Δ cost: the class costs the system less")
    return t


def mention_set(er: ErrorsResult) -> str:
    """Which mentions the error classes see, in words (the same in every view and the Methods):
    the scores' (singletons kept or removed on both sides), or the analyser's mode T."""
    if er.drop_response_singletons:
        return ("the response's singletons dropped and the key's kept, as Kummerfeld & Klein's analyser does "
                "(its mode T, --errors-drop-response-singletons)")
    return f"the scores' mentions (singletons {'kept' if er.singletons == 'keep' else 'removed'} on both sides)"


def cost_start(er: ErrorsResult) -> str:
    """Where the costs start: "from the scored CoNLL F1 65.34" (empty without costs)."""
    f = er.scored()
    return f"from the scored CoNLL F1 {pct(f['conll'])}" if f else ""


def reading_note(er: ErrorsResult) -> str:
    """What the rows before the classes are (empty when there are none)."""
    from ..scoring.errorclasses import DROPPED, REPEATED

    notes = {REPEATED: f"{REPEATED}: the F1 change from reading each span written again once, in its first entity, "
                       "as the analyser does (the scores count it as the reference scorer does)",
             DROPPED: f"{DROPPED}: the F1 change from dropping the response's singletons (not an error class)"}
    return "; ".join(notes[r] for r in er.reading())


def examples(er: ErrorsResult, cls: str, k: int = 5) -> list[ErrorRow]:
    """Up to ``k`` errors of class ``cls`` (or of the leftover) from as many different documents as
    there are, in document order (the first of each document first)."""
    from ..scoring.errorclasses import LEFTOVER

    if cls != LEFTOVER:
        return spread_over_documents(er.example_rows(cls, k), k)
    # the leftover: surviving response mentions first, then key mentions still missing
    extra = spread_over_documents(er.example_rows(LEFTOVER + " extra", k), (k + 1) // 2)
    return extra + spread_over_documents(er.example_rows(LEFTOVER + " missing", k), k - len(extra))


def joined_types_table(er: ErrorsResult) -> Table:
    """Conflated Entities and Divided Entity by the types of the two sides wrongly joined or split
    (the piece's most informative mention type / the other side's), as in K&K's analysis."""
    by = er.tally("joined", "cls")
    pairs = sorted({p for p, _ in by})
    t = Table("Conflated and divided entities by the mention types joined or split",
              ["types", "Conflated Entities", "Divided Entity"],
              labels=["Piece / other side", "Conflated", "Divided"])
    for p in pairs:
        t.rows.append([p, by.get((p, "Conflated Entities"), 0), by.get((p, "Divided Entity"), 0)])
    t.note = ("piece: the mentions split off (Conflated) or merged in (Divided), typed by their most informative "
              "mention (NAME > NOMINAL > PRONOUN); other side: the entity they are wrongly joined to (Conflated: "
              "the key entity of the response entity's earliest non-pronoun) or apart from (Divided: the response "
              "entity holding the key entity's earliest non-pronoun), '-' where there is none")
    return t


def head_type_table(er: ErrorsResult) -> Table:
    """Errors per class by the most informative mention type among the error's mentions (NAME >
    NOMINAL > PRONOUN): a compact form of the per-type breakdown."""
    from ..scoring.errorclasses import CLASSES

    by = er.tally("cls", "head")
    types = [t for t in ("NAME", "NOMINAL", "PRONOUN") if any(k[1] == t for k in by)]
    t = Table("Error classes by the mention type of the error (its most informative mention)",
              ["class"] + types + ["total"])
    counts = er.counts()
    for c in CLASSES:
        t.rows.append([c] + [by.get((c, x), 0) for x in types] + [counts[c]])
    t.note = "an error's type: NAME if one of its mentions is a name, else NOMINAL if one is nominal, else PRONOUN"
    return t


def feature_table(er: ErrorsResult, feature: str) -> Table:
    """Errors per class and value of a mention feature of the error's first mention (NE type,
    genre; "-" or "" where the mention has none)."""
    from ..scoring.errorclasses import CLASSES
    from .labels import FEATURE_TITLES

    by = er.tally("cls", feature)
    values = sorted({v for _, v in by}, key=lambda v: (v in ("", "-"), v))
    from ..scoring.errorclasses import ROW_COLUMNS

    title = FEATURE_TITLES.get(feature, feature)
    whose = " of the error's mentions" if feature in ROW_COLUMNS else " of the error's first mention"
    t = Table(f"Error classes by {title}{whose}", ["class"] + [v or "-" for v in values])
    for c in CLASSES:
        t.rows.append([c] + [by.get((c, v), 0) for v in values])
    return t


def examples_table(er: ErrorsResult, k: int = 3) -> Table:
    """``k`` errors per class with their document, sentence and explanation."""
    from ..scoring.errorclasses import CLASSES, LEFTOVER

    t = Table(f"Error classes: {k} examples per class", ["class", "document", "explanation"])
    for c in CLASSES + (LEFTOVER,):
        ex = examples(er, c, k)
        if ex and t.rows:
            t.breaks.append(len(t.rows))
        for r in ex:
            t.rows.append([c, short_doc(r.doc_id), explain(r)])
    return t
