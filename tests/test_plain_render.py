"""The plain-text drawing of a score's terminal view (present/plain.py) equals Rich's, character
for character, wherever it is used (a pipe or a file): Rich is the independent implementation."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from corefreport.io import load_corpus
from corefreport.present.plain import Block, fits, line, render
from corefreport.present.scoreview import evaluation_blocks
from corefreport.present.terminal import draw
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
GUM = ROOT.parent / "shared" / "data" / "gum"


def rich_text(blocks: list[Block]) -> str:
    out = io.StringIO()  # not a terminal: Rich draws ASCII boxes at full width, no style
    draw(blocks, out, color=None)
    return out.getvalue()


# cell texts: ASCII, the symbols the tables use, accented letters; and characters Rich counts as
# two cells or none (CJK, emoji, combining marks) and spaces at a cell's ends, which fits() must refuse
narrow = st.text(st.sampled_from(list("ab Z09.%-=/|+_()[]:") + ["·", "³", "∩", "→", "\u00e9", "Δ", "…"]), max_size=12)
odd = st.lists(st.sampled_from(list("ab ") + ["中", "🙂", "e\u0301", "\u200b"]), min_size=1, max_size=6).map("".join)
clean = narrow.map(str.strip)
cells = st.one_of(clean, clean, clean.map(lambda t: (t, "bold")), narrow, odd)


@st.composite
def blocks(draw_):
    kind = draw_(st.sampled_from(["grid", "boxed", "fitted", "line"]))
    if kind == "line":
        parts = draw_(st.lists(st.tuples(st.one_of(narrow, odd), st.sampled_from(["", "bold", "dim"])),
                               min_size=1, max_size=3))
        return Block("line", parts=tuple(parts))
    n = draw_(st.integers(1, 5))
    header = tuple(draw_(st.lists(st.one_of(clean, narrow), min_size=n, max_size=n)))
    rows = tuple(tuple(draw_(st.lists(cells, min_size=n, max_size=n))) for _ in range(draw_(st.integers(0, 4))))
    justify = "".join(draw_(st.lists(st.sampled_from("lr"), min_size=n, max_size=n)))
    if kind == "grid":
        return Block("grid", header=header, rows=rows, justify=justify)
    if kind == "fitted":  # the analyses' tables: first column left, the rest right, folded at first_width
        return Block("boxed", draw_(st.one_of(st.none(), narrow.filter(bool))), header,
                     tuple(tuple(c if isinstance(c, str) else c[0] for c in r) for r in rows), "l" + "r" * (n - 1),
                     fit=True, first_width=draw_(st.integers(4, 12)))
    return Block("boxed", header=header, rows=rows, justify=justify)


@settings(max_examples=400, deadline=None)
@given(st.lists(blocks(), min_size=1, max_size=4))
@example([Block("grid", header=("[/]",), rows=(("[b]x",),), justify="l")])  # brackets are text, never markup
@example([Block("boxed", "[/]", header=("[bold]", "n"), rows=(("a", "1"),), justify="lr", fit=True, first_width=12)])
def test_plain_equals_rich_wherever_it_says_it_fits(bs):
    if fits(bs):
        assert render(bs) == rich_text(bs)


def test_fits_refuses_what_it_cannot_draw():
    wide = Block("grid", header=("a",), rows=(("中文",),), justify="l")
    folded = Block("boxed", header=("group", "n"), rows=(("x" * 30, "1"),), justify="lr", fit=True, first_width=28)
    assert not fits([wide]) and not fits([folded]) and not fits([line("e\u0301")])
    assert fits([Block("grid", header=("a",), rows=(("\u00e9 ∩ B³",),), justify="l")])


def _evaluation(key: str, response: str, settings: Settings):
    return evaluate(load_corpus(key, key=True), load_corpus(response), settings)


@pytest.mark.skipif(not GUM.exists(), reason="../shared/data/gum is absent")
@pytest.mark.parametrize("analyses", [(), ("arcs", "typed")])
def test_the_score_view_of_gum_is_rich_s_text(analyses):
    """The whole view of a real run (GUM vs xrenner, every metric, ARCS and typed, per document)."""
    from corefreport.cli import example_paths

    ev = _evaluation(*example_paths(), Settings(metrics=ALL_METRICS, analyses=analyses))
    bs = evaluation_blocks(ev, per_doc=True)
    assert fits(bs)
    text = render(bs)
    assert text == rich_text(bs)
    assert "CoNLL" in text and str(ev.signature) in text


def test_a_piped_score_imports_no_rich_and_prints_rich_s_table():
    """``score | …`` prints the table without importing Rich; the text is what Rich draws."""
    from corefreport.cli import example_paths

    key, response = example_paths()
    code = ("import sys; from corefreport.cli import main; sys.argv = ['corefreport', 'score', '--example', "
            "'-m', 'all', '-a', 'arcs', '-a', 'typed', '--per-doc', '-q']\n"
            "try:\n    main()\nfinally:\n    sys.stderr.write(' '.join(m for m in sys.modules if m.startswith('rich')))")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert res.returncode == 0, res.stderr
    assert res.stderr.strip() == ""  # no rich module was loaded
    ev = _evaluation(key, response, Settings(metrics=ALL_METRICS, analyses=("arcs", "typed")))
    assert res.stdout == rich_text(evaluation_blocks(ev, per_doc=True))
