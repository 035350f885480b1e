"""Games, seats and moves. Nothing here knows a game's rules: the engine named by
``Game.engine`` owns the meaning of ``state`` and of each move's ``action``."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import BooleanField, ExpressionWrapper, F, Q
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.fields import WholeJSONField
from games.registry import get_game


def new_seed() -> int:
    return secrets.randbits(62)


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


VISIBILITY_FIELDS = ("status", "spectators", "creator")
"""The fields ``Game.visible_to`` reads: a check of who may see a game loads only these."""


class GameQuerySet(models.QuerySet):
    def hidden_from(self, pk: int, user) -> bool:
        """Whether game ``pk`` does not exist or is hidden from ``user`` (``Game.visible_to``),
        read from the few fields that rule needs: what an action checks first, so a stranger's
        refusal never tells the game exists."""
        row = self.only(*VISIBILITY_FIELDS).filter(pk=pk).first()
        return row is None or not row.visible_to(user)

    def with_seats(self, viewer=None) -> GameQuerySet:
        """Games as a page, a read or a move needs them: seats and their users in one more
        query, and without the initial state (large; only a replay needs it). With a signed-in
        ``viewer``, each seat also says whether the viewer muted its player in the chat
        (``muted_by_viewer``), in the same query."""
        seats = Seat.objects.select_related("user")
        if viewer is not None and viewer.is_authenticated:
            mutes = ChatMute.objects.filter(user=viewer, muted=models.OuterRef("user_id"))
            seats = seats.annotate(muted_by_viewer=models.Exists(mutes))
        return self.defer("initial_state").prefetch_related(models.Prefetch("seats", seats))

    def waiting_for_players(self) -> GameQuerySet:
        """Open games, the latest first, each with the number of seats taken (``seated``):
        the lobby's list and the front page's."""
        return (
            self.filter(status=Game.Status.OPEN)
            .annotate(seated=models.Count("seats"))
            .select_related("creator")
            .order_by("-created_at")
        )

    def listed(self) -> GameQuerySet:
        """Games as the archive and the games to watch list them: the columns a row shows (no
        state), its seats with their users and its results in two more queries, whatever the
        number of games."""
        seats = Seat.objects.select_related("user")
        return self.only(*LISTED).prefetch_related(models.Prefetch("seats", seats), "results")

    def archived_for(self, viewer) -> GameQuerySet:
        """The archive as ``viewer`` sees it: finished games anyone may watch, and a signed-in
        viewer's own (a seat, or imported or opened by them), the latest first."""
        shown = Q(spectators=True)
        if viewer is not None and viewer.is_authenticated:
            seated = Seat.objects.filter(game=models.OuterRef("pk"), user=viewer)
            shown |= Q(creator=viewer) | Q(models.Exists(seated))
        finished = self.filter(shown, status=Game.Status.FINISHED)
        return finished.listed().order_by("-finished_at", "-pk")

    def to_watch(self) -> GameQuerySet:
        """Running games anyone may watch, the one whose turn changed last first."""
        running = self.filter(status=Game.Status.RUNNING, spectators=True)
        return running.listed().order_by(F("turn_started_at").desc(nulls_last=True), "-pk")


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("game status", "open for players")
        RUNNING = "running", pgettext_lazy("game status", "running")
        FINISHED = "finished", pgettext_lazy("game status", "finished")
        ABORTED = "aborted", pgettext_lazy("game status", "cancelled")

    class Ending(models.TextChoices):
        PLAYED_OUT = "played_out", _("played to the end")
        ABANDONED = (
            "abandoned",
            _("played to the end by AI players: every person's seat had passed to one"),
        )
        CANCELLED = "cancelled", _("cancelled before the start")
        CANCELLED_BY_MODERATOR = "cancelled_by_moderator", _("cancelled by a moderator")

    class OnTimeout(models.TextChoices):
        AI = "ai", _("an AI player takes over")
        VOTE = "vote", _("the others may vote")

    engine = models.CharField(_("engine"), max_length=32)
    num_players = models.PositiveSmallIntegerField(_("number of players"))
    options = models.JSONField(_("options"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    seed = models.BigIntegerField(_("seed"), default=new_seed, editable=False)
    initial_state = WholeJSONField(_("initial state"), null=True, blank=True, editable=False)
    state = WholeJSONField(_("state"), null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(
        _("version"),
        default=0,
        help_text=_(
            "Changes so far: every accepted move adds one, and so does a seat's change "
            "of hands or a vote on it (no move is stored for those)."
        ),
    )
    current_position = models.SmallIntegerField(
        _("position to act"),
        null=True,
        blank=True,
        help_text=_("Engine seat whose decision it is (null: nobody)."),
    )
    turn_started_at = models.DateTimeField(_("turn started at"), null=True, blank=True)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True, db_index=True)
    move_time = models.DurationField(
        _("move time"),
        null=True,
        blank=True,
        help_text=_("Time a person has for each turn; empty: no limit."),
    )
    on_timeout = models.CharField(
        _("on timeout"), max_length=8, choices=OnTimeout.choices, default=OnTimeout.AI, blank=True
    )
    reminder_at = models.DateTimeField(
        _("reminder at"),
        null=True,
        blank=True,
        db_index=True,
        help_text=_("When 80 % of the move time is used."),
    )
    round_scores = models.JSONField(
        _("scores by round"),
        null=True,
        blank=True,
        editable=False,
        help_text=_(
            "A finished game's score chart: each player's score at the start and at the end "
            "of every round, stored as it finishes, so that its page draws it without a replay."
        ),
    )
    ending = models.CharField(
        _("ending"),
        max_length=24,
        choices=Ending.choices,
        blank=True,
        help_text=_("How the game ended; empty while it is open or running."),
    )
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("creator"),
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    invite_code = models.CharField(
        _("invitation code"), max_length=32, unique=True, default=new_invite_code
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    imported = models.BooleanField(
        _("imported"),
        default=False,
        help_text=_("Made from an exported file: a finished game to replay, never played here."),
    )
    import_digest = models.CharField(
        _("import digest"),
        max_length=64,
        blank=True,
        editable=False,
        help_text=_(
            "SHA-256 of the imported game (its setup, players and moves): a user who imports "
            "the same game again gets this one."
        ),
    )
    cancel_reason = models.TextField(
        _("why it was cancelled"),
        blank=True,
        help_text=_("A moderator's reason, shown to the players on the game page."),
    )
    chat_public = models.BooleanField(
        _("spectators may read the chat"),
        default=False,
        help_text=_("Chosen by the creator when opening the game; only players may write."),
    )
    rated = models.BooleanField(
        _("rated"),
        default=False,
        help_text=_(
            "Counts for the players' ratings (chosen when opening the game; at least two "
            "persons play, and nobody may take a move back). Otherwise a casual game."
        ),
    )
    bots_allowed = models.BooleanField(
        _("bots may join"),
        default=False,
        help_text=_("Bot accounts (programs playing through the API) may take its open seats."),
    )
    spectators = models.BooleanField(
        _("anyone may watch"),
        default=True,
        help_text=_(
            "Listed under the games to watch and on the players' profiles, and open to anyone "
            "who is not a player. Otherwise only its players see it."
        ),
    )
    chat_version = models.PositiveIntegerField(
        _("chat version"),
        default=0,
        help_text=_(
            "Changes to the chat so far (a message written or hidden): what the game page "
            "polls, beside the version, to show the chat without a reload."
        ),
    )

    objects = GameQuerySet.as_manager()

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"]),
            models.Index(fields=["status", "-finished_at"], name="games_archive"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["creator", "import_digest"],
                condition=~Q(import_digest=""),
                name="games_one_import_per_game_and_user",
            )
        ]

    def __str__(self) -> str:
        name = gettext("Game %(number)s") % {"number": self.pk}
        return f"{name} ({self.get_status_display()})"

    def get_absolute_url(self) -> str:
        return reverse("games:game", args=[self.pk])

    @property
    def spec(self):
        """The game on the shelf: its engine, board, bots and words (``games.registry``)."""
        return get_game(self.engine)

    @property
    def title(self) -> str:
        """The game's name, as the shelf gives it."""
        return self.spec.title

    @property
    def rules(self):
        return self.spec.engine

    def variant(self) -> str:
        """The game's named options in words (the edition): shown wherever the game is."""
        return self.spec.describe_options(self.options)

    def visible_to(self, user) -> bool:
        """Whether ``user`` may see this game at all: anyone while it is open (the lobby, an
        invitation) or if anyone may watch it; otherwise only its players, its creator and
        moderators (``games.view_game``). The one rule of every page and API read of one game;
        the permission is looked up only for a game that is neither public nor the user's."""
        if self.status == self.Status.OPEN or self.spectators:
            return True
        if user is None or not user.is_authenticated:
            return False
        if self.creator_id == user.pk or self.seat_of(user) is not None:
            return True
        return user.has_perm("games.view_game")

    def engine_state(self):
        return self.rules.from_json(self.state)

    def seat_of(self, user) -> Seat | None:
        """The seat ``user`` holds (seats prefetched or not); None for anyone else, an
        anonymous visitor or no user at all included."""
        if user is None or not user.is_authenticated:
            return None
        return next((s for s in self.seats.all() if s.user_id == user.pk), None)

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

    def other_names(self, user) -> list[str]:
        """The other players' names, for "with …" beside a game in lists and emails."""
        return [name for name in self.names() if name != user.public_name]


class SeatQuerySet(models.QuerySet):
    """Whose move it is, asked of many seats at once (one game's seats in memory:
    ``Game.seat_to_act``)."""

    def to_act(self) -> SeatQuerySet:
        """The seats whose move it is in a running game, whoever plays them."""
        return self.filter(TO_ACT)

    def persons_to_act(self) -> SeatQuerySet:
        """The seats where a person is to move: not those an AI player plays, its own or a
        person's it took over (their person waits and watches)."""
        return self.filter(PERSON_TO_ACT)

    def with_your_turn(self) -> SeatQuerySet:
        """Each seat with ``your_turn``: whether its person is to move (``persons_to_act``)."""
        return self.annotate(your_turn=ExpressionWrapper(PERSON_TO_ACT, BooleanField()))


LISTED = (
    "engine",
    "num_players",
    "options",
    "status",
    "rated",
    "spectators",
    "imported",
    "created_at",
    "turn_started_at",
    "finished_at",
    "current_position",
)
"""The columns of a game in a list (``GameQuerySet.listed``)."""

TO_ACT = Q(game__status=Game.Status.RUNNING, position=F("game__current_position"))
PERSON_TO_ACT = TO_ACT & Q(ai_level="")


class Seat(models.Model):
    """A place at a game's table: a person or an AI player."""

    class AI(models.TextChoices):
        NONE = "", _("person")
        RANDOM = "random", _("AI: random moves")
        EASY = "easy", _("AI: easy")
        MEDIUM = "medium", _("AI: medium")
        HARD = "hard", _("AI: hard")

    COLOURS = ("blue", "red", "green", "yellow", "purple")
    COLOUR_NAMES = {
        "blue": pgettext_lazy("colour", "blue"),
        "red": pgettext_lazy("colour", "red"),
        "green": pgettext_lazy("colour", "green"),
        "yellow": pgettext_lazy("colour", "yellow"),
        "purple": pgettext_lazy("colour", "purple"),
    }

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="seats"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    ai_level = models.CharField(
        _("AI level"), max_length=16, choices=AI.choices, default="", blank=True
    )
    position = models.SmallIntegerField(
        _("position"),
        null=True,
        blank=True,
        help_text=_("Engine seat (0 = first governor), set at the start."),
    )
    colour = models.CharField(_("colour"), max_length=12, blank=True)
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)
    taken_over_at = models.DateTimeField(
        _("taken over at"),
        null=True,
        blank=True,
        help_text=_("Since when an AI player plays this person's seat."),
    )
    dropped = models.BooleanField(
        _("dropped"),
        default=False,
        help_text=_("Handed to the AI for good by the other players' vote."),
    )
    timed_out_at = models.DateTimeField(
        _("timed out at"),
        null=True,
        blank=True,
        help_text=_("Ran out of time; the other players may vote to hand the seat to the AI."),
    )
    imported_name = models.CharField(
        _("imported name"),
        max_length=150,
        blank=True,
        help_text=_("The player's name as an imported game's file gives it."),
    )
    seen_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the player last had this game open (stored at most once a minute).",
    )

    objects = SeatQuerySet.as_manager()

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
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
    def is_bot(self) -> bool:
        """A bot account's seat (a program playing through the API), not an AI player's."""
        return self.user_id is not None and self.user.is_bot

    @property
    def taken_over(self) -> bool:
        """A person's seat played by the AI (after a timeout or the others' vote)."""
        return self.taken_over_at is not None

    @property
    def name(self) -> str:
        if self.imported_name:
            return self.imported_name
        if self.user_id:
            return self.user.public_name
        if not self.is_ai:
            return gettext("open seat")
        if not self.colour:
            return gettext("AI")
        return gettext("AI %(colour)s") % {"colour": self.COLOUR_NAMES[self.colour]}


