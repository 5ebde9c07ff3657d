"""What the Universal Anaphora scorer v1 printed, read back: a header line names a score (the
metric, or a line that starts with a layer's title), the next ``Recall: … Precision: … F1: …`` line
holds it; ``CoNLL score: X`` is ``conll``. One reader for every fixture of v1's output
(tests/data/ua_v1, ua_layers, corefud_split)."""

from __future__ import annotations

import re
from collections.abc import Iterable

V1_METRICS = {"lea": "lea", "muc": "muc", "bcub": "bcub", "ceafe": "ceafe", "ceafm": "ceafm", "blanc": "blanc_crac",
              "Non-referring": "nonref"}
"""The header v1 prints a score under → corefreport's metric of that score."""

LINE = re.compile(r"Recall: ([\d.]+)\s+Precision: ([\d.]+)\s+F1: ([\d.]+)")


def printed_values(lines: Iterable[str], headers: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """header → the (R, P, F1) strings printed under it (a header matches a line equal to it, once
    stripped, or starting with it); ``conll`` → (F1,)."""
    headers = tuple(headers)
    out: dict[str, tuple[str, ...]] = {}
    name = None
    for line in lines:
        m = LINE.match(line)
        if m and name:
            out[name] = m.groups()
            name = None
        elif line.startswith("CoNLL score:"):
            out["conll"] = (line.split()[-1],)
        else:
            name = next((h for h in headers if line.strip() == h or line.startswith(h)), None)
    return out
