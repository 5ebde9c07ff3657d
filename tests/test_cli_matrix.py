"""The command line on a generated matrix (issue 26): random key/response pairs written in the four
input formats, broken and harmless mutations of them, the options, typed schemes and output targets —
over 1,200 runs of ``corefreport`` (typer's CliRunner in-process, a few real processes).

Every run must end in one of two ways:

* exit 0 with a correct result: the JSON's numbers equal an independent implementation's
  (``scorch.scores``: MUC, B³, CEAF-m, CEAF-e, BLANC; mention detection counted here) on the chains
  the generator wrote, or an invariant that must hold (a metric subset gives the same numbers as
  the full set, ``--jobs N`` the same bytes as ``--jobs 1``, CSV the same numbers as JSON, ``-o FILE``
  the bytes of standard output, ``-a`` leaves the standard metrics alone …);
* exit 2 with one line ``corefreport: error: …`` naming the file (and the line where one applies),
  no traceback.

The inputs are generated here from a fixed seed (nothing is read from ../shared); the cases follow
the reliability review's 291-case matrix (``../shared/reviews/reliability-repro``). ``CLASSES``
counts what each case ended in; ``test_the_matrix_is_large_enough`` checks the total.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import re
import stat
import statistics
import subprocess
import sys
import threading
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import one_error_line
from corefreport.cli import app
from ptyrun import run_on_pty

from generated_corpora import (FORMATS, Doc, chains_of, random_pair, random_response, write_conll2012, write_conllu,
                               write_jsonlines, write_side, write_webanno)

scorch = pytest.importorskip("scorch.scores")

runner = CliRunner()
SRC = str(Path(__file__).resolve().parents[1] / "src")
CLASSES: Counter = Counter()
"""How the cases ended: ``exit 0 correct`` or ``exit 2 clear`` (filled as the tests run)."""

# --- the oracle -----------------------------------------------------------------------------------

def clusters(docs: list[Doc], singletons: bool = True) -> list[set]:
    return [{(d.name, s) for s in c} for d in docs for c in d.chains if singletons or len(c) > 1]


def expected(keys: list[Doc], resps: list[Doc], singletons: bool = True) -> dict[str, tuple[float, float, float]]:
    """R, P, F1 of MUC, B³, CEAF-m, CEAF-e by scorch over all documents at once (their mentions
    apart: every one of these sums over documents), BLANC for one document, and mention detection."""
    k, r = clusters(keys, singletons), clusters(resps, singletons)
    out = {}
    for name, f in (("muc", scorch.muc), ("bcub", scorch.b_cubed), ("ceafm", scorch.ceaf_m),
                    ("ceafe", scorch.ceaf_e), ("blanc", scorch.blanc)):
        if name == "blanc" and (len(keys) > 1 or sum(len(c) for c in k) < 2):
            continue  # BLANC's non-coreference links do not add over documents; one key mention: no links
        try:
            out[name] = tuple(f(k, r))
        except (statistics.StatisticsError, ZeroDivisionError):
            out[name] = None  # scorch cannot take R = P = 0: the score must be 0 there
    km, rm = set().union(*k) if k else set(), set().union(*r) if r else set()
    tp = len(km & rm)
    out["mentions"] = (tp / len(km) if km else 0.0, tp / len(rm) if rm else 0.0,
                       2 * tp / (len(km) + len(rm)) if km or rm else 0.0)
    return out


def assert_numbers(data: dict, want: dict) -> None:
    for name, rpf in want.items():
        got = data["mentions"] if name == "mentions" else data["metrics"][name]
        if rpf is None:
            assert got["f1"] == 0.0 and got["recall"] * got["precision"] == 0.0, (name, got)
        else:
            assert (got["recall"], got["precision"], got["f1"]) == pytest.approx(rpf, abs=1e-9), (name, got, rpf)


# --- running and judging --------------------------------------------------------------------------

def run(*args: str, input: bytes | None = None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def ok(res, cls: str = "exit 0 correct") -> str:
    """The run ended in exit 0, no traceback; its standard output."""
    assert res.exit_code == 0, (res.exit_code, res.output, repr(res.exception))
    assert "Traceback" not in res.output
    CLASSES[cls] += 1
    return res.stdout


def clear_error(res, names: str | Path | None = None, line: int | None = None, says: str = "") -> str:
    """The run ended in exit 2 with one ``corefreport: error:`` line (no traceback) naming ``names``
    (and ``:line:`` after it) and holding ``says``."""
    msg = one_error_line(res)
    if names is not None:
        where = f"{names}:{line}:" if line is not None else str(names)
        assert where in msg, (where, msg)
    assert says in msg, (says, msg)
    CLASSES["exit 2 clear"] += 1
    return msg


def score_json(key: Path, resp: Path, *extra: str) -> dict:
    return json.loads(ok(run("score", key, resp, "-f", "json", "-q", *extra)))


# --- 1. valid random pairs in every format and every pairing of formats ---------------------------

PAIRS = 24


@pytest.mark.parametrize("seed", range(PAIRS))
def test_random_pairs_in_every_format_agree_with_scorch(tmp_path, seed):
    """Each pair in the four formats (key and response in the same one) and in four mixed
    pairings: the printed numbers are scorch's on the chains written."""
    keys, resps = random_pair(seed)
    want = expected(keys, resps)
    pairings = [(f, f) for f in FORMATS] + [(FORMATS[seed % 4], FORMATS[(seed + 1 + k) % 4]) for k in range(3)]
    for kf, rf in pairings:
        folder = tmp_path / f"{kf}-{rf}"
        key = write_side(folder, "key", kf, keys)
        resp = write_side(folder, "response", rf, resps, offset=3)
        assert_numbers(score_json(key, resp), want)


@pytest.mark.parametrize("seed", range(PAIRS, PAIRS + 8))
def test_per_document_numbers_are_each_documents_own(tmp_path, seed):
    keys, resps = random_pair(seed, docs=3)
    key = write_side(tmp_path, "key", "conll2012", keys)
    resp = write_side(tmp_path, "response", "conll2012", resps)
    data = score_json(key, resp, "--per-doc")
    assert_numbers(data, expected(keys, resps))
    per = data["per_document"]
    assert len(per) == 3
    for k, r in zip(keys, resps):
        doc = next(v for name, v in per.items() if name.startswith(k.name))
        for name, rpf in expected([k], [r]).items():
            if name in doc and rpf is not None:
                got = doc[name]
                assert (got["recall"], got["precision"], got["f1"]) == pytest.approx(rpf, abs=1e-9), name


