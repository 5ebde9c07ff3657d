"""Presets: one name for the options of an official program or shared task.

A preset fills the options its program fixes **when they are not given** (an explicit option still
wins), may rename metrics (the program's variant of one) and adds the metrics the program prints
besides the default list when no metric is asked for. ``Settings.preset`` records the name, so the
signature says which preset a number was made under.

>>> apply_preset("crac18", {"singletons": None, "repeats": None}, ("muc", "blanc"), False)
({'singletons': 'keep', 'repeats': 'ua1', 'split_antecedents': 'drop'}, ('muc', 'bcub', 'ceafe', 'nonref'))
>>> apply_preset("crac", {"match": None, "singletons": None, "zero_match": None, "repeats": None}, ("muc", "blanc"),
...              False)
({'match': 'head', 'singletons': 'drop', 'zero_match': 'dependent', 'repeats': 'corefud12'}, ('muc', 'blanc_crac', 'mor', 'zero'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

from ..errors import SettingsError


@dataclass(frozen=True)
class Preset:
    """What a preset sets. ``options``: option → value, used where the option was not given;
    ``renames``: metric → the program's variant; ``more_metrics``: added to the default metrics
    (only when none were asked for)."""

    name: str
    summary: str
    source: str
    options: Mapping[str, object] = field(default_factory=dict)
    renames: Mapping[str, str] = field(default_factory=dict)
    more_metrics: tuple[str, ...] = ()
    metrics: tuple[str, ...] | None = None
    """The metrics when none are asked for, instead of the default list (``None``: the default)."""


PRESETS: Mapping[str, Preset] = MappingProxyType({
    "crac": Preset(
        "crac",
        "corefud-scorer v1.2's defaults, as the CRAC 2023/2024 shared tasks ranked: head matching, singletons "
        "dropped, BLANC as corefud-scorer computes it, zeros matched by their dependencies; MOR and the zero score "
        "printed too",
        "corefud-scorer.py 12-15 (-m all, -a head, no -s), CRAC 2024 (-z dependent); docs/matching.md",
        options={"match": "head", "singletons": "drop", "zero_match": "dependent", "repeats": "corefud12"},
        renames={"blanc": "blanc_crac"},
        more_metrics=("mor", "zero"),
    ),
    "codicrac22ar": Preset(
        "codicrac22ar",
        "the Universal Anaphora scorer v1 as the CODI-CRAC 2021/2022 anaphora resolution task ran it "
        "('python ua-scorer.py KEY SYS keep_non_referring'): singletons kept, non-referring expressions out of the "
        "coreference layer and scored on their own (nonref); every v1 metric (LEA, MUC, B³, CEAF-e, CEAF-m, BLANC as "
        "v1 averages it, CoNLL); split antecedents (ElementOf) scored as v1 does by default (scoring/split.py)",
        "universal-anaphora-scorer v1 (main, f4adb45) ua-scorer.py; v2.0-Beta's '-t codicrac22ar'; "
        "docs/universal-anaphora.md",
        options={"singletons": "keep", "split_antecedents": "keep", "repeats": "ua1"},
        renames={"blanc": "blanc_crac"},
        more_metrics=("nonref",),
    ),
    "crac18": Preset(
        "crac18",
        "the Universal Anaphora scorer v1 as the CRAC 2018 (ARRAU) task scores: singletons kept, MUC, B³, CEAF-e and "
        "CoNLL on the coreference layer, non-referring expressions scored on their own (nonref); split antecedents "
        "not scored ('python ua-scorer.py KEY SYS remove_split_antecedent keep_non_referring muc bcub ceafe')",
        "universal-anaphora-scorer v1 (main, f4adb45) ua-scorer.py; v2.0-Beta's '-t crac18'; "
        "docs/universal-anaphora.md",
        options={"singletons": "keep", "split_antecedents": "drop", "repeats": "ua1"},
        metrics=("muc", "bcub", "ceafe", "nonref"),
    ),
    "codicrac22br": Preset(
        "codicrac22br",
        "the Universal Anaphora scorer v1 as the CODI-CRAC 2021/2022 bridging task ran it "
        "('python ua-scorer.py KEY SYS keep_bridging'): bridging anaphor recognition and full bridging at markable "
        "and entity level (bridging_ar, bridging_fbm, bridging_fbe), singletons kept in the key's entities",
        "universal-anaphora-scorer v1 (main, f4adb45) coval/eval/evaluator.py evaluate_bridgings; v2.0-Beta's "
        "'-t codicrac22br'; docs/universal-anaphora.md",
        options={"singletons": "keep", "repeats": "ua1"},
        metrics=("bridging_ar", "bridging_fbm", "bridging_fbe"),
    ),
    "codicrac22dd": Preset(
        "codicrac22dd",
        "the Universal Anaphora scorer v1 as the CODI-CRAC 2021/2022 discourse deixis task ran it "
        "('python ua-scorer.py KEY SYS evaluate_discourse_deixis'): the DISCOURSE_DEIXIS chains scored by every v1 "
        "metric (dd_lea, dd_muc, dd_bcub, dd_ceafe, dd_ceafm, dd_blanc; DD CoNLL), singletons and split "
        "antecedents (ElementOf in the DD column) kept, as v1 forces them in this mode",
        "universal-anaphora-scorer v1 (main, f4adb45) ua-scorer.py evaluate_discourse_deixis; v2.0-Beta's "
        "'-t codicrac22dd'; docs/universal-anaphora.md",
        options={"singletons": "keep", "repeats": "ua1"},
        metrics=("dd_lea", "dd_muc", "dd_bcub", "dd_ceafe", "dd_ceafm", "dd_blanc"),
    ),
})


def apply_preset(name: str | None, options: dict[str, object], metrics: tuple[str, ...],
                 metrics_given: bool) -> tuple[dict[str, object], tuple[str, ...]]:
    """``(options, metrics)`` under preset ``name`` (``None``: unchanged): each option that is
    ``None`` (not given) takes the preset's value; metrics are renamed, and extended when
    ``metrics_given`` is false."""
    if name is None:
        return options, metrics
    if name not in PRESETS:
        raise SettingsError(f"--preset takes {', '.join(repr(p) for p in PRESETS)}, got {name!r}")
    preset = PRESETS[name]
    out = dict(options)
    for option, value in preset.options.items():
        if out.get(option) is None:
            out[option] = value
    if not metrics_given:
        metrics = (preset.metrics if preset.metrics is not None else metrics) + preset.more_metrics
    metrics = tuple(dict.fromkeys(preset.renames.get(m, m) for m in metrics))
    return out, metrics
