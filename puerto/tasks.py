"""Housekeeping run by beat (``CELERY_BEAT_SCHEDULE``): rows nobody reads any more."""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone

from games.models import Notification


@shared_task(ignore_result=True)
def clear_sessions() -> int:
    """Delete expired sessions (what ``manage.py clearsessions`` does); returns how many."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


@shared_task(ignore_result=True)
def prune_sent_email() -> int:
    """Delete outbox rows sent more than ``PUERTO_KEEP_SENT_EMAIL_DAYS`` ago; unsent and
    given-up ones stay for the admin. Returns how many."""
    before = timezone.now() - timedelta(days=settings.PUERTO_KEEP_SENT_EMAIL_DAYS)
    deleted, _ = Notification.objects.filter(sent_at__lt=before).delete()
    return deleted
