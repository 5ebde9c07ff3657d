"""The error classes' digest (issue 35, "-a errors streams its parts"): when ``score`` writes tables
(not JSON, not ``--links``), the errors part keeps what the tables read — the group-bys, the
example candidates, the sums of the states, each document's CoNLL per state — instead of every row
and document's states. The tables must be the same, byte for byte, as those of the same
evaluation with every row kept; and the complete part's digest must equal the group-bys, examples
and sums taken over its rows and states directly (what the code before the digest computed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from corefreport.cli import app
from corefreport.cli.output import example_paths
from corefreport.io import load_corpus
from corefreport.io.pairs import CHUNK
from corefreport.present.errortables import examples
from corefreport.present.sampling import spread_over_documents
from corefreport.present.study import evaluation_output
from corefreport.scoring import errorclasses as E
from corefreport.scoring.counts import Counts
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
GUM = DATA / "gum" / "derived" / "conll2012" / "gum.conll"
XRENNER = DATA / "xrenner" / "conll2012"

OPTIONS = {
    "plain": {},
    "by-mtype": {"by": ("mtype",)},
    "drop-response-singletons": {"errors_drop_response_singletons": True},
    "singletons-drop": {"singletons": "drop"},
}
FORMATS = ("table", "markdown", "csv", "latex")


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> tuple[str, str]:
    """A generated pair of 3 runs of the pipeline's documents and more (parts that add up)."""
    out = tmp_path_factory.mktemp("pair") / "pair"
    subprocess.run([sys.executable, str(ROOT / "bench" / "make_pair.py"), "--docs", str(2 * CHUNK + 7), "--tokens",
                    "300", "--seed", "35", "--out", str(out)], check=True, capture_output=True)
    return f"{out}.key", f"{out}.response"


def _pairs(generated):
    out = {"example": example_paths(), "generated": generated}
    if GUM.exists():
        out.update({f"gum-{s}": (str(GUM), str(XRENNER / f"{s}-gum.conll")) for s in ("ml", "rules")})
    return out


def _both(key: str, response: str, settings: Settings, jobs: int = 1):
    k, r = load_corpus(key), load_corpus(response)
    full = evaluate(k, r, settings, rows=False, documents=False, jobs=jobs)
    small = evaluate(k, r, settings, rows=False, documents=False, jobs=jobs, digest=True)
    return full, small


@pytest.mark.parametrize("option", list(OPTIONS))
@pytest.mark.parametrize("pair", ["example", "generated", "gum-ml", "gum-rules"])
def test_digest_tables_equal_the_complete_part(pair, option, generated):
    """Every format of score's output, with --per-doc, is the same from the digest as from the part
    that keeps every row; the digest holds no more than a run's documents and the candidates."""
    pairs = _pairs(generated)
    if pair not in pairs:
        pytest.skip("shared data not present")
    full, small = _both(*pairs[pair], Settings(analyses=("errors",), **OPTIONS[option]))
    assert full.errors.complete and not small.errors.complete
    assert full.errors.rows and len(full.errors.rows) == sum(full.errors.counts().values())
    for fmt in FORMATS:
        for per_doc in (False, True):
            assert evaluation_output(small, fmt, per_doc).text() == evaluation_output(full, fmt, per_doc).text(), (
                fmt, per_doc)
    n_docs = len(full.errors.document_states)
    if n_docs > CHUNK:  # the rows and states of at most one run of documents (the first part) stay
        assert len(small.errors.document_states) <= CHUNK
        assert len(small.errors.rows) < len(full.errors.rows)
    kept = {r for docs in small.errors.candidates.values() for rows in docs.values() for r in map(id, rows)}
    assert len(kept) <= (len(E.CLASSES) + 2) * E.EXAMPLES ** 2


