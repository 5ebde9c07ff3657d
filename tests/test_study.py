"""The study layer (issue 34): every command and shape reads through one reader and is one plan.

* every shape passes every reading setting: with a document written twice, ``--repeated-documents
  rename`` gives the pair's key hash, document count and numbers under ``--runs``, ``--datasets``,
  ``compare`` (systems, runs, datasets) and ``report -r`` — and ``last`` another hash (so the check
  can fail); an explicit ``--response-format`` reaches every shape too;
* ``compare --subsets``: each group's Δ, interval and p are those of ``compare`` run on the group's
  documents alone (the same paired tests over the same documents with the same seed), and each
  system's group scores those of ``score`` on the group's documents;
* ``report -r A -r B --subsets`` shows every system per group; ``report --runs -r A=… -r B=…``
  writes the runs report; ``compare KEY llm=MARKUP sys=CONLL`` scores the markup as ``score`` does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.cli.output import example_paths

HERE = Path(__file__).parent
T2T = HERE / "data" / "text2text"
RULES = HERE / "data" / "systems" / "xrenner_rules_example.conll"
CMP = ["--bootstrap", "200", "--randomization", "200"]


def invoke(*args: str) -> str:
    res = CliRunner().invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


def documents(text: str) -> list[str]:
    return re.findall(r"(?ms)^#begin document.*?^#end document[^\n]*\n", text)


@pytest.fixture(scope="module")
def repeated(tmp_path_factory) -> dict[str, Path]:
    """The bundled example with its first document written twice, on both sides; a manifest of it."""
    out = tmp_path_factory.mktemp("repeated")
    key, resp = example_paths()
    files = {}
    for side, src in (("key", key), ("response", resp)):
        text = Path(src).read_text(encoding="utf-8")
        files[side] = out / f"{side}.conll"
        files[side].write_text(text + documents(text)[0], encoding="utf-8")
    files["manifest"] = out / "datasets.tsv"
    files["manifest"].write_text(f"ex\t{files['key']}\t{files['response']}\n", encoding="utf-8")
    files["manifest2"] = out / "datasets2.tsv"
    files["manifest2"].write_text(f"ex\t{files['key']}\t{files['key']}\n", encoding="utf-8")
    return files


def key_of(signature: str) -> str:
    return dict(f.split(":", 1) for f in signature.split("|"))["key"]


@pytest.mark.parametrize("rule", ["rename", "last"])
def test_every_shape_reads_with_the_repeated_documents_rule(repeated, rule):
    k, r = str(repeated["key"]), str(repeated["response"])
    opt = ("--repeated-documents", rule, "-q")
    pair = json.loads(invoke("score", k, r, *opt, "-f", "json"))
    want_key, want_docs, want_muc = key_of(pair["signature"]), pair["documents"], pair["metrics"]["muc"]["f1"]
    assert want_docs == (4 if rule == "rename" else 3)
    runs = json.loads(invoke("score", k, f"sys={r},{r}", "--runs", *opt, "-f", "json"))
    assert key_of(runs["signature"]) == want_key and f"docs:{rule}" in runs["signature"] or rule == "last"
    assert all(x["documents"] == want_docs and x["metrics"]["muc"]["f1"] == want_muc for x in runs["runs"].values())
    ds = json.loads(invoke("score", "--datasets", str(repeated["manifest"]), *opt, "-f", "json"))
    assert ds["datasets"]["ex"]["documents"] == want_docs and key_of(ds["datasets"]["ex"]["signature"]) == want_key
    cmp = json.loads(invoke("compare", k, f"a={r}", f"b={k}", *opt, *CMP, "-f", "json"))
    assert cmp["documents"] == want_docs and key_of(cmp["settings"]["signature"]) == want_key
    assert cmp["scores"]["muc"]["a"] == want_muc and cmp["scores"]["muc"]["b"] == 1.0
    cruns = json.loads(invoke("compare", k, "--runs", f"a={r},{r}", f"b={k},{k}", *opt, *CMP, "-f", "json"))
    assert key_of(cruns["signature"]) == want_key
    cds = json.loads(invoke("compare", "--datasets", str(repeated["manifest"]), str(repeated["manifest2"]), *opt,
                            *CMP, "-f", "json"))
    assert cds["datasets"]["ex"]["documents"] == want_docs and key_of(cds["signature"]) == want_key


def test_the_rules_give_other_keys(repeated):
    """The check above can fail: the two rules read different keys."""
    k, r = str(repeated["key"]), str(repeated["response"])
    a = json.loads(invoke("score", k, r, "--repeated-documents", "rename", "-q", "-f", "json"))
    b = json.loads(invoke("score", k, r, "--repeated-documents", "last", "-q", "-f", "json"))
    assert key_of(a["signature"]) != key_of(b["signature"]) and a["documents"] != b["documents"]


def test_report_with_systems_reads_with_the_rule(repeated, tmp_path):
    k, r = str(repeated["key"]), str(repeated["response"])
    pair = json.loads(invoke("score", k, r, "--repeated-documents", "rename", "-q", "-f", "json"))
    out = tmp_path / "r.tex"
    invoke("report", k, "-r", f"a={r}", "-r", f"b={k}", "--repeated-documents", "rename", "-q", "-o", str(out))
    assert f"key:{key_of(pair['signature'])}" in out.read_text(encoding="utf-8")


def test_an_explicit_response_format_reaches_every_shape(repeated):
    k, r = str(repeated["key"]), str(repeated["response"])
    fmt = ("--response-format", "conll2012", "--key-format", "conll2012", "-q", "-f", "json")
    pair = json.loads(invoke("score", k, r, *fmt))
    runs = json.loads(invoke("score", k, f"s={r}", "--runs", *fmt))
    assert runs["metrics"]["muc"]["f1"]["values"] == [pair["metrics"]["muc"]["f1"]]
    cmp = json.loads(invoke("compare", k, f"a={r}", f"b={r}", *fmt, *CMP))
    assert cmp["scores"]["muc"]["a"] == pair["metrics"]["muc"]["f1"]


# --------------------------------------------------------------------------- compare --subsets


def test_compare_subsets_per_group_is_compare_on_the_group(tmp_path):
    """Per group of a DOC_ID<TAB>GROUP file: each system's scores are ``score``'s on the group's
    documents, and Δ, its interval and p are ``compare``'s on them (the same paired tests)."""
    key, ml = example_paths()
    docs = {side: documents(Path(p).read_text(encoding="utf-8")) for side, p in (("key", key), ("ml", ml),
                                                                                   ("rules", str(RULES)))}
    ids = [re.match(r"#begin document \((.*?)\)", d).group(1) for d in docs["key"]]
    groups = {ids[0]: "one", ids[1]: "two", ids[2]: "two"}
    tsv = tmp_path / "groups.tsv"
    tsv.write_text("".join(f"{i}\t{g}\n" for i, g in groups.items()), encoding="utf-8")
    data = json.loads(invoke("compare", key, f"ml={ml}", f"rules={RULES}", "--subsets", str(tsv), *CMP, "-q",
                             "-f", "json"))
    sub = data["subsets"]["groups"]
    assert list(sub["comparison"]["groups"]) == ["one", "two"]
    for group in ("one", "two"):
        part = {}
        for side, texts in docs.items():
            keep = [d for d in texts if groups[re.match(r"#begin document \((.*?)\)", d).group(1)] == group]
            part[side] = tmp_path / f"{group}.{side}.conll"
            part[side].write_text("".join(keep), encoding="utf-8")
        alone = json.loads(invoke("compare", str(part["key"]), f"ml={part['ml']}", f"rules={part['rules']}", *CMP,
                                  "-q", "-f", "json"))
        tests = sub["comparison"]["datasets" if "datasets" in sub["comparison"] else "groups"][group]
        assert tests["documents"] == alone["documents"] == (1 if group == "one" else 2)
        for metric in ("muc", "bcub", "ceafe", "conll", "lea"):
            mine = tests["systems"]["rules"][metric]
            theirs = alone["significance"][metric]["rules"]
            assert mine["delta"] == pytest.approx(theirs["delta"], abs=1e-12)
            assert mine["delta_ci"] == pytest.approx(theirs["delta_ci"], abs=1e-12)
            assert mine["p_value"] == pytest.approx(theirs["p_value"], abs=1e-12)
        score = json.loads(invoke("score", str(part["key"]), str(part["rules"]), "-q", "-f", "json", "-m", "all"))
        assert sub["systems"]["rules"]["groups"][group]["metrics"]["muc"]["f1"] == \
            pytest.approx(score["metrics"]["muc"]["f1"], abs=1e-12)


