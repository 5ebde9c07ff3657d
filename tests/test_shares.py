"""Scoring in shares (scoring/shares.py, io/shares.py): a pool of processes, each taking a run of
consecutive documents, gives what ``evaluate`` gives on the whole corpus — every number, table,
statistic, warning and the signature — and hands back to ``evaluate`` whatever it cannot cut."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import shared_path
from corefreport.errors import SettingsError
from corefreport.io import load_corpus
from corefreport.io.shares import Shares
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.settings import Settings
from corefreport.scoring.shares import evaluate_shares, shareable

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "src" / "corefreport" / "data" / "example"


def whole_and_shared(key: str, response: str, settings: Settings, jobs: int):
    whole = evaluate(load_corpus(key, key=True), load_corpus(response), settings)
    shares = Shares.of(key, response, None, None)
    assert shares is not None
    return whole, evaluate_shares(shares.read, settings, jobs)


def assert_same(whole, shared) -> None:
    assert shared is not None
    assert shared.metrics == whole.metrics
    assert [(d.doc_id, d.metrics, d.mentions) for d in shared.documents] == \
        [(d.doc_id, d.metrics, d.mentions) for d in whole.documents]
    assert (shared.key_stats, shared.response_stats, shared.mentions) == \
        (whole.key_stats, whole.response_stats, whole.mentions)
    assert shared.warnings == whole.warnings
    assert shared.duplicates == whole.duplicates
    assert str(shared.signature) == str(whole.signature)
    for name in ("arcs", "typed"):
        a, b = getattr(whole, name), getattr(shared, name)
        assert (a is None) == (b is None)
        if a is not None:  # as the JSON shows them, every count and float
            assert json.dumps(b.as_dict()) == json.dumps(a.as_dict())
    assert shared.rows == [] and shared.key_corpus is None


SETTINGS = [Settings(metrics=ALL_METRICS, analyses=("arcs", "typed")),
            Settings(analyses=("arcs",), by=("pronoun", "mtype"), singletons="drop"),
            Settings(metrics=("muc", "lmuc", "lbcub"), analyses=("typed",), k=(1.0, 0.5, 0.5, 0.0)),
            Settings(analyses=("arcs",), arcs_compat=True, arcs_anchor_links=True)]


@pytest.mark.parametrize("jobs", [2, 3, 5])
@pytest.mark.parametrize("settings", SETTINGS, ids=["all", "by-singletons", "typed-k", "arcs-compat"])
def test_the_example_in_shares_equals_the_whole(settings, jobs):
    """The bundled GUM sample (3 documents): shares of one document, and an empty one (jobs=5)."""
    assert shareable(settings)
    assert_same(*whole_and_shared(str(EXAMPLE / "gum_key.conll"), str(EXAMPLE / "xrenner_response.conll"),
                                  settings, jobs))


@pytest.mark.parametrize("system", ["ml-gum", "rules-gum"])
def test_gum_against_xrenner_in_shares_equals_the_whole(system):
    """The whole GUM corpus against xrenner's output: 2 and 3 processes."""
    key = str(shared_path("data", "gum", "derived", "conll2012", "gum.conll"))
    response = str(shared_path("data", "xrenner", "conll2012", f"{system}.conll"))
    for jobs in (2, 3):
        assert_same(*whole_and_shared(key, response, SETTINGS[0], jobs))


def _documents(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    head, *docs = text.split("#begin document")
    return ["#begin document" + d for d in docs]


def _change_a_word(doc: str, word: str) -> str:
    lines = doc.split("\n")
    token = next(i for i, ln in enumerate(lines) if ln and not ln.startswith("#"))
    cols = lines[token].split()
    cols[3] = word
    lines[token] = "\t".join(cols)
    return "\n".join(lines)


def test_warnings_come_in_the_whole_run_s_order(tmp_path):
    """A response whose first and last documents have a word the key does not: the same
    warnings, in the same order, as the whole run (each document in its own share)."""
    docs = _documents(EXAMPLE / "xrenner_response.conll")
    docs[0], docs[2] = _change_a_word(docs[0], "Changed"), _change_a_word(docs[2], "Altered")
    resp = tmp_path / "resp.conll"
    resp.write_text("".join(docs), encoding="utf-8")
    settings = Settings(analyses=("arcs", "typed"))
    whole, shared = whole_and_shared(str(EXAMPLE / "gum_key.conll"), str(resp), settings, 3)
    assert sum("token" in w for w in whole.warnings) == 2, whole.warnings
    assert_same(whole, shared)


def test_a_response_out_of_the_key_s_order_is_scored_whole(tmp_path):
    docs = _documents(EXAMPLE / "xrenner_response.conll")
    resp = tmp_path / "resp.conll"
    resp.write_text("".join(reversed(docs)), encoding="utf-8")
    shares = Shares.of(str(EXAMPLE / "gum_key.conll"), str(resp), None, None)
    assert evaluate_shares(shares.read, SETTINGS[0], 2) is None


def test_a_request_the_links_cannot_answer_is_refused_as_by_evaluate():
    settings = Settings(analyses=("arcs",), by=("nosuchfeature",))
    key, resp = str(EXAMPLE / "gum_key.conll"), str(EXAMPLE / "xrenner_response.conll")
    with pytest.raises(SettingsError) as whole:
        evaluate(load_corpus(key, key=True), load_corpus(resp), settings)
    with pytest.raises(SettingsError) as shared:
        evaluate_shares(Shares.of(key, resp, None, None).read, settings, 2)
    assert str(shared.value) == str(whole.value)


def test_what_cannot_be_cut_is_not_shareable():
    assert not shareable(Settings())  # the standard metrics stream instead
    assert not shareable(Settings(analyses=("arcs",), match="head"))
    assert not shareable(Settings(analyses=("errors",)))
    assert not shareable(Settings(analyses=("typed",), k=(1.0, 0.3, 0.5, 0.25)))  # 0.3: sums depend on the cut
    assert not shareable(Settings(analyses=("arcs",), plink_by=("mtype",)))


def test_only_conll2012_files_are_read_in_shares(tmp_path):
    jl = shared_path("data", "jsonlines")
    some = next(p for p in jl.rglob("*") if p.is_file() and p.suffix in (".jsonlines", ".jsonl"))
    assert Shares.of(str(some), str(some), None, None) is None
    assert Shares.of(str(EXAMPLE), str(EXAMPLE), None, None) is None  # a directory


def test_the_cli_gives_the_same_json_with_one_and_two_processes(tmp_path):
    from typer.testing import CliRunner

    from corefreport.cli.commands import app

    key = str(shared_path("data", "gum", "derived", "conll2012", "gum.conll"))
    response = str(shared_path("data", "xrenner", "conll2012", "ml-gum.conll"))
    runner = CliRunner()
    outs = [runner.invoke(app, ["score", key, response, "-m", "all", "-a", "arcs", "-a", "typed", "-f", "json",
                                "-q", "--jobs", j]) for j in ("1", "2")]
    assert outs[0].exit_code == outs[1].exit_code == 0
    assert outs[0].stdout == outs[1].stdout
    assert json.loads(outs[1].stdout)["arcs"]["immediate"]["total"]["tp"] > 0
