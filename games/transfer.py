"""A finished game as one JSON file, and such a file back as a game to replay.

The file (``docs/export.md``, schema ``docs/export.schema.json``) holds what the game needs to
be played again move by move: engine, options, player count, seed, the players, every move
with its events, the chat (for those who may read it) and each seat's result. An import checks
every field and replays every move with the engine before anything is stored, so a file that
does not replay is refused with the move that failed; it stores what the engine read, not what
the file says, and a user who sends the same game again gets the game they imported before.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import chat, history, rates
from games.history import ReplayError, replay_steps, standing
from games.models import Game, Move, Result, Seat
from games.registry import get_engine, get_game, is_offered
from games.services import GameError, check_setup, ending, is_whole_number, quoted, write_results

FORMAT = "puerto-game"
FORMAT_VERSION = 2
"""Version 2 gives each seat's result (``Result.as_json``); an import reads version 1 too,
whose ``result`` was the engine's scores and winners."""
FORMAT_VERSIONS = (1, 2)
MAX_IMPORT_BYTES = 2 * 1024 * 1024
"""A long five-player game with undos is well under 1 MB."""
MAX_MOVES = 5000
MAX_VERSION = 2**31 - 1
"""The largest version the database holds."""
MAX_NAME = Seat._meta.get_field("imported_name").max_length
IMPORTS_PER_HOUR = 20
"""Files a user may send in each hour (refused and repeated ones count too): a replay costs
up to a few seconds of a web process for the longest file."""
FIELDS = (
    "format",
    "format_version",
    "engine",
    "options",
    "num_players",
    "seed",
    "players",
    "moves",
    "chat",
    "result",
    "finished_at",
)
PLAYER_FIELDS = ("seat", "name", "ai")
MOVE_FIELDS = ("version", "kind", "seat", "action", "events", "forced")
CHAT_FIELDS = ("seat", "after_move", "at", "text")
PLAY_FIELDS = ("played_by", "person_decisions", "ai_decisions")
"""Of a seat's result, what the replay cannot tell: who played the seat."""
RESULT_FIELDS = ("seat", "placement", "score", "parts", "tiebreak", *PLAY_FIELDS)


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
        "result": result(game),
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


def result(game: Game) -> list[dict[str, Any]]:
    """Each seat's result of a finished game, in seat order, as the file and the API give it
    (``Result.as_json``)."""
    return [row.as_json() for row in game.results.order_by("position")]


def _position(seat: Seat) -> int:
    return seat.position


class ImportRefused(GameError):
    """A file that is no game of ours, or does not replay; ``version``: the move that failed."""

    def __init__(self, message: str, version: int | None = None, **kwargs) -> None:
        super().__init__(message, **kwargs)
        self.version = version


def import_game(data: Any, user) -> tuple[Game, bool]:
    """A finished, replay-only game made from an exported file after checking every field and
    replaying every move, and whether it is new: a game ``user`` imported before (the same
    ``import_digest``) is answered again, not stored twice. Refused (``ImportRefused``) with
    the first thing wrong, changing nothing; ``rates.TooFast`` past ``IMPORTS_PER_HOUR``."""
    wait = rates.count("import", user, IMPORTS_PER_HOUR, 3600)
    if wait:
        message = gettext("at most %(count)d imports an hour: try again later")
        raise rates.TooFast(message % {"count": IMPORTS_PER_HOUR}, wait)
    rules, initial = _setup(data)
    players = _players(data)
    moves = _moves(data)
    _check_rest(data)
    state, logs, positions = initial, [], []
    try:
        for move, (after, events) in zip(
            moves, replay_steps(rules, initial, [_step(m) for m in moves]), strict=True
        ):
            if move["forced"] and not _only_choice(rules, state, move):
                reason = gettext("it is marked forced, but the seat had a choice")
                raise ImportRefused(_at(move["version"], reason), move["version"])
            if events != move["events"]:
                reason = gettext("its events differ from the replay")
                raise ImportRefused(_at(move["version"], reason), move["version"])
            position = history.kept(rules, move["version"], move["kind"], state, after)
            if position is not None:
                positions.append(position)
            state = after
            logs.append(events)
    except ReplayError as error:
        reason = error.message
        if error.code:
            reason = get_game(data["engine"]).describe_refusal(error.code, error.params)
        raise ImportRefused(_at(error.version, reason), error.version) from error
    if not rules.is_over(state):
        raise ImportRefused(gettext("the moves do not finish the game"))
    results = _results(data, rules.outcome(state), _decisions(moves))
    # What the engine read, so a file's extra fields, or another spelling, are not kept.
    moves = [
        {**m, "action": _canonical(rules, m), "events": log}
        for m, log in zip(moves, logs, strict=True)
    ]
    game = {
        "engine": data["engine"],
        "num_players": data["num_players"],
        "options": data["options"],
        "seed": data["seed"],
        "players": players,
        "moves": moves,
        "result": results,
    }
    # The same game whatever else the file says (its chat, its layout); the replay's events
    # follow from the rest.
    same = {**game, "moves": [{**m, "events": None} for m in moves]}
    digest = hashlib.sha256(json.dumps(same, sort_keys=True).encode()).hexdigest()
    earlier = Game.objects.filter(creator=user, import_digest=digest).first()
    if earlier is not None:
        return earlier, False
    try:
        return _store(game, rules, initial, state, positions, user, digest), True
    except IntegrityError:  # the same file, sent twice at once: the other request stored it
        return Game.objects.get(creator=user, import_digest=digest), False


