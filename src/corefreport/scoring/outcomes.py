"""The outcome-row model: one row per referent and analysis; every table is a group-by over rows.

A *referent* is a mention that the key or the response links to an antecedent. Each analysis (ARCS
scenario 1 "immediate", scenario 2 "inferred", scenario 3 "anchor", Žitkus "typed") turns key and
response chains into :class:`LinkOutcome` rows:

========  =====================================================  =================
outcome   meaning                                                 counted for
========  =====================================================  =================
``TP``    antecedent right (and, typed: type right)               recall, precision
``WT``    typed only: antecedent right, type wrong                recall, precision
``WL``    wrong link: antecedent wrong (typed: type right)        recall, precision
``WTL``   typed only: antecedent and type wrong                   recall, precision
``FN``    the key has a referent the response does not resolve    recall
``FP``    the response resolves a mention the key does not        precision
========  =====================================================  =================

Each row carries a ``credit`` (its share of the numerator): ARCS credits TP 1 and WL 0; Žitkus et al.
(2023, eq. 53–54) credit TP k1, WT k2, WL k3, WTL k4. Then, for any group of rows,

    R = Σ credit / (TP + WT + WL + WTL + FN)
    P = Σ credit / (TP + WT + WL + WTL + FP)
    F = 2PR / (P + R);   accuracy = Σ credit / (TP + WT + WL + WTL)

which is exactly ARCS's R = tp/(tp+wl+fn), P = tp/(tp+wl+fp) (Tuggener 2014) when WT = WTL = 0.
Tables group rows by a column (``cls``, ``type``, ``doc_id``, a feature); drill-downs filter rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Callable, Iterable, Sequence

from .counts import Num, harmonic, ratio

Span = tuple[int, int]
def _by_fields(obj) -> tuple:
    """``__reduce__`` of a dataclass whose fields are its constructor's arguments, in order."""
    return type(obj), tuple(getattr(obj, f.name) for f in fields(obj))


OUTCOMES = ("TP", "WT", "WL", "WTL", "FN", "FP")
ERRORS_FIRST_ORDER = ("WTL", "WL", "WT", "FN", "FP")
"""The error outcomes, most telling first: the order error examples and error lists come in."""
OUTCOME_COLUMNS = ("credit", "key_referents", "response_referents")
"""Sufficient statistics of a group of rows: Σ credit, TP+WT+WL+WTL+FN, TP+WT+WL+WTL+FP."""


def outcome_formula(cols: Sequence[Num]) -> tuple[Num, Num, Num]:
    """Outcome rows (ARCS, Tuggener 2014; Žitkus et al. 2023, eqs. 37–39):
    R = Σ credit / (TP+WT+WL+WTL+FN), P = Σ credit / (TP+WT+WL+WTL+FP), F = 2PR / (P + R).

    >>> outcome_formula((3.0, 4, 6))
    (0.75, 0.5, 0.6)
    """
    r = ratio(cols[0], cols[1])
    p = ratio(cols[0], cols[2])
    return r, p, harmonic(p, r)




def typed_micro_formula(cols: Sequence[Num]) -> tuple[Num, Num, Num]:
    """Žitkus et al. (2023) micro average (eqs. 43–45): the outcome statistics of the attempted
    classes (3 columns per class, in class order) pooled, then :func:`outcome_formula`.

    Appendix C of the paper: classes d (one TP), p (one WL, credit k3 = 0.5), g (one FN):
    P = 1.5 / 2 = 0.75, R = 1.5 / 3 = 0.5.

    >>> typed_micro_formula((1.0, 1, 1,  0.5, 1, 1,  0.0, 1, 0))
    (0.5, 0.75, 0.6)
    """
    credit = key = resp = 0.0
    for i in range(0, len(cols), 3):
        credit = credit + cols[i]
        key = key + cols[i + 1]
        resp = resp + cols[i + 2]
    return outcome_formula((credit, key, resp))


