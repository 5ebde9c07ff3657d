"""The browser on a book (issue 35): the first numbers of a generated book come in seconds, and the
document view opens at a link's sentence near the book's end building only the sentences in
sight — not the thousands of the book."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

import pytest

from studies import pair_stages

from corefreport.scoring.settings import Settings
from corefreport.tui import model as M
from corefreport.tui.document import DocumentBody, DocumentScreen
from corefreport.tui.pages.pair import LinksPage

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def book(tmp_path_factory) -> tuple[Path, Path]:
    """A 60,000-word book (about 2,900 sentences) with its entities folded into a few large ones."""
    out = tmp_path_factory.mktemp("book") / "book"
    subprocess.run([sys.executable, str(ROOT / "bench" / "make_book.py"), "--tokens", "60000", "--out", str(out)],
                   check=True, capture_output=True)
    return Path(f"{out}.key"), Path(f"{out}.response")


def test_a_book_opens_to_its_numbers_and_a_link_in_it(book):
    key, response = book

    from corefreport.tui.app import CorefApp

    async def drive():
        app = CorefApp(stages=pair_stages(str(key), str(response), Settings(analyses=("arcs",))))
        started = time.perf_counter()
        async with app.run_test(size=(80, 24)) as pilot:
            first = None
            for _ in range(3000):
                if first is None and app.ev is not None:
                    first = time.perf_counter() - started
                if app.ev is not None and app.analyses_ready or app.error:
                    break
                await pilot.pause(0.01)
            assert not app.error, app.error
            assert first is not None and first < 10  # generous: about 1 s here, on a shared machine
            b = app.browser
            b.open(LinksPage("links", M.Scope("immediate")))
            await pilot.pause()
            await pilot.press("end")  # the last link of the book
            await pilot.pause()
            row = b.current_link()
            await pilot.press("v")
            await pilot.pause()
            await pilot.pause()
            scr = app.screen
            assert isinstance(scr, DocumentScreen) and scr.span == row.span
            body = scr.query_one("#document-body", DocumentBody)
            sentences = len(scr.shown)
            bounds = scr.dt.sentence_bounds()
            target = next(k for k, i in enumerate(scr.shown) if bounds[i][0] <= row.span[0] < bounds[i][1])
            assert target > sentences - 50  # the link is at the book's end
            screen = "\n".join(body.render_line(y).text for y in range(body.size.height))
            assert f"s{scr.shown[target] + 1} " in screen  # its sentence is on screen
            assert sentences > 2000 and scr.lines.built < 60  # only the sentences in sight were built
            assert len(body.wrapped) < 60
            # scrolling to the top builds the first screen's sentences, not the ones between
            await pilot.press("home")
            await pilot.pause()
            screen = "\n".join(body.render_line(y).text for y in range(body.size.height))
            assert screen.startswith("s1 ")
            assert scr.lines.built < 120
            return first

    asyncio.run(drive())
