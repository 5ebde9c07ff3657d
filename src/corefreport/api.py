"""The Python API: score clusters in a training loop, or files in a notebook.

Three lines score a model's clusters against the gold ones (the numbers, numerators, denominators
and signature of ``corefreport score -f json``)::

    import corefreport
    result = corefreport.score(gold, predicted)          # {doc_id: [[(start, end), …], …]} each
    print(result["metrics"]["conll"]["f1"], result["signature"])

Clusters are ``{doc_id: [cluster, …]}``; a cluster is a list of mentions, each ``(start, end)`` —
0-based **inclusive** token offsets into the document, as CoNLL-2012 and e2e-coref's JSON lines
number them — or ``(sentence, start, end)`` with the document's sentences given as ``tokens``.
Documents are scored separately and their counts summed, exactly as the reference scorer sums a
corpus (never as one long document). A document of the key missing from the response scores as a
response without mentions (with a warning in ``result["warnings"]``).

In a loop, :class:`Scorer` adds a document at a time::

    scorer = corefreport.Scorer()
    for doc_id, gold, predicted in batches:
        scorer.update(doc_id, gold, predicted)
    result = scorer.result()

For files (any format corefreport reads) and for the tables the views show: :func:`load` and
:func:`evaluate` (an :class:`~corefreport.scoring.result.Evaluation`).

Every option of the command line is a keyword, named as in :class:`~corefreport.scoring.settings.Settings`
(``metrics="all"``, ``singletons="drop"`` or ``False``, ``match="head"``, ``preset="crac"``,
``analyses=["arcs"]``, ``weights=(1, .75, .5, 1)`` …; :func:`options` lists them). A bad option is
a :class:`~corefreport.errors.SettingsError` (a ``ValueError``) or a ``TypeError`` naming it; bad
clusters an :class:`~corefreport.errors.InputError` naming the document, the cluster and the mention.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Union

from .errors import InputError, SettingsError
from .study.read import Clusters, Tokens
from .model import Corpus
from .scoring.evaluate import Running
from .scoring.evaluate import evaluate as _evaluate
from .scoring.options import option_names, settings_from
from .scoring.result import Evaluation
from .scoring.settings import Settings

__all__ = ["score", "Scorer", "load", "evaluate", "settings", "options", "Evaluation", "Settings",
           "InputError", "SettingsError"]

Side = Union[Mapping[str, Clusters], Corpus, str]
"""A key or a response: clusters by document id, a :class:`Corpus`, or a path (file, folder, glob)."""


def settings(**options: Any) -> Settings:
    """The :class:`Settings` of keyword ``options`` (see the module docstring)."""
    return settings_from(**options)


def options() -> list[str]:
    """The keyword options :func:`score`, :class:`Scorer` and :func:`evaluate` take."""
    return option_names()


def _corpus(side: Side, name: str, tokens: Mapping[str, Tokens] | None) -> Corpus:
    if isinstance(side, Corpus):
        return side
    if isinstance(side, str):
        return load(side, key=name == "key")
    from .study.read import clusters_corpus

    if isinstance(side, Mapping) and not side:  # the files' message spoke of '#begin document' lines
        raise InputError(f"<{name}>", None, f"the {name} clusters hold no document: an empty mapping (give "
                         "{doc_id: [cluster, …]}, a cluster a list of (start, end) mentions)")
    return clusters_corpus(side, tokens, name)


def evaluate(key: Side, response: Side, *, tokens: Mapping[str, Tokens] | None = None, rows: bool = True,
             **options: Any) -> Evaluation:
    """The :class:`Evaluation` of ``response`` against ``key`` (clusters, corpora or paths):
    metrics, per-document results, the analyses' tables and (``rows``) their outcome rows.
    ``tokens``: the documents' words by id (for clusters), which the analyses need."""
    s = options.pop("settings", None) or settings(**options)
    if isinstance(key, str) and isinstance(response, str):  # as the command line reads them (markup too)
        from .study.read import Source, pairs

        return _evaluate(pairs(Source(key), Source(response), s), settings=s, rows=rows)
    if s.response_windows:  # a reading rule: the windows are mapped back while the files are read
        raise SettingsError("response_windows reads a response file of windows against the key's full documents: "
                            "give key and response as paths (clusters are already one document each)")
    return _evaluate(_corpus(key, "key", tokens), _corpus(response, "response", tokens), settings=s, rows=rows)


