"""Actions are plain JSON-ready dicts with a ``type`` (listed in ``docs/amerigo.md``); this
module checks their shape and names every refusal."""

from __future__ import annotations

from typing import Any

from ..text import BAD_TEXT, holds_bad_text
from .data import COLOURS, MARKER_GOLD

REFUSALS: dict[str, str] = {
    "game_over": "the game is over",
    "choose_first": "choose an action (or gold) before {type}",
    "already_chosen": "you have already chosen {colour} this turn",
    "pick_marker_first": "take your progress marker first",
    "colour_not_offered": "{colour} is not offered to you this turn",
    "no_gold": "you have no gold to buy an action point",
    "place_ships_first": "set both ships on frame fields before the first shipping action ends",
    "not_allowed": "that {type} is not allowed now",
    "not_an_action": "an action is an object with a 'type'",
    "bad_text": BAD_TEXT,
    "unknown_type": "unknown action type {type!r}",
    "malformed": "{field!r} is missing or of the wrong kind",
}

FIELDS: dict[str, dict[str, type | tuple[Any, ...]]] = {
    "choose": {"colour": COLOURS},
    "gold": {},
    "cube_vp": {},
    "cash": {"item": ("chest", *MARKER_GOLD)},
    "buy_ap": {},
    "done": {},
    "advance": {"steps": int},
    "leap": {},
    "pick": {"slot": int},
    "place_ship": {"ship": int, "field": int},
    "marker": {"name": ("ship8",)},
    "sail": {"ship": int, "to": int, "post": bool},
    "take": {"tile": str},
    "build": {"tile": str, "cells": list},
    "buy": {"slot": int},
}
"""Each action type's fields: a type, or the tuple of allowed values."""


def _readable(value: Any) -> Any:
    return value.replace("_", " ") if isinstance(value, str) else value


class IllegalAction(ValueError):
    """An action the rules do not allow now: ``code`` names the rule, ``params`` what a reader
    needs to explain it; the message is the English of ``REFUSALS``."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        super().__init__(REFUSALS[code].format(**{k: _readable(v) for k, v in params.items()}))


def _fits(value: Any, want: type | tuple[Any, ...]) -> bool:
    if isinstance(want, tuple):
        return isinstance(value, str | bool) and value in want
    if want is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if want is list:
        return isinstance(value, list) and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        )
    return isinstance(value, want)


def _check_object(data: Any) -> None:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise IllegalAction("not_an_action")


def check_shape(data: Any) -> None:
    """Raise ``IllegalAction`` unless ``data`` has a known type and its fields."""
    _check_object(data)
    fields = FIELDS.get(data["type"])
    if fields is None:
        raise IllegalAction("unknown_type", type=data["type"])
    for name, want in fields.items():
        if name not in data or not _fits(data[name], want):
            raise IllegalAction("malformed", field=name)


def action_from_json(data: Any) -> dict[str, Any]:
    """The action in ``data``, with only its type's fields (cells sorted). A NUL character or
    a lone surrogate anywhere in it, ignored fields included, is refused (``bad_text``)
    before any of it is echoed in a refusal."""
    _check_object(data)
    if holds_bad_text(data):
        raise IllegalAction("bad_text")
    check_shape(data)
    out = {"type": data["type"], **{name: data[name] for name in FIELDS[data["type"]]}}
    if "cells" in out:
        out["cells"] = sorted(out["cells"])
    return out


def action_to_json(action: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, list) else v for k, v in action.items()}
