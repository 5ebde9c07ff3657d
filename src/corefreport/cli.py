"""The ``corefreport`` command line: a view over the evaluation result (it never computes scores)."""

from __future__ import annotations

import json
import sys
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Annotated, Optional

import typer

from .errors import InputError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Coreference evaluation: the official CoNLL numbers, and why. "
    "Run 'corefreport score --example' to see it on a bundled GUM sample.",
)


@app.callback()
def _root() -> None:
    """Coreference evaluation: the official CoNLL numbers, and why."""


class OutFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"
    latex = "latex"


class InFormat(str, Enum):
    conll2012 = "conll2012"
    conllu = "conllu"
    jsonlines = "jsonlines"
    webanno = "webanno"


def fail(message: str, code: int = 2) -> None:
    typer.echo(f"corefreport: error: {message}", err=True)
    raise typer.Exit(code)


def example_paths() -> tuple[str, str]:
    """The bundled example: GUM gold (3 documents) and the xrenner ml/gum response for them."""
    base = resources.files("corefreport") / "data" / "example"
    return str(base / "gum_key.conll"), str(base / "xrenner_response.conll")


def write_output(text: str, output: Optional[Path], force: bool) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    if output.exists() and not force:
        fail(f"{output} exists; use --force to overwrite it")
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as err:
        fail(f"cannot write {output}: {err.strerror or err}")
    typer.echo(f"wrote {output}", err=True)


def parse_metrics(metric: list[str]) -> tuple[str, ...]:
    from .scoring.evaluate import ALL_METRICS, STANDARD_METRICS

    if not metric:
        return STANDARD_METRICS
    out: list[str] = []
    for item in metric:
        for name in item.replace("+", ",").split(","):
            name = name.strip().lower()
            if not name:
                continue
            if name == "all":
                out.extend(m for m in ALL_METRICS if m not in out)
                continue
            if name in ("b3", "bcubed"):
                name = "bcub"
            if name not in ALL_METRICS and name != "plink":
                fail(f"unknown metric {name!r}; choose from {', '.join(ALL_METRICS)}, plink or 'all'")
            if name not in out:
                out.append(name)
    return tuple(out)


def parse_weights(text: str) -> tuple[float, float, float, float]:
    try:
        parts = [float(x) for x in text.split(",")]
    except ValueError:
        fail(f"--weights takes four numbers NAM,NOM,PRO,SING, got {text!r}")
    if len(parts) != 4:
        fail(f"--weights takes four numbers NAM,NOM,PRO,SING, got {len(parts)}")
    if parts[3] <= 0:
        fail("--weights: the singleton weight w_sing must be > 0 (a zero makes the denominators zero; "
             "Chen & Ng 2013, fn. 8)")
    if any(p < 0 for p in parts):
        fail("--weights: weights must not be negative")
    return parts[0], parts[1], parts[2], parts[3]


