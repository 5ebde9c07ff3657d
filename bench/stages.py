#!/usr/bin/env python3
"""Where ``evaluate`` spends its CPU time, stage by stage, in-process (the full analysis by default).

    python bench/stages.py bench-data/base.key bench-data/base.response
    python bench/stages.py KEY RESPONSE --analysis typed --runs 5

Reads both files afresh for each run (so lazily cut columns are cut again, as in a real run),
turns the cyclic collector off while scoring (as the CLI does) and prints the best run's CPU
milliseconds (``time.process_time``) of ``evaluate`` and of each stage it calls: mention features
(``features``, with the cutting of the POS/lemma/NE columns), ``lacks_pos``, alignment, the standard
metrics, the linguistically aware metrics, ARCS and typed rows, and their tables. The stages are
wrapped, not changed; what is left of the total is the pipeline's own loop.
"""

from __future__ import annotations

import argparse
import collections
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from corefreport.io import load_corpus  # noqa: E402
from corefreport.scoring import analyses, arcs, evaluate as E, lmetrics, typed  # noqa: E402
from corefreport.scoring.settings import Settings  # noqa: E402

spent: collections.Counter = collections.Counter()


def wrap(module, attr: str, label: str) -> None:
    fn = getattr(module, attr)

    def timed(*a, **k):
        t = time.process_time()
        try:
            return fn(*a, **k)
        finally:
            spent[label] += time.process_time() - t

    setattr(module, attr, timed)


STAGES = [(E, "_annotated", "features"), (E, "lacks_pos", "lacks_pos"), (E, "align", "align"),
          (E, "_standard", "standard metrics"), (lmetrics, "lmetric_counts", "linguistic metrics"),
          (arcs, "arcs_document", "ARCS rows"), (analyses, "arcs_tables", "ARCS tables"),
          (typed, "typed_document", "typed rows"), (typed, "typed_tables", "typed tables")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("key")
    ap.add_argument("response")
    ap.add_argument("-a", "--analysis", action="append", help="arcs, typed (default: both)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    for stage in STAGES:
        wrap(*stage)
    metrics = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "lmuc", "lbcub", "lceafm", "lceafe")
    settings = Settings(metrics=metrics, analyses=tuple(args.analysis or ("arcs", "typed")))
    best: tuple[float, dict] | None = None
    for _ in range(args.runs):
        key = load_corpus(args.key, key=True)
        response = load_corpus(args.response)
        gc.collect()
        gc.disable()
        spent.clear()
        t = time.process_time()
        E.evaluate(key, response, settings)
        total = time.process_time() - t
        gc.enable()
        if best is None or total < best[0]:
            best = (total, dict(spent))
    assert best is not None
    print(f"evaluate {best[0] * 1000:7.0f} ms CPU (best of {args.runs})")
    for label, s in sorted(best[1].items(), key=lambda kv: -kv[1]):
        print(f"  {label:20} {s * 1000:6.0f}")
    print(f"  {'(the rest)':20} {(best[0] - sum(best[1].values())) * 1000:6.0f}")


if __name__ == "__main__":
    main()
