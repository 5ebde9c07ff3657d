#!/usr/bin/env python3
"""Time ``corefreport score`` against the scorch CLI, as whole processes, on two standard pairs.

The pairs are built with ``bench/make_pair.py`` into ``bench-data/`` (git-ignored) when missing or
when the generator or its arguments changed:

* ``base``  — 300 documents × ~500 tokens, ~20k key mentions, nested mentions, perturbed response;
* ``giant`` — one document of ~37,000 tokens with ~5,000 key mentions (the CEAF/BLANC stress case).

Timed commands (wall clock, best of ``--runs``, output discarded):

* ``corefreport score KEY RESPONSE --format json`` — MUC, B³, CEAF-m, CEAF-e, BLANC, LEA;
* ``scorch GOLD_DIR SYS_DIR`` — MUC, B³, CEAF-m, CEAF-e, BLANC. scorch reads JSON only, so each side
  is converted once per document with scorch's own ``python -m scorch.conll FILE DIR`` into
  ``bench-data/scorch-PAIR/{gold,sys}/``; that conversion is timed once and reported, not included.

Also timed: ``python -c "import corefreport.cli"`` against ``python -c pass`` (import overhead).

    python bench/run.py                   # table
    python bench/run.py --json --runs 5   # machine-readable
    python bench/run.py --only corefreport
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench-data"
GENERATOR = ROOT / "bench" / "make_pair.py"
PAIRS: dict[str, list[str]] = {
    "base": ["--docs", "300", "--tokens", "500", "--seed", "2012"],
    "giant": ["--docs", "1", "--tokens", "37000", "--seed", "2012"],
}


def command(name: str) -> str | None:
    """The console script next to the running Python (a venv) first, else the one on PATH."""
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def interpreter(script: str | None) -> str:
    """The Python a console script runs with (its ``#!`` line), else the running one."""
    if script:
        first = Path(script).read_bytes()[:200].split(b"\n")[0].decode(errors="replace")
        if first.startswith("#!") and "python" in first and Path(first[2:].strip()).exists():
            return first[2:].strip()
    return sys.executable


def build(pair: str, rebuild: bool) -> tuple[Path, dict]:
    """Generate PAIR (unless an up-to-date copy exists); return its prefix and statistics."""
    prefix = DATA / pair
    stamp_path = Path(f"{prefix}.stats.json")
    stamp = {"args": PAIRS[pair], "generator": hashlib.sha256(GENERATOR.read_bytes()).hexdigest()[:16]}
    if not rebuild and stamp_path.exists() and all(Path(f"{prefix}.{s}").exists() for s in ("key", "response")):
        old = json.loads(stamp_path.read_text())
        if {k: old.get(k) for k in stamp} == stamp:
            return prefix, old["stats"]
    print(f"building {pair} …", file=sys.stderr)
    out = subprocess.run([sys.executable, str(GENERATOR), *PAIRS[pair], "--out", str(prefix)],
                         check=True, capture_output=True, text=True).stdout
    stamp["stats"] = json.loads(out)
    shutil.rmtree(DATA / f"scorch-{pair}", ignore_errors=True)  # stale JSON conversion
    stamp_path.write_text(json.dumps(stamp, indent=1))
    return prefix, stamp["stats"]


def scorch_dirs(prefix: Path, python: str) -> tuple[Path, Path, float]:
    """scorch's per-document JSON of both sides (converted by ``scorch.conll``) and the conversion time."""
    base = DATA / f"scorch-{prefix.name}"
    gold, system, stamp = base / "gold", base / "sys", base / "convert.json"
    if not stamp.exists():
        shutil.rmtree(base, ignore_errors=True)
        t = time.perf_counter()
        for side, suffix in ((gold, "key"), (system, "response")):
            side.mkdir(parents=True)
            subprocess.run([python, "-m", "scorch.conll", f"{prefix}.{suffix}", str(side)], check=True,
                           capture_output=True)
        stamp.write_text(json.dumps({"seconds": time.perf_counter() - t}))
    return gold, system, json.loads(stamp.read_text())["seconds"]


def best_time(cmd: list[str], runs: int) -> float:
    """Best wall-clock time of ``runs`` runs of ``cmd``; RuntimeError with its stderr if it fails."""
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        proc = subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - t
        if proc.returncode:
            tail = proc.stderr.strip().splitlines()[-3:]
            raise RuntimeError(f"{' '.join(cmd[:2])} … exited {proc.returncode}: {' | '.join(tail)}")
        best = min(best, elapsed)
    return best


def measure(a: argparse.Namespace) -> dict:
    """Build the pairs, run the timings and return everything as one JSON-able dict."""
    cf, sc = command("corefreport"), command("scorch")
    notes: list[str] = []
    if a.only != "scorch" and cf is None:
        notes.append("corefreport command not found: install it with `pip install -e .` "
                     "(e.g. /work/venv/bin/pip install -e /work/main); its column is left empty")
    if a.only != "corefreport" and sc is None:
        notes.append("scorch command not found (pip install scorch); its column is left empty")
    rows = []
    for pair in a.pairs:
        prefix, stats = build(pair, a.rebuild)
        key, resp = f"{prefix}.key", f"{prefix}.response"
        row: dict = {"pair": pair, "docs": stats["docs"], "tokens": stats["tokens"],
                     "key_mentions": stats["key"]["mentions"], "response_mentions": stats["response"]["mentions"],
                     "corefreport_s": None, "scorch_s": None, "ratio": None}
        if cf and a.only != "scorch":
            try:
                row["corefreport_s"] = best_time([cf, "score", key, resp, "--format", "json"], a.runs)
            except RuntimeError as err:
                notes.append(f"{pair}: corefreport failed: {err}")
        if sc and a.only != "corefreport":
            gold, system, row["scorch_convert_s"] = scorch_dirs(prefix, interpreter(sc))
            try:
                row["scorch_s"] = best_time([sc, str(gold), str(system)], a.runs)
            except RuntimeError as err:
                notes.append(f"{pair}: scorch failed: {err}")
        if row["corefreport_s"] and row["scorch_s"]:
            row["ratio"] = row["corefreport_s"] / row["scorch_s"]
        rows.append(row)
    result = {"machine": {"cpus": len(os.sched_getaffinity(0)), "python": platform.python_version(),
                          "platform": platform.platform()},
              "runs": a.runs, "pairs": rows, "python_startup_s": None, "import_corefreport_cli_s": None, "notes": notes}
    if cf and a.only != "scorch":
        python = interpreter(cf)
        result["python_startup_s"] = best_time([python, "-c", "pass"], a.runs)
        try:
            result["import_corefreport_cli_s"] = best_time([python, "-c", "import corefreport.cli"], a.runs)
        except RuntimeError as err:
            notes.append(f"import corefreport.cli failed: {err}")
    return result


def table(r: dict) -> str:
    """The human-readable report."""
    def sec(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.2f} s"

    lines = [f"{'pair':6} {'docs':>5} {'key mentions':>12} {'corefreport':>12} {'scorch':>8} {'ratio':>6}"]
    for p in r["pairs"]:
        ratio = "n/a" if p["ratio"] is None else f"{p['ratio']:.2f}"
        lines.append(f"{p['pair']:6} {p['docs']:>5} {p['key_mentions']:>12,} {sec(p['corefreport_s']):>12} "
                     f"{sec(p['scorch_s']):>8} {ratio:>6}")
    conv = [f"{p['pair']} {p['scorch_convert_s']:.2f} s" for p in r["pairs"] if "scorch_convert_s" in p]
    if conv:
        lines.append(f"not timed above: CoNLL → scorch JSON with scorch.conll, {', '.join(conv)}")
    if r["import_corefreport_cli_s"] is not None:
        lines.append(f"python -c pass: {sec(r['python_startup_s'])}; "
                     f"python -c 'import corefreport.cli': {sec(r['import_corefreport_cli_s'])}")
    m = r["machine"]
    lines.append(f"best of {r['runs']} runs, wall clock; {m['cpus']} CPUs, Python {m['python']}")
    return "\n".join(lines + [f"note: {n}" for n in r["notes"]])


def main() -> None:
    """Command line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="runs per command; the best counts (default 3)")
    ap.add_argument("--only", choices=["corefreport", "scorch"], help="time only this tool")
    ap.add_argument("--pairs", nargs="+", choices=list(PAIRS), default=list(PAIRS), help="pairs to time")
    ap.add_argument("--rebuild", action="store_true", help="regenerate the pairs even if up to date")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    a = ap.parse_args()
    result = measure(a)
    print(json.dumps(result, indent=1) if a.json else table(result))


if __name__ == "__main__":
    main()
