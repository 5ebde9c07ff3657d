"""The readers added with issues 35 and 36 — BookCoref's books (JSON lines with ``characters``) and
uCDCR's mention JSON — on generated inputs, as tests/test_matrix_readers.py holds the others (issue 37:
every reader added since the last matrix).

Random key/response pairs (``generated_corpora.random_pair``) are written in each format. Every run
ends in one of two ways:

* exit 0 with the numbers the same chains give written in CoNLL-2012 (every recall, precision and
  F1), and for a harmless defect the warning that names it;
* exit 2 with exactly one ``corefreport: error:`` line naming the file and the line and saying what
  is wrong — never a traceback.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import one_error_line
from corefreport.cli import app

from generated_corpora import Doc, random_pair, write_conll2012

runner = CliRunner()
CLASSES: Counter = Counter()
SEEDS = range(6)


def run(*args):
    res = runner.invoke(app, [str(a) for a in args])
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output, res.output
    return res


def numbers(res) -> dict:
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    return {k: (v.get("recall"), v.get("precision"), v["f1"]) for k, v in data["metrics"].items()}


def reference(tmp: Path, keys: list[Doc], resps: list[Doc]) -> dict:
    k, r = tmp / "ref-key.conll", tmp / "ref-response.conll"
    k.write_text(write_conll2012(keys), encoding="utf-8")
    r.write_text(write_conll2012(resps, offset=3), encoding="utf-8")
    return numbers(run("score", k, r, "-f", "json", "-q"))


# --- writers -------------------------------------------------------------------------------------

def book_objects(docs: list[Doc], named: bool = True) -> list[dict]:
    """BookCoref lines: the book's sentences, clusters as inclusive [start, end] word offsets, a
    character per chain of two or more mentions (a system's output: ``"characters": {}``)."""
    out = []
    for d in docs:
        chars = ([{"name": f"Person {i}", "mentions": [list(s) for s in c]} for i, c in enumerate(d.chains)
                  if len(c) > 1] if named else {})
        out.append({"doc_key": d.name, "gutenberg_key": "1342", "sentences": [[w for w, _ in s] for s in d.sentences],
                    "clusters": [[list(s) for s in c] for c in d.chains], "characters": chars})
    return out


def lines(objs: list[dict]) -> str:
    return "\n".join(json.dumps(o) for o in objs) + "\n"


def ucdcr_mentions(docs: list[Doc]) -> list[dict]:
    """uCDCR mentions: each with its document's words as its context (placed at word 0), its words
    in that context, its chain id unique in the corpus."""
    out = []
    for d in docs:
        words = [w for s in d.sentences for w, _ in s]
        for i, c in enumerate(d.chains):
            for s, e in c:
                out.append({"coref_chain": f"{d.name}-{i}", "doc_id": d.name, "topic_id": "1", "subtopic_id": "1a",
                            "conll_doc_key": f"1/1a/{d.name}", "mention_context": words,
                            "context_start_end_global_id": [0, len(words) - 1],
                            "tokens_number_context": list(range(s, e + 1)), "mention_type": "HUM",
                            "coref_type": "IDENTITY"})
    return out


def write_ucdcr(folder: Path, docs: list[Doc]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "entity_mentions.json").write_text(json.dumps(ucdcr_mentions(docs), indent=1), encoding="utf-8")
    return folder


# --- harmless writings ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", SEEDS)
def test_a_book_scores_as_the_same_chains_in_conll_2012(tmp_path, seed):
    keys, resps = random_pair(seed)
    want = reference(tmp_path, keys, resps)
    (tmp_path / "k.jsonl").write_text(lines(book_objects(keys)), encoding="utf-8")
    (tmp_path / "r.jsonl").write_text(lines(book_objects(resps, named=False)), encoding="utf-8")
    assert numbers(run("score", tmp_path / "k.jsonl", tmp_path / "r.jsonl", "-f", "json", "-q")) == want
    CLASSES["exit 0 correct"] += 1


@pytest.mark.parametrize("seed", SEEDS)
def test_ucdcr_mentions_score_as_the_same_chains_in_conll_2012(tmp_path, seed):
    keys, resps = random_pair(seed)
    if any(not d.chains for d in keys + resps):  # uCDCR knows a document only through its mentions
        pytest.skip("a document without mentions has no place in uCDCR")
    want = reference(tmp_path, keys, resps)
    k, r = write_ucdcr(tmp_path / "key", keys), write_ucdcr(tmp_path / "resp", resps)
    assert numbers(run("score", k, r, "-f", "json", "-q")) == want
    # the file itself, and the same mentions as WEC's predicted_coref_chain in a response
    assert numbers(run("score", k / "entity_mentions.json", r / "entity_mentions.json", "-f", "json", "-q")) == want
    CLASSES["exit 0 correct"] += 1


# --- broken and odd books ------------------------------------------------------------------------

def _set(key: str, value):
    def f(objs):
        objs[0][key] = value
    return f


def _add_span(span):
    def f(objs):
        objs[0]["clusters"][0].append(span)
    return f


def _add_character(ch):
    def f(objs):
        objs[0]["characters"].append(ch)
    return f


def _drop(key: str):
    def f(objs):
        objs[0].pop(key)
    return f


BOOK_ERRORS = {  # mutation → what the one error line says (after FILE:1:)
    "span beyond the book": (_add_span([10 ** 6, 10 ** 6]), "ends beyond the document"),
    "end before start": (_add_span([5, 2]), "(start > end)"),
    "negative offset": (_add_span([-3, -1]), "negative offset -3"),
    "float offset": (_add_span([1.5, 2]), "is not [start, end] (two integers)"),
    "three numbers": (_add_span([1, 2, 3]), "is not [start, end] (two integers)"),
    "clusters an object": (_set("clusters", {"a": 1}), "a key needs gold 'clusters'"),
    "clusters null": (_set("clusters", None), "a key needs gold 'clusters'"),
    "sentences a string": (_set("sentences", "abc"), "must be a list of token lists"),
    "no sentences": (_drop("sentences"), "has no 'sentences'"),
    "no doc_key": (_drop("doc_key"), "has no 'doc_key' (or 'doc_id')"),
}

BOOK_WARNINGS = {  # mutation → the warning; the numbers stay the CoNLL-2012 writing's
    "characters a string": (_set("characters", "x"), "is not a list of {name, mentions} objects (str)"),
    "a character without a name": (_add_character({"mentions": [[0, 0]]}), "not read: 2 (no 'name' string)"),
    "a character's name a number": (_add_character({"name": 5, "mentions": [[0, 0]]}), "(no 'name' string)"),
    "a character's mentions a string": (_add_character({"name": "X", "mentions": "abc"}),
                                        "2 'X' (no 'mentions' or 'cluster' of [start, end] pairs)"),
    "a character in no cluster": (_add_character({"name": "X", "mentions": [[10 ** 6, 10 ** 6]]}),
                                  "name no cluster of their own"),
}


def _book_pair(tmp_path: Path):
    keys, resps = random_pair(3, 2)
    assert len(keys[0].chains) >= 2  # the mutations' character index (2) follows two named chains
    (tmp_path / "r.jsonl").write_text(lines(book_objects(resps, named=False)), encoding="utf-8")
    return keys, resps


@pytest.mark.parametrize("case", BOOK_ERRORS)
def test_a_broken_book_is_one_error_naming_its_line(tmp_path, case):
    keys, _ = _book_pair(tmp_path)
    objs = book_objects(keys)
    mutate, says = BOOK_ERRORS[case]
    mutate(objs)
    (tmp_path / "k.jsonl").write_text(lines(objs), encoding="utf-8")
    res = run("score", tmp_path / "k.jsonl", tmp_path / "r.jsonl", "-q")
    msg = one_error_line(res)
    assert f"k.jsonl:1: " in msg and says in msg, msg
    CLASSES["exit 2 clear"] += 1


@pytest.mark.parametrize("case", BOOK_WARNINGS)
def test_odd_characters_are_a_warning_and_the_numbers_stay(tmp_path, case):
    keys, resps = _book_pair(tmp_path)
    want = reference(tmp_path, keys, resps)
    objs = book_objects(keys)
    mutate, says = BOOK_WARNINGS[case]
    mutate(objs)
    (tmp_path / "k.jsonl").write_text(lines(objs), encoding="utf-8")
    res = run("score", tmp_path / "k.jsonl", tmp_path / "r.jsonl", "-f", "json")
    assert numbers(res) == want
    warned = [x for x in res.stderr.splitlines() if x.startswith("corefreport: warning: ")]
    assert any("k.jsonl:1: " in x and says in x for x in warned), warned
    CLASSES["exit 0 correct"] += 1


def test_books_broken_as_files_are(tmp_path):
    keys, _ = _book_pair(tmp_path)
    text = lines(book_objects(keys))  # two books, a line each
    cases = {"repeated": (text + lines(book_objects(keys[1:])), "k.jsonl:3: doc_key 'doc3_1' repeats (first on line 2)"),
             "truncated": (text[:-40], "k.jsonl:2: not valid JSON"),
             "not UTF-8": (text.encode() + b"\xff\xfe\n", "k.jsonl:3: not valid UTF-8"),
             "empty": ("", "k.jsonl: the key holds no document")}
    for name, (body, says) in cases.items():
        p = tmp_path / "k.jsonl"
        p.write_bytes(body if isinstance(body, bytes) else body.encode())
        res = run("score", p, tmp_path / "r.jsonl", "-q")
        assert says in one_error_line(res), (name, res.output)
        CLASSES["exit 2 clear"] += 1


# --- broken uCDCR mentions -----------------------------------------------------------------------

def _m(key: str, value):
    def f(ms):
        ms[0][key] = value
    return f


def _m_drop(*keys: str):
    def f(ms):
        for k in keys:
            ms[0].pop(k)
    return f


UCDCR_ERRORS = {  # mutation of the first mention → what the one error line says (after FILE:1:)
    "a word past the context": (_m("tokens_number_context", [999]), "'tokens_number_context' must be word numbers"),
    "a negative word": (_m("tokens_number_context", [-1]), "'tokens_number_context' must be word numbers"),
    "a word as text": (_m("tokens_number_context", ["a"]), "'tokens_number_context' must be word numbers"),
    "no words": (_m("tokens_number_context", []), "'tokens_number_context' must be word numbers"),
    "context placed too short": (_m("context_start_end_global_id", [0, 2]), "'context_start_end_global_id' must be"),
    "context placed as text": (_m("context_start_end_global_id", "0-5"), "'context_start_end_global_id' must be"),
    "context not a list": (_m("mention_context", "The navy"), "'mention_context' must be a non-empty list of words"),
    "context of numbers": (_m("mention_context", [1, 2, 3]), "'mention_context' must be a non-empty list of words"),
    "chain null": (_m("coref_chain", None), "'coref_chain' must be a cluster id, got null"),
    "chain a list": (_m("coref_chain", [1]), "'coref_chain' must be a cluster id, got [1]"),
    "no document": (_m_drop("doc_id", "conll_doc_key"), "has no 'doc_key' (or 'doc_id')"),
    "no context words field": (_m_drop("tokens_number_context"),
                               "looks like a uCDCR (WEC-Eng) mention but has no 'tokens_number_context'"),
}


def _ucdcr_pair(tmp_path: Path):
    keys, resps = random_pair(3, 2)
    return keys, resps, write_ucdcr(tmp_path / "resp", resps)


@pytest.mark.parametrize("case", UCDCR_ERRORS)
def test_a_broken_ucdcr_mention_is_one_error_naming_the_file(tmp_path, case):
    keys, _, resp = _ucdcr_pair(tmp_path)
    ms = ucdcr_mentions(keys)
    mutate, says = UCDCR_ERRORS[case]
    mutate(ms)
    folder = tmp_path / "key"
    folder.mkdir()
    (folder / "entity_mentions.json").write_text(json.dumps(ms), encoding="utf-8")  # one line: every error on 1
    res = run("score", folder, resp, "-q")
    msg = one_error_line(res)
    assert "entity_mentions.json:1: " in msg and says in msg, msg
    CLASSES["exit 2 clear"] += 1


def test_ucdcr_files_broken_as_files_are(tmp_path):
    keys, _, resp = _ucdcr_pair(tmp_path)
    ms = ucdcr_mentions(keys)
    text = json.dumps(ms)
    words = ms[0]["mention_context"]
    other = dict(ms[1], mention_context=["X", *words[1:]])  # word 0 given otherwise by another context
    cases = {"a mention alone, not in an array": (json.dumps(ms[0]), ":1: the object looks like a uCDCR (WEC-Eng) "
                                                  "mention but is not inside a JSON array"),
             "an element not an object": (json.dumps([*ms, 5]), ":1: expected a JSON object in the array, found a number"),
             "truncated": (text[:-30], ":1: not valid JSON"),
             "not UTF-8": (text.encode() + b"\xff", ":1: not valid UTF-8"),
             "two contexts disagree": (json.dumps([ms[0], other]), ":1: document '1/1a/doc3_0': word 0 is "),
             "an empty array": ("[]", "the key holds no document")}
    for name, (body, says) in cases.items():
        folder = tmp_path / name.replace(" ", "-").replace(",", "")
        folder.mkdir()
        (folder / "entity_mentions.json").write_bytes(body if isinstance(body, bytes) else body.encode())
        res = run("score", folder, resp, "-q")
        assert says in one_error_line(res), (name, res.output)
        CLASSES["exit 2 clear"] += 1


def test_the_matrix_ran(request):
    if request.config.option.keyword or any("::" in a for a in request.config.args):
        pytest.skip("a part of the module was selected")
    assert CLASSES["exit 2 clear"] == len(BOOK_ERRORS) + 4 + len(UCDCR_ERRORS) + 6, CLASSES
    assert CLASSES["exit 0 correct"] >= len(BOOK_WARNINGS) + 2 * len(SEEDS) - 2, CLASSES
