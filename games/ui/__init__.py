"""Game UIs: how a game's board looks and how its forms become actions.

The platform reaches a game's page only through ``get_ui(engine_name)``, which returns a
module with ``TEMPLATE``, ``board_context(state, position, names, posted=None)`` (``posted``:
the fields of a refused move) and ``action_from_post(data)``; the platform itself knows nothing
of any game.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

UIS = {"puerto_rico": "games.ui.puerto_rico"}


def get_ui(engine_name: str) -> ModuleType:
    if engine_name not in UIS:
        raise LookupError(f"no UI for game engine {engine_name!r}")
    return import_module(UIS[engine_name])


__all__ = ["UIS", "get_ui"]
