"""AI turns through Celery: queued after commit, stale tasks do nothing, lost ones are swept
up, an overrunning bot falls back to the easy move, and a real worker plays them."""

import time
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.utils import timezone

from games import services, tasks
from games.models import Game, Move, Seat
from tests.games.test_notifications import celery_on, database_url
from tests.helpers import project_env
from tests.test_celery import start_worker, stop_worker


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user("anna", password="pw")


def game_waiting_for_an_ai(anna, monkeypatch, level=Seat.AI.RANDOM):
    """A running game whose seat to act is an AI, with no task queued for it."""
    with monkeypatch.context() as patched:
        patched.setattr(tasks.play_ai_turn, "delay", lambda *args: None)
        game = services.create_game(None, num_players=3, ai_seats=3, ai_level=level, join=False)
    game = Game.objects.get(pk=game.pk)
    assert game.version == 0 and game.seat_to_act().is_ai
    return game


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("level", [Seat.AI.EASY, Seat.AI.MEDIUM])
def test_an_ai_seat_plays_through_the_same_road_as_a_person(anna, level):
    game = services.create_game(anna, num_players=3, ai_seats=2, ai_level=level)
    game = Game.objects.get(pk=game.pk)
    ai_moves = Move.objects.filter(game=game, seat__ai_level=level)
    assert game.seat_to_act().user_id == anna.pk  # the AI seats before anna have moved
    assert all(m.actor is None for m in ai_moves)
    assert game.version == game.moves.count()


@pytest.mark.django_db(transaction=True)
def test_a_stale_ai_task_does_nothing(anna, monkeypatch):
    game = game_waiting_for_an_ai(anna, monkeypatch)
    tasks.play_ai_turn.delay(game.pk, game.version + 1)
    assert Game.objects.get(pk=game.pk).version == 0


@pytest.mark.django_db(transaction=True)
def test_the_sweeper_queues_an_ai_turn_that_waited_too_long(anna, monkeypatch):
    game = game_waiting_for_an_ai(anna, monkeypatch)
    tasks.sweep_ai_turns.delay()  # not overdue yet: nothing happens
    assert Game.objects.get(pk=game.pk).version == 0
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(hours=1))
    tasks.sweep_ai_turns.delay()
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED  # the AI players then played on to the end
    assert game.version == game.moves.count() > 100


@pytest.mark.django_db(transaction=True)
def test_a_bot_over_its_time_limit_is_replaced_by_the_easy_move(anna, monkeypatch):
    game = game_waiting_for_an_ai(anna, monkeypatch, level=Seat.AI.HARD)
    real = services.play_ai_turn
    levels = []

    def slow_hard_bot(game_id, version, *, level=None):
        levels.append(level)
        if level is None:
            raise SoftTimeLimitExceeded()
        return real(game_id, version, level=level)

    monkeypatch.setattr(services, "play_ai_turn", slow_hard_bot)
    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda *args: None)  # one task only
    tasks.play_ai_turn(game.pk, 0)
    assert levels == [None, Seat.AI.EASY]
    assert Game.objects.get(pk=game.pk).version >= 1
    assert Move.objects.filter(game=game, version=1, actor=None).exists()


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_on_redis_plays_the_ai_turns(anna, tmp_path):
    url = urlunsplit(urlsplit(settings.REDIS_URL)._replace(path="/13"))
    redis.Redis.from_url(url).flushdb()
    log = tmp_path / "worker.log"
    worker = start_worker(project_env(REDIS_URL=url, DATABASE_URL=database_url()), log)
    try:
        with celery_on(url):
            game = services.create_game(None, num_players=3, ai_seats=3, join=False)
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                game.refresh_from_db()
                if game.status == Game.Status.FINISHED:
                    break
                time.sleep(0.5)
    finally:
        output = stop_worker(worker, log)
        redis.Redis.from_url(url).flushdb()
    assert game.status == Game.Status.FINISHED, output[-3000:]
    assert game.version == game.moves.count()
    assert "games.tasks.play_ai_turn" in output
    assert "Traceback" not in output
