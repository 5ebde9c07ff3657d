"""Inputs of tests/test_ua_v1.py: compact UA keys from the CODI-CRAC 2022 dev files, responses
derived from them by deterministic perturbation, and the layout the UA scorer v1 reads.

* ``compact(full)``: keep ``# newdoc``, blank lines and the columns ID FORM IDENTITY BRIDGING
  DISCOURSE_DEIXIS (``# global.columns`` says so; corefreport finds columns by name).
* ``perturb(compact, variant)``: a response. Per document, with ``random.Random(f"{variant}/{doc}")``:
  entities split (the later half of an entity's markables become a new entity), pairs of entities
  merged, non-referring flipped (a ``-Pseudo`` entity becomes referring, a referring singleton
  becomes ``-Pseudo``) and one-word markables dropped, each at the variant's rate. ``ElementOf`` is
  removed, except in the variants with a fifth rate (``plural``, ``plural-heavy``): there each
  ``ElementOf`` is dropped at that rate, and a one-word markable joins a plural entity of its document
  at a quarter of it (split antecedents compared); a markable of an entity that is itself plural
  loses its ``ElementOf`` (UA v1 never ends on a plural entity that is its own member).
* ``expand(compact)``: the 13-column layout UA scorer v1 reads (it takes the 11th field as IDENTITY).

``python perturb.py FULL.CONLLUA OUT_DIR``: writes NAME.key.ua.gz (committed), and the v1 layout of
the key and of every variant's response into OUT_DIR (not committed).
"""

from __future__ import annotations

import gzip
import random
import re
import sys
from pathlib import Path

COLUMNS = "ID FORM IDENTITY BRIDGING DISCOURSE_DEIXIS"
VARIANTS = {  # name: (split, merge, flip, drop) rates
    "split": (0.3, 0.0, 0.0, 0.0),
    "merge": (0.0, 0.15, 0.0, 0.0),
    "flip": (0.0, 0.0, 0.3, 0.0),
    "mixed": (0.15, 0.08, 0.15, 0.1),
    "heavy": (0.4, 0.3, 0.4, 0.3),
    "plural": (0.15, 0.08, 0.1, 0.1, 0.3),
    "plural-heavy": (0.4, 0.3, 0.3, 0.3, 0.6),
}
OPEN = re.compile(r"\(([^()]*)")


def compact(text: str) -> str:
    out = [f"# global.columns = {COLUMNS}"]
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("# newdoc"):
            out.append(s)
        elif not s:
            if out[-1] != "":
                out.append("")
        elif not s.startswith("#"):
            f = s.split()
            f += ["_"] * (13 - len(f))
            out.append(" ".join([f[0], f[1], f[10], f[11], f[12]]))
    return "\n".join(out) + "\n"


def expand(text: str) -> str:
    out = []
    for line in text.splitlines():
        if line.startswith("# global.columns"):
            out.append("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING "
                       "DISCOURSE_DEIXIS")
        elif line.startswith("#") or not line:
            out.append(line)
        else:
            i, form, ident, br, dd = line.split()
            out.append(" ".join([i, form] + ["_"] * 8 + [ident, br, dd]))
    return "\n".join(out) + "\n"


def _docs(lines: list[str]) -> list[tuple[int, int]]:
    starts = [k for k, x in enumerate(lines) if x.startswith("# newdoc")] + [len(lines)]
    return list(zip(starts, starts[1:]))


def perturb(text: str, variant: str) -> str:
    split, merge, flip, drop, *plural = VARIANTS[variant]
    lines = text.splitlines()
    for a, b in _docs(lines):
        rng = random.Random(f"{variant}/{lines[a]}")
        markables: dict[str, list[str]] = {}  # entity → markable ids in order
        single: list[str] = []
        element_of: dict[str, str] = {}  # markable id → its ElementOf
        for x in lines[a + 1:b]:
            if x and not x.startswith("#"):
                for m in OPEN.finditer(x.split()[2]):
                    info = dict(p.split("=", 1) for p in m.group(1).rstrip(")").split("|"))
                    markables.setdefault(info["EntityID"], []).append(info["MarkableID"])
                    if "ElementOf" in info:
                        element_of[info["MarkableID"]] = info["ElementOf"]
        for x in lines[a + 1:b]:
            if x and not x.startswith("#"):
                cell = x.split()[2]
                for piece in cell.split("(")[1:]:
                    if piece.endswith(")"):
                        single.append(dict(p.split("=", 1) for p in piece[:-1].split("|"))["MarkableID"])
        entity: dict[str, str] = {}  # markable id → new entity id
        ents = sorted(markables, key=lambda e: markables[e][0])
        referring = [e for e in ents if not e.endswith("-Pseudo")]
        for e in ents:
            for mid in markables[e]:
                entity[mid] = e
        for e in referring:
            ms = markables[e]
            if len(ms) > 1 and rng.random() < split:
                for mid in ms[len(ms) // 2:]:
                    entity[mid] = f"{e}s"
        for e, f in zip(referring, referring[1:]):
            if rng.random() < merge:
                for mid in markables[f]:
                    if entity[mid] == f:
                        entity[mid] = e
        for e in ents:
            if rng.random() < flip:
                if e.endswith("-Pseudo"):
                    for mid in markables[e]:
                        entity[mid] = e[: -len("-Pseudo")] + "r"
                elif len(markables[e]) == 1:
                    entity[markables[e][0]] = f"{e}-Pseudo"
        dropped = {mid for mid in single if rng.random() < drop}
        element: dict[str, str | None] = {}  # markable id → its new ElementOf (None: none)
        if plural:
            groups = sorted({g for v in element_of.values() for g in v.split(",")})
            for mid in sorted(element_of):
                if rng.random() < plural[0]:
                    element[mid] = None
            for mid in single:
                if groups and mid not in element_of and rng.random() < plural[0] / 4:
                    element[mid] = rng.choice(groups)
            targets = {g for mid in entity for v in [element.get(mid, element_of.get(mid))] if v for g in v.split(",")}
            for mid in entity:  # no plural entity a member (v1 loops for ever on a cycle)
                if entity[mid] in targets and element.get(mid, element_of.get(mid)):
                    element[mid] = None

        def opener(m: re.Match) -> str:
            body = m.group(1)
            end = body.endswith(")")
            parts = [p for p in body.rstrip(")").split("|") if not p.startswith("ElementOf=") or plural]
            info = dict(p.split("=", 1) for p in parts)
            mid = info["MarkableID"]
            if mid in element:
                parts = [p for p in parts if not p.startswith("ElementOf=")]
                parts += [f"ElementOf={element[mid]}"] if element[mid] is not None else []
            if end and mid in dropped:
                return ""
            parts = [f"EntityID={entity[mid]}" if p.startswith("EntityID=") else p for p in parts]
            return "(" + "|".join(parts) + (")" if end else "")

        for k in range(a + 1, b):
            x = lines[k]
            if x and not x.startswith("#"):
                f = x.split()
                cell = OPEN.sub(opener, f[2]) or "_"
                lines[k] = " ".join([f[0], f[1], cell, f[3], f[4]])
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    full, out = Path(sys.argv[1]), Path(sys.argv[2])
    name = full.name.split(".")[0]
    key = compact(full.read_text(encoding="utf-8"))
    with gzip.GzipFile(Path(__file__).parent / f"{name}.key.ua.gz", "wb", mtime=0) as g:
        g.write(key.encode())
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.key").write_text(expand(key))
    for v in VARIANTS:
        (out / f"{name}.{v}").write_text(expand(perturb(key, v)))
