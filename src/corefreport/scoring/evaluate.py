"""``evaluate(key, response, options) -> Evaluation``: the pure pipeline from corpora to scores."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from typing import Callable

from .. import __version__
from .features import annotated
from ..model import Corpus
from . import metrics as M
from ..errors import InputError
from .align import align
from .counts import Counts
from .result import DocumentResult, Evaluation, SideStats

STANDARD_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
STANDARD_FUNCS: dict[str, Callable] = {
    "muc": M.muc, "bcub": M.bcub, "ceafm": M.ceafm, "ceafe": M.ceafe, "blanc": M.blanc, "lea": M.lea,
}
LINGUISTIC_METRICS = ("lmuc", "lbcub", "lceafm", "lceafe")
ALL_METRICS = STANDARD_METRICS + LINGUISTIC_METRICS


@dataclass(slots=True)
class Options:
    """Every setting that changes a number; all of them are printed in the signature."""

    metrics: tuple[str, ...] = STANDARD_METRICS
    singletons: str = "keep"
    weights: tuple[float, float, float, float] = (1.0, 0.75, 0.5, 1.0)
    strict_tokens: bool = False
    key_duplicates: str = "dedupe"
    analyses: tuple[str, ...] = ()
    """Link-level analyses: "arcs" (three scenarios) and/or "typed" (Žitkus et al. 2023)."""
    by: tuple[str, ...] = ("mtype", "pos_class", "pronoun", "ne", "genre")
    """Features the ARCS tables are broken down by."""
    scheme: str | None = None
    k: tuple[float, float, float, float] = (1.0, 0.75, 0.5, 0.25)
    attempted: tuple[str, ...] | None = None
    plink_by: str | None = None
    plink_compat: bool = False
    strict_dominant: bool = False
    extra: dict = field(default_factory=dict)


def corpus_hash(corpus: Corpus) -> str:
    """Short content hash of a corpus' tokens and chains (for the signature)."""
    h = hashlib.sha256()
    for d in corpus:
        h.update(d.doc_id.encode())
        h.update("\x1f".join(d.tokens).encode())
        for c in d.chains:
            h.update(repr([m.span for m in c.mentions]).encode())
    return h.hexdigest()[:10]


def side_stats(corpus: Corpus) -> SideStats:
    s = SideStats(documents=len(corpus))
    for d in corpus:
        spans = {m.span for c in d.chains for m in c.mentions}
        s.mentions += len(spans)
        s.chains += len(d.chains)
        s.singletons += sum(1 for c in d.chains if len(c.mentions) == 1)
    return s


def signature(options: Options, key: Corpus) -> str:
    """sacrebleu-style reproducibility signature: ``key:value|…|version:x``."""
    parts = [
        "metrics:" + "+".join(options.metrics),
        f"singletons:{options.singletons}",
        "match:exact",
        "dups:ref801" if options.key_duplicates == "keep" else "dups:ref801+keydedup",
    ]
    if any(m in LINGUISTIC_METRICS for m in options.metrics):
        parts.append("w:" + ",".join(f"{w:g}" for w in options.weights))
    if options.analyses:
        parts.append("analyses:" + "+".join(options.analyses))
    if "typed" in options.analyses:
        parts.append(f"scheme:{options.scheme or 'derived'}|k:" + ",".join(f"{x:g}" for x in options.k)
                     + ("|strict" if options.strict_dominant else ""))
    if options.plink_by:
        parts.append(f"plink:{options.plink_by}" + ("+compat" if options.plink_compat else ""))
    for k, v in sorted(options.extra.items()):
        parts.append(f"{k}:{v}")
    parts.append(f"key:{corpus_hash(key)}")
    parts.append(f"version:{__version__}")
    return "|".join(parts)


@dataclass(slots=True)
class PlinkResult:
    """Zeldes & Simonson (2016) p-link per category, summed over documents (rule P8)."""

    by: str
    compat: bool = False
    categories: dict[str, Counts] = field(default_factory=dict)

    def add(self, ad) -> None:
        from .plink import add_category_counts, mention_categories, plink_counts

        try:
            kcat = mention_categories(ad.key_doc, self.by)
            rcat = mention_categories(ad.response_doc, self.by) if ad.response_doc is not None else {}
        except KeyError as err:
            raise InputError(ad.key_doc.source, None, f"p-link: {err.args[0]} (use a column such as col12, or "
                             "mtype, ne, head_pos, pos_class, genre)") from None
        add_category_counts(self.categories, plink_counts(ad.key, ad.response, kcat, rcat, compat=self.compat))

    def as_dict(self) -> dict:
        return {"by": self.by, "compat": self.compat,
                "categories": {k: v.as_dict() for k, v in sorted(self.categories.items())}}


def needs_features(options: Options) -> bool:
    """Whether mention features (type, head, POS class, …) must be computed: not for the standard
    metrics alone, which see only spans."""
    return (any(m not in STANDARD_FUNCS for m in options.metrics) or bool(options.analyses)
            or options.plink_by is not None)


