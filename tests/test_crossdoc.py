"""Cross-document coreference (issue 28): ``--cross-document`` against neleval ``--cross-doc`` and the
reference scorer v8.01 on the concatenated documents (tests/data/crossdoc/expected.json: inputs,
commands and printed numbers), per topic as well; the warning when labels look global."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from corefreport.errors import InputError
from corefreport.io import load_corpus
from corefreport.io.pairs import DocumentPairs
from corefreport.scoring.crossdoc import Topics, boundaries, label_trace, repeated_labels_warning
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings
from conftest import load_script

HERE = Path(__file__).parent
D = HERE / "data" / "crossdoc"
EXPECTED = json.loads((D / "expected.json").read_text())
METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc")


def score(**kw):
    return evaluate(DocumentPairs(str(D / "key.conll"), str(D / "response.conll")),
                    settings=Settings(metrics=METRICS, **kw), rows=False)


def nums(c) -> list[float]:
    return [c.recall_num, c.recall_den, c.precision_num, c.precision_den]


def close(a, b, tol=1e-9):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@pytest.mark.parametrize("mode,kw", [
    ("corpus", dict(cross_document=Topics())),
    ("topics", dict(cross_document=Topics(r"^(\d+)_"))),
    ("within_documents", {}),
])
def test_the_reference_scorer_on_the_concatenation(mode, kw):
    ev = score(**kw)
    for m, want in EXPECTED[mode]["scorer.pl"].items():
        if m == "blanc_f1":
            assert round(100 * ev.metrics["blanc"].f1, 2) == want
            continue
        assert close(nums(ev.metrics[m]), want, 1e-9 if m == "muc" else 5e-14), m


def test_neleval_cross_doc_corpus():
    ev = score(cross_document=Topics())
    names = {"muc": "muc", "b_cubed": "bcub", "entity_ceaf": "ceafe", "mention_ceaf": "ceafm"}
    for theirs, ours in names.items():
        want = EXPECTED["corpus"]["neleval"][theirs]
        c = ev.metrics[ours]
        got = [c.precision_num, c.precision_den - c.precision_num, c.recall_num, c.recall_den - c.recall_num]
        assert close(got, [want["ptp"], want["fp"], want["rtp"], want["fn"]], 5e-4), theirs
        assert round(c.f1, 3) == want["fscore"]


def test_neleval_per_topic_summed_is_the_topics_score():
    ev = score(cross_document=Topics(r"^(\d+)_"))
    per = EXPECTED["topics"]["neleval"]
    names = {"muc": "muc", "b_cubed": "bcub", "entity_ceaf": "ceafe", "mention_ceaf": "ceafm"}
    for theirs, ours in names.items():
        ptp, fp, rtp, fn = (sum(per[t][theirs][i] for t in ("1", "2")) for i in range(4))
        c = ev.metrics[ours]
        assert close([c.precision_num, c.precision_den, c.recall_num, c.recall_den], [ptp, ptp + fp, rtp, rtp + fn],
                     1e-3), theirs
    # each topic is a document of the evaluation: its counts are neleval's for that topic alone
    by_id = {d.doc_id: d for d in ev.documents}
    assert sorted(by_id) == ["1", "2"]
    assert nums(by_id["2"].metrics["muc"]) == [3, 5, 3, 4]


def test_within_documents_is_neleval_without_cross_doc():
    ev = score()
    want = EXPECTED["within_documents"]["neleval"]["muc"]
    c = ev.metrics["muc"]
    assert [c.precision_num, c.precision_den - c.precision_num, c.recall_num, c.recall_den - c.recall_num] == want


def test_a_topics_file_gives_what_the_pattern_gives(tmp_path):
    tsv = tmp_path / "topics.tsv"
    tsv.write_text("# doc\ttopic\n1_1ecb\tA\n1_2ecb\tA\n2_1ecb\tB\n(2_2ecbplus); part 000\tB\n")
    from corefreport.study.groupsources import read_groups

    a = score(cross_document=Topics(mapping=tuple(read_groups(str(tsv)).items())))
    b = score(cross_document=Topics(r"^(\d+)_"))
    assert [nums(a.metrics[m]) for m in ("muc", "bcub", "ceafe")] == [nums(b.metrics[m]) for m in ("muc", "bcub", "ceafe")]
    assert a.signature.get("topics").startswith("tsv#") and b.signature.get("topics") == r"re=^(\d+)_"
    assert a.signature.get("xdoc") == "topics"


def test_the_concatenation_keeps_the_documents_and_changes_no_corpus():
    key = load_corpus(str(D / "key.conll"), key=True)
    response = load_corpus(str(D / "response.conll"))
    before = [(d.doc_id, [(c.label, [m.span for m in c]) for c in d.chains]) for d in key]
    ev = evaluate(key, response, Settings(metrics=("muc",), cross_document=Topics()))
    assert [(d.doc_id, [(c.label, [m.span for m in c]) for c in d.chains]) for d in key] == before
    merged = ev.key_corpus.documents["corpus"]
    assert [b[0] for b in boundaries(merged)] == [d.doc_id for d in key]
    assert [(b[1], b[2]) for b in boundaries(merged)] == [(0, 8), (9, 18), (19, 27), (28, 35)]
    obama = next(c for c in merged.chains if c.label == "100")
    assert [m.span for m in obama] == [(0, 0), (5, 5), (9, 10), (17, 17)]


def test_a_missing_response_document_is_its_words_without_mentions(tmp_path):
    text = (D / "response.conll").read_text()
    cut = text.index("#begin document (1_2ecb)")
    end = text.index("#end document", cut) + len("#end document\n")
    (tmp_path / "r.conll").write_text(text[:cut] + text[end:])
    ev = evaluate(DocumentPairs(str(D / "key.conll"), str(tmp_path / "r.conll")),
                  settings=Settings(metrics=("muc",), cross_document=Topics()), rows=False)
    # the response's chains: 1 {Obama, He} 3 {Paris} 4 {Macron, Ten} … — recall loses 1_2ecb's links
    assert ev.metrics["muc"].recall_den == 11 and ev.metrics["muc"].recall_num < 8
    assert any("1_2ecb" in w for w in ev.warnings)  # a missing document is still named


def test_no_warning_under_cross_document_and_one_without():
    assert not [w for w in score(cross_document=Topics()).warnings if "look global" in w]
    warned = [w for w in score().warnings if "look global" in w]
    assert len(warned) == 1 and "'400' names 'Macron'" in warned[0] and "--cross-document" in warned[0]


@pytest.mark.parametrize("path", ["gum/derived/conll2012/gum.conll", "gum/derived/conll2012/ontogum.conll",
                                  "litbank/coref/conll", "xrenner/conll2012/ml-ontonotes.conll"])
def test_labels_numbered_per_document_do_not_warn(path):
    full = HERE.parent.parent / "shared" / "data" / path
    if not full.exists():
        pytest.skip("shared data not here")
    corpus = load_corpus(str(full), key=True)
    traces = [label_trace(d) for d in corpus]
    assert sum(1 for _, chains in traces for _ in chains) > 100
    assert repeated_labels_warning(traces) is None


def test_settings_and_command_line_errors():
    from corefreport.errors import SettingsError

    with pytest.raises(SettingsError, match="pattern or a TSV file"):
        Settings(cross_document=Topics("x", (("a", "b"),)))
    with pytest.raises(SettingsError, match="not a regular expression"):
        Settings(cross_document=Topics("("))
    r = subprocess.run([sys.executable, "-m", "corefreport", "score", str(D / "key.conll"), str(D / "response.conll"),
                        "--topic-from", "x"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.startswith("corefreport: error: --topic-from") and "Traceback" not in r.stderr


def test_command_line_per_topic_json():
    r = subprocess.run([sys.executable, "-m", "corefreport", "score", str(D / "key.conll"), str(D / "response.conll"),
                        "--cross-document", "--topic-from", r"^(\d+)_", "-m", "muc,bcub,ceafe", "-f", "json"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["settings"]["cross_document"]["mode"] == "topics"
    assert round(out["metrics"]["muc"]["precision"], 6) == 0.8
    assert "xdoc:topics" in out["signature"]


def test_the_decoupled_protocol_in_one_run():
    """Cattan et al. (2021): coreference as scorer.pl scores the topics without singletons, mention
    detection as it scores them with singletons; plain --drop-singletons gives the other mentions row."""
    want = EXPECTED["decoupled"]
    topics = Topics(r"^(\d+)_")
    ev = score(cross_document=topics, singletons="drop", mention_singletons="keep")
    for m in ("muc", "bcub", "ceafe"):
        assert close(nums(ev.metrics[m]), want["scorer.pl"][m], 5e-14), m
    assert nums(ev.mentions) == want["mentions_with_singletons"]
    assert sum(d.mentions.recall_den for d in ev.documents) == 22
    assert nums(score(cross_document=topics, singletons="drop").mentions) == want["mentions_without_singletons"]
    assert ev.signature.get("mentions") == "with-singletons"
    r = subprocess.run([sys.executable, "-m", "corefreport", "score", str(D / "key.conll"), str(D / "response.conll"),
                        "--cross-document", "--topic-from", r"^(\d+)_", "--decoupled", "-m", "muc,bcub,ceafe",
                        "-f", "json"], capture_output=True, text=True)
    out = json.loads(r.stdout)
    assert out["settings"]["singletons"] == "drop" and out["settings"]["mention_singletons"] == "keep"
    assert out["mentions"]["recall"] == 1.0 and round(out["metrics"]["ceafe"]["precision"], 6) == round(5.46666666666667 / 6, 6)
    r = subprocess.run([sys.executable, "-m", "corefreport", "score", str(D / "key.conll"), str(D / "response.conll"),
                        "--decoupled", "--keep-singletons"], capture_output=True, text=True)
    assert r.returncode == 2 and "--decoupled" in r.stderr and "Traceback" not in r.stderr


RANDOM = D / "random"


def test_random_pairs_agree_with_the_reference_scorer_on_the_concatenations(tmp_path):
    """100 random pairs (tests/data/crossdoc/random: labels shared across documents and topics, 15 %
    of response documents left out), each scored by scorer.pl v8.01 on the concatenation of the whole
    corpus and on one document per topic: --cross-document and --topic-from give every numerator and
    denominator of MUC, B³ and CEAF-e (98 pairs; in 2 every response document is left out, which
    stays the error it is without the flag)."""
    import hashlib

    mod = load_script(RANDOM / "make_pairs.py", "make_pairs")
    expected = json.loads((RANDOM / "expected.json").read_text())
    modes = {"corpus": Topics(), "topics": Topics(r"^(\d+)_")}
    agree = {m: 0 for m in modes}
    empty = 0
    for seed, want in expected["pairs"].items():
        d = tmp_path / seed
        d.mkdir()
        for name, lines in mod.pair(int(seed)).items():
            (d / f"{name}.conll").write_text("".join(lines))
            assert hashlib.sha256((d / f"{name}.conll").read_bytes()).hexdigest() == want["sha256"][f"{name}.conll"]
        if "#begin" not in (d / "R.conll").read_text():  # every response document left out: an error, as ever
            with pytest.raises(InputError, match="holds no document"):
                evaluate(DocumentPairs(str(d / "K.conll"), str(d / "R.conll")),
                         settings=Settings(cross_document=Topics()), rows=False)
            empty += 1
            continue
        for mode, topics in modes.items():
            ev = evaluate(DocumentPairs(str(d / "K.conll"), str(d / "R.conll")),
                          settings=Settings(metrics=("muc", "bcub", "ceafe"), cross_document=topics), rows=False)
            got = {m: nums(ev.metrics[m]) for m in ("muc", "bcub", "ceafe")}
            assert all(close(got[m], want[mode][m], 1e-9) for m in got), (seed, mode, got, want[mode])
            agree[mode] += 1
    assert empty == 2 and agree == {"corpus": 98, "topics": 98}


def _own_labels(src: Path, dst: Path) -> None:
    """A CorefUD file whose entity ids are made distinct per document (``e1`` of document k → ``e1xk``)."""
    import re

    out, k = [], 0
    for line in src.read_text().splitlines(keepends=True):
        if line.startswith("# newdoc"):
            k += 1
        if not line.startswith("#") and "Entity=" in line:
            cols = line.split("\t")

            def fix(m, k=k):
                v = re.sub(r"\(([A-Za-z]\w*)", lambda x: f"({x.group(1)}x{k}", m.group(0))
                return re.sub(r"(?<=[=)])([A-Za-z]\w*)\)", lambda x: f"{x.group(1)}x{k})", v)

            cols[9] = re.sub(r"Entity=[^|\n]*", fix, cols[9])
            line = "\t".join(cols)
        out.append(line)
    dst.write_text("".join(out))


@pytest.mark.parametrize("match", ["exact", "head", "partial"])
def test_documents_with_their_own_labels_score_the_same_concatenated(tmp_path, corefud_gum_pairs, match):
    """GUM CorefUD (5 documents, zeros, heads) under --preset crac: with entity ids distinct per
    document, the concatenation of every document (heads, head columns and zeros shifted) scores
    what the documents score apart — MUC, B³, CEAF, LEA and mentions."""
    from dataclasses import replace

    from corefreport.scoring.options import settings_from

    key, resp = tmp_path / "k.conllu", tmp_path / "r.conllu"
    _own_labels(corefud_gum_pairs / "key.conllu", key)
    _own_labels(corefud_gum_pairs / "response-xrenner.conllu", resp)
    s = replace(settings_from(preset="crac", match=match), metrics=("muc", "bcub", "ceafe", "ceafm", "lea"))
    apart = evaluate(DocumentPairs(str(key), str(resp)), settings=s, rows=False)
    together = evaluate(DocumentPairs(str(key), str(resp)), settings=replace(s, cross_document=Topics()), rows=False)
    assert [d.doc_id for d in together.documents] == ["corpus"] and len(apart.documents) == 5
    for m in s.metrics:
        assert close(nums(apart.metrics[m]), nums(together.metrics[m]), 1e-9), m
    assert nums(apart.mentions) == nums(together.mentions)
    original = evaluate(DocumentPairs(str(corefud_gum_pairs / "key.conllu"),
                                      str(corefud_gum_pairs / "response-xrenner.conllu")), settings=s, rows=False)
    assert nums(original.metrics["muc"]) == nums(apart.metrics["muc"])  # relabelling changed nothing apart


def test_scico_topics_score_as_scicos_evaluation():
    """SciCo's topics (JSON lines: paragraphs, doc_ids, [paragraph, start, end, cluster]) read as one
    document each: with singletons dropped, the numbers SciCo's evaluate.eval_coref prints (its CoNLL
    writer and bundled coval, keep_singletons=False; tests/data/scico/expected.json)."""
    S = HERE / "data" / "scico"
    want = json.loads((S / "expected.json").read_text())["recall_precision_f1"]
    ev = evaluate(DocumentPairs(str(S / "gold.jsonl"), str(S / "system.jsonl")),
                  settings=Settings(metrics=("muc", "bcub", "ceafe", "lea"), singletons="drop"), rows=False)
    for m, (r, p, f) in want.items():
        c = ev.mentions if m == "mentions" else ev.metrics[m]
        assert close([c.recall, c.precision, c.f1], [r, p, f], 1e-12), m
    key = load_corpus(str(S / "gold.jsonl"), key=True)
    topic = key.documents["7"]
    assert [b[0] for b in boundaries(topic)] == ["p1", "p2", "p3"] and topic.sentence_starts == [0, 7, 13]
    assert [[m.span for m in c] for c in topic.chains] == [[(2, 2), (17, 17)], [(4, 5), (7, 8), (19, 19)],
                                                            [(10, 10), (14, 15)]]


def test_a_bad_scico_mention_is_one_error_line(tmp_path):
    obj = json.loads((HERE / "data" / "scico" / "gold.jsonl").read_text().splitlines()[0])
    obj["mentions"][2] = [1, 0, 9, 2]
    (tmp_path / "bad.jsonl").write_text(json.dumps(obj) + "\n")
    r = subprocess.run([sys.executable, "-m", "corefreport", "score", str(tmp_path / "bad.jsonl"),
                        str(tmp_path / "bad.jsonl")], capture_output=True, text=True)
    assert r.returncode == 2 and "bad.jsonl:1: SciCo topic 7: a mention is [paragraph, start, end, cluster]" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_topics_file_error_speaks_of_topics_and_quotes_the_line_as_written(tmp_path):
    """``--topic-from FILE`` reads the groups file format with its own words ("the topics file",
    ``DOC_ID<TAB>TOPIC``), and the line quoted in the message is the line as written (a document
    named ``GROUP_1`` stays ``GROUP_1``; the message was once rewritten word for word)."""
    from corefreport.errors import InputError
    from corefreport.study.groupsources import read_groups

    bad = tmp_path / "topics.tsv"
    bad.write_text("GROUP_1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"a line is DOC_ID<TAB>TOPIC, got 1 field\(s\): 'GROUP_1'"):
        read_groups(str(bad), "topic")
    with pytest.raises(InputError, match=r"a line is DOC_ID<TAB>GROUP, got 1 field\(s\): 'GROUP_1'"):
        read_groups(str(bad))
    r = subprocess.run([sys.executable, "-m", "corefreport", "score", str(D / "key.conll"), str(D / "response.conll"),
                        "--cross-document", "--topic-from", str(bad)], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [f"corefreport: error: {bad}:1: a line is DOC_ID<TAB>TOPIC, got 1 "
                                             "field(s): 'GROUP_1' (--topic-from)"]
    (tmp_path / "empty.tsv").write_text("# only a comment\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"the topics file names no document \(lines DOC_ID<TAB>TOPIC\)"):
        read_groups(str(tmp_path / "empty.tsv"), "topic")
