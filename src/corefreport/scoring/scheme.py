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


def load_scheme(spec: str | None) -> Scheme:
    """A shipped scheme by name (``lcc``, ``derived``, ``gum``) or a TOML file path."""
    spec = spec or "derived"
    path = Path(spec)
    if path.suffix != ".toml" and not path.exists():
        res = resources.files("corefreport") / "schemes" / f"{spec}.toml"
        if not res.is_file():
            raise InputError(spec, None, "no such scheme file, and not a shipped scheme (lcc, derived, gum)")
        text, where = res.read_text(encoding="utf-8"), f"{spec}.toml"
    else:
        try:
            text, where = path.read_text(encoding="utf-8"), str(path)
        except OSError as err:
            raise InputError(spec, None, f"cannot read scheme file: {err.strerror or err}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise InputError(where, getattr(err, "lineno", None), f"not valid TOML: {err}") from None
    classes = data.get("classes")
    if not isinstance(classes, dict) or not classes:
        raise InputError(where, None, "a scheme needs a [classes] table naming at least one class")
    source = data.get("source", "derived")
    if source not in ("derived", "gum") and not str(source).startswith("feature:"):
        raise InputError(where, None, f"source = {source!r}: use 'derived', 'gum' or 'feature:NAME'")
    attempted = data.get("attempted")
    if attempted is not None and (not isinstance(attempted, list) or any(a not in classes for a in attempted)):
        raise InputError(where, None, "attempted must list classes named in [classes]")
    return Scheme(name=data.get("name", path.stem), classes={str(k): str(v) for k, v in classes.items()},
                  n=int(data.get("n", len(classes))), source=source,
                  class_of_rule=data.get("class_of", "first-letter"), attempted=attempted,
                  types={str(k): str(v) for k, v in data.get("types", {}).items()},
                  description=data.get("description", ""))
