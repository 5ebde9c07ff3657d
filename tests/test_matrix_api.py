"""The Python API's argument types as a matrix (issue 37): every keyword option of
``corefreport.score`` and ``Scorer`` (``corefreport.options()``) given ints, floats, ``None``,
lists, dicts, garbage strings, NaN, booleans and empty values. Every case ends in one of two ways:

* a :class:`SettingsError`, :class:`InputError` or ``TypeError`` whose message names the option
  (never another exception: ``metrics=5`` once raised a bare ``TypeError`` from the options code,
  ``cross_document=5`` an ``AttributeError``);
* the documented meaning of the value (``None``: not given; ``True`` for a switch …), checked
  against the score of these clusters counted by hand below — never a silently different score
  (``strict_tokens="no"`` was once true, ``weights="a,b"`` three numbers, ``match=""`` exact).
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import corefreport
from corefreport import InputError, SettingsError

GOLD = {"d": [[(0, 0), (2, 2)], [(4, 5)]]}
PRED = {"d": [[(0, 0), (2, 2), (4, 5)]]}

# By hand, for GOLD and PRED: MUC R = 1/1 (the key's one link kept), P = 1/2 (the response's two
# links, one across key entities); B³ R = 3/3, P = (2/3 + 2/3 + 1/3)/3 = 5/9; CEAF-e: φ4({0,2},
# {0,2,4-5}) = 2·2/5 = 0.8 is the best alignment, R = 0.8/2, P = 0.8/1.
MUC_F1 = 2 * 1 * 0.5 / 1.5
BCUB_F1 = 2 * (5 / 9) / (1 + 5 / 9)
CEAFE_F1 = 2 * 0.4 * 0.8 / 1.2
CONLL_F1 = (MUC_F1 + BCUB_F1 + CEAFE_F1) / 3
# singletons=False drops the key's {4-5}: MUC as before; B³ P = (2/3 + 2/3 + 0)/3 = 4/9, R = 1;
# CEAF-e R = P = 0.8.
DROPPED_CONLL_F1 = (MUC_F1 + 2 * (4 / 9) / (1 + 4 / 9) + 0.8) / 3

BAD = {"int": 5, "float": 0.5, "None": None, "list": [1, 2], "dict": {"a": 1}, "garbage": "zz,garbage",
       "nan": math.nan, "true": True, "false": False, "empty str": "", "empty list": [], "inf": math.inf,
       "str list": ["zz"], "tuple of None": (None,)}

SWITCHES = {"strict_tokens", "arcs_compat", "arcs_singletons", "arcs_anchor_links", "strict_dominant",
            "plink_compat", "errors_drop_response_singletons", "truncate"}

STEMS = {"metrics": "metric", "analyses": "analys"}
"""An option's name as its value errors say it (``unknown metric 'zz'``, ``unknown analysis``)."""


def accepted(option: str, label: str) -> bool:
    """Whether the value is one the option documents (docs/api.md, "Options"), and which leaves
    these clusters' standard scores as they are: ``None`` (not given) everywhere; a switch's
    ``True``/``False``; ``True``/``False`` for singletons and zeros (keep/drop: no zeros here) and
    cross_document (one topic: one document here); an empty name list (strata too); any string for the options that only the typed analysis
    reads (``attempted``, ``scheme``: not asked for here)."""
    if label == "None":
        return True
    if option in SWITCHES and label in ("true", "false"):
        return True
    if option in ("singletons", "zeros") and label in ("true", "false"):
        return True
    if option == "cross_document" and label in ("true", "false"):
        return True
    if option in ("metrics", "analyses", "by") and label in ("empty str", "empty list"):
        return True
    if option == "strata" and label == "empty list":  # no stratification, as no --strata
        return True
    if option == "attempted" and label in ("garbage", "str list"):
        return True
    if option == "scheme" and label == "garbage":
        return True
    return option == "scheme" and label == "empty str"  # the default scheme, read by typed alone


def names_option(option: str, message: str) -> bool:
    return any(n in message for n in (option, "--" + option.replace("_", "-"), STEMS.get(option, option)))


CASES = [(o, label) for o in corefreport.options() for label in BAD]
OUTCOMES: Counter = Counter()


@pytest.mark.parametrize("option,label", CASES, ids=[f"{o}={label}" for o, label in CASES])
def test_every_option_and_wrong_type(option, label):
    value = BAD[label]
    try:
        result = corefreport.score(GOLD, PRED, **{option: value})
    except (SettingsError, InputError, TypeError) as err:
        assert not accepted(option, label), f"{option}={value!r} is documented, but: {err}"
        assert names_option(option, str(err)), (option, str(err))
        assert type(err) is not TypeError or "unknown option" not in str(err)  # every option is known
        OUTCOMES["error naming the option"] += 1
        return
    assert accepted(option, label), f"{option}={value!r} accepted silently: {result['signature']}"
    want = DROPPED_CONLL_F1 if (option, value) == ("singletons", False) else CONLL_F1
    assert result["metrics"]["conll"]["f1"] == pytest.approx(want, abs=1e-12), (option, value)
    assert result["metrics"]["muc"]["f1"] == pytest.approx(MUC_F1, abs=1e-12)
    OUTCOMES["documented result"] += 1


