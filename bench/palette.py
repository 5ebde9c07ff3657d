"""Time the command palette of the terminal browser, in-process (Pilot): from Ctrl+P to its first
paint, to its first paint with the command list filled, and to its last paint before it rests
(no paint for 100 ms), and the CPU time the process spent until then (less sensitive to other
processes on the machine than the wall-clock times), medians over several openings.

    python bench/palette.py KEY RESPONSE [--runs 8] [--openings 3] [--size 80x24] [--page totals|links]

The pair is scored once (as ``corefreport tui`` does, all metrics, ARCS and typed); then the app
runs headless at SIZE and Ctrl+P is pressed OPENINGS times (Escape between), in RUNS processes. A paint is a screen update
the app hands to its driver (``App._display``: the compositor has rendered the lines, only the
terminal's escape sequences are not written), timed from just before the key. ``--page links``
opens the palette over a link table of the first analysis instead of the totals. With
``--vs-env PYTHONPATH=…`` the script runs itself again under that environment, interleaved, and
prints both and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time


def measure(key: str, response: str, runs: int, size: tuple[int, int], page: str) -> dict[str, list[float]]:
    from corefreport.cli.build import SCORING_DEFAULTS, VIEW_ANALYSES, build_settings
    from corefreport.study.plan import Policy, pair_plan
    from corefreport.study.run import run
    from corefreport.scoring.registry import ALL_METRICS
    from corefreport.tui.app import CorefApp
    from textual.command import CommandList, CommandPalette

    settings = build_settings(**SCORING_DEFAULTS, default_metrics=ALL_METRICS, default_analyses=VIEW_ANALYSES)
    ev = run(pair_plan(key, response, settings, policy=Policy(rows=True, documents=True))).evaluation
    app = CorefApp(ev, freeze_gc=True)
    paints: list[tuple[float, bool, float]] = []  # (time, the list shows commands, CPU time)
    display = app._display

    def timed_display(screen, renderable) -> None:
        if renderable is not None and isinstance(screen, CommandPalette):
            listed = bool(screen.query(CommandList)) and screen.query_one(CommandList).option_count > 0
            paints.append((time.perf_counter(), listed, time.process_time()))
        display(screen, renderable)

    app._display = timed_display  # type: ignore[method-assign]
    out: dict[str, list[float]] = {"first paint": [], "commands listed": [], "settled": [], "CPU to settle": []}

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause(0.3)
            if page == "links":
                await pilot.press("slash", "enter")
                await pilot.pause(0.3)
            for _ in range(runs):
                paints.clear()
                t0, c0 = time.perf_counter(), time.process_time()
                await pilot.press("ctrl+p")
                deadline = time.perf_counter() + 5
                while not any(listed for _, listed, _ in paints) and time.perf_counter() < deadline:
                    await asyncio.sleep(0.005)
                await pilot.pause(0.4)
                if paints:
                    out["first paint"].append(1000 * (paints[0][0] - t0))
                    listed = [t for t, ok, _ in paints if ok]
                    if listed:
                        out["commands listed"].append(1000 * (listed[0] - t0))
                        # the last paint before the screen rests (100 ms without one; the
                        # input's cursor blinks every 500 ms)
                        after = [(t, c) for t, _, c in paints if t >= listed[0]]
                        last = after[0]
                        for t, c in after[1:]:
                            if t - last[0] >= 0.1:
                                break
                            last = (t, c)
                        out["settled"].append(1000 * (last[0] - t0))
                        out["CPU to settle"].append(1000 * (last[1] - c0))
                await pilot.press("escape")
                await pilot.pause(0.3)

    asyncio.run(run())
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("key")
    ap.add_argument("response")
    ap.add_argument("--runs", type=int, default=8, help="processes (interleaved A/B)")
    ap.add_argument("--openings", type=int, default=3, help="Ctrl+P presses per process")
    ap.add_argument("--size", default="80x24")
    ap.add_argument("--page", choices=("totals", "links"), default="totals")
    ap.add_argument("--vs-env", help="NAME=VALUE: also run under this environment (B), interleaved")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one process's raw numbers
    args = ap.parse_args()
    cols, rows = (int(x) for x in args.size.split("x"))
    if args.json:
        print(json.dumps(measure(args.key, args.response, args.runs, (cols, rows), args.page)))
        return 0
    variants = {"A": dict(os.environ)}
    if args.vs_env:
        name, _, value = args.vs_env.partition("=")
        variants["B"] = {**os.environ, name: value}
    cmd = [sys.executable, __file__, args.key, args.response, "--runs", str(args.openings), "--size", args.size,
           "--page", args.page, "--json"]
    results: dict[str, dict[str, list[float]]] = {v: {} for v in variants}
    # a few openings per process (the first one includes Textual's first styling of the palette), interleaved
    for _ in range(args.runs):
        for v, env in variants.items():
            got = json.loads(subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout)
            for k, vals in got.items():
                results[v].setdefault(k, []).extend(vals)
    print(f"command palette, {args.size}, over the {args.page}, {args.runs} interleaved processes × "
          f"{args.openings} openings, medians (ms "
          f"from Ctrl+P); load average {os.getloadavg()[0]:.2f}")
    print(f"{'step':<18}" + "".join(f"{v + (' ' + args.vs_env if v == 'B' else ''):>34}" for v in variants)
          + ("       A/B" if "B" in variants else ""))
    for step in ("first paint", "commands listed", "settled", "CPU to settle"):
        meds = {v: statistics.median(r[step]) for v, r in results.items() if r.get(step)}
        line = f"{step:<18}" + "".join(f"{meds.get(v, float('nan')):>34.1f}" for v in variants)
        if "B" in variants and len(meds) == 2:
            line += f"{meds['A'] / meds['B']:>10.2f}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
