"""The CoNLL-2012 reader: the reference scorer's semantics, plus what real files need."""

from __future__ import annotations

import pytest
from hypothesis import given, settings as hsettings, strategies as st

from corefreport.io import load_corpus
from corefreport.io.conll2012 import document_id, parse_coref_cell, read_conll2012
from corefreport.errors import InputError
from corefreport.scoring.features import annotated

from conftest import shared_path


def chains(doc):
    return sorted(sorted(m.span for m in c.mentions) for c in doc.chains)


def test_brackets_without_bar_nested_and_crossing():
    text = ("#begin document (t); part 001\n"
            "t 0 0 a (1(3\n"      # two openings without '|' (reference test files)
            "t 0 1 b 3)\n"
            "t 0 2 c (2\n"
            "t 0 3 d 1)\n"        # crossing: 1 opened before 2, closed inside it
            "t 0 4 e 2)|(4)\n"
            "#end document\n")
    doc = read_conll2012("x", text).documents["t; part 001"]
    assert chains(doc) == [[(0, 1)], [(0, 3)], [(2, 4)], [(4, 4)]]


def test_same_entity_nested_mentions_close_innermost_first():
    text = "#begin document (t);\nt 0 0 a (1\nt 0 1 b (1)\nt 0 2 c (1\nt 0 3 d 1)1)\n#end document\n"
    doc = read_conll2012("x", text).documents["t"]
    assert chains(doc) == [[(0, 3), (1, 1), (2, 3)]]


def test_space_separated_words_that_look_like_brackets_are_words():
    """The reference splits on TAB only and then finds '(1)' in the word column of a space-separated
    file (reference-scorer-notes §1: 3 key mentions instead of 2); we read columns."""
    text = "#begin document (t);\nt 0 0 (1) (5)\nt 0 1 x -\nt 0 2 him (5)\n#end document\n"
    doc = read_conll2012("x", text).documents["t"]
    assert chains(doc) == [[(0, 0), (2, 2)]]
    assert doc.tokens == ["(1)", "x", "him"]


def test_comment_lines_are_not_tokens_and_blank_lines_end_sentences():
    text = ("#begin document (t);\n# sent_id = 1\nt 0 0 John (1)\nt 0 1 slept -\n\n# sent_id = 2\n"
            "t 0 0 He (1)\n#end document\n")
    doc = read_conll2012("x", text).documents["t"]
    assert doc.tokens == ["John", "slept", "He"]
    assert doc.sentence_starts == [0, 2]
    assert chains(doc) == [[(0, 0), (2, 2)]]


def test_three_column_files_bare_names_empty_cells_and_text_labels():
    """GUM's 3-column files: '# begin document NAME', '_' and empty cells, labels like
    person-12-Lord_Byron."""
    text = ("# begin document GUM_x\n0\tByron\t(person-1-Lord_Byron)\n1\twas\t_\n2\there\t\n"
            "3\the\t(person-1-Lord_Byron)\n# end document\n")
    doc = read_conll2012("x", text).documents["GUM_x"]
    assert chains(doc) == [[(0, 0), (3, 3)]]
    assert doc.tokens == ["Byron", "was", "here", "he"]


def test_empty_document_name_takes_the_file_stem(tmp_path):
    p = tmp_path / "GUM_bio_byron.conll"
    p.write_text("# begin document \n0\tByron\t(1)\n# end document\n")
    assert list(load_corpus(str(p)).documents) == ["GUM_bio_byron"]


def test_split_antecedent_marks_are_dropped():
    singles, opens, closes = parse_coref_cell("(12+3)|(7)")
    assert (singles, opens, closes) == (["7"], [], [])


@pytest.mark.parametrize("raw, expected", [("(bc/cnn/00/cnn_0004); part 000", "bc/cnn/00/cnn_0004; part 000"),
                                           ("(LuoTestCase); ", "LuoTestCase"), ("GUM_news_iodine", "GUM_news_iodine")])
def test_document_ids(raw, expected):
    assert document_id(raw, "stem") == expected


