"""Actions: small immutable values, one class per kind of decision, each with a JSON form.

Goods and island kinds are the integers of ``data`` (``SUGAR``, ``QUARRY``); JSON uses names,
e.g. ``{"type": "sell", "good": "sugar"}``. Every action is decided by the seat to act.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from .data import BUILDINGS, GOOD_INDEX, GOODS, ISLAND_INDEX, ISLAND_KINDS, ROLES


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message names the rule broken."""


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

    ``hospice``: with an occupied hospice, also put a colonist on the new tile.
    """

    tile: int
    hospice: bool = False
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
    type: ClassVar[str] = "arrange"

    def __post_init__(self) -> None:
        object.__setattr__(self, "city", tuple(sorted((b, n) for b, n in self.city if n)))


@dataclass(frozen=True, slots=True)
class Build:
    """Build ``building``; ``university``: put a colonist on it with an occupied university."""

    building: str
    university: bool = False
    type: ClassVar[str] = "build"


@dataclass(frozen=True, slots=True)
class ExtraGood:
    """The craftsman's privilege: one more barrel of a kind he produced."""

    good: int
    type: ClassVar[str] = "extra_good"


@dataclass(frozen=True, slots=True)
class Sell:
    """Sell one barrel to the trading house."""

    good: int
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
    type: ClassVar[str] = "store"

    def __post_init__(self) -> None:
        object.__setattr__(self, "warehouse", tuple(sorted(self.warehouse)))


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
)
PASS = Pass()
HACIENDA = Hacienda()


def action_to_json(action: Action) -> dict[str, Any]:
    t = action.type
    if t == "choose_role":
        return {"type": t, "role": action.role}
    if t in ("pass", "hacienda"):
        return {"type": t}
    if t == "settle":
        return {"type": t, "tile": ISLAND_KINDS[action.tile], "hospice": action.hospice}
    if t == "arrange":
        return {
            "type": t,
            "island": {k: n for k, n in zip(ISLAND_KINDS, action.island, strict=True) if n},
            "city": dict(action.city),
            "privilege": action.privilege,
        }
    if t == "build":
        return {"type": t, "building": action.building, "university": action.university}
    if t in ("extra_good", "sell", "wharf"):
        return {"type": t, "good": GOODS[action.good]}
    if t == "load":
        return {"type": t, "good": GOODS[action.good], "ship": action.ship}
    return {
        "type": t,
        "windrose": None if action.windrose is None else GOODS[action.windrose],
        "warehouse": [GOODS[g] for g in action.warehouse],
    }


def _good(data: dict[str, Any], key: str = "good") -> int:
    name = data.get(key)
    if name not in GOOD_INDEX:
        raise MalformedAction(f"{key!r} must be one of {', '.join(GOODS)}")
    return GOOD_INDEX[name]


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise MalformedAction(f"{key!r} must be true or false")
    return value


def _count(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 99:
        raise MalformedAction(f"{what} must be a whole number from 0 to 99")
    return value


def action_from_json(data: Any) -> Action:
    """Parse an action; anything malformed raises ``MalformedAction`` with the reason."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise MalformedAction("an action is an object with a 'type'")
    t = data["type"]
    if t == "choose_role":
        if data.get("role") not in ROLES:
            raise MalformedAction(f"'role' must be one of {', '.join(ROLES)}")
        return ChooseRole(data["role"])
    if t == "pass":
        return PASS
    if t == "hacienda":
        return HACIENDA
    if t == "settle":
        if data.get("tile") not in ISLAND_INDEX:
            raise MalformedAction(f"'tile' must be one of {', '.join(ISLAND_KINDS)}")
        return Settle(ISLAND_INDEX[data["tile"]], _flag(data, "hospice"))
    if t == "arrange":
        island, city = data.get("island", {}), data.get("city", {})
        if not isinstance(island, dict) or not isinstance(city, dict):
            raise MalformedAction("'island' and 'city' map names to colonist counts")
        counts = [0] * len(ISLAND_KINDS)
        for kind, n in island.items():
            if kind not in ISLAND_INDEX:
                raise MalformedAction(f"unknown island tile {kind!r}")
            counts[ISLAND_INDEX[kind]] = _count(n, f"colonists on {kind}")
        for name, n in city.items():
            if name not in BUILDINGS:
                raise MalformedAction(f"unknown building {name!r}")
            _count(n, f"colonists on {name}")
        return Arrange(tuple(counts), tuple(city.items()), _flag(data, "privilege"))
    if t == "build":
        if data.get("building") not in BUILDINGS:
            raise MalformedAction("'building' must name a building")
        return Build(data["building"], _flag(data, "university"))
    if t == "extra_good":
        return ExtraGood(_good(data))
    if t == "sell":
        return Sell(_good(data))
    if t == "wharf":
        return Wharf(_good(data))
    if t == "load":
        ship = data.get("ship")
        if not isinstance(ship, int) or isinstance(ship, bool) or not 0 <= ship <= 2:
            raise MalformedAction("'ship' must be 0, 1 or 2")
        return Load(_good(data), ship)
    if t == "store":
        windrose = None if data.get("windrose") is None else _good(data, "windrose")
        warehouse = data.get("warehouse", [])
        if not isinstance(warehouse, list) or len(warehouse) > 5:
            raise MalformedAction("'warehouse' must be a list of goods")
        kinds = [_good({"good": g}) for g in warehouse]
        if len(set(kinds)) != len(kinds):
            raise MalformedAction("'warehouse' names a good twice")
        return Store(windrose, tuple(kinds))
    raise MalformedAction(f"unknown action type {t!r}")
