"""With Redis down or frozen, people still sign in and move; the health check says so, and an AI
turn that could not be queued is queued by the sweeper once Redis is back."""

import logging
import threading
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import tasks
from games.models import Game, Move
from tests.helpers import REAL_PROCESSES
from tests.reliability.helpers import (
    a_move_handing_to_ai,
    game_against_ai,
    log_in,
    move_by_api,
    move_by_form,
    player,
    signed_in,
)

pytestmark = [
    pytest.mark.reliability,
    REAL_PROCESSES,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]
LIMIT_MESSAGE = "Too many failed login attempts. Try again later."


def not_queued_events(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if getattr(r, "event", "") == "ai_turn_not_queued"]


def test_people_sign_in_and_browse_while_redis_is_down(own_redis, django_user_model):
    player(django_user_model, "anna")
    own_redis.stop()

    client = Client()
    response = log_in(client, "anna")

    assert response.status_code == 302
    assert response["Location"] == reverse("games:mine")
    assert client.get(reverse("games:mine")).status_code == 200
    assert client.get(reverse("home")).status_code == 200


def test_failed_logins_are_still_throttled_while_redis_is_down(own_redis, django_user_model):
    player(django_user_model, "anna")
    own_redis.stop()
    client = Client()

    for _ in range(5):
        assert LIMIT_MESSAGE not in log_in(client, "anna", "wrong").content.decode()
    refused = log_in(client, "anna")

    assert LIMIT_MESSAGE in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_health_says_redis_is_down_and_the_site_still_serves(own_redis):
    own_redis.stop()

    response = Client().get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "redis": "down",
        "email": "not sent",  # the tests' memory backend
        "version": settings.PUERTO_VERSION,
        "failing": ["redis"],
    }


@pytest.mark.parametrize("send", [move_by_form, move_by_api], ids=["form", "api"])
def test_a_move_is_taken_while_redis_is_down_and_its_ai_turn_swept_up_later(
    own_redis, django_user_model, caplog, send
):
    anna = player(django_user_model, "anna")
    game = game_against_ai(anna)
    client = signed_in("anna")
    own_redis.stop()

    response = send(client, game, a_move_handing_to_ai(game))

    assert response.status_code in {201, 303}, response.content.decode()[:500]
    game.refresh_from_db()
    assert game.seat_to_act().is_ai
    assert Move.objects.filter(game=game, actor=anna).count() == 1
    [event] = not_queued_events(caplog)
    assert (event.game, event.version) == (game.pk, game.version)

    own_redis.start()
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(minutes=1))
    tasks.sweep_ai_turns()

    queued = redis.Redis.from_url(own_redis.url).lrange("celery", 0, -1)
    assert len(queued) == 1 and b"games.tasks.play_ai_turn" in queued[0]


def test_a_move_is_answered_while_redis_does_not_answer(own_redis, django_user_model, caplog):
    anna = player(django_user_model, "anna")
    game = game_against_ai(anna)
    client = signed_in("anna")
    answers = []

    def move():
        try:
            answers.append(move_by_form(client, game, a_move_handing_to_ai(game)))
        finally:
            connection.close()

    own_redis.freeze()
    mover = threading.Thread(target=move, daemon=True)
    mover.start()
    mover.join(timeout=60)
    hung = mover.is_alive()
    own_redis.thaw()
    mover.join(timeout=60)

    assert not hung, "the move hung on a Redis that does not answer"
    assert answers[0].status_code == 303
    assert Move.objects.filter(game=game, actor=anna).count() == 1
    assert len(not_queued_events(caplog)) == 1