def test_conll2012_columns_become_mention_features():
    """12+ columns: POS 5, lemma 7, speaker 10, NE 11, extra columns (col12…) before the last."""
    text = ("#begin document (bc/cnn/00/x); part 000\n"
            "bc/cnn/00/x 0 0 Barack NNP * barack - - A (PERSON* decl (1\n"
            "bc/cnn/00/x 0 1 Obama NNP * obama - - A *) decl 1)\n"
            "bc/cnn/00/x 0 2 said VBD * say - - A * decl -\n"
            "bc/cnn/00/x 0 3 he PRP * he - - A * decl (1)\n"
            "bc/cnn/00/x 0 4 the DT * the - - A * decl (2\n"
            "bc/cnn/00/x 0 5 city NN * city - - A * decl 2)\n"
            "#end document\n")
    doc = read_conll2012("x", text).documents["bc/cnn/00/x; part 000"]
    doc = annotated(doc)
    by_span = {m.span: m.features for m in doc.mentions}
    assert by_span[(0, 1)]["mtype"] == "NAME" and by_span[(0, 1)]["ne"] == "PERSON"
    assert by_span[(3, 3)]["mtype"] == "PRONOUN" and by_span[(3, 3)]["pronoun"] == "he"
    assert by_span[(4, 5)]["mtype"] == "NOMINAL" and by_span[(4, 5)]["lemma"] == "city"
    assert by_span[(4, 5)]["pos_class"] == "NOUN" and by_span[(3, 3)]["pos_class"] == "PRP"
    assert by_span[(0, 1)]["genre"] == "bc/cnn" and by_span[(0, 1)]["col12"] == "decl"
    assert doc.columns["speaker"][0] == "A"


