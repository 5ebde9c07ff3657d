"""``evaluate(key, response, settings) -> Evaluation``: the pure pipeline from corpora to scores.

Stages, each computed once:

1. match response mentions onto key mentions (:mod:`.matching`, ``--match head|partial``) and
   align key and response documents (:mod:`.align`); with analyses or linguistic metrics, score
   annotated *copies* of the documents (:func:`.features.annotated`) — the inputs are not changed;
2. the standard metrics per document from one contingency table each, summed over documents
   (micro average, as reference scorer v8.01); ``on_stage`` receives this partial
   :class:`Evaluation` (``complete=False``) so a view can show numbers at once;
3. the linguistically aware metrics, p-link and the outcome-row analyses (ARCS, typed), per
   document; the final :class:`Evaluation` adds them to the stage-2 result.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Callable

from ..model import Corpus, Document
from ..errors import SettingsError
from .align import Alignment, align
from .counts import Counts
from .features import Derived, annotated, derivation_inputs, lacks_pos
from .matching import drop_zeros, heads_by_rule, heads_warning, match_corpora
from .registry import PER_DOCUMENT_METRICS, REGISTRY
from .standard import document_scorer, document_stats, hash_document, totals as _totals
from .result import DocumentResult, Evaluation, PlinkResult, SideStats
from .settings import Settings, signature

Progress = Callable[[int, int], None]


def corpus_hash(corpus: Corpus) -> str:
    """Short content hash of a corpus' tokens and chains (for the signature)."""
    h = hashlib.sha256()
    for d in corpus:
        hash_document(h, d)
    return h.hexdigest()[:10]


def side_stats(corpus: Corpus) -> SideStats:
    total = [0, 0, 0, 0]
    for d in corpus:
        for i, x in enumerate(document_stats(d)):
            total[i] += x
    return SideStats(*total)


def annotate_pair(kd: Document, rd: Document | None) -> tuple[Document, Document | None]:
    """Copies of a key document and its response whose mentions carry their features; the
    response shares the key's derived features when it has the key's words and columns."""
    x = Derived(kd)
    ka = annotated(kd, derived=x)
    if rd is None:
        return ka, None
    return ka, annotated(rd, derived=x if derivation_inputs(rd) == derivation_inputs(kd) else None)


def _annotated(key: Corpus, response: Corpus) -> tuple[Corpus, Corpus]:
    """Copies of both corpora whose mentions carry their features (the inputs are not changed):
    :func:`annotate_pair` for each key document and the response document of the same id."""
    kdocs, rdocs = {}, {}
    for i, d in key.documents.items():
        kdocs[i], ra = annotate_pair(d, response.documents.get(d.doc_id))
        if ra is not None:
            rdocs[d.doc_id] = ra
    rdocs = {i: rdocs[i] if i in rdocs else annotated(d) for i, d in response.documents.items()}
    return replace(key, documents=kdocs), replace(response, documents=rdocs)


def _standard(aligned: Alignment, settings: Settings, progress: Progress | None,
              unmatched: Alignment | None = None, written: Corpus | None = None) -> tuple[list[DocumentResult], Counts]:
    score = document_scorer(settings)
    docs: list[DocumentResult] = []
    mentions = Counts()
    n = len(aligned.documents)
    raw = {ad.doc_id: ad for ad in unmatched.documents} if unmatched is not None else {}
    for idx, ad in enumerate(aligned.documents):
        rd = ad.response_doc
        wd = written.documents.get(rd.doc_id) if rd is not None and written is not None else None
        res = score(ad, raw.get(ad.doc_id, ad), wd)
        mentions = mentions + res.mentions
        docs.append(res)
        if progress is not None:
            progress(idx + 1, n)
    return docs, mentions


ROW_COLUMNS = ("analysis", "doc_id", "text", "outcome", "cls", "type")


@dataclass(frozen=True)
class Requested:
    """What the outcome rows hold that :func:`check_requests` checks requests against: whether
    there are rows, the features they carry (only when ``--by`` asks for some), whether there
    are typed rows and their classes. Those of several row sets add up (``|``)."""

    rows: bool = False
    features: frozenset[str] = frozenset()
    typed_rows: bool = False
    classes: frozenset[str] = frozenset()

    @classmethod
    def of(cls, rows: list, features: bool) -> Requested:
        typed = [r for r in rows if r.analysis == "typed"]
        return cls(bool(rows), frozenset(set(ROW_COLUMNS).union(*(r.features for r in rows))) if features and rows
                   else frozenset(), bool(typed), frozenset(r.cls for r in typed))

    def __or__(self, o: Requested) -> Requested:
        return Requested(self.rows or o.rows, self.features | o.features, self.typed_rows or o.typed_rows,
                         self.classes | o.classes)


