"""What a player has to show for their games: a rating on each ladder, its history game by
game, and the players they follow."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Game, Seat

PROVISIONAL_GAMES = 5
"""Rated games on a ladder before a rating is no longer called provisional."""


class Rating(models.Model):
    """A person's (or an AI level's) skill on one ladder (``GameSpec.ladder_for``), as
    openskill's Plackett-Luce model keeps it: ``mu`` and its uncertainty ``sigma``. Players
    read ``value``, a conservative number (``players.ratings.shown``)."""

    ladder = models.CharField(_("ladder"), max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="ratings",
    )
    ai_level = models.CharField(
        _("AI level"),
        max_length=16,
        choices=Seat.AI.choices,
        blank=True,
        help_text=_("The AI level this rating is of; empty for a person's."),
    )
    mu = models.FloatField(_("mean skill (mu)"))
    sigma = models.FloatField(_("uncertainty (sigma)"))
    value = models.IntegerField(
        _("rating"), help_text=_("What players read: mu - 3 sigma, scaled.")
    )
    games = models.PositiveIntegerField(_("rated games"), default=0)
    wins = models.PositiveIntegerField(_("rated games won"), default=0)
    last_game_at = models.DateTimeField(_("last rated game"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        ordering = ["ladder", "-value"]
        constraints = [
            models.UniqueConstraint(
                fields=["ladder", "user"],
                condition=Q(user__isnull=False),
                name="one_rating_per_user",
            ),
            models.UniqueConstraint(
                fields=["ladder", "ai_level"], condition=~Q(ai_level=""), name="one_rating_per_ai"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=True) ^ Q(ai_level=""), name="rating_of_a_user_or_an_ai"
            ),
        ]
        indexes = [models.Index(fields=["ladder", "-value"], name="leaderboard")]

    def __str__(self) -> str:
        return f"{self.user_id or self.ai_level} on {self.ladder}: {self.value}"

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


class RatingChange(models.Model):
    """One seat of one rated game and what it did to a rating: the chart on a profile, and
    the proof that a game was rated (a game is rated once)."""

    game = models.ForeignKey(
        Game, verbose_name=_("game"), on_delete=models.CASCADE, related_name="rating_changes"
    )
    position = models.SmallIntegerField(_("position"), help_text=_("The engine's seat."))
    rating = models.ForeignKey(
        Rating, verbose_name=_("rating"), on_delete=models.CASCADE, related_name="changes"
    )
    placement = models.PositiveSmallIntegerField(
        _("placement as rated"),
        help_text=_("The seat's placement, or last if its person left it to an AI player."),
    )
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    value_before = models.IntegerField(_("rating before"))
    value_after = models.IntegerField(_("rating after"))
    at = models.DateTimeField(_("at"), help_text=_("When the game finished."))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="one_change_per_seat")
        ]
        indexes = [models.Index(fields=["rating", "at"])]

    def __str__(self) -> str:
        change = f"{self.value_before} to {self.value_after}"
        return f"seat {self.position} of game {self.game_id}: {change}"

    @property
    def difference(self) -> int:
        return self.value_after - self.value_before


class Follow(models.Model):
    """A player who wants to see another's new games and results on their "following" page."""

    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("follower"),
        on_delete=models.CASCADE,
        related_name="follows",
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("followed player"),
        on_delete=models.CASCADE,
        related_name="followers",
    )
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("followed player")
        verbose_name_plural = _("followed players")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="one_follow_per_pair"),
            models.CheckConstraint(
                condition=~Q(follower=models.F("followed")), name="nobody_follows_themselves"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"
