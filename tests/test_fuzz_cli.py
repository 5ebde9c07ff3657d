"""Fuzzing the whole command: random bytes and mutations of real shared files go through
`corefreport score` (typer's CliRunner) as key, response or both. The exit code is 0 or 2 and no
traceback is printed — never an unhandled exception (about 10 s)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from corefreport.cli import app

from conftest import SHARED

runner = CliRunner()
SEEDS = {
    ".conll": (SHARED / "data" / "xrenner" / "conll2012" / "ml-gum.conll").read_bytes()[:6000],
    ".tsv": (SHARED / "data" / "gum" / "coref" / "gum" / "tsv" / "GUM_bio_byron.tsv").read_bytes()[:6000],
    ".jsonlines": b'{"doc_key": "d", "sentences": [["John", "saw", "him"]], "clusters": [[[0, 0], [2, 2]]]}\n',
}
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.function_scoped_fixture])


@st.composite
def mutated(draw):
    suffix = draw(st.sampled_from(sorted(SEEDS)))
    data = bytearray(SEEDS[suffix])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "flip", "truncate", "dup"]))
        i = draw(st.integers(0, max(len(data) - 1, 0)))
        j = min(len(data), i + draw(st.integers(1, 200)))
        if kind == "delete":
            del data[i:j]
        elif kind == "insert":
            data[i:i] = draw(st.sampled_from([b"\t", b"\n", b"(", b")", b"|", b"-", b"#end document\n",
                                              b"#begin document (x);\n", b"\xff\xfe", b"{", b"]", b"null", b"_"]))
        elif kind == "flip":
            data[i:i + 1] = bytes([draw(st.integers(0, 255))])
        elif kind == "truncate":
            del data[i:]
        else:
            data[i:i] = data[i:j]
    return suffix, bytes(data)


def check(tmp: Path, key: tuple[str, bytes], resp: tuple[str, bytes], extra: list[str]) -> None:
    k = tmp / f"key{key[0]}"
    r = tmp / f"resp{resp[0]}"
    k.write_bytes(key[1])
    r.write_bytes(resp[1])
    res = runner.invoke(app, ["score", str(k), str(r), "-q", *extra])
    assert res.exit_code in (0, 2), (res.exit_code, res.output, repr(res.exception))
    assert "Traceback" not in res.output
    if res.exit_code == 2:
        assert res.output.strip().startswith("corefreport: error:") or "Usage" in res.output, res.output


@FAST
@given(mutated(), st.sampled_from([[], ["-a", "typed"], ["-a", "arcs", "-m", "muc"], ["-m", "muc,plink", "--by", "mtype"]]))
def test_mutated_key_against_its_seed(tmp_path, key, extra):
    check(tmp_path, key, (key[0], SEEDS[key[0]]), extra)


@FAST
@given(mutated(), st.binary(max_size=300))
def test_mutated_response_and_random_bytes(tmp_path, resp, noise):
    check(tmp_path, (resp[0], SEEDS[resp[0]]), resp, ["-m", "muc,bcub"])
    check(tmp_path, (".conll", SEEDS[".conll"]), (".conll", noise), [])
