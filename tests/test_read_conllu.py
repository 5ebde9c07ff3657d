"""The CorefUD / Universal Anaphora CoNLL-U reader: synthetic cases for every rule, and the real GUM,
OntoGUM and corefud-scorer files of ../shared (skipped when ../shared is absent)."""

from __future__ import annotations

import csv
import re
from collections import Counter

import pytest

from corefreport.io.conll2012 import read_conll2012
from corefreport.io.conllu import EntityFields, parse_entity, read_conllu
from corefreport.errors import InputError
from conftest import chain_spans, shared_path

def word(i: int, form: str, misc: str = "_", head: str = "0", lemma: str = "_", upos: str = "X",
         xpos: str = "_", deprel: str = "dep") -> str:
    return "\t".join([str(i), form, lemma, upos, xpos, "_", head, deprel, "_", misc])


def error_of(text: str, path: str = "f.conllu") -> InputError:
    with pytest.raises(InputError) as err:
        read_conllu(path, text)
    assert err.value.path == path and err.value.line, "every error names the file and the line"
    assert str(err.value).startswith(f"{path}:{err.value.line}: ")
    return err.value


# --- synthetic --------------------------------------------------------------------------------

SIMPLE = "\n".join([
    "# newdoc id = d1",
    "# global.Entity = eid-etype-head-other",
    "# sent_id = s1",
    word(1, "Mary", "Entity=(e1-person-1-)", head="2", lemma="Mary", upos="PROPN", xpos="NNP", deprel="nsubj"),
    word(2, "saw", head="0", lemma="see", upos="VERB", xpos="VBD", deprel="root"),
    word(3, "her", "Entity=(e2-person-2-(e1-person-1-)", head="4", upos="PRON"),
    word(4, "brother", "Entity=e2)", head="2", upos="NOUN"),
    "",
    "# sent_id = s2",
    word(1, "He", "Entity=(e2-person-1-)", head="2"),
    word(2, "waved", head="0"),
    "",
])


def test_brackets_chains_and_features():
    corpus = read_conllu("x.conllu", SIMPLE)
    doc = corpus.documents["d1"]
    assert doc.tokens == ["Mary", "saw", "her", "brother", "He", "waved"]
    assert doc.sentence_starts == [0, 4]
    assert [c.label for c in doc.chains] == ["e1", "e2"]  # order of first sight
    assert [m.span for m in doc.chains[0].mentions] == [(0, 0), (2, 2)]
    assert [m.span for m in doc.chains[1].mentions] == [(2, 3), (4, 4)]  # order of closing
    her_brother = doc.chains[1].mentions[0]
    assert her_brother.features == {"etype": "person", "head": "3"}  # head 2 of the mention = token 3
    assert her_brother.line == 6
    assert corpus.warnings == []


def test_columns_and_head_as_document_index():
    doc = read_conllu("x.conllu", SIMPLE).documents["d1"]
    assert doc.columns["lemma"][:2] == ["Mary", "see"]
    assert doc.columns["upos"][:3] == ["PROPN", "VERB", "PRON"]
    assert doc.columns["pos"][:2] == ["NNP", "VBD"]
    assert doc.columns["deprel"][:2] == ["nsubj", "root"]
    # sentence 2 starts at token 4: its HEAD 2 is token 5; the roots are -1
    assert doc.columns["head"] == ["1", "-1", "3", "1", "5", "-1"]


def test_file_without_newdoc_is_one_document_named_by_the_stem():
    text = word(1, "a", "Entity=(1)") + "\n" + word(2, "b") + "\n"
    corpus = read_conllu("some/dir/GUM_x.coref.conllu", text)
    assert list(corpus.documents) == ["GUM_x"]
    assert chain_spans(corpus.documents["GUM_x"]) == [[(0, 0)]]