def check_requests(settings: Settings, seen: Requested, scheme) -> None:
    """Refuse what the input cannot answer, listing what exists: a ``--by`` feature no link has,
    an ``--attempted`` class the scheme does not know, a scheme none of whose classes occurs."""
    if seen.rows and settings.by:
        known = seen.features
        unknown = [f for f in settings.by if f not in known]
        if unknown:
            raise SettingsError(f"--by {unknown[0]!r}: no such feature; the links have "
                                + ", ".join(sorted(known - {"text"})))
    if scheme is None:
        return
    found = sorted(seen.classes)
    if settings.attempted:
        known = set(scheme.classes) | set(found)
        unknown = [c for c in settings.attempted if c not in known]
        if unknown:
            raise SettingsError(f"--attempted {unknown[0]!r}: scheme {scheme.name!r} has no such class; its classes: "
                                + ", ".join(f"{c} ({n})" for c, n in scheme.classes.items()))
    if seen.typed_rows and scheme.classes and not set(found) & set(scheme.classes):
        raise SettingsError(f"none of the classes of scheme {scheme.name!r} ("
                            + ", ".join(scheme.classes) + f") occurs in the input (its types come from "
                            f"{scheme.source!r}; the links' classes here: " + ", ".join(found)
                            + "); choose a scheme the files carry (derived; gum for GUM's WebAnno TSV)")


def pos_warnings(untagged: list[str], ruled: list[str], match: str) -> list[str]:
    """The warnings about features read from no tag: key documents with untagged tokens
    (``untagged``, their ids) and the sides whose heads come from corefreport's rule (``ruled``)."""
    out = ([f"{len(untagged)} key document(s) have tokens without a POS tag ('_', '-' or no POS column, "
            f"e.g. {untagged[0]}): their mentions are typed from the word (pronoun list) and the NE "
            "column or capitalisation (signature pos:missing)"] if untagged else [])
    if ruled:
        out.append(heads_warning(match, ruled))
    return out


def reusable(standard: Evaluation, settings: Settings, aligned: Alignment) -> bool:
    """Whether ``standard`` holds the per-document scores ``evaluate`` would compute for
    ``settings`` on ``aligned``: scored under the same settings except that it has exactly the
    per-document metrics of ``settings`` and no analysis, on the same documents in the same order."""
    std = tuple(m for m in settings.metrics if m in PER_DOCUMENT_METRICS)
    return (standard.complete and standard.settings == replace(settings, metrics=std, analyses=())
            and [d.doc_id for d in standard.documents] == [ad.doc_id for ad in aligned.documents])


def evaluate(key: Corpus, response: Corpus, settings: Settings | None = None,
             progress: Progress | None = None, on_stage: Callable[[Evaluation], None] | None = None,
             standard: Evaluation | None = None) -> Evaluation:
    """Score ``response`` against ``key`` with ``settings``; ``key`` and ``response`` are not changed.

    ``progress(done, total)`` is called per document of each stage; ``on_stage`` receives the
    standard scores (``complete=False``) before the slower metrics and analyses are computed.
    ``standard``: the evaluation of the same corpora under the same settings with only the
    per-document metrics and no analysis (a view's quick pass, :func:`reusable`): its
    per-document scores are taken instead of computed again.
    """
    settings = settings or Settings()
    key_stats, response_stats = side_stats(key), side_stats(response)
    untagged = [d.doc_id for d in key if lacks_pos(d)] if settings.needs_features else []
    ruled = heads_by_rule(key, response) if settings.match != "exact" else []
    sig = signature(settings, corpus_hash(key), pos_missing=bool(untagged), heads_rule=bool(ruled))
    pos_warning = pos_warnings(untagged, ruled, settings.match)
    if settings.zeros == "drop":
        key, response = drop_zeros(key), drop_zeros(response)
    as_written = response
    if settings.match != "exact" or settings.zero_match != "linear":
        key, response = match_corpora(key, response, settings.match, drop_singletons=settings.singletons == "drop",
                                      zero_match=settings.zero_match,
                                      annotate=bool(settings.analyses or settings.plink_by))
    if settings.needs_features:
        key, response = _annotated(key, response)
    aligned = align(key, response, singletons=settings.singletons, strict_tokens=settings.strict_tokens,
                    key_duplicates=settings.key_duplicates)
    unmatched = None
    if "mor" in settings.metrics and response is not as_written:
        unmatched = align(key, as_written, singletons=settings.singletons, key_duplicates=settings.key_duplicates)
    std = [m for m in settings.metrics if m in PER_DOCUMENT_METRICS]
    if standard is not None and reusable(standard, settings, aligned):
        docs, mentions = list(standard.documents), standard.mentions
    else:
        docs, mentions = _standard(aligned, settings, progress, unmatched, as_written)
    ev = Evaluation(
        settings=settings, signature=sig, key_source=key.source, response_source=response.source,
        metrics=_totals(docs, std), documents=docs, mentions=mentions, key_stats=key_stats,
        response_stats=response_stats,
        warnings=list(key.warnings) + list(response.warnings) + pos_warning + aligned.warnings,
        duplicates=aligned.duplicates, key_corpus=key, response_corpus=response,
        complete=not (settings.linguistic or settings.analyses or settings.plink_by))
    if ev.complete:
        return ev
    if on_stage is not None:
        on_stage(ev)
    return _analyses(ev, aligned, settings, progress)


