"""Actions: small immutable values, one class per kind of decision, each with a JSON form.

Goods and island kinds are the integers of ``data`` (``SUGAR``, ``QUARRY``); JSON uses names,
e.g. ``{"type": "sell", "good": "sugar"}``. Every action is decided by the seat to act.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..text import BAD_TEXT, holds_bad_text
from .data import BUILDINGS, GOOD_INDEX, GOODS, ISLAND_INDEX, ISLAND_KINDS, ROLES

REFUSALS: dict[str, str] = {
    # Any phase
    "game_over": "the game is over",
    "role_expected": "a role must be chosen now",
    "wrong_action": "that is not a choice in the {phase} phase",
    "role_not_in_game": "there is no {role} card in a {players}-player game",
    "role_taken": "the {role} has already been chosen this round",
    "no_good": "you have no {good}",
    "no_colonist": "no colonist is left in the supply or on the ship",
    # Settler
    "no_hacienda": "only the owner of an occupied hacienda may draw a face-down tile",
    "hacienda_used": "the hacienda draws one tile a turn, before the face-up tile",
    "stack_empty": "the face-down plantation stack is empty",
    "island_full": "all 12 island spaces are filled",
    "quarry_not_allowed": (
        "only the settler (privilege) or an occupied construction hut takes a quarry"
    ),
    "quarries_gone": "no quarries are left",
    "plantation_not_face_up": "no face-up {tile} plantation to take",
    "no_hospice": "only the owner of an occupied hospice gets a colonist with a tile",
    # Mayor
    "island_counts": "a placement gives a count for each of the six island kinds",
    "privilege_not_mayor": "only the mayor takes a colonist from the supply (privilege)",
    "colonist_supply_empty": "the colonist supply is empty: no privilege colonist",
    "negative_count": "a colonist count cannot be negative",
    "too_many_on_tiles": "{colonists} colonists on {tile}, but you have {tiles} such tiles",
    "building_twice": "a placement names each building once",
    "no_building": "you have no {building}",
    "too_many_on_building": "the {building} has only {circles} circles",
    "too_many_colonists": "you place {placed} colonists but have {colonists}",
    "circles_empty": "colonists may wait in San Juan only when every circle is full",
    # Builder
    "already_built": "you already own a {building}: each building once per player",
    "building_gone": "no {building} is left on the board",
    "no_city_space": "the {building} needs {spaces} city spaces; you have {free} free",
    "too_expensive": "the {building} costs you {price} doubloons; you have {doubloons}",
    "no_university": "only the owner of an occupied university gets a colonist",
    # Craftsman
    "not_produced": "the extra barrel must be of a kind the craftsman produced now",
    "good_gone": "no {good} is left in the supply",
    # Trader
    "trading_house_full": "the trading house is full",
    "trading_house_has_good": (
        "the trading house already has {good}: it buys only different kinds "
        "(unless you have an occupied office)"
    ),
    # Captain
    "must_load": "you must load when you can (captain phase)",
    "no_wharf": "only the owner of an occupied wharf ships on the wharf",
    "wharf_used": "the wharf is used once a captain phase",
    "no_ship": "there is no ship {ship}",
    "ship_has_other_good": "the {capacity}-ship carries {good}: a ship takes one kind",
    "ship_full": "the {capacity}-ship is full",
    "good_on_other_ship": "{good} is already on another ship",
    "not_largest_ship": "you must choose the empty ship that takes the most of your barrels",
    # Storage
    "warehouse_twice": "a warehouse list names each kind once",
    "warehouse_too_small": "your occupied warehouses hold {kinds} kinds of goods",
    "windrose_in_warehouse": "the windrose barrel is one more barrel, of a kind not warehoused",
    "warehouse_not_filled": "fill your warehouses before goods go back to the supply",
    "windrose_empty": "keep one barrel on your windrose before goods go back",
    # New Buildings
    "draft_expected": "the violet buildings are drafted now",
    "not_in_draft": "the {building} is not among the buildings to draft",
    "already_drafted": "the {building} is already on the board",
    "no_draft_space": "no space for a building costing {cost} is left on the board",
    "office_or_trading_post": "the office and the trading post are never both in play",
    "office_or_trading_post_needed": (
        "the last space of cost {cost} takes the office or the trading post: one of them is"
        " always in play"
    ),
    "no_forest_house": "only the owner of an occupied forest house lays a tile as a forest",
    "quarry_no_forest": "a quarry cannot become a forest",
    "nothing_drawn": "there is no tile just drawn (hacienda, land office) to lay as a forest",
    "library_no_hospice": "the library's second tile comes without a hospice colonist",
    "library_no_quarry": (
        "the library's second tile is a plantation (a quarry only with an occupied "
        "construction hut)"
    ),
    "no_black_market": (
        "only the owner of an occupied black market pays with a colonist, a barrel or a VP"
    ),
    "black_market_not_needed": "the black market pays only what your doubloons lack: {short} here",
    "no_colonist_there": "you have no colonist on {place} to pay with",
    "no_noble_there": "you have no noble on {place} to pay with",
    "no_vp": "you have no VP to pay with",
    "no_trading_post": "only the owner of an occupied trading post sells to the supply",
    "no_small_wharf": "only the owner of an occupied small wharf ships on it",
    "small_wharf_used": "the small wharf is used once a captain phase",
    "small_wharf_empty": "load at least one barrel on the small wharf",
    "storehouse_too_small": "your storehouse keeps {barrels} barrels",
    "storehouse_not_filled": "fill your storehouse before goods go back to the supply",
    "no_guests": "you have no guests in an occupied guest house",
    "no_guest_moves_now": "guests are not moved in the mayor phase",
    "no_free_circle": "no empty circle on {place}",
    "no_noble_guest": "no noble is a guest in your guest house",
    # Nobles (Expansion II)
    "nobles_not_in_game": "there are no nobles in this game",
    "noble_not_on_ship": "no noble waits on the colonist ship for you",
    "noble_must_take": "only the ship's noble is left to deal to you: take it",
    "too_many_nobles": "you place {placed} nobles but have {nobles}",
    "not_a_plantation": "a quarry is no plantation",
    "no_plantation": "you have no {tile} plantation with this on it: {occupant}",
    "no_land_office": "only the owner of a Land office with a colonist on it buys a plantation",
    "no_land_office_noble": (
        "only the owner of a Land office with a noble on it sells a plantation"
    ),
    "land_office_used": "the Land office is used once a turn, before selling",
    "no_doubloon": "a face-down plantation costs 1 doubloon",
    "no_royal_supplier": "only the owner of an occupied Royal supplier trades barrels for VP",
    "supplier_not_now": "the Royal supplier acts once, before the owner's first load",
    "supplier_barrels": "one to {nobles} barrels of different kinds (one per noble you own)",
    # Malformed JSON
    "not_an_action": "an action is an object with a 'type'",
    "malformed": "{field!r} must be a name (a string)",
    "bad_text": BAD_TEXT,
    "unknown_type": "unknown action type {type!r}",
    "bad_role": "'role' must be one of {choices}",
    "bad_tile": "'tile' must be one of {choices}",
    "bad_good": "{field!r} must be one of {choices}",
    "bad_flag": "{field!r} must be true or false",
    "bad_placement": "'island' and 'city' map names to colonist counts",
    "unknown_tile": "unknown island tile {tile!r}",
    "unknown_building": "unknown building {building!r}",
    "bad_count": "colonists on {place} must be a whole number from 0 to 99",
    "bad_building": "'building' must name a building",
    "bad_ship": "'ship' must be 0, 1 or 2",
    "bad_warehouse": "'warehouse' must be a list of goods",
    "bad_black_market": (
        "'black_market' maps 'colonist' (and 'noble'), 'good' and 'vp' to what is paid"
    ),
    "bad_place": "unknown place {place!r}",
    "bad_occupant": "'occupant' must be one of {choices}",
    "bad_goods": (
        "'goods' maps goods to barrel counts (small wharf) or lists goods (royal supplier)"
    ),
}
"""Every refusal's code and its English wording; ``docs/engine.md`` lists their parameters.
Codes are what a program reads; the site shows its own translation of each."""


def _readable(value: Any) -> Any:
    return value.replace("_", " ") if isinstance(value, str) else value


class IllegalAction(ValueError):
    """An action the rules do not allow now: ``code`` names the rule broken, ``params`` say
    what a reader needs to explain it; the message is the English of ``REFUSALS``."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(REFUSALS[code].format(**{k: _readable(v) for k, v in params.items()}))


