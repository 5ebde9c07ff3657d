"""LLM and seq2seq text with inline coreference markup, read onto the KEY's words.

Two formats, one document per line (line ``k`` is the key's document ``k``: the text has no
document ids, as text2text-coref's files have none):

* ``text2text`` — text2text-coref's markup (github.com/ondfa/text2text-coref, ``convert.py``
  ``convert_to_text``), the CRAC 2025/2026 LLM track's: words separated by spaces; a word may
  carry tags after one ``|``, comma-separated: ``[e1`` opens a mention of entity ``e1`` on this
  word, ``e1]`` closes one, ``[e1]`` is a one-word mention (``Los|[e1 jugadores de el
  Espanyol|[e2],e1]``). A word written ``##`` or ``##FORM`` is an empty node.
* ``brackets`` — Seq2seqCoref's inline mentions (github.com/WenzhengZhang/Seq2seqCoref,
  ``constants.py``): ``<m>`` opens a mention before the next word, ``| ID </m>`` closes the last
  one opened with entity ``ID`` (``<m> John | 1 </m> said <m> he | 1 </m> came``). Each id
  becomes ``e1``, ``e2`` … in the order first seen, and the document is read as that text2text
  markup.

The words are aligned to the key document's words by :func:`.wordalign.edit_script` (the
organisers' word-level edit distance), then, as text2text-coref's ``clean`` and ``text2conllu``
do, commit 56d67ec:

1. each key word takes the response word aligned to it: a *match* keeps its tags; a
   *substitution* keeps them under the ``lenient`` policy only (``organisers``: the key word
   alone, as the cleaner writes it); a key word the response lacks has no tags; a response word
   the key lacks is dropped with its tags; empty nodes stay where they are;
2. per key sentence, the tags are repaired (``_correct_tags``): a tag is ``[?e<digits>]?``
   (``organisers``; any other tag is dropped — counted and warned, where the cleaner drops it
   silently) or any ``[?ID]?`` (``lenient``); a closing tag without an opening one in its sentence
   becomes a one-word mention; an opening tag never closed in its sentence becomes a one-word
   mention under ``lenient`` (what the cleaner's docstring says) and is lost under
   ``organisers`` (what its code does: the repair's assertion compares with ``(e…`` and always
   fails, so the open tag stays and ``text2conllu`` never closes it);
3. mentions are read left to right as ``text2conllu`` reads them: ``[ID`` pushes its word,
   ``ID]`` pops the last one pushed for ``ID`` and makes the mention; empty nodes are not key
   words, so a mention starting or ending on one is moved to the key words it holds (one holding
   none, a zero mention, is dropped and counted).

The **alignment ceiling** (:func:`read_onto_key` ``ceiling``) is the key's own markup — every key
mention tagged as ``conllu2text`` writes it, entities numbered ``e1``… in chain order — put on the
response's words through the same edit script and read by the same steps: the score a response
would get whose markup were perfect, so that 100 minus it is what alignment costs and it minus the
score is what the model lost.

Diagnostics per document (:class:`Diagnostics`): words matched, substituted, inserted (key words
the response lacks), deleted (response words the key lacks), the truncated tail (the key words
after the response's last aligned word), tags dropped by alignment, tags with an id the policy
refuses, repaired orphan closes and unclosed opens, mentions crossing a sentence boundary (before
the repair), zero mentions dropped.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields

from ..errors import InputError
from ..model import Chain, Document, Mention
from .wordalign import DELETE, EMPTY, INSERT, MATCH, SUBSTITUTE, TooDifferent, edit_script, is_empty_node

POLICIES = ("organisers", "lenient")
"""How tags on a substituted word and unclosed tags are treated (see the module docstring)."""

from .formats import MARKUP as MARKUP_FORMATS  # noqa: E402

E_TAG = re.compile(r"(\[?)e(\d+)(]?)")
"""The cleaner's tag pattern (``re.match``: anchored at the start only)."""
ANY_TAG = re.compile(r"(\[?)([^\[\]]+)(]?)$")


@dataclass(slots=True)
class Diagnostics:
    """What reading one markup document onto its key cost (counts; see the module docstring)."""

    key_words: int = 0
    response_words: int = 0
    matched: int = 0
    substituted: int = 0
    inserted: int = 0
    deleted: int = 0
    empty_nodes: int = 0
    truncated_tail: int = 0
    tags: int = 0
    tags_dropped_by_alignment: int = 0
    tags_bad_id: int = 0
    repaired_orphan_close: int = 0
    repaired_unclosed: int = 0
    unclosed_dropped: int = 0
    crossing_sentences: int = 0
    zero_mentions_dropped: int = 0
    mentions: int = 0
    edits: list = field(default_factory=list)
    """The words that were not matched, in the key's order: ``(what, key word number, key word,
    response word number, response word)`` — what is ``substituted``, ``inserted`` (a key word the
    response lacks: response number -1) or ``deleted`` (a response word the key lacks: key number -1)."""

    def as_dict(self) -> dict[str, int]:
        return {k: v for k, v in asdict(self).items() if k != "edits"}

    def __add__(self, other: "Diagnostics") -> "Diagnostics":
        return Diagnostics(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))


