"""scorer.pl on CoNLL-2012 key and response files filtered to the chains of one stratum.

An independent count for ``--strata`` (corefreport's ``scoring/strata.py`` is not imported): this
script reads each CoNLL-2012 file itself, gives every chain of every document a stratum by its OWN
property — the key's chains by the key's, the response's by the response's —, writes for each
stratum a key and a response in which the brackets of every other chain are removed (``-`` where
none is left), and runs the reference scorer on each filtered pair. The numbers it prints are
written to ``expected.json``; ``tests/test_strata.py`` asserts that ``corefreport score --strata``
gives each of them.

Run (perl 5; two checkouts of github:conll/reference-coreference-scorers)::

    python build_strata.py MASTER_DIR LEA_DIR

``MASTER_DIR`` at :data:`SCORER_COMMIT` (master, "version: 8.01": MUC, B³, CEAF-m, CEAF-e, BLANC),
``LEA_DIR`` at :data:`LEA_COMMIT` (branch LEA-scorer, "version: 9.0.0-alpha", which adds LEA).

The properties (``tests/data/strata/README.md``):

* ``chain-length``: the mentions written for the chain's label in the document (an opening
  bracket each); buckets by upper edge, the last open;
* ``spread``: the sentences (blank-line separated) from the one holding the first token of the
  chain's first mention to the one of its last mention, both counted.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SHARED = ROOT.parent / "shared"
SCORER_COMMIT = "f49f3f8a0e1cdc5ceba7c2a33013897369df5543"
LEA_COMMIT = "772e5a3fb76bea6c69e8cd7eb019b0eae5fcd970"
COMMAND = "perl scorer.pl {metric} KEY RESPONSE none"
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")
PAIRS = {
    "example": ("src/corefreport/data/example/gum_key.conll", "src/corefreport/data/example/xrenner_response.conll"),
    "gum-ml": ("../shared/data/gum/derived/conll2012/gum.conll", "../shared/data/xrenner/conll2012/ml-gum.conll"),
}
"""Name → key and response, relative to the repository's top folder (``../shared``: the shared data)."""
STRATA = {
    "chain-length": ("length", (1, 10)),
    "spread": ("spread", (1, 5, 20)),
    "chain-length:1,2,5": ("length", (1, 2, 5)),
}
"""``--strata`` value → (property, upper edges)."""


def bucket_names(edges: tuple[int, ...]) -> list[str]:
    names, low = [], 1
    for e in edges:
        names.append(str(e) if low == e else f"{low}–{e}")
        low = e + 1
    return names + [f"{low}+"]


def bucket(n: int, edges: tuple[int, ...]) -> str:
    names = bucket_names(edges)
    for e, name in zip(edges, names):
        if n <= e:
            return name
    return names[-1]


# --------------------------------------------------------------------------- reading and writing


def documents(path: Path) -> list[list[str]]:
    """The file's lines, one list per document (``#begin`` … ``#end``, both included)."""
    out, cur = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#begin document"):
            cur = [line]
            out.append(cur)
        elif cur is not None:
            cur.append(line)
            if line.startswith("#end document"):
                cur = None
    return out


PART = re.compile(r"^\(?(\d+)\)?$")


def parts(cell: str) -> list[str]:
    return [] if cell in ("-", "_", "") else cell.split("|")


def chains(lines: list[str]) -> dict[str, list[tuple[int, int]]]:
    """Label → (sentence, token) of each of its mentions' first tokens, in order of opening."""
    out: dict[str, list[tuple[int, int]]] = {}
    sentence, token = 0, 0
    previous_blank = True
    for line in lines[1:]:
        if line.startswith("#"):
            continue
        if not line.strip():
            if not previous_blank:
                sentence += 1
            previous_blank = True
            continue
        previous_blank = False
        for p in parts(line.split()[-1]):
            if p.startswith("("):
                out.setdefault(PART.match(p).group(1), []).append((sentence, token))
        token += 1
    return out


def stratum_of(mentions: list[tuple[int, int]], prop: str, edges: tuple[int, ...]) -> str:
    if prop == "length":
        return bucket(len(mentions), edges)
    sentences = [s for s, _ in mentions]
    return bucket(max(sentences) - min(sentences) + 1, edges)