class MalformedAction(IllegalAction):
    """JSON that is not an action at all."""


@dataclass(frozen=True, slots=True)
class ChooseRole:
    """Take a role card (and the doubloons on it)."""

    role: str
    type: ClassVar[str] = "choose_role"


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline: take no tile, build nothing, sell nothing, no extra good, no wharf."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Hacienda:
    """Occupied hacienda: first take the top face-down plantation onto the island."""

    type: ClassVar[str] = "hacienda"


@dataclass(frozen=True, slots=True)
class Settle:
    """Take a face-up plantation of kind ``tile``, or a quarry (``QUARRY``).

    ``hospice``: with an occupied hospice, also put a colonist on the new tile (on a forest:
    in San Juan). ``forest``: with an occupied forest house, lay the plantation face down.
    """

    tile: int
    hospice: bool = False
    forest: bool = False
    type: ClassVar[str] = "settle"


@dataclass(frozen=True, slots=True)
class Arrange:
    """Mayor phase: the whole placement of the seat's colonists.

    ``island[k]`` colonists on island tiles of kind ``k``; ``city`` the colonists per
    building (buildings left out get none); the rest wait in San Juan. ``privilege``: the
    mayor takes his extra colonist from the supply (only the mayor may).
    """

    island: tuple[int, ...]
    city: tuple[tuple[str, int], ...] = ()
    privilege: bool = False
    # The Nobles: nobles per island kind (``()``: none) and per building, and whether the
    # seat takes the noble waiting on the colonist ship instead of one of its colonists.
    # ``island`` and ``city`` then count the colonists only.
    noble_island: tuple[int, ...] = ()
    noble_city: tuple[tuple[str, int], ...] = ()
    take_noble: bool = False
    type: ClassVar[str] = "arrange"

    def __post_init__(self) -> None:
        city = [(b, n) for b, n in self.city if n]
        city.sort()
        object.__setattr__(self, "city", tuple(city))
        if self.noble_city:
            noble_city = tuple(sorted((b, n) for b, n in self.noble_city if n))
            object.__setattr__(self, "noble_city", noble_city)
        if self.noble_island and not any(self.noble_island):
            object.__setattr__(self, "noble_island", ())


