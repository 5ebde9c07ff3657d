"""Text from an input file or a name is printed inert on every surface (issue 26).

A crafted corpus (escape sequences, an OSC 52 clipboard write, an 8-bit CSI, a bidi override,
Rich markup, HTML, Jinja and LaTeX in a document id and in the first word of each sentence) and
crafted names (a system, a file, a title, a scheme path) go through ``score`` (table on a terminal
and in a pipe, per document, Markdown, LaTeX, CSV, JSON), its warnings and errors, ``compare``,
``report`` (HTML, LaTeX) and the browser. No raw control character reaches the output; the
escaped form (``\\x1b[2J``) does; LaTeX never runs what a name holds, and still compiles.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from corefreport.io import load_corpus
from corefreport.present.inert import UNSAFE, inert, inert_styled, is_inert, json_inert
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

ESC_ID = "\x1b[2J\x1b]52;c;ZXZpbA==\x07\x9b2J\u202eRLO [b]B[/b] [link=http://e.x]L[/link] <i>x</i> {{7*7}} " \
         "\\input{/etc/passwd}%$#_~^&"
"""A document id that clears the screen, writes the clipboard (OSC 52 … BEL), sends an 8-bit CSI,
reverses the text after it, and holds Rich markup, HTML, Jinja and LaTeX."""
ESC_WORD = "\x1b[2J\x1b]52;c;ZXZpbA==\x07\x9b\u202eword<b>{x}%"
RAW = ("\x1b[2J", "\x1b]52", "\x07", "\x9b", "\u202e")
"""What must never be in an output (a coloured terminal's own ESC[…m may be)."""
SHOWN = "\\x1b[2J"
"""The visible escape of the id's first characters."""

SENTENCES_KEY = [[("John", "NNP", "(1)"), ("saw", "VBD", "-"), ("his", "PRP$", "(1)|(2"), ("dog", "NN", "2)"),
                  (".", ".", "-")],
                 [("It", "PRP", "(2)"), ("barked", "VBD", "-"), ("at", "IN", "-"), ("Mary", "NNP", "(3)"),
                  (".", ".", "-")]]
SENTENCES_RESP = [[("John", "NNP", "(7)"), ("saw", "VBD", "-"), ("his", "PRP$", "(7)"), ("dog", "NN", "(8)"),
                   (".", ".", "-")],
                  [("It", "PRP", "(8)"), ("barked", "VBD", "-"), ("at", "IN", "-"), ("Mary", "NNP", "-"),
                   (".", ".", "-")]]
PLAIN = [[("The", "DT", "(1"), ("cat", "NN", "1)"), ("sat", "VBD", "-"), (".", ".", "-")],
         [("She", "PRP", "(1)"), ("purred", "VBD", "-"), (".", ".", "-")]]


def _conll(docs) -> str:
    out = []
    for doc_id, sents in docs:
        out.append(f"#begin document ({doc_id}); part 000")
        for s in sents:
            for i, (w, pos, c) in enumerate(s):
                w = ESC_WORD if i == 0 and doc_id == ESC_ID else w
                out.append("\t".join([doc_id, "0", str(i), w, pos, "*", w.lower(), "-", "-", "-", "*", c]))
            out.append("")
        out.append("#end document")
    return "\n".join(out) + "\n"


@pytest.fixture(scope="module")
def evil(tmp_path_factory) -> dict[str, Path]:
    """The crafted pair (and a response without the crafted document, for warnings)."""
    d = tmp_path_factory.mktemp("evil")
    files = {"key": [(ESC_ID, SENTENCES_KEY), ("d2", PLAIN)], "resp": [(ESC_ID, SENTENCES_RESP), ("d2", PLAIN)],
             "other": [("d1", SENTENCES_RESP), ("d2", PLAIN)]}
    out = {}
    for name, docs in files.items():
        p = d / f"{name}.conll"
        p.write_text(_conll(docs), encoding="utf-8")
        out[name] = p
    return out


@pytest.fixture(scope="module")
def ev(evil):
    return evaluate(load_corpus(str(evil["key"]), key=True), load_corpus(str(evil["resp"])),
                    Settings(analyses=("arcs", "typed")), rows=True, documents=True)


def assert_inert(text: str, shown: str = SHOWN) -> None:
    for raw in RAW:
        assert raw not in text, (raw, text[:2000])
    if shown:
        assert shown in text, text[:3000]


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """A real ``python -m corefreport`` (the fast path and the typer path as a user runs them)."""
    return subprocess.run([sys.executable, "-m", "corefreport", *args], capture_output=True, text=True,
                          encoding="utf-8", errors="surrogateescape", cwd=cwd, timeout=300, check=False,
                          env={**os.environ, "COLUMNS": "80"})


# ---------------------------------------------------------------- the rule


def test_inert_escapes_exactly_the_controls_and_bidi_overrides():
    unsafe = set(range(0x20)) | set(range(0x7F, 0xA0)) | {0x2028, 0x2029} | set(range(0x202A, 0x202F)) \
        | set(range(0x2066, 0x206A))
    for cp in list(range(0x3000)) + [0xFEFF, 0x1F600]:
        ch = chr(cp)
        out = inert(f"a{ch}b")
        if cp in unsafe:
            assert out != f"a{ch}b" and out.isascii() and out.isprintable(), hex(cp)
        else:  # letters, NBSP, ZWJ, LRM … of every script stay as they are
            assert out == f"a{ch}b", hex(cp)
    assert inert("\x1b\x07\x9b\u202e\t\n") == "\\x1b\\x07\\x9b\\u202e\\t\\n"
    assert inert(inert(ESC_ID)) == inert(ESC_ID) and is_inert(inert(ESC_ID))


def test_json_inert_is_the_same_json_value():
    data = {"id": ESC_ID, "w": ESC_WORD, "n": "\x7f\x85\u2028"}
    text = json_inert(json.dumps(data, ensure_ascii=False))
    assert not UNSAFE.search(text) and json.loads(text) == data


def test_inert_styled_keeps_styles_on_their_characters():
    from rich.text import Text

    t = Text("ab")
    t.append("\x1b[2J", style="bold")
    t.append("z", style="italic")
    out = inert_styled(t)
    assert out.plain == "ab\\x1b[2Jz"
    assert [(s.start, s.end, str(s.style)) for s in out.spans] == [(2, 9, "bold"), (9, 10, "italic")]


# ---------------------------------------------------------------- score


@pytest.mark.parametrize("color", [False, True])
def test_score_table_per_document_on_a_terminal_and_in_a_pipe(ev, color):
    from corefreport.present.scoreview import print_evaluation

    out = io.StringIO()
    print_evaluation(ev, per_doc=True, file=out, color=color)  # True: Rich, as on a terminal
    text = out.getvalue()
    assert_inert(text, shown="")
    assert SHOWN in text.replace("\n", "")  # the id may fold over two lines of its column
    if not color:
        assert "\x1b" not in text


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex"])
def test_score_formats_through_the_command_line(evil, fmt):
    res = cli("score", str(evil["key"]), str(evil["resp"]), "--per-doc", "-f", fmt, "-a", "arcs")
    assert res.returncode == 0, res.stderr
    assert "\x1b" not in res.stdout
    assert_inert(res.stdout, shown={"table": "", "markdown": "\\\\x1b[2J", "latex": "\\textbackslash{}x1b[2J"}[fmt])
    if fmt == "latex":  # the id stays inside its cell: no live \input, no comment cutting the row
        assert "\\input{" not in res.stdout and "\\textbackslash{}input\\{/etc/passwd\\}\\%" in res.stdout


def test_score_json_keeps_the_exact_id_and_csv_keeps_it_in_a_pipe(evil):
    res = cli("score", str(evil["key"]), str(evil["resp"]), "--per-doc", "-f", "json", "-m", "muc")
    assert res.returncode == 0 and is_inert(res.stdout, keep="\n")
    assert ESC_ID + "; part 000" in json.loads(res.stdout)["per_document"]
    res = cli("score", str(evil["key"]), str(evil["resp"]), "--per-doc", "-f", "csv", "-m", "muc")
    assert res.returncode == 0 and ESC_ID in res.stdout  # CSV is data: the exact characters in a file or pipe


def test_csv_written_to_a_terminal_is_inert(ev, monkeypatch):
    from corefreport.cli.output import emit
    from corefreport.present.study import evaluation_output

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    term = Terminal()
    monkeypatch.setattr(sys, "stdout", term)
    emit(evaluation_output(ev, "csv", True), None, False)
    assert_inert(term.getvalue())
    from corefreport.present.render import tables_csv
    from corefreport.present.tables import all_tables

    exact = tables_csv(all_tables(ev, per_doc=True))
    assert ESC_ID in exact and term.getvalue() == inert(exact, keep="\n")  # the same rows, escaped


def test_warnings_and_errors_on_stderr_are_one_inert_line(evil, tmp_path):
    res = cli("score", str(evil["key"]), str(evil["other"]), "-m", "muc")
    assert res.returncode == 0
    lines = [x for x in res.stderr.splitlines() if "missing from the response" in x]
    assert len(lines) == 1 and lines[0].startswith("corefreport: warning: ")
    assert_inert(res.stderr)
    # a file name and a broken line quoted by an error
    res = cli("score", str(tmp_path / "k\x1b[2J\x07.conll"), str(evil["resp"]))
    assert res.returncode == 2 and res.stderr.count("\n") == 1
    assert_inert(res.stderr, shown="k\\x1b[2J\\x07.conll")
    bad = tmp_path / "bad.conll"
    bad.write_text(f"#begin document (x); part 000\nx\t0\t0\tw\tNN\t*\tw\t-\t-\t-\t*\t(1\x1b[2J\x07\n\n#end document\n",
                   encoding="utf-8")
    res = cli("score", str(bad), str(evil["resp"]))
    assert res.returncode == 2 and res.stderr.startswith("corefreport: error: ") and res.stderr.count("\n") == 1
    assert_inert(res.stderr)


# ---------------------------------------------------------------- compare


@pytest.mark.parametrize("color", [False, True])
def test_compare_names_ids_groups_and_examples(evil, color):
    from corefreport.present.terminal import print_comparison
    from corefreport.scoring.compare import compare

    kc = load_corpus(str(evil["key"]), key=True)
    settings = Settings(analyses=("arcs", "typed"))
    evs = {"\x1b[2Jbase\x07": evaluate(kc, load_corpus(str(evil["resp"])), settings),
           "sys\u202e[b]x[/b]": evaluate(kc, load_corpus(str(evil["key"])), settings)}
    cmp = compare(evs, "\x1b[2Jbase\x07", bootstrap=20, randomization=20)
    out = io.StringIO()
    print_comparison(cmp, file=out, color=color, min_support=0, examples=2)
    text = out.getvalue()
    assert_inert(text)
    assert "\\x1b[2Jbase\\x07" in text and "sys\\u202e[b]x[/b]" in text  # names as text, never markup
    assert "[link=http://e.x]" in text.replace("\n", "")  # a document id's markup printed, not a live link
    if not color:
        assert "\x1b" not in text


def test_compare_through_the_command_line(evil):
    res = cli("compare", str(evil["key"]), f"\x1b]52;c;YWJj\x07={evil['resp']}", f"b={evil['key']}",
              "--bootstrap", "10", "--randomization", "10", "--min-support", "0")
    assert res.returncode == 0, res.stderr
    assert "\x1b" not in res.stdout and "\x1b" not in res.stderr
    assert "\\x1b]52;c;YWJj\\x07" in res.stdout


# ---------------------------------------------------------------- report


def test_html_report_shows_escapes_and_escapes_markup(ev, tmp_path):
    from corefreport.report.document import write_report

    out = tmp_path / "r.html"
    write_report(ev, out, title="T\x1b[2J<script>alert(1)</script>\u202e")
    html = out.read_text(encoding="utf-8")
    assert_inert(html)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", html)  # well-formed XML characters only
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "{{7*7}}" in html  # a document id's Jinja is text, never evaluated


def _scheme_with_newlines(tmp_path: Path) -> Path:
    """A valid scheme file whose path holds a newline, ``\\input{/etc/passwd}`` and ``%``."""
    from importlib import resources

    folder = tmp_path / "sch\n\\input{" / "etc"
    folder.mkdir(parents=True)
    path = folder / "passwd}\n%.toml"
    path.write_text((resources.files("corefreport") / "schemes" / "derived.toml").read_text(encoding="utf-8"),
                    encoding="utf-8")
    return path


def _live_input(tex: str) -> list[str]:
    """The lines on which TeX would read an ``\\input`` that is not the tables file's."""
    return [ln for ln in tex.splitlines() if "\\input{" in ln.split("%", 1)[0] and ln.strip() != "\\input{r}"]


def test_latex_report_title_and_scheme_path_stay_inert(evil, tmp_path):
    scheme = _scheme_with_newlines(tmp_path)
    out = tmp_path / "r.tex"
    res = cli("report", str(evil["key"]), str(evil["resp"]), "-o", str(out), "-q", "-a", "typed",
              "--scheme", str(scheme), "--title", "My run\n\\input{/etc/passwd}%\x1b[2J")
    assert res.returncode == 0, res.stderr
    main = tmp_path / "r-main.tex"
    for f in (out, main):
        tex = f.read_text(encoding="utf-8")
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", tex)
        assert _live_input(tex) == [], _live_input(tex)
    tex = out.read_text(encoding="utf-8")
    assert "% My run\\n\\input{/etc/passwd}%\\x1b[2J\n" in tex  # the title: one comment line
    sig = [ln for ln in tex.splitlines() if ln.startswith("% signature: ")]
    assert len(sig) == 1 and "passwd}\\n%.toml" in sig[0]
    assert "\\textbackslash{}x1b[2J" in tex  # the document id in a table cell
    if shutil.which("pdflatex"):  # it compiles, and TeX never opened /etc/passwd
        run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "r-main.tex"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
        assert run.returncode == 0, run.stdout[-3000:]
        log = (tmp_path / "r-main.log").read_text(errors="replace")
        assert "/etc/passwd" not in log.replace("\\input{/etc/passwd}", "")


def test_score_latex_signature_comment_stays_one_line(evil, tmp_path):
    scheme = _scheme_with_newlines(tmp_path)
    res = cli("score", str(evil["key"]), str(evil["resp"]), "-a", "typed", "--scheme", str(scheme), "-f", "latex",
              "-m", "muc")
    assert res.returncode == 0, res.stderr
    assert _live_input(res.stdout) == []
    assert any(ln.startswith("% ") and "passwd}\\n%.toml" in ln for ln in res.stdout.splitlines())


def test_latex_names_that_cannot_be_input_or_labelled_are_refused(evil, tmp_path):
    res = cli("report", str(evil["key"]), str(evil["resp"]), "-o", str(tmp_path / "a}\\input{b}.tex"), "-q")
    assert res.returncode == 2 and "\\input{…} cannot read" in res.stderr and not list(tmp_path.glob("*.tex"))
    res = cli("report", str(evil["key"]), str(evil["resp"]), "-o", str(tmp_path / "a.tex"), "-q",
              "--label-prefix", "x}\n\\input{y}")
    assert res.returncode == 2 and "--label-prefix takes" in res.stderr and "\n" not in res.stderr.rstrip("\n")


# ---------------------------------------------------------------- the browser


def test_browser_shows_escapes_and_writes_no_control_character(ev):
    from corefreport.tui.app import CorefApp

    from conftest import browsing

    async def drive() -> tuple[str, str]:
        app = CorefApp(ev)
        async with browsing(app, (100, 30), "d") as pilot:
            screens = []
            for keys in ((), ("enter",), ("enter",)):  # documents, the crafted one's links, one link
                for k in keys:
                    await pilot.press(k)
                    await pilot.pause()
                comp = app.screen._compositor
                sequence = comp.render_full_update().render_segments(app.console)  # what the terminal gets
                text = "\n".join("".join(s.text for s in strip) for strip in comp.render_strips())
                screens.append((sequence, text))
            return screens

    screens = asyncio.run(drive())
    for sequence, text in screens:
        for raw in RAW:
            assert raw not in sequence and raw not in text
    assert SHOWN in screens[0][1]  # the documents table
    assert any("\\x1b[2J" in t and "[b]B[/b]" in t for _s, t in screens[1:])  # crumbs and the link pane


def test_browser_line_filter_strips_what_a_widget_would_draw_raw():
    from rich.segment import Segment

    from corefreport.tui.inert import InertLines

    segs = [Segment("ok "), Segment("\x1b[2Jx\u202e", None), Segment("\x07")]
    out = InertLines().apply(segs, None)
    assert "".join(s.text for s in out) == "ok [2Jx" and sum(len(s.text) for s in out) == 7


def test_dataset_and_run_names_are_inert_in_every_format(tmp_path):
    """A dataset name comes from the manifest, a run's from the command line: the terminal table,
    Markdown and LaTeX show its escapes (present/study.Output, present/scoreview.show)."""
    from typer.testing import CliRunner

    from corefreport.cli import app
    from corefreport.cli.output import example_paths

    key, resp = example_paths()
    name = "ev\x1b[2Jil\x1b]52;c;cHduZWQ=\x07"
    manifest = tmp_path / "datasets.tsv"
    manifest.write_text(f"{name}\t{key}\t{resp}\nother\t{key}\t{key}\n")
    for fmt in ("table", "markdown", "latex"):
        res = CliRunner().invoke(app, ["score", "--datasets", str(manifest), "-f", fmt, "-q"])
        assert res.exit_code == 0, res.output
        assert "\x1b" not in res.output and "\x07" not in res.output, fmt
        assert "x1b[2J" in res.output, fmt  # shown (LaTeX writes the backslash as \textbackslash{})
    res = CliRunner().invoke(app, ["score", key, f"run\x1b[2J\x07={resp},{resp}", "--runs", "-q"])
    assert res.exit_code == 0, res.output
    assert "\x1b" not in res.output and "\x07" not in res.output
