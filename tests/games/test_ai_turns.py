"""AI turns through Celery: queued after commit, stale tasks do nothing, lost ones are swept
up, an overrunning or failing bot falls back to the easy move (then a random one), and a real
worker plays them."""

import contextlib
import logging
import time
from datetime import timedelta
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.utils import timezone

from games import services, tasks
from games.bots import choose_action
from games.bots.puerto_rico import BOTS
from games.models import Game, Move, Seat
from games.registry import get_game
from tests.games import broken_bot
from tests.games.test_notifications import celery_on, database_url
from tests.helpers import REAL_PROCESSES, project_env
from tests.test_celery import start_worker, stop_worker


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user("anna", password="pw")


def game_waiting_for_an_ai(anna, monkeypatch, level=Seat.AI.RANDOM):
    """A running game whose seat to act is an AI, with no task queued for it."""
    with monkeypatch.context() as patched:
        patched.setattr(tasks.play_ai_turn, "delay", lambda *args: None)
        game = services.create_game(
            None, engine="puerto_rico", num_players=3, ai_seats=3, ai_level=level, join=False
        )
    game = Game.objects.get(pk=game.pk)
    assert game.version == 0 and game.seat_to_act().is_ai
    return game


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("level", [Seat.AI.EASY, Seat.AI.MEDIUM])
def test_an_ai_seat_plays_through_the_same_road_as_a_person(anna, level):
    game = services.create_game(
        anna, engine="puerto_rico", num_players=3, ai_seats=2, ai_level=level
    )
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


@contextlib.contextmanager
def ai_worker(tmp_path, database: int, *options: str):
    """A real worker on Redis ``database`` and the test database, sent this process's tasks
    while the block runs; yields the worker's log file. Each test takes a database of its own:
    the process keeps a broker's connection pool, closed after the block, for good."""
    url = urlunsplit(urlsplit(settings.REDIS_URL)._replace(path=f"/{database}"))
    redis.Redis.from_url(url).flushdb()
    log = tmp_path / "worker.log"
    worker = start_worker(project_env(REDIS_URL=url, DATABASE_URL=database_url()), log, *options)
    try:
        with celery_on(url):
            yield log
    finally:
        stop_worker(worker, log)
        redis.Redis.from_url(url).flushdb()


@REAL_PROCESSES
@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_on_redis_plays_the_ai_turns(anna, tmp_path):
    with ai_worker(tmp_path, 13) as log:
        game = services.create_game(
            None, engine="puerto_rico", num_players=3, ai_seats=3, join=False
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            game.refresh_from_db()
            if game.status == Game.Status.FINISHED:
                break
            time.sleep(0.5)
    output = log.read_text()
    assert game.status == Game.Status.FINISHED, output[-3000:]
    assert game.version == game.moves.count()
    assert "games.tasks.play_ai_turn" in output
    assert "Traceback" not in output


def moves_by(level: str, game: Game, count: int) -> list:
    """The first ``count`` moves of ``game`` (still at version 0) as bots of ``level`` play
    them, each seeing its seat's view, with the seed the site gives that move."""
    spec = get_game(game.engine)
    rules = spec.engine
    state = rules.from_json(game.state)
    moves = []
    for version in range(count):
        view = rules.player_view(state, rules.current_player(state))
        action = choose_action(rules, view, bots=spec.bots, level=level, seed=game.seed + version)
        moves.append(rules.action_to_json(action))
        state = rules.apply(state, action)
    return moves


def played(game: Game, count: int) -> list:
    return list(
        Move.objects.filter(game=game, version__lte=count)
        .order_by("version")
        .values_list("action", flat=True)
    )


@REAL_PROCESSES
@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_failing_bot_is_logged_and_the_easy_move_played_on_a_real_worker(
    anna, monkeypatch, tmp_path
):
    game = game_waiting_for_an_ai(anna, monkeypatch)
    Seat.objects.filter(game=game).update(ai_level=broken_bot.LEVEL)
    first = game.seat_to_act().position
    expected = moves_by(Seat.AI.EASY, game, 3)
    event = f"ai_bot_failed game={game.pk} seat={first} level=broken error=RuntimeError("
    with ai_worker(tmp_path, 12, f"--include={broken_bot.__name__}") as log:
        tasks.play_ai_turn.delay(game.pk, 0)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            game.refresh_from_db()
            if game.version >= 3 and event in log.read_text():
                break
            time.sleep(0.2)
    output = log.read_text()
    assert game.version >= 3, output[-3000:]
    assert played(game, 3) == expected
    assert event in output, output[-3000:]
    assert "this bot always fails" in output  # the traceback's last line


def always_fails(state, view, legal, seed, **limits):
    raise ValueError("math domain error")


@pytest.mark.django_db(transaction=True)
def test_when_the_easy_bot_fails_too_a_random_legal_move_is_played(anna, monkeypatch, caplog):
    game = game_waiting_for_an_ai(anna, monkeypatch)
    Seat.objects.filter(game=game).update(ai_level=broken_bot.LEVEL)
    first = game.seat_to_act().position
    expected = moves_by(Seat.AI.RANDOM, game, 1)
    monkeypatch.setitem(BOTS, Seat.AI.EASY, always_fails)
    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda *args: None)  # one task only
    monkeypatch.setattr(tasks, "AI_MOVES_PER_TASK", 1)
    with caplog.at_level(logging.ERROR, logger="games.tasks"):
        tasks.play_ai_turn(game.pk, 0)
    assert played(game, 1) == expected
    failures = [(r.event, r.game, r.seat, r.level, r.error) for r in caplog.records]
    assert failures == [
        ("ai_bot_failed", game.pk, first, "broken", repr(RuntimeError("this bot always fails"))),
        ("ai_bot_failed", game.pk, first, "easy", repr(ValueError("math domain error"))),
    ]
    assert all(r.exc_info for r in caplog.records)


@pytest.mark.django_db(transaction=True)
def test_when_every_fallback_fails_the_task_fails_and_the_game_waits(anna, monkeypatch):
    game = game_waiting_for_an_ai(anna, monkeypatch)
    Seat.objects.filter(game=game).update(ai_level=broken_bot.LEVEL)
    for level in tasks.AI_FALLBACK_LEVELS:
        monkeypatch.setitem(BOTS, level, always_fails)
    with pytest.raises(ValueError, match="math domain error"):
        tasks.play_ai_turn(game.pk, 0)
    assert Game.objects.get(pk=game.pk).version == 0


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("simulations", [None, 3])
def test_a_hard_seat_searches_with_the_sites_ai_simulations(
    anna, monkeypatch, settings, simulations
):
    """``AI_SIMULATIONS`` reaches the hard player; unset, it keeps its game's own budget."""
    game = game_waiting_for_an_ai(anna, monkeypatch, level=Seat.AI.HARD)
    settings.AI_SIMULATIONS = simulations
    asked = []

    def spy(state, view, legal, seed, **limits):
        asked.append(limits["simulations"])
        return legal[0]

    monkeypatch.setitem(BOTS, Seat.AI.HARD, spy)
    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda *args: None)  # one task only
    monkeypatch.setattr(tasks, "AI_MOVES_PER_TASK", 1)
    tasks.play_ai_turn(game.pk, 0)
    assert asked == [simulations]
    assert Game.objects.get(pk=game.pk).version == 1
