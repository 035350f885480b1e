"""The lobby through the API, as a bot would use it with a token: open a game, find it among
the open ones, join, leave, seat an AI player, cancel, list one's finished games. Each change
goes through the lobby's own services and form; bad bodies are 400s that change nothing."""

import json
from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from accounts import tokens
from games import services
from games.models import Game, Seat
from tests.games.listing import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(n) for n in ("anna", "bob", "chris", "dora")]


def bot(user, scopes=("create",)) -> APIClient:
    """A client with a personal token of ``user``."""
    _, text = tokens.create(user, "bot", list(scopes))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {text}")
    return client


def new_game(client, **body):
    """POST a new game; the body as JSON with every non-ASCII character escaped, as a client
    sends a lone surrogate."""
    text = json.dumps({"game": "puerto_rico", "num_players": 4, **body})
    return client.post("/api/games/", text, content_type="application/json")


def test_a_bot_opens_a_game_others_find_join_and_fill(users):
    anna, bob, chris, dora = users
    made = new_game(bot(anna), seats=["person", "person", "ai:easy"], options={"edition": "nobles"})
    assert made.status_code == 201, made.content
    game = made.json()
    assert game["status"] == "open"
    stored = Game.objects.get(pk=game["id"])
    assert stored.options["edition"] == "nobles"
    assert sorted(s.ai_level for s in stored.seats.all()) == ["", "easy"]

    listed = bot(bob).get("/api/games/open/").json()
    assert [row["id"] for row in listed["results"]] == [stored.pk]
    assert listed["results"][0]["seated"] == 2

    assert bot(bob).post(f"/api/games/{stored.pk}/join/").status_code == 200
    joined = bot(chris).post(f"/api/games/{stored.pk}/join/")
    assert joined.status_code == 200 and joined.json()["status"] == "running"
    late = bot(dora).post(f"/api/games/{stored.pk}/join/")
    assert (late.status_code, late.json()["code"]) == (409, "game_not_open")


def test_leaving_seating_an_ai_and_cancelling_follow_the_lobbys_rules(users):
    anna, bob, *_ = users
    creator = bot(anna)
    game_id = new_game(creator).json()["id"]
    bob_bot = bot(bob)
    bob_bot.post(f"/api/games/{game_id}/join/")
    assert bob_bot.post(f"/api/games/{game_id}/leave/").status_code == 200
    assert not Seat.objects.filter(game_id=game_id, user=bob).exists()

    assert (
        bob_bot.post(f"/api/games/{game_id}/ai/", {"level": "hard"}, format="json").status_code
        == 403
    )
    added = creator.post(f"/api/games/{game_id}/ai/", {"level": "hard"}, format="json")
    assert (
        added.status_code == 200 and Seat.objects.filter(game_id=game_id, ai_level="hard").exists()
    )
    unknown = creator.post(f"/api/games/{game_id}/ai/", {"level": "grandmaster"}, format="json")
    assert unknown.status_code == 400 and "grandmaster" in unknown.json()["error"]

    not_his = bob_bot.post(f"/api/games/{game_id}/cancel/")
    assert (not_his.status_code, not_his.json()["code"]) == (403, "not_creator")
    assert creator.post(f"/api/games/{game_id}/cancel/").status_code == 200
    assert Game.objects.get(pk=game_id).status == Game.Status.ABORTED


def test_a_token_without_the_create_scope_opens_nothing(users):
    refused = new_game(bot(users[0], scopes=("play",)))
    assert refused.status_code == 403 and "create" in refused.json()["error"]
    assert not Game.objects.exists()


def test_the_finished_games_list_shows_the_requesters_own_with_their_result(users):
    game = finished_game(users[:3], [30, 20, 10])
    page = bot(users[1]).get("/api/games/finished/").json()
    assert page["count"] == 1
    (row,) = page["results"]
    bob = game.results.get(user=users[1])
    assert (row["id"], row["placement"], row["score"]) == (game.pk, bob.placement, bob.score)
    assert bot(users[3]).get("/api/games/finished/").json()["count"] == 0


BAD_BODIES = [
    {"game": "chess"},
    {"game": ["puerto_rico"]},
    {"game": "puerto_rico\x00"},
    {"num_players": "\uff14"},  # a fullwidth 4
    {"num_players": 9},
    {"num_players": [[[4]]]},
    {"seats": ["ai:grandmaster"]},
    {"seats": [{"ai": "easy"}]},
    {"seats": ["person\x00"]},
    {"options": {"edition": "\ud800"}},
    {"options": {"edition": ["both"]}},
    {"move_time": "forever"},
    {"on_timeout": {"x": 1}},
    {"rated": "false"},
    {"bots_allowed": 1},
    {"spectators": None},
    {"chat_public": ["yes"]},
]


