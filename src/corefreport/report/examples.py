"""Error examples in their sentences, as cort's error visualisation shows them (Martschat, Göckel &
Strube 2015, "Analyzing and Visualizing Coreference Resolution Errors", NAACL demos): for each
analysis, the most frequent error groups — outcome, class and type of the referent — with a few
example links each, the sentence shown with the referent and both antecedents marked.

Every group is a group-by over the analysis' outcome rows on outcome, class and type (TP rows are
not errors), every example a filter of them: one pass partitions the rows by analysis, outcome,
class and type (:func:`partition`), which gives each group's count — the same as
:func:`~corefreport.scoring.outcomes.group_by`'s ``key_total + fp``, tested — and its rows. The tokens and their roles come from
:func:`corefreport.present.context.context`, the same function the TUI's link-in-context view
uses; this module only chooses the examples and trims long sentences.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..present.context import Piece, context
from ..present.why import why
from ..present.sampling import spread_over_documents
from ..present.tables import Table
from ..scoring.digest import ORDER, GroupKey, RowList
from ..present.labels import SHORT_ANALYSIS
from ..scoring.outcomes import ERRORS_FIRST_ORDER, LinkOutcome
from ..scoring.registry import REGISTRY, ROW_ANALYSES
from ..scoring.result import Evaluation

GROUPS = 3
"""Error groups shown per analysis (the most frequent)."""
PER_GROUP = 3
"""Example links per group."""
WINDOW = 8
"""Tokens kept on each side of a marked span in a long sentence (the rest is "…")."""
LONG = 2 * WINDOW + 8
"""A sentence of more tokens than this is trimmed around its marks."""
CANDIDATES = 400
"""Rows of a group looked at when choosing its examples (in document order)."""
TITLES = {"typed": "Type-aware evaluation (Žitkus et al. 2023)"}
ERROR_ORDER = {o: k for k, o in enumerate(ERRORS_FIRST_ORDER)}


@dataclass(frozen=True, slots=True)
class Example:
    """One link: where it is, its context (tokens with roles, "…" pieces where text was cut) and why."""

    doc_id: str
    sentence: str
    pieces: list[Piece]
    why: str
    row: LinkOutcome | None = None
    href: str = ""
    """The anchor of the referent in its document's running text (:mod:`.doctext`), when shown."""


@dataclass(slots=True)
class ExampleGroup:
    """The most frequent errors of one outcome, class and type in one analysis."""

    analysis: str
    outcome: str
    cls: str
    type: str
    count: int
    errors: int
    """All error rows of the analysis (the group's share is ``count / errors``)."""
    examples: list[Example] = field(default_factory=list)

    @property
    def label(self) -> str:
        typ = self.type.split("/", 1)[-1] if self.type.startswith(self.cls + "/") else self.type
        return f"{self.outcome} · {self.cls} › {typ}" if typ and typ != self.cls else f"{self.outcome} · {self.cls}"


@dataclass(slots=True)
class Examples:
    """A report block: the error groups of one analysis, most frequent first."""

    analysis: str
    title: str
    groups: list[ExampleGroup]
    note: str = ""


def trim(pieces: list[Piece], window: int = WINDOW) -> list[Piece]:
    """``pieces`` with tokens more than ``window`` tokens away from any marked token replaced by one
    "…" piece per cut (sentences of at most :data:`LONG` tokens are kept whole).

    >>> ps = [Piece(str(i), "referent" if i == 20 else "") for i in range(40)]
    >>> [p.text for p in trim(ps, 2)]
    ['…', '18', '19', '20', '21', '22', '…']
    """
    if len(pieces) <= LONG:
        return pieces
    marked = [i for i, p in enumerate(pieces) if p.role]
    if not marked:
        return pieces
    keep = [any(abs(i - m) <= window for m in marked) for i in range(len(pieces))]
    out: list[Piece] = []
    for i, p in enumerate(pieces):
        if keep[i]:
            out.append(Piece(p.text, p.role, p.tag, p.gap and bool(out) and out[-1].text != "…"))
        elif not out or out[-1].text != "…":
            out.append(Piece("…"))
    return out


def runs(pieces: list[Piece]) -> list[Piece]:
    """Consecutive tokens of one marked span joined into one piece (one box, one underline).

    >>> [(p.text, p.role, p.tag) for p in runs([Piece("the", "key"), Piece("dog", "key", "[K]"), Piece("saw"),
    ...                                          Piece("it", "referent")])]
    [('the dog', 'key', '[K]'), ('saw', '', ''), ('it', 'referent', '')]
    """
    out: list[Piece] = []
    for p in pieces:
        prev = out[-1] if out else None
        if prev is not None and p.role and p.role == prev.role and not prev.tag and not p.gap:
            out[-1] = Piece(prev.text + " " + p.text, p.role, p.tag, prev.gap)
        else:
            out.append(p)
    return out


def _pick(ev: Evaluation, rows: list[LinkOutcome], n: int, shown: set | None = None) -> list[LinkOutcome]:
    """``n`` rows, from different documents where possible, referents not ``shown`` for an earlier
    analysis and shorter contexts first; deterministic."""
    shown = shown if shown is not None else set()
    cand = sorted(rows, key=ORDER)[:CANDIDATES]  # the order a digest keeps its first rows in
    sized = sorted(cand, key=lambda r: (_unmarked(r), (r.doc_id, r.span) in shown, _span_of_context(r) > LONG,
                                        r.doc_id, r.start))
    return spread_over_documents(sized, n)


