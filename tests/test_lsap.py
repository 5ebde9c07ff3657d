"""The assignment solver corefud-scorer calls, in this process and through the helper process
(``corefreport.lsap``): the helper's answers are scipy's own, for every process of a run; a dead
helper costs nothing but its speed; the helper holds none of the run's files and ends with it;
and on the real GUM pairs whose head and partial matchings tie, corefreport run with the helper
still gives every number corefud-scorer printed."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from corefreport import forking, lsap

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not hasattr(os, "sched_getaffinity"),
                                reason="the helper needs fork and Unix sockets (Linux)")


def tied_matrices(n: int, seed: int = 15) -> list[list[list[float]]]:
    """Matrices shaped like step 2's: mostly zeros, scores |K ∩ R| / |K| from a few small
    fractions, so that many have several best assignments; square and rectangular."""
    rnd = random.Random(seed)
    values = [0.0, 0.0, 0.0, 1.0, 0.5, 1 / 3, 2 / 3, 0.25]
    out = []
    for _ in range(n):
        rows, cols = rnd.randint(1, 9), rnd.randint(1, 9)
        out.append([[rnd.choice(values) for _ in range(cols)] for _ in range(rows)])
    return out


def scipys(sim: list[list[float]]) -> list[tuple[int, int]]:
    rows, cols = linear_sum_assignment(-np.array(sim, dtype=float))
    return list(zip(rows.tolist(), cols.tolist()))


def _ties(sims) -> int:
    """How many of ``sims`` have more than one best assignment (the cases that need scipy itself)."""
    from itertools import permutations

    tied = 0
    for sim in sims:
        r, c = len(sim), len(sim[0])
        if r > c:
            sim = [list(x) for x in zip(*sim)]
            r, c = c, r
        totals = sorted((round(sum(sim[i][p[i]] for i in range(r)), 9) for p in permutations(range(c), r)),
                        reverse=True)
        tied += len(totals) > 1 and totals[0] == totals[1]
    return tied


@pytest.fixture
def helper():
    assert lsap.start_helper()
    pid = lsap.helper_pid()
    try:
        yield pid
    finally:
        lsap.stop_helper()
        _reaped(pid)


def _reaped(pid: int, seconds: float = 10.0) -> bool:
    """Wait for the helper ``pid`` to end (it does once every socket of the run is closed)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            done, _ = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # reaped already (the test killed it)
            return True
        if done == pid:
            return True
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return False


def test_the_local_solver_is_scipys():
    sims = tied_matrices(300)
    # the cases where which of the best assignments wins is scipy's choice
    assert _ties([s for s in sims if len(s) <= 6 and len(s[0]) <= 6]) > 20
    for sim in sims:
        assert lsap.assign(sim) == scipys(sim)


def test_the_helper_answers_as_scipy_does(helper):
    sims = tied_matrices(300, seed=2022)
    for sim in sims:
        assert lsap.assign(sim) == scipys(sim)
    assert lsap.answered() == len(sims)
    assert lsap.assign([]) == [] and lsap.assign([[]]) == []


def test_each_process_of_a_run_gets_its_own_connection(helper):
    sims = tied_matrices(60, seed=7)
    lsap.assign(sims[0])  # this process connects first; a forked child must not share its socket
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(r)
        ok = all(lsap.assign(s) == scipys(s) for s in sims) and lsap.answered() == len(sims)
        os.write(w, b"1" if ok else b"0")
        os._exit(0)
    os.close(w)
    mine = all(lsap.assign(s) == scipys(s) for s in sims)
    os.waitpid(pid, 0)
    assert os.read(r, 1) == b"1"
    assert mine and lsap.answered() == len(sims) + 1


def test_a_dead_helper_costs_only_speed(helper):
    sim = [[1.0, 1.0], [1.0, 1.0]]
    assert lsap.assign(sim) == scipys(sim)
    os.kill(helper, signal.SIGKILL)
    os.waitpid(helper, 0)
    for s in tied_matrices(40, seed=3):
        assert lsap.assign(s) == scipys(s)  # solved here


def test_the_helper_ends_with_the_run():
    assert lsap.start_helper()
    pid = lsap.helper_pid()
    assert lsap.assign([[0.5, 1.0]]) == [(0, 1)]
    assert pid in forking.HELPERS
    lsap.stop_helper()
    assert pid not in forking.HELPERS and lsap.helper_pid() is None
    assert _reaped(pid), "the helper outlived every socket of the run"


def test_the_helper_holds_none_of_the_runs_files(tmp_path):
    """A reader of corefreport's output (a pipe, ``$(...)``) sees its end when corefreport closes
    it, not when the helper ends: the helper keeps no copy of standard output."""
    code = ("import os, sys, time\n"
            "from corefreport import lsap\n"
            "assert lsap.start_helper()\n"
            "print(lsap.helper_pid(), flush=True)\n"
            "os.close(1); os.close(2)\n"
            "time.sleep(3)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    start = time.monotonic()
    out = proc.stdout.read()  # EOF once every holder of the pipe closed it
    waited = time.monotonic() - start
    proc.stderr.read()
    proc.wait()
    assert out.strip().isdigit()
    assert waited < 2.5, f"standard output stayed open {waited:.1f} s: the helper holds it"


def test_idle_cores_does_not_count_the_helper(tmp_path, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1})
    loadavg = tmp_path / "loadavg"
    loadavg.write_text("0.50 0.40 0.30 2/180 4242\n")  # this process and one more running
    monkeypatch.setattr(forking, "HELPERS", [])
    assert forking.idle_cores(str(loadavg)) == 1
    monkeypatch.setattr(forking, "HELPERS", [12345])
    monkeypatch.setattr(forking, "running", lambda pid: pid == 12345)
    assert forking.idle_cores(str(loadavg)) == 2  # the one more is our helper
    monkeypatch.setattr(forking, "running", lambda pid: False)
    assert forking.idle_cores(str(loadavg)) == 1  # a helper that is not running is not the one more


