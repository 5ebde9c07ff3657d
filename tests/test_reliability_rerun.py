"""What the rerun of the 2026-11-29 reliability review (issue 37) still found on the integrated code,
each fixed and held here (the outcome of every case: tests/data/reliability/README.md):

* F45 — a FIFO given as KEY (or RESPONSE) that no program opens for writing waited in ``open()`` for
  ever (as ``cat`` does); it now stops after ``io.streams.FIFO_WAIT`` seconds with one error line
  naming it, while a FIFO whose writer is there but slow is read to its end however long it takes;
* A21 — ``corefreport.score({'d': []}, …)`` said the key lacked CoNLL-2012 brackets or ``Entity=``;
  from the API it now says what to give (clusters of ``(start, end)`` mentions);
* TU14 — a printable key for a full search box is dropped by the app before Textual's dispatch
  (``tui.typing.refused_early``); a box typed into a key at a time still fills to its limit exactly.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from pathlib import Path

import pytest
from conftest import one_error_line
from typer.testing import CliRunner

import corefreport
from corefreport.cli import app
from corefreport.errors import InputError
from corefreport.io import streams

runner = CliRunner()

KEY = """#begin document (d); part 000
d 0 0 John - (1)
d 0 1 saw - -
d 0 2 Mary - (2)
d 0 3 and - -
d 0 4 he - (1)
d 0 5 greeted - -
d 0 6 her - (2)

#end document
"""
RESPONSE = KEY.replace("d 0 6 her - (2)", "d 0 6 her - (1)")
"""``her`` put in John's chain. MUC by hand (Vilain et al. 1995, sum of |S| − |p(S)| over sum of
|S| − 1): recall (2−1 + 2−2) / (1 + 1) = 1/2 (key {John, he} kept, {Mary, her} split); precision
(3−2 + 1−1) / (2 + 0) = 1/2 (response {John, he, her} spans two key chains, {Mary} is a singleton)."""


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def tabbed(text: str) -> str:
    """The token lines' columns separated by TABs."""
    return "".join(x.replace(" ", "\t") if x.startswith("d ") else x for x in text.splitlines(keepends=True))


def files(tmp_path: Path) -> tuple[Path, Path]:
    key, resp = tmp_path / "key.conll", tmp_path / "resp.conll"
    key.write_text(tabbed(KEY))
    resp.write_text(tabbed(RESPONSE))
    return key, resp


needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


@needs_fifo
def test_f45_a_fifo_key_without_a_writer_stops_naming_it(tmp_path, monkeypatch):
    monkeypatch.setattr(streams, "FIFO_WAIT", 0.3)
    _, resp = files(tmp_path)
    fifo = tmp_path / "key.fifo"
    os.mkfifo(fifo)
    t = time.monotonic()
    line = one_error_line(run("score", fifo, resp))
    assert time.monotonic() - t < 5
    assert line == (f"corefreport: error: {fifo}: a FIFO that no program opened for writing in 0.3 s: start the "
                    "program that writes it first, or give a file"), line


@needs_fifo
def test_f45_a_fifo_whose_writer_is_slow_is_read_to_its_end(tmp_path, monkeypatch):
    """The wait is for a writer, not for bytes: a writer that holds the FIFO open and writes only
    after the wait (a system still computing) is read, with the numbers of the same file."""
    monkeypatch.setattr(streams, "FIFO_WAIT", 0.3)
    key, resp = files(tmp_path)
    fifo = tmp_path / "resp.fifo"
    os.mkfifo(fifo)

    def writer():
        with open(fifo, "w") as f:  # opens at once (the reader is there), writes 0.8 s later
            time.sleep(0.8)
            f.write(resp.read_text())

    th = threading.Thread(target=writer)
    th.start()
    res = run("score", key, fifo, "-f", "json", "-m", "muc")
    th.join(10)
    assert res.exit_code == 0, res.output
    muc = json.loads(res.stdout)["metrics"]["muc"]
    assert (muc["recall_num"], muc["recall_den"], muc["precision_num"], muc["precision_den"]) == (1, 2, 1, 2)


def test_a21_a_key_of_clusters_without_mentions_says_what_to_give():
    with pytest.raises(InputError) as err:
        corefreport.score({"d": []}, {"d": []})
    msg = str(err.value)
    assert "the key has no mentions in any of its 1 document(s)" in msg and "(start, end)" in msg
    assert "#begin" not in msg and "CoNLL" not in msg and "Entity=" not in msg


def test_a_key_file_without_mentions_still_names_the_formats(tmp_path):
    key, resp = files(tmp_path)
    key.write_text(tabbed(KEY.replace("(1)", "-").replace("(2)", "-")))
    line = one_error_line(run("score", key, resp))
    assert "has no mentions" in line and "brackets such as '(1' '1)' in the LAST column" in line


def test_tu14_a_box_typed_into_a_key_at_a_time_fills_to_its_limit_exactly():
    """The app drops a printable key early only when the box's text and its waiting messages reach
    the limit: keys typed one at a time (nothing waiting) fill the box to SEARCH_LIMIT, the next are
    refused and the status line says so."""
    from test_tui_pilot import example
    from textual import events

    from corefreport.tui.app import CorefApp
    from corefreport.tui.typing import CUT, SEARCH_LIMIT

    async def drive():
        app = CorefApp(example())
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.post_message(events.Key("slash", "/"))
            for _ in range(3):
                await pilot.pause()
            box = app.browser.query_one("#filter")
            box.value = "a" * (SEARCH_LIMIT - 5)
            box.cursor_position = len(box.value)
            await pilot.pause()
            for _ in range(8):
                app.post_message(events.Key("b", "b"))
                await pilot.pause()
            return box.value, str(app.browser.query_one("#status").render())

    value, status = asyncio.run(drive())
    assert value == "a" * (SEARCH_LIMIT - 5) + "bbbbb"
    assert status == CUT