def typed_macro_formula(cols: Sequence[Num], divisor: int | None = None) -> tuple[Num, Num, Num]:
    """Žitkus et al. (2023) macro average (eqs. 40–42; ``divisor`` = the n_a attempted classes, the
    default) or scheme coverage (eqs. 46–48; ``divisor`` = the scheme's n classes):
    P = Σ_i P_i / divisor, R = Σ_i R_i / divisor, F = 2PR / (P + R); an undefined P_i or R_i is 0.

    >>> typed_macro_formula((1.0, 1, 1, 0.0, 1, 0))   # one class right, one missed entirely
    (0.5, 0.5, 0.5)
    >>> typed_macro_formula((1.0, 1, 1, 0.0, 1, 0), divisor=5)[0]
    0.2
    """
    ps = rs = 0.0
    m = len(cols) // 3
    for i in range(m):
        ps = ps + ratio(cols[3 * i], cols[3 * i + 2])
        rs = rs + ratio(cols[3 * i], cols[3 * i + 1])
    d = (divisor if divisor is not None else m) or 1
    p, r = ps / d, rs / d
    return r, p, harmonic(p, r)


@dataclass(slots=True)
class LinkOutcome:
    """One referent's outcome in one analysis."""

    analysis: str
    doc_id: str
    start: int
    end: int
    text: str
    outcome: str
    credit: float = 0.0
    key_antecedent: Span | None = None
    response_antecedent: Span | None = None
    cls: str = ""
    type: str = ""
    features: dict[str, str] = field(default_factory=dict)

    def __reduce__(self):
        """Pickled as its field values (a pool's processes send rows): half the time and size of
        the default for a class with slots, which pickles a dict of them per row."""
        return _by_fields(self)

    @property
    def span(self) -> Span:
        return (self.start, self.end)

    def get(self, column: str) -> str:
        """Value of a row column or of a feature, for group-bys and filters."""
        if column in ("analysis", "doc_id", "text", "outcome", "cls", "type"):
            return getattr(self, column)
        return self.features.get(column, "-")

    @property
    def match_note(self) -> str:
        """How the row's mention was matched, in words, when not by identical words (``--match``
        head or partial): ``""`` otherwise. ``response_span``/``response_text`` are set by
        :func:`.matching.match_documents`."""
        span = self.features.get("response_span")
        if not span:
            return ""
        return (f" (matched by {self.features.get('match', '?')}: the response wrote "
                f"“{self.features.get('response_text', '')}”, tokens {span})")

    def as_dict(self) -> dict:
        return {
            "analysis": self.analysis,
            "doc_id": self.doc_id,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "outcome": self.outcome,
            "credit": self.credit,
            "key_antecedent": list(self.key_antecedent) if self.key_antecedent else None,
            "response_antecedent": list(self.response_antecedent) if self.response_antecedent else None,
            "class": self.cls,
            "type": self.type,
            "features": dict(self.features),
        }


