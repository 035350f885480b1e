"""A finished game as one JSON file, and such a file back as a game to replay.

The file (``docs/export.md``, schema ``docs/export.schema.json``) holds what the game needs to
be played again move by move: engine, options, player count, seed, the players, every move
with its events, the chat (for those who may read it) and the result. An import replays every
move with the engine before anything is stored, so a file that does not replay is refused with
the move that failed.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import chat
from games.engines import ENGINES, get_engine
from games.models import Game, Move, Seat
from games.services import GameError, ReplayError, replay_steps
from games.ui import UIS, get_ui

FORMAT = "puerto-game"
FORMAT_VERSION = 1
MAX_IMPORT_BYTES = 2 * 1024 * 1024
"""A long five-player game with undos is well under 1 MB."""
MAX_MOVES = 5000
MAX_VERSION = 2**31 - 1
"""The largest version the database holds."""
MAX_NAME = Seat._meta.get_field("imported_name").max_length


def chat_messages(game: Game) -> list[dict[str, Any]]:
    """The game's chat for the file (its seats prefetched), hidden messages left out: each
    message as ``{"seat", "after_move", "at", "text"}``, ``seat`` the engine seat of its
    author."""
    seats = {s.user_id: s.position for s in game.seats.all() if s.user_id is not None}
    return [
        {
            "seat": seats.get(m.author_id),
            "after_move": m.after_move,
            "at": m.created_at.isoformat(),
            "text": m.text,
        }
        for m in chat.shown(game)
    ]


def export_game(game: Game, reader) -> dict[str, Any]:
    """The file of a finished game (its seats prefetched) as ``reader`` (a user, anonymous or
    None) may have it: the chat only if they may read it (``chat.may_read``), else null."""
    seats = sorted((s for s in game.seats.all() if s.position is not None), key=_position)
    moves = game.moves.order_by("version").values_list(
        "version", "kind", "seat__position", "action", "log", "forced"
    )
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "engine": game.engine,
        "options": game.options,
        "num_players": game.num_players,
        "seed": game.seed,
        "players": [{"seat": s.position, "name": s.name, "ai": s.ai_level} for s in seats],
        "moves": [
            {
                "version": version,
                "kind": kind,
                "seat": position,
                "action": action,
                "events": log,
                "forced": forced,
            }
            for version, kind, position, action, log, forced in moves
        ],
        "chat": chat_messages(game) if chat.may_read(game, reader) else None,
        "result": game.result,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


def _position(seat: Seat) -> int:
    return seat.position


class ImportRefused(GameError):
    """A file that is no game of ours, or does not replay; ``version``: the move that failed."""

    def __init__(self, message: str, version: int | None = None, **kwargs) -> None:
        super().__init__(message, **kwargs)
        self.version = version


def import_game(data: Any, user) -> Game:
    """A finished, replay-only game made from an exported file, after replaying every move;
    refused (``ImportRefused``) with the first thing wrong, changing nothing."""
    rules, initial = _setup(data)
    players = _players(data)
    moves = _moves(data)
    state, version = initial, 0
    try:
        for move, (after, events) in zip(
            moves, replay_steps(rules, initial, [_step(m) for m in moves]), strict=True
        ):
            state, version = after, move["version"]
            if events != move["events"]:
                reason = gettext("its events differ from the replay")
                raise ImportRefused(_at(version, reason), version)
    except ReplayError as error:
        reason = error.message
        if error.code:
            reason = get_ui(data["engine"]).describe_refusal(error.code, error.params)
        raise ImportRefused(_at(error.version, reason), error.version) from error
    if not rules.is_over(state):
        raise ImportRefused(gettext("the moves do not finish the game"))
    result = {"scores": rules.scores(state), "winners": rules.winners(state)}
    if data.get("result") != result:
        raise ImportRefused(gettext("the result differs from the replay"))
    now = timezone.now()
    with transaction.atomic():
        game = Game.objects.create(
            engine=data["engine"],
            num_players=data["num_players"],
            options=data["options"],
            seed=data["seed"],
            initial_state=rules.to_json(initial),
            state=rules.to_json(state),
            version=version,
            status=Game.Status.FINISHED,
            result=result,
            creator=user,
            started_at=now,
            finished_at=now,
            imported=True,
        )
        seats = [
            Seat.objects.create(
                game=game,
                position=i,
                colour=Seat.COLOURS[i],
                imported_name=player["name"],
                ai_level=player["ai"],
            )
            for i, player in enumerate(players)
        ]
        Move.objects.bulk_create(
            Move(
                game=game,
                seat=seats[m["seat"]],
                version=m["version"],
                kind=m["kind"],
                action=m["action"],
                log=m["events"],
                forced=m["forced"],
            )
            for m in moves
        )
    return game


def _at(version: int, reason: str) -> str:
    return gettext("move %(version)s does not replay: %(reason)s") % {
        "version": version,
        "reason": reason,
    }


def _setup(data: Any):
    """The engine and its initial state, from the file's head."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(gettext("this is not a game exported from puerto"))
    if data.get("format_version") != FORMAT_VERSION:
        raise ImportRefused(gettext("this file's format version is not one puerto reads"))
    if data.get("engine") not in ENGINES or data["engine"] not in UIS:  # a page to show it
        raise ImportRefused(gettext("this file is of a game puerto does not know"))
    rules = get_engine(data["engine"])
    seed, players, options = data.get("seed"), data.get("num_players"), data.get("options")
    if not _integer(seed) or not -(2**63) <= seed < 2**63:
        raise ImportRefused(gettext("the seed must be a whole number of at most 64 bits"))
    if not _integer(players) or not isinstance(options, dict):
        raise ImportRefused(gettext("the number of players or the options are missing"))
    try:
        return rules, rules.new_game(players, seed, options)
    except ValueError as error:
        reason = gettext("the game cannot be set up: %(reason)s") % {"reason": error}
        raise ImportRefused(reason) from error


