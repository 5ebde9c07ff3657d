"""Reader errors that name their cause (the reliability reviews of 2026-11-27 and 2026-11-29):
markup that detection takes for CoNLL-2012 (L21, L24, L30), an unreadable folder (F51), a repeated
document id behind a token-count mismatch (K17)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.errors import InputError
from corefreport.io import KNOWN_SUFFIXES, expand
from conftest import one_error_line

runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def doc(name: str, words: list[str], cells: dict[int, str]) -> str:
    rows = [f"{name}\t0\t{i}\t{w}\t{cells.get(i, '-')}" for i, w in enumerate(words)]
    return f"#begin document ({name}); part 000\n" + "\n".join(rows) + "\n\n#end document\n"


KEY = doc("d1", ["John", "saw", "his", "dog", "."], {0: "(1)", 2: "(1)|(2", 3: "2)"}) \
    + doc("d2", ["The", "cat", "sat", "."], {0: "(3", 1: "3)"})


@pytest.mark.parametrize("text, fmt", [
    ("John|[e1]\tsaw\this|[e1],[e2\tdog|e2]\t.\nThe|[e3\tcat|e3]\tsat\t.\n", "text2text"),  # L21: TABs
    ("|[e1] |e1] |[e2]\n|[e1]\n", "text2text"),                                            # L24: tags only
    ("John | 1 </m> saw his dog .\nThe cat sat .\n", "brackets"),                          # L30: </m> only
])
def test_markup_taken_for_conll2012_gets_a_hint(tmp_path: Path, text: str, fmt: str) -> None:
    key, resp = tmp_path / "key.conll", tmp_path / "r.txt"
    key.write_text(KEY)
    resp.write_text(text)
    line = one_error_line(run("score", key, resp))
    assert "r.txt:1: token line outside a document" in line
    assert line.endswith(f"it looks like LLM markup: give --response-format {fmt} (docs/formats.md)"), line


def test_a_plain_conll_line_outside_a_document_gets_no_hint(tmp_path: Path) -> None:
    key, resp = tmp_path / "key.conll", tmp_path / "r.conll"
    key.write_text(KEY)
    resp.write_text("d1\t0\t0\tJohn\t(1)|(2)\n" + KEY)
    line = one_error_line(run("score", key, resp))
    assert line.endswith("r.conll:1: token line outside a document (no '#begin document' line before it)"), line


def test_the_hinted_format_reads_the_tabbed_markup(tmp_path: Path) -> None:
    """L21 with the hint followed: the key's own mentions, so the key's scores (100)."""
    key, resp = tmp_path / "key.conll", tmp_path / "r.txt"
    key.write_text(KEY)
    resp.write_text("John|[e1]\tsaw\this|[e1],[e2\tdog|e2]\t.\nThe|[e3\tcat|e3]\tsat\t.\n")
    res = run("score", key, resp, "--response-format", "text2text", "-m", "muc,bcub", "-f", "json")
    assert res.exit_code == 0, res.output
    import json

    metrics = json.loads(res.stdout)["metrics"]
    assert metrics["muc"]["f1"] == 1.0 and metrics["bcub"]["f1"] == 1.0


def _denied(monkeypatch, name: str) -> None:
    """``os.scandir`` of a folder called ``name`` raises as an unreadable folder does (chmod does not
    deny root)."""
    real = os.scandir

    def scandir(path="."):
        if os.path.basename(os.fspath(path)) == name:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def test_an_unreadable_folder_says_so(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "npd"
    folder.mkdir()
    (folder / "a.conll").write_text(KEY)
    _denied(monkeypatch, "npd")
    with pytest.raises(InputError) as err:
        expand(str(folder))
    assert err.value.path == str(folder) and err.value.problem == "cannot read this folder: Permission denied"
    line = one_error_line(run("score", folder, folder))
    assert f"{folder}: cannot read this folder: Permission denied" in line and "no corpus files" not in line


def test_an_unreadable_subfolder_is_not_left_out_silently(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "c" / "sub").mkdir(parents=True)
    (tmp_path / "c" / "a.conll").write_text(KEY)
    (tmp_path / "c" / "sub" / "b.conll").write_text(KEY.replace("d1", "d3").replace("d2", "d4"))
    assert expand(str(tmp_path / "c")) == [str(tmp_path / "c" / "a.conll"), str(tmp_path / "c" / "sub" / "b.conll")]
    _denied(monkeypatch, "sub")
    with pytest.raises(InputError) as err:
        expand(str(tmp_path / "c"))
    assert err.value.path == str(tmp_path / "c" / "sub")
    assert err.value.problem == f"cannot read this folder: Permission denied (inside {tmp_path / 'c'}; its files " \
                                "would be left out)"


def test_the_corpus_files_of_a_folder_are_what_they_were(tmp_path: Path) -> None:
    """Sub-folders read, hidden files and other suffixes not, links to files read, links to folders
    not followed (as pathlib's rglob on Python 3.11)."""
    c = tmp_path / "c"
    (c / "s").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "x.conll").write_text(KEY)
    for name in ("b.conll", "a.conllu", ".hidden.conll", "notes.pdf", "s/c.jsonlines"):
        (c / name).write_text(KEY)
    (c / "link.conll").symlink_to(c / "b.conll")
    (c / "dirlink").symlink_to(tmp_path / "elsewhere")
    got = [Path(f).relative_to(c).as_posix() for f in expand(str(c))]
    assert got == ["a.conllu", "b.conll", "link.conll", "s/c.jsonlines"]
    assert got == sorted(str(f.relative_to(c)) for f in c.rglob("*") if f.is_file() and not f.name.startswith(".")
                         and f.name.endswith(KNOWN_SUFFIXES))


@pytest.mark.parametrize("side", ["response", "key"])
def test_a_repeated_id_behind_a_token_count_mismatch_is_named(tmp_path: Path, side: str) -> None:
    """K17: the response writes d1 twice, its last copy shorter than the key's d1: the error says
    the id is repeated and which copy was read (scorer.pl v8.01 reads the last)."""
    good = tmp_path / "good.conll"
    good.write_text(KEY)
    dup = tmp_path / "dup.conll"
    dup.write_text(KEY.split("#begin document (d2)")[0] + doc("d1", ["The", "cat", "sat", "."], {0: "(3", 1: "3)"}))
    key, resp = (good, dup) if side == "response" else (dup, good)
    line = one_error_line(run("score", key, resp))
    n_key, n_resp = (5, 4) if side == "response" else (4, 5)
    assert line == (f"corefreport: error: {dup}:9: document 'd1; part 000' has {n_key} tokens in the key ({key}) "
                    f"but {n_resp} in the response ({resp}), and the {side} writes this id 2 times (#begin document "
                    "at lines 1 and 9): only this last copy (line 9) is scored, as scorer.pl v8.01 does; the copy at "
                    "line 1 is ignored (--repeated-documents rename scores each copy)"), line
    assert run("score", key, resp, "--repeated-documents", "rename").exit_code == 0
