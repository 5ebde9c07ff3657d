"""Record what corefreport prints over a matrix of inputs × commands × ``--jobs``, byte for byte.

Before a change to the pipeline, record today's outputs; after it, record again and compare: every
cell must be identical except the cases listed (and justified) in the change's note::

    python bench/golden.py record --out bench/golden-81dae24.tsv            # the installed corefreport
    PYTHONPATH=/path/to/old/src python bench/golden.py record --out old.tsv   # another checkout's code
    python bench/golden.py diff old.tsv new.tsv

Each cell runs ``python -m corefreport ARGS`` (so ``PYTHONPATH`` picks the code) in a fresh temporary
folder and records the exit code and the SHA-256 of its standard output, of its standard error (with
the temporary folder's path replaced by ``TMP``) and of every file it wrote (HTML/LaTeX/CSV; the PDF
is not recorded: WeasyPrint writes the time into it). ``--keep DIR`` also keeps every output.

Inputs: the bundled example; GUM vs xrenner ml in CoNLL-2012 (13 columns) and in CorefUD (the pair
``tests/data/corefud_gum/build_pairs.py`` builds); the hand-made CorefUD zero pair; the SINGE JSON
lines pair; GUM's WebAnno TSV against xrenner's; bench pairs of 300 and 2,400 documents and the
5,000-mention document (``bench/make_pair.py``, seed 2012); the 300-document pair with the response in
reversed document order; with a tenth of its documents missing; and the example with a key span
written twice (in its own chain and in another). Inputs whose files are missing (``../shared``
absent) are left out, and the table says so.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
DATA = ROOT / "bench-data" / "golden"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _make(cmd: list[str]) -> None:
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)


def _documents(text: str) -> list[str]:
    """The ``#begin document`` … ``#end document`` blocks of a CoNLL-2012 text."""
    return re.findall(r"(?ms)^#begin document.*?^#end document[^\n]*\n", text)


def build_inputs() -> dict[str, tuple[str, str, tuple[str, ...]]]:
    """name → (key, response, extra options) of every input there is files for."""
    DATA.mkdir(parents=True, exist_ok=True)
    out: dict[str, tuple[str, str, tuple[str, ...]]] = {}
    py = sys.executable
    for name, docs, tokens in (("bench300", 300, 500), ("bench2400", 2400, 500), ("giant", 1, 37000)):
        prefix = DATA / name
        if not Path(f"{prefix}.key").exists():
            _make([py, "bench/make_pair.py", "--docs", str(docs), "--tokens", str(tokens), "--seed", "2012",
                   "--out", str(prefix)])
        out[name] = (f"{prefix}.key", f"{prefix}.response", ())
    base = DATA / "bench300"
    docs = _documents(Path(f"{base}.response").read_text(encoding="utf-8"))
    rev = DATA / "reversed.response"
    if not rev.exists():
        rev.write_text("".join(reversed(docs)), encoding="utf-8")
    out["reversed"] = (f"{base}.key", str(rev), ())
    miss = DATA / "missing.response"
    if not miss.exists():
        miss.write_text("".join(d for i, d in enumerate(docs) if i % 10 != 3), encoding="utf-8")
    out["missing"] = (f"{base}.key", str(miss), ())
    example = ROOT / "src" / "corefreport" / "data" / "example"
    out["example"] = (str(example / "gum_key.conll"), str(example / "xrenner_response.conll"), ())
    rep = DATA / "repeated.key"
    if not rep.exists():
        lines = (example / "gum_key.conll").read_text(encoding="utf-8").split("\n")
        # the first one-token mention "(N)" gets a second chain "(N)|(999)"; a later one repeats its own span
        done = 0
        for i, line in enumerate(lines):
            cols = line.split("\t") if "\t" in line else line.split()
            if len(cols) > 3 and re.fullmatch(r"\(\d+\)", cols[-1]):
                sep = "\t" if "\t" in line else " "
                extra = "(999)" if done == 0 else cols[-1]
                lines[i] = sep.join(cols[:-1] + [cols[-1] + "|" + extra])
                done += 1
                if done == 2:
                    break
        rep.write_text("\n".join(lines), encoding="utf-8")
    out["repeated"] = (str(rep), str(example / "xrenner_response.conll"), ())
    if SHARED.is_dir():
        out["gum-conll"] = (str(SHARED / "gum/derived/conll2012/gum.conll"),
                            str(SHARED / "xrenner/conll2012/ml-gum.conll"), ())
        out["webanno"] = (str(SHARED / "gum/coref/gum/tsv"), str(SHARED / "xrenner/ml/gum"),
                          ("--key-format", "webanno", "--response-format", "webanno", "--scheme", "gum"))
        out["jsonlines"] = (str(SHARED / "jsonlines/singe.jsonlines"), str(SHARED / "jsonlines/singe.jsonlines"), ())
        cud = DATA / "corefud_gum"
        if not (cud / "key.conllu").exists():
            _make([py, "tests/data/corefud_gum/build_pairs.py", str(cud)])
        out["corefud-gum"] = (str(cud / "key.conllu"), str(cud / "response-xrenner.conllu"), ())
    zeros = ROOT / "tests" / "data" / "corefud_zeros"
    out["corefud-zeros"] = (str(zeros / "key.conllu"), str(zeros / "response-system.conllu"), ())
    return out


