"""Strata of entities: every per-document metric scored over the chains of one stratum.

A **stratification** (``--strata``) puts every chain of a document into one stratum by a property
of the chain itself:

* ``chain-length`` (``chain-length:E1,E2,…``) — its mentions: by default singletons (1), short
  chains (2–10) and long chains (11 or more), the strata Duron-Tejedor, Amsili & Poibeau (2023,
  arXiv 2401.00238) score apart in long documents (main characters against the rest);
* ``spread`` (``spread:E1,E2,…``) — the sentences from its first mention's to its last mention's,
  both counted: within one sentence (1), 2–5, 6–20, 21 or more;
* ``etype`` — its entity type: the type most of its mentions carry (ties: the first in the chain),
  a mention's type being the reader's ``etype`` (CorefUD ``Entity=``, GUM's types, WebAnno TSV)
  or else the NE type of the NE column (OntoNotes) covering its head (the rule of the mention
  feature ``ne``, :mod:`.features`); a chain with no typed mention is :data:`NO_TYPE`;
* ``feature:NAME`` — the value most of its mentions carry for the mention feature ``NAME`` (ties:
  the first in the chain; none: :data:`NO_TYPE`): uCDCR's ``feature:kind`` puts entity and event
  chains apart (:mod:`corefreport.io.ucdcr`), ``feature:coref_type`` its coreference types.

Buckets are upper edges ``E1 < E2 < …`` (a bucket ``lo–hi`` holds ``lo ≤ n ≤ hi``; the last is
open).

**The rule: each side by its own chains** (the ``own`` rule of the anno-eval crate's chain-length
stratification, after Duron-Tejedor et al.): a key chain is in the stratum of its own length
(spread, type), a response chain in that of its own — a response chain of 12 mentions that merges
two key chains of 6 is a long response chain and two short key chains. A stratum's score is then
the same metric on the document with only that stratum's chains on each side, scored as the whole
document is scored (repeated spans, singletons, the contingency table): what scorer.pl prints on a
key and a response file each filtered to that stratum's chains (``tests/data/strata``). Filtering
chains changes which mentions exist: B³'s, CEAF-m's and the Mentions row's denominators are the
stratum's mentions, and a response mention of a short chain whose key mention is in a long chain is
not found in either stratum.

The chains are those the metrics see at the point they are filtered: after ``--drop-zeros``,
``--preset crac``'s preparation and mention matching, before one-mention chains are dropped
(``--drop-singletons`` leaves the singleton stratum empty). The metrics stratified are those scored
per document from the chains (:attr:`.registry.Metric.inputs` ``chains``: MUC, B³, CEAF-m/e,
BLANC, LEA) and the layer scores of entities (:attr:`.registry.Metric.layer`: the discourse-deixis
chains, filtered by the same rule); CoNLL is the mean of a stratum's MUC, B³ and CEAF-e F1.

Per document a :class:`StrataScorer` gives ``{stratification: {stratum: StratumScores}}`` (the
per-document result carries it, :class:`.result.DocumentResult`, so parts and pools add it); the
totals (:func:`strata_totals`) are micro over documents: each stratum's counts summed.

>>> from corefreport.model import Chain, Document, Mention
>>> doc = Document("d", tokens=["w"] * 30, sentence_starts=[0, 10, 20],
...                chains=[Chain("a", [Mention(1, 1)]), Chain("b", [Mention(2, 2), Mention(25, 25)])])
>>> [stratification("chain-length").of(doc, c) for c in doc.chains]
['1', '2–10']
>>> [stratification("spread").of(doc, c) for c in doc.chains]
['1', '2–5']
>>> stratification("chain-length:1,2,5").names
('1', '2', '3–5', '6+')
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..errors import SettingsError
from ..model import Chain, Document
from . import metrics as M
from .align import Alignment, align_document
from .counts import Counts

KINDS = ("chain-length", "spread", "etype", "feature")
"""The stratifications known by name."""
EDGES = {"chain-length": (1, 10), "spread": (1, 5, 20)}
"""Default upper edges: chains of 1 | 2–10 | 11+ mentions; 1 | 2–5 | 6–20 | 21+ sentences."""
NO_TYPE = "(none)"
"""The type of a chain none of whose mentions is typed."""
UNTYPED = frozenset({"", "-", "_"})
"""A mention feature's values that mean "no type"."""
RULES = ("own",)
"""How chains are assigned: ``own`` — key and response chains each by their own property."""