@app.command()
def score(
    key: Annotated[Optional[str], typer.Argument(help="Gold corpus: a file, a directory, or a quoted glob.")] = None,
    response: Annotated[Optional[str], typer.Argument(help="System corpus: a file, a directory, or a quoted glob.")] = None,
    metric: Annotated[list[str], typer.Option("--metric", "-m", help="Metric to compute (repeatable or comma-"
                      "separated): muc, bcub, ceafm, ceafe, blanc, lea, lmuc, lbcub, lceafm, lceafe, plink "
                      "(with --by), all. "
                      "Default: the six standard metrics.")] = [],
    fmt: Annotated[OutFormat, typer.Option("--format", "-f", help="Output format.")] = OutFormat.table,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to FILE instead of stdout.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output file.")] = False,
    per_doc: Annotated[bool, typer.Option("--per-doc", help="Also show per-document scores (worst first).")] = False,
    singletons: Annotated[Optional[bool], typer.Option("--keep-singletons/--drop-singletons", help="Keep or drop "
                          "one-mention chains on both sides. Default: keep whatever the files hold, as the "
                          "reference scorer does.")] = None,
    weights: Annotated[str, typer.Option("--weights", help="Link weights NAM,NOM,PRO,SING of the "
                       "linguistically aware metrics (Chen & Ng 2013; default W4).")] = "1,0.75,0.5,1",
    analysis: Annotated[list[str], typer.Option("--analysis", "-a", help="Link-level analysis (repeatable): "
                        "'arcs' (Tuggener 2014: immediate, inferred and anchor scenarios), 'typed' (Žitkus et al. 2023: "
                        "dominant mentions, classes and types).")] = [],
    scheme: Annotated[Optional[str], typer.Option("--scheme", help="Annotation scheme of the typed analysis: "
                      "lcc, derived (default), gum, or a TOML file (docs/typed-evaluation.md).")] = None,
    k: Annotated[str, typer.Option("--k", help="Credits k1,k2,k3,k4 of TP, WT, WL, WTL (typed).")] = "1,0.75,0.5,0.25",
    attempted: Annotated[Optional[str], typer.Option("--attempted", help="Comma-separated classes the system "
                         "attempts (typed; default: the scheme's, else every class in key or response).")] = None,
    strict_dominant: Annotated[bool, typer.Option("--strict-dominant", help="Typed: a link to another entity's "
                               "dominant mention is FN + FP instead of WL.")] = False,
    links: Annotated[Optional[Path], typer.Option("--links", help="Write the outcome rows (one per referent "
                     "and analysis) to FILE: .jsonl or .csv.")] = None,
    by: Annotated[list[str], typer.Option("--by", help="Feature to break link-level scores down by "
                  "(repeatable): a mention feature (mtype, pos_class, pronoun, ne, head_pos, lemma, genre, "
                  "link_type, etype) or an input column (col12 = 12th column). p-link uses the first.")] = [],
    plink_compat: Annotated[bool, typer.Option("--plink-compat", help="p-link: take categories exactly as "
                            "Zeldes' Perl does (numerator and response denominator from the response file).")] = False,
    key_format: Annotated[Optional[InFormat], typer.Option("--key-format", help="Format of KEY (default: detected).")] = None,
    response_format: Annotated[Optional[InFormat], typer.Option("--response-format", help="Format of RESPONSE "
                               "(default: detected).")] = None,
    example: Annotated[bool, typer.Option("--example", help="Score the bundled example (3 GUM documents against "
                       "real xrenner output).")] = False,
    strict_tokens: Annotated[bool, typer.Option("--strict-tokens", help="Stop with an error when a matched "
                             "document's words differ between key and response (default: warn).")] = False,
    key_duplicates: Annotated[str, typer.Option("--key-duplicates", help="A span repeated in the KEY: 'dedupe' "
                              "(default: keep it once, warn) or 'keep' (as reference v8.01, which then scores a key "
                              "against itself below 100%).")] = "dedupe",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Do not print warnings.")] = False,
) -> None:
    """Score RESPONSE against KEY and print R, P, F1 (with numerators and denominators) per metric."""
    from .io import load_corpus
    from .scoring.evaluate import Options, evaluate

    if example:
        if key or response:
            fail("--example takes no KEY or RESPONSE")
        key, response = example_paths()
    if not key or not response:
        fail("give KEY and RESPONSE (or --example)")
    metrics = parse_metrics(metric)
    plink_by = None
    if "plink" in metrics:
        if not by:
            fail("--metric plink needs --by FEATURE (e.g. --by col12 for GUM's sentence type, or --by mtype)")
        plink_by = by[0]
        metrics = tuple(m for m in metrics if m != "plink")
    for a in analysis:
        if a not in ("arcs", "typed"):
            fail(f"unknown analysis {a!r}; choose arcs or typed")
    try:
        kk = tuple(float(x) for x in k.split(","))
    except ValueError:
        kk = ()
    if len(kk) != 4 or any(x < 0 or x > 1 for x in kk):
        fail(f"--k takes four numbers in [0, 1] (k1,k2,k3,k4), got {k!r}")
    if links is not None and not analysis:
        fail("--links needs an --analysis (e.g. --analysis arcs)")
    if links is not None and links.exists() and not force:
        fail(f"{links} exists; use --force to overwrite it")
    extra_opts = {"by": tuple(by)} if by and analysis else {}
    if scheme is not None or attempted is not None or strict_dominant:
        extra_opts.update(scheme=scheme, strict_dominant=strict_dominant,
                          attempted=tuple(a.strip() for a in attempted.split(",")) if attempted else None)
    options = Options(metrics=metrics, plink_by=plink_by, k=kk, analyses=tuple(dict.fromkeys(analysis)), **extra_opts, plink_compat=plink_compat, singletons="drop" if singletons is False else "keep",
                      weights=parse_weights(weights), strict_tokens=strict_tokens,
                      key_duplicates=key_duplicates)
    if key_duplicates not in ("dedupe", "keep"):
        fail("--key-duplicates takes 'dedupe' or 'keep'")
    import gc

    gc.disable()  # reading and scoring build many small objects and no cycles: the collector only costs time
    try:
        kc = load_corpus(key, key_format.value if key_format else None)
        rc = load_corpus(response, response_format.value if response_format else None)
        ev = evaluate(kc, rc, options, progress=_progress_callback(len(kc)))
    except InputError as err:
        fail(str(err))
    finally:
        gc.enable()
    if not quiet:
        for w in ev.warnings:
            typer.echo(f"corefreport: warning: {w}", err=True)
    if links is not None:
        write_links(ev, links)
    render(ev, fmt, output, force, per_doc)