def _annotated(corpus: Corpus) -> Corpus:
    """A copy of ``corpus`` whose mentions carry their features (the input is not changed)."""
    return replace(corpus, documents={i: annotated(d) for i, d in corpus.documents.items()})


def evaluate(key: Corpus, response: Corpus, options: Options | None = None,
             progress: Callable[[int, int], None] | None = None) -> Evaluation:
    """Score ``response`` against ``key``: standard (and linguistically aware) metrics per document,
    summed over documents (micro average, as the CoNLL reference scorer).
    """
    options = options or Options()
    if needs_features(options):
        key, response = _annotated(key), _annotated(response)
    aligned = align(key, response, singletons=options.singletons, strict_tokens=options.strict_tokens,
                    key_duplicates=options.key_duplicates)
    std = [m for m in options.metrics if m in STANDARD_FUNCS]
    ling = [m for m in options.metrics if m in LINGUISTIC_METRICS]
    lfunc = None
    weights = None
    if ling:
        from .lmetrics import Weights, lmetric_counts

        lfunc = lmetric_counts
        weights = Weights(*options.weights)
    plink = PlinkResult(options.plink_by, options.plink_compat) if options.plink_by else None
    rows: list = []
    anchor = None
    if "arcs" in options.analyses:
        from .arcs import AnchorScores, arcs_document

        anchor = AnchorScores()
    scheme = None
    no_dominant = 0
    if "typed" in options.analyses:
        from .scheme import load_scheme
        from .typed import typed_document, typed_tables

        scheme = load_scheme(options.scheme)
    totals: dict = {}
    docs: list[DocumentResult] = []
    mentions = Counts()
    n = len(aligned.documents)
    for idx, ad in enumerate(aligned.documents):
        res = {}
        ct = M.contingency(ad.key, ad.response)
        for name in std:
            res[name] = STANDARD_FUNCS[name](ad.key, ad.response, ct)
        if lfunc is not None:
            mtype = {}
            for doc in (ad.key_doc, ad.response_doc):
                if doc is None:
                    continue
                for c in doc.chains:
                    for m in c.mentions:
                        mtype.setdefault(m.span, m.features.get("mtype", "NOMINAL"))
            lres = lfunc(ad.key, ad.response, mtype, weights)
            for name in ling:
                res[name] = lres[name]
        if plink is not None:
            plink.add(ad)
        if anchor is not None:
            arows, ascores = arcs_document(ad.key_doc, ad.response_doc, doc_id=ad.doc_id)
            rows.extend(arows)
            anchor += ascores
        if scheme is not None:
            trows, nd = typed_document(ad.key_doc, ad.response_doc, scheme, options.k, options.strict_dominant,
                                       ad.doc_id)
            rows.extend(trows)
            no_dominant += nd
        ment = Counts(ad.matched_mentions, ad.key_mentions, ad.matched_mentions, ad.response_mentions)
        mentions = mentions + ment
        for name, s in res.items():
            totals[name] = totals[name] + s if name in totals else s
        docs.append(DocumentResult(ad.doc_id, res, ment))
        if progress is not None:
            progress(idx + 1, n)
    ordered = {name: totals.get(name, M.BlancCounts() if name == "blanc" else Counts())
               for name in options.metrics if name in STANDARD_FUNCS or name in LINGUISTIC_METRICS}
    warnings = list(key.warnings) + list(response.warnings) + aligned.warnings
    settings = {"metrics": list(options.metrics), "singletons": options.singletons, "matching": "exact",
                "key_duplicates": options.key_duplicates}
    if ling:
        settings["weights"] = list(options.weights)
    analyses: dict = {}
    if anchor is not None:
        from .analyses import arcs_tables

        analyses["arcs"] = arcs_tables(rows, options.by, anchor)
        settings["arcs"] = {"by": list(options.by)}
    if scheme is not None:
        analyses["typed"] = typed_tables([r for r in rows if r.analysis == "typed"], scheme, options.k,
                                         list(options.attempted) if options.attempted else None)
        analyses["typed"].no_dominant = no_dominant
        settings["typed"] = {"scheme": scheme.name, "k": list(options.k), "strict_dominant": options.strict_dominant}
    if plink is not None:
        analyses["plink"] = plink
        settings["plink"] = {"by": options.plink_by, "compat": options.plink_compat}
    return Evaluation(
        analyses=analyses,
        rows=rows,
        signature=signature(options, key),
        settings=settings,
        key_source=key.source,
        response_source=response.source,
        metrics=ordered,
        documents=docs,
        mentions=mentions,
        key_stats=side_stats(key),
        response_stats=side_stats(response),
        warnings=warnings,
        duplicates=aligned.duplicates,
        key_corpus=key,
        response_corpus=response,
    )