@pytest.mark.parametrize("seed", range(40, 52))
def test_other_writings_of_the_same_corpus(tmp_path, seed):
    """The same chains written otherwise read the same: CoNLL-2012 cells with their brackets in any
    order, one file per document in a folder or a quoted glob; CoNLL-U without ``# global.Entity``,
    with multi-word-token lines and empty nodes; JSON lines with other keys; WebAnno markables
    without ids and bare link targets."""
    rng = random.Random(seed)
    keys, resps = random_pair(seed)
    want = expected(keys, resps)

    def pair(name: str, write, suffix: str) -> None:
        k, r = tmp_path / f"{name}-key{suffix}", tmp_path / f"{name}-response{suffix}"
        k.write_text(write(keys), encoding="utf-8")
        r.write_text(write(resps), encoding="utf-8")
        assert_numbers(score_json(k, r), want)

    pair("shuffled", lambda d: write_conll2012(d, shuffle=rng), ".conll")
    pair("conllu", lambda d: write_conllu(d, variant=True), ".conllu")
    pair("jsonlines", lambda d: write_jsonlines(d, variant=True), ".jsonlines")
    for side, docs in (("key", keys), ("response", resps)):
        (tmp_path / side).mkdir()
        (tmp_path / f"wa-{side}").mkdir()
        for d in docs:
            (tmp_path / side / f"{d.name}.conll").write_text(write_conll2012([d]), encoding="utf-8")
            (tmp_path / f"wa-{side}" / f"{d.name}.tsv").write_text(write_webanno(d, bare=True), encoding="utf-8")
    assert_numbers(score_json(tmp_path / "key", tmp_path / "response"), want)
    assert_numbers(score_json(str(tmp_path / "key" / "*.conll"), str(tmp_path / "response" / "*.conll")), want)
    assert_numbers(score_json(tmp_path / "wa-key", tmp_path / "wa-response"), want)
    (tmp_path / "key" / "notes.tsv").write_bytes((tmp_path / "wa-key" / f"{keys[0].name}.tsv").read_bytes())
    clear_error(run("score", tmp_path / "key", tmp_path / "response"), tmp_path / "key", says="mixes formats")


# --- 2. options: invariants -----------------------------------------------------------------------

def _pair_files(tmp_path: Path, seed: int, fmt: str = "conll2012", docs: int | None = None):
    keys, resps = random_pair(seed, docs)
    return keys, resps, write_side(tmp_path, "key", fmt, keys), write_side(tmp_path, "response", fmt, resps)


@pytest.mark.parametrize("seed", range(100, 106))
def test_metric_subsets_singletons_and_duplicates_options(tmp_path, seed):
    """-m X gives X's numbers of the full run; --drop-singletons is scorch on chains of two or more;
    --keep-singletons and --key-duplicates dedupe (no span repeats) change nothing; -m all holds them."""
    keys, resps, key, resp = _pair_files(tmp_path, seed, FORMATS[seed % 4])
    full = score_json(key, resp)
    assert_numbers(full, expected(keys, resps))
    for subset in (["-m", "muc"], ["-m", "bcub,ceafe"], ["-m", "ceafm", "-m", "blanc"], ["-m", "lea,muc,muc"]):
        part = score_json(key, resp, *subset)
        names = {n for x in subset[1::2] for n in x.split(",")}
        assert set(part["metrics"]) == names
        assert {n: part["metrics"][n] for n in names} == {n: full["metrics"][n] for n in names}
    allm = score_json(key, resp, "-m", "all")
    assert {n: allm["metrics"][n] for n in full["metrics"]} == full["metrics"]
    assert score_json(key, resp, "--keep-singletons")["metrics"] == full["metrics"]
    assert score_json(key, resp, "--key-duplicates", "dedupe")["metrics"] == full["metrics"]
    dropped = score_json(key, resp, "--drop-singletons", "-m", "muc,bcub,ceafm,ceafe")
    want = {n: v for n, v in expected(keys, resps, singletons=False).items() if n not in ("blanc", "mentions")}
    assert_numbers(dropped, want)


@pytest.mark.parametrize("seed", range(110, 116))
def test_matching_presets_and_analyses_leave_exact_numbers_where_they_must(tmp_path, seed):
    """--match head|partial on a response with the key's very mentions (only the chains differ)
    gives the exact numbers (exact matches come first, corefud-scorer's step 1); --preset crac
    --match exact is scorch without singletons; -a arcs|typed|errors keeps the standard numbers."""
    rng = random.Random(seed)
    keys, _ = random_pair(seed)
    resps = [replace(k, chains=chains_of(rng, [s for c in k.chains for s in c], len(k.chains) + 1)) for k in keys]
    fmt = ("conll2012", "conllu")[seed % 2]
    key, resp = write_side(tmp_path, "key", fmt, keys), write_side(tmp_path, "response", fmt, resps)
    full = score_json(key, resp)
    assert_numbers(full, expected(keys, resps))
    for match in ("head", "partial"):
        assert score_json(key, resp, "--match", match)["metrics"] == full["metrics"], match
    crac = score_json(key, resp, "--preset", "crac", "--match", "exact", "-m", "muc,bcub,ceafm,ceafe")
    assert_numbers(crac, {n: v for n, v in expected(keys, resps, singletons=False).items()
                          if n not in ("blanc", "mentions")})
    ok(run("score", key, resp, "--preset", "crac", "-q"))
    # LCC's classes (p, g, d…) are in no generated file: refused, naming the scheme
    clear_error(run("score", key, resp, "-a", "typed", "--scheme", "lcc"), says="scheme 'lcc'")
    for analysis in (["-a", "arcs"], ["-a", "typed"], ["-a", "errors"], ["-a", "arcs", "-a", "typed", "-a", "errors"],
                     ["-a", "typed", "--scheme", "derived"], ["-m", "plink", "--by", "mtype"]):
        data = score_json(key, resp, *analysis)
        for name, v in data["metrics"].items():
            if name in full["metrics"]:
                assert v == full["metrics"][name], (analysis, name)


