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

from collections.abc import Iterable, Mapping
from os import PathLike, fspath

from ..errors import SettingsError
from .crossdoc import Topics
from .empty_nodes import METRICS as EMPTY_NODE_METRICS
from .presets import apply_preset
from .registry import ALL_METRICS, STANDARD_METRICS, analysis_names, known_metrics
from .settings import Settings, _number

ALIASES = {"b3": "bcub", "bcubed": "bcub"}
GROUPS = {"bridging": ("bridging_ar", "bridging_fbm", "bridging_fbe"),
          "dd": ("dd_lea", "dd_muc", "dd_bcub", "dd_ceafe", "dd_ceafm", "dd_blanc"),
          "empty_nodes": EMPTY_NODE_METRICS}
"""Names for the scores of a Universal Anaphora layer (``-m bridging``, ``-m dd``) and for CRAC
2026's ten empty-node rows (``-m empty_nodes``: ``empty_nodes_arc`` … ``empty_nodes_all``)."""


def _items(value: str | Iterable[str] | None, option: str = "metrics") -> list[str]:
    """The names an option was given: one name (or several separated by commas), or a list of
    names; anything else is a :class:`SettingsError` naming the option (``metrics=5`` once raised
    a bare ``TypeError``, and ``metrics={"muc": 1}`` read the dict's keys)."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple, set, frozenset)) and all(isinstance(v, str) for v in value):
        return list(value)
    raise SettingsError(f"{option} takes a name, names separated by commas or a list of names, got {value!r}")


def metric_names(items: str | Iterable[str] | None) -> tuple[tuple[str, ...], bool]:
    """Metric keys from names (comma- or plus-separated too; aliases ``b3``, ``bcubed``; ``all``;
    a layer's scores, ``bridging``, ``dd``), and whether p-link was asked for.

    >>> metric_names("muc,bridging")[0]
    ('muc', 'bridging_ar', 'bridging_fbm', 'bridging_fbe')
    """
    out: list[str] = []
    plink = False
    for item in _items(items, "metrics"):
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
    chosen = [x.strip() for item in _items(analyses, "analyses") for x in item.split(",") if x.strip()]
    for a in chosen:
        if a not in analysis_names():
            raise SettingsError(f"unknown analysis {a!r}; choose {' or '.join(analysis_names())}")
    features = tuple(dict.fromkeys(x.strip() for item in _items(by, "by") for x in item.split(",") if x.strip()))
    if plink and not features:
        raise SettingsError("--metric plink needs --by FEATURE (e.g. --by col12 for GUM's sentence type, or --by mtype)")
    found = tuple(dict.fromkeys(chosen)) if chosen else default_analyses
    if features and not plink and not found and not all(document_grouping(f) for f in features):
        raise SettingsError(f"--by {features[0]!r} breaks down link-level scores, and none were asked for: add -a arcs, "
                            "-a typed or -a errors (or -m plink for p-link by category)")
    for option, value in (("preset", preset), ("match", match), ("zero_match", zero_match), ("repeats", repeats),
                          ("split_antecedents", split_antecedents)):
        if value is not None and not isinstance(value, str):  # a list once reached the presets' dict unhashed
            raise SettingsError(f"{option} takes a name (a string), got {value!r}")
    options, names = apply_preset(preset, {"match": match, "singletons": _keep(singletons, "singletons"),
                                           "zero_match": zero_match, "repeats": repeats,
                                           "split_antecedents": split_antecedents}, names, given)
    unknown = sorted(set(fields) - set(option_names()))
    if unknown:
        raise TypeError(f"unknown option {unknown[0]!r}; the options are {', '.join(option_names())}")
    rest = {k: _field(k, v) for k, v in fields.items() if v is not None}  # None: not given, the default
    return Settings(metrics=names, analyses=found, preset=preset, match=_given(options["match"], "exact"),
                    singletons=_given(options["singletons"], "keep"),
                    zero_match=_given(options["zero_match"], "linear"),
                    zeros=_given(_keep(zeros, "zeros"), "keep"), repeats=_given(options["repeats"], "ref801"),
                    split_antecedents=_given(options["split_antecedents"], "drop"), plink_by=features[0] if plink else None,
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


def _given(value: str | None, default: str) -> str:
    """An option's value, or its default when not given (``None``). An empty string is given, and
    refused by :func:`~.settings.check`: ``match=""`` once meant exact matching without a word."""
    return default if value is None else value


NUMBERS = {"weights": "NAM,NOM,PRO,SING", "k": "k1,k2,k3,k4"}
"""The options that take four numbers: a tuple or list, or a string as on the command line."""


def _field(name: str, value: object) -> object:
    """A :class:`Settings` field as the API may give it → as the field holds it: a list a tuple;
    ``weights``/``k`` as ``"1,0.75,0.5,1"`` (the command line's form: ``weights="a,b"`` was once
    taken a character at a time) or any sequence of numbers (a numpy array too), as floats; ``attempted`` as ``"A,B"``; ``scheme`` as a
    path; ``strata`` one stratification as a string or several in a list; ``cross_document=True`` the whole corpus as one topic, ``False`` none. The types are
    checked by :func:`~.settings.check`, each message naming the option."""
    if name in NUMBERS:
        if isinstance(value, str):
            try:
                return tuple(float(x) for x in value.split(","))
            except ValueError:
                raise SettingsError(f"{name} takes four numbers {NUMBERS[name]} (a tuple, or a string "
                                    f"'1,0.75,0.5,1'), got {value!r}") from None
        if isinstance(value, (Mapping, set, frozenset)) or not isinstance(value, Iterable):
            return value  # refused by the check, naming the option
        return tuple(float(v) if _number(v) else v for v in value)
    if name == "attempted" and isinstance(value, str):
        chosen = tuple(a.strip() for a in value.split(",") if a.strip())
        if not chosen:
            raise SettingsError(f"attempted takes class names (a list, or a string separated by commas), got {value!r}")
        return chosen
    if name == "strata" and isinstance(value, str) and value.strip():
        return (value,)  # one stratification, as one --strata (its edges hold commas: chain-length:1,2,5)
    if name == "scheme" and isinstance(value, PathLike):
        return fspath(value)
    if name == "cross_document" and isinstance(value, bool):
        return Topics() if value else None
    return tuple(value) if isinstance(value, list) else value


def option_names() -> list[str]:
    """Every option :func:`settings_from` takes by keyword."""
    return sorted(set(Settings.__dataclass_fields__) - {"plink_by"})
