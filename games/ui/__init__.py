"""Game UIs: how a game's board looks, how its forms become actions, how its log and refusals
read.

The platform reaches a game's page only through ``get_ui(engine_name)``, which returns an
object with ``INTERFACE``: ``TITLE`` (the game's name), ``RULES`` (the URL name of its rules
page, or ""), ``TEMPLATE``, ``OPTION_TEXTS`` (each game option's label and help, by name),
``OPTION_CHOICE_NAMES`` (the words of an option's named choices, by option),
``board_context(state, position, names, posted=None, may_act=True)`` (``posted``: the
fields of a refused move; ``may_act``: whether the viewer may move now),
``action_from_post(data)``, ``describe_event(event, names)``, ``describe_refusal(code,
params)`` and ``OUTCOME_PARTS`` (the label of each part and tie-break its engine's ``outcome``
names, in the order of the final table); the platform itself knows nothing of any game.
"""

from __future__ import annotations

from functools import cache
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from django.utils.translation import ngettext

from games.engines import get_engine

UIS = {
    "puerto_rico": (
        "games.ui.puerto_rico",
        "games.ui.puerto_rico_events",
        "games.ui.puerto_rico_names",
    ),
    "amerigo": ("games.ui.amerigo", "games.ui.amerigo_events", "games.ui.amerigo_names"),
}
"""A game's UI modules: the board and its forms, the log and the refusals, the names."""
INTERFACE = (
    "TITLE",
    "RULES",
    "TEMPLATE",
    "OPTION_TEXTS",
    "OPTION_CHOICE_NAMES",
    "board_context",
    "action_from_post",
    "describe_event",
    "describe_refusal",
    "OUTCOME_PARTS",
)


@cache
def get_ui(engine_name: str) -> SimpleNamespace:
    if engine_name not in UIS:
        raise LookupError(f"no UI for game engine {engine_name!r}")
    modules = [import_module(name) for name in UIS[engine_name]]
    parts = {name: getattr(m, name) for m in modules for name in INTERFACE if hasattr(m, name)}
    missing = set(INTERFACE) - set(parts)
    if missing:
        raise LookupError(f"the {engine_name} UI lacks {', '.join(sorted(missing))}")
    return SimpleNamespace(**parts)


def describe_options(engine_name: str, options: dict[str, Any]) -> str:
    """The game's named choices (the edition, say) in words, for the game's page and lists;
    an option absent from ``options`` has its default."""
    names = get_ui(engine_name).OPTION_CHOICE_NAMES
    return ", ".join(
        str(names[o["name"]][options.get(o["name"], o["default"])])
        for o in get_engine(engine_name).OPTIONS
        if o["name"] in names
    )


def describe_event(engine_name: str, event: dict[str, Any], names: list[str]) -> str:
    """One log line in the reader's language: the platform's own events (an undo), then the
    game UI's."""
    if event.get("event") == "undo":
        count = event["moves"]
        return ngettext(
            "%(name)s took back a move.", "%(name)s took back %(count)d moves.", count
        ) % {"name": names[event["seat"]], "count": count}
    return get_ui(engine_name).describe_event(event, names)


__all__ = ["INTERFACE", "UIS", "describe_event", "get_ui"]
