"""One ``Settings`` for every command, its ``Signature``, and pure scoring.

* changing any field of Settings that changes a number changes the signature (property test);
* every command accepts the shared scoring options, builds the same Settings from them, and
  refuses an option it cannot honour;
* ``evaluate`` leaves both corpora untouched and gives equal results twice.
"""

from __future__ import annotations

import copy
import json
from dataclasses import fields, replace
from functools import lru_cache

import pytest
from hypothesis import given, settings as hsettings
from hypothesis import strategies as st
from typer.testing import CliRunner

from corefreport.cli import app, example_paths
from corefreport.errors import SettingsError
from corefreport.io import load_corpus
from corefreport.scoring.evaluate import evaluate
from corefreport.scoring.registry import ALL_METRICS
from corefreport.scoring.crossdoc import Topics
from corefreport.scoring.settings import Settings, signature, signature_fields

runner = CliRunner()

BASE = Settings(metrics=ALL_METRICS, analyses=("arcs", "typed", "errors"), plink_by="mtype")
"""Every part switched on, so every field is in force."""

OTHER = {
    "metrics": ("muc", "bcub"),
    "singletons": "drop",
    "key_duplicates": "dedupe",
    "match": "head",
    "preset": "crac",
    "zero_match": "dependent",
    "zeros": "drop",
    "strict_tokens": True,
    "repeated_documents": "rename",
    "weights": (1.0, 0.5, 0.5, 1.0),
    "analyses": ("arcs",),
    "arcs_compat": True,
    "arcs_singletons": True,
    "arcs_anchor_links": True,
    "scheme": "lcc",
    "k": (1.0, 0.5, 0.5, 0.25),
    "attempted": ("NAME", "PRONOUN"),
    "strict_dominant": True,
    "plink_by": "ne",
    "plink_compat": True,
    "errors_drop_response_singletons": True,
    "markup_policy": "lenient",
    "repeats": "corefud12",
    "split_antecedents": "keep",
    "truncate": True,  # the printed figures (print:trunc)
    "cross_document": Topics(),
    "mention_singletons": "keep",
    "strata": ("chain-length",),  # the per-stratum scores (strata:chain-length)
    "window": 1500,  # the scores on windows (window:1500)
    "response_windows": True,  # a response of windows put back onto the key (response:windows)
}
"""Another valid value for each field that changes numbers (``markup_policy``: for a markup
response, whose signature names it)."""


def test_every_number_changing_field_has_an_alternative_here():
    assert set(OTHER) == set(signature_fields())
    assert [f.name for f in fields(Settings) if f.name not in OTHER] == ["by"]  # presentation only


@given(st.sets(st.sampled_from(sorted(OTHER)), min_size=1))
@hsettings(max_examples=60, deadline=None)
def test_changing_any_number_changing_field_changes_the_signature(changed):
    if {"repeats", "key_duplicates"} <= changed:  # refused together (repeats read as corefud-scorer: no key policy)
        changed = changed - {"key_duplicates"}
    if {"split_antecedents", "singletons"} <= changed:  # refused together (plural members may be singletons)
        changed = changed - {"singletons"}
    if {"split_antecedents", "strata"} <= changed:  # refused together (split antecedents tie chains together)
        changed = changed - {"strata"}
    if {"split_antecedents", "window"} <= changed:  # refused together (windows cut chains)
        changed = changed - {"window"}
    other = replace(BASE, **{name: OTHER[name] for name in changed})
    a, b = signature(BASE, "k0", markup=True), signature(other, "k0", markup=True)
    assert str(a) != str(b)
    assert a.diff(b)  # and compare sees it field by field


def test_presentation_only_fields_leave_the_signature_alone():
    assert str(signature(replace(BASE, by=("genre",)), "k0")) == str(signature(BASE, "k0"))


def test_signature_records_attempted_classes():
    """The same signature once gave typed macro F1 0.6208 and 0.5990 (with --attempted)."""
    key, resp = (load_corpus(p) for p in example_paths())
    plain = evaluate(key, resp, Settings(analyses=("typed",)))
    some = evaluate(key, resp, Settings(analyses=("typed",), attempted=("NAME", "PRONOUN")))
    assert plain.typed.attempted == ["NAME", "NOMINAL", "PRONOUN"] and some.typed.attempted == ["NAME", "PRONOUN"]
    assert plain.typed.macro["f1"] != some.typed.macro["f1"]
    assert some.signature.diff(plain.signature) == {"attempted": ("NAME,PRONOUN", "")}


@pytest.mark.parametrize("field, value", [("weights", (1, 1, 1, float("nan"))), ("weights", (1, 1, 1, 0)),
                                          ("k", (5, 5, 5, 5)), ("k", (1, 1, float("inf"), 1)),
                                          ("metrics", ("nonsense",)), ("analyses", ("other",))])
def test_settings_refuse_what_no_evaluation_can_honour(field, value):
    with pytest.raises(SettingsError):
        replace(BASE, **{field: value})


# --------------------------------------------------------------------------------------------- commands

def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.mark.parametrize("command", ["score", "compare", "report", "tui"])
def test_every_command_takes_the_shared_scoring_options(command):
    text = run(command, "--help").stdout
    for option in ("--metric", "--analysis", "--drop-singletons", "--key-duplicates", "--weights", "--by",
                   "--arcs-compat", "--scheme", "--k", "--attempted", "--strict-dominant", "--strict-tokens"):
        assert option in text, (command, option)
    assert "--metric NAME[,NAME…]" in text and "--weights NAM,NOM,PRO,SING" in text  # readable metavars


