"""New Buildings: the draft of the violet buildings before the first round.

The production buildings lie on the board as usual; the 12 small and 5 large spaces for
violet buildings are filled by the players in turn, the start player first: each picks one
of the 23 violet kinds (base game and Expansion I) whose cost still has a free space
(``data.DRAFT_SPACES``) and puts it, with its twin when more than two play, on the board.
One of the Office and the Trading post is always drafted, never both (the rulebook's strong
advice, "immer entweder das Kontor oder den Handelsposten im Spiel …, aber nicht beide
gleichzeitig"): the last free space of their cost takes one of them while neither is on the
board.
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
(_EXCLUSIVE_COST,) = {_COSTS[name] for name in DRAFT_EXCLUSIVE}


def _keeps_a_space_for_the_exclusive(name: str, filled: int, exclusive: bool) -> bool:
    """False when ``name`` would take the last space of the Office's and Trading post's cost
    while neither of them is drafted (``filled``: that cost's spaces already taken)."""
    return (
        exclusive
        or name in DRAFT_EXCLUSIVE
        or _COSTS[name] != _EXCLUSIVE_COST
        or filled < DRAFT_SPACES[_EXCLUSIVE_COST] - 1
    )


def _refusal(state: State, name: str) -> tuple[str, dict] | None:
    """Why ``name`` may not be drafted now (a refusal's code and params), or None."""
    if name not in _DRAFTS:
        return "not_in_draft", {"building": name}
    if name in state.drafted:
        return "already_drafted", {"building": name}
    cost = BUILDINGS[name].cost
    if sum(1 for b in state.drafted if BUILDINGS[b].cost == cost) == DRAFT_SPACES[cost]:
        return "no_draft_space", {"cost": cost}
    exclusive = not DRAFT_EXCLUSIVE.isdisjoint(state.drafted)
    if name in DRAFT_EXCLUSIVE and exclusive:
        return "office_or_trading_post", {}
    taken = sum(1 for b in state.drafted if _COSTS[b] == _EXCLUSIVE_COST)
    if not _keeps_a_space_for_the_exclusive(name, taken, exclusive):
        return "office_or_trading_post_needed", {"cost": cost}
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
        and _keeps_a_space_for_the_exclusive(name, filled.get(_EXCLUSIVE_COST, 0), exclusive)
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
