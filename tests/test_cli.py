"""The command line as a user meets it: exit codes, error messages naming file and line, no
overwriting without --force, formats, the bundled example, p-link through the CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from corefreport.cli import app

from conftest import one_error_line, shared_path

runner = CliRunner()
DOC = "#begin document (d); part 000\nd\t0\t0\tJohn\t(1)\nd\t0\t1\tsaw\t-\nd\t0\t2\thim\t(1)\n#end document\n"


def run(*args: str):
    return runner.invoke(app, list(args))


def test_example_runs_and_reports_the_signature():
    res = run("score", "--example", "-f", "json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["documents"] == 3
    assert out["signature"].startswith("metrics:muc+bcub+ceafm+ceafe+blanc+lea|singletons:keep")
    conll = out["metrics"]["conll"]["f1"]
    m = out["metrics"]
    assert conll == pytest.approx((m["muc"]["f1"] + m["bcub"]["f1"] + m["ceafe"]["f1"]) / 3)


@pytest.mark.parametrize(
    "text, line, problem",
    [
        ("#begin document (d);\nd\t0\t0\ta\t(1\n#end document\n", 2, "never closed"),
        ("#begin document (d);\nd\t0\t0\ta\t1)\n#end document\n", 2, "has no opening"),
        ("#begin document (d);\nd\t0\t0\ta\t(1)\n", 1, "no '#end document'"),
        ("#begin document (d);\nd\t0\t0\ta\tfoo\n#end document\n", 2, "cannot read coreference annotation"),
        ("d\t0\t0\ta\t(1)\n", 1, "outside a document"),
    ],
)
def test_malformed_input_names_file_and_line(tmp_path, text, line, problem):
    bad = tmp_path / "bad.conll"
    bad.write_text(text)
    res = run("score", str(bad), str(bad))
    msg = one_error_line(res)
    assert f"{bad}:{line}:" in msg and problem in msg


def test_non_utf8_and_missing_files(tmp_path):
    bad = tmp_path / "latin1.conll"
    bad.write_bytes("#begin document (d);\nd\t0\t0\tcaf\xe9\t-\n#end document\n".encode("latin-1"))
    res = run("score", str(bad), str(bad))
    assert res.exit_code == 2 and "not valid UTF-8" in res.output and f"{bad}:2:" in res.output
    res = run("score", str(tmp_path / "nope.conll"), str(bad))
    assert res.exit_code == 2 and "no such file" in res.output


def test_token_count_mismatch_is_an_error(tmp_path):
    k = tmp_path / "k.conll"
    r = tmp_path / "r.conll"
    k.write_text(DOC)
    r.write_text(DOC.replace("d\t0\t1\tsaw\t-\n", ""))
    res = run("score", str(k), str(r))
    assert res.exit_code == 2 and "3 tokens in the key" in res.output and "2 in the response" in res.output


def test_word_mismatch_warns_and_strict_tokens_fails(tmp_path):
    k = tmp_path / "k.conll"
    r = tmp_path / "r.conll"
    k.write_text(DOC)
    r.write_text(DOC.replace("saw", "see"))
    res = run("score", str(k), str(r), "-f", "json")
    assert res.exit_code == 0
    assert "token 1 (sentence 1, word 2) is 'saw' in the key" in res.output
    res = run("score", str(k), str(r), "--strict-tokens")
    assert res.exit_code == 2


def test_never_overwrites_without_force(tmp_path):
    out = tmp_path / "scores.json"
    out.write_text("precious")
    res = run("score", "--example", "-f", "json", "-o", str(out))
    assert res.exit_code == 2 and "--force" in res.output
    assert out.read_text() == "precious"
    res = run("score", "--example", "-f", "json", "-o", str(out), "--force")
    assert res.exit_code == 0 and json.loads(out.read_text())["documents"] == 3


@pytest.mark.parametrize("fmt, marker", [("csv", "metric,recall,precision,f1"), ("markdown", "| metric |"),
                                         ("latex", r"\toprule"), ("table", "CoNLL")])
def test_formats(fmt, marker):
    """Every format shows the numbers of the JSON: the MUC row with R, P, F1 and its counts."""
    muc = json.loads(run("score", "--example", "-f", "json", "-q").stdout)["metrics"]["muc"]
    res = run("score", "--example", "-f", fmt, "-q")
    assert res.exit_code == 0 and marker in res.stdout
    p = [f"{100 * muc[k]:.2f}" for k in ("recall", "precision", "f1")]
    counts = [f"{muc[k]:g}" for k in ("recall_num", "recall_den", "precision_num", "precision_den")]
    line = next(x for x in res.stdout.splitlines() if "MUC" in x or x.startswith("muc,") or ",muc," in x)
    if fmt == "csv":
        cells = line.split(",")
        assert cells[cells.index("muc") + 1:][:7] == [repr(muc[k]) for k in ("recall", "precision", "f1")] + counts
    elif fmt == "table":
        assert line.split() == ["MUC", "|", *p[:1], "|", p[1], "|", p[2], "|", "/".join(counts[:2]), "|",
                                "/".join(counts[2:])]
    else:
        sep = "&" if fmt == "latex" else "|"
        cells = [c.strip() for c in line.strip(" |\\").split(sep)]
        assert cells == ["MUC", *p, *counts]


def test_missing_key_document_is_scored_as_empty_and_warned(tmp_path):
    k = tmp_path / "k.conll"
    r = tmp_path / "r.conll"
    k.write_text(DOC + DOC.replace("(d); part 000", "(e); part 000"))
    r.write_text(DOC)
    res = run("score", str(k), str(r), "-f", "json", "-m", "muc")
    assert res.exit_code == 0
    out = json.loads(res.stdout)
    assert out["metrics"]["muc"]["recall_num"] == 1 and out["metrics"]["muc"]["recall_den"] == 2
    assert any("missing from the response" in w for w in out["warnings"])


def test_plink_by_sentence_type_sums_to_muc():
    """Zeldes' p-link by GUM's sentence type (12th column): Σ_π N(π) = MUC numerator, Σ D_K = MUC
    recall denominator (metric-semantics P4, P6)."""
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    resp = shared_path("data", "xrenner", "conll2012", "ml-gum.conll")
    res = run("score", str(key), str(resp), "-m", "muc,plink", "--by", "col12", "-f", "json", "-q")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    cats = out["plink"]["categories"]
    assert {"decl", "q", "imp", "wh"} <= set(cats)
    assert sum(c["recall_num"] for c in cats.values()) == out["metrics"]["muc"]["recall_num"] == 1491
    assert sum(c["recall_den"] for c in cats.values()) == out["metrics"]["muc"]["recall_den"] == 2448
    # D_R: this response repeats the non-key span 401–404 inside chain 156, which the reference's MUC
    # counts as one more link (2152); p-link keeps it too (P3 drops only repeated key mentions)
    assert sum(c["precision_den"] for c in cats.values()) == out["metrics"]["muc"]["precision_den"] == 2152


def test_plink_needs_by():
    res = run("score", "--example", "-m", "plink")
    assert res.exit_code == 2 and "--by" in res.output


def test_arcs_tables_and_links_on_gum(tmp_path):
    """GUM gold vs real xrenner output: full ARCS tables from the CLI (by mention type, POS class,
    pronoun, entity type, genre) whose breakdowns sum to the totals, and the outcome rows."""
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    resp = shared_path("data", "xrenner", "conll2012", "ml-gum.conll")
    links = tmp_path / "rows.jsonl"
    res = run("score", str(key), str(resp), "-a", "arcs", "-f", "json", "-q", "--links", str(links),
              "--by", "mtype", "--by", "pos_class", "--by", "pronoun", "--by", "ne", "--by", "genre")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    arcs = out["arcs"]
    assert set(arcs) == {"immediate", "inferred", "anchor"}
    for scenario in arcs.values():
        total = scenario["total"]
        assert total["recall"] == pytest.approx(total["tp"] / (total["tp"] + total["wl"] + total["fn"]))
        assert total["precision"] == pytest.approx(total["tp"] / (total["tp"] + total["wl"] + total["fp"]))
        for feature in ("mtype", "pos_class", "ne", "genre"):
            for k in ("tp", "wl", "fn", "fp"):
                assert sum(v[k] for v in scenario["by"][feature].values()) == total[k]
    assert {"PRP", "PRP$", "NOUN"} <= set(arcs["immediate"]["by"]["pos_class"])
    assert {"GUM_news", "GUM_bio"} <= set(arcs["immediate"]["by"]["genre"])
    assert 0 < arcs["anchor"]["f_phi"] < 1 and "ed" in arcs["anchor"] and "em" in arcs["anchor"]
    rows = [json.loads(line) for line in links.read_text().splitlines()]
    imm = [r for r in rows if r["analysis"] == "immediate"]
    assert sum(r["outcome"] == "TP" for r in imm) == arcs["immediate"]["total"]["tp"]
    # the released v1.2 scripts' totals on this pair (see test_arcs.test_gum_totals_regression)
    tp_wl_fn_fp = {s: tuple(arcs[s]["total"][k] for k in ("tp", "wl", "fn", "fp")) for s in arcs}
    assert tp_wl_fn_fp["immediate"] == (1035, 520, 748, 465)
    res = run("score", str(key), str(resp), "-a", "arcs", "-f", "json", "-q", "--arcs-compat", "--arcs-singletons")
    compat = json.loads(res.stdout)
    assert compat["signature"].count("arcs:v1.2+singletons") == 1 and "arcs:" not in out["signature"]
    assert tuple(compat["arcs"]["inferred"]["total"][k] for k in ("tp", "wl", "fn", "fp")) == (1044, 359, 898, 446)
    # scenario 3 under --arcs-compat: what ARCS v1.2 itself prints (tests/data/arcs_v12: EM tp 1348, fn 934, fp 337)
    assert tuple(compat["arcs"]["anchor"]["total"][k] for k in ("tp", "wl", "fn", "fp")) == (1348, 0, 934, 337)


def test_links_needs_an_analysis(tmp_path):
    res = run("score", "--example", "--links", str(tmp_path / "x.jsonl"))
    assert res.exit_code == 2 and "--analysis" in res.output
