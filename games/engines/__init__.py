"""Rules engines: pure Python, no Django. The platform reaches a game only through
``get_engine(name)``, which returns a module implementing ``protocol.Engine``."""

from __future__ import annotations

from importlib import import_module

from .protocol import Engine, SeatOutcome

ENGINES = {"puerto_rico": "games.engines.puerto_rico", "amerigo": "games.engines.amerigo"}


def get_engine(name: str) -> Engine:
    if name not in ENGINES:
        raise LookupError(f"unknown game engine {name!r}")
    return import_module(ENGINES[name])  # type: ignore[return-value]


__all__ = ["ENGINES", "Engine", "SeatOutcome", "get_engine"]