@dataclass(slots=True)
class MarkupDocument:
    """One line of a markup file: its words as written (text2text form) and where it is."""

    source: str
    line: int
    words: list[str]
    bad_ids: list[str] = field(default_factory=list)


def read_markup(path: str, text: str, fmt: str) -> list[MarkupDocument]:
    """Every line of a markup file as a document (a final newline ends the last line; an empty
    line is an empty document, as text2text-coref reads it)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = []
    for ln, line in enumerate(lines, 1):
        line = line.strip()
        words = _brackets_words(path, ln, line) if fmt == "brackets" else line.split()
        out.append(MarkupDocument(path, ln, words))
    return out


def _brackets_words(path: str, ln: int, line: str) -> list[str]:
    """Seq2seqCoref's inline mentions (``<m> w … | ID </m>``) as text2text words."""
    toks = line.split()
    words: list[str] = []
    tags: list[list[str]] = []
    opens: list[int] = []
    ids: dict[str, str] = {}
    k = 0
    while k < len(toks):
        t = toks[k]
        if t == "<m>":
            opens.append(len(words))
            k += 1
        elif t == "|" and k + 2 < len(toks) + 1 and k + 2 <= len(toks) - 1 and toks[k + 2] == "</m>":
            if not opens or opens[-1] >= len(words):
                raise InputError(path, ln, f"'| {toks[k + 1]} </m>' closes no open mention (word {len(words)})")
            eid = ids.setdefault(toks[k + 1], f"e{len(ids) + 1}")
            start, end = opens.pop(), len(words) - 1
            if start == end:
                tags[start].append(f"[{eid}]")
            else:
                tags[start].append(f"[{eid}")
                tags[end].append(f"{eid}]")
            k += 3
        else:
            words.append(t)
            tags.append([])
            k += 1
    if opens:
        raise InputError(path, ln, f"{len(opens)} '<m>' never closed")
    return [w + ("|" + ",".join(sorted(t)) if t else "") for w, t in zip(words, tags)]


def key_markup(doc: Document) -> list[str]:
    """The key document's words with its mentions as text2text-coref's ``conllu2text
    --sequential_ids`` writes them: a discontinuous mention reduced to its head's part, a zero
    mention left out (:func:`.roundtrip.round_trip`)."""
    from .roundtrip import round_trip

    doc = round_trip(doc)
    tags: list[list[str]] = [[] for _ in doc.tokens]
    for k, chain in enumerate(doc.chains, 1):
        eid = f"e{k}"
        for m in chain.mentions:
            if m.start == m.end:
                tags[m.start].append(f"[{eid}]")
            else:
                tags[m.start].append(f"[{eid}")
                tags[m.end].append(f"{eid}]")
    return [_form(w) + ("|" + ",".join(sorted(t)) if t else "") for w, t in zip(doc.tokens, tags)]


def _form(word: str) -> str:
    return word.replace(" ", "_")