def test_several_documents_and_global_entity_holds_for_the_whole_file():
    text = "\n".join([
        "# newdoc id = a", "# global.Entity = eid-etype-head-other", word(1, "x", "Entity=(e1-place-1-)"), "",
        "# newdoc id = b", word(1, "y", "Entity=(e1-time-1-)"), ""])
    corpus = read_conllu("f.conllu", text)
    assert list(corpus.documents) == ["a", "b"]
    assert corpus.documents["b"].chains[0].mentions[0].features["etype"] == "time"
    assert corpus.documents["b"].tokens == ["y"]  # tokens are numbered per document


def test_repeated_document_id_is_renamed_with_a_warning():
    text = "# newdoc id = a\n" + word(1, "x") + "\n\n# newdoc id = a\n" + word(1, "y") + "\n"
    corpus = read_conllu("f.conllu", text)
    assert list(corpus.documents) == ["a", "a#2"]
    assert any("f.conllu:4" in w and "repeats" in w for w in corpus.warnings)


def test_sentences_from_blank_lines_sent_id_and_restarting_ids():
    text = "\n".join(["# newdoc id = d", word(1, "a"), word(2, "b"), "# sent_id = 2", word(1, "c"),
                      word(1, "d"), "", word(1, "e")])
    doc = read_conllu("f.conllu", text).documents["d"]
    assert doc.sentence_starts == [0, 2, 3, 4]


def test_multiword_tokens_and_empty_nodes_are_skipped():
    text = "\n".join(["# newdoc id = d",
                      "1-2\tdes\t_\t_\t_\t_\t_\t_\t_\t_",
                      word(1, "de", "Entity=(e1-x-1-", head="0"),
                      word(2, "les", "Entity=e1)", head="1"),
                      "2.1\tpro\t_\t_\t_\t_\t_\t_\t_\t_",
                      word(3, "x", head="2")])
    doc = read_conllu("f.conllu", text).documents["d"]
    assert doc.tokens == ["de", "les", "x"]
    assert chain_spans(doc) == [[(0, 1)]]
    assert doc.columns["head"] == ["-1", "0", "1"]


def test_gum_global_entity_fields():
    """GUM's field order: GRP is the entity id, link → link_type, minspan is not a head, the
    Wikipedia identity may hold a dash (the last field takes the rest)."""
    text = "\n".join([
        "# newdoc id = g",
        "# global.Entity = GRP-etype-infstat-salience-centering-minspan-link-identity",
        word(1, "Jean", "Entity=(7-person-new-sssss-cf1-1,2-coref-Jean-Paul_Sartre"),
        word(2, "Paul", "Entity=7)"),
        word(3, "he", "Entity=(7-person-giv:act-sssss-cf1-1-ana)"),
        word(4, "it", "Entity=(8-abstract-new-nnnnn-cf2-1-sgl)"),
    ])
    doc = read_conllu("g.conllu", text).documents["g"]
    first, he = doc.chains[0].mentions
    assert first.label == "7" and first.span == (0, 1)
    assert first.features == {"etype": "person", "infstat": "new", "link_type": "coref"}
    assert he.features == {"etype": "person", "infstat": "giv:act", "link_type": "ana"}
    assert doc.chains[1].mentions[0].features["link_type"] == "sgl"


def test_ontogum_minimal_brackets():
    text = "\n".join(["# newdoc id = o", "# global.Entity = GRP", word(1, "The", "Entity=(3(2"),
                      word(2, "man", "Entity=2)"), word(3, "'s", "Entity=3)"), word(4, "dog", "Entity=(2)")])
    doc = read_conllu("o.conllu", text).documents["o"]
    assert chain_spans(doc) == [[(0, 1), (3, 3)], [(0, 2)]]
    assert all(m.features == {} for m in doc.mentions)


