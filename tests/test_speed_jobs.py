"""Issue 17: ``--jobs 2`` (the response read in a forked process) gives exactly what ``--jobs 1``
gives: the same output, the same errors in the same order."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from corefreport.cli import example_paths

ROOT = Path(__file__).resolve().parents[1]
KEY, RESPONSE = example_paths()
REF = ROOT.parent / "shared" / "data" / "conll-scorer-tests"

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="--jobs uses os.fork")


def cli(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run([sys.executable, "-m", "corefreport", *args], capture_output=True, text=True, env=env)


@pytest.mark.parametrize("extra", [["-f", "json", "--per-doc"], ["-f", "csv", "-m", "all"], ["-f", "json", "-a", "arcs"]])
def test_two_processes_print_what_one_prints(extra):
    one, two = cli("score", KEY, RESPONSE, "-j", "1", *extra), cli("score", KEY, RESPONSE, "-j", "2", *extra)
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout == two.stdout and one.stderr == two.stderr


@pytest.mark.skipif(not REF.is_dir(), reason="needs ../shared")
def test_two_processes_on_the_reference_cases():
    for key in sorted(REF.glob("TC-*.key"))[:6]:
        for resp in sorted(REF.glob(key.stem + "-*.response"))[:2]:
            one = cli("score", str(key), str(resp), "-f", "json", "-j", "1", "--per-doc")
            two = cli("score", str(key), str(resp), "-f", "json", "-j", "2", "--per-doc")
            assert (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout, two.stderr)


def test_errors_come_in_the_same_order(tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (d); part 000\n1\tw\t(1\n#end document\n")
    for args in ([KEY, str(bad)], [str(bad), RESPONSE], [str(bad), str(bad)], [KEY, str(tmp_path / "none")]):
        one, two = cli("score", *args, "-j", "1"), cli("score", *args, "-j", "2")
        assert one.returncode == two.returncode == 2
        assert one.stderr == two.stderr and one.stderr.startswith("corefreport: error: ")


def test_jobs_must_be_positive():
    res = cli("score", KEY, RESPONSE, "-j", "0")
    assert res.returncode == 2 and "--jobs" in res.stderr
