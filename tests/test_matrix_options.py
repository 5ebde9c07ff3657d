"""The options added since the last matrix, as ``tests/test_cli_matrix.py`` holds the old ones
(issue 37): ``--topic-from`` (score, compare, report, tui), every numeric option of every command,
``report --figures``, ``tui KEY A B`` on systems that share no document, and the browser's search
box under a pasted block of escape sequences.

Every run ends in exit 0 with a result checked against the reference scorer's printed numbers
(``tests/data/crossdoc/expected.json``) or an invariant, or exit 2 with one line
``corefreport: error: …`` naming the option or the file and line — never a traceback.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import one_error_line
from corefreport.cli import app
from ptyrun import run_on_pty

runner = CliRunner()
DATA = Path(__file__).parent / "data" / "crossdoc"
KEY, RESP = DATA / "key.conll", DATA / "response.conll"
EXPECTED = json.loads((DATA / "expected.json").read_text())
SRC = str(Path(__file__).resolve().parents[1] / "src")
CLASSES: Counter = Counter()

TOPICS = "1_1ecb\tA\n1_2ecb\tA\n2_1ecb\tB\n2_2ecbplus\tB\n"
"""The corpus's two topics as a file (ECB+: the number before '_')."""


def run(*args, input: bytes | None = None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def clear_error(res, names: str, says: str = "") -> str:
    """Exit 2 with one ``corefreport: error:`` line holding ``names`` and ``says``, no traceback."""
    msg = one_error_line(res, alone=True)
    assert names in msg and says in msg, (names, says, msg)
    CLASSES["exit 2 clear"] += 1
    return msg


def counts(data: dict, metric: str) -> list[float]:
    m = data["metrics"][metric]
    return [m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"]]


def assert_topics_numbers(data: dict) -> None:
    """scorer.pl v8.01 on the topics' concatenations (expected.json ``topics``)."""
    for metric, want in EXPECTED["topics"]["scorer.pl"].items():
        assert counts(data, metric) == pytest.approx(want, abs=1e-9), metric
    CLASSES["exit 0 correct"] += 1


# --- --topic-from --------------------------------------------------------------------------------

DEFECTS = {  # name: (file text, the line named, what the message says)
    "empty": ("", None, "the topics file names no document"),
    "comments only": ("# doc\ttopic\n\n", None, "the topics file names no document"),
    "one field": ("1_1ecb\n", 1, "a line is DOC_ID<TAB>TOPIC, got 1 field(s)"),
    "three fields": ("1_1ecb\tA\n1_2ecb\tA\tx\n", 2, "got 3 field(s)"),
    "empty topic": ("1_1ecb\t\n", 1, "a line is DOC_ID<TAB>TOPIC"),
    "two topics": ("1_1ecb\t1\n1_1ecb\t2\n", 2, "document '1_1ecb' is also on line 1"),
}
COMMANDS = {
    "score": lambda *o: ("score", KEY, RESP, "-m", "muc", *o),
    "compare": lambda *o: ("compare", KEY, f"a={RESP}", f"b={KEY}", "--bootstrap", "5", "--randomization", "5", *o),
    "report": lambda *o: ("report", KEY, RESP, "-o", "{tmp}/r.html", *o),
    "tui": lambda *o: ("tui", KEY, RESP, *o),
}


def command(name: str, tmp_path: Path, *options) -> list[str]:
    return [str(a).replace("{tmp}", str(tmp_path)) for a in COMMANDS[name](*options)]


@pytest.mark.parametrize("cmd", list(COMMANDS))
@pytest.mark.parametrize("defect", list(DEFECTS))
def test_a_defective_topics_file_is_its_file_and_line(tmp_path, cmd, defect):
    """R04, R12, R13, R15, R16: each ended in a 100-line traceback, exit 1."""
    text, line, says = DEFECTS[defect]
    tsv = tmp_path / "topics.tsv"
    tsv.write_text(text)
    where = f"{tsv}:{line}:" if line else f"{tsv}:"
    msg = clear_error(run(*command(cmd, tmp_path, "--cross-document", "--topic-from", tsv)), where, says)
    assert msg.endswith("(--topic-from)")
    assert not (tmp_path / "r.html").exists()


def test_a_topics_file_not_utf8_is_said(tmp_path):
    tsv = tmp_path / "topics.tsv"
    tsv.write_bytes("1_1ecb\tcaf\xe9\n".encode("latin-1"))
    clear_error(run(*command("score", tmp_path, "--cross-document", "--topic-from", tsv)), str(tsv), "not UTF-8")


@pytest.mark.parametrize("cmd", list(COMMANDS))
@pytest.mark.parametrize("value", ["missing.tsv", "missing.txt", "TOPICS.TAB", "no/such/file", "./topics"])
def test_a_path_that_names_nothing_is_no_such_file(tmp_path, cmd, value, monkeypatch):
    """R05: ``--topic-from missing.tsv`` was a regular expression matching no document — each
    document its own topic, with a warning only."""
    monkeypatch.chdir(tmp_path)
    clear_error(run(*command(cmd, tmp_path, "--cross-document", "--topic-from", value)),
                f"--topic-from {value}: no such file")


@pytest.mark.parametrize("cmd", ["score", "compare", "report", "tui"])
def test_a_folder_is_refused(tmp_path, cmd):
    """R14: a folder was a regular expression too."""
    folder = tmp_path / "man"
    folder.mkdir()
    clear_error(run(*command(cmd, tmp_path, "--cross-document", "--topic-from", folder)),
                f"--topic-from {folder}: is a folder")


def test_a_file_a_pipe_and_a_pattern_give_the_reference_scorers_topics(tmp_path, monkeypatch):
    """The documented readings (docs/datasets.md): an existing file (any name, no suffix needed), a
    pipe (``<(…)``), a pattern; each is scorer.pl on the topics' concatenations."""
    monkeypatch.chdir(tmp_path)
    Path("topics").write_text(TOPICS)  # a file without a suffix, in the working folder
    Path("t.tsv").write_text("# DOC_ID\tTOPIC\n\n" + TOPICS)
    for value in ("topics", "t.tsv", str(tmp_path / "t.tsv"), r"^(\d+)_"):
        res = run("score", KEY, RESP, "-m", "muc,bcub,ceafe", "-f", "json", "-q", "--cross-document",
                  "--topic-from", value)
        assert res.exit_code == 0, res.output
        assert_topics_numbers(json.loads(res.stdout))
    r, w = os.pipe()
    os.write(w, TOPICS.encode())
    os.close(w)
    try:
        res = run("score", KEY, RESP, "-m", "muc,bcub,ceafe", "-f", "json", "-q", "--cross-document",
                  "--topic-from", f"/dev/fd/{r}")
    finally:
        os.close(r)
    assert res.exit_code == 0, res.output
    assert_topics_numbers(json.loads(res.stdout))


def test_a_pattern_that_looks_like_a_pattern_stays_one(tmp_path, monkeypatch):
    """A value without '/' and without a file's suffix that names nothing is a pattern: one that
    matches no document is warned about and each document is its own topic — scorer.pl on the
    documents apart (expected.json ``within_documents``)."""
    monkeypatch.chdir(tmp_path)
    res = run("score", KEY, RESP, "-m", "muc,bcub,ceafe", "-f", "json", "--cross-document", "--topic-from", "zzz(\\d+)")
    assert res.exit_code == 0, res.output
    assert "--topic-from: the pattern does not match 4 key document(s)" in res.stderr
    data = json.loads(res.stdout)
    for metric, want in EXPECTED["within_documents"]["scorer.pl"].items():
        if metric != "blanc_f1":
            assert counts(data, metric) == pytest.approx(want, abs=1e-9), metric
    CLASSES["exit 0 correct"] += 1


# --- numbers of every command ----------------------------------------------------------------------

NUMERIC = [
    ("compare", "--seed", "-1"), ("compare", "--bootstrap", "-1"), ("compare", "--randomization", "-5"),
    ("compare", "--top", "-1"), ("compare", "--min-support", "-1"), ("compare", "--examples", "-2"),
    ("compare --runs", "--seed", "-1"), ("compare --runs", "--bootstrap", "-1"),
    ("compare --runs", "--randomization", "-1"), ("compare --datasets", "--bootstrap", "-3"),
    ("compare --datasets", "--seed", "-7"),
    ("score", "--jobs", "-1"), ("score", "--jobs", "0"), ("score", "--jobs", "65"),
]


@pytest.mark.parametrize("where,flag,value", NUMERIC)
def test_every_negative_number_names_its_option(tmp_path, where, flag, value):
    """``compare --seed -1`` once reached numpy's 'expected non-negative integer'; under --runs and
    --datasets the message did not say which option or value."""
    if where == "score":
        args = ["score", KEY, RESP]
    elif where == "compare --runs":
        args = ["compare", KEY, "--runs", f"a={RESP},{KEY}", f"b={KEY},{RESP}"]
    elif where == "compare --datasets":
        man = tmp_path / "m.tsv"
        man.write_text(f"one\t{KEY}\t{RESP}\n")
        args = ["compare", "--datasets", man, man]
    else:
        args = ["compare", KEY, f"a={RESP}", f"b={KEY}"]
    msg = clear_error(run(*args, flag, value), flag)
    assert value in msg


def test_non_numbers_and_the_port_are_typers_usage_errors():
    for args in (("compare", KEY, f"a={RESP}", f"b={KEY}", "--seed", "x"), ("tui", KEY, RESP, "--port", "0")):
        res = run(*args)
        assert res.exit_code == 2 and "Traceback" not in res.output
        assert ("--seed" if "--seed" in args else "--port") in res.output
        CLASSES["exit 2 clear"] += 1


def test_a_large_seed_is_a_seed():
    """numpy's SeedSequence takes any non-negative integer: 2**40 is a seed like another (the same
    resamples on a second run), not an error."""
    out = [run("compare", KEY, f"a={RESP}", f"b={KEY}", "-m", "muc", "--no-analyses", "--bootstrap", "20",
               "--randomization", "20", "--seed", str(2 ** 40), "-f", "json") for _ in range(2)]
    assert all(r.exit_code == 0 for r in out) and out[0].stdout == out[1].stdout
    assert str(2 ** 40) in out[0].stdout
    CLASSES["exit 0 correct"] += 1


# --- report --figures --------------------------------------------------------------------------

def test_figures_into_a_file_is_one_line_before_anything_is_computed(tmp_path):
    """``--figures FILE`` ended in ``corefreport: error: [Errno 17] File exists: 'FILE'`` after the
    whole study; a path through a file in 'Not a directory' naming the report."""
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    for figures, says in ((afile, "is a file, not a folder"), (afile / "sub", f"goes through {afile}, a file")):
        msg = clear_error(run("report", KEY, RESP, "-o", tmp_path / "r.html", "--figures", figures),
                          f"--figures {figures}: {says}")
        assert "Errno" not in msg
    assert afile.read_text() == "mine\n" and not (tmp_path / "r.html").exists()


def test_figures_into_a_new_folder_writes_the_charts(tmp_path):
    res = run("report", KEY, RESP, "-o", tmp_path / "r.html", "-q", "--figures", tmp_path / "figs" / "new")
    assert res.exit_code == 0, res.output
    svgs = sorted((tmp_path / "figs" / "new").glob("figure-*.svg"))
    assert svgs and all(b"<svg" in p.read_bytes()[:400] for p in svgs)
    CLASSES["exit 0 correct"] += 1


def test_figures_that_the_report_layer_cannot_make_is_its_own_message(tmp_path):
    """The report layer's own check (a file appearing between the command's check and the writing)."""
    from corefreport.report.document import write_figures

    afile = tmp_path / "afile"
    afile.write_text("")
    with pytest.raises(FileExistsError, match=r"afile: is a file, not a folder for the charts"):
        write_figures(None, afile)


# --- tui KEY A B on systems that share no document ---------------------------------------------

def _other_documents(tmp_path: Path) -> Path:
    other = tmp_path / "other.conll"
    other.write_text(RESP.read_text().replace("#begin document (", "#begin document (other_"))
    return other


def test_systems_sharing_no_document_exit_2_with_the_message(tmp_path):
    """The app's side (Pilot): the study fails in the worker before anything can be shown, the app
    exits with code 2 and keeps the message for :func:`~corefreport.tui.app.run_app` to print."""
    from corefreport.scoring.settings import Settings
    from corefreport.study.plan import Policy, Resampling, plan_of
    from corefreport.study.run import stages
    from corefreport.tui.app import CorefApp

    other = _other_documents(tmp_path)
    plan = plan_of("tui", str(KEY), [f"a={RESP}", f"b={other}"], Settings(metrics=("muc",)),
                   compare=Resampling(5, 5), policy=Policy(rows=True, documents=True, jobs=1, browse=True))

    async def drive():
        app = CorefApp(stages=lambda watch: stages(plan, watch), shape="systems", names=list(plan.systems))
        async with app.run_test(size=(80, 24)):
            for _ in range(500):
                if app.error:
                    break
                await asyncio.sleep(0.02)
        return app

    app = asyncio.run(drive())
    assert app.return_code == 2 and "share no document id" in app.error and str(other) in app.error


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "win32", reason="needs a pty")
def test_tui_systems_sharing_no_document_on_a_terminal(tmp_path):
    """The real command on a pseudo-terminal (TU06): the browser opens, finds that b shares no
    document with the key, closes the alternate screen, and only then prints one error line; exit 2."""
    other = _other_documents(tmp_path)
    ran = run_on_pty([sys.executable, "-m", "corefreport", "tui", str(KEY), f"a={RESP}", f"b={other}"],
                     {"PYTHONPATH": SRC, "TERM": "xterm-256color"}, 90)
    out = ran.out
    assert ran.code == 2, out[-2000:]
    assert b"\x1b[?1049h" in out  # the browser opened
    closed = out.rindex(b"\x1b[?1049l")
    after = out[closed:].decode("utf-8", "replace")
    lines = [x for x in after.replace("\r", "").split("\n") if "corefreport: error:" in x]
    assert len(lines) == 1 and out.count(b"corefreport: error:") == 1, after
    line = lines[0][lines[0].index("corefreport: error:"):]
    assert "share no document id" in line and str(other) in line
    assert "\x1b" not in line and after.rstrip().endswith(line.rstrip())  # nothing drawn over it
    CLASSES["exit 2 clear"] += 1


# --- the search box under a pasted block ---------------------------------------------------------

BOMB = "x\x1b[2J\x1b]52;c;ZXZpbA==\x07\x1b[31m"
"""TU14's block: a screen clear, an OSC 52 clipboard write, a colour — repeated."""


def _bomb(n: int) -> str:
    return (BOMB * (n // len(BOMB) + 1))[:n]


def _drive_paste(events_of, *, focused: bool, bells: list):
    from textual import events
    from test_tui_pilot import example

    from corefreport.tui.app import CorefApp

    async def drive():
        app = CorefApp(example())
        app.bell = lambda: bells.append(1)  # the terminal's bell, counted
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.post_message(events.Key("slash", "/"))
            if focused:
                for _ in range(3):
                    await pilot.pause()
            start = time.perf_counter()
            for e in events_of():
                app.post_message(e)
            app.post_message(events.Key("backspace", None))  # answered once everything before it is
            await pilot.pause()
            seconds = time.perf_counter() - start
            box = app.browser.query_one("#filter")
            status = str(app.browser.query_one("#status").render())
            return seconds, box.value, box.has_focus, status, app.is_running

    return asyncio.run(drive())


@pytest.mark.parametrize("focused", [False, True], ids=["before the box has the focus", "into the box"])
def test_a_pasted_block_of_100000_characters_is_cut_and_said(focused):
    """TU14: the app answers within seconds, the box holds at most SEARCH_LIMIT characters (cut
    when the paste comes before the box has the focus, refused by the box when it has it), the
    status line says so, and no bell rings."""
    from textual import events

    from corefreport.tui.typing import CUT, SEARCH_LIMIT

    bells: list = []
    seconds, value, has_focus, status, running = _drive_paste(lambda: [events.Paste(_bomb(100_000))],
                                                              focused=focused, bells=bells)
    assert running and has_focus and seconds < 5, seconds
    assert len(value) <= SEARCH_LIMIT
    if not focused:
        assert value == _bomb(100_000)[:SEARCH_LIMIT - 1]  # cut at the limit, then Backspace
    assert status == CUT and not bells


def test_a_terminals_paste_of_escape_sequences_holds_the_box_flat():
    """What a terminal sends for TU14: a bracketed paste whose escape sequences Textual's parser
    hands over as a key a character (``^[2J…``). The box never holds more than SEARCH_LIMIT
    characters (it once grew to the whole block, each key measuring the line again: 20,000
    characters took 28 s and 240 MB here), one message is said, and no bell rings a key."""
    from textual import events
    from textual._xterm_parser import XTermParser

    from corefreport.tui.typing import CUT, SEARCH_LIMIT

    from textual.widgets import Input

    parsed = list(XTermParser().feed("\x1b[200~" + _bomb(12_000) + "\x1b[201~"))
    assert sum(isinstance(e, events.Key) for e in parsed) > 10_000  # the keys the review's tmux sent
    bells: list = []
    taken = []
    on_key = Input._on_key

    async def counted(self, event):  # the keys that reach the box (Textual's per-key work)
        taken.append(1)
        await on_key(self, event)

    Input._on_key = counted
    try:
        seconds, value, has_focus, status, running = _drive_paste(lambda: parsed, focused=True, bells=bells)
    finally:
        Input._on_key = on_key
    # in a burst the app drops a key once the box's text and its queue reach the limit: the queue
    # also holds the box's own Changed messages, so it may stop a few dozen characters short
    assert running and has_focus and SEARCH_LIMIT - 200 <= len(value) < SEARCH_LIMIT
    assert value.startswith("^[2J^") and "52;c;ZXZpbA==" in value  # inert keys, as the review saw them
    assert status == CUT and not bells
    assert len(taken) < 1.5 * SEARCH_LIMIT, len(taken)  # not the 12,000 keys: the app drops the rest first
    assert seconds < 60, seconds


def test_the_matrix_ran(request):
    if request.config.option.keyword or any("::" in a for a in request.config.args):
        pytest.skip("a part of the module was selected")
    assert sum(CLASSES.values()) >= 60, CLASSES
