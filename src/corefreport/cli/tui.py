"""``corefreport tui`` once its options are parsed (by typer or by :mod:`.fast`): the plan — one
system, several (``KEY A B [C…]``), datasets (``--datasets``) or one system's groups of documents
(``--subsets``) — handed to the one browser (:func:`corefreport.tui.app.run_browser`), which runs
its study's stages in a worker and shows each node as it comes."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Optional

from ..errors import InputError, SettingsError
from ..scoring.settings import Settings
from .build import fail
from .output import example_paths, fmt_value


def run_tui_command(key: Optional[str], responses: list[str], key_format, response_format, example: bool,
                    settings: Settings, serve: Optional[int] = None, subsets: Optional[list[str]] = None,
                    datasets: bool = False, token: Optional[str] = None,
                    max_sessions: Optional[int] = None) -> int:
    """The browser's exit code; ``serve``: the port of ``--serve`` (each browser tab then runs this
    command without it); ``token``, ``max_sessions``: ``--serve``'s token (default
    ``$COREFREPORT_TOKEN`` or a random one) and how many tabs it runs at once (default 2)."""
    from ..study.plan import Policy, Resampling, plan_of, refuse_stdin

    subsets = list(subsets or [])
    if serve is None and (token is not None or max_sessions is not None):
        fail(f"{'--token' if token is not None else '--max-sessions'} goes with --serve")
    if example:
        if datasets or subsets:
            fail("--example and --serve browse one pair; give --datasets or --subsets without them")
        if responses:
            fail("--example browses one system; give KEY A B [C …] without it")
        key, responses = example_paths()[0], [example_paths()[1]]
    if (datasets or subsets) and serve is not None:
        fail("--example and --serve browse one pair; give --datasets or --subsets without them")
    several = len(responses) > 1
    try:
        plan = plan_of("tui", key, responses, settings, datasets=datasets, subsets=subsets,
                       kf=fmt_value(key_format), rf=fmt_value(response_format),
                       compare=Resampling() if several else None,
                       policy=Policy(rows=True, documents=True, jobs=1, browse=True, apart=False))
        refuse_stdin(plan)
    except (InputError, SettingsError) as err:
        fail(str(err))
    if serve is not None:
        from ..tui.serve import MAX_SESSIONS, choose_token, serve_tui

        try:
            token = choose_token(token)
        except SettingsError as err:
            fail(str(err))
        return serve_tui(port=serve, token=token, max_sessions=max_sessions or MAX_SESSIONS)
    # under --serve each browser tab runs this command with pipes and Textual's web driver
    if not (sys.stdin.isatty() and sys.stdout.isatty()) and not os.environ.get("TEXTUAL_DRIVER"):
        instead = ("'corefreport score --datasets' or 'score --subsets'" if datasets or subsets else
                   "'corefreport compare', for a browser 'corefreport tui KEY A B --serve'" if len(responses) > 1 else
                   "'corefreport score' or 'corefreport report', for a browser 'corefreport tui --serve'")
        fail(f"the terminal browser needs an interactive terminal (stdin and stdout are not a TTY); for pipes and "
             f"files use {instead}")
    from ..study.plan import DATASETS
    from ..study.run import stages
    from ..tui.app import run_browser

    shape = "levels" if plan.shape == DATASETS or plan.groupings else plan.shape
    return run_browser(lambda watch: stages(plan, watch), shape, list(plan.systems),
                       _title(plan, key, responses, datasets))


def _title(plan, key: str, responses: list[str], datasets: bool) -> str:
    """What the browser says it is reading, and its first breadcrumb."""
    if datasets:
        return f"datasets of {Path(key).name}" if not responses else f"datasets {Path(key).name} × " \
            f"{Path(responses[0]).name}"
    if plan.groupings:
        return f"{Path(responses[0]).name} by {plan.groupings[0].name}"
    if len(plan.systems) > 1:
        return " vs ".join(plan.systems)
    return Path(responses[0]).name
