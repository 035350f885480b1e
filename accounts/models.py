"""People who play on puerto."""

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _

DELETED_USERNAME_PREFIX = "deleted-"
"""Usernames of deleted accounts: ``deleted-<id>``; nobody else may sign up with one."""


class User(AbstractUser):
    """Our own user model from the first migration, so profile fields live on the user.

    The profile is what a correspondence player sets once: the name others see, the time zone
    and language of pages and email, and how they want to hear that it is their move.
    """

    class TurnEmail(models.TextChoices):
        IMMEDIATE = "immediate", _("when it is my move and I am away")
        DIGEST = "digest", _("one daily digest of games waiting for me")
        OFF = "off", _("never")

    class Language(models.TextChoices):
        ENGLISH = "en", "English"
        GERMAN = "de", "Deutsch"

    display_name = models.CharField(_("display name"), max_length=50, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    language = models.CharField(_("language"), max_length=8, choices=Language.choices, default="en")
    turn_email = models.CharField(
        _("turn email"), max_length=10, choices=TurnEmail.choices, default=TurnEmail.IMMEDIATE
    )
    reminder_email = models.BooleanField(
        _("reminder email"),
        default=True,
        help_text=_("Remind me when most of my move time is used."),
    )
    game_over_email = models.BooleanField(_("game over email"), default=True)
    turn_sound = models.BooleanField(
        _("turn sound"),
        default=False,
        help_text=_("Play a short sound on the game page when it becomes my move."),
    )
    turn_notification = models.BooleanField(
        _("turn notification"),
        default=False,
        help_text=_(
            "Show a browser notification when it becomes my move while the game's tab is in"
            " the background."
        ),
    )
    games_public = models.BooleanField(
        _("games on my public page"),
        default=True,
        help_text=_("Anyone who opens my player page sees my games; otherwise only I do."),
    )

    PROFILE_FIELDS = (
        "display_name",
        "time_zone",
        "language",
        "turn_email",
        "reminder_email",
        "game_over_email",
        "turn_sound",
        "turn_notification",
        "games_public",
    )
    """What a player sets on their profile page (and the admin shows with it)."""

    @property
    def public_name(self) -> str:
        return self.display_name or self.get_username()
