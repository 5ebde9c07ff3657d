"""``Settings``: every option that changes a number, in one frozen object; and its ``Signature``.

Every command (``score``, ``compare``, ``report``, ``tui``) builds its :class:`Settings` with the
same function from the same command-line options (:mod:`corefreport.cli.options`), and the pipeline
(:func:`corefreport.scoring.evaluate.evaluate`) takes nothing else. The :class:`Signature` derived
from it (sacrebleu's idea: ``key:value|…|version:x``) names every setting that changes a number, so
two scores with the same signature are comparable; ``compare`` compares signatures as objects.

>>> s = Settings(metrics=("muc", "bcub", "ceafe"))
>>> str(signature(s, "0123456789"))
'metrics:muc+bcub+ceafe|singletons:keep|match:exact|dups:ref801|key:0123456789|version:0.1.0'
>>> signature(s, "0123456789").diff(signature(Settings(), "0123456789"))
{'metrics': ('muc+bcub+ceafe', 'muc+bcub+ceafm+ceafe+blanc+lea')}
"""

from __future__ import annotations

import math
from numbers import Real
from dataclasses import dataclass, field, fields

from ..version import __version__
from ..errors import SettingsError
from .crossdoc import Topics
from .presets import PRESETS
from .registry import LINGUISTIC_METRICS, STANDARD_METRICS, active_analyses, analysis_names, known_metrics

MARKUP_POLICIES = ("organisers", "lenient")
"""How a markup response is read onto the key's words (``corefreport.io.markup``)."""

DEFAULT_BY = ("mtype", "pos_class", "pronoun", "ne", "genre")
"""Features the ARCS tables break scores down by when none are asked for."""


