"""Issue 38, plain output: ``score`` piped to a file fits 100 columns as on a 100-column terminal
(wide tables in parts of whole columns, long lines wrapped at their words; the signature, one token
a reader copies, stays whole) and names columns by their labels, never by raw metric keys — and
the text drawn without Rich is still Rich's, character for character, for long lines and wide
tables too."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import example, given, settings, strategies as st

from conftest import shared_path
from corefreport.present.labels import METRIC_LABELS
from corefreport.present.plain import PIPE_WIDTH, Block, fits, line, render, wrap
from corefreport.present.terminal import draw
from corefreport.scoring.registry import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
KEY = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
ML = shared_path("data", "xrenner", "conll2012", "ml-gum.conll")


def piped(*args: str) -> str:
    res = subprocess.run([sys.executable, "-m", "corefreport", *args], capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}, timeout=300)
    assert res.returncode == 0, res.stderr
    return res.stdout


def tables(text: str) -> list[tuple[list[str], list[str]]]:
    """(header cells, first-column cells) of every boxed table: a header is the line above a rule."""
    lines = text.splitlines()
    out = []
    for i, x in enumerate(lines):
        if i and re.fullmatch(r"-+(\+-+)*", x):
            header = [c.strip() for c in lines[i - 1].split("|")]
            first = []
            for y in lines[i + 1:]:
                if " | " not in y and not y.endswith(" |"):
                    break
                first.append(y.split("|")[0].strip())
            out.append((header, first))
    return out


RAW = {k for k in {*REGISTRY, *METRIC_LABELS} if METRIC_LABELS.get(k, k) != k}
"""Metric keys with a label of their own (``typed_micro``, ``bcub``, ``muc`` …)."""


def test_score_with_every_analysis_fits_100_columns_in_a_pipe():
    text = piped("score", str(KEY), str(ML), "-m", "all", "-a", "arcs", "-a", "typed", "-a", "errors", "-q")
    lines = text.splitlines()
    signature = [x for x in lines if x.startswith("metrics:")]
    assert len(signature) == 1 and len(signature[0]) > PIPE_WIDTH  # one token, kept whole
    long = [x for x in lines if len(x) > PIPE_WIDTH and not x.startswith("metrics:")]
    assert long == [], long[:3]
    found = tables(text)
    assert len(found) > 12
    for header, first in found:
        for c in header:  # column names are labels
            assert c not in RAW and "_" not in c, (c, header)
        for c in first:  # row names: labels, or a --by feature's value as the user named it (pos_class=NOUN)
            assert c not in RAW and c.split("=")[0] not in RAW, (c, header)
    headers = [" | ".join(h) for h, _ in found]
    # the error classes' Δ F1 under readable names, the table cut into parts that repeat the class
    assert any("cumulatively MUC" in h and "cumulatively B³" in h for h in headers)
    assert any("alone CoNLL" in h for h in headers)
    assert any(h.startswith("Class | TP | WT | WL | WTL | FN | FP | S* | P | R | F1") for h in headers)
    assert re.search(r"11 columns in 3 parts to fit 100 columns", text)
    # every Δ of the error table is still there: 9 classes × 10 columns, in its parts
    part = [x for x in lines if x.startswith("Divided Entity ") and " | " in x]
    assert sum(len(x.split("|")) - 1 for x in part[:3]) == 11


def test_per_document_scores_fit_too():
    text = piped("score", str(KEY), str(ML), "-m", "all", "--per-doc", "-q")
    assert max(len(x) for x in text.splitlines() if not x.startswith("metrics:")) <= PIPE_WIDTH
    assert "parts to fit 100 columns" in text


def rich_text(blocks: list[Block]) -> str:
    out = io.StringIO()  # not a terminal: Rich draws at PIPE_WIDTH columns
    draw(blocks, out, color=None)
    return out.getvalue()


word = st.one_of(st.text(st.sampled_from(list("abcXYZ019.,:;'()-·³Δé")), min_size=1, max_size=14),
                 st.text(st.sampled_from(list("ab")), min_size=95, max_size=230))
space = st.sampled_from([" ", " ", " ", "  ", "   "])
long_text = st.lists(st.tuples(word, space), min_size=1, max_size=60).map(
    lambda ws: "".join(w + s for w, s in ws)).map(lambda t: t.rstrip() if len(t) % 3 else t)
cell = st.text(st.sampled_from(list("ab09.+-/Δ³")), min_size=1, max_size=24).map(str.strip).filter(bool)


@st.composite
def wide_blocks(draw_):
    kind = draw_(st.sampled_from(["line", "fitted", "fitted"]))
    if kind == "line":
        return Block("line", parts=((draw_(long_text), draw_(st.sampled_from(["", "dim"]))),))
    n = draw_(st.integers(2, 14))
    header = tuple(draw_(st.lists(cell, min_size=n, max_size=n)))
    rows = tuple(tuple(draw_(st.lists(cell, min_size=n, max_size=n))) for _ in range(draw_(st.integers(0, 4))))
    title = draw_(st.one_of(st.none(), long_text))
    return Block("boxed", title, header, rows, "l" + "r" * (n - 1), fit=True, first_width=28)


@settings(max_examples=300, deadline=None)
@given(st.lists(wide_blocks(), min_size=1, max_size=3))
@example([line("x" * 250)])
@example([line("a " * 49 + "bb   cc")])
@example([line("")])
def test_long_lines_and_wide_tables_are_rich_s_text(bs):
    if fits(bs):
        text = render(bs)
        assert text == rich_text(bs)
        assert max(len(x) for x in text.splitlines()) <= PIPE_WIDTH


def test_wrap_breaks_at_words_as_rich_does():
    assert wrap("a" * 250) == ["a" * 100, "a" * 100, "a" * 50]
    assert wrap("aaa bbb ccc", 7) == ["aaa bbb", "ccc"]  # the space beyond the width dropped
    assert wrap("") == [""]
