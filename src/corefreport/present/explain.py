"""One sentence per error: why a Kummerfeld & Klein (2013) error got its class.

A pure function of the error row (:class:`~corefreport.scoring.errorclasses.ErrorRow`): its class,
its mentions and their words, and the entities it involves (:class:`EntityRef`: label, name =
the words of the earliest non-pronoun mention, mentions). One template per class, following the
paper's definitions (EMNLP 2013, §3): a *split* of a response entity across key entities is
Conflated Entities, a *merge* of pieces of one key entity is Divided Entity, and so on.
Entities are written ``E<label>`` (key) and ``R<label>`` (response) when their labels are numbers;
sentences are numbered from 1.

>>> from corefreport.scoring.errorclasses import ErrorRow, EntityRef
>>> court = EntityRef("key", "12", "the court", ((3, 4),), ("the court",))
>>> jury = EntityRef("key", "40", "the jury", ((9, 10), (20, 20)), ("the jury", "it"))
>>> both = EntityRef("response", "7", "the court", ((3, 4), (20, 20)), ("the court", "it"))
>>> explain(ErrorRow("Conflated Entities", "d", 4, ((20, 20),), 2, ("PRONOUN",), texts=("it",),
...                  key_entity=jury, response_entity=both, other_entity=court))
"the response merges key entities E12 'the court' and E40 'the jury' at mention 'it' in sentence 5 (response entity R7)"
"""

from __future__ import annotations

from typing import Sequence

from ..scoring.errorclasses import LEFTOVER, EntityRef, ErrorRow

MAX_WORDS = 48
"""Longest quoted mention (characters) before it is cut with an ellipsis."""


def quote(text: str) -> str:
    """A mention's words in single quotes, cut after :data:`MAX_WORDS` characters."""
    text = text if len(text) <= MAX_WORDS else text[: MAX_WORDS - 1].rstrip() + "…"
    return f"'{text}'"


def entity_name(ref: EntityRef) -> str:
    """``E12`` / ``R7`` for numeric labels, else the label as written."""
    prefix = "E" if ref.side == "key" else "R"
    return f"{prefix}{ref.label}" if ref.label[:1].isdigit() else ref.label


def entity(ref: EntityRef) -> str:
    """An entity with its name: ``E12 'the court'``."""
    return f"{entity_name(ref)} {quote(ref.name)}" if ref.name else entity_name(ref)


def quoted_list(texts: Sequence[str], most: int = 3) -> str:
    """Up to ``most`` quoted mentions, then "and N more"."""
    shown = ", ".join(quote(t) for t in texts[:most])
    return shown + (f" and {len(texts) - most} more" if len(texts) > most else "")


def _mentions(row: ErrorRow) -> str:
    word = "mention" if len(row.mentions) == 1 else "mentions"
    texts = row.texts or tuple(f"{m[0]}–{m[1]}" for m in row.mentions)
    return f"{word} {quoted_list(texts)}"


def _where(row: ErrorRow) -> str:
    return f"in sentence {row.sentence + 1}"


def _span_error(row: ErrorRow) -> str:
    said, key = (row.texts or ("", ""))[:2] if len(row.texts) >= 2 else ("", "")
    said = quote(said) if said else "{}–{}".format(*row.mentions[0][:2])
    keys = quote(key) if key else "{}–{}".format(*row.mentions[1][:2])
    k = row.key_entity
    of = f" of key entity {entity(k)}" if k is not None and len(k.mentions) > 1 and k.name != key else (
        f" (key entity {entity_name(k)})" if k is not None and len(k.mentions) > 1 else "")
    if row.detail == "head":
        head = key.split()[-1] if key else ""
        why = (f"they are the only unmatched response and key mentions there with the head word {quote(head)}"
               if head else "they are the only unmatched mentions there with the same head word")
    else:
        why = "they differ only by a leading 'the', a trailing 's or punctuation"
    return f"the response marks {said} where the key has {keys}{of} {_where(row)}: {why}"


def _conflated(row: ErrorRow) -> str:
    r = row.response_entity
    if row.other_entity is not None and row.key_entity is not None:
        inside = f" (response entity {entity_name(r)})" if r is not None else ""
        return (f"the response merges key entities {entity(row.other_entity)} and {entity(row.key_entity)} at "
                f"{_mentions(row)} {_where(row)}{inside}")
    whose = f" of key entity {entity(row.key_entity)}" if row.key_entity is not None else ""
    who = f"the response entity {entity(r)}" if r is not None else "the response"
    return f"{who} joins {_mentions(row)}{whose} {_where(row)} to mentions the key does not have"


def _extra_mention(row: ErrorRow) -> str:
    into = f" to its entity {entity(row.response_entity)}" if row.response_entity is not None else ""
    return f"the response adds {quoted_list(row.texts or ('?',))} {_where(row)}, which is not a key mention,{into}"


