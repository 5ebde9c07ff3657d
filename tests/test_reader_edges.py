"""Reader edge cases of issue 26 ("Trust on every input"): what the reference scorer v8.01
(scorer.pl) reads, inputs that used to be silently misread, and inputs that used to take seconds."""

from __future__ import annotations

import time

import pytest

from corefreport.errors import InputError
from corefreport.io.conll2012 import parse_coref_cell, read_conll2012


# --- a long coreference cell is parsed in linear time ----------------------------------------

LONG = 80_000


@pytest.mark.parametrize("cell, expected", [
    ("a" * LONG, None),
    ("(" + "a" * LONG, ([], ["a" * LONG], [])),
    ("a" * LONG + "|(1", None),
    ("(1" * (LONG // 2), ([], ["1"] * (LONG // 2), [])),
    ("(1)|" * (LONG // 4), (["1"] * (LONG // 4), [], [])),
    ("(x" + "|" * LONG, ([], ["x"], [])),
])
def test_an_80000_letter_cell_is_parsed_in_well_under_a_second(cell, expected):
    t = time.perf_counter()
    got = parse_coref_cell(cell)
    assert time.perf_counter() - t < 0.5
    assert got == expected


def test_an_80000_letter_cell_in_a_file_is_a_short_clear_error_at_once():
    text = ("#begin document (d); part 000\n"
            "d\t0\t0\tx\tNN\t*\t-\t-\t-\t-\t*\t" + "a" * LONG + "\n"
            "d\t0\t1\ty\tNN\t*\t-\t-\t-\t-\t*\t(1)\n\n#end document\n")
    t = time.perf_counter()
    with pytest.raises(InputError) as err:
        read_conll2012("g.conll", text)
    assert time.perf_counter() - t < 0.5
    assert str(err.value) == ("g.conll:2: cannot read coreference annotation '" + "a" * 60 + "'… (80000 characters) "
                              "in the last column (expected '(n', 'n)', '(n)' joined by '|', or '-')")


@pytest.mark.parametrize("cell, expected", [
    ("(1(3", ([], ["1", "3"], [])),
    ("(1)|2)", (["1"], [], ["2"])),
    ("(1 2)", (["1 2"], [], [])),
    ("x(1", None),
    ("(1)x", None),
    ("()", None),
    (")", None),
    ("| (1) |", (["1"], [], [])),
    ("(1+2)|(3)", (["3"], [], [])),
])
def test_the_linear_parser_reads_cells_as_the_bracket_grammar_says(cell, expected):
    assert parse_coref_cell(cell) == expected


# --- CoNLL-2012: the coreference annotation is the last non-empty field --------------------------

from conftest import load_vectors  # noqa: E402
from corefreport.scoring.evaluate import evaluate  # noqa: E402
from corefreport.scoring.settings import Settings  # noqa: E402

CASES = load_vectors("reference_testcases.json")
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")


def _pad(text: str, tail: str, first_only: bool) -> str:
    """``text`` with ``tail`` after every token line (or only after each document's first)."""
    out, fresh = [], True
    for line in text.split("\n"):
        if line.startswith("#"):
            fresh = True
        elif line.strip() and (fresh or not first_only):
            line = line.rstrip() + tail
            fresh = False
        out.append(line)
    return "\n".join(out)


def _score(key_text: str, resp_text: str):
    key = read_conll2012("key.conll", key_text)
    resp = read_conll2012("response.conll", resp_text)
    return evaluate(key, resp, Settings(metrics=METRICS))


@pytest.mark.skipif(not CASES, reason="../shared is absent")
@pytest.mark.parametrize("tail, first_only", [("\t", True), ("\t", False), ("\t\t", True), (" ", False),
                                              ("\t \t", True)])
@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_reference_cases_score_the_same_with_trailing_tabs_and_spaces(case, tail, first_only):
    """The official expected values (test.pl's tolerance) hold when TABs or spaces follow the
    coreference column, on the first token line of a document or on every one."""
    ev = _score(_pad(case["key"], tail, first_only), _pad(case["response"], tail, first_only))
    for metric, exp in case["expected"].items():
        s = ev.metrics[metric]
        err = abs(s.recall - exp["recall"]) + abs(s.precision - exp["precision"]) + abs(s.f1 - exp["f1"])
        assert err < 1e-4, (metric, s.recall, s.precision, s.f1, exp)


DOC12 = """#begin document (d); part 000
d\t0\t0\tJohn\tNNP\t*\t-\t-\t-\tA\t*\t(1)
d\t0\t1\tsaw\tVBD\t*\tsee\t-\t-\tA\t*\t-
d\t0\t2\thim\tPRP\t*\t-\t-\t-\tA\t*\t(1)

d\t0\t0\tMary\tNNP\t*\t-\t-\t-\tB\t*\t(2
d\t0\t1\tSmith\tNNP\t*\t-\t-\t-\tB\t*\t2)
d\t0\t2\tleft\tVBD\t*\tleave\t-\t-\tB\t*\t-
#end document
"""

DOC6 = """#begin document (d); part 000
d\t0\t0\tJohn\tNNP\t(1)
d\t0\t1\tsaw\tVBD\t-
d\t0\t2\thim\tPRP\t(1)
#end document
"""

DOC5 = """#begin document (d); part 000
d\t0\t0\tJohn\t(1)
d\t0\t1\tsaw\t-
d\t0\t2\thim\t(1)
#end document
"""


@pytest.mark.parametrize("text, words, pos, chains", [
    (DOC12, ["John", "saw", "him", "Mary", "Smith", "left"], ["NNP", "VBD", "PRP", "NNP", "NNP", "VBD"],
     [[(0, 0), (2, 2)], [(3, 4)]]),
    (DOC6, ["John", "saw", "him"], ["NNP", "VBD", "PRP"], [[(0, 0), (2, 2)]]),
    (DOC5, ["John", "saw", "him"], None, [[(0, 0), (2, 2)]]),
])
@pytest.mark.parametrize("tail, first_only", [("", True), ("\t", True), ("\t", False), ("  ", True),
                                              ("\t ", False)])
def test_a_trailing_tab_keeps_the_words_the_pos_and_the_mentions(text, words, pos, chains, tail, first_only):
    """Before, a TAB after the coreference column of the first line made the whole document read
    one column too far: DOC12 lost all its mentions, DOC5 took its coreference column for POS."""
    doc = read_conll2012("d.conll", _pad(text, tail, first_only)).documents["d; part 000"]
    assert doc.tokens == words
    assert doc.columns.get("pos") == pos
    assert [[(m.start, m.end) for m in c.mentions] for c in doc.chains] == chains
    if text is DOC12:
        assert doc.columns["lemma"][1] == "see" and doc.columns["speaker"][3] == "B"
        assert not any(k.startswith("col") for k in doc.columns)


# --- JSON lines: "clusters" null or not a list ------------------------------------------------

import json  # noqa: E402

from typer.testing import CliRunner  # noqa: E402

from conftest import one_error_line  # noqa: E402
from corefreport.cli import app  # noqa: E402
from corefreport.io.jsonlines import read_jsonlines  # noqa: E402

runner = CliRunner()
SENTENCES = [["John", "saw", "him"]]


@pytest.mark.parametrize("value, what", [(None, "null"), ("[]", "a string"), (3, "a number"), ({}, "an object")])
def test_a_response_whose_clusters_are_not_a_list_is_an_error_naming_file_line_and_document(tmp_path, value, what):
    """Before, ``"clusters": null`` in a response scored as no mentions, silently (MUC recall 0)."""
    key = tmp_path / "k.jsonl"
    key.write_text(json.dumps({"doc_key": "d", "sentences": SENTENCES, "clusters": [[[0, 0], [2, 2]]]}) + "\n")
    resp = tmp_path / "r.jsonl"
    resp.write_text(json.dumps({"doc_key": "e", "sentences": SENTENCES, "clusters": []}) + "\n"
                    + json.dumps({"doc_key": "d", "sentences": SENTENCES, "clusters": value}) + "\n")
    res = runner.invoke(app, ["score", str(key), str(resp), "-m", "muc", "-f", "json"])
    assert one_error_line(res) == (f"corefreport: error: {resp}:2: 'clusters' of document 'd' is {what}: it must be a "
                               "list of clusters ([] for a document without mentions)")


def test_null_clusters_with_predicted_clusters_read_those_with_a_warning():
    text = json.dumps({"doc_key": "d", "sentences": SENTENCES, "clusters": None,
                       "predicted_clusters": [[[0, 0], [2, 2]]]})
    corpus = read_jsonlines("r.jsonl", text)
    assert [[(m.start, m.end) for m in c.mentions] for c in corpus.documents["d"].chains] == [[(0, 0), (2, 2)]]
    assert corpus.warnings == ["r.jsonl:1: document 'd' has no 'clusters'; read its 'predicted_clusters'"]


def test_a_response_without_clusters_is_no_mentions_with_a_warning():
    corpus = read_jsonlines("r.jsonl", json.dumps({"doc_key": "d", "sentences": SENTENCES}))
    assert corpus.documents["d"].chains == []
    assert corpus.warnings == ["r.jsonl:1: document 'd' has no 'clusters'; read as no mentions"]


# --- CorefUD: a head index outside the mention ---------------------------------------------------

CONLLU = """# newdoc id = u1
# global.Entity = eid-etype-head-other
# sent_id = u1-1
# text = The old man saw a dog
1\tThe\tThe\tX\t_\t_\t0\tdep\t_\tEntity=(e1-x-3-
2\told\told\tX\t_\t_\t0\tdep\t_\t_
3\tman\tman\tX\t_\t_\t0\tdep\t_\tEntity=e1)
4\tsaw\tsaw\tX\t_\t_\t0\tdep\t_\t_
5\ta\ta\tX\t_\t_\t0\tdep\t_\tEntity=(e2-x-2-
6\tdog\tdog\tX\t_\t_\t0\tdep\t_\tEntity=e2)
7\tit\tit\tX\t_\t_\t0\tdep\t_\tEntity=(e2-x-1-)

"""


def _conllu_pair(tmp_path, response: str):
    key = tmp_path / "k.conllu"
    key.write_text(CONLLU, encoding="utf-8")
    resp = tmp_path / "r.conllu"
    resp.write_text(response, encoding="utf-8")
    return str(key), str(resp)


def test_valid_heads_score_100_under_match_head(tmp_path):
    key, resp = _conllu_pair(tmp_path, CONLLU)
    res = runner.invoke(app, ["score", key, resp, "--match", "head", "-m", "muc", "-f", "json", "-q"])
    assert res.exit_code == 0, res.output
    muc = json.loads(res.stdout)["metrics"]["muc"]
    assert (muc["recall_num"], muc["recall_den"], muc["precision_num"], muc["precision_den"]) == (1, 1, 1, 1)


@pytest.mark.parametrize("before, after, line, problem", [
    ("(e2-x-2-", "(e2-x-7-", 9, "head index 7 is outside the mention's 2 words (expected 1 to 2)"),
    ("(e2-x-2-", "(e2-x-0-", 9, "head index 0 is outside the mention's 2 words (expected 1 to 2)"),
    ("(e2-x-2-", "(e2-x-two-", 9, "head index 'two' is not a number (expected 1 to 2, a position in the mention)"),
    ("(e2-x-1-)", "(e2-x-2-)", 11, "head index 2 is outside the mention's 1 word (expected 1 to 1)"),
])
def test_a_head_index_outside_the_mention_is_an_error_naming_file_and_line(tmp_path, before, after, line, problem):
    """Before, head 7 of a two-word mention silently became its first word: MUC 100 → 0."""
    key, resp = _conllu_pair(tmp_path, CONLLU.replace(before, after))
    res = runner.invoke(app, ["score", key, resp, "--match", "head", "-m", "muc"])
    eid = "e2"
    assert one_error_line(res) == f"corefreport: error: {resp}:{line}: mention of entity {eid!r}: {problem}"


def test_an_empty_head_field_is_no_head_not_an_error(tmp_path):
    from corefreport.io.conllu import read_conllu

    doc = read_conllu("u.conllu", CONLLU.replace("(e2-x-2-", "(e2-x-_-").replace("(e1-x-3-", "(e1-x--")
                      ).documents["u1"]
    assert [("head" in m.features) for c in doc.chains for m in c.mentions] == [False, False, True]


def test_a_discontinuous_mention_s_head_is_checked_over_all_its_words():
    from corefreport.io.conllu import read_conllu

    text = ("# newdoc id = d\n# global.Entity = eid-etype-head-other\n"
            "1\ta\ta\tX\t_\t_\t0\tdep\t_\tEntity=(e1[1/2]-x-1-)\n"
            "2\tb\tb\tX\t_\t_\t0\tdep\t_\t_\n"
            "3\tc\tc\tX\t_\t_\t0\tdep\t_\tEntity=(e1[2/2]-x-{h}-)\n\n")
    doc = read_conllu("d.conllu", text.format(h=2)).documents["d"]
    assert doc.chains[0].mentions[0].features["head"] == "2"
    with pytest.raises(InputError) as err:
        read_conllu("d.conllu", text.format(h=3))
    assert str(err.value) == ("d.conllu:5: mention of entity 'e1': head index 3 is outside the mention's 2 words "
                              "(expected 1 to 2)")


# --- CoNLL-2012: a document name repeated in one file ------------------------------------------

COPY1 = "#begin document (d); part 000\nd\t0\t0\tJohn\tNNP\t{a}\nd\t0\t1\tsaw\tVBD\t-\nd\t0\t2\thim\tPRP\t{b}\n#end document\n"
COPY2 = "#begin document (d); part 000\nd\t0\t0\tMary\tNNP\t(1)\nd\t0\t1\tmet\tVBD\t-\nd\t0\t2\tAnn\tNNP\t(2)\n#end document\n"


def _muc_bcub(res) -> tuple:
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)["metrics"]
    return tuple((m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"])
                 for m in (out["muc"], out["bcub"]))


def test_a_repeated_document_gives_its_last_copy_as_scorer_pl_does_with_a_warning(tmp_path):
    """scorer.pl v8.01 scores only the last copy of a name written twice, on either side
    (``GetFileNames`` keeps each name's last offset): here COPY2 against COPY2, MUC 0/0 0/0 and B³
    2/2 2/2 (scorer.pl printed these on these files). The warning names the file, both lines and
    what is scored."""
    key = tmp_path / "k.conll"
    key.write_text(COPY1.format(a="(1)", b="(1)") + COPY2, encoding="utf-8")
    resp = tmp_path / "r.conll"
    resp.write_text(COPY1.format(a="-", b="-") + COPY2, encoding="utf-8")
    res = runner.invoke(app, ["score", str(key), str(resp), "-m", "muc,bcub", "-f", "json"])
    assert _muc_bcub(res) == ((0, 0, 0, 0), (2, 2, 2, 2))
    for path in (key, resp):
        assert (f"corefreport: warning: {path}:6: document id 'd; part 000' is written 2 times (#begin document at "
                "lines 1 and 6): only this last copy (line 6) is scored, as scorer.pl v8.01 does; the copy at line 1 "
                "is ignored (--repeated-documents rename scores each copy)") in res.stderr
    assert "docs:" not in json.loads(res.stdout)["signature"]


def test_repeated_documents_rename_scores_every_copy_and_says_so_in_the_signature(tmp_path):
    """The opt-in deviation: both copies scored (the second as ``ID#2``): the first copy's two key
    mentions are missed, B³ 2/4."""
    key = tmp_path / "k.conll"
    key.write_text(COPY1.format(a="(1)", b="(1)") + COPY2, encoding="utf-8")
    resp = tmp_path / "r.conll"
    resp.write_text(COPY1.format(a="-", b="-") + COPY2, encoding="utf-8")
    res = runner.invoke(app, ["score", str(key), str(resp), "-m", "muc,bcub", "-f", "json",
                              "--repeated-documents", "rename"])
    assert _muc_bcub(res) == ((0, 1, 0, 0), (2, 4, 2, 2))
    assert "|docs:rename|" in json.loads(res.stdout)["signature"]
    for path in (key, resp):
        assert (f"corefreport: warning: {path}:6: document id 'd; part 000' repeats (first at line 1); renamed to "
                "d; part 000#2 and scored as a document of its own (--repeated-documents rename; scorer.pl v8.01 "
                "scores only the last copy)") in res.stderr


def test_three_copies_name_every_line_and_the_library_reader_agrees():
    from corefreport.io.conll2012 import read_conll2012

    text = COPY1.format(a="(1)", b="(1)") + COPY2 + COPY1.format(a="(7)", b="-")
    corpus = read_conll2012("f.conll", text)
    (doc,) = corpus.documents.values()
    assert [c.label for c in doc.chains] == ["7"] and doc.line == 11
    assert corpus.warnings == [
        "f.conll:11: document id 'd; part 000' is written 3 times (#begin document at lines 1, 6 and 11): only this "
        "last copy (line 11) is scored, as scorer.pl v8.01 does; the copies at lines 1 and 6 are ignored "
        "(--repeated-documents rename scores each copy)"]
    renamed = read_conll2012("f.conll", text, repeated="rename")
    assert list(renamed.documents) == ["d; part 000", "d; part 000#2", "d; part 000#3"]


@pytest.mark.parametrize("block", [5, 64, 1 << 20])
def test_the_id_pre_scan_finds_the_copies_the_reader_finds(tmp_path, block):
    """The streaming reader learns which ids repeat from a byte-level pre-scan (repeated_ids): the
    same ids and lines as reading every document, whatever the block size (a BOM, CRLF, '# begin',
    a last line without a line end, 'begin document' inside a word)."""
    from corefreport.io.conll2012 import ALL, iter_conll2012, last_copies, repeated_ids

    text = ("\ufeff" + COPY1.format(a="(1)", b="(1)").replace("\n", "\r\n") + COPY2.replace("#begin", "# begin")
            + COPY2.replace("(d)", "(e)").replace("Mary", "begin document") + COPY1.format(a="-", b="-")
            + COPY2.replace("(d)", "(e)").rstrip("\n"))
    path = tmp_path / "f.conll"
    path.write_bytes(text.encode("utf-8"))
    expected = {"d; part 000": [1, 6, 16], "e; part 000": [11, 21]}
    assert last_copies(iter_conll2012(str(path), {}, [], parse=lambda: False, repeated=ALL)) == expected
    assert repeated_ids(str(path), block) == expected


@pytest.mark.parametrize("tail, crlf", [("\t ", False), ("\t  \t", False), ("\t", True), (" \t", True)])
def test_a_blank_last_field_is_read_past_with_one_warning_per_file(tail, crlf):
    """scorer.pl reads a line's last TAB field even when it is blank (a TAB then spaces, or a TAB
    before the CR of a CRLF line end) and loses the brackets before it; corefreport reads them (the
    last non-blank field: README, deliberate differences) and says so once per file, at the first
    such line that hides an annotation (a hidden '-' is no loss)."""
    from corefreport.io.conll2012 import read_conll2012

    nl = "\r\n" if crlf else "\n"
    text = nl.join(["#begin document (d); part 000", f"d\t0\t0\tJohn\t-{tail}", f"d\t0\t1\tsaw\t(1{tail}",
                    f"d\t0\t2\thim\t1){tail}", "#end document", "#begin document (e); part 000",
                    f"e\t0\t0\tMary\t(2){tail}", "#end document", ""])
    corpus = read_conll2012("f.conll", text)
    assert [[(m.start, m.end) for m in c.mentions] for d in corpus for c in d.chains] == [[(1, 2)], [(0, 0)]]
    assert corpus.warnings == [
        "f.conll:3: a TAB and blanks follow the coreference annotation '(1': read as the annotation (the last "
        "non-blank field); scorer.pl v8.01 reads the blank field after it instead and loses that line's brackets "
        "(README: deliberate differences; later such lines of this file are not listed)"]
    assert read_conll2012("f.conll", text.replace(tail + nl, nl)).warnings == []  # plain TAB-separated: none
    # a trailing TAB in an LF file leaves the annotation the last field for scorer.pl too: no warning
    assert read_conll2012("f.conll", text.replace(tail + nl, "\t\t\n").replace("\r", "")).warnings == []


# --- standard input, pipes and FIFOs -------------------------------------------------------

import os  # noqa: E402
import threading  # noqa: E402

PAIR_KEY = COPY1.format(a="(1)", b="(1)").replace("(d)", "(k)") + COPY2
PAIR_RESP = COPY1.format(a="(1)", b="-").replace("(d)", "(k)") + COPY2


def _muc(res) -> tuple:
    assert res.exit_code == 0, res.output
    m = json.loads(res.stdout)["metrics"]["muc"]
    return m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"]


def _fifo(tmp_path, name: str, text: str) -> tuple[str, threading.Thread]:
    """A FIFO in ``tmp_path`` with a thread that writes ``text`` into it once a reader opens it."""
    path = tmp_path / name
    os.mkfifo(path)

    def write() -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    return str(path), writer


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.parametrize("side", ["key", "response"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_fifo_is_read_whole_once_and_scored(tmp_path, side, jobs):
    """Before: 'no such file or directory'. The pair scores as the same files do: MUC R 0/1
    (the key's chain of 'k' is not linked in the response), P 0/0; B³ counts are 5 of 6 mentions."""
    plain_key, plain_resp = tmp_path / "k.conll", tmp_path / "r.conll"
    plain_key.write_text(PAIR_KEY, encoding="utf-8")
    plain_resp.write_text(PAIR_RESP, encoding="utf-8")
    expected = runner.invoke(app, ["score", str(plain_key), str(plain_resp), "-m", "muc", "-f", "json", "-q"])
    assert _muc(expected) == (0, 1, 0, 0)
    fifo, writer = _fifo(tmp_path, "in.fifo", PAIR_KEY if side == "key" else PAIR_RESP)
    args = [fifo, str(plain_resp)] if side == "key" else [str(plain_key), fifo]
    res = runner.invoke(app, ["score", *args, "-m", "muc", "-f", "json", "-q", "-j", jobs])
    writer.join(5)
    assert _muc(res) == (0, 1, 0, 0)
    assert json.loads(res.stdout)["metrics"]["muc"] == json.loads(expected.stdout)["metrics"]["muc"]


@pytest.mark.parametrize("side", ["key", "response"])
def test_standard_input_is_read_for_one_side(tmp_path, side):
    key, resp = tmp_path / "k.conll", tmp_path / "r.conll"
    key.write_text(PAIR_KEY, encoding="utf-8")
    resp.write_text(PAIR_RESP, encoding="utf-8")
    args = ["-", str(resp)] if side == "key" else [str(key), "-"]
    res = runner.invoke(app, ["score", *args, "-m", "muc", "-f", "json", "-q"],
                        input=PAIR_KEY if side == "key" else PAIR_RESP)
    assert _muc(res) == (0, 1, 0, 0)


def test_standard_input_jsonlines_and_conllu_are_read_too(tmp_path):
    key = tmp_path / "k.jsonl"
    key.write_text(json.dumps({"doc_key": "d", "sentences": SENTENCES, "clusters": [[[0, 0], [2, 2]]]}) + "\n")
    res = runner.invoke(app, ["score", str(key), "-", "-m", "muc", "-f", "json", "-q"], input=key.read_text())
    assert _muc(res) == (1, 1, 1, 1)
    ukey = tmp_path / "k.conllu"
    ukey.write_text(CONLLU, encoding="utf-8")
    res = runner.invoke(app, ["score", "-", str(ukey), "-m", "muc", "-f", "json", "-q"], input=CONLLU)
    assert _muc(res) == (1, 1, 1, 1)  # e2: one link; e1 is a singleton


def test_standard_input_for_both_sides_is_an_error():
    res = runner.invoke(app, ["score", "-", "-", "-m", "muc"], input=PAIR_KEY)
    assert one_error_line(res) == "corefreport: error: <stdin>: standard input ('-') can be KEY or RESPONSE, not both"


def test_an_error_in_standard_input_names_it_stdin(tmp_path):
    key = tmp_path / "k.conll"
    key.write_text(PAIR_KEY, encoding="utf-8")
    res = runner.invoke(app, ["score", str(key), "-", "-m", "muc"], input=PAIR_RESP.replace("(1)\n", "x(1\n", 1))
    assert one_error_line(res) == ("corefreport: error: <stdin>:2: cannot read coreference annotation 'x(1' in the last "
                               "column (expected '(n', 'n)', '(n)' joined by '|', or '-')")
