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


def _stream_pairs() -> list[tuple[str, str]]:
    pairs = [(KEY, RESPONSE)]
    base = ROOT / "bench-data" / "base.key"
    if base.exists():
        pairs.append((str(base), str(base.with_suffix(".response"))))
    gold, system = REF.parent / "gum" / "derived" / "conll2012", REF.parent / "xrenner" / "conll2012"
    if (gold / "gum.conll").exists():
        pairs += [(str(gold / "gum.conll"), str(system / "ml-gum.conll")),
                  (str(gold / "ontogum.conll"), str(system / "rules-ontonotes.conll"))]
    return pairs


@pytest.mark.parametrize("key,response", _stream_pairs())
def test_a_pool_scores_what_one_process_scores(key, response):
    """Issue 17 item 4: the documents scored by 2 or 3 processes, added up in key order — the same
    JSON, byte for byte, per document included."""
    one = cli("score", key, response, "-f", "json", "--per-doc", "-j", "1")
    assert one.returncode == 0, one.stderr
    for jobs in ("2", "3"):
        many = cli("score", key, response, "-f", "json", "--per-doc", "-j", jobs)
        assert (many.returncode, many.stdout, many.stderr) == (0, one.stdout, one.stderr)


def test_a_pool_meets_a_response_out_of_order(tmp_path):
    """A response in another order, with a document missing and one extra: the pool gives way to
    one process; the numbers and warnings are those of -j 1."""
    import re

    docs = re.findall(r"#begin document.*?#end document\n", Path(RESPONSE).read_text(encoding="utf-8"), re.S)
    resp = tmp_path / "r.conll"
    resp.write_text("".join([docs[2], docs[0], docs[0].replace("GUM_", "EXTRA_", 1)]), encoding="utf-8")
    one = cli("score", KEY, str(resp), "-f", "json", "--per-doc", "-j", "1")
    two = cli("score", KEY, str(resp), "-f", "json", "--per-doc", "-j", "2")
    assert one.returncode == 0 and "missing from the response" in one.stderr and "not in the key" in one.stderr
    assert (one.stdout, one.stderr) == (two.stdout, two.stderr)


def test_default_jobs_is_one_process_for_small_corpora(tmp_path):
    from corefreport.study.run import POOL_BYTES, pool_size

    small = tmp_path / "small.conll"
    small.write_text("x" * 1000)
    assert pool_size(None, [str(small)]) == 1
    assert pool_size(3, [str(small)]) == 3
    big = tmp_path / "big.conll"
    with open(big, "wb") as f:
        f.truncate(POOL_BYTES)
    assert 1 <= pool_size(None, [str(big)]) <= min(4, len(os.sched_getaffinity(0)))
