"""Every action's JSON form as a JSON Schema (``ACTION_SCHEMA``), so that an API description
and a bot author know the actions without the rules or this code.

Plain data, built from the engine's own tables (``actions.FIELDS``, colours, tiles), in the
keywords JSON Schema 2020-12 and OpenAPI share. Every field of an action is required; fields
an action does not have are ignored, so no member refuses extra keys. Numbers carry the
bounds the board gives them (a progress field, a goods field, a ship); whether an action is
legal now is the rules' business (``legal_actions``).
"""

from __future__ import annotations

from typing import Any

from .actions import FIELDS
from .data import COLOURS, GOODS_FIELDS, LANDSCAPES, PROGRESS_FIELDS, SHIPS, VILLAGES

_FIELD = {"type": "integer", "minimum": 0, "description": "a field: row * cols + column"}
_SHIP = {"type": "integer", "minimum": 0, "maximum": SHIPS - 1, "description": "your ship"}
_TILE = {
    "enum": [*LANDSCAPES, *VILLAGES],
    "description": "a general landscape tile's shape, or a village tile (V1-V4)",
}


def _action(kind: str, description: str, /, **fields: Any) -> dict[str, Any]:
    """The member for the action ``kind``: every field required (``check_shape``)."""
    return {
        "type": "object",
        "properties": {"type": {"enum": [kind]}, **fields},
        "required": ["type", *fields],
        "description": description,
    }


ACTIONS: tuple[dict[str, Any], ...] = (
    _action(
        "choose",
        "Choose one colour offered to you: its cubes are your action points.",
        colour={"enum": list(COLOURS)},
    ),
    _action("gold", "Take gold instead of an action."),
    _action("cube_vp", "The one-time marker: 1 VP per cube in the action field."),
    _action(
        "cash",
        "Cash a treasure chest (3 gold) or a one-time gold marker, at any time you act.",
        item={"enum": list(FIELDS["cash"]["item"])},
    ),
    _action("buy_ap", "Buy one action point for 1 gold."),
    _action(
        "advance",
        "Black, brown or white: move the cannon, progress or order disc forward.",
        steps={"type": "integer", "minimum": 1},
    ),
    _action("leap", "White, one-time marker: put your order disc onto the leader's."),
    _action(
        "pick",
        "Brown: take the progress marker of a progress field.",
        slot={"type": "integer", "minimum": 0, "maximum": PROGRESS_FIELDS - 1},
    ),
    _action(
        "place_ship",
        "Blue: set a ship not yet on the water onto a field of the frame.",
        ship=_SHIP,
        field=_FIELD,
    ),
    _action(
        "marker",
        "Blue, one-time marker: 8 more action points.",
        name={"enum": list(FIELDS["marker"]["name"])},
    ),
    _action(
        "sail",
        "Blue: sail a ship (at most one field per action point), maybe setting a trading post.",
        ship=_SHIP,
        to=_FIELD,
        post={"type": "boolean", "description": "a trading post beside the anchor field"},
    ),
    _action(
        "take",
        "Red: take a general landscape tile (its size in AP) or one of your village tiles (1 AP).",
        tile=_TILE,
    ),
    _action(
        "build",
        "Green: lay a tile you hold onto free land fields beside your trading posts.",
        tile=_TILE,
        cells={"type": "array", "items": {"type": "integer", "minimum": 0}},
    ),
    _action(
        "buy",
        "Yellow: buy the goods marker of a goods field.",
        slot={"type": "integer", "minimum": 0, "maximum": max(GOODS_FIELDS.values()) - 1},
    ),
    _action("done", "End the action; unused action points lapse."),
)

ACTION_SCHEMA: dict[str, Any] = {
    "oneOf": list(ACTIONS),
    "description": "An Amerigo action: an object whose 'type' names it (docs/amerigo.md).",
}
"""Every action the engine reads, one member per ``type``."""
