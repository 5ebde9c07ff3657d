"""Command-line option values → :class:`~corefreport.scoring.settings.Settings`, without typer.

:func:`build_settings` is the one place the shared scoring options become a ``Settings``; both the
typer commands (:mod:`.options`) and the fast ``score`` path (:mod:`.fast`) call it.
"""

from __future__ import annotations

import sys
import typing

from ..errors import SettingsError
from ..scoring.registry import ALL_METRICS, KNOWN_METRICS, STANDARD_METRICS, analysis_names
from ..scoring.settings import Settings

VIEW_ANALYSES = ("arcs", "typed")
"""What compare, report and tui compute by default (-a errors adds the error classes: slower, and
its rows are a different kind of analysis)."""


def fail(message: str, code: int = 2) -> typing.NoReturn:
    """Print ``corefreport: error: MESSAGE`` on stderr and exit (2: bad input or usage)."""
    sys.stderr.write(f"corefreport: error: {message}\n")
    raise SystemExit(code)


def _numbers(text: str, option: str, count: int, what: str) -> tuple[float, ...]:
    try:
        values = tuple(float(x) for x in text.split(","))
    except ValueError:
        fail(f"{option} takes {count} numbers {what}, got {text!r}")
    if len(values) != count:
        fail(f"{option} takes {count} numbers {what}, got {len(values)}")
    return values


def parse_metrics(items: list[str]) -> tuple[tuple[str, ...], bool]:
    """Metric keys from ``--metric`` values (aliases b3, bcubed; ``all``), and whether p-link was asked."""
    out: list[str] = []
    plink = False
    for item in items:
        for name in item.replace("+", ",").split(","):
            name = name.strip().lower()
            if not name:
                continue
            if name == "all":
                out.extend(m for m in ALL_METRICS if m not in out)
                continue
            name = {"b3": "bcub", "bcubed": "bcub"}.get(name, name)
            if name == "plink":
                plink = True
                continue
            if name not in KNOWN_METRICS:
                fail(f"unknown metric {name!r}; choose from {', '.join(KNOWN_METRICS)}, plink or 'all'")
            if name not in out:
                out.append(name)
    return tuple(out), plink


def build_settings(metric: list[str], analysis: list[str], singletons: bool | None, key_duplicates: str,
                   match: str | None, zeros: bool, zero_match: str | None, preset: str | None, strict_tokens: bool, weights: str, by: list[str], arcs_compat: bool, arcs_singletons: bool,
                   arcs_anchor_links: bool,
                   scheme: str | None, k: str, attempted: str | None, strict_dominant: bool, plink_compat: bool,
                   errors_singletons: bool = False, *, default_metrics: tuple[str, ...] = STANDARD_METRICS,
                   default_analyses: tuple[str, ...] = ()) -> Settings:
    """The one place command-line options become :class:`Settings` (exit 2 with a message on a
    value no evaluation can honour)."""
    metrics, plink = parse_metrics(metric)
    if not metrics and not plink:
        metrics = default_metrics
        if preset == "crac":  # what corefud-scorer.py prints besides its BLANC: MOR and the zero score
            metrics = tuple(dict.fromkeys(metrics + ("mor", "zero")))
    plink_by = None
    if plink:
        if not by:
            fail("--metric plink needs --by FEATURE (e.g. --by col12 for GUM's sentence type, or --by mtype)")
        plink_by = by[0]
    for a in analysis:
        if a not in analysis_names():
            fail(f"unknown analysis {a!r}; choose {' or '.join(analysis_names())}")
    analyses = tuple(dict.fromkeys(analysis)) if analysis else default_analyses
    if by and not plink and not analyses:
        fail(f"--by {by[0]!r} breaks down link-level scores, and none were asked for: add -a arcs, -a typed "
             "or -a errors (or -m plink for p-link by category)")
    chosen = tuple(a.strip() for a in attempted.split(",") if a.strip()) if attempted is not None else None
    if chosen == ():  # "," or " ": no class at all, which once fell back to the default classes silently
        fail(f"--attempted takes class names separated by commas, got {attempted!r}")
    if preset is not None and preset != "crac":
        fail(f"--preset takes 'crac', got {preset!r}")
    if preset == "crac":
        match = match or "head"
        zero_match = zero_match or "dependent"
        singletons = False if singletons is None else singletons
        metrics = tuple(dict.fromkeys("blanc_crac" if m == "blanc" else m for m in metrics))
    try:
        return Settings(
            metrics=metrics, singletons="drop" if singletons is False else "keep", key_duplicates=key_duplicates,
            match=match or "exact", zeros="keep" if zeros else "drop", zero_match=zero_match or "linear", preset=preset, strict_tokens=strict_tokens, weights=_numbers(weights, "--weights", 4, "NAM,NOM,PRO,SING"),
            analyses=analyses, arcs_compat=arcs_compat, arcs_singletons=arcs_singletons,
            arcs_anchor_links=arcs_anchor_links, scheme=scheme,
            k=_numbers(k, "--k", 4, "in [0, 1] (k1,k2,k3,k4)"),
            attempted=chosen,
            strict_dominant=strict_dominant, plink_by=plink_by, plink_compat=plink_compat,
            errors_singletons=errors_singletons, by=tuple(by) if by and not plink else (),
        )
    except SettingsError as err:
        fail(str(err))
