"""CorefUD CoNLL-U and JSON-lines readers, and format detection, on the real shared samples."""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from corefreport.io import load_corpus
from corefreport.io.conll2012 import read_conll2012
from corefreport.io.conllu import read_conllu
from corefreport.io.detect import detect_format
from corefreport.errors import InputError
from corefreport.io.jsonlines import read_jsonlines
from corefreport.io.webanno import read_webanno

from conftest import chain_spans, shared_path

GUM_DOCS = ["GUM_bio_byron", "GUM_news_iodine", "GUM_court_loan", "GUM_academic_eegimaa", "GUM_interview_hill"]


@pytest.mark.parametrize("name", GUM_DOCS)
def test_gum_conllu_equals_the_three_column_conll(name):
    """GUM's CorefUD CoNLL-U and its 3-column CoNLL carry the same tokens and identity chains."""
    u = next(iter(load_corpus(str(shared_path("data", "gum", "dep", f"{name}.conllu")))))
    c = next(iter(load_corpus(str(shared_path("data", "gum", "derived", "gum_conll_numeric", f"{name}.conll")))))
    assert u.tokens == c.tokens
    assert chain_spans(u) == chain_spans(c)


def test_gum_conllu_features_and_link_types():
    corpus = load_corpus(str(shared_path("data", "gum", "dep", "GUM_bio_byron.conllu")))
    doc = corpus.documents["GUM_bio_byron"]
    first = doc.chains[0].mentions[0]
    assert first.span == (0, 0)
    assert first.features["etype"] == "abstract" and first.features["link_type"] == "coref"
    types = {m.features.get("link_type") for m in doc.mentions}
    assert {"ana", "coref", "sgl"} <= types
    assert any("SplitAnte" in w for w in corpus.warnings)
    assert doc.columns["upos"][0] == "NOUN" and doc.columns["head"][0] == "-1"


def test_ontogum_conllu_minimal_brackets():
    doc = next(iter(load_corpus(str(shared_path("data", "gum", "coref", "ontogum", "conllu", "GUM_bio_byron.conllu")))))
    ref = next(iter(load_corpus(str(shared_path("data", "gum", "derived", "ontogum_conll_named", "GUM_bio_byron.conll")))))
    assert chain_spans(doc) == chain_spans(ref)


def test_jsonlines_sample_and_its_conll_twin():
    """singe.jsonlines: 388 clusters, 562 mentions, 1,988 tokens (shared/data/jsonlines/README)."""
    j = next(iter(load_corpus(str(shared_path("data", "jsonlines", "singe.jsonlines")))))
    assert (len(j.tokens), len(j.chains), sum(len(c) for c in j.chains)) == (1988, 388, 562)
    c = next(iter(load_corpus(str(shared_path("data", "jsonlines", "singe.conll")))))
    assert c.doc_id == j.doc_id == "ge/articleswiki_singe.xml; part 000"
    assert chain_spans(c) == chain_spans(j) and c.tokens == j.tokens


def test_jsonlines_predicted_clusters_are_read_with_a_warning():
    corpus = load_corpus(str(shared_path("data", "jsonlines", "docs.jsonlines")))
    assert len(corpus) == 2
    assert any("predicted_clusters" in w for w in corpus.warnings)
    assert len(corpus.documents["ge:stendhal.txt"].chains) == 179


@pytest.mark.parametrize("line, problem", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"sentences": [["a"]]}', "no 'doc_key'"),
    ('{"doc_key": "d", "sentences": [["a", "b"]], "clusters": [[[0, 5]]]}', "ends beyond the document (2 tokens)"),
    ('{"doc_key": "d", "sentences": [["a", "b"]], "clusters": [[[1, 0]]]}', "bad span"),
    ('{"doc_key": "d", "sentences": [["a"]], "clusters": [[["x", 0]]]}', "is not [start, end]"),
])
def test_jsonlines_errors_name_the_line(line, problem):
    text = '{"doc_key": "ok", "sentences": [["a"]], "clusters": []}\n' + line + "\n"
    with pytest.raises(InputError) as err:
        read_jsonlines("f.jsonlines", text)
    assert "f.jsonlines:2:" in str(err.value) and problem in str(err.value)


@pytest.mark.parametrize("text, problem", [
    ("# newdoc id = d\n1\ta\ta\tX\tX\t_\t0\troot\t_\tEntity=(e1-x\n", "never closed"),
    ("# newdoc id = d\n1\ta\ta\tX\tX\t_\t0\troot\t_\tEntity=e1)\n", "never opened"),
    ("# newdoc id = d\n1\ta\ta\tX\tX\t_\t0\troot\t_\tEntity=(e1[1/2]-x)\n", "discontinuous"),
    ("# newdoc id = d\n1.1\ta\ta\tX\tX\t_\t_\t_\t_\tEntity=(e1-x)\n", "its sentence has no words"),
    ("# newdoc id = d\n1\ta\ta\n", "10 TAB-separated columns"),
])
def test_conllu_errors(text, problem):
    with pytest.raises(InputError) as err:
        read_conllu("f.conllu", text)
    assert str(err.value).startswith("f.conllu:") and problem in str(err.value)


