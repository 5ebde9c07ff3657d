"""Names a user gives (systems in ``compare``, labels in the data) are printed as text: square
brackets are never read as Rich markup (``[/]`` would stop the command, ``[b]`` would vanish)."""

from __future__ import annotations

import io

from corefreport.cli import example_paths
from corefreport.io import load_corpus
from corefreport.present.terminal import print_comparison
from corefreport.scoring.compare import compare
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings


def test_system_names_with_brackets_are_printed_as_they_are():
    key, response = example_paths()
    kc = load_corpus(key, key=True)
    settings = Settings(analyses=("arcs",))
    evs = {"[b]base": evaluate(kc, load_corpus(response), settings),
           "sys[/]": evaluate(kc, load_corpus(response), Settings(analyses=("arcs",), singletons="drop"))}
    cmp = compare(evs, "[b]base", bootstrap=20, randomization=20)
    for color in (False, True):
        out = io.StringIO()
        print_comparison(cmp, file=out, color=color)
        text = out.getvalue()
        assert "[b]base" in text and "sys[/]" in text
        assert "Δ sys[/]" in text or "sys[/] against [b]base" in text


def test_words_with_brackets_in_the_error_browser_are_text(tmp_path):
    """Corpus words such as ``[b]`` or ``[/]`` (citations, annotation leftovers) are shown as they
    are in the error-class browser's table (Textual's DataTable reads a str cell as markup)."""
    import asyncio

    from conftest import browsing
    from corefreport.tui.app import CorefApp
    from corefreport.tui.errors import ErrorsScreen

    key, response = example_paths()
    paths = []
    for src in (key, response):
        lines = open(src, encoding="utf-8").read().split("\n")
        out = []
        for ln in lines:
            cols = ln.split()
            if len(cols) > 3 and not ln.startswith("#") and cols[-1] != "-":  # a token inside a mention
                cols[3] = "[/]" if cols[3].istitle() else "[b]" + cols[3]
                ln = "\t".join(cols)
            out.append(ln)
        p = tmp_path / src.split("/")[-1]
        p.write_text("\n".join(out), encoding="utf-8")
        paths.append(str(p))
    ev = evaluate(load_corpus(paths[0], key=True), load_corpus(paths[1]), Settings(analyses=("errors",)))

    async def drive():
        app = CorefApp(ev)
        async with browsing(app, (120, 40), "x") as pilot:
            scr = app.screen
            assert isinstance(scr, ErrorsScreen)
            scr.show_class(scr.table.get_row_at(0)[0].__str__())
            await pilot.pause()
            words = [str(scr.table.get_row_at(i)[2]) for i in range(scr.table.row_count)]
            assert any("[b]" in w or "[/]" in w for w in words), words[:5]

    asyncio.run(drive())
