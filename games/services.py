"""The only code that changes a game: lobby changes and moves.

Every move, whoever makes it (a person's browser, the API, an AI worker, a moderator), goes
through ``submit_move``: lock the game row, check the seat and the version the player saw,
let the engine judge the action, store the new state and the move in one transaction with
version + 1, and only after commit tell the rest of the site (``signals.move_applied``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from games import history
from games.models import Challenge, DropVote, Game, Move, Result, Seat, Vacation
from games.registry import get_engine, get_game
from games.signals import (
    challenge_changed,
    game_cancelled,
    game_changed,
    game_finished,
    game_started,
    move_applied,
    vote_opened,
)

TAKEOVER_AI = Seat.AI.MEDIUM
"""The AI that plays a seat whose person ran out of time or left the site."""
MAX_FORCED_MOVES = 50
"""Forced moves played in a row after one move; a game never needs nearly this many."""
MIN_RATED_PERSONS = 2
"""A rated game is one between persons: AI players may fill the other seats."""


class GameError(Exception):
    """A request the site refuses, in the reader's words; the pages and the API choose the
    HTTP status by its kind (``games.views.http_status``). A move the rules refuse keeps the
    engine's ``code`` and ``params`` for programs that read them."""

    def __init__(self, message: str, code: str = "", params: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params or {}


class Forbidden(GameError):
    """Not the requester's to do: not their seat, not their game."""


class NotFound(GameError):
    pass


class Conflict(GameError):
    """The game moved on since the player looked (stale version, or someone was faster)."""


class KeyReused(GameError):
    """The user's idempotency key was already used for another action."""


@dataclass(frozen=True)
class MoveResult:
    game: Game
    move: Move
    replayed: bool = False
    """True when the idempotency key had been used: nothing was applied again."""


# Lobby ------------------------------------------------------------------------------------


def create_game(
    creator,
    *,
    num_players: int,
    options: dict[str, Any] | None = None,
    engine: str,
    ai_seats: int = 0,
    ai_level: str = Seat.AI.MEDIUM,
    ai_levels: Sequence[str] = (),
    join: bool = True,
    move_time: timedelta | None = None,
    on_timeout: str = Game.OnTimeout.AI,
    chat_public: bool = False,
    rated: bool = False,
    spectators: bool = True,
    bots_allowed: bool = False,
) -> Game:
    """Open a game; the creator takes the first seat and may fill seats with AI players:
    ``ai_seats`` of ``ai_level``, and one more of each level in ``ai_levels``.
    ``move_time`` limits each person's turn; ``on_timeout`` says what happens when it runs out;
    ``chat_public``: spectators may read the chat; ``rated``: the game counts for the
    players' ratings (else it is casual); ``spectators``: anyone may watch it;
    ``bots_allowed``: bot accounts may join (always, for a game a bot opens)."""
    options = dict(options or {})
    check_setup(engine, num_players, options)
    levels = [ai_level] * ai_seats + list(ai_levels)
    if not 0 <= len(levels) <= num_players - (1 if join else 0):
        raise GameError(gettext("more AI players than free seats"))
    if rated and num_players - len(levels) < MIN_RATED_PERSONS:
        raise GameError(gettext("a rated game needs at least two persons: add fewer AI players"))
    for level in levels:
        if not level or level not in Seat.AI.values:
            raise GameError(gettext("unknown AI level %(level)r") % {"level": level})
    if move_time is not None and move_time <= timedelta(0):
        raise GameError(gettext("the move time must be positive"))
    if on_timeout not in Game.OnTimeout.values:
        raise GameError(gettext("unknown timeout rule %(rule)r") % {"rule": on_timeout})
    with transaction.atomic():
        game = Game.objects.create(
            engine=engine,
            num_players=num_players,
            options=options,
            creator=creator,
            move_time=move_time,
            on_timeout=on_timeout,
            chat_public=chat_public,
            rated=rated,
            spectators=spectators,
            bots_allowed=bots_allowed or (creator is not None and creator.is_bot),
        )
        if join:
            _add_seat(game, user=creator)
        for level in levels:
            _add_seat(game, ai_level=level)
        _start_if_full(game)
    return game


def check_setup(engine: str, num_players: Any, options: Any) -> None:
    """Refuse, in the reader's language, a player count or options the engine does not set a
    table up with: the one check of the lobby and of an imported file. Each option must be one
    of the engine's ``OPTIONS``, of its type (``true``, not ``"yes"`` or ``1``), and for this
    player count; the engine's ``new_game`` has the last word."""
    rules = get_engine(engine)
    if not is_whole_number(num_players) or num_players not in rules.PLAYER_COUNTS:
        counts = ", ".join(str(n) for n in rules.PLAYER_COUNTS)
        raise GameError(gettext("the number of players is one of %(counts)s") % {"counts": counts})
    if not isinstance(options, dict):
        raise GameError(gettext("the options are an object of names and values"))
    known = {option["name"]: option for option in rules.OPTIONS}
    for name, value in options.items():
        option = known.get(name)
        if option is None:
            raise GameError(gettext("there is no option %(name)s") % {"name": quoted(name)})
        if num_players not in option.get("players", (num_players,)):
            counts = ", ".join(str(n) for n in option["players"])
            raise GameError(
                gettext("the option %(name)s is only for games of %(counts)s players")
                % {"name": name, "counts": counts}
            )
        if option["type"] == "bool" and not isinstance(value, bool):
            raise GameError(gettext("the option %(name)s is either true or false") % {"name": name})
        if option["type"] == "choice" and not any(
            type(value) is type(choice) and value == choice for choice in option["choices"]
        ):
            choices = ", ".join(str(choice) for choice in option["choices"])
            raise GameError(
                gettext("the option %(name)s is one of %(choices)s")
                % {"name": name, "choices": choices}
            )
    try:
        rules.new_game(num_players, 0, options)
    except ValueError as error:
        reason = gettext("the game cannot be set up: %(reason)s") % {"reason": error}
        raise GameError(reason) from error


def quoted(text: str) -> str:
    """A name a request gave, to repeat in the answer: as JSON (no NUL, no lone surrogate)
    and cut short."""
    return json.dumps(text[:40])


def is_whole_number(value: Any) -> bool:
    """A whole number as JSON gives it (``true`` is none)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _lock(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(gettext("no such game")) from None


def _lock_for_move(game_id: int) -> Game:
    """The game row locked, with its seats and their users: a move asks who is to act (again
    after each forced move), and its answer names the players. Seats do not change while a
    game runs, so the list read here stays true for the whole move."""
    try:
        return Game.objects.with_seats().select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(gettext("no such game")) from None


def _open_game(game_id: int) -> Game:
    game = _lock(game_id)
    if game.status != Game.Status.OPEN:
        raise Conflict(gettext("the game has already started or was cancelled"), "game_not_open")
    return game


def _add_seat(game: Game, *, user=None, ai_level: str = "") -> Seat:
    """Seat ``user`` or an AI player of ``ai_level`` in a free seat: one that no pending
    challenge of someone else holds (``games.challenges``)."""
    taken = list(game.seats.values_list("colour", flat=True))
    if len(taken) >= game.num_players:
        raise Conflict(gettext("every seat is taken"), "game_full")
    if len(taken) + held_seats(game, but_for=user) >= game.num_players:
        raise Conflict(gettext("the free seats are held for invited players"), "game_full")
    colour = next(c for c in Seat.COLOURS if c not in taken)
    return Seat.objects.create(game=game, user=user, ai_level=ai_level, colour=colour)


def join_game(game_id: int, user) -> Seat:
    with transaction.atomic():
        game = _open_game(game_id)
        if game.seats.filter(user=user).exists():
            raise Conflict(gettext("you already have a seat in this game"), "already_seated")
        if user.is_bot and not game.bots_allowed:
            raise Forbidden(
                gettext("this game takes no bot accounts: its creator did not allow them"),
                "bots_not_allowed",
            )
        seat = _add_seat(game, user=user)
        # Joining answers the user's own challenge, however they came (its buttons, the link).
        _close_challenges(game.challenges.filter(invitee=user), Challenge.Status.ACCEPTED)
        _start_if_full(game)
    return seat


def held_seats(game: Game, *, but_for=None) -> int:
    """The seats of ``game`` its pending challenges hold (the one of ``but_for`` left out)."""
    pending = game.challenges.pending()
    if but_for is not None:
        pending = pending.exclude(invitee=but_for)
    return pending.count()


def _close_challenges(challenges, status: str) -> None:
    """Answer the pending ones among ``challenges`` with ``status`` (their game locked), and
    tell the site (``signals.challenge_changed``): the journal, the mail."""
    now = timezone.now()
    for challenge in challenges.pending().select_related("game", "challenger", "invitee"):
        challenge.status = status
        challenge.answered_at = now
        challenge.save(update_fields=["status", "answered_at"])
        challenge_changed.send(Challenge, challenge=challenge)


def add_ai(game_id: int, by, level: str = Seat.AI.MEDIUM) -> Seat:
    if level not in Seat.AI.values or not level:
        raise GameError(gettext("unknown AI level %(level)r") % {"level": level})
    with transaction.atomic():
        game = _open_game(game_id)
        _require_creator(game, by)
        ai_seats = game.seats.filter(user__isnull=True).count()
        if game.rated and game.num_players - ai_seats - 1 < MIN_RATED_PERSONS:
            raise Conflict(gettext("a rated game needs at least two persons"))
        seat = _add_seat(game, ai_level=level)
        _start_if_full(game)
    return seat


def leave_game(game_id: int, user) -> None:
    with transaction.atomic():
        game = _open_game(game_id)
        deleted, _ = game.seats.filter(user=user).delete()
        if not deleted:
            raise GameError(gettext("you have no seat in this game"))
        if not game.seats.filter(user__isnull=False).exists():
            _abort(game, Game.Ending.CANCELLED)


def remove_seat(game_id: int, by, seat_id: int) -> None:
    """The creator frees a seat before the start (an AI player, or someone who joined)."""
    with transaction.atomic():
        game = _open_game(game_id)
        _require_creator(game, by)
        seat = game.seats.filter(pk=seat_id).first()
        if seat is None:
            raise GameError(gettext("no such seat in this game"))
        if seat.user_id == by.pk:
            raise GameError(gettext("leave the game or cancel it instead"))
        seat.delete()


def cancel_game(game_id: int, by) -> None:
    with transaction.atomic():
        game = _open_game(game_id)
        _require_creator(game, by)
        _abort(game, Game.Ending.CANCELLED)


def _require_creator(game: Game, user) -> None:
    if game.creator_id != user.pk and not user.is_staff:
        raise Forbidden(gettext("only the player who opened the game may do this"), "not_creator")


def _abort(game: Game, how: str) -> None:
    """Cancel ``game``; ``how``: its ``Game.Ending``."""
    game.status = Game.Status.ABORTED
    game.finished_at = timezone.now()
    game.ending = how
    game.save(update_fields=["status", "finished_at", "ending"])
    _close_challenges(game.challenges.all(), Challenge.Status.WITHDRAWN)


def seating(seed: int, seats: list) -> list:
    """``seats`` (in the order they were taken) in a game's random seating order. It draws
    from a stream of its own: drawn from the seed's own stream, which the engine's setup draws
    from next, it would tell the players a few bits of the deal."""
    order = list(seats)
    random.Random(f"seating {seed}").shuffle(order)
    return order


def _start_if_full(game: Game) -> None:
    """Random seating (engine seat 0 is the first governor), then the engine's setup."""
    seats = list(game.seats.order_by("pk"))
    if len(seats) < game.num_players:
        return
    for position, seat in enumerate(seating(game.seed, seats)):
        seat.position = position
        seat.save(update_fields=["position"])
    rules = get_engine(game.engine)
    state = rules.to_json(rules.new_game(game.num_players, game.seed, game.options))
    now = timezone.now()
    game.initial_state = game.state = state
    game.status = Game.Status.RUNNING
    game.started_at = game.turn_started_at = now
    game.current_position = rules.current_player(rules.from_json(state))
    game.save()
    _play_forced(game, rules, rules.from_json(state))
    transaction.on_commit(lambda: game_started.send(Game, game_id=game.pk))
    _announce(game, previous_position=None)


# Moves ------------------------------------------------------------------------------------


def submit_move(
    game_id: int,
    action: Any,
    *,
    user=None,
    ai: bool = False,
    expected_version: int | None = None,
    idempotency_key: str = "",
) -> MoveResult:
    """Apply the action of the seat to act, or refuse it with a ``GameError``.

    ``user`` must hold the seat to act (``ai=True``: the seat must be an AI player's).
    ``expected_version`` is the version the player saw; if the game moved on, ``Conflict``.
    The same ``idempotency_key`` twice from one user with one action applies the move once and
    answers the same both times; with another action it is refused. A key is its user's own:
    another user's key is unknown to you.
    """
    if len(idempotency_key) > 64:
        raise GameError(gettext("idempotency key longer than 64 characters"))
    if not idempotency_key.isprintable():  # no NUL for the database, no lone surrogate
        raise GameError(gettext("the idempotency key may hold only printable characters"))
    try:
        return _submit(game_id, action, user, ai, expected_version, idempotency_key)
    except IntegrityError:  # a unique version or key: another request won the race
        earlier = _earlier_move(game_id, user, idempotency_key)
        if earlier is not None:  # the same key, sent twice at once
            return _replayed(earlier.game, earlier, action)
        raise Conflict(gettext("the game has moved on since you looked"), "stale_version") from None


def _submit(
    game_id: int, action: Any, user, ai: bool, expected_version: int | None, idempotency_key: str
) -> MoveResult:
    with transaction.atomic():
        game = _lock_for_move(game_id)
        refusal = _refusal(game, user, ai, expected_version)
        # A key already used means a stale version or a seat no longer to act, so the happy
        # path (the version seen is current) needs no look-up: the unique key catches the rest.
        if refusal is not None or expected_version is None:
            earlier = _earlier_move(game.pk, user, idempotency_key)
            if earlier is not None:
                return _replayed(game, earlier, action)
        if refusal is not None:
            raise refusal
        seat = game.seat_to_act()
        previous_position = game.current_position
        rules = get_engine(game.engine)
        try:
            parsed = rules.action_from_json(action)
            before = rules.from_json(game.state)
            log: list[dict] = []
            state = rules.apply(before, parsed, log=log)
        except ValueError as error:  # IllegalAction and MalformedAction are ValueErrors
            reason = get_game(game.engine).describe_refusal(error.code, error.params)
            raise GameError(reason, error.code, error.params) from error
        if seat.timed_out_at is not None:  # back before the others voted them out
            _close_drop_vote(seat)
        actor = None if ai else user
        move = _record(
            game, rules, before, state, seat, parsed, log, actor=actor, key=idempotency_key
        )
        _play_forced(game, rules, state)
        _announce(game, previous_position=previous_position, by_ai=ai)
    return MoveResult(game, move)


def _replayed(game: Game, earlier: Move, action: Any) -> MoveResult:
    """The stored move again for a repeated request, if it repeats the same action: the same
    once parsed, whatever fields the engine ignores."""
    rules = get_engine(game.engine)
    try:
        same = rules.action_from_json(action) == rules.action_from_json(earlier.action)
    except ValueError:  # MalformedAction: certainly not the stored action
        same = False
    if not same:
        raise KeyReused(gettext("that key was already used for another move"), "key_reused")
    return MoveResult(game, earlier, replayed=True)


def _refusal(game: Game, user, ai: bool, expected_version: int | None) -> GameError | None:
    """Why this move may not be played now, or None. A player whose page was stale hears
    what happened since, rather than only that it is not their turn."""
    if game.status != Game.Status.RUNNING:
        return Conflict(gettext("the game is not running"), "game_not_running")
    seat = game.seat_to_act()
    stale = expected_version is not None and expected_version != game.version
    if ai:
        if seat is None or not seat.is_ai:
            return Conflict(gettext("it is not an AI player's turn"), "not_ai_turn")
    elif seat is None or user is None or seat.user_id != user.pk:
        seatless = seatless_refusal(game, user)
        if seatless is not None:
            return seatless
        if not stale:
            return Conflict(gettext("it is not your turn"), "not_your_turn")
    elif seat.is_ai:
        return Conflict(
            gettext("an AI player has your seat: take it back first"), "seat_taken_over"
        )
    if stale:
        return Conflict(what_changed(game, expected_version, user), "stale_version")
    return None


def what_changed(game: Game, since: int, user) -> str:
    """What happened in ``game`` after version ``since``, told to ``user``, whose page showed
    that version: the latest decision since, and who made it."""
    latest = (
        game.moves.filter(version__gt=since, forced=False)
        .select_related("seat__user")
        .order_by("-version")
        .first()
    )
    if latest is None:
        return gettext("the game has moved on since you looked")
    if user is not None and user.is_authenticated and latest.actor_id == user.pk:
        return gettext("you have acted since this page was shown: here is the game as it is now")
    name = {"name": latest.seat.name}
    if latest.kind == Move.Kind.UNDO:
        return gettext("%(name)s took back a move: here is the game as it is now") % name
    return gettext("%(name)s has moved since you looked: here is the game as it is now") % name


def seatless_refusal(game: Game, user) -> Forbidden | None:
    """The refusal for a user who holds no seat in ``game`` (its seats prefetched), or None:
    what the move form answers before it reads anything else of the request."""
    if game.seat_of(user) is None:
        return Forbidden(gettext("you have no seat in this game"), "not_seated")
    return None


def _earlier_move(game_id: int, user, idempotency_key: str) -> Move | None:
    """The move ``user`` made with this key; AI players and forced moves use no keys."""
    if not idempotency_key or user is None:
        return None
    return Move.objects.filter(game_id=game_id, actor=user, idempotency_key=idempotency_key).first()


MOVE_FIELDS = (
    "version",
    "state",
    "current_position",
    "turn_started_at",
    "status",
    "finished_at",
    "round_scores",
    "ending",
)
"""The game's columns a move may change; the others (the initial state above all, a large
JSON value) are not written again with every move."""


def _record(
    game: Game,
    rules,
    before,
    state,
    seat: Seat,
    action: Any,
    log: list[dict],
    *,
    actor=None,
    key: str = "",
    forced: bool = False,
) -> Move:
    """Store the new state and the move, the engine's ``action`` in its canonical JSON: only
    what the engine read, never fields it ignored. ``before``: the state it was played in."""
    _save_state(game, rules, before, state, turn_passes=forced)
    move = Move.objects.create(
        game=game,
        seat=seat,
        version=game.version,
        action=rules.action_to_json(action),
        log=log,
        idempotency_key=key,
        actor=actor,
        forced=forced,
    )
    if game.status == Game.Status.FINISHED:
        _write_results(game, state)
    return move


def _save_state(
    game: Game, rules, before, state, *, turn_passes: bool = False, undo: bool = False
) -> None:
    """The game's new state with version + 1, after ``before``: who acts, since when, how it
    ended at the end, and its history (``history.record_move``). ``turn_passes``: the turn
    starts afresh even if the same seat acts again; ``undo``: the state is an undo's."""
    game.version += 1
    game.state = rules.to_json(state)
    position = rules.current_player(state)
    if position != game.current_position or turn_passes:
        game.turn_started_at = timezone.now()
    game.current_position = position
    if rules.is_over(state):
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.ending = ending(played_by(seat) for seat in game.seats.all())
    history.record_move(game, rules, before, state, undo=undo)
    game.save(update_fields=MOVE_FIELDS)


def played_by(seat: Seat) -> str:
    """Who plays ``seat`` now: its person, an AI player of its own, or one that took the
    person's seat over."""
    if seat.taken_over:
        return Result.PlayedBy.TAKEN_OVER
    return Result.PlayedBy.AI if seat.is_ai else Result.PlayedBy.PERSON


def ending(plays) -> str:
    """How a finished game ended, from how each seat was played at the end (``played_by``):
    abandoned when an AI player had taken over every seat a person held."""
    plays = set(plays)
    if Result.PlayedBy.TAKEN_OVER in plays and Result.PlayedBy.PERSON not in plays:
        return Game.Ending.ABANDONED
    return Game.Ending.PLAYED_OUT


def write_results(game: Game, state, seats, plays: dict[int, tuple[str, int, int]]) -> None:
    """The finished game's ``Result`` rows, one per seat (``seats`` in engine order), from its
    engine's ``outcome``; ``plays``: per position, who played the seat at the end
    (``played_by``) and the decisions its person and an AI player made."""
    Result.objects.bulk_create(
        Result(
            game=game,
            seat=seats[place.seat],
            position=place.seat,
            user_id=seats[place.seat].user_id,
            played_by=plays[place.seat][0],
            person_decisions=plays[place.seat][1],
            ai_decisions=plays[place.seat][2],
            placement=place.placement,
            score=place.score,
            parts=place.parts,
            tiebreak=place.tiebreak,
        )
        for place in game.rules.outcome(state)
    )


def _write_results(game: Game, state) -> None:
    """The rows of a game that just finished here, each seat's decisions counted from its
    moves still standing: a person's have an actor, an AI player's none and are not forced."""
    seats = sorted((s for s in game.seats.all() if s.position is not None), key=_position)
    counts = {s.pk: [0, 0] for s in seats}
    fields = ("version", "kind", "action", "seat", "actor", "forced")
    moves = game.moves.order_by("version").only(*fields)
    for move in history.standing(moves):
        if not move.forced:
            counts[move.seat_id][move.actor_id is None] += 1
    plays = {s.position: (played_by(s), *counts[s.pk]) for s in seats}
    write_results(game, state, seats, plays)


def _position(seat: Seat) -> int:
    return seat.position


def _play_forced(game: Game, rules, state) -> None:
    """A person with exactly one legal action does not have to come back to click it."""
    for _ in range(MAX_FORCED_MOVES):
        if rules.is_over(state):
            return
        seat = game.seat_to_act()
        if seat is None or seat.is_ai:
            return
        legal = rules.legal_actions(state)
        if len(legal) != 1:
            return
        log: list[dict] = []
        after = rules.apply(state, legal[0], log=log)
        _record(game, rules, state, after, seat, legal[0], log, forced=True)
        state = after


def _announce(game: Game, *, previous_position: int | None, by_ai: bool = False) -> None:
    """Tell the site: within the transaction (so an outbox row commits with the move or not
    at all), and after commit (to queue work that must see the stored move). Whether an AI
    seat is to act is decided here, from the seats the move already holds, so the receivers
    after commit need not ask the database again."""
    game_changed.send(Game, game=game, previous_position=previous_position, by_ai=by_ai)
    if game.status == Game.Status.FINISHED:  # a finished game takes no more changes
        game_finished.send(Game, game=game)
    to_act = game.seat_to_act() if game.status == Game.Status.RUNNING else None
    game_id, version, ai_to_act = game.pk, game.version, to_act is not None and to_act.is_ai
    transaction.on_commit(
        lambda: move_applied.send(
            Game, game_id=game_id, version=version, by_ai=by_ai, ai_to_act=ai_to_act
        )
    )


# Undo: a player takes back their own last decisions ---------------------------------------


def undo_move(game_id: int, user, *, expected_version: int | None = None) -> Move:
    """Take back the user's last decision (with the forced moves after it) while nobody else
    has acted: the state goes back, and the undo is a move of its own, so nothing of the
    history is lost. The same road as a move: row lock, version + 1, announce after commit."""
    with transaction.atomic():
        game = _lock_for_move(game_id)
        if game.status != Game.Status.RUNNING:
            raise Conflict(gettext("the game is not running"), "game_not_running")
        seat = game.seat_of(user)
        if seat is None:
            raise Forbidden(gettext("you have no seat in this game"), "not_seated")
        if seat.is_ai:
            raise Conflict(
                gettext("an AI player has your seat: take it back first"), "seat_taken_over"
            )
        if game.rated:
            raise Conflict(gettext("moves are not taken back in a rated game"), "rated_game")
        if expected_version is not None and expected_version != game.version:
            raise Conflict(what_changed(game, expected_version, user), "stale_version")
        try:
            taken, state = history.undoable(game, seat)
        except history.NoUndo as refusal:
            raise Conflict(str(refusal), "nothing_to_undo") from None
        previous_position = game.current_position
        rules = get_engine(game.engine)
        _save_state(game, rules, rules.from_json(game.state), state, undo=True)
        move = Move.objects.create(
            game=game,
            seat=seat,
            version=game.version,
            kind=Move.Kind.UNDO,
            action={"undo": [m.version for m in taken]},
            log=history.undo_log(seat.position, len(taken)),
            actor=user,
        )
        _announce(game, previous_position=previous_position)
    return move


# Move clocks: timeouts, taking a seat back, the vote to drop an absentee --------------------


def time_out(game_id: int, *, now: datetime | None = None) -> bool:
    """The seat to act let its deadline pass: an AI player takes over, or (``on_timeout`` is
    ``vote``) the other players may vote to drop the absentee. False if nothing was due."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock(game_id)
        if game.status != Game.Status.RUNNING or game.deadline is None or game.deadline > now:
            return False
        seat = game.seat_to_act()
        if seat is None or seat.is_ai or seat.user_id is None:
            return False
        if Vacation.objects.pausing(now).filter(user_id=seat.user_id).exists():
            return False
        voters = _drop_voters(game, seat)
        if game.on_timeout == Game.OnTimeout.VOTE and voters:
            seat.timed_out_at = now
            seat.save(update_fields=["timed_out_at"])
            vote_opened.send(Game, game=game, seat=seat, voters=voters)
        else:  # no one left to vote: the AI keeps the seat warm
            _hand_to_ai(seat, now, dropped=False)
        _seats_changed(game)
        _announce(game, previous_position=game.current_position)
    return True


def take_seat_back(game_id: int, user, *, now: datetime | None = None) -> Seat:
    """A player whose seat the AI took over after a timeout plays it again; if it is their
    turn, their clock starts afresh."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock(game_id)
        if game.status != Game.Status.RUNNING:
            raise Conflict(gettext("the game is not running"))
        seat = game.seats.filter(user=user).first() if user is not None else None
        if seat is None:
            raise Forbidden(gettext("you have no seat in this game"))
        if seat.dropped:
            raise Conflict(
                gettext("the other players handed your seat to an AI player for good"),
                "seat_dropped",
            )
        if not seat.taken_over:
            raise Conflict(gettext("your seat is already yours"), "seat_not_taken_over")
        _back_to_person(game, seat, now)
    return seat


def _back_to_person(game: Game, seat: Seat, now: datetime) -> None:
    """The seat's person plays it again; if it is their turn, their clock starts afresh."""
    seat.ai_level = Seat.AI.NONE
    seat.taken_over_at = None
    seat.dropped = False
    seat.save(update_fields=["ai_level", "taken_over_at", "dropped"])
    if game.current_position == seat.position:
        game.turn_started_at = now
        game.deadline = game.reminder_at = None  # set afresh by the clock's receiver
        game.save(update_fields=["turn_started_at", "deadline", "reminder_at"])
    _seats_changed(game)
    _announce(game, previous_position=game.current_position)


def vote_to_drop(game_id: int, voter, seat_id: int, *, now: datetime | None = None) -> bool:
    """One vote to hand a timed-out seat to an AI player for good; True once a majority of the
    other players has voted and the AI has the seat."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _lock(game_id)
        if game.status != Game.Status.RUNNING:
            raise Conflict(gettext("the game is not running"))
        seat = game.seats.filter(pk=seat_id).first()
        if seat is None or seat.timed_out_at is None or seat.is_ai:
            raise Conflict(gettext("there is no vote on that seat"), "no_vote")
        voters = _drop_voters(game, seat)
        if voter is None or voter.pk not in voters:
            raise Forbidden(gettext("only the other players at the table may vote"))
        _, new = DropVote.objects.get_or_create(seat=seat, voter=voter)
        if new:
            _seats_changed(game)
        votes = seat.drop_votes.filter(voter_id__in=voters).count()
        if votes * 2 <= len(voters):
            return False
        _hand_to_ai(seat, now, dropped=True)
        _announce(game, previous_position=game.current_position)
    return True


def _seats_changed(game: Game) -> None:
    """A seat changed hands or a vote moved on: a new version, so that open boards, which
    poll the version, show it, and a move prepared before it is refused as stale."""
    game.version += 1
    game.save(update_fields=["version"])
    history.record_version(game)


def _drop_voters(game: Game, absentee: Seat) -> set[int]:
    """The people who still play their own seats, besides the absentee."""
    return {
        s.user_id
        for s in game.seats.all()
        if s.user_id is not None and not s.is_ai and s.pk != absentee.pk
    }


def _hand_to_ai(seat: Seat, now: datetime, *, dropped: bool, level: str = TAKEOVER_AI) -> None:
    seat.ai_level = level
    seat.taken_over_at = now
    seat.dropped = dropped
    _close_drop_vote(seat, save=False)
    seat.save(update_fields=["ai_level", "taken_over_at", "dropped", "timed_out_at"])


def _close_drop_vote(seat: Seat, *, save: bool = True) -> None:
    seat.timed_out_at = None
    seat.drop_votes.all().delete()
    if save:
        seat.save(update_fields=["timed_out_at"])


# AI players --------------------------------------------------------------------------------


def play_ai_turn(game_id: int, version: int, *, level: str | None = None) -> MoveResult | None:
    """Play the AI seat's move if the game is still at ``version``; a stale call does nothing.

    The bot sees only its seat's view. ``level`` overrides the seat's (a quick move when the
    seat's own bot ran out of time)."""
    from games.bots import choose_action  # pure Python; imported here to keep startup light

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.version != version or game.status != Game.Status.RUNNING:
        return None
    seat = game.seat_to_act()
    if seat is None or not seat.is_ai:
        return None
    spec = get_game(game.engine)
    rules = spec.engine
    view = rules.player_view(rules.from_json(game.state), seat.position)
    level = level or seat.ai_level
    action = choose_action(
        rules,
        view,
        bots=spec.bots,
        level=level,
        seed=game.seed + version,
        simulations=settings.AI_SIMULATIONS,
    )
    try:
        return submit_move(game_id, rules.action_to_json(action), ai=True, expected_version=version)
    except Conflict:
        return None


def hand_seats_to_ai(user, *, for_good: bool = True) -> None:
    """``user`` leaves the site: their seats in open games are freed (as ``leave_game``), and
    in running games an AI player takes over each seat for good (as after the others' vote),
    queued at once if it is that seat's turn. The seat keeps its person, so the table and the
    log still name them (as the anonymised account does). Finished games stay as they were.
    ``for_good=False`` (a suspension): the person may take each seat back when they return.
    Their pending challenges end: those they received declined, those they sent withdrawn."""
    for game_id in set(
        Challenge.objects.pending()
        .filter(Q(invitee=user) | Q(challenger=user))
        .values_list("game_id", flat=True)
    ):
        with transaction.atomic():
            game = _lock(game_id)
            _close_challenges(game.challenges.filter(invitee=user), Challenge.Status.DECLINED)
            _close_challenges(game.challenges.filter(challenger=user), Challenge.Status.WITHDRAWN)
    seats = Seat.objects.filter(user=user)
    for game_id in list(
        seats.filter(game__status=Game.Status.OPEN).values_list("game_id", flat=True)
    ):
        try:
            leave_game(game_id, user)
        except Conflict:  # it started meanwhile: handed over below like any running game
            continue
    now = timezone.now()
    for game_id in list(
        seats.filter(game__status=Game.Status.RUNNING).values_list("game_id", flat=True)
    ):
        with transaction.atomic():
            game = _lock(game_id)
            seat = game.seats.filter(user=user).first()
            if game.status != Game.Status.RUNNING or seat is None:
                continue
            _hand_to_ai(seat, now, dropped=for_good)
            _seats_changed(game)
            if seat.position == game.current_position:
                _announce(game, previous_position=game.current_position)


# Moderation: a moderator's changes to a game, on the same road as a move ---------------------


def cancel_by_moderator(game_id: int, reason: str) -> Game:
    """Cancel an open or running game; the players read ``reason`` on the game page and get
    an email. The last position stays on the board."""
    with transaction.atomic():
        game = _lock(game_id)
        if game.status not in (Game.Status.OPEN, Game.Status.RUNNING):
            raise Conflict(gettext("the game is already over"))
        previous_position = game.current_position
        _abort(game, Game.Ending.CANCELLED_BY_MODERATOR)
        game.cancel_reason = reason
        game.save(update_fields=["cancel_reason"])
        _seats_changed(game)
        game_cancelled.send(Game, game=game)
        _announce(game, previous_position=previous_position)
    return game


def seat_to_ai(seat_id: int, level: str) -> Seat:
    """A moderator hands a seat of a running game to an AI player of ``level``, the way a
    timed-out seat goes to the AI (for good: the person gets it back only from a moderator);
    if it is the seat's turn, the AI's move is queued."""
    if not level or level not in Seat.AI.values:
        raise GameError(gettext("unknown AI level %(level)r") % {"level": level})
    with transaction.atomic():
        game, seat = _running_seat(seat_id)
        _hand_to_ai(seat, timezone.now(), dropped=seat.user_id is not None, level=level)
        _seats_changed(game)
        _announce(game, previous_position=game.current_position)
    return seat


def seat_back_to_person(seat_id: int) -> Seat:
    """A moderator gives a seat the AI plays back to its person (as ``take_seat_back``)."""
    with transaction.atomic():
        game, seat = _running_seat(seat_id)
        if seat.user_id is None or not seat.is_ai:
            raise Conflict(gettext("no AI player plays a person's seat here"))
        if not seat.user.is_active:
            raise Conflict(gettext("the seat's player has left the site"))
        _back_to_person(game, seat, timezone.now())
    return seat


def _running_seat(seat_id: int) -> tuple[Game, Seat]:
    game_id = Seat.objects.filter(pk=seat_id).values_list("game_id", flat=True).first()
    if game_id is None:
        raise NotFound(gettext("no such seat"))
    game = _lock(game_id)
    if game.status != Game.Status.RUNNING:
        raise Conflict(gettext("the game is not running"))
    return game, game.seats.select_related("user").get(pk=seat_id)
