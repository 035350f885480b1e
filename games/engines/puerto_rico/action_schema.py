"""Every action's JSON form as a JSON Schema (``ACTION_SCHEMA``), so that an API description
and a bot author know the actions without the rules or this code.

Plain data, built from the engine's own tables (goods, island kinds, buildings, roles), in the
keywords JSON Schema 2020-12 and OpenAPI share. It says what ``action_from_json`` reads; whether
an action is legal now is the rules' business (``legal_actions``, ``legal_schema``). Fields an
action does not have are ignored by the engine, so no member refuses extra keys; the maps of a
placement and of the small wharf name only island kinds, buildings and goods.
"""

from __future__ import annotations

from typing import Any

from .actions import OCCUPANTS, PLACES
from .data import BUILDINGS, GOODS, ISLAND_KINDS, MAX_SHIPS, ROLES

MOST_PIECES = 99
"""The largest count a placement or the small wharf reads (``actions._count``)."""

_GOOD = {"enum": list(GOODS), "description": "a good"}
_GOOD_OR_NONE = {"enum": [*GOODS, None], "description": "a good, or null for none"}
_BUILDING = {"enum": list(BUILDINGS), "description": "a building"}
_COUNT = {"type": "integer", "minimum": 0, "maximum": MOST_PIECES}
_FLAG = {"type": "boolean"}


def _counts(names: Any, what: str) -> dict[str, Any]:
    """An object mapping some of ``names`` to a count (a name left out counts 0)."""
    return {
        "type": "object",
        "properties": dict.fromkeys(names, _COUNT),
        "additionalProperties": False,
        "description": what,
    }


_ISLAND = _counts(ISLAND_KINDS, "pieces on the island tiles of each kind")
_CITY = _counts(BUILDINGS, "pieces on each building (a building left out gets none)")


def _action(
    kind: str, description: str, required: tuple[str, ...] = (), /, **fields: Any
) -> dict[str, Any]:
    """The member for the action ``kind``; ``required``: the fields it cannot do without."""
    return {
        "type": "object",
        "properties": {"type": {"enum": [kind]}, **fields},
        "required": ["type", *required],
        "description": description,
    }


ACTIONS: tuple[dict[str, Any], ...] = (
    _action(
        "draft",
        "New Buildings, before the first round: put a violet building on the board.",
        ("building",),
        building=_BUILDING,
    ),
    _action(
        "choose_role",
        "Take a role card, and the doubloons lying on it.",
        ("role",),
        role={"enum": list(ROLES)},
    ),
    _action("pass", "Decline: no plantation, no building, no sale, no extra barrel, no wharf."),
    _action(
        "hacienda",
        "Occupied hacienda: first take the top plantation of the face-down stack.",
    ),
    _action(
        "settle",
        "Take a face-up plantation, or a quarry (settler's privilege, construction hut).",
        ("tile",),
        tile={"enum": list(ISLAND_KINDS)},
        hospice={**_FLAG, "description": "occupied hospice: a colonist onto the new tile"},
        forest={**_FLAG, "description": "occupied forest house: lay the plantation as a forest"},
    ),
    _action(
        "forest",
        "Occupied forest house: lay the tile just drawn (hacienda, land office) as a forest.",
    ),
    _action(
        "arrange",
        "Mayor: place all your colonists on island tiles and buildings; the rest wait in San Juan.",
        island=_ISLAND,
        city=_CITY,
        privilege={**_FLAG, "description": "the mayor takes a colonist from the supply"},
        nobles={
            "type": "object",
            "properties": {"island": _ISLAND, "city": _CITY},
            "description": "Nobles: where the nobles go (island and city then count colonists)",
        },
        take_noble={
            **_FLAG,
            "description": "Nobles: take the noble waiting on the colonist ship",
        },
    ),
    _action(
        "move_guest",
        "Occupied guest house: move a guest onto an empty circle of a plantation or building.",
        ("to",),
        to={"enum": sorted(PLACES - {"san_juan"}), "description": "an island kind or building"},
        noble={**_FLAG, "description": "the guest is a noble"},
    ),
    _action(
        "build",
        "Builder: buy a building and put it in your city.",
        ("building",),
        building=_BUILDING,
        university={**_FLAG, "description": "occupied university: a colonist onto it"},
        black_market={
            "type": "object",
            "properties": {
                "colonist": {
                    "enum": [*sorted(PLACES), None],
                    "description": "where the colonist paid with stands",
                },
                "noble": {**_FLAG, "description": "the Nobles: the piece paid is a noble"},
                "good": _GOOD_OR_NONE,
                "vp": _FLAG,
            },
            "description": "occupied black market: one doubloon each for a colonist (or a"
            " noble), a barrel and a VP (left out, or null: none)",
        },
    ),
    _action(
        "extra_good",
        "Craftsman's privilege: one more barrel of a kind just produced.",
        ("good",),
        good=_GOOD,
    ),
    _action(
        "buy_plantation",
        "Land office with a colonist, trader phase: the top face-down plantation for 1 doubloon.",
    ),
    _action(
        "discard_plantation",
        "Give up a plantation onto the discard pile (land office with a noble, hunting lodge).",
        ("tile",),
        tile={"enum": list(GOODS), "description": "the plantation's kind (never a quarry)"},
        occupant={"enum": list(OCCUPANTS), "description": "what stands on it"},
    ),
    _action(
        "sell",
        "Trader: sell one barrel to the trading house.",
        ("good",),
        good=_GOOD,
        trading_post={**_FLAG, "description": "occupied trading post: sell to the supply"},
    ),
    _action(
        "royal_supplier",
        "Royal supplier, before your first load: barrels of different kinds back for 1 VP each.",
        ("goods",),
        goods={"type": "array", "items": _GOOD},
    ),
    _action(
        "load",
        "Captain: load every barrel of one kind that fits onto a cargo ship.",
        ("good", "ship"),
        good=_GOOD,
        ship={
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_SHIPS - 1,
            "description": "the ship, 0 the smallest",
        },
    ),
    _action(
        "wharf",
        "Occupied wharf: ship all barrels of one kind, once a captain phase.",
        ("good",),
        good=_GOOD,
    ),
    _action(
        "small_wharf",
        "Occupied small wharf: ship barrels of any kinds, once a captain phase.",
        ("goods",),
        goods=_counts(GOODS, "barrels shipped of each good"),
    ),
    _action(
        "store",
        "End of the captain phase: the barrels you keep; the rest go back to the supply.",
        windrose={**_GOOD_OR_NONE, "description": "the one barrel anyone may keep"},
        warehouse={
            "type": "array",
            "items": _GOOD,
            "description": "the kinds kept whole in occupied warehouses",
        },
        storehouse={
            "type": "array",
            "items": _GOOD,
            "description": "occupied storehouse: the barrels it keeps, one entry each",
        },
    ),
)

ACTION_SCHEMA: dict[str, Any] = {
    "oneOf": list(ACTIONS),
    "description": "A Puerto Rico action: an object whose 'type' names it (docs/engine.md).",
}
"""Every action the engine reads, one member per ``type``."""