def test_closing_before_opening_and_nested_mentions_of_one_entity():
    text = "\n".join(["# newdoc id = d", word(1, "a", "Entity=(e1-x-1-"), word(2, "b", "Entity=e1)(e2-y-1-"),
                      word(3, "c", "Entity=e2)"), word(4, "d", "Entity=(e3-z-1-(e3-z-1-"),
                      word(5, "e", "Entity=e3)"), word(6, "f", "Entity=e3)")])
    doc = read_conllu("f.conllu", text).documents["d"]
    assert chain_spans(doc) == [[(0, 1)], [(1, 2)], [(3, 4), (3, 5)]]
    assert [m.span for m in doc.chains[2].mentions] == [(3, 4), (3, 5)]  # innermost closes first


def test_head_position_outside_the_mention_is_an_error():
    """Issue 26: it used to be dropped silently (the first word then served as the head)."""
    text = "# newdoc id = d\n" + word(1, "a", "Entity=(e1-x-5-)") + "\n"
    with pytest.raises(InputError, match="^f.conllu:2: mention of entity 'e1': head index 5 is outside the "
                                         "mention's 1 word \\(expected 1 to 1\\)$"):
        read_conllu("f.conllu", text)


def test_bridging_is_read_into_its_layer():
    text = "\n".join(["# newdoc id = d", word(1, "a", "Entity=(e1-x-1-)"), word(2, "b", "Entity=(e2-x-1-)"),
                      word(3, "they", "Entity=(e3-x-1-)|SplitAnte=e1<e3,e2<e3"),
                      word(4, "door", "Bridge=e1<e4:part,e9<e4|Entity=(e4-x-1-)")])
    corpus = read_conllu("f.conllu", text)
    doc = corpus.documents["d"]
    assert chain_spans(doc) == [[(0, 0)], [(1, 1)], [(2, 2)], [(3, 3)]]
    assert len(corpus.warnings) == 1  # the split antecedents read (test below); Bridge= is read, not warned about
    assert "1 SplitAnte= annotation(s)" in corpus.warnings[0] and corpus.warnings[0].startswith("f.conllu")
    # Bridge=ANCHOR<ANAPHOR:REL on the anaphor's first word (Udapi): 'door' anchored on entity e1
    assert [(c.label, [m.span for m in c.mentions]) for c in doc.layers["bridging_entity"]] == [("part", [(3, 3), (0, 0)])]
    assert [c.label for c in doc.layers["bridging_skipped"]] == ["e4→e9"]  # e9 has no mention


@pytest.mark.parametrize("value, problem", [
    ("e1", "Bridge= link 'e1' is not ANCHOR<ANAPHOR"), ("e4<e4", "anchors entity 'e4' on itself")])
def test_bad_bridge_is_an_error(value: str, problem: str):
    text = "\n".join(["# newdoc id = d", word(1, "a", "Entity=(e1-x-1-)"), word(2, "door", f"Bridge={value}|Entity=(e4-x-1-)")])
    with pytest.raises(InputError) as e:
        read_conllu("f.conllu", text)
    assert e.value.line == 3 and problem in e.value.problem


def test_split_antecedents_are_read_as_element_of():
    """``SplitAnte=e1<e3,e2<e3`` (Udapi's reading: e3 = e1 + e2) gives every mention of e1 and e2
    ``ElementOf=e3``, the UA reader's representation."""
    text = "\n".join(["# newdoc id = d", word(1, "a", "Entity=(e1-x-1-)"), word(2, "b", "Entity=(e2-x-1-)"),
                      word(3, "they", "Entity=(e3-x-1-)|SplitAnte=e1<e3,e2<e3"),
                      word(4, "door", "Bridge=e1<e4|Entity=(e4-x-1-)"), word(5, "A", "Entity=(e1-x-1-)"),
                      word(6, "we", "Entity=(e5-x-1-)|SplitAnte=e1<e5,e4<e5")])
    corpus = read_conllu("f.conllu", text)
    doc = corpus.documents["d"]
    assert chain_spans(doc) == [[(0, 0), (4, 4)], [(1, 1)], [(2, 2)], [(3, 3)], [(5, 5)]]
    assert [[m.features.get("ElementOf") for m in c.mentions] for c in doc.chains] == [
        ["e3,e5", "e3,e5"], ["e3"], [None], ["e5"], [None]]
    assert len(corpus.warnings) == 1 and corpus.warnings[0].startswith("f.conllu: ")
    assert "2 SplitAnte= annotation(s)" in corpus.warnings[0]