def _progress_callback(n_docs: int):
    """A Rich progress bar on stderr for corpora large enough to wait for (and a terminal to show it)."""
    if n_docs < 200 or not sys.stderr.isatty():
        return None
    from rich.progress import Progress

    state: dict = {}

    def cb(done: int, total: int) -> None:
        if "p" not in state:
            p = Progress(transient=True)
            p.start()
            state["p"] = p
            state["t"] = p.add_task("scoring documents", total=total)
        state["p"].update(state["t"], completed=done)
        if done == total:
            state["p"].stop()

    return cb


def write_links(ev, path: Path) -> None:
    """The outcome rows as JSON lines (default) or CSV (``.csv``)."""
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            if path.suffix.lower() == ".csv":
                import csv

                w = csv.writer(f)
                w.writerow(["analysis", "doc_id", "start", "end", "text", "outcome", "credit", "key_antecedent",
                            "response_antecedent", "class", "type"])
                for r in ev.rows:
                    w.writerow([r.analysis, r.doc_id, r.start, r.end, r.text, r.outcome, r.credit,
                                "-".join(map(str, r.key_antecedent)) if r.key_antecedent else "",
                                "-".join(map(str, r.response_antecedent)) if r.response_antecedent else "",
                                r.cls, r.type])
            else:
                for r in ev.rows:
                    f.write(json.dumps(r.as_dict(), ensure_ascii=False) + "\n")
    except OSError as err:
        fail(f"cannot write {path}: {err.strerror or err}")
    typer.echo(f"wrote {len(ev.rows)} outcome rows to {path}", err=True)


def render(ev, fmt: OutFormat, output: Optional[Path], force: bool, per_doc: bool) -> None:
    from .report import tables

    if fmt is OutFormat.json:
        write_output(json.dumps(ev.as_dict(per_doc=per_doc), indent=2, ensure_ascii=False) + "\n", output, force)
        return
    parts = tables.all_tables(ev, per_doc=per_doc)
    if fmt is OutFormat.csv:
        write_output("\n".join(tables.to_csv(t) for t in parts), output, force)
    elif fmt is OutFormat.markdown:
        write_output("\n".join(f"### {t.title}\n\n" + tables.to_markdown(t) for t in parts), output, force)
    elif fmt is OutFormat.latex:
        write_output("\n".join(tables.to_latex(t) for t in parts), output, force)
    else:
        from .views.terminal import print_evaluation

        if output is not None:
            from io import StringIO

            buf = StringIO()
            print_evaluation(ev, per_doc=per_doc, file=buf, color=False)
            write_output(buf.getvalue(), output, force)
        else:
            print_evaluation(ev, per_doc=per_doc)