@pytest.mark.parametrize("seed", range(120, 124))
def test_jobs_give_the_bytes_of_one_process(tmp_path, seed):
    _, _, key, resp = _pair_files(tmp_path, seed, docs=5)
    one = ok(run("score", key, resp, "-f", "json", "--per-doc", "-q", "--jobs", "1"))
    for n in ("2", "3", "64"):
        assert ok(run("score", key, resp, "-f", "json", "--per-doc", "-q", "--jobs", n)) == one, n
    for bad in ("0", "65", "-1", "abc", "99999999999999999999", "1.5"):
        res = run("score", key, resp, "--jobs", bad)
        clear_error(res) if res.exit_code == 2 and "corefreport: error" in res.output else _usage_error(res, "jobs")


def _usage_error(res, option: str) -> None:
    """typer's usage error for an option's value: exit 2, names the option, no traceback."""
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    assert option in res.output.lower(), res.output
    CLASSES["exit 2 clear"] += 1


def _numbers_of_csv(text: str) -> dict[str, dict[str, float]]:
    rows = list(csv.reader(io.StringIO(text)))
    head = rows[0]
    out: dict[str, dict[str, float]] = {}
    for r in rows[1:]:
        rec = dict(zip(head, r))
        if rec.get("table") == "metrics" or (rec.get("metric") and "f1" in rec and rec.get("f1")):
            try:
                out[rec["metric"]] = {k: float(rec[k]) for k in ("recall", "precision", "f1") if rec.get(k)}
            except (KeyError, ValueError):
                continue
    return out


@pytest.mark.parametrize("seed", range(130, 136))
def test_output_formats_agree(tmp_path, seed):
    """CSV holds JSON's numbers; the table, Markdown and LaTeX show each metric's F1 as JSON has it
    (two decimals, percent); --per-doc adds a row per document to each."""
    _, _, key, resp = _pair_files(tmp_path, seed, FORMATS[seed % 4])
    data = score_json(key, resp)
    got = _numbers_of_csv(ok(run("score", key, resp, "-f", "csv", "-q")))
    for name, v in data["metrics"].items():
        assert got[name]["f1"] == pytest.approx(v["f1"], abs=1e-6) or got[name]["f1"] == pytest.approx(
            100 * v["f1"], abs=1e-4), name
    for fmt in ("table", "markdown", "latex"):
        text = ok(run("score", key, resp, "-f", fmt, "-q"))
        for name, v in data["metrics"].items():
            assert f"{100 * v['f1']:.2f}" in text, (fmt, name)
    for fmt in ("table", "markdown", "latex", "csv", "json"):
        ok(run("score", key, resp, "-f", fmt, "-q", "--per-doc"))
    for bad in ("xml", "JSON", ""):
        _usage_error(run("score", key, resp, "-f", bad), "format")


# --- 3. broken and harmless mutations of each format ----------------------------------------------

def _lines(p: Path) -> list[str]:
    return p.read_text(encoding="utf-8").split("\n")


def _token_line(lines: list[str], pred) -> int:
    """The 0-based index of the first line ``pred`` accepts."""
    return next(i for i, x in enumerate(lines) if pred(x))


def conll_mutations(lines: list[str]) -> list[tuple[str, str | bytes, int | None, str]]:
    """(name, new text, 1-based line the error must name or None, expected kind: 'error' | 'same')."""
    text = "\n".join(lines)
    out: list = []
    rows = [i for i, x in enumerate(lines) if x and not x.startswith("#")]
    cells = {i: lines[i].rsplit("\t", 1)[1].split("|") for i in rows}

    def with_cell(i: int, pieces: list[str]) -> str:
        return "\n".join(lines[:i] + [lines[i].rsplit("\t", 1)[0] + "\t" + ("|".join(pieces) or "-")] + lines[i + 1:])

    opener = next((i for i in rows if any(re.fullmatch(r"\(\d+", c) for c in cells[i])), None)
    if opener is not None:  # a multi-token mention: its opening, then its closing bracket removed
        piece = next(c for c in cells[opener] if re.fullmatch(r"\(\d+", c))
        label = piece[1:]
        closer = next(i for i in rows if i > opener and f"{label})" in cells[i])
        out.append(("opening removed", with_cell(opener, [c for c in cells[opener] if c != piece]), closer + 1, "error"))
        rest = list(cells[closer])
        rest.remove(f"{label})")
        out.append(("closing removed", with_cell(closer, [c for c in rest if c != "-"]), None, "error"))
    first = _token_line(lines, lambda x: x and not x.startswith("#"))
    for name, cellv in (("text cell", "Mary"), ("empty bracket", "()"), ("double open", "((1)"), ("bad close", "1)(")):
        row = lines[first].rsplit("\t", 1)[0] + "\t" + cellv
        out.append((name, "\n".join(lines[:first] + [row] + lines[first + 1:]), first + 1, "error"))
    end = _token_line(lines, lambda x: x.startswith("#end document"))
    out.append(("no #end document", "\n".join(lines[:end] + lines[end + 1:]), None, "error"))
    out.append(("token before #begin", lines[first] + "\n" + text, 1, "error"))
    latin = "\n".join(lines[:first] + [lines[first].replace("\t", "\tMa\udcffry", 1)] + lines[first + 1:])
    out.append(("not UTF-8", latin.encode("utf-8", "surrogateescape"), first + 1, "error"))
    out.append(("UTF-16", text.encode("utf-16"), None, "error"))
    out.append(("empty", "", None, "error"))
    out.append(("CRLF", text.replace("\n", "\r\n"), None, "same"))
    out.append(("BOM", "\ufeff" + text, None, "same"))
    out.append(("trailing TAB", "\n".join(x + "\t" if x and not x.startswith("#") else x for x in lines), None, "same"))
    out.append(("TAB on first lines", "\n".join(x + "\t" if i == first else x for i, x in enumerate(lines)), None, "same"))
    out.append(("spaces for TABs", text.replace("\t", "   "), None, "same"))
    out.append(("comment lines", text.replace("#end document", "# a comment\n#end document"), None, "same"))
    return out


