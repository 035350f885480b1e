"""Hostile payloads at every endpoint that reads a body or a number, with a session (its CSRF
token checked, as a browser sends it) and with HTTP Basic: each answers a 4xx with a reason in
one shape, ``{"error": …}``, and changes nothing. Run on PostgreSQL too, which refuses NUL in
text where SQLite stores it."""

import base64
import json

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games import chat, services
from games.models import ChatMessage, ChatMute, Game, Move

DEEP = 1_500
NOT_NUMBERS = ["²", "5" * 5_000, "9" * 30, "1.5", "0x1", "x"]
"""``"²".isdigit()`` is true and ``int("²")`` fails; 5,000 digits are past ``int``'s limit and
30 past any database integer."""
TOKEN = "t" * 32
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()


@pytest.fixture
def users(django_user_model):
    """Without passwords: hashing one costs a good part of a second (``basic`` sets one)."""
    return [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris")]


@pytest.fixture
def game(users):
    game = services.create_game(users[0], engine="puerto_rico", num_players=3)
    for user in users[1:]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def session(user) -> APIClient:
    """A browser's session: logged in, with the CSRF cookie and header it sends."""
    client = APIClient(enforce_csrf_checks=True, raise_request_exception=False)
    client.force_login(user)
    client.cookies["csrftoken"] = TOKEN
    client.credentials(HTTP_X_CSRFTOKEN=TOKEN)
    return client


def basic(user) -> APIClient:
    user.set_password("pw")
    user.save()
    token = base64.b64encode(f"{user.username}:pw".encode()).decode()
    return APIClient(
        enforce_csrf_checks=True,
        raise_request_exception=False,
        HTTP_AUTHORIZATION=f"Basic {token}",
    )


def state_of(game) -> tuple:
    row = Game.objects.filter(pk=game.pk).values_list("version", "state", "chat_version").get()
    return row, Move.objects.filter(game=game).count(), ChatMessage.objects.count()


def assert_refused(response, statuses=(400,)):
    assert response.status_code in statuses, (response.status_code, response.content[:200])
    answer = response.json()
    assert set(answer) >= {"error"} and "detail" not in answer
    assert isinstance(answer["error"], str) and answer["error"]


def deep(field: str) -> str:
    return f'{{"{field}": {"[" * DEEP}{"]" * DEEP}}}'


@pytest.mark.django_db
@pytest.mark.parametrize("auth", [session, basic])
@pytest.mark.parametrize("endpoint", ["api:moves", "api:undo", "api:chat", "api:import"])
def test_deeply_nested_json_is_a_400_with_a_session_and_with_basic(game, users, auth, endpoint):
    player = game.seat_to_act().user
    url = reverse(endpoint) if endpoint == "api:import" else reverse(endpoint, args=[game.pk])
    before = state_of(game)
    response = auth(player).post(url, deep("action"), content_type="application/json")
    assert_refused(response)
    assert "nested" in response.json()["error"]
    assert state_of(game) == before


@pytest.mark.django_db
def test_deep_nesting_is_refused_in_the_readers_language(game):
    player = game.seat_to_act().user
    player.language = "de"
    player.save()
    url = reverse("api:moves", args=[game.pk])
    response = session(player).post(url, deep("action"), content_type="application/json")
    assert_refused(response)
    assert "verschachtelt" in response.json()["error"]


@pytest.mark.django_db
def test_every_api_refusal_has_one_shape(game, users):
    player = game.seat_to_act().user
    url = reverse("api:moves", args=[game.pk])
    no_csrf = APIClient(enforce_csrf_checks=True, raise_request_exception=False)
    no_csrf.force_login(player)
    cases = [
        (APIClient().post(url, {}, format="json"), 403),  # not logged in
        (no_csrf.post(url, {}, format="json"), 403),  # no CSRF token
        (session(player).put(url, "{}", content_type="application/json"), 405),
        (session(player).post(url, "a=1", content_type="text/plain"), 415),
        (session(player).post(url, "{nope", content_type="application/json"), 400),
    ]
    for response, status in cases:
        assert_refused(response, (status,))


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize("text", ["a\x00b", "\x00", "x\ud800y", "bell\x07"])
def test_a_chat_text_with_nul_or_a_lone_surrogate_is_refused_and_not_counted(game, users, text):
    player = users[1]
    url = reverse("api:chat", args=[game.pk])
    before = state_of(game)
    for _ in range(chat.RATE_MESSAGES + 1):
        body = json.dumps({"text": text})
        response = session(player).post(url, body, content_type="application/json")
        assert_refused(response)
    assert state_of(game) == before
    # None of the refused messages counted against the ten a minute.
    ok = session(player).post(url, {"text": "still here"}, format="json")
    assert ok.status_code == 201


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_chat_form_post_with_nul_is_refused_with_the_reason(game, users):
    client = Client(raise_request_exception=False)
    client.force_login(users[1])
    before = state_of(game)
    response = client.post(reverse("games:chat", args=[game.pk]), {"text": "a\x00b"}, **HTMX)
    assert response.status_code == 400 and 'role="alert"' in response.content.decode()
    assert state_of(game) == before


@pytest.mark.django_db
@pytest.mark.parametrize("number", NOT_NUMBERS)
def test_an_undo_version_that_is_no_plain_number_is_a_400(game, number):
    player = game.seat_to_act().user
    services.submit_move(
        game.pk, {"type": "choose_role", "role": "builder"}, user=player, expected_version=0
    )
    client = Client(raise_request_exception=False)
    client.force_login(player)
    before = state_of(game)
    response = client.post(reverse("games:undo", args=[game.pk]), {"version": number}, **HTMX)
    assert response.status_code == 400, response.content[:200]
    assert "version" in response.content.decode()
    assert state_of(game) == before


@pytest.mark.django_db
@pytest.mark.parametrize("number", NOT_NUMBERS)
def test_a_chat_mute_of_a_player_that_is_no_plain_number_is_a_400(game, users, number):
    client = Client(raise_request_exception=False)
    client.force_login(users[0])
    response = client.post(
        reverse("games:chat_mute", args=[game.pk]), {"player": number, "mute": "1"}, **HTMX
    )
    assert response.status_code == 400, response.content[:200]
    assert 'role="alert"' in response.content.decode()
    assert not ChatMute.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["message", "player"])
@pytest.mark.parametrize("number", NOT_NUMBERS)
def test_a_report_of_a_message_or_player_that_is_no_plain_number_is_a_400(
    game, users, field, number
):
    client = Client(raise_request_exception=False)
    client.force_login(users[0])
    url = reverse("moderation:report", args=[game.pk])
    response = client.get(url, {field: number})
    assert response.status_code == 400, response.content[:200]
    posted = client.post(f"{url}?{field}={number}", {"reason": "other", "text": "why"})
    assert posted.status_code == 400
    assert not game.reports.exists()