@pytest.mark.parametrize(
    "body", BAD_BODIES, ids=[json.dumps(b, ensure_ascii=True) for b in BAD_BODIES]
)
@pytest.mark.parametrize("auth", ["token", "session"])
def test_a_new_game_it_cannot_read_is_a_400_that_opens_nothing(users, body, auth):
    if auth == "token":
        client = bot(users[0])
    else:
        client = APIClient()
        client.force_authenticate(users[0])
    answer = new_game(client, **body)
    assert answer.status_code == 400, answer.content
    assert isinstance(answer.json()["error"], str) and answer.json()["error"]
    assert not Game.objects.exists()


@pytest.mark.parametrize("body", ['"easy"', "[1]", '{"level": ["easy"]}', '{"level": 5}'])
def test_an_ai_level_that_is_no_string_is_a_400(users, body):
    creator = bot(users[0])
    game_id = new_game(creator).json()["id"]
    answer = creator.post(f"/api/games/{game_id}/ai/", body, content_type="application/json")
    assert answer.status_code == 400
    assert not Seat.objects.filter(game_id=game_id, user__isnull=True).exists()


@pytest.mark.parametrize("page", ["0", "x", "²", "9" * 30])
def test_a_page_that_is_no_plain_number_is_a_400(users, page):
    answer = bot(users[0]).get("/api/games/open/", {"page": page})
    assert answer.status_code == 400 and "page" in answer.json()["error"]


def clocked_game(users, on_timeout):
    """A running three-person game whose first person to act has run out of time."""
    game = services.create_game(
        users[0],
        engine="puerto_rico",
        num_players=3,
        move_time=timedelta(days=1),
        on_timeout=on_timeout,
    )
    for user in users[1:3]:
        services.join_game(game.pk, user)
    game = Game.objects.with_seats().get(pk=game.pk)
    services.time_out(game.pk, now=game.deadline + timedelta(seconds=1))
    absent = game.seat_to_act()
    return game, absent, next(u for u in users if u.pk == absent.user_id)


def test_a_player_takes_their_seat_back_from_the_ai_through_the_api(users):
    game, absent, absentee = clocked_game(users, Game.OnTimeout.AI)
    other = next(u for u in users[:3] if u != absentee)
    seen = bot(other, ["play"]).get(f"/api/games/{game.pk}/").json()["seats"]
    assert [s["taken_over"] for s in seen if s["position"] == absent.position] == [True]

    assert bot(absentee, ["create"]).post(f"/api/games/{game.pk}/seat-back/").status_code == 403
    refused = bot(other, ["play"]).post(f"/api/games/{game.pk}/seat-back/")
    assert refused.status_code == 409  # the other player's seat is theirs already
    assert refused.json()["code"] == "seat_not_taken_over"
    back = bot(absentee, ["play"]).post(f"/api/games/{game.pk}/seat-back/")
    assert back.status_code == 200, back.content
    mine = [s for s in back.json()["seats"] if s["position"] == absent.position]
    assert mine[0]["taken_over"] is False and mine[0]["ai"] is False
    absent.refresh_from_db()
    assert not absent.is_ai


def test_the_others_vote_an_absentee_out_through_the_api(users):
    game, absent, absentee = clocked_game(users, Game.OnTimeout.VOTE)
    first, second = [u for u in users[:3] if u != absentee]
    url = f"/api/games/{game.pk}/vote/"
    seen = bot(first, ["play"]).get(f"/api/games/{game.pk}/").json()["seats"]
    assert [s["position"] for s in seen if s["vote_open"]] == [absent.position]

    for body in ({}, {"position": "1"}, {"position": True}, {"position": 1.0}, []):
        refused = bot(first, ["play"]).post(url, body, format="json")
        assert refused.status_code == 400 and "position" in refused.json()["error"]
    denied = bot(absentee, ["play"]).post(url, {"position": absent.position}, format="json")
    assert denied.status_code == 403
    nobody = bot(first, ["play"]).post(url, {"position": 9}, format="json")
    assert (nobody.status_code, nobody.json()["code"]) == (409, "no_vote")

    voted = bot(first, ["play"]).post(url, {"position": absent.position}, format="json")
    assert voted.status_code == 200
    absent.refresh_from_db()
    assert not absent.is_ai  # one vote of two is no majority
    bot(second, ["play"]).post(url, {"position": absent.position}, format="json")
    absent.refresh_from_db()
    assert absent.is_ai and absent.dropped
