"""The worker against a Redis that goes away and comes back (mid-task, with every process busy,
after a task's time limit fell due), a worker killed mid-task, and an AI turn run twice. A task
is held mid-move by a row lock this test takes on the game, or by a task of the tests' own
(``worker_tasks``) until the test releases it: the worker has received it and is working on
it, deterministically, while the test breaks something."""

import socket
import time
from pathlib import Path

import pytest
from django.db import transaction

from games import services, tasks
from games.models import Game
from puerto.celery import app as celery_app
from tests.helpers import REAL_PROCESSES
from tests.reliability import worker_tasks
from tests.reliability.conftest import lock_waiters, wait_for
from tests.reliability.helpers import replay_matches

pytestmark = [
    pytest.mark.reliability,
    REAL_PROCESSES,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]


def ai_game() -> Game:
    """A game of three AI players; its first AI turn is queued (on the test's own Redis)."""
    return services.create_game(None, engine="puerto_rico", num_players=3, ai_seats=3, join=False)


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
    game = services.create_game(None, engine="puerto_rico", num_players=3, ai_seats=3, join=False)

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


LIMIT = 8
"""Seconds of time limit for a task that finishes while Redis is away: above the time it takes
to stop Redis and let the task end (about a second), below the outage."""


def pool_processes(worker) -> set[int]:
    return set(map(int, Path(f"/proc/{worker.pid}/task/{worker.pid}/children").read_text().split()))


@pytest.mark.parametrize(
    "limits",
    [{"soft_time_limit": LIMIT}, {"soft_time_limit": 1, "time_limit": LIMIT}],
    ids=["soft", "hard"],
)
def test_a_task_that_finished_while_redis_was_away_leaves_its_process_alone(
    own_redis, processes, tmp_path, limits
):
    """The worker's loop stands still while it reconnects, and the time limit of a task that
    finished meanwhile falls due (with ``hard``: the soft limit was met while the task ran, the
    hard one falls due during the outage). Once Redis is back, nothing is signalled or killed
    and the worker runs what is sent."""
    held = tmp_path / "held"
    held.mkdir()
    worker = processes.worker(concurrency=2, include="tests.reliability.worker_tasks")
    pool = pool_processes(worker)
    log = processes.folder / "worker.log"
    task = worker_tasks.run_until_released.apply_async((str(held),), **limits)
    wait_for((held / "started").exists, 60, "the task to start")
    started = time.monotonic()
    if "time_limit" in limits:
        wait_for((held / "soft-limit").exists, 30, "the soft limit while the task runs")
    own_redis.stop()
    wait_for(lambda: "Connection to broker lost" in log.read_text(), 30, "the loss")
    (held / "released").touch()
    wait_for(lambda: f"{task.id}] succeeded" in log.read_text(), 30, "the task to end")
    assert time.monotonic() < started + LIMIT, "the task itself ran into its limit"
    # Its limit falls due while Redis is still away (the worker's clock started at most a
    # moment after ours).
    wait_for(lambda: time.monotonic() > started + LIMIT + 2, 30, "the limit to fall due")
    back = len(log.read_text())
    own_redis.start()

    after = tmp_path / "after"
    after.mkdir()
    (after / "released").touch()
    worker_tasks.run_until_released.delay(str(after))
    wait_for((after / "started").exists, 60, "a task sent after Redis came back to run")
    since_back = log.read_text()[back:]
    for sign in ("time limit", "SoftTimeLimitExceeded", "WorkerLostError", "exited with"):
        assert sign not in since_back, since_back
    assert pool_processes(worker) == pool


def test_a_worker_whose_processes_are_all_busy_outlives_redis_going_away(
    own_redis, processes, tmp_path
):
    """A task waiting for a free process is one the worker took from Redis and gives back when
    the connection closes; with Redis gone while the worker also waited for more, giving it back
    crashed Celery ("Unrecoverable error ... 'hostname'"). The worker takes a task only when a
    process is free, so it holds none, and it goes on once Redis is back."""
    busy = [tmp_path / "busy-1", tmp_path / "busy-2"]
    waiting, after = tmp_path / "waiting", tmp_path / "after"
    for folder in (*busy, waiting, after):
        folder.mkdir()
    worker = processes.worker(concurrency=2, include="tests.reliability.worker_tasks")
    log = processes.folder / "worker.log"
    for folder in busy:
        worker_tasks.run_until_released.delay(str(folder))
        wait_for((folder / "started").exists, 60, "a process to be busy")
    worker_tasks.run_until_released.delay(str(waiting))
    # The worker answers a ping sent after the task: it has seen the task's message by then.
    assert celery_app.control.ping([f"worker@{socket.gethostname()}"], timeout=10)
    own_redis.stop()
    wait_for(lambda: "Connection to broker lost" in log.read_text(), 30, "the loss")
    own_redis.start()
    for folder in (*busy, after):
        (folder / "released").touch()
    worker_tasks.run_until_released.delay(str(after))

    wait_for((after / "started").exists, 60, "a task sent after Redis came back to run")
    assert worker.poll() is None
    assert "Unrecoverable error" not in log.read_text()