SCORE = {
    "json-perdoc": ("score", "-f", "json", "--per-doc"),
    "full": ("score", "-m", "all", "-a", "arcs", "-a", "typed", "-f", "json"),
    "errors": ("score", "-a", "errors", "-f", "json"),
    "plink": ("score", "-m", "plink", "--by", "mtype", "-f", "json"),
    "head": ("score", "--match", "head", "-f", "json"),
    "partial": ("score", "--match", "partial", "-f", "json"),
    "crac": ("score", "--preset", "crac", "-f", "json"),
    "links": ("score", "-a", "arcs", "-a", "typed", "--links", "{tmp}/links.csv", "-f", "json"),
    "table": ("score", "-m", "all", "-a", "arcs"),
}
"""score's commands, each run with --jobs 1, 2 and 3."""
VIEWS = {
    "report-html": ("report", "-o", "{tmp}/r.html", "-q"),
    "report-tex": ("report", "-o", "{tmp}/r.tex", "-q"),
}
"""report's commands (no --jobs option: its default)."""
HEAVY = {"bench2400"}
"""Inputs scored with score's commands only (their reports take long and add nothing the 300 do not)."""


def _split_documents(src: str, dest: Path, parts: int) -> list[Path]:
    """``src`` (CoNLL-2012) cut into ``parts`` files of consecutive documents under ``dest``."""
    docs = _documents(Path(src).read_text(encoding="utf-8"))
    dest.mkdir(parents=True, exist_ok=True)
    size = -(-len(docs) // parts)
    out = []
    for i in range(parts):
        f = dest / f"part{i + 1}.conll"
        if not f.exists():
            f.write_text("".join(docs[i * size:(i + 1) * size]), encoding="utf-8")
        out.append(f)
    return out


def build_shapes(inputs: dict) -> dict[str, str]:
    """The files of the several-evaluations cells (runs, datasets, subsets, systems), by name."""
    out: dict[str, str] = {}
    base = DATA / "bench300"
    for side in ("key", "response"):
        _split_documents(f"{base}.{side}", DATA / "datasets" / side, 3)
    for part in _split_documents(f"{base}.response", DATA / "datasets" / "response", 3):
        rev = DATA / "datasets" / "reversed" / part.name  # each part's documents in reversed order
        if not rev.exists():
            rev.parent.mkdir(parents=True, exist_ok=True)
            rev.write_text("".join(reversed(_documents(part.read_text(encoding="utf-8")))), encoding="utf-8")
    out["keydir"], out["respdir"], out["revdir"] = (str(DATA / "datasets" / d) for d in ("key", "response", "reversed"))
    manifest = DATA / "datasets.tsv"
    if not manifest.exists():
        manifest.write_text("# name\tkey\tresponse\n" + "".join(
            f"part{i}\tdatasets/key/part{i}.conll\tdatasets/response/part{i}.conll\n" for i in (1, 2, 3)),
            encoding="utf-8")
    out["manifest"] = str(manifest)
    groups = DATA / "groups.tsv"
    if not groups.exists():
        groups.write_text("".join(f"(bench/doc_{i}); part 000\t{'odd' if i % 2 else 'even'}\n" for i in range(300)),
                          encoding="utf-8")
    out["groups"] = str(groups)
    example = ROOT / "src" / "corefreport" / "data" / "example"
    # the example with its first document written twice on both sides (--repeated-documents)
    for side, name in (("key", "gum_key.conll"), ("response", "xrenner_response.conll")):
        f = DATA / f"repdocs.{side}"
        if not f.exists():
            text = (example / name).read_text(encoding="utf-8")
            f.write_text(text + _documents(text)[0], encoding="utf-8")
        out[f"repdocs_{side}"] = str(f)
    out["t2t_key"] = str(ROOT / "tests" / "data" / "text2text" / "key.conllu")
    out["t2t_markup"] = str(ROOT / "tests" / "data" / "text2text" / "key.txt")
    out["t2t_system"] = str(ROOT / "tests" / "data" / "text2text" / "system.conllu")
    return out


def shape_cells(inputs: dict) -> list[tuple[str, str, list[str]]]:
    """runs, datasets, subsets, compare --datasets|--runs|--subsets, report -r|--runs|--datasets (issue 34)."""
    f = build_shapes(inputs)
    key, resp = inputs["bench300"][:2]
    rev, miss = inputs["reversed"][1], inputs["missing"][1]
    ek, er = inputs["example"][:2]
    cmp = ("--bootstrap", "200", "--randomization", "200")
    runs_a, runs_b = f"A={resp},{rev}", f"B={miss},{resp}"
    out = [
        ("shapes", "score runs json", ["score", key, runs_a, "--runs", "-f", "json"]),
        ("shapes", "score runs table", ["score", key, runs_a, "--runs"]),
        ("shapes", "score runs csv", ["score", key, runs_a, "--runs", "-f", "csv"]),
        ("shapes", "score runs full", ["score", key, runs_a, "--runs", "-m", "all", "-f", "json"]),
        ("shapes", "score datasets dirs json", ["score", "--datasets", f["keydir"], f["respdir"], "-f", "json"]),
        ("shapes", "score datasets manifest table", ["score", "--datasets", f["manifest"]]),
        ("shapes", "score datasets manifest latex", ["score", "--datasets", f["manifest"], "-f", "latex"]),
        ("shapes", "score subsets length json", ["score", key, resp, "--subsets", "length:450,520", "-f", "json"]),
        ("shapes", "score subsets file table", ["score", key, resp, "--subsets", f["groups"]]),
        ("shapes", "score subsets example genre md", ["score", ek, er, "--subsets", "genre", "-f", "markdown"]),
        ("shapes", "score by genre json", ["score", ek, er, "--by", "genre", "-f", "json"]),
        ("shapes", "compare datasets json", ["compare", "--datasets", f["keydir"], f["respdir"], f["revdir"], *cmp,
                                              "-f", "json"]),
        ("shapes", "compare datasets table", ["compare", "--datasets", f["keydir"], f["respdir"], f["revdir"], *cmp]),
        ("shapes", "compare runs json", ["compare", key, "--runs", runs_a, runs_b, *cmp, "-f", "json"]),
        ("shapes", "compare runs table", ["compare", key, "--runs", runs_a, runs_b, *cmp]),
        ("shapes", "compare systems json", ["compare", key, f"A={resp}", f"B={rev}", f"C={miss}", *cmp, "-f", "json"]),
        ("shapes", "compare subsets json", ["compare", key, f"A={resp}", f"B={miss}", "--subsets", f["groups"], *cmp,
                                            "-f", "json"]),
        ("shapes", "compare markup", ["compare", f["t2t_key"], f"llm={f['t2t_markup']}", f"sys={f['t2t_system']}",
                                      *cmp, "-f", "json"]),
        ("shapes", "report systems html", ["report", ek, "-r", f"A={er}", "-r", f"B={ek}", "-o", "{tmp}/r.html", "-q"]),
        ("shapes", "report systems tex", ["report", ek, "-r", f"A={er}", "-r", f"B={ek}", "-o", "{tmp}/r.tex", "-q"]),
        ("shapes", "report systems subsets tex", ["report", ek, "-r", f"A={er}", "-r", f"B={ek}", "--subsets", "genre",
                                                  "-o", "{tmp}/r.tex", "-q"]),
        ("shapes", "report subsets tex", ["report", ek, er, "--subsets", "genre", "-o", "{tmp}/r.tex", "-q"]),
        ("shapes", "report runs tex", ["report", ek, f"A={er},{ek}", "--runs", "-o", "{tmp}/r.tex", "-q"]),
        ("shapes", "report runs two tex", ["report", ek, "--runs", "-r", f"A={er},{ek}", "-r", f"B={ek},{er}",
                                           "-o", "{tmp}/r.tex", "-q"]),
        ("shapes", "report runs compared tex", ["report", ek, f"A={er},{ek}", "--runs", "-r", f"B={ek},{er}",
                                                "-o", "{tmp}/r.tex", "-q"]),
        ("shapes", "report datasets tex", ["report", "--datasets", f["manifest"], "-o", "{tmp}/r.tex", "-q"]),
        ("shapes", "report datasets compared tex", ["report", "--datasets", f["keydir"], f["respdir"], "-r",
                                                    f["revdir"], "-o", "{tmp}/r.tex", "-q"]),
        ("shapes", "score repdocs rename json", ["score", f["repdocs_key"], f["repdocs_response"],
                                                 "--repeated-documents", "rename", "-f", "json"]),
        ("shapes", "score repdocs runs rename json", ["score", f["repdocs_key"], f"sys={f['repdocs_response']}",
                                                      "--runs", "--repeated-documents", "rename", "-f", "json"]),
        ("shapes", "compare repdocs rename json", ["compare", f["repdocs_key"], f"A={f['repdocs_response']}",
                                                   f"B={f['repdocs_key']}", "--repeated-documents", "rename", *cmp,
                                                   "-f", "json"]),
    ]
    if "corefud-gum" in inputs:
        ck, cr = inputs["corefud-gum"][:2]
        zk, zr = inputs["corefud-zeros"][:2]
        crac = DATA / "crac.tsv"
        if not crac.exists():
            crac.write_text(f"gum\t{ck}\t{cr}\nzeros\t{zk}\t{zr}\n", encoding="utf-8")
        out += [("shapes", "score datasets crac json", ["score", "--datasets", str(crac), "--preset", "crac", "-f",
                                                        "json"]),
                ("shapes", "score datasets crac table", ["score", "--datasets", str(crac), "--preset", "crac"])]
    if "gum-conll" in inputs:
        gk, gr = inputs["gum-conll"][:2]
        rules = str(SHARED / "xrenner/conll2012/rules-gum.conll")
        out += [("shapes", "compare gum json", ["compare", gk, f"rules={rules}", f"ml={gr}", *cmp, "-f", "json"]),
                ("shapes", "score gum subsets genre json", ["score", gk, gr, "--subsets", "genre", "-f", "json"]),
                ("shapes", "report gum systems html", ["report", gk, "-r", f"rules={rules}", "-r", f"ml={gr}",
                                                       "-o", "{tmp}/r.html", "-q"])]
    return out


def cells(inputs: dict) -> list[tuple[str, str, list[str]]]:
    out = []
    for name, (key, resp, extra) in inputs.items():
        for cname, args in SCORE.items():
            if name == "giant" and cname in ("errors",):
                continue
            for jobs in ("1", "2", "3"):
                out.append((name, f"{cname} -j{jobs}", [args[0], key, resp, *args[1:], *extra, "--jobs", jobs]))
        if name in HEAVY:
            continue
        for cname, args in VIEWS.items():
            out.append((name, cname, [args[0], key, resp, *args[1:], *extra]))
        out.append((name, "compare", ["compare", key, f"A={resp}", f"B={key}", "--bootstrap", "200",
                                      "--randomization", "200", *extra]))
    return out + shape_cells(inputs)


def run_cell(args: list[str], keep: Path | None, label: str) -> tuple[int, str, str, str]:
    tmp = Path(tempfile.mkdtemp(prefix="golden-"))
    try:
        argv = [a.replace("{tmp}", str(tmp)) for a in args]
        env = dict(os.environ, COLUMNS="120", NO_COLOR="1", TERM="dumb")
        p = subprocess.run([sys.executable, "-m", "corefreport", *argv], capture_output=True, env=env, cwd=tmp,
                           timeout=900)
        err = p.stderr.replace(str(tmp).encode(), b"TMP")
        files = []
        for f in sorted(tmp.iterdir()):
            if f.suffix != ".pdf":
                files.append(f"{f.name}={_sha(f.read_bytes())}")
        if keep is not None:
            d = keep / re.sub(r"[^\w.-]+", "_", label)
            d.mkdir(parents=True, exist_ok=True)
            (d / "stdout").write_bytes(p.stdout)
            (d / "stderr").write_bytes(err)
            for f in tmp.iterdir():
                shutil.copy(f, d / f.name)
        return p.returncode, _sha(p.stdout), _sha(err), ",".join(files)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def record(out: Path, keep: Path | None, only: str | None) -> None:
    inputs = build_inputs()
    rows = []
    todo = [c for c in cells(inputs) if only is None or re.search(only, f"{c[0]} {c[1]}")]
    for i, (name, cname, args) in enumerate(todo):
        code, so, se, files = run_cell(args, keep, f"{name} {cname}")
        rows.append(f"{name}\t{cname}\t{code}\t{so}\t{se}\t{files}")
        print(f"[{i + 1}/{len(todo)}] {name} {cname}: exit {code}", file=sys.stderr)
    out.write_text("input\tcommand\texit\tstdout\tstderr\tfiles\n" + "\n".join(rows) + "\n", encoding="utf-8")


def diff(a: Path, b: Path) -> int:
    def load(p: Path) -> dict:
        lines = p.read_text(encoding="utf-8").splitlines()[1:]
        return {tuple(x.split("\t")[:2]): x.split("\t")[2:] for x in lines}

    old, new = load(a), load(b)
    bad = 0
    for k in old:
        if k not in new:
            print(f"only in {a.name}: {' '.join(k)}")
        elif old[k] != new[k]:
            bad += 1
            what = [n for n, x, y in zip(("exit", "stdout", "stderr", "files"), old[k], new[k]) if x != y]
            print(f"differs: {' '.join(k)}: {', '.join(what)}")
    for k in new:
        if k not in old:
            print(f"only in {b.name}: {' '.join(k)}")
    print(f"{len(old)} cells, {bad} differ")
    return 1 if bad else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--keep", type=Path)
    r.add_argument("--only", help="a regular expression over 'INPUT COMMAND'")
    d = sub.add_parser("diff")
    d.add_argument("old", type=Path)
    d.add_argument("new", type=Path)
    a = ap.parse_args()
    if a.cmd == "record":
        record(a.out, a.keep, a.only)
    else:
        raise SystemExit(diff(a.old, a.new))


if __name__ == "__main__":
    main()