def _store(game: dict[str, Any], rules, initial, state, positions: list, user, digest: str) -> Game:
    """The checked and replayed ``game`` as a finished game to replay, in one transaction,
    with the ``positions`` its replay kept (``history.kept``)."""
    now = timezone.now()
    plays = {
        r["seat"]: (r["played_by"], r["person_decisions"], r["ai_decisions"])
        for r in game["result"]
    }
    with transaction.atomic():
        stored = Game.objects.create(
            engine=game["engine"],
            num_players=game["num_players"],
            options=game["options"],
            seed=game["seed"],
            initial_state=rules.to_json(initial),
            state=rules.to_json(state),
            version=game["moves"][-1]["version"],
            status=Game.Status.FINISHED,
            ending=ending(play for play, _, _ in plays.values()),
            creator=user,
            started_at=now,
            finished_at=now,
            imported=True,
            import_digest=digest,
        )
        seats = [
            Seat.objects.create(
                game=stored,
                position=i,
                colour=Seat.COLOURS[i],
                imported_name=player["name"],
                ai_level=player["ai"],
            )
            for i, player in enumerate(game["players"])
        ]
        Move.objects.bulk_create(
            Move(
                game=stored,
                seat=seats[m["seat"]],
                version=m["version"],
                kind=m["kind"],
                action=m["action"],
                log=m["events"],
                forced=m["forced"],
            )
            for m in game["moves"]
        )
        history.record_replayed(stored, rules, positions, state)
        write_results(stored, state, seats, plays)
    return stored


def _at(version: int, reason: str) -> str:
    return gettext("move %(version)s does not replay: %(reason)s") % {
        "version": version,
        "reason": reason,
    }


def _only_choice(rules, state, move: dict) -> bool:
    """Whether ``move`` was the seat's only legal action: what the site plays for a person,
    marked forced (``services._play_forced``)."""
    return move["kind"] == Move.Kind.ACTION and len(rules.legal_actions(state)) == 1


def _canonical(rules, move: dict) -> dict:
    """A replayed move's action as the engine writes it; an undo's versions as whole numbers
    (the replay compared them with the versions it took back)."""
    if move["kind"] == Move.Kind.UNDO:
        return {"undo": [int(version) for version in move["action"]["undo"]]}
    return rules.action_to_json(rules.action_from_json(move["action"]))


def _setup(data: Any):
    """The engine and its initial state, from the file's head: every field there, and no
    field the format does not have."""
    if not isinstance(data, dict) or not _same(data.get("format"), FORMAT):
        raise ImportRefused(gettext("this is not a game exported from puerto"))
    if not any(_same(data.get("format_version"), version) for version in FORMAT_VERSIONS):
        raise ImportRefused(gettext("this file's format version is not one puerto reads"))
    _fields(data, FIELDS, gettext("the file"))
    engine = data["engine"]
    if not is_offered(engine):
        raise ImportRefused(gettext("this file is of a game puerto does not know"))
    try:
        check_setup(engine, data["num_players"], data["options"])
    except GameError as error:
        raise ImportRefused(error.message) from error
    seed = data["seed"]
    if not is_whole_number(seed) or not -(2**63) <= seed < 2**63:
        raise ImportRefused(gettext("the seed must be a whole number of at most 64 bits"))
    rules = get_engine(engine)
    return rules, rules.new_game(data["num_players"], seed, data["options"])


