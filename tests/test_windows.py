"""Windows (``--window N``, ``--response-windows``, issue 35): every per-document metric on each
document cut into windows next to the full documents, the antecedent links within one window and
across windows, and a response produced on windows scored against the full documents.

* The windowed numbers are scorer.pl v8.01's (LEA: its LEA branch) on the key and the response cut
  into windows, one document per window, by an independent script (``tests/data/windows/
  build_windows.py``, numbers in ``expected.json``): every numerator and denominator of the mentions,
  MUC, B³, CEAF-m, CEAF-e, BLANC's link sets and LEA, on the bundled example (windows of 50 and 300
  words) and GUM against xrenner's ml-gum (200 and 600); the full numbers beside them likewise.
* A response produced on windows (the script's BookCoref-split JSON lines of the example) put back
  onto the key: its full-document numbers are scorer.pl's on the key against that side cut and put
  back into one document (every chain cut at the borders), and its windowed numbers are those of
  the same response scored with ``--window``.
* The antecedent links are counted below by a reader of CoNLL-2012 brackets written here.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import one_error_line, page_from_totals
from corefreport.cli import app
from corefreport.errors import InputError, SettingsError
from corefreport.io import load_corpus
from corefreport.model import Chain, Corpus, Document, Mention
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings
from printed_counts import assert_printed, case_paths, close, counts, metric_counts

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "windows"
EXPECTED = json.loads((DATA / "expected.json").read_text(encoding="utf-8"))
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
runner = CliRunner()


def cli(*args: str):
    return runner.invoke(app, list(args))


def _paths(name: str) -> tuple[Path, Path]:
    return case_paths(EXPECTED["cases"][name])


@pytest.mark.parametrize("name", sorted(EXPECTED["cases"]))
def test_the_windows_are_what_scorer_pl_prints_on_the_files_cut_into_windows(name):
    key, resp = _paths(name)
    case = EXPECTED["cases"][name]
    kc, rc = load_corpus(str(key), key=True), load_corpus(str(resp))
    checked = 0
    for size, printed in case["windows"].items():
        ev = evaluate(kc, rc, Settings(metrics=METRICS, window=int(size)))
        w = ev.windows
        assert w.size == int(size) and w.scores.windows == printed["windows"]
        checked += assert_printed(w.scores.metrics, w.scores.mentions, printed, f"{name} windows of {size}")
        # side by side: the full numbers are the corpus totals, and scorer.pl's on the uncut files
        checked += assert_printed(w.full, w.full_mentions, case["full"], f"{name} full")
        assert w.full == {m: ev.metrics[m] for m in METRICS}
        # what the cut costs: windowed F1 − full F1, CoNLL's from each side's three metrics
        assert math.isclose(w.cost["muc"], w.scores.metrics["muc"].f1 - ev.metrics["muc"].f1)
        conll = sum(w.scores.metrics[m].f1 for m in ("muc", "bcub", "ceafe")) / 3
        assert math.isclose(w.cost["conll"], conll - ev.conll)
    assert checked >= 2 * 2 * 32


# --------------------------------------------------------------------------- antecedent links, counted here


def _brackets(path: Path) -> dict[str, dict]:
    """Per document: its sentence starts, and per chain label its mentions as (first word, last word),
    read from the CoNLL-2012 brackets (written here: no corefreport reader)."""
    out: dict[str, dict] = {}
    doc = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#begin document"):
            doc = {"starts": [], "chains": {}, "words": 0, "open": {}, "blank": True}
            out[line.split("(", 1)[1].split(")", 1)[0]] = doc
            continue
        if doc is None or line.startswith("#"):
            continue
        if not line.strip():
            doc["blank"] = True
            continue
        if doc["blank"]:
            doc["starts"].append(doc["words"])
            doc["blank"] = False
        cell = line.split("\t")[-1]
        for p in ([] if cell in ("-", "_") else cell.split("|")):
            label = p.strip("()")
            if p.startswith("("):
                doc["open"].setdefault(label, []).append(doc["words"])
            if p.endswith(")"):
                doc["chains"].setdefault(label, []).append((doc["open"][label].pop(), doc["words"]))
        doc["words"] += 1
    return out


def _windows_of(starts: list[int], size: int) -> list[int]:
    """The first word of each window: close after the first sentence bringing it to ``size`` words."""
    first, words = [0], 0
    ends = starts[1:]
    prev = 0
    for end in ends:
        words += end - prev
        prev = end
        if words >= size:
            first.append(end)
            words = 0
    return first


def _window(first: list[int], word: int) -> int:
    return max(i for i, f in enumerate(first) if f <= word)


def _as_scored(response: dict, key: dict) -> dict:
    """The response's chains as scorer.pl v8.01 scores them: a span written twice that is a key
    mention kept once, where it is first written (GUM_academic_eegimaa has one in ml-gum)."""
    keyed = {m for ms in key["chains"].values() for m in ms}
    seen: set = set()
    chains = {}
    for label, ms in response["chains"].items():
        kept = []
        for m in ms:
            if m in keyed and m in seen:
                continue
            seen.add(m)
            kept.append(m)
        chains[label] = kept
    return {"chains": chains}


def _links(key: dict, response: dict, size: int) -> dict[str, list[int]]:
    """[key links found, key links, response links right, response links] within one window and across."""
    out = {"within": [0, 0, 0, 0], "across": [0, 0, 0, 0]}
    for doc_id, k in key.items():
        r = _as_scored(response.get(doc_id, {"chains": {}}), k)
        first = _windows_of(k["starts"], size)
        for mine, other, num, den in ((k, r, 0, 1), (r, k, 2, 3)):
            where: dict = {}
            for label, ms in other["chains"].items():
                for m in ms:
                    where.setdefault(m, set()).add(label)
            for ms in mine["chains"].values():
                ms = sorted(ms)
                for a, b in zip(ms, ms[1:]):
                    kind = "within" if _window(first, a[0]) == _window(first, b[0]) else "across"
                    out[kind][den] += 1
                    out[kind][num] += bool(where.get(a, set()) & where.get(b, set()))
    return out


@pytest.mark.parametrize("name, size", [("example", 50), ("example", 300), ("gum-ml", 200)])
def test_antecedent_links_within_and_across_windows_counted_independently(name, size):
    key, resp = _paths(name)
    expected = _links(_brackets(key), _brackets(resp), size)
    ev = evaluate(load_corpus(str(key), key=True), load_corpus(str(resp)), Settings(metrics=("muc",), window=size))
    links = ev.windows.scores.links
    assert {k: counts(c) for k, c in links.items()} == expected
    # every key link is within one window or across: MUC's key links (Σ |K| − 1) are the same links
    assert links["within"].recall_den + links["across"].recall_den == ev.metrics["muc"].recall_den


def test_links_by_hand():
    """Key chain a b c d (words 0, 3, 6, 9), windows [0–4] [5–9]; the response joins a b and c d:
    links a–b (within, found), b–c (across, missed), c–d (within, found)."""
    doc = Document("d", tokens=[f"w{i}" for i in range(10)], sentence_starts=[0, 5])
    key = Document("d", tokens=doc.tokens, sentence_starts=doc.sentence_starts,
                   chains=[Chain("1", [Mention(t, t) for t in (0, 3, 6, 9)])])
    resp = Document("d", tokens=doc.tokens, sentence_starts=doc.sentence_starts,
                    chains=[Chain("1", [Mention(0, 0), Mention(3, 3)]), Chain("2", [Mention(6, 6), Mention(9, 9)])])
    ev = evaluate(Corpus({"d": key}), Corpus({"d": resp}), Settings(metrics=("muc",), window=5))
    links = ev.windows.scores.links
    assert counts(links["within"]) == [2, 2, 2, 2] and counts(links["across"]) == [0, 1, 0, 0]
    # on the windows the response is right: each window's piece of the key chain is a response chain
    assert counts(ev.windows.scores.metrics["muc"]) == [2, 2, 2, 2] and ev.windows.scores.windows == 2
    assert counts(ev.metrics["muc"]) == [2, 3, 2, 2]


# --------------------------------------------------------------------------- a response produced on windows


@pytest.mark.parametrize("side", ["key", "response"])
@pytest.mark.parametrize("size", ["50", "300"])
def test_a_response_on_windows_put_back_onto_the_key(side, size):
    """The example's key (``side`` key: a perfect system run on windows) or xrenner's response, cut
    into windows by the script and written as BookCoref's split JSON lines, scored against the full key."""
    key, _ = _paths("example")
    case = EXPECTED["cases"]["example"]
    windows = DATA / f"example.{side}.split{size}.jsonl"
    r = cli("score", str(key), str(windows), "--response-windows", "--window", size, "-m", ",".join(METRICS),
            "-f", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["settings"]["response_windows"] is True and "response:windows" in data["signature"]
    printed = case["joined"][size][side]
    for m in ("muc", "bcub", "ceafm", "ceafe", "lea"):
        got = data["metrics"][m]
        assert all(close(a, b) for a, b in zip([got[k] for k in ("recall_num", "recall_den", "precision_num",
                                                                 "precision_den")], printed[m])), (m, got, printed[m])
    assert [data["metrics"]["blanc"]["coref_links"][k] for k in ("correct", "key", "response")] == \
        [printed["blanc"]["coref_links"][i] for i in (0, 1, 3)]
    windowed = data["windows"]["metrics"]
    if side == "key":  # each window is the key's own: 100 on the windows, nothing linked across them
        assert all(windowed[m]["f1"] == 1.0 for m in ("muc", "bcub", "ceafm", "ceafe", "lea"))
    else:  # the windows are those scorer.pl scored cut from the full response
        muc = windowed["muc"]
        assert [muc["recall_num"], muc["recall_den"], muc["precision_num"], muc["precision_den"]] == \
            case["windows"][size]["muc"]
    assert data["windows"]["links"]["across"]["recall_num"] == 0  # a window's chains stay in it
    assert data["windows"]["links"]["across"]["precision_den"] == 0


def test_response_windows_that_do_not_align_are_one_line_errors(tmp_path):
    key, _ = _paths("example")
    lines = (DATA / "example.response.split300.jsonl").read_text(encoding="utf-8").splitlines()
    bad = json.loads(lines[1])
    bad["sentences"][1][2] = "WRONG"
    (tmp_path / "w.jsonl").write_text("\n".join([lines[0], json.dumps(bad)] + lines[2:]) + "\n", encoding="utf-8")
    r = cli("score", str(key), str(tmp_path / "w.jsonl"), "--response-windows")
    msg = one_error_line(r)
    assert f"window {bad['doc_key']!r} does not continue key document" in msg and "'WRONG'" in msg
    assert ":2:" in msg  # the window's line
    (tmp_path / "m.jsonl").write_text("\n".join(lines[:1] + lines[2:]) + "\n", encoding="utf-8")  # one missing
    r = cli("score", str(key), str(tmp_path / "m.jsonl"), "--response-windows")
    assert r.exit_code == 2 and "does not continue key document" in r.output
    (tmp_path / "s.jsonl").write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")  # stops early
    r = cli("score", str(key), str(tmp_path / "s.jsonl"), "--response-windows")
    assert r.exit_code == 2 and "stop at its word" in r.output and "a window is missing" in r.output


def test_join_windows_by_hand():
    from corefreport.io.windows import join_windows

    key = Corpus({"a": Document("a", tokens=list("xyzw")), "b": Document("b", tokens=list("pqrs"))})
    w = [Document("b_S0", tokens=list("pq"), chains=[Chain("0", [Mention(1, 1)])]),
         Document("b_S1", tokens=list("rs"), chains=[Chain("0", [Mention(0, 1)])]),
         Document("a_S0", tokens=list("xyzw"), chains=[Chain("0", [Mention(0, 0), Mention(3, 3)])])]
    out = join_windows(key, Corpus({d.doc_id: d for d in w}))
    assert list(out.documents) == ["a", "b"]
    assert [[m.span for m in c.mentions] for c in out.documents["b"].chains] == [[(1, 1)], [(2, 3)]]
    with pytest.raises(InputError, match="starts no key document"):
        join_windows(key, Corpus({"z": Document("z", tokens=list("zz"))}))


# --------------------------------------------------------------------------- every command


def test_score_writes_the_windows_in_every_format():
    printed = EXPECTED["cases"]["example"]["windows"]["300"]
    r = cli("score", "--example", "--window", "300", "-f", "json", "--per-doc")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["settings"]["window"] == 300 and "window:300" in data["signature"]
    w = data["windows"]
    assert w["size"] == 300 and w["windows"] == printed["windows"]
    muc = w["metrics"]["muc"]
    assert [muc["recall_num"], muc["recall_den"], muc["precision_num"], muc["precision_den"]] == printed["muc"]
    assert math.isclose(w["cost"]["muc"], muc["f1"] - data["metrics"]["muc"]["f1"])
    # per document: each document's windows, which add up to the totals
    docs = data["per_document"].values()
    assert sum(d["windows"]["metrics"]["muc"]["recall_den"] for d in docs) == printed["muc"][1]
    assert sum(d["windows"]["windows"] for d in docs) == printed["windows"]
    for fmt, marks in (("csv", ["windows_f1", "within one window"]),
                       ("markdown", ["Full documents and windows of 300 words", "across windows"]),
                       ("latex", ["Full documents and windows of 300 words"]),
                       ("table", ["Full documents and windows of 300 words", "Antecedent links", "+1.58"])):
        r = cli("score", "--example", "--window", "300", "-f", fmt)
        assert r.exit_code == 0 and all(m in r.stdout for m in marks), (fmt, r.stdout[-600:])


def test_the_windows_leave_the_totals_alone():
    key, resp = _paths("example")
    kc, rc = load_corpus(str(key), key=True), load_corpus(str(resp))
    plain, windowed = evaluate(kc, rc, Settings()), evaluate(kc, rc, Settings(window=300))
    assert metric_counts(plain) == metric_counts(windowed)
    assert plain.windows is None and "window" not in str(plain.signature)


def test_compare_tests_full_and_windows_over_the_documents():
    """compare --window: each setting's Δ is the difference of the systems' F1 (score's), and its p and
    interval are the paired tests on the per-document counts score --per-doc writes."""
    import numpy as np

    from corefreport.scoring.counts import ratio
    from corefreport.scoring.significance import paired_tests
    from corefreport.study.groupdeltas import f1_of

    key, resp = _paths("example")
    r = cli("compare", str(key), f"a={resp}", f"b={key}", "--window", "300", "--no-analyses", "-m", "muc,bcub,ceafe",
            "--bootstrap", "200", "--randomization", "300", "-f", "json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)["windows"]
    cmp = data["comparison"]["settings"]
    assert set(cmp) == {"full", "windows", "within", "across"}
    out = cli("score", str(key), str(resp), "-m", "muc,bcub,ceafe", "--window", "300", "--per-doc", "-f", "json")
    per_doc = json.loads(out.stdout)["per_document"]
    a = np.array([[d["windows"]["metrics"]["muc"][k] for k in ("recall_num", "recall_den", "precision_num",
                                                              "precision_den")] for d in per_doc.values()], float)
    b = np.array([[x[1], x[1], x[1], x[1]] for x in a])  # the key against itself: every key link, every mention
    test = cmp["windows"]["b"]["muc"]
    assert math.isclose(test["baseline"], data["systems"]["a"]["metrics"]["muc"]["f1"]) and test["system"] == 1.0
    ours = paired_tests(a, b, f1_of("muc"), 200, 300)[0]
    assert math.isclose(test["p_value"], ours.p_value) and test["delta_ci"] == list(ours.delta_ci)
    # the full setting: the corpus's own test
    assert math.isclose(cmp["full"]["b"]["muc"]["baseline"], json.loads(out.stdout)["metrics"]["muc"]["f1"])
    # the links' recall: across windows, the key against itself finds every link
    links = np.array([[d["windows"]["links"]["across"][k] for k in ("recall_num", "recall_den", "precision_num",
                                                                    "precision_den")] for d in per_doc.values()], float)
    own = np.array([[x[1], x[1], x[1], x[1]] for x in links])
    ours = paired_tests(links, own, lambda c: np.asarray(ratio(c[..., 0], c[..., 1]))[..., None], 200, 300)[0]
    test = cmp["across"]["b"]["links"]
    assert math.isclose(test["baseline"], ours.baseline) and test["system"] == 1.0
    assert math.isclose(test["p_value"], ours.p_value)
    r = cli("compare", str(key), f"a={resp}", f"b={key}", "--window", "300", "--no-analyses", "--bootstrap", "50",
            "--randomization", "50")
    assert "b vs a: full documents and windows of 300 words" in r.stdout and "key links found" in r.stdout


def test_the_report_has_a_section_of_windows(tmp_path):
    out = tmp_path / "r.html"
    r = cli("report", "--example", "--window", "300", "-o", str(out), "--section", "metrics")
    assert r.exit_code == 0, r.output
    html = out.read_text(encoding="utf-8")
    assert "Full documents and windows" in html and "Martinelli" in html and "cross-context" in html
    assert "69.27" in html  # MUC F1 on the windows of 300 (186/285, 186/252)
    tex = tmp_path / "t.tex"
    assert cli("report", "--example", "--window", "50", "-o", str(tex), "--section", "metrics").exit_code == 0
    assert "Antecedent links within one window" in tex.read_text(encoding="utf-8")
    key, resp = _paths("example")
    out = tmp_path / "s.html"
    r = cli("report", str(key), "-r", f"xr={resp}", "-r", f"key={key}", "--window", "300", "-o", str(out),
            "--section", "metrics", "-q")
    assert r.exit_code == 0, r.output
    html = out.read_text(encoding="utf-8")
    assert "xr: Full documents against windows of 300 words" in html
    assert "key vs xr: full documents and windows of 300 words" in html and "key links found" in html


def test_the_browser_opens_a_page_of_windows_from_the_totals():
    from corefreport.cli import example_paths
    from corefreport.tui import windowmodel as W

    key, resp = example_paths()
    ev = evaluate(load_corpus(key), load_corpus(resp), Settings(window=300))
    labels, shown = page_from_totals(ev, W.TARGET, "windows")
    assert labels == ["on windows of 300 words"]
    assert shown[0] == ["MUC", "67.69", "69.27", "+1.58"]
    assert shown[-2][0].startswith("key links within one window") and shown[-2][2] == "56.84"  # 162/285


@pytest.mark.parametrize("args, message", [
    (["--window", "0"], "--window takes a whole number"),
    (["--window", "many"], "--window takes a whole number"),
])
def test_bad_windows_are_one_line_errors(args, message):
    r = cli("score", "--example", *args)
    assert message in one_error_line(r)


def test_windows_refused_with_runs_and_split_antecedents():
    key, resp = _paths("example")
    r = cli("score", str(key), f"s={resp},{resp}", "--runs", "--window", "300")
    assert r.exit_code == 2 and "--window is not available with --runs" in r.output
    with pytest.raises(SettingsError, match="split"):
        Settings(window=300, split_antecedents="keep")
    with pytest.raises(SettingsError):
        Settings(window=-1)
