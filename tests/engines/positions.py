"""Building Puerto Rico positions by hand for the rulebook tests.

A position starts from ``new_game(n, seed)`` in the role phase; the players' boards, the ships,
the trading house and the supplies are replaced by what a test says. Goods supplies and the
buildings left on the board are worked out from the box contents unless given, so the totals
stay plausible. Then a test puts the game into a phase the ordinary way: ``choose(state, role)``.

Seats are named after the rulebook examples: Anna, Bob, Chris, David (and Emma for five).
"""

from __future__ import annotations

from typing import Any

from games.engines import puerto_rico as pr
from games.engines.puerto_rico.common import uses_new_buildings, uses_nobles
from games.engines.puerto_rico.data import BUILDINGS, GOODS, SETUPS

NAMES = ("Anna", "Bob", "Chris", "David", "Emma")
ANNA, BOB, CHRIS, DAVID, EMMA = range(5)


def player(
    *,
    doubloons: int = 0,
    vp: int = 0,
    goods: dict[str, int] | None = None,
    island: dict[str, tuple[int, int] | int] | None = None,
    city: dict[str, int] | None = None,
    san_juan: int = 0,
) -> dict[str, Any]:
    """One seat's board. ``island`` maps a kind to ``(tiles, colonists)`` or just ``tiles``;
    ``city`` maps a building to the colonists on it."""
    tiles = {}
    for kind, spec in (island or {}).items():
        t, c = (spec, 0) if isinstance(spec, int) else spec
        tiles[kind] = {"tiles": t, "colonists": c}
    return {
        "doubloons": doubloons,
        "vp": vp,
        "goods": {g: (goods or {}).get(g, 0) for g in GOODS},
        "island": tiles,
        "city": dict(city or {}),
        "san_juan": san_juan,
    }


def position(
    players: list[dict[str, Any]],
    *,
    seat: int = 0,
    governor: int | None = None,
    seed: int = 1,
    ships: list[tuple[str | None, int]] | None = None,
    trading_house: list[str] | None = None,
    goods: dict[str, int] | None = None,
    colonists: tuple[int, int] | None = None,
    vp_chips: int | None = None,
    quarries: int | None = None,
    face_up: list[str] | None = None,
    stack: list[str] | None = None,
    discards: list[str] | None = None,
    buildings: dict[str, int] | None = None,
    role_doubloons: dict[str, int] | None = None,
    taken: dict[str, int] | None = None,
    options: dict[str, Any] | None = None,
) -> pr.State:
    """A position in the role phase where ``seat`` is to choose a role.

    ``governor`` defaults to ``seat`` (the first choice of the round); ``taken`` marks roles
    already chosen this round (role -> seat). ``ships`` lists ``(good, count)`` for the three
    ships from the smallest. ``goods`` overrides the supply (default: the box minus what is on
    the boards, the ships and in the trading house); ``colonists`` is ``(supply, ship)``.
    """
    n = len(players)
    data = pr.new_game(n, seed, options).to_json()
    data["players"] = players
    governor = seat if governor is None else governor
    data["governor"] = governor
    data["current"] = data["chooser"] = seat
    for r in data["roles"]:
        r["doubloons"] = (role_doubloons or {}).get(r["role"], 0)
    for role, by in (taken or {}).items():
        next(r for r in data["roles"] if r["role"] == role and r["taken_by"] is None)[
            "taken_by"
        ] = by
    data["roles_chosen"] = (seat - governor) % n
    if ships is not None:
        for ship, (good, count) in zip(data["ships"], ships, strict=True):
            ship["good"], ship["count"] = good, count
    data["trading_house"] = list(trading_house or [])
    setup = SETUPS[n]
    supply = dict(zip(GOODS, setup.goods, strict=True))
    for pl in players:
        for g, k in pl["goods"].items():
            supply[g] -= k
    for ship in data["ships"]:
        if ship["good"]:
            supply[ship["good"]] -= ship["count"]
    for g in data["trading_house"]:
        supply[g] -= 1
    supply.update(goods or {})
    assert all(v >= 0 for v in supply.values()), f"more goods than the box holds: {supply}"
    data["goods"] = supply
    if colonists is not None:
        data["colonists"] = {"supply": colonists[0], "ship": colonists[1]}
    if vp_chips is not None:
        data["vp_chips"] = vp_chips
    if quarries is not None:
        data["quarries"] = quarries
    plantations = data["plantations"]
    if face_up is not None:
        plantations["face_up"] = sorted(face_up, key=GOODS.index)
    if stack is not None:
        plantations["stack"] = list(stack)
    if discards is not None:
        plantations["discards"] = list(discards)
    # Every building of the editions played is on the board (the draft is left out).
    editions = {"base"}
    if uses_new_buildings(data["options"]):
        editions.add("new_buildings")
    if uses_nobles(data["options"]):
        editions.add("nobles")
    board = {b.name: setup.copies(b) for b in BUILDINGS.values() if b.expansion in editions}
    for pl in players:
        for name in pl["city"]:
            board[name] -= 1
    board.update(buildings or {})
    assert all(v >= 0 for v in board.values()), f"more buildings than the board holds: {board}"
    data["buildings"] = board
    return pr.State.from_json(data)


def choose(state: pr.State, role: str, log: list[dict] | None = None) -> pr.State:
    """The seat to act takes ``role``."""
    return pr.apply(state, pr.ChooseRole(role), log=log)


def play(state: pr.State, *actions: pr.Action, log: list[dict] | None = None) -> pr.State:
    for action in actions:
        state = pr.apply(state, action, log=log)
    return state


def goods_of(state: pr.State, seat: int) -> dict[str, int]:
    """A seat's goods, leaving out the kinds it has none of."""
    return {g: n for g, n in state.to_json()["players"][seat]["goods"].items() if n}


def ships_of(state: pr.State) -> list[tuple[int, str | None, int]]:
    return [(s["capacity"], s["good"], s["count"]) for s in state.to_json()["ships"]]


def island(*kinds: int) -> tuple[int, ...]:
    """An ``Arrange`` island tuple from counts in the order corn, indigo, sugar, tobacco,
    coffee, quarry."""
    return (*kinds, *([0] * (6 - len(kinds))))
