"""Builder phase: each seat in turn may build one building it does not own yet.

Price = cost - occupied quarries (at most the building's column) - 1 for the builder - what
an occupied building lowers it by (the Nobles' Building office), never below 0. An occupied
university may put a colonist on the new building. Filling the 12th city space ends the game
at the end of the round.

New Buildings: two forests save a doubloon (occupied forest house or not, no column cap); the
library doubles the builder's saving; an occupied black market pays what the doubloons lack
with at most one colonist (with the Nobles also a noble), one barrel and one VP; an occupied
church gives VP for the building. A colonist paid to the black market leaves its place before
the building is priced, so that place does not act for this build (a quarry, the library, the
church, the university, the Nobles' Building office): the rulebook's own case, the black
market's colonist, never pays at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .actions import PASS, Action, Build, IllegalAction
from .common import (
    END_CITY,
    award_vp,
    colonist_available,
    finish_phase,
    next_seat_to_decide,
    privileges,
    take_colonist,
    trigger_end,
)
from .data import (
    ALL_GOODS,
    BUILDINGS,
    CITY_SPACES,
    GOODS,
    ISLAND_INDEX,
    ISLAND_KINDS,
    QUARRY,
    Building,
)
from .powers import (
    BUILD_PAYMENT,
    BUILD_VP,
    BUILDING_COST,
    COLONIST_WITH_BUILDING,
    HOOKS,
    has,
    total,
)
from .state import Player, State

_COLONIST_WITH_BUILDING = HOOKS[COLONIST_WITH_BUILDING]
_BUILD_PAYMENT = HOOKS[BUILD_PAYMENT]
_BUILD_VP = HOOKS[BUILD_VP]
_BUILDING_COST = HOOKS[BUILDING_COST]
_BUILDS = {name: (Build(name), Build(name, True)) for name in BUILDINGS}


def price(state: State, seat: int, building: Building) -> int:
    return prices(state, seat)(building)


def prices(state: State, seat: int) -> Callable[[Building], int]:
    """``price`` for many buildings of one seat (the legal builds, a bot weighing them all):
    the seat's savings, quarries and discounts are asked once. ``savings``: what every
    building costs the seat less besides its quarries; ``discounted``: the seat has an
    occupied building that lowers prices (the Nobles' Building office)."""
    pl = state.players[seat]
    savings = _savings(state, seat)
    quarries = pl.worked[QUARRY]
    discounted = has(pl, _BUILDING_COST)

    def price_of(building: Building) -> int:
        column = building.column
        cost = building.cost - (quarries if quarries < column else column) - savings
        if discounted:
            cost -= total(pl, _BUILDING_COST, building)
        return cost if cost > 0 else 0

    return price_of


def _savings(state: State, seat: int) -> int:
    """The builder's privilege and a doubloon per two forests."""
    return state.players[seat].forests // 2 + privileges(state, seat)


def _black_market(state: State, seat: int) -> bool:
    return has(state.players[seat], _BUILD_PAYMENT)


def colonist_places(pl: Player) -> list[str]:
    """Where the black market may take a colonist from: not from the black market itself."""
    places = ["san_juan"] if pl.san_juan > pl.noble_san_juan else []
    places += [
        ISLAND_KINDS[k] for k in range(len(ISLAND_KINDS)) if pl.worked[k] > pl.noble_worked[k]
    ]
    noble_city = pl.noble_city
    places += [b for b, n in pl.city.items() if n > noble_city.get(b, 0) and b != "black_market"]
    return places


def noble_places(pl: Player) -> list[str]:
    """Where the black market may take a noble from (both expansions: "Wird in dieser Regel von
    Kolonisten gesprochen, gilt dies auch für Adlige"): not from the black market itself."""
    places = ["san_juan"] if pl.noble_san_juan else []
    places += [ISLAND_KINDS[k] for k in range(len(ISLAND_KINDS)) if pl.noble_worked[k]]
    places += [b for b, n in pl.noble_city.items() if n and b != "black_market"]
    return places


def _pieces(pl: Player) -> list[tuple[str | None, bool]]:
    """Each piece the black market may take, as (place, noble), and (None, False) for none."""
    return [
        (None, False),
        *((place, False) for place in colonist_places(pl)),
        *((place, True) for place in noble_places(pl)),
    ]


def _black_market_builds(state: State, seat: int, b: Building) -> list[Action]:
    """The builds of ``b`` whose black-market payment (colonist, barrel, VP) is exactly what
    the doubloons lack, the price asked after the colonist has left its place (``_paid``)."""
    pl = state.players[seat]
    goods = [None, *(g for g in ALL_GOODS if pl.goods[g])]
    vps = [False, True] if pl.vp else [False]
    builds: list[Action] = []
    for c, noble in _pieces(pl):
        with _paid(state, seat, c, noble):
            short = price(state, seat, b) - pl.doubloons - (c is not None)
            university = (
                b.circles > 0 and has(pl, _COLONIST_WITH_BUILDING) and colonist_available(state)
            )
        for g in goods:
            for v in vps:
                if (g is not None) + v == short:
                    builds.append(Build(b.name, False, c, g, v, noble))
                    if university:
                        builds.append(Build(b.name, True, c, g, v, noble))
    return builds


@contextmanager
def _paid(state: State, seat: int, place: str | None, noble: bool = False) -> Iterator[None]:
    """The seat while a black-market colonist (``noble``: a noble) from ``place`` (None: no
    piece) is back in the supply, to price a build paid with it; afterwards as it was."""
    if place is None:
        yield
        return
    _to_supply(state, seat, place, noble, 1)
    try:
        yield
    finally:
        _to_supply(state, seat, place, noble, -1)


def _to_supply(state: State, seat: int, place: str, noble: bool, n: int) -> None:
    """``n`` colonists (``noble``: nobles) of ``seat`` from ``place`` back to their supply (-1
    undoes it)."""
    pl = state.players[seat]
    if place == "san_juan":
        pl.san_juan -= n
        pl.noble_san_juan -= n * noble
    elif place in ISLAND_INDEX:
        pl.worked[ISLAND_INDEX[place]] -= n
        pl.noble_worked[ISLAND_INDEX[place]] -= n * noble
    else:
        pl.city[place] -= n
        if noble:  # no building keeps a count of 0 nobles
            left = pl.noble_city.get(place, 0) - n
            if left:
                pl.noble_city[place] = left
            else:
                del pl.noble_city[place]
    if noble:
        state.noble_supply += n
    else:
        state.colonist_supply += n


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
    cash = pl.doubloons
    if _black_market(state, seat):
        cash += bool(colonist_places(pl) or noble_places(pl)) + any(pl.goods) + bool(pl.vp)
    savings = _savings(state, seat)
    discounted = has(pl, _BUILDING_COST)
    city = pl.city
    quarries = pl.worked[QUARRY]
    for name, left in state.buildings.items():  # the buildings of the editions played
        if left and name not in city:
            b = BUILDINGS[name]
            if b.spaces > free:
                continue
            # ``prices`` inline (asked of every building, many times a game: a call more
            # costs random games 4 % of their time): the price is never below 0, and cash
            # never is, so the comparison needs no max.
            column = b.column
            cost = b.cost - (quarries if quarries < column else column) - savings
            if discounted:
                cost -= total(pl, _BUILDING_COST, b)
            if cost <= cash:
                yield name


def legal(state: State) -> list[Action]:
    seat = state.current
    pl = state.players[seat]
    with_colonist = has(pl, _COLONIST_WITH_BUILDING) and colonist_available(state)
    # Without a black market everything buildable is affordable: prices only matter with one.
    price_of = prices(state, seat) if _black_market(state, seat) else None
    actions: list[Action] = []
    for name in _buildable(state, seat):
        b = BUILDINGS[name]
        university = with_colonist and b.circles > 0  # (the statue has none)
        if price_of and price_of(b) > pl.doubloons:
            actions += _black_market_builds(state, seat, b)
            continue
        plain, placed = _BUILDS[name]
        actions.append(plain)
        if university:
            actions.append(placed)
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
    paid = action.black_market
    if paid:
        _check_black_market(state, seat, action)
    with _paid(state, seat, action.colonist, action.noble):
        cost = price(state, seat, b)
        if paid:
            short = cost - pl.doubloons
            if paid != short:
                raise IllegalAction("black_market_not_needed", short=max(0, short))
        elif cost > pl.doubloons:
            raise IllegalAction(
                "too_expensive", building=b.name, price=cost, doubloons=pl.doubloons
            )
        if action.university:
            if not has(pl, _COLONIST_WITH_BUILDING):
                raise IllegalAction("no_university")
            if not colonist_available(state):
                raise IllegalAction("no_colonist")
            if not b.circles:
                raise IllegalAction("no_free_circle", place=b.name)


def _check_black_market(state: State, seat: int, action: Build) -> None:
    """What a black-market payment gives must be there (its amount is checked by ``check``)."""
    pl = state.players[seat]
    if not _black_market(state, seat):
        raise IllegalAction("no_black_market")
    if action.noble and action.colonist not in noble_places(pl):
        raise IllegalAction("no_noble_there", place=action.colonist)
    placed = action.noble or action.colonist is None or action.colonist in colonist_places(pl)
    if not placed:
        raise IllegalAction("no_colonist_there", place=action.colonist)
    if action.good is not None and not pl.goods[action.good]:
        raise IllegalAction("no_good", good=GOODS[action.good])
    if action.vp and not pl.vp:
        raise IllegalAction("no_vp")


def _pay_black_market(state: State, seat: int, action: Build, log: list[dict] | None) -> None:
    """The colonist, barrel and VP go back to their supplies, the VP chip also after the
    chips ran out; a game end already triggered stays ("bleibt es beim Spielende")."""
    pl = state.players[seat]
    place = action.colonist
    if place is not None:
        _to_supply(state, seat, place, action.noble, 1)
    if action.good is not None:
        pl.goods[action.good] -= 1
        state.goods[action.good] += 1
    if action.vp:
        pl.vp -= 1
        state.vp_chips += 1
    if log is not None:
        log.append(
            {
                "event": "black_market",
                "seat": seat,
                "colonist": place,
                "noble": action.noble,
                "good": None if action.good is None else GOODS[action.good],
                "vp": action.vp,
            }
        )


def play(state: State, action: Action, log: list[dict] | None) -> None:
    seat = state.current
    if action.type == "build":
        pl = state.players[seat]
        b = BUILDINGS[action.building]
        if action.black_market:  # first: its colonist's place no longer acts (``_paid``)
            _pay_black_market(state, seat, action, log)
        cost = pl.doubloons if action.black_market else price(state, seat, b)
        church = total(pl, _BUILD_VP, b.name)
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
        if church:
            if log is not None:
                log.append({"event": "church", "seat": seat, "vp": church})
            award_vp(state, seat, church, log)
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
