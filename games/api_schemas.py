"""What the games' JSON API reads and answers, as REST framework serializers: they declare
the bodies for the OpenAPI schema (``/api/schema/``) and ``docs/api.md`` explains them. The
views build their answers as plain dicts and check their input through the lobby's forms and
the services, so a refusal reads the same on the page and in the API; these serializers say
what those dicts and bodies hold."""

from __future__ import annotations

import copy
import re

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from games.clocks import MOVE_TIMES
from games.forms import NO_LIMIT, STANDARD
from games.models import Game, Seat
from games.registry import get_engine, shelf

ERROR = inline_serializer(
    "Error",
    {
        "error": serializers.CharField(help_text="The reason, in the reader's language."),
        "code": serializers.CharField(help_text="Stable, for programs (puerto.refusals)."),
        "params": serializers.DictField(help_text="What the reason names."),
    },
)
"""A refusal (``puerto.refusals``)."""

ENGINES = [game.name for game in shelf()]
AI_LEVELS = [level for level, _label in Seat.AI.choices if level]


def action_component(engine: str) -> str:
    """The name of a game's action schema in the OpenAPI description: ``PuertoRicoAction``."""
    return "".join(word.title() for word in engine.split("_")) + "Action"


def add_action_schemas(result, generator, request, public):
    """drf-spectacular's postprocessing hook: each game's actions, as its engine declares them
    (``ACTION_SCHEMA``, plain JSON Schema), so a client needs no copy of the rules."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    for engine in ENGINES:
        schemas[action_component(engine)] = copy.deepcopy(get_engine(engine).ACTION_SCHEMA)
    return result


@extend_schema_field(
    {
        "oneOf": [{"$ref": f"#/components/schemas/{action_component(e)}"} for e in ENGINES],
        "description": "An action of the game, as its engine reads it (docs/engine.md).",
    }
)
class ActionField(serializers.DictField):
    """One action as the game's engine writes it in JSON."""


# A game ------------------------------------------------------------------------------------


class GameSeatSerializer(serializers.Serializer):
    position = serializers.IntegerField(
        allow_null=True, help_text="0 is the first in turn order; null until the game starts."
    )
    name = serializers.CharField(help_text="The player's public name (an AI player's colour).")
    ai = serializers.BooleanField(help_text="Played by an AI player now.")
    bot = serializers.BooleanField(help_text="Played by a bot account.")
    taken_over = serializers.BooleanField(help_text="An AI plays it while its player is away.")
    vote_open = serializers.BooleanField(help_text="Its player ran out of time: vote on it.")


class ResultSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    placement = serializers.IntegerField(help_text="1 for the winners; ties share a place.")
    score = serializers.IntegerField()
    parts = serializers.DictField(help_text="What the score is made of, as the game names it.")
    tiebreak = serializers.DictField(help_text="What the rulebook compares between equal scores.")
    played_by = serializers.CharField(help_text="person, ai, or both (taken over).")
    person_decisions = serializers.IntegerField()
    ai_decisions = serializers.IntegerField()


class GameSerializer(serializers.Serializer):
    """A game as its requester may know it (``games.api.game_document``)."""

    id = serializers.IntegerField()
    engine = serializers.ChoiceField(choices=ENGINES, help_text="The game.")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    version = serializers.IntegerField(help_text="Moves stored; send it with your move.")
    num_players = serializers.IntegerField()
    rated = serializers.BooleanField()
    spectators = serializers.BooleanField()
    bots_allowed = serializers.BooleanField()
    seats = GameSeatSerializer(many=True)
    to_act = serializers.IntegerField(allow_null=True, help_text="The seat to act.")
    you = serializers.IntegerField(allow_null=True, help_text="Your seat; null: a spectator.")
    view = serializers.DictField(
        allow_null=True, help_text="The game as your seat sees it (docs/engine.md); null: open."
    )
    legal_actions = serializers.ListField(
        child=ActionField(), allow_null=True, help_text="Your moves, when it is your turn."
    )
    legal_schema = serializers.DictField(
        allow_null=True,
        help_text="Where the moves are too many to list (the mayor's placements): what to "
        "build one from (docs/api.md).",
    )
    legal_count = serializers.IntegerField(allow_null=True, help_text="How many moves you have.")
    result = ResultSerializer(many=True, allow_null=True, help_text="Once finished.")


class MyGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    engine = serializers.ChoiceField(choices=ENGINES)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    version = serializers.IntegerField()
    to_act = serializers.IntegerField(allow_null=True)
    you = serializers.IntegerField(allow_null=True, help_text="Your seat; null until it starts.")
    your_turn = serializers.BooleanField()
    turn_started_at = serializers.DateTimeField(allow_null=True)
    game = GameSerializer(required=False, help_text="With ?documents=1, when it is your turn.")


