"""outcomes.group_by: the one-pass multi-grouping form and the credit sums, against a row-by-row
computation written here (an independent re-implementation of OutcomeCounts.add)."""

from __future__ import annotations

import random

from corefreport.scoring.outcomes import LinkOutcome, group_by, tally

OUTCOMES = ("TP", "WT", "WL", "WTL", "FN", "FP")


def _rows(credit_of: dict[str, float], n: int = 3000, seed: int = 7) -> list[LinkOutcome]:
    rnd = random.Random(seed)
    rows = []
    for i in range(n):
        o = rnd.choice(OUTCOMES)
        feats = {"mtype": rnd.choice(["NAME", "NOMINAL", "PRONOUN"])}
        if rnd.random() < 0.8:
            feats["ne"] = rnd.choice(["PERSON", "GPE", "-"])
        rows.append(LinkOutcome("typed", f"d{rnd.randrange(5)}", i, i, "w", o, credit_of[o],
                                cls=rnd.choice("abc"), features=feats))
    return rows


def _by_hand(rows: list[LinkOutcome], key) -> dict:
    out: dict = {}
    for r in rows:
        acc = out.setdefault(key(r), [0, 0, 0, 0, 0, 0, 0.0])
        acc[OUTCOMES.index(r.outcome)] += 1
        acc[6] += r.credit  # row by row, in row order
    return dict(sorted(out.items()))


def _as_lists(table: dict) -> dict:
    return {k: [c.tp, c.wt, c.wl, c.wtl, c.fn, c.fp, c.credit] for k, c in table.items()}


def test_credit_sums_equal_row_order_sums_bit_for_bit() -> None:
    # 0.1 and 0.3 are not dyadic: repeated addition rounds, so the order of the sum matters;
    # 0.75/0.5/0.25 are exact. Both must give the row-by-row float sum exactly.
    for credit_of in ({"TP": 1.0, "WT": 0.75, "WL": 0.5, "WTL": 0.25, "FN": 0.0, "FP": 0.0},
                      {"TP": 0.9, "WT": 0.7, "WL": 0.3, "WTL": 0.1, "FN": 0.0, "FP": 0.0}):
        rows = _rows(credit_of)
        for column in ("cls", "doc_id", "mtype", "ne"):
            expected = _by_hand(rows, lambda r: r.get(column))
            assert _as_lists(group_by(rows, column)) == expected
        assert _as_lists(group_by(rows, "doc_id", "cls")) == _by_hand(rows, lambda r: (r.doc_id, r.cls))
        total = tally(rows)
        assert [total.tp + total.wt + total.wl + total.wtl + total.fn + total.fp] == [len(rows)]
        assert total.credit == sum_in_order(r.credit for r in rows)


def sum_in_order(values) -> float:
    s = 0.0
    for v in values:
        s += v
    return s


def test_non_dyadic_credit_sum_is_the_row_order_sum() -> None:
    # why group_by must add credits row by row: 0.1 added 10 times is not 1.0 (= 10 × 0.1)
    assert sum_in_order([0.1] * 10) != 1.0
    rows = [LinkOutcome("typed", "d", i, i, "w", "WTL", 0.1) for i in range(10)]
    assert group_by(rows, "doc_id")["d"].credit == sum_in_order([0.1] * 10)


def test_separately_is_one_group_by_per_column() -> None:
    rows = _rows({"TP": 1.0, "WT": 0.0, "WL": 0.0, "WTL": 0.0, "FN": 0.0, "FP": 0.0})
    tables = group_by(rows, "mtype", "ne", "cls", separately=True)
    assert list(tables) == ["mtype", "ne", "cls"]
    for column in ("mtype", "ne", "cls"):
        assert _as_lists(tables[column]) == _by_hand(rows, lambda r: r.get(column))
    # a missing feature groups under "-", as LinkOutcome.get reads it
    assert sum(c.tp + c.wl + c.fn + c.fp + c.wt + c.wtl for c in tables["ne"].values()) == len(rows)
    assert "-" in tables["ne"]


def test_function_columns_and_empty_rows() -> None:
    rows = _rows({"TP": 1.0, "WT": 0.75, "WL": 0.5, "WTL": 0.25, "FN": 0.0, "FP": 0.0}, n=200)
    assert _as_lists(group_by(rows, lambda r: r.start % 3)) == _by_hand(rows, lambda r: r.start % 3)
    assert group_by([], "cls") == {}
    assert group_by(iter(rows), "cls").keys() == group_by(rows, "cls").keys()


def test_several_columns_mixing_row_fields_features_and_functions() -> None:
    rows = _rows({"TP": 1.0, "WT": 0.75, "WL": 0.5, "WTL": 0.25, "FN": 0.0, "FP": 0.0}, n=500)
    three = group_by(rows, "doc_id", "mtype", lambda r: r.start % 2)
    assert _as_lists(three) == _by_hand(rows, lambda r: (r.doc_id, r.features["mtype"], r.start % 2))
    assert _as_lists(group_by(rows, "outcome", "cls", "type")) == _by_hand(rows, lambda r: (r.outcome, r.cls, r.type))
    # no column: one group of every row, as before
    assert _as_lists(group_by(rows)) == {(): _by_hand(rows, lambda r: 0)[0]}
