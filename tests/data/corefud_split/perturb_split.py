"""Inputs of tests/test_corefud_split.py: responses derived from the GUM files of ../shared that have
``SplitAnte=`` (CorefUD split antecedents) by deterministic perturbation of their MISC column.

Per document, with ``random.Random(f"{variant}/{file name}")``, on the word lines in file order:

* ``sa_drop`` — each ``SplitAnte=`` value is removed altogether with probability 0.4, else loses its
  last item (a plural entity left with one antecedent stays: Udapi reads it);
* ``sa_swap`` — each antecedent is replaced, with probability ½, by another entity of the document
  that is neither plural nor the plural entity itself;
* ``sa_add`` — a new plural entity: about one in 12 single-word mentions of an entity that is no
  member of a plural entity and not plural gains ``SplitAnte=A<P,B<P`` with two entities A, B
  opened before it that are not plural (no entity becomes its own member);
* ``ents`` — single-word mentions ``(EID-…)`` of entities with another mention left, on words
  without ``SplitAnte=`` (Udapi wants the plural entity opened by then), are moved to a
  new entity (p 0.1), to the entity of the previous single-word mention (p 0.08) or removed (p
  0.06); ``SplitAnte=`` untouched;
* ``mixed`` — ``ents``, then ``sa_drop`` at half the rates (removed 0.2, last item 0.5), then ``sa_add``.

``python perturb_split.py GUM_DEP_DIR OUT_DIR`` writes every variant of every file of :data:`NAMES`
(``OUT_DIR/NAME.VARIANT.conllu``); the keys are the files as published.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

NAMES = ("GUM_academic_librarians", "GUM_bio_byron", "GUM_court_insanity", "GUM_court_mitigation",
         "GUM_court_negligence", "GUM_interview_gaming", "GUM_news_nasa")
VARIANTS = ("sa_drop", "sa_swap", "sa_add", "ents", "mixed")
OPENER = re.compile(r"\((\d+)-")
SINGLE = re.compile(r"\((\d+)(-[^()]*)\)")


def _misc(cols: list[str]) -> list[str]:
    return [] if cols[9] == "_" else cols[9].split("|")


def _set_misc(cols: list[str], items: list[str]) -> None:
    cols[9] = "|".join(items) if items else "_"


def _entities(rows: list[list[str] | None]) -> tuple[list[str], dict[str, int], set[str], set[str]]:
    """Entity ids in order of first opening, their number of mentions, plural entities, members."""
    order: list[str] = []
    count: dict[str, int] = {}
    plural: set[str] = set()
    members: set[str] = set()
    for cols in rows:
        if cols is None:
            continue
        for item in _misc(cols):
            if item.startswith("Entity="):
                for eid in OPENER.findall(item[7:]):
                    if eid not in count:
                        order.append(eid)
                    count[eid] = count.get(eid, 0) + 1
            elif item.startswith("SplitAnte="):
                for pair in item[10:].split(","):
                    a, _, p = pair.partition("<")
                    members.add(a)
                    plural.add(p)
    return order, count, plural, members


def perturb(text: str, variant: str, name: str) -> str:
    rng = random.Random(f"{variant}/{name}")
    lines = text.split("\n")
    rows: list[list[str] | None] = [l.split("\t") if l and l[0].isdigit() and "\t" in l and
                                    l.split("\t")[0].isdigit() else None for l in lines]
    steps = {"mixed": ("ents", "sa_drop_half", "sa_add")}.get(variant, (variant,))
    for step in steps:
        order, count, plural, members = _entities(rows)
        fresh = 10000
        prev_single: str | None = None
        seen: list[str] = []
        for cols in rows:
            if cols is None:
                continue
            items = _misc(cols)
            anchored = any(i.startswith("SplitAnte=") for i in items)
            for k, item in enumerate(items):
                if item.startswith("Entity="):
                    value = item[7:]
                    if step == "ents":
                        def move(m: re.Match) -> str:
                            nonlocal fresh, prev_single
                            eid, rest = m.group(1), m.group(2)
                            if count[eid] < 2 or anchored:
                                prev_single = eid
                                return m.group(0)
                            r = rng.random()
                            target = eid
                            if r < 0.1:
                                fresh += 1
                                target = str(fresh)
                            elif r < 0.18 and prev_single and prev_single != eid:
                                target = prev_single
                            elif r < 0.24:
                                count[eid] -= 1
                                return ""
                            if target != eid:
                                count[eid] -= 1
                                count[target] = count.get(target, 0) + 1
                            prev_single = target
                            return f"({target}{rest})"
                        value = SINGLE.sub(move, value)
                        items[k] = "Entity=" + value if value else ""
                    elif step == "sa_add":
                        for m in SINGLE.finditer(value):
                            eid = m.group(1)
                            cand = [e for e in seen if e != eid and e not in plural]
                            if (eid not in plural and eid not in members and len(cand) >= 2
                                    and rng.random() < 1 / 12):
                                a, b = rng.sample(cand, 2)
                                items.append(f"SplitAnte={a}<{eid},{b}<{eid}")
                                plural.add(eid)
                                members.update((a, b))
                                break
                    for eid in OPENER.findall(value):
                        if eid not in seen:
                            seen.append(eid)
                elif item.startswith("SplitAnte=") and step in ("sa_drop", "sa_drop_half"):
                    pairs = item[10:].split(",")
                    half = 0.5 if step == "sa_drop_half" else 1.0
                    r = rng.random()
                    if r < 0.4 * half:
                        items[k] = ""
                    elif r < 0.7 * half + 0.3 and len(pairs) > 1:
                        items[k] = "SplitAnte=" + ",".join(pairs[:-1])
                elif item.startswith("SplitAnte=") and step == "sa_swap":
                    pairs = []
                    for pair in item[10:].split(","):
                        a, _, p = pair.partition("<")
                        if rng.random() < 0.5:
                            cand = [e for e in order if e not in plural and e not in (a, p)]
                            a = rng.choice(cand)
                        pairs.append(f"{a}<{p}")
                    items[k] = "SplitAnte=" + ",".join(dict.fromkeys(pairs))
            _set_misc(cols, [i for i in items if i and i != "Entity="])
    return "\n".join("\t".join(cols) if cols is not None else line for line, cols in zip(lines, rows))


def main(src: str, out: str) -> None:
    Path(out).mkdir(parents=True, exist_ok=True)
    for name in NAMES:
        text = (Path(src) / f"{name}.conllu").read_text(encoding="utf-8")
        for variant in VARIANTS:
            (Path(out) / f"{name}.{variant}.conllu").write_text(perturb(text, variant, name), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:3])
