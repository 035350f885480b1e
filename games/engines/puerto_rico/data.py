"""Components and building data of Puerto Rico, as tables.

Every number here comes from the rulebooks and ``shared/rules/buildings.md``. Goods and island
kinds are small integers on the hot paths (state, production, loading) and names in JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field

GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")
ISLAND_KINDS = (*GOODS, "quarry")
CORN, INDIGO, SUGAR, TOBACCO, COFFEE, QUARRY = range(len(ISLAND_KINDS))
ALL_GOODS = (CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
"""The goods as the integers the rules loop over; ``len(ALL_GOODS)`` kinds."""
ALL_ISLAND_KINDS = (*ALL_GOODS, QUARRY)
PROCESSED_GOODS = (INDIGO, SUGAR, TOBACCO, COFFEE)
"""The goods that need a production building besides the plantation (corn needs none)."""
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
    roles_per_player: int = 1  # roles each player chooses a round
    violet_copies: int | None = None  # of each other building; None: the table's copies
    production_copies: int | None = None  # of each production building; None: the table's

    def copies(self, building: Building) -> int:
        """How many of ``building`` lie on the board at the start: with two players, two of
        each of the six production buildings and one of every other (the Jeweler too)."""
        wanted = self.violet_copies if building.good is None else self.production_copies
        return building.copies if wanted is None else min(wanted, building.copies)


_BASE_ROLES = ROLES[:6]
_GOODS_3_5 = (10, 11, 11, 9, 9)
_PLANTATIONS_3_5 = (10, 12, 11, 9, 8)
_QUARRIES_3_5 = 8

SETUPS = {
    # Two players: 3 of each island kind and 2 of each good go back into the box; 1 of each
    # violet and 2 of each production building; each player chooses 3 of the 7 roles.
    2: Setup(
        doubloons=3,
        starting_plantations=(INDIGO, CORN),
        roles=(*_BASE_ROLES, "prospector"),
        ships=(4, 6),
        colonist_supply=40,
        colonist_ship=2,
        vp_chips=65,
        face_up=3,
        goods=tuple(n - 2 for n in _GOODS_3_5),
        plantations=tuple(n - 3 for n in _PLANTATIONS_3_5),
        quarries=_QUARRIES_3_5 - 3,
        roles_per_player=3,
        violet_copies=1,
        production_copies=2,
    ),
    3: Setup(
        doubloons=2,
        starting_plantations=(INDIGO, INDIGO, CORN),
        roles=_BASE_ROLES,
        ships=(4, 5, 6),
        colonist_supply=55,
        colonist_ship=3,
        vp_chips=75,
        face_up=4,
        goods=_GOODS_3_5,
        plantations=_PLANTATIONS_3_5,
        quarries=_QUARRIES_3_5,
    ),
    4: Setup(
        doubloons=3,
        starting_plantations=(INDIGO, INDIGO, CORN, CORN),
        roles=(*_BASE_ROLES, "prospector"),
        ships=(5, 6, 7),
        colonist_supply=75,
        colonist_ship=4,
        vp_chips=100,
        face_up=5,
        goods=_GOODS_3_5,
        plantations=_PLANTATIONS_3_5,
        quarries=_QUARRIES_3_5,
    ),
    5: Setup(
        doubloons=4,
        starting_plantations=(INDIGO, INDIGO, INDIGO, CORN, CORN),
        roles=(*_BASE_ROLES, "prospector", "prospector"),
        ships=(6, 7, 8),
        colonist_supply=95,
        colonist_ship=5,
        vp_chips=122,
        face_up=6,
        goods=_GOODS_3_5,
        plantations=_PLANTATIONS_3_5,
        quarries=_QUARRIES_3_5,
    ),
}
MAX_SHIPS = max(len(setup.ships) for setup in SETUPS.values())
VP_CHIPS_5P_OPTIONS = (122, 126)
"""First edition 122 chips; the 2011 German edition 126. A game option for five players."""


BASE = "base"
"""The expansion a building comes from: the base game (later New Buildings and Nobles)."""
NEW_BUILDINGS = "new_buildings"
"""Expansion I, "Die neuen Gebäude": its buildings are drafted onto the board at the start."""
NOBLES = "nobles"
"""Expansion II, "Die Adligen"."""
SMALL_PRODUCTION_KIND = "small_production"
LARGE_PRODUCTION_KIND = "large_production"
VIOLET = "violet"


@dataclass(frozen=True, slots=True)
class Building:
    """One row of the building table; what an occupied building does is in ``powers``.

    ``good`` is the good a production building processes (None for violet buildings);
    ``large`` buildings take two city spaces (the large violet buildings, not the large
    production buildings, which are a ``kind``).
    """

    name: str
    cost: int
    vp: int
    column: int
    circles: int
    copies: int  # on the board for 3-5 players (Setup.copies: for 2)
    kind: str
    good: int | None = None
    large: bool = False
    expansion: str = BASE

    @property
    def title(self) -> str:
        return self.name.replace("_", " ")

    @property
    def violet(self) -> bool:
        return self.kind == VIOLET

    spaces: int = field(init=False)  # city spaces: 2 for a large building, else 1

    def __post_init__(self) -> None:
        object.__setattr__(self, "spaces", 2 if self.large else 1)


def _production(name: str, cost: int, vp: int, column: int, circles: int, good: int) -> Building:
    small = circles == 1
    kind = SMALL_PRODUCTION_KIND if small else LARGE_PRODUCTION_KIND
    return Building(name, cost, vp, column, circles, 4 if small else 3, kind, good)


def _violet(
    name: str,
    cost: int,
    vp: int,
    column: int,
    *,
    large: bool = False,
    circles: int = 1,
    expansion: str = BASE,
) -> Building:
    copies = 1 if large else 2
    return Building(
        name, cost, vp, column, circles, copies, VIOLET, large=large, expansion=expansion
    )


BUILDINGS: dict[str, Building] = {
    b.name: b
    for b in (
        # name                           cost VP column circles good
        _production("small_indigo_plant", 1, 1, 1, 1, INDIGO),
        _production("small_sugar_mill", 2, 1, 1, 1, SUGAR),
        _production("indigo_plant", 3, 2, 2, 3, INDIGO),
        _production("sugar_mill", 4, 2, 2, 3, SUGAR),
        _production("tobacco_storage", 5, 3, 3, 3, TOBACCO),
        _production("coffee_roaster", 6, 3, 3, 2, COFFEE),
        # name                   cost VP column
        _violet("small_market", 1, 1, 1),
        _violet("hacienda", 2, 1, 1),
        _violet("construction_hut", 2, 1, 1),
        _violet("small_warehouse", 3, 1, 1),
        _violet("hospice", 4, 2, 2),
        _violet("office", 5, 2, 2),
        _violet("large_market", 5, 2, 2),
        _violet("large_warehouse", 6, 2, 2),
        _violet("factory", 7, 3, 3),
        _violet("university", 8, 3, 3),
        _violet("harbor", 8, 3, 3),
        _violet("wharf", 9, 3, 3),
        _violet("guild_hall", 10, 4, 4, large=True),
        _violet("residence", 10, 4, 4, large=True),
        _violet("fortress", 10, 4, 4, large=True),
        _violet("customs_house", 10, 4, 4, large=True),
        _violet("city_hall", 10, 4, 4, large=True),
        # Expansion I, "Die neuen Gebäude" (drafted onto the board; see DRAFT_SPACES)
        _violet("aqueduct", 1, 1, 1, expansion=NEW_BUILDINGS),
        _violet("forest_house", 2, 1, 1, expansion=NEW_BUILDINGS),
        _violet("black_market", 2, 1, 1, expansion=NEW_BUILDINGS),
        _violet("storehouse", 3, 1, 1, expansion=NEW_BUILDINGS),
        _violet("guest_house", 4, 2, 2, circles=2, expansion=NEW_BUILDINGS),
        _violet("trading_post", 5, 2, 2, expansion=NEW_BUILDINGS),
        _violet("church", 5, 2, 2, expansion=NEW_BUILDINGS),
        _violet("small_wharf", 6, 2, 2, expansion=NEW_BUILDINGS),
        _violet("lighthouse", 7, 3, 3, expansion=NEW_BUILDINGS),
        _violet("specialty_factory", 8, 3, 3, expansion=NEW_BUILDINGS),
        _violet("library", 8, 3, 3, expansion=NEW_BUILDINGS),
        _violet("union_hall", 9, 3, 3, expansion=NEW_BUILDINGS),
        _violet("statue", 10, 8, 4, large=True, circles=0, expansion=NEW_BUILDINGS),
        _violet("cloister", 10, 4, 4, large=True, expansion=NEW_BUILDINGS),
        # Expansion II, the Nobles ------------------------------------------------------
        # name                   cost VP column
        _violet("land_office", 2, 1, 1, expansion=NOBLES),
        _violet("chapel", 3, 1, 1, expansion=NOBLES),
        _violet("hunting_lodge", 4, 2, 2, expansion=NOBLES),
        _violet("building_office", 5, 2, 2, expansion=NOBLES),
        _violet("royal_supplier", 6, 2, 2, expansion=NOBLES),
        _violet("villa", 7, 3, 3, expansion=NOBLES),
        # The pink Jeweler processes no good but counts as a large production building.
        Building("jeweler", 8, 3, 3, 1, 2, LARGE_PRODUCTION_KIND, expansion=NOBLES),
        _violet("royal_garden", 10, 4, 4, large=True, expansion=NOBLES),
    )
}

SMALL_PRODUCTION = frozenset(b.name for b in BUILDINGS.values() if b.kind == SMALL_PRODUCTION_KIND)
LARGE_PRODUCTION = frozenset(b.name for b in BUILDINGS.values() if b.kind == LARGE_PRODUCTION_KIND)
CIRCLES = {name: b.circles for name, b in BUILDINGS.items()}
SPACES = {name: b.spaces for name, b in BUILDINGS.items()}
"""Each building's circles and city spaces by name, so that sums over a city run in C:
``sum(map(CIRCLES.__getitem__, pl.city))``."""
PRODUCTION_BY_GOOD: dict[int, tuple[str, ...]] = {
    g: tuple(b.name for b in BUILDINGS.values() if b.good == g) for g in ALL_GOODS
}
FACTORY_BONUS = (0, 0, 1, 2, 3, 5)
"""Doubloons for producing 0..5 kinds of goods with an occupied factory."""
RESIDENCE_BONUS = {10: 5, 11: 6, 12: 7}
"""Residence: 4 VP up to nine filled island spaces, then 5/6/7 for ten/eleven/twelve."""
NOBLES_IN_BOX = 20
"""Expansion II: 20 nobles beside the colonist supply."""
COLONISTS_IN_BOX = 100
"""The box's colonists ("100 Kolonisten"). With the Nobles running out ends nothing, so "müssen
weder die Kolonisten noch die Adligen zu Spielbeginn abgezählt werden": the whole box is the
supply."""
HUNTING_LODGE_VP = 2
"""Noble on the Hunting lodge: VP for strictly the most empty island spaces."""


# Expansion I, "Die neuen Gebäude" ---------------------------------------------------------
DRAFT_SPACES: dict[int, int] = {1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1, 8: 2, 9: 1, 10: 5}
"""The board's spaces for violet buildings by cost: 12 small and 5 large. In the draft any
building of that cost may take a space (of the four 2-, 5- and 8-buildings any two)."""
DRAFT_EXCLUSIVE = frozenset({"office", "trading_post"})
"""The rulebook urges "either the Office or the Trading post, never both": the draft enforces it."""
CLOISTER_BONUS = (0, 1, 3, 6, 10)
"""Cloister: 1/3/6/10 VP for 1/2/3/4 sets of three identical island tiles."""
STOREHOUSE_BARRELS = 3
"""The Storehouse keeps up to three barrels of any kinds besides the windrose barrel."""
GUEST_HOUSE = "guest_house"