@dataclass(frozen=True, slots=True)
class Stratification:
    """One ``--strata`` value: ``spec`` as given, its ``kind`` (:data:`KINDS`), its bucket
    ``edges`` and the buckets' ``names`` in order (none for ``etype``: the types found)."""

    spec: str
    kind: str
    edges: tuple[int, ...] = ()
    names: tuple[str, ...] = ()
    rule: str = "own"
    feature: str = ""
    """``feature:NAME``'s mention feature."""

    @property
    def title(self) -> str:
        """What is stratified by: "chain length", "spread", "entity type", "mention kind"."""
        if self.kind == "feature":
            return f"mention {self.feature}"
        return {"chain-length": "chain length", "spread": "spread", "etype": "entity type"}[self.kind]

    @property
    def unit(self) -> str:
        """What a stratum's name counts: "mentions", "sentences", "type" (a feature: its name)."""
        if self.kind == "feature":
            return self.feature
        return {"chain-length": "mentions", "spread": "sentences", "etype": "type"}[self.kind]

    def measure(self, doc: Document, chain: Chain, types: list[str] | None = None) -> int | str:
        """The chain's mentions, sentences spanned, or type (``types``: its mentions' types)."""
        if self.kind == "chain-length":
            return len(chain.mentions)
        if self.kind == "spread":
            starts = doc.sentence_starts
            if not starts or not chain.mentions:
                return 1
            sentences = [bisect_right(starts, m.start) - 1 for m in chain.mentions]
            return max(sentences) - min(sentences) + 1
        if self.kind == "feature":
            return chain_type([m.features.get(self.feature, "") for m in chain.mentions])
        return chain_type(types if types is not None else [mention_type(m.features) for m in chain.mentions])

    def of(self, doc: Document, chain: Chain, types: list[str] | None = None) -> str:
        """The stratum of ``chain`` in ``doc``."""
        n = self.measure(doc, chain, types)
        if isinstance(n, str):
            return n
        return next((name for e, name in zip(self.edges, self.names) if n <= e), self.names[-1])

    def order(self, found) -> list[str]:
        """The strata of a table in order: every bucket; the types found, alphabetically, untyped last."""
        if self.names:
            return list(self.names)
        return sorted(t for t in set(found) if t != NO_TYPE) + ([NO_TYPE] if NO_TYPE in found else [])


def bucket_names(edges: tuple[int, ...]) -> tuple[str, ...]:
    """``1``, ``2–10``, ``11+`` for edges (1, 10)."""
    lows = (0,) + edges
    return tuple(str(hi) if lo + 1 == hi else f"{lo + 1}–{hi}" for lo, hi in zip(lows, edges)) + (f"{edges[-1] + 1}+",)


def stratification(spec: str) -> Stratification:
    """The :class:`Stratification` of a ``--strata`` value (a :class:`SettingsError` names a bad one)."""
    kind, colon, text = spec.strip().partition(":")
    if kind not in KINDS:
        raise SettingsError(f"--strata takes chain-length[:EDGES], spread[:EDGES], etype or feature:NAME; got {spec!r}")
    if kind == "feature":
        if not text.strip():
            raise SettingsError(f"--strata feature:NAME takes a mention feature's name (uCDCR: feature:kind); got "
                                f"{spec!r}")
        return Stratification(spec, kind, feature=text.strip())
    if kind == "etype":
        if colon:
            raise SettingsError(f"--strata etype takes no edges; got {spec!r}")
        return Stratification(spec, kind)
    try:
        edges = tuple(int(x) for x in text.split(",")) if colon else EDGES[kind]
    except ValueError:
        raise SettingsError(f"--strata {kind}:EDGES takes increasing whole numbers (upper edges), e.g. "
                            f"{kind}:{','.join(map(str, EDGES[kind]))}; got {spec!r}") from None
    if not edges or edges[0] < 1 or list(edges) != sorted(set(edges)):
        raise SettingsError(f"--strata {kind}:EDGES takes increasing whole numbers ≥ 1 (upper edges), e.g. "
                            f"{kind}:{','.join(map(str, EDGES[kind]))}; got {spec!r}")
    return Stratification(spec, kind, edges, bucket_names(edges))


# --------------------------------------------------------------------------- entity types


def mention_type(features: dict[str, str], derived_ne: str = "") -> str:
    """A mention's type: the reader's ``etype``, else ``ne`` (the mention feature, or ``derived_ne``
    computed for it); "" when untyped."""
    t = features.get("etype", "")
    if t not in UNTYPED:
        return t
    t = features.get("ne", "") or derived_ne
    return "" if t in UNTYPED else t


