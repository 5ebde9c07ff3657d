"""``score --by genre`` / ``--subsets``: the standard metrics per group of documents.

Expected values: the reference scorer's (scorer.pl v8.01) per-document counts in
``../shared/data/xrenner/reference-scores/per_document.tsv`` (GUM gold vs xrenner ml/gum), summed per
genre here and turned into F1 — independent of corefreport — and the issue's figures (issue 28,
``tests/reference_values.py`` GENRE_CONLL and GENRE_MACRO).
"""

from __future__ import annotations

import csv
import json
import re
from collections import defaultdict

import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from conftest import one_error_line, shared_path
from reference_values import GENRE_CONLL, GENRE_MACRO

runner = CliRunner()
DOC = "#begin document ({d}); part 000\n{d}\t0\t0\tJohn\t(1)\n{d}\t0\t1\tsaw\t-\n{d}\t0\t2\thim\t{c}\n#end document\n"


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def reference_counts() -> dict[tuple[str, str], list[float]]:
    """(genre, metric) → [rn, rd, pn, pd] summed over the reference's per-document rows."""
    path = shared_path("data", "xrenner", "reference-scores", "per_document.tsv")
    sums: dict = defaultdict(lambda: [0.0] * 4)
    with open(path, encoding="utf-8") as f:
        for r in csv.DictReader(f, delimiter="\t"):
            if r["pair"] == "gum_vs_ml-gum":
                s = sums[(r["document"].split("_")[1], r["metric"])]
                for i, k in enumerate(("recall_num", "recall_den", "precision_num", "precision_den")):
                    s[i] += float(r[k])
    return sums


def _f1(c: list[float]) -> float:
    r, p = c[0] / c[1], c[2] / c[3]
    return 2 * p * r / (p + r)


@pytest.fixture(scope="module")
def gum_by_genre():
    key = shared_path("data", "gum", "derived", "conll2012", "gum.conll")
    resp = shared_path("data", "xrenner", "conll2012", "ml-gum.conll")
    res = run("score", key, resp, "--by", "genre", "-m", "muc,bcub,ceafe,ceafm", "-f", "json", "-q")
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)["subsets"]["genre"]


def test_per_genre_counts_are_the_reference_scorers_summed(gum_by_genre):
    ref = reference_counts()
    groups = gum_by_genre["groups"]
    assert list(groups) == [f"GUM_{g}" for g in GENRE_CONLL]
    for genre in GENRE_CONLL:
        for metric in ("muc", "bcub", "ceafe", "ceafm"):
            got = groups[f"GUM_{genre}"]["metrics"][metric]
            want = ref[(genre, metric)]
            assert [got["recall_num"], got["recall_den"], got["precision_num"], got["precision_den"]] == \
                pytest.approx(want, rel=1e-9), (genre, metric)


def test_per_genre_conll_and_macro_are_the_issues(gum_by_genre):
    ref = reference_counts()
    conll = {}
    for genre, expected in GENRE_CONLL.items():
        conll[genre] = 100 * sum(_f1(ref[(genre, m)]) for m in ("muc", "bcub", "ceafe")) / 3
        assert round(conll[genre], 4) == expected
        assert 100 * gum_by_genre["groups"][f"GUM_{genre}"]["metrics"]["conll"]["f1"] == pytest.approx(conll[genre],
                                                                                                       abs=1e-9)
    assert 100 * gum_by_genre["macro"]["conll"]["f1"] == pytest.approx(sum(conll.values()) / 5, abs=1e-9)
    assert round(100 * gum_by_genre["macro"]["conll"]["f1"], 4) == GENRE_MACRO
    assert gum_by_genre["micro"]["documents"] == 20 and gum_by_genre["micro"]["words"] == 18278


def _pair(tmp_path, docs):
    key = "".join(DOC.format(d=d, c="(1)") for d, _ in docs)
    resp = "".join(DOC.format(d=d, c=c) for d, c in docs)
    (tmp_path / "k.conll").write_text(key, encoding="utf-8")
    (tmp_path / "r.conll").write_text(resp, encoding="utf-8")
    return tmp_path / "k.conll", tmp_path / "r.conll"


def test_a_groups_file_and_the_macro_row(tmp_path):
    k, r = _pair(tmp_path, [("a", "(1)"), ("b", "(2)"), ("c", "(1)")])
    groups = tmp_path / "split.tsv"
    groups.write_text("# doc\tgroup\na\tx\nb\tx\nc\ty\n", encoding="utf-8")
    res = run("score", k, r, "--subsets", groups, "-m", "muc", "-f", "json")
    assert res.exit_code == 0, res.output
    sub = json.loads(res.stdout)["subsets"]["split"]
    assert sub["groups"]["x"]["metrics"]["muc"]["recall"] == 0.5  # a right, b wrong: 1 of 2 links
    assert sub["groups"]["y"]["metrics"]["muc"]["f1"] == 1.0
    assert sub["macro"]["muc"]["recall"] == 0.75 and sub["micro"]["metrics"]["muc"]["recall"] == pytest.approx(2 / 3)
    table = run("score", k, r, "--subsets", groups, "-m", "muc")
    assert "F1 per split" in table.stdout and "macro" in table.stdout


def test_length_buckets_by_words(tmp_path):
    k, r = _pair(tmp_path, [("a", "(1)"), ("b", "(2)")])
    res = run("score", k, r, "--subsets", "length:2,3", "-m", "muc", "-f", "json")
    assert res.exit_code == 0, res.output
    assert list(json.loads(res.stdout)["subsets"]["length:2,3"]["groups"]) == ["3–3"]


