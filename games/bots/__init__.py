"""AI players: pure Python on the engine, seeded so a game's AI moves can be reproduced.

A bot sees only its seat's view (``rules.player_view``), never the full state: it rebuilds a
state with ``rules.determinize`` (hidden parts guessed from the seed) and reasons on that.

Levels: ``random`` (uniform over the legal actions), ``easy`` (the heuristic of ``policy``
with noise on its scores), ``medium`` (the same heuristic, noise-free), ``hard`` (determinized
Monte Carlo search over the hidden information, with the heuristic for playouts: ``search``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import amerigo, policy, search
from .knowledge import Values

EASY_NOISE = 0.6
"""Width (VP) of the blur on the easy player's scores: it often misjudges close choices."""

Bot = Callable[..., Any]
"""``bot(state, view, legal, seed, *, budget, simulations)``: the action to take in the
determinized ``state`` of ``view``, one of ``legal`` (more than one), drawn from ``seed``."""


def play_random(state: Any, view: dict, legal: list, seed: int, **limits: Any) -> Any:
    return legal[random.Random(seed).randrange(len(legal))]


def heuristic(noise: float) -> Bot:
    """The heuristic player with ``noise`` (VP) of blur on its scores."""

    def play(state: Any, view: dict, legal: list, seed: int, **limits: Any) -> Any:
        return policy.choose(state, Values(state), random.Random(seed), noise)

    return play


def play_hard(state: Any, view: dict, legal: list, seed: int, **limits: Any) -> Any:
    return search.choose(state, view, seed, **limits)


BOTS: dict[str, Bot] = {
    "random": play_random,
    "easy": heuristic(EASY_NOISE),
    "medium": heuristic(0.0),
    "hard": play_hard,
}
"""The bot of each level; one more level is one more entry (a test adds a failing one)."""
LEVELS = tuple(BOTS)
GAME_BOTS: dict[str, dict[str, Bot]] = {"amerigo": amerigo.BOTS}
"""Games with bots of their own (the same level names); any other engine uses ``BOTS``."""


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
    bot = GAME_BOTS.get(getattr(rules, "NAME", ""), BOTS).get(level)
    if bot is None:
        raise ValueError(f"unknown AI level {level!r}")
    state = rules.determinize(view, seed)
    legal = rules.legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    return bot(state, view, legal, seed, budget=budget, simulations=simulations)
