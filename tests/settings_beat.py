"""Settings for the embedded-worker test: beat sends ``ping`` every second."""

from puerto.settings import *  # noqa: F403

CELERY_BEAT_SCHEDULE = {"ping-every-second": {"task": "games.tasks.ping", "schedule": 1.0}}
