"""The one pipeline (issue 25): document pairs in, parts that add up, one evaluation out.

* The :class:`~corefreport.scoring.part.Part` laws: ``Part()`` is the identity, ``+`` is
  associative, and the fold of the parts of any cut of the documents is the part of all of them —
  and the laws fail when any field is left out of ``+``.
* The two readers pair alike: the files read a document at a time (:class:`DocumentPairs`, with a
  response in another order read from its offsets) give the evaluation of the corpora read whole
  (:class:`CorpusPairs`) — every number, warning (text and order), duplicate and the signature.
* A pool of processes gives what one process gives, byte for byte, under every analysis and
  matching; where ``fork`` is missing the command line prints the same bytes in one process.
* Memory stays flat in the corpus size, for the standard metrics and for the full analysis.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from conftest import SHARED, shared_path
from corefreport.io import load_corpus
from corefreport.io.conll2012 import iter_conll2012, read_conll2012, read_conll2012_at
from corefreport.io.pairs import CorpusPairs, DocumentPairs, Reading
from corefreport.scoring import part as P
from corefreport.scoring.document import DocumentScorer
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.finish import finish
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "src" / "corefreport" / "data" / "example"
KEY, RESPONSE = str(EXAMPLE / "gum_key.conll"), str(EXAMPLE / "xrenner_response.conll")
DATA = SHARED / "data"

EVERYTHING = Settings(metrics=ALL_METRICS + ("mor",), analyses=("arcs", "typed", "errors"), plink_by="mtype")
SETTINGS = {
    "standard": Settings(),
    "everything": EVERYTHING,
    "by-singletons": Settings(analyses=("arcs",), by=("pronoun", "mtype"), singletons="drop"),
    "typed-k": Settings(metrics=("muc", "lmuc", "lbcub"), analyses=("typed",), k=(1.0, 0.5, 0.5, 0.0)),
    "arcs-compat": Settings(analyses=("arcs",), arcs_compat=True, arcs_anchor_links=True),
    "head": Settings(metrics=("muc", "bcub", "ceafe", "mor"), match="head", analyses=("arcs", "typed")),
    "partial-drop": Settings(match="partial", singletons="drop", analyses=("errors",)),
    "strata": Settings(metrics=("muc", "bcub", "ceafe", "blanc", "lea", "mor"), analyses=("arcs",),
                       strata=("chain-length:1,3,9", "spread", "etype")),
    "windows": Settings(metrics=("muc", "bcub", "ceafe", "blanc", "lea", "mor"), analyses=("arcs",), window=150),
}


def dump(ev) -> str:
    """Everything an evaluation shows, as the JSON shows it (with the per-document results)."""
    data = ev.as_dict(per_doc=True)
    return json.dumps(data, sort_keys=False, default=str)


def assert_same(a, b) -> None:
    assert dump(a) == dump(b)
    assert a.warnings == b.warnings
    assert a.duplicates == b.duplicates
    assert [(r.analysis, r.doc_id, r.span, r.outcome, r.credit) for r in a.rows] == \
        [(r.analysis, r.doc_id, r.span, r.outcome, r.credit) for r in b.rows]


def whole(key: str, response: str, settings: Settings, **kw):
    return evaluate(CorpusPairs(load_corpus(key, key=True), load_corpus(response)), settings=settings, **kw)


def files(key: str, response: str, settings: Settings, **kw):
    return evaluate(DocumentPairs(key, response), settings=settings, **kw)


# -- the Part laws -------------------------------------------------------------------------------

def _pairs_of(key: str, response: str) -> list:
    return list(CorpusPairs(load_corpus(key, key=True), load_corpus(response)).pairs(Reading()))


def _gum_or_example() -> tuple[str, str]:
    gum = DATA / "gum" / "derived" / "conll2012" / "gum.conll"
    if gum.exists():
        return str(gum), str(DATA / "xrenner" / "conll2012" / "ml-gum.conll")
    return KEY, RESPONSE


LAW_SETTINGS = Settings(metrics=ALL_METRICS + ("mor",), analyses=("arcs", "typed", "errors"), plink_by="mtype",
                        strata=("chain-length", "spread", "etype"), window=300)
_LAW: dict = {}


def _law_data():
    if not _LAW:
        pairs = _pairs_of(*_gum_or_example())
        scorer = DocumentScorer(LAW_SETTINGS, ("conll2012", "conll2012"), rows=True, keep_documents=True)
        _LAW.update(pairs=pairs, scorer=scorer, whole=scorer.score(pairs))
    return _LAW["pairs"], _LAW["scorer"], _LAW["whole"]


def _view(p: P.Part) -> str:
    """A part as comparable text: every field."""
    out = []
    for f in P.FIELDS:
        v = getattr(p, f.name)
        if f.name == "analyses":
            v = {k: (json.dumps(x.as_dict(), default=str) if hasattr(x, "as_dict") else repr(x)) for k, x in v.items()}
        elif f.name in ("key_documents", "response_documents"):
            v = list(v)
        elif f.name == "requested":
            v = (v.rows, sorted(v.features), v.typed_rows, sorted(v.classes))
        out.append(f"{f.name}={v!r}")
    return "\n".join(out)


def _analyses_view(p: P.Part) -> str:
    """The analyses' results of a part (what the views see of it)."""
    from corefreport.scoring.registry import active_analyses

    res = {}
    for a in active_analyses(LAW_SETTINGS):
        step = a.start(LAW_SETTINGS)
        res[a.name] = json.dumps(step.result(p.analyses[a.name]).as_dict(), default=str)
    return json.dumps(res)


