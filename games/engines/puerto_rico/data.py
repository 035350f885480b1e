"""Components and building data of Puerto Rico, as tables.

Every number here comes from the rulebooks and ``shared/rules/buildings.md``. Goods and island
kinds are small integers on the hot paths (state, production, loading) and names in JSON.
"""

from __future__ import annotations

from dataclasses import dataclass

CORN, INDIGO, SUGAR, TOBACCO, COFFEE = range(5)
QUARRY = 5
GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")
ISLAND_KINDS = (*GOODS, "quarry")
GOOD_INDEX = {name: i for i, name in enumerate(GOODS)}
ISLAND_INDEX = {name: i for i, name in enumerate(ISLAND_KINDS)}
PRICES = (0, 1, 2, 3, 4)

ISLAND_SPACES = 12
CITY_SPACES = 12
TRADING_HOUSE_SPACES = 4
WHARF_CAPACITY = 11
"""The wharf's imaginary ship holds 11 barrels: more than anyone can own of one kind."""

ROLES = ("settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector")


@dataclass(frozen=True, slots=True)
class Setup:
    """What the box gives for one player count."""

    doubloons: int
    starting_plantations: tuple[int, ...]  # clockwise from the governor
    roles: tuple[str, ...]
    ships: tuple[int, ...]
    colonist_supply: int
    colonist_ship: int
    vp_chips: int
    face_up: int  # one more than the number of players
    goods: tuple[int, ...]
    plantations: tuple[int, ...]  # corn, indigo, sugar, tobacco, coffee
    quarries: int


_BASE_ROLES = ROLES[:6]
_GOODS_3_5 = (10, 11, 11, 9, 9)
_PLANTATIONS_3_5 = (10, 12, 11, 9, 8)

SETUPS = {
    3: Setup(
        2,
        (INDIGO, INDIGO, CORN),
        _BASE_ROLES,
        (4, 5, 6),
        55,
        3,
        75,
        4,
        _GOODS_3_5,
        _PLANTATIONS_3_5,
        8,
    ),
    4: Setup(
        3,
        (INDIGO, INDIGO, CORN, CORN),
        (*_BASE_ROLES, "prospector"),
        (5, 6, 7),
        75,
        4,
        100,
        5,
        _GOODS_3_5,
        _PLANTATIONS_3_5,
        8,
    ),
    5: Setup(
        4,
        (INDIGO, INDIGO, INDIGO, CORN, CORN),
        (*_BASE_ROLES, "prospector", "prospector"),
        (6, 7, 8),
        95,
        5,
        122,
        6,
        _GOODS_3_5,
        _PLANTATIONS_3_5,
        8,
    ),
}
VP_CHIPS_5P_OPTIONS = (122, 126)
"""First edition 122 chips; the 2011 German edition 126. A game option for five players."""


@dataclass(frozen=True, slots=True)
class Building:
    """One row of the building table.

    ``good`` is the good a production building processes (None for violet buildings);
    ``large`` buildings take two city spaces and give end-of-game bonuses.
    """

    name: str
    title: str
    cost: int
    vp: int
    column: int
    circles: int
    copies: int
    good: int | None = None
    large: bool = False

    @property
    def violet(self) -> bool:
        return self.good is None

    @property
    def spaces(self) -> int:
        return 2 if self.large else 1


def _b(name: str, cost: int, vp: int, column: int, circles: int, copies: int, **kw) -> Building:
    return Building(name, name.replace("_", " "), cost, vp, column, circles, copies, **kw)


BUILDINGS: dict[str, Building] = {
    b.name: b
    for b in (
        _b("small_indigo_plant", 1, 1, 1, 1, 4, good=INDIGO),
        _b("small_sugar_mill", 2, 1, 1, 1, 4, good=SUGAR),
        _b("indigo_plant", 3, 2, 2, 3, 3, good=INDIGO),
        _b("sugar_mill", 4, 2, 2, 3, 3, good=SUGAR),
        _b("tobacco_storage", 5, 3, 3, 3, 3, good=TOBACCO),
        _b("coffee_roaster", 6, 3, 3, 2, 3, good=COFFEE),
        _b("small_market", 1, 1, 1, 1, 2),
        _b("hacienda", 2, 1, 1, 1, 2),
        _b("construction_hut", 2, 1, 1, 1, 2),
        _b("small_warehouse", 3, 1, 1, 1, 2),
        _b("hospice", 4, 2, 2, 1, 2),
        _b("office", 5, 2, 2, 1, 2),
        _b("large_market", 5, 2, 2, 1, 2),
        _b("large_warehouse", 6, 2, 2, 1, 2),
        _b("factory", 7, 3, 3, 1, 2),
        _b("university", 8, 3, 3, 1, 2),
        _b("harbor", 8, 3, 3, 1, 2),
        _b("wharf", 9, 3, 3, 1, 2),
        _b("guild_hall", 10, 4, 4, 1, 1, large=True),
        _b("residence", 10, 4, 4, 1, 1, large=True),
        _b("fortress", 10, 4, 4, 1, 1, large=True),
        _b("customs_house", 10, 4, 4, 1, 1, large=True),
        _b("city_hall", 10, 4, 4, 1, 1, large=True),
    )
}

SMALL_PRODUCTION = frozenset({"small_indigo_plant", "small_sugar_mill"})
LARGE_PRODUCTION = frozenset({"indigo_plant", "sugar_mill", "tobacco_storage", "coffee_roaster"})
PRODUCTION_BY_GOOD: dict[int, tuple[str, ...]] = {
    g: tuple(b.name for b in BUILDINGS.values() if b.good == g) for g in range(5)
}
FACTORY_BONUS = (0, 0, 1, 2, 3, 5)
"""Doubloons for producing 0..5 kinds of goods with an occupied factory."""
RESIDENCE_BONUS = {10: 5, 11: 6, 12: 7}
"""Residence: 4 VP up to nine filled island spaces, then 5/6/7 for ten/eleven/twelve."""