def conllu_mutations(lines: list[str]) -> list:
    text = "\n".join(lines)
    out: list = []
    ent = next((i for i, x in enumerate(lines) if re.search(r"\(e\d+-x-1-(?!\))", x) and not x.startswith("#")), None)
    if ent is not None:
        f = lines[ent].split("\t")
        m = re.search(r"\(e(\d+)-x-1-(?!\))", f[9])
        f2 = list(f)
        v = f[9][:m.start()] + f[9][m.end():]
        f2[9] = v if v != "Entity=" else "_"
        closer = _token_line(lines[ent + 1:], lambda x: f"e{m.group(1)})" in x) + ent + 1
        out.append(("opening removed", "\n".join(lines[:ent] + ["\t".join(f2)] + lines[ent + 1:]), closer + 1, "error"))
        f3 = lines[closer].split("\t")
        v = f3[9].replace(f"e{m.group(1)})", "", 1)
        f3[9] = v if v != "Entity=" else "_"
        out.append(("closing removed", "\n".join(lines[:closer] + ["\t".join(f3)] + lines[closer + 1:]), None, "error"))
    first = _token_line(lines, lambda x: x[:1].isdigit())
    f = lines[first].split("\t")
    for name, row in (("bad ID", "\t".join(["four"] + f[1:])), ("4 columns", "\t".join(f[:4])),
                      ("garbage Entity", "\t".join(f[:9] + ["Entity=)))((("])),
                      ("head out of range", "\t".join(f[:9] + ["Entity=(e99-x-7-)"])),
                      ("bad discontinuous label", "\t".join(f[:9] + ["Entity=(e99[3/2]-x-1-)"]))):
        out.append((name, "\n".join(lines[:first] + [row] + lines[first + 1:]), first + 1, "error"))
    out.append(("CRLF", text.replace("\n", "\r\n"), None, "same"))
    out.append(("BOM", "\ufeff" + text, None, "same"))
    out.append(("empty", "", None, "error"))
    return out


def jsonlines_mutations(lines: list[str]) -> list:
    out: list = []
    obj = json.loads(lines[0])
    n = sum(len(s) for s in obj["sentences"])

    def with_first(new) -> str:
        return "\n".join([new if isinstance(new, str) else json.dumps(new)] + lines[1:])

    for name, change in (("span beyond", lambda o: o["clusters"][0].append([0, n + 5])),
                         ("end before start", lambda o: o["clusters"][0].append([2, 1])),
                         ("negative", lambda o: o["clusters"][0].append([-1, 0])),
                         ("non-int", lambda o: o["clusters"][0].append(["0", "0"])),
                         ("float", lambda o: o["clusters"][0].append([0.5, 1])),
                         ("three numbers", lambda o: o["clusters"][0].append([0, 0, 1])),
                         ("clusters a dict", lambda o: o.update(clusters={"a": [[0, 0]]})),
                         ("sentences a string", lambda o: o.update(sentences="a b c")),
                         ("no doc_key", lambda o: o.pop("doc_key"))):
        o = json.loads(lines[0])
        change(o)
        out.append((name, with_first(o), 1, "error"))
    out.append(("invalid JSON", with_first(lines[0][:-3]), 1, "error"))
    out.append(("array", with_first("[1, 2]"), 1, "error"))
    out.append(("deep", with_first("[" * 5000 + "]" * 5000), 1, "error"))
    out.append(("repeated doc_key", "\n".join(lines[:1] + lines), 2, "error"))
    out.append(("blank lines", "\n\n".join(lines), None, "same"))
    out.append(("CRLF", "\r\n".join(lines), None, "same"))
    return out


def webanno_mutations(lines: list[str]) -> list:
    out: list = []
    first = _token_line(lines, lambda x: x[:1].isdigit())
    f = lines[first].split("\t")
    for name, row in (("2 columns", "\t".join(f[:2])), ("bad token id", "\t".join(["x-y"] + f[1:])),
                      ("link to no token", "\t".join(f[:5] + ["coref", "99-99[1_0]"]))):
        out.append((name, "\n".join(lines[:first] + [row] + lines[first + 1:]), first + 1, "error"))
    out.append(("no #FORMAT header", "\n".join(x for x in lines if not x.startswith("#FORMAT")), None, "same"))
    out.append(("no span layer", "\n".join(x for x in lines if not x.startswith("#T_SP")), None, "error"))
    out.append(("CRLF", "\r\n".join(lines), None, "same"))
    return out


MUTATIONS = {"conll2012": conll_mutations, "conllu": conllu_mutations, "jsonlines": jsonlines_mutations,
             "webanno": webanno_mutations}