@pytest.mark.parametrize("misc, problem", [
    ("SplitAnte=e1", "SplitAnte= item 'e1' is not ANTECEDENT<PLURAL"),
    ("SplitAnte=e1<e2<e3", "is not ANTECEDENT<PLURAL"),
    ("SplitAnte=e2<e2", "an entity cannot be its own split antecedent"),
    ("SplitAnte=e9<e2", "SplitAnte= names entity 'e9', which has no mention in document 'd'"),
    ("SplitAnte=e1<e7", "SplitAnte= names entity 'e7'"),
])
def test_bad_split_antecedents_name_their_line(misc, problem):
    err = error_of("\n".join(["# newdoc id = d", word(1, "a", "Entity=(e1-x-1-)"),
                              word(2, "b", f"Entity=(e2-x-1-)|{misc}"), ""]))
    assert err.line == 3 and problem in err.problem


def test_head_outside_its_sentence_is_unknown_with_a_warning():
    text = "\n".join(["# newdoc id = d", word(1, "a", head="7"), word(2, "b", head="_")])
    corpus = read_conllu("f.conllu", text)
    assert corpus.documents["d"].columns.get("head") is None  # no usable HEAD at all
    assert any("HEAD" in w for w in corpus.warnings)


def test_crlf_line_endings():
    doc = read_conllu("f.conllu", SIMPLE.replace("\n", "\r\n")).documents["d1"]
    assert doc.tokens[-1] == "waved" and chain_spans(doc) == [[(0, 0), (2, 2)], [(2, 3), (4, 4)]]


def test_parse_entity_and_entity_fields():
    assert parse_entity("(e1-person-1-(e2-x)e3)") == [("open", "e1", ["e1", "person", "1", ""]),
                                                      ("single", "e2", ["e2", "x"]), ("close", "e3", [])]
    for bad in ("()", "(", "e1", ")", "e1(e2)", "(-x)"):
        assert parse_entity(bad) is None, bad
    fields = EntityFields.parse("GRP-etype-infstat-salience-centering-minspan-link-identity")
    assert fields.names[0] == "eid" and "link_type" in fields.names


@pytest.mark.parametrize("lines, line, problem", [
    ([word(1, "a", "Entity=(e1-x-1-")], 2, "never closed"),
    ([word(1, "a"), word(2, "b", "Entity=e1)")], 3, "never opened"),
    ([word(1, "a", "Entity=(e1[1/2]-x-1-)")], 2, "lacks its last part"),
    (["1.1\ta\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1-x-1-)"], 2, "its sentence has no words"),
    (["1-2\tau\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1-x-1-)"], 2, "multi-word-token"),
    (["1\ta\ta"], 2, "10 TAB-separated columns"),
    ([word(1, "a"), "x\tb\t_\t_\t_\t_\t_\t_\t_\t_"], 3, "bad ID"),
    ([word(0, "a")], 2, "word ID 0"),
    ([word(1, "a", "Entity=(e1-x-1-))")], 2, "cannot read Entity="),
    ([word(1, "a", "Entity=(e1-x-1-)|Entity=_"), word(2, "b", "Entity=x(")], 3, "cannot read Entity="),
])
def test_errors_name_file_line_and_problem(lines, line, problem):
    err = error_of("# newdoc id = d\n" + "\n".join(lines) + "\n")
    assert err.line == line and problem in err.problem


def test_unclosed_mention_is_reported_at_its_opening_line_when_the_next_document_starts():
    err = error_of("# newdoc id = d\n" + word(1, "a", "Entity=(e9-x-1-") + "\n\n# newdoc id = e\n" + word(1, "b"))
    assert err.line == 2 and "'e9'" in err.problem and "never closed" in err.problem


