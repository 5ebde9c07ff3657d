#!/usr/bin/env python3
"""Time ``corefreport score`` against scorch (and the floor script) as whole processes, in one run.

Every comparison runs its two commands in turn, A B A B … (``--runs`` rounds), so that a machine
whose speed drifts (a shared one) moves both alike; it prints medians and the median of the
per-round ratios A/B, with each process's CPU seconds and peak RSS (from ``os.wait4``).

The pairs are built with ``bench/make_pair.py`` into ``bench-data/`` (git-ignored) when missing or
when the generator or its arguments changed:

* ``base``  — 300 documents × ~500 tokens, ~20k key mentions, nested mentions, perturbed response;
* ``x2``    — 600 such documents; ``x8`` — 2,400;
* ``giant`` — one document of ~37,000 tokens with ~5,000 key mentions (the CEAF/BLANC stress case).

Rows (the goals of issue 17):

* ``score`` (``corefreport score KEY RESPONSE -f json``: MUC, B³, CEAF-m, CEAF-e, BLANC, LEA) vs
  ``scorch GOLD_DIR SYS_DIR`` on every pair. scorch reads JSON only, so each side is converted
  once with scorch's own ``python -m scorch.conll FILE DIR``; that conversion is not timed;
* ``score`` vs ``bench/floor.py`` (a minimal reader + MUC and B³) on base;
* the full analysis (``-m all -a arcs -a typed``) on base, absolute: by default (in shares, two
  processes when both cores are idle) and in one process (``--jobs 1``);
* ``--match head`` and ``--match partial`` vs ``--match exact`` on base (issue 15: within 1.2×; heads
  by rule 3a from the key's POS, matched document by document as exact matching is);
* ``report`` on base, as HTML and as PDF (issue 14: HTML ≤ 1.5 s, PDF ≤ 5 s; issue 17: PDF ≤ 4 s);
* ``score``'s peak RSS on x8 over base;
* ``--jobs 2`` vs ``--jobs 1`` on x8 (the response read in a second process);
* with ``--ua-light FILE --ua-scorer DIR`` (the CODI-CRAC 2022 LIGHT dev file, ``light_dev.2022.CONLLUA``
  of UniversalAnaphora/CODI-CRAC22-Corpus, and a checkout of juntaoy/universal-anaphora-scorer v1;
  ``--ua-python`` a Python with numpy and scipy for it): the whole file against itself with every layer
  on (every v1 metric, non-referring, bridging, discourse deixis) in one process on one core
  (``taskset -c 0``, ``--jobs 1``; issue 27: ≤ 1.0 s) vs the UA scorer v1 doing the same — its two
  processes, ``keep_non_referring keep_bridging`` and then ``evaluate_discourse_deixis`` (≤ 0.2×).

* with ``--book`` (issue 35, "every analysis at book scale"; the pairs of ``bench/make_book.py`` and
  ``bench/make_markup.py`` are built into ``bench-data/`` the same way): on the generated book
  (200,000 words, its largest entity ~5,700 mentions) ``score`` with every analysis (``-m all -a arcs
  -a typed -a errors``; goal ≤ 3× ``score``, ≤ 1 GB) and each analysis alone vs ``score``; the LLM
  markup of GUM's 1,051-word document repeated 20× vs 5× (goal ≤ 6×, ≤ 400 MB); 20,000 words of
  unrelated text (refused: exit 2, goal a few seconds); and ``score -a errors`` on x8 (2,400
  documents) vs base (300): peak RSS, goal ≤ 1.5×. ``--book-only`` times these rows alone.

    python bench/run.py                   # table
    python bench/run.py --json --runs 7   # machine-readable
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
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench-data"
GENERATOR = ROOT / "bench" / "make_pair.py"
BOOK_GENERATOR = ROOT / "bench" / "make_book.py"
MARKUP_GENERATOR = ROOT / "bench" / "make_markup.py"
BOOKS: dict[str, tuple[Path, list[str], tuple[str, str]]] = {
    "book": (BOOK_GENERATOR, [], ("key", "response")),
    "markup5": (MARKUP_GENERATOR, ["--repeat", "5"], ("conllu", "txt")),
    "markup20": (MARKUP_GENERATOR, ["--repeat", "20"], ("conllu", "txt")),
    "unrelated": (MARKUP_GENERATOR, ["--repeat", "20", "--unrelated", "20000"], ("conllu", "txt")),
}
"""Issue 35's inputs (``--book``): generator, its arguments and the two files' suffixes."""
FLOOR = ROOT / "bench" / "floor.py"
PAIRS: dict[str, list[str]] = {
    "base": ["--docs", "300", "--tokens", "500", "--seed", "2012"],
    "x2": ["--docs", "600", "--tokens", "500", "--seed", "2012"],
    "x8": ["--docs", "2400", "--tokens", "500", "--seed", "2012"],
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
    DATA.mkdir(parents=True, exist_ok=True)
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


def build_book(name: str, rebuild: bool) -> tuple[str, str]:
    """Generate one of :data:`BOOKS` (unless an up-to-date copy exists); return its two files."""
    DATA.mkdir(parents=True, exist_ok=True)
    script, args, (a, b) = BOOKS[name]
    prefix = DATA / name
    stamp_path = Path(f"{prefix}.stats.json")
    stamp = {"args": args, "generator": hashlib.sha256(script.read_bytes()).hexdigest()[:16]}
    files = (f"{prefix}.{a}", f"{prefix}.{b}")
    if not rebuild and stamp_path.exists() and all(Path(f).exists() for f in files):
        old = json.loads(stamp_path.read_text())
        if {k: old.get(k) for k in stamp} == stamp:
            return files
    print(f"building {name} …", file=sys.stderr)
    out = subprocess.run([sys.executable, str(script), *args, "--out", str(prefix)], check=True, capture_output=True,
                         text=True).stdout
    stamp["stats"] = json.loads(out)
    stamp_path.write_text(json.dumps(stamp, indent=1))
    return files


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


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The environment of the timed commands: Python may cache the bytecode of what it imports (the
warm-up run writes it), as it does for an installed package such as scorch; without the cache every
run compiles corefreport's modules again (~50 ms)."""


