"""The Universal Anaphora CoNLL-U Plus reader (io/ua.py): every rule on synthetic files, every
malformed cell an error naming the file and the line, detection, and the command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from corefreport.errors import InputError
from corefreport.io.detect import detect_format
from corefreport.io.ua import NON_REFERRING, read_ua

HEADER = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS\n"


def w(i: str, form: str, ident: str = "_", bridging: str = "_", dd: str = "_") -> str:
    """A space-aligned word line (the CODI-CRAC files align with spaces, not TABs)."""
    return f"{i}   {form}  _ _ _ _ _ _ _ _   {ident}   {bridging}  {dd}\n"


def doc(name: str, *lines: str) -> str:
    return f"# newdoc id = {name}\n# sent_id = 1\n" + "".join(lines) + "\n"


SAMPLE = HEADER + doc(
    "d1",
    w("1", "a", "(EntityID=1|MarkableID=m1|Min=2|SemType=dn"),
    w("2", "chair", ")"),
    w("3", "it", "(EntityID=1|MarkableID=m2|SemType=dn)", "(MarkableID=m2|Rel=undersp-rel|MentionAnchor=m1|EntityAnchor=1)"),
    w("4", "is", "(EntityID=2-Pseudo|MarkableID=m3|SemType=expletive)"),
    w("5", "red", "(EntityID=3|MarkableID=m4"),
    w("6", "and", "(EntityID=4|MarkableID=m5"),
    w("7", "blue", "m4)"),
    w("8", "x", "m5)", dd="(EntityID=1-DD|MarkableID=dd1)"),
) + doc(
    "d2",
    w("1", "Mary", "(EntityID=1|MarkableID=m1"),
    w("2", "and", ")"),
    w("3", "x", "_"),
    w("4", "Smith", "(EntityID=1|MarkableID=m1)"),
    w("4.1", "_", "(EntityID=1|MarkableID=m2)"),
)


def test_reads_openers_closers_crossing_pseudo_and_discontinuous() -> None:
    c = read_ua("s.conllua", SAMPLE)
    assert list(c.documents) == ["d1", "d2"] and c.format == "ua"
    d1 = c.documents["d1"]
    assert d1.tokens == ["a", "chair", "it", "is", "red", "and", "blue", "x"]
    assert [[m.span for m in ch] for ch in d1.chains] == [[(0, 1), (2, 2)], [(4, 6)], [(5, 7)]]  # m4, m5 cross
    assert [ch.label for ch in d1.chains] == ["1", "3", "4"]
    assert [[m.span for m in ch] for ch in d1.layers[NON_REFERRING]] == [[(3, 3)]]
    m1 = d1.chains[0].mentions[0]
    assert m1.features == {"MarkableID": "m1", "EntityID": "1", "SemType": "dn", "Min": "2"}
    assert d1.columns["BRIDGING"][2].startswith("(MarkableID=m2|")
    assert d1.columns["DISCOURSE_DEIXIS"][7] == "(EntityID=1-DD|MarkableID=dd1)"
    d2 = c.documents["d2"]
    assert d2.tokens == ["Mary", "and", "x", "Smith"]  # the empty node 4.1 is not a token
    m = d2.chains[0].mentions[0]
    assert (m.start, m.end, m.words) == (0, 3, (0, 1, 3))  # MarkableID m1 twice: one discontinuous markable
    zero = d2.chains[0].mentions[1]
    assert (zero.span, zero.words, zero.features["zero_head"]) == ((3, 3), (3.01,), "3.01")


def test_columns_are_found_by_name() -> None:
    text = ("# global.columns = ID IDENTITY FORM\n# newdoc id = d\n1 (EntityID=1|MarkableID=a) Mary\n"
            "2 (EntityID=1|MarkableID=b) she\n")
    d = read_ua("f", text).documents["d"]
    assert d.tokens == ["Mary", "she"] and [[m.span for m in c] for c in d.chains] == [[(0, 0), (1, 1)]]
    assert d.columns["BRIDGING"] == ["_", "_"]


def test_a_missing_last_field_is_read_as_blank() -> None:
    text = HEADER.replace("DISCOURSE_DEIXIS", "DISCOURSE_DEIXIS NOM_SEM") + doc("d", w("1", "a", "(EntityID=1|MarkableID=m)"))
    assert read_ua("f", text).documents["d"].chains[0].mentions[0].span == (0, 0)


@pytest.mark.parametrize("cell, problem", [
    (")", "closes no open markable"),
    ("m9)", "'m9', which is not open"),
    ("(MarkableID=m)", "has no EntityID"),
    ("(EntityID=1)", "has no MarkableID"),
    ("(EntityID=1|MarkableID=m|SemType)", "is not KEY=VALUE"),
    ("(EntityID=1|MarkableID=m|Min=x)", "Min='x'"),
    ("(EntityID=1|MarkableID=m))", "a closer after an opener"),
    ("()", "an empty opener"),
    ("x(EntityID=1|MarkableID=m)", "is not closing brackets"),
    ("(EntityID=1|MarkableID=m", "is never closed"),
])
def test_every_malformed_cell_names_file_and_line(cell: str, problem: str) -> None:
    text = HEADER + doc("d", w("1", "a"), w("2", "b", cell))
    with pytest.raises(InputError) as err:
        read_ua("bad.conllua", text)
    assert err.value.path == "bad.conllua" and err.value.line == 5 and problem in err.value.problem, err.value


@pytest.mark.parametrize("text, line, problem", [
    (HEADER + "1 a _ _ _ _ _ _ _ _ _ _ _\n", 2, "before the first '# newdoc"),
    ("# newdoc id = d\n1 a\n", 2, "before '# global.columns"),
    (HEADER + doc("d", "1 a _ _ _ _ _ _ _ _ _\n"), 4, "column DISCOURSE_DEIXIS is field 13"),
    (HEADER + doc("d", w("x", "a")), 4, "token ID 'x'"),
    (HEADER + doc("d", w("1", "a", "(EntityID=1|MarkableID=m)"), w("2", "b", "(EntityID=2|MarkableID=m)")), 5,
     "in entity '2' here and '1'"),
    (HEADER + doc("d", w("1", "a")) + doc("d", w("1", "a")), 6, "written twice"),
    ("# global.columns = ID FORM\n", 1, "names no IDENTITY"),
    (HEADER + doc("d", w("1", "a", "(EntityID=1|MarkableID=m"), w("1.1", "_", ")")), 5, "on an empty node"),
])
def test_malformed_files(text: str, line: int, problem: str) -> None:
    with pytest.raises(InputError) as err:
        read_ua("bad.conllua", text)
    assert err.value.line == line and problem in err.value.problem, err.value


def test_detected_before_conllu() -> None:
    assert detect_format("x", SAMPLE) == "ua"
    assert detect_format("x", "# newdoc id = d\n1\tMary\t_\t_\t_\t_\t0\troot\t_\tEntity=(e1)\n") == "conllu"


def test_cli_scores_a_ua_file_and_reports_a_bad_cell(tmp_path) -> None:
    key = tmp_path / "k.conllua"
    key.write_text(SAMPLE)
    run = subprocess.run([sys.executable, "-m", "corefreport", "score", str(key), str(key), "-f", "json"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert '"muc"' in run.stdout
    bad = tmp_path / "b.conllua"
    bad.write_text(SAMPLE.replace("(EntityID=3|MarkableID=m4", "(EntityID=3|MarkableID"))
    run = subprocess.run([sys.executable, "-m", "corefreport", "score", str(bad), str(key)], capture_output=True,
                         text=True)
    assert run.returncode == 2 and "b.conllua:8:" in run.stderr and "Traceback" not in run.stderr, run.stderr


# ``Min=N`` / ``Min=N,M``: words N..M of the document, 1-based (docs/universal-anaphora.md). A Min
# that cannot name words of the document stops; one that names words outside its markable (the
# CODI-CRAC 2022 dev files have 2,166 such, tests/data/ua_v1) is read with a warning naming it.
MIN_DOC = "# global.columns = ID FORM IDENTITY\n# newdoc id = d\n1 The (EntityID=1|MarkableID=m1|Min={}\n2 house )\n" \
          "3 had _\n4 it (EntityID=1|MarkableID=m2)\n"


@pytest.mark.parametrize("value, problem", [
    ("0", "Min=0 of markable 'm1': word numbers start at 1"),
    ("2,1", "Min=2,1 of markable 'm1': reversed, 2 > 1"),
    ("99", "Min=99 of markable 'm1': the document has 4 word(s)"),
    ("2,5", "Min=2,5 of markable 'm1': the document has 4 word(s)"),
])
def test_a_min_that_names_no_word_of_the_document_stops(value: str, problem: str) -> None:
    with pytest.raises(InputError) as err:
        read_ua("k.ua", MIN_DOC.format(value))
    assert (err.value.path, err.value.line) == ("k.ua", 3) and problem in err.value.problem, err.value


def test_a_min_outside_its_markable_is_read_with_a_warning() -> None:
    assert read_ua("k.ua", MIN_DOC.format("2")).warnings == []
    assert read_ua("k.ua", MIN_DOC.format("1,2")).warnings == []
    c = read_ua("k.ua", MIN_DOC.format("4"))
    assert c.documents["d"].chains[0].mentions[0].features["Min"] == "4"
    assert c.warnings == ["k.ua: 1 markable(s) whose Min= names a word outside the markable (first: line 3: Min=4 of "
                          "markable 'm1' names word 4, outside the markable (words 1–2)): --match min matches them "
                          "only by their exact words, as corefud-scorer (docs/universal-anaphora.md)"]


def test_cli_min_outside_the_markable(tmp_path) -> None:
    """The review's U71–U74: the key's [The house] (Min=2) against a response's [house]: under
    --match min MUC 100 (house ⊆ R ⊆ K; one link of [The house]–[it] found); with Min=0, 2,1 or
    99 an error at the opener's line; with Min=4 (a word outside) MUC 0 and the warning saying why."""
    response = tmp_path / "r.ua"
    response.write_text(MIN_DOC.replace("|Min={}", "").replace("1 The (EntityID=1|MarkableID=m1\n2 house )",
                                                                 "1 The _\n2 house (EntityID=1|MarkableID=m1)"))
    for value, code, muc in (("2", 0, 1.0), ("0", 2, None), ("2,1", 2, None), ("99", 2, None), ("4", 0, 0.0)):
        key = tmp_path / "k.ua"
        key.write_text(MIN_DOC.format(value))
        run = subprocess.run([sys.executable, "-m", "corefreport", "score", str(key), str(response), "--match", "min",
                              "-m", "muc", "-f", "json"], capture_output=True, text=True)
        assert run.returncode == code and "Traceback" not in run.stderr, (value, run.stderr)
        if code == 2:
            assert run.stderr.count("corefreport: error:") == 1 and f"k.ua:3: Min={value} " in run.stderr, run.stderr
        else:
            import json

            assert json.loads(run.stdout)["metrics"]["muc"]["f1"] == muc, value
            assert ("names word 4, outside the markable" in run.stderr) == (value == "4"), run.stderr
