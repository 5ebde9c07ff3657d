"""The scoring options every command shares, and the one function that turns them into
:class:`~corefreport.scoring.settings.Settings`.

``@scoring_options(...)`` adds the same typer options to ``score``, ``compare``, ``report`` and
``tui`` and hands the command a ``settings`` argument built by :func:`build_settings`. A command
that cannot honour an option lists it in ``unsupported``: giving it there is an error, never
silently ignored. Only which metrics and analyses a command computes when none are asked for
differs (``score``: the six standard metrics; the others: everything).
"""

import functools
import inspect
import typing
from typing import Annotated, Callable, Optional

import typer

from ..scoring.registry import STANDARD_METRICS
from .build import build_settings, fail, output_path, parse_metrics  # noqa: F401 (re-exported)
from .spec import SCORING, Opt


def typer_option(o: Opt, annotation=None):
    """``Annotated[type, typer.Option(...)]`` of an option of :mod:`.spec` (its type from how it is
    parsed, unless ``annotation`` says otherwise)."""
    if annotation is None:
        annotation = {"many": list[str], "flag": bool}.get(o.takes)
        if annotation is None:
            base = bool if o.takes == "switch" else str
            annotation = Optional[base] if o.default is None else base
    if o.dest in OUTPUT_FILES and o.takes == "value":  # a trailing slash is refused before Path drops it
        return Annotated[annotation, typer.Option(*o.flags, metavar=o.metavar or "FILE", help=o.help,
                                                  parser=output_path)]
    return Annotated[annotation, typer.Option(*o.flags, metavar=o.metavar, help=o.help)]


OUTPUT_FILES = ("output", "links", "alignment_words")
"""The options that name a file to write (:func:`~.build.output_path`)."""


SCORING_PARAMETERS = [inspect.Parameter(o.dest, inspect.Parameter.KEYWORD_ONLY, default=o.default,
                                        annotation=typer_option(o)) for o in SCORING]
"""The shared options, in the order ``--help`` lists them."""

DEFAULTS = {p.name: p.default for p in SCORING_PARAMETERS}


def scoring_options(*, default_metrics: tuple[str, ...] = STANDARD_METRICS, default_analyses: tuple[str, ...] = (),
                    unsupported: tuple[str, ...] = ()) -> Callable:
    """Give a command the shared options; it receives ``settings: Settings`` instead."""

    def decorate(command: Callable) -> Callable:
        hints = typing.get_type_hints(command, include_extras=True)
        sig = inspect.signature(command)
        own = [p.replace(annotation=hints.get(p.name, p.annotation)) for p in sig.parameters.values()
               if p.name != "settings"]
        params = own + SCORING_PARAMETERS

        @functools.wraps(command)
        def run(*args, **kwargs):
            opts = {p.name: kwargs.pop(p.name, p.default) for p in SCORING_PARAMETERS}
            for name in unsupported:
                if opts[name] != DEFAULTS[name]:
                    fail(f"--{name.replace('_', '-')} is not supported by this command")
            settings = build_settings(**opts, default_metrics=default_metrics, default_analyses=default_analyses)
            return command(*args, settings=settings, **kwargs)

        run.__signature__ = sig.replace(parameters=params)
        run.__annotations__ = {p.name: p.annotation for p in params}
        del run.__wrapped__
        return run

    return decorate