# --- real data ----------------------------------------------------------------------------------

def test_gum_news_iodine_counts_verified_with_grep():
    """Counted independently with grep on dep/GUM_news_iodine.conllu: 1,071 word lines, 41
    ``# sent_id`` lines, 312 opening brackets of 149 entity ids, 20 ``Bridge=``, 20 MWT lines."""
    corpus = read_conllu(str(shared_path("data", "gum", "dep", "GUM_news_iodine.conllu")))
    doc = corpus.documents["GUM_news_iodine"]
    assert (len(doc.tokens), len(doc.sentence_starts), len(doc.mentions), len(doc.chains)) == (1071, 41, 312, 149)
    assert doc.tokens[:2] == ["Australian", "children"]
    assert doc.chains[0].label == "1" and doc.chains[0].mentions[0].span == (0, 1)
    assert corpus.warnings == []
    assert len(doc.layers["bridging_entity"]) == 20 and "bridging_skipped" not in doc.layers


def test_gum_byron_heads_and_features():
    doc = read_conllu(str(shared_path("data", "gum", "dep", "GUM_bio_byron.conllu"))).documents["GUM_bio_byron"]
    assert doc.tokens[4:7] == ["Byron", "received", "his"]
    assert doc.columns["head"][0] == "-1"  # "Education" is the root of the heading
    assert doc.columns["head"][6] == "9" and doc.tokens[9] == "education"  # his → education (sentence 2)
    his = next(m for m in doc.mentions if m.span == (6, 6))
    assert his.features == {"etype": "person", "infstat": "giv:act", "link_type": "ana"}


def test_all_gum_documents_match_docs_tsv():
    """Sentences, tokens, mentions and entities of every document (GUM and OntoGUM conllu) equal the
    counts of gum/docs.tsv; the totals are the README's 783 / 18,278 / 5,249 / 2,801 / 2,256 / 572."""
    rows = list(csv.DictReader(shared_path("data", "gum", "docs.tsv").open(encoding="utf-8"), delimiter="\t"))
    totals = Counter()
    for r in rows:
        doc = read_conllu(str(shared_path("data", "gum", "dep", f"{r['doc']}.conllu"))).documents[r["doc"]]
        onto_path = shared_path("data", "gum", "coref", "ontogum", "conllu", f"{r['doc']}.conllu")
        onto = read_conllu(str(onto_path)).documents[r["doc"]]
        got = (len(doc.sentence_starts), len(doc.tokens), len(doc.mentions), len(doc.chains), len(onto.mentions),
               len(onto.chains))
        keys = ("sentences", "tokens", "gum_mentions", "gum_entities", "ontogum_mentions", "ontogum_entities")
        assert got == tuple(int(r[k]) for k in keys), r["doc"]
        assert onto.tokens == doc.tokens and onto.sentence_starts == doc.sentence_starts
        totals.update(dict(zip(keys, got)))
    assert len(rows) == 20
    assert [totals[k] for k in ("sentences", "tokens", "gum_mentions", "gum_entities", "ontogum_mentions",
                                "ontogum_entities")] == [783, 18278, 5249, 2801, 2256, 572]


def test_gum_link_and_entity_type_counts():
    """The README's counts of GUM's ``link`` field (and grep's): coref 2240, sgl 1976, ana 804,
    disc 80, appos 79, pred 44, cata 26; entity types: abstract 2021, person 1363, …"""
    links, etypes = Counter(), Counter()
    for f in sorted(shared_path("data", "gum", "dep").glob("*.conllu")):
        for doc in read_conllu(str(f)):
            links.update(m.features["link_type"] for m in doc.mentions)
            etypes.update(m.features["etype"] for m in doc.mentions)
    assert links == Counter(coref=2240, sgl=1976, ana=804, disc=80, appos=79, pred=44, cata=26)
    assert etypes == Counter(abstract=2021, person=1363, event=533, place=446, organization=349, time=299,
                             object=152, substance=84, plant=2)


