"""CRAC 2026's empty-node score (``-m empty_nodes``) against ``crac2026_empty_nodes_eval.py``.

``tests/data/crac2026_empty/expected.json`` holds what the script (ufal/crac2026_empty_nodes_baseline,
commit bc167f2) printed — ``ARC: f1=…%, p=…%, r=…%`` and nine more rows — on the pairs of that folder
(hand-made and 40 random ones, ``build.py``), on corefud-scorer's zero test files and on
``tests/data/corefud_zeros`` (``run_script.py`` says how). corefreport must print the same numbers
wherever the script prints any, except where the script is known to be wrong (a second blank line,
documents in another order: docs/matching.md, "Not reproduced"); where the script stops, the numbers
are counted here by hand.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import corefreport
from corefreport.cli import app
from corefreport.scoring.empty_nodes import METRICS, NAMES
from corefreport.scoring.options import settings_from
from conftest import load_script, one_error_line, shared_path
from independent_readers import row_cells

ROOT = Path(__file__).resolve().parent
HERE = ROOT / "data" / "crac2026_empty"
ZEROS = ("data", "corefud", "scorer-tests", "zeros")
"""corefud-scorer's test files with zeros, under ../shared (:func:`conftest.shared_path`: a test skips when absent)."""
EXPECTED = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
NOT_REPRODUCED = {"response-blankline.conllu", "response-reordered.conllu", "split-response.conllu"}
"""The script's numbers that are wrong (a shift), and the pair whose sentences do not line up (an error here)."""
runner = CliRunner()


def run(*args):
    return runner.invoke(app, [str(a) for a in args])


def path(name: str) -> Path:
    if name.startswith("zeros/"):
        return shared_path(*ZEROS, name[len("zeros/"):])
    if name.startswith("corefud_zeros/"):
        return ROOT / "data" / name
    return HERE / name


def printed(metrics: dict) -> str:
    """The script's output for corefreport's scores (its format: f1, p, r in percent, two decimals)."""
    return "".join("{}: f1={:.2f}%, p={:.2f}%, r={:.2f}%\n".format(NAMES[m], 100 * metrics[m]["f1"],
                                                                   100 * metrics[m]["precision"],
                                                                   100 * metrics[m]["recall"]) for m in METRICS)


def scores(gold: Path, system: Path) -> dict:
    return corefreport.score(str(gold), str(system), metrics="empty_nodes")["metrics"]


CASES = [c for c in EXPECTED["cases"] if c["exit_status"] == 0 and c["system"] not in NOT_REPRODUCED]
STOPPED = [c for c in EXPECTED["cases"] if c["exit_status"] != 0]


def test_the_fixtures_cover_what_the_issue_asks():
    names = {c["system"] for c in CASES}
    assert {"response-missing.conllu", "response-extra.conllu", "response-attributes.conllu",
            "response-multiset.conllu", "nocoref-response.conllu"} <= names
    assert sum(c["system"].startswith("random/") for c in CASES) == 40
    assert sum(c["system"].startswith("zeros/") for c in CASES) == 8  # TC-ZF, TC-ZG: the others stop
    assert sum(c["system"].startswith("corefud_zeros/") for c in CASES) == 3
    assert len(STOPPED) == 15 and all(c["error"].startswith("ValueError") for c in STOPPED)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['gold']}|{c['system']}" for c in CASES])
def test_every_number_the_script_printed(case):
    assert printed(scores(path(case["gold"]), path(case["system"]))) == case["printed"]


def test_the_attribute_mismatches_counted_by_hand():
    """key.conllu has 8 empty nodes; response-attributes.conllu has each of FORM, LEMMA, UPOS, XPOS,
    FEATS, deprel and word order wrong on one node and the head wrong on an eighth: ARC finds 7 of 8,
    each one-attribute row 6 (the head and that attribute), DEP_WO 5, ALL none."""
    m = scores(HERE / "key.conllu", HERE / "response-attributes.conllu")
    found = {k: (v["recall_num"], v["recall_den"], v["precision_num"], v["precision_den"]) for k, v in m.items()}
    assert found == {"empty_nodes_arc": (7, 8, 7, 8), "empty_nodes_dep": (6, 8, 6, 8), "empty_nodes_wo": (6, 8, 6, 8),
                     "empty_nodes_dep_wo": (5, 8, 5, 8), "empty_nodes_form": (6, 8, 6, 8),
                     "empty_nodes_lemma": (6, 8, 6, 8), "empty_nodes_upos": (6, 8, 6, 8),
                     "empty_nodes_xpos": (6, 8, 6, 8), "empty_nodes_feats": (6, 8, 6, 8),
                     "empty_nodes_all": (0, 8, 0, 8)}


