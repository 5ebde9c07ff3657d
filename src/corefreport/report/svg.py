"""Chart geometry for the report: plain shapes (rectangles, lines, text) computed here and drawn as
SVG by the ``chart`` macro of ``templates/_macros.html.j2``. No plotting library, no font other than
the report's own, no script, deterministic output (coordinates rounded to 0.1 px).

Two charts: :func:`stacked` (outcome shares per group, one horizontal bar each, optional heading
rows for grouped bars) and :func:`prf` (P, R and F1 per group).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from functools import lru_cache

from ..present.numbers import pct
from ..scoring.outcomes import OutcomeCounts

# Hues of Okabe & Ito's colour-blind-safe palette (green, blue, vermillion, orange, sky blue, pink) at
# lightnesses at least 10 CIE L* apart (28 … 94), so that the outcomes also separate in grayscale
# (a black-and-white printout); text on a segment is white on the dark ones, black on the light ones.
OUTCOME_COLOURS = {"tp": "#003F2E", "wt": "#A6D8F5", "wl": "#E69F00", "wtl": "#FBE9F2", "fn": "#D55E00",
                   "fp": "#1A5AA6"}
SEGMENT_STROKE = "#444"  # a hairline around segments: the palest one stays visible on white paper


def lightness(colour: str) -> float:
    """CIE L* (0 black … 100 white) of an sRGB ``#rrggbb`` colour: its grey level in print."""
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    y = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    return 116 * y ** (1 / 3) - 16 if y > 0.008856 else 903.3 * y


OUTCOME_INK = {o: "#fff" if lightness(c) < 55 else "#000" for o, c in OUTCOME_COLOURS.items()}
PRF_COLOURS = {"P": "#9bb7d4", "R": "#5b7fa6", "F1": "#1f3b5c"}
FONT_SIZE = 9.5  # px (user units; 1 px = 0.75 pt): 7 pt, a little under the tables' 8.5 pt
WIDTH = 640.0  # px: the text width of an A4 page with the report's margins is 665 px