def run_once(cmd: list[str], code: int | None = 0) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MiB) of one whole process; RuntimeError with its stderr if it ends
    with another exit status than ``code`` (None: any)."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if code is not None and proc.returncode != code:
        tail = err.strip().splitlines()[-3:]
        raise RuntimeError(f"{' '.join(cmd[:3])} … exited {proc.returncode}: {' | '.join(tail)}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def median(xs: list[float]) -> float:
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def interleaved(a: list[str], b: list[str] | None, runs: int, code: int | None = 0) -> dict:
    """A and B in turn (after one warm-up each): medians of each and of the per-round ratios
    (``code``: A's expected exit status)."""
    run_once(a, code)
    if b:
        run_once(b)
    rows: dict[str, list] = {"a": [], "b": []}
    for _ in range(runs):
        rows["a"].append(run_once(a, code))
        if b:
            rows["b"].append(run_once(b))
    out: dict = {}
    for side in ("a", "b"):
        if rows[side]:
            wall, cpu, rss = zip(*rows[side])
            out[side] = {"wall_s": median(list(wall)), "cpu_s": median(list(cpu)), "peak_mib": max(rss)}
    if b:
        out["ratio_wall"] = median([x[0] / y[0] for x, y in zip(rows["a"], rows["b"])])
        out["ratio_cpu"] = median([x[1] / y[1] for x, y in zip(rows["a"], rows["b"])])
    return out


def measure(a: argparse.Namespace) -> dict:
    """Build the pairs, run the comparisons and return everything as one JSON-able dict."""
    cf, sc = command("corefreport"), command("scorch")
    notes: list[str] = []
    if cf is None:
        notes.append("corefreport command not found: install it with `pip install -e .`")
    if sc is None or a.only == "corefreport":
        sc = None
        notes.append("scorch not timed (not found, or --only corefreport); pip install scorch")
    rows: list[dict] = []
    prefixes = {}
    for pair in ([] if a.book_only else a.pairs):
        prefixes[pair], _ = build(pair, a.rebuild)

    def add(goal: str, name: str, cmd_a: list[str], cmd_b: list[str] | None, b_name: str = "", code: int | None = 0) -> None:
        print(f"timing {name} …", file=sys.stderr)
        try:
            res = interleaved(cmd_a, cmd_b, a.runs, code)
        except RuntimeError as err:
            notes.append(f"{name}: {err}")
            return
        rows.append({"row": name, "vs": b_name, "goal": goal, **res})

    if cf and (a.book or a.book_only):
        book_rows(a, cf, prefixes, add)
    if cf and not a.book_only:
        for pair in a.pairs:
            key, resp = f"{prefixes[pair]}.key", f"{prefixes[pair]}.response"
            score = [cf, "score", key, resp, "-f", "json"]
            if sc:
                gold, system, _ = scorch_dirs(prefixes[pair], interpreter(sc))
                goal = "≤ 0.2" if pair == "giant" else "≤ 0.5"
                add(goal, f"score {pair}", score, [sc, str(gold), str(system)], "scorch")
            elif pair != "base":
                add("", f"score {pair}", score, None)
            if pair == "base":
                add("≤ 2.0", "score base", score, [interpreter(cf), str(FLOOR), key, resp], "floor")
                full = score[:-2] + ["-m", "all", "-a", "arcs", "-a", "typed", "-f", "json"]
                add("≤ 1.0 s", "full analysis base", full, None)
                add("", "full analysis base, -j 1", full + ["--jobs", "1"], None)
                for mode in ("head", "partial"):
                    add("≤ 1.2", f"score base --match {mode}", score + ["--match", mode],
                        score + ["--match", "exact"], "--match exact")
                out = Path(tempfile.mkdtemp(prefix="corefreport-bench-"))
                for suffix, goal in (("html", "≤ 1.5 s"), ("pdf", "≤ 4.0 s")):
                    add(goal, f"report base -o x.{suffix}",
                        [cf, "report", key, resp, "-o", str(out / f"x.{suffix}"), "--force", "-q"], None)
        if a.ua_light and a.ua_scorer:
            light, core = str(a.ua_light.resolve()), (["taskset", "-c", "0"] if shutil.which("taskset") else [])
            ours = core + [cf, "score", light, light, "-m", "lea,muc,bcub,ceafe,ceafm,blanc_crac,nonref,bridging,dd",
                           "--jobs", "1", "-f", "json", "-q"]
            v1 = f"cd {a.ua_scorer.resolve()} && " + " && ".join(
                f"{' '.join(core)} {a.ua_python} ua-scorer.py {light} {light} {opts}"
                for opts in ("keep_non_referring keep_bridging", "evaluate_discourse_deixis"))
            add("≤ 0.2, 1 s", "UA LIGHT dev, every layer", ours, ["sh", "-c", v1], "UA scorer v1")
        if "x8" in prefixes:
            key, resp = f"{prefixes['x8']}.key", f"{prefixes['x8']}.response"
            add("", "score x8 --jobs 2", [cf, "score", key, resp, "-f", "json", "--jobs", "2"],
                [cf, "score", key, resp, "-f", "json", "--jobs", "1"], "--jobs 1")
        peaks = {r["row"].split()[1]: r["a"]["peak_mib"] for r in rows if r["row"].startswith("score ")
                 and r["vs"] not in ("--jobs 1", "--match exact") and len(r["row"].split()) == 2}
        result_rss = peaks.get("x8", 0) / peaks["base"] if peaks.get("base") and peaks.get("x8") else None
    else:
        result_rss = None
    return {"machine": {"cpus": len(os.sched_getaffinity(0)), "python": platform.python_version(),
                        "platform": platform.platform(), "processor": platform.processor() or platform.machine(),
                        "load_average": os.getloadavg()},
            "runs": a.runs, "rows": rows, "rss_x8_over_base": result_rss, "notes": notes}


def book_rows(a: argparse.Namespace, cf: str, prefixes: dict, add) -> None:
    """Issue 35's rows (``--book``): every analysis on the book, the markup alignment, the errors' RSS."""
    key, resp = build_book("book", a.rebuild)
    score = [cf, "score", key, resp, "-q"]
    add("≤ 3.0, 1 GB", "book: every analysis", score + ["-m", "all", "-a", "arcs", "-a", "typed", "-a", "errors"],
        score, "score")
    for extra, name in ((["-m", "all"], "-m all"), (["-a", "arcs"], "-a arcs"), (["-a", "typed"], "-a typed"),
                        (["-a", "errors"], "-a errors")):
        add("", f"book: {name}", score + extra, score, "score")
    k5, r5 = build_book("markup5", a.rebuild)
    k20, r20 = build_book("markup20", a.rebuild)
    add("≤ 6, 400 MB", "markup 20x (21,000 words)", [cf, "score", k20, r20, "-q"], [cf, "score", k5, r5, "-q"],
        "markup 5x")
    ku, ru = build_book("unrelated", a.rebuild)
    add("seconds", "unrelated 20,000 words", [cf, "score", ku, ru, "--response-format", "text2text", "-q"], None,
        code=None)  # refused (exit 2) since issue 35; aligned and scored before
    for pair in ("base", "x8"):
        if pair not in prefixes:
            prefixes[pair], _ = build(pair, a.rebuild)
    errors = [[cf, "score", f"{prefixes[p]}.key", f"{prefixes[p]}.response", "-a", "errors", "-q"]
              for p in ("x8", "base")]
    add("RSS ≤ 1.5", "-a errors x8 (2,400 docs)", errors[0], errors[1], "-a errors base")


def table(r: dict) -> str:
    """The human-readable report."""
    lines = [f"{'row':27} {'vs':15} {'A wall':>8} {'B wall':>8} {'A/B wall':>9} {'A/B cpu':>8} {'goal':>8} "
             f"{'A peak':>9}"]
    for x in r["rows"]:
        b = x.get("b")
        lines.append(f"{x['row']:27} {x['vs'] or '-':15} {x['a']['wall_s']:7.2f}s "
                     + (f"{b['wall_s']:7.2f}s {x['ratio_wall']:9.2f} {x['ratio_cpu']:8.2f}" if b else
                        f"{'':8} {'':9} {'':8}")
                     + f" {x['goal'] or '':>8} {x['a']['peak_mib']:6.0f} MiB")
    for x in r["rows"]:
        if x.get("b") and x["row"].startswith("-a errors x8"):
            lines.append(f"peak RSS of score -a errors, x8 / base: {x['a']['peak_mib'] / x['b']['peak_mib']:.2f} "
                         f"(goal ≤ 1.5)")
    if r["rss_x8_over_base"] is not None:
        lines.append(f"peak RSS of score, x8 (2,400 docs) / base (300 docs): {r['rss_x8_over_base']:.2f} (goal ≤ 1.5)")
    m = r["machine"]
    lines.append(f"medians of {r['runs']} interleaved rounds (A B A B …), whole processes; {m['cpus']} CPUs "
                 f"({m['processor']}), Python {m['python']}, load average at the end "
                 f"{', '.join(f'{v:.1f}' for v in m['load_average'])}")
    return "\n".join(lines + [f"note: {n}" for n in r["notes"]])


def main() -> None:
    """Command line entry point."""
    global DATA
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="interleaved rounds per comparison (default 5)")
    ap.add_argument("--only", choices=["corefreport"], help="do not time scorch")
    ap.add_argument("--pairs", nargs="+", choices=list(PAIRS), default=list(PAIRS), help="pairs to time")
    ap.add_argument("--rebuild", action="store_true", help="regenerate the pairs even if up to date")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--data", type=Path, default=DATA, help="folder of the pairs (default bench-data/)")
    ap.add_argument("--ua-light", type=Path, help="CODI-CRAC 2022 light_dev.2022.CONLLUA (the UA row)")
    ap.add_argument("--ua-scorer", type=Path, help="a checkout of the Universal Anaphora scorer v1 (the UA row)")
    ap.add_argument("--ua-python", default=sys.executable, help="the Python the UA scorer runs with (numpy, scipy)")
    ap.add_argument("--book", action="store_true", help="also issue 35's rows: the book, the markup, the errors' RSS")
    ap.add_argument("--book-only", action="store_true", help="issue 35's rows alone")
    a = ap.parse_args()
    DATA = a.data
    result = measure(a)
    print(json.dumps(result, indent=1) if a.json else table(result))


if __name__ == "__main__":
    main()
