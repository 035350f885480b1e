"""What moderators decided: a user's standing (muted, suspended, banned) and the audit log of
every moderator action. Changes go through ``moderation.services`` only."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.utils import timezone
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
