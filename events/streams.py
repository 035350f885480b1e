"""What an event stream sends, as Server-Sent Events: a user's stream (their turns, their
games starting and ending, chat in their games, challenges made to them and the answers to
theirs) or a game's (each change, its chat). Each event is built when it is sent, from the
game as it stands and for the stream's own reader (``games.api.game_document``, the document
``GET /api/games/<id>/`` answers), so a stream never tells more than a read would.

A stream reads the journal after the last event it sent. PostgreSQL hands out ids in the
order transactions begin, not commit: a change of another game may commit a lower id just
after a higher one was read. So a stream looks again at ids it passed over for
``LATE_SECONDS``, longer than any change's transaction lasts.
"""

from __future__ import annotations

import json
import time

from django.db.models import F, Max

from events import bell
from events.models import Event
from games import challenges, chat
from games.api import game_document
from games.api_challenges import challenge_document
from games.models import ChatMute, Game

LATE_SECONDS = 10.0
BATCH = 200
"""Journal rows read at one look; the rest come at the next."""


def message(kind: str, data: dict, event_id: int | None = None) -> str:
    """One Server-Sent Event; JSON on one line, so one ``data:`` field."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


class Stream:
    """The stream of ``user`` (``game_id`` None) or of a game as ``user`` (perhaps
    anonymous) may see it, from after ``last_id`` (a client's ``Last-Event-ID``), or from
    now with the present first."""

    def __init__(self, user, game_id: int | None = None, last_id: int | None = None) -> None:
        self.user = user
        self.game_id = game_id
        self.last_id = last_id
        self.floor = last_id or 0
        """Every id up to here was read or will never commit."""
        self.read: dict[int, float] = {}
        """Ids above ``floor`` read already, with when."""
        self.over = False
        """The game became hidden from the reader: the stream ends."""

    @property
    def key(self) -> str:
        return bell.key(None if self.game_id else self.user.pk, self.game_id or 0)

    def opening(self) -> str:
        """How long a client waits before it connects again, and, for a new client (no
        ``Last-Event-ID``), the present: the games where it is the user's turn and the
        challenges waiting for their answer, or the game as it stands. These carry no id: a
        client that connects again gets them anew."""
        text = "retry: 1000\n\n"
        if self.last_id is None:
            self.floor = Event.objects.aggregate(last=Max("id"))["last"] or 0
            if self.game_id:
                game = self._games([self.game_id]).get(self.game_id)
                text += self._game_event(game, None) if game else ""
            else:
                waiting = Game.objects.with_seats().filter(
                    status=Game.Status.RUNNING,
                    seats__user=self.user,
                    seats__ai_level="",
                    seats__position=F("current_position"),
                )
                for game in waiting.order_by("pk"):
                    text += message(Event.Kind.TURN, game_document(game, self.user))
                for challenge in challenges.pending_for(self.user):
                    data = challenge_document(challenge, self.user)
                    text += message(Event.Kind.CHALLENGE, data)
        return text

    def fetch(self) -> str:
        """The events committed since the last look, as text to send ('' if none)."""
        rows = Event.objects.filter(id__gt=self.floor).exclude(id__in=list(self.read))
        if self.game_id:
            rows = rows.filter(game_id=self.game_id, user__isnull=True)
        else:
            rows = rows.filter(user=self.user)
        related = ("message__author", "challenge__challenger", "challenge__invitee")
        rows = list(rows.select_related(*related).order_by("id")[:BATCH])
        now = time.monotonic()
        self.read.update((row.id, now) for row in rows)
        settled = [i for i, seen in self.read.items() if seen < now - LATE_SECONDS]
        if settled:
            self.floor = max(self.floor, *settled)
            self.read = {i: seen for i, seen in self.read.items() if i > self.floor}
        if not rows:
            return ""
        games = self._games({row.game_id for row in rows})
        muted = set()
        if self.user.is_authenticated and any(row.message_id for row in rows):
            muted = set(ChatMute.objects.filter(user=self.user).values_list("muted", flat=True))
        text = ""
        latest = {row.game_id: row.id for row in rows if row.kind != Event.Kind.CHAT}
        for row in rows:
            game = games.get(row.game_id)
            if row.kind == Event.Kind.CHALLENGE and game is not None:
                # The reader's own challenge: no view of the game, so told even once the
                # game has started behind closed doors.
                row.challenge.game = game
                text += message(row.kind, challenge_document(row.challenge, self.user), row.id)
                continue
            if game is None or not game.visible_to(self.user):
                self.over = bool(self.game_id)
                continue
            if row.kind == Event.Kind.CHAT:
                shown = row.message.hidden_at is None and row.message.author_id not in muted
                if shown and chat.may_read(game, self.user):
                    data = {"game": game.pk, "message": chat.as_json(row.message)}
                    text += message(row.kind, data, row.id)
            elif row.kind == Event.Kind.GAME:
                if latest[row.game_id] == row.id:  # the game as it stands, once a look
                    text += self._game_event(game, row.id)
            elif row.kind == Event.Kind.TURN:
                if row.version == game.version and self._to_act(game):
                    text += message(row.kind, game_document(game, self.user), row.id)
            else:
                text += message(row.kind, game_document(game, self.user), row.id)
        return text

    def _games(self, ids) -> dict[int, Game]:
        return Game.objects.with_seats().in_bulk(list(ids))

    def _game_event(self, game: Game, event_id: int | None) -> str:
        return message(Event.Kind.GAME, game_document(game, self.user), event_id)

    def _to_act(self, game: Game) -> bool:
        seat = game.seat_to_act() if game.status == Game.Status.RUNNING else None
        return seat is not None and not seat.is_ai and seat.user_id == self.user.pk
