"""Format detection from content: synthetic heads of every format, and every corpus file of
../shared (skipped when ../shared is absent) detected and then read by the detected reader."""

from __future__ import annotations


import pytest

from corefreport.io.conll2012 import read_conll2012, read_text
from corefreport.io.conllu import read_conllu
from corefreport.io.detect import detect_format
from corefreport.errors import InputError
from corefreport.io.jsonlines import read_jsonlines
from corefreport.io.webanno import read_webanno
from conftest import shared_path

READERS = {"conll2012": read_conll2012, "conllu": read_conllu, "jsonlines": read_jsonlines, "webanno": read_webanno}

CONLLU_WORD = "1\tMary\tMary\tPROPN\tNNP\t_\t0\troot\t_\t"


@pytest.mark.parametrize("text, fmt", [
    ('{"doc_key": "d", "sentences": [["a"]]}\n', "jsonlines"),
    ('\ufeff\n\n  {"doc_key": "d"}', "jsonlines"),
    ('[{"doc_key": "d"}]', "jsonlines"),  # a JSON array: the JSON-lines reader explains the problem
    ("#FORMAT=WebAnno TSV 3.2\n#T_SP=webanno.custom.Referent|entity\n", "webanno"),
    ("\n#T_SP=webanno.custom.Referent|entity\n#T_RL=webanno.custom.Coref|type|BT_x\n\n1-1\t0-1\ta\t_\t_\t_\n",
     "webanno"),
    ("# newdoc id = d\n" + CONLLU_WORD + "_\n", "conllu"),
    ("# global.Entity = eid-etype-head-other\n" + CONLLU_WORD + "Entity=(e1-person-1-)\n", "conllu"),
    ("# sent_id = 1\n" + CONLLU_WORD + "Entity=(e1-person-1-)\n", "conllu"),
    ("# sent_id = 1\n1-2\tdu\t_\t_\t_\t_\t_\t_\t_\t_\n" + CONLLU_WORD + "_\n", "conllu"),  # plain CoNLL-U
    ("#begin document (d); part 000\nd\t0\t0\tMary\tNNP\t*\t-\t-\t-\t-\t*\t(1)\n#end document\n", "conll2012"),
    ("# begin document GUM_x\n0\tMary\t(person-1)\n# end document\n", "conll2012"),
    # CoNLL-U-plus inside '#begin document' (the jsonlines sample's singe.conll): the CoNLL-2012 reader
    ("#begin document (d); part 000\n" + CONLLU_WORD + "_\t0\t*\t(1)\n#end document\n", "conll2012"),
    # '#begin document' wins even after CoNLL-U-looking lines
    ("# newdoc id = d\n#begin document (d);\n" + CONLLU_WORD + "Entity=(1)\n#end document\n", "conll2012"),
    ("0\tMary\t(1)\n", "conll2012"),  # no header at all: the CoNLL-2012 reader says what is missing
    ("", "conll2012"),
])
def test_detect_synthetic(text, fmt):
    assert detect_format("f", text) == fmt


@pytest.mark.parametrize("folder, pattern, fmt", [
    (("gum", "dep"), "*.conllu", "conllu"),
    (("gum", "coref", "ontogum", "conllu"), "*.conllu", "conllu"),
    (("gum", "coref", "gum", "conll"), "*.conll", "conll2012"),
    (("gum", "coref", "ontogum", "conll"), "*.conll", "conll2012"),
    (("gum", "derived"), "**/*.conll", "conll2012"),
    (("gum", "coref", "gum", "tsv"), "*.tsv", "webanno"),
    (("xrenner",), "*/*/*.tsv", "webanno"),
    (("xrenner",), "*/*/*.conll", "conll2012"),
    (("xrenner", "conll2012"), "*.conll", "conll2012"),
    (("xrenner", "input"), "*.conll10", "conllu"),  # plain 10-column CoNLL-U, no coreference
    (("jsonlines",), "*.jsonlines", "jsonlines"),
    (("jsonlines",), "singe.conll", "conll2012"),
    (("litbank",), "**/*.conll", "conll2012"),
    (("conll-scorer-tests",), "**/*.key", "conll2012"),
    (("conll-scorer-tests",), "**/*.response", "conll2012"),
    (("corefud", "scorer-tests"), "**/*.key", "conllu"),
    (("corefud", "scorer-tests"), "**/*.response", "conllu"),
])
def test_detect_and_read_every_shared_corpus_file(folder, pattern, fmt):
    """Each file is detected as ``fmt`` and read by that reader."""
    files = sorted(shared_path("data", *folder).glob(pattern))
    assert files, (folder, pattern)
    for f in files:
        text = read_text(str(f))
        assert detect_format(str(f), text) == fmt, f
        try:
            corpus = READERS[fmt](str(f), text)
        except InputError as err:
            raise AssertionError(f"{f}: {err}")
        else:
            assert len(corpus) >= 1, f