def _fold(parts):
    total = P.Part()
    for x in parts:
        total += x
    return total


@hsettings(max_examples=5, deadline=None)  # each example scores every pair again; the mutation test below and
@given(st.lists(st.integers(min_value=0, max_value=100), min_size=2, max_size=4))  # the pool tests cover the rest
def test_the_fold_of_any_cut_is_the_part_of_the_whole(cuts):
    pairs, scorer, whole_part = _law_data()
    n = len(pairs)
    points = sorted({0, n, *(c * n // 100 for c in cuts)})
    parts = [scorer.score(pairs[a:b]) for a, b in zip(points, points[1:])]
    folded = _fold(parts)
    assert _view(P.Part() + folded) == _view(folded) == _view(folded + P.Part())
    if len(parts) >= 3:
        a, b, c = parts[:3]
        assert _view((a + b) + c) == _view(a + (b + c))
    assert _analyses_view(folded) == _analyses_view(whole_part)
    for f in P.FIELDS:
        if f.name != "analyses":
            assert _view_field(folded, f.name) == _view_field(whole_part, f.name), f.name


def _view_field(p: P.Part, name: str):
    v = getattr(p, name)
    if name == "requested":
        return (v.rows, sorted(v.features), v.typed_rows, sorted(v.classes))
    return list(v) if isinstance(v, dict) else repr(v)


def test_a_field_left_out_of_the_sum_breaks_the_laws(monkeypatch):
    """The mutation check: drop any one field from ``+`` and the fold of the documents' parts is no
    longer the part of the whole."""
    pairs, scorer, whole_part = _law_data()
    parts = [scorer.score(pairs[i:i + 1]) for i in range(len(pairs))]
    assert _view(_fold(parts)) == _view(whole_part)
    broken = []
    for f in P.FIELDS:
        if _view_field(whole_part, f.name) == _view_field(P.Part(), f.name):
            continue  # a field this input leaves empty cannot show a lost sum
        monkeypatch.setattr(P, "FIELDS", tuple(x for x in P.FIELDS if x.name != f.name))
        try:
            folded = _fold(parts)
        finally:
            monkeypatch.undo()
        if _view(folded) != _view(whole_part):
            broken.append(f.name)
    populated = [f.name for f in P.FIELDS if _view_field(whole_part, f.name) != _view_field(P.Part(), f.name)]
    assert broken == populated and len(populated) >= 12


def test_finish_of_the_fold_is_the_evaluation():
    pairs, scorer, whole_part = _law_data()
    key, response = _gum_or_example()
    parts = [scorer.score(pairs[i:i + 5]) for i in range(0, len(pairs), 5)]
    total = _fold(parts)
    import hashlib

    h = hashlib.sha256(total.feed).hexdigest()
    ev = finish(total, LAW_SETTINGS, sources=(key, response), formats=("conll2012", "conll2012"), key_hash=h,
                analyses=scorer.analyses)
    assert dump(ev) == dump(whole(key, response, LAW_SETTINGS, rows=True))


# -- readers, pool and processes -----------------------------------------------------------------

@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_example_read_a_document_at_a_time_is_the_corpus_read_whole(name):
    assert_same(whole(KEY, RESPONSE, SETTINGS[name]), files(KEY, RESPONSE, SETTINGS[name]))


@pytest.mark.parametrize("jobs", [2, 3, 5])
@pytest.mark.parametrize("name", list(SETTINGS))
def test_a_pool_gives_what_one_process_gives(name, jobs):
    """The example (3 documents; processes with one run of documents, and with none at jobs=5)."""
    one = files(KEY, RESPONSE, SETTINGS[name], rows=True, documents=False)
    assert_same(one, files(KEY, RESPONSE, SETTINGS[name], jobs=jobs, rows=True, documents=False))


@pytest.mark.parametrize("system", ["ml-gum", "rules-gum"])
def test_gum_against_xrenner_in_a_pool(system):
    key = str(shared_path("data", "gum", "derived", "conll2012", "gum.conll"))
    response = str(shared_path("data", "xrenner", "conll2012", f"{system}.conll"))
    ref = whole(key, response, EVERYTHING)
    for jobs in (1, 2, 3):
        assert_same(ref, files(key, response, EVERYTHING, jobs=jobs, rows=True))


# -- an analysis scored apart: a large document's error classes in a child process ----------------

APART = {
    "everything": EVERYTHING,
    "head": Settings(metrics=("muc", "bcub", "ceafe", "mor"), match="head", analyses=("arcs", "typed", "errors")),
    "errors-by": Settings(metrics=("muc", "bcub"), analyses=("arcs", "errors"), by=("mtype", "ne")),
    "errors-partial": Settings(match="partial", singletons="drop", analyses=("typed", "errors")),
}


def _forking(monkeypatch, only=None) -> list[str]:
    """Every document (or the documents ``only`` names) forks, as on an idle core; the documents
    whose analyses a child scored are listed in the list returned."""
    from corefreport import forking
    from corefreport.scoring import document as D

    monkeypatch.setattr(D, "APART_MENTIONS", 0)
    monkeypatch.setattr(forking, "idle_cores", lambda *a: 2)
    forked: list[str] = []
    fork = D.DocumentScorer._fork

    def counted(self, ad):
        if only is not None and ad.doc_id not in only:
            return None
        child = fork(self, ad)
        if child is not None:
            forked.append(ad.doc_id)
        return child
    monkeypatch.setattr(D.DocumentScorer, "_fork", counted)
    return forked


@pytest.mark.parametrize("name", list(APART))
@pytest.mark.parametrize("only", [None, ("GUM_court_mitigation; part 000",)])
def test_analyses_scored_apart_give_what_one_process_gives(name, only, monkeypatch):
    """Each document's error classes scored in a child while this process scores the other
    analyses (every document, or the middle one alone: its part added between the parts of the
    documents before and after it) — every number, row and digest the same."""
    from corefreport.present.study import evaluation_output

    def tables(ev) -> list[str]:
        return [evaluation_output(ev, fmt, True).text() for fmt in ("table", "csv")]

    one = files(KEY, RESPONSE, APART[name], rows=True, documents=False)
    digest = tables(files(KEY, RESPONSE, APART[name], rows=3, documents=False, digest=True))
    forked = _forking(monkeypatch, only)
    assert_same(one, files(KEY, RESPONSE, APART[name], rows=True, documents=False, apart=True))
    assert digest == tables(files(KEY, RESPONSE, APART[name], rows=3, documents=False, digest=True, apart=True))
    assert forked == 2 * list(only or [d.doc_id for d in one.documents])


def test_a_child_that_dies_leaves_its_document_to_this_process(monkeypatch):
    from corefreport import forking

    one = files(KEY, RESPONSE, EVERYTHING, rows=True)
    forked = _forking(monkeypatch)

    class Dead(forking.Child):
        def __init__(self, work):
            super().__init__(lambda send: os._exit(3))
    monkeypatch.setattr(forking, "Child", Dead)
    assert_same(one, files(KEY, RESPONSE, EVERYTHING, rows=True, apart=True))
    assert len(forked) == 3


def test_a_run_that_fails_stops_its_children(monkeypatch, tmp_path):
    """A document that cannot be read after a forked one: the error comes, the child is stopped."""
    from corefreport import forking
    from corefreport.errors import InputError

    _forking(monkeypatch)
    killed = []
    kill = forking.Child.kill
    monkeypatch.setattr(forking.Child, "kill", lambda self: (killed.append(self.pid), kill(self)))
    docs = _documents(Path(RESPONSE).read_text(encoding="utf-8"))
    lines = docs[2].split("\n")
    n = next(i for i, line in enumerate(lines) if line and not line.startswith("#"))
    lines[n] = lines[n].rsplit("\t", 1)[0] + "\t(999"  # an opening never closed in the last document
    broken = docs[:2] + ["\n".join(lines)]
    resp = _write(tmp_path / "broken.conll", broken)
    with pytest.raises(InputError):
        files(KEY, resp, EVERYTHING, apart=True)
    assert len(killed) == 2


def test_without_an_idle_core_or_a_large_document_nothing_forks(monkeypatch):
    from corefreport import forking
    from corefreport.scoring import document as D

    made = []
    monkeypatch.setattr(forking, "Child", lambda work: made.append(work))
    files(KEY, RESPONSE, EVERYTHING, apart=True)  # the example's documents: 193–242 key mentions
    monkeypatch.setattr(D, "APART_MENTIONS", 0)
    monkeypatch.setattr(forking, "idle_cores", lambda *a: 1)
    files(KEY, RESPONSE, EVERYTHING, apart=True)
    monkeypatch.setattr(forking, "idle_cores", lambda *a: 2)
    files(KEY, RESPONSE, EVERYTHING)  # not asked for: an evaluation loop's process never forks
    assert made == []
    files(KEY, RESPONSE, EVERYTHING, apart=True)
    assert len(made) == 3


def _documents(text: str) -> list[str]:
    return re.findall(r"(?ms)^#begin document.*?^#end document[^\n]*\n", text)


def _write(path: Path, docs: list[str]) -> str:
    path.write_text("".join(docs), encoding="utf-8")
    return str(path)


def test_a_response_in_another_order_is_read_from_its_offsets(tmp_path):
    docs = _documents(Path(RESPONSE).read_text(encoding="utf-8"))
    resp = _write(tmp_path / "reversed.conll", list(reversed(docs)))
    for name in ("standard", "everything", "head"):
        in_order = files(KEY, RESPONSE, SETTINGS[name])
        for jobs in (1, 2):
            other = files(KEY, resp, SETTINGS[name], jobs=jobs, rows=True)
            assert dump(other) == dump(in_order).replace(RESPONSE, resp)
            assert_same(other, whole(KEY, resp, SETTINGS[name]))


def test_every_pairing_warning_is_the_whole_read_s(tmp_path):
    kdocs = _documents(Path(KEY).read_text(encoding="utf-8"))
    rdocs = _documents(Path(RESPONSE).read_text(encoding="utf-8"))
    extra = rdocs[0].replace("GUM_", "EXTRA_", 2)
    cases = {
        "missing": rdocs[:2],
        "extra-at-end": rdocs + [extra],
        "extra-first": [extra] + rdocs,
        "repeated-id": rdocs + [rdocs[1]],
        "no-part": [d.replace("; part 000", "", 1) for d in rdocs],
        "empty-response": [re.sub(r"\t[^\t\n]*$", "\t-", d, flags=re.M) for d in rdocs],
        "words-differ": [rdocs[0], re.sub(r"(?m)^(\S+\t\S+\t\S+\t)\S+", r"\1jnk", rdocs[1], count=3), rdocs[2]],
    }
    for name, docs in cases.items():
        resp = _write(tmp_path / f"{name}.conll", docs)
        for settings in (SETTINGS["standard"], SETTINGS["everything"]):
            ref = whole(KEY, resp, settings)
            assert ref.warnings or name == "no-part", name
            for jobs in (1, 2):
                assert_same(ref, files(KEY, resp, settings, jobs=jobs, rows=True))
    key = _write(tmp_path / "key.conll", kdocs + [kdocs[0]])
    ev = files(key, RESPONSE, Settings())
    assert "is written 2 times" in ev.warnings[0] and "only this last copy" in ev.warnings[0]
    # the last copy (the same text) is scored once, as scorer.pl v8.01 does: the key's own numbers
    once = files(KEY, RESPONSE, Settings())
    for m, s in ev.metrics.items():  # (summed in another document order: equal to the last bits)
        assert s.stats() == pytest.approx(once.metrics[m].stats(), rel=1e-12), m


def test_input_errors_are_named(tmp_path):
    from corefreport.errors import InputError

    kdocs = _documents(Path(KEY).read_text(encoding="utf-8"))
    bad_last = _write(tmp_path / "bad.conll", kdocs + ["#begin document (x); part 000\n1\tw\t(1\n#end document\n"])
    other = _write(tmp_path / "other.conll", [d.replace("GUM_", "OTHER_", 1) for d in kdocs])
    first = kdocs[0].splitlines(keepends=True)
    short = _write(tmp_path / "short.conll", ["".join(first[:-3] + first[-1:])] + kdocs[1:])
    for (k, r), what in (((KEY, bad_last), "bad.conll"), ((bad_last, RESPONSE), "bad.conll"),
                         ((KEY, other), "share no document id"), ((KEY, short), "tokens")):
        for jobs in (1, 2):
            with pytest.raises(InputError) as err:
                files(k, r, Settings(), jobs=jobs)
            assert what in str(err.value)


def test_blocks_cut_anywhere_give_the_whole_file_documents(tmp_path):
    docs = _documents(Path(KEY).read_text(encoding="utf-8"))
    # a BOM, CRLF line ends, a non-ASCII word, comments and a stray blank line between documents
    odd = "\ufeff" + docs[0].replace("\n", "\r\n") + "\n# a comment\n" + docs[1].replace("\tthe\t", "\tthé\t") + docs[2]
    path = tmp_path / "odd.conll"
    path.write_text(odd, encoding="utf-8")
    ref = read_conll2012(str(path), columns=False)
    for block in (64, 1000, 4096, 1 << 20):
        warnings: list[str] = []
        got = list(iter_conll2012(str(path), {}, warnings, block=block))
        assert [d.doc_id for d, _, _ in got] == list(ref.documents)
        for (doc, offset, line), r in zip(got, ref.documents.values()):
            assert (doc.tokens, doc.sentence_starts, doc.line) == (r.tokens, r.sentence_starts, r.line)
            assert [[m.span for m in c] for c in doc.chains] == [[m.span for m in c] for c in r.chains]
            again = read_conll2012_at(str(path), offset, line, doc.doc_id)
            assert again.tokens == r.tokens and again.line == r.line
        assert warnings == ref.warnings


def test_json_lines_and_conllu_pair_as_read_whole(tmp_path, corefud_gum_pairs):
    def jsonl(path: str, field: str, order=None) -> str:
        docs = list(read_conll2012(path, columns=False).documents.values())
        lines = []
        for k in (order if order is not None else range(len(docs))):
            d = docs[k]
            bounds = d.sentence_starts + [len(d.tokens)]
            lines.append(json.dumps({"doc_key": d.doc_id, "sentences": [d.tokens[a:b] for a, b in zip(bounds, bounds[1:])],
                                     field: [[[m.start, m.end] for m in c.mentions] for c in d.chains]}))
        return "\n".join(lines) + "\n"

    key = tmp_path / "key.jsonlines"
    key.write_text(jsonl(KEY, "clusters"), encoding="utf-8")
    resp = tmp_path / "resp.jsonlines"
    resp.write_text(jsonl(RESPONSE, "predicted_clusters", [2, 0, 1]), encoding="utf-8")
    for k, r in ((str(key), str(resp)), (KEY, str(resp)), (str(key), RESPONSE)):
        for settings in (SETTINGS["standard"], SETTINGS["head"]):
            assert_same(whole(k, r, settings), files(k, r, settings, jobs=2, rows=True))
    k, r = str(corefud_gum_pairs / "key.conllu"), str(corefud_gum_pairs / "response-xrenner.conllu")
    crac = Settings(metrics=("muc", "bcub", "ceafe", "blanc_crac", "mor", "zero"), match="head", singletons="drop",
                    zero_match="dependent", preset="crac", analyses=("arcs",))
    for jobs in (1, 2):
        assert_same(whole(k, r, crac), files(k, r, crac, jobs=jobs, rows=True))


# -- the command line ----------------------------------------------------------------------------

NO_FORK = """
import os, sys
del os.fork
from corefreport.cli import main
main()
"""


def _cli(*args: str, code: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    cmd = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "corefreport", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)


def test_without_fork_the_command_line_prints_the_same_bytes(tmp_path):
    """Windows has no ``os.fork``: ``--jobs 2`` then folds in one process, to the same output."""
    for extra in (["-f", "json", "--per-doc"], ["-m", "all", "-a", "arcs", "-a", "typed", "-f", "json"],
                  ["--match", "head", "-a", "errors", "-f", "json"]):
        forked = _cli("score", KEY, RESPONSE, "--jobs", "2", *extra)
        alone = _cli("score", KEY, RESPONSE, "--jobs", "2", *extra, code=NO_FORK)
        assert forked.returncode == alone.returncode == 0, alone.stderr
        assert (forked.stdout, forked.stderr) == (alone.stdout, alone.stderr)
    one = _cli("score", KEY, RESPONSE, "--jobs", "1", "-f", "json")
    assert one.stdout == _cli("score", KEY, RESPONSE, "--jobs", "3", "-f", "json").stdout


def test_the_report_is_the_same_with_one_and_two_processes(tmp_path):
    script = """
import sys
import corefreport.study.run as r
n = int(sys.argv.pop())
r.pool_size = lambda jobs, files: n
from corefreport.cli import main
main()
"""
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"r{jobs}.html"
        res = _cli("report", KEY, RESPONSE, "-o", str(out), "-q", jobs, code=script)
        assert res.returncode == 0, res.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] and b"Error examples" in outs[0]


def _peak_rss_mib(*args: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    proc = subprocess.Popen([sys.executable, "-m", "corefreport", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return usage.ru_maxrss / 1024


def test_peak_memory_does_not_grow_with_the_corpus(tmp_path):
    """8× the documents, about the same peak RSS: the standard metrics (also with the per-document
    output) and the full analysis, in one process and in two."""
    for docs in (50, 400):
        subprocess.run([sys.executable, str(ROOT / "bench" / "make_pair.py"), "--docs", str(docs), "--tokens", "500",
                        "--out", str(tmp_path / f"p{docs}")], check=True, capture_output=True)
    for extra, limit in ((["-f", "json"], 1.25), (["-f", "json", "--per-doc", "-j", "2"], 1.25),
                         (["-m", "all", "-a", "arcs", "-a", "typed", "-f", "json", "-j", "1"], 1.5),
                         (["-m", "all", "-a", "arcs", "-a", "typed", "-f", "json", "-j", "2"], 1.5)):
        small = _peak_rss_mib("score", str(tmp_path / "p50.key"), str(tmp_path / "p50.response"), *extra)
        large = _peak_rss_mib("score", str(tmp_path / "p400.key"), str(tmp_path / "p400.response"), *extra)
        assert large <= limit * small, (extra, small, large)


# -- the rows, or their digest: one store ---------------------------------------------------------

def test_a_digest_answers_as_the_rows_do():
    """The report keeps a digest of the rows (their group sizes, the first rows of each error group,
    per-document counts): the per-document statistics its intervals resample, its intervals and its
    HTML are those of the evaluation that kept every row; a comparison of links refuses a digest."""
    from corefreport.report.document import render, summary_intervals
    from corefreport.report.examples import CANDIDATES, example_blocks
    from corefreport.scoring.compare import compare, document_matrix

    settings = Settings(metrics=ALL_METRICS, analyses=("arcs", "typed"))
    rows = files(KEY, RESPONSE, settings, rows=True)
    for jobs in (1, 2):
        digest = files(KEY, RESPONSE, settings, rows=CANDIDATES, jobs=jobs)
        assert digest.rows == [] and digest.digest is not None
        ids = [d.doc_id for d in rows.documents]
        a, b = document_matrix(rows, ids), document_matrix(digest, ids)
        assert a.keys() == b.keys() and {"immediate", "inferred", "anchor", "typed"} <= a.keys()
        assert all((a[k] == b[k]).all() for k in a)
        assert summary_intervals(digest, "x") == summary_intervals(rows, "x")
        assert render(digest, "html", name="x") == render(rows, "html", name="x")
    small = files(KEY, RESPONSE, settings, rows=3)
    with pytest.raises(ValueError, match="kept 3 rows"):
        example_blocks(small)
    with pytest.raises(ValueError, match="only a digest"):
        compare({"a": small, "b": small}, "a", 10, 10)


def test_score_forks_for_large_documents_unless_jobs_is_one(monkeypatch):
    """The command line allows the child (on an idle core, for a large document); ``--jobs 1`` is
    one process; the output is the same either way."""
    from typer.testing import CliRunner

    from corefreport.cli import app

    forked = _forking(monkeypatch)
    runner = CliRunner()
    args = ["score", "--example", "-a", "arcs", "-a", "errors", "-q"]
    apart = runner.invoke(app, args)
    assert apart.exit_code == 0 and len(forked) == 3
    alone = runner.invoke(app, args + ["--jobs", "1"])
    assert alone.exit_code == 0 and len(forked) == 3
    assert apart.output == alone.output and "Divided Entity" in alone.output