@dataclass(frozen=True, slots=True)
class Build:
    """Build ``building``; ``university``: put a colonist on it with an occupied university.

    Black market (occupied): pay one doubloon each with the colonist on ``colonist`` (an
    island kind's name, a building or ``"san_juan"``; with the Nobles ``noble``: a noble
    from there), a barrel of ``good`` and a VP (``vp``).
    """

    building: str
    university: bool = False
    colonist: str | None = None
    good: int | None = None
    vp: bool = False
    noble: bool = False
    type: ClassVar[str] = "build"

    @property
    def black_market(self) -> int:
        """Doubloons paid with the black market."""
        return (self.colonist is not None) + (self.good is not None) + self.vp


@dataclass(frozen=True, slots=True)
class ExtraGood:
    """The craftsman's privilege: one more barrel of a kind he produced."""

    good: int
    type: ClassVar[str] = "extra_good"


@dataclass(frozen=True, slots=True)
class Sell:
    """Sell one barrel to the trading house; ``trading_post``: to the supply instead."""

    good: int
    trading_post: bool = False
    type: ClassVar[str] = "sell"


@dataclass(frozen=True, slots=True)
class Load:
    """Load every barrel of ``good`` that fits onto cargo ship ``ship`` (0 = smallest)."""

    good: int
    ship: int
    type: ClassVar[str] = "load"


@dataclass(frozen=True, slots=True)
class Wharf:
    """Ship all barrels of ``good`` on the wharf's imaginary ship (once a captain phase)."""

    good: int
    type: ClassVar[str] = "wharf"


