"""Fuzzing the four readers with hypothesis: random and mutated input either parses into a sound
corpus or raises :class:`InputError` naming the file and a line of it — never any other exception.

Three kinds of input: text assembled from each format's own fragments, line-structured input (rows of
the right width with random cells; JSON documents with random values), and valid seed files with
random edits (deleted and duplicated spans, inserted fragments, swapped lines)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corefreport.io.conll2012 import read_conll2012
from corefreport.io.conllu import read_conllu
from corefreport.io.detect import detect_format
from corefreport.errors import InputError
from corefreport.io.jsonlines import read_jsonlines
from corefreport.io.ua import read_ua
from corefreport.io.webanno import read_webanno
from corefreport.io import FORMATS

PATH = "fuzz/input.txt"
READERS = {"conll2012": read_conll2012, "conllu": read_conllu, "jsonlines": read_jsonlines, "webanno": read_webanno,
           "ua": read_ua}
EXAMPLES = int(os.environ.get("COREFREPORT_FUZZ_EXAMPLES", "150"))  # raise it for a long fuzzing run
FAST = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SEEDS = {
    "conll2012": ("#begin document (d); part 000\n"
                  "d\t0\t0\tMary\tNNP\t*\tMary\t-\t-\tA\t(PER)\t(1)\n"
                  "d\t0\t1\tsaw\tVBD\t*\tsee\t-\t-\tA\t*\t-\n"
                  "d\t0\t2\ther\tPRP$\t*\t-\t-\t-\tA\t*\t(2|(1)\n"
                  "d\t0\t3\tbrother\tNN\t*\t-\t-\t-\tA\t*\t2)\n"
                  "\n"
                  "d\t0\t0\tHe\tPRP\t*\the\t-\t-\tB\t*\t(2)\n"
                  "#end document\n"),
    "conllu": ("# newdoc id = d\n"
               "# global.Entity = GRP-etype-infstat-salience-centering-minspan-link-identity\n"
               "# sent_id = d-1\n"
               "1\tMary\tMary\tPROPN\tNNP\t_\t2\tnsubj\t_\tEntity=(1-person-new-sssss-cf1-1-coref-Mary)\n"
               "2\tsaw\tsee\tVERB\tVBD\t_\t0\troot\t_\t_\n"
               "3-4\therself\t_\t_\t_\t_\t_\t_\t_\t_\n"
               "3\ther\ther\tPRON\tPRP$\t_\t4\tnmod\t_\tEntity=(2-person-new-nnnnn-cf2-1,2-sgl(1-person-giv-s-cf1-1-ana)\n"
               "4\tbrother\tbrother\tNOUN\tNN\t_\t2\tobj\t_\tBridge=1<2|Entity=2)\n"
               "4.1\tpro\t_\t_\t_\t_\t_\t_\t_\t_\n"
               "\n"
               "# sent_id = d-2\n"
               "1\tHe\the\tPRON\tPRP\t_\t0\troot\t_\tEntity=(3-person-new-n-cf1-1-sgl)|SplitAnte=1<3\n"),
    "jsonlines": (json.dumps({"doc_key": "(d); part 000", "sentences": [["Mary", "saw", "her"], ["He"]],
                              "speakers": [["A", "A", "A"], ["B"]], "clusters": [[[0, 0], [2, 2]], [[3, 3]]]})
                  + "\n" + json.dumps({"doc_key": "e", "sentences": [["x"]], "clusters": [],
                                       "predicted_clusters": [[[0, 0]]]}) + "\n"),
    "webanno": ("#FORMAT=WebAnno TSV 3.2\n#T_SP=webanno.custom.Referent|entity|infstat\n"
                "#T_RL=webanno.custom.Coref|type|BT_webanno.custom.Referent\n\n\n"
                "#Text=Mary saw her brother\n"
                "1-1\t0-4\tMary\tperson\tnew\tcoref|coref\t1-3[3_0]|1-3[3_0]\n"
                "1-2\t5-8\tsaw\t_\t_\t_\t_\n"
                "1-3\t9-12\ther\tperson[3]|person[4]\tgiv[3]|new[4]\tana|bridge:def\t2-1[0_3]|1-4[5_4]\n"
                "1-4\t13-20\tbrother\tperson[4]|object[5]\tnew[4]|new[5]\t_\t_\n\n"
                "#Text=He\n"
                "2-1\t21-23\tHe\tperson\tgiv\t_\t_\n"),
    "ua": ("# global.columns = ID FORM IDENTITY BRIDGING DISCOURSE_DEIXIS\n# newdoc id = d\n"
           "1 a (EntityID=1|MarkableID=m1 _ _\n2 house ) _ _\n"
           "3 the (EntityID=2|MarkableID=m2|ElementOf=3 (MarkableID=m2|Rel=part-of|MentionAnchor=m1|EntityAnchor=1 _\n"
           "4 door ) ) (EntityID=1-DD|MarkableID=d1)\n5 it (EntityID=1|MarkableID=m3) _ _\n"
           "6 there (EntityID=4-Pseudo|MarkableID=m4) _ _\n"),
}

FRAGMENTS = {
    "conll2012": ["#begin document (d); part 000\n", "# begin document x\n", "#end document\n", "\n", "\t", " ",
                  "d\t0\t0\tw\tNN\t*\t-\t-\t-\t-\t*\t", "0\tw\t", "(1", "1)", "(1)", "(2", "2)", "|", "-", "_",
                  "(x-1-y", "(1+2)", "#", "\r"],
    "conllu": ["# newdoc id = d\n", "# newdoc\n", "# global.Entity = eid-etype-head-other\n", "# sent_id = s\n",
               "\n", "\t", "1", "2", "1-2", "1.1", "0", "_", "Entity=", "(e1-x-1-", "(e1-x-2-)", "e1)", "(e2",
               "e2)", "(e1[1/2]-x", "|", "SplitAnte=e1<e2", "Bridge=e1<e2", "-", "(", ")", "٣", "\r"],
    "jsonlines": ["{", "}", "[", "]", ",", ":", '"doc_key"', '"sentences"', '"clusters"', '"predicted_clusters"',
                  '"speakers"', '"d"', '"a"', "0", "1", "-1", "2", "true", "null", "1.5", "\n", " ", '"'],
    "ua": ["# global.columns = ID FORM IDENTITY BRIDGING DISCOURSE_DEIXIS\n", "# newdoc id = d\n", "\n", " ",
           "1", "2", "1.1", "w", "_", "(EntityID=1|MarkableID=m1", "(EntityID=2-Pseudo|MarkableID=m2)", ")",
           "(MarkableID=m1)", "|ElementOf=1", "|Min=1", "(MarkableID=m2|Rel=part-of|MentionAnchor=m1|EntityAnchor=1",
           "(EntityID=1-DD|MarkableID=d1", "\r"],
    "webanno": ["#FORMAT=WebAnno TSV 3.2\n", "#T_SP=webanno.custom.Referent|entity|infstat\n",
                "#T_RL=webanno.custom.Coref|type|BT_webanno.custom.Referent\n", "#Text=x\n", "\n", "\t",
                "1-1", "1-2", "2-1", "1-1.1", "0-1", "w", "person", "person[1]", "[2]", "|", "_", "*", "coref",
                "bridge:def", "1-2[1_0]", "1-1[0_1]", "[x_y]", "\\", "\r"],
}


def line_count(text: str) -> int:
    return text.count("\n") + 1


def check_corpus(corpus) -> None:
    """What every reader promises about a corpus it returns."""
    for doc in corpus:
        n = len(doc.tokens)
        starts = doc.sentence_starts
        assert all(0 <= s < n for s in starts) and starts == sorted(set(starts)), (doc.doc_id, starts)
        for name, values in doc.columns.items():
            assert len(values) == n, (doc.doc_id, name)
        for chain in doc.chains:
            assert chain.mentions, doc.doc_id
            for m in chain.mentions:
                assert 0 <= m.start <= m.end < n, (doc.doc_id, m.span, n)
                assert all(isinstance(k, str) and isinstance(v, str) for k, v in m.features.items())


def parse_or_input_error(fmt: str, text: str) -> None:
    """Run one reader: a sound corpus, or an InputError that names the file and one of its lines."""
    try:
        corpus = READERS[fmt](PATH, text)
    except InputError as err:
        assert err.path == PATH, str(err)
        assert isinstance(err.line, int) and 1 <= err.line, str(err)
        assert err.line <= line_count(text), str(err)
        assert str(err).startswith(f"{PATH}:{err.line}: "), str(err)
    else:
        check_corpus(corpus)


def fragments(fmt: str) -> st.SearchStrategy[str]:
    pieces = FRAGMENTS[fmt] + ["\n", "a", "é", "\u2028", "\x00"]
    return st.lists(st.sampled_from(pieces), max_size=50).map("".join)


@FAST
@given(st.data())
def test_fragment_soup(data):
    fmt = data.draw(st.sampled_from(sorted(READERS)))
    text = data.draw(fragments(fmt) | fragments(data.draw(st.sampled_from(sorted(READERS)))))
    parse_or_input_error(fmt, text)


@FAST
@given(st.data())
def test_any_text_to_any_reader(data):
    text = data.draw(st.text(max_size=200))
    for fmt in READERS:
        parse_or_input_error(fmt, text)
    assert detect_format(PATH, text) in FORMATS  # any text is given to some reader (markup: onto the key's words)


def cell(options: list[str]) -> st.SearchStrategy[str]:
    return st.sampled_from(options) | st.text(alphabet="()|-_[]0123e", max_size=8)


@FAST
@given(st.lists(st.tuples(cell(["1", "2", "3", "1-2", "2.1", "0", "x"]), cell(["0", "1", "2", "7", "_"]),
                          cell(["_", "Entity=(e1-x-1-", "Entity=e1)", "Entity=(e1-x-2-)", "Entity=(e2(e1-y-1-",
                                "Entity=e2)e1)", "SplitAnte=e1<e2|Entity=(e3-x-1-)", "Bridge=e1<e2"]))
                | st.sampled_from([("", "", ""), ("#", "", "")]), max_size=15))
def test_conllu_rows(rows):
    lines = []
    for tid, head, misc in rows:
        if tid in ("", "#"):
            lines.append("" if tid == "" else "# sent_id = s")
        else:
            lines.append(f"{tid}\tw\tw\tX\tX\t_\t{head}\tdep\t_\t{misc}")
    parse_or_input_error("conllu", "# newdoc id = d\n" + "\n".join(lines) + "\n")


@FAST
@given(st.lists(st.tuples(st.sampled_from(["1-1", "1-2", "1-3", "2-1", "1-1.1", "x", "1-1"]),
                          cell(["_", "person", "person[1]", "person[2]|abstract", "a|a", "*[3]"]),
                          cell(["_", "coref", "ana|coref", "bridge:def", "", "none|none"]),
                          cell(["_", "1-2", "1-1[1_0]", "2-1[0_2]", "9-9", "1-2|2-1", "1-3[0_1]", "bad"])),
                max_size=10))
def test_webanno_rows(rows):
    head = SEEDS["webanno"].split("#Text")[0]
    text = head + "".join(f"{t}\t0-1\tw\t{e}\t_\t{ty}\t{tg}\n" for t, e, ty, tg in rows)
    parse_or_input_error("webanno", text)


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False)
                           | st.text(max_size=3), lambda inner: st.lists(inner, max_size=4), max_leaves=12)
MENTION = st.lists(st.integers(-2, 8), min_size=0, max_size=3) | JSON_VALUES


@FAST
@given(st.lists(st.fixed_dictionaries(
    {"doc_key": st.sampled_from(["d", "(d); part 000", "e", ""]) | JSON_VALUES,
     "sentences": st.lists(st.lists(st.text(max_size=2), max_size=4), max_size=3) | JSON_VALUES},
    optional={"clusters": st.lists(st.lists(MENTION, max_size=3), max_size=3) | JSON_VALUES,
              "predicted_clusters": st.lists(st.lists(MENTION, max_size=3), max_size=3),
              "speakers": JSON_VALUES, "pos": JSON_VALUES}), max_size=3))
def test_jsonlines_documents(docs):
    parse_or_input_error("jsonlines", "\n".join(json.dumps(d) for d in docs) + "\n")


EDITS = st.lists(st.tuples(st.sampled_from(["delete", "insert", "duplicate", "swap", "replace"]),
                           st.integers(0, 10_000), st.integers(0, 40), st.text(max_size=4)), min_size=1, max_size=4)


def mutate(text: str, edits: list[tuple[str, int, int, str]], extra: list[str]) -> str:
    """Apply random edits to a text: delete or duplicate a span, insert a fragment or random text,
    swap two lines, replace one character."""
    for op, where, size, junk in edits:
        i = where % (len(text) + 1)
        if op == "delete":
            text = text[:i] + text[i + size:]
        elif op == "insert":
            text = text[:i] + (extra[size % len(extra)] if size % 2 else junk) + text[i:]
        elif op == "duplicate":
            text = text[:i] + text[i:i + size] + text[i:]
        elif op == "swap":
            lines = text.split("\n")
            a, b = where % len(lines), (where + size) % len(lines)
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        else:
            text = text[:i] + (junk[:1] or "\t") + text[i + 1:]
    return text


@settings(max_examples=2 * EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(READERS)), EDITS)
def test_mutated_seed_files(fmt, edits):
    text = mutate(SEEDS[fmt], edits, FRAGMENTS[fmt])
    parse_or_input_error(fmt, text)
    detected = detect_format(PATH, text)
    if detected != fmt:
        parse_or_input_error(detected, text)


def test_the_seeds_themselves_parse():
    for fmt, text in SEEDS.items():
        corpus = READERS[fmt](PATH, text)
        check_corpus(corpus)
        assert detect_format(PATH, text) == fmt
        assert sum(len(d.mentions) for d in corpus) >= 3, fmt


def test_conll2012_names_the_line_of_a_token_line_outside_any_document():
    with pytest.raises(InputError) as err:
        read_conll2012(PATH, "# comment\n# comment\ntoken\n")
    assert err.value.line == 3


@pytest.mark.parametrize("sep", ["\t", " "])
def test_conll2012_one_column_row_after_wider_rows_is_read_by_its_last_field(sep):
    """scorer.pl reads every line's last field whatever its width: the short row is token 1, a
    mention of chain 2, with no word (this used to be an error; tests/test_scorer_pl_random.py
    checks such files against scorer.pl)."""
    row = sep.join(["d", "0", "0", "w", "(1)"])
    doc = read_conll2012(PATH, f"#begin document (d);\n{row}\n(2)\n#end document\n").documents["d"]
    assert doc.tokens == ["w", ""]
    assert [(c.label, [(m.start, m.end) for m in c.mentions]) for c in doc.chains] == [("1", [(0, 0)]), ("2", [(1, 1)])]
