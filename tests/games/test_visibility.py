"""A game only its players may watch (``spectators`` off), once it is no longer open, is seen
by its players, its creator and moderators (``games.view_game``) alone: everyone else gets
404 from every page and API read of it, as for a game that does not exist."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts import tokens
from games import chat, services
from games.models import ChatMessage, Game, Move
from tests.games.listing import finished_game, running_game

pytestmark = pytest.mark.django_db

PAGES = ["game", "board", "seats", "log", "replay", "export"]
API = ["api:game", "api:version", "api:chat", "api:export"]


@pytest.fixture
def users(django_user_model):
    names = ("anna", "bob", "stranger", "moderator", "opener")
    return {name: django_user_model.objects.create_user(name) for name in names}


@pytest.fixture
def moderator(users):
    user = users["moderator"]
    user.user_permissions.add(Permission.objects.get(codename="view_game"))
    return user


def client_for(user=None) -> APIClient:
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def private_finished(users) -> Game:
    game = finished_game([users["anna"], users["bob"]], spectators=False)
    chat.post(game.pk, users["anna"], "good game")
    return game


def reads(client, game: Game) -> dict[str, int]:
    """The status of every page and API read of ``game`` for ``client``."""
    statuses = {
        name: client.get(reverse(f"games:{name}", args=[game.pk])).status_code for name in PAGES
    }
    poll = reverse("games:poll", args=[game.pk])
    statuses["poll"] = client.get(poll, {"v": 0, "c": 0}).status_code
    for name in API:
        statuses[name] = client.get(reverse(name, args=[game.pk])).status_code
    return statuses


@pytest.mark.parametrize("who", [None, "stranger"])
def test_a_private_game_is_a_404_everywhere_for_anyone_else(users, who):
    game = private_finished(users)
    client = client_for(users[who] if who else None)
    statuses = reads(client, game)
    assert statuses == dict.fromkeys(statuses, 404)
    assert b"good game" not in client.get(reverse("api:chat", args=[game.pk])).content


@pytest.mark.parametrize("who", ["anna", "bob", "moderator"])
def test_its_players_and_moderators_read_it_everywhere(users, moderator, who):
    game = private_finished(users)
    statuses = reads(client_for(users[who]), game)
    assert 404 not in statuses.values(), statuses
    # The waiting room's seat list of a started game answers 204: "reload, it has begun".
    assert statuses["seats"] == 204
    shown = ["game", "board", "log", "replay", "export", "api:game", "api:version", "api:export"]
    assert {statuses[name] for name in shown} == {200}, statuses
    # The chat keeps its own rule: its players read it, a moderator does not (403).
    assert statuses["api:chat"] == (403 if who == "moderator" else 200)


def test_a_public_game_is_read_by_anyone(users):
    game = finished_game([users["anna"], users["bob"]])
    assert game.spectators
    for client in (client_for(), client_for(users["stranger"])):
        statuses = reads(client, game)
        assert all(status != 404 for status in statuses.values()), statuses
        assert statuses["game"] == statuses["api:game"] == statuses["export"] == 200


def test_the_creator_sees_a_game_they_opened_without_a_seat(users):
    game = services.create_game(
        users["opener"], engine="puerto_rico", num_players=2, join=False, spectators=False
    )
    for user in (users["anna"], users["bob"]):
        services.join_game(game.pk, user)
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
    url = reverse("games:game", args=[game.pk])
    assert client_for(users["opener"]).get(url).status_code == 200
    assert client_for(users["stranger"]).get(url).status_code == 404


def test_an_open_private_game_stays_visible_until_it_starts(users):
    game = services.create_game(
        users["anna"], engine="puerto_rico", num_players=2, spectators=False
    )
    stranger = client_for(users["stranger"])
    url = reverse("games:game", args=[game.pk])
    assert stranger.get(url).status_code == 200
    assert stranger.get(reverse("api:game", args=[game.pk])).status_code == 200
    assert stranger.get(reverse("games:invite", args=[game.invite_code])).status_code == 200
    services.join_game(game.pk, users["bob"])
    assert stranger.get(url).status_code == 404


def test_a_running_private_game_is_hidden_from_strangers_but_not_its_players(users):
    game = running_game([users["anna"], users["bob"]], spectators=False)
    player = client_for(users["anna"])
    stranger = client_for(users["stranger"])
    for name in ("games:game", "games:board", "games:log", "api:game", "api:chat"):
        url = reverse(name, args=[game.pk])
        assert player.get(url).status_code == 200, name
        assert stranger.get(url).status_code == 404, name
    poll = reverse("games:poll", args=[game.pk])
    assert player.get(poll, {"v": game.version}).status_code == 204
    assert stranger.get(poll, {"v": game.version}).status_code == 404


def test_a_stranger_cannot_write_in_a_private_games_chat_nor_learn_it_exists(users):
    game = running_game([users["anna"], users["bob"]], spectators=False)
    url = reverse("api:chat", args=[game.pk])
    response = client_for(users["stranger"]).post(url, {"text": "hello"}, format="json")
    assert response.status_code == 404
    assert response.json() == {"error": "no such game", "code": "not_found", "params": {}}
    assert not ChatMessage.objects.filter(game=game).exists()


def test_polling_a_public_game_still_costs_one_query(users, django_assert_num_queries):
    game = running_game([users["anna"], users["bob"]])
    client = Client()
    client.force_login(users["stranger"])
    with django_assert_num_queries(1):
        response = client.get(reverse("games:poll", args=[game.pk]), {"v": game.version})
    assert response.status_code == 204


def test_the_report_page_of_a_private_game_is_a_404_for_a_stranger(users):
    game = private_finished(users)
    url = reverse("moderation:report", args=[game.pk])
    assert client_for(users["stranger"]).get(url).status_code == 404
    assert client_for(users["bob"]).get(url).status_code == 200


@pytest.mark.parametrize(
    "name", ["undo", "join", "leave", "cancel", "take_back", "add_ai", "chat_mute"]
)
def test_a_strangers_form_post_to_a_private_game_is_a_404_that_flashes_nothing(users, name):
    game = running_game([users["anna"], users["bob"]], spectators=False)
    client = client_for(users["stranger"])
    answer = client.post(reverse(f"games:{name}", args=[game.pk]), {"version": game.version})
    assert answer.status_code == 404
    assert not list(get_messages(answer.wsgi_request))
    assert Game.objects.get(pk=game.pk).version == game.version


def token_client(user) -> APIClient:
    """A client with a personal API token of ``user`` that may play and open, join or leave
    games."""
    _, text = tokens.create(user, "bot", ["play", "create"])
    return APIClient(raise_request_exception=False, HTTP_AUTHORIZATION=f"Bearer {text}")


@pytest.mark.parametrize("finished", [False, True])
@pytest.mark.parametrize("credentials", ["session", "token"])
def test_a_stranger_acting_in_a_private_game_learns_nothing(users, finished, credentials):
    """A move, an undo or a seat's change is refused as for a game that does not exist: not
    "not your seat" (it exists) nor "not running" with the board as it stands (its scores,
    once finished)."""
    players = [users["anna"], users["bob"]]
    game = private_finished(users) if finished else running_game(players, spectators=False)
    moves = Move.objects.filter(game=game).count()
    stranger = users["stranger"]
    client = client_for(stranger) if credentials == "session" else token_client(stranger)
    nowhere = client.post(reverse("api:moves", args=[game.pk + 100]), {}, format="json")
    move = {"action": {"type": "choose_role", "role": "settler"}, "version": game.version}
    posts = [
        ("api:moves", move),
        ("api:undo", {"version": game.version}),
        ("api:vote", {"position": 0}),
    ]
    posts += [(name, {}) for name in ("api:leave", "api:seat_back", "api:cancel", "api:add_ai")]
    for name, body in posts:
        answer = client.post(reverse(name, args=[game.pk]), body, format="json")
        assert (answer.status_code, answer.json()) == (404, nowhere.json()), name
    assert Game.objects.get(pk=game.pk).version == game.version
    assert Move.objects.filter(game=game).count() == moves


def test_the_version_of_a_private_game_is_read_with_a_players_token_not_a_strangers(users):
    game = running_game([users["anna"], users["bob"]], spectators=False)
    url = reverse("api:version", args=[game.pk])
    answer = token_client(users["bob"]).get(url)
    assert answer.json() == {"version": game.version, "to_act": game.current_position}
    assert token_client(users["stranger"]).get(url).status_code == 404
    wrong = APIClient(HTTP_AUTHORIZATION="Bearer nonsense").get(url)
    assert wrong.status_code == 401 and wrong.json()["code"] == "authentication_failed"
