"""Issue 17: ``score`` reads and scores document by document (memory flat in the corpus size) and
prints exactly what the whole-corpus path prints: the same JSON byte for byte, the same warnings in
the same order, the same errors."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from corefreport.cli import example_paths
from corefreport.io.conll2012 import iter_conll2012, read_conll2012, read_conll2012_at
from corefreport.io.stream import DocumentStream
from corefreport.scoring.settings import Settings
from corefreport.scoring.streaming import streams

from conftest import SHARED

ROOT = Path(__file__).resolve().parents[1]
KEY, RESPONSE = example_paths()
BENCH = ROOT / "bench-data"
DATA = SHARED / "data"

RUN = """
import sys
import corefreport.cli.run as run
import corefreport.io.conll2012 as conll
import corefreport.scoring.evaluate as evaluate
import corefreport.scoring.streaming as streaming
mode = sys.argv.pop(1)
def refuse(*a, **k):
    raise SystemExit("the whole-corpus path was taken")
if mode == "stream":  # neither the whole-file reader nor the whole-corpus evaluation may run
    conll.read_conll2012 = refuse
    evaluate.evaluate = refuse
else:
    streaming.streams = lambda settings: False
from corefreport.cli import main
main()
"""


def cli(mode: str, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run([sys.executable, "-c", RUN, mode, *args], capture_output=True, text=True, env=env)


def same_both_ways(*args: str, stream_taken: bool = True) -> subprocess.CompletedProcess:
    whole = cli("whole", *args)
    if stream_taken:
        streamed = cli("stream", *args)
    else:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        streamed = subprocess.run([sys.executable, "-m", "corefreport", *args], capture_output=True, text=True, env=env)
    assert streamed.returncode == whole.returncode, streamed.stderr
    assert streamed.stdout == whole.stdout
    assert streamed.stderr == whole.stderr
    return streamed


def real_pairs() -> list[tuple[str, str]]:
    pairs = [(KEY, RESPONSE)]
    if BENCH.joinpath("base.key").exists():
        pairs.append((str(BENCH / "base.key"), str(BENCH / "base.response")))
    gold, system = DATA / "gum" / "derived" / "conll2012", DATA / "xrenner" / "conll2012"
    for k, r in (("gum", "ml-gum"), ("gum", "rules-gum"), ("ontogum", "ml-ontonotes"), ("ontogum", "rules-ontonotes")):
        if (gold / f"{k}.conll").exists():
            pairs.append((str(gold / f"{k}.conll"), str(system / f"{r}.conll")))
    if (DATA / "xrenner" / "ml" / "gum").is_dir():  # a directory of 20 files against a glob of 20
        pairs.append((str(DATA / "gum" / "derived" / "gum_conll_numeric"), str(DATA / "xrenner" / "ml" / "gum" / "*.conll")))
    return pairs


@pytest.mark.parametrize("key,response", real_pairs())
def test_streamed_json_is_byte_identical_on_real_pairs(key, response):
    res = same_both_ways("score", key, response, "-f", "json", "--per-doc")
    assert res.returncode == 0 and '"per_document"' in res.stdout


def test_streamed_tables_and_metric_choices(tmp_path):
    for extra in (["-f", "csv", "-m", "muc", "-m", "lea"], ["--drop-singletons", "-f", "markdown"],
                  ["-m", "mor", "-m", "blanc_crac", "-f", "json"]):
        same_both_ways("score", KEY, RESPONSE, *extra)


def documents(text: str) -> list[str]:
    return re.findall(r"#begin document.*?#end document\n", text, re.S)


def write_docs(path: Path, docs: list[str]) -> str:
    path.write_text("".join(docs), encoding="utf-8")
    return str(path)


def test_response_in_another_order_is_read_from_its_offsets(tmp_path):
    docs = documents(Path(RESPONSE).read_text(encoding="utf-8"))
    random.Random(17).shuffle(docs)
    resp = write_docs(tmp_path / "shuffled.conll", docs)
    res = same_both_ways("score", KEY, resp, "-f", "json", "--per-doc")
    assert res.returncode == 0


def test_every_pairing_warning_is_given_the_same(tmp_path):
    kdocs = documents(Path(KEY).read_text(encoding="utf-8"))
    rdocs = documents(Path(RESPONSE).read_text(encoding="utf-8"))
    extra = rdocs[0].replace("GUM_", "EXTRA_", 2)
    renamed = rdocs[1]  # the same id twice: renamed with a warning
    cases = {
        "missing": rdocs[:2],
        "extra-at-end": rdocs + [extra],
        "extra-first": [extra] + rdocs,
        "repeated-id": rdocs + [renamed],
        "no-part": [d.replace("; part 000", "", 1) for d in rdocs],
        "empty-response": [re.sub(r"\t[^\t\n]*$", "\t-", d, flags=re.M) for d in rdocs],
        "words-differ": [rdocs[0], re.sub(r"(?m)^(\S+\t\S+\t\S+\t)\S+", r"\1jnk", rdocs[1], count=3), rdocs[2]],
    }
    for name, docs in cases.items():
        resp = write_docs(tmp_path / f"{name}.conll", docs)
        res = same_both_ways("score", KEY, resp, "-f", "json", "--per-doc")
        assert res.returncode == 0, (name, res.stderr)
        assert "warning" in res.stderr or name == "no-part", name
    # the key's own warnings come first, as they do when the corpora are read whole
    key = write_docs(tmp_path / "key.conll", kdocs + [kdocs[0]])
    res = same_both_ways("score", key, RESPONSE)
    assert "repeats; renamed" in res.stderr.splitlines()[0]


def test_errors_are_the_whole_file_errors(tmp_path):
    kdocs = documents(Path(KEY).read_text(encoding="utf-8"))
    bad_last = write_docs(tmp_path / "bad.conll", kdocs + ["#begin document (x); part 000\n1\tw\t(1\n#end document\n"])
    other = write_docs(tmp_path / "other.conll", [d.replace("GUM_", "OTHER_", 1) for d in kdocs])
    first = kdocs[0].splitlines(keepends=True)
    short = write_docs(tmp_path / "short.conll", ["".join(first[:-3] + first[-1:])] + kdocs[1:])
    for args in ([KEY, bad_last], [bad_last, RESPONSE], [KEY, other], [KEY, short], [KEY, str(tmp_path / "none")]):
        res = same_both_ways("score", *args, stream_taken=False)
        assert res.returncode == 2 and res.stderr.startswith("corefreport: error: "), res.stderr


def test_blocks_cut_anywhere_give_the_whole_file_documents(tmp_path):
    text = Path(KEY).read_text(encoding="utf-8")
    docs = documents(text)
    # a BOM, CRLF line ends, a non-ASCII word, comments and a stray blank line between documents
    odd = "\ufeff" + docs[0].replace("\n", "\r\n") + "\n# a comment\n" + docs[1].replace("\tthe\t", "\tthé\t") + docs[2]
    path = tmp_path / "odd.conll"
    path.write_text(odd, encoding="utf-8")
    whole = read_conll2012(str(path), columns=False)
    for block in (64, 1000, 4096, 1 << 20):
        warnings: list[str] = []
        got = list(iter_conll2012(str(path), set(), warnings, block=block))
        assert [d.doc_id for d, _, _ in got] == list(whole.documents)
        for (doc, offset, line), ref in zip(got, whole.documents.values()):
            assert (doc.tokens, doc.sentence_starts, doc.line) == (ref.tokens, ref.sentence_starts, ref.line)
            assert [[m.span for m in c] for c in doc.chains] == [[m.span for m in c] for c in ref.chains]
            again = read_conll2012_at(str(path), offset, line, doc.doc_id)
            assert again.tokens == ref.tokens and again.line == ref.line
        assert warnings == whole.warnings


def test_only_per_document_runs_stream():
    assert streams(Settings())
    assert streams(Settings(match="head"))  # issue 15: matching is per document (tests/test_stream_matching.py)
    assert streams(Settings(zeros="drop"))
    assert not streams(Settings(analyses=("arcs",)))
    assert not streams(Settings(metrics=("muc", "lmuc")))


def test_streamed_matching_prints_what_the_whole_corpus_prints():
    """--match head / partial and --preset crac, through the CLI: same output, same warnings
    (heads by rule 3a on CoNLL-2012), byte for byte."""
    for extra in (["--match", "head", "-f", "json", "--per-doc"], ["--match", "partial", "--drop-singletons"],
                  ["--preset", "crac", "-f", "json"]):
        res = same_both_ways("score", KEY, RESPONSE, *extra)
        assert res.returncode == 0 and "heads:rule" in res.stdout + res.stderr, res.stderr


def test_conllu_is_read_whole_and_handed_out_in_order():
    files = sorted((DATA / "gum").glob("**/*.conllu"))
    if not files:
        pytest.skip("needs ../shared")
    stream = DocumentStream(str(files[0]), key=True)
    assert not stream.streamed
    assert [d.doc_id for d in stream]


def _jsonlines(corpus_path: str, field: str, order: list[int] | None = None, extra: bool = False) -> str:
    import json

    docs = list(read_conll2012(corpus_path, columns=False).documents.values())
    lines = []
    for k in (order if order is not None else range(len(docs))):
        d = docs[k]
        bounds = d.sentence_starts + [len(d.tokens)]
        sentences = [d.tokens[a:b] for a, b in zip(bounds, bounds[1:])]
        clusters = [[[m.start, m.end] for m in c.mentions] for c in d.chains]
        lines.append(json.dumps({"doc_key": d.doc_id, "sentences": sentences, field: clusters}))
    if extra:
        lines.append(lines[0].replace('"GUM_', '"EXTRA_', 1))
    return "\n".join(lines) + "\n"


def test_json_lines_stream_a_line_at_a_time(tmp_path):
    """JSON lines (e2e-coref style) are read a document per line; in order, out of order, with a
    system's 'predicted_clusters' (and its warning) and an extra document: what the whole read gives."""
    key = tmp_path / "key.jsonlines"
    key.write_text(_jsonlines(KEY, "clusters"), encoding="utf-8")
    for name, order, extra in (("same", None, False), ("shuffled", [2, 0, 1], True), ("missing", [1], False)):
        resp = tmp_path / f"{name}.jsonlines"
        resp.write_text(_jsonlines(RESPONSE, "predicted_clusters", order, extra), encoding="utf-8")
        for k in (str(key), KEY):
            res = same_both_ways("score", k, str(resp), "-f", "json", "--per-doc")
            assert res.returncode == 0 and "predicted_clusters" in res.stderr, res.stderr
    assert DocumentStream(str(key), key=True).streamed
    sample = DATA / "jsonlines" / "docs.jsonlines"
    if sample.exists():
        same_both_ways("score", str(sample), str(sample), "-f", "json", "--per-doc")


def _peak_rss_mib(*args: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "corefreport", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return usage.ru_maxrss / 1024


def test_peak_memory_does_not_grow_with_the_corpus(tmp_path):
    """Issue 17 item 1: 8× the documents, about the same peak RSS, with the per-document output too
    (the corpus read whole takes ~5 MiB more per MB of key: ~45 MiB more at 400 documents)."""
    for docs in (50, 400):
        subprocess.run([sys.executable, str(ROOT / "bench" / "make_pair.py"), "--docs", str(docs), "--tokens", "500",
                        "--out", str(tmp_path / f"p{docs}")], check=True, capture_output=True)
    for extra in (["-f", "json"], ["-f", "json", "--per-doc"], ["-f", "csv", "--per-doc"]):
        small = _peak_rss_mib("score", str(tmp_path / "p50.key"), str(tmp_path / "p50.response"), "-j", "1", *extra)
        large = _peak_rss_mib("score", str(tmp_path / "p400.key"), str(tmp_path / "p400.response"), "-j", "1", *extra)
        assert large <= 1.25 * small, (extra, small, large)