class DocumentAnalyses:
    """Stage 3, one aligned document at a time: the linguistically aware metrics' counts, p-link,
    ARCS and typed rows, error rows. :meth:`add` scores a document; the rows and the running
    entity scores (ARCS scenario 3), p-link and error counts stay here, in document order."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.weights = None
        if settings.linguistic:
            from .lmetrics import Weights, lmetric_counts

            self.weights = Weights(*settings.weights)
            self._lmetric_counts = lmetric_counts
        self.plink = PlinkResult(settings.plink_by, settings.plink_compat) if settings.plink_by else None
        self.anchor = None
        if "arcs" in settings.analyses:
            from .arcs import ANCHOR_LINK, SCENARIOS, AnchorScores, ArcsOptions, arcs_document

            self._arcs_document = arcs_document
            self.arcs_options = ArcsOptions(compat=settings.arcs_compat, anchor_singletons=settings.arcs_singletons)
            self.anchor = AnchorScores()
            self.scenarios = SCENARIOS + ((ANCHOR_LINK,) if settings.arcs_anchor_links else ())
        self.scheme = None
        if "typed" in settings.analyses:
            from .scheme import load_scheme
            from .typed import typed_document

            self._typed_document = typed_document
            self.scheme = load_scheme(settings.scheme)
        self.errors = None
        if "errors" in settings.analyses:
            from .errorclasses import ErrorsResult, document_errors

            self._document_errors = document_errors
            self.errors = ErrorsResult(settings.errors_singletons, by=settings.by)
        self.rows: list = []
        self.no_dominant = 0

    def add(self, ad, res: dict) -> None:
        """Score aligned document ``ad``; its linguistically aware metrics go into ``res`` (its
        per-document results, by metric name)."""
        settings = self.settings
        if self.weights is not None:
            mtype: dict = {}
            for doc in (ad.key_doc, ad.response_doc):
                if doc is None:
                    continue
                for c in doc.chains:
                    for m in c.mentions:
                        mtype.setdefault(m.ident, m.features.get("mtype", "NOMINAL"))
            lres = self._lmetric_counts(ad.key, ad.response, mtype, self.weights)
            for name in settings.linguistic:
                res[name] = lres[name]
        if self.plink is not None:
            self.plink.add(ad)
        if self.anchor is not None:
            arows, ascores = self._arcs_document(ad.key_doc, ad.response_doc, doc_id=ad.doc_id,
                                                 options=self.arcs_options, scenarios=self.scenarios)
            self.rows.extend(arows)
            self.anchor += ascores
        if self.scheme is not None:
            trows, nd = self._typed_document(ad.key_doc, ad.response_doc, self.scheme, settings.k,
                                             settings.strict_dominant, ad.doc_id)
            self.rows.extend(trows)
            self.no_dominant += nd
        if self.errors is not None:
            self.errors.add(self._document_errors(ad, settings.errors_singletons), ad.doc_id)

    def requested(self) -> Requested:
        """What :func:`check_requests` needs to know of the rows."""
        return Requested.of(self.rows, bool(self.settings.by))


def _analyses(ev: Evaluation, aligned: Alignment, settings: Settings, progress: Progress | None) -> Evaluation:
    """Stage 3: linguistically aware metrics, p-link, ARCS and typed rows, per document."""
    stage = DocumentAnalyses(settings)
    by_doc = {d.doc_id: d for d in ev.documents}
    docs: list[DocumentResult] = []
    n = len(aligned.documents)
    for idx, ad in enumerate(aligned.documents):
        res = dict(by_doc[ad.doc_id].metrics)
        stage.add(ad, res)
        docs.append(DocumentResult(ad.doc_id, res, by_doc[ad.doc_id].mentions))
        if progress is not None:
            progress(idx + 1, n)
    names = [m for m in settings.metrics if m in REGISTRY]
    rows, scheme, errors = stage.rows, stage.scheme, stage.errors
    check_requests(settings, stage.requested(), scheme)
    if errors is not None and not rows:
        errors.check_by()
    arcs = typed = None
    if stage.anchor is not None:
        from .analyses import arcs_parts, arcs_result

        arcs = arcs_result(arcs_parts(rows, settings.breakdowns), stage.anchor)
    if scheme is not None:
        from .typed import typed_parts, typed_result

        typed = typed_result(typed_parts([r for r in rows if r.analysis == "typed"]), scheme, settings.k,
                             list(settings.attempted) if settings.attempted else None)
        typed.no_dominant = stage.no_dominant
    return replace(ev, metrics=_totals(docs, names), documents=docs, rows=rows, arcs=arcs, typed=typed,
                   plink=stage.plink, errors=errors, complete=True)