class Move(models.Model):
    """One accepted action, or one undo, in order. Replaying every move from
    ``Game.initial_state`` gives ``Game.state`` (``history.replay_steps``)."""

    class Kind(models.TextChoices):
        ACTION = "action", _("action")
        UNDO = "undo", _("undo")

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="moves"
    )
    seat = models.ForeignKey(
        Seat, verbose_name=_("seat"), on_delete=models.PROTECT, related_name="moves"
    )
    version = models.PositiveIntegerField(
        _("version"), help_text=_("The game's version after this move.")
    )
    kind = models.CharField(
        _("kind"),
        max_length=8,
        choices=Kind.choices,
        default=Kind.ACTION,
        help_text=_(
            "An undo takes back the moves whose versions its action lists "
            '(``{"undo": [versions]}``); the state goes back to before the first of them.'
        ),
    )
    action = models.JSONField(_("action"))
    log = models.JSONField(
        _("log"), default=list, help_text=_("What happened: the engine's events (docs/engine.md).")
    )
    idempotency_key = models.CharField(
        _("idempotency key"),
        max_length=64,
        blank=True,
        help_text=_("The mover's own key for this move: a retry with it gets this move back."),
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("actor"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("Who submitted it; empty for AI and forced moves."),
    )
    forced = models.BooleanField(
        _("forced"), default=False, help_text=_("The only legal move, played by the site.")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_move_per_version"),
            # A key is its user's: another user's key is unknown to you, not a replay.
            models.UniqueConstraint(
                fields=["game", "actor", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="idempotency_key_once_per_user_and_game",
            ),
        ]

    def __str__(self) -> str:
        return f"move {self.version} of game {self.game_id}"


class Position(models.Model):
    """The state after one version of a game, kept so that its history is read from near the
    version wanted rather than replayed from the start (``games.history``): after every
    ``history.POSITION_EVERY``-th version, after each undo, and wherever the round changed."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="positions"
    )
    version = models.PositiveIntegerField(_("version"))
    state = WholeJSONField(_("state"))
    new_round = models.BooleanField(
        _("new round"),
        default=False,
        help_text=_("The round changed with this version: a point of the score chart."),
    )

    class Meta:
        verbose_name = pgettext_lazy("a game's state", "position")
        verbose_name_plural = pgettext_lazy("a game's state", "positions")
        ordering = ["game", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="one_position_per_version")
        ]

    def __str__(self) -> str:
        return f"position {self.version} of game {self.game_id}"


class Result(models.Model):
    """One seat's place in a finished game, as its engine's ``outcome`` gives it, and who
    played the seat: written in the transaction of the move that ends the game."""

    class PlayedBy(models.TextChoices):
        PERSON = "person", _("a person")
        AI = "ai", _("an AI player of its own")
        TAKEN_OVER = "taken_over", _("an AI player that took the seat over from its person")

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="results"
    )
    seat = models.OneToOneField(
        Seat, verbose_name=_("seat"), on_delete=models.CASCADE, related_name="result"
    )
    position = models.SmallIntegerField(_("position"), help_text=_("The engine's seat."))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="results",
        help_text=_("The seat's person at the end; empty for an AI player's own seat."),
    )
    played_by = models.CharField(
        _("played by"),
        max_length=12,
        choices=PlayedBy.choices,
        help_text=_("Who played the seat at the end."),
    )
    person_decisions = models.PositiveIntegerField(
        _("decisions of the person"),
        help_text=_("The seat's decisions its person made: moves neither forced nor taken back."),
    )
    ai_decisions = models.PositiveIntegerField(
        _("decisions of an AI player"),
        help_text=_("The seat's decisions an AI player made."),
    )
    placement = models.PositiveSmallIntegerField(
        _("placement"), help_text=_("1 is first; tied seats share a placement (1, 1, 3).")
    )
    score = models.IntegerField(_("score"))
    parts = models.JSONField(_("parts"), help_text=_("What the score is made of, by name."))
    tiebreak = models.JSONField(
        _("tie-break"), help_text=_("What the rulebook compares between equal scores.")
    )

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        ordering = ["placement", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_result_per_position")
        ]

    def __str__(self) -> str:
        return f"seat {self.position} of game {self.game_id}: placement {self.placement}"

    def as_json(self) -> dict:
        """The row as the API and an exported game's file give it (``docs/export.md``)."""
        return {
            "seat": self.position,
            "placement": self.placement,
            "score": self.score,
            "parts": self.parts,
            "tiebreak": self.tiebreak,
            "played_by": self.played_by,
            "person_decisions": self.person_decisions,
            "ai_decisions": self.ai_decisions,
        }


class DropVote(models.Model):
    """One player's vote to hand a seat whose player ran out of time to an AI player."""

    seat = models.ForeignKey(
        Seat, verbose_name=_("seat"), on_delete=models.CASCADE, related_name="drop_votes"
    )
    voter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("voter"),
        on_delete=models.CASCADE,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("vote to drop a seat")
        verbose_name_plural = _("votes to drop a seat")
        constraints = [
            models.UniqueConstraint(fields=["seat", "voter"], name="one_drop_vote_per_voter")
        ]

    def __str__(self) -> str:
        return f"vote to drop seat {self.seat_id}"


class ChallengeQuerySet(models.QuerySet):
    def pending(self) -> ChallengeQuerySet:
        return self.filter(status=Challenge.Status.PENDING)

    def of(self, user) -> ChallengeQuerySet:
        """The challenges ``user`` sent or received, pending ones first, then the latest."""
        pending_first = models.Case(
            models.When(status=Challenge.Status.PENDING, then=0),
            default=1,
            output_field=models.IntegerField(),
        )
        return (
            self.filter(Q(challenger=user) | Q(invitee=user))
            .select_related("game", "challenger", "invitee")
            .prefetch_related("game__seats")
            .order_by(pending_first, "-created_at", "-pk")
        )


class Challenge(models.Model):
    """The creator of an open game invites one user to it (``games.challenges``). While it is
    pending, the invitee's seat is held: nobody else may take the last free seats that
    pending challenges hold."""

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for an answer")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        WITHDRAWN = "withdrawn", _("withdrawn")

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="challenges"
    )
    challenger = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("challenger"),
        on_delete=models.CASCADE,
        related_name="challenges_sent",
    )
    invitee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("invitee"),
        on_delete=models.CASCADE,
        related_name="challenges_received",
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    answered_at = models.DateTimeField(
        _("answered at"),
        null=True,
        blank=True,
        help_text=_("When it was accepted, declined or withdrawn."),
    )

    objects = ChallengeQuerySet.as_manager()

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["invitee", "status"], name="challenge_invitee_status")]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "invitee"],
                condition=Q(status="pending"),
                name="one_pending_challenge_per_invitee",
            )
        ]

    def __str__(self) -> str:
        return f"challenge {self.pk} of {self.invitee_id} to game {self.game_id}"


