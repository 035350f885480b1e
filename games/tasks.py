"""Background work for games, run by the Celery worker."""

from celery import shared_task


@shared_task
def ping() -> str:
    """Answer ``pong``: proves a round trip through the broker, a worker and the result store."""
    return "pong"