@dataclass(slots=True)
class OutcomeCounts:
    """Counts of each outcome and the summed credit of a group of rows.

    R = Σ credit / (TP+WT+WL+WTL+FN), P = Σ credit / (TP+WT+WL+WTL+FP), F = 2PR / (P + R),
    accuracy = Σ credit / (TP+WT+WL+WTL) (:func:`outcome_formula`; ARCS credits TP 1, WL 0).

    >>> c = OutcomeCounts(tp=3, wl=1, fn=2, fp=1, credit=3.0)
    >>> c.recall, c.precision, round(c.f1, 4), c.accuracy
    (0.5, 0.6, 0.5455, 0.75)
    """

    tp: int = 0
    wt: int = 0
    wl: int = 0
    wtl: int = 0
    fn: int = 0
    fp: int = 0
    credit: float = 0.0

    def add(self, row: LinkOutcome) -> None:
        o = row.outcome
        if o == "TP":
            self.tp += 1
        elif o == "WL":
            self.wl += 1
        elif o == "FN":
            self.fn += 1
        elif o == "FP":
            self.fp += 1
        elif o == "WT":
            self.wt += 1
        elif o == "WTL":
            self.wtl += 1
        else:  # pragma: no cover - rows are built by our analyses only
            raise ValueError(f"unknown outcome {o!r}")
        self.credit += row.credit

    def __reduce__(self):
        """Pickled as its field values (see :meth:`LinkOutcome.__reduce__`)."""
        return _by_fields(self)

    def __iadd__(self, other: "OutcomeCounts") -> "OutcomeCounts":
        self.tp += other.tp
        self.wt += other.wt
        self.wl += other.wl
        self.wtl += other.wtl
        self.fn += other.fn
        self.fp += other.fp
        self.credit += other.credit
        return self

    @property
    def resolved(self) -> int:
        """TP + WT + WL + WTL: referents both sides resolve."""
        return self.tp + self.wt + self.wl + self.wtl

    @property
    def key_total(self) -> int:
        """S* of Žitkus et al.: TP + WT + WL + WTL + FN, the key referents."""
        return self.resolved + self.fn

    def stats(self) -> tuple[float, int, int]:
        """The sufficient statistics, in the order of :func:`outcome_formula`'s columns."""
        return (self.credit, self.key_total, self.resolved + self.fp)

    def defined(self) -> tuple[bool, bool]:
        """Whether recall and precision are defined (their denominators are not 0)."""
        return bool(self.key_total), bool(self.resolved + self.fp)

    @property
    def recall(self) -> float:
        return outcome_formula(self.stats())[0]

    @property
    def precision(self) -> float:
        return outcome_formula(self.stats())[1]

    @property
    def f1(self) -> float:
        return outcome_formula(self.stats())[2]

    @property
    def accuracy(self) -> float:
        return ratio(self.credit, self.resolved)

    def as_dict(self) -> dict[str, float]:
        return {
            "tp": self.tp,
            "wt": self.wt,
            "wl": self.wl,
            "wtl": self.wtl,
            "fn": self.fn,
            "fp": self.fp,
            "credit": self.credit,
            "recall": self.recall,
            "precision": self.precision,
            "f1": self.f1,
            "accuracy": self.accuracy,
        }


_OUTCOME_INDEX = {o: i for i, o in enumerate(("TP", "WT", "WL", "WTL", "FN", "FP"))}
ROW_FIELDS = frozenset(("analysis", "doc_id", "text", "outcome", "cls", "type"))
"""Row columns read from the row itself; any other column is a feature (``-`` when absent)."""


def _outcome_index(row: LinkOutcome) -> int:
    try:
        return _OUTCOME_INDEX[row.outcome]
    except KeyError:  # pragma: no cover - rows are built by our analyses only
        raise ValueError(f"unknown outcome {row.outcome!r}") from None


def _counts(acc: list) -> OutcomeCounts:
    """An :class:`OutcomeCounts` from an accumulator ``[tp, wt, wl, wtl, fn, fp, credit]``."""
    return OutcomeCounts(acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6])


def tally(rows: Iterable[LinkOutcome]) -> OutcomeCounts:
    """Counts over all rows."""
    acc = [0, 0, 0, 0, 0, 0, 0.0]
    for r in rows:
        acc[_outcome_index(r)] += 1
        acc[6] += r.credit
    return _counts(acc)


def add_counts(a: OutcomeCounts, b: OutcomeCounts) -> OutcomeCounts:
    """The counts of two sets of rows, ``a``'s before ``b``'s (a new object).

    The credit is ``a.credit + b.credit``: equal to the row-by-row sum over both when the credits
    are multiples of a power of two (ARCS' 1 and 0, typed evaluation's default 1, ¾, ½, ¼)."""
    out = OutcomeCounts(a.tp, a.wt, a.wl, a.wtl, a.fn, a.fp, a.credit)
    out += b
    return out


def add_groups(a: dict, b: dict) -> dict:
    """Two :func:`group_by` results as one: the counts of each value added, values sorted.

    >>> rows = [LinkOutcome("typed", "d", 0, 0, "he", "TP", 1.0, cls="p"),
    ...         LinkOutcome("typed", "e", 3, 3, "it", "FN", cls="p"),
    ...         LinkOutcome("typed", "e", 5, 6, "the city", "WL", 0.5, cls="d")]
    >>> add_groups(group_by(rows[:1], "cls"), group_by(rows[1:], "cls")) == group_by(rows, "cls")
    True
    """
    out = {k: add_counts(v, b[k]) if k in b else add_counts(v, OutcomeCounts()) for k, v in a.items()}
    for k, v in b.items():
        if k not in out:
            out[k] = add_counts(OutcomeCounts(), v)
    return dict(sorted(out.items()))