@pytest.mark.parametrize("option", ["metrics", "weights", "match", "preset", "strict_tokens", "cross_document",
                                    "k", "by"])
def test_the_scorer_refuses_as_score_does(option):
    with pytest.raises(SettingsError, match=option.replace("_", ".")):
        corefreport.Scorer(**{option: 5})


def test_metrics_five_is_a_settings_error_naming_the_option():
    """A29: it was ``TypeError: 'int' object is not iterable`` from scoring/options.py."""
    with pytest.raises(SettingsError, match=r"^metrics takes a name, names separated by commas or a list of names, "
                                            r"got 5$"):
        corefreport.score(GOLD, PRED, metrics=5)


def test_weights_as_a_string_is_the_command_lines_form():
    """A25: ``weights="a,b"`` was taken a character at a time ('got 3' numbers); a string is now four
    comma-separated numbers as ``--weights`` takes them, and anything else is refused quoting it."""
    with pytest.raises(SettingsError, match=r"^weights takes four numbers NAM,NOM,PRO,SING .*got 'a,b'$"):
        corefreport.score(GOLD, PRED, metrics="lmuc", weights="a,b")
    with pytest.raises(SettingsError, match="--weights takes four numbers NAM,NOM,PRO,SING, got 2"):
        corefreport.score(GOLD, PRED, metrics="lmuc", weights="1,2")
    as_text = corefreport.settings(metrics="lmuc", weights="1,0.5,0.25,1")
    assert as_text.weights == (1.0, 0.5, 0.25, 1.0)
    assert corefreport.settings(weights=np.array([1, 0.5, 0.25, 1])).weights == (1.0, 0.5, 0.25, 1.0)
    assert corefreport.settings(weights=[1, 0.5, 0.25, 1]).weights == (1.0, 0.5, 0.25, 1.0)
    with pytest.raises(SettingsError, match="weights takes four numbers"):
        corefreport.settings(weights=[True, True, True, True])  # booleans are not weights
    with pytest.raises(SettingsError, match="k takes four numbers k1,k2,k3,k4"):
        corefreport.settings(k="one,two")


def test_empty_clusters_say_there_is_no_document():
    """A20: ``score({}, {})`` spoke of '#begin document' lines and JSON files."""
    for gold, pred, side in (({}, {}, "key"), ({}, PRED, "key"), (GOLD, {}, "response")):
        with pytest.raises(InputError) as err:
            corefreport.score(gold, pred)
        assert str(err.value).startswith(f"<{side}>: the {side} clusters hold no document: an empty mapping")
        assert "#begin document" not in str(err.value)


def test_documented_forms_give_the_same_settings_as_their_long_forms():
    s = corefreport.settings
    assert s(analyses="arcs,typed").analyses == s(analyses=["arcs", "typed"]).analyses == ("arcs", "typed")
    assert s(cross_document=True).cross_document == corefreport.scoring.crossdoc.Topics()
    assert s(cross_document=False).cross_document is None
    assert s(attempted="NAME, PRONOUN").attempted == ("NAME", "PRONOUN")
    assert s(scheme=Path("my.toml")).scheme == "my.toml"
    assert s(key_duplicates=None).key_duplicates == "keep"  # None: not given, as everywhere
    for option in ("match", "repeats", "zero_match", "split_antecedents", "singletons", "zeros"):
        with pytest.raises(SettingsError):  # "" once meant the default without a word
            s(**{option: ""})
    with pytest.raises(SettingsError, match="attempted takes class names"):
        s(attempted=[])


def test_typed_only_options_are_checked_when_typed_reads_them():
    """``scheme`` and ``attempted`` are read by the typed analysis: with it, a bad value is an error
    naming the scheme or the option (on the bundled GUM example, which has the words typed needs)."""
    from corefreport.cli.output import example_paths

    key, resp = example_paths()[:2]
    with pytest.raises(InputError, match="zz,garbage: no such scheme file"):
        corefreport.score(str(key), str(resp), analyses="typed", scheme="zz,garbage")
    with pytest.raises(SettingsError, match="--attempted 'zz'"):
        corefreport.score(str(key), str(resp), analyses="typed", attempted="zz")


def test_the_matrix_ran_whole(request):
    """Runs last: every case of the matrix ended in one of the two ways (the rest failed above)."""
    if request.config.option.keyword or any("::" in a for a in request.config.args):
        pytest.skip("a part of the module was selected")
    assert sum(OUTCOMES.values()) == len(CASES) >= 350, OUTCOMES
    assert OUTCOMES["error naming the option"] > 300