@dataclass(frozen=True)
class Settings:
    """Every setting of an evaluation. All fields but :attr:`by` change numbers and are in the
    signature; :attr:`by` only chooses which breakdown tables are shown (any feature can be
    grouped by afterwards: the outcome rows keep every feature)."""

    metrics: tuple[str, ...] = STANDARD_METRICS
    """Metrics to compute (registry keys); the CoNLL score comes with MUC, B³ and CEAF-e."""
    singletons: str = "keep"
    """keep | drop one-mention chains on both sides."""
    key_duplicates: str = "keep"
    repeats: str = "ref801"
    """How spans written twice are read: ref801 (default, as reference scorer v8.01: a repeated key
    span per ``key_duplicates``, a response span that is also a key mention kept in its first chain) |
    corefud12 (as corefud-scorer v1.2: once within a chain, before singletons are dropped; in both
    chains across chains, looked up in the last; ``scoring/repeats.py``, docs/matching.md rule 5).
    ``--preset crac`` sets it."""
    """A span repeated in the key: keep (default, as reference v8.01) | dedupe (keep it once)."""
    split_antecedents: str = "drop"
    """Split antecedents (a Universal Anaphora plural entity's ``ElementOf`` members): drop (default:
    ``ElementOf`` ignored, as UA scorer v1's ``remove_split_antecedent``) | keep (scored as UA v1 does
    by default, ``scoring/split.py``; chains then hold a span once) | only (the split antecedents
    alone). keep and only need singletons kept. ``--preset codicrac22ar`` sets keep."""
    match: str = "exact"
    """Mention matching (corefud-scorer v1.2, docs/matching.md): exact | head | partial | min
    (Universal Anaphora ``Min=`` minimum spans) | craft (CRAFT's partial variant; ``scoring/minspan.py``)
    | mina (coval's MINA minimum spans from the key's CoNLL-2012 parse bits; ``scoring/mina.py``)."""
    zeros: str = "keep"
    """keep | drop zero mentions (headed by an empty node) on both sides before matching."""
    zero_match: str = "linear"
    """Zeros (empty-node heads): linear (matched by position like any mention) | dependent (first
    paired by their DEPS within a sentence, corefud-scorer v1.2's default)."""
    preset: str | None = None
    """crac: the options were those of the CRAC shared tasks (head matching, singletons dropped,
    blanc_crac); recorded so that the signature says so. It also makes repeated spans be handled as
    corefud-scorer v1.2 handles them (``scoring/repeats.py``; signature ``dups:corefud12``)."""
    strict_tokens: bool = False
    """Different words in matched documents: an error instead of a warning."""
    repeated_documents: str = "last"
    """A document id written twice in one CoNLL-2012 file: last (default, as scorer.pl v8.01: only
    its last copy is read, on either side) | rename (every copy, the second as ``ID#2``, scored as a
    document of its own)."""
    weights: tuple[float, float, float, float] = (1.0, 0.75, 0.5, 1.0)
    """Chen & Ng (2013) link weights NAM, NOM, PRO, SING of the linguistically aware metrics."""
    analyses: tuple[str, ...] = ()
    """Analyses: arcs (Tuggener 2014), typed (Žitkus et al. 2023), errors (Kummerfeld & Klein 2013)."""
    arcs_compat: bool = False
    """ARCS: reproduce the released v1.2 scorer (N6 double count in scenario 2)."""
    arcs_singletons: bool = False
    """ARCS scenario 3: response singletons take part, as in v1.2."""
    arcs_anchor_links: bool = False
    """ARCS: also the slides' link-to-the-anchor reading of scenario 3 (rows ``anchor_link``)."""
    scheme: str | None = None
    """Annotation scheme of the typed analysis: lcc, derived (default), gum or a TOML file."""
    k: tuple[float, float, float, float] = (1.0, 0.75, 0.5, 0.25)
    """Typed credits of TP, WT, WL, WTL."""
    attempted: tuple[str, ...] | None = None
    """Typed: classes the system attempts (default: the scheme's, else every class present)."""
    strict_dominant: bool = False
    """Typed: a link to another entity's dominant mention is FN + FP instead of WL."""
    errors_drop_response_singletons: bool = False
    """errors: drop the response's one-mention chains and keep the key's, as Kummerfeld & Klein's
    analyser does by default (its mode T, made for OntoNotes, whose keys have no singletons). Off:
    the error classes see the scores' mentions (``singletons``, on both sides), so their costs add
    up from the scored F1."""
    plink_by: str | None = None
    """p-link (Zeldes & Simonson 2016): the category feature; None: no p-link."""
    plink_compat: bool = False
    """p-link: categories exactly as Zeldes' Perl scorer takes them."""
    markup_policy: str = "organisers"
    """A markup response (text2text-coref, inline brackets) read onto the key's words:
    organisers (tags on a substituted word dropped, as text2text-coref's cleaner) | lenient (kept
    on 1:1 substitutions; an unclosed tag becomes a one-word mention). In the signature of a
    markup response only (``markup:…``)."""
    truncate: bool = False
    """Print percentages as scorer.pl v8.01 prints them: truncated to two decimals
    (``int(x * 10000) / 100``, lib/CorScorer.pm ``ShowRPF``) instead of rounded — MUC F1 64.82, not
    64.83, on GUM against xrenner's ml-gum. The numbers computed and the JSON are the same; the
    signature says ``print:trunc``."""
    mention_singletons: str = "same"
    """same: the Mentions row sees the chains the metrics see | keep: it keeps one-mention chains
    when ``singletons`` drops them — Cattan et al. (2021)'s decoupled protocol (``--decoupled``):
    mention detection with singletons, coreference without."""
    cross_document: Topics | None = None
    """None: entity labels are per document, as read; a :class:`~.crossdoc.Topics`: global across the
    key's documents (``Topics()``: the whole corpus) or within each topic its pattern or mapping
    gives — each topic's documents scored as one (``scoring/crossdoc.py``)."""
    strata: tuple[str, ...] = ()
    """Stratifications of the chains (``--strata``: ``chain-length[:EDGES]``, ``spread[:EDGES]``,
    ``etype``): every per-document metric is also scored per stratum, key and response chains each
    by their own property (``scoring/strata.py``). The totals are unchanged; the signature names
    them (``strata:…``)."""
    window: int = 0
    """``--window N``: every per-document metric also scored on each document cut into windows of
    ``N`` words (a window closes at the end of the first sentence that brings it to ``N`` words or
    more), next to the full documents, with the key's antecedent links within one window and across
    windows (``scoring/windows.py``); 0: no windows. The totals are unchanged; the signature says
    ``window:N``."""
    response_windows: bool = False
    """``--response-windows``: the response is one document per window (BookCoref's ``split``):
    its documents are put back, in order, onto the key documents whose words they cover
    (``io/windows.py``), so a response produced on windows is scored against full documents. In the
    signature (``response:windows``)."""
    by: tuple[str, ...] = field(default=(), metadata={"signature": False})
    """Breakdown features of the link-level tables (presentation only; empty: each view's default,
    :data:`DEFAULT_BY` for the ARCS tables, class and type for ``compare``)."""

    def __post_init__(self) -> None:
        check(self)

    @property
    def breakdowns(self) -> tuple[str, ...]:
        """The features link-level tables break down by: ``by``, else :data:`DEFAULT_BY` — plus
        ``match`` (how each key mention was matched, ``scoring/matching.py``) under a non-exact
        ``--match``, so every view shows which mentions were matched only by head or partially."""
        return self.by or (DEFAULT_BY + (("match",) if self.match != "exact" else ()))

    @property
    def linguistic(self) -> tuple[str, ...]:
        return tuple(m for m in self.metrics if m in LINGUISTIC_METRICS)

    @property
    def needs_features(self) -> bool:
        """Whether mention features (type, head, POS class …) are needed: not for the standard
        metrics alone, which see only spans, nor for ``errors`` (it types mentions from the POS
        column, annotating a document itself only when it has none) unless ``--by`` asks for its
        errors by a mention feature."""
        return bool(self.linguistic or any(a != "errors" for a in self.analyses) or self.plink_by
                    or (self.by and "errors" in self.analyses))

    def as_dict(self) -> dict:
        """The ``settings`` object of the JSON output (docs/json-schema.md)."""
        out: dict = {"metrics": list(self.metrics), "singletons": self.singletons, "matching": self.match, "zero_match": self.zero_match, "zeros": self.zeros, "preset": self.preset,
                     "key_duplicates": self.key_duplicates, "repeats": self.repeats}
        if self.split_antecedents != "drop":
            out["split_antecedents"] = self.split_antecedents
        if self.repeated_documents != "last":
            out["repeated_documents"] = self.repeated_documents
        if self.mention_singletons != "same":
            out["mention_singletons"] = self.mention_singletons
        if self.cross_document is not None:
            out["cross_document"] = self.cross_document.as_dict()
        if self.strata:
            out["strata"] = list(self.strata)
        if self.window:
            out["window"] = self.window
        if self.response_windows:
            out["response_windows"] = True
        if self.linguistic:
            out["weights"] = list(self.weights)
        for a in active_analyses(self):  # each analysis says what its options are
            options = a.options(self)
            if options is not None:
                out[a.name] = options
        return out


