"""The journal keeps a day: a client away longer connects again without ``Last-Event-ID``
and gets the present (its games waiting for it) instead of what it missed."""

from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from events.models import Event

KEEP = timedelta(days=1)


@shared_task(ignore_result=True)
def prune_events() -> int:
    """Delete journal rows older than ``KEEP`` (beat, hourly); returns how many."""
    deleted, _ = Event.objects.filter(created_at__lt=timezone.now() - KEEP).delete()
    return deleted
