"""AI players: pure Python, on the engine protocol only (``legal_actions``), seeded so a
game's AI moves can be reproduced."""

from __future__ import annotations

import random
from typing import Any


def choose_action(rules: Any, state: Any, *, level: str, seed: int) -> Any:
    """The action an AI player of ``level`` takes in ``state`` (its seat is the one to act)."""
    if level != "random":
        raise ValueError(f"unknown AI level {level!r}")
    legal = rules.legal_actions(state)
    return legal[random.Random(seed).randrange(len(legal))]
