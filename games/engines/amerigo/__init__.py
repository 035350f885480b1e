"""Amerigo (Stefan Feld) for 2-4 players, as a pure-Python rules engine.

Typical use::

    from games.engines import amerigo
    state = amerigo.new_game(3, seed=7)
    while not amerigo.is_over(state):
        state = amerigo.apply(state, amerigo.legal_actions(state)[0])
    print(amerigo.outcome(state))

The JSON forms of states, actions and events, and every value the printed game shows only in
pictures (approximated in ``data``), are documented in ``docs/amerigo.md``.
"""

from __future__ import annotations

from typing import Any

from .action_schema import ACTION_SCHEMA
from .actions import REFUSALS, IllegalAction, action_from_json, action_to_json
from .data import PLAYER_COUNTS
from .rules import (
    apply,
    check,
    current_player,
    is_over,
    legal_actions,
    new_game,
    order_field,
    outcome,
    progress_vp,
)
from .state import State
from .view import determinize, known_scores, player_view, reveals, round_number

NAME = "amerigo"
OPTIONS: tuple[dict[str, Any], ...] = ()


def to_json(state: State) -> dict[str, Any]:
    return state.to_json()


def from_json(data: dict[str, Any]) -> State:
    return State.from_json(data)


__all__ = [
    "ACTION_SCHEMA",
    "NAME",
    "OPTIONS",
    "PLAYER_COUNTS",
    "REFUSALS",
    "IllegalAction",
    "State",
    "action_from_json",
    "action_to_json",
    "apply",
    "check",
    "current_player",
    "determinize",
    "from_json",
    "is_over",
    "known_scores",
    "legal_actions",
    "new_game",
    "order_field",
    "outcome",
    "player_view",
    "progress_vp",
    "reveals",
    "round_number",
    "to_json",
]
