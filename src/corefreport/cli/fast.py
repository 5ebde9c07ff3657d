"""``corefreport score``, ``tui`` and ``report`` without typer: the everyday options parsed by hand, the same
function run.

typer builds a pydantic adapter for each of score's ~30 options before the first file is read
(~0.1–0.2 s, more than reading a 300-document corpus takes). :func:`try_score` recognises the
command lines researchers type every day — ``score KEY RESPONSE`` with the output, metric,
analysis, singleton and format options below — builds the same keyword arguments typer would
(:func:`.build.build_settings` for the :class:`Settings`) and calls the same
:func:`.run.run_score`. Anything else (``--help``, an unknown or misspelled option, a value that is
not one of its choices, an option given without its value) returns ``False`` and the typer
application takes over, with its usual messages; ``tests/test_speed_startup.py`` checks that both
paths give identical settings and output. ``tui KEY RESPONSE`` with the scoring options of
:data:`TUI_OPTIONS` goes the same way to :func:`.run.run_tui_command` (its first numbers ~0.1 s
sooner); ``--serve``, ``--port`` and the rest go to typer. ``report KEY RESPONSE`` with the options of
:data:`REPORT_OPTIONS` goes to :func:`.reporting.run_report` (~0.13 s sooner than through typer).
"""

from __future__ import annotations

from pathlib import Path

from .run import InFormat, OutFormat

FLAGS = {"--per-doc": ("per_doc", True), "--force": ("force", True), "--quiet": ("quiet", True),
         "-q": ("quiet", True), "--example": ("example", True),
         "--keep-singletons": ("singletons", True), "--drop-singletons": ("singletons", False),
         "--strict-tokens": ("strict_tokens", True)}
"""Flag → (parameter, value)."""

VALUES = {"--format": "fmt", "-f": "fmt", "--output": "output", "-o": "output", "--metric": "metric",
          "-m": "metric", "--analysis": "analysis", "-a": "analysis", "--key-format": "key_format",
          "--response-format": "response_format", "--preset": "preset", "--match": "match", "--jobs": "jobs",
          "-j": "jobs"}
"""Option taking a value → parameter."""

REPEATED = frozenset(("metric", "analysis", "section", "responses"))
TUI_OPTIONS = frozenset(("--example", "--keep-singletons", "--drop-singletons", "--strict-tokens", "--metric", "-m",
                         "--analysis", "-a", "--key-format", "--response-format", "--preset", "--match"))
"""The options of ``tui`` this parser knows (the others — ``--serve``, ``--port``… — go to typer)."""
REPORT_OPTIONS = TUI_OPTIONS | frozenset((
    "--output", "-o", "--force", "--quiet", "-q", "--title", "--name", "--latex-layout", "--figures",
    "--label-prefix", "--section", "--response", "-r"))
"""The options of ``report`` this parser knows (every one of the command but the rarer scoring options)."""
REPORT_VALUES = {"--title": "title", "--name": "name", "--latex-layout": "latex_layout", "--figures": "figures",
                 "--label-prefix": "label_prefix", "--section": "section", "--response": "responses",
                 "-r": "responses"}
"""Options taking a value that only ``report`` has → parameter."""
OPTIONS = {"tui": TUI_OPTIONS, "report": REPORT_OPTIONS}
SCORING = frozenset(("metric", "analysis", "singletons", "preset", "match", "strict_tokens"))


def parse(argv: list[str], command: str = "score") -> dict | None:
    """The keyword arguments of ``score`` (or ``tui``, ``report``; scoring options under
    ``"scoring"``), or ``None`` when ``argv`` is not a plain command line of that command this
    parser knows."""
    if not argv or argv[0] != command:
        return None
    known = OPTIONS.get(command)
    values = {**VALUES, **REPORT_VALUES} if command == "report" else VALUES
    opts: dict = {"metric": [], "analysis": [], "section": [], "responses": []}
    positional: list[str] = []
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-"):
            positional.append(arg)
            continue
        if known is not None and arg.partition("=")[0] not in known:
            return None
        if arg in FLAGS:
            name, value = FLAGS[arg]
            opts[name] = value
            continue
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
        if name in REPEATED:
            opts[name].append(value)
        else:
            opts[name] = value
    if len(positional) > 2 or arg_value_invalid(opts):
        return None
    if "jobs" in opts:
        if not opts["jobs"].isascii() or not opts["jobs"].isdigit():
            return None
        opts["jobs"] = int(opts["jobs"])
    out = {"key": positional[0] if positional else None, "response": positional[1] if len(positional) > 1 else None,
           "fmt": OutFormat(opts.get("fmt", "table")), "output": Path(opts["output"]) if "output" in opts else None,
           "force": opts.get("force", False), "per_doc": opts.get("per_doc", False), "links": None,
           "key_format": InFormat(opts["key_format"]) if "key_format" in opts else None,
           "response_format": InFormat(opts["response_format"]) if "response_format" in opts else None,
           "example": opts.get("example", False), "quiet": opts.get("quiet", False), "jobs": opts.get("jobs"),
           "scoring": {k: v for k, v in opts.items() if k in SCORING}}
    if command == "report":
        out = {k: out[k] for k in ("key", "response", "key_format", "response_format", "force", "example", "quiet",
                                   "scoring")}
        out.update(responses=opts["responses"], output=Path(opts.get("output", "report.pdf")),
                   title=opts.get("title"), name=opts.get("name"), latex_layout=opts.get("latex_layout", "acl"),
                   figures=Path(opts["figures"]) if "figures" in opts else None,
                   label_prefix=opts.get("label_prefix", "tab:corefreport-"), section=opts["section"])
    return out


def arg_value_invalid(opts: dict) -> bool:
    """A choice value typer would refuse (it then prints the error)."""
    if opts.get("fmt", "table") not in OutFormat.__members__:
        return True
    return any(opts.get(k) is not None and opts[k] not in InFormat.__members__
               for k in ("key_format", "response_format"))


def try_score(argv: list[str]) -> bool:
    """Run ``corefreport score`` from ``argv`` (without the program name) if :func:`parse` knows it;
    ``False`` (nothing done) otherwise."""
    parsed = parse(argv)
    if parsed is None:
        return False
    from ..scoring.registry import STANDARD_METRICS
    from .build import SCORING_DEFAULTS, build_settings
    from .run import run_score

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
    from .build import SCORING_DEFAULTS, VIEW_ANALYSES, build_settings
    from .run import run_tui_command

    scoring = {**SCORING_DEFAULTS, **parsed.pop("scoring")}
    settings = build_settings(**scoring, default_metrics=ALL_METRICS, default_analyses=VIEW_ANALYSES)
    raise SystemExit(run_tui_command(parsed["key"], parsed["response"], parsed["key_format"],
                                     parsed["response_format"], parsed["example"], settings))


def try_report(argv: list[str]) -> bool:
    """Run ``corefreport report`` from ``argv`` if :func:`parse` knows it (the same
    :func:`.reporting.run_report` the typer command calls); ``False`` (nothing done) otherwise."""
    parsed = parse(argv, "report")
    if parsed is None:
        return False
    from ..scoring.registry import ALL_METRICS
    from .build import SCORING_DEFAULTS, VIEW_ANALYSES, build_settings
    from .reporting import run_report

    scoring = {**SCORING_DEFAULTS, **parsed.pop("scoring")}
    settings = build_settings(**scoring, default_metrics=ALL_METRICS, default_analyses=VIEW_ANALYSES)
    run_report(**parsed, settings=settings)
    return True
