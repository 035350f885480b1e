"""Game UIs: how a game's board looks, how its forms become actions, how its log and refusals
read.

The platform reaches a game's page only through ``get_ui(engine_name)``, which returns an
object with ``INTERFACE``: ``TITLE`` (the game's name), ``RULES`` (the URL name of its rules
page, or ""), ``TEMPLATE``, ``OPTION_TEXTS`` (each game option's label and help, by name),
``OPTION_CHOICE_NAMES`` (the words of an option's named choices, by option),
``board_context(view, names, legal=None, posted=None)`` (the board drawn from one seat's
``player_view``, never from the state: ``seat_board_context`` below hands it over),
``moderator_board_context(state, names)`` (the board a moderator sees, the one part handed
the whole state), ``action_from_post(data)``, ``describe_event(event, names)`` and
``describe_refusal(code, params)``; the platform itself knows nothing of any game.
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
    "moderator_board_context",
    "action_from_post",
    "describe_event",
    "describe_refusal",
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


def seat_board_context(
    engine_name: str, state: Any, position: int | None, names: list[str], posted=None, may_act=True
) -> dict[str, Any]:
    """The game UI's board for ``position`` (None: a spectator). The UI is handed that seat's
    ``player_view`` and, when the seat may move now, its legal actions asked of the whole
    state, so it cannot show what the seat may not know. ``may_act`` is False when the engine
    waits for the seat but its person may not move (an AI plays it, the game was cancelled,
    a replay); ``posted``: the fields of a refused move, to show them again as entered."""
    rules = get_engine(engine_name)
    acts = may_act and position is not None and position == rules.current_player(state)
    legal = rules.legal_actions(state) if acts else None
    view = rules.player_view(state, position)
    return get_ui(engine_name).board_context(view, names, legal, posted)


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


__all__ = ["INTERFACE", "UIS", "describe_event", "get_ui", "seat_board_context"]
