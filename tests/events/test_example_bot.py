"""The example bot of docs/api.md (``docs/bot.py``), run as written against a live server:
it opens a game against two AI players and plays it to the end from its event stream."""

import contextlib
import importlib.util
import threading
from pathlib import Path

import pytest
from django.core.signals import request_finished, request_started

from accounts import tokens
from games import transfer
from games.models import Game, Move

GUARD = 300
"""Seconds after which a bot that has not finished fails the test."""
BOT = Path(__file__).resolve().parents[2] / "docs" / "bot.py"


def load_bot():
    spec = importlib.util.spec_from_file_location("example_bot", BOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Served:
    """Requests the live server started while watched, to wait for the last of them to end.
    Each is known by the thread that serves it, so a request of an earlier test that ends
    meanwhile counts for nothing."""

    def __init__(self) -> None:
        self.open: set[int] = set()
        self.idle = threading.Condition()

    def started(self, **kwargs) -> None:
        with self.idle:
            self.open.add(threading.get_ident())

    def finished(self, **kwargs) -> None:
        with self.idle:
            self.open.discard(threading.get_ident())
            self.idle.notify_all()

    def wait_for_all(self) -> None:
        with self.idle:
            assert self.idle.wait_for(lambda: not self.open, timeout=30)


@contextlib.contextmanager
def requests_served():
    served = Served()
    request_started.connect(served.started)
    request_finished.connect(served.finished)
    try:
        yield served
    finally:
        request_started.disconnect(served.started)
        request_finished.disconnect(served.finished)


@pytest.mark.django_db(transaction=True)
def test_the_example_bot_plays_a_whole_game_against_two_ais(
    live_server, settings, django_user_model
):
    settings.EVENTS_POLL_SECONDS = 0.01
    settings.EVENTS_KEEPALIVE_SECONDS = 0.05  # the server soon sees that the bot has left
    anna = django_user_model.objects.create_user("anna")
    _, token = tokens.create(anna, "example bot", ["play", "create"])

    with requests_served() as served:
        played = []
        bot = threading.Thread(
            target=lambda: played.append(load_bot().play(live_server.url, token, seed=3)),
            daemon=True,
        )
        bot.start()
        bot.join(timeout=GUARD)
        assert played, "the bot did not finish its game"
        served.wait_for_all()  # the stream too: the server saw the bot leave
    finished, moves, requests = played[0]

    game = Game.objects.get(pk=finished["id"])
    assert game.status == Game.Status.FINISHED
    assert finished["result"] == transfer.result(game)
    played = Move.objects.filter(game=game, actor=anna).count()
    assert moves == played > 20
    assert requests <= moves + 4  # one request a move, and the stream's own
    assert len(BOT.read_text().splitlines()) <= 100
