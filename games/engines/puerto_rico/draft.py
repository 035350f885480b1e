"""New Buildings: the draft of the violet buildings before the first round.

The production buildings lie on the board as usual; the 12 small and 5 large spaces for
violet buildings are filled by the players in turn, the start player first: each picks one
of the 23 violet kinds (base game and Expansion I) whose cost still has a free space
(``data.DRAFT_SPACES``) and puts it, with its twin when more than two play, on the board.
The Office and the Trading post are never both drafted (the rulebook's strong advice).
Everything in the draft lies open on the table.
"""

from __future__ import annotations

from .actions import Action, Draft, IllegalAction
from .data import BASE, BUILDINGS, DRAFT_EXCLUSIVE, DRAFT_SPACES, NEW_BUILDINGS, SETUPS
from .state import State

_DRAFTS = {
    b.name: Draft(b.name)
    for b in BUILDINGS.values()
    if b.violet and b.expansion in (BASE, NEW_BUILDINGS)
}
DRAFT_PICKS = sum(DRAFT_SPACES.values())
_COSTS = {name: BUILDINGS[name].cost for name in _DRAFTS}


def _refusal(state: State, name: str) -> tuple[str, dict] | None:
    """Why ``name`` may not be drafted now (a refusal's code and params), or None."""
    if name not in _DRAFTS:
        return "not_in_draft", {"building": name}
    if name in state.drafted:
        return "already_drafted", {"building": name}
    cost = BUILDINGS[name].cost
    if sum(1 for b in state.drafted if BUILDINGS[b].cost == cost) == DRAFT_SPACES[cost]:
        return "no_draft_space", {"cost": cost}
    if name in DRAFT_EXCLUSIVE and DRAFT_EXCLUSIVE.intersection(state.drafted):
        return "office_or_trading_post", {}
    return None


def legal(state: State) -> list[Action]:
    """The candidates ``_refusal`` lets through, in the same order; each space counted once."""
    drafted = state.drafted
    filled: dict[int, int] = {}
    for b in drafted:
        cost = _COSTS[b]
        filled[cost] = filled.get(cost, 0) + 1
    exclusive = not DRAFT_EXCLUSIVE.isdisjoint(drafted)
    return [
        action
        for name, action in _DRAFTS.items()
        if name not in drafted
        and filled.get(_COSTS[name], 0) != DRAFT_SPACES[_COSTS[name]]
        and not (exclusive and name in DRAFT_EXCLUSIVE)
    ]


def check(state: State, action: Action) -> None:
    if action.type != "draft":
        raise IllegalAction("draft_expected")
    refusal = _refusal(state, action.building)
    if refusal is not None:
        raise IllegalAction(refusal[0], **refusal[1])


def play(state: State, action: Draft, log: list[dict] | None) -> None:
    name = action.building
    copies = SETUPS[state.num_players].copies(BUILDINGS[name])
    state.drafted.append(name)
    state.buildings[name] = copies
    if log is not None:
        log.append({"event": "draft", "seat": state.current, "building": name, "copies": copies})
    if len(state.drafted) < DRAFT_PICKS:
        state.current = len(state.drafted) % state.num_players
        return
    # The board is full: the first round begins with the start player as governor.
    state.buildings = {b: state.buildings[b] for b in BUILDINGS if b in state.buildings}
    state.phase = "role"
    state.chooser = state.current = state.governor
