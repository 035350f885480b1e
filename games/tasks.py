"""Background work for games, run by the Celery worker."""

import logging
import time
from datetime import timedelta

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.db import DatabaseError, InterfaceError
from django.utils import timezone
from kombu.exceptions import OperationalError

from games import clocks, notifications, services
from games.models import Game, Seat

log = logging.getLogger(__name__)

AI_MOVES_PER_TASK = 20
"""AI moves one task plays in a row before it hands on to a fresh task."""
AI_TASK_SECONDS = 2
"""Time after which an AI task hands on to a fresh task at the back of the queue: about one
hard decision, so the AI turns of many games take the workers in turn."""
AI_SOFT_TIME_LIMIT = 30
"""Seconds before a bot is stopped and the easy bot's move is played instead."""
AI_FALLBACK_LEVELS = (Seat.AI.EASY, Seat.AI.RANDOM)
"""Who moves, in turn, when an AI seat's bot fails: the easy bot, then a random legal move."""
AI_TURN_OVERDUE_SECONDS = 20
"""An AI turn waiting this long was lost (a worker died, Redis lost its queue, the queueing
failed): ``sweep_ai_turns`` queues it again. Above a bot's move (the hard player's, about 2 s
of CPU) with room for a busy worker, though on a loaded machine a move may take up to the
search's 20 s cap; a turn still in play when it is queued again is played once all the same
(the second task finds its version stale)."""


@shared_task
def ping() -> str:
    """Answer ``pong``: proves a round trip through the broker, a worker and the result store."""
    return "pong"


@shared_task(ignore_result=True, soft_time_limit=AI_SOFT_TIME_LIMIT)
def play_ai_turn(game_id: int, version: int) -> None:
    """Play the AI seats' moves from ``version`` on; a task for an old version does nothing.

    Consecutive AI turns are played here in a loop rather than by one task per move, so a
    game of AI players does not queue (or, with eager tasks, nest) hundreds of tasks; after
    ``AI_TASK_SECONDS`` the task hands on to a fresh one. When a bot fails or overruns the
    soft time limit, a fallback's move is played instead, so an AI seat never stalls a game.
    """
    started = time.monotonic()
    try:
        for _ in range(AI_MOVES_PER_TASK):
            result = play_ai_move(game_id, version)
            if result is None:
                return
            version = result.game.version
            if time.monotonic() - started > AI_TASK_SECONDS:
                break
    except SoftTimeLimitExceeded as overrun:
        log_bot_failure(game_id, None, overrun)
        play_ai_move(game_id, version, levels=AI_FALLBACK_LEVELS)
        version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    queue_ai_turn(game_id, version)


def queue_ai_turn(game_id: int, version: int) -> bool:
    """Queue ``play_ai_turn``. When the broker is unreachable this logs the event
    ``ai_turn_not_queued`` instead of raising, and ``sweep_ai_turns`` queues the turn later."""
    try:
        play_ai_turn.delay(game_id, version)
    except OperationalError as error:
        fields = {
            "event": "ai_turn_not_queued",
            "game": game_id,
            "version": version,
            "error": repr(error),
        }
        log.warning(
            "ai_turn_not_queued game=%(game)s version=%(version)s error=%(error)s; "
            "the sweeper queues it again",
            fields,
            extra=fields,
        )
        return False
    return True


def play_ai_move(
    game_id: int, version: int, levels: tuple[str | None, ...] = (None, *AI_FALLBACK_LEVELS)
) -> services.MoveResult | None:
    """The AI seat's move by the first of ``levels`` (None: the seat's own) whose bot does not
    fail; each failure is logged. The database's errors and the time limit are not a bot's:
    they go up to the task, as does the last level's failure."""
    *tried, last = levels
    for level in tried:
        try:
            return services.play_ai_turn(game_id, version, level=level)
        except (DatabaseError, InterfaceError, SoftTimeLimitExceeded):
            raise
        except Exception as error:
            log_bot_failure(game_id, level, error)
    return services.play_ai_turn(game_id, version, level=last)


def log_bot_failure(game_id: int, level: str | None, error: BaseException) -> None:
    """The event ``ai_bot_failed``: the game, the seat to act, the bot's level (None: the
    seat's own) and the error, in the message and as fields for a structured log handler."""
    game = Game.objects.filter(pk=game_id).first()
    seat = game.seat_to_act() if game else None
    fields = {
        "event": "ai_bot_failed",
        "game": game_id,
        "seat": seat.position if seat else None,
        "level": level or (seat.ai_level if seat else None),
        "error": repr(error),
    }
    log.error(
        "ai_bot_failed game=%(game)s seat=%(seat)s level=%(level)s error=%(error)s",
        fields,
        extra=fields,
        exc_info=error,
    )


@shared_task(ignore_result=True)
def sweep_ai_turns() -> None:
    """Every few seconds (beat): queue again the AI turns that have waited too long; a duplicate
    finds its version stale and does nothing (one query)."""
    cutoff = timezone.now() - timedelta(seconds=AI_TURN_OVERDUE_SECONDS)
    overdue = Seat.objects.to_act().filter(game__turn_started_at__lt=cutoff).exclude(ai_level="")
    for game_id, version in overdue.values_list("game_id", "game__version"):
        queue_ai_turn(game_id, version)


@shared_task(ignore_result=True)
def deliver_notification(notification_id: int) -> None:
    """Send one outbox row (at most once; failures are retried by ``deliver_pending``)."""
    notifications.deliver(notification_id)


def queue_deliveries(ids: list[int]) -> None:
    """Queue delivery; if the broker is unreachable the sweeper delivers within a minute."""
    for notification_id in ids:
        try:
            deliver_notification.delay(notification_id)
        except Exception:
            log.warning("could not queue notification %s; the sweeper will", notification_id)


@shared_task(ignore_result=True)
def deliver_pending() -> None:
    """Every minute (beat): deliver outbox rows left behind or due for another attempt."""
    notifications.deliver_pending()


@shared_task(ignore_result=True)
def send_turn_emails() -> None:
    """Every minute (beat): "your move" to the players away whose turn has waited long enough."""
    notifications.write_turn_emails()


@shared_task(ignore_result=True)
def send_digests() -> None:
    """Every hour (beat): the daily digests that are due."""
    notifications.write_digests()


@shared_task(ignore_result=True)
def sweep_clocks() -> None:
    """Every minute (beat): vacations ending, reminders, deadlines run out."""
    clocks.sweep()