def _players(data: dict) -> list[dict[str, str]]:
    players = data.get("players")
    if not isinstance(players, list) or len(players) != data["num_players"]:
        raise ImportRefused(gettext("the file must name one player per seat"))
    for seat, player in enumerate(players):
        if (
            not isinstance(player, dict)
            or player.get("seat") != seat
            or not isinstance(player.get("name"), str)
            or not 0 < len(player["name"]) <= MAX_NAME
            or not player["name"].isprintable()
            or player.get("ai", "") not in Seat.AI.values
        ):
            raise ImportRefused(
                gettext("player %(seat)s needs its seat, a printable name and an AI level")
                % {"seat": seat}
            )
    return [{"name": p["name"], "ai": p.get("ai", "")} for p in players]


def _moves(data: dict) -> list[dict[str, Any]]:
    moves = data.get("moves")
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise ImportRefused(gettext("the moves must be a list of at most %(n)s") % {"n": MAX_MOVES})
    previous = 0
    for number, move in enumerate(moves, start=1):
        if not (
            isinstance(move, dict)
            and _integer(move.get("version"))
            and previous < move["version"] <= MAX_VERSION
            and move.get("kind") in Move.Kind.values
            and _integer(move.get("seat"))
            and 0 <= move["seat"] < data["num_players"]
            and isinstance(move.get("action"), dict)
            and isinstance(move.get("events"), list)
            and isinstance(move.get("forced", False), bool)
        ):
            # Its version may be what is wrong: it is named by its place in the list.
            message = gettext("move %(number)s is malformed") % {"number": number}
            raise ImportRefused(message, number)
        move.setdefault("forced", False)
        previous = move["version"]
    return moves


def _step(move: dict) -> tuple[int, str, int, dict]:
    return move["version"], move["kind"], move["seat"], move["action"]


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
