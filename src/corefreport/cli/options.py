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
from .build import SCORING_DEFAULTS, build_settings, fail, parse_metrics  # noqa: F401 (re-exported)


def _p(name: str, annotation) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=SCORING_DEFAULTS[name],
                             annotation=annotation)


SCORING_PARAMETERS = [
    _p("metric", Annotated[list[str], typer.Option(
        "--metric", "-m", metavar="NAME[,NAME…]",
        help="Metrics (repeatable or comma-separated): muc, bcub, ceafm, ceafe, blanc, lea, lmuc, lbcub, lceafm, "
             "lceafe, plink (with --by), all; corefud-scorer's blanc_crac, mor (mention overlap ratio) and zero "
             "(its score of zero mentions).")]),
    _p("analysis", Annotated[list[str], typer.Option(
        "--analysis", "-a", metavar="NAME",
        help="Link-level analysis (repeatable): 'arcs' (Tuggener 2014: immediate, inferred and anchor scenarios), "
             "'typed' (Žitkus et al. 2023: dominant mentions, classes and types), 'errors' (Kummerfeld & Klein 2013: "
             "span error, conflated entities, extra mention/entity, divided entity, missing mention/entity, "
             "with the F1 each class costs; docs/error-classes.md).")]),
    _p("singletons", Annotated[Optional[bool], typer.Option(
        "--keep-singletons/--drop-singletons",
        help="Keep or drop one-mention chains on both sides. Default: keep whatever the files hold, as the "
             "reference scorer does.")]),
    _p("key_duplicates", Annotated[str, typer.Option(
        "--key-duplicates", metavar="keep|dedupe",
        help="A span repeated in the KEY: 'keep' (default, as reference v8.01: counted in both chains, so a key "
             "scored against itself can fall below 100%) or 'dedupe' (keep it once, in its first chain; warns).")]),
    _p("match", Annotated[Optional[str], typer.Option(
        "--match", metavar="exact|head|partial",
        help="Mention matching (corefud-scorer v1.2, docs/matching.md): 'exact' (default: same words), 'head' "
             "(same head word, CRAC 2023+) or 'partial' (the key mention holds the response's words and the "
             "response holds the key's head); always 1-to-1.")]),
    _p("zeros", Annotated[bool, typer.Option(
        "--keep-zeros/--drop-zeros",
        help="Keep (default) or drop zero mentions, those headed by an empty node, on both sides.")]),
    _p("zero_match", Annotated[Optional[str], typer.Option(
        "--zero-match", metavar="linear|dependent",
        help="Zeros (mentions headed by an empty node): 'linear' (default: by position, like any mention) or "
             "'dependent' (first paired by their DEPS within a sentence, as corefud-scorer v1.2 by default).")]),
    _p("preset", Annotated[Optional[str], typer.Option(
        "--preset", metavar="crac",
        help="'crac': score as the CRAC 2023/2024 shared tasks (corefud-scorer v1.2 defaults): head matching, "
             "singletons dropped, zeros matched by their dependencies, BLANC averaged as corefud-scorer does "
             "(blanc_crac) and, without --metric, MOR and the zero score too, as corefud-scorer prints them. "
             "--match, --zero-match and --keep-singletons still override.")]),
    _p("strict_tokens", Annotated[bool, typer.Option(
        "--strict-tokens",
        help="Stop with an error when a matched document's words differ between key and response "
             "(default: warn).")]),
    _p("weights", Annotated[str, typer.Option(
        "--weights", metavar="NAM,NOM,PRO,SING",
        help="Link weights of the linguistically aware metrics (Chen & Ng 2013; default W4).")]),
    _p("by", Annotated[list[str], typer.Option(
        "--by", metavar="FEATURE",
        help="Feature to break link-level scores down by (repeatable): a mention feature (mtype, pos_class, "
             "pronoun, ne, head_pos, lemma, genre, link_type, etype) or an input column (col12 = 12th column). "
             "p-link uses the first.")]),
    _p("arcs_compat", Annotated[bool, typer.Option(
        "--arcs-compat",
        help="ARCS: reproduce the released v1.2 scorer (N6 double count in scenario 2).")]),
    _p("arcs_singletons", Annotated[bool, typer.Option(
        "--arcs-singletons",
        help="ARCS scenario 3: let response singletons take part, as v1.2 does.")]),
    _p("arcs_anchor_links", Annotated[bool, typer.Option(
        "--arcs-anchor-links",
        help="ARCS: also score links to the anchor mention (the slides' reading of scenario 3; rows "
             "'anchor_link').")]),
    _p("scheme", Annotated[Optional[str], typer.Option(
        "--scheme", metavar="NAME|FILE",
        help="Annotation scheme of the typed analysis: lcc, derived (default), gum, or a TOML file "
             "(docs/typed-evaluation.md).")]),
    _p("k", Annotated[str, typer.Option(
        "--k", metavar="K1,K2,K3,K4", help="Credits of TP, WT, WL, WTL (typed).")]),
    _p("attempted", Annotated[Optional[str], typer.Option(
        "--attempted", metavar="CLASS[,CLASS…]",
        help="Classes the system attempts (typed; default: the scheme's, else every class in key or "
             "response).")]),
    _p("strict_dominant", Annotated[bool, typer.Option(
        "--strict-dominant",
        help="Typed: a link to another entity's dominant mention is FN + FP instead of WL.")]),
    _p("errors_singletons", Annotated[bool, typer.Option(
        "--errors-keep-singletons",
        help="errors: keep response singletons (the analyser's mode F; default: drop them, its mode T).")]),
    _p("plink_compat", Annotated[bool, typer.Option(
        "--plink-compat",
        help="p-link: take categories exactly as Zeldes' Perl does (numerator and response denominator from the "
             "response file).")]),
]
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
