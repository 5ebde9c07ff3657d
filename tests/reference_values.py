"""Numbers the reference programs printed that several test files assert, written down once.

* ``CRAC_RANKING``: corefud-scorer v1.2 (commit 4fd7b0e, ``python corefud-scorer.py [-s] -a MATCH
  key.conllu response.conllu``), the CoNLL F1 (×100) of its MUC, B³ and CEAF-e F1 per variant: GUM
  gold vs xrenner (``tests/data/corefud_gum/expected.json``), the CorefUD fixture
  (``tests/data/corefud/scorer_output.json``) and the CRAC ranking's unweighted mean of the two
  (issue 28: the means of the values rounded to four decimals, within 0.00005 of the exact ones).
* ``GENRE_CONLL``, ``GENRE_MACRO``: scorer.pl v8.01's per-document counts of GUM gold vs xrenner
  ml-gum (``../shared/data/xrenner/reference-scores/per_document.tsv``) summed per genre, CoNLL F1
  (×100), and their macro average (issue 28).

The tables print them with two decimals: :func:`ranking_cells`, :func:`genre_cells`.
"""

from __future__ import annotations

CRAC_RANKING = {"head": (57.8523, 83.1790, 70.5157), "partial": (54.9252, 67.5282, 61.2267),
                "exact": (53.1291, 53.5408, 53.3350), "head_singletons": (69.6807, 75.3531, 72.5169)}
"""variant (the ranking's columns, in order) → (GUM, fixture, their mean)."""
RANKING_ROWS = ("gum", "fixture", "avg")
"""The ranking's rows (the tests' manifests name the datasets so), in ``CRAC_RANKING``'s order."""

GENRE_CONLL = {"academic": 68.4094, "bio": 73.0738, "court": 58.9232, "interview": 66.3338, "news": 60.1326}
GENRE_MACRO = 65.3746


def ranking_cells(row: str) -> list[str]:
    """The CRAC ranking table's cells of ``row`` (gum, fixture or avg), one a variant, as printed
    (two decimals); avg's from the mean of the two datasets' values: the issue's mean, itself rounded
    to four decimals, can round the other way (exact: 53.33495 prints 53.33, the issue's 53.3350 would
    print 53.34)."""
    if row == "avg":
        return [f"{(gum + fixture) / 2:.2f}" for gum, fixture, _ in CRAC_RANKING.values()]
    i = RANKING_ROWS.index(row)
    return [f"{values[i]:.2f}" for values in CRAC_RANKING.values()]


def genre_cells() -> dict[str, str]:
    """Each genre's CoNLL F1 and the macro average as printed (two decimals)."""
    return {**{g: f"{v:.2f}" for g, v in GENRE_CONLL.items()}, "macro": f"{GENRE_MACRO:.2f}"}
