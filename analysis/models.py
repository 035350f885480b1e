"""What the hard player's search says of a person's decisions: a hint asked during a casual
game, and the review of a seat's decisions after the game."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.models import Seat


class Hint(models.Model):
    """A player's "What would the AI do?" at one version of a casual game, and its answer
    once the worker has searched: the top choices, each an ``Estimate`` as JSON
    (``action``, ``win``, ``playouts``)."""

    seat = models.ForeignKey(
        Seat, verbose_name=_("seat"), on_delete=models.CASCADE, related_name="hints"
    )
    version = models.PositiveIntegerField(_("version"))
    asked_at = models.DateTimeField(_("asked at"), default=timezone.now)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    estimates = models.JSONField(_("estimates"), default=list, blank=True)

    class Meta:
        verbose_name = _("hint")
        verbose_name_plural = _("hints")
        constraints = [
            models.UniqueConstraint(fields=["seat", "version"], name="one_hint_per_decision")
        ]

    def __str__(self) -> str:
        return f"{self.seat} v{self.version}"


class Review(models.Model):
    """The review of one person's decisions in a finished game, written a few decisions at a
    time by the worker (``analysis.reviews``): ``pending`` lists the versions of the
    decisions still to judge, ``decisions`` those judged, in the game's order."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    seat = models.OneToOneField(
        Seat, verbose_name=_("seat"), on_delete=models.CASCADE, related_name="review"
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED
    )
    pending = models.JSONField(_("decisions to judge"), default=list, blank=True)
    decisions = models.JSONField(_("judged decisions"), default=list, blank=True)
    cpu_seconds = models.FloatField(_("worker time (s)"), default=0.0)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("review")
        verbose_name_plural = _("reviews")

    def __str__(self) -> str:
        return f"{self.seat} ({self.status})"
