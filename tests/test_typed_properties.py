"""Issue 12 item 6: relations between the typed micro, macro and scheme-coverage scores that
Žitkus et al. (2023)'s definitions imply (eqs. 40–48), and attempted classes (Z8)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefreport.scoring.outcomes import LinkOutcome
from corefreport.scoring.scheme import Scheme
from corefreport.scoring.typed import typed_tables

CREDIT = {"TP": 1.0, "WT": 0.75, "WL": 0.5, "WTL": 0.25, "FN": 0.0, "FP": 0.0}
CLASSES = ["a", "b", "c", "d"]


@st.composite
def outcome_rows(draw):
    rows = []
    for i in range(draw(st.integers(1, 30))):
        o = draw(st.sampled_from(list(CREDIT)))
        c = draw(st.sampled_from(CLASSES))
        rows.append(LinkOutcome("typed", "d", i, i, "w", o, CREDIT[o], cls=c, type=c + "/x"))
    return rows


@settings(max_examples=300, deadline=None)
@given(outcome_rows(), st.integers(0, 3))
def test_micro_macro_scheme_relations(rows, extra):
    in_key = {r.cls for r in rows if r.outcome != "FP"}
    n = max(len(in_key), 1) + extra            # a scheme with at least the attempted classes
    scheme = Scheme("t", {c: c for c in CLASSES}, n)
    t = typed_tables(rows, scheme)
    # Z8: attempted by default = the classes the key has; a class only the response has is not
    assert set(t.attempted) == in_key
    na = len(t.attempted)
    mac, cov, mic = t.macro, t.scheme_coverage, t.micro
    if na:
        # eqs. 46–47 vs 40–41: coverage = macro · n_a / n, hence never above macro when n ≥ n_a
        assert math.isclose(cov["precision"], mac["precision"] * na / n, abs_tol=1e-12)
        assert math.isclose(cov["recall"], mac["recall"] * na / n, abs_tol=1e-12)
        assert cov["precision"] <= mac["precision"] + 1e-12 and cov["recall"] <= mac["recall"] + 1e-12
        assert cov["f1"] <= mac["f1"] + 1e-12
    # micro recall pools S*: a weighted mean of the per-class recalls, so it lies between them
    rs = [t.classes[c].credit / t.classes[c].key_total for c in t.attempted if t.classes[c].key_total]
    if rs:
        assert min(rs) - 1e-12 <= mic["recall"] <= max(rs) + 1e-12
    ps = [t.classes[c].credit / (t.classes[c].resolved + t.classes[c].fp)
          for c in t.attempted if t.classes[c].resolved + t.classes[c].fp]
    if ps:
        assert min(ps) - 1e-12 <= mic["precision"] <= max(ps) + 1e-12
    # one attempted class: micro = macro
    if na == 1:
        assert math.isclose(mic["recall"], mac["recall"]) and math.isclose(mic["precision"], mac["precision"])


def test_response_only_class_is_not_attempted():
    """A class that only the response uses (FP rows only) is not attempted: before, it was, so two
    attempted classes (n_a = 2 > n = 1) made scheme coverage (R (1 + 0)/1 = 1) exceed macro
    (R (1 + 0)/2 = 0.5)."""
    rows = [LinkOutcome("typed", "d", 0, 0, "w", "TP", 1.0, cls="a", type="a/x"),
            LinkOutcome("typed", "d", 1, 1, "w", "FP", 0.0, cls="z", type="z/x")]
    t = typed_tables(rows, Scheme("t", {"a": "a"}, 1))
    assert t.attempted == ["a"]
    assert (t.macro["recall"], t.macro["precision"]) == (1.0, 1.0)
    assert (t.scheme_coverage["recall"], t.scheme_coverage["precision"]) == (1.0, 1.0)


def test_gum_typed_none_class_of_xrenner_is_not_attempted(gum_typed_xrenner):
    """GUM gold vs xrenner's typed output, scheme gum (n = 6): xrenner writes class 'none', which
    the key never has; the attempted classes are the key's six and coverage = macro (n_a = n)."""
    typed = gum_typed_xrenner
    assert "none" not in typed["attempted"]
    assert sorted(typed["attempted"]) == ["ana", "appos", "cata", "coref", "disc", "pred"]
    for m in ("precision", "recall"):
        assert typed["scheme_coverage"][m] == pytest.approx(typed["macro"][m], abs=1e-12)