def chain_type(types: list[str]) -> str:
    """The type most of a chain's typed mentions carry (ties: the first in the chain), else :data:`NO_TYPE`.

    >>> chain_type(["", "person", "place", "place", "person"]), chain_type(["", "-"])
    ('person', '(none)')
    """
    typed = [t for t in types if t and t not in UNTYPED]
    if not typed:
        return NO_TYPE
    counts = Counter(typed)
    best = max(counts.values())
    return next(t for t in typed if counts[t] == best)


def _types(doc: Document, chains: list[Chain], coreference: bool = True) -> list[list[str]]:
    """Each chain's mentions' types; for the coreference chains (``coreference``) the NE column's
    (:func:`.features.mention_features`) computed only when a mention has neither an ``etype`` nor
    an ``ne`` feature and the document has NE tags."""
    plain = [[mention_type(m.features) for m in c.mentions] for c in chains]
    typed = all(t or "ne" in m.features for c, ts in zip(chains, plain) for m, t in zip(c.mentions, ts))
    if not coreference or typed or "ne" not in doc.columns:
        return plain
    from .features import mention_features

    feats = iter(mention_features(doc))
    out = []
    for c in doc.chains:
        out.append([mention_type(m.features, next(feats).get("ne", "")) for m in c.mentions])
    return out


# --------------------------------------------------------------------------- scores of one document


@dataclass(frozen=True, slots=True)
class StratumScores:
    """One stratum of one document (or their sum): each metric's statistics over the stratum's
    chains, mention identification over their mentions, and the chains on each side."""

    metrics: dict[str, Any]
    mentions: Counts = field(default_factory=Counts)
    key_chains: int = 0
    response_chains: int = 0

    def __add__(self, other: StratumScores) -> StratumScores:
        return StratumScores({n: s + other.metrics[n] for n, s in self.metrics.items()}, self.mentions + other.mentions,
                             self.key_chains + other.key_chains, self.response_chains + other.response_chains)

    @property
    def derived(self) -> dict[str, float]:
        """The stratum's CoNLL (and any score derived from its metrics)."""
        from .registry import derived_scores

        return derived_scores(self.metrics)

    def as_dict(self) -> dict[str, Any]:
        metrics: dict[str, Any] = {n: s.as_dict() for n, s in self.metrics.items()}
        metrics.update((n, {"f1": f}) for n, f in self.derived.items())
        return {"key_chains": self.key_chains, "response_chains": self.response_chains, "metrics": metrics,
                "mentions": self.mentions.as_dict()}


def empty_stratum(names) -> StratumScores:
    """The scores of a stratum without chains: each metric's empty statistics."""
    from .registry import REGISTRY

    return StratumScores({n: REGISTRY[n].empty() for n in names})


def stratified(name: str) -> bool:
    """Whether ``--strata`` scores metric ``name`` per stratum: a metric computed per document from
    the chains, or a layer score of entities (:attr:`.registry.Metric.layer`)."""
    from .registry import REGISTRY

    m = REGISTRY.get(name)
    return m is not None and (m.inputs == "chains" or bool(m.layer))


