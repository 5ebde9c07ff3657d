"""uCDCR's mention JSON (Zhukova et al. 2026, arXiv 2603.00621) read as documents, scored across
documents per corpus, topic and subtopic and per mention kind (entity, event), against neleval
``--cross-doc`` (wikilinks/neleval 68f6841 with its numpy pull request #46 applied) on the corpus of
tests/data/ucdcr (build.py writes it in uCDCR's format and the same chains as CoNLL-2012 files;
run_neleval.py ran neleval on each group: neleval.json)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from corefreport.errors import InputError
from corefreport.io import load_corpus
from corefreport.io.pairs import DocumentPairs
from corefreport.io.ucdcr import read_ucdcr
from corefreport.scoring.crossdoc import Topics
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.settings import Settings

D = Path(__file__).parent / "data" / "ucdcr"
NELEVAL = json.loads((D / "neleval.json").read_text(encoding="utf-8"))
NAMES = {"muc": "muc", "b_cubed": "bcub", "entity_ceaf": "ceafe", "mention_ceaf": "ceafm"}


def score(**kw):
    return evaluate(DocumentPairs(str(D / "key"), str(D / "response")),
                    settings=Settings(metrics=("muc", "bcub", "ceafe", "ceafm"), **kw), rows=False)


def theirs(*groups: str) -> dict[str, list[float]]:
    """neleval's (ptp, ptp + fp, rtp, rtp + fn) of each metric, summed over ``groups``."""
    out = {}
    for name, ours in NAMES.items():
        ptp, fp, rtp, fn = (sum(NELEVAL["groups"][g][name][i] for g in groups) for i in range(4))
        out[ours] = [ptp, ptp + fp, rtp, rtp + fn]
    return out


def counts(metrics: dict) -> dict[str, list[float]]:
    return {m: [c.precision_num, c.precision_den, c.recall_num, c.recall_den] for m, c in metrics.items()}


def close(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(abs(x - y) < 1e-3 for k in a for x, y in zip(a[k], b[k]))  # neleval: %.3f


def test_the_files_are_those_built(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(D / "build.py"), str(tmp_path)], check=True)
    for f in tmp_path.rglob("*.*"):
        assert f.read_bytes() == (D / f.relative_to(tmp_path)).read_bytes(), f


def test_the_documents_as_read() -> None:
    key = load_corpus(str(D / "key"), key=True)
    assert list(key.documents) == ["1/1ecb/1_a", "1/1ecb/1_b", "1/1ecbplus/1_c", "2/2ecb/2_d", "2/2ecb/2_e"]
    doc = key.documents["1/1ecb/1_a"]  # entity_mentions.json and event_mentions.json joined
    assert " ".join(doc.tokens) == ("The navy captured pirates near Aden . They were about to board a ship . The "
                                    "pirates came from Somalia . Officials praised the navy .")
    assert doc.sentence_starts == [0, 7, 15, 21]
    assert doc.meta["topic"] == "1" and doc.meta["subtopic"] == "1/1ecb"
    chains = {c.label: [(m.start, m.end, m.features["kind"], m.features["etype"]) for m in c.mentions]
              for c in doc.chains}
    assert chains["HUM1"] == [(3, 3, "entity", "HUM"), (7, 7, "entity", "HUM"), (15, 16, "entity", "HUM")]
    assert chains["ACT3"] == [(11, 11, "event", "ACT")]
    assert sum(len(c.mentions) for d in key for c in d.chains) == 32


def test_neleval_cross_doc_over_the_corpus() -> None:
    ev = score(cross_document=Topics())
    assert close(counts(ev.metrics), theirs("all"))
    assert [d.doc_id for d in ev.documents] == ["corpus"]


@pytest.mark.parametrize("field,groups", [
    ("topic", ("topic-1", "topic-2")),
    ("subtopic", ("subtopic-1-1ecb", "subtopic-1-1ecbplus", "subtopic-2-2ecb")),
])
def test_neleval_per_topic_and_per_subtopic(field: str, groups: tuple[str, ...]) -> None:
    ev = score(cross_document=Topics(field=field))
    assert close(counts(ev.metrics), theirs(*groups))  # micro over the topics: their counts summed
    by_id = {d.doc_id: d for d in ev.documents}
    assert len(by_id) == len(groups)
    for group in groups:  # each topic is a document of the evaluation, with neleval's counts for it alone
        name = group.split("-", 1)[1].replace("-", "/")
        assert close(counts(by_id[name].metrics), theirs(group)), group
    assert ev.signature.get("topics") == f"meta={field}"
    # the topics of a pattern on the ids (conll_doc_key = topic/subtopic/doc) are the same
    pattern = r"^([^/]+)/" if field == "topic" else r"^([^/]+/[^/]+)/"
    assert counts(score(cross_document=Topics(pattern)).metrics) == counts(ev.metrics)