class MyGamesSerializer(serializers.Serializer):
    games = MyGameSerializer(many=True, help_text="Your turn first, then the longest waiting.")


# Moves -------------------------------------------------------------------------------------


class MoveRequestSerializer(serializers.Serializer):
    action = ActionField(help_text="One of the game's legal actions.")
    version = serializers.IntegerField(min_value=0, help_text="The game's version you saw.")
    key = serializers.CharField(
        required=False,
        help_text="Your idempotency key: the same move sent again is not made twice (docs/api.md).",
    )


class MoveSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The version the move made.")
    log = serializers.ListField(child=serializers.CharField(), help_text="What happened, in words.")
    events = serializers.ListField(child=serializers.DictField(), help_text="The same, as data.")


class MoveAnswerSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="The game's version after the move.")
    move = MoveSerializer()
    game = GameSerializer(help_text="The game as you now see it.")


class UndoRequestSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0, required=False, help_text="The game's version you saw."
    )


class UndoAnswerSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    undone = serializers.ListField(
        child=serializers.IntegerField(), help_text="Versions taken back."
    )
    game = GameSerializer()


# The lobby ---------------------------------------------------------------------------------


SEAT_PATTERN = "^(person|ai:(" + "|".join(AI_LEVELS) + "))$"


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "pattern": SEAT_PATTERN},
            {
                "type": "object",
                "properties": {"invite": {"type": "string", "minLength": 1}},
                "required": ["invite"],
                "additionalProperties": False,
            },
        ],
        "description": '"person" (open to anyone), "ai:<level>", or {"invite": "<username>"}: '
        "a seat held for that player, who is challenged to the game.",
    }
)
class NewSeatField(serializers.Field):
    """A seat of a new game after the creator's, in one of its three forms."""

    default_error_messages = {
        "invalid": _('a seat is "person", "ai:<level>" or {{"invite": "<username>"}}'),
    }

    def to_internal_value(self, data):
        if isinstance(data, str) and re.fullmatch(SEAT_PATTERN, data):
            return data
        if isinstance(data, dict) and set(data) == {"invite"} and isinstance(data["invite"], str):
            return data
        self.fail("invalid")

    def to_representation(self, value):
        return value


class NewGameSerializer(serializers.Serializer):
    """A new game, as the lobby's form reads it (``games.api_lobby.form_data``)."""

    game = serializers.ChoiceField(choices=ENGINES, required=False, help_text="The first: default.")
    num_players = serializers.IntegerField(min_value=2, max_value=5)
    seats = serializers.ListField(
        child=NewSeatField(),
        required=False,
        max_length=4,
        help_text="The seats after yours; default: open.",
    )
    options = serializers.DictField(
        required=False, help_text="The game's options by name (docs/api.md lists them)."
    )
    move_time = serializers.ChoiceField(
        choices=[STANDARD, NO_LIMIT] + [str(int(t.total_seconds())) for t, _label in MOVE_TIMES],
        required=False,
        help_text="Seconds for a turn, none, or standard (3 days; none against AIs only).",
    )
    on_timeout = serializers.ChoiceField(choices=Game.OnTimeout.choices, required=False)
    rated = serializers.BooleanField(required=False, default=False)
    spectators = serializers.BooleanField(required=False, default=True)
    chat_public = serializers.BooleanField(required=False, default=False)
    bots_allowed = serializers.BooleanField(required=False, default=False)


class AddAISerializer(serializers.Serializer):
    level = serializers.ChoiceField(choices=AI_LEVELS, required=False, help_text="Default: medium.")


class VoteSerializer(serializers.Serializer):
    position = serializers.IntegerField(min_value=0, help_text="The timed-out seat.")


class OpenGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    engine = serializers.ChoiceField(choices=ENGINES)
    num_players = serializers.IntegerField()
    seated = serializers.IntegerField(help_text="Seats taken.")
    rated = serializers.BooleanField()
    bots_allowed = serializers.BooleanField()
    creator = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


class FinishedGameSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    engine = serializers.ChoiceField(choices=ENGINES)
    num_players = serializers.IntegerField()
    rated = serializers.BooleanField()
    finished_at = serializers.DateTimeField(allow_null=True)
    you = serializers.IntegerField(help_text="Your seat.")
    placement = serializers.IntegerField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)


def page_of(name: str, row: type[serializers.Serializer]) -> serializers.Serializer:
    """A page of a list, the one shape of every list in the API (``games.api.answer_page``)."""
    return inline_serializer(
        name,
        {
            "count": serializers.IntegerField(help_text="Found in all."),
            "page": serializers.IntegerField(),
            "pages": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True, help_text="The next page; null: last."),
            "previous": serializers.URLField(allow_null=True),
            "results": row(many=True),
        },
    )


# Exported games ----------------------------------------------------------------------------


class ImportAnswerSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The imported game.")
    replay_url = serializers.CharField()
