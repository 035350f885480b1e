"""AI players: pure Python on the engine, seeded so a game's AI moves can be reproduced.

A bot sees only its seat's view (``rules.player_view``), never the full state: it rebuilds a
state with ``rules.determinize`` (hidden parts guessed from the seed) and reasons on that.
Each game has its bots, one per level (``games.bots.puerto_rico``, ``games.bots.amerigo``),
declared with the game on the shelf (``games.registry``).

Levels: ``random`` (uniform over the legal actions), ``easy`` (the game's heuristic with noise
on its scores), ``medium`` (the same heuristic, noise-free), ``hard`` (determinized Monte
Carlo search over the hidden information, ``halving``: a budget counted in its playouts' work).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

LEVELS = ("random", "easy", "medium", "hard")
"""The levels every game's bots offer, weakest first."""

Bot = Callable[..., Any]
"""``bot(state, view, legal, seed, *, budget, simulations)``: the action to take in the
determinized ``state`` of ``view``, one of ``legal`` (more than one), drawn from ``seed``."""


Analyst = Callable[..., "list[Estimate]"]
"""``analyse(state, view, seed, *, budget, simulations, include)``: what the hard player's
search makes of the choices in the determinized ``state`` of ``view`` (and of ``include``,
an action it would not have looked at), the likeliest win first."""


@dataclass(frozen=True)
class Estimate:
    """The search's verdict on one choice, from the seat's own view: what hints and reviews
    show. ``win`` is the share of its playouts the seat won (a tie for the win shared), None
    when it was not played out (the only choice)."""

    action: Any
    win: float | None
    playouts: int
    finalist: bool
    """Searched to the end: a choice dropped early had too few playouts to be compared."""


def ranked(estimates: list[Estimate]) -> list[Estimate]:
    """Finalists first, each group by its win share (unplayed last), ties in search order."""
    return sorted(estimates, key=lambda e: (not e.finalist, -(e.win or 0.0)))


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
    (the ``player_view`` of the seat to act). ``simulations`` is the hard player's budget, in
    playouts (when None its game's default, the site's: in Puerto Rico a number of moves played
    in playouts), so its move is reproducible whatever the machine's load; ``budget``
    (seconds) only caps its wall time, a safety net (``halving.CAP`` when None)."""
    bot = bots.get(level)
    if bot is None:
        raise ValueError(f"unknown AI level {level!r}")
    state = rules.determinize(view, seed)
    legal = rules.legal_actions(state)
    if len(legal) == 1:
        return legal[0]
    return bot(state, view, legal, seed, budget=budget, simulations=simulations)


def analyse_position(
    rules: Any,
    view: dict,
    *,
    analyst: Analyst,
    seed: int,
    simulations: int | None = None,
    played: Any = None,
) -> list[Estimate]:
    """``analyst``'s estimates for the seat that sees ``view`` and must act, ``played`` (an
    action, say the one a player took) among them; a seat with one legal action gets it."""
    state = rules.determinize(view, seed)
    legal = rules.legal_actions(state)
    if len(legal) == 1:
        return [Estimate(legal[0], None, 0, True)]
    return analyst(state, view, seed, simulations=simulations, include=played)