@pytest.mark.parametrize("scheme, conll_dir", [("gum", "gum_conll_numeric"), ("ontogum", "ontogum_conll_named")])
def test_gum_conllu_has_the_chains_of_the_conll_files(scheme, conll_dir):
    """For all 20 documents: the CoNLL-U (dep/ for GUM, coref/ontogum/conllu/ for OntoGUM) and the
    derived CoNLL files give the same tokens and the same chains (OntoGUM's CoNLL writes the token
    '|' as an empty string — the only token difference)."""
    folder = shared_path("data", *(("gum", "dep") if scheme == "gum" else ("gum", "coref", "ontogum", "conllu")))
    for f in sorted(folder.glob("*.conllu")):
        u = next(iter(read_conllu(str(f))))
        c = next(iter(read_conll2012(str(shared_path("data", "gum", "derived", conll_dir, f"{f.stem}.conll")))))
        assert [w if w != "|" else "" for w in u.tokens] == [w if w != "|" else "" for w in c.tokens], f.stem
        assert chain_spans(u) == chain_spans(c), f.stem


def test_corefud_scorer_test_files_read():
    """Every key and response of ufal/corefud-scorer's tests reads, discontinuous mentions and zeros
    (``Entity=`` on an empty node) included."""
    folder = shared_path("data", "corefud", "scorer-tests")
    outcomes = Counter()
    for f in sorted(folder.rglob("*")):
        if f.suffix not in (".key", ".response"):
            continue
        text = f.read_text(encoding="utf-8")
        zero = re.search(r"^\d+\.\d+\t[^\n]*Entity=", text, re.MULTILINE)
        split = re.search(r"Entity=[^\t\n|]*\[\d+/\d+\]", text)
        try:
            corpus = read_conllu(str(f), text)
        except InputError as err:
            raise AssertionError(str(err))
        else:
            assert all(0 <= m.start <= m.end < len(d.tokens) for d in corpus for m in d.mentions)
            outcomes["read"] += 1
            outcomes["discontinuous"] += bool(split)
            empty = re.search(r"^\d+\.\d+\t", text, re.MULTILINE)
            assert bool(split) or bool(empty) or not any(m.words is not None for d in corpus for m in d.mentions), f
            outcomes["zeros"] += bool(zero)
    assert outcomes == Counter(read=133, zeros=23, discontinuous=8)


def test_discontinuous_mention_is_one_mention_with_a_word_set():
    """TC-NCMA-5.response: ``(e10043[1/2]-x-1-`` on word 4 … ``e10043[1/2])``, then part 2/2: one
    mention whose words are both parts; the head index of the last part counts over all its words."""
    doc = next(iter(read_conllu("f.conllu", "# newdoc id = d\n# global.Entity = eid-etype-head-other\n" + "\n".join([
        word(1, "a", "Entity=(e1[1/2]-x-1-"), word(2, "b", "Entity=e1[1/2])"), word(3, "c"),
        word(4, "d", "Entity=(e1[2/2]-x-3-)"), word(5, "e", "Entity=(e1-x-1-)")]) + "\n")))
    first, second = doc.chains[0].mentions
    assert (first.start, first.end, first.words, first.features["head"]) == (0, 3, (0, 1, 3), "3")
    assert first.ident == (0, 3, (0, 1, 3)) and second.ident == (4, 4) and second.words is None


def test_corefud_head_field_becomes_a_document_token_index():
    """TC-HMA.key: ``(e10043-x-9-`` opens on word 2 and closes on word 13; its head is word 10."""
    doc = next(iter(read_conllu(str(shared_path("data", "corefud", "scorer-tests", "head-match", "TC-HMA.key")))))
    m = next(m for m in doc.mentions if m.label == "e10043" and m.span[1] - m.span[0] == 11)
    assert m.features["head"] == str(m.start + 8)
