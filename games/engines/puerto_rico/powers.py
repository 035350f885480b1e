"""What an occupied building does: small named functions, hooked at the points of the game
they change.

A building is a row of ``data.BUILDINGS`` (numbers) plus, if it has a power, entries here.
The phases never name a violet building: they ask ``has(player, HOOKS[POINT])`` for a
privilege, or ``total(player, HOOKS[POINT], …)`` for an amount, and each phase module reads
its point's hooks once, at import. A hook acts only while its building is occupied (a colonist
on its circle); that test lives in ``has`` and ``total`` alone.

Hook points (the phase that asks, and what a hook's function computes):

========================  ==========  ====================================================
point                     phase       function
========================  ==========  ====================================================
``DRAW_FACE_DOWN``        settler     privilege: draw a face-down plantation first
``SETTLE_QUARRY``         settler     privilege: take a quarry though not the settler
``COLONIST_WITH_TILE``    settler     privilege: a colonist on the new tile
``COLONIST_WITH_BUILDING`` builder    privilege: a colonist on the new building
``PRODUCTION_PAY``        craftsman   ``(player, kinds produced) -> doubloons``
``SALE_PRICE``            trader      ``(player, good) -> extra doubloons``
``SELL_SAME_KIND``        trader      privilege: sell a kind the trading house has
``LOADING_VP``            captain     ``(player, barrels) -> extra VP`` per loading
``OWN_SHIP``              captain     privilege: ship one kind on an own ship, once
``STORAGE_KINDS``         storage     ``(player) -> whole kinds of goods kept``
``SCORING``               end         ``(player) -> bonus VP``
========================  ==========  ====================================================

Points added for Expansion I, "Die neuen Gebäude":

========================  ==========  ====================================================
``LAY_FOREST``            settler     privilege: lay the new tile face down as a forest
``MOVE_GUESTS``           any         privilege: move guests from the guest house
``BUILD_PAYMENT``         builder     privilege: pay with a colonist, a barrel, a VP
``BUILD_VP``              builder     ``(player, building) -> VP`` for building it
``EXTRA_BARRELS``         craftsman   ``(player, good) -> extra barrels`` of that good
``BEST_KIND_PAY``         craftsman   ``(player, barrels of best kind) -> doubloons``
``SELL_TO_SUPPLY``        trader      privilege: sell one barrel straight to the supply
``CAPTAIN_START_VP``      captain     ``(player) -> VP`` before the first loading
``CAPTAIN_PAY``           captain     ``(player) -> doubloons`` for the captain
``LOADING_PAY``           captain     ``(player, barrels) -> doubloons`` per loading
``OWN_SHIP_MIXED``        captain     privilege: ship barrels of several kinds, once
``STORAGE_BARRELS``       storage     ``(player) -> barrels kept`` besides the windrose's
``DOUBLE_PRIVILEGE``      any role    privilege: the role's privilege counts twice
========================  ==========  ====================================================

Points added for Expansion II, the Nobles (some of their buildings act only with a colonist,
or only with a noble, on their circle: ``by=COLONIST`` or ``by=NOBLE``):

========================  ==========  ====================================================
``RETURN_PLANTATION``     settler     privilege: return a plantation at the phase's end
``EMPTIEST_ISLAND_VP``    settler     ``(player) -> VP`` for strictly the most empty spaces
``EXTRA_NOBLE``           mayor       privilege: a noble from the supply on the first turn
``BUILDING_COST``         builder     ``(player, building) -> doubloons off``
``PRODUCTION_INCOME``     craftsman   ``(player) -> doubloons``
``PRODUCTION_VP``         craftsman   ``(player) -> VP``
``BUY_PLANTATION``        trader      privilege: buy the top face-down plantation
``SELL_PLANTATION``       trader      privilege: discard a plantation for a doubloon
``NOBLES_FOR_GOODS``      captain     privilege: a barrel per noble for 1 VP each, first
========================  ==========  ====================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from .actions import COLONIST, NOBLE
from .data import (
    ALL_GOODS,
    ALL_ISLAND_KINDS,
    BUILDINGS,
    CLOISTER_BONUS,
    FACTORY_BONUS,
    HUNTING_LODGE_VP,
    INDIGO,
    LARGE_PRODUCTION,
    RESIDENCE_BONUS,
    SMALL_PRODUCTION,
    STOREHOUSE_BARRELS,
    SUGAR,
    Building,
)

if TYPE_CHECKING:
    from .state import Player

DRAW_FACE_DOWN = "draw_face_down"
SETTLE_QUARRY = "settle_quarry"
COLONIST_WITH_TILE = "colonist_with_tile"
COLONIST_WITH_BUILDING = "colonist_with_building"
PRODUCTION_PAY = "production_pay"
SALE_PRICE = "sale_price"
SELL_SAME_KIND = "sell_same_kind"
LOADING_VP = "loading_vp"
OWN_SHIP = "own_ship"
STORAGE_KINDS = "storage_kinds"
SCORING = "scoring"
# Expansion I, "Die neuen Gebäude"
LAY_FOREST = "lay_forest"
MOVE_GUESTS = "move_guests"
BUILD_PAYMENT = "build_payment"
BUILD_VP = "build_vp"
EXTRA_BARRELS = "extra_barrels"
BEST_KIND_PAY = "best_kind_pay"
SELL_TO_SUPPLY = "sell_to_supply"
CAPTAIN_START_VP = "captain_start_vp"
CAPTAIN_PAY = "captain_pay"
LOADING_PAY = "loading_pay"
OWN_SHIP_MIXED = "own_ship_mixed"
STORAGE_BARRELS = "storage_barrels"
DOUBLE_PRIVILEGE = "double_privilege"
# Expansion II, the Nobles.
RETURN_PLANTATION = "return_plantation"
EMPTIEST_ISLAND_VP = "emptiest_island_vp"
EXTRA_NOBLE = "extra_noble"
BUILDING_COST = "building_cost"
PRODUCTION_INCOME = "production_income"
PRODUCTION_VP = "production_vp"
BUY_PLANTATION = "buy_plantation"
SELL_PLANTATION = "sell_plantation"
NOBLES_FOR_GOODS = "nobles_for_goods"
POINTS = (
    DRAW_FACE_DOWN,
    SETTLE_QUARRY,
    COLONIST_WITH_TILE,
    COLONIST_WITH_BUILDING,
    PRODUCTION_PAY,
    SALE_PRICE,
    SELL_SAME_KIND,
    LOADING_VP,
    OWN_SHIP,
    STORAGE_KINDS,
    SCORING,
    LAY_FOREST,
    MOVE_GUESTS,
    BUILD_PAYMENT,
    BUILD_VP,
    EXTRA_BARRELS,
    BEST_KIND_PAY,
    SELL_TO_SUPPLY,
    CAPTAIN_START_VP,
    CAPTAIN_PAY,
    LOADING_PAY,
    OWN_SHIP_MIXED,
    STORAGE_BARRELS,
    DOUBLE_PRIVILEGE,
    RETURN_PLANTATION,
    EMPTIEST_ISLAND_VP,
    EXTRA_NOBLE,
    BUILDING_COST,
    PRODUCTION_INCOME,
    PRODUCTION_VP,
    BUY_PLANTATION,
    SELL_PLANTATION,
    NOBLES_FOR_GOODS,
)


class Hook(NamedTuple):
    """A building's power at one point; ``fn`` is None for a privilege. ``by``: the piece
    that must occupy it (``actions.COLONIST``, ``actions.NOBLE``), None for either."""

    building: str
    fn: Callable[..., int] | None
    by: str | None = None


_hooks: dict[str, list[Hook]] = {point: [] for point in POINTS}


def _add(point: str, building: str, fn: Callable[..., int] | None, by: str | None) -> None:
    if building not in BUILDINGS:
        raise ValueError(f"no building {building!r} to hook at {point!r}")
    if by not in (None, COLONIST, NOBLE):
        raise ValueError(f"{by!r} is no piece")
    _hooks[point].append(Hook(building, fn, by))


def privilege(point: str, *buildings: str, by: str | None = None) -> None:
    """The occupied ``buildings`` let their owner do what ``point`` allows."""
    for building in buildings:
        _add(point, building, None, by)


def power(
    point: str, building: str, *, by: str | None = None
) -> Callable[[Callable[..., int]], Callable[..., int]]:
    """Hook the decorated function at ``point`` for the occupied ``building``."""

    def register(fn: Callable[..., int]) -> Callable[..., int]:
        _add(point, building, fn, by)
        return fn

    return register


def _by(pl: Player, building: str, by: str) -> bool:
    """The building has a piece of the kind ``by`` on its circles."""
    nobles = pl.noble_city.get(building, 0)
    return nobles > 0 if by == NOBLE else pl.city[building] > nobles


def has(pl: Player, hooks: tuple[Hook, ...]) -> bool:
    """The player has an occupied building hooked here (a privilege applies)."""
    city = pl.city
    for building, _, by in hooks:
        if city.get(building) and (by is None or _by(pl, building, by)):
            return True
    return False


def total(pl: Player, hooks: tuple[Hook, ...], *args: Any) -> int:
    """The sum of the player's occupied buildings' amounts at this point."""
    city = pl.city
    amount = 0
    for building, fn, by in hooks:
        if city.get(building) and (by is None or _by(pl, building, by)):
            amount += fn(pl, *args)
    return amount


# Settler ----------------------------------------------------------------------------------
privilege(DRAW_FACE_DOWN, "hacienda")
privilege(SETTLE_QUARRY, "construction_hut")
privilege(COLONIST_WITH_TILE, "hospice")

# Builder ----------------------------------------------------------------------------------
privilege(COLONIST_WITH_BUILDING, "university")


# Craftsman --------------------------------------------------------------------------------
@power(PRODUCTION_PAY, "factory")
def factory(pl: Player, kinds: int) -> int:
    """0/1/2/3/5 doubloons for producing 1/2/3/4/5 kinds."""
    return FACTORY_BONUS[kinds]


# Trader -----------------------------------------------------------------------------------
@power(SALE_PRICE, "small_market")
def small_market(pl: Player, good: int) -> int:
    return 1


@power(SALE_PRICE, "large_market")
def large_market(pl: Player, good: int) -> int:
    return 2


privilege(SELL_SAME_KIND, "office")


# Captain ----------------------------------------------------------------------------------
@power(LOADING_VP, "harbor")
def harbor(pl: Player, barrels: int) -> int:
    """1 VP more each time the owner loads."""
    return 1


privilege(OWN_SHIP, "wharf")


@power(STORAGE_KINDS, "small_warehouse")
def small_warehouse(pl: Player) -> int:
    return 1


@power(STORAGE_KINDS, "large_warehouse")
def large_warehouse(pl: Player) -> int:
    return 2


# End of the game --------------------------------------------------------------------------
@power(SCORING, "guild_hall")
def guild_hall(pl: Player) -> int:
    """1 VP per small and 2 VP per large production building."""
    return sum(1 for b in pl.city if b in SMALL_PRODUCTION) + sum(
        2 for b in pl.city if b in LARGE_PRODUCTION
    )


@power(SCORING, "residence")
def residence(pl: Player) -> int:
    """4 VP up to nine filled island spaces, 5/6/7 for ten/eleven/twelve."""
    return RESIDENCE_BONUS.get(pl.island_filled(), 4)


@power(SCORING, "fortress")
def fortress(pl: Player) -> int:
    """1 VP per three colonists."""
    return pl.colonists() // 3


@power(SCORING, "customs_house")
def customs_house(pl: Player) -> int:
    """1 VP per four VP chips."""
    return pl.vp // 4


@power(SCORING, "city_hall")
def city_hall(pl: Player) -> int:
    """1 VP per violet building, itself included."""
    return sum(1 for b in pl.city if BUILDINGS[b].violet)


# Expansion I, "Die neuen Gebäude" ---------------------------------------------------------
_LARGE_PLANT = {INDIGO: "indigo_plant", SUGAR: "sugar_mill"}


@power(EXTRA_BARRELS, "aqueduct")
def aqueduct(pl: Player, good: int) -> int:
    """One more indigo (sugar) when the large indigo plant (sugar mill) produces any: an
    occupied large plant and a worked plantation of its kind (the small ones do not count)."""
    plant = _LARGE_PLANT.get(good)
    return 1 if plant and pl.city.get(plant) and pl.worked[good] else 0


privilege(LAY_FOREST, "forest_house")
privilege(MOVE_GUESTS, "guest_house")
privilege(BUILD_PAYMENT, "black_market")


@power(BUILD_VP, "church")
def church(pl: Player, building: str) -> int:
    """1 VP for a building of the 2nd or 3rd column, 2 VP for one of the 4th."""
    column = BUILDINGS[building].column
    return 2 if column == 4 else 1 if column >= 2 else 0


@power(BEST_KIND_PAY, "specialty_factory")
def specialty_factory(pl: Player, barrels: int) -> int:
    """One doubloon less than the barrels of the best kind (corn not counted)."""
    return max(0, barrels - 1)


privilege(SELL_TO_SUPPLY, "trading_post")


@power(CAPTAIN_START_VP, "union_hall")
def union_hall(pl: Player) -> int:
    """1 VP per two barrels of one kind on the windrose, per kind."""
    return sum(pl.goods[g] // 2 for g in ALL_GOODS)


@power(CAPTAIN_PAY, "lighthouse")
def lighthouse_captain(pl: Player) -> int:
    """The captain's extra doubloon, whether or not he ships anything."""
    return 1


