#!/usr/bin/env python3
"""Time ``corefreport score`` (all six standard metrics) against the scorch CLI as whole processes.

Builds (if missing) the two standard pairs with ``bench/make_pair.py`` into ``bench-data/``:
``base`` (300 documents × ~500 tokens, ~21k key mentions) and ``giant`` (one document, ~5k
mentions). scorch reads JSON clusters, so each pair is converted once per document into
``bench-data/scorch-PAIR/{gold,sys}/`` (not timed); scorch's directory mode then scores the same
documents. Prints the best of ``--runs`` wall-clock times and the ratio.

    python bench/run.py                 # both pairs, corefreport and scorch
    python bench/run.py --json          # machine-readable
    python bench/run.py --only corefreport
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench-data"
PAIRS = {
    "base": ["--docs", "300", "--tokens", "500"],
    "giant": ["--docs", "1", "--tokens", "37000"],
}


def tool(name: str) -> str | None:
    """The command next to this Python first (a venv), else on PATH."""
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def build(pair: str) -> Path:
    prefix = DATA / pair
    if not prefix.with_suffix(".key").exists():
        subprocess.run([sys.executable, str(ROOT / "bench" / "make_pair.py"), *PAIRS[pair], "--out", str(prefix)],
                       check=True, stdout=subprocess.DEVNULL)
    return prefix


def scorch_dirs(prefix: Path) -> tuple[Path, Path]:
    """Per-document scorch JSON ({"type": "clusters", "clusters": {...}}) for both sides."""
    sys.path.insert(0, str(ROOT / "src"))
    from corefreport.io import load_corpus

    base = DATA / f"scorch-{prefix.name}"
    gold, system = base / "gold", base / "sys"
    if not gold.exists():
        for side, path in ((gold, prefix.with_suffix(".key")), (system, prefix.with_suffix(".response"))):
            side.mkdir(parents=True)
            for n, doc in enumerate(load_corpus(str(path))):
                clusters = {c.label: [f"{m.start}-{m.end}" for m in c.mentions] for c in doc.chains}
                (side / f"doc{n:05d}.json").write_text(json.dumps({"type": "clusters", "clusters": clusters}))
    return gold, system


def best_time(cmd: list[str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", choices=["corefreport", "scorch"])
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    cf = tool("corefreport")
    sc = tool("scorch")
    if cf is None and a.only != "scorch":
        sys.exit("corefreport is not installed (pip install -e .)")
    results = []
    for pair in PAIRS:
        prefix = build(pair)
        row: dict = {"pair": pair}
        if a.only != "scorch":
            row["corefreport_s"] = best_time([cf, "score", str(prefix.with_suffix(".key")),
                                              str(prefix.with_suffix(".response")), "-f", "json", "-q"], a.runs)
        if a.only != "corefreport":
            if sc is None:
                row["scorch_s"] = None
            else:
                g, s = scorch_dirs(prefix)
                row["scorch_s"] = best_time([sc, str(g), str(s)], a.runs)
        if row.get("corefreport_s") and row.get("scorch_s"):
            row["ratio"] = row["corefreport_s"] / row["scorch_s"]
        results.append(row)
    imp = best_time([sys.executable, "-c", "import corefreport.cli"], a.runs)
    if a.json:
        print(json.dumps({"cpus": os.cpu_count(), "import_s": imp, "pairs": results}, indent=2))
        return
    print(f"{'pair':8} {'corefreport':>12} {'scorch':>8} {'ratio':>6}   ({os.cpu_count()} CPUs, best of {a.runs})")
    for r in results:
        def f(x):
            return f"{x:.2f}s" if isinstance(x, float) else "-"
        print(f"{r['pair']:8} {f(r.get('corefreport_s')):>12} {f(r.get('scorch_s')):>8} "
              f"{r['ratio']:.2f}" if "ratio" in r else f"{r['pair']:8} {f(r.get('corefreport_s')):>12} "
              f"{f(r.get('scorch_s')):>8}")
    print(f"import corefreport.cli: {imp:.2f}s")


if __name__ == "__main__":
    main()