@dataclass(frozen=True, slots=True)
class Store:
    """End of the captain phase: what to keep. Everything else goes back to the supply.

    ``windrose``: the one barrel anyone may keep; ``warehouse``: kinds kept whole in
    occupied warehouses (small: one kind, large: two).
    """

    windrose: int | None = None
    warehouse: tuple[int, ...] = field(default=())
    storehouse: tuple[int, ...] = field(default=())
    type: ClassVar[str] = "store"

    def __post_init__(self) -> None:
        object.__setattr__(self, "warehouse", tuple(sorted(self.warehouse)))
        object.__setattr__(self, "storehouse", tuple(sorted(self.storehouse)))


# Expansion I, "Die neuen Gebäude" ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Draft:
    """Before the first round: put ``building`` (and its twin) on a free space of its cost."""

    building: str
    type: ClassVar[str] = "draft"


@dataclass(frozen=True, slots=True)
class Forest:
    """Occupied forest house: lay the tile just drawn (hacienda; with both expansions also
    the Land office) face down; a guest moved onto it goes to San Juan."""

    type: ClassVar[str] = "forest"


@dataclass(frozen=True, slots=True)
class SmallWharf:
    """Occupied small wharf: ship ``goods[g]`` barrels of each good, once a captain phase."""

    goods: tuple[int, ...]
    type: ClassVar[str] = "small_wharf"


@dataclass(frozen=True, slots=True)
class MoveGuest:
    """Move a guest from the guest house to an empty circle: ``to`` is an island kind's name
    or a building; ``noble``: the guest is a noble (both expansions)."""

    to: str
    noble: bool = False
    type: ClassVar[str] = "move_guest"


EMPTY, COLONIST, NOBLE, FOREST_TILE = "empty", "colonist", "noble", "forest"
OCCUPANTS = (EMPTY, COLONIST, NOBLE, FOREST_TILE)
"""What stands on a plantation a seat gives up; its piece goes to San Juan. ``"forest"``:
the plantation lies face down as a forest (both expansions: the Hunting lodge returns it)."""


@dataclass(frozen=True, slots=True)
class BuyPlantation:
    """Land office with a colonist, trader phase: the top face-down plantation for 1
    doubloon, onto the island (before selling)."""

    type: ClassVar[str] = "buy_plantation"


@dataclass(frozen=True, slots=True)
class DiscardPlantation:
    """Give up a plantation of kind ``tile`` with ``occupant`` on it onto the discard pile:
    the Land office with a noble (trader phase, for 1 doubloon) or the Hunting lodge with a
    colonist (end of the settler phase; also a forest, ``occupant`` ``"forest"``)."""

    tile: int
    occupant: str = EMPTY
    type: ClassVar[str] = "discard_plantation"


@dataclass(frozen=True, slots=True)
class RoyalSupplier:
    """Royal supplier, before the first load of the captain phase: these barrels (different
    kinds, at most one per noble you own) go back to the supply for 1 VP each."""

    goods: tuple[int, ...]
    type: ClassVar[str] = "royal_supplier"

    def __post_init__(self) -> None:
        object.__setattr__(self, "goods", tuple(sorted(self.goods)))


Action = (
    ChooseRole
    | Pass
    | Hacienda
    | Settle
    | Arrange
    | Build
    | ExtraGood
    | Sell
    | Load
    | Wharf
    | Store
    | Draft
    | Forest
    | SmallWharf
    | MoveGuest
    | BuyPlantation
    | DiscardPlantation
    | RoyalSupplier
)
PASS = Pass()
FOREST = Forest()
PLACES = frozenset((*ISLAND_KINDS, *BUILDINGS, "san_juan"))
"""Where a colonist can stand: an island kind, a building, San Juan (black market, guests)."""
HACIENDA = Hacienda()
BUY_PLANTATION = BuyPlantation()