@pytest.mark.parametrize("seed", range(200, 205))
@pytest.mark.parametrize("fmt", FORMATS)
def test_mutations_are_clear_errors_or_the_same_numbers(tmp_path, fmt, seed):
    """Each mutation of the key, then of the response: a broken file is one error line naming the
    file and its line; a harmless change (CRLF, a BOM, trailing TABs…) gives the oracle's numbers."""
    keys, resps = random_pair(seed, docs=1)
    want = expected(keys, resps)
    clean = {"key": write_side(tmp_path / "clean", "key", fmt, keys),
             "response": write_side(tmp_path / "clean", "response", fmt, resps)}
    failed = []
    for side in ("key", "response") if seed % 2 else ("response", "key"):
        for k, (name, text, line, kind) in enumerate(MUTATIONS[fmt](_lines(clean[side]))):
            bad = tmp_path / f"{side}{k}" / clean[side].name
            bad.parent.mkdir()
            bad.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
            args = (bad, clean["response"]) if side == "key" else (clean["key"], bad)
            fmt_args = ["--key-format", fmt] if side == "key" else ["--response-format", fmt]
            res = run("score", *args, "-f", "json", "-q", *fmt_args)
            try:
                if kind == "error":
                    clear_error(res, bad, line)
                else:
                    assert_numbers(json.loads(ok(res)), want)
            except AssertionError as err:
                failed.append(f"{side} {name}: {err}"[:600])
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize("seed", range(300, 306))
def test_corpus_mismatches(tmp_path, seed):
    """A response document missing is scored empty (warned); an extra one is ignored; other words
    are warned (an error with --strict-tokens); fewer tokens or no shared document is an error;
    a key without mentions is an error; formats forced on the wrong file are errors."""
    keys, resps, key, resp = _pair_files(tmp_path, seed, docs=2)
    empty = [replace(resps[0], chains=()), resps[1]]
    only = write_side(tmp_path / "a", "response", "conll2012", resps[1:])
    assert_numbers(score_json(key, only), {n: v for n, v in expected(keys, empty).items() if n != "blanc"})
    extra = write_side(tmp_path / "b", "response", "conll2012", resps + [replace(resps[0], name="zzz")])
    assert_numbers(score_json(key, extra), expected(keys, resps))
    swapped = write_side(tmp_path / "c", "response", "conll2012", resps[::-1])
    assert_numbers(score_json(key, swapped), expected(keys, resps))
    other = [replace(r, sentences=tuple(tuple((w.upper(), p) for w, p in s) for s in r.sentences)) for r in resps]
    upper = write_side(tmp_path / "d", "response", "conll2012", other)
    assert_numbers(score_json(key, upper), expected(keys, resps))
    clear_error(run("score", key, upper, "--strict-tokens"), upper)
    short = [replace(resps[0], sentences=resps[0].sentences + ((("extra", "NN"),),)), resps[1]]
    clear_error(run("score", key, write_side(tmp_path / "e", "response", "conll2012", short)), "response.conll")
    renamed = write_side(tmp_path / "f", "response", "conll2012", [replace(r, name=r.name + "x") for r in resps])
    clear_error(run("score", key, renamed), renamed, says="share no document")
    bare = write_side(tmp_path / "g", "key", "conll2012", [replace(k, chains=()) for k in keys])
    clear_error(run("score", bare, resp), bare, says="no mentions")
    for fmt in FORMATS:
        if fmt != "conll2012":
            clear_error(run("score", key, resp, "--key-format", fmt), key)
    clear_error(run("score", tmp_path / "missing.conll", resp), "missing.conll")
    (tmp_path / "emptydir").mkdir()
    clear_error(run("score", key, tmp_path / "emptydir"), "emptydir")
    clear_error(run("score", key, str(tmp_path / "nomatch" / "*.conll")), "nomatch")


@pytest.mark.parametrize("fmt", FORMATS)
def test_standard_input_as_key_or_response(tmp_path, fmt):
    """``-`` for KEY or RESPONSE reads standard input (any format, detected); both ``-`` is an error."""
    keys, resps = random_pair(400 + FORMATS.index(fmt), docs=1)
    want = expected(keys, resps)
    key, resp = write_side(tmp_path, "key", fmt, keys), write_side(tmp_path, "response", fmt, resps)
    if fmt == "webanno":  # one file is one document named by its file stem: standard input's is not the key's
        clear_error(run("score", key, "-", input=resp.read_bytes()), says="share no document")
    else:
        assert_numbers(json.loads(ok(run("score", "-", resp, "-f", "json", "-q", input=key.read_bytes()))), want)
        assert_numbers(json.loads(ok(run("score", key, "-", "-f", "json", "-q", input=resp.read_bytes()))), want)
    clear_error(run("score", "-", "-", input=key.read_bytes()))
    clear_error(run("score", key, "-", input=b"\x00\xff garbage\n"), "<stdin>")


OPTION_ERRORS = [  # (arguments after KEY RESPONSE, what the one line must hold); from the review's O-cases
    (["-m", "lmuc", "--weights", "-1,1,1,1"], "--weights"), (["-m", "lmuc", "--weights", "nan,1,1,1"], "--weights"),
    (["-m", "lmuc", "--weights", "inf,1,1,1"], "--weights"), (["-m", "lmuc", "--weights", "1,1"], "--weights"),
    (["-m", "lmuc", "--weights", "a,b,c,d"], "--weights"), (["-a", "typed", "--k", "5,5,5,5"], "--k"),
    (["-a", "arcs", "--by", "nonsense"], "nonsense"), (["-a", "arcs", "--by", "col99"], "col99"),
    (["--by", "mtype"], "--by"), (["--match", "fuzzy"], "match"), (["--preset", "foo"], "preset"),
    (["--key-duplicates", "foo"], "key-duplicates"), (["--zero-match", "foo"], "zero-match"),
    (["-m", "nonsense"], "nonsense"), (["-m", "plink"], "--by"), (["-a", "nonsense"], "nonsense"),
    (["--example"], "--example"), (["--no-such-option"], "no-such-option"), (["extra.conll"], "extra.conll"),
    (["--links", "rows.jsonl"], "--links"),
]
"""Bad option values of ``score``: each one error line (ours or typer's usage error) naming the option."""


@pytest.mark.parametrize("extra, says", OPTION_ERRORS, ids=[" ".join(a) for a, _ in OPTION_ERRORS])
def test_bad_option_values_are_one_clear_line(tmp_path, extra, says):
    _, _, key, resp = _pair_files(tmp_path, 900)
    res = run("score", key, resp, *extra)
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    assert says in res.output, (says, res.output)
    assert res.output.count("corefreport: error:") == 1 or "Usage:" in res.output, res.output
    CLASSES["exit 2 clear"] += 1


def test_score_argument_shapes(tmp_path):
    """No argument, one, --example with a file: one line each; -m '' is the default metrics."""
    _, _, key, resp = _pair_files(tmp_path, 901)
    for args in ([], [key], ["--example", key]):
        res = run("score", *args)
        assert res.exit_code == 2 and "Traceback" not in res.output and (
            "corefreport: error:" in res.output or "Usage:" in res.output), res.output
        CLASSES["exit 2 clear"] += 1
    assert score_json(key, resp, "-m", "")["metrics"] == score_json(key, resp)["metrics"]


COMPARE_ERRORS = [(["--bootstrap", "-1"], "bootstrap"), (["--bootstrap", "1000000000"], "bootstrap"),
                  (["--randomization", "1000000000"], "randomization"), (["--seed", "-1"], "seed"),
                  (["--top", "-1"], "top"), (["--min-support", "-5"], "min-support"), (["--examples", "-1"], "examples"),
                  (["-m", "plink", "--by", "col12"], "plink"), (["--plink-compat"], "plink")]


