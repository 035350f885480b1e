"""AI players: pure Python on the engine, seeded so a game's AI moves can be reproduced.

A bot sees only its seat's view (``rules.player_view``), never the full state: it rebuilds a
state with ``rules.determinize`` (hidden parts guessed from the seed) and reasons on that.
Each game has its bots, one per level (``games.bots.puerto_rico``, ``games.bots.amerigo``),
declared with the game on the shelf (``games.registry``).

Levels: ``random`` (uniform over the legal actions), ``easy`` (the game's heuristic with noise
on its scores), ``medium`` (the same heuristic, noise-free), ``hard`` (determinized Monte
Carlo search over the hidden information).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

LEVELS = ("random", "easy", "medium", "hard")
"""The levels every game's bots offer, weakest first."""

Bot = Callable[..., Any]
"""``bot(state, view, legal, seed, *, budget, simulations)``: the action to take in the
determinized ``state`` of ``view``, one of ``legal`` (more than one), drawn from ``seed``."""


def play_random(state: Any, view: dict, legal: list, seed: int, **limits: Any) -> Any:
    return legal[random.Random(seed).randrange(len(legal))]


def choose_action(
    rules: Any,
    view: dict,
    *,
    bots: Mapping[str, Bot],
    level: str,
    seed: int,
    budget: float | None = None,
    simulations: int | None = None,
) -> Any:
    """The action the game's AI player of ``level`` (one of ``bots``) takes, seeing ``view``
    (the ``player_view`` of the seat to act). ``budget`` (seconds) and ``simulations`` bound
    the hard player's search; a simulation count makes its move reproducible whatever the
    machine's speed."""
    bot = bots.get(level)
    if bot is None:
        raise ValueError(f"unknown AI level {level!r}")
    state = rules.determinize(view, seed)
    legal = rules.legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    return bot(state, view, legal, seed, budget=budget, simulations=simulations)
