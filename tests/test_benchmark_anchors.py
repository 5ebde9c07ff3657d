"""Regression anchors: the benchmark pairs of ../shared/spec/make_big_pair.py (seed 13) scored by
scorer.pl v8.01 (LEA from its LEA branch; the giant document's CEAF by coval, because the Perl needs
20 minutes) — reference-scorer-notes §3. Our raw numerators and denominators must be identical."""

from __future__ import annotations

import subprocess
import sys

import pytest

from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate

from conftest import shared_path

BASE = {
    "muc": (11908, 15794, 11908, 14550),
    "bcub": (13839.5537681546, 20133, 15010.4382756631, 20231),
    "ceafm": (15943, 20133, 15943, 20231),
    "ceafe": (3424.99428460826, 4339, 3424.99428460826, 5681),
    "lea": (12765.4330999232, 20133, 13541.1870238662, 20231),
}
BASE_BLANC = ((50120, 76543, 62727), (457598, 619317, 640599))
GIANT = {
    "muc": (2978, 3934, 2978, 3652),
    "bcub": (3419.00371072308, 4995, 3637.02892072461, 5005),
    "ceafm": (3905, 4995, 3905, 5005),
    "ceafe": (818.2670027151196, 1061, 818.2670027151196, 1353),
    "lea": (3168.77775460888, 4995, 3299.40258820189, 5005),
}
GIANT_BLANC = ((13620, 21659, 17302), (9238613, 12450856, 12505208))


def generate(tmp_path, name: str, *args: str):
    script = shared_path("spec", "make_big_pair.py")
    out = tmp_path / name
    subprocess.run([sys.executable, str(script), *args, "--out", str(out)], check=True, capture_output=True)
    return evaluate(load_corpus(f"{out}.key"), load_corpus(f"{out}.response"))


def check(ev, expected, blanc):
    for name, (rn, rd, pn, pd) in expected.items():
        s = ev.metrics[name]
        assert s.recall_num == pytest.approx(rn, rel=1e-12), name
        assert s.precision_num == pytest.approx(pn, rel=1e-12), name
        assert (s.recall_den, s.precision_den) == (rd, pd), name
    b = ev.metrics["blanc"]
    assert (b.coref.recall_num, b.coref.recall_den, b.coref.precision_den) == blanc[0]
    assert (b.noncoref.recall_num, b.noncoref.recall_den, b.noncoref.precision_den) == blanc[1]


def test_base_pair_300_documents(tmp_path):
    ev = generate(tmp_path, "base", "--docs", "300", "--tokens", "500")
    check(ev, BASE, BASE_BLANC)
    assert (ev.mentions.recall_num, ev.mentions.recall_den, ev.mentions.precision_den) == (17377, 20133, 20231)
    assert round(ev.metrics["blanc"].recall, 6) == 0.696835 and round(ev.metrics["blanc"].precision, 6) == 0.756673


def test_giant_single_document(tmp_path):
    ev = generate(tmp_path, "giant", "--docs", "1", "--tokens", "37000", "--mentions-per-token", "0.135")
    check(ev, GIANT, GIANT_BLANC)
