"""Windows: every per-document metric scored on each document cut into windows, next to the full
documents, and the key's antecedent links found within one window and across windows.

Book-scale coreference is scored two ways (BookCoref, Martinelli et al. 2025): on the full books,
and on the books cut into windows of 1,500 words, as systems that cannot read a book at once are
run (its ``split`` configuration). ``--window N`` scores both and says what the cut costs.

**The cut.** A document's words are cut at sentence ends, as the key's sentences give them: a
window closes at the end of the first sentence that brings it to ``N`` words or more, and the last
window holds what is left (a document of fewer than ``N`` words is one window). A mention is in
the window of its first word; a chain cut by a window border becomes one chain per window — its
mentions in that window —, on the key's side and the response's alike (the response is cut at the
key's borders). Each window is then scored exactly as a document is (repeated spans, singletons,
the contingency table), and a document's windowed statistics are the sum of its windows': what
scorer.pl prints on the key and the response cut into windows, one document per window
(``tests/data/windows``). The totals are micro over the documents, as every total.

**Antecedent links** (the *cross-context* links of xCoRe, Martinelli, Gatti & Navigli 2025): in
every chain, ordered by first word (then last word), each mention with the one before it — the
nearest earlier mention of its chain — is one link (a chain of ``n`` mentions has ``n − 1``). A
link is *within one window* when both mentions are in one window, *across windows* otherwise. Of
the key's links, those whose two mentions the response puts in one chain of the full document are
found (recall); of the response's links, those whose two mentions are in one key chain are right
(precision). A response produced window by window has no link across windows.

>>> from corefreport.model import Chain, Document, Mention
>>> doc = Document("d", tokens=["w"] * 9, sentence_starts=[0, 2, 5, 7])
>>> window_starts(doc, 3)
[0, 5]
>>> window_starts(doc, 100), window_starts(Document("e"), 3)
([0], [0])
>>> links([[(0, 0), (6, 6), (3, 3)]], [0, 5])
[((0, 0), (3, 3), True), ((3, 3), (6, 6), False)]
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import SettingsError
from ..model import Chain, Document, Span
from . import metrics as M
from .align import AlignedDocument, Alignment, align_document
from .counts import Counts
from .strata import StratumScores

LINKS = ("within", "across")
"""The two kinds of antecedent links: both mentions in one window, or in two."""


def window_starts(doc: Document, size: int) -> list[int]:
    """The first word of each window of ``doc`` cut into windows of ``size`` words (module
    docstring): a window closes at the end of the first sentence that brings it to ``size`` words
    or more."""
    n = len(doc.tokens)
    bounds = [s for s in doc.sentence_starts if 0 < s < n]
    starts, words, at = [0], 0, 0
    for end in bounds:
        words += end - at
        at = end
        if words >= size:
            starts.append(end)
            words = 0
    return starts


def windowed_chains(chains: list[Chain], starts: list[int]) -> list[list[Chain]]:
    """Per window, the pieces of ``chains`` in it: each chain's mentions whose first word is in the
    window, as a chain of the same label (none where a chain has no mention there)."""
    out: list[list[Chain]] = [[] for _ in starts]
    for c in chains:
        pieces: dict[int, list] = {}
        for m in c.mentions:
            pieces.setdefault(bisect_right(starts, m.start) - 1, []).append(m)
        for w, ms in pieces.items():
            out[w].append(Chain(c.label, ms))
    return out


def _start(span: tuple) -> tuple[int, int]:
    return span[0], span[1]


def links(chains: list[list[Span]], starts: list[int]) -> list[tuple[Span, Span, bool]]:
    """Every antecedent link of ``chains`` (span lists): ``(antecedent, mention, within one window)``."""
    out = []
    for c in chains:
        ordered = sorted(c, key=_start)
        for a, b in zip(ordered, ordered[1:]):
            out.append((a, b, bisect_right(starts, a[0]) == bisect_right(starts, b[0])))
    return out


def _chain_of(chains: list[list[Span]]) -> dict[Span, set[int]]:
    """Each span → the chains holding it (a span may be written in two)."""
    out: dict[Span, set[int]] = {}
    for i, c in enumerate(chains):
        for s in c:
            out.setdefault(s, set()).add(i)
    return out


def link_counts(key: list[list[Span]], response: list[list[Span]], starts: list[int]) -> dict[str, Counts]:
    """``within`` and ``across``: key links found (the response has both mentions in one chain) of
    key links, response links right (both mentions in one key chain) of response links."""
    counts = {k: [0, 0, 0, 0] for k in LINKS}
    for mine, other, num, den in ((key, response, 0, 1), (response, key, 2, 3)):
        where = _chain_of(other)
        for a, b, within in links(mine, starts):
            c = counts[LINKS[0] if within else LINKS[1]]
            c[den] += 1
            if where.get(a, set()) & where.get(b, set()):
                c[num] += 1
    return {k: Counts(*v) for k, v in counts.items()}


@dataclass(frozen=True, slots=True)
class WindowScores(StratumScores):
    """One document's windows (or their sum over documents): a stratum's scores summed over the
    windows (each metric's statistics, mention identification, the chains — pieces — on each side),
    and the antecedent links within one window and across windows (:func:`link_counts`) and the
    windows."""

    links: dict[str, Counts] = field(default_factory=lambda: _no_links())
    windows: int = 0

    def __add__(self, other: WindowScores) -> WindowScores:
        summed = StratumScores.__add__(self, other)
        return WindowScores(summed.metrics, summed.mentions, summed.key_chains, summed.response_chains,
                            {k: self.links[k] + other.links[k] for k in LINKS}, self.windows + other.windows)

    def as_dict(self) -> dict[str, Any]:
        return {"windows": self.windows, **StratumScores.as_dict(self),
                "links": {k: self.links[k].as_dict() for k in LINKS}}


def windowed(name: str) -> bool:
    """Whether ``--window`` scores metric ``name`` on the windows: a metric computed per document from
    the chains (:attr:`.registry.Metric.inputs` ``chains``: MUC, B³, CEAF-m/e, BLANC, LEA)."""
    from .registry import REGISTRY

    m = REGISTRY.get(name)
    return m is not None and m.inputs == "chains"


class WindowScorer:
    """The windows of one document pair under ``settings`` (its ``window``): built once per run of
    documents (:class:`~.document.DocumentScorer`)."""

    def __init__(self, settings, corefud: str | None = None) -> None:
        from .registry import REGISTRY

        self.settings = settings
        self.size = settings.window
        self.corefud = corefud
        self.names = tuple(n for n in settings.metrics if windowed(n))
        self.functions = [(n, REGISTRY[n].compute) for n in self.names]

    def score(self, kd: Document, rd: Document | None, ad: AlignedDocument) -> WindowScores:
        """The windows of ``kd`` (the key as the metrics see it) and ``rd`` summed, and the antecedent
        links of the full document ``ad`` (its aligned chains)."""
        s = self.settings
        starts = window_starts(kd, self.size)
        keys = windowed_chains(kd.chains, starts)
        resps = windowed_chains(rd.chains, starts) if rd is not None else [[] for _ in starts]
        total = None
        for k, r in zip(keys, resps):
            if not k and not r:
                continue
            wa = align_document(replace(kd, chains=k), replace(rd, chains=r) if rd is not None else None,
                                Alignment(), s.singletons, False, s.key_duplicates, self.corefud)
            ct = M.contingency(wa.key, wa.response, self.corefud is not None)
            one = WindowScores({n: f(wa.key, wa.response, ct) for n, f in self.functions},
                               Counts(wa.matched_mentions, wa.key_mentions, wa.matched_mentions, wa.response_mentions),
                               key_chains=len(wa.key), response_chains=len(wa.response))
            total = one if total is None else total + one
        if total is None:
            total = WindowScores({n: _empty(n) for n in self.names}, Counts(0, 0, 0, 0))
        return replace(total, links=link_counts(ad.key, ad.response, starts), windows=len(starts))


def _no_links() -> dict[str, Counts]:
    return {k: Counts(0, 0, 0, 0) for k in LINKS}


def _empty(name: str):
    from .registry import REGISTRY

    return REGISTRY[name].empty()


# --------------------------------------------------------------------------- totals


@dataclass(frozen=True)
class Windows:
    """The corpus on windows of :attr:`size` words next to the full documents: the windowed
    statistics summed over the documents (micro), the full documents' totals of the same metrics
    and mentions, and what the cut costs (:attr:`cost`)."""

    size: int
    metrics: tuple[str, ...]
    scores: WindowScores
    full: dict[str, Any]
    full_mentions: Counts

    @property
    def full_derived(self) -> dict[str, float]:
        from .registry import derived_scores

        return derived_scores(self.full)

    @property
    def cost(self) -> dict[str, float]:
        """Per score (CoNLL after its parts, mention identification last), windowed F1 − full F1."""
        full = {n: s.f1 for n, s in self.full.items()}
        cut = {n: s.f1 for n, s in self.scores.metrics.items()}
        for n, f in self.full_derived.items():
            full[n] = f
        for n, f in self.scores.derived.items():
            cut[n] = f
        out = {n: cut[n] - full[n] for n in full if n in cut}
        out["mentions"] = self.scores.mentions.f1 - self.full_mentions.f1
        return out

    def as_dict(self) -> dict[str, Any]:
        return {"size": self.size, "rule": "a window closes at the end of the first sentence that brings it to "
                f"{self.size} words or more; a mention is in the window of its first word",
                "links_rule": "antecedent links: each mention with the nearest earlier mention of its chain",
                **self.scores.as_dict(), "cost": self.cost}


def window_totals(documents, settings, names: list[str], full: dict, mentions: Counts) -> Windows | None:
    """The :class:`Windows` of the documents' results (``None`` without ``--window``): their window
    statistics summed in document order; ``full``: the corpus totals, ``mentions`` its mentions."""
    if not settings.window:
        return None
    names = [n for n in names if windowed(n)]
    total = None
    for d in documents:
        x = d.windows
        if x is not None:
            x = replace(x, metrics={n: x.metrics[n] for n in names})
            total = x if total is None else total + x
    if total is None:
        total = WindowScores({n: _empty(n) for n in names}, Counts(0, 0, 0, 0))
    return Windows(settings.window, tuple(names), total, {n: full[n] for n in names}, mentions)


def check_window(settings) -> None:
    """Refuse ``--window`` values no evaluation can honour (each message names the option)."""
    n = settings.window
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise SettingsError(f"--window takes a whole number of words ≥ 1 (BookCoref's windows: 1500); got {n!r}")
    if n and settings.split_antecedents != "drop":
        raise SettingsError("--window cuts chains, and split antecedents tie chains together: leave out "
                            "--split-antecedents (or --preset codicrac22ar) to score windows")


__all__ = ["LINKS", "WindowScorer", "WindowScores", "Windows", "check_window", "link_counts", "links",
           "window_starts", "window_totals", "windowed", "windowed_chains"]
