"""The Celery app, configured from the Django settings (keys prefixed ``CELERY_``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puerto.settings")

app = Celery("puerto")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