def test_running_reads_the_process_state():
    spin = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    sleep = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        time.sleep(0.3)
        assert any(forking.running(spin.pid) for _ in range(50))
        assert not forking.running(sleep.pid)
        assert not forking.running(2 ** 22 + 7)  # no such process
    finally:
        for p in (spin, sleep):
            p.kill()
            p.wait()


# -- the real GUM pairs (shared data; conftest.corefud_gum_pairs skips without it) -----------

GUM = Path(__file__).resolve().parent / "data" / "corefud_gum"


def test_corefud_scorers_numbers_through_the_helper(corefud_gum_pairs, helper):
    """Every head and partial case of the GUM fixtures (numerators and denominators corefud-scorer
    summed), scored with the helper answering: the ties go as scipy decides them."""
    from corefreport.io import load_corpus
    from corefreport.scoring.evaluate import evaluate
    from corefreport.scoring.settings import Settings

    expected = json.loads((GUM / "expected.json").read_text(encoding="utf-8"))
    metrics = ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc_crac")
    corpora: dict = {}

    def corpus(name):
        if name not in corpora:
            corpora[name] = load_corpus(str(corefud_gum_pairs / name))
        return corpora[name]

    for case in (c for c in expected["cases"] if c["match"] != "exact"):
        ev = evaluate(corpus("key.conllu"), corpus(case["response"]),
                      Settings(metrics=metrics, match=case["match"], zero_match="dependent",
                               singletons="keep" if case["keep_singletons"] else "drop"))
        for name in ("muc", "bcub", "ceafe", "ceafm", "lea"):
            pn, pd, rn, rd = case["counts_pn_pd_rn_rd"][name]
            m = ev.metrics[name]
            assert (m.precision_num, m.precision_den, m.recall_num, m.recall_den) == pytest.approx(
                (pn, pd, rn, rd)), (case["command"], name)
    assert lsap.answered() > 0, "no tie reached the helper: the test proves nothing"


def test_the_command_line_prints_corefud_scorers_numbers(corefud_gum_pairs):
    """``corefreport score KEY RESP --preset crac`` as a process (the helper started when a core is
    idle) prints what ``python corefud-scorer.py KEY RESP`` printed."""
    expected = json.loads((GUM / "expected.json").read_text(encoding="utf-8"))
    case = next(c for c in expected["cases"] if c["response"] == "response-xrenner.conllu"
                and c["match"] == "head" and not c["keep_singletons"])
    key, response = corefud_gum_pairs / "key.conllu", corefud_gum_pairs / case["response"]
    proc = subprocess.run([sys.executable, "-m", "corefreport", "score", str(key), str(response), "--preset", "crac",
                           "-m", "muc,bcub,ceafe,lea", "-f", "json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)["metrics"]
    for name in ("muc", "bcub", "ceafe", "lea"):
        assert [got[name]["recall"], got[name]["precision"], got[name]["f1"]] == pytest.approx(
            case["recall_precision_f1"][name]), name


def test_threads_of_one_process_take_turns(helper):
    """The terminal browser scores in threads: their questions share the process's connection."""
    from concurrent.futures import ThreadPoolExecutor

    sims = tied_matrices(200, seed=11)
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lsap.assign, sims))
    assert got == [scipys(s) for s in sims]
    assert lsap.answered() == len(sims)


def test_no_process_to_spare_means_no_helper(monkeypatch):
    """A limit on processes makes the fork fail: the run goes on without a helper."""
    def refuse():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    before = len(os.listdir("/proc/self/fd"))
    monkeypatch.setattr(os, "fork", refuse)
    assert lsap.start_helper() is False
    assert lsap.helper_pid() is None and len(os.listdir("/proc/self/fd")) == before
    assert lsap.assign([[1.0, 1.0], [1.0, 1.0]]) == scipys([[1.0, 1.0], [1.0, 1.0]])


def test_the_command_line_starts_the_helper_only_with_a_core_to_spare(monkeypatch):
    from corefreport import cli

    argv = ["score", "k.conllu", "r.conllu", "--preset", "crac"]
    monkeypatch.setattr(forking, "idle_cores", lambda: 1)  # this process's core only
    cli.start_solver(argv)
    assert lsap.helper_pid() is None
    monkeypatch.setattr(forking, "idle_cores", lambda: 2)
    cli.start_solver(["score", "k", "r", "--match", "partial"])  # partial alone: no helper
    assert lsap.helper_pid() is None
    cli.start_solver(argv)
    pid = lsap.helper_pid()
    try:
        assert pid is not None and lsap.assign([[1.0, 1.0], [1.0, 1.0]]) == scipys([[1.0, 1.0], [1.0, 1.0]])
        assert lsap.answered() == 1
    finally:
        lsap.stop_helper()
        _reaped(pid)
