"""Time the terminal browser as a user sees it: in tmux at 80×24, from the command to the first
numbers painted and to the analyses ready, interleaved A/B rounds, medians.

    python bench/tui.py KEY RESPONSE [--runs 5] [--size 80x24] [--vs-env NAME=VALUE] [-- TUI OPTIONS]

Each round starts ``python -m corefreport tui KEY RESPONSE`` in a new tmux session, polls the
screen every 20 ms (first numbers: the MUC row is on it; analyses ready: no "computing…" status any
more), presses ``q`` and reads when the app started from ``COREFREPORT_TUI_TIMINGS``. With ``--vs-env`` every other run sets that environment variable — for example
``--vs-env PYTHONPATH=/path/to/other/checkout/src`` times another version of the code against this
one — and the table shows both and their ratio. Needs tmux.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def one_run(cmd: list[str], env: dict[str, str], size: str, timeout: float = 60.0) -> dict[str, float]:
    cols, rows = size.split("x")
    with tempfile.TemporaryDirectory() as tmp:
        timings = os.path.join(tmp, "timings.tsv")
        env = {**os.environ, **env, "COREFREPORT_TUI_TIMINGS": timings}
        session = f"bench{os.getpid()}"
        env_args = [a for k, v in env.items() if k.startswith("COREFREPORT") or k == "PYTHONPATH"
                    for a in ("-e", f"{k}={v}")]
        launched = time.time()
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", cols, "-y", rows, *env_args,
                        " ".join(cmd)], check=True, env=env)
        seen: dict[str, float] = {}
        out = ""
        try:
            deadline = time.time() + timeout
            while time.time() < deadline:  # what the user sees: the screen, polled every 20 ms
                out = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True,
                                     text=True).stdout
                now = time.time() - launched
                if " MUC " in out:
                    seen.setdefault("first numbers", now)
                    if "computing" not in out:
                        seen["analyses ready"] = now
                        break
                time.sleep(0.02)
            subprocess.run(["tmux", "send-keys", "-t", session, "q"], check=False)
            while time.time() < deadline and not os.path.exists(timings):
                time.sleep(0.05)
            time.sleep(0.2)
        finally:
            subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
        if "analyses ready" not in seen:
            raise SystemExit(f"the browser did not finish within {timeout:.0f} s; its screen was:\n{out}")
        if os.path.exists(timings):  # the app's own account (this version's), for the first step
            with open(timings, encoding="utf-8") as f:
                steps = dict(line.rstrip("\n").split("\t") for line in f)
            if "app started, unix time in ms" in steps:
                seen["app started"] = float(steps["app started, unix time in ms"]) / 1000 - launched
    return seen


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("key")
    ap.add_argument("response")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--size", default="80x24")
    ap.add_argument("--vs-env", help="NAME=VALUE set in every other run (B)")
    ap.add_argument("options", nargs="*")
    args = ap.parse_args()
    if not shutil.which("tmux"):
        print("bench/tui.py needs tmux", file=sys.stderr)
        return 2
    cmd = [sys.executable, "-m", "corefreport", "tui", args.key, args.response, *args.options]
    variants = {"A": {}}
    if args.vs_env:
        name, _, value = args.vs_env.partition("=")
        variants["B"] = {name: value}
    results: dict[str, list[dict[str, float]]] = {v: [] for v in variants}
    for _ in range(args.runs):
        for v, env in variants.items():
            results[v].append(one_run(cmd, env, args.size))
    print(f"corefreport tui, {args.size}, {args.runs} interleaved rounds, medians (seconds from the command); "
          f"load average {os.getloadavg()[0]:.2f}")
    names = ["app started", "first numbers", "analyses ready"]
    head = f"{'step':<16}" + "".join(f"{v + (' ' + args.vs_env if v == 'B' else ''):>34}" for v in variants)
    print(head + ("       A/B" if "B" in variants else ""))
    for n in names:
        if not all(n in r for rs in results.values() for r in rs):
            continue
        meds = {v: statistics.median(r[n] for r in rs) for v, rs in results.items()}
        line = f"{n:<16}" + "".join(f"{meds[v]:>34.3f}" for v in variants)
        if "B" in variants:
            ratios = [a[n] / b[n] for a, b in zip(results["A"], results["B"]) if n in a and n in b]
            line += f"{statistics.median(ratios):>10.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
