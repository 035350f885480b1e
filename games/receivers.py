"""What happens after a move is stored: AI seats get their turn queued. Move clocks and
the notification outbox keep their receivers in their own modules, connected here (clocks
first: the email reads the deadline)."""

from django.dispatch import receiver

from games import clocks, notifications  # noqa: F401  (their game_changed receivers)
from games.signals import move_applied


@receiver(move_applied)
def queue_ai_turn(
    sender, *, game_id: int, version: int, by_ai: bool = False, ai_to_act: bool = False, **kwargs
) -> None:
    """AI moves queue their successors themselves (``tasks.play_ai_turn``); a task that comes
    too late finds its version stale and does nothing. Runs after commit: a broker that is
    down is logged, never the request's failure (the sweeper queues the turn later)."""
    if ai_to_act and not by_ai:
        from games.tasks import queue_ai_turn

        queue_ai_turn(game_id, version)
