"""Annotation schemes for the type-aware evaluation: which classes and type codes exist, what they
are called, which classes a system attempts, and how a referent's type is read from the data.

A scheme is a TOML file::

    name = "lcc"
    description = "…"
    n = 5                                  # classes of the scheme (scheme coverage divides by n)
    attempted = ["p", "g", "d"]            # optional; default: classes seen in key or response
    source = "feature:type"                # where a referent's type code comes from (see below)
    class_of = "first-letter"              # class = first letter of the type | "before-slash" | "same"

    [classes]
    p = "pronominal"
    g = "generic nominal"

    [types]                                # optional human-readable type names
    ppas = "personal pronoun, …"

``source``: ``feature:NAME`` (a mention feature, e.g. ``feature:link_type`` from GUM, ``feature:col13``
for an extra CoNLL-2012 column, ``feature:type`` from JSON lines), ``gum`` (link type + "/" +
entity type), or ``derived`` (computed from mention features, for corpora without types: class =
NAME / NOMINAL / PRONOUN, type = class + "/" + a subtype of the referent itself — name form,
determiner kind, pronoun kind).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from ..errors import InputError
from ..model import Document, Mention

PRONOUN_KIND = {
    **dict.fromkeys("i me you he him she her it we us they them one".split(), "personal"),
    **dict.fromkeys("my mine your yours his hers its our ours their theirs".split(), "possessive"),
    **dict.fromkeys("myself yourself himself herself itself ourselves yourselves themselves oneself".split(),
                    "reflexive"),
    **dict.fromkeys("this that these those".split(), "demonstrative"),
    **dict.fromkeys("who whom whose which what".split(), "relative"),
}


@dataclass(slots=True)
class Scheme:
    name: str
    classes: dict[str, str]
    n: int
    source: str = "derived"
    class_of_rule: str = "first-letter"
    attempted: list[str] | None = None
    types: dict[str, str] = field(default_factory=dict)
    description: str = ""

    def class_of(self, code: str) -> str:
        if self.class_of_rule == "first-letter":
            return code[:1]
        if self.class_of_rule == "before-slash":
            return code.split("/", 1)[0]
        return code

    def type_of(self, doc: Document, m: Mention) -> str:
        """The referent's type code under this scheme."""
        f = m.features
        if self.source == "derived":
            return derived_type(doc, m)
        if self.source == "gum":
            return f"{f.get('link_type', '-')}/{f.get('etype', '-')}"
        if self.source.startswith("feature:"):
            return f.get(self.source.split(":", 1)[1], "-") or "-"
        raise ValueError(f"unknown type source {self.source!r}")

    def class_name(self, cls: str) -> str:
        return self.classes.get(cls, cls)


def derived_type(doc: Document, m: Mention) -> str:
    """Class/subtype of a referent from its own features (never from its antecedent, so that both
    sides derive the same type and a type error means a mention-typing difference only)."""
    mtype = m.features.get("mtype", "NOMINAL")
    words = doc.tokens[m.start : m.end + 1]
    first = words[0].lower() if words else ""
    if mtype == "PRONOUN":
        return f"PRONOUN/{PRONOUN_KIND.get(first, 'other')}"
    if mtype == "NAME":
        return "NAME/multi-word" if len(words) > 1 else "NAME/one-word"
    if first in ("the",):
        return "NOMINAL/definite"
    if first in ("a", "an", "some", "any"):
        return "NOMINAL/indefinite"
    if first in ("this", "that", "these", "those"):
        return "NOMINAL/demonstrative"
    if first in PRONOUN_KIND and PRONOUN_KIND[first] == "possessive" or first.endswith("'s"):
        return "NOMINAL/possessive"
    return "NOMINAL/bare"


SHIPPED = ("lcc", "derived", "gum")
"""The schemes bundled in ``corefreport/schemes``; ``--scheme NAME`` always means one of these."""

CLASS_RULES = ("first-letter", "before-slash", "same")


