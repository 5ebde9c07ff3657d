"""Score documents: one key document and its response in, a :class:`~.part.Part` out.

For each pair (:class:`~corefreport.io.pairs.Pair`), in this order — as the reference scorer and
corefud-scorer prepare a document:

1. both sides' statistics and the key's content hash are taken from the documents as read;
2. ``--drop-zeros`` drops mentions headed by an empty node; under ``--preset crac`` both sides'
   chains become those corefud-scorer scores (:func:`.repeats.prepare`: repeats within a chain
   removed, then singletons); ``--match head|partial`` and ``--zero-match dependent`` map response
   mentions onto the key's (:func:`.matching.match_pair`);
3. with analyses or linguistic metrics, annotated *copies* carry each mention's features
   (:func:`.features.annotated`; the documents read are not changed);
4. the chains every metric sees are built (:func:`.align.align_document`: singletons, repeated
   spans, words compared);
5. the per-document metrics come from one contingency table (MOR on the mentions before
   matching, the zero score from the documents); the linguistically aware metrics and every
   analysis of :data:`~.registry.ANALYSIS_REGISTRY` add their part.

A response document without a key document adds only its statistics and its id (extra).
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..model import Document
from . import metrics as M
from .align import Alignment, AlignedDocument, DuplicateReport, align_document
from .counts import Counts
from .crossdoc import LABEL_DOCUMENTS, label_trace
from .layers import hash_layers, layer_warnings
from .features import Derived, annotated, derivation_inputs, lacks_pos
from .matching import drop_document_zeros, match_pair
from .part import Part, Requested
from .registry import ANALYSIS_REGISTRY, INPUTS, REGISTRY, active_analyses, per_document
from .repeats import prepare
from .result import DocumentResult, SideStats
from .split import METRICS as SPLIT_METRICS, split_counts
from .settings import Settings
from .verdict import Evidence, evidence

ROW_COLUMNS = ("analysis", "doc_id", "text", "outcome", "cls", "type")
"""The columns of every outcome row (what ``--by`` may name besides the mention features)."""

STAGES = ("all", "standard", "rest")
"""What a scorer computes: everything; the per-document metrics only (a view's first numbers);
the rest (the linguistically aware metrics, p-link and the analyses)."""


def hash_document(h, d: Document) -> None:
    """Feed one key document's annotation to the corpus hash ``h``: its id and its chains as sets
    of mentions (each mention's span, and the words of a discontinuous one), each chain's mentions
    sorted and the chains sorted — the content, not the reading path. The same annotation hashes
    the same whether it was read from a file (words, chains in the file's order) or given as
    clusters to the API (no words, chains in the caller's order); the words are not hashed, since
    clusters have none. The UA layers (bridging, discourse deixis) follow."""
    h.update(d.doc_id.encode())
    chains = sorted(sorted(m.ident for m in c.mentions) for c in d.chains)
    h.update(repr(chains).encode())
    if d.layers:
        hash_layers(h, d)


class _Feed:
    """A stand-in for a hash object that keeps the bytes it is fed (a part carries them)."""

    __slots__ = ("parts",)

    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def update(self, data: bytes) -> None:
        self.parts.append(data)


def document_stats(d: Document) -> SideStats:
    """One document, its distinct mentions, its chains and its singleton chains."""
    return SideStats(1, len({m.ident for c in d.chains for m in c.mentions}), len(d.chains),
                     sum(1 for c in d.chains if len(c.mentions) == 1))


def has_chains(doc: Document, drop_zeros: bool) -> bool:
    """Whether ``doc`` has a chain left once its zeros are dropped (``drop_zeros``)."""
    return bool(doc.chains) and (not drop_zeros or bool(drop_document_zeros(doc).chains))


def annotate_pair(kd: Document, rd: Document | None) -> tuple[Document, Document | None]:
    """Copies of a key document and its response whose mentions carry their features; the
    response shares the key's derived features when it has the key's words and columns."""
    x = Derived(kd)
    ka = annotated(kd, derived=x)
    if rd is None:
        return ka, None
    return ka, annotated(rd, derived=x if derivation_inputs(rd) == derivation_inputs(kd) else None)


def requested(rows: list, features: bool) -> Requested:
    """What :func:`~.finish.check_requests` needs to know of ``rows``."""
    typed = [r for r in rows if r.analysis == "typed"]
    return Requested(bool(rows), frozenset(set(ROW_COLUMNS).union(*(r.features for r in rows))) if features and rows
                     else frozenset(), bool(typed), frozenset(r.cls for r in typed))


class _Children(dict):
    """The children forked for a run's large documents (place in the run → :class:`~corefreport.forking.Child`),
    stopped when the run fails (their answers will not be read)."""

    def __enter__(self) -> _Children:
        return self

    def __exit__(self, kind, *exc) -> None:
        if kind is not None:
            for child in self.values():
                child.kill()


APART_MENTIONS = 3_000
"""Key mentions of a document from which its ``apart`` analyses are scored in a process of their own:
every analysis on a generated 25,000-word book (3,375 key mentions) 10 % faster, on a 60,000-word
one (8,100) 16 %, on a 207,661-word one (27,000) 22 % (whole processes, two cores); on smaller
documents forking costs about what it saves."""


class DocumentScorer:
    """Scores runs of pairs under ``settings`` (see the module docstring).

    ``formats``: the key's and the response's file formats (heads by rule 3a for formats without
    CorefUD heads). ``rows``: keep the outcome rows (``True``), only their digest keeping that many
    rows per error group (an ``int`` > 0), or neither (``False``/0: the tables need only their
    parts). ``keep_documents``: the part carries the documents as scored (a view shows them).
    ``stage``: one of :data:`STAGES`. ``digest``: the analyses that can keep only what their
    tables read do (the error classes: :attr:`~.errorclasses.ErrorsResult.complete` False).
    ``apart``: a large document's ``apart`` analyses may be scored in a forked process (:meth:`analyse`).
    """

    def __init__(self, settings: Settings, formats: tuple[str, str], rows: bool | int = False,
                 keep_documents: bool = False, stage: str = "all", digest: bool = False, apart: bool = False) -> None:
        self.settings = s = settings
        self.formats = formats
        self.rows = rows
        self.keep_documents = keep_documents
        self.stage = stage
        self.standard = stage in ("all", "standard")
        rest = stage in ("all", "rest")
        self.names = [m for m in s.metrics if per_document(m)] if self.standard else []
        self.split = s.split_antecedents if s.split_antecedents != "drop" else None
        """keep | only: the metrics of :data:`.split.METRICS` score split antecedents (:mod:`.split`)."""
        self.inputs: dict[str, list[tuple[str, Callable]]] = {k: [] for k in INPUTS}
        """Each metric by how it is computed per document (:data:`.registry.INPUTS`)."""
        for n in self.names:
            metric = REGISTRY[n]
            if not (self.split and n in SPLIT_METRICS and metric.inputs == "chains"):
                self.inputs[metric.inputs].append((n, metric.compute))
        self.layer_names = tuple(n for n, _ in self.inputs["layers"])
        """Scores of the documents as read (the UA layers: bridging pairs, discourse-deixis chains)."""
        self.batches: dict[Callable, tuple[str, ...]] = {}
        """The layer scores by their function: one call per document computes all of its scores."""
        for n, f in self.inputs["layers"]:
            self.batches[f] = self.batches.get(f, ()) + (n,)
        self.match = s.match != "exact" or s.zero_match != "linear"
        self.drop_zeros = s.zeros == "drop"
        self.corefud = s.match if s.repeats == "corefud12" else None
        """With ``repeats="corefud12"`` (``--preset crac``): the match mode repeated spans are handled by (:mod:`.repeats`)."""
        self.features = s.needs_features and rest
        self.errors_types = rest and "errors" in s.analyses
        """The error classes type mentions (from POS, else derived): an untagged key is in the
        signature (``pos:missing``) with ``-a errors`` alone as with any other analysis."""
        self.weights = None
        if rest and s.linguistic:
            from .lmetrics import Weights

            self.weights = Weights(*s.weights)
        self.analyses = {a.name: a.start(s, complete=not digest) for a in active_analyses(s)} if rest else {}
        self.annotate = bool(rest and (s.analyses or s.plink_by))
        self.apart = tuple(n for n in self.analyses if ANALYSIS_REGISTRY[n].apart) if (
            apart and len(self.analyses) > 1) else ()
        """The analyses a large document may have scored in a process of its own (:meth:`_fork`;
        ``apart``: allowed — the command line's, never an evaluation loop's process)."""
        self.strata = None
        """``--strata``: the per-document scores of each stratum of chains (:mod:`.strata`), with
        the per-document metrics."""
        if self.standard and s.strata:
            from .strata import StrataScorer

            self.strata = StrataScorer(s, self.corefud)
        self.windows = None
        """``--window``: each document cut into windows, scored with the per-document metrics (:mod:`.windows`)."""
        if self.standard and s.window:
            from .windows import WindowScorer

            self.windows = WindowScorer(s, self.corefud)
        self.trace_labels = s.cross_document is None
        """Record the key's labels for the warning when they look global (:mod:`.crossdoc`)."""

    def score(self, pairs: Iterable) -> Part:
        """The part of ``pairs`` (:class:`~corefreport.io.pairs.Pair`, in order)."""
        with _Children() as forked:
            return self._score(pairs, forked)

    def _score(self, pairs: Iterable, forked: dict) -> Part:
        """:meth:`score`; ``forked``: each large document's place in the run → its child (:meth:`_fork`)."""
        s = self.settings
        part = Part()
        feed = _Feed()
        alignment = Alignment()
        docs: list[DocumentResult] = []
        aligned: list[AlignedDocument] = []
        mentions = Counts()
        found = Evidence()
        kside, rside = [0, 0, 0, 0], [0, 0, 0, 0]
        response_ids: list[str] = []
        for pair in pairs:
            kd, rd = pair.key, pair.response
            if rd is not None:
                response_ids.append(rd.doc_id)
                if self.standard:
                    part.response_chains = part.response_chains or has_chains(rd, self.drop_zeros)
            if kd is None:
                if self.standard:
                    _add(rside, document_stats(rd))
                part.extra.append(rd.doc_id)
                continue
            read = kd, rd
            if self.standard:
                part.key_chains = part.key_chains or has_chains(kd, self.drop_zeros)
                hash_document(feed, kd)
                if self.trace_labels and pair.index < LABEL_DOCUMENTS and not kd.meta.get("chain_names"):
                    # (chains named after characters, io/bookcoref.py: names, the same in every window of a book)
                    part.labels.append(label_trace(kd))
                if rd is None:
                    part.missing.append(kd.doc_id)
            if (self.features or self.errors_types) and lacks_pos(kd):
                part.untagged.append(kd.doc_id)
            if self.drop_zeros:
                kd = drop_document_zeros(kd)
                rd = drop_document_zeros(rd) if rd is not None else None
            if self.corefud is not None:
                kd, rd = self._prepare(kd, rd, alignment)
            written = rd
            if self.match and rd is not None:
                kd, rd = match_pair(kd, rd, self.formats[0], self.formats[1], s.match, s.singletons == "drop",
                                    s.zero_match, self.annotate)
            if self.features:
                kd, rd = annotate_pair(kd, rd)
            ad = align_document(kd, rd, alignment, s.singletons, s.strict_tokens, s.key_duplicates, self.corefud,
                                s.repeats)
            if self.apart and ad.key_mentions >= APART_MENTIONS:
                child = self._fork(ad)
                if child is not None:
                    forked[len(aligned)] = child
            if self.standard:
                self._sides(read, ad, kside, rside)
                if ad.matched_mentions * 2 < ad.response_mentions:  # a near-0 score's cause (.verdict)
                    found = found + evidence(ad.key, ad.response, ad.key_doc.tokens,
                                             ad.response_doc.tokens if ad.response_doc is not None else [])
            res = self._standard(ad, written, read) if self.standard else {}
            if self.layer_names:
                alignment.warnings.extend(layer_warnings(self.layer_names, *read))
            if self.weights is not None:
                self._linguistic(ad, res)
            docs.append(DocumentResult(ad.doc_id, res, Counts(ad.matched_mentions, ad.key_mentions,
                                                              ad.matched_mentions, ad.response_mentions),
                                       len(read[0].tokens), read[0].meta.get("genre", ""),
                                       self.strata.score(kd, rd, read) if self.strata is not None else {},
                                       self.windows.score(kd, rd, ad) if self.windows is not None else None))
            if self.standard:
                mentions = mentions + docs[-1].mentions
            if self.analyses:
                aligned.append(ad)
            if self.keep_documents:
                part.key_documents[kd.doc_id] = kd
                if rd is not None:
                    part.response_documents[rd.doc_id] = rd
        part.documents = docs
        part.mentions = mentions
        part.key_side, part.response_side = SideStats(*kside), SideStats(*rside)
        part.response_ids = tuple(response_ids[:3])
        if self.standard:
            part.evidence = found
            part.token_warnings, part.duplicates = alignment.warnings, alignment.duplicates
            part.feed = b"".join(feed.parts)
        rows: list = []
        for name, (arows, apart) in self.analyse(aligned, forked).items():
            rows.extend(arows)
            part.analyses[name] = apart
        if len(self.analyses) > 1 and self.rows is True:  # each document's rows together, in the analyses' order
            order = {d: k for k, d in enumerate(ad.doc_id for ad in aligned)}
            rows.sort(key=lambda r: order[r.doc_id])
        if self.analyses:
            part.requested = requested(rows, bool(s.by))
        if self.rows is True:
            part.rows = rows
        elif self.rows:
            from .digest import RowDigest

            part.digest = RowDigest.of(rows, int(self.rows))
        return part

    def _fork(self, ad: AlignedDocument):
        """A forked process (:class:`~corefreport.forking.Child`) scoring the :attr:`apart` analyses
        of the large document ``ad`` while this one goes on with its other metrics and analyses —
        when a core is idle (:func:`~corefreport.forking.idle_cores`; not in a busy pool); else None."""
        from ..forking import Child, can_fork, idle_cores

        if not can_fork() or idle_cores() < 2:
            return None
        try:
            return Child(lambda send: {n: self.analyses[n].score([ad]) for n in self.apart})
        except OSError:
            return None

    def analyse(self, aligned: list[AlignedDocument], forked: dict) -> dict[str, tuple[list, object]]:
        """Each analysis's (outcome rows, part) of a run's aligned documents, in the analyses' order.

        ``forked``: the documents (by place in ``aligned``) whose :attr:`apart` analyses a child
        process scored (:meth:`_fork`); the part of such an analysis is the sum (its class's ``add``)
        of the children's parts and of the parts of the documents between them, in document order —
        the part of all the documents scored at once (the parts add up). A child that died leaves
        its document to this process."""
        out = {n: a.score(aligned) for n, a in self.analyses.items() if not forked or n not in self.apart}
        if forked:
            done = {}
            for k, child in forked.items():
                for _ in child.items():  # pragma: no cover - the child sends its value alone
                    pass
                if not child.died:
                    done[k] = child.value
            for n in self.apart:
                rows: list = []
                total, start = None, 0
                for k in sorted(done) + [len(aligned)]:
                    pieces = [self.analyses[n].score(aligned[start:k])] if k > start else []
                    if k in done:
                        pieces.append(done[k][n])
                        start = k + 1
                    else:
                        start = k
                    for prows, part in pieces:
                        rows.extend(prows)
                        total = part if total is None else ANALYSIS_REGISTRY[n].add(total, part)
                out[n] = (rows, total)
        return {n: out[n] for n in self.analyses}

    def _prepare(self, kd: Document, rd: Document | None, alignment: Alignment) -> tuple[Document, Document | None]:
        """Both sides as corefud-scorer prepares them (:func:`.repeats.prepare`); what happened to a
        span written twice in a chain goes to ``alignment.duplicates``."""
        drop = self.settings.singletons == "drop"
        out = []
        for side, doc in (("key", kd), ("response", rd)):
            if doc is None:
                out.append(None)
                continue
            doc, notes = prepare(doc, self.corefud, drop)
            if self.standard:
                alignment.duplicates.extend(DuplicateReport(kd.doc_id, side, m.ident, [label, label], action, doc.source)
                                            for label, m, action in notes)
            out.append(doc)
        return out[0], out[1]

    def _sides(self, read: tuple[Document, Document | None], ad: AlignedDocument, kside: list[int],
               rside: list[int]) -> None:
        """Both documents' statistics as read (:func:`document_stats`); their distinct mentions are
        the aligned ones when every chain is aligned (singletons and zeros kept: matching maps
        distinct response mentions to distinct ones)."""
        kd, rd = read
        if self.settings.singletons == "keep" and not self.drop_zeros:
            _add(kside, SideStats(1, ad.key_mentions, len(kd.chains), sum(1 for c in kd.chains if len(c.mentions) == 1)))
            if rd is not None:
                _add(rside, SideStats(1, ad.response_mentions, len(rd.chains),
                                      sum(1 for c in rd.chains if len(c.mentions) == 1)))
            return
        _add(kside, document_stats(kd))
        if rd is not None:
            _add(rside, document_stats(rd))

    def _standard(self, ad: AlignedDocument, written: Document | None,
                  read: tuple[Document, Document | None] | None = None) -> dict:
        """The per-document metrics of one aligned document, from one contingency table."""
        s = self.settings
        by = self.inputs
        ct = M.contingency(ad.key, ad.response, self.corefud is not None or s.repeats == "ua1")
        res = {name: f(ad.key, ad.response, ct) for name, f in by["chains"]}
        if by["written"]:  # the response as written: --match does not apply (MOR)
            as_written = ad
            if self.match and written is not None:
                as_written = align_document(ad.key_doc, written, Alignment(), s.singletons, False, s.key_duplicates,
                                            self.corefud, s.repeats)
            res.update((name, f(as_written.key, as_written.response)) for name, f in by["written"])
        if by["zeros"]:  # which mentions are zeros, and the response as written
            rd = ad.response_doc
            res.update((name, f(ad.key_doc, rd, written if written is not None else rd, s.singletons == "drop",
                                s.match)) for name, f in by["zeros"])
        if self.split:  # split antecedents, as the Universal Anaphora scorer v1 scores them
            for name in self.names:
                if name in SPLIT_METRICS and REGISTRY[name].inputs == "chains":
                    res[name] = split_counts(name, ad.key_doc, ad.response_doc, self.split)
        res.update((name, f(ad.key_doc, ad.response_doc)) for name, f in by["documents"])
        if read is not None:  # the documents as read (the UA layers), each function once for its scores
            for f, names in self.batches.items():
                res.update(f(names, read[0], read[1], s))
        return {name: res[name] for name in self.names}

    def _linguistic(self, ad: AlignedDocument, res: dict) -> None:
        """Chen & Ng's (2013) linguistically aware metrics of one aligned document, into ``res``."""
        from .lmetrics import lmetric_counts

        mtype: dict = {}
        ident = ad.ident
        for doc in (ad.key_doc, ad.response_doc):
            if doc is None:
                continue
            for c in doc.chains:
                for m in c.mentions:
                    mtype.setdefault(m.ident if ident is None else ident(m), m.features.get("mtype", "NOMINAL"))
        lres = lmetric_counts(ad.key, ad.response, mtype, self.weights)
        for name in self.settings.linguistic:
            res[name] = lres[name]


def _add(total: list[int], stats: SideStats) -> None:
    total[0] += stats.documents
    total[1] += stats.mentions
    total[2] += stats.chains
    total[3] += stats.singletons