def _unmarked(r: LinkOutcome) -> bool:
    """Whether the antecedent that makes the error is missing from the row (an FN without the key's
    antecedent, an FP or WL without the response's): such links are shown last."""
    if r.outcome == "FN":
        return r.key_antecedent is None
    if r.outcome == "FP":
        return r.response_antecedent is None
    return r.key_antecedent is None or r.response_antecedent is None


def _span_of_context(r: LinkOutcome) -> int:
    """Tokens from the earliest antecedent to the referent (a cheap stand-in for the context's size)."""
    starts = [r.start] + [s[0] for s in (r.key_antecedent, r.response_antecedent) if s]
    return r.end - min(starts) + 1


def examples(ev: Evaluation, analysis: str, groups: int = GROUPS, per_group: int = PER_GROUP,
             rows: list[LinkOutcome] | None = None, shown: set | None = None) -> Examples | None:
    """The ``groups`` most frequent error groups of ``analysis`` with ``per_group`` examples each;
    None when the analysis has no error row. ``rows``: the analysis' rows, when already selected;
    ``shown``: (document, span) of referents shown already (avoided where possible, then added to)."""
    sizes, parts = (ev.outcomes if rows is None else RowList(rows)).groups(CANDIDATES)
    return _examples(ev, analysis, _top_groups(sizes, groups).get(analysis, []), parts, per_group,
                     shown if shown is not None else set())


def _top_groups(sizes: dict[GroupKey, int], groups: int) -> dict[str, list[tuple[GroupKey, int, int]]]:
    """Per analysis, its ``groups`` most frequent error groups (TP is not an error) as (key, rows of
    the group, error rows of the analysis), most frequent first — ties by the kind of error
    (:data:`ERROR_ORDER`), then by outcome, class and type. ``sizes``: rows per group."""
    errors: dict[str, dict[str, tuple[GroupKey, int]]] = {}
    for k, n in sizes.items():
        if k[1] != "TP":
            errors.setdefault(k[0], {})["\t".join(k[1:])] = (k, n)
    out: dict[str, list[tuple[GroupKey, int, int]]] = {}
    for analysis, errs in errors.items():
        total = sum(n for _k, n in errs.values())
        ranked = sorted(errs.items(), key=lambda kv: (-kv[1][1], ERROR_ORDER.get(kv[1][0][1], 9), kv[0]))
        out[analysis] = [(k, n, total) for _s, (k, n) in ranked[:groups]]
    return out


def _examples(ev: Evaluation, analysis: str, top: list[tuple[GroupKey, int, int]],
              members: dict[GroupKey, list[LinkOutcome]], per_group: int, shown: set) -> Examples | None:
    """The block of one analysis: its groups ``top`` with ``per_group`` examples each chosen from
    ``members`` (referents in ``shown`` avoided where possible, those chosen added)."""
    if not top:
        return None
    out: list[ExampleGroup] = []
    for k, n, total in top:
        _a, outcome, cls, typ = k
        g = ExampleGroup(analysis, outcome, cls, typ, n, total)
        for r in _pick(ev, members[k], per_group, shown):
            shown.add((r.doc_id, r.span))
            g.examples.append(Example(r.doc_id, r.features.get("sentence", ""), runs(trim(context(ev, r, max_gap=1))),
                                      why(ev, r), r))
        out.append(g)
    title = REGISTRY[analysis].title if analysis in REGISTRY else TITLES.get(analysis, analysis)
    return Examples(analysis, title, out)


def example_blocks(ev: Evaluation) -> list[Examples]:
    """The error examples of every analysis computed (ARCS scenarios, typed), in that order: one
    pass over all outcome rows (:func:`partition`) gives every group's size and rows — or, for an
    evaluation that kept only their digest (:mod:`corefreport.scoring.digest`), its group sizes
    and the first :data:`CANDIDATES` rows of each error group, which are all :func:`_pick` reads."""
    if ev.key_corpus is None:
        return []
    sizes, parts = ev.outcomes.groups(CANDIDATES)
    top = _top_groups(sizes, GROUPS)
    shown: set = set()
    analyses = [r.name for r in ROW_ANALYSES.values() if r.examples]
    return [x for a in analyses if (x := _examples(ev, a, top.get(a, []), parts, PER_GROUP, shown)) is not None]


def _typesettable(text: str) -> bool:
    """Whether pdflatex with T1 fonts sets ``text`` as it is (Latin-1 and the typographic marks the
    LaTeX renderer maps)."""
    from ..present.latex import UNICODE

    return all(ord(c) < 256 or c in UNICODE for c in text)




def examples_table(blocks: list[Examples]) -> Table:
    """The compact form for LaTeX: per analysis, its most frequent error groups with their count,
    their share of the analysis' errors and the referent of the first example (no sentences)."""
    t = Table("Most frequent errors per analysis", ["analysis", "outcome", "group", "n", "share", "example"],
              labels=["Analysis", "Outcome", "Class › type", "n", "% of errors", "Example referent"])
    for b in blocks:
        if t.rows:
            t.breaks.append(len(t.rows))
        for g in b.groups:
            texts = [e.row.text for e in g.examples if e.row is not None]
            ex = next((x for x in texts if _typesettable(x)), "")  # pdflatex sets Latin-1 text, not IPA
            t.rows.append([SHORT_ANALYSIS.get(b.analysis, b.analysis), g.outcome, g.label.split(" · ", 1)[1], g.count,
                           g.count / g.errors, ex if len(ex) <= 30 else ex[:29] + "…"])
    t.note = ("n: error rows of the group; % of the analysis' error rows (all outcomes but TP); the examples in their "
              "sentences are in the HTML and PDF reports.")
    return t