@pytest.mark.parametrize("extra, says", COMPARE_ERRORS, ids=[" ".join(a) for a, _ in COMPARE_ERRORS])
def test_compare_bad_values(tmp_path, extra, says):
    _, _, key, resp = _pair_files(tmp_path, 902)
    other = write_side(tmp_path / "o", "response", "conll2012", random_pair(902)[0])
    res = run("compare", key, f"a={resp}", f"b={other}", "--no-analyses", *extra)
    assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    assert says in res.output, (says, res.output)
    CLASSES["exit 2 clear"] += 1


def test_compare_and_report_on_generated_pairs(tmp_path):
    """compare's JSON holds each system's score's numbers; the same name twice, a bare path, a
    system without the key's documents are errors; report writes HTML and LaTeX and refuses a
    .docx, an unknown section or layout, a --figures path that is a file, a system named twice."""
    keys, resps, key, resp = _pair_files(tmp_path, 903, docs=2)
    other_resps = [random_response(random.Random(k), d) for k, d in enumerate(keys)]
    other = write_side(tmp_path / "o", "response", "conll2012", other_resps)
    data = json.loads(ok(run("compare", key, f"a={resp}", f"b={other}", "--no-analyses", "--bootstrap", "20",
                             "--randomization", "20", "-f", "json", "-q")))
    text = json.dumps(data)
    for r in (resps, other_resps):
        for name, rpf in expected(keys, r).items():
            if name in ("muc", "bcub", "ceafe") and rpf is not None:
                assert repr(rpf[2]) in text or f"{rpf[2]:.6f}"[:-1] in text, name
    for args, says in (([f"a={resp}", f"a={other}"], "a"), ([str(resp)], ""),
                       ([f"a={resp}", f"b={tmp_path / 'missing.conll'}"], "missing.conll")):
        clear_error(run("compare", key, *args, "--no-analyses"), says=says)
    ok(run("report", key, resp, "-o", tmp_path / "r.html", "-q"))
    assert "<html" in (tmp_path / "r.html").read_text(encoding="utf-8").lower()
    ok(run("report", key, resp, "-o", tmp_path / "r.tex", "-q"))
    (tmp_path / "figfile").write_text("x")
    for extra, says in ((["-o", tmp_path / "r.docx"], "r.docx"), (["-o", tmp_path / "s.html", "--section", "nonsense"],
                        "nonsense"), (["-o", tmp_path / "s.tex", "--latex-layout", "foo"], "foo"),
                        (["-o", tmp_path / "s.html", "--figures", tmp_path / "figfile"], "figfile"),
                        (["-o", tmp_path / "s.html", "-r", f"a={resp}", "-r", f"a={other}"], "'a'"),
                        (["-o", tmp_path / "r.html"], "r.html")):
        res = run("report", key, resp, *extra)
        assert res.exit_code == 2 and "Traceback" not in res.output and says in res.output, (extra, res.output)
        CLASSES["exit 2 clear"] += 1


@pytest.mark.parametrize("seed", [1, 4, 17, 21])
def test_compare_scores_are_each_systems_own(tmp_path, seed):
    """compare KEY a=RESPONSE b=KEY: every metric's and every ARCS scenario's score of each system
    is the one score gives it. On these pairs one system has no row of an ARCS scenario (nothing
    of that kind occurs), which once stopped compare with a KeyError traceback."""
    keys, resps, key, resp = _pair_files(tmp_path, seed)
    data = json.loads(ok(run("compare", key, f"a={resp}", f"b={key}", "-q", "--bootstrap", "20",
                             "--randomization", "20", "-f", "json")))
    for name, path in (("a", resp), ("b", key)):
        own = score_json(key, path, "-a", "arcs", "-m", "all")
        for metric, v in own["metrics"].items():
            if metric in data["scores"]:
                assert data["scores"][metric][name] == pytest.approx(v["f1"], abs=1e-12), (name, metric)
        for scenario, v in own["arcs"].items():
            assert data["scores"][scenario][name] == pytest.approx(v["total"]["f1"], abs=1e-12), (name, scenario)
    want = expected(keys, resps)
    for metric in ("muc", "bcub", "ceafm", "ceafe"):
        assert data["scores"][metric]["a"] == pytest.approx(want[metric][2] if want[metric] else 0.0, abs=1e-12)


@pytest.mark.parametrize("key_fmt", ["conll2012", "jsonlines"])
def test_errors_with_head_matching_against_a_conllu_response(tmp_path, key_fmt):
    """Key: one mention "his dog"; response (CoNLL-U, heads given): "his dog" and "a cat" in one entity."""
    sentence = (("his", "PRP$"), ("dog", "NN"), ("saw", "VBD"), ("a", "DT"), ("cat", "NN"))
    key = Doc("d", (sentence,), (((0, 1),),))
    resp = replace(key, chains=(((0, 1), (3, 4)),))
    k, r = write_side(tmp_path, "key", key_fmt, [key]), write_side(tmp_path, "response", "conllu", [resp])
    for opts in (["--match", "head"], ["--preset", "crac"]):
        data = score_json(k, r, "-a", "errors", *opts)  # once a ValueError traceback (errorclasses._trim)
        e = data["errors"]  # the costs add up from the scored CoNLL F1 to 100
        assert e["scored_f1"]["conll"] == pytest.approx(data["metrics"]["conll"]["f1"], abs=1e-12)
        assert e["scored_f1"]["conll"] + sum(c["cumulative"]["conll"] for c in e["costs"]) == pytest.approx(1.0)


# --- 4. typed schemes ------------------------------------------------------------------------------

