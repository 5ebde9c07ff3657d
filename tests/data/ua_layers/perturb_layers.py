"""Inputs of tests/test_ua_layers.py: responses for the BRIDGING and DISCOURSE_DEIXIS layers, derived
from the compact CODI-CRAC 2022 dev keys of tests/data/ua_v1 (``NAME.key.ua.gz``) by deterministic
perturbation; the layout UA scorer v1 reads is ``expand`` of tests/data/ua_v1/perturb.py.

Per document, with ``random.Random(f"{variant}/{newdoc line}")``:

* bridging (the BRIDGING column's openers ``(MarkableID=A|Rel=R|MentionAnchor=B|EntityAnchor=E``):
  ``anchor`` — a pair's anchor moved (half the time to another markable of the anchor's entity,
  when it has one, else to any markable of the document); ``drop`` — a pair removed; ``spurious`` —
  a pair added on a markable that is no anaphor, anchored anywhere; ``missing`` — a pair added whose
  anchor (or anaphor) MarkableID is in no IDENTITY cell (skipped by v1 and by corefreport, reported);
  ``identity`` — first one of tests/data/ua_v1/perturb.py's variants (its dropped one-word markables
  make pairs skipped too);
* discourse deixis (the DISCOURSE_DEIXIS column): ``dd_split``/``dd_merge`` — DD entities split
  (the later half of their markables) and neighbours merged; ``dd_move`` — a one-word DD markable
  moved to the next word; ``dd_drop`` — a one-word DD markable removed. ``ElementOf`` is removed
  from every DD opener of every response (split antecedents are not compared here).

``nosplit(compact)``: the key without ``ElementOf`` in the DD column (the key of the DD runs).

``python perturb_layers.py OUT_DIR``: writes the v1 layout of NAME.key, NAME.nosplit and every
variant's response into OUT_DIR (not committed).
"""

from __future__ import annotations

import gzip
import importlib.util
import random
import sys
from pathlib import Path

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("ua_perturb", HERE.parent / "ua_v1" / "perturb.py")
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)  # type: ignore[union-attr]
expand = base.expand
NAMES = ("AMI_dev_v2", "Persuasion_dev", "light_dev")
VARIANTS: dict[str, dict] = {
    "br_anchor": {"anchor": 0.3},
    "br_drop": {"drop": 0.3},
    "br_spurious": {"spurious": 0.1},
    "br_mixed": {"identity": "mixed", "anchor": 0.15, "drop": 0.1, "spurious": 0.05, "missing": 0.02},
    "dd_move": {"dd_move": 0.3},
    "dd_entities": {"dd_split": 0.3, "dd_merge": 0.15},
    "dd_mixed": {"dd_split": 0.15, "dd_merge": 0.08, "dd_move": 0.15, "dd_drop": 0.1},
}


def key(name: str) -> str:
    return gzip.decompress((HERE.parent / "ua_v1" / f"{name}.key.ua.gz").read_bytes()).decode("utf-8")


def _cell(cell: str) -> tuple[str, list[list]]:
    """``(closers, [[attributes dict, single], …])`` of a cell."""
    if cell == "_":
        return "", []
    head, *bodies = cell.split("(")
    out = []
    for b in bodies:
        single = b.endswith(")")
        out.append([dict(p.split("=", 1) for p in b.rstrip(")").split("|")), single])
    return head, out


def _write(head: str, openers: list[list]) -> str:
    text = head + "".join("(" + "|".join(f"{k}={v}" for k, v in info.items()) + (")" if single else "")
                          for info, single in openers)
    return text or "_"


def _docs(lines: list[str]) -> list[tuple[int, int]]:
    starts = [k for k, x in enumerate(lines) if x.startswith("# newdoc")] + [len(lines)]
    return list(zip(starts, starts[1:]))


def nosplit(text: str) -> str:
    lines = text.splitlines()
    for k, x in enumerate(lines):
        if x and not x.startswith("#"):
            f = x.split()
            head, ops = _cell(f[4])
            for info, _ in ops:
                info.pop("ElementOf", None)
            f[4] = _write(head, ops)
            lines[k] = " ".join(f)
    return "\n".join(lines) + "\n"