def test_multisets_a_missing_and_an_extra_node():
    # three system nodes under one head where the gold has two: 2 true, 1 false positive; one where two: 1 missed
    m = scores(HERE / "key.conllu", HERE / "response-multiset.conllu")["empty_nodes_arc"]
    assert (m["recall_num"], m["recall_den"], m["precision_den"]) == (7, 8, 8)
    m = scores(HERE / "key.conllu", HERE / "response-missing.conllu")["empty_nodes_all"]
    assert (m["recall_num"], m["recall_den"], m["precision_den"]) == (7, 8, 7)
    m = scores(HERE / "key.conllu", HERE / "response-extra.conllu")["empty_nodes_all"]
    assert (m["recall_num"], m["recall_den"], m["precision_den"]) == (8, 8, 9)


def test_a_second_blank_line_or_another_document_order_shifts_nothing_here():
    """The script numbers sentences by blank lines over the whole file: an extra blank line after the
    first sentence compares every later sentence with the next one (ARC 87.50 → 12.50), documents in
    another order the documents with each other (50.00). corefreport pairs documents by id and reads
    their sentences: the numbers of the pair without the blank line, in order."""
    by = {c["system"]: c["printed"] for c in EXPECTED["cases"] if c["gold"] == "key.conllu"}
    assert by["response-attributes.conllu"].startswith("ARC: f1=87.50%")
    assert by["response-blankline.conllu"].startswith("ARC: f1=12.50%")
    assert by["response-reordered.conllu"].startswith("ARC: f1=50.00%")
    for name in ("response-blankline.conllu", "response-reordered.conllu"):
        assert printed(scores(HERE / "key.conllu", HERE / name)) == by["response-attributes.conllu"]


def test_sentences_that_do_not_line_up_are_an_error_naming_the_first():
    line = one_error_line(run("score", HERE / "key.conllu", HERE / "split-response.conllu", "-m", "empty_nodes"))
    assert "split-response.conllu: document 'story-1': sentence 2 is 'Said she was tired' … (7 words) in the key" in line
    assert "but is 'Said she was' (3 words) in the response: the sentences do not line up" in line


def test_where_the_script_stops():
    """emptyhead-key: one first DEPS head is an empty node (``5.1:det``), one DEPS is ``_``; the response
    has the same nodes, one FORM changed. The script raises ValueError; here the head is kept as
    written (``5.1``, ``_``): every node found, FORM and ALL miss the one changed."""
    m = scores(HERE / "emptyhead-key.conllu", HERE / "emptyhead-response.conllu")
    assert {k: v["recall_num"] for k, v in m.items()} == {k: 7 if k in ("empty_nodes_form", "empty_nodes_all") else 8
                                                           for k in METRICS}
    assert all(v["recall_den"] == v["precision_den"] == 8 for v in m.values())


def test_corefud_scorers_zero_files_whose_deps_are_underscore():
    """TC-ZA.key has one empty node (5.1, DEPS ``_``, second sentence); TC-ZA-3's response two (5.1 and
    a spurious 4.1 of the first sentence, both DEPS ``_``): keyed (sentence, ``_``), 1 true, 1 false
    positive; WO also tells 5 from 4. TC-ZA-2's has none."""
    m = scores(path("zeros/TC-ZA.key"), path("zeros/TC-ZA-3.response"))
    assert [m["empty_nodes_arc"][k] for k in ("recall_num", "recall_den", "precision_den")] == [1, 1, 2]
    assert m["empty_nodes_wo"]["recall_num"] == 1
    m = scores(path("zeros/TC-ZA.key"), path("zeros/TC-ZA-2.response"))
    assert [m["empty_nodes_arc"][k] for k in ("recall_num", "recall_den", "precision_den")] == [0, 1, 0]


def test_gum_gold_has_empty_heads_the_script_stops_on(corefud_gum_pairs):
    """GUM's gold writes ``9.2:det`` and ``17.2:det`` (the script stops); xrenner's response keeps the
    key's skeleton: every empty node found, in all ten rows."""
    key = corefud_gum_pairs / "key.conllu"
    text = key.read_text(encoding="utf-8")
    n = len(re.findall(r"^\d+\.\d+\t", text, flags=re.M))
    assert n == 8 and "\t9.2:det\t" in text
    m = scores(key, corefud_gum_pairs / "response-xrenner.conllu")
    assert all((v["recall_num"], v["recall_den"], v["precision_den"]) == (n, n, n) for v in m.values())


