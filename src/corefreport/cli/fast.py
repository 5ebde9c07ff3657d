"""``corefreport score``, ``tui`` and ``report`` without typer: the everyday options parsed by hand, the same
function run.

typer builds a pydantic adapter for each of score's ~30 options before the first file is read
(~0.1–0.2 s, more than reading a 300-document corpus takes). :func:`try_score` recognises the
command lines researchers type every day — ``score KEY RESPONSE`` with the output, metric,
analysis, singleton and format options below — builds the same keyword arguments typer would
(:func:`.build.build_settings` for the :class:`Settings`) and calls the same
:func:`.score.run_score`. Anything else (``--help``, an unknown or misspelled option, a value that is
not one of its choices, an option given without its value) returns ``False`` and the typer
application takes over, with its usual messages; ``tests/test_speed_startup.py`` checks that both
paths give identical settings and output. ``tui KEY RESPONSE`` goes the same way to
:func:`.tui.run_tui_command` (its first numbers ~0.1 s sooner), ``report KEY RESPONSE`` to
:func:`.report.run_report` (~0.13 s sooner). The options this parser knows, their flags and
defaults are those of :mod:`.spec` marked ``fast`` — the definitions typer's commands are made of.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from .output import InFormat, OutFormat
from .spec import COMMANDS, SCORING, SCORING_DEFAULTS

def _output(text: str) -> Path:
    """``-o FILE`` as typer reads it (:func:`.build.output_path`: a trailing slash is refused)."""
    from .build import output_path

    return output_path(text)


CONVERT = {"fmt": OutFormat, "output": _output, "figures": Path, "key_format": InFormat, "response_format": InFormat}
"""Options whose value typer converts: the same conversion (an invalid choice: typer says so)."""


def _tables(command: str) -> tuple[dict, dict, set, dict]:
    """From :mod:`.spec`, the options of ``command`` this parser knows (``fast=True``): flag → (parameter,
    value); option taking a value → parameter; repeatable parameters; defaults of the command's own."""
    flags: dict = {}
    values: dict = {}
    for o in (*SCORING, *COMMANDS[command]):
        if not o.fast:
            continue
        if o.takes == "switch":
            on, off = o.flags[0].split("/")
            flags[on], flags[off] = (o.dest, True), (o.dest, False)
        elif o.takes == "flag":
            flags.update({f: (o.dest, True) for f in o.flags})
        else:
            values.update({f: o.dest for f in o.flags})
    many = {o.dest for o in (*SCORING, *COMMANDS[command]) if o.takes == "many"}
    return flags, values, many, {o.dest: o.default for o in COMMANDS[command]}


def parse(argv: list[str], command: str = "score") -> dict | None:
    """The keyword arguments of ``score`` (or ``tui``, ``report``; scoring options under
    ``"scoring"``), or ``None`` when ``argv`` is not a plain command line of that command this
    parser knows (then typer takes it, with its usual messages)."""
    if not argv or argv[0] != command or command not in COMMANDS:
        return None
    flags, values, many, defaults = _tables(command)
    scoring = {o.dest for o in SCORING}
    opts: dict = {name: list(v) if isinstance(v, list) else v for name, v in defaults.items()}
    chosen: dict = {}
    positional: list[str] = []
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-"):
            positional.append(arg)
            continue
        if arg in flags:
            name, value = flags[arg]
        else:
            option, eq, value = arg.partition("=")
            if option not in values or (eq and not option.startswith("--")):
                return None
            if not eq:
                if i >= len(args):
                    return None
                value = args[i]
                i += 1
            if not value or value.startswith("-"):
                return None
            name = values[option]
        target = chosen if name in scoring else opts
        if name in many:
            target.setdefault(name, []).append(value)
        else:
            target[name] = value
    if len(positional) > 2 and command != "tui":
        return None
    for name, kind in CONVERT.items():
        if opts.get(name) is not None and not (isinstance(kind, type) and isinstance(opts[name], kind)):
            if isinstance(kind, type) and issubclass(kind, Enum) and opts[name] not in kind.__members__:
                return None
            opts[name] = kind(opts[name])
    if opts.get("jobs") is not None:
        if not opts["jobs"].isascii() or not opts["jobs"].isdigit():
            return None
        opts["jobs"] = int(opts["jobs"])
    if command == "score":
        opts["links"] = None
    out = {"key": positional[0] if positional else None, "response": positional[1] if len(positional) > 1 else None,
           **opts, "scoring": chosen}
    if len(positional) > 2:  # tui KEY A B [C…]
        out["responses"] = positional[1:]
    return out


def try_score(argv: list[str]) -> bool:
    """Run ``corefreport score`` from ``argv`` (without the program name) if :func:`parse` knows it;
    ``False`` (nothing done) otherwise."""
    parsed = parse(argv)
    if parsed is None:
        return False
    from ..scoring.registry import STANDARD_METRICS
    from .build import build_settings
    from .score import run_score

    scoring = {**SCORING_DEFAULTS, **parsed.pop("scoring")}
    settings = build_settings(**scoring, default_metrics=STANDARD_METRICS, default_analyses=())
    run_score(**parsed, settings=settings)
    return True


def try_tui(argv: list[str]) -> bool:
    """Run ``corefreport tui`` from ``argv`` if :func:`parse` knows it (exits with the browser's
    code); ``False`` (nothing done) otherwise."""
    parsed = parse(argv, "tui")
    if parsed is None:
        return False
    from ..scoring.registry import ALL_METRICS
    from .build import VIEW_ANALYSES, build_settings

    scoring = {**SCORING_DEFAULTS, **parsed.pop("scoring")}
    settings = build_settings(**scoring, default_metrics=ALL_METRICS, default_analyses=VIEW_ANALYSES)
    if parsed["example"] and (parsed.get("responses") or parsed["subsets"] or parsed["datasets"]):
        return False  # typer says what is wrong
    from .tui import run_tui_command

    responses = parsed.get("responses") or ([parsed["response"]] if parsed["response"] else [])
    raise SystemExit(run_tui_command(parsed["key"], responses, parsed["key_format"], parsed["response_format"],
                                     parsed["example"], settings, subsets=parsed["subsets"],
                                     datasets=parsed["datasets"]))


def try_report(argv: list[str]) -> bool:
    """Run ``corefreport report`` from ``argv`` if :func:`parse` knows it (the same
    :func:`.report.run_report` the typer command calls); ``False`` (nothing done) otherwise."""
    parsed = parse(argv, "report")
    if parsed is None:
        return False
    from ..scoring.registry import ALL_METRICS
    from .build import VIEW_ANALYSES, build_settings
    from .report import run_report

    scoring = {**SCORING_DEFAULTS, **parsed.pop("scoring")}
    settings = build_settings(**scoring, default_metrics=ALL_METRICS, default_analyses=VIEW_ANALYSES)
    run_report(**parsed, settings=settings)
    return True
