"""AI players: pure Python on the engine, seeded so a game's AI moves can be reproduced.

A bot sees only its seat's view (``rules.player_view``), never the full state: it rebuilds a
state with ``rules.determinize`` (hidden parts guessed from the seed) and reasons on that.

Levels: ``random`` (uniform over the legal actions), ``easy`` (the heuristic of ``policy``
with noise on its scores), ``medium`` (the same heuristic, noise-free), ``hard`` (determinized
Monte Carlo search over the hidden information, with the heuristic for playouts: ``search``).
"""

from __future__ import annotations

import random
from typing import Any

from . import policy, search
from .knowledge import Values

LEVELS = ("random", "easy", "medium", "hard")
EASY_NOISE = 0.6
"""Width (VP) of the blur on the easy player's scores: it often misjudges close choices."""


def choose_action(
    rules: Any,
    view: dict,
    *,
    level: str,
    seed: int,
    budget: float | None = None,
    simulations: int | None = None,
) -> Any:
    """The action an AI player of ``level`` takes, seeing ``view`` (the ``player_view`` of the
    seat to act). ``budget`` (seconds) and ``simulations`` bound the hard player's search;
    a simulation count makes its move reproducible whatever the machine's speed."""
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r}")
    state = rules.determinize(view, seed)
    legal = rules.legal_actions(state)
    rng = random.Random(seed)
    if level == "random":
        return legal[rng.randrange(len(legal))]
    if len(legal) == 1:
        return legal[0]
    if level == "hard":
        return search.choose(state, view, seed, budget=budget, simulations=simulations)
    noise = EASY_NOISE if level == "easy" else 0.0
    return policy.choose(state, Values(state), rng, noise)
