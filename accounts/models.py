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
    is_bot = models.BooleanField(
        _("bot account"),
        default=False,
        help_text=_(
            "A program plays this account through the API (accounts.services.become_bot): "
            "shown with a bot badge, it joins only games whose creator allowed bots."
        ),
    )
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


class ApiToken(models.Model):
    """A personal token for the JSON API (``Authorization: Bearer …``): shown once when made,
    stored as its SHA-256 only, limited to its scopes, revoked by deleting it. The token is
    ``puerto_<prefix>_<secret>``; the prefix finds the row and names the token in lists."""

    class Scope(models.TextChoices):
        """What a token may change; every token reads what its account may read."""

        PLAY = "play", _("play: moves and undo in your games")
        CHAT = "chat", _("chat: write in your games' chats")
        CREATE = "create", _("create: open, join and leave games, import games, follow players")
        BOT = "bot", _("bot: turn this account into a bot account")

    user = models.ForeignKey(
        User, verbose_name=_("user"), on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(_("prefix"), max_length=16, unique=True)
    digest = models.CharField(_("SHA-256 of the token"), max_length=64)
    scopes = models.JSONField(_("scopes"), default=list)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix})"
