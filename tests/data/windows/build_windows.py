"""scorer.pl on CoNLL-2012 key and response files cut into windows, one document per window.

An independent count for ``--window N`` (corefreport's ``scoring/windows.py`` is not imported):
this script reads each CoNLL-2012 file itself, cuts every key document into windows of whole
sentences — a window closes after the first sentence that brings it to N words (token lines) or
more; the last holds what is left — and cuts the response document of the same name at the same
words. Each window is written as a document of its own (``#begin document (NAME/wK); part P``)
holding its words and the brackets of the mentions that open in it (a mention that would cross a
border stops the script: none does in these files). The reference scorer is then run on the cut
key and response, and on the uncut files: ``expected.json`` holds what it printed after TOTALS.
``tests/test_windows.py`` asserts that ``corefreport score --window N`` gives every number, the
windowed ones and the full ones side by side.

Run (perl 5; two checkouts of github:conll/reference-coreference-scorers)::

    python build_windows.py MASTER_DIR LEA_DIR

``MASTER_DIR`` at :data:`SCORER_COMMIT` (master, "version: 8.01": MUC, B³, CEAF-m, CEAF-e, BLANC),
``LEA_DIR`` at :data:`LEA_COMMIT` (branch LEA-scorer, "version: 9.0.0-alpha", which adds LEA).
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
SCORER_COMMIT = "f49f3f8a0e1cdc5ceba7c2a33013897369df5543"
LEA_COMMIT = "772e5a3fb76bea6c69e8cd7eb019b0eae5fcd970"
COMMAND = "perl scorer.pl {metric} KEY RESPONSE none"
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")
CASES = {
    "example": ("src/corefreport/data/example/gum_key.conll", "src/corefreport/data/example/xrenner_response.conll",
                (50, 300), True),
    "gum-ml": ("../shared/data/gum/derived/conll2012/gum.conll", "../shared/data/xrenner/conll2012/ml-gum.conll",
               (200, 600), True),
}
"""Name → key, response (relative to the repository's top folder; ``../shared``: the shared data),
the window sizes, and whether the uncut files are scored too."""

WINDOW_FILES = ("example",)
"""The cases whose key and response cut into windows are committed as BookCoref-split JSON lines
(``NAME.SIDE.splitSIZE.jsonl``): the input of ``--response-windows``."""

HEADER = re.compile(r"^#begin document \((.*)\); part (\d+)")


def documents(path: Path) -> list[tuple[str, str, list[list[str]]]]:
    """(name, part, sentences) of each document; a sentence is its token lines (blank-line separated)."""
    out = []
    sentences: list[list[str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = HEADER.match(line)
        if m:
            sentences = [[]]
            out.append((m.group(1), m.group(2), sentences))
        elif line.startswith("#end document"):
            continue
        elif line.startswith("#"):
            continue
        elif not line.strip():
            if sentences and sentences[-1]:
                sentences.append([])
        elif sentences is not None:
            sentences[-1].append(line)
    return [(n, p, [s for s in ss if s]) for n, p, ss in out]


def borders(sentences: list[list[str]], size: int) -> list[int]:
    """The first token of every window after the first (token numbers over the document)."""
    out, words, at = [], 0, 0
    for s in sentences[:-1]:
        words += len(s)
        at += len(s)
        if words >= size:
            out.append(at)
            words = 0
    return out


def cut(sentences: list[list[str]], starts: list[int]) -> list[list[list[str]]]:
    """The token lines cut before each token number of ``starts`` (the response at the key's
    borders, whatever its own sentences); a bracket must not cross a border."""
    windows: list[list[list[str]]] = [[]]
    at, depth = 0, {}
    for s in sentences:
        windows[-1].append([])
        for line in s:
            if at in starts:
                if any(depth.values()):
                    raise SystemExit(f"a mention crosses the window border at token {at}")
                windows.append([[]])
            windows[-1][-1].append(line)
            cell = line.split("\t")[-1] if "\t" in line else line.split()[-1]
            for p in ("" if cell in ("-", "_") else cell).split("|"):
                if p:
                    label = p.strip("()")
                    depth[label] = depth.get(label, 0) + p.startswith("(") - p.endswith(")")
            at += 1
    return [[x for x in w if x] for w in windows]


def relabelled(windows: list[list[list[str]]]) -> list[list[str]]:
    """The windows of one document as one document again, every chain cut at the borders: the
    brackets of chain L in window k get a label of their own (what a system run window by window
    gives, put back onto the full document)."""
    labels: dict[tuple[str, int], str] = {}
    out = []
    for k, w in enumerate(windows):
        for s in w:
            lines = []
            for line in s:
                fields = line.split("\t") if "\t" in line else line.split()
                cell = fields[-1]
                parts = [] if cell in ("-", "_") else cell.split("|")
                new = []
                for p in parts:
                    label = labels.setdefault((p.strip("()"), k), str(len(labels) + 1))
                    new.append(("(" if p.startswith("(") else "") + label + (")" if p.endswith(")") else ""))
                fields[-1] = "|".join(new) if new else "-"
                lines.append("\t".join(fields))
            out.append(lines)
    return out


def jsonlines(name: str, size: int, windows: list[list[list[str]]]) -> list[str]:
    """The windows of one document as BookCoref's split configuration writes them: one JSON line per
    window, ``NAME_splitSIZE_S<its first sentence>``, its sentences and its clusters (inclusive
    [start, end] word offsets from the window's first word)."""
    out, first = [], 0
    for w in windows:
        n, opened, clusters, sentences = 0, {}, {}, []
        for s in w:
            sentences.append([])
            for line in s:
                fields = line.split("\t") if "\t" in line else line.split()
                sentences[-1].append(fields[3])
                cell = fields[-1]
                for p in ([] if cell in ("-", "_") else cell.split("|")):
                    label = p.strip("()")
                    if p.startswith("("):
                        opened.setdefault(label, []).append(n)
                    if p.endswith(")"):
                        clusters.setdefault(label, []).append([opened[label].pop(), n])
                n += 1
        ordered = sorted((sorted(c) for c in clusters.values()), key=lambda c: c[0])
        out.append(json.dumps({"doc_key": f"{name}_split{size}_S{first}", "sentences": sentences,
                               "clusters": ordered}, ensure_ascii=False))
        first += len(w)
    return out


def write(docs, path: Path) -> None:
    lines = []
    for name, part, sentences in docs:
        lines.append(f"#begin document ({name}); part {part}")
        for s in sentences:
            lines.extend(s)
            lines.append("")
        lines.append("#end document")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def windowed(key: Path, response: Path, size: int, folder: Path) -> tuple[Path, Path, int]:
    """The key and the response cut into windows of ``size`` words (by the key's sentences), and the windows."""
    kdocs = documents(key)
    rdocs = {(n, p): s for n, p, s in documents(response)}
    kout, rout, kjoined, rjoined, kjson, rjson = [], [], [], [], [], []
    for name, part, sentences in kdocs:
        starts = borders(sentences, size)
        kw = cut(sentences, starts)
        resp = rdocs.get((name, part))
        rw = cut(resp, starts) if resp is not None else None
        kjoined.append((name, part, relabelled(kw)))
        kjson += jsonlines(name, size, kw)
        if rw is not None:
            rjoined.append((name, part, relabelled(rw)))
            rjson += jsonlines(name, size, rw)
        for i, w in enumerate(kw):
            kout.append((f"{name}/w{i}", part, w))
            if rw is not None:
                rout.append((f"{name}/w{i}", part, rw[i]))
    paths = {}
    for tag, docs in (("key", kout), ("response", rout), ("key_joined", kjoined), ("response_joined", rjoined)):
        paths[tag] = folder / f"{tag}.{size}.conll"
        write(docs, paths[tag])
    for tag, lines in (("key", kjson), ("response", rjson)):
        paths[tag + "_jsonl"] = folder / f"{tag}.{size}.jsonl"
        paths[tag + "_jsonl"].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return paths, len(kout)


FRACTION = r"\(([-\d.e+]+) / ([-\d.e+]+)\)"
LINE = re.compile(rf"Recall: {FRACTION} [^\t]*\tPrecision: {FRACTION}")
NAMES = {"Identification of Mentions": "mentions", "Coreference": "coref", "Coreference links": "coref_links",
         "Non-coreference links": "noncoref_links", "BLANC": "blanc"}


def printed(text: str) -> dict:
    """The fractions after ``====== TOTALS =======``."""
    out = {}
    for line in text.split("====== TOTALS =======", 1)[1].splitlines():
        m = LINE.search(line)
        if m:
            nums = [float(x) for x in m.groups()]
            out[NAMES[line.split(":")[0].strip()]] = [int(x) if x == int(x) else x for x in nums]
    return out


def run(scorer: Path, metric: str, key: Path, response: Path) -> dict:
    done = subprocess.run(["perl", "scorer.pl", metric, str(key), str(response), "none"], cwd=scorer,
                          capture_output=True, text=True, env={"PERL_HASH_SEED": "0", "PATH": "/usr/bin:/bin"})
    if "====== TOTALS =======" not in done.stdout:
        raise SystemExit((done.stdout + done.stderr).strip()[-500:])
    return printed(done.stdout)


def scores(master: Path, lea: Path, key: Path, response: Path) -> dict:
    out: dict = {}
    for metric in METRICS:
        t = run(master, metric, key, response)
        out["mentions"] = t["mentions"]
        out[metric] = {k: t[k] for k in ("coref_links", "noncoref_links", "blanc")} if metric == "blanc" else t["coref"]
    out["lea"] = run(lea, "lea", key, response)["coref"]
    return out


def main(master: Path, lea: Path) -> None:
    cases: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, (key_rel, resp_rel, sizes, full) in CASES.items():
            key, resp = ROOT / key_rel, ROOT / resp_rel
            entry: dict = {"key": key_rel, "response": resp_rel,
                           "sha256": [hashlib.sha256(p.read_bytes()).hexdigest()[:16] for p in (key, resp)],
                           "windows": {}}
            if full:
                entry["full"] = scores(master, lea, key, resp)
            for size in sizes:
                paths, n = windowed(key, resp, size, Path(tmp))
                entry["windows"][str(size)] = {"windows": n, **scores(master, lea, paths["key"], paths["response"])}
                # the key against each side cut into windows and put back (chains cut at the borders)
                entry.setdefault("joined", {})[str(size)] = {
                    side: scores(master, lea, key, paths[f"{side}_joined"]) for side in ("key", "response")}
                if name in WINDOW_FILES:
                    for side in ("key", "response"):
                        target = HERE / f"{name}.{side}.split{size}.jsonl"
                        target.write_text(paths[f"{side}_jsonl"].read_text(encoding="utf-8"), encoding="utf-8")
                print(name, size, n, entry["windows"][str(size)]["muc"], file=sys.stderr)
            cases[name] = entry
    out = {"program": "scorer.pl v8.01 (github:conll/reference-coreference-scorers master; LEA from its branch "
                      "LEA-scorer, 'version: 9.0.0-alpha')",
           "commit": SCORER_COMMIT, "lea_commit": LEA_COMMIT, "command": COMMAND,
           "environment": "perl 5.36, PERL_HASH_SEED=0, run in each checkout's top folder on the files "
                          "build_windows.py writes (key and response cut into windows at the key's sentence ends, "
                          "one document per window)",
           "numbers": "per pair and window size: the windows, 'mentions' and each metric [recall num, recall den, "
                      "precision num, precision den] as printed after TOTALS; blanc: coref_links, noncoref_links, "
                      "blanc; 'full': the uncut files; 'joined': the uncut key against the key ('key') and the response "
                      "('response') cut into windows and put back into one document per key document, every chain cut "
                      "at the window borders (a system run window by window)",
           "cases": cases}
    (HERE / "expected.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
