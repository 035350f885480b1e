"""What moderators decided: a user's standing (muted, suspended, banned) and the audit log of
every moderator action. Changes go through ``moderation.services`` only."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Standing(models.Model):
    """A user's restrictions that still hold; no row: none."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="standing",
    )
    muted = models.BooleanField(
        _("muted"), default=False, help_text=_("May not write to other players.")
    )
    suspended_until = models.DateTimeField(_("suspended until"), null=True, blank=True)
    banned = models.BooleanField(_("banned"), default=False)
    reason = models.TextField(_("reason"), blank=True, help_text=_("Why, as the user is told."))

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")

    def __str__(self) -> str:
        return f"standing of {self.user_id}"

    def barred(self, now: datetime | None = None) -> bool:
        """Banned, or suspended until later than ``now``: may not log in or use the API."""
        now = now or timezone.now()
        return self.banned or (self.suspended_until is not None and self.suspended_until > now)


def barred_standing(user, now: datetime | None = None) -> Standing | None:
    """``user``'s standing if it keeps them out now, else None (no query if the user was
    read with ``select_related("standing")``, one otherwise)."""
    if user is None or user.pk is None:
        return None
    try:
        standing = user.standing
    except Standing.DoesNotExist:
        return None
    return standing if standing.barred(now) else None


class Entry(models.Model):
    """One moderator action in the audit log: who, when, what, to whom, why. Never changed."""

    class Action(models.TextChoices):
        CANCEL_GAME = "cancel_game", _("cancelled a game")
        SEAT_TO_AI = "seat_to_ai", _("handed a seat to an AI player")
        SEAT_TO_PERSON = "seat_to_person", _("gave a seat back to its player")
        WARN = "warn", _("warned")
        MUTE = "mute", _("muted")
        SUSPEND = "suspend", _("suspended")
        BAN = "ban", _("banned")
        REINSTATE = "reinstate", _("lifted mute, suspension and ban")
        DELETE_ACCOUNT = "delete_account", _("deleted the account")
        HIDE_MESSAGE = "hide_message", _("hid a chat message")
        RESOLVE_REPORT = "resolve_report", _("resolved a report")
        DISMISS_REPORT = "dismiss_report", _("dismissed a report")

    moderator = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("moderator"),
        on_delete=models.PROTECT,
        related_name="+",
    )
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="moderation_entries",
    )
    game = models.ForeignKey(
        "games.Game",
        verbose_name=_("game"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="moderation_entries",
    )
    seat = models.ForeignKey(
        "games.Seat",
        verbose_name=_("seat"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="moderation_entries",
    )
    reason = models.TextField(_("reason"))
    details = models.JSONField(
        _("details"), default=dict, blank=True, help_text=_("The AI level, the suspension's end.")
    )

    class Meta:
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log")
        ordering = ["-created_at", "-pk"]
        permissions = [("moderate", _("Can moderate games and players"))]

    def __str__(self) -> str:
        return f"{self.get_action_display()} ({self.created_at:%Y-%m-%d %H:%M})"


class Report(models.Model):
    """A player's report of a chat message, a player or a game, waiting in the moderators'
    queue until a moderator resolves or dismisses it (``moderation.services``)."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("abuse in chat")
        CHEATING = "cheating", _("cheating or collusion")
        STALLING = "stalling", _("stalling")
        OTHER = "other", _("other")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RESOLVED = "resolved", _("resolved")
        DISMISSED = "dismissed", _("dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reporter"),
        on_delete=models.PROTECT,
        related_name="reports_made",
    )
    game = models.ForeignKey(
        "games.Game", verbose_name=_("game"), on_delete=models.PROTECT, related_name="reports"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player reported"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reports_against",
        help_text=_("The player reported, or the author of the message reported."),
    )
    message = models.ForeignKey(
        "games.ChatMessage",
        verbose_name=_("chat message"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reports",
    )
    subject = models.CharField(
        _("subject"),
        max_length=40,
        db_index=True,
        help_text=_("What is reported (message, player or game): reports of it are counted."),
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    text = models.TextField(_("what happened"), blank=True)
    version = models.PositiveIntegerField(
        _("version"), help_text=_("The game's version when it was reported.")
    )
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True, db_index=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("handled by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    handled_at = models.DateTimeField(_("handled at"), null=True, blank=True)
    resolution = models.TextField(_("what was done"), blank=True)

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return gettext("report %(number)s") % {"number": self.pk}
