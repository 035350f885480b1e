"""A seat a moderator hands to an AI player is played by a real Celery worker on Redis: the
admin's old raw edit left such a game stuck for ever."""

import pytest

from games.models import Game, Move
from moderation import services as moderation
from tests.helpers import REAL_PROCESSES
from tests.moderation.conftest import moderator, players, running_game
from tests.reliability.conftest import wait_for
from tests.replayed import replayed

pytestmark = [
    pytest.mark.reliability,
    REAL_PROCESSES,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]
__all__ = ["moderator", "players"]  # fixtures


def test_a_seat_handed_to_the_ai_is_played_by_the_worker_within_the_sweep(
    own_redis, processes, players, moderator
):
    game = running_game(*players)
    seat = game.seat_to_act()
    processes.worker()
    processes.beat()

    moderation.seat_to_ai(moderator, seat.pk, "random", "left the table for good")

    ai_moves = Move.objects.filter(game=game, seat=seat, actor=None)
    # The move is queued when the seat changes hands; the sweeper (every 10 s, for turns
    # waiting over 20 s) would queue it again if that were lost.
    wait_for(ai_moves.exists, 40, "the AI player's first move")
    processes.stop_all()
    game = Game.objects.get(pk=game.pk)
    assert game.seats.get(pk=seat.pk).is_ai
    # The stored moves rebuild the stored state (the seat's change of hands took a version
    # of its own, with no move).
    assert game.rules.to_json(replayed(game)) == game.state
