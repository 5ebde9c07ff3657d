"""Fuzzing the whole command: random bytes and mutations of seed files go through
`corefreport score` (typer's CliRunner) as key, response or both. The exit code is 0 or 2 and no
traceback is printed — never an unhandled exception (about 10 s).

The seeds are made here (the bundled example's CoNLL-2012, a generated WebAnno TSV and CoNLL-U, a
JSON line), so the fuzz runs on a fresh machine; where ../shared is beside the project, its real
xrenner CoNLL and GUM TSV files are seeds too."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from corefreport.cli import app

from conftest import SHARED
from generated_corpora import random_pair, write_conllu, write_webanno

runner = CliRunner()
EXAMPLE = Path(__file__).resolve().parents[1] / "src" / "corefreport" / "data" / "example" / "gum_key.conll"
_KEYS, _ = random_pair(7, docs=1)
SEEDS = {
    ".conll": EXAMPLE.read_bytes()[:6000],
    ".tsv": write_webanno(_KEYS[0]).encode("utf-8"),
    ".conllu": write_conllu(_KEYS).encode("utf-8"),
    ".jsonlines": b'{"doc_key": "d", "sentences": [["John", "saw", "him"]], "clusters": [[[0, 0], [2, 2]]]}\n',
}
SHARED_SEEDS = {".conll": SHARED / "data" / "xrenner" / "conll2012" / "ml-gum.conll",
                ".tsv": SHARED / "data" / "gum" / "coref" / "gum" / "tsv" / "GUM_bio_byron.tsv"}
for _suffix, _path in SHARED_SEEDS.items():
    if _path.is_file():  # the real files too, where ../shared is beside the project
        SEEDS["shared" + _suffix] = _path.read_bytes()[:6000]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.function_scoped_fixture])


@st.composite
def mutated(draw):
    name = draw(st.sampled_from(sorted(SEEDS)))
    suffix = name.removeprefix("shared")
    data = bytearray(SEEDS[name])
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
    return suffix, bytes(data), name


def check(tmp: Path, key: tuple, resp: tuple, extra: list[str]) -> None:
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
    check(tmp_path, key, (key[0], SEEDS[key[2]]), extra)


@FAST
@given(mutated(), st.binary(max_size=300))
def test_mutated_response_and_random_bytes(tmp_path, resp, noise):
    check(tmp_path, (resp[0], SEEDS[resp[2]]), resp, ["-m", "muc,bcub"])
    check(tmp_path, (".conll", SEEDS[".conll"]), (".conll", noise), [])
