"""``--datasets MANIFEST`` at its edges (the reliability review of 2026-11-29, D08, D22, D24, D30):
globs in KEY and RESPONSE (docs/datasets.md), a carriage return inside a line, a trailing TAB, and
a FIFO manifest with no writer — each a correct result or one error line naming the manifest's line.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.study import manifest as manifest_module
from conftest import one_error_line

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def conll(name: str, words: list[str], chains: dict[int, tuple[int, int]]) -> str:
    """A one-sentence CoNLL-2012 document; ``chains``: chain id → (first, last) word of its mention."""
    cells = [[] for _ in words]
    for cid, (a, b) in chains.items():
        if a == b:
            cells[a].append(f"({cid})")
        else:
            cells[a].append(f"({cid}")
            cells[b].append(f"{cid})")
    rows = [f"{name}\t0\t{i}\t{w}\t{'|'.join(c) or '-'}" for i, (w, c) in enumerate(zip(words, cells))]
    return f"#begin document ({name}); part 000\n" + "\n".join(rows) + "\n\n#end document\n"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """gold/a.conll and gold/b.conll: one document each, one chain of two mentions each."""
    gold = tmp_path / "gold"
    gold.mkdir()
    (gold / "a.conll").write_text(conll("a", ["Mary", "saw", "her"], {1: (0, 0), 2: (2, 2)}).replace("(2)", "(1)"))
    (gold / "b.conll").write_text(conll("b", ["The", "cat", "ran", "it", "slept"], {1: (0, 1)})
                                  .replace("b\t0\t3\tit\t-", "b\t0\t3\tit\t(1)"))
    return tmp_path


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "m.tsv"
    p.write_bytes(text.encode("utf-8"))
    return p


def test_a_glob_in_a_manifest_line_is_one_corpus_of_its_files(corpus: Path) -> None:
    """docs/datasets.md: KEY and RESPONSE may be globs. The key scored against itself: 100 % over
    both documents (2 chains, 4 mentions: MUC 2/2 links, B³ 4/4)."""
    m = write(corpus, "both\tgold/*.conll\tgold/*.conll\nname\tgold/a.conll\tgold/[a].conll\n")
    res = run("score", "--datasets", m, "-m", "muc,bcub", "-f", "json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    both = out["datasets"]["both"]
    assert both["metrics"]["muc"]["f1"] == 1.0 and both["metrics"]["bcub"]["f1"] == 1.0
    assert both["documents"] == 2 and both["corpus"]["key"] == {"documents": 2, "mentions": 4, "chains": 2,
                                                                "singletons": 0}
    assert (both["metrics"]["muc"]["recall_num"], both["metrics"]["muc"]["recall_den"]) == (2, 2)
    assert out["datasets"]["name"]["documents"] == 1  # gold/[a].conll: a glob of the one file a.conll


def test_a_glob_matching_nothing_names_the_line(corpus: Path) -> None:
    m = write(corpus, "# x\nok\tgold/a.conll\tgold/a.conll\nx\tgold/a.conll\tpred/*.conll\n")
    line = one_error_line(run("score", "--datasets", m))
    assert "m.tsv:3: dataset 'x': response pattern" in line and "pred/*.conll' matches no file" in line, line


def test_a_carriage_return_inside_a_line_is_named(corpus: Path) -> None:
    m = write(corpus, "a\rb\tgold/a.conll\tgold/a.conll\n")
    line = one_error_line(run("score", "--datasets", m))
    assert "m.tsv:1: a carriage return (CR) inside the line, after 'a'" in line, line
    assert "field(s)" not in line


def test_crlf_line_ends_are_read(corpus: Path) -> None:
    m = write(corpus, "a\tgold/a.conll\tgold/a.conll\r\nb\tgold/b.conll\tgold/b.conll\r\n")
    res = run("score", "--datasets", m, "-m", "muc", "-f", "json")
    assert res.exit_code == 0, res.output
    assert list(json.loads(res.stdout)["datasets"]) == ["a", "b"]


@pytest.mark.parametrize("line, problem", [
    ("a\tgold/a.conll\tgold/a.conll\t", "got 4 field(s) (a TAB at the end of the line?): ['a', 'gold/a.conll', "
                                        "'gold/a.conll', '']"),
    ("a\t\tgold/a.conll", "got 3 field(s) (an empty field): ['a', '', 'gold/a.conll']"),
    ("a b c", "got 1 field(s): ['a b c']"),
])
def test_a_wrong_field_count_quotes_the_fields_it_counted(corpus: Path, line: str, problem: str) -> None:
    m = write(corpus, line + "\n")
    assert f"m.tsv:1: a dataset line is NAME<TAB>KEY<TAB>RESPONSE, {problem}" in one_error_line(
        run("score", "--datasets", m))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_manifest_without_a_writer_stops_after_the_wait(corpus: Path, monkeypatch) -> None:
    monkeypatch.setattr(manifest_module, "FIFO_WAIT", 0.3)
    fifo = corpus / "fifo"
    os.mkfifo(fifo)
    t = time.monotonic()
    line = one_error_line(run("score", "--datasets", fifo))
    assert time.monotonic() - t < 5
    assert "fifo: a FIFO that nothing wrote to in 0.3 s" in line, line


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_manifest_with_a_writer_is_read(corpus: Path) -> None:
    fifo = corpus / "fifo"
    os.mkfifo(fifo)

    def writer() -> None:
        time.sleep(0.2)
        with open(fifo, "w") as f:
            f.write(f"a\t{corpus}/gold/a.conll\t")
            f.flush()
            time.sleep(0.2)  # a slow writer: the rest comes later
            f.write(f"{corpus}/gold/a.conll\n")

    th = threading.Thread(target=writer)
    th.start()
    res = run("score", "--datasets", fifo, "-m", "muc", "-f", "json")
    th.join()
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["datasets"]["a"]["metrics"]["muc"]["f1"] == 1.0