def test_files_without_coreference():
    res = run("score", HERE / "nocoref-key.conllu", HERE / "nocoref-response.conllu", "-m", "empty_nodes", "-f", "json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["metrics"]["empty_nodes_arc"]["recall_num"] == 7 and "no mentions" not in res.stderr
    # a score of coreference chains still needs them
    line = one_error_line(run("score", HERE / "nocoref-key.conllu", HERE / "nocoref-response.conllu", "-m", "muc"))
    assert "the key has no mentions" in line


def test_every_output_shows_it(tmp_path):
    key, resp, other = HERE / "key.conllu", HERE / "response-attributes.conllu", HERE / "response-missing.conllu"
    table = run("score", key, resp, "-m", "empty_nodes")
    assert table.exit_code == 0, table.output
    rows = {line.split("|")[0].strip(): [x.strip() for x in line.split("|")[1:]] for line in table.stdout.splitlines()
            if "|" in line}
    assert rows["Empty nodes ARC"][:5] == ["87.50", "87.50", "87.50", "7/8", "7/8"]
    assert rows["Empty nodes DEP_WO"][2] == "62.50"
    csv = run("score", key, resp, "-m", "empty_nodes_all", "-f", "csv")
    assert csv.exit_code == 0 and "empty_nodes_all" in csv.stdout
    cmp = run("compare", key, resp, other, "-m", "empty_nodes", "-f", "json")
    assert cmp.exit_code == 0, cmp.output
    data = json.loads(cmp.stdout)
    assert "empty_nodes_dep" in json.dumps(data)
    html = tmp_path / "r.html"
    assert run("report", key, resp, "-m", "empty_nodes", "-o", html, "-q").exit_code == 0
    assert "Empty nodes DEP_WO" in html.read_text(encoding="utf-8")


def test_the_group_name_selects_the_ten_rows():
    assert settings_from(metrics="empty_nodes").metrics == METRICS
    assert settings_from(metrics="muc,empty_nodes_wo").metrics == ("muc", "empty_nodes_wo")


def test_the_ranking_has_the_column_only_where_a_key_has_empty_nodes(tmp_path):
    keys, responses = tmp_path / "keys", tmp_path / "responses"
    keys.mkdir()
    responses.mkdir()
    fixture = ROOT / "data" / "corefud"
    (keys / "a.conllu").write_bytes((HERE / "key.conllu").read_bytes())
    (responses / "a.conllu").write_bytes((HERE / "response-attributes.conllu").read_bytes())
    (keys / "b.conllu").write_bytes((fixture / "crac.key.conllu").read_bytes())
    (responses / "b.conllu").write_bytes((fixture / "crac.response.conllu").read_bytes())
    res = run("score", "--datasets", keys, responses, "--preset", "crac", "-f", "json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert list(out["empty_nodes"]["datasets"]) == ["a"]
    assert out["empty_nodes"]["datasets"]["a"]["empty_nodes_dep_wo"]["f1"] == pytest.approx(5 / 8)
    assert out["empty_nodes"]["macro"]["empty_nodes_arc"]["f1"] == pytest.approx(7 / 8)
    assert "|empty:crac2026|" in out["signature"] and "empty_nodes_arc" not in out["signature"]
    assert set(out["metrics"]["b"]["head"]) == {"muc", "bcub", "ceafe"}
    table = run("score", "--datasets", keys, responses, "--preset", "crac").stdout

    def row(name: str) -> list[str]:  # a row's cells across the table's parts (100 columns)
        return row_cells(table, name)

    assert row("dataset")[-1] == "empty nodes (ARC)"
    assert row("a")[-1] == "87.50" and row("b")[-1] == "n/a" and row("avg")[-1] == "87.50"
    # without empty nodes in any key: the ranking as before
    (keys / "a.conllu").unlink()
    (responses / "a.conllu").unlink()
    out = json.loads(run("score", "--datasets", keys, responses, "--preset", "crac", "-f", "json").stdout)
    assert "empty_nodes" not in out and "empty:" not in out["signature"]


def test_build_writes_the_committed_inputs(tmp_path):
    """build.py is deterministic: the files the script ran on are the ones it writes."""
    load_script(HERE / "build.py", "crac2026_empty_build").main(tmp_path)
    written = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.conllu"))
    committed = sorted(p.relative_to(HERE) for p in HERE.rglob("*.conllu"))
    assert written == committed and len(written) == 93
    assert all((tmp_path / p).read_bytes() == (HERE / p).read_bytes() for p in written)
