"""The report of a run scored in shares (cli/reporting.py → scoring/shares.py with a
:class:`~corefreport.scoring.digest.RowDigest`, io/shares.LazyDocuments): the same bytes as the
report of the whole evaluation — its tables, its bootstrap intervals, its error examples in their
sentences — though no process holds every outcome row or every document."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import shared_path
from corefreport.io import load_corpus
from corefreport.io.shares import LazyDocuments, Shares
from corefreport.report.document import render, summary_intervals
from corefreport.report.examples import CANDIDATES, example_blocks
from corefreport.scoring.compare import document_matrix
from corefreport.scoring.digest import RowDigest
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.settings import Settings
from corefreport.scoring.shares import evaluate_shares

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "src" / "corefreport" / "data" / "example"
KEY, RESPONSE = str(EXAMPLE / "gum_key.conll"), str(EXAMPLE / "xrenner_response.conll")
REPORT = Settings(metrics=ALL_METRICS, analyses=("arcs", "typed"))


def shared(key: str, response: str, settings: Settings, jobs: int, keep: int = CANDIDATES):
    shares = Shares.of(key, response, None, None)
    ev = evaluate_shares(shares.read, settings, jobs, keep=keep)
    assert ev is not None and ev.rows == [] and ev.digest is not None
    kc, rc = shares.corpora()
    return replace(ev, key_corpus=kc, response_corpus=rc)


def counts(d: dict) -> dict:
    return {k: (c.tp, c.wt, c.wl, c.wtl, c.fn, c.fp, c.credit) for k, c in d.items()}


@pytest.mark.parametrize("keep", [1, 3, CANDIDATES])
def test_the_digest_of_the_rows_is_the_sum_of_the_digests_of_their_documents(keep):
    """Cut the rows at every document boundary: sizes, kept rows and per-document counts add up to
    the digest of all rows (credits of ¾, ½, ¼ add exactly)."""
    ev = evaluate(load_corpus(KEY, key=True), load_corpus(RESPONSE), REPORT)
    whole = RowDigest.of(ev.rows, keep)
    docs = [d.doc_id for d in ev.documents]
    parts = [RowDigest.of([r for r in ev.rows if r.doc_id == d], keep) for d in docs]
    total = parts[0]
    for p in parts[1:]:
        total = total + p
    assert total.sizes == whole.sizes
    assert total.first == whole.first
    assert counts(total.documents) == counts(whole.documents)
    big = max(whole.sizes.values())
    assert sum(whole.sizes.values()) == len(ev.rows)
    assert big > keep or keep == CANDIDATES  # some group is cut
    # the first rows are the first in (document, start, end) order, as the examples read them
    for k, rows in whole.first.items():
        everyone = sorted((r for r in ev.rows if (r.analysis, r.outcome, r.cls, r.type) == k),
                          key=lambda r: (r.doc_id, r.start, r.end))
        assert rows == everyone[:keep]


@pytest.mark.parametrize("jobs", [2, 3])
def test_the_per_document_statistics_are_those_of_the_rows(jobs):
    whole = evaluate(load_corpus(KEY, key=True), load_corpus(RESPONSE), REPORT)
    ev = shared(KEY, RESPONSE, REPORT, jobs)
    ids = [d.doc_id for d in whole.documents]
    a, b = document_matrix(whole, ids), document_matrix(ev, ids)
    assert a.keys() == b.keys() and {"immediate", "inferred", "anchor", "typed"} <= a.keys()
    for name in a:
        assert (a[name] == b[name]).all(), name
    assert summary_intervals(ev, "x") == summary_intervals(whole, "x")


@pytest.mark.parametrize("jobs", [2, 3])
def test_the_html_report_in_shares_is_the_report_of_the_whole_evaluation(jobs):
    whole = evaluate(load_corpus(KEY, key=True), load_corpus(RESPONSE), REPORT)
    ev = shared(KEY, RESPONSE, REPORT, jobs)
    blocks = example_blocks(ev)
    assert blocks and all(g.examples for b in blocks for g in b.groups)
    assert render(ev, "html", name="xrenner") == render(whole, "html", name="xrenner")


def test_gum_against_xrenner_report_in_shares():
    """The whole GUM corpus (many documents, long error groups): 2 processes."""
    key = str(shared_path("data", "gum", "derived", "conll2012", "gum.conll"))
    response = str(shared_path("data", "xrenner", "conll2012", "ml-gum.conll"))
    whole = evaluate(load_corpus(key, key=True), load_corpus(response), REPORT)
    ev = shared(key, response, REPORT, 2)
    assert render(ev, "html", name="ml") == render(whole, "html", name="ml")


def test_examples_refuse_a_digest_that_kept_too_few_rows():
    ev = shared(KEY, RESPONSE, REPORT, 2, keep=3)
    with pytest.raises(ValueError, match="kept 3 rows"):
        example_blocks(ev)


def test_lazy_documents_are_the_documents_read_whole(tmp_path):
    """Every document, read on its own when asked for, equals the one the whole file gives —
    a repeated document id renamed as the reader renames it."""
    text = Path(RESPONSE).read_text(encoding="utf-8")
    first = text[:text.index("#end document")] + "#end document\n"
    path = tmp_path / "twice.conll"
    path.write_text(text + first, encoding="utf-8")
    whole = load_corpus(str(path))
    lazy = LazyDocuments(str(path), path.read_text(encoding="utf-8"), {})
    assert list(lazy) == list(whole.documents) and len(lazy) == 4 and any("#2" in i for i in lazy)
    for doc_id, doc in whole.documents.items():
        got = lazy[doc_id]
        assert (got.doc_id, got.tokens, got.sentence_starts, got.line) == \
            (doc.doc_id, doc.tokens, doc.sentence_starts, doc.line)
        assert [[m.span for m in c.mentions] for c in got.chains] == [[m.span for m in c.mentions] for c in doc.chains]
    assert lazy.get("no such document") is None


def test_the_cli_report_is_the_same_with_one_and_two_processes(tmp_path):
    """The real command line, forced to two shares, writes the bytes of the one-process report."""
    script = """
