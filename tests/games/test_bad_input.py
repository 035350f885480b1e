"""Hostile payloads at every endpoint that reads a body or a number, with a session (its CSRF
token checked, as a browser sends it) and with HTTP Basic or a token: each answers a 4xx with
a reason in one shape, ``{"error": …}``, and changes nothing. Run on PostgreSQL too, which
refuses NUL in text where SQLite stores it."""

import base64
import json
from datetime import UTC, datetime

import pytest
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts import tokens
from games import challenges, chat, services
from games.models import Challenge, ChatMessage, ChatMute, Game, Move

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
    assert set(answer) >= {"error", "code", "params"} and "detail" not in answer
    assert isinstance(answer["error"], str) and answer["error"]
    assert isinstance(answer["code"], str) and answer["code"].isidentifier()
    assert isinstance(answer["params"], dict)


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
    other = next(u for u in users if u != player)
    stale = {"action": {"type": "pass"}, "version": game.version - 1}
    cases = [
        (APIClient().post(url, {}, format="json"), 401, "not_authenticated"),
        (no_csrf.post(url, {}, format="json"), 403, "permission_denied"),  # no CSRF token
        (session(player).put(url, "{}", content_type="application/json"), 405, None),
        (session(player).post(url, "a=1", content_type="text/plain"), 415, None),
        (session(player).post(url, "{nope", content_type="application/json"), 400, None),
        (session(other).post(url, stale, format="json"), 409, "stale_version"),
        (APIClient().get(reverse("api:version", args=[10**9])), 404, "not_found"),
    ]
    for response, status, code in cases:
        assert_refused(response, (status,))
        assert code is None or response.json()["code"] == code


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


# The archive's and the watch list's query parameters, the new-game form's new fields --------

HOSTILE_QUERIES = [
    "player=a%00b",
    "player=" + "p" * 151,
    "game=%00",
    "game=puerto_rico%00",
    "edition=puerto_rico:edition",
    "edition=puerto_rico:edition:nobles:x",
    "edition=%00:edition:base",
    "players=%C2%B2",  # "²"
    "players=%D9%A3",  # Arabic-Indic three
    "players=3.0",
    "kind=%00",
    "kind=RATED",
    "finished_from=2026-05-01%00",
    "finished_to=9999999-01-01",
    "finished_to=2026-13-01",
    "page=%C2%B2",
    "page=" + "5" * 5_000,
    "page=1.5",
    "page=-1",
    "page=%00",
]
"""What a hand-written address may hold that no search means: NUL, digits that are not
ASCII, values of another type or shape; each field is read by a Django form."""

ODD_QUERIES = {
    "player=%ED%A0%80": 0,  # a lone surrogate, as UTF-8 bytes: read as U+FFFD, nobody's name
    "game[]=puerto_rico&player[]=x": 1,  # no such fields: no filter
    "finished_from=%D9%A2%D9%A0%D9%A2%D9%A6-01-01": 1,  # 2026 in Arabic-Indic digits
    "finished_to=%D9%A2%D9%A0%D9%A2%D9%A5-01-01": 0,  # 2025
}
"""Odd searches that still mean something, with the number of games they find."""


@pytest.mark.django_db
@pytest.mark.parametrize("auth", [session, basic])
@pytest.mark.parametrize("query", HOSTILE_QUERIES)
def test_a_hostile_archive_search_is_a_400_in_one_shape(users, auth, query):
    api = auth(users[0]).get(f"{reverse('api:archive')}?{query}")
    assert_refused(api)
    assert isinstance(api.json()["fields"], dict) and api.json()["fields"]
    page = session(users[0]).get(f"{reverse('games:archive')}?{query}")
    assert page.status_code == 400 and 'class="errorlist' in page.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("auth", [session, basic])
@pytest.mark.parametrize("query", ODD_QUERIES)
def test_an_odd_archive_search_is_read_as_what_it_says(game, users, auth, query):
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.FINISHED, finished_at=datetime(2026, 5, 1, tzinfo=UTC)
    )
    api = auth(users[0]).get(f"{reverse('api:archive')}?{query}")
    assert api.status_code == 200 and api.json()["count"] == ODD_QUERIES[query]
    assert session(users[0]).get(f"{reverse('games:archive')}?{query}").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("auth", [session, basic])