def _finite(name: str, values: tuple[float, ...], low: float, high: float) -> None:
    for v in values:
        if not _number(v) or not math.isfinite(v) or not low <= v <= high:
            raise SettingsError(f"{name} takes finite numbers in [{low:g}, {high:g}], got {v!r}")


def _number(v: object) -> bool:
    return isinstance(v, Real) and not isinstance(v, bool)


def check_types(s: Settings) -> None:
    """Refuse a field of the wrong type, naming it: a switch (a field whose default is ``True`` or
    ``False``) takes a bool — ``strict_tokens="no"`` was once true; a choice (a string default) a
    string; a list of names a tuple of strings; four numbers a tuple of numbers. The command line
    gives each its type; the API's values are converted first (:func:`~.options.settings_from`)."""
    for f in fields(Settings):
        v, default = getattr(s, f.name), f.default
        if isinstance(default, bool):
            ok, wants = isinstance(v, bool), "True or False"
        elif isinstance(default, str):
            ok, wants = isinstance(v, str), "a name (a string)"
        elif isinstance(default, tuple) and default and all(_number(x) for x in default):
            ok, wants = isinstance(v, tuple) and all(_number(x) for x in v), "four numbers (a tuple)"
        elif isinstance(default, tuple) or f.name == "attempted":
            ok = (v is None and f.name == "attempted") or (isinstance(v, tuple) and all(isinstance(x, str) for x in v)
                                                           and (v or f.name != "attempted"))
            wants = "names (a tuple of strings)" if f.name != "attempted" else "class names (a non-empty tuple) or None"
        elif f.name in ("preset", "scheme", "plink_by"):
            ok, wants = v is None or isinstance(v, str), "a name (a string) or None"
        elif f.name == "cross_document":
            ok, wants = v is None or isinstance(v, Topics), "True (the corpus is one topic), a Topics or None"
        else:
            continue
        if not ok:
            raise SettingsError(f"{f.name} takes {wants}, got {v!r}")


