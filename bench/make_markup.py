#!/usr/bin/env python3
"""Generate a long LLM-markup response and its CoNLL-U key: one document repeated ``--repeat`` times.

The key is the CorefUD document ``--conllu`` (one ``# newdoc``; default GUM's 1,051-word
``GUM_academic_discrimination`` from ``../shared/data/gum/dep/``) written ``--repeat`` times as one
document (sentence ids suffixed ``-copyK``; the entity ids stay, so each entity is ``--repeat``
times as long). The response is the key's own text2text markup (``corefreport.io.markup.key_markup``)
perturbed as ``tests/data/text2text/perturb.py``'s ``all`` perturbs it, without the truncation:
every 29th word misspelt (first two letters swapped, or an ``x`` appended), every 47th left out,
every 7th closing tag lost. ``--unrelated N`` instead writes N words of unrelated text: the key's
words in a random order (``--seed``), tags dropped. Same arguments, same files.

    python bench/make_markup.py --repeat 5 --out bench-data/markup5
    python bench/make_markup.py --repeat 20 --out bench-data/markup20
    python bench/make_markup.py --repeat 20 --unrelated 20000 --out bench-data/unrelated

Writes PREFIX.conllu and PREFIX.txt (one line) and prints statistics as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
DEFAULT = ROOT.parent / "shared" / "data" / "gum" / "dep" / "GUM_academic_discrimination.conllu"


def repeated(text: str, times: int) -> str:
    """The document's lines ``times`` times: its header once, sentence ids made unique per copy."""
    lines = text.rstrip("\n").split("\n")
    first = next(i for i, ln in enumerate(lines) if ln.startswith("# sent_id") or ln.startswith("# newpar"))
    head, body = lines[:first], lines[first:]
    out = list(head)
    for k in range(times):
        for ln in body:
            if ln.startswith("# sent_id = "):
                ln = f"{ln}-copy{k + 1}"
            out.append(ln)
        if out[-1] != "":
            out.append("")
    return "\n".join(out) + "\n"


def misspell(word: str, k: int) -> str:
    form, bar, tags = word.partition("|")
    if k % 29 != 3:
        return word
    form = form[1] + form[0] + form[2:] if len(form) > 2 and form[0] != form[1] else form + "x"
    return form + bar + tags


def drop_closing(word: str, counter: list[int]) -> str:
    form, bar, tags = word.partition("|")
    if not bar:
        return word
    kept = []
    for t in tags.split(","):
        if t.endswith("]") and not t.startswith("["):
            counter[0] += 1
            if counter[0] % 7 == 0:
                continue
        kept.append(t)
    return form + ("|" + ",".join(kept) if kept else "")


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--conllu", type=Path, default=DEFAULT, help="a one-document CorefUD file")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--unrelated", type=int, default=0, help="write this many unrelated words instead")
    p.add_argument("--seed", type=int, default=2012)
    p.add_argument("--out", required=True, help="output prefix: writes PREFIX.conllu and PREFIX.txt")
    a = p.parse_args(argv)
    from corefreport.io.conllu import read_conllu
    from corefreport.io.markup import key_markup

    key_text = repeated(a.conllu.read_text(encoding="utf-8"), a.repeat)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(f"{a.out}.conllu").write_text(key_text, encoding="utf-8")
    doc = next(iter(read_conllu(f"{a.out}.conllu").documents.values()))
    words = key_markup(doc)
    if a.unrelated:
        rng = random.Random(a.seed)
        pool = [w.split("|")[0] for w in words]
        words = [rng.choice(pool) for _ in range(a.unrelated)]
    else:
        counter = [0]
        words = [misspell(w, k) for k, w in enumerate(words)]
        words = [w for k, w in enumerate(words) if k % 47 != 11]
        words = [drop_closing(w, counter) for w in words]
    Path(f"{a.out}.txt").write_text(" ".join(words) + "\n", encoding="utf-8")
    stats = {"key_words": len(doc.tokens), "response_words": len(words),
             "key_mentions": sum(len(c.mentions) for c in doc.chains), "key_chains": len(doc.chains)}
    print(json.dumps(stats))
    return stats


if __name__ == "__main__":
    main()
