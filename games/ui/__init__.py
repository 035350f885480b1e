"""Game UIs: how a game's board looks, how its forms become actions, how its log and refusals
read. Each game's parts are declared with it on the shelf (``games.registry.GameSpec``); the
platform itself knows nothing of any game."""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext

from games.registry import get_game


def describe_event(engine_name: str, event: dict[str, Any], names: list[str]) -> str:
    """One log line in the reader's language: the platform's own events (an undo), then the
    game's."""
    if event.get("event") == "undo":
        count = event["moves"]
        return ngettext(
            "%(name)s took back a move.", "%(name)s took back %(count)d moves.", count
        ) % {"name": names[event["seat"]], "count": count}
    return get_game(engine_name).describe_event(event, names)
