"""Redis stopped and started again while people log in and move (the form and the API, each move
sent twice as a client retrying would) and a real worker and beat play the AI turns: every
accepted move is stored once, every game replays to its stored state, and the AI turns left
waiting during the outage are played once Redis is back."""

import itertools
import uuid

import pytest
from django.test import Client

from games import services
from games.models import Game, Move
from tests.helpers import REAL_PROCESSES
from tests.reliability.conftest import wait_for
from tests.reliability.helpers import (
    a_move_handing_to_ai,
    game_against_ai,
    log_in,
    move_by_api,
    move_by_form,
    player,
    replay_matches,
    signed_in,
)

pytestmark = [
    pytest.mark.reliability,
    REAL_PROCESSES,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]
ROUNDS = 3
"""Rounds of logins and moves before, during and after the outage."""


def ai_waiting(game: Game) -> bool:
    game.refresh_from_db()
    return game.status == Game.Status.RUNNING and game.seat_to_act().is_ai


def test_nothing_is_lost_or_doubled_when_redis_stops_and_starts_under_load(
    own_redis, processes, django_user_model
):
    names = ["anna", "bob", "chris"]
    users = {name: player(django_user_model, name) for name in names}
    table = services.create_game(users["anna"], engine="puerto_rico", num_players=3)
    for name in names[1:]:
        services.join_game(table.pk, users[name])
    against_ai = [game_against_ai(users[name]) for name in names]
    ai_only = services.create_game(
        None, engine="puerto_rico", num_players=3, ai_seats=3, join=False
    )
    processes.worker(concurrency=2)
    processes.beat()
    clients = {name: signed_in(name) for name in names}
    senders = itertools.cycle([move_by_form, move_by_api])
    accepted: dict[int, list[str]] = {}

    def move(client: Client, game: Game) -> None:
        """The move of the person to act, sent twice with one key: stored, once."""
        game.refresh_from_db()
        key, send = uuid.uuid4().hex, next(senders)
        action = a_move_handing_to_ai(game)
        for _ in range(2):
            assert send(client, game, action, key).status_code in {200, 201, 303}
        assert Move.objects.filter(game=game, idempotency_key=key).count() == 1
        accepted.setdefault(game.pk, []).append(key)

    def rounds() -> None:
        for _ in range(ROUNDS):
            for name in names:
                fresh = Client()
                assert log_in(fresh, name).status_code == 302
                assert fresh.get("/games/mine/").status_code == 200
            table.refresh_from_db()
            to_act = next(n for n in names if users[n].pk == table.seat_to_act().user_id)
            move(clients[to_act], table)
            for name, game in zip(names, against_ai, strict=True):
                if not ai_waiting(game) and game.status == Game.Status.RUNNING:
                    move(clients[name], game)

    rounds()
    own_redis.stop()
    rounds()
    before_the_return = Game.objects.get(pk=ai_only.pk).version
    own_redis.start()
    rounds()

    def caught_up() -> bool:
        ai_only.refresh_from_db()
        moved_on = ai_only.version > before_the_return or ai_only.status == Game.Status.FINISHED
        return moved_on and not any(ai_waiting(game) for game in against_ai)

    wait_for(caught_up, 90, "the AI turns to catch up after Redis came back")
    processes.stop_all()
    for game in [table, *against_ai, ai_only]:
        assert replay_matches(game), game
    for game_id, keys in accepted.items():
        stored = Move.objects.filter(game_id=game_id, idempotency_key__in=keys)
        assert stored.count() == len(keys) == len(set(keys))
