"""The Universal Anaphora layers in the browser: the outcome rows the scoring gives per bridging
pair and per non-referring markable (counted, they are the scores), and the TUI's view models over
them (tui/layermodel.py) on tests/data/ua_tui (a one-document key and response written by hand to
hold every outcome: see the expectations below, derived from the files by reading them).
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest

from corefreport.io import load_corpus
from corefreport.io.ua import read_ua
from corefreport.scoring.bridging import bridging_counts, pair_outcomes
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.nonref import nonref_counts, nonref_outcomes
from corefreport.scoring.options import settings_from
from corefreport.scoring.settings import Signature
from corefreport.tui import layermodel as L
from corefreport.tui import model as M
from conftest import load_script

DATA = Path(__file__).parent / "data"
KEY, RESPONSE = DATA / "ua_tui" / "key.ua", DATA / "ua_tui" / "response.ua"
EVERY_LAYER = "muc,bcub,ceafe,nonref,bridging,dd"


@lru_cache(maxsize=None)
def scored(metrics: str = EVERY_LAYER, preset: str | None = None):
    s = settings_from(preset=preset) if preset else settings_from(metrics=metrics)
    ev = evaluate(load_corpus(str(KEY)), load_corpus(str(RESPONSE)), s)
    return replace(ev, signature=Signature(tuple((k, "X" if k == "version" else v) for k, v in ev.signature.fields)))


def docs():
    return load_corpus(str(KEY)).documents["house"], load_corpus(str(RESPONSE)).documents["house"]


# --------------------------------------------------------------------------- the outcome rows


def test_bridging_outcomes_of_the_small_file() -> None:
    """Key pairs (anaphor → anchor): a red door → The house, the owner → The house, Its windows →
    The house, the roof → Its, the neighbour → The house. The response: the same first and fourth,
    the owner → Its (Its is entity 1, as The house), Its windows → a red door (entity 2), none on the
    neighbour, a pity → Its (no key pair), and m13 → ghost_1 (skipped: not in IDENTITY)."""
    k, s = docs()
    rows = pair_outcomes(k, s)
    words = [(k.text(*r.anaphor), r.outcome, r.key_rel or r.response_rel) for r in rows]
    assert words == [("a red door", "matched", "part-of"), ("the owner", "same entity", "poss"),
                     ("Its windows", "wrong anchor", "part-of"), ("the roof", "matched", "part-of"),
                     ("the neighbour", "missed", "other"), ("a pity", "spurious", "other")]
    # |K| = 5 key pairs, |S| = 5 response pairs (the skipped one is none); AR 4, FB-m 2, FB-e 3
    ar, fbm, fbe = bridging_counts(k, s)
    assert (ar.recall_num, ar.recall_den, ar.precision_den) == (4, 5, 5)
    assert (fbm.recall_num, fbe.recall_num) == (2, 3)
    # entity level without singletons: Its and The house stay one entity (two mentions)
    assert [r.outcome for r in pair_outcomes(k, s, drop_singletons=True)][1] == "same entity"
    assert pair_outcomes(k, None)[0].outcome == "missed" and len(pair_outcomes(k, None)) == 5


def test_nonref_outcomes_of_the_small_file() -> None:
    """Key: It (rained) and It (is a pity) non-referring; the response: the first It and 'bad'."""
    k, s = docs()
    rows = nonref_outcomes(k, s)
    assert [(k.text(*r.span), r.outcome, r.entity) for r in rows] == [
        ("It", "found", "3-Pseudo"), ("It", "missed", "8-Pseudo"), ("bad", "spurious", "12-Pseudo")]
    c = nonref_counts(k, s)
    assert (c.recall_num, c.recall_den, c.precision_num, c.precision_den) == (1, 2, 1, 2)


def _perturb():
    return load_script(DATA / "ua_layers" / "perturb_layers.py", "ua_perturb_layers")


def test_outcome_rows_count_to_v1s_numbers_on_light_dev() -> None:
    """LIGHT dev against its br_mixed perturbation: UA scorer v1 printed FB-m 75.47 / 57.25
    (tests/data/ua_layers/v1_printed.json; 320/424 and 320/559 in tests/test_ua_layers.py): the
    pair rows, summed over documents, are those counts."""
    p = _perturb()
    key = read_ua("light.key", p.key("light_dev"))
    resp = read_ua("light.br_mixed", p.perturb(p.key("light_dev"), "br_mixed"))
    ev = evaluate(key, resp, settings_from(preset="codicrac22br"))
    items = L.bridging_items(ev)
    n = {o: sum(1 for it in items if it.row.outcome == o) for o in ("matched", "same entity", "wrong anchor",
                                                                     "missed", "spurious")}
    assert n["matched"] == 320 and len(items) - n["spurious"] == 424 and len(items) - n["missed"] == 559
    ar = ev.metrics["bridging_ar"]
    assert n["matched"] + n["same entity"] + n["wrong anchor"] == ar.recall_num
    assert n["matched"] + n["same entity"] == ev.metrics["bridging_fbe"].recall_num
    assert "%.2f" % (ev.metrics["bridging_fbm"].recall * 100) == "75.47"
    skipped = L.skipped_items(ev)
    assert skipped and all(it.side == "response" for it in skipped)
    warned = sum(int(m.group(1)) for w in ev.warnings for m in [re.search(r"(\d+) response bridging pair", w)] if m)
    assert len(skipped) == warned


# --------------------------------------------------------------------------- the views


def test_totals_have_dd_conll_and_a_row_per_layer() -> None:
    ev = scored()
    rows = M.total_rows(ev, L.layer_total_rows(ev))
    by = {r.label: r for r in rows}
    assert by["DD CoNLL"].f1 == ev.dd_conll and by["DD CoNLL"].target == ("metric", "dd_conll")
    assert "%.2f" % (ev.dd_conll * 100) == "21.37"
    assert [r.label for r in rows if r.target and r.target[0] == "layer"] == [
        "bridging pairs", "skipped bridging pairs", "non-referring", "DD chains"]
    assert by["bridging pairs"].counts == "matched 2 same entity 1 wrong anchor 1 missed 1 spurious 1"
    assert by["non-referring"].counts == "found 1 missed 1 spurious 1"
    plain = M.totals_view(ev, 80, L.layer_total_rows(ev)).plain(full=False)
    assert ["bridging pairs ›", "", "", "", "ok2 ent1 wrong1 FN1 FP1"] in plain
    # every column sorts, both ways; DD CoNLL (R and P empty) last by R, by its F1 by F1
    view = M.totals_view(ev, 80, L.layer_total_rows(ev))
    for col in range(len(view.columns)):
        for rev in (False, True):
            assert len(M.sort_view(view, col, rev).items) == len(view.items)
    by_f1 = [r.label for r in M.sort_view(view, 3).items]
    assert by_f1.index("DD MUC") < by_f1.index("DD CoNLL") < by_f1.index("DD CEAF-e")  # 0 < 21.37 < 33.33
    assert M.sort_view(view, 1).items[-1].recall is None


def test_documents_by_dd_conll() -> None:
    """Enter on DD CoNLL: the documents by their DD CoNLL (a column of its own, sortable)."""
    ev = scored()
    assert "dd_conll" in M.document_sorts(ev)
    view = M.document_view(ev, "dd_conll")
    assert "DD CoNLL" in view.columns and view.plain()[0][view.columns.index("DD CoNLL")] == "21.37"
    assert M.document_column_sorts(ev, view)[view.columns.index("DD CoNLL")] == "dd_conll"


def test_bridging_page() -> None:
    ev = scored()
    view = L.layer_view(ev, "bridging", 120)
    assert view.plain()[1] == ["same entity", "the owner", "The house", "Its", "poss", "house"]
    assert view.plain()[5] == ["spurious", "a pity", "—", "Its", "other", "house"]
    assert view.records()[4]["response_anchor_span"] is None
    detail = L.layer_detail(ev, view.items[1]).plain
    assert "The house[K] had a red door . It rained , and that surprised the owner[A] . Its[R] windows" in detail
    assert "counts for AR and FB-e, not FB-m" in detail
    assert "a red door[K=R]" not in detail
    assert "The house[K=R] had a red door[A]" in L.layer_detail(ev, view.items[0]).plain


def test_nonref_deixis_and_skipped_pages() -> None:
    ev = scored()
    nr = L.layer_view(ev, "nonref")
    assert nr.plain() == [["found", "It", "3-Pseudo", "house"], ["missed", "It", "8-Pseudo", "house"],
                          ["spurious", "bad", "12-Pseudo", "house"]]
    assert "it has it as a mention of its entity 8" in L.layer_detail(ev, nr.items[1]).plain
    assert "It[NR] is a pity ." in L.layer_detail(ev, nr.items[1]).plain
    dd = L.layer_view(ev, "deixis")
    # key: It rained / that / This in one chain; response: rained / that, and This alone
    assert dd.plain() == [["key", "10-DD", "3", "2", "It rained", "house"],
                          ["response", "10-DD", "2", "1", "rained", "house"],
                          ["response", "11-DD", "1", "1", "This", "house"]]
    detail = L.layer_detail(ev, dd.items[0]).plain
    assert "@7 [not in the response] It rained[DD] ," in detail and "@25 [response 11-DD] This[DD] was" in detail
    sk = L.layer_view(ev, "skipped")
    assert sk.plain() == [["response", "m13→ghost_1", "house"]]
    assert "counts for no bridging score" in L.layer_detail(ev, sk.items[0]).plain


def test_layers_only_where_scored() -> None:
    assert L.layers_present(scored("muc,bcub,ceafe")) == []
    assert L.layers_present(scored(preset="codicrac22dd")) == ["deixis"]
    assert L.layers_present(scored(preset="codicrac22br")) == ["bridging", "skipped"]


def test_the_mentions_row_says_it_is_the_coreference_layer_under_a_layer_preset() -> None:
    import subprocess
    import sys

    assert [r.label for r in M.total_rows(scored(preset="codicrac22dd")) if r.label.startswith("mentions")] == [
        "mentions (coreference layer)"]
    assert "mentions" in [r.label for r in M.total_rows(scored())]
    run = subprocess.run([sys.executable, "-m", "corefreport", "score", str(KEY), str(RESPONSE), "--preset",
                          "codicrac22dd"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    # 8 key mentions (IDENTITY), 9 in the response (it adds "bad"): not the 3 DD markables of each side
    assert re.search(r"^Mentions \(coreference layer\) *\| 100\.00 \| 88\.89 \| 94\.12 \| *8/8 \| *8/9$", run.stdout, re.M)
