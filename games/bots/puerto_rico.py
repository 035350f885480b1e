"""The Puerto Rico AI players: the heuristic of ``policy`` (``easy`` blurs its scores,
``medium`` does not) and the determinized Monte Carlo search of ``search`` (``hard``)."""

from __future__ import annotations

import random
from typing import Any

from . import Bot, play_random, policy, search
from .knowledge import Values

EASY_NOISE = 0.6
"""Width (VP) of the blur on the easy player's scores: it often misjudges close choices."""


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

analyse = search.analyse
"""The hard player's estimates of a seat's choices (``games.bots.Analyst``)."""
