"""Lines and names the original scorers read in their own way (issue 36), against their printed
output on the files of tests/data/edges (build.py; run_originals.py ran scorer.pl v8.01, f49f3f8, and
corefud-scorer v1.2, 4fd7b0e, with udapi 0.5.2: originals.json):

* a TAB-separated CoNLL-2012 line whose coreference column follows a space (``…\\t* (1)``): scorer.pl
  splits on TAB and finds the brackets in the last field — corefreport reads them so, with a warning;
* a response document whose name is written with other spacing (``(d1);part 000``): scorer.pl pairs by
  the name as written and scores the key document as missing; corefreport pairs them (a deliberate,
  documented difference) and now names both in a warning;
* a TAB after MISC in CoNLL-U (and text after it): Udapi strips the line and reads the first 10
  columns — so does corefreport, with a warning;
* a file with only CR line ends: an error naming the problem.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import corefreport
from corefreport.errors import InputError
from corefreport.io.conll2012 import read_conll2012
from corefreport.io.conllu import read_conllu

DATA = Path(__file__).parent / "data" / "edges"
ORIGINALS = json.loads((DATA / "originals.json").read_text(encoding="utf-8"))
COUNTS = re.compile(r"Recall: \(([\d.]+) / ([\d.]+)\).*Precision: \(([\d.]+) / ([\d.]+)\)")


def scorer_pl(response: str) -> dict[str, tuple[float, ...]]:
    """metric → (R num, R den, P num, P den) scorer.pl printed ('Coreference:'; BLANC's two link rows);
    ``mentions`` → its mention identification."""
    out = {}
    for run in ORIGINALS["runs"]:
        metric, key, resp = run["command"].split()[1:4]
        if run["program"] != "scorer.pl" or resp != response:
            continue
        for line in run["printed"]:
            m = COUNTS.search(line)
            if m is None:
                continue
            counts = tuple(float(x) for x in m.groups())
            if line.startswith("Identification of Mentions"):
                out["mentions"] = counts
            elif line.startswith("Coreference:"):
                out[metric] = counts
            elif line.startswith("Coreference links"):
                out["blanc_c"] = counts
            elif line.startswith("Non-coreference links"):
                out["blanc_n"] = counts
    return out


def ours(result: dict) -> dict[str, tuple[float, ...]]:
    out = {}
    for name, m in result["metrics"].items():
        if name == "blanc":
            for k, links in (("blanc_c", m["coref_links"]), ("blanc_n", m["noncoref_links"])):
                out[k] = (links["correct"], links["key"], links["correct"], links["response"])
        elif name != "conll":
            out[name] = (m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"])
    mt = result["mentions"]
    out["mentions"] = (mt["recall_num"], mt["recall_den"], mt["precision_num"], mt["precision_den"])
    return out


def score(key: str, response: str, metrics: str, jobs: int = 1) -> dict:
    """``corefreport score KEY RESPONSE -m METRICS -f json --jobs JOBS``, its JSON."""
    done = subprocess.run([sys.executable, "-m", "corefreport", "score", key, response, "-m", metrics, "-f", "json",
                           "--jobs", str(jobs)], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def close(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(abs(x - y) < 1e-9 for k in a for x, y in zip(a[k], b[k]))


def test_the_files_are_those_built() -> None:
    with __import__("tempfile").TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, str(DATA / "build.py"), tmp], check=True)
        for f in Path(tmp).iterdir():
            assert f.read_bytes() == (DATA / f.name).read_bytes(), f.name


@pytest.mark.parametrize("jobs", [1, 2])
def test_space_before_the_coreference_column_as_scorer_pl(jobs: int) -> None:
    spaced, tabbed = scorer_pl("response-spaced.conll"), scorer_pl("response-tabbed.conll")
    assert spaced == tabbed and spaced["muc"] == (1, 4, 1, 4) and spaced["mentions"] == (10, 10, 10, 11)
    r = score(str(DATA / "key.conll"), str(DATA / "response-spaced.conll"), "muc,bcub,ceafe,ceafm,blanc", jobs)
    assert close(ours(r), spaced)
    warned = [w for w in r["warnings"] if "follows a space, not a TAB" in w]
    assert len(warned) == 1 and warned[0].startswith(f"{DATA / 'response-spaced.conll'}:2: ")
    # the two brackets after a space on "his" ("* (4|(3)"): a one-word mention and an opening
    doc = read_conll2012(str(DATA / "response-spaced.conll")).documents["d1; part 000"]
    assert sorted((m.start, m.end, m.label) for m in doc.mentions if m.start == 6) == [(6, 6, "3"), (6, 7, "4")]


def test_a_cell_with_a_space_that_is_not_brackets_is_still_an_error(tmp_path: Path) -> None:
    f = tmp_path / "bad.conll"
    f.write_text("#begin document (d); part 000\nd\t0\t0\tJohn\tNN\t* junk\n#end document\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad.conll:2: cannot read coreference annotation"):
        read_conll2012(str(f))


@pytest.mark.parametrize("jobs", [1, 2])
def test_names_written_otherwise_are_paired_and_named(jobs: int) -> None:
    missing = scorer_pl("response-names.conll")
    assert missing["muc"] == (0, 4, 0, 0) and missing["mentions"] == (0, 10, 0, 0)  # scorer.pl: both missing
    r = score(str(DATA / "key.conll"), str(DATA / "response-names.conll"), "muc,bcub,ceafe,ceafm,blanc", jobs)
    assert close(ours(r), scorer_pl("response-tabbed.conll"))  # corefreport pairs them (docs/formats.md)
    warned = [w for w in r["warnings"] if "whose name is written otherwise" in w]
    assert len(warned) == 1
    for name in ("'(d1);part 000'", "'(d1); part 000'", "'(d2); part  000'", "'(d2); part 000'",
                 "response-names.conll:17", "key.conll:17"):
        assert name in warned[0]


def test_names_written_otherwise_out_of_order(tmp_path: Path) -> None:
    """The response's documents in another order (paired through its index): the same warning."""
    text = (DATA / "response-names.conll").read_text(encoding="utf-8")
    cut = text.index("#begin document (d2)")
    (tmp_path / "r.conll").write_text(text[cut:] + text[:cut], encoding="utf-8")
    r = corefreport.score(str(DATA / "key.conll"), str(tmp_path / "r.conll"), metrics="muc")
    warned = [w for w in r["warnings"] if "whose name is written otherwise" in w]
    assert len(warned) == 1 and warned[0].startswith("2 response document(s)") and "r.conll:1)" in warned[0]
    same = corefreport.score(str(DATA / "key.conll"), str(DATA / "response-tabbed.conll"), metrics="muc")
    assert not [w for w in same["warnings"] if "written otherwise" in w]


def corefud(response: str, match: str) -> dict[str, tuple[str, ...]]:
    run = next(r for r in ORIGINALS["runs"] if r["program"] == "corefud-scorer"
               and r["command"].split()[2] == response and r["command"].split()[4] == match)
    out, name = {}, None
    for line in run["printed"]:
        if line.startswith("Recall:") and name:
            out[name] = re.match(r"Recall: ([\d.]+)\s+Precision: ([\d.]+)\s+F1: ([\d.]+)", line).groups()
        elif line.startswith("CoNLL score"):
            out["conll"] = (line.split()[-1],)
        name = line.strip()
    return out


@pytest.mark.parametrize("match", ["exact", "head"])
def test_a_tab_after_misc_as_udapi(match: str) -> None:
    expected = corefud("response-misc-tab.conllu", match)
    assert expected == corefud("response.conllu", match)
    options = {"preset": "crac"} if match == "head" else {"match": "exact", "singletons": "keep", "repeats": "corefud12"}
    r = corefreport.score(str(DATA / "key.conllu"), str(DATA / "response-misc-tab.conllu"),
                          metrics="muc,bcub,ceafe,ceafm,blanc_crac,lea,mor", **options)
    names = {"muc": "muc", "bcub": "bcub", "ceafe": "ceafe", "ceafm": "ceafm", "blanc": "blanc_crac", "lea": "lea",
             "mor": "mor"}
    for printed, name in names.items():
        m = r["metrics"][name]
        assert tuple("%.2f" % (x * 100) for x in (m["recall"], m["precision"], m["f1"])) == expected[printed], printed
    warned = [w for w in r["warnings"] if "TAB after the MISC column" in w]
    assert len(warned) == 1 and warned[0].startswith(f"{DATA / 'response-misc-tab.conllu'}:4: ")
    assert "'junk'" not in warned[0]  # the first such line has nothing after its TAB
    read = [read_conllu(str(DATA / f)).documents for f in ("response-misc-tab.conllu", "response.conllu")]
    assert [(d.doc_id, d.tokens, d.chains, d.columns) for d in read[0].values()] == [
        (d.doc_id, d.tokens, d.chains, d.columns) for d in read[1].values()]


def test_too_few_columns_stay_an_error(tmp_path: Path) -> None:
    f = tmp_path / "short.conllu"
    f.write_text("# newdoc id = d\n1\tJohn\t_\t_\t_\t_\t0\troot\tEntity=(e1)\n\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"short.conllu:2: a CoNLL-U word line has 10 TAB-separated columns, this one "
                                         r"has 9"):
        read_conllu(str(f))


@pytest.mark.parametrize("name,text", [
    ("key.conll", "#begin document (d); part 000\rd\t0\t0\tJohn\t(1)\r#end document\r"),
    ("key.conllu", "# newdoc id = d\r1\tJohn\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1)\r\r"),
    ("key.ua", "# global.columns = ID FORM IDENTITY\r# newdoc id = d\r1 John (EntityID=1|MarkableID=m1)\r"),
])
def test_cr_line_ends_are_named(tmp_path: Path, name: str, text: str) -> None:
    f = tmp_path / name
    f.write_bytes(text.encode())
    for run in ([f, f], [f, f, "--jobs", "2"]):
        done = subprocess.run([sys.executable, "-m", "corefreport", "score", *map(str, run)], capture_output=True,
                              text=True)
        assert done.returncode == 2
        assert done.stderr.strip().splitlines() == [
            f"corefreport: error: {f}:1: the lines end with a carriage return (CR) alone, not a line feed (LF or "
            r"CRLF): the file reads as one line; convert its line ends first (e.g. tr '\r' '\n' < FILE > NEW)"]
    crlf = tmp_path / f"crlf-{name}"
    crlf.write_bytes(text.replace("\r", "\r\n").encode())
    assert subprocess.run([sys.executable, "-m", "corefreport", "score", str(crlf), str(crlf)], capture_output=True,
                          text=True).returncode == 0


def test_check_names_a_tab_after_misc() -> None:
    """``corefreport check``: a warning (Udapi reads the line), an error under ``--preset crac`` (the UD
    validator, which a CRAC submission passes through, refuses it)."""
    args = [sys.executable, "-m", "corefreport", "check", str(DATA / "key.conllu"), str(DATA / "response-misc-tab.conllu")]
    for preset, rc, mark in (([], 0, "warning: "), (["--preset", "crac"], 2, "")):
        done = subprocess.run(args[:4] + preset + args[4:], capture_output=True, text=True)
        assert done.returncode == rc
        lines = done.stdout.splitlines()
        assert len(lines) == 12 and lines[0] == (f"{DATA / 'response-misc-tab.conllu'}:4: {mark}a TAB after the MISC "
                                                 "column (11 TAB-separated fields): the UD validator refuses the line; "
                                                 "Udapi (corefud-scorer) and corefreport read its first 10 columns")