@pytest.mark.parametrize("rel, fmt", [
    (("gum", "dep", "GUM_bio_byron.conllu"), "conllu"),
    (("gum", "coref", "gum", "tsv", "GUM_bio_byron.tsv"), "webanno"),
    (("jsonlines", "singe.jsonlines"), "jsonlines"),
    (("jsonlines", "singe.conll"), "conll2012"),
    (("gum", "coref", "gum", "conll", "GUM_bio_byron.conll"), "conll2012"),
])
def test_detect_format(rel, fmt):
    p = shared_path("data", *rel)
    assert detect_format(str(p), p.read_text(encoding="utf-8")) == fmt


READERS = [read_conll2012, read_conllu, read_jsonlines, read_webanno]
ALPHABET = st.sampled_from(list("()|-_\t \n#{}[]\",:0123456789abe") + ["#begin document (d);\n", "#end document\n",
                                                                       "Entity=", "(e1-x", "e1)", '"doc_key"',
                                                                       "#T_SP=webanno.custom.Referent|entity\n",
                                                                       "#T_RL=webanno.custom.Coref|type|BT_x\n",
                                                                       "1-1\t0-1\tw\tperson[1]\tcoref\t1-2[0_1]\n"])


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=60).map("".join), st.sampled_from(READERS))
def test_fuzzed_input_parses_or_raises_input_error(text, reader):
    """Random input either parses or raises InputError naming the file — never another exception."""
    try:
        reader("fuzz.txt", text)
    except InputError as err:
        assert str(err).startswith("fuzz.txt")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["(1", "1)", "(1)", "(2", "2)", "(2)", "-", "(1|(2)", "2)|1)", "(x"]),
                min_size=1, max_size=12))
def test_fuzzed_bracket_columns(cells):
    text = "#begin document (d);\n" + "".join(f"d\t0\t{i}\tw\t{c}\n" for i, c in enumerate(cells)) + "#end document\n"
    try:
        corpus = read_conll2012("b.conll", text)
    except InputError as err:
        assert str(err).startswith("b.conll:")
    else:
        for m in corpus.documents["d"].mentions:
            assert 0 <= m.start <= m.end < len(cells)


@pytest.mark.parametrize("name", GUM_DOCS)
def test_gum_webanno_tsv_has_the_same_chains_as_conllu(name):
    """GUM's WebAnno TSV (typed links, bridging excluded) and its CoNLL-U give identical tokens and
    identity chains."""
    w = next(iter(load_corpus(str(shared_path("data", "gum", "coref", "gum", "tsv", f"{name}.tsv")))))
    u = next(iter(load_corpus(str(shared_path("data", "gum", "dep", f"{name}.conllu")))))
    assert w.tokens == u.tokens
    assert chain_spans(w) == chain_spans(u)


def test_webanno_link_types_are_incoming_links():
    """'his' (2-3) in GUM_bio_byron is an anaphor of Byron: its incoming link is 'ana' and its
    antecedent is Byron (2-1 → token 4)."""
    doc = next(iter(load_corpus(str(shared_path("data", "gum", "coref", "gum", "tsv", "GUM_bio_byron.tsv")))))
    his = next(m for m in doc.mentions if m.span == (6, 6))
    assert doc.tokens[6] == "his" and his.features["link_type"] == "ana" and his.features["antecedent"] == "4-4"


def test_xrenner_webanno_output_reads_with_warnings():
    """Real xrenner TSV: repeated links count once; links naming a markable that does not exist
    (xrenner writes '3-10[24_0]' on a row with no one-token markable) are skipped with a warning."""
    corpus = load_corpus(str(shared_path("data", "xrenner", "ml", "gum")), fmt="webanno")
    assert len(corpus) == 20
    assert any("does not exist" in w for w in corpus.warnings)
    types = {m.features["link_type"] for d in corpus for m in d.mentions}
    assert {"coref", "ana", "appos"} <= types


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["1-1", "1-2", "2-1", "1-x", "1-1.1", "3"]),
                          st.sampled_from(["_", "person", "person[1]", "a|b[2]", "[3]", "x[y]"]),
                          st.sampled_from(["_", "coref", "ana|coref", "bridge:def", ""]),
                          st.sampled_from(["_", "1-2", "1-1[1_0]", "2-1[0_2]", "9-9", "1-2|2-1", "bad"])),
                max_size=8))
def test_fuzzed_webanno_rows(rows):
    head = "#FORMAT=WebAnno TSV 3.2\n#T_SP=webanno.custom.Referent|entity\n#T_RL=webanno.custom.Coref|type|BT_x\n\n"
    text = head + "".join(f"{t}\t0-1\tw\t{e}\t{ty}\t{tg}\n" for t, e, ty, tg in rows)
    try:
        read_webanno("w.tsv", text)
    except InputError as err:
        assert str(err).startswith("w.tsv")
