"""Several responses of one system (runs: seeds, checkpoints) named as a group (``score --runs``):
``NAME=RUN1,RUN2,…`` (each a file, directory or glob: one corpus per run), or a glob or directory
whose every file is one run (the system named by the folder). Only the paths are found here."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError


@dataclass(frozen=True, slots=True)
class RunFiles:
    """The system's name and its runs, each ``(run name, path)`` in order."""

    system: str
    runs: tuple[tuple[str, str], ...]


def _names(paths: list[str]) -> list[str]:
    """Run names: the files' stems, else (two alike) their positions ``run1``, ``run2`` …"""
    stems = [Path(p).stem or Path(p).name for p in paths]
    return stems if len(set(stems)) == len(stems) else [f"run{i}" for i in range(1, len(paths) + 1)]


def run_files(spec: str) -> RunFiles:
    """The runs of ``spec`` (see the module docstring)."""
    from .read import expand

    if "=" in spec and not Path(spec).exists():
        system, _, rest = spec.partition("=")
        paths = [p.strip() for p in rest.split(",") if p.strip()]
        if not system or not paths:
            raise InputError(spec, None, "runs are NAME=RUN1,RUN2,… or a quoted glob of run files")
        for p in paths:
            if not Path(p).exists() and not any(ch in p for ch in "*?["):
                raise InputError(p, None, f"run of {system!r}: no such file or directory")
        return RunFiles(system, tuple(zip(_names(paths), paths)))
    paths = expand(spec)
    folder = Path(spec) if Path(spec).is_dir() else Path(paths[0]).parent
    return RunFiles(folder.name or "runs", tuple(zip(_names(paths), paths)))