@pytest.mark.parametrize("spec, problem", [
    ("length:5,2", "increasing positive word counts"),
    ("nonsense", "--subsets takes genre, length[:EDGES] or a file"),
])
def test_bad_groupings_are_one_error_line(tmp_path, spec, problem):
    k, r = _pair(tmp_path, [("a", "(1)")])
    assert problem in one_error_line(run("score", k, r, "--subsets", spec))


def test_a_bad_groups_file_names_its_line(tmp_path):
    k, r = _pair(tmp_path, [("a", "(1)")])
    groups = tmp_path / "g.tsv"
    groups.write_text("a\tx\na\ty\n", encoding="utf-8")
    assert "g.tsv:2: document 'a' is also on line 1" in one_error_line(run("score", k, r, "--subsets", groups))


def test_by_genre_without_an_analysis_is_no_longer_refused_but_a_feature_still_is(tmp_path):
    k, r = _pair(tmp_path, [("a", "(1)")])
    assert run("score", k, r, "--by", "genre").exit_code == 0
    assert "breaks down link-level scores" in one_error_line(run("score", k, r, "--by", "mtype"))


def test_the_fast_path_prints_the_same(tmp_path, capsys):
    from corefreport.cli.fast import try_score

    k, r = _pair(tmp_path, [("a", "(1)"), ("b", "(2)")])
    assert try_score(["score", str(k), str(r), "--subsets", "length", "--subsets", "genre"])
    assert capsys.readouterr().out == run("score", k, r, "--subsets", "length", "--by", "genre").stdout != ""


def test_a_genre_the_file_gives_is_the_genre(tmp_path, corefud_gum_pairs):
    """CoNLL-U ``# meta::genre =`` (GUM's own comment) and a JSON line's ``"genre"``: the groups are
    the file's genres, with the counts of the id-derived groups they rename."""
    key = (corefud_gum_pairs / "key.conllu").read_text()
    with_genre = re.sub(r"(# newdoc id = GUM_([a-z]+)_\w+\n)", r"\1# meta::genre = \2\n", key)
    assert with_genre.count("# meta::genre") == 5
    (tmp_path / "key.conllu").write_text(with_genre)
    resp = corefud_gum_pairs / "response-xrenner.conllu"
    by_id = run("score", corefud_gum_pairs / "key.conllu", resp, "--subsets", "genre", "-f", "json")
    by_file = run("score", tmp_path / "key.conllu", resp, "--subsets", "genre", "-f", "json")
    assert by_id.exit_code == 0 and by_file.exit_code == 0, by_file.output
    a = json.loads(by_id.stdout)["subsets"]["genre"]["groups"]
    b = json.loads(by_file.stdout)["subsets"]["genre"]["groups"]
    assert list(b) == [g.removeprefix("GUM_") for g in a] == ["academic", "bio", "court", "interview", "news"]
    assert [b[g.removeprefix("GUM_")] for g in a] == list(a.values())
    doc = {"doc_key": "x_1", "genre": "nw", "sentences": [["A", "b", "it"]], "clusters": [[[0, 0], [2, 2]]]}
    (tmp_path / "k.jsonl").write_text(json.dumps(doc) + "\n" + json.dumps({**doc, "doc_key": "y_2", "genre": "bc"}))
    res = run("score", tmp_path / "k.jsonl", tmp_path / "k.jsonl", "--subsets", "genre", "-f", "json")
    assert list(json.loads(res.stdout)["subsets"]["genre"]["groups"]) == ["bc", "nw"]


def test_entity_spread_breaks_the_link_level_analyses_down(tmp_path):
    """--by spread: each referent by its entity's spread, the sentences between the entity's first
    and last mention (00, 01-02, 03-09, 10+). A: sentences 0 and 3 (03-09); B: 1 and 1 (00);
    C: 0, 1, 2 (01-02); ARCS's immediate-antecedent referents are the non-first mentions."""
    sents = [[("Ann", "(1)"), ("met", "(3)"), ("x", "-")], [("Bob", "(2)"), ("Bob", "(2)"), ("it", "(3)")],
             [("they", "(3)"), ("y", "-"), ("z", "-")], [("she", "(1)"), (".", "-"), ("w", "-")],
             [("q", "-")] * 3, [("q", "-")] * 3, [("q", "-")] * 3, [("q", "-")] * 3, [("q", "-")] * 3,
             [("q", "-")] * 3, [("Ann", "(1)"), ("q", "-"), ("q", "-")]]
    lines = ["#begin document (d); part 000"]
    for s in sents:
        lines += [f"d\t0\t{i}\t{w}\t{c}" for i, (w, c) in enumerate(s)] + [""]
    (tmp_path / "k.conll").write_text("\n".join(lines + ["#end document", ""]))
    res = run("score", tmp_path / "k.conll", tmp_path / "k.conll", "-a", "arcs", "--by", "spread", "-f", "json")
    assert res.exit_code == 0, res.output
    by = json.loads(res.stdout)["arcs"]["immediate"]["by"]["spread"]
    # A now spans sentences 0–10 (10+): 2 referents; B (00): 1; C (01-02): 2
    assert {k: v["tp"] for k, v in by.items()} == {"00": 1, "01-02": 2, "10+": 2}
