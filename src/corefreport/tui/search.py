"""The link search of the browser (``/``): a query string → a :class:`Query` that filters outcome
rows. Pure: no widget, no evaluation — the texts a word is matched in come from a function the
caller gives (:func:`corefreport.tui.model.link_rows` reads them from the corpora).

Rules (docs/tui.md, "Search syntax"):

* every term must hold (AND); a term starting with ``-`` or ``!`` must not;
* a **word** matches whole words, case-insensitively: ``his`` finds "his", not "this"; ``it`` finds
  "it", not "United" (a word is a run of letters, digits and ``_``; an id's ``_`` separates words);
  ``court*`` matches words starting with "court";
* a **quoted phrase** matches those words in that order: ``"the court"``;
* a **regular expression**: ``re:PATTERN`` (Python syntax, case-insensitive; quote it when it holds
  a space: ``re:"of the \\w+"``; ``^`` and ``$`` match at the start and end of each mention, which
  the texts searched hold one a line); a bad one is an error naming it, not an empty result;
* **where** words match: ``in:link`` (default: the referent, the key and response antecedents and the
  document id), ``in:mention`` (the referent's words only) or ``in:sentence`` (the referent's
  sentence);
* ``wl``, ``fn``… or ``outcome:wl,fn`` select outcomes; ``doc:ID`` matches document ids (substring);
  ``type:T``, ``class:C`` and any feature (``mtype:PRONOUN``) filter exactly (case-insensitive).

>>> q = parse_query('his -"the court" in:mention')
>>> [t.field for t in q.terms], q.where
(['text', 'text'], 'mention')
>>> word_pattern("his").search("this") is None, bool(word_pattern("it").search("it is")), word_pattern("it").search("United")
(True, True, None)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..scoring.outcomes import OUTCOMES, LinkOutcome

FIELDS = {"doc": "doc", "document": "doc", "d": "doc", "outcome": "outcome", "o": "outcome",
          "class": "cls", "cls": "cls", "c": "cls", "type": "type", "t": "type"}
WHERE = ("link", "mention", "sentence")
"""Where free words are matched (``in:WHERE``): the link's mentions and document id, the referent
only, or the referent's sentence."""


class QueryError(ValueError):
    """A query that cannot be read (a bad regular expression, an unknown ``in:``); its message is
    one line for the status bar."""


@dataclass(frozen=True, slots=True)
class Term:
    """One condition: ``field`` "text" (``pattern`` holds), "doc" (substring of the id), "outcome"
    (one of ``value``'s comma-separated outcomes) or a row column (equal, case-insensitive)."""

    negated: bool
    field: str
    value: str
    pattern: re.Pattern | None = None

    def holds(self, r: LinkOutcome, text: Callable[[], str]) -> bool:
        if self.field == "outcome":
            return r.outcome in self.value.split(",")
        if self.field == "doc":
            return self.value in r.doc_id.lower()
        if self.field == "text":
            return self.pattern is not None and self.pattern.search(text()) is not None
        return str(r.get(self.field)).lower() == self.value


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed search: its terms (all must hold) and where free words are matched."""

    terms: tuple[Term, ...] = ()
    where: str = "link"

    def __bool__(self) -> bool:
        return bool(self.terms)

    def matches(self, r: LinkOutcome, text_of: Callable[[LinkOutcome, str], str] | None = None) -> bool:
        """Whether row ``r`` passes every term; ``text_of(r, where)`` gives the text free words are
        matched in (read once, only when a text term needs it; without it: the referent's text)."""
        cache: list[str] = []

        def text() -> str:
            if not cache:
                cache.append(text_of(r, self.where) if text_of is not None else r.text)
            return cache[0]

        return all(t.holds(r, text) != t.negated for t in self.terms)


WORD = r"[^\W_]"
"""A word character for the boundaries: a letter or digit (``_`` separates the words of an id)."""


def word_pattern(word: str) -> re.Pattern:
    """Whole words, case-insensitively; a trailing ``*``: any word starting so; several words (a
    phrase): those words in order, any white space between."""
    prefix = word.endswith("*") and len(word) > 1
    words = (word[:-1] if prefix else word).split()
    body = r"\s+".join(re.escape(w) for w in words)
    start = rf"(?<!{WORD})" if re.match(WORD, words[0][0]) else ""
    end = rf"{WORD}*" if prefix else (rf"(?!{WORD})" if re.match(WORD, words[-1][-1]) else "")
    return re.compile(start + body + end, re.IGNORECASE)


def split_terms(q: str) -> list[str]:
    """The terms of a query: white space separates them, except inside double quotes (a phrase, or a
    quoted value such as ``re:"a b"``); an unclosed quote runs to the end.

    >>> split_terms('fn "the court" -"his own" re:"of the"')
    ['fn', '"the court"', '-"his own"', 're:"of the"']
    """
    return [m.group(0) for m in re.finditer(r'(?:[^\s"]*"[^"]*"?[^\s"]*)+|\S+', q)]


def _unquote(s: str) -> str:
    return s[1:-1] if len(s) >= 2 and s[0] == s[-1] == '"' else s.strip('"')


def parse_query(q: str) -> Query:
    """The :class:`Query` of a search string (:class:`QueryError` for a bad regular expression or
    an unknown ``in:``)."""
    terms: list[Term] = []
    where = "link"
    for word in split_terms(q):
        neg = word[:1] in ("-", "!") and len(word) > 1
        if neg:
            word = word[1:]
        if word.startswith('"'):
            phrase = _unquote(word)
            if phrase.strip():
                terms.append(Term(neg, "text", phrase.lower(), word_pattern(phrase)))
            continue
        field_, _, value = word.partition(":")
        key = field_.lower()
        value = _unquote(value)
        if key == "in" and value:
            if value.lower() not in WHERE:
                raise QueryError(f"in:{value}: search in {', '.join('in:' + w for w in WHERE)}")
            where = value.lower()
        elif key in ("re", "regex") and value:
            try:
                terms.append(Term(neg, "text", value, re.compile(value, re.IGNORECASE | re.MULTILINE)))
            except re.error as err:
                raise QueryError(f"bad regular expression {value!r}: {err}") from None
        elif value and FIELDS.get(key) == "outcome":
            terms.append(Term(neg, "outcome", ",".join(v.upper() for v in value.split(","))))
        elif value and key not in ("http", "https"):
            terms.append(Term(neg, FIELDS.get(key, field_), value.lower()))
        elif word.upper() in OUTCOMES:
            terms.append(Term(neg, "outcome", word.upper()))
        elif word.strip('"'):
            terms.append(Term(neg, "text", word.lower(), word_pattern(word)))
    return Query(tuple(terms), where)
