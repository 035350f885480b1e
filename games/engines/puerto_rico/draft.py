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


def free_spaces(state: State) -> dict[int, int]:
    """The violet spaces still free on the board, by cost."""
    free = dict(DRAFT_SPACES)
    for name in state.drafted:
        free[_COSTS[name]] -= 1
    return free


def picker(num_players: int, pick: int) -> int:
    """The seat that makes the draft's ``pick``-th pick (from 0): the seats in turn from the
    start player, seat 0."""
    return pick % num_players


def on_offer(state: State) -> list[str]:
    """The violet kinds still to be drafted: not on the board, a space of their cost free, and
    not the one of the Office and the Trading post whose other is drafted. Each is legal now
    unless it would take the last space of its cost kept for those two (``check`` says so)."""
    free = free_spaces(state)
    shut_out = _shut_out(state)
    return [
        name
        for name in _DRAFTS
        if name not in state.drafted and free[_COSTS[name]] and name not in shut_out
    ]


def _shut_out(state: State) -> frozenset[str]:
    """The Office and the Trading post once one of them is drafted, else nothing."""
    return frozenset() if DRAFT_EXCLUSIVE.isdisjoint(state.drafted) else DRAFT_EXCLUSIVE


def _keeps_a_space_for_the_exclusive(name: str, free: dict[int, int], exclusive: bool) -> bool:
    """False when ``name`` would take the last free space of the Office's and Trading
    post's cost while neither of them is drafted (``exclusive``: one of them is)."""
    return (
        exclusive
        or name in DRAFT_EXCLUSIVE
        or _COSTS[name] != _EXCLUSIVE_COST
        or free[_EXCLUSIVE_COST] > 1
    )


def _refusal(state: State, name: str) -> tuple[str, dict] | None:
    """Why ``name`` may not be drafted now (a refusal's code and params), or None."""
    if name not in _DRAFTS:
        return "not_in_draft", {"building": name}
    if name in state.drafted:
        return "already_drafted", {"building": name}
    free = free_spaces(state)
    cost = _COSTS[name]
    if not free[cost]:
        return "no_draft_space", {"cost": cost}
    shut_out = _shut_out(state)
    if name in shut_out:
        return "office_or_trading_post", {}
    if not _keeps_a_space_for_the_exclusive(name, free, bool(shut_out)):
        return "office_or_trading_post_needed", {"cost": cost}
    return None


def legal(state: State) -> list[Action]:
    """Those ``on_offer`` that ``_refusal`` lets through, in the same order."""
    free = free_spaces(state)
    exclusive = bool(_shut_out(state))
    return [
        _DRAFTS[name]
        for name in on_offer(state)
        if _keeps_a_space_for_the_exclusive(name, free, exclusive)
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
        state.current = picker(state.num_players, len(state.drafted))
        return
    # The board is full: the first round begins with the start player as governor.
    state.buildings = {b: state.buildings[b] for b in BUILDINGS if b in state.buildings}
    state.phase = "role"
    state.chooser = state.current = state.governor
