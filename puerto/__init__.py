"""The puerto Django project; the Celery app is loaded with it so `shared_task` binds to it."""

from puerto.celery import app as celery_app

__all__ = ["celery_app"]