import sys
import corefreport.cli.reporting as r
n = int(sys.argv.pop())
r.pool_size = lambda jobs, files: n
from corefreport.cli import main
main()
"""
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"r{jobs}.html"
        res = subprocess.run([sys.executable, "-c", script, "report", KEY, RESPONSE, "-o", str(out), "-q", jobs],
                             capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin"})
        assert res.returncode == 0, res.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and b"Error examples" in outs[0]


def test_rows_and_counts_pickle_whole():
    """Rows and counts travel between the pool's processes pickled as their field values: every
    field comes back (a field added to the class and not to ``__reduce__`` fails here)."""
    import pickle
    from dataclasses import fields

    from corefreport.scoring.outcomes import LinkOutcome, OutcomeCounts

    row = LinkOutcome("typed", "d; part 000", 3, 5, "the city", "WTL", 0.75, (0, 1), (1, 1), "NOMINAL", "definite",
                      {"mtype": "NOMINAL", "sentence": "2"})
    counts = OutcomeCounts(1, 2, 3, 4, 5, 6, 7.25)
    for x in (row, counts):
        back = pickle.loads(pickle.dumps(x, pickle.HIGHEST_PROTOCOL))
        assert back == x and type(back) is type(x)
        assert [getattr(back, f.name) for f in fields(x)] == [getattr(x, f.name) for f in fields(x)]
        assert len(x.__reduce__()[1]) == len(fields(x))


def test_the_pool_s_waiting_time_runs_the_caller_s_work_once():
    """``on_wait`` (the report imports its intervals' modules there) runs once, after this
    process's share, and changes nothing of the evaluation."""
    calls: list = []
    shares = Shares.of(KEY, RESPONSE, None, None)
    plain = evaluate_shares(shares.read, REPORT, 2, keep=CANDIDATES)
    waited = evaluate_shares(shares.read, REPORT, 2, keep=CANDIDATES, on_wait=lambda: calls.append(1))
    assert calls == [1]
    assert waited.metrics == plain.metrics and waited.digest.sizes == plain.digest.sizes