@pytest.mark.parametrize("pair", ["example", "generated", "gum-ml"])
def test_digest_of_the_complete_part_is_that_of_its_rows(pair, generated):
    """The tallies, examples, sums and per-document gains equal what the rows and states give
    directly: group_by over every row, spread_over_documents over every row of a class, the states
    summed in document order, each document's CoNLL gains from its own states."""
    pairs = _pairs(generated)
    if pair not in pairs:
        pytest.skip("shared data not present")
    er = evaluate(load_corpus(pairs[pair][0]), load_corpus(pairs[pair][1]),
                  Settings(analyses=("errors",), by=("mtype", "size")), rows=False, documents=False).errors
    rows = er.rows
    assert er.counts() == {c: sum(r.cls == c for r in rows) for c in E.CLASSES}
    assert er.tally("cls", "mtype") == E.group_by(rows, "cls", "mtype")
    assert er.tally("cls", "size") == E.group_by(rows, "cls", "size")
    assert er.tally("doc_id", "cls") == E.group_by(rows, "doc_id", "cls")
    assert er.tally("cls", "head") == E.group_by(rows, "cls", lambda r: E.head_type(r.mtypes))
    assert er.tally("joined", "cls") == E.group_by([r for r in rows if r.cls in E.JOINED], "joined", "cls")
    assert er.features() == ["mtype", "size"] + [f for f in E.BREAKDOWN_FEATURES if any(
        r.features.get(f) not in (None, "", "-") for r in rows)]
    for k in range(1, E.EXAMPLES + 1):
        for c in E.CLASSES:
            assert examples(er, c, k) == spread_over_documents([r for r in rows if r.cls == c], k)
        extra = spread_over_documents([r for r in er.leftovers if r.detail == "extra"], (k + 1) // 2)
        assert examples(er, E.LEFTOVER, k) == extra + spread_over_documents(
            [r for r in er.leftovers if r.detail != "extra"], k - len(extra))
    assert er.cumulative == _sum_states(er.document_states.values())
    assert er.alone == _sum_states(er.alone_states)
    for d, states in er.document_states.items():
        assert er.document_conll[d] == {s: E.conll_score(c["muc"], c["bcub"], c["ceafe"]) for s, c in states.items()}
    gains = er.per_document[next(iter(er.document_states))]
    assert sum(gains.values()) == pytest.approx(1.0 - next(iter(er.document_conll.values()))["scored"])


def _sum_states(documents) -> dict:
    """Per state and metric, the sum of the documents' counts, each field summed in document order."""
    by: dict = {}
    for states in documents:
        for step, sc in states.items():
            t = by.setdefault(step, {})
            for k, c in sc.items():
                t.setdefault(k, []).append(c)
    return {step: {k: Counts(sum(c.recall_num for c in cs), sum(c.recall_den for c in cs),
                             sum(c.precision_num for c in cs), sum(c.precision_den for c in cs))
                   for k, cs in t.items()} for step, t in by.items()}


def test_examples_asked_beyond_the_candidates_are_refused():
    er = evaluate(*(load_corpus(p) for p in example_paths()), Settings(analyses=("errors",)), rows=False).errors
    with pytest.raises(ValueError, match="candidate examples"):
        examples(er, E.CLASSES[0], E.EXAMPLES + 1)


def test_pool_digest_equals_one_process(generated):
    """Parts scored in two processes add up to the same tables."""
    full, small = _both(*generated, Settings(analyses=("errors",)), jobs=2)
    assert evaluation_output(small, "csv", True).text() == evaluation_output(full, "csv", True).text()


def test_score_keeps_the_digest_for_tables_and_every_row_for_json(monkeypatch):
    """score's tables run with the digest; its JSON (every error listed) with the complete part."""
    seen: list[bool] = []
    start = E.ErrorsAnalysis.__init__

    def record(self, settings, complete=True):
        seen.append(complete)
        start(self, settings, complete)

    monkeypatch.setattr(E.ErrorsAnalysis, "__init__", record)
    runner = CliRunner()
    csv = runner.invoke(app, ["score", "--example", "-a", "errors", "-f", "csv", "-q"])
    assert csv.exit_code == 0, csv.output
    assert seen and not any(seen)
    full = evaluate(*(load_corpus(p) for p in example_paths()), Settings(analyses=("errors",)), rows=False)
    tail = evaluation_output(full, "csv").text().split("Error classes", 1)[1]
    assert tail in csv.output
    seen.clear()
    js = runner.invoke(app, ["score", "--example", "-a", "errors", "-f", "json", "-q"])
    assert js.exit_code == 0, js.output
    assert seen and all(seen)
    import json

    data = json.loads(js.output)["errors"]
    assert len(data["rows"]) == sum(data["counts"].values()) == 233
    # 233: the Berkeley analyser's counts on the same example (tests/data/kk/README.md, "The bundled example")
    printed = kk_summary_errors(ROOT / "tests" / "data" / "kk" / "counts" / "example.F.summary")
    assert sum(printed.values()) == 233
    assert data["counts"] == printed
    assert {c: sum(r["class"] == c for r in data["rows"]) for c in printed} == printed


def kk_summary_errors(path: Path) -> dict[str, int]:
    """The 'Errors:' block of a Berkeley analyser .summary: class → count (lines '   29   Span Error')."""
    block = path.read_text(encoding="utf-8").split("Errors:", 1)[1]
    return {name: int(n) for n, name in (line.split(None, 1) for line in block.splitlines() if line.strip())}
