r"""Text that came from an input file or a name made inert before a terminal, a LaTeX file or an
HTML page shows it: the one rule every view applies (``score``, ``compare``, warnings and errors,
the browser, the report).

The rule: a character that a terminal or a text renderer *acts on* instead of showing —

* C0 controls U+0000–U+001F (ESC starts every escape sequence: clear the screen, OSC 52 writes the
  clipboard; BEL ends an OSC; newline and carriage return rewrite lines), DEL U+007F and the C1
  controls U+0080–U+009F (U+009B is an 8-bit CSI, U+009D an 8-bit OSC);
* the bidirectional embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, which
  reorder the text after them on screen ("Trojan Source", CVE-2021-42574);
* the line and paragraph separators U+2028, U+2029 (a line break to many renderers)

— is written as its visible escape, ``\x1b``, ``\x9b``, ``\u202e`` (``\t``, ``\n``, ``\r`` for the
three that Python's ``repr`` spells so). Every other character, letters of any script, the marks
LRM/RLM, ZWJ and ZWNJ, stays as it is. A backslash is not doubled: an id written ``\x1b`` and one
holding ESC look alike, which costs nothing but keeps ids with backslashes (LaTeX-like names)
readable. The escaped text is printable, so it is measured, padded and cut like any other.

Where it is applied: the neutral table's cells are made inert where a terminal view draws them
(:func:`corefreport.present.scoreview.print_evaluation`, :mod:`.terminal`), the CLI's error and
warning lines, the browser's cells and panes (``corefreport.tui``), LaTeX text
(:func:`corefreport.present.latex.latex_escape`) and ``%`` comments (:func:`latex_comment`), the
report's HTML (every ``{{ … }}`` of its templates, ``keep="\n\t"``), and Markdown
(:func:`corefreport.present.render.md_escape`). JSON keeps the data: :func:`json_inert` writes the
same characters as JSON escapes (``\u001b`` is already one; DEL, C1 and bidi controls become one),
so that a parser reads the exact id back. CSV keeps the exact characters in a file or a pipe and is
made inert only when it is written to a terminal (``corefreport.cli.output.write_output``).

>>> inert("\x1b[2J\x1b]52;c;ZXZpbA==\x07 done")
'\\x1b[2J\\x1b]52;c;ZXZpbA==\\x07 done'
>>> inert("abc\u202egnp.exe"), inert("line\nbreak\ttab"), inert("Ünïcödé 日本語 ok")
('abc\\u202egnp.exe', 'line\\nbreak\\ttab', 'Ünïcödé 日本語 ok')
>>> inert("a\nb\x1b", keep="\n")
'a\nb\\x1b'
"""

from __future__ import annotations

import re

UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""The characters :func:`inert` escapes (see the module docstring)."""

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def visible(ch: str) -> str:
    r"""The visible escape of one character: ``\t \n \r``, ``\xHH`` below U+0100, else ``\uHHHH``."""
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _visible(match: re.Match) -> str:
    return visible(match.group())


def inert(text: str, keep: str = "") -> str:
    """``text`` with every character of :data:`UNSAFE` (but those in ``keep``, such as ``"\\n"``
    for a text of several lines) replaced by its visible escape (:func:`visible`)."""
    if text.isprintable():  # the usual case, at C speed: every unsafe character is non-printable
        return text
    if keep:
        return UNSAFE.sub(lambda m: m.group() if m.group() in keep else visible(m.group()), text)
    return UNSAFE.sub(_visible, text)


def is_inert(text: str, keep: str = "") -> bool:
    """Whether ``text`` holds no character :func:`inert` would escape (but those in ``keep``)."""
    return text.isprintable() or all(ch in keep for ch in UNSAFE.findall(text))


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_inert(text: str) -> str:
    r"""JSON text (``json.dumps(…, ensure_ascii=False)``, which already escapes U+0000–U+001F) with
    DEL, the C1 controls, the line separators and the bidi controls written as ``\uXXXX`` too: the
    same JSON value, safe on a terminal. These characters can occur only inside JSON strings, where
    ``\uXXXX`` is the character itself to any parser.

    >>> import json
    >>> s = json_inert(json.dumps({"id": "a\x9b2J\u202e\x1b"}, ensure_ascii=False))
    >>> s, json.loads(s)["id"] == "a\x9b2J\u202e\x1b"
    ('{"id": "a\\u009b2J\\u202e\\u001b"}', True)
    """
    if text.isprintable():
        return text
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def inert_styled(text, keep: str = ""):
    """A Rich :class:`~rich.text.Text` with its characters made inert (:func:`inert`, but those in
    ``keep``), its styles kept on the same characters (a span over an escaped character covers its
    escape). The same object when nothing needs escaping; Rich itself is not imported here."""
    plain = text.plain
    if is_inert(plain, keep):
        return text
    where = [0] * (len(plain) + 1)  # old offset -> new offset
    pieces = []
    at = 0
    for i, ch in enumerate(plain):
        where[i] = at
        piece = visible(ch) if ch not in keep and UNSAFE.match(ch) else ch
        pieces.append(piece)
        at += len(piece)
    where[len(plain)] = at
    out = text.blank_copy("".join(pieces))
    out.spans = [s._replace(start=where[s.start], end=where[s.end]) for s in text.spans]
    return out


def terminal_text(text: str) -> str:
    r"""A text of several lines (CSV, JSON lines) as written to a terminal: its line breaks kept
    (``\r\n`` as ``\n``), every other character of :data:`UNSAFE` escaped.

    >>> terminal_text('a,"b\x1b[2J"\r\nc\r\n')
    'a,"b\\x1b[2J"\nc\n'
    """
    return inert(text.replace("\r\n", "\n"), keep="\n")


def latex_comment(text: str) -> str:
    r"""A ``%`` comment line holding ``text``: a newline (or any control character) in it would end
    the comment and let the rest be typeset, so each is written as its visible escape (:func:`inert`).

    >>> latex_comment("My run\n\\input{/etc/passwd}")
    '% My run\\n\\input{/etc/passwd}'
    """
    return f"% {inert(str(text))}"