def score(key: Side, response: Side, *, tokens: Mapping[str, Tokens] | None = None, per_document: bool = False,
          **options: Any) -> dict[str, Any]:
    """The JSON object of ``corefreport score -f json`` for ``response`` against ``key`` (clusters
    by document id, corpora or paths), as a dict: ``metrics`` (each with ``recall``, ``precision``,
    ``f1`` and their numerators and denominators; ``conll``), ``mentions``, ``signature``,
    ``warnings`` …; with ``per_document`` also each document's."""
    from .present.jsondata import evaluation_data

    return evaluation_data(evaluate(key, response, tokens=tokens, rows=False, **options), per_doc=per_document)


class Scorer:
    """Scores a document at a time (an evaluation loop): :meth:`update` with each document's key
    and predicted clusters, :meth:`result` for the corpus's numbers so far — the same dict as
    :func:`score` gives for the same documents in the same order. Documents stay separate."""

    def __init__(self, **options: Any) -> None:
        self.settings = options.pop("settings", None) or settings(**options)
        if self.settings.response_windows:
            raise SettingsError("response_windows reads a response file of windows: the Scorer takes each "
                                "document's clusters whole (score() and evaluate() take the files' paths)")
        self._running = Running(self.settings)
        self._warned = False

    def __len__(self) -> int:
        return len(self._running)

    def update(self, doc_id: str, key: Clusters, response: Clusters | None, tokens: Tokens | None = None
               ) -> dict[str, Any]:
        """Add document ``doc_id``: its ``key`` clusters and the system's ``response`` clusters
        (``None``: the system wrote nothing). Returns the document's own scores (``metrics``,
        ``mentions``). A document id given twice is an error."""
        from .study.read import clusters_document as document

        kd = document(doc_id, key, tokens, "key")
        rd = None if response is None else document(doc_id, response, tokens, "response")
        if not self._warned:
            self._warned = True
            self._warn_rule_heads()
        result = self._running.add(kd, rd)
        return result.as_dict() if result is not None else {}

    def _warn_rule_heads(self) -> None:
        """Once, at the first :meth:`update`: clusters carry no heads, so a mode that matches
        mentions by their heads (``match="head"``, ``preset="crac"``) takes them by corefreport's
        rule 3a — with no POS or dependency columns, each mention's last word (the same sentence is
        in ``result()["warnings"]``)."""
        from .scoring.matching import ruled_formats

        if not ruled_formats(self.settings.match, self._running.formats):
            return
        import warnings

        warnings.warn(f"Scorer(match={self.settings.match!r}): clusters carry no heads, so each mention's head comes "
                      "from corefreport's rule (docs/matching.md rule 3a; signature heads:rule) — without POS or "
                      "dependency columns, its last word: a key (0, 1) and a response (1, 1) match. Score CorefUD "
                      "CoNLL-U files or corpora (corefreport.load, evaluate) for their heads", UserWarning, stacklevel=3)

    def result(self, per_document: bool = False) -> dict[str, Any]:
        """The corpus's numbers over every document added so far (as :func:`score`)."""
        from .present.jsondata import evaluation_data

        return evaluation_data(self.evaluation(), per_doc=per_document)

    def evaluation(self) -> Evaluation:
        """The :class:`Evaluation` of every document added so far."""
        if not len(self._running):
            raise InputError("<key>", None, "no document has been added yet (Scorer.update)")
        return self._running.evaluation()

    def reset(self) -> None:
        """Forget every document (a new epoch)."""
        self._running = Running(self.settings)


def load(path: str, format: str | None = None, key: bool = False) -> Corpus:
    """The :class:`Corpus` of a file, folder or glob (format detected unless given:
    ``conll2012``, ``conllu``, ``jsonlines``, ``webanno``); ``key``: it is the gold side."""
    from .study.read import corpus

    return corpus(path, key=key, fmt=format)
