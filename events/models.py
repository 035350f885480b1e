"""The journal the event streams read (``events.streams``): what happened, to whom, in which
game. A row holds no view of the game and no secret: a stream builds what it sends from the
game as it stands, for its own reader, when it sends it."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Event(models.Model):
    """One thing a user's stream (``user`` set) or a game's stream (``user`` empty) tells.
    The id orders a stream and is what a client sends back as ``Last-Event-ID``."""

    class Kind(models.TextChoices):
        TURN = "turn", _("your turn")
        STARTED = "started", _("game started")
        FINISHED = "finished", _("game finished")
        CANCELLED = "cancelled", _("game cancelled")
        CHAT = "chat", _("chat message")
        GAME = "game", _("the game changed")
        CHALLENGE = "challenge", _("a challenge made or answered")

    id = models.BigAutoField(primary_key=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    game = models.ForeignKey(
        "games.Game", verbose_name=_("game"), on_delete=models.CASCADE, related_name="+"
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    version = models.PositiveIntegerField(_("game version"))
    message = models.ForeignKey(
        "games.ChatMessage",
        verbose_name=_("chat message"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    challenge = models.ForeignKey(
        "games.Challenge",
        verbose_name=_("challenge"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        indexes = [
            models.Index(fields=["user", "id"], name="event_user_stream"),
            models.Index(fields=["game", "id"], name="event_game_stream"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} game {self.game_id}"