@power(LOADING_PAY, "lighthouse")
def lighthouse(pl: Player, barrels: int) -> int:
    """1 doubloon each time the owner loads (the harbor's VP as money)."""
    return 1


privilege(OWN_SHIP_MIXED, "small_wharf")


@power(STORAGE_BARRELS, "storehouse")
def storehouse(pl: Player) -> int:
    return STOREHOUSE_BARRELS


privilege(DOUBLE_PRIVILEGE, "library")


@power(SCORING, "cloister")
def cloister(pl: Player) -> int:
    """1/3/6/10 VP for 1/2/3/4 sets of three identical island tiles (forests count)."""
    sets = sum(pl.tiles[k] // 3 for k in ALL_ISLAND_KINDS) + pl.forests // 3
    return CLOISTER_BONUS[min(sets, len(CLOISTER_BONUS) - 1)]


# Expansion II, the Nobles ----------------------------------------------------------------
privilege(RETURN_PLANTATION, "hunting_lodge", by=COLONIST)


@power(EMPTIEST_ISLAND_VP, "hunting_lodge", by=NOBLE)
def hunting_lodge(pl: Player) -> int:
    """2 VP; the settler phase asks only the seat with strictly the most empty spaces."""
    return HUNTING_LODGE_VP


privilege(EXTRA_NOBLE, "villa")


@power(BUILDING_COST, "building_office", by=COLONIST)
def building_office_colonist(pl: Player, building: Building) -> int:
    """1 doubloon off a small building (columns 1-3), not a large one."""
    return 1 if building.column < 4 else 0


@power(BUILDING_COST, "building_office", by=NOBLE)
def building_office_noble(pl: Player, building: Building) -> int:
    """2 doubloons off a large building (column 4), not a small one."""
    return 2 if building.column == 4 else 0


@power(PRODUCTION_INCOME, "chapel", by=COLONIST)
def chapel_doubloon(pl: Player) -> int:
    return 1


@power(PRODUCTION_VP, "chapel", by=NOBLE)
def chapel_vp(pl: Player) -> int:
    return 1


@power(PRODUCTION_INCOME, "jeweler")
def jeweler(pl: Player) -> int:
    """1 doubloon per noble the owner has, wherever it stands (docs/engine.md)."""
    return pl.nobles()


privilege(BUY_PLANTATION, "land_office", by=COLONIST)
privilege(SELL_PLANTATION, "land_office", by=NOBLE)
privilege(NOBLES_FOR_GOODS, "royal_supplier")


@power(SCORING, "royal_garden")
def royal_garden(pl: Player) -> int:
    """1 VP more per noble the owner has, wherever it stands."""
    return pl.nobles()


HOOKS: dict[str, tuple[Hook, ...]] = {point: tuple(hooks) for point, hooks in _hooks.items()}
"""Every point's hooks, in building order within a point's registration."""