def check(s: Settings) -> None:
    """Refuse settings no evaluation can honour (each message names the option)."""
    check_types(s)
    for m in s.metrics:
        if m not in known_metrics():
            raise SettingsError(f"unknown metric {m!r}; choose from {', '.join(known_metrics())}")
    if s.singletons not in ("keep", "drop"):
        raise SettingsError("singletons takes 'keep' or 'drop'")
    if s.key_duplicates not in ("dedupe", "keep"):
        raise SettingsError("--key-duplicates takes 'dedupe' or 'keep'")
    if s.preset is not None and s.preset not in PRESETS:
        raise SettingsError(f"--preset takes {', '.join(repr(p) for p in PRESETS)}, got {s.preset!r}")
    if s.split_antecedents not in ("drop", "keep", "only"):
        raise SettingsError(f"--split-antecedents takes 'drop', 'keep' or 'only', got {s.split_antecedents!r}")
    if s.split_antecedents != "drop" and s.singletons == "drop":
        raise SettingsError(f"--split-antecedents {s.split_antecedents} needs singletons kept (a plural entity's members "
                            "may be singletons; the UA scorer v1 refuses it too)")
    if s.repeats not in ("ref801", "corefud12"):
        raise SettingsError("--repeats takes 'ref801' or 'corefud12'")
    if s.repeats == "corefud12" and s.key_duplicates != "keep":
        raise SettingsError("--key-duplicates chooses between reference v8.01's ways with a repeated key span; under "
                            "--preset crac repeated spans are handled as corefud-scorer v1.2 does (docs/matching.md "
                            "rule 5): leave it out")
    if s.repeated_documents not in ("last", "rename"):
        raise SettingsError("--repeated-documents takes 'last' or 'rename'")
    if s.zeros not in ("keep", "drop"):
        raise SettingsError("zeros takes 'keep' or 'drop'")
    if s.zero_match not in ("linear", "dependent"):
        raise SettingsError("--zero-match takes 'linear' or 'dependent'")
    if s.match not in ("exact", "head", "partial", "min", "craft", "mina"):
        raise SettingsError("--match takes 'exact', 'head', 'partial', 'min', 'craft' or 'mina'")
    for a in s.analyses:
        if a not in analysis_names():
            raise SettingsError(f"unknown analysis {a!r}; choose {' or '.join(analysis_names())}")
    if s.markup_policy not in MARKUP_POLICIES:
        raise SettingsError(f"--markup-policy takes {' or '.join(repr(p) for p in MARKUP_POLICIES)}, got "
                            f"{s.markup_policy!r}")
    if len(s.weights) != 4:
        raise SettingsError(f"--weights takes four numbers NAM,NOM,PRO,SING, got {len(s.weights)}")
    _finite("--weights", tuple(s.weights), 0.0, 1e6)
    if s.weights[3] <= 0:
        raise SettingsError("--weights: the singleton weight w_sing must be > 0 (a zero makes the denominators "
                            "zero; Chen & Ng 2013, fn. 8)")
    if s.mention_singletons not in ("same", "keep"):
        raise SettingsError("mention_singletons takes 'same' or 'keep'")
    if s.cross_document is not None:
        s.cross_document.check()
    if len(s.k) != 4:
        raise SettingsError(f"--k takes four numbers in [0, 1] (k1,k2,k3,k4), got {len(s.k)}")
    _finite("--k", tuple(s.k), 0.0, 1.0)
    if s.strata:
        from .strata import check_strata

        check_strata(s)
    if s.window or s.response_windows:
        from .windows import check_window

        check_window(s)