class Notification(models.Model):
    """The outbox: one email to one person, written in the transaction of the change that
    causes it and delivered after commit (or by the sweeper, if that never happened)."""

    class Kind(models.TextChoices):
        TURN = "turn", _("your move")
        DIGEST = "digest", _("daily digest")
        REMINDER = "reminder", _("move time running out")
        GAME_OVER = "game_over", _("game over")
        VOTE = "vote", _("a vote on an absent player")
        CANCELLED = "cancelled", _("game cancelled by a moderator")
        WARNING = "warning", _("a moderator's warning")
        CHALLENGE = "challenge", _("a challenge to a game")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    game = models.ForeignKey(
        Game,
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
    )
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    dedupe_key = models.CharField(_("deduplication key"), max_length=200, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    next_attempt_at = models.DateTimeField(
        _("next attempt at"),
        null=True,
        blank=True,
        help_text=_("Not before this (backoff after a failure)."),
    )
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    discarded_at = models.DateTimeField(
        _("discarded at"),
        null=True,
        blank=True,
        help_text=_("Given up or no longer wanted; last error says why."),
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)

    class Meta:
        verbose_name = _("email notification")
        verbose_name_plural = _("email notifications")
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
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="vacations",
    )
    start = models.DateTimeField(_("start"))
    end = models.DateTimeField(_("end"))
    settled = models.BooleanField(
        _("settled"),
        default=False,
        help_text=_("Over, and the player's deadlines have been extended."),
    )

    objects = VacationQuerySet.as_manager()

    class Meta:
        verbose_name = _("vacation")
        verbose_name_plural = _("vacations")
        ordering = ["-start"]
        indexes = [models.Index(fields=["user", "end"])]

    def __str__(self) -> str:
        return f"vacation of {self.user_id} from {self.start:%Y-%m-%d}"


class ChatMessage(models.Model):
    """One line of a game's chat: plain text, written by a player (``games.chat``)."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="chat_messages"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("author"),
        on_delete=models.PROTECT,
        related_name="chat_messages",
    )
    text = models.TextField(_("text"))
    after_move = models.PositiveIntegerField(
        _("after move"), help_text=_("Moves made in the game when it was written (0: none).")
    )
    version = models.PositiveIntegerField(
        _("version"), help_text=_("The game's version when it was written.")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    hidden_at = models.DateTimeField(
        _("hidden at"),
        null=True,
        blank=True,
        help_text=_("Hidden by a moderator: no player sees it any more."),
    )

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        ordering = ["game", "pk"]

    def __str__(self) -> str:
        return gettext("message %(number)s in game %(game)s") % {
            "number": self.pk,
            "game": self.game_id,
        }


class ChatMute(models.Model):
    """A player who hides another player's chat messages from their own view, in every game."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="chat_mutes",
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("muted player"),
        on_delete=models.CASCADE,
        related_name="+",
    )

    class Meta:
        verbose_name = _("player muted in the chat")
        verbose_name_plural = _("players muted in the chat")
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="one_mute_per_pair")]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"