def test_glob_and_directory(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.conll").write_text(f"#begin document ({name});\n{name} 0 0 x (1)\n#end document\n")
    assert list(load_corpus(str(tmp_path / "*.conll")).documents) == ["a", "b"]
    assert list(load_corpus(str(tmp_path)).documents) == ["a", "b"]
    with pytest.raises(InputError, match="matches no file"):
        load_corpus(str(tmp_path / "*.nothing"))


def test_litbank_reads_its_empty_coreference_column():
    """LitBank's CoNLL files have an empty last column on most lines (shared/data README)."""
    corpus = load_corpus(str(shared_path("data", "litbank", "coref", "conll")))
    assert len(corpus) == 10
    assert all(d.chains for d in corpus)


# -- the columns cut from TAB-separated rows ----------------------------------------------------

def _columns_one_by_one(rows: list[str], spec: dict[str, int]) -> dict[str, list[str]]:
    """Each column cell by cell: field ``k`` of a row split at its TABs, ``""`` where the row has
    no field ``k`` before its last (the coreference) field."""
    out: dict[str, list[str]] = {name: [] for name in spec}
    for r in rows:
        fields = r.split("\t")
        for name, k in spec.items():
            out[name].append(fields[k] if k < len(fields) - 1 else "")
    return out


@given(st.lists(st.lists(st.sampled_from(["a", "NN", "(NP*", "*", "", "-", "x y"]), min_size=1, max_size=14),
                min_size=1, max_size=30),
       st.dictionaries(st.sampled_from(["pos", "parse", "lemma", "speaker", "ne", "col12"]),
                       st.integers(0, 12), min_size=1, max_size=5))
@hsettings(max_examples=300, deadline=None)
def test_columns_of_tab_rows_are_the_fields_one_by_one(cells, spec):
    """Uniform rows (each with a field after the last column asked for: cut in one pass) and rows
    too short for a column (cut one by one) give each row's field, ``""`` where it has none."""
    from corefreport.io.conll2012 import _columns

    rows = ["\t".join(c) for c in cells]
    assert _columns(rows, spec, True) == _columns_one_by_one(rows, spec)
    wide = ["\t".join(c + ["w"] * (14 - len(c)) + ["(1)"]) for c in cells]  # every row long enough
    assert _columns(wide, spec, True) == _columns_one_by_one(wide, spec)


_CELLS = ["a", "NN", "(NP*", "*", "", "-", "x y", "(1)", " "]


@given(st.lists(st.tuples(st.lists(st.sampled_from(_CELLS), min_size=0, max_size=13), st.sampled_from(_CELLS),
                          st.sampled_from(["same", "last", "any", "trail"]), st.sampled_from(_CELLS),
                          st.integers(0, 12)), min_size=1, max_size=25),
       st.dictionaries(st.sampled_from(["pos", "parse", "lemma", "speaker", "ne", "col12"]), st.integers(0, 12),
                       min_size=1, max_size=5),
       st.booleans())
@hsettings(max_examples=400, deadline=None)
def test_rows_equal_but_for_the_last_field_have_the_same_columns(rows, spec, tab):
    """:func:`same_but_last_field` is what lets a response take the key's columns: whenever it says
    yes, the columns cut from either side's rows are equal (under the same spec), whatever the rows;
    and TAB rows that differ only in their last field (a response written over the key file) pass."""
    from corefreport.io.conll2012 import cut_columns, same_but_last_field

    sep = "\t" if tab else " "
    a, b, only_last = [], [], True
    for fields, last, how, other, at in rows:
        a.append(sep.join(fields + [last]))
        if how == "same":
            b.append(a[-1])
        elif how == "last":  # another coreference field
            b.append(sep.join(fields + [other]))
        elif how == "trail":  # one more (empty) field after it
            b.append(a[-1] + sep)
            only_last = False
        else:  # a cell anywhere changed
            cells = fields + [last]
            cells[at % len(cells)] = other
            b.append(sep.join(cells))
            only_last = only_last and at % len(cells) == len(fields)
    if same_but_last_field(a, b, tab):
        assert cut_columns(a, spec, tab) == cut_columns(b, spec, tab)
    if only_last and tab:
        assert same_but_last_field(a, b, tab)
    assert not same_but_last_field(a, b + ["x\t(1)"], tab)


def _pair_files(tmp_path, key_rows, response_rows):
    def write(name, rows):
        f = tmp_path / name
        f.write_text("#begin document (d); part 000\n" + "\n".join("\t".join(r) for r in rows) + "\n\n#end document\n")
        return str(f)
    return write("key.conll", key_rows), write("response.conll", response_rows)


_ROWS = [["d", "0", "0", "Mary", "NNP", "(TOP(S(NP*)", "-", "-", "-", "A", "(PERSON)", "(1)"],
         ["d", "0", "1", "saw", "VBD", "(VP*", "see", "-", "-", "A", "*", "-"],
         ["d", "0", "2", "her", "PRP", "(NP*)))", "-", "-", "-", "A", "*", "(1)"]]


def test_a_response_over_the_key_file_takes_the_key_columns(tmp_path):
    """Response document i, whose rows repeat key document i's but for the coreference field,
    gets the key's column lists (not cut again); one tag of its own and it keeps its own columns,
    which the features then read (the mention typed from the response's tag)."""
    from corefreport.io.pairs import DocumentPairs, Reading
    from corefreport.scoring.features import Derived, derivation_inputs

    other = [r[:-1] + [c] for r, c in zip(_ROWS, ["(2)", "-", "(2)"])]
    key, resp = _pair_files(tmp_path, _ROWS, other)
    [pair] = DocumentPairs(key, resp).pairs(Reading())
    kc, rc = pair.key.columns, pair.response.columns
    assert list(kc) == ["pos", "parse", "lemma", "speaker", "ne"] and kc["pos"] == ["NNP", "VBD", "PRP"]
    assert all(rc[k] is kc[k] for k in kc) and rc is not kc
    assert [c.label for c in pair.response.chains] == ["2"]
    assert derivation_inputs(pair.response) == derivation_inputs(pair.key)

    tagged = [r[:] for r in other]
    tagged[2][4] = "NN"  # the response's own tag for "her"
    key, resp = _pair_files(tmp_path, _ROWS, tagged)
    [pair] = DocumentPairs(key, resp).pairs(Reading())
    kc, rc = pair.key.columns, pair.response.columns
    assert rc["pos"] == ["NNP", "VBD", "NN"] and kc["pos"] == ["NNP", "VBD", "PRP"]
    assert rc["ne"] == kc["ne"] and rc["ne"] is not kc["ne"]
    m = pair.response.chains[0].mentions[1]
    assert (Derived(pair.key).derive(m)["mtype"], Derived(pair.response).derive(m)["mtype"]) == ("PRONOUN", "NOMINAL")