def _extra_entity(row: ErrorRow) -> str:
    r = entity(row.response_entity) if row.response_entity is not None else "entity"
    return (f"the response entity {r} is no key entity: its {_mentions(row)} from sentence {row.sentence + 1} are not "
            "in the key, and it has no key non-pronoun mention")


def _divided(row: ErrorRow) -> str:
    k = entity(row.key_entity) if row.key_entity is not None else "a key entity"
    inside = f" (response entity {entity_name(row.response_entity)})" if row.response_entity is not None else ""
    verb = "stays" if len(row.mentions) == 1 else "stay"
    if row.other_entity is not None:
        apart = f"apart from {quote(row.other_entity.name)} in response entity {entity_name(row.other_entity)}"
    elif row.key_entity is not None:
        apart = f"apart from its mention {quote(row.key_entity.name)}, which no response entity holds"
    else:
        apart = "apart from the rest of the entity"
    return f"the response divides key entity {k}: {_mentions(row)} {_where(row)}{inside} {verb} {apart}"


def _missing_mention(row: ErrorRow) -> str:
    of = f" of key entity {entity(row.key_entity)}" if row.key_entity is not None else ""
    return f"the response misses key {_mentions(row)} {_where(row)}{of}"


def _missing_entity(row: ErrorRow) -> str:
    k = entity(row.key_entity) if row.key_entity is not None else "a key entity"
    n = len(row.mentions)
    out = f"the response misses key entity {k} ({n} mentions, from sentence {row.sentence + 1})"
    r = row.response_entity
    if r is not None:
        found = [t for m, t in zip(row.mentions, row.texts) if m in set(r.mentions)]
        if found:
            out += (f": of its mentions it has only the pronoun{'s' if len(found) > 1 else ''} "
                    f"{quoted_list(found)}, in its entity {entity_name(r)}")
    return out


def _leftover(row: ErrorRow) -> str:
    if row.detail == "extra":
        r = row.response_entity
        into = f" (response entity {entity(r)})" if r is not None else ""
        return (f"the response's mention {quoted_list(row.texts or ('?',))} {_where(row)}{into} is not a key mention, yet no "
                "class removes it: the analyser counts no error for the piece holding its entity's earliest "
                "non-pronoun mention")
    k = row.key_entity
    if k is not None and len(k.mentions) == 1:
        return (f"the key singleton {quoted_list(row.texts or ('?',))} {_where(row)} ({entity_name(k)}) is missing from "
                "the response, and no class introduces a missing singleton")
    of = f" of key entity {entity(k)}" if k is not None else ""
    return f"the key mention {quoted_list(row.texts or ('?',))} {_where(row)}{of} is still missing after every correction"


TEMPLATES = {"Span Error": _span_error, "Conflated Entities": _conflated, "Extra Mention": _extra_mention,
             "Extra Entity": _extra_entity, "Divided Entity": _divided, "Missing Mention": _missing_mention,
             "Missing Entity": _missing_entity, LEFTOVER: _leftover}
"""One sentence template per class."""


def explain(row: ErrorRow) -> str:
    """Why ``row`` got its class, in one sentence (no final full stop)."""
    return TEMPLATES[row.cls](row)


def with_explanations(data: dict, rows: Sequence[ErrorRow], leftovers: Sequence[ErrorRow] = ()) -> dict:
    """The ``errors`` JSON object (:meth:`ErrorsResult.as_dict`) with an ``explanation`` per row
    (and per leftover)."""
    for key, items in (("rows", rows), ("leftovers", leftovers)):
        for d, row in zip(data.get(key, []), items):
            d["explanation"] = explain(row)
    return data


MARK = ("«", "»")
"""How :func:`in_context` marks the error's mentions in plain text."""


def in_context(ev, row: ErrorRow, window: int = 12) -> str:
    """The sentence of the error's first mention (``window`` words around the error's mentions in
    it), each of the error's mentions in that sentence marked «like this»; "" without the text."""
    first_m = row.mentions[-1] if row.cls == "Span Error" else row.mentions[0]
    first, last, words = ev.sentence_text(row.doc_id, first_m[0], "key")
    if not words:
        return ""
    spans = [m for m in (row.mentions[-1:] if row.cls == "Span Error" else row.mentions)
             if first <= m[0] and m[1] <= last]
    lo = max(first, min(m[0] for m in spans) - window)
    hi = min(last, max(m[1] for m in spans) + window)
    opens = {m[0] for m in spans}
    closes = [m[1] for m in spans]
    out = ["…"] if lo > first else []
    for t in range(lo, hi + 1):
        w = words[t - first]
        w = MARK[0] * sum(1 for m in spans if m[0] == t) + w if t in opens else w
        out.append(w + MARK[1] * closes.count(t))
    if hi < last:
        out.append("…")
    return " ".join(out)
