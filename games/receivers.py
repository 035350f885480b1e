"""Who hears what of a game (``games.signals``), connected in one place. Inside the change's
transaction: the move clock (``clocks``, first: the email reads the deadline) and the
notification outbox (``notifications``) keep their receivers in their own modules. After
commit, here: an AI seat to act gets its turn queued, written mail its delivery."""

from django.dispatch import receiver

from games import clocks, notifications, tasks  # noqa: F401  (their receivers)
from games.signals import move_applied, notifications_written


@receiver(move_applied)
def queue_ai_turn(
    sender, *, game_id: int, version: int, by_ai: bool = False, ai_to_act: bool = False, **kwargs
) -> None:
    """AI moves queue their successors themselves (``tasks.play_ai_turn``); a task that comes
    too late finds its version stale and does nothing. A broker that is down is logged, never
    the request's failure (the sweeper queues the turn later)."""
    if ai_to_act and not by_ai:
        tasks.queue_ai_turn(game_id, version)


@receiver(notifications_written)
def queue_deliveries(sender, *, ids: list[int], **kwargs) -> None:
    tasks.queue_deliveries(ids)
