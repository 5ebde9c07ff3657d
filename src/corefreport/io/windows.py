"""A response produced on windows, put back onto full key documents (``--response-windows``).

BookCoref's ``split`` configuration (Martinelli et al. 2025) gives a system one document per window
of a book (``pride_and_prejudice_1342_split1500_S0``, ``…_S44``, …: whole sentences, 1,500 words or a
little more each) and systems are run on those. To score such a response against the full books,
its window documents are put back where their words are:

* the response's documents are taken **in order**; each continues the key document the previous
  one was put onto, when its words are that document's next words; otherwise it starts the key
  document (in key order, one whose id begins its id first) whose first words are its words;
* a window's mentions move by the number of words before it, its chains stay its own (a chain of
  one window and a chain of the next are two chains: a system run on windows links nothing across
  them), labelled ``wK:LABEL`` (``K``: the window's place in the document, from 0);
* the words must be the key's, word for word: a window that neither continues a key document nor
  starts one is an :class:`~corefreport.errors.InputError` naming the window, its first word that
  differs and the key's word there; so is a key document whose windows stop before its end;
* the sentences and words are the key document's; a per-word column is kept when every window of
  the document has it.

A key document none of whose words a window covers is missing from the response, as any document
a response lacks.

>>> from corefreport.model import Chain, Corpus, Document, Mention
>>> key = Corpus({"b": Document("b", tokens=list("abcdef"), sentence_starts=[0, 3])})
>>> w0 = Document("b_S0", tokens=list("abc"), chains=[Chain("0", [Mention(0, 0), Mention(2, 2)])])
>>> w1 = Document("b_S1", tokens=list("def"), chains=[Chain("0", [Mention(1, 2)])])
>>> book = join_windows(key, Corpus({"b_S0": w0, "b_S1": w1})).documents["b"]
>>> [(c.label, [m.span for m in c.mentions]) for c in book.chains], book.sentence_starts
([('w0:0', [(0, 0), (2, 2)]), ('w1:0', [(4, 5)])], [0, 3])
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InputError
from ..model import Chain, Corpus, Document, Mention


@dataclass(slots=True)
class _Book:
    """A key document being covered: the words covered so far and what its windows brought."""

    key: Document
    covered: int = 0
    windows: list[tuple[Document, int]] = field(default_factory=list)
    """Each window with the word it starts at."""

    @property
    def done(self) -> bool:
        return self.covered >= len(self.key.tokens)

    def continues(self, w: Document) -> bool:
        n = len(w.tokens)
        return n > 0 and self.key.tokens[self.covered:self.covered + n] == w.tokens


def _differs(words: list[str], key: list[str], at: int) -> int:
    """The first position where ``words`` differ from ``key`` from word ``at`` (``len(words)`` if none)."""
    for i, w in enumerate(words):
        if at + i >= len(key) or key[at + i] != w:
            return i
    return len(words)


def _misaligned(w: Document, book: _Book | None, books: list[_Book]) -> InputError:
    """The error of a window that neither continues ``book`` nor starts a key document."""
    if book is not None and not book.done:
        i = _differs(w.tokens, book.key.tokens, book.covered)
        at = book.covered + i
        there = (f"the key's word {at + 1} is {book.key.tokens[at]!r}" if at < len(book.key.tokens)
                 else f"the key document has {len(book.key.tokens)} words")
        got = repr(w.tokens[i]) if i < len(w.tokens) else "(none)"
        return InputError(w.source, w.line or None, f"window {w.doc_id!r} does not continue key document "
                          f"{book.key.doc_id!r} after its word {book.covered}: its word {i + 1} is {got}, {there} "
                          "(--response-windows puts the response's documents back in order, word for word)")
    first = " ".join(w.tokens[:6]) + (" …" if len(w.tokens) > 6 else "")
    starts = [b for b in books if b.covered == 0]
    best = max(starts, key=lambda b: _differs(w.tokens, b.key.tokens, 0), default=None)
    if best is not None and w.tokens:
        i = _differs(w.tokens, best.key.tokens, 0)
        if i:
            there = repr(best.key.tokens[i]) if i < len(best.key.tokens) else "(the end)"
            return InputError(w.source, w.line or None, f"window {w.doc_id!r} starts like key document "
                              f"{best.key.doc_id!r} but its word {i + 1} is {w.tokens[i]!r} where the key has {there}")
    return InputError(w.source, w.line or None, f"window {w.doc_id!r} ({first!r}) starts no key document that is "
                      "not yet covered and continues none: its words are not the key's (--response-windows)")


def _start(w: Document, books: list[_Book]) -> _Book | None:
    """The key document ``w`` starts: not yet covered, whose first words are ``w``'s; one whose id
    begins ``w``'s id first."""
    found = [b for b in books if b.covered == 0 and b.continues(w)]
    named = [b for b in found if w.doc_id.startswith(b.key.doc_id)]
    return (named or found or [None])[0]


def join_windows(key: Corpus, response: Corpus) -> Corpus:
    """``response``'s window documents put back onto the key documents whose words they cover (see
    the module docstring): a corpus of one document per covered key document."""
    books = [_Book(d) for d in key]
    book: _Book | None = None
    for w in response:
        if book is not None and not book.done and book.continues(w):
            pass
        else:
            if book is not None and not book.done:
                raise _misaligned(w, book, books)
            book = _start(w, books)
            if book is None:
                raise _misaligned(w, None, books)
        book.windows.append((w, book.covered))
        book.covered += len(w.tokens)
    out = Corpus(source=response.source, format=response.format, warnings=list(response.warnings))
    for b in books:
        if not b.windows:
            continue
        if not b.done:
            last = b.windows[-1][0]
            raise InputError(last.source, last.line or None, f"the response's windows of key document "
                             f"{b.key.doc_id!r} stop at its word {b.covered} of {len(b.key.tokens)} (after window "
                             f"{last.doc_id!r}): a window is missing")
        out.documents[b.key.doc_id] = _joined(b)
    n = sum(len(b.windows) for b in books)
    out.warnings.append(f"{response.source}: {n} window document(s) put back onto {len(out.documents)} key "
                        "document(s) (--response-windows)")
    return out


def _moved(m: Mention, by: int, label: str) -> Mention:
    return Mention(m.start + by, m.end + by, label, m.line, dict(m.features),
                   tuple(x + by for x in m.words) if m.words is not None else None)


def _joined(b: _Book) -> Document:
    """One key document's windows as one response document on the key's words and sentences."""
    first = b.windows[0][0]
    doc = Document(b.key.doc_id, tokens=list(b.key.tokens), sentence_starts=list(b.key.sentence_starts),
                   source=first.source, line=first.line, meta=dict(first.meta))
    for k, (w, at) in enumerate(b.windows):
        for c in w.chains:
            label = f"w{k}:{c.label}"
            doc.chains.append(Chain(label, [_moved(m, at, label) for m in c.mentions]))
    names = set.intersection(*(set(w.columns) for w, _ in b.windows))
    for name in sorted(names):
        doc.columns[name] = [v for w, _ in b.windows for v in w.columns[name]]
    return doc


__all__ = ["join_windows"]
