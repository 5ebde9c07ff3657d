"""Every option of ``score``, ``tui`` and ``report`` and the scoring options all commands share,
defined once: flags, default, help, and how it is parsed. Plain data, no typer: the typer commands
(:mod:`.options`, :mod:`.commands`) declare their parameters from here, and the fast parser
(:mod:`.fast`) reads the same table for the options it knows (``fast=True``). A default that is
a setting's comes from :class:`~corefreport.scoring.settings.Settings`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from ..scoring.registry import ANALYSIS_REGISTRY, COREFUD_METRICS, LINGUISTIC_METRICS, STANDARD_METRICS
from ..scoring.settings import Settings


@dataclass(frozen=True)
class Opt:
    """One option: ``dest`` (the parameter it fills), ``flags``, ``help``, ``default`` and ``takes``:
    ``value`` (one value), ``many`` (repeatable), ``flag`` (True when given) or ``switch`` (one flag
    ``--on/--off``: True or False; ``default`` None: neither given)."""

    dest: str
    flags: tuple[str, ...]
    help: str
    default: object = None
    takes: str = "value"
    metavar: str | None = None
    fast: bool = False
    """Whether the fast parser knows it (the everyday options)."""


_SETTINGS = {f.name: f.default for f in fields(Settings)}


def _numbers(name: str) -> str:
    return ",".join(f"{x:g}" for x in _SETTINGS[name])


SCORING = (
    Opt("metric", ("--metric", "-m"), "Metrics (repeatable or comma-separated): "
        + ", ".join(STANDARD_METRICS + LINGUISTIC_METRICS) + ", plink (with --by), all; corefud-scorer's "
        + ", ".join(COREFUD_METRICS) + "; the Universal Anaphora layers: nonref, bridging (bridging_ar, "
        "bridging_fbm, bridging_fbe), dd (dd_lea, dd_muc, dd_bcub, dd_ceafe, dd_ceafm, dd_blanc); CRAC 2026's "
        "empty nodes: empty_nodes (the ten rows empty_nodes_arc … empty_nodes_all).", [], "many",
        "NAME[,NAME…]", fast=True),
    Opt("analysis", ("--analysis", "-a"), "Link-level analysis (repeatable): "
        + "; ".join(f"'{a.name}' ({a.title}, {a.citation})" for a in ANALYSIS_REGISTRY.values() if a.option)
        + " (docs/error-classes.md, docs/outcome-rows.md).", [], "many", "NAME", fast=True),
    Opt("singletons", ("--keep-singletons/--drop-singletons",), "Keep or drop one-mention chains on both sides. "
        "Default: keep whatever the files hold, as the reference scorer does.", None, "switch", fast=True),
    Opt("key_duplicates", ("--key-duplicates",), "A span repeated in the KEY: 'keep' (default, as reference v8.01: "
        "counted in both chains, so a key scored against itself can fall below 100%) or 'dedupe' (keep it once, in "
        "its first chain; warns). Not with --repeats corefud12 (--preset crac).", _SETTINGS["key_duplicates"], metavar="keep|dedupe"),
    Opt("repeats", ("--repeats",), "Spans written twice: 'ref801' (default, as reference scorer v8.01), "
        "'corefud12' (as corefud-scorer v1.2: once within a chain before singletons are dropped, in both chains "
        "across chains; set by --preset crac) or 'ua1' (as the UA scorer v1: every copy where it is written, looked "
        "up in the last chain; set by the UA presets). docs/matching.md rule 5.", None,
        metavar="ref801|corefud12|ua1"),
    Opt("split_antecedents", ("--split-antecedents",), "Split antecedents (Universal Anaphora ElementOf: the "
        "members of a plural entity): 'drop' (default: ignored), 'keep' (scored as the UA scorer v1 does by default: "
        "the plural entity's pseudo-mention aligned by Kuhn-Munkres; set by --preset codicrac22ar) or 'only' (the "
        "split antecedents alone). docs/universal-anaphora.md.", None, metavar="drop|keep|only"),
    Opt("match", ("--match",), "Mention matching (corefud-scorer v1.2, docs/matching.md): 'exact' (default: same "
        "words), 'head' (same head word, CRAC 2023+) or 'partial' (the key mention holds the response's words and "
        "the response holds the key's head); for Universal Anaphora files 'min' (the response holds the key's Min= "
        "minimum span and lies within the key mention) or 'craft' (CRAFT's partial variant); always 1-to-1; "
        "'mina' (CoNLL-2012 with parse bits: mentions are the same when their MINA minimum spans, computed from the "
        "key's parse as coval computes them, are equal; docs/universal-anaphora.md).", None,
        metavar="exact|head|partial|min|craft|mina", fast=True),
    Opt("zeros", ("--keep-zeros/--drop-zeros",), "Keep (default) or drop zero mentions, those headed by an empty "
        "node, on both sides.", _SETTINGS["zeros"] == "keep", "switch"),
    Opt("zero_match", ("--zero-match",), "Zeros (mentions headed by an empty node): 'linear' (default: by position, "
        "like any mention) or 'dependent' (first paired by their DEPS within a sentence, as corefud-scorer v1.2 by "
        "default).", None, metavar="linear|dependent"),
    Opt("preset", ("--preset",), "'crac': score as the CRAC 2023/2024 shared tasks (corefud-scorer v1.2 defaults): "
        "head matching, singletons dropped, zeros matched by their dependencies, BLANC averaged as corefud-scorer "
        "does (blanc_crac) and, without --metric, MOR and the zero score too, as corefud-scorer prints them. "
        "--match, --zero-match and --keep-singletons still override. 'codicrac22ar' and 'crac18': the Universal "
        "Anaphora scorer v1 as the CODI-CRAC 2021/2022 anaphora resolution and CRAC 2018 (ARRAU) tasks ran it "
        "(docs/universal-anaphora.md).", None, metavar="crac|codicrac22ar|crac18", fast=True),
    Opt("strict_tokens", ("--strict-tokens",), "Stop with an error when a matched document's words differ between "
        "key and response (default: warn).", _SETTINGS["strict_tokens"], "flag", fast=True),
    Opt("repeated_documents", ("--repeated-documents",), "A document name written twice in one CoNLL-2012 file: "
        "'last' (default, as reference v8.01: only its last copy is scored, on either side; warns) or 'rename' "
        "(every copy is scored, the second as 'ID#2'; warns).", _SETTINGS["repeated_documents"],
        metavar="last|rename"),
    Opt("cross_document", ("--cross-document",), "Entity labels are global across the KEY's documents (ECB+, "
        "WEC, SciCo, CD²CR): each topic's documents (every document without --topic-from) are scored as one, their "
        "concatenation, as neleval --cross-doc and the reference scorer on concatenated documents (docs/datasets.md).",
        False, "flag"),
    Opt("decoupled", ("--decoupled",), "Cattan et al. (2021)'s decoupled protocol: the coreference metrics without "
        "singletons (--drop-singletons) and the Mentions row (mention detection) with them, in one run.", False,
        "flag"),
    Opt("topic_from", ("--topic-from",), "Topics of --cross-document: a regular expression searched in each "
        "document's name (its group 1, else the match: '^(\\d+)_' gives ECB+'s '36' of '36_1ecb'), a FILE of "
        "DOC_ID<TAB>TOPIC lines, or meta:NAME, what the file gives each document (uCDCR: meta:topic, "
        "meta:subtopic).", None, metavar="PATTERN|FILE|meta:NAME"),
    Opt("weights", ("--weights",), "Link weights of the linguistically aware metrics (Chen & Ng 2013; default W4).",
        _numbers("weights"), metavar="NAM,NOM,PRO,SING"),
    Opt("by", ("--by",), "Feature to break link-level scores down by (repeatable): a mention feature (mtype, "
        "pos_class, pronoun, ne, head_pos, lemma, genre, spread, link_type, etype) or an input column (col12 = 12th column). "
        "p-link uses the first.", [], "many", "FEATURE"),
    Opt("arcs_compat", ("--arcs-compat",), "ARCS: reproduce the released v1.2 scorer (N6 double count in scenario "
        "2; scenario 3 with the response's singletons and v1.2's reading of nested and repeated mentions).",
        _SETTINGS["arcs_compat"], "flag"),
    Opt("arcs_singletons", ("--arcs-singletons",), "ARCS scenario 3: let response singletons take part, as v1.2 "
        "does.", _SETTINGS["arcs_singletons"], "flag"),
    Opt("arcs_anchor_links", ("--arcs-anchor-links",), "ARCS: also score links to the anchor mention (the slides' "
        "reading of scenario 3; rows 'anchor_link').", _SETTINGS["arcs_anchor_links"], "flag"),
    Opt("scheme", ("--scheme",), "Annotation scheme of the typed analysis: lcc, derived (default), gum, or a TOML "
        "file (docs/typed-evaluation.md).", None, metavar="NAME|FILE"),
    Opt("k", ("--k",), "Credits of TP, WT, WL, WTL (typed).", _numbers("k"), metavar="K1,K2,K3,K4"),
    Opt("attempted", ("--attempted",), "Classes the system attempts (typed; default: the scheme's, else every class "
        "in key or response).", None, metavar="CLASS[,CLASS…]"),
    Opt("strict_dominant", ("--strict-dominant",), "Typed: a link to another entity's dominant mention is FN + FP "
        "instead of WL.", _SETTINGS["strict_dominant"], "flag"),
    Opt("errors_drop_response_singletons", ("--errors-drop-response-singletons",), "errors: drop the response's "
        "singletons but keep the key's, as Kummerfeld & Klein's analyser does (its mode T, for keys without "
        "singletons); default: the scores' mentions on both sides.", _SETTINGS["errors_drop_response_singletons"],
        "flag"),
    Opt("markup_policy", ("--markup-policy",), "A RESPONSE of LLM/seq2seq markup text (text2text-coref's "
        "'word|[e1 … word|e1]', or '<m> … | 1 </m>'), read onto the KEY's words by word edit distance: 'organisers' "
        "(default: as text2text-coref's cleaner, tags on a misspelt word dropped) or 'lenient' (kept on 1:1 "
        "substitutions; an unclosed tag becomes a one-word mention). docs/formats.md.", _SETTINGS["markup_policy"],
        metavar="organisers|lenient"),
    Opt("truncate", ("--truncate",), "Print percentages truncated to two decimals, exactly as the reference "
        "scorer.pl v8.01 prints them (MUC F1 64.82 where the default rounds to 64.83); the JSON and the numbers "
        "computed are the same. Recorded in the signature (print:trunc).", _SETTINGS["truncate"], "flag", fast=True),
    Opt("plink_compat", ("--plink-compat",), "p-link: take categories exactly as Zeldes' Perl does (numerator and "
        "response denominator from the response file).", _SETTINGS["plink_compat"], "flag"),
    Opt("strata", ("--strata",), "Also score every metric per stratum of chains (repeatable): 'chain-length' "
        "(mentions: 1, 2–10, 11+), 'spread' (sentences from first to last mention: 1, 2–5, 6–20, 21+), either with "
        ":EDGES for other upper edges (chain-length:1,5,20), or 'etype' (the entity type: CorefUD/GUM etype, else "
        "the NE column). Key and response chains each go by their own length, spread or type; R, P, F1 with counts "
        "per stratum, micro over documents (docs/strata.md).", [], "many",
        "chain-length[:EDGES]|spread[:EDGES]|etype", fast=True),
    Opt("window", ("--window",), "Also score every metric on each document cut into windows of N words (a window "
        "closes at the end of the first sentence that brings it to N words or more; a chain cut by a border becomes "
        "one chain per window; BookCoref's windows: 1500), next to the full documents: both side by side, what the "
        "cut costs, and the key's antecedent links found within one window and across windows (docs/windows.md).",
        None, metavar="N", fast=True),
    Opt("response_windows", ("--response-windows",), "The response is one document per window (BookCoref's split "
        "configuration): put its documents back, in order, onto the key documents whose words they cover, and score "
        "them against the full documents (an error names a window and word that do not align; docs/windows.md).",
        False, "flag", fast=True),
)
"""The scoring options every command shares, in the order ``--help`` lists them."""

SCORING_DEFAULTS = {o.dest: o.default for o in SCORING}

_FORMATS = (Opt("key_format", ("--key-format",), "Format of KEY (default: detected).", fast=True),
            Opt("response_format", ("--response-format",), "Format of RESPONSE (default: detected).", fast=True))
_QUIET = Opt("quiet", ("--quiet", "-q"), "Do not print warnings (a verdict on a near-0 score is still printed: it is the result).", False, "flag", fast=True)
_FORCE = Opt("force", ("--force",), "Overwrite an existing output file.", False, "flag", fast=True)

COMMANDS: dict[str, tuple[Opt, ...]] = {
    "score": (
        Opt("fmt", ("--format", "-f"), "Output format.", "table", fast=True),
        Opt("output", ("--output", "-o"), "Write to FILE instead of stdout.", fast=True),
        _FORCE,
        Opt("per_doc", ("--per-doc",), "Also show per-document scores (worst first).", False, "flag", fast=True),
        Opt("links", ("--links",), "Write the outcome rows (one per referent and analysis) to FILE: .jsonl or .csv."),
        Opt("alignment_words", ("--alignment-words",), "A markup response: write the words its alignment to the "
            "key did not match (substituted, inserted, deleted), one a line with its document, to FILE: .jsonl or "
            ".csv (docs/formats.md)."),
        *_FORMATS,
        Opt("example", ("--example",), "Score the bundled example (3 GUM documents against real xrenner output).",
            False, "flag", fast=True),
        Opt("subsets", ("--subsets",), "Scores per group of documents (repeatable): 'genre' (the document id's "
            "genre, as CoNLL-2012 names it), 'length' or 'length:500,1000,2000' (the key document's words, buckets "
            "by upper edge), or a FILE of DOC_ID<TAB>GROUP lines. Each group micro over its documents, then micro and "
            "macro rows (docs/datasets.md). '--by genre' without an analysis does the same.", [], "many",
            "genre|length[:EDGES]|FILE", fast=True),
        Opt("runs", ("--runs",), "RESPONSE is several runs of one system (seeds): NAME=RUN1,RUN2,… or a quoted "
            "glob or directory, one run a file. The key is read once; every metric's mean ± sample sd, min and max "
            "over the runs, and each run's F1 (docs/datasets.md).", False, "flag", fast=True),
        Opt("datasets", ("--datasets",), "Score several datasets: 'score --datasets MANIFEST' (lines NAME<TAB>KEY"
            "<TAB>RESPONSE, paths relative to the manifest, # comments) or 'score --datasets KEYDIR RESPONSEDIR' "
            "(files paired by name without extension). One row per dataset (micro over its documents) and their "
            "unweighted mean (avg); with --preset crac the CRAC ranking: CoNLL F1 in the four official variants "
            "(docs/datasets.md).", False, "flag", fast=True),
        _QUIET,
        Opt("jobs", ("--jobs", "-j"), "Processes scoring runs of documents (every process parses only its own; the "
            "numbers are those of one process). Default: one for a key under 2 MB (about 75 CoNLL-2012 documents: "
            "below that a pool saves nothing on 2 cores), else the cores idle now, at most 4; a document of 3,000 key "
            "mentions or more has its error classes scored beside the other analyses on an idle core (--jobs 1: "
            "one process). N is 1 to 64.",
            metavar="N",
            fast=True),
    ),
    "tui": (*_FORMATS, Opt("example", ("--example",), "Browse the bundled example.", False, "flag", fast=True),
            Opt("subsets", ("--subsets",), "Open on a page of groups of documents — genre, length[:EDGES] or a FILE "
                "of DOC_ID<TAB>GROUP lines — each with its scores, micro and macro last; Enter opens a group's "
                "browser (docs/tui.md).", [], "many", "genre|length[:EDGES]|FILE", fast=True),
            Opt("datasets", ("--datasets",), "'tui --datasets MANIFEST' or 'KEYDIR RESPONSEDIR': open on a page of "
                "the datasets with their scores and avg (the CRAC ranking under --preset crac); Enter opens a "
                "dataset's browser (docs/tui.md).", False, "flag", fast=True)),
    "report": (
        Opt("responses", ("--response", "-r"), "Repeatable: several systems side by side with significance tests "
            "(the first is the baseline, the last is detailed). With --datasets: another system's manifest or "
            "directory (compare --datasets); with --runs: another group of runs, NAME=RUN1,RUN2,… (compare --runs).",
            [], "many", "NAME=FILE", fast=True),
        Opt("output", ("--output", "-o"), "report.pdf, report.html or tables.tex", "report.pdf", fast=True),
        Opt("title", ("--title",), "Report title.", fast=True),
        Opt("name", ("--name",), "The system's name in the title and tables (default: the response file's stem, "
            "or the directory's name for a directory or a glob).", fast=True),
        Opt("latex_layout", ("--latex-layout",), "LaTeX tables for an 'acl' two-column paper (wide tables as "
            "table*) or a 'single' column document.", "acl", fast=True),
        Opt("figures", ("--figures",), "Also write every chart as DIR/figure-N.svg and .pdf, numbered as in the "
            "report.", metavar="DIR", fast=True),
        Opt("label_prefix", ("--label-prefix",), "Prefix of the LaTeX \\label of each table (default: tab:STEM- "
            "from the output file's name, so that two reports in one paper never share a label).", fast=True),
        Opt("section", ("--section",), "Sections to include (repeatable): overview, summary, metrics, linguistic, "
            "nonref, bridging, deixis (the Universal Anaphora layers), plink, arcs, typed, examples, errors, documents, methods. Default: all.", [], "many", "NAME",
            fast=True),
        Opt("subsets", ("--subsets",), "A section of scores per group of documents (repeatable): genre, "
            "length[:EDGES] or a FILE of DOC_ID<TAB>GROUP lines, as 'score --subsets'.", [], "many",
            "genre|length[:EDGES]|FILE", fast=True),
        Opt("runs", ("--runs",), "RESPONSE is several runs of one system (NAME=RUN1,RUN2,… or a quoted glob): a "
            "section of every metric's mean ± sd over the runs; the other sections describe the first run.", False,
            "flag", fast=True),
        Opt("datasets", ("--datasets",), "'report --datasets MANIFEST' or 'KEYDIR RESPONSEDIR': the table of "
            "'score --datasets' (the CRAC ranking under --preset crac) and the methods.", False, "flag", fast=True),
        Opt("correction", ("--correction",), "With -r: adjust the comparison's p-values for multiple comparisons "
            "over the family of tests it prints: holm (Holm-Bonferroni) or bh (Benjamini-Hochberg); none: as they "
            "are (docs/compare.md).", "none", metavar="none|holm|bh", fast=True),
        *_FORMATS, _FORCE,
        Opt("example", ("--example",), "Report on the bundled example.", False, "flag", fast=True),
        _QUIET,
    ),
}
"""Each command's own options (``tui --serve/--port`` and ``compare``'s are typer's alone)."""


def option(command: str, dest: str) -> Opt:
    """The option ``dest`` of ``command`` (``scoring`` for the shared ones)."""
    return next(o for o in (SCORING if command == "scoring" else COMMANDS[command]) if o.dest == dest)