def read_onto_key(markup: MarkupDocument, key: Document, policy: str = "organisers",
                  ceiling: bool = True) -> tuple[Document, Document | None, Diagnostics, list[str]]:
    """The response document ``markup`` read onto the words of ``key`` under ``policy``; the
    alignment ceiling's document (``ceiling``); the diagnostics; warnings (bad ids)."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}")
    diag = Diagnostics(key_words=len(key.tokens), response_words=len(markup.words))
    key_words = [_form(w) for w in key.tokens]
    stripped = [w.split("|")[0] for w in markup.words]
    try:
        steps = edit_script(stripped, key_words)
    except TooDifferent as e:
        raise InputError(markup.source, markup.line, f"document {key.doc_id!r}: {e}") from None
    lenient = policy == "lenient"
    for s in steps:
        if s.op == MATCH:
            diag.matched += 1
        elif s.op == SUBSTITUTE:
            diag.substituted += 1
            diag.edits.append(("substituted", s.j, key.tokens[s.j], s.i, stripped[s.i]))
        elif s.op == INSERT:
            diag.inserted += 1
            diag.edits.append(("inserted", s.j, key.tokens[s.j], -1, ""))
        elif s.op == DELETE:
            diag.deleted += 1
            diag.edits.append(("deleted", -1, "", s.i, stripped[s.i]))
        else:
            diag.empty_nodes += 1
    tail = 0
    for s in reversed(steps):
        if s.op == INSERT:
            tail += 1
        elif s.op != DELETE:
            break
    diag.truncated_tail = tail if tail < len(steps) else 0
    diag.tags = sum(len(_tags(w)) for w in markup.words)
    aligned = _through(steps, markup.words, key_words, lenient, diag)
    warnings: list[str] = []
    # crossing mentions: the response's own tags (none dropped) on the key's sentences
    diag.crossing_sentences = _crossing(_through(steps, markup.words, key_words, True, Diagnostics()),
                                        _sentence_of(key))
    doc = _read(aligned, key, markup, policy, diag, warnings)
    ceiling_doc = None
    if ceiling:
        km = key_markup(key)
        spare = Diagnostics()
        ceiling_doc = _read(_through(steps, _carried(steps, km), key_words, lenient, spare), key, markup, policy,
                            spare, [])
    return doc, ceiling_doc, diag, warnings


def _tags(word: str) -> list[str]:
    parts = word.split("|")
    return parts[1].split(",") if len(parts) == 2 and parts[1] else ([] if len(parts) == 1 else ["|".join(parts[1:])])


def _carried(steps: list, key_marked: list[str]) -> list[str]:
    """The response's words carrying the key's tags: each response word aligned to a key word (a
    match or a substitution) takes that key word's tags; the others none."""
    words: list[str] = []
    n = 1 + max((s.i for s in steps), default=-1)
    words = [""] * n
    for s in steps:
        if s.i < 0:
            continue
        if s.j >= 0:
            tagged = key_marked[s.j]
            words[s.i] = tagged if s.op == MATCH else tagged.replace(tagged.split("|")[0], "\x00", 1)
        else:
            words[s.i] = "##" if s.op == EMPTY else "\x01"
    return words


def _through(steps: list, words: list[str], key_words: list[str], lenient: bool,
             diag: Diagnostics) -> list[tuple[str, int]]:
    """The words the cleaner's alignment writes, each with its key word (``-1``: an empty node)."""
    out: list[tuple[str, int]] = []
    for s in steps:
        if s.op == MATCH:
            out.append((_retag(key_words[s.j], words[s.i]), s.j))
        elif s.op == SUBSTITUTE:
            tags = _tags(words[s.i])
            if lenient and tags:
                out.append((key_words[s.j] + "|" + ",".join(tags), s.j))
            else:
                diag.tags_dropped_by_alignment += len(tags)
                out.append((key_words[s.j], s.j))
        elif s.op == INSERT:
            out.append((key_words[s.j], s.j))
        elif s.op == DELETE:
            diag.tags_dropped_by_alignment += len(_tags(words[s.i]))
        else:
            out.append((words[s.i], -1))
    return out


def _retag(key_word: str, word: str) -> str:
    """``word`` (whose form equals the key word's, or a stand-in of the ceiling) as written."""
    if word.startswith(("\x00", "\x01")):
        return key_word + word[1:]
    return word


def _read(aligned: list[tuple[str, int]], key: Document, markup: MarkupDocument, policy: str,
          diag: Diagnostics, warnings: list[str]) -> Document:
    """Repair the tags per key sentence and read the mentions, as ``clean`` and ``text2conllu`` do."""
    starts = key.sentence_starts or [0]
    bounds = list(starts[1:]) + [len(key.tokens)]
    # per sentence: a run of key words with the empty nodes among them (the cleaner's split)
    cleaned: list[str] = []
    at = 0
    bad: list[str] = []
    for a, b in zip(starts, bounds):
        chunk: list[str] = []
        need = b - a
        while need and at < len(aligned):
            w, j = aligned[at]
            chunk.append(w)
            at += 1
            if j >= 0:
                need -= 1
        cleaned.extend(_correct_tags(chunk, policy, diag, bad))
    cleaned.extend(w for w, _ in aligned[at:])
    positions = [j for _, j in aligned]
    if bad:
        shown = ", ".join(repr(x) for x in list(dict.fromkeys(bad))[:3])
        if policy == "lenient":
            warnings.append(f"{markup.source}:{markup.line}: {len(bad)} tag(s) whose entity id is not e<digits> kept "
                            f"(the organisers' cleaner drops them), e.g. {shown}")
        else:
            warnings.append(f"{markup.source}:{markup.line}: {len(bad)} tag(s) whose entity id is not e<digits> "
                            f"dropped (the organisers' cleaner drops them silently), e.g. {shown}; --markup-policy "
                            "lenient keeps them")
    return _document(cleaned, positions, key, markup, policy, diag)


