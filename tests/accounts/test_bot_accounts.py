"""Bot accounts: a fresh account becomes one on its tokens page or through the API, for
good; it joins only games whose creator allowed bots, carries a badge wherever it appears,
and is ranked apart from persons."""

import json

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import tokens
from games import services
from games.models import Game
from games.registry import ladders
from players import leaderboards
from players.models import Rating

pytestmark = pytest.mark.django_db


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(n) for n in ("anna", "robo", "chris")]


def token_client(user, scopes=("bot", "create", "play")) -> APIClient:
    _, text = tokens.create(user, "bot", list(scopes))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {text}")
    return client


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def refreshed(user):
    user.refresh_from_db()
    return user


def test_a_fresh_account_becomes_a_bot_on_its_tokens_page_once_it_says_it_understands(users):
    robo = users[1]
    client = page_client(robo)
    page = client.get(reverse("accounts:api_tokens")).content.decode()
    assert "<title>API tokens · puerto</title>" in page
    assert "Make this a bot account" in page.split("<main", 1)[1]

    unticked = client.post(reverse("accounts:bot_account"), follow=True)
    assert "Tick the box" in unticked.content.decode()
    assert not refreshed(robo).is_bot

    client.post(reverse("accounts:bot_account"), {"confirm": "on"})
    assert refreshed(robo).is_bot
    assert "This is a bot account" in client.get(reverse("accounts:api_tokens")).content.decode()


def test_an_account_that_has_played_stays_a_person(users):
    anna, *_ = users
    services.create_game(anna, engine="puerto_rico", num_players=3)
    answer = page_client(anna).post(reverse("accounts:bot_account"), {"confirm": "on"}, follow=True)
    assert "never played" in answer.content.decode()
    assert not refreshed(anna).is_bot

    api = token_client(anna).post(reverse("api:account_bot"))
    assert api.status_code == 409 and "never played" in api.json()["error"]
    assert not refreshed(anna).is_bot


def test_the_api_turns_an_account_into_a_bot_with_the_bot_scope_only(users):
    robo = users[1]
    without = token_client(robo, scopes=("play", "create")).post(reverse("api:account_bot"))
    assert without.status_code == 403 and "bot" in without.json()["error"]
    assert not refreshed(robo).is_bot

    client = token_client(robo)
    assert client.get(reverse("api:account")).json()["bot"] is False
    made = client.post(reverse("api:account_bot"))
    assert made.status_code == 200
    assert made.json()["bot"] is True and made.json()["username"] == "robo"
    assert refreshed(robo).is_bot


def test_a_bot_joins_only_games_whose_creator_allowed_bots(users):
    anna, robo, _ = users
    robo.is_bot = True
    robo.save()
    closed = services.create_game(anna, engine="puerto_rico", num_players=3)
    allowed = services.create_game(anna, engine="puerto_rico", num_players=3, bots_allowed=True)
    bot = token_client(robo)

    listed = bot.get(reverse("api:open")).json()["results"]
    assert [row["id"] for row in listed] == [allowed.pk]
    refused = bot.post(reverse("api:join", args=[closed.pk]))
    assert refused.status_code == 403 and "bot" in refused.json()["error"]
    assert refused.json()["code"] == "bots_not_allowed"
    assert not closed.seats.filter(user=robo).exists()
    assert bot.post(reverse("api:join", args=[allowed.pk])).status_code == 200

    # A person sees both; a game a bot opens takes bots.
    assert len(token_client(users[2]).get(reverse("api:open")).json()["results"]) == 2
    body = {"game": "puerto_rico", "num_players": 3}
    opened = bot.post(reverse("api:games"), json.dumps(body), content_type="application/json")
    assert opened.json()["bots_allowed"] is True


def test_the_lobby_form_lets_a_creator_allow_bots(users):
    anna = users[0]
    client = page_client(anna)
    client.post(reverse("games:lobby"), {"num_players": "3", "bots_allowed": "on"})
    client.post(reverse("games:lobby"), {"num_players": "3"})
    assert list(Game.objects.order_by("pk").values_list("bots_allowed", flat=True)) == [
        True,
        False,
    ]


def test_a_bot_carries_its_badge_on_the_game_page_and_in_the_api(users):
    anna, robo, chris = users
    robo.is_bot = True
    robo.save()
    game = services.create_game(anna, engine="puerto_rico", num_players=3, bots_allowed=True)
    services.join_game(game.pk, robo)
    url = reverse("games:game", args=[game.pk])
    seats = page_client(anna).get(url).content.decode().split('id="seats"', 1)[1]
    assert seats.count('class="bot-badge"') == 1
    assert 'class="bot-badge"' in seats.split("robo", 1)[1][:300]

    services.join_game(game.pk, chris)  # the game starts: the board's player panels
    board = page_client(anna).get(url).content.decode()
    panels = board.split('<h3 id="pr-player-')[1:]
    badged = [
        panel.split("</h3>", 1)[0] for panel in panels if "bot-badge" in panel.split("</h3>", 1)[0]
    ]
    assert len(badged) == 1 and "robo" in badged[0]
    seats = token_client(chris).get(reverse("api:game", args=[game.pk])).json()["seats"]
    assert {seat["name"]: seat["bot"] for seat in seats} == {
        "anna": False,
        "robo": True,
        "chris": False,
    }


def test_bots_are_ranked_apart_from_persons(users):
    anna, robo, _ = users
    robo.is_bot = True
    robo.save()
    ladder = ladders()[0]
    for user, value in ((anna, 1500), (robo, 1800)):
        Rating.objects.create(
            ladder=ladder.key,
            user=user,
            mu=25,
            sigma=8,
            value=value,
            games=5,
            last_game_at=timezone.now(),
        )
    assert [r.user for r in leaderboards.persons("all")] == [anna]
    assert [r.user for r in leaderboards.bots(ladder)] == [robo]
    page = Client().get(reverse("players:leaderboard", args=[ladder.key])).content.decode()
    assert "Bot accounts" in page and "robo" in page.split("Bot accounts", 1)[1]


@pytest.mark.parametrize(
    "body",
    ['{"a": ' * 200 + "1" + "}" * 200, '{"confirm": "\\u0000"}', '"\\ud800"', "[١٢]", "{nope"],
    ids=["nested", "nul", "lone surrogate", "arabic digits", "not json"],
)
def test_hostile_bodies_change_nothing_but_what_the_request_asks(users, body):
    """The endpoint takes no body: whatever one holds, a token's request makes the account a
    bot and a session's without its CSRF token is refused; never a 500."""
    robo, chris = users[1], users[2]
    answer = token_client(robo).post(
        reverse("api:account_bot"), body, content_type="application/json"
    )
    assert answer.status_code == 200 and answer.json()["bot"] is True
    session = APIClient(enforce_csrf_checks=True)
    session.force_login(chris)
    refused = session.post(reverse("api:account_bot"), body, content_type="application/json")
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
    assert not refreshed(chris).is_bot
    form = page_client(chris).post(
        reverse("accounts:bot_account"), {"confirm": body.replace("\\u0000", "\x00")}
    )
    assert form.status_code == 302
