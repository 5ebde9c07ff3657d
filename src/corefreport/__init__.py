"""corefreport: coreference evaluation with the official numbers, and the reasons behind them.

The Python API (:mod:`corefreport.api`): ``corefreport.score(key, response, **options)``,
``corefreport.Scorer``, ``corefreport.load``, ``corefreport.evaluate``. It is imported when first
used, so that ``import corefreport`` (and the command line) stays light.
"""

from .version import __version__

__all__ = ["score", "Scorer", "load", "evaluate", "settings", "options", "Evaluation", "Settings",
           "InputError", "SettingsError", "__version__"]


def __getattr__(name: str):
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'corefreport' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