def perturb(text: str, variant: str) -> str:
    opt = VARIANTS[variant]
    if "identity" in opt:
        text = base.perturb(text, opt["identity"])
    lines = text.splitlines()
    for a, b in _docs(lines):
        rng = random.Random(f"{variant}/{lines[a]}")
        words = [k for k in range(a + 1, b) if lines[k] and not lines[k].startswith("#")]
        rows = {k: lines[k].split() for k in words}
        br = {k: _cell(rows[k][3]) for k in words}
        dd = {k: _cell(rows[k][4]) for k in words}
        first: dict[str, int] = {}  # identity markable → its first word line
        entity: dict[str, str] = {}
        for k in words:
            for info, _ in _cell(rows[k][2])[1]:
                first.setdefault(info["MarkableID"], k)
                entity[info["MarkableID"]] = info["EntityID"]
        mids = list(first)
        members: dict[str, list[str]] = {}
        for m in mids:
            members.setdefault(entity[m], []).append(m)
        anaphors = {info["MarkableID"] for k in words for info, _ in br[k][1]}
        for k in words:  # bridging: anchors moved, pairs dropped
            kept = []
            for info, single in br[k][1]:
                if rng.random() < opt.get("drop", 0):
                    continue
                if rng.random() < opt.get("anchor", 0) and mids:
                    ant = info["MentionAnchor"]
                    same = [m for m in members.get(entity.get(ant, ""), []) if m != ant]
                    info["MentionAnchor"] = rng.choice(same) if same and rng.random() < 0.5 else rng.choice(mids)
                kept.append([info, single])
            br[k] = (br[k][0], kept)
        for n, m in enumerate(mids):  # spurious and missing pairs
            if m in anaphors:
                continue
            if rng.random() < opt.get("spurious", 0):
                br[first[m]][1].append([{"MarkableID": m, "Rel": "undersp-rel", "MentionAnchor": rng.choice(mids),
                                         "EntityAnchor": "0"}, True])
            elif rng.random() < opt.get("missing", 0):
                ghost = rng.random() < 0.5
                br[first[m]][1].append([{"MarkableID": f"ghost_{n}" if ghost else m, "Rel": "undersp-rel",
                                         "MentionAnchor": rng.choice(mids) if ghost else f"nowhere_{n}",
                                         "EntityAnchor": "0"}, True])
        dmarks: dict[str, list[str]] = {}  # DD entity → its markables, in order
        for k in words:
            for info, _ in dd[k][1]:
                info.pop("ElementOf", None)
                dmarks.setdefault(info["EntityID"], []).append(info["MarkableID"])
        new: dict[str, str] = {}
        ents = list(dmarks)
        for e in ents:
            ms = dmarks[e]
            if len(ms) > 1 and rng.random() < opt.get("dd_split", 0):
                for m in ms[len(ms) // 2:]:
                    new[m] = f"{e}s"
        for e, f in zip(ents, ents[1:]):
            if rng.random() < opt.get("dd_merge", 0):
                for m in dmarks[f]:
                    if new.get(m, f) == f:
                        new[m] = e
        for j, k in enumerate(words):
            kept = []
            for info, single in dd[k][1]:
                if info["MarkableID"] in new:
                    info["EntityID"] = new[info["MarkableID"]]
                if single and rng.random() < opt.get("dd_drop", 0):
                    continue
                if single and j + 1 < len(words) and rng.random() < opt.get("dd_move", 0):
                    dd[words[j + 1]][1].append([info, single])
                    continue
                kept.append([info, single])
            dd[k] = (dd[k][0], kept)
        for k in words:
            f = rows[k]
            lines[k] = " ".join([f[0], f[1], f[2], _write(*br[k]), _write(*dd[k])])
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        k = key(name)
        (out / f"{name}.key").write_text(expand(k))
        (out / f"{name}.nosplit").write_text(expand(nosplit(k)))
        for v in VARIANTS:
            (out / f"{name}.{v}").write_text(expand(perturb(k, v)))