def _is_path(spec: str) -> bool:
    """True when ``--scheme`` was given explicitly as a file: it holds a path separator or ends in
    ``.toml``. Only then is the file system consulted first, so that a folder or file in the working
    directory named like a shipped scheme (``gum/``, ``derived``) never hides that scheme."""
    seps = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    return spec.endswith(".toml") or any(sep in spec for sep in seps)


def _scheme_text(spec: str) -> tuple[str, str, str]:
    """The TOML text of a scheme, where it came from (for error messages) and its default name."""
    if spec in SHIPPED and not _is_path(spec):
        res = resources.files("corefreport") / "schemes" / f"{spec}.toml"
        return res.read_text(encoding="utf-8"), f"{spec}.toml", spec
    path = Path(spec)
    if not _is_path(spec) and not path.is_file():
        raise InputError(spec, None, "no such scheme file, and not a shipped scheme (lcc, derived, gum)")
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(spec, None, f"cannot read scheme file: {err.strerror or err}") from None
    try:
        return data.decode("utf-8"), spec, path.stem
    except UnicodeDecodeError as err:
        raise InputError(spec, None, f"a scheme file must be UTF-8 text (byte {err.start} is not)") from None


def _string(where: str, key: str, value: object) -> str:
    """``value`` if it is a string, else a one-line error naming the file and the key."""
    if not isinstance(value, str):
        raise InputError(where, None, f"{key} must be a string, not {_shown(value)}")
    return value


def _shown(value: object) -> str:
    """A short description of a wrong TOML value for an error message."""
    kind = {dict: "a table", list: "an array", bool: "a boolean", int: "an integer", float: "a number",
            str: "a string"}.get(type(value), type(value).__name__)
    text = repr(value)
    return f"{kind} ({text if len(text) <= 40 else text[:37] + '...'})"


def _string_table(where: str, key: str, value: object, *, required: bool) -> dict[str, str]:
    """A TOML table of strings (``[classes]``, ``[types]``), validated."""
    if not isinstance(value, dict) or (required and not value):
        if required:
            raise InputError(where, None, f"a scheme needs a [{key}] table naming at least one class")
        raise InputError(where, None, f"{key} must be a table of names, not {_shown(value)}")
    for k, v in value.items():
        _string(where, f"{key}.{k}", v)
    return {str(k): v for k, v in value.items()}


def load_scheme(spec: str | None) -> Scheme:
    """A shipped scheme by name (``lcc``, ``derived``, ``gum``) or a TOML file path.

    A bare name is always the shipped scheme; the value is read as a file only when it looks like
    one (see :func:`_is_path`) or is no shipped name but an existing file. Every value of the file
    is checked, and a wrong one is an :class:`InputError` naming the file and the key (exit 2, one
    line), never a traceback or a silently wrong number: ``n`` in particular divides the scheme
    coverage, so it must be a positive integer."""
    spec = spec or "derived"
    text, where, stem = _scheme_text(spec)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(where, getattr(err, "lineno", None), f"not valid TOML: {err}") from None
    classes = _string_table(where, "classes", data.get("classes"), required=True)
    types = _string_table(where, "types", data.get("types", {}), required=False)
    source = _string(where, "source", data.get("source", "derived"))
    if source not in ("derived", "gum") and not (source.startswith("feature:") and len(source) > 8):
        raise InputError(where, None, f"source = {source!r}: use 'derived', 'gum' or 'feature:NAME'")
    class_of = _string(where, "class_of", data.get("class_of", "first-letter"))
    if class_of not in CLASS_RULES:
        raise InputError(where, None, f"class_of = {class_of!r}: use {', '.join(map(repr, CLASS_RULES))}")
    n = data.get("n", len(classes))
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(where, None, f"n must be a positive integer (the number of classes), not {_shown(n)}")
    attempted = data.get("attempted")
    if attempted is not None and (not isinstance(attempted, list)
                                  or any(not isinstance(a, str) or a not in classes for a in attempted)):
        raise InputError(where, None, "attempted must list classes named in [classes]")
    return Scheme(name=_string(where, "name", data.get("name", stem)), classes=classes, n=n, source=source,
                  class_of_rule=class_of, attempted=attempted, types=types,
                  description=_string(where, "description", data.get("description", "")))
