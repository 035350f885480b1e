"""Streams served over ASGI, as the ``events`` process serves them: a waiting stream is woken
by Redis's bell when a change commits, or looks at the journal itself without Redis. The
streams read the database from the shared pool of threads, so the tests commit."""

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from events import bell
from games.models import Game
from tests.events.test_streams import any_move, parse, person_to_act, running_game

GUARD = 30
"""Seconds after which a stream that did not answer fails the test."""


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(n) for n in ("anna", "bob", "chris")]


def watch_one_move(users) -> tuple[list[dict], list[dict], int]:
    """Open the game's stream over ASGI, make a move once the stream waits, and read what
    the stream says next: (present, next events, the game's version after the move)."""
    game = running_game(users)

    async def scenario():
        response = await AsyncClient().get(reverse("api:game_events", args=[game.pk]))
        assert response["Content-Type"] == "text/event-stream"
        chunks = aiter(response.streaming_content)
        present = parse((await asyncio.wait_for(anext(chunks), GUARD)).decode())
        async with asyncio.timeout(GUARD):
            while bell.settings.REDIS_URL and not bell.listener().connected:
                await asyncio.sleep(0.01)
        await sync_to_async(any_move)(game, person_to_act(game, users))
        following = parse((await asyncio.wait_for(anext(chunks), GUARD)).decode())
        await chunks.aclose()
        return present, following

    present, following = async_to_sync(scenario)()
    return present, following, Game.objects.get(pk=game.pk).version


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_waiting_stream_is_woken_by_the_bell_when_the_move_commits(users, settings):
    settings.EVENTS_POLL_SECONDS = settings.EVENTS_KEEPALIVE_SECONDS = 3600  # only the bell
    present, following, version = watch_one_move(users)
    assert [e["event"] for e in present] == ["game"]
    assert [(e["event"], e["data"]["version"]) for e in following] == [("game", version)]


@pytest.mark.django_db(transaction=True)
def test_without_redis_a_stream_looks_at_the_journal_itself(users, settings):
    settings.REDIS_URL = ""
    settings.EVENTS_POLL_SECONDS = 0.01
    settings.EVENTS_KEEPALIVE_SECONDS = 3600
    _, following, version = watch_one_move(users)
    assert [(e["event"], e["data"]["version"]) for e in following] == [("game", version)]