def test_report_and_compare_honour_the_options_score_honours(tmp_path):
    """--weights, --k and --key-duplicates reach the report and compare: their signatures say so."""
    key, resp = example_paths()
    opts = ["--weights", "1,1,0.5,1", "--k", "1,0.5,0.5,0", "--key-duplicates", "keep"]
    tex = tmp_path / "r.tex"
    res = run("report", key, resp, "-o", str(tex), "-q", *opts)
    assert res.exit_code == 0, res.output
    sig = next(line for line in tex.read_text().splitlines() if line.startswith("% signature:"))
    assert "|dups:ref801|" in sig and "|w:1,1,0.5,1|" in sig and "|k:1,0.5,0.5,0|" in sig
    res = run("compare", key, f"a={resp}", f"b={resp}", "--bootstrap", "10", "--randomization", "10", "-f", "json", "-q",
              *opts)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert "|dups:ref801|" in out["settings"]["signature"] and "|k:1,0.5,0.5,0|" in out["settings"]["signature"]
    score = json.loads(run("score", key, resp, "-f", "json", "-q", "-m", "all", "-a", "typed", *opts).stdout)
    assert score["typed"]["k"] == [1.0, 0.5, 0.5, 0.0] and score["settings"]["weights"] == [1.0, 1.0, 0.5, 1.0]


def test_an_option_a_command_cannot_honour_is_an_error():
    key, resp = example_paths()
    res = run("compare", key, f"a={resp}", f"b={resp}", "--plink-compat")
    assert res.exit_code == 2 and "--plink-compat is not supported" in res.output
    res = run("compare", key, f"a={resp}", f"b={resp}", "-m", "muc,plink", "--by", "mtype")
    assert res.exit_code == 2 and "p-link" in res.output
    res = run("tui", key, resp, "-m", "plink", "--by", "mtype")
    assert res.exit_code == 2 and "no p-link view" in res.output
    # compare, report and tui have their views of the error classes (tests/test_error_*.py)
    res = run("compare", key, f"a={resp}", f"b={resp}", "-a", "errors", "--bootstrap", "10", "--randomization", "10")
    assert res.exit_code == 0 and "Error classes (Kummerfeld & Klein 2013): b vs a" in res.output


def test_bad_option_values_are_refused_in_every_command(tmp_path):
    key, resp = example_paths()
    for args in (["score", key, resp], ["compare", key, f"a={resp}", f"b={resp}"], ["report", key, resp, "-o", str(tmp_path / "x.pdf")]):
        res = run(*args, "--k", "5,5,5,5")
        assert res.exit_code == 2 and "--k takes finite numbers in [0, 1]" in res.output, args
        res = run(*args, "--weights", "nan,1,1,1")
        assert res.exit_code == 2 and "--weights" in res.output, args
    assert not (tmp_path / "x.pdf").exists()


# --------------------------------------------------------------------------------------------- purity

@lru_cache(maxsize=1)
def corpora():
    return tuple(load_corpus(p) for p in example_paths())


def test_evaluate_leaves_its_inputs_untouched_and_is_repeatable():
    key, resp = corpora()
    before = (copy.deepcopy(key), copy.deepcopy(resp))
    s = Settings(metrics=ALL_METRICS, analyses=("arcs", "typed"), plink_by="mtype")
    one = evaluate(key, resp, s)
    two = evaluate(key, resp, s)
    assert (key, resp) == before  # no mention feature, no flag written into the reader's corpus
    assert one.as_dict(per_doc=True) == two.as_dict(per_doc=True)
    assert [r.as_dict() for r in one.rows] == [r.as_dict() for r in two.rows]
    assert all("mtype" not in m.features for d in key for m in d.mentions)


def test_staged_result_is_the_final_one_without_the_analyses():
    key, resp = corpora()
    staged = []
    final = evaluate(key, resp, Settings(metrics=ALL_METRICS, analyses=("arcs",)), on_stage=staged.append)
    (first,) = staged
    assert not first.complete and final.complete and first.arcs is None and final.arcs is not None
    assert {k: v.as_dict() for k, v in first.metrics.items()} == \
           {k: v.as_dict() for k, v in final.metrics.items() if k in first.metrics}
    assert str(first.signature) == str(final.signature)


SLIDE = ("#begin document (d); part 000\n"
         "d\t0\t0\tObama\tNNP\t(PERSON)\t{a}\n"
         "d\t0\t1\tmet\tVBD\t*\t-\n"
         "d\t0\t2\tthe\tDT\t*\t{b}\n"
         "d\t0\t3\tpresident\tNN\t*\t{c}\n"
         "d\t0\t4\tand\tCC\t*\t-\n"
         "d\t0\t5\the\tPRP\t*\t{d}\n"
         "d\t0\t6\tleft\tVBD\t*\t-\n"
         "#end document\n")


def test_the_anchor_link_view_is_reachable_from_the_command_line(tmp_path):
    """Tuggener's slide (spec 2.5): key [NE-N-P], response [NE-N][P] → 1 tp, 1 fn: R .5, P 1."""
    key, resp = tmp_path / "k.conll", tmp_path / "r.conll"
    key.write_text(SLIDE.format(a="(1)", b="(1", c="1)", d="(1)"))
    resp.write_text(SLIDE.format(a="(1)", b="(1", c="1)", d="(2)"))
    res = run("score", str(key), str(resp), "-a", "arcs", "--arcs-anchor-links", "-f", "json", "-q",
              "--key-format", "conll2012", "--response-format", "conll2012")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    link = out["arcs"]["anchor_link"]["total"]
    assert (link["tp"], link["fn"], link["fp"], link["recall"], link["precision"]) == (1, 1, 0, 0.5, 1.0)
    assert "|arcs:anchor-links|" in out["signature"]
