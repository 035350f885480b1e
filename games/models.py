"""Games, seats and moves. Nothing here knows a game's rules: the engine named by
``Game.engine`` owns the meaning of ``state`` and of each move's ``action``."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from games.engines import get_engine
from games.fields import WholeJSONField


def new_seed() -> int:
    return secrets.randbits(62)


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "open for players"
        RUNNING = "running", "running"
        FINISHED = "finished", "finished"
        ABORTED = "aborted", "aborted"

    class OnTimeout(models.TextChoices):
        AI = "ai", "an AI player takes over the seat (the player may take it back)"
        VOTE = "vote", "the other players may vote to hand the seat to an AI player"

    engine = models.CharField(max_length=32, default="puerto_rico")
    num_players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    seed = models.BigIntegerField(default=new_seed, editable=False)
    initial_state = WholeJSONField(null=True, blank=True, editable=False)
    state = WholeJSONField(null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(
        default=0,
        help_text="Changes so far: every accepted move adds one, and so does a seat's change "
        "of hands or a vote on it (no move is stored for those).",
    )
    current_position = models.SmallIntegerField(
        null=True, blank=True, help_text="Engine seat whose decision it is (null: nobody)."
    )
    turn_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    move_time = models.DurationField(
        null=True, blank=True, help_text="Time a person has for each turn; empty: no limit."
    )
    on_timeout = models.CharField(
        max_length=8, choices=OnTimeout.choices, default=OnTimeout.AI, blank=True
    )
    reminder_at = models.DateTimeField(
        null=True, blank=True, db_index=True, help_text="When 80 % of the move time is used."
    )
    result = models.JSONField(null=True, blank=True, editable=False)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("games:game", args=[self.pk])

    @property
    def rules(self):
        return get_engine(self.engine)

    def engine_state(self):
        return self.rules.from_json(self.state)

    def seat_to_act(self) -> Seat | None:
        if self.current_position is None:
            return None
        return next((s for s in self.seats.all() if s.position == self.current_position), None)

    def names(self) -> list[str]:
        """Player names in engine seat order, for log lines."""
        seats = sorted(
            (s for s in self.seats.all() if s.position is not None), key=lambda s: s.position
        )
        return [s.name for s in seats]


class Seat(models.Model):
    """A place at a game's table: a person or an AI player."""

    class AI(models.TextChoices):
        NONE = "", "person"
        RANDOM = "random", "AI: random moves"
        EASY = "easy", "AI: easy"
        MEDIUM = "medium", "AI: medium"
        HARD = "hard", "AI: hard"

    COLOURS = ("blue", "red", "green", "yellow", "purple")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    ai_level = models.CharField(max_length=16, choices=AI.choices, default="", blank=True)
    position = models.SmallIntegerField(
        null=True, blank=True, help_text="Engine seat (0 = first governor), set at the start."
    )
    colour = models.CharField(max_length=12, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)
    taken_over_at = models.DateTimeField(
        null=True, blank=True, help_text="Since when an AI player plays this person's seat."
    )
    dropped = models.BooleanField(
        default=False, help_text="Handed to the AI for good by the other players' vote."
    )
    timed_out_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Ran out of time; the other players may vote to hand the seat to the AI.",
    )
    seen_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player last had this game open (stored at most once a minute).",
    )

    class Meta:
        ordering = ["position", "joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="one_seat_per_user"
            ),
            models.UniqueConstraint(
                fields=["game", "position"],
                condition=Q(position__isnull=False),
                name="one_seat_per_position",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} in game {self.game_id}"

    @property
    def is_ai(self) -> bool:
        return bool(self.ai_level)

    @property
    def taken_over(self) -> bool:
        """A person's seat played by the AI (after a timeout or the others' vote)."""
        return self.taken_over_at is not None

    @property
    def name(self) -> str:
        if self.user_id:
            return self.user.public_name
        return f"AI {self.colour or ''}".strip() if self.is_ai else "open seat"


class Move(models.Model):
    """One accepted action, in order. Replaying every move from ``Game.initial_state``
    gives ``Game.state``."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="moves")
    version = models.PositiveIntegerField(help_text="The game's version after this move.")
    action = models.JSONField()
    log = models.JSONField(default=list, help_text="Log lines; {p0}… stand for player names.")
    idempotency_key = models.CharField(max_length=64, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Who submitted it; empty for AI and forced moves.",
    )
    forced = models.BooleanField(
        default=False, help_text="The only legal move, played by the site."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_move_per_version"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="idempotency_key_once_per_game",
            ),
        ]

    def __str__(self) -> str:
        return f"move {self.version} of game {self.game_id}"


class DropVote(models.Model):
    """One player's vote to hand a seat whose player ran out of time to an AI player."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="drop_votes")
    voter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seat", "voter"], name="one_drop_vote_per_voter")
        ]

    def __str__(self) -> str:
        return f"vote to drop seat {self.seat_id}"


class Notification(models.Model):
    """The outbox: one email to one person, written in the transaction of the change that
    causes it and delivered after commit (or by the sweeper, if that never happened)."""

    class Kind(models.TextChoices):
        TURN = "turn", "your move"
        DIGEST = "digest", "daily digest"
        REMINDER = "reminder", "move time running out"
        GAME_OVER = "game_over", "game over"
        VOTE = "vote", "a vote on an absent player"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    payload = models.JSONField(default=dict, blank=True)
    dedupe_key = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    next_attempt_at = models.DateTimeField(
        null=True, blank=True, help_text="Not before this (backoff after a failure)."
    )
    sent_at = models.DateTimeField(null=True, blank=True)
    discarded_at = models.DateTimeField(
        null=True, blank=True, help_text="Given up or no longer wanted; last_error says why."
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["next_attempt_at", "created_at"],
                condition=Q(sent_at__isnull=True, discarded_at__isnull=True),
                name="notification_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} to {self.user_id} ({self.dedupe_key})"

    @property
    def status(self) -> str:
        if self.sent_at:
            return "sent"
        return "discarded" if self.discarded_at else "pending"


class VacationQuerySet(models.QuerySet):
    def pausing(self, now):
        """Vacations that pause clocks at ``now``: running, or over but not yet settled."""
        return self.filter(start__lte=now, settled=False)

    def active(self, now):
        return self.filter(start__lte=now, end__gt=now)


class Vacation(models.Model):
    """While a player is on vacation their move clocks stand still; when it ends their
    deadlines are pushed back by the time it lasted (``settled``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations"
    )
    start = models.DateTimeField()
    end = models.DateTimeField()
    settled = models.BooleanField(
        default=False, help_text="Over, and the player's deadlines have been extended."
    )

    objects = VacationQuerySet.as_manager()

    class Meta:
        ordering = ["-start"]
        indexes = [models.Index(fields=["user", "end"])]

    def __str__(self) -> str:
        return f"vacation of {self.user_id} from {self.start:%Y-%m-%d}"
