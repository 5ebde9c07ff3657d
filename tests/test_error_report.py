"""The report's error-class section (report/errors.py) on GUM gold vs xrenner ml: its numbers are
those of ``corefreport score -a errors -f json`` (a separate CLI run), its chart has one bar per
class with the class's cumulative CoNLL cost, and its examples are the rows' explanations."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.io import load_corpus
from corefreport.present.numbers import signed
from corefreport.report.model import build
from corefreport.scoring.errorclasses import CLASSES
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

DATA = Path(__file__).parent.parent.parent / "shared" / "data"
GUM = DATA / "gum" / "derived" / "conll2012" / "gum.conll"
ML = DATA / "xrenner" / "conll2012" / "ml-gum.conll"

pytestmark = pytest.mark.skipif(not GUM.exists(), reason="shared data not present")


@pytest.fixture(scope="module")
def both():
    res = CliRunner().invoke(app, ["score", str(GUM), str(ML), "-a", "errors", "-f", "json", "-q"])
    assert res.exit_code == 0, res.output
    ev = evaluate(load_corpus(str(GUM)), load_corpus(str(ML)), Settings(analyses=("errors",)))
    return json.loads(res.output)["errors"], build(ev, sections=["errors"]).section("errors")


def test_the_section_numbers_are_score_json(both):
    d, sec = both
    costs = {c["class"]: c for c in d["costs"]}
    table = sec.tables[0]
    rows = {r[0]: r for r in table.rows}
    for c in CLASSES:
        assert rows[c][1] == d["counts"][c]
        cum = table.header.index("cumulative_conll_f1")
        alone = table.header.index("alone_conll_f1")
        assert rows[c][cum] == pytest.approx(costs[c]["cumulative"]["conll"], abs=1e-12)
        assert rows[c][alone] == pytest.approx(costs[c]["alone"]["conll"], abs=1e-12)
    assert rows["Leftover (not classified)"][1] == d["leftover_mentions"]
    types = sec.tables[1]
    assert {r[0]: r[-1] for r in types.rows} == d["counts"]
    assert {r[0]: sum(r[1:-1]) for r in types.rows} == d["counts"]


def test_the_cost_chart_has_a_bar_per_class_with_its_cost(both):
    d, sec = both
    chart = sec.charts[0]
    bars = {r.title.split(":")[0]: r.title for r in chart.rects if r.title}
    for c in d["costs"]:
        if c["cumulative"]["conll"] > 0:
            assert f"{signed(c['cumulative']['conll'])} points" in bars[c["class"]]
    # the scores' mentions (GUM annotates singletons: kept on both sides); the analyser's mode T gave +8.16, 444
    assert "Conflated Entities: +5.17 points, 426 errors" == bars["Conflated Entities"]


def test_examples_are_explained_rows_with_their_mentions_marked(both):
    d, sec = both
    explanations = {r["explanation"] for r in d["rows"]}
    notes = [p.text for p in sec.blocks if getattr(p, "kind", None) == "note"][:-1]
    leftover = {r["explanation"] for r in d["leftovers"]}
    assert 7 * 3 <= len(notes) - 4 <= 7 * 5  # the leftover's 4 examples last
    assert all(n[:-1] in explanations for n in notes[:-4]) and all(n[:-1] in leftover for n in notes[-4:])
    # the leftover: 536 surviving response mentions (no class removes an extra one-mention entity:
    # the analyser counts no error for the piece holding its entity's earliest non-pronoun) and
    # the key singletons missed
    extra = d["leftover_mentions"]
    assert sum(r["detail"] == "extra" for r in d["leftovers"]) == extra == 536
    n = len(d["leftovers"])
    assert f"Leftover (not classified): {n} mentions no class fixes" in sec.text
    # the missing ones: the key singletons whose span no response entity has (the scores' mentions:
    # the response's singletons take part; a span in two entities stays in the first), counted here
    # from the files, less those a Span Error moves a response mention onto
    key, resp = load_corpus(str(GUM)), load_corpus(str(ML))
    missed = set()
    for doc in key:
        spans = {m.span for c in resp.documents[doc.doc_id].chains for m in c.mentions}
        missed |= {(doc.doc_id, tuple(c.mentions[0].span)) for c in doc.chains
                   if len(c.mentions) == 1 and c.mentions[0].span not in spans}
    moved = {(r["doc_id"], tuple(r["mentions"][1])) for r in d["rows"] if r["class"] == "Span Error"}
    assert sum(r["detail"] == "missing" for r in d["leftovers"]) == len(missed - moved) == n - extra
    texts = [p.text for p in sec.blocks if getattr(p, "kind", None) == ""][1:]
    assert all(re.search("«[^»]+»", t) for t in texts)
    assert ("GUM_academic_discrimination, sentence 18: … specifically , those who responded with sometimes or often "
            "to the perceived «discrimination» measure described above — were asked the following question :") in texts


def test_report_cli_writes_the_section(tmp_path):
    out = tmp_path / "r.html"
    res = CliRunner().invoke(app, ["report", str(GUM), str(ML), "-a", "errors", "-o", str(out), "-q"])
    assert res.exit_code == 0, res.output
    html = out.read_text()
    assert "Error classes (Kummerfeld &amp; Klein 2013)" in html and "Kummerfeld" in html
    assert "«discrimination»" in html


def test_several_systems_compare_the_classes_in_the_systems_section(tmp_path):
    out = tmp_path / "r.html"
    res = CliRunner().invoke(app, ["report", str(GUM), "-r", f"ml={ML}", "-r",
                                   f"rules={DATA / 'xrenner' / 'conll2012' / 'rules-gum.conll'}", "-a", "errors",
                                   "-o", str(out), "-q"])
    assert res.exit_code == 0, res.output
    html = out.read_text()
    assert html.count("Error classes (Kummerfeld &amp; Klein 2013): rules vs ml") == 1
    row = re.search(r"<tr><td>Conflated Entities</td>(.*?)</tr>", html).group(1)
    assert [c for c in re.findall(r">([^<]*)</td>", row)][:3] == ["426", "805", "+379*"]


def test_breakdown_by_genre_adds_up_the_documents_of_each_genre():
    """With another analysis the documents carry mention features: the errors by genre equal the
    per-document counts summed over the documents of each genre (GUM's genre is in its ids)."""
    res = CliRunner().invoke(app, ["score", str(GUM), str(ML), "-a", "errors", "-a", "arcs", "-f", "json", "-q"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)["errors"]
    by_genre: dict[str, int] = {}
    for doc, v in d["per_document"].items():
        genre = "_".join(doc.split("_")[:2])
        for c, n in v["counts"].items():
            by_genre[f"{c}|{genre}"] = by_genre.get(f"{c}|{genre}", 0) + n
    assert d["by_feature"]["genre"] == by_genre
    assert sum(n for k, n in d["by_feature"]["ne"].items() if k.startswith("Conflated Entities|")) == 426
    assert d["by_joined_types"]["Conflated Entities|NOMINAL/NOMINAL"] == 133
