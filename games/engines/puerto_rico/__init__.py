"""Puerto Rico for 2-5 players, the base game with Expansion I (the New Buildings),
Expansion II (the Nobles) or both, as a pure-Python rules engine.

Typical use::

    from games.engines import puerto_rico as pr
    state = pr.new_game(4, seed=7)
    while not pr.is_over(state):
        action = pr.legal_actions(state)[0]
        state = pr.apply(state, action)
    print(pr.outcome(state))

The JSON forms of states and actions are documented in ``docs/engine.md``.
"""

from .action_schema import ACTION_SCHEMA
from .actions import (
    REFUSALS,
    Action,
    Arrange,
    Build,
    BuyPlantation,
    ChooseRole,
    DiscardPlantation,
    Draft,
    ExtraGood,
    Forest,
    Hacienda,
    IllegalAction,
    Load,
    MalformedAction,
    MoveGuest,
    Pass,
    RoyalSupplier,
    Sell,
    Settle,
    SmallWharf,
    Store,
    Wharf,
    action_from_json,
    action_to_json,
)
from .data import BUILDINGS, COFFEE, CORN, GOODS, INDIGO, ISLAND_KINDS, QUARRY, SUGAR, TOBACCO
from .determinize import determinize
from .mayor import Arrangements
from .options import OPTIONS, PLAYER_COUNTS
from .rules import (
    apply,
    check,
    current_player,
    is_over,
    legal_actions,
    legal_schema,
    new_game,
)
from .scoring import outcome
from .state import State
from .view import known_scores, player_view, reveals, round_number

NAME = "puerto_rico"


def to_json(state: State) -> dict:
    return state.to_json()


def from_json(data: dict) -> State:
    return State.from_json(data)


__all__ = [
    "ACTION_SCHEMA",
    "BUILDINGS",
    "COFFEE",
    "CORN",
    "GOODS",
    "INDIGO",
    "ISLAND_KINDS",
    "NAME",
    "OPTIONS",
    "PLAYER_COUNTS",
    "QUARRY",
    "REFUSALS",
    "SUGAR",
    "TOBACCO",
    "Action",
    "Arrange",
    "Arrangements",
    "Build",
    "BuyPlantation",
    "ChooseRole",
    "DiscardPlantation",
    "Draft",
    "ExtraGood",
    "Forest",
    "Hacienda",
    "IllegalAction",
    "Load",
    "MalformedAction",
    "MoveGuest",
    "Pass",
    "RoyalSupplier",
    "Sell",
    "Settle",
    "SmallWharf",
    "State",
    "Store",
    "Wharf",
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
    "legal_schema",
    "new_game",
    "outcome",
    "player_view",
    "reveals",
    "round_number",
    "to_json",
]