@dataclass(slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    title: str = ""
    stroke: str = ""


@dataclass(slots=True)
class Text:
    x: float
    y: float
    text: str
    anchor: str = "start"
    bold: bool = False
    size: float = FONT_SIZE
    fill: str = "#111"


@dataclass(slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = "#bbb"
    width: float = 0.5
    dash: str = ""


@dataclass(slots=True)
class Chart:
    """A figure: shapes in a ``width`` × ``height`` box, a caption and a legend."""

    title: str
    width: float
    height: float
    rects: list[Rect] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)
    legend: list[tuple[str, str]] = field(default_factory=list)  # (label, colour)
    note: str = ""
    """A sentence after the caption (what n counts)."""

    @property
    def bars(self) -> int:
        return sum(1 for r in self.rects if r.title)


def _r(x: float) -> float:
    return round(x, 1)


def _clip(label: str, n: int) -> str:
    return label if len(label) <= n else label[: n - 1] + "…"


FACES = ("TeX Gyre Termes", "DejaVu Serif")
"""The report's serif faces, in the order of the stylesheet: fonts-texgyre's Termes, else DejaVu."""


def advances(bold: bool = False) -> tuple[str, dict[int, float]]:
    """(face, advance width in em of each character) of the first of :data:`FACES` that fontconfig
    finds (its bold style with ``bold``), read from the font file's ``cmap`` and ``hmtx`` tables
    (:func:`font_advances`); ("", {}) when none is found, and widths are then estimated. Read once
    per style and fontconfig setting (``advances()``, ``advances(False)`` and ``advances(bold=False)``
    are one entry): the cache is keyed by what decides the font fc-match finds (:func:`_fontconfig`),
    so a process whose ``FONTCONFIG_FILE`` changes reads the other face, and a failure that may pass
    (fc-match timed out or could not start) is not remembered."""
    try:
        return _advances(bool(bold), _fontconfig())
    except _Transient:
        return "", {}


def _fontconfig() -> tuple[str | None, ...]:
    """The environment fc-match's answer depends on: its configuration file and folder, its sysroot
    and the ``PATH`` it is found on (fontconfig's documented variables)."""
    import os

    env = os.environ
    return (env.get("FONTCONFIG_FILE"), env.get("FONTCONFIG_PATH"), env.get("FONTCONFIG_SYSROOT"), env.get("PATH"))


class _Transient(Exception):
    """fc-match did not answer this time (a timeout, a failed start): try again on the next call."""


@lru_cache(maxsize=8)
def _advances(bold: bool, fontconfig: tuple[str | None, ...]) -> tuple[str, dict[int, float]]:
    import shutil
    import subprocess

    if not shutil.which("fc-match"):
        return "", {}
    for face in FACES:
        try:
            out = subprocess.run(["fc-match", "-f", "%{family}|%{file}", f"{face}:bold" if bold else face],
                                 capture_output=True, text=True, timeout=20, check=False).stdout
        except (OSError, subprocess.SubprocessError):
            raise _Transient from None
        family, _, path = out.partition("|")
        if face not in family.split(","):
            continue
        try:
            with open(path, "rb") as f:
                return face, font_advances(f.read())
        except (OSError, ValueError, struct.error):  # an unreadable font of any kind: estimate the widths
            return "", {}
    return "", {}


CMAP_PREFERENCE = ((3, 10), (0, 6), (0, 4), (3, 1), (0, 3), (0, 2), (0, 1), (0, 0))
"""The cmap subtables looked for, best first (the order of fontTools' ``getBestCmap``)."""


def font_advances(data: bytes) -> dict[int, float]:
    """Advance width in em of every character an OpenType/TrueType font maps (``cmap`` formats 4
    and 12, the best Unicode subtable), from its ``head``, ``hhea``, ``hmtx`` and ``cmap`` tables
    (OpenType spec); glyphs after the last long metric take its advance. A few struct reads: no
    font library is imported for an HTML report's column widths."""
    tables = {}
    for i in range(struct.unpack_from(">H", data, 4)[0]):
        tag, _checksum, offset, length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        tables[tag] = (offset, length)
    for need in (b"head", b"hhea", b"hmtx", b"cmap"):
        if need not in tables:
            raise ValueError(f"no {need.decode()} table")
    upm = struct.unpack_from(">H", data, tables[b"head"][0] + 18)[0]
    long_metrics = struct.unpack_from(">H", data, tables[b"hhea"][0] + 34)[0]
    hmtx = tables[b"hmtx"][0]
    widths = [struct.unpack_from(">H", data, hmtx + 4 * g)[0] for g in range(long_metrics)]
    cmap = tables[b"cmap"][0]
    records = {}
    for i in range(struct.unpack_from(">H", data, cmap + 2)[0]):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
        records.setdefault((platform, encoding), cmap + offset)
    for pe in CMAP_PREFERENCE:
        if pe in records:
            glyphs = _cmap_subtable(data, records[pe])
            if glyphs is not None:
                break
    else:
        raise ValueError("no Unicode cmap subtable of format 4 or 12")
    last = widths[-1]
    return {cp: (widths[g] if g < long_metrics else last) / upm for cp, g in glyphs.items()}


def _cmap_subtable(data: bytes, at: int) -> dict[int, int] | None:
    """Character → glyph index of a cmap subtable of format 4 or 12 (None for another format)."""
    fmt = struct.unpack_from(">H", data, at)[0]
    out: dict[int, int] = {}
    if fmt == 4:
        segs = struct.unpack_from(">H", data, at + 6)[0] // 2
        ends = struct.unpack_from(f">{segs}H", data, at + 14)
        starts = struct.unpack_from(f">{segs}H", data, at + 16 + 2 * segs)
        deltas = struct.unpack_from(f">{segs}h", data, at + 16 + 4 * segs)
        range_at = at + 16 + 6 * segs
        offsets = struct.unpack_from(f">{segs}H", data, range_at)
        for i in range(segs):
            for c in range(starts[i], ends[i] + 1):
                if c == 0xFFFF:
                    continue
                if offsets[i] == 0:
                    g = (c + deltas[i]) & 0xFFFF
                else:
                    g = struct.unpack_from(">H", data, range_at + 2 * i + offsets[i] + 2 * (c - starts[i]))[0]
                    if g:
                        g = (g + deltas[i]) & 0xFFFF
                out[c] = g
        return out
    if fmt == 12:
        groups = struct.unpack_from(">I", data, at + 12)[0]
        for i in range(groups):
            first, last, glyph = struct.unpack_from(">III", data, at + 16 + 12 * i)
            for k, c in enumerate(range(first, last + 1)):
                out[c] = glyph + k
        return out
    return None


def _estimate(ch: str) -> float:
    if ch in "mwMW":
        return 0.95
    if ch.isupper():
        return 0.75
    if ch.isdigit():
        return 0.6
    if ch in " .,;:'|!il()[]/-":
        return 0.35
    return 0.55


def text_width(s: str, size: float = FONT_SIZE, bold: bool = False) -> float:
    """Advance of ``s`` at ``size`` in the report's face (a little more for bold), slightly
    overestimated so that a column or a chart label never falls short."""
    _face, adv = advances()
    em = sum(adv.get(ord(ch)) or _estimate(ch) for ch in s)
    return em * size * (1.1 if bold else 1.03)


def advance_width(s: str, size: float, bold: bool = False) -> float:
    """Σ advance(c) · size: the width of ``s`` set in the report's face at ``size`` (bold: its bold
    style) without kerning, as WeasyPrint (Pango, HarfBuzz) lays it out — within 0.1 % on the
    300-document PDF's table cells, kerning only narrows it (tested). A character the face lacks,
    or any character when no face is found, is estimated (:func:`_estimate`, 10 % more for bold)."""
    _face, adv = advances(bold)
    em = sum(adv.get(ord(ch)) or _estimate(ch) * (1.1 if bold else 1.0) for ch in s)
    return em * size


def _label_width(labels: list[str], size: float, cap: int) -> float:
    return _r(max((text_width(_clip(lab, cap), size) for lab in labels), default=30) + 10)


def _axis(ch: Chart, x0: float, w: float, top: float, bottom: float, ticks: list[tuple[float, str]]) -> None:
    for frac, label in ticks:
        x = _r(x0 + frac * w)
        ch.lines.append(Line(x, top, x, bottom, "#ccc" if frac else "#666", 0.5, "" if frac in (0, 1) else "2,2"))
        ch.texts.append(Text(x, _r(bottom + 10), label, "middle", size=FONT_SIZE - 1.5, fill="#444"))


def stacked(title: str, items: list[tuple[str, OutcomeCounts | None]], outcomes: tuple[str, ...],
            width: float = WIDTH, label_cap: int = 34, note: str = "") -> Chart:
    """One bar per group: the share of each outcome among the group's rows (100 % stacked), the
    count inside a segment wide enough for it, and ``n`` (key referents, as in the tables) and F1
    at the right — "n/a" where F1 is undefined, as in the tables. An item with ``None`` counts is a
    heading (the class above its types)."""
    row, bar, size = 16.0, 12.0, FONT_SIZE
    label_w = _label_width([lab for lab, _ in items], size, label_cap)
    right_w = 96.0
    x0, plot_w = label_w, _r(width - label_w - right_w)
    ch = Chart(title, width, 0, legend=[(o.upper(), OUTCOME_COLOURS[o]) for o in outcomes], note=note)
    y = 4.0
    for label, c in items:
        if c is None:
            ch.texts.append(Text(0, _r(y + 11.5), _clip(label, label_cap + 10), bold=True))
            y += row
            continue
        d = {o: getattr(c, o) for o in outcomes}
        total = sum(d.values())
        ch.texts.append(Text(_r(label_w - 5), _r(y + 11.5), _clip(label, label_cap), "end"))
        x = x0
        for o in outcomes:
            n = d[o]
            if not n:
                continue
            w = plot_w * n / total
            ch.rects.append(Rect(_r(x), _r(y + (row - bar) / 2), _r(w), bar, OUTCOME_COLOURS[o],
                                 f"{o.upper()} {n} ({pct(n / total, 1)} %)", SEGMENT_STROKE))
            if w >= text_width(str(n), size - 1.5) + 6:
                ch.texts.append(Text(_r(x + w / 2), _r(y + 11), str(n), "middle", size=size - 1.5,
                                     fill=OUTCOME_INK[o]))
            x += w
        f1 = pct(c.f1 if c.key_total and c.resolved + c.fp else float("nan"), 1)
        ch.texts.append(Text(_r(x0 + plot_w + 6), _r(y + 11.5), f"n = {c.key_total}", size=size - 0.5,
                             fill="#444"))
        ch.texts.append(Text(_r(width - 2), _r(y + 11.5), f"F1 {f1}", "end", size=size - 0.5))
        y += row
    _axis(ch, x0, plot_w, 2, _r(y + 1), [(i / 4, f"{25 * i} %") for i in range(5)])
    ch.height = _r(y + 16)
    return ch


def prf(title: str, items: list[tuple[str, float | None, float | None, float | None]], width: float = WIDTH,
        label_cap: int = 34) -> Chart:
    """Three thin bars per group — precision, recall, F1 (0–100 %) — with F1's value at the right."""
    thin, gap, size = 5.0, 7.0, FONT_SIZE
    label_w = _label_width([lab for lab, *_ in items], size, label_cap)
    right_w = 48.0
    x0, plot_w = label_w, _r(width - label_w - right_w)
    ch = Chart(title, width, 0, legend=list(PRF_COLOURS.items()))
    y = 4.0
    for label, p, r, f in items:
        ch.texts.append(Text(_r(label_w - 5), _r(y + 1.5 * thin + 3), _clip(label, label_cap), "end"))
        for i, (name, v) in enumerate((("P", p), ("R", r), ("F1", f))):
            if v:
                ch.rects.append(Rect(x0, _r(y + i * thin), _r(plot_w * v), thin - 0.6, PRF_COLOURS[name],
                                     f"{name} {pct(v)}"))
        ch.texts.append(Text(_r(width - 2), _r(y + 1.5 * thin + 3), pct(float("nan") if f is None else f, 1), "end",
                             bold=True, size=size - 0.5))
        y += 3 * thin + gap
    _axis(ch, x0, plot_w, 2, _r(y - gap + 2), [(i / 4, f"{25 * i} %") for i in range(5)])
    ch.height = _r(y - gap + 18)
    return ch


def with_legend(ch: Chart) -> Chart:
    """A copy of ``ch`` with its legend drawn as swatches under the plot (a figure on its own has
    no caption to carry it)."""
    out = Chart(ch.title, ch.width, ch.height, list(ch.rects), list(ch.texts), list(ch.lines), list(ch.legend),
                ch.note)
    if not ch.legend:
        return out
    x, y = 0.0, ch.height + 2
    for label, colour in ch.legend:
        out.rects.append(Rect(_r(x), _r(y), 9, 9, colour, "", SEGMENT_STROKE))
        out.texts.append(Text(_r(x + 12), _r(y + 8), label, size=FONT_SIZE - 1))
        x += 12 + text_width(label, FONT_SIZE - 1) + 14
    out.height = _r(y + 14)
    return out