def filtered(lines: list[str], keep: set[str]) -> list[str]:
    """The document with only the brackets of the chains in ``keep``."""
    out = [lines[0]]
    for line in lines[1:]:
        if line.startswith("#") or not line.strip():
            out.append(line)
            continue
        fields = line.split("\t")
        kept = [p for p in parts(fields[-1]) if PART.match(p).group(1) in keep]
        fields[-1] = "|".join(kept) if kept else "-"
        out.append("\t".join(fields))
    return out


def stratum_files(path: Path, prop: str, edges: tuple[int, ...], folder: Path, tag: str) -> dict[str, Path]:
    """One file per stratum, each document with its chains of that stratum."""
    docs = documents(path)
    texts: dict[str, list[str]] = {name: [] for name in bucket_names(edges)}
    for lines in docs:
        by = {label: stratum_of(ms, prop, edges) for label, ms in chains(lines).items()}
        for name in texts:
            texts[name].extend(filtered(lines, {label for label, s in by.items() if s == name}))
    out = {}
    for i, (name, lines) in enumerate(texts.items()):
        p = folder / f"{tag}.{i}.conll"
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out[name] = p
    return out


# --------------------------------------------------------------------------- scorer.pl


FRACTION = r"\(([-\d.e+]+) / ([-\d.e+]+)\)"
LINE = re.compile(rf"Recall: {FRACTION} [^\t]*\tPrecision: {FRACTION}")


def totals(text: str) -> dict:
    """The numbers after ``====== TOTALS =======``: mentions, coreference (or BLANC's link sets)."""
    tail = text.split("====== TOTALS =======", 1)[1]
    out = {}
    for line in tail.splitlines():
        m = LINE.search(line)
        if not m:
            continue
        nums = [float(x) for x in m.groups()]
        nums = [int(x) if x == int(x) else x for x in nums]
        head = line.split(":")[0].strip()
        key = {"Identification of Mentions": "mentions", "Coreference": "coref", "Coreference links":
               "coref_links", "Non-coreference links": "noncoref_links", "BLANC": "blanc"}[head]
        out[key] = nums
    return out


def run(scorer: Path, metric: str, key: Path, response: Path) -> dict:
    done = subprocess.run(["perl", "scorer.pl", metric, str(key), str(response), "none"], cwd=scorer,
                          capture_output=True, text=True, env={"PERL_HASH_SEED": "0", "PATH": "/usr/bin:/bin"})
    if "====== TOTALS =======" not in done.stdout:
        return {"error": (done.stdout + done.stderr).strip().splitlines()[-1]}
    return totals(done.stdout)


def main(master: Path, lea: Path) -> None:
    cases: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for pair, (key_rel, resp_rel) in PAIRS.items():
            key, resp = ROOT / key_rel, ROOT / resp_rel
            entry: dict = {"key": key_rel, "response": resp_rel,
                           "sha256": [hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in (key, resp)],
                           "strata": {}}
            for spec, (prop, edges) in STRATA.items():
                kf = stratum_files(key, prop, edges, folder, "key")
                rf = stratum_files(resp, prop, edges, folder, "response")
                got: dict = {}
                for name in kf:
                    numbers: dict = {}
                    for metric in METRICS:
                        t = run(master, metric, kf[name], rf[name])
                        if "error" in t:
                            numbers[metric] = t
                            continue
                        numbers["mentions"] = t["mentions"]
                        numbers[metric] = ({k: t[k] for k in ("coref_links", "noncoref_links", "blanc")}
                                           if metric == "blanc" else t["coref"])
                    t = run(lea, "lea", kf[name], rf[name])
                    numbers["lea"] = t.get("coref", t)
                    got[name] = numbers
                    print(pair, spec, name, numbers.get("muc"), file=sys.stderr)
                entry["strata"][spec] = got
            cases[pair] = entry
    out = {"program": "scorer.pl v8.01 (github:conll/reference-coreference-scorers master; LEA from its branch "
                      "LEA-scorer, 'version: 9.0.0-alpha')",
           "commit": SCORER_COMMIT, "lea_commit": LEA_COMMIT, "command": COMMAND,
           "environment": "perl 5.36, PERL_HASH_SEED=0, run in each checkout's top folder on the files "
                          "build_strata.py writes (each side filtered to the chains of one stratum by its own "
                          "chains' property)",
           "numbers": "per pair, --strata value and stratum: 'mentions' and each metric [recall num, recall den, "
                      "precision num, precision den] as printed after TOTALS; blanc: coref_links, noncoref_links, "
                      "blanc",
           "pairs": cases}
    (HERE / "expected.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