GOOD_SCHEMES = {
    "derived classes": 'name = "x"\nsource = "derived"\nclass_of = "before-slash"\n'
                       '[classes]\nNAME = "name"\nPRONOUN = "pronoun"\nNOMINAL = "nominal"\n',
    "n and attempted": 'name = "x"\nn = 3\nattempted = ["PRONOUN"]\nsource = "derived"\nclass_of = "before-slash"\n'
                       '[classes]\nNAME = "name"\nPRONOUN = "pronoun"\nNOMINAL = "nominal"\n',
}
BAD_SCHEMES = {
    "bad TOML": ('name = "x"\n[classes\np = 1\n', "TOML"),
    "no classes": ('name = "x"\n', "classes"),
    "n text": ('name = "x"\nn = "many"\n[classes]\nN = "name"\n', "n "),
    "n zero": ('name = "x"\nn = 0\n[classes]\nN = "name"\nP = "pronoun"\n', "n "),
    "n negative": ('name = "x"\nn = -2\n[classes]\nN = "name"\nP = "pronoun"\n', "n "),
    "n float": ('name = "x"\nn = 2.7\n[classes]\nN = "name"\nP = "pronoun"\n', "n "),
    "n huge": ('name = "x"\nn = 1e400\n[classes]\nN = "name"\n', "n "),
    "n bool": ('name = "x"\nn = true\n[classes]\nN = "name"\n', "n "),
    "types a string": ('name = "x"\ntypes = "oops"\n[classes]\nN = "name"\n', "types"),
    "classes a list": ('name = "x"\nclasses = ["a"]\n', "classes"),
    "class_of unknown": ('name = "x"\nclass_of = "bogus"\n[classes]\nN = "name"\n', "class_of"),
    "source unknown": ('name = "x"\nsource = "somewhere"\n[classes]\nN = "name"\n', "source"),
    "source a number": ('name = "x"\nsource = 3\n[classes]\nN = "name"\n', "source"),
    "attempted a string": ('name = "x"\nattempted = "N"\n[classes]\nN = "name"\n', "attempted"),
    "attempted unknown": ('name = "x"\nattempted = ["Q"]\n[classes]\nN = "name"\n', "attempted"),
    "name a table": ('[name]\na = 1\n[classes]\nN = "name"\n', "name"),
    "Latin-1": ('name = "Zitkus"\n[classes]\nN = "n\xe4me"\n'.encode("latin-1"), "UTF-8"),
}


def test_schemes_bundled_generated_valid_and_invalid(tmp_path, monkeypatch):
    """--scheme NAME is the shipped scheme even beside a folder of that name; a generated valid
    scheme file runs; every invalid one is one error line naming the file and the key at fault."""
    keys, resps, key, resp = _pair_files(tmp_path, 500)
    base = score_json(key, resp)
    monkeypatch.chdir(tmp_path)
    for name in ("gum", "derived", "lcc"):
        (tmp_path / name).mkdir()
    data = score_json(key, resp, "-a", "typed", "--scheme", "derived")
    assert data["metrics"] == base["metrics"] and "typed" in data
    for name in ("gum", "lcc"):  # their classes (link types, LCC codes) are not in a CoNLL-2012 file
        clear_error(run("score", key, resp, "-a", "typed", "--scheme", name), says=f"scheme '{name}'")
    wa = [write_side(tmp_path / "wa", side, "webanno", docs) for side, docs in (("key", keys), ("response", resps))]
    data = score_json(*wa, "-a", "typed", "--scheme", "gum")
    assert data["metrics"] == base["metrics"] and "typed" in data
    for name, text in GOOD_SCHEMES.items():
        p = tmp_path / f"good_{len(name)}.toml"
        p.write_text(text, encoding="utf-8")
        data = score_json(key, resp, "-a", "typed", "--scheme", str(p))
        assert data["metrics"] == base["metrics"] and "typed" in data, name
    for k, (name, (text, says)) in enumerate(BAD_SCHEMES.items()):
        p = tmp_path / f"bad{k}.toml"
        p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        clear_error(run("score", key, resp, "-a", "typed", "--scheme", str(p)), p, says=says)
    for name in ("nonexistent", "nonexistent.toml", "sub/x.toml"):
        clear_error(run("score", key, resp, "-a", "typed", "--scheme", name), name)
    for bad in (["--k", "2,0,0,0"], ["--k", "1,1"], ["--k", "nan,1,1,1"], ["--attempted", "zzz"], ["--attempted", ","]):
        res = run("score", key, resp, "-a", "typed", *bad)
        assert res.exit_code == 2 and "Traceback" not in res.output and bad[0] in res.output, (bad, res.output)
        CLASSES["exit 2 clear"] += 1


# --- 5. output targets -----------------------------------------------------------------------------

