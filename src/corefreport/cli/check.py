"""``corefreport check KEY RESPONSE…`` once its options are parsed: the check of
:mod:`corefreport.study.check`, one ``FILE:LINE: problem`` line each on stdout (warnings marked
``warning:``), a count on stderr; exit 0 without errors, 2 with any."""

from __future__ import annotations

import sys

from ..errors import InputError, SettingsError
from .build import fail


def run_check(key: str, responses: list[str], preset: str | None, empty_nodes: str | None, no_warnings: bool,
              quiet: bool) -> int:
    """Check and print; the exit status (0 clean, 2 with an error)."""
    from ..present.inert import inert
    from ..study.check import check

    try:
        report = check(key, responses, preset, empty_nodes)
    except (InputError, SettingsError) as err:
        fail(str(err))
    shown = report.errors if no_warnings else list(report.problems)
    for problem in shown:
        sys.stdout.write(inert(str(problem)) + "\n")
    if not quiet:
        n, w = len(report.errors), len(report.warnings)
        sys.stderr.write(f"corefreport: check: {n} error{'s' if n != 1 else ''}, {w} warning{'s' if w != 1 else ''} "
                         f"in {len(report.files)} response file{'s' if len(report.files) != 1 else ''}"
                         + ("" if n else ": ready to upload" if preset == "crac" else ": clean") + "\n")
    return 0 if report.clean else 2
