"""The worker against a Redis that goes away and comes back, a worker killed mid-task, and an AI
turn run twice. A task is held mid-move by a row lock this test takes on the game: the worker has
received it and is working on it, deterministically, while the test breaks something."""

import pytest
from django.db import transaction

from games import services, tasks
from games.models import Game
from tests.reliability.conftest import lock_waiters, wait_for
from tests.reliability.helpers import replay_matches

pytestmark = [
    pytest.mark.reliability,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


def ai_game() -> Game:
    """A game of three AI players; its first AI turn is queued (on the test's own Redis)."""
    return services.create_game(None, num_players=3, ai_seats=3, join=False)


def version_of(game: Game) -> int:
    return Game.objects.values_list("version", flat=True).get(pk=game.pk)


def test_the_worker_reconnects_by_itself_when_redis_comes_back_mid_task(own_redis, processes):
    game = ai_game()
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        worker = processes.worker(concurrency=2)
        wait_for(lambda: lock_waiters() == 1, 60, "the worker's task to wait for the game")
        own_redis.stop()
        log = processes.folder / "worker.log"
        wait_for(lambda: "Connection to broker lost" in log.read_text(), 30, "the loss")
        own_redis.start()

    # The held task plays on and hands on to fresh tasks through the Redis that came back.
    handed_on = 2 * tasks.AI_MOVES_PER_TASK
    wait_for(lambda: version_of(game) > handed_on, 90, "the game to move on")
    assert worker.poll() is None, log.read_text()[-3000:]
    assert "Unrecoverable error" not in log.read_text()
    processes.stop_all()
    assert replay_matches(game)


def test_an_ai_game_whose_worker_was_killed_moves_on_within_a_minute(own_redis, processes):
    game = ai_game()
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        first = processes.worker("first")
        wait_for(lambda: lock_waiters() == 1, 60, "the worker's task to wait for the game")
        processes.kill(first)
    processes.worker("second")
    processes.beat()

    wait_for(lambda: version_of(game) > 0, 50, "the sweeper to hand the turn to the new worker")
    processes.stop_all()
    assert replay_matches(game)


@pytest.fixture
def not_queued(monkeypatch):
    """AI turns are not handed on: each call of the task is all that plays."""
    monkeypatch.setattr(tasks, "queue_ai_turn", lambda game_id, version: True)


def test_a_late_duplicate_of_an_ai_turn_plays_nothing(not_queued):
    game = services.create_game(None, num_players=3, ai_seats=3, join=False)

    tasks.play_ai_turn(game.pk, 0)
    played = version_of(game)
    tasks.play_ai_turn(game.pk, 0)

    assert played > 0
    assert version_of(game) == played
    assert replay_matches(game)


def test_two_runs_of_one_ai_turn_at_once_play_each_move_once(own_redis, processes):
    game = ai_game()
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        tasks.play_ai_turn.delay(game.pk, 0)  # the sweeper's duplicate
        processes.worker(concurrency=2)
        wait_for(lambda: lock_waiters() == 2, 60, "both tasks to wait for the game")

    wait_for(lambda: version_of(game) > 2 * tasks.AI_MOVES_PER_TASK, 90, "the game to move on")
    processes.stop_all()
    assert replay_matches(game)