def action_to_json(action: Action) -> dict[str, Any]:
    t = action.type
    if t == "choose_role":
        return {"type": t, "role": action.role}
    if t in ("pass", "hacienda", "forest", "buy_plantation"):
        return {"type": t}
    if t == "settle":
        out = {"type": t, "tile": ISLAND_KINDS[action.tile], "hospice": action.hospice}
        if action.forest:
            out["forest"] = True
        return out
    if t == "arrange":
        data = {
            "type": t,
            "island": {k: n for k, n in zip(ISLAND_KINDS, action.island, strict=True) if n},
            "city": dict(action.city),
            "privilege": action.privilege,
        }
        if action.noble_island or action.noble_city or action.take_noble:
            island = action.noble_island or (0,) * len(ISLAND_KINDS)
            data["nobles"] = {
                "island": {k: n for k, n in zip(ISLAND_KINDS, island, strict=True) if n},
                "city": dict(action.noble_city),
            }
            data["take_noble"] = action.take_noble
        return data
    if t == "discard_plantation":
        return {"type": t, "tile": ISLAND_KINDS[action.tile], "occupant": action.occupant}
    if t == "royal_supplier":
        return {"type": t, "goods": [GOODS[g] for g in action.goods]}
    if t == "build":
        out = {"type": t, "building": action.building, "university": action.university}
        if action.black_market:
            out["black_market"] = {
                "colonist": action.colonist,
                "good": None if action.good is None else GOODS[action.good],
                "vp": action.vp,
            }
            if action.noble:
                out["black_market"]["noble"] = True
        return out
    if t == "sell" and action.trading_post:
        return {"type": t, "good": GOODS[action.good], "trading_post": True}
    if t in ("extra_good", "sell", "wharf"):
        return {"type": t, "good": GOODS[action.good]}
    if t == "draft":
        return {"type": t, "building": action.building}
    if t == "small_wharf":
        return {"type": t, "goods": {GOODS[g]: n for g, n in enumerate(action.goods) if n}}
    if t == "move_guest":
        if action.noble:
            return {"type": t, "to": action.to, "noble": True}
        return {"type": t, "to": action.to}
    if t == "load":
        return {"type": t, "good": GOODS[action.good], "ship": action.ship}
    out = {
        "type": t,
        "windrose": None if action.windrose is None else GOODS[action.windrose],
        "warehouse": [GOODS[g] for g in action.warehouse],
    }
    if action.storehouse:
        out["storehouse"] = [GOODS[g] for g in action.storehouse]
    return out


def _name(data: dict[str, Any], key: str) -> Any:
    """The name under ``key``, or None if it is missing; a list, object or number where a
    name belongs is malformed, not merely unknown."""
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise MalformedAction("malformed", field=key)
    return value


def _good(data: dict[str, Any], key: str = "good") -> int:
    name = _name(data, key)
    if name not in GOOD_INDEX:
        raise MalformedAction("bad_good", field=key, choices=", ".join(GOODS))
    return GOOD_INDEX[name]


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise MalformedAction("bad_flag", field=key)
    return value


