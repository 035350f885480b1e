"""Positions for the Amerigo tests: a real setup, then the table arranged as an example says."""

from __future__ import annotations

from typing import Any

from games.engines import amerigo as am
from games.engines.amerigo.data import COLOURS
from games.engines.amerigo.rules import new_act
from games.engines.amerigo.state import State, derive_cover


def position(
    num_players: int = 4,
    seed: int = 1,
    field: dict[str, int] | None = None,
    seat: int = 0,
    **players: Any,
) -> State:
    """A fresh game whose current turn has ``field`` in the action field and ``seat`` to
    choose (alone in the turn's queue); ``players`` maps ``p0``.. to attribute values."""
    state = am.new_game(num_players, seed)
    if field is not None:
        total = {c: state.supply[k] + state.field[k] for k, c in enumerate(COLOURS)}
        state.field = [field.get(c, 0) for c in COLOURS]
        # The cubes in the action field come out of the supply (the tower is left alone).
        state.supply = [max(0, total[c] - field.get(c, 0)) for c in COLOURS]
    state.queue = [seat]
    state.phase = "choose"
    state.act = None
    for name, values in players.items():
        p = state.players[int(name[1:])]
        for attr, value in values.items():
            setattr(p, attr, value)
    state.cover = derive_cover(state)
    return state


def play(state: State, *actions: dict[str, Any], log: list | None = None) -> State:
    for action in actions:
        state = am.apply(state, action, log=log)
    return state


def acting(state: State, colour: str, ap: int) -> State:
    """``state`` with its current seat in the middle of ``colour``'s action with ``ap`` AP."""
    state.phase = "act"
    state.act = new_act(colour, ap)
    return state


def last_turn_of_round(state: State, round_: int) -> State:
    """The white turn of ``round_``, with only the current seat still to act."""
    state.round = round_
    state.turn = COLOURS.index("white")
    return state
