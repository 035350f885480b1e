"""The medium player's short search: before choosing a role it plays each role's phase out with
the heuristic for every seat, and takes the role after which its position, against its rivals',
looks best. So it sees what the next players get from a craftsman or a mayor exactly, not by a
rule of thumb."""

from __future__ import annotations

import random

from games.engines.puerto_rico import rules
from games.engines.puerto_rico.actions import Action
from games.engines.puerto_rico.state import State

from .knowledge import Values
from .policy import choose
from .value import predict, standing


def play_phase(state: State, values: Values, rng: random.Random) -> State:
    """``state`` (mutated) once the current role's phase is over, every seat playing the
    heuristic."""
    while state.phase not in ("role", "over"):
        rules.apply(state, choose(state, values, rng), inplace=True)
    return state


def choose_role(state: State, values: Values, rng: random.Random) -> Action:
    me = state.current
    best, pick = None, None
    for action in rules.legal_actions(state):
        after = play_phase(rules.apply(state, action), values, rng)
        worth = standing(predict(after, values), me)
        if best is None or worth > best:
            best, pick = worth, action
    return pick
