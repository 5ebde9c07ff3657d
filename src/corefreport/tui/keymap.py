"""The browser's keys: every binding carries an id (``corefreport.back``, …) that a keymap file
remaps, and what each does (the help screen's lines, the footer's tooltips)."""

from __future__ import annotations

import os
from pathlib import Path

KEYMAP_ENV = "COREFREPORT_KEYMAP"

KEY_NAMES = {"slash": "/", "question_mark": "?", "escape": "Esc", "backspace": "Backspace"}
"""How the help screen writes a key."""

MOVE = ("↑ ↓ PgUp PgDn Home End", "move the cursor (← → scroll)")


def keymap_path() -> Path:
    if os.environ.get(KEYMAP_ENV):
        return Path(os.environ[KEYMAP_ENV]).expanduser()
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "corefreport" / "keymap.toml"


def load_keymap(path: Path | None = None) -> dict[str, str]:
    """Binding id → keys, from ``$COREFREPORT_KEYMAP`` or ``~/.config/corefreport/keymap.toml``::

        [keymap]
        "corefreport.back" = "backspace,escape"
        "corefreport.search" = "f"
    """
    import tomllib

    path = path or keymap_path()
    if not path.is_file():
        return {}
    with open(path, "rb") as f:
        data = tomllib.load(f)
    table = data.get("keymap", data)
    return {str(k): str(v) for k, v in table.items() if isinstance(v, str)}


def keys_in_force(nodes, descriptions: dict[str, str], keymap: dict[str, str], offers=lambda i: True
                  ) -> dict[str, list[str]]:
    """Binding id → the keys in force (remapped or not) of every binding of ``nodes`` (screens, the
    app) that ``descriptions`` describes and ``offers`` offers."""
    keys: dict[str, list[str]] = {}
    for node in nodes:
        if node is None:
            continue
        for bindings in node._bindings.key_to_bindings.values():
            for binding in bindings:
                if binding.id in descriptions and offers(binding.id):
                    held = keys.setdefault(binding.id, [])
                    if binding.key not in held:  # a screen's key and the app's of the same id: once
                        held.append(binding.key)
    for i, remapped in keymap.items():  # Textual applies the keymap as keys arrive
        if i in keys:
            keys[i] = [k.strip() for k in remapped.split(",") if k.strip()]
    return keys


def shown(keys: list[str]) -> str:
    """Keys as the help screen writes them."""
    return ", ".join(KEY_NAMES.get(k, k) for k in keys)
