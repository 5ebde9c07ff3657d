"""``corefreport check``: broken submissions built here from ``tests/data/crac2026_empty/key.conllu``
(two documents, eight empty nodes) and the CorefUD fixture, each problem named at the line this test
computes from the text it wrote (not from the code under test)."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from corefreport.cli import app

ROOT = Path(__file__).resolve().parent
KEY = ROOT / "data" / "crac2026_empty" / "key.conllu"
FIXTURE = ROOT / "data" / "corefud" / "crac.key.conllu"
TEXT = KEY.read_text(encoding="utf-8")
runner = CliRunner()
T = "\t"


def run(*args):
    return runner.invoke(app, ["check", *(str(a) for a in args)])


def lines_of(res) -> list[str]:
    return [x for x in res.stdout.splitlines() if x]


def line_no(text: str, start: str, nth: int = 1) -> int:
    """The 1-based number of the ``nth`` line of ``text`` starting with ``start``."""
    found = [k for k, x in enumerate(text.split("\n"), 1) if x.startswith(start)]
    return found[nth - 1]


def write(tmp_path: Path, text: str, name: str = "response.conllu") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_a_clean_submission_exits_0(tmp_path):
    res = run(KEY, write(tmp_path, TEXT))
    assert res.exit_code == 0 and lines_of(res) == []
    assert "0 errors, 0 warnings in 1 response file: clean" in res.stderr
    res = run("--preset", "crac", FIXTURE, FIXTURE)
    assert res.exit_code == 0 and "ready to upload" in res.stderr


def test_a_missing_document_is_named_at_the_keys_line(tmp_path):
    resp = write(tmp_path, TEXT.split("# newdoc id = story-2")[0])
    res = run(KEY, resp)
    assert res.exit_code == 2
    assert lines_of(res) == [f"{KEY}:{line_no(TEXT, '# newdoc id = story-2')}: document 'story-2' is missing from the "
                             f"response ({resp})"]


def test_a_changed_word(tmp_path):
    text = TEXT.replace("1\tAnna\tanna", "1\tAnne\tanna")
    resp = write(tmp_path, text)
    n = line_no(text, "1\tAnne")
    assert lines_of(run(KEY, resp)) == [f"{resp}:{n}: document 'story-1', sentence 1, word 1 is 'Anne' here but "
                                        f"'Anna' in the key ({KEY}:{n})"]
    shorter = write(tmp_path, TEXT.replace("4\tlate\tlate\tX\t_\t_\t1\tdep\t1:dep\t_\n", ""), "shorter.conllu")
    assert lines_of(run(KEY, shorter)) == [f"{shorter}:1: document 'story-1' has 21 words here but 22 in the key "
                                           f"({KEY}:1)"]


def test_malformed_entity_splitante_and_bridge_values_each_named(tmp_path):
    text = (TEXT.replace("Entity=(e2-animal-2-\n", "Entity=(e2-animal-2-((\n")
            .replace("6\tslept\tslept\tX\t_\t_\t1\tdep\t1:dep\t_", "6\tslept\tslept\tX\t_\t_\t1\tdep\t1:dep\tSplitAnte=e1")
            .replace("4\tletter\tletter\tX\t_\t_\t1\tdep\t1:dep\tEntity=e4)",
                     "4\tletter\tletter\tX\t_\t_\t1\tdep\t1:dep\tEntity=e4)|Bridge=e3<e3")
            .replace("1\tThen\tthen\tX\t_\t_\t0\troot\t0:root\t_\n1.1", "1\tThen\tthen\tX\t_\t_\t0\troot\t0:root\tEntity=(e5[3/2]-x-1-)\n1.1", 1))
    resp = write(tmp_path, text)
    res = run(KEY, resp)
    assert res.exit_code == 2
    found = lines_of(res)
    assert f"{resp}:{line_no(text, T.join(['1', 'The', '']))}: cannot read Entity='(e2-animal-2-((' (expected brackets '(eid-…', " \
           "'eid)' or '(eid-…)')" in found
    assert f"{resp}:{line_no(text, T.join(['2', 'dog']))}: 'e2)' closes a mention of entity 'e2' that was never opened in " \
           "document 'story-1'" in found
    assert f"{resp}:{line_no(text, T.join(['6', 'slept']))}: SplitAnte= item 'e1' is not ANTECEDENT<PLURAL (e.g. e4<e54)" in found
    assert f"{resp}:{line_no(text, T.join(['4', 'letter']))}: Bridge= link 'e3<e3' anchors entity 'e3' on itself" in found
    assert f"{resp}:{line_no(text, T.join(['1', 'Then']))}: cannot read the discontinuous mention label 'e5[3/2]' (expected " \
           "e.g. e7[1/2])" in found


def test_a_mention_never_closed_and_ten_columns(tmp_path):
    text = TEXT.replace("Entity=e4)", "_", 1).replace("3\thome\thome\tX\t_\t_\t1\tdep\t1:dep\t_",
                                                        "3\thome\thome\tX\t_\t_\t1\tdep\t1:dep")
    resp = write(tmp_path, text)
    found = lines_of(run(KEY, resp))
    assert f"{resp}:{line_no(text, T.join(['3', 'home']))}: a CoNLL-U word line has 10 TAB-separated columns, this one has 9" \
           in found
    assert f"{resp}:{line_no(text, T.join(['3', 'a', 'a']))}: mention of entity 'e4' opened here is never closed in document " \
           "'story-2'" in found
    # the reader stopped at the line with 9 columns: the words were still compared (line 8 is 'home' in both)
    assert not any("word" in x and "is 'home'" in x for x in found)


def test_repeated_document_and_sentence_ids(tmp_path):
    text = TEXT.replace("# newdoc id = story-2", "# newdoc id = story-1").replace("# sent_id = story-1-2",
                                                                                  "# sent_id = story-1-1")
    resp = write(tmp_path, text)
    found = lines_of(run(KEY, resp))
    second = line_no(text, "# newdoc id = story-1", 2)
    assert f"{resp}:{second}: document id 'story-1' is also on line 1 (document ids must be unique)" in found
    assert f"{resp}:{line_no(text, '# sent_id = story-1-1', 2)}: sentence id 'story-1-1' is also on line 3 of this " \
           "document (sentence ids must be unique)" in found
    assert f"{KEY}:{line_no(TEXT, '# newdoc id = story-2')}: document 'story-2' is missing from the response " \
           f"({resp})" in found
    assert sum(f"{resp}:{second}:" in x for x in found) == 2  # the id, and the renamed document is not in the key


def test_missing_and_extra_empty_nodes(tmp_path):
    gone = "5.2\t_\t#Gen\tPRON\tPRP\tCase=Acc\t_\t_\t6:obj\tEntity=(e4-thing-1-)\n"
    text = TEXT.replace(gone, "").replace("4\tlate\tlate\tX\t_\t_\t1\tdep\t1:dep\t_\n",
                                          "4\tlate\tlate\tX\t_\t_\t1\tdep\t1:dep\t_\n4.1\t_\t_\tPRON\t_\t_\t_\t_\t4:nsubj\t_\n")
    resp = write(tmp_path, text)
    res = run(KEY, resp)
    assert res.exit_code == 2
    assert lines_of(res) == [  # in document order
        f"{resp}:{line_no(text, '4.1')}: empty node 4.1 (sentence 1 of document 'story-1') is not in the key "
        "(--empty-nodes same: the response keeps the key's empty nodes)",
        f"{KEY}:{line_no(TEXT, T.join(['5.2', '_', '#Gen']))}: empty node 5.2 of sentence 1 of document 'story-2' is missing from the "
        f"response ({resp})"]
    # CRAC 2024–2026: the system predicts its own empty nodes
    assert run("--preset", "crac", KEY, resp).exit_code == 0
    assert run("--empty-nodes", "predicted", KEY, resp).exit_code == 0
    none = write(tmp_path, re.sub(r"(?m)^\d+\.\d+\t.*\n", "", TEXT), "none.conllu")  # no empty node
    res = run("--preset", "crac", KEY, none)
    assert res.exit_code == 0
    assert f"{none}:{line_no(none.read_text(encoding='utf-8'), '# newdoc id = story-2')}: warning: document 'story-2' has no empty node where " \
           "the key has 3: its zeros and the empty-node score can find none" in lines_of(res)


def test_what_the_empty_node_script_reads_otherwise(tmp_path):
    text = TEXT.replace("5\t.\t.\tX\t_\t_\t1\tdep\t1:dep\t_\n\n", "5\t.\t.\tX\t_\t_\t1\tdep\t1:dep\t_\n\n\n", 1)
    text = text.replace("6:cop|3:conj", "_").replace("2:nsubj\tEntity=(e2-animal-1-)", "1.2:nsubj\tEntity=(e2-animal-1-)")
    resp = write(tmp_path, text)
    res = run(KEY, resp, "--empty-nodes", "predicted")
    assert res.exit_code == 0  # warnings only
    found = lines_of(res)
    assert found == [
        f"{resp}:{line_no(text, '5.2')}: warning: empty node 5.2 has no head:deprel in DEPS ('_'): "
        "crac2026_empty_nodes_eval.py stops on it (ValueError); corefreport's empty-node score keys the node by that "
        "head as written",
        f"{resp}:{line_no(text, T.join(['1.1', '_', '#PersPron', 'PRON', 'PRP', 'Case=Nom|Number=Sing']))}: warning: the first DEPS head of "
        "empty node 1.1 is '1.2', not a word ID: crac2026_empty_nodes_eval.py stops on it (ValueError); corefreport's "
        "empty-node score keys the node by that head as written",
        f"{resp}:12: warning: a second blank line in a row: crac2026_empty_nodes_eval.py counts a sentence at every "
        "blank line, so it compares each later sentence of this file with another sentence of the key"]
    # under --preset crac the official script stopping is an error
    res = run("--preset", "crac", KEY, resp)
    assert res.exit_code == 2 and len([x for x in lines_of(res) if ": warning:" not in x]) == 2
    # documents in another order, a sentence without a blank line before it
    first, second = TEXT.split("# newdoc id = story-2")
    swapped = write(tmp_path, "# newdoc id = story-2" + second + first, "swapped.conllu")
    assert lines_of(run(KEY, swapped)) == [
        f"{swapped}:1: warning: the documents are in another order than the key's (document 'story-2' here): "
        "crac2026_empty_nodes_eval.py compares the files sentence by sentence in file order"]
    merged = write(tmp_path, TEXT.replace("1:dep\t_\n\n# sent_id = story-1-2", "1:dep\t_\n# sent_id = story-1-2"),
                   "merged.conllu")
    assert lines_of(run(KEY, merged)) == [
        f"{merged}:11: warning: a '# sent_id' line starts a sentence without a blank line before it: "
        "crac2026_empty_nodes_eval.py reads it as part of the sentence before (every later sentence is then another "
        "one)"]


def test_a_file_without_empty_nodes_has_no_layout_warnings(tmp_path):
    text = FIXTURE.read_text(encoding="utf-8").replace("\n\n", "\n\n\n", 1)
    assert run(FIXTURE, write(tmp_path, text)).exit_code == 0
    assert lines_of(run(FIXTURE, write(tmp_path, text))) == []


def test_what_the_official_scorer_reads_otherwise(tmp_path):
    text = FIXTURE.read_text(encoding="utf-8")
    lines = text.split("\n")
    # a span written twice, in two entities: scorer.pl's rule here, corefud-scorer's under --preset crac
    k = line_no(text, "8\tit")
    lines[k - 1] = lines[k - 1].replace("Entity=(e2-x-1-)", "Entity=(e2-x-1-)(e1-x-1-)")
    twice = write(tmp_path, "\n".join(lines), "twice.conllu")
    found = lines_of(run(FIXTURE, twice))
    assert found == [f"{twice}:{k}: warning: this span is written in entity 'e1' and in 'e2': corefreport scores it as "
                     "scorer.pl v8.01 does, corefud-scorer otherwise (--preset crac does as it does; docs/matching.md "
                     "rule 5)"]
    assert lines_of(run("--preset", "crac", FIXTURE, twice)) == []
    # no '# global.Entity': Udapi stops (an error for a CRAC submission)
    bare = write(tmp_path, text.replace("# global.Entity = eid-etype-head-other\n", ""), "bare.conllu")
    res = run("--preset", "crac", FIXTURE, bare)
    assert res.exit_code == 2
    assert lines_of(res)[0] == (f"{bare}:4: Entity= before any '# global.Entity = …' line: Udapi (corefud-scorer's "
                                "reader) stops on the file; corefreport reads the default eid-etype-head-other")


def test_a_mention_across_sentences(tmp_path):
    text = TEXT.replace("5\t.\t.\tX\t_\t_\t1\tdep\t1:dep\t_\n\n# sent_id = story-1-2",
                        "5\t.\t.\tX\t_\t_\t1\tdep\t1:dep\tEntity=(e9-x-1-\n\n# sent_id = story-1-2", 1)
    text = text.replace("1\tSaid\tsaid\tX\t_\t_\t0\troot\t0:root\t_", "1\tSaid\tsaid\tX\t_\t_\t0\troot\t0:root\tEntity=e9)")
    resp = write(tmp_path, text)
    n = line_no(text, "5\t.\t.\tX\t_\t_\t1\tdep\t1:dep\tEntity=(e9")
    msg = ("a mention of entity 'e9' crosses a sentence boundary: Udapi (corefud-scorer's reader) stops on it "
           "('Cross-sentence mentions not supported')")
    assert f"{resp}:{n}: warning: {msg}" in lines_of(run(KEY, resp))
    assert f"{resp}:{n}: {msg}" in lines_of(run("--preset", "crac", KEY, resp, "--empty-nodes", "same"))


def test_a_submission_folder_against_the_key_folder(tmp_path):
    gold, sub = tmp_path / "gold", tmp_path / "submission"
    gold.mkdir()
    sub.mkdir()
    for name in ("xx_one-corefud-test", "xx_two-corefud-test"):
        (gold / f"{name}.conllu").write_bytes(FIXTURE.read_bytes())
    (sub / "xx_one-corefud-test.conllu").write_bytes(FIXTURE.read_bytes())
    (sub / "notes.conllu").write_bytes(FIXTURE.read_bytes())
    res = run("--preset", "crac", gold, sub)
    assert res.exit_code == 2
    assert lines_of(res) == [
        f"{sub}: no response file for dataset 'xx_two-corefud-test' (key {gold / 'xx_two-corefud-test.conllu'}): "
        "name it xx_two-corefud-test.conllu",
        f"{sub / 'notes.conllu'}: warning: a response file without a key file of the same name: it is not scored"]
    (sub / "xx_two-corefud-test.conllu").write_text(FIXTURE.read_text(encoding="utf-8").replace("\tThe\tThe", "\tA\tThe", 1),
                                                    encoding="utf-8")
    res = run("--preset", "crac", gold, sub, "--no-warnings")
    assert lines_of(res) == [f"{sub / 'xx_two-corefud-test.conllu'}:5: document 'crac', sentence 1, word 1 is 'A' here "
                             f"but 'The' in the key ({gold / 'xx_two-corefud-test.conllu'}:5)"]
    assert "1 error, 1 warning in 2 response files" in res.stderr


def test_usage_errors(tmp_path):
    from conftest import one_error_line

    assert "all files, or all folders" in one_error_line(run(KEY, tmp_path))
    assert "no such file or directory" in one_error_line(run(KEY, tmp_path / "nope.conllu"))
    assert "--empty-nodes takes same or predicted" in one_error_line(run(KEY, KEY, "--empty-nodes", "all"))
    assert "check knows --preset crac only" in one_error_line(run(KEY, KEY, "--preset", "ua"))
    other = write(tmp_path, "#begin document (d); part 000\nd\t0\t0\tx\t(1)\n#end document\n", "r.conll")
    assert "a CRAC submission is CorefUD CoNLL-U" in lines_of(run("--preset", "crac", KEY, other))[0]