def group_by(rows: Iterable[LinkOutcome], *columns: str | Callable[[LinkOutcome], str],
             separately: bool = False) -> dict:
    """Counts per value of ``column`` (a row field, a feature name, or a function), sorted by value;
    with several columns, per tuple of their values. Every link-level table is this.

    ``separately=True`` groups by each column on its own, in one pass over the rows:
    ``{column: group_by(rows, column)}`` (a breakdown by several features at once).

    >>> rows = [LinkOutcome("typed", "d", 0, 0, "he", "TP", 1.0, cls="p"),
    ...         LinkOutcome("typed", "d", 3, 3, "it", "FN", cls="p"),
    ...         LinkOutcome("typed", "e", 5, 6, "the city", "WL", 0.5, cls="d")]
    >>> {k: (c.tp, c.wl, c.fn) for k, c in group_by(rows, "cls").items()}
    {'d': (0, 1, 0), 'p': (1, 0, 1)}
    >>> list(group_by(rows, "doc_id", "cls"))
    [('d', 'p'), ('e', 'd')]
    >>> {c: list(g) for c, g in group_by(rows, "doc_id", "cls", separately=True).items()}
    {'doc_id': ['d', 'e'], 'cls': ['d', 'p']}
    """
    plan: list[tuple[int, object]] = []  # (how to read the column, the column)
    if separately or len(columns) == 1:
        for c in columns:
            plan.append((2, c) if callable(c) else (1, c) if c in ROW_FIELDS else (0, c))
    else:
        plan.append((2, _tuple_reader(columns)))
    accs: list[dict] = [{} for _ in plan]
    steps = [(how, c, acc) for (how, c), acc in zip(plan, accs)]
    index = _OUTCOME_INDEX
    for r in rows:
        i = index.get(r.outcome)
        if i is None:  # pragma: no cover - rows are built by our analyses only
            raise ValueError(f"unknown outcome {r.outcome!r}")
        credit = r.credit
        f = r.features
        for how, c, acc in steps:
            k = f.get(c, "-") if how == 0 else getattr(r, c) if how == 1 else c(r)  # type: ignore[operator]
            a = acc.get(k)
            if a is None:
                a = acc[k] = [0, 0, 0, 0, 0, 0, 0.0]
            a[i] += 1
            a[6] += credit  # row by row, in row order: the float sum every table has always shown
    tables = [{k: _counts(a) for k, a in sorted(acc.items())} for acc in accs]
    if separately:
        return dict(zip(columns, tables))
    return tables[0]


def _tuple_reader(columns: tuple) -> Callable[[LinkOutcome], tuple]:
    """The function reading the tuple of several columns of a row (row fields in one C call)."""
    if columns and all(not callable(c) and c in ROW_FIELDS for c in columns):
        return attrgetter(*columns)
    readers = [_reader(c) for c in columns]
    if len(readers) == 2:
        first, second = readers
        return lambda r: (first(r), second(r))
    return lambda r: tuple([g(r) for g in readers])


def _reader(column: str | Callable[[LinkOutcome], str]) -> Callable[[LinkOutcome], str]:
    """The function reading ``column`` of a row, as :meth:`LinkOutcome.get` does."""
    if callable(column):
        return column
    if column in ROW_FIELDS:
        return attrgetter(column)
    return lambda r: r.features.get(column, "-")


def select(rows: Iterable[LinkOutcome], **where: str) -> list[LinkOutcome]:
    """Rows whose columns (or features) equal the given values — every drill-down is this:
    ``select(rows, cls="p", outcome="WL")``."""
    items = list(where.items())
    return [r for r in rows if all(r.get(k) == v for k, v in items)]
