"""text2text-coref's conversion (CRAC 2025/2026 LLM track) as a ceiling: the key through
``conllu2json``/``conllu2text`` and back (io/roundtrip.py, scoring/alignloss.py), and the words a
markup response's alignment did not match (``--alignment-words``, the browser's alignment page).

tests/data/roundtrip: a CorefUD key with 57 discontinuous mentions on random dependency trees
(build.py) and what text2text-coref (ondfa/text2text-coref 56d67ec, udapi 0.5.2) wrote for it —
key.json (``conllu2json -s``) and key.txt (``conllu2text -s``; run_t2t.sh). The program reduces a
discontinuous mention to the part holding its head after Udapi's ``corefud.MoveHead``; corefreport's
round trip must give the same mentions, so the round-trip ceiling is the score of the program's own
output.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from corefreport.io.conllu import read_conllu
from corefreport.io.jsonlines import read_jsonlines
from corefreport.io.markup import MarkupDocument, key_markup, read_onto_key
from corefreport.io.pairs import DocumentPairs
from corefreport.io.roundtrip import losses, round_trip
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.options import settings_from

D = Path(__file__).parent / "data" / "roundtrip"
T2T = Path(__file__).parent / "data" / "text2text"


def spans(doc) -> list[list[tuple[int, int]]]:
    return [[(m.start, m.end) for m in c.mentions] for c in doc.chains]


def test_the_key_is_the_one_built() -> None:
    out = subprocess.run([sys.executable, str(D / "build.py")], capture_output=True, text=True, check=True).stdout
    assert out == (D / "key.conllu").read_text(encoding="utf-8")


def test_conllu2json_read_back_is_the_round_trip() -> None:
    """Every document: the chains of text2text-coref's JSON, read, are the round trip's, in order."""
    key = read_conllu(str(D / "key.conllu"))
    js = read_jsonlines(str(D / "key.json"))
    assert len(key.documents) == len(js.documents) == 24
    for doc in key:
        assert spans(round_trip(doc)) == spans(js.documents[doc.doc_id]), doc.doc_id
    discontinuous = len(re.findall(r"\[1/\d\]-", (D / "key.conllu").read_text(encoding="utf-8")))
    assert discontinuous == 57 == sum(losses(d)["discontinuous_reduced"] for d in key)


def test_the_json_round_trip_ceiling_is_the_score_of_the_programs_json() -> None:
    ev = evaluate(DocumentPairs(str(D / "key.conllu"), str(D / "key.json")), settings_from(), rows=False)
    loss = ev.results["alignment"]
    assert loss.policy == "json" and not loss.markup
    assert loss.reductions == {"discontinuous_reduced": 57, "zeros_dropped": 0}
    for name, f1 in loss.score.items():  # the program's own output scores its ceiling: no model loss
        assert loss.round_trip[name] == pytest.approx(f1, abs=1e-12), name
    cost, model = loss.round_trip_cost("conll")
    assert cost == pytest.approx(100 * (1 - ev.conll)) and cost > 50 and model == pytest.approx(0, abs=1e-9)
    data = ev.as_dict()["alignment"]
    assert data["policy"] == "json" and data["round_trip_cost"] == pytest.approx(cost)
    assert data["reductions"]["discontinuous_reduced"] == 57 and "words" not in data
    # a JSON response without discontinuous mentions in the key: the round trip costs nothing
    ev = evaluate(DocumentPairs(str(T2T / "key.conllu"), str(T2T / "system.json")), settings_from(), rows=False)
    assert ev.results["alignment"].round_trip_cost("conll")[0] == pytest.approx(0, abs=1e-9)


def test_conllu2text_read_back_is_the_key_markup_read_back() -> None:
    """The program's markup and corefreport's (``key_markup``) read back give the same chains (their
    order aside: the program numbers entities met on one word in its set's order)."""
    key = read_conllu(str(D / "key.conllu"))
    lines = (D / "key.txt").read_text(encoding="utf-8").splitlines()
    same_order = 0
    for doc, line in zip(key, lines):
        ours = read_onto_key(MarkupDocument("k", 1, key_markup(doc)), doc, ceiling=False)[0]
        theirs = read_onto_key(MarkupDocument("t", 1, line.split(" ")), doc, ceiling=False)[0]
        assert sorted(map(sorted, spans(ours))) == sorted(map(sorted, spans(theirs))), doc.doc_id
        same_order += spans(ours) == spans(theirs)
    assert same_order == 23


def test_the_markup_split_has_the_round_trip() -> None:
    """The key's own markup as a response: round trip = alignment ceiling = score (nothing aligned
    away, nothing lost by the model), the round trip costing what the format loses."""
    ev = evaluate(DocumentPairs(str(D / "key.conllu"), str(D / "key.txt")), settings_from(), rows=False)
    loss = ev.results["alignment"]
    assert loss.markup and loss.reductions["discontinuous_reduced"] == 57
    cost, model = loss.cost("conll")
    assert cost == pytest.approx(0, abs=1e-9)  # round trip − alignment ceiling: the same words
    assert loss.round_trip_cost("conll")[0] > 50


def test_a_zero_mention_is_dropped_by_the_round_trip(tmp_path: Path) -> None:
    """By hand: entity e1 = {John, he, the empty node 2.1 (a zero)}; the round trip keeps two mentions."""
    f = tmp_path / "k.conllu"
    f.write_text("# global.Entity = eid-etype-head-other\n# newdoc id = d\n# sent_id = 1\n"
                 "1\tJohn\t_\t_\t_\t_\t2\tnsubj\t_\tEntity=(e1--1-)\n"
                 "2\tleft\t_\t_\t_\t_\t0\troot\t_\t_\n"
                 "2.1\t_\t_\t_\t_\t_\t_\t_\t2:nsubj\tEntity=(e1--1-)\n"
                 "3\the\t_\t_\t_\t_\t2\tobj\t_\tEntity=(e1--1-)\n\n", encoding="utf-8")
    doc = read_conllu(str(f)).documents["d"]
    assert len(doc.chains[0].mentions) == 3
    assert spans(round_trip(doc)) == [[(0, 0), (2, 2)]]
    assert losses(doc) == {"discontinuous_reduced": 0, "zeros_dropped": 1}


def perturbed_word_counts() -> dict[str, int]:
    """What tests/data/text2text/perturb.py's "all" did to the key's words, counted from its rules
    (not from corefreport): in each document (a line of key.txt, text2text-coref's markup of
    key.conllu), word k (from 0) is misspelt when k % 29 == 3 (always into another word: first two
    letters swapped, or an 'x' appended), left out when k % 47 == 11, and of the words left only
    the first ``len * 85 // 100`` are kept; the lost closing tags change no word. So a key word the
    response lacks ("inserted") is one left out or cut off, and a substituted word a misspelt one
    that survived both; nothing is added ("deleted" 0)."""
    lines = (T2T / "key.txt").read_text(encoding="utf-8").splitlines()
    words_in_key = [0]
    for line in (T2T / "key.conllu").read_text(encoding="utf-8").splitlines():  # the key's words, per document
        if line.startswith("# newdoc"):
            words_in_key.append(0)
        elif line.split("\t")[0].isdigit():
            words_in_key[-1] += 1
    assert [len(line.split()) for line in lines] == words_in_key[1:]  # one markup word per key word
    substituted = inserted = 0
    for line in lines:
        n = len(line.split())
        left = [k for k in range(n) if k % 47 != 11]
        left = left[: len(left) * 85 // 100]
        substituted += sum(1 for k in left if k % 29 == 3)
        inserted += n - len(left)
    return {"substituted": substituted, "inserted": inserted, "deleted": 0}


def test_the_perturbed_response_is_perturb_py_on_the_key_markup() -> None:
    """all.txt is what perturb.py's rules make of key.txt, so the counts above are its changes."""
    done = subprocess.run([sys.executable, str(T2T / "perturb.py"), "all"], input=(T2T / "key.txt").read_text(
        encoding="utf-8"), capture_output=True, text=True, check=True, encoding="utf-8")
    assert done.stdout == (T2T / "all.txt").read_text(encoding="utf-8")
    assert perturbed_word_counts() == {"substituted": 56, "inserted": 334, "deleted": 0}


def test_alignment_words_file_lists_what_the_counts_count(tmp_path: Path) -> None:
    out = tmp_path / "words.jsonl"
    done = subprocess.run([sys.executable, "-m", "corefreport", "score", str(T2T / "key.conllu"), str(T2T / "all.txt"),
                           "-q", "--alignment-words", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    counts = {w: sum(1 for r in rows if r["what"] == w) for w in ("substituted", "inserted", "deleted")}
    assert counts == {"substituted": 56, "inserted": 334, "deleted": 0}  # the diagnostics' counts (all.txt)
    assert counts == perturbed_word_counts()  # = perturb.py's rules counted on key.txt
    assert rows[0] == {"document": "GUM_news_homeopathic", "what": "substituted", "key_word_number": 3,
                       "key_word": "homeopathic", "response_word_number": 3, "response_word": "ohmeopathic"}
    key = read_conllu(str(T2T / "key.conllu"))
    for r in rows:  # each names the key's word at its number
        if r["key_word_number"] >= 0:
            assert key.documents[r["document"]].tokens[r["key_word_number"]] == r["key_word"]
    csv = tmp_path / "words.csv"
    subprocess.run([sys.executable, "-m", "corefreport", "score", str(T2T / "key.conllu"), str(T2T / "all.txt"), "-q",
                    "--alignment-words", str(csv)], capture_output=True, check=True)
    assert csv.read_text(encoding="utf-8").splitlines()[0] == ("document,what,key_word_number,key_word,"
                                                               "response_word_number,response_word")
    bad = subprocess.run([sys.executable, "-m", "corefreport", "score", str(T2T / "key.conllu"),
                          str(T2T / "all.conllu"), "-q", "--alignment-words", str(tmp_path / "x.jsonl")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "RESPONSE is not markup" in bad.stderr


def test_the_browser_lists_the_words_on_enter() -> None:
    from corefreport.tui import model as M
    from corefreport.tui.app import CorefApp

    ev = evaluate(DocumentPairs(str(T2T / "key.conllu"), str(T2T / "all.txt")),
                  settings_from(metrics="muc,bcub,ceafe"), rows=True)
    rows = M.alignment_rows(ev)
    assert [r.label.strip() for r in rows] == ["markup round trip", "alignment ceiling"]
    assert rows[1].target == ("alignment", "")
    view = M.alignment_view(ev)
    assert len(view) == 390 == sum(perturbed_word_counts().values())
    assert view.rows(0, 1)[0] == ("GUM_news_homeopathic", "substituted", "3", "homeopathic", "3", "ohmeopathic")

    async def drive():
        app = CorefApp(ev)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.pause()
            b = app.browser
            i = next(i for i, it in enumerate(b.page.view.items) if it.target == ("alignment", ""))
            b.table.move_cursor(row=i)
            await pilot.press("enter")
            await pilot.pause()
            return b.page.name, len(b.page.view)

    assert asyncio.run(drive()) == ("alignment", 390)
