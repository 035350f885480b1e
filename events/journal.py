"""Writes the journal (``events.models.Event``) inside the transaction of each change, so an
event commits with its change or not at all; after commit it rings the bell
(``events.bell``) for the streams that wait on it."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver

from events import bell
from events.models import Event
from games.models import Challenge, ChatMessage, Game
from games.signals import challenge_changed, chat_posted, game_changed

ENDED = {
    Game.Status.FINISHED: Event.Kind.FINISHED,
    Game.Status.ABORTED: Event.Kind.CANCELLED,
}
"""The user event of a game's end, by how it ended."""


def _people(game: Game) -> list[int]:
    """The users seated in ``game`` in person (seats prefetched)."""
    return [seat.user_id for seat in game.seats.all() if seat.user_id and not seat.is_ai]


def _write(events: list[Event]) -> None:
    Event.objects.bulk_create(events)
    keys = {bell.key(event.user_id, event.game_id) for event in events}
    transaction.on_commit(lambda: bell.ring(sorted(keys)))


@receiver(game_changed)
def journal_change(sender, *, game: Game, previous_position: int | None, **kwargs) -> None:
    """Every change is a game event; the person to act gets a turn event; a game that starts
    or ends tells each of its players."""
    version = game.version
    events = [Event(game=game, kind=Event.Kind.GAME, version=version)]
    people = _people(game)
    if game.status == Game.Status.RUNNING:
        if previous_position is None:
            events += [
                Event(user_id=u, game=game, kind=Event.Kind.STARTED, version=version)
                for u in people
            ]
        seat = game.seat_to_act()
        if seat is not None and seat.user_id and not seat.is_ai:
            events.append(
                Event(user_id=seat.user_id, game=game, kind=Event.Kind.TURN, version=version)
            )
    elif game.status in ENDED:
        kind = ENDED[game.status]
        events += [Event(user_id=u, game=game, kind=kind, version=version) for u in people]
    _write(events)


@receiver(chat_posted)
def journal_chat(sender, *, message: ChatMessage, **kwargs) -> None:
    """A message is an event of its game and of each of its other players."""
    game = message.game
    events = [Event(game=game, kind=Event.Kind.CHAT, version=game.version, message=message)]
    events += [
        Event(user_id=u, game=game, kind=Event.Kind.CHAT, version=game.version, message=message)
        for u in _people(game)
        if u != message.author_id
    ]
    _write(events)


TOLD = {
    Challenge.Status.PENDING: "invitee_id",
    Challenge.Status.ACCEPTED: "challenger_id",
    Challenge.Status.DECLINED: "challenger_id",
    Challenge.Status.WITHDRAWN: "invitee_id",
}
"""Who hears of a challenge's change: the invitee that they are challenged, or that the
challenge was withdrawn; the challenger that it was answered."""


@receiver(challenge_changed)
def journal_challenge(sender, *, challenge: Challenge, **kwargs) -> None:
    """A challenge made or answered is an event of the other side's stream."""
    game = challenge.game
    _write(
        [
            Event(
                user_id=getattr(challenge, TOLD[challenge.status]),
                game=game,
                kind=Event.Kind.CHALLENGE,
                version=game.version,
                challenge=challenge,
            )
        ]
    )