def test_compare_subsets_table_names_every_group(tmp_path):
    key, ml = example_paths()
    out = invoke("compare", key, f"ml={ml}", f"rules={RULES}", "--subsets", "genre", *CMP, "-q")
    assert "rules vs ml: CoNLL F1 per genre" in out and "GUM_academic" in out and "avg" in out


# --------------------------------------------------------------------------- report and markup


def test_report_systems_subsets_shows_every_system(tmp_path):
    key, ml = example_paths()
    out = tmp_path / "r.tex"
    invoke("report", key, "-r", f"ml={ml}", "-r", f"rules={RULES}", "--subsets", "genre", "-q", "-o", str(out))
    tex = out.read_text(encoding="utf-8")
    assert "ml: F1 per genre" in tex and "rules: F1 per genre" in tex and "per genre" in tex


def test_report_runs_with_two_groups(tmp_path):
    key, ml = example_paths()
    out = tmp_path / "r.tex"
    invoke("report", key, "--runs", "-r", f"ml={ml},{ml}", "-r", f"rules={RULES},{RULES}", "-q", "-o", str(out))
    tex = out.read_text(encoding="utf-8")
    assert "ml: F1 mean" in tex and "rules: F1 mean" in tex and "rules (2 runs) vs ml (2 runs)" in tex


def test_compare_with_a_markup_system_scores_it_as_score_does():
    key = str(T2T / "key.conllu")
    llm, system = str(T2T / "key.txt"), str(T2T / "system.conllu")
    cmp = json.loads(invoke("compare", key, f"llm={llm}", f"sys={system}", *CMP, "-q", "-f", "json"))
    for name, path in (("llm", llm), ("sys", system)):
        alone = json.loads(invoke("score", key, path, "-q", "-f", "json", "-m", "all"))
        for metric in ("muc", "bcub", "ceafe", "lea"):
            assert cmp["scores"][metric][name] == pytest.approx(alone["metrics"][metric]["f1"], abs=1e-12)