def test_neleval_per_mention_kind() -> None:
    ev = score(cross_document=Topics(), strata=("feature:kind",))
    strata = ev.strata["feature:kind"].strata
    assert list(strata) == ["entity", "event"]
    for kind in strata:
        assert close(counts(strata[kind].metrics), theirs(f"kind-{kind}")), kind
    # the response chain of "They" (an entity) and two events is an event chain
    assert (strata["entity"].response_chains, strata["event"].response_chains) == (12, 7)


def test_the_command_line() -> None:
    done = subprocess.run([sys.executable, "-m", "corefreport", "score", str(D / "key"), str(D / "response"), "-m",
                           "muc", "--cross-document", "--topic-from", "meta:subtopic", "-f", "json"],
                          capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    muc = out["metrics"]["muc"]
    want = theirs("subtopic-1-1ecb", "subtopic-1-1ecbplus", "subtopic-2-2ecb")["muc"]
    assert [muc["precision_num"], muc["precision_den"], muc["recall_num"], muc["recall_den"]] == want
    assert out["settings"]["cross_document"]["topic_field"] == "subtopic"


def test_a_document_without_the_field_is_its_own_topic(tmp_path: Path) -> None:
    ev = evaluate(DocumentPairs(str(D / "key" / "entity_mentions.json"), str(D / "response" / "entity_mentions.json")),
                  settings=Settings(metrics=("muc",), cross_document=Topics(field="genre")), rows=False)
    assert len(ev.documents) == 5
    assert any("--topic-from: the file gives no 'genre' to 5 key document(s)" in w for w in ev.warnings)


def test_bad_mentions_are_named(tmp_path: Path) -> None:
    good = json.loads((D / "key" / "entity_mentions.json").read_text(encoding="utf-8"))
    bad = [dict(good[0]), dict(good[1], context_start_end_global_id=[0, 3])]
    with pytest.raises(InputError, match=r"x_entity.json:2: 'context_start_end_global_id' must be the context's first "
                                         r"and last word in the document \(15 words\), got \[0, 3\]"):
        read_ucdcr("x_entity.json", bad, key=True)
    clash = [dict(good[0]), dict(good[1], mention_context=["A"] + good[1]["mention_context"][1:])]
    with pytest.raises(InputError, match=r"x.json:2: document '1/1ecb/1_a': word 0 is 'A' in this mention's context "
                                         r"but 'The' in an earlier one"):
        read_ucdcr("x.json", clash, key=True)
    out = [dict(good[0], tokens_number_context=[99])]
    with pytest.raises(InputError, match=r"x.json:1: 'tokens_number_context' must be word numbers within"):
        read_ucdcr("x.json", out, key=True)


def test_a_response_predicting_some_mentions_only_is_refused(tmp_path: Path) -> None:
    """A response whose mentions give ``predicted_coref_chain`` for some and not all would
    otherwise be read by its gold ``coref_chain`` (a perfect score): refused, naming the first
    mention without (as the WEC reader does); every mention predicted is read by that field."""
    good = json.loads((D / "response" / "entity_mentions.json").read_text(encoding="utf-8"))
    half = [dict(m, predicted_coref_chain="P" if i else None) for i, m in enumerate(good)]
    with pytest.raises(InputError, match=r"x_entity.json:1: this mention has no 'predicted_coref_chain' where others "
                                         r"have one"):
        read_ucdcr("x_entity.json", half)
    read_ucdcr("x_entity.json", half, key=True)  # a key is read by coref_chain
    one = read_ucdcr("x_entity.json", [dict(m, predicted_coref_chain="P") for m in good])
    assert [c.label for d in one.documents.values() for c in d.chains] == ["P"] * len(one.documents)
    (tmp_path / "entity_mentions.json").write_text(json.dumps(half), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "corefreport", "score", str(D / "key" / "entity_mentions.json"),
                           str(tmp_path / "entity_mentions.json")], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "entity_mentions.json:1: this mention has no 'predicted_coref_chain'" in proc.stderr