def _mknod(path: Path, minor: int) -> bool:
    """A private character device (1, minor: 3 null, 7 full) in a temporary folder, never /dev's."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
        return True
    except (PermissionError, OSError):
        return False


@pytest.mark.parametrize("fmt", ["json", "table", "csv", "markdown", "latex"])
def test_output_targets(tmp_path, fmt):
    """-o to a new file holds standard output's bytes; an existing file is refused without --force
    (left as it was) and replaced with it; a folder, a missing folder are errors; a symlink is
    written through (the link kept); a FIFO and a private null device are written in place, a
    private full device is an error; never a traceback."""
    _, _, key, resp = _pair_files(tmp_path, 600 + len(fmt))
    args = ["score", key, resp, "-f", fmt, "-q"]
    out = ok(run(*args))
    new = tmp_path / "new.out"
    ok(run(*args, "-o", new))
    assert new.read_text(encoding="utf-8") == out
    old = tmp_path / "old.out"
    old.write_text("old\n")
    clear_error(run(*args, "-o", old), old)
    assert old.read_text() == "old\n"
    ok(run(*args, "-o", old, "--force"))
    assert old.read_text(encoding="utf-8") == out
    (tmp_path / "adir").mkdir()
    clear_error(run(*args, "-o", tmp_path / "adir", "--force"), "adir")
    clear_error(run(*args, "-o", tmp_path / "nodir" / "x.out"), "nodir")
    target = tmp_path / "target.out"
    target.write_text("t\n")
    link = tmp_path / "link.out"
    link.symlink_to(target.name)
    clear_error(run(*args, "-o", link), "link.out")
    ok(run(*args, "-o", link, "--force"))
    assert link.is_symlink() and target.read_text(encoding="utf-8") == out
    dangling = tmp_path / "dangling.out"
    dangling.symlink_to("made.out")
    ok(run(*args, "-o", dangling))
    assert dangling.is_symlink() and (tmp_path / "made.out").read_text(encoding="utf-8") == out
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    ok(run(*args, "-o", fifo))
    reader.join(10)
    assert not reader.is_alive() and got[0].decode("utf-8") == out and stat.S_ISFIFO(fifo.stat().st_mode)
    null, full = tmp_path / "null", tmp_path / "full"
    if _mknod(null, 3) and _mknod(full, 7):
        for force in ([], ["--force"]):
            ok(run(*args, "-o", null, *force))
            assert stat.S_ISCHR(null.stat().st_mode)
            clear_error(run(*args, "-o", full, *force), full)
            assert stat.S_ISCHR(full.stat().st_mode)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".") or p.suffix == ".part"]
    assert not leftovers


def test_links_output_and_its_targets(tmp_path):
    """--links FILE (.jsonl or .csv) needs an analysis; it obeys the same target rules as -o."""
    _, _, key, resp = _pair_files(tmp_path, 700)
    clear_error(run("score", key, resp, "--links", tmp_path / "rows.jsonl"), says="--links")
    rows = tmp_path / "rows.jsonl"
    ok(run("score", key, resp, "-a", "arcs", "--links", rows, "-q"))
    assert all(json.loads(x) for x in rows.read_text(encoding="utf-8").splitlines())
    clear_error(run("score", key, resp, "-a", "arcs", "--links", rows, "-q"), rows)
    ok(run("score", key, resp, "-a", "arcs", "--links", tmp_path / "rows.csv", "-q"))
    null = tmp_path / "null"
    if _mknod(null, 3):
        ok(run("score", key, resp, "-a", "arcs", "--links", null, "--force", "-q"))
        assert stat.S_ISCHR(null.stat().st_mode)


# --- 6. the real command: the fast path and process-level inputs ----------------------------------

def cli(*args, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "corefreport", *map(str, args)], env=env, capture_output=True,
                          timeout=120, **kw)


def test_the_console_command_gives_the_same_results(tmp_path):
    """A few runs of the real command (its own option parser, corefreport.cli.fast): the numbers
    of the in-process runs, a FIFO as the key, standard input as the response, one clear error."""
    keys, resps, key, resp = _pair_files(tmp_path, 800, docs=2)
    want = expected(keys, resps)
    p = cli("score", key, resp, "-f", "json", "-q")
    assert p.returncode == 0, p.stderr
    assert_numbers(json.loads(p.stdout), want)
    CLASSES["exit 0 correct"] += 1
    fifo = tmp_path / "key.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(key.read_bytes()))
    writer.start()
    p = cli("score", fifo, "-", "-f", "json", "-q", input=resp.read_bytes())
    writer.join(10)
    assert p.returncode == 0, p.stderr
    assert_numbers(json.loads(p.stdout), want)
    CLASSES["exit 0 correct"] += 1
    p = cli("score", key, tmp_path / "missing.conll")
    assert p.returncode == 2 and p.stderr.decode().splitlines() == [
        f"corefreport: error: {tmp_path / 'missing.conll'}: no such file or directory"], p.stderr
    CLASSES["exit 2 clear"] += 1


# --- 7. the terminal browser: '-' refused, a FIFO read ---------------------------------------------

def test_tui_refuses_standard_input_and_reads_a_fifo(tmp_path):
    """``tui - RESPONSE`` (or ``KEY -``) is one error line: the browser reads its keys from standard
    input. A FIFO (or ``<(…)``) is read once by the browser's worker: its numbers are scorch's."""
    import asyncio

    from studies import pair_stages
    from corefreport.scoring.registry import STANDARD_METRICS
    from corefreport.scoring.settings import Settings
    from corefreport.tui.app import CorefApp

    keys, resps, key, resp = _pair_files(tmp_path, 1000, docs=2)
    for args in (["-", resp], [key, "-"]):
        clear_error(run("tui", *args, input=key.read_bytes()), says="cannot be '-'")
    p = cli("tui", "-", resp, input=key.read_bytes())
    assert p.returncode == 2 and len(p.stderr.decode().splitlines()) == 1 and b"cannot be '-'" in p.stderr, p.stderr
    CLASSES["exit 2 clear"] += 1
    fifo = tmp_path / "key.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(key.read_bytes()))
    writer.start()

    async def browse():
        app = CorefApp(stages=pair_stages(str(fifo), str(resp), Settings(metrics=STANDARD_METRICS)))
        async with app.run_test(size=(100, 30)) as pilot:
            for _ in range(500):
                if app.ev is not None and app.analyses_ready or app.error:
                    break
                await pilot.pause(0.02)
            assert not app.error, app.error
            return app.ev

    ev = asyncio.run(browse())
    writer.join(10)
    assert not writer.is_alive()
    for name, rpf in expected(keys, resps).items():
        if name in ("muc", "bcub", "ceafm", "ceafe") and rpf is not None:
            s = ev.metrics[name]
            assert (s.recall, s.precision, s.f1) == pytest.approx(rpf, abs=1e-9), name
    CLASSES["exit 0 correct"] += 1


@pytest.mark.skipif(not hasattr(os, "fork") or not Path("/bin/bash").exists(), reason="needs a pty and bash")
def test_tui_on_a_terminal_reads_a_process_substitution(tmp_path):
    """The real command on a pseudo-terminal: ``corefreport tui <(cat KEY) RESPONSE`` shows the
    scores and quits on q with exit 0."""
    _, _, key, resp = _pair_files(tmp_path, 1001, docs=2)
    ran = run_on_pty(["/bin/bash", "-c", f"exec '{sys.executable}' -m corefreport tui <(cat '{key}') '{resp}'"],
                     {"PYTHONPATH": SRC}, 60, answer=(b"MUC", b"q"))
    assert ran.answered and ran.code == 0, ran.out[-2000:]  # q was sent: the browser ends within seconds
    CLASSES["exit 0 correct"] += 1


def test_the_matrix_is_large_enough(request):
    """Runs last (pytest keeps a module's order): at least 500 cases ran, every one exit 0 correct
    or exit 2 clear (the others failed their test)."""
    opt = request.config.option
    if getattr(opt, "keyword", "") or getattr(opt, "markexpr", "") or any("::" in a for a in request.config.args):
        pytest.skip("a part of the module was selected: the count needs all of it")
    print(dict(CLASSES), sum(CLASSES.values()))
    assert sum(CLASSES.values()) >= 500, CLASSES
