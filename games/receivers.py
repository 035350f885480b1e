"""Who hears what of a game (``games.signals``), connected in one place. Inside the change's
transaction: the move clock (``clocks``, first: the email reads the deadline) and the
notification outbox (``notifications``) keep their receivers in their own modules. After
commit, here: an AI seat to act gets its turn queued, written mail its delivery; a stored move
is counted for the metrics."""

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from games import clocks, notifications, tasks  # noqa: F401  (their receivers)
from games.models import Move
from games.signals import move_applied, notifications_written
from puerto.metrics import MOVES


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


@receiver(post_save, sender=Move, dispatch_uid="games.receivers.count_move")
def count_move(sender, *, instance: Move, created: bool, **kwargs) -> None:
    """Every stored action counts in ``puerto_moves_stored_total`` once its transaction commits
    (a refused or rolled-back move never does); undos are not moves."""
    if not created or instance.kind != Move.Kind.ACTION:
        return
    by = "forced" if instance.forced else "ai" if instance.actor_id is None else "person"
    game = instance.game.engine
    transaction.on_commit(lambda: MOVES.labels(game=game, by=by).inc())
