"""The API's common ground: refusals in one shape on every path (an address no view answers,
a method a stream does not take), a version asked for in the Accept header, query parameters
read strictly, and a schema that lists every operation's refusals and each game's actions."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games.models import Game
from tests.games.test_api_lobby import bot, new_game, users  # noqa: F401 - fixture
from tests.games.test_bad_input import assert_refused

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/games/null,null/", "/api/nothing/", "/api/games/1/x/"])
def test_an_address_no_view_answers_under_the_api_is_a_json_404(path):
    response = APIClient().get(path)
    assert_refused(response, (404,))
    assert response.json()["code"] == "not_found"


def test_an_address_no_view_answers_elsewhere_is_the_sites_page(client):
    response = client.get("/games/null,null/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("path", ["/api/events/", "/api/games/1/events/"])
def test_a_stream_refuses_another_method_with_405_in_the_api_shape(users, path):  # noqa: F811
    client = bot(users[0], scopes=("play",))
    response = client.generic("QUERY", path)
    assert_refused(response, (405,))
    assert response["Allow"] == "GET, HEAD"
    assert_refused(client.post(path), (405,))


def test_the_version_is_asked_for_in_the_accept_header(users):  # noqa: F811
    client = bot(users[0])
    url = reverse("api:games")
    assert client.get(url, HTTP_ACCEPT="application/json; version=1").status_code == 200
    assert client.get(url).status_code == 200  # none asked: the current one
    refused = client.get(url, HTTP_ACCEPT="application/json; version=2")
    assert_refused(refused, (406,))
    assert refused.json()["code"] == "not_acceptable"


@pytest.mark.parametrize("value", ["maybe", "null", "2", "True "])
def test_a_yes_or_no_parameter_in_another_spelling_is_a_400(users, value):  # noqa: F811
    response = bot(users[0]).get(reverse("api:games"), {"waiting": value})
    assert_refused(response)
    assert "waiting" in response.json()["fields"]


def test_a_yes_or_no_parameter_reads_true_false_1_and_0(users):  # noqa: F811
    client = bot(users[0])
    new_game(client, num_players=3, seats=["ai:easy", "ai:easy"])  # Anna to move, or an AI
    waiting = [g for g in client.get(reverse("api:games")).json()["games"] if g["your_turn"]]
    for value, expected in (("true", len(waiting)), ("1", len(waiting)), ("false", 1), ("0", 1)):
        games = client.get(reverse("api:games"), {"waiting": value}).json()["games"]
        assert len(games) == expected, value


@pytest.mark.parametrize("name", ["api:open", "api:finished", "api:archive", "api:watch"])
def test_a_parameter_sent_twice_is_a_400_naming_it(users, name):  # noqa: F811
    response = bot(users[0]).get(f"{reverse(name)}?page=1&page=2")
    assert_refused(response)
    assert list(response.json()["fields"]) == ["page"]


def test_every_list_answers_one_page_shape(users):  # noqa: F811
    client = bot(users[0])
    for _ in range(3):
        new_game(client, num_players=3)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("games.api_lobby.PAGE", 2)
        first = client.get(reverse("api:open")).json()
    assert set(first) == {"count", "page", "pages", "next", "previous", "results"}
    assert (first["count"], first["page"], first["pages"], first["previous"]) == (3, 1, 2, None)
    assert first["next"] == "http://testserver/api/games/open/?page=2"


def test_an_ai_level_sent_as_null_is_a_400_that_seats_nobody(users):  # noqa: F811
    client = bot(users[0])
    game = new_game(client, num_players=3).json()
    response = client.post(
        reverse("api:add_ai", args=[game["id"]]), "null", content_type="application/json"
    )
    assert_refused(response)
    assert Game.objects.get(pk=game["id"]).seats.count() == 1


@pytest.mark.parametrize("field", ["on_timeout", "move_time", "options", "seats"])
def test_a_new_game_field_of_the_wrong_type_is_a_400_that_opens_nothing(users, field):  # noqa: F811
    response = new_game(bot(users[0]), num_players=3, **{field: 7 if field == "options" else {}})
    assert_refused(response)
    assert field in response.json()["fields"]
    assert not Game.objects.exists()


def test_the_schema_lists_each_operations_refusals_and_each_games_actions():
    schema = APIClient().get("/api/schema/?format=json").json()
    operations = {
        (path, method): operation
        for path, item in schema["paths"].items()
        for method, operation in item.items()
    }
    for (path, method), operation in operations.items():
        statuses = set(operation["responses"])
        assert {"403", "406", "429"} <= statuses, (path, method)
        if "{" in path:
            assert "404" in statuses, (path, method)
        if method == "post":
            assert "400" in statuses, (path, method)
    assert "401" not in operations[("/api/games/{id}/", "get")]["responses"]  # anyone may read
    assert "401" in operations[("/api/games/{id}/moves/", "post")]["responses"]
    components = schema["components"]["schemas"]
    assert {"PuertoRicoAction", "AmerigoAction"} <= set(components)
    choose_role = [
        member
        for member in components["PuertoRicoAction"]["oneOf"]
        if member["properties"]["type"]["enum"] == ["choose_role"]
    ]
    assert set(choose_role[0]["properties"]["role"]["enum"]) >= {"settler", "captain", "mayor"}
    move = operations[("/api/games/{id}/moves/", "post")]["requestBody"]["content"]
    assert move["application/json"]["schema"] == {"$ref": "#/components/schemas/MoveRequest"}


def test_a_view_that_fails_under_the_api_answers_500_in_the_api_shape(users, monkeypatch):  # noqa: F811
    client = bot(users[0])
    game = new_game(client, num_players=3).json()

    def fail(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("games.api.game_document", fail)
    client.raise_request_exception = False
    response = client.get(reverse("api:game", args=[game["id"]]))
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"
