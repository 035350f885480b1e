"""Bot accounts: a fresh account becomes one on its tokens page or through the API, for
good; it joins only games whose creator allowed bots, carries a badge wherever it appears,
and is ranked apart from persons."""

import json
import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from accounts import tokens
from games import charts, chat, services
from games.models import Game
from games.registry import ladders
from players import leaderboards
from players.models import Follow, Rating
from tests.games.listing import finished_game, running_game

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
    page = page_client(anna).get(url).content.decode()
    seats = page.split('id="seats"', 1)[1].split("</section>", 1)[0]
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


BADGE = re.compile(r'<span class="bot-badge" title="[^"<>]+">([^<]+)</span>')
BADGE_WORD = {"en": "bot", "de": "Bot"}
"""The badge as ``players/_bot_badge.html`` writes it, and its word in each language."""
NAMES = ("anna", "robo", "chris")


def made_bot(user):
    """``user`` a bot account from now on (as if it had been one when it played: the badge
    asks only what the account is)."""
    user.is_bot = True
    user.save()
    return user


def badged(page: str, start: str, end: str, language: str = "en", names=NAMES) -> dict:
    """Each of ``names`` shown as text in the part of ``page`` from ``start`` to ``end``:
    whether the badge (in ``language``) stands right after it, the same wherever it is shown
    there; no badge stands anywhere else."""
    assert start in page, start
    part = page.split(start, 1)[1].split(end, 1)[0]
    text = re.sub(r"<[^>]+>", " ", BADGE.sub(r" [badge:\1] ", part))
    words = [w.strip(",.:;()") for w in text.replace("&nbsp;", " ").split()]
    shown = [
        (word, i + 1 < len(words) and words[i + 1] == f"[badge:{BADGE_WORD[language]}]")
        for i, word in enumerate(words)
        if word in names
    ]
    found = dict(shown)
    assert all(found[name] == bot for name, bot in shown), shown
    assert part.count('class="bot-badge"') == sum(bot for _, bot in shown)  # none elsewhere
    return found


def panel_badges(page: str, seats, language: str = "en", names=NAMES) -> dict:
    """``badged`` over the headings of the Puerto Rico board's panels of ``seats``."""
    found = {}
    for seat in seats:
        heading = f'<h3 id="pr-player-{seat.position}-name">'
        found.update(badged(page, heading, "</h3>", language, names))
    return found


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_bot_carries_its_badge_on_a_finished_games_page_its_replay_and_in_its_chat(
    users, language
):
    anna, robo, _ = users
    anna.language = language
    anna.save()
    game = finished_game(users, [10, 10, 10])  # a shared victory: every name in its line
    made_bot(robo)
    chat.post(game.pk, robo, "good game")
    chat.post(game.pk, anna, "thanks")
    client = page_client(anna)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert f'<html lang="{language}"' in page
    each = {"anna": False, "robo": True, "chris": False}
    final = ('<section class="outcome"', "</section>")
    assert badged(page, *final, language) == each
    assert badged(page, '<div class="pr-scores">', "</table>", language) == each
    authors = badged(page, '<ol class="chat-lines"', "</ol>", language)
    assert authors == {"anna": False, "robo": True}
    others = badged(page, '<ul class="chat-players"', "</ul>", language)
    assert others == {"robo": True, "chris": False}

    replay = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert badged(replay, *final, language) == each
    assert panel_badges(replay, game.seats.all(), language) == each


def test_a_bots_badge_stands_beside_its_line_in_the_score_chart():
    """The chart's lines are the seats in seat order: the badge goes with the bot's."""
    chart = charts.chart([(0, [0, 0]), (1, [3, 5])], ["anna", "robo"], ["blue", "red"])
    with translation.override("en"):
        drawn = render_to_string("games/_score_chart.html", {"chart": chart, "bot_seats": {1}})
    each = {"anna": False, "robo": True}
    assert badged(drawn, '<ul class="score-legend">', "</ul>") == each
    assert badged(drawn, "<tbody>", "</tbody>") == each


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_bot_carries_its_badge_in_the_lists_of_games(users, django_user_model, language):
    _, robo, chris = users
    dora = django_user_model.objects.create_user("dora", language=language)
    for user in users:
        Follow.objects.create(follower=dora, followed=user)
    finished_game(users)
    running = running_game(users)
    made_bot(robo)
    services.create_game(robo, engine="puerto_rico", num_players=3, bots_allowed=True)
    services.create_game(chris, engine="puerto_rico", num_players=3)
    client = page_client(dora)
    each = {"anna": False, "robo": True, "chris": False}

    archive = client.get(reverse("games:archive")).content.decode()
    assert badged(archive, '<ol class="placings">', "</ol>", language) == each
    watch = client.get(reverse("games:watch")).content.decode()
    assert badged(watch, '<p class="players">', "</p>", language) == each
    lobby = client.get(reverse("games:lobby")).content.decode()
    opened = badged(lobby, "<tbody>", "</tbody>", language)
    assert opened == {"robo": True, "chris": False}
    following = client.get(reverse("players:following")).content.decode()
    assert badged(following, '<ul class="followed">', "</ul>", language) == each
    assert badged(following, '<ul class="news">', "</ul>", language) == each

    # "My games" names whoever is to move: a person, then a bot.
    to_act = running.seat_to_act().user
    viewer = next(user for user in users if user != to_act)
    viewer.language = language
    viewer.save()
    for bot in (False, True):
        to_act.is_bot = bot
        to_act.save()
        page = page_client(viewer).get(reverse("games:mine")).content.decode()
        assert badged(page, "<tbody>", "</tbody>", language) == {to_act.username: bot}


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