def _fields(part: dict, fields: tuple[str, ...], where: str, version: int | None = None) -> None:
    """Refuse ``part`` (``where`` in the file; ``version``: of the move it is) unless it has
    exactly ``fields``."""
    for name in part:
        if name not in fields:
            message = gettext("%(part)s: the field %(name)s is not part of the format")
            raise ImportRefused(message % {"part": where, "name": quoted(name)}, version)
    for name in fields:
        if name not in part:
            message = gettext("%(part)s: the field %(name)s is missing")
            raise ImportRefused(message % {"part": where, "name": name}, version)


def _players(data: dict) -> list[dict[str, str]]:
    players = data["players"]
    if not isinstance(players, list) or len(players) != data["num_players"]:
        raise ImportRefused(gettext("the file must name one player per seat"))
    for seat, player in enumerate(players):
        if (
            not isinstance(player, dict)
            or set(player) != set(PLAYER_FIELDS)
            or not _same(player["seat"], seat)
            or not isinstance(player["name"], str)
            or not 0 < len(player["name"]) <= MAX_NAME
            or not player["name"].isprintable()
            or not isinstance(player["ai"], str)
            or player["ai"] not in Seat.AI.values
        ):
            raise ImportRefused(
                gettext("player %(seat)s needs its seat, a printable name and an AI level")
                % {"seat": seat}
            )
    return [{"name": p["name"], "ai": p["ai"]} for p in players]


def _moves(data: dict) -> list[dict[str, Any]]:
    moves = data["moves"]
    if not isinstance(moves, list) or len(moves) > MAX_MOVES:
        raise ImportRefused(gettext("the moves must be a list of at most %(n)s") % {"n": MAX_MOVES})
    previous = 0
    for number, move in enumerate(moves, start=1):
        # Its version may be what is wrong: a move is named by its place in the list.
        where = gettext("move %(number)s") % {"number": number}
        if not isinstance(move, dict):
            message = gettext("move %(number)s is malformed") % {"number": number}
            raise ImportRefused(message, number)
        _fields(move, MOVE_FIELDS, where, number)
        version, seat = move["version"], move["seat"]
        right = {
            "version": is_whole_number(version) and previous < version <= MAX_VERSION,
            "kind": isinstance(move["kind"], str) and move["kind"] in Move.Kind.values,
            "seat": is_whole_number(seat) and 0 <= seat < data["num_players"],
            "action": isinstance(move["action"], dict),
            "events": isinstance(move["events"], list)
            and all(isinstance(event, dict) for event in move["events"]),
            "forced": isinstance(move["forced"], bool),
        }
        wrong = next((field for field, ok in right.items() if not ok), None)
        if wrong is not None:
            message = gettext("move %(number)s is malformed: its %(field)s is wrong")
            raise ImportRefused(message % {"number": number, "field": wrong}, number)
        previous = move["version"]
    return moves


def _check_rest(data: dict) -> None:
    """The fields an import does not keep, checked all the same: the chat (or null) and when
    the game finished."""
    messages = data["chat"]
    if messages is not None and not isinstance(messages, list):
        raise ImportRefused(gettext("the chat is a list of messages, or null"))
    for number, message in enumerate(messages or [], start=1):
        where = gettext("chat message %(number)s") % {"number": number}
        if not isinstance(message, dict):
            raise ImportRefused(gettext("%(part)s: it is not an object") % {"part": where})
        _fields(message, CHAT_FIELDS, where)
        seat = message["seat"]
        if (
            not (seat is None or (is_whole_number(seat) and 0 <= seat < data["num_players"]))
            or not (is_whole_number(message["after_move"]) and message["after_move"] >= 0)
            or not _moment(message["at"])
            or not isinstance(message["text"], str)
        ):
            raise ImportRefused(
                gettext("%(part)s: it needs a seat (or null), after_move, its time and its text")
                % {"part": where}
            )
    if data["finished_at"] is not None and not _moment(data["finished_at"]):
        raise ImportRefused(gettext("finished_at is a date and time (ISO 8601), or null"))


def _decisions(moves: list[dict[str, Any]]) -> dict[int, int]:
    """Each seat's decisions in the file's moves: those still standing and not forced."""
    counts: dict[int, int] = {}
    for move in standing(SimpleNamespace(**m) for m in moves):
        if not move.forced:
            counts[move.seat] = counts.get(move.seat, 0) + 1
    return counts