def _sentence_of(key: Document) -> list[int]:
    """The sentence of each key token."""
    starts = key.sentence_starts or [0]
    out = [0] * len(key.tokens)
    for k, (a, b) in enumerate(zip(starts, list(starts[1:]) + [len(key.tokens)])):
        out[a:b] = [k] * (b - a)
    return out


def _crossing(aligned: list[tuple[str, int]], sentence_of: list[int]) -> int:
    """Mentions whose opening and closing tags (paired per id, last opened first) are in
    different key sentences."""
    stacks: dict[str, list[int]] = {}
    last = 0
    n = 0
    for w, j in aligned:
        s = sentence_of[j] if j >= 0 else last
        last = s
        for tag in _tags(w):
            eid = tag.strip("[]")
            if tag.startswith("[") and not tag.endswith("]"):
                stacks.setdefault(eid, []).append(s)
            elif tag.endswith("]") and not tag.startswith("[") and stacks.get(eid):
                if stacks[eid].pop() != s:
                    n += 1
    return n


def _correct_tags(words: list[str], policy: str, diag: Diagnostics, bad: list[str]) -> list[str]:
    """text2text-coref's ``_correct_tags`` on one sentence (see the module docstring, step 2)."""
    lenient = policy == "lenient"
    stacks: dict[str, list[tuple[int, int]]] = {}
    out: list[str] = []
    for k, word in enumerate(words):
        splits = word.split("|")
        if len(splits) == 1:
            out.append(word)
            continue
        if len(splits) > 2:  # multiple pipes: tags stripped
            diag.tags_bad_id += 1
            bad.append(word)
            out.append(splits[0])
            continue
        clean: list[str] = []
        for tag in splits[1].split(","):
            if lenient:
                m = ANY_TAG.match(tag)
                left, eid, right = m.groups() if m else ("", "", "")
                if eid and not E_TAG.fullmatch(tag):
                    bad.append(tag)
            else:
                m = E_TAG.match(tag)
                left, eid, right = m.groups() if m else ("", "", "")
                eid = "e" + eid if m else ""
            if not (left or right):
                if tag:
                    diag.tags_bad_id += 1
                    if not lenient:
                        bad.append(tag)
                continue
            text = f"{left}{eid}{right}"
            if left and right:
                clean.append(text)
            elif left:
                stacks.setdefault(eid, []).append((k, len(clean)))
                clean.append(text)
            else:
                stack = stacks.get(eid)
                if stack:
                    stack.pop()
                    clean.append(text)
                else:
                    diag.repaired_orphan_close += 1
                    clean.append("[" + text)
        out.append(f"{splits[0]}|{','.join(clean)}" if clean else splits[0])
    for stack in stacks.values():
        for k, t in stack:
            if lenient:  # the cleaner's docstring: an unclosed entity becomes a one-word entity
                form, tags = out[k].split("|")
                parts = tags.split(",")
                parts[t] += "]"
                out[k] = f"{form}|{','.join(parts)}"
                diag.repaired_unclosed += 1
            else:  # its assertion compares with '(e…' and fails: the open tag stays, never closed
                diag.unclosed_dropped += 1
    return out


def _document(cleaned: list[str], positions: list[int], key: Document, markup: MarkupDocument, policy: str,
              diag: Diagnostics) -> Document:
    """The mentions of the cleaned words as ``text2conllu`` reads them, on the key's tokens."""
    doc = Document(doc_id=key.doc_id, tokens=key.tokens, sentence_starts=key.sentence_starts,
                   columns=key.columns, source=markup.source, line=markup.line)
    chains: dict[str, Chain] = {}
    opened: dict[str, list[int]] = {}
    seen: set[tuple[str, int, int]] = set()
    for i, word in enumerate(cleaned):
        if "|" not in word:
            continue
        tags = word.split("|")[1]
        for tag in (tags.replace("-", ",") if policy == "organisers" else tags).split(","):
            eid = tag.replace("[", "").replace("]", "")
            if not eid:
                continue
            if tag.startswith("["):
                opened.setdefault(eid, []).append(i)
            if tag.endswith("]"):
                if not opened.get(eid):
                    continue
                first = opened[eid].pop()
                real = [positions[x] for x in range(first, i + 1) if positions[x] >= 0]
                if not real:
                    diag.zero_mentions_dropped += 1
                    continue
                start, end = real[0], real[-1]
                if (eid, start, end) in seen:
                    continue
                seen.add((eid, start, end))
                chain = chains.setdefault(eid, Chain(eid))
                chain.mentions.append(Mention(start, end, eid, markup.line))
    doc.chains = [c for c in chains.values() if c.mentions]
    diag.mentions += sum(len(c.mentions) for c in doc.chains)
    return doc
