"""What happens after a move is stored: AI seats get their turn queued. Move clocks and
the notification outbox keep their receivers in their own modules, connected here (clocks
first: the email reads the deadline)."""

from django.db.models import F
from django.dispatch import receiver

from games import clocks, notifications  # noqa: F401  (their game_changed receivers)
from games.models import Game, Seat
from games.signals import move_applied


@receiver(move_applied)
def queue_ai_turn(sender, *, game_id: int, version: int, by_ai: bool = False, **kwargs) -> None:
    """AI moves queue their successors themselves (``tasks.play_ai_turn``)."""
    if by_ai:
        return
    ai_to_act = Seat.objects.filter(
        game_id=game_id,
        game__version=version,
        game__status=Game.Status.RUNNING,
        position=F("game__current_position"),
    ).exclude(ai_level="")
    if ai_to_act.exists():
        from games.tasks import play_ai_turn

        play_ai_turn.delay(game_id, version)