def _results(data: dict, outcome, counts: dict[int, int]) -> list[dict[str, Any]]:
    """Each seat's result as the import keeps it (``RESULT_FIELDS``), from the replay's
    ``outcome`` and the file, whose ``result`` must agree with the replay; ``counts``: each
    seat's decisions. A version 2 file also says who played each seat at the end and how many
    of its decisions its person made."""
    if data["format_version"] == 1:
        return _first_format_results(data, outcome, counts)
    result = data["result"]
    if not isinstance(result, list) or len(result) != len(outcome):
        raise ImportRefused(gettext("the result is a list of one object per seat"))
    for place, entry, player in zip(outcome, result, data["players"], strict=True):
        where = gettext("the result of seat %(seat)s") % {"seat": place.seat}
        if not isinstance(entry, dict):
            raise ImportRefused(gettext("%(part)s: it is not an object") % {"part": where})
        _fields(entry, RESULT_FIELDS, where)
        if not all(_same_json(entry[k], v) for k, v in dataclasses.asdict(place).items()):
            raise ImportRefused(gettext("the result differs from the replay"))
        person, ai = entry["person_decisions"], entry["ai_decisions"]
        if (
            not isinstance(entry["played_by"], str)
            or entry["played_by"] not in Result.PlayedBy.values
            or (entry["played_by"] == Result.PlayedBy.PERSON) != (player["ai"] == "")
            or not (is_whole_number(person) and is_whole_number(ai))
            or min(person, ai) < 0
            or person + ai != counts.get(place.seat, 0)
        ):
            raise ImportRefused(
                gettext(
                    "%(part)s: played_by must fit the player's AI level, and the decisions of "
                    "the person and the AI must add up to the seat's moves"
                )
                % {"part": where}
            )
    return [
        {**dataclasses.asdict(place), **{k: entry[k] for k in PLAY_FIELDS}}
        for place, entry in zip(outcome, result, strict=True)
    ]


def _first_format_results(data: dict, outcome, counts: dict[int, int]) -> list[dict[str, Any]]:
    """The results of a version 1 file, whose ``result`` was the engine's scores and winners:
    each seat's total and the winners must be the replay's. It does not say who made a
    seat's decisions: they are taken as its player's, a person's or an AI player's (``ai``)."""
    result = data["result"]
    if (
        not isinstance(result, dict)
        or not isinstance(result.get("scores"), list)
        or not isinstance(result.get("winners"), list)
    ):
        raise ImportRefused(gettext("the result is an object with scores and winners"))
    totals = [s.get("total") if isinstance(s, dict) else None for s in result["scores"]]
    firsts = [place.seat for place in outcome if place.placement == 1]
    if not _same_json(totals, [place.score for place in outcome]) or not _same_json(
        result["winners"], firsts
    ):
        raise ImportRefused(gettext("the result differs from the replay"))
    return [
        {
            **dataclasses.asdict(place),
            "played_by": Result.PlayedBy.AI if player["ai"] else Result.PlayedBy.PERSON,
            "person_decisions": 0 if player["ai"] else counts.get(place.seat, 0),
            "ai_decisions": counts.get(place.seat, 0) if player["ai"] else 0,
        }
        for place, player in zip(outcome, data["players"], strict=True)
    ]


def _same_json(value: Any, expected: Any) -> bool:
    """``_same`` through ``expected``'s objects and lists: the same keys and length, each
    value of its type (``true`` is not 1)."""
    if isinstance(expected, dict):
        return (
            isinstance(value, dict)
            and value.keys() == expected.keys()
            and all(_same_json(value[k], v) for k, v in expected.items())
        )
    if isinstance(expected, list):
        return (
            isinstance(value, list)
            and len(value) == len(expected)
            and all(_same_json(v, e) for v, e in zip(value, expected, strict=True))
        )
    return _same(value, expected)


def _moment(value: Any) -> bool:
    """Whether ``value`` is a date and time in ISO 8601, as an export writes them."""
    if not isinstance(value, str):
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _step(move: dict) -> tuple[int, str, int, dict]:
    return move["version"], move["kind"], move["seat"], move["action"]


def _same(value: Any, expected: Any) -> bool:
    """``value == expected`` of the same type: ``true`` is not 1."""
    return type(value) is type(expected) and value == expected
