"""Builder phase: each seat in turn may build one building it does not own yet.

Price = cost - occupied quarries (at most the building's column) - 1 for the builder - what
an occupied building lowers it by (the Nobles' Building office), never below 0. An occupied
university may put a colonist on the new building. Filling the 12th city space ends the game
at the end of the round.
"""

from __future__ import annotations

from collections.abc import Iterator

from .actions import PASS, Action, Build, IllegalAction
from .common import (
    END_CITY,
    colonist_available,
    finish_phase,
    next_seat_to_decide,
    take_colonist,
    trigger_end,
)
from .data import BUILDINGS, CITY_SPACES, QUARRY, Building
from .powers import BUILDING_COST, COLONIST_WITH_BUILDING, HOOKS, has, total
from .state import Player, State

_COLONIST_WITH_BUILDING = HOOKS[COLONIST_WITH_BUILDING]
_BUILDING_COST = HOOKS[BUILDING_COST]
_BUILDS = {name: (Build(name), Build(name, True)) for name in BUILDINGS}


def price(state: State, seat: int, building: Building) -> int:
    pl = state.players[seat]
    privilege = 1 if seat == state.chooser else 0
    return _price(pl, privilege, building, has(pl, _BUILDING_COST))


def _price(pl: Player, privilege: int, building: Building, discounted: bool) -> int:
    """``discounted``: the player has an occupied building that lowers prices (asked once
    for all the buildings a seat could build)."""
    cost = building.cost - min(pl.worked[QUARRY], building.column) - privilege
    if discounted:
        cost -= total(pl, _BUILDING_COST, building)
    return max(0, cost)


def start(state: State, log: list[dict] | None) -> None:
    state.phase = "builder"
    state.turn = 0
    _advance(state, log)


def _buildable(state: State, seat: int) -> Iterator[str]:
    """The buildings ``seat`` can build now, in the board's order; a generator, so asking
    whether there is any stops at the first."""
    pl = state.players[seat]
    free = CITY_SPACES - pl.city_spaces_used()
    if free == 0:
        return
    privilege = 1 if seat == state.chooser else 0
    discounted = has(pl, _BUILDING_COST)
    cash = pl.doubloons
    for name, left in state.buildings.items():  # the buildings of the editions played
        if left and name not in pl.city:
            b = BUILDINGS[name]
            if b.spaces <= free and _price(pl, privilege, b, discounted) <= cash:
                yield name


def legal(state: State) -> list[Action]:
    seat = state.current
    university = has(state.players[seat], _COLONIST_WITH_BUILDING) and colonist_available(state)
    actions: list[Action] = []
    for name in _buildable(state, seat):
        plain, with_colonist = _BUILDS[name]
        actions.append(plain)
        if university:
            actions.append(with_colonist)
    actions.append(PASS)
    return actions


def check(state: State, action: Action) -> None:
    if action.type == "pass":
        return
    if action.type != "build":
        raise IllegalAction("wrong_action", phase=state.phase)
    seat = state.current
    pl = state.players[seat]
    b = BUILDINGS[action.building]
    if action.building in pl.city:
        raise IllegalAction("already_built", building=b.name)
    if state.buildings.get(action.building, 0) == 0:
        raise IllegalAction("building_gone", building=b.name)
    free = CITY_SPACES - pl.city_spaces_used()
    if b.spaces > free:
        raise IllegalAction("no_city_space", building=b.name, spaces=b.spaces, free=free)
    cost = price(state, seat, b)
    if cost > pl.doubloons:
        raise IllegalAction("too_expensive", building=b.name, price=cost, doubloons=pl.doubloons)
    if action.university:
        if not has(pl, _COLONIST_WITH_BUILDING):
            raise IllegalAction("no_university")
        if not colonist_available(state):
            raise IllegalAction("no_colonist")


def play(state: State, action: Action, log: list[dict] | None) -> None:
    seat = state.current
    if action.type == "build":
        pl = state.players[seat]
        b = BUILDINGS[action.building]
        cost = price(state, seat, b)
        pl.doubloons -= cost
        state.buildings[b.name] -= 1
        pl.city[b.name] = 1 if action.university and take_colonist(state) else 0
        if log is not None:
            log.append(
                {
                    "event": "build",
                    "seat": seat,
                    "building": b.name,
                    "price": cost,
                    "colonist": pl.city[b.name] > 0,
                }
            )
        if pl.city_spaces_used() == CITY_SPACES:
            trigger_end(state, END_CITY, log)
    elif log is not None:
        log.append({"event": "build_nothing", "seat": seat})
    state.turn += 1
    _advance(state, log)


def _advance(state: State, log: list[dict] | None) -> None:
    """Seats that can build nothing (no money, no space) are passed over."""
    if not next_seat_to_decide(state, lambda s, seat: next(_buildable(s, seat), None) is not None):
        finish_phase(state)
