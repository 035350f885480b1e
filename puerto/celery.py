"""The Celery app, configured from the Django settings (keys prefixed ``CELERY_``)."""

import os

from celery import Celery

from puerto.liveness import WorkerLiveness

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "puerto.settings")

app = Celery("puerto")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The worker's health check reads the file this touches (puerto/liveness.py).
app.steps["worker"].add(WorkerLiveness)
