"""Option values as a user gives them → :class:`~.settings.Settings`: the one place for metric
names and aliases, the defaults of what was not given, and the presets.

The command line (:func:`corefreport.cli.build.build_settings`) parses its strings and calls
:func:`settings_from`; the Python API (:mod:`corefreport.api`) calls it with keywords. Every
problem is a :class:`~corefreport.errors.SettingsError` naming the option.

>>> settings_from(metrics="muc,b3").metrics
('muc', 'bcub')
>>> s = settings_from(preset="crac")
>>> s.match, s.singletons, s.metrics[-4:]
('head', 'drop', ('blanc_crac', 'lea', 'mor', 'zero'))
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import SettingsError
from .empty_nodes import METRICS as EMPTY_NODE_METRICS
from .presets import apply_preset
from .registry import ALL_METRICS, STANDARD_METRICS, analysis_names, known_metrics
from .settings import Settings

ALIASES = {"b3": "bcub", "bcubed": "bcub"}
GROUPS = {"bridging": ("bridging_ar", "bridging_fbm", "bridging_fbe"),
          "dd": ("dd_lea", "dd_muc", "dd_bcub", "dd_ceafe", "dd_ceafm", "dd_blanc"),
          "empty_nodes": EMPTY_NODE_METRICS}
"""Names for the scores of a Universal Anaphora layer (``-m bridging``, ``-m dd``) and for CRAC
2026's ten empty-node rows (``-m empty_nodes``: ``empty_nodes_arc`` … ``empty_nodes_all``)."""


def _items(value: str | Iterable[str] | None) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def metric_names(items: str | Iterable[str] | None) -> tuple[tuple[str, ...], bool]:
    """Metric keys from names (comma- or plus-separated too; aliases ``b3``, ``bcubed``; ``all``;
    a layer's scores, ``bridging``, ``dd``), and whether p-link was asked for.

    >>> metric_names("muc,bridging")[0]
    ('muc', 'bridging_ar', 'bridging_fbm', 'bridging_fbe')
    """
    out: list[str] = []
    plink = False
    for item in _items(items):
        for name in item.replace("+", ",").split(","):
            name = ALIASES.get(name.strip().lower(), name.strip().lower())
            if not name:
                continue
            if name == "all":
                out.extend(m for m in ALL_METRICS if m not in out)
            elif name in GROUPS:
                out.extend(m for m in GROUPS[name] if m not in out)
            elif name == "plink":
                plink = True
            elif name not in known_metrics():
                raise SettingsError(f"unknown metric {name!r}; choose from {', '.join(known_metrics())}, plink, "
                                    "bridging, dd, empty_nodes or 'all'")
            elif name not in out:
                out.append(name)
    return tuple(out), plink


def settings_from(*, metrics: str | Iterable[str] | None = None, analyses: str | Iterable[str] | None = None,
                  preset: str | None = None, singletons: str | bool | None = None, match: str | None = None,
                  zero_match: str | None = None, zeros: str | bool | None = None, repeats: str | None = None,
                  split_antecedents: str | None = None, by: str | Iterable[str] | None = None, default_metrics: tuple[str, ...] = STANDARD_METRICS,
                  default_analyses: tuple[str, ...] = (), **fields: object) -> Settings:
    """The :class:`Settings` of options given by name; ``None`` (or absent) is "not given": the
    default, or the preset's value. ``metrics``/``analyses``/``by`` take a name, a comma-separated
    string or a list; ``singletons``/``zeros`` ``"keep"``/``"drop"`` or ``True`` (keep)/``False``
    (drop); ``metrics`` with ``plink`` needs ``by`` (its category). Other keywords are
    :class:`Settings` fields (``weights``, ``k``, ``scheme`` …)."""
    names, plink = metric_names(metrics)
    given = bool(names or plink)
    if not given:
        names = default_metrics
    chosen = _items(analyses)
    for a in chosen:
        if a not in analysis_names():
            raise SettingsError(f"unknown analysis {a!r}; choose {' or '.join(analysis_names())}")
    features = tuple(dict.fromkeys(x.strip() for item in _items(by) for x in item.split(",") if x.strip()))
    if plink and not features:
        raise SettingsError("--metric plink needs --by FEATURE (e.g. --by col12 for GUM's sentence type, or --by mtype)")
    found = tuple(dict.fromkeys(chosen)) if chosen else default_analyses
    if features and not plink and not found and not all(document_grouping(f) for f in features):
        raise SettingsError(f"--by {features[0]!r} breaks down link-level scores, and none were asked for: add -a arcs, "
                            "-a typed or -a errors (or -m plink for p-link by category)")
    options, names = apply_preset(preset, {"match": match, "singletons": _keep(singletons, "singletons"),
                                           "zero_match": zero_match, "repeats": repeats,
                                           "split_antecedents": split_antecedents}, names, given)
    unknown = sorted(set(fields) - set(option_names()))
    if unknown:
        raise TypeError(f"unknown option {unknown[0]!r}; the options are {', '.join(option_names())}")
    rest = {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    return Settings(metrics=names, analyses=found, preset=preset, match=options["match"] or "exact",
                    singletons=options["singletons"] or "keep", zero_match=options["zero_match"] or "linear",
                    zeros=_keep(zeros, "zeros") or "keep", repeats=options["repeats"] or "ref801",
                    split_antecedents=options["split_antecedents"] or "drop", plink_by=features[0] if plink else None,
                    by=features if not plink else (), **rest)


def document_grouping(name: str) -> bool:
    """Whether ``--by NAME`` groups documents (``genre``, ``length[:EDGES]``): without an analysis it
    asks for the standard metrics per group (:mod:`.subsets`)."""
    return name == "genre" or name.partition(":")[0] == "length"


def _keep(value: str | bool | None, name: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "keep" if value else "drop"
    raise SettingsError(f"{name} takes 'keep' or 'drop' (or True / False), got {value!r}")


def option_names() -> list[str]:
    """Every option :func:`settings_from` takes by keyword."""
    return sorted(set(Settings.__dataclass_fields__) - {"plink_by"})
