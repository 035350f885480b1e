"""Beat's housekeeping (puerto.tasks): old rows go, the ones still of use stay."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from games.models import Notification
from puerto import tasks
from puerto.celery import app

pytestmark = pytest.mark.django_db


def test_beat_runs_the_housekeeping_daily():
    schedule = {
        entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    app.loader.import_default_modules()

    for name in ("puerto.tasks.clear_sessions", "puerto.tasks.prune_sent_email"):
        assert schedule[name] == 24 * 3600
        assert name in app.tasks


def session(expires_in: timedelta) -> str:
    store = SessionStore()
    store["player"] = 1
    store.set_expiry(timezone.now() + expires_in)
    store.save()
    return store.session_key


def test_expired_sessions_are_cleared_and_live_ones_kept():
    expired = session(-timedelta(minutes=1))
    live = session(timedelta(days=1))

    assert tasks.clear_sessions.delay().get() == 1

    assert set(Session.objects.values_list("session_key", flat=True)) == {live}
    assert expired != live


def note(user, key: str, **fields) -> Notification:
    row = Notification.objects.create(user=user, kind="turn", dedupe_key=key)
    Notification.objects.filter(pk=row.pk).update(**fields)
    return row


def test_sent_email_is_pruned_after_the_days_kept_and_unsent_stays(django_user_model, settings):
    settings.PUERTO_KEEP_SENT_EMAIL_DAYS = 90
    user = django_user_model.objects.create_user("anna", "anna@example.org")
    now = timezone.now()
    long_ago = now - timedelta(days=91)
    note(user, "sent-long-ago", sent_at=long_ago)
    recent = note(user, "sent-recently", sent_at=now - timedelta(days=89))
    unsent = note(user, "never-sent", created_at=long_ago)
    given_up = note(user, "given-up", discarded_at=long_ago, created_at=long_ago)

    assert tasks.prune_sent_email.delay().get() == 1

    kept = set(Notification.objects.values_list("pk", flat=True))
    assert kept == {recent.pk, unsent.pk, given_up.pk}