class StrataScorer:
    """The strata of one document pair under ``settings`` (its ``strata``): built once per run of
    documents (:class:`~.document.DocumentScorer`)."""

    def __init__(self, settings, corefud: str | None = None) -> None:
        from .registry import REGISTRY

        self.settings = settings
        self.stratifications = tuple(stratification(s) for s in settings.strata)
        self.corefud = corefud
        names = [n for n in settings.metrics if stratified(n)]
        self.names = tuple(names)
        self.chains = [(n, REGISTRY[n].compute) for n in names if REGISTRY[n].inputs == "chains"]
        self.layers: dict[str, tuple[str, ...]] = {}
        """Layer → its scores; one call of their function per stratum."""
        self.batches: dict[Callable, tuple[str, ...]] = {}
        for n in names:
            m = REGISTRY[n]
            if m.layer:
                self.layers[m.layer] = self.layers.get(m.layer, ()) + (n,)
                self.batches[m.compute] = self.batches.get(m.compute, ()) + (n,)

    def score(self, kd: Document, rd: Document | None,
              read: tuple[Document, Document | None]) -> dict[str, dict[str, StratumScores]]:
        """``{stratification: {stratum: scores}}`` of the chains of ``kd`` and ``rd`` (as the
        metrics see them) and of the layer chains of the documents as ``read``; only the strata
        some chain is in."""
        out: dict[str, dict[str, StratumScores]] = {}
        for st in self.stratifications:
            sides = [self._assign(st, kd, kd.chains), self._assign(st, rd, rd.chains) if rd is not None else []]
            layered = {layer: [self._assign(st, doc, doc.layers.get(layer, ()), False) if doc is not None else []
                               for doc in read] for layer in self.layers}
            found = list(dict.fromkeys([s for side in sides for s in side]
                                       + [s for both in layered.values() for side in both for s in side]))
            out[st.spec] = {s: self._stratum(s, kd, rd, sides, read, layered) for s in found}
        return out

    def _assign(self, st: Stratification, doc: Document, chains, coreference: bool = True) -> list[str]:
        """The stratum of each of ``chains`` (the coreference chains of ``doc``, or a layer's)."""
        chains = list(chains)
        if st.kind != "etype":
            return [st.of(doc, c) for c in chains]
        return [st.of(doc, c, t) for c, t in zip(chains, _types(doc, chains, coreference))]

    def _stratum(self, s: str, kd: Document, rd: Document | None, sides: list[list[str]],
                 read: tuple[Document, Document | None], layered: dict) -> StratumScores:
        st = self.settings
        k = replace(kd, chains=[c for c, x in zip(kd.chains, sides[0]) if x == s])
        r = replace(rd, chains=[c for c, x in zip(rd.chains, sides[1]) if x == s]) if rd is not None else None
        ad = align_document(k, r, Alignment(), st.singletons, False, st.key_duplicates, self.corefud, st.repeats)
        ct = M.contingency(ad.key, ad.response, self.corefud is not None or st.repeats == "ua1")
        res = {n: f(ad.key, ad.response, ct) for n, f in self.chains}
        if self.batches:
            docs = []
            for i, doc in enumerate(read):
                if doc is None:
                    docs.append(None)
                    continue
                layers = dict(doc.layers)
                for layer, both in layered.items():
                    layers[layer] = [c for c, x in zip(doc.layers.get(layer, ()), both[i]) if x == s]
                docs.append(replace(doc, layers=layers))
            for f, names in self.batches.items():
                res.update(f(names, docs[0], docs[1], st))
        return StratumScores({n: res[n] for n in self.names},
                             Counts(ad.matched_mentions, ad.key_mentions, ad.matched_mentions, ad.response_mentions),
                             len(ad.key), len(ad.response))


# --------------------------------------------------------------------------- totals


@dataclass(frozen=True)
class Strata:
    """One stratification's totals: each stratum's counts summed over the documents (micro), in
    the stratification's order."""

    stratification: Stratification
    metrics: tuple[str, ...]
    strata: dict[str, StratumScores]

    @property
    def spec(self) -> str:
        return self.stratification.spec

    def as_dict(self) -> dict[str, Any]:
        st = self.stratification
        return {"kind": st.kind, "edges": list(st.edges) if st.edges else None, "rule": st.rule,
                "strata": {s: x.as_dict() for s, x in self.strata.items()}}


def strata_totals(documents, settings, names: list[str]) -> dict[str, Strata]:
    """Each stratification's :class:`Strata`: the documents' stratum counts summed in document
    order (a stratum a document lacks adds nothing); every bucket of a bucketed stratification,
    the types some document has for ``etype``."""
    names = [n for n in names if stratified(n)]
    out: dict[str, Strata] = {}
    for spec in settings.strata:
        st = stratification(spec)
        sums: dict[str, StratumScores] = {}
        for d in documents:
            for s, x in d.strata.get(spec, {}).items():
                x = StratumScores({n: x.metrics[n] for n in names}, x.mentions, x.key_chains, x.response_chains)
                sums[s] = x if s not in sums else sums[s] + x
        out[spec] = Strata(st, tuple(names), {s: sums.get(s) or empty_stratum(names) for s in st.order(sums)})
    return out


def check_strata(settings) -> None:
    """Refuse ``--strata`` values no evaluation can honour (each message names the option)."""
    for spec in settings.strata:
        stratification(spec)
    if len(set(settings.strata)) != len(settings.strata):
        twice = next(s for s in settings.strata if settings.strata.count(s) > 1)
        raise SettingsError(f"--strata {twice} is given twice: give each stratification once")
    if settings.strata and settings.split_antecedents != "drop":
        raise SettingsError("--strata filters chains, and split antecedents tie chains together: leave out "
                            "--split-antecedents (or --preset codicrac22ar) to score strata")


__all__ = ["EDGES", "KINDS", "NO_TYPE", "RULES", "Strata", "StrataScorer", "Stratification", "StratumScores",
           "chain_type", "check_strata", "empty_stratum", "mention_type", "strata_totals", "stratification",
           "stratified"]
