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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from .data import BUILDINGS, FACTORY_BONUS, LARGE_PRODUCTION, RESIDENCE_BONUS, SMALL_PRODUCTION

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
)


class Hook(NamedTuple):
    """A building's power at one point; ``fn`` is None for a privilege."""

    building: str
    fn: Callable[..., int] | None


_hooks: dict[str, list[Hook]] = {point: [] for point in POINTS}


def _add(point: str, building: str, fn: Callable[..., int] | None) -> None:
    if building not in BUILDINGS:
        raise ValueError(f"no building {building!r} to hook at {point!r}")
    _hooks[point].append(Hook(building, fn))


def privilege(point: str, *buildings: str) -> None:
    """The occupied ``buildings`` let their owner do what ``point`` allows."""
    for building in buildings:
        _add(point, building, None)


def power(point: str, building: str) -> Callable[[Callable[..., int]], Callable[..., int]]:
    """Hook the decorated function at ``point`` for the occupied ``building``."""

    def register(fn: Callable[..., int]) -> Callable[..., int]:
        _add(point, building, fn)
        return fn

    return register


def has(pl: Player, hooks: tuple[Hook, ...]) -> bool:
    """The player has an occupied building hooked here (a privilege applies)."""
    city = pl.city
    for building, _ in hooks:  # noqa: SIM110 - a plain loop: any() over a generator is slower
        if city.get(building):
            return True
    return False


def total(pl: Player, hooks: tuple[Hook, ...], *args: Any) -> int:
    """The sum of the player's occupied buildings' amounts at this point."""
    city = pl.city
    amount = 0
    for building, fn in hooks:
        if city.get(building):
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
    return RESIDENCE_BONUS.get(sum(pl.tiles), 4)


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


HOOKS: dict[str, tuple[Hook, ...]] = {point: tuple(hooks) for point, hooks in _hooks.items()}
"""Every point's hooks, in building order within a point's registration."""