def _count(value: Any, place: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
        raise MalformedAction("bad_count", place=place)
    return value


def _placement(data: dict[str, Any]) -> tuple[tuple[int, ...], tuple[tuple[str, int], ...]]:
    """The ``island`` and ``city`` counts of a placement."""
    island, city = data.get("island", {}), data.get("city", {})
    if not isinstance(island, dict) or not isinstance(city, dict):
        raise MalformedAction("bad_placement")
    counts = [0] * len(ISLAND_KINDS)
    for kind, n in island.items():
        if kind not in ISLAND_INDEX:
            raise MalformedAction("unknown_tile", tile=kind)
        counts[ISLAND_INDEX[kind]] = _count(n, kind)
    for name, n in city.items():
        if name not in BUILDINGS:
            raise MalformedAction("unknown_building", building=name)
        _count(n, name)
    return tuple(counts), tuple(city.items())


def action_from_json(data: Any) -> Action:
    """Parse an action; anything malformed raises ``MalformedAction`` with the reason.
    Fields an action does not have are ignored: ``action_to_json`` of the result is the
    action's one canonical JSON form."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedAction("not_an_action")
    if holds_bad_text(data):
        raise MalformedAction("bad_text")
    t = data["type"]
    if t == "choose_role":
        if _name(data, "role") not in ROLES:
            raise MalformedAction("bad_role", choices=", ".join(ROLES))
        return ChooseRole(data["role"])
    if t == "pass":
        return PASS
    if t == "hacienda":
        return HACIENDA
    if t == "settle":
        if _name(data, "tile") not in ISLAND_INDEX:
            raise MalformedAction("bad_tile", choices=", ".join(ISLAND_KINDS))
        return Settle(ISLAND_INDEX[data["tile"]], _flag(data, "hospice"), _flag(data, "forest"))
    if t == "arrange":
        island, city = _placement(data)
        nobles = data.get("nobles", {})
        if not isinstance(nobles, dict):
            raise MalformedAction("bad_placement")
        noble_island, noble_city = _placement(nobles)
        return Arrange(
            island,
            city,
            _flag(data, "privilege"),
            noble_island,
            noble_city,
            _flag(data, "take_noble"),
        )
    if t == "buy_plantation":
        return BUY_PLANTATION
    if t == "discard_plantation":
        if _name(data, "tile") not in GOOD_INDEX:
            raise MalformedAction("bad_tile", choices=", ".join(GOODS))
        occupant = data.get("occupant", EMPTY)
        if occupant not in OCCUPANTS:
            raise MalformedAction("bad_occupant", choices=", ".join(OCCUPANTS))
        return DiscardPlantation(GOOD_INDEX[data["tile"]], occupant)
    if t == "royal_supplier":
        goods = data.get("goods")
        if not isinstance(goods, list) or len(goods) > len(GOODS):
            raise MalformedAction("bad_goods")
        return RoyalSupplier(tuple(_good({"goods": g}, "goods") for g in goods))
    if t == "build":
        if _name(data, "building") not in BUILDINGS:
            raise MalformedAction("bad_building")
        pay = data.get("black_market")
        pay = {} if pay is None else pay
        if not isinstance(pay, dict):
            raise MalformedAction("bad_black_market")
        colonist = _name(pay, "colonist")
        if colonist is not None and colonist not in PLACES:
            raise MalformedAction("bad_place", place=colonist)
        good = None if pay.get("good") is None else _good(pay)
        noble = _flag(pay, "noble")
        if noble and colonist is None:
            raise MalformedAction("bad_black_market")
        return Build(
            data["building"], _flag(data, "university"), colonist, good, _flag(pay, "vp"), noble
        )
    if t == "extra_good":
        return ExtraGood(_good(data))
    if t == "sell":
        return Sell(_good(data), _flag(data, "trading_post"))
    if t == "draft":
        if _name(data, "building") not in BUILDINGS:
            raise MalformedAction("bad_building")
        return Draft(data["building"])
    if t == "forest":
        return FOREST
    if t == "move_guest":
        to = _name(data, "to")
        if to not in PLACES or to == "san_juan":
            raise MalformedAction("bad_place", place=to)
        return MoveGuest(to, _flag(data, "noble"))
    if t == "small_wharf":
        goods = data.get("goods")
        if not isinstance(goods, dict):
            raise MalformedAction("bad_goods")
        counts = [0] * len(GOODS)
        for name, n in goods.items():
            if name not in GOOD_INDEX:
                raise MalformedAction("bad_goods")
            counts[GOOD_INDEX[name]] = _count(n, name)
        return SmallWharf(tuple(counts))
    if t == "wharf":
        return Wharf(_good(data))
    if t == "load":
        ship = data.get("ship")
        if not isinstance(ship, int) or isinstance(ship, bool) or not 0 <= ship <= 2:
            raise MalformedAction("bad_ship")
        return Load(_good(data), ship)
    if t == "store":
        windrose = None if data.get("windrose") is None else _good(data, "windrose")
        warehouse = data.get("warehouse", [])
        if not isinstance(warehouse, list) or len(warehouse) > 5:
            raise MalformedAction("bad_warehouse")
        kinds = [_good({"warehouse": g}, "warehouse") for g in warehouse]
        if len(set(kinds)) != len(kinds):
            raise MalformedAction("warehouse_twice")
        extra = data.get("storehouse", [])
        if not isinstance(extra, list) or len(extra) > 3:
            raise MalformedAction("bad_warehouse")
        barrels = [_good({"storehouse": g}, "storehouse") for g in extra]
        return Store(windrose, tuple(kinds), tuple(barrels))
    raise MalformedAction("unknown_type", type=t)
