"""``finish(part, settings, …) -> Evaluation``: the one place a sum of parts becomes an evaluation.

Here, and only here: the input checks (a key without documents or mentions, a response without
documents, no shared document id), the order of the warnings (a near-0 score's verdict first,
:mod:`.verdict`; then readers, features and heads, pairing, words, repeated spans), the requests checked against what the input holds (``--by``,
``--attempted``, the scheme), each analysis's result and the signature.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import InputError, SettingsError
from ..model import Corpus, Document
from .align import duplicate_warnings, pairing_warnings
from .crossdoc import repeated_labels_warning
from .layers import defined_metrics
from .counts import Counts
from .matching import heads_warning, ruled_formats
from .part import Part, Requested
from .registry import ANALYSIS_REGISTRY, REGISTRY, active_analyses
from .result import _OWN_RESULTS, DocumentResult, Evaluation
from .settings import Settings, signature
from .verdict import verdict


def _some(ids: list[str] | tuple[str, ...], more: int = 0) -> str:
    more = max(more, len(ids) - 3)
    return ", ".join(repr(i) for i in ids[:3]) + (f" and {more} more" if more > 0 else "")


def about_chains(metrics) -> bool:
    """Whether a score among ``metrics`` is about coreference chains (:attr:`.registry.Metric.chains`;
    CRAC 2026's empty-node scores are not: they are computed on files without coreference)."""
    return any(REGISTRY[m].chains for m in metrics if m in REGISTRY) or not metrics


def check_part(part: Part, sources: tuple[str, str], chains: bool = True) -> None:
    """Refuse a sum of parts that would give an empty or meaningless score (``chains``: a score
    about coreference chains was asked for, so a key must have some)."""
    key, response = sources
    n = len(part.documents)
    if not n:
        raise InputError(key, None, "the key holds no document (expected '#begin document' lines in "
                         "CoNLL-2012, '# newdoc' in CoNLL-U, one JSON object per line, or WebAnno TSV sentences)")
    if not part.key_chains and chains:
        expected = ("give clusters of (start, end) mentions: {doc_id: [[(0, 1), (5, 5)], …]}" if key == "<key>" else
                    "expected coreference annotation (CoNLL-2012: brackets such as '(1' '1)' in the LAST column; "
                    "CoNLL-U: Entity= in MISC; JSON lines: gold 'clusters'; WebAnno TSV: a coreference layer)")
        raise InputError(key, None, f"the key has no mentions in any of its {n} document(s): {expected}")
    if not part.response_side.documents:
        raise InputError(response, None, "the response holds no document")
    if len(part.missing) == n:
        raise InputError(response, None, "key and response share no document id: the key has "
                         + _some([d.doc_id for d in part.documents[:3]], n - 3) + f" ({key}), the response has "
                         + _some(part.response_ids, part.response_side.documents - 3)
                         + "; the response must name its documents as the key does ('#begin document (NAME); "
                         "part N' or the JSON 'doc_key')")


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


def totals(docs: list[DocumentResult], names: list[str]) -> dict:
    """Corpus totals: each metric's per-document counts added in document order (the first
    document's counts start the sum, so integer counts stay integers, as the JSON shows them)."""
    out: dict = {}
    for name in names:
        total = None
        for d in docs:
            total = d.metrics[name] if total is None else total + d.metrics[name]
        out[name] = total if total is not None else REGISTRY[name].empty()
    return out


def finish(part: Part, settings: Settings, *, sources: tuple[str, str], formats: tuple[str, str],
           key_hash: str, reader_warnings: tuple[list[str], list[str]] = ([], []),
           analyses=None, complete: bool = True, markup: bool = False,
           documents: tuple[Mapping[str, Document], Mapping[str, Document]] | None = None) -> Evaluation:
    """The :class:`Evaluation` of ``part`` — the sum of a run's parts in key order — under
    ``settings``; ``key_hash``: the SHA-256 (hex) of its ``feed``; ``analyses``: the run's steps
    objects by name (their results); ``complete=False``: the per-document metrics only (a view's
    first numbers, before the rest is scored); ``documents``: the key's and the response's
    documents by id, for views that show them; ``markup``: the response is LLM markup read onto the
    key's words (its policy is in the signature)."""
    chains = about_chains(settings.metrics)
    check_part(part, sources, chains)
    ruled = ruled_formats(settings.match, formats)
    warnings = (list(reader_warnings[0]) + list(reader_warnings[1]) + pos_warnings(part.untagged, ruled, settings.match)
                + pairing_warnings(part.response_side.documents, part.response_chains or not chains, part.missing,
                                   part.extra)
                + part.token_warnings + duplicate_warnings(part.duplicates, settings.key_duplicates,
                                                           settings.repeats == "corefud12",
                                                           settings.repeats == "ua1"))
    said = verdict(part.evidence, part.mentions.precision_num, part.mentions.precision_den)
    if said:  # why the score is near 0: the first thing to read
        warnings.insert(0, said)
    labels = repeated_labels_warning(part.labels) if part.labels else None
    if labels:
        warnings.append(labels)
    sig = signature(settings, key_hash[:10], pos_missing=bool(part.untagged), heads_rule=bool(ruled),
                    markup=markup)
    results: dict = {}
    if complete:
        steps = analyses or {a.name: a.start(settings) for a in active_analyses(settings)}
        scheme = getattr(steps.get("typed"), "scheme", None)
        check_requests(settings, part.requested, scheme)
        for name, step in steps.items():
            results[ANALYSIS_REGISTRY[name].field] = step.result(part.analyses[name]) if name in part.analyses else None
        results["results"] = {k: v for k, v in results.items() if k not in _OWN_RESULTS}
        results = {k: v for k, v in results.items() if k in _OWN_RESULTS or k == "results"}
        errors = results.get("errors")
        if errors is not None and not part.rows and not part.requested.rows:
            errors.check_by()
    names = [m for m in settings.metrics if m in REGISTRY and (complete or m in part.documents[0].metrics)]
    names, undefined = defined_metrics(names, formats[0])  # CorefUD's entity-anchored Bridge=: AR only
    if undefined:
        warnings.append(undefined)
    strata = {}
    if settings.strata:  # each stratum micro over the documents (scoring/strata.py)
        from .strata import strata_totals

        strata = strata_totals(part.documents, settings, names)
    metrics = totals(part.documents, names)
    windows = None
    if settings.window:  # the windows micro over the documents, next to the full totals (scoring/windows.py)
        from .windows import window_totals

        windows = window_totals(part.documents, settings, names, metrics, part.mentions)
    kc = rc = None
    if documents is not None:
        kc = Corpus(documents[0], sources[0], formats[0])
        rc = Corpus(documents[1], sources[1], formats[1])
    return Evaluation(
        settings=settings, signature=sig, key_source=sources[0], response_source=sources[1],
        metrics=metrics, documents=part.documents, mentions=part.mentions,
        key_stats=part.key_side, response_stats=part.response_side, warnings=warnings,
        duplicates=part.duplicates, rows=part.rows, complete=complete, key_corpus=kc, response_corpus=rc,
        digest=part.digest, strata=strata, windows=windows, **results)
