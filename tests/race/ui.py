"""How Race to 21 looks: its board, its form and its log in words (English only: a test game)."""

from __future__ import annotations

import json
from typing import Any

from django.template import engines

from games.ui.posted import action_json, check_size

from . import engine

BOARD = engines["django"].from_string(
    """<section class="race" data-target="{{ race.target }}"><ol class="race-scores">
{% for p in race.players %}<li data-seat="{{ forloop.counter0 }}">
{{ p.name }}: {{ p.score }} ({{ p.cards }} cards)</li>{% endfor %}</ol>
{% if race.hand is not None %}
<p class="race-hand">Your hand: {{ race.hand|join:", " }}</p>{% endif %}
{% if race.over %}<p class="race-over">Game over.</p>{% endif %}
{% if message %}<p class="flash error" role="alert">{{ message }}</p>{% endif %}
{% for choice in race.choices %}
<form method="post" action="{{ move_url }}">{% csrf_token %}
<input type="hidden" name="version" value="{{ version }}">
<button type="submit" name="action" value="{{ choice.json }}">{{ choice.label }}</button>
</form>{% endfor %}</section>"""
)
RULES = engines["django"].from_string(
    """{% extends "base.html" %}{% block content %}<h1>Race to {{ target }}</h1>
<p>Play a card to add it to your score, or draw one; reach the target exactly.</p>{% endblock %}"""
)


def board_context(view: dict, names: list[str], legal=None, posted=None) -> dict[str, Any]:
    return {
        "race": {
            "target": view["target"],
            "over": view["over"],
            "hand": view["hand"],
            "players": [
                {"name": name, "score": score, "cards": cards}
                for name, score, cards in zip(
                    names, view["scores"], view["hand_sizes"], strict=True
                )
            ],
            "choices": [{"json": json.dumps(a), "label": _label(a)} for a in legal or ()],
        }
    }


def moderator_board_context(state: dict, names: list[str]) -> dict[str, Any]:
    """A spectator's board: the hands stay hidden from the moderator's drawing too."""
    return board_context(engine.player_view(state, None), names)


def _label(action: dict) -> str:
    return f"Play {action['card']}" if action["type"] == "play" else action["type"].capitalize()


def action_from_post(data) -> dict:
    check_size(data)
    try:
        return engine.action_from_json(action_json(data))
    except engine.IllegalAction as error:
        raise ValueError(describe_refusal(error.code, error.params)) from error


def describe_event(event: dict, names: list[str]) -> str:
    name = names[event["seat"]]
    if event["event"] == "play":
        return f"{name} plays a {event['card']}."
    return f"{name} {'draws a card' if event['event'] == 'draw' else 'passes'}."


def describe_refusal(code: str, params: dict) -> str:
    return engine.REFUSALS[code].format(**params)
