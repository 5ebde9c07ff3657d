"""Chart geometry: bars fill the plot in proportion to the counts, labels fit their column,
output is deterministic, and the charts are drawn with the report's font only."""

from __future__ import annotations

import re

from corefreport.report import svg
from corefreport.report.html import environment
from corefreport.scoring.outcomes import OutcomeCounts

OUT = ("tp", "wt", "wl", "wtl", "fn", "fp")


def counts(**kw) -> OutcomeCounts:
    c = OutcomeCounts(**kw)
    c.credit = float(c.tp)
    return c


def test_stacked_bars_are_shares_of_the_plot_width():
    a, b = counts(tp=30, wl=10, fn=40, fp=20), counts(tp=1, fn=1)
    ch = svg.stacked("t", [("Class (heading)", None), ("a", a), ("bee", b)], OUT)
    bars_a = [r for r in ch.rects if r.y == ch.rects[0].y]
    widths = [r.w for r in bars_a]
    total = sum(widths)
    assert [round(w / total, 2) for w in widths] == [0.3, 0.1, 0.4, 0.2]
    bars_b = [r for r in ch.rects if r.y != ch.rects[0].y]
    assert abs(sum(r.w for r in bars_b) - total) < 0.5  # both bars span the same plot
    assert [r.title for r in bars_a] == ["TP 30 (30.0 %)", "WL 10 (10.0 %)", "FN 40 (40.0 %)", "FP 20 (20.0 %)"]
    texts = [t.text for t in ch.texts]
    assert "Class (heading)" in texts and "n = 80" in texts and "F1 42.9" in texts  # n: key referents TP+WL+FN; R 30/80, P 30/60
    assert [lab for lab, _ in ch.legend] == ["TP", "WT", "WL", "WTL", "FN", "FP"]
    assert all(r.x + r.w <= ch.width for r in ch.rects) and ch.height > 2 * 16


def test_labels_fit_their_column_and_long_ones_are_cut():
    long = "NOMINAL (common noun phrase) with a very long description indeed"
    ch = svg.stacked("t", [(long, counts(tp=1)), ("x", counts(fn=1))], OUT)
    first_bar = min(r.x for r in ch.rects)
    label = next(t for t in ch.texts if t.anchor == "end" and t.text.startswith("NOMINAL"))
    assert label.text.endswith("…") and len(label.text) <= 34
    assert svg.text_width(label.text) <= label.x <= first_bar


def test_prf_bars_and_undefined_scores():
    ch = svg.prf("t", [("a", 0.5, 0.25, 1 / 3), ("b", None, 0.0, None)])
    a = [r for r in ch.rects if r.title.startswith(("P ", "R ", "F1 "))]
    assert [r.title for r in a] == ["P 50.00", "R 25.00", "F1 33.33"]
    assert abs(a[0].w / a[1].w - 2) < 0.05
    assert "n/a" in [t.text for t in ch.texts]  # b's F1 is undefined: n/a, as in the tables


def test_svg_markup_is_deterministic_and_uses_the_report_font():
    env = environment()
    macro = env.get_template("_macros.html.j2").module.chart
    ch = svg.stacked("A <b> & c", [("x&y", counts(tp=3, fp=1))], OUT)
    one, two = str(macro(ch, 1)), str(macro(svg.stacked("A <b> & c", [("x&y", counts(tp=3, fp=1))], OUT), 1))
    assert one == two
    assert "A &lt;b&gt; &amp; c" in one and "x&amp;y" in one
    fams = set(re.findall(r'font-family="([^"]+)"', one))
    assert fams == {"TeX Gyre Termes, DejaVu Serif, serif"}
    assert "<script" not in one and "href" not in one


def test_font_advances_equal_those_fonttools_reads():
    """advances() reads cmap and hmtx itself (struct, no font library imported for an HTML report);
    the widths must be those fontTools gives, for the report's faces (CFF and TrueType outlines)."""
    import subprocess

    import pytest

    face, adv = svg.advances()
    if not face:
        pytest.skip("no report face (TeX Gyre Termes / DejaVu Serif) found by fontconfig")
    from fontTools.ttLib import TTFont

    checked = 0
    for name in svg.FACES + ("TeX Gyre Cursor", "DejaVu Sans Mono"):
        out = subprocess.run(["fc-match", "-f", "%{family}|%{file}", name], capture_output=True, text=True).stdout
        family, _, path = out.partition("|")
        if name not in family.split(","):
            continue
        font = TTFont(path)
        upm = font["head"].unitsPerEm
        hmtx = font["hmtx"].metrics
        expected = {cp: hmtx[g][0] / upm for cp, g in font.getBestCmap().items()}
        with open(path, "rb") as f:
            assert svg.font_advances(f.read()) == expected, name
        checked += 1
    assert checked >= 1
    assert 0.2 < adv[ord("i")] < adv[ord("m")] < 1.0


def test_each_faces_advances_are_read_once():
    """advances() and advances(False) (the charts, the tables' cells) and advances(True) (bold
    headers) share one cache of two styles: a report reads each font file once, however it asks
    (three spellings of the regular style once spawned fc-match and read the font for every cell,
    0.25 s of the 300-document PDF)."""
    svg._advances.cache_clear()
    try:
        for _ in range(3):
            assert svg.advances() == svg.advances(False) == svg.advances(bold=False)
            svg.advances(True)
        assert svg._advances.cache_info().misses == 2
    finally:
        svg._advances.cache_clear()