@pytest.mark.parametrize("query", [q for q in HOSTILE_QUERIES if q.startswith("page=")])
def test_a_hostile_watch_page_is_a_400_in_one_shape(users, auth, query):
    assert_refused(auth(users[0]).get(f"{reverse('api:watch')}?{query}"))
    assert session(users[0]).get(f"{reverse('games:watch')}?{query}").status_code == 400


@pytest.mark.django_db
def test_the_archive_api_refuses_writes_in_its_one_shape(users):
    for client in (session(users[0]), basic(users[0])):
        for url in (reverse("api:archive"), reverse("api:watch")):
            assert_refused(client.post(url, {}, format="json"), (405,))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields",
    [
        {"rated": "\x00", "seat_2": "easy", "seat_3": "easy"},
        {"rated": ["on", "on"], "seat_2": "easy", "seat_3": "hard"},
        {"rated": "\ud800", "seat_2": "easy", "seat_3": "easy"},
        {"rated": "on", "spectators": "\x00", "seat_2": "easy", "seat_3": "easy"},
        {"num_players": "³", "rated": "on"},
        {"num_players": "٣", "spectators": "on"},
        {"num_players": "3\x00", "rated": "on"},
        {"num_players": ["4", "3"], "rated": "on", "seat_2": "easy", "seat_3": "easy"},
    ],
)
def test_the_new_game_forms_rated_and_spectators_take_no_hostile_game(users, fields):
    """A checkbox is on whatever it holds (as in a browser); a rated game with one person,
    or a player count that is no plain number, is refused and nothing is opened."""
    client = Client(raise_request_exception=False)
    client.force_login(users[0])
    data = {"num_players": "3", **fields}
    body = "&".join(
        f"{key}={value}"
        for key, values in data.items()
        for value in (values if isinstance(values, list) else [values])
    )
    response = client.post(
        reverse("games:lobby"),
        body.encode("utf-8", "surrogatepass"),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400, response.content[:300]
    assert 'class="errorlist' in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "query",
    ["against=AI", "against=ai%00", "against=%ED%A0%80", "against[]=ai", "against=%EF%BD%81i"],
)
def test_the_lobby_against_the_ai_takes_only_the_word_ai(users, query):
    """Play against the AI is a link's switch, not a field: anything but ``against=ai`` (NUL,
    a lone surrogate, a list, a full-width letter) opens the plain lobby, every seat a person's."""
    page = session(users[0]).get(f"{reverse('games:lobby')}?game=amerigo&{query}")
    assert page.status_code == 200
    assert 'value="medium" selected' not in page.content.decode()
    assert 'value="medium" selected' in (
        session(users[0]).get(f"{reverse('games:lobby')}?game=amerigo&against=ai").content.decode()
    )


# Challenges: each endpoint with a session and with a token ------------------------------------


def token(user) -> APIClient:
    """A client with a personal token of ``user`` that may challenge and answer."""
    _, text = tokens.create(user, "fuzz", ["create"])
    return APIClient(raise_request_exception=False, HTTP_AUTHORIZATION=f"Bearer {text}")


@pytest.fixture
def open_game(users):
    return services.create_game(users[0], engine="puerto_rico", num_players=3)


def challenges_of(game) -> list:
    return list(Challenge.objects.filter(game=game).values_list("invitee", "status"))


HOSTILE_CHALLENGES = {
    deep("username"): 400,
    '{"username": "bob\\u0000"}': 400,
    '{"username": "\\ud800"}': 400,
    '{"username": "b\\udfffob"}': 400,
    '{"username": ["bob"]}': 400,
    '{"username": {"name": "bob"}}': 400,
    '{"username": 5}': 400,
    '{"username": true}': 400,
    '{"username": null}': 400,
    '{"username": "' + "b" * 5_000 + '"}': 400,
    '{"username": "bob", "username": [["bob"]]}': 400,  # the last key counts
    '"bob"': 400,
    '["bob"]': 400,
    "{}": 400,
    "{nope": 400,
    '{"username": "\\u00b2"}': 404,  # "²": a name's character, but nobody's
    '{"username": "\\uff42\\uff4f\\uff42"}': 404,  # a full-width "bob" is not bob
    '{"username": "\\u0663"}': 404,  # an Arabic-Indic three
}
"""Bodies no challenge is made of: unreadable ones are 400s, names of nobody 404s."""


