"""Background work for games, run by the Celery worker."""

from celery import shared_task

from games import clocks, notifications, services

AI_MOVES_PER_TASK = 20
"""AI moves one task plays in a row before it hands on to a fresh task."""


@shared_task
def ping() -> str:
    """Answer ``pong``: proves a round trip through the broker, a worker and the result store."""
    return "pong"


@shared_task(acks_late=True, ignore_result=True)
def play_ai_turn(game_id: int, version: int) -> None:
    """Play the AI seats' moves from ``version`` on; a task for an old version does nothing.

    Consecutive AI turns are played here in a loop rather than by one task per move, so a
    game of AI players does not queue (or, with eager tasks, nest) hundreds of tasks.
    """
    for _ in range(AI_MOVES_PER_TASK):
        result = services.play_ai_turn(game_id, version)
        if result is None:
            return
        version = result.game.version
    play_ai_turn.delay(game_id, version)


@shared_task(acks_late=True, ignore_result=True)
def deliver_notification(notification_id: int) -> None:
    """Send one outbox row (at most once; failures are retried by ``deliver_pending``)."""
    notifications.deliver(notification_id)


@shared_task(ignore_result=True)
def deliver_pending() -> None:
    """Every minute (beat): deliver outbox rows left behind or due for another attempt."""
    notifications.deliver_pending()


@shared_task(ignore_result=True)
def send_digests() -> None:
    """Every hour (beat): the daily digests that are due."""
    notifications.write_digests()


@shared_task(ignore_result=True)
def sweep_clocks() -> None:
    """Every minute (beat): vacations ending, reminders, deadlines run out."""
    clocks.sweep()