@app.command()
def compare(
    key: Annotated[str, typer.Argument(help="Gold corpus.")],
    systems: Annotated[list[str], typer.Argument(help="BASELINE SYSTEM [SYSTEM …], each FILE or NAME=FILE; the "
                       "first is the baseline.")],
    bootstrap: Annotated[int, typer.Option("--bootstrap", help="Paired bootstrap resamples of the documents "
                         "(0: none).")] = 1000,
    randomization: Annotated[int, typer.Option("--randomization", help="Approximate randomization trials "
                             "(0: none).")] = 10000,
    seed: Annotated[int, typer.Option("--seed", help="Random seed (printed in the signature).")] = 12345,
    analysis: Annotated[list[str], typer.Option("--analysis", "-a", help="Link-level analyses to compare too: "
                        "arcs, typed (default: both).")] = [],
    no_analyses: Annotated[bool, typer.Option("--no-analyses", help="Compare the metrics only (faster).")] = False,
    scheme: Annotated[Optional[str], typer.Option("--scheme", help="Scheme of the typed evaluation.")] = None,
    by: Annotated[list[str], typer.Option("--by", help="Outcome-row column for per-group deltas, repeatable "
                  "(default: cls and type; also mtype, pos_class, ne, genre, an input column).")] = [],
    top: Annotated[int, typer.Option("--top", help="Largest gains and losses shown per analysis.")] = 3,
    min_support: Annotated[int, typer.Option("--min-support", help="Smallest group (key referents) among the "
                           "gains and losses shown.")] = 20,
    examples: Annotated[int, typer.Option("--examples", help="Example links shown per analysis and direction "
                        "(0: none).")] = 2,
    links: Annotated[Optional[Path], typer.Option("--links", help="Write every referent whose outcome changed "
                     "to FILE: .jsonl or .csv.")] = None,
    fmt: Annotated[OutFormat, typer.Option("--format", "-f", help="Output format.")] = OutFormat.table,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to FILE.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output file.")] = False,
    key_format: Annotated[Optional[InFormat], typer.Option("--key-format")] = None,
    response_format: Annotated[Optional[InFormat], typer.Option("--response-format")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Do not print warnings.")] = False,
) -> None:
    """Compare systems against one key: every metric side by side, paired bootstrap intervals and
    approximate-randomization p-values over documents, per-class and per-type gains and losses,
    the links one system gets right and the other wrong."""
    from .io import load_corpus
    from .scoring.compare import GROUPINGS
    from .scoring.compare import compare as run_compare
    from .scoring.evaluate import ALL_METRICS, Options, evaluate

    if len(systems) < 2:
        fail("give a BASELINE and at least one SYSTEM")
    named: dict[str, str] = {}
    for item in systems:
        name, _, path = item.partition("=") if "=" in item and not Path(item).exists() else (Path(item).stem, "", item)
        if name in named:
            fail(f"two systems are called {name!r}: name them with NAME=FILE")
        named[name] = path
    if bootstrap < 0 or randomization < 0:
        fail("--bootstrap and --randomization take a number ≥ 0")
    if links is not None and links.exists() and not force:
        fail(f"{links} exists; use --force to overwrite it")
    analyses = () if no_analyses else tuple(dict.fromkeys(analysis or ["arcs", "typed"]))
    options = Options(metrics=ALL_METRICS, analyses=analyses, scheme=scheme)
    import gc

    gc.disable()
    try:
        kc = load_corpus(key, key_format.value if key_format else None)
        evs = {}
        for name, path in named.items():
            evs[name] = evaluate(kc, load_corpus(path, response_format.value if response_format else None), options)
    except InputError as err:
        fail(str(err))
    finally:
        gc.enable()
    if not quiet:
        for name, ev in evs.items():
            for w in ev.warnings:
                typer.echo(f"corefreport: warning: {name}: {w}", err=True)
    try:
        cmp = run_compare(evs, next(iter(named)), bootstrap, randomization, seed, groupings=tuple(by) or GROUPINGS)
    except ValueError as err:
        fail(str(err))
    from .views import compare as V

    if fmt is OutFormat.json:
        write_output(json.dumps(cmp.as_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n", output, force)
    elif fmt is OutFormat.csv:
        write_output(V.comparison_csv(cmp), output, force)
    elif fmt is OutFormat.markdown:
        write_output(V.comparison_markdown(cmp, top, min_support), output, force)
    elif fmt is OutFormat.latex:
        write_output(V.comparison_latex(cmp), output, force)
    elif output is not None:
        from io import StringIO

        buf = StringIO()
        V.print_comparison(cmp, file=buf, color=False, top=top, examples=examples, min_support=min_support)
        write_output(buf.getvalue(), output, force)
    else:
        V.print_comparison(cmp, top=top, examples=examples, min_support=min_support)
    if links is not None:
        try:
            n = V.write_links(cmp, links)
        except OSError as err:
            fail(f"cannot write {links}: {err.strerror or err}")
        typer.echo(f"wrote {n} changed links to {links}", err=True)


@app.command()
def report(
    key: Annotated[Optional[str], typer.Argument(help="Gold corpus: a file, a directory, or a quoted glob.")] = None,
    response: Annotated[Optional[str], typer.Argument(help="System corpus.")] = None,
    responses: Annotated[list[str], typer.Option("--response", "-r", help="NAME=FILE, repeatable: several systems "
                         "side by side with significance tests (the first is the baseline, the last is detailed).")] = [],
    output: Annotated[Path, typer.Option("--output", "-o", help="report.pdf, report.html or tables.tex")] = Path("report.pdf"),
    title: Annotated[Optional[str], typer.Option("--title", help="Report title.")] = None,
    section: Annotated[list[str], typer.Option("--section", help="Sections to include (repeatable): summary, "
                       "metrics, linguistic, plink, arcs, typed, documents, methods. Default: all.")] = [],
    scheme: Annotated[Optional[str], typer.Option("--scheme", help="Scheme of the typed evaluation.")] = None,
    weights: Annotated[str, typer.Option("--weights", help="LMetric weights NAM,NOM,PRO,SING.")] = "1,0.75,0.5,1",
    k: Annotated[str, typer.Option("--k", help="Typed credits k1,k2,k3,k4.")] = "1,0.75,0.5,0.25",
    key_format: Annotated[Optional[InFormat], typer.Option("--key-format")] = None,
    response_format: Annotated[Optional[InFormat], typer.Option("--response-format")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing output file.")] = False,
    example: Annotated[bool, typer.Option("--example", help="Report on the bundled example.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Do not print warnings.")] = False,
) -> None:
    """Write a paper-ready report (PDF, HTML) or all its tables as LaTeX, chosen by the -o suffix."""
    from .io import load_corpus
    from .report.document import SECTIONS, write_report
    from .scoring.evaluate import ALL_METRICS, Options, evaluate

    if example:
        key, response = example_paths()
    named: dict[str, str] = {}
    for item in responses:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            fail(f"--response takes NAME=FILE, got {item!r}")
        named[name] = path
    if response and named:
        named = {Path(response).stem: response, **named}
    if not key or not (response or named):
        fail("give KEY and RESPONSE, or KEY and -r NAME=FILE … (or --example)")
    if output.suffix.lower() not in (".pdf", ".html", ".htm", ".tex"):
        fail(f"{output}: the report is written as .pdf, .html or .tex")
    if output.exists() and not force:
        fail(f"{output} exists; use --force to overwrite it")
    for name in section:
        if name not in SECTIONS:
            fail(f"unknown section {name!r}; choose from {', '.join(SECTIONS)}")
    try:
        kk = tuple(float(x) for x in k.split(","))
    except ValueError:
        kk = ()
    if len(kk) != 4:
        fail(f"--k takes four numbers, got {k!r}")
    options = Options(metrics=ALL_METRICS, analyses=("arcs", "typed"), scheme=scheme, weights=parse_weights(weights),
                      k=kk)
    import gc

    from rich.console import Console

    console = Console(stderr=True, quiet=quiet or not sys.stderr.isatty())
    gc.disable()
    try:
        with console.status("reading the corpora…") as status:
            kc = load_corpus(key, key_format.value if key_format else None)
            cmp = None
            if len(named) > 1:
                from .scoring.compare import compare as run_compare

                evs = {}
                for name, path in named.items():
                    status.update(f"scoring {name} on {len(kc)} documents…")
                    evs[name] = evaluate(kc, load_corpus(path, response_format.value if response_format else None),
                                         options)
                status.update("resampling documents for significance…")
                cmp = run_compare(evs, next(iter(evs)))
                ev = evs[list(evs)[-1]]
            else:
                rc = load_corpus(response or next(iter(named.values())),
                                 response_format.value if response_format else None)
                status.update(f"scoring {len(kc)} documents…")
                ev = evaluate(kc, rc, options)
            status.update(f"rendering {output.suffix[1:].upper()}…")
            write_report(ev, output, title, list(section) or None, force=force, comparison=cmp, progress=status.update)
    except InputError as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write {output}: {err.strerror or err}")
    finally:
        gc.enable()
    if not quiet:
        for w in ev.warnings:
            typer.echo(f"corefreport: warning: {w}", err=True)
    typer.echo(f"wrote {output}", err=True)


@app.command()
def tui(
    key: Annotated[Optional[str], typer.Argument(help="Gold corpus: a file, a directory, or a quoted glob.")] = None,
    response: Annotated[Optional[str], typer.Argument(help="System corpus.")] = None,
    scheme: Annotated[Optional[str], typer.Option("--scheme", help="Scheme of the typed analysis "
                      "(lcc, derived, gum or a TOML file).")] = None,
    key_format: Annotated[Optional[InFormat], typer.Option("--key-format")] = None,
    response_format: Annotated[Optional[InFormat], typer.Option("--response-format")] = None,
    example: Annotated[bool, typer.Option("--example", help="Browse the bundled example.")] = False,
) -> None:
    """Browse the evaluation in the terminal: totals → classes → types → single links in their sentence.

    Enter drills in, Escape goes back, d shows per-document scores, / filters links, q quits.
    For a browser over an SSH tunnel: textual serve "corefreport tui KEY RESPONSE" (see docs/tui.md).
    """
    from .scoring.evaluate import ALL_METRICS, Options

    if example:
        key, response = example_paths()
    if not key or not response:
        fail("give KEY and RESPONSE (or --example)")
    from .tui.app import run_tui

    options = Options(metrics=ALL_METRICS, analyses=("arcs", "typed"), scheme=scheme)
    code = run_tui(key, response, options, key_format.value if key_format else None,
                   response_format.value if response_format else None)
    raise typer.Exit(code)


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover
        typer.echo("interrupted", err=True)
        raise SystemExit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