@pytest.mark.django_db
@pytest.mark.parametrize("auth", [session, token])
@pytest.mark.parametrize("body", HOSTILE_CHALLENGES)
def test_a_hostile_challenge_is_refused_in_one_shape_and_makes_none(open_game, users, auth, body):
    url = reverse("api:challenge", args=[open_game.pk])
    response = auth(users[0]).post(url, body, content_type="application/json")
    assert_refused(response, (HOSTILE_CHALLENGES[body],))
    assert challenges_of(open_game) == []
    ok = auth(users[0]).post(url, {"username": "bob"}, format="json")
    assert ok.status_code == 201  # the endpoint works: only the body was wrong


@pytest.mark.django_db
@pytest.mark.parametrize("auth", [session, token])
@pytest.mark.parametrize("answer", ["accept", "decline", "withdraw"])
@pytest.mark.parametrize(
    "body", [deep("x"), '{"x": "\\u0000"}', '{"x": "\\ud800"}', "[1]", '"yes"', "{nope"]
)
def test_an_answer_with_a_body_is_refused_and_answers_nothing(open_game, users, auth, answer, body):
    made = challenges.challenge(open_game.pk, users[0], "bob")
    who = users[0] if answer == "withdraw" else users[1]
    url = reverse(f"api:{answer}_challenge", args=[made.pk])
    assert_refused(auth(who).post(url, body, content_type="application/json"))
    assert challenges_of(open_game) == [(users[1].pk, "pending")]
    assert auth(who).post(url).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("auth", [session, token])
@pytest.mark.parametrize("number", ["9" * 30, "2147483648", "0"])
def test_a_challenge_number_past_any_row_is_a_404_in_one_shape(users, auth, number):
    for answer in ("accept", "decline", "withdraw"):
        response = auth(users[1]).post(f"/api/challenges/{number}/{answer}/")
        assert_refused(response, (404,))
    url = f"/api/games/{number}/challenges/"
    response = auth(users[0]).post(url, {"username": "bob"}, format="json")
    assert_refused(response, (404,))


@pytest.mark.django_db
@pytest.mark.parametrize("auth", [session, token])
@pytest.mark.parametrize("query", [q for q in HOSTILE_QUERIES if q.startswith("page=")])
def test_a_hostile_page_of_challenges_is_a_400_in_one_shape(users, auth, query):
    assert_refused(auth(users[0]).get(f"{reverse('api:challenges')}?{query}"))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        "username=bob%00",
        "username=%ED%A0%80",  # a lone surrogate's bytes
        "username=" + "b" * 5_000,
        "username=%C2%B2",
        "username[]=bob",
        "username=bob&username=%00",  # the last counts
        "",
    ],
)
def test_a_hostile_challenge_form_says_why_and_makes_none(open_game, users, body):
    client = Client(raise_request_exception=False)
    client.force_login(users[0])
    response = client.post(
        reverse("games:challenge", args=[open_game.pk]),
        body.encode("utf-8", "surrogatepass"),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 303
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert said and all(m.level_tag == "error" for m in get_messages(response.wsgi_request))
    assert challenges_of(open_game) == []


@pytest.mark.django_db
@pytest.mark.parametrize("answer", ["accept", "decline", "withdraw"])
def test_a_page_answer_to_a_challenge_that_is_not_yours_changes_nothing(open_game, users, answer):
    made = challenges.challenge(open_game.pk, users[0], "bob")
    client = Client(raise_request_exception=False)
    client.force_login(users[2])
    response = client.post(reverse(f"games:{answer}_challenge", args=[made.pk]))
    assert response.status_code == 303
    assert challenges_of(open_game) == [(users[1].pk, "pending")]