@dataclass(frozen=True)
class Signature:
    """The settings that changed a number, the key's content hash and the version — as ordered
    fields, with the short string form ``name:value|…`` that is printed with every score."""

    fields: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        return "|".join(f"{k}:{v}" for k, v in self.fields)

    def as_dict(self) -> dict[str, str]:
        return dict(self.fields)

    def get(self, name: str, default: str = "") -> str:
        return self.as_dict().get(name, default)

    def diff(self, other: "Signature", ignore: tuple[str, ...] = ()) -> dict[str, tuple[str, str]]:
        """Fields whose values differ: name → (this value, the other's); "" where one lacks it."""
        a, b = self.as_dict(), other.as_dict()
        names = list(dict.fromkeys(list(a) + list(b)))
        return {n: (a.get(n, ""), b.get(n, "")) for n in names if n not in ignore and a.get(n) != b.get(n)}

    def extended(self, **more: object) -> "Signature":
        """This signature with more fields (``compare`` adds its resampling settings)."""
        return Signature(self.fields + tuple((k, str(v)) for k, v in more.items()))


def nums(xs: tuple[float, ...]) -> str:
    return ",".join(f"{x:g}" for x in xs)


def signature(s: Settings, key_hash: str, pos_missing: bool = False, heads_rule: bool = False,
              markup: bool = False) -> Signature:
    """The :class:`Signature` of settings ``s`` on a key whose content hash is ``key_hash``;
    ``pos_missing``: mention types were derived without POS tags (``pos:missing``); ``heads_rule``:
    under head or partial matching, mentions without CorefUD heads got heads by corefreport's rule
    (``heads:rule``, docs/matching.md rule 3a); ``markup``: the response is markup text read onto
    the key's words under ``s.markup_policy`` (``markup:organisers``)."""
    f: list[tuple[str, str]] = [
        ("metrics", "+".join(s.metrics)),
        ("singletons", s.singletons),
        ("match", s.match),
        *((("heads", "rule"),) if heads_rule and s.match != "exact" else ()),
        *((("zeros", "drop"),) if s.zeros == "drop" else ()),
        *((("zero-match", s.zero_match),) if s.zero_match != "linear" else ()),
        *((("preset", s.preset),) if s.preset else ()),
        ("dups", "corefud12" if s.repeats == "corefud12" else "ref801" if s.key_duplicates == "keep" else "ref801+keydedup"),
        *((("split", s.split_antecedents),) if s.split_antecedents != "drop" else ()),
    ]
    if markup:
        f.append(("markup", s.markup_policy))
    if s.strict_tokens:
        f.append(("tokens", "strict"))
    if s.repeated_documents != "last":
        f.append(("docs", s.repeated_documents))
    if s.mention_singletons != "same":
        f.append(("mentions", "with-singletons"))
    if s.cross_document is not None:
        f.extend(s.cross_document.signature_fields())
    if s.linguistic:
        f.append(("w", nums(s.weights)))
    if s.analyses:
        f.append(("analyses", "+".join(s.analyses)))
    for a in active_analyses(s):  # each analysis owns its signature fields (sacrebleu's idea)
        f.extend(a.signature(s))
    if s.strata:
        f.append(("strata", "+".join(s.strata)))
    if s.window:
        f.append(("window", str(s.window)))
    if s.response_windows:
        f.append(("response", "windows"))
    if s.truncate:
        f.append(("print", "trunc"))
    if pos_missing:
        f.append(("pos", "missing"))
    f.append(("key", key_hash))
    f.append(("version", __version__))
    return Signature(tuple(f))


def signature_fields() -> list[str]:
    """The :class:`Settings` fields that change numbers (all but the presentation-only ones)."""
    return [x.name for x in fields(Settings) if x.metadata.get("signature", True)]
