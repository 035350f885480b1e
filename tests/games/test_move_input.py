"""Hostile input at the move endpoints (the API and the board's form): every bad request is a
4xx with a reason in the reader's language and changes nothing; idempotency keys are one
user's and one action's."""

import json

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from games import services
from games.models import Game, Move
from games.registry import get_engine
from tests.replayed import replayed

pr = get_engine("puerto_rico")
HTMX = {"HTTP_HX_REQUEST": "true"}
ROLE = {"type": "choose_role", "role": "builder"}


@pytest.fixture
def users(django_user_model):
    """Without passwords: hashing one costs a good part of a second."""
    return [
        django_user_model.objects.create_user(name)
        for name in ("anna", "bob", "chris", "david", "eve")
    ]


def running_game(users, n=3):
    game = services.create_game(users[0], engine="puerto_rico", num_players=n)
    for user in users[1:n]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def seat_user(game, users, position):
    seat = Game.objects.get(pk=game.pk).seats.get(position=position)
    return next(u for u in users if u.pk == seat.user_id)


def to_act(game, users):
    return seat_user(game, users, Game.objects.get(pk=game.pk).current_position)


def api(user, **kwargs):
    client = APIClient(raise_request_exception=False, **kwargs)
    client.force_login(user)
    return client


def form(user):
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def post_api(client, game, action, version=None, **extra):
    body = {"action": action, "version": game.version if version is None else version, **extra}
    return client.post(reverse("api:moves", args=[game.pk]), body, format="json")


def post_raw(client, game, text):
    """A body written by hand: what no JSON library would write (deep nesting, bad text)."""
    url = reverse("api:moves", args=[game.pk])
    return client.post(url, text, content_type="application/json")


def post_form(client, game, action, version=None, **fields):
    data = {"version": game.version if version is None else version, "action": action, **fields}
    return client.post(reverse("games:move", args=[game.pk]), data, **HTMX)


def snapshot(game):
    game = Game.objects.get(pk=game.pk)
    return game.version, game.state, list(Move.objects.filter(game=game).values_list("pk"))


# Idempotency keys -----------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db
def test_another_users_key_is_unknown_to_you(users):
    """The prospector passes the turn on at once: the next player may use the same key."""
    game = running_game(users, n=4)
    anna = to_act(game, users)
    prospector = {"type": "choose_role", "role": "prospector"}
    assert post_api(api(anna), game, prospector, key="k").status_code == 201
    game.refresh_from_db()
    bob = to_act(game, users)
    assert bob != anna
    before = snapshot(game)

    stranger = post_api(api(users[4]), game, {"type": "pass"}, version=0, key="k")
    assert (stranger.status_code, stranger.json()) == (
        403,
        {"error": "you have no seat in this game", "code": "not_seated", "params": {}},
    )
    waiting = next(u for u in users[:4] if u not in (anna, bob))
    other = post_api(api(waiting), game, prospector, version=0, key="k")
    moved = f"{anna.public_name} has moved since you looked: here is the game as it is now"
    assert (other.status_code, other.json()["error"]) == (409, moved)
    assert snapshot(game) == before

    answer = post_api(api(bob), game, ROLE, key="k")
    assert answer.status_code == 201
    assert Move.objects.get(game=game, version=game.version + 1).actor == bob
    assert Move.objects.filter(game=game, idempotency_key="k").count() == 2


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_key_used_for_another_action_is_refused_in_the_readers_language(users):
    game = running_game(users)
    anna = to_act(game, users)
    client = api(anna)
    first = post_api(client, game, ROLE, key="k")
    assert first.status_code == 201
    after = snapshot(game)

    # The same action, written with other (ignored) fields, is the same move: replayed.
    same = post_api(client, game, {**ROLE, "note": "again"}, key="k")
    assert (same.status_code, same.json()) == (200, first.json())
    other = post_api(client, game, {"type": "choose_role", "role": "mayor"}, key="k")
    assert other.status_code == 409
    assert other.json() == {
        "error": "that key was already used for another move",
        "code": "key_reused",
        "params": {},
    }
    game.refresh_from_db()  # anna builds first: the same key with her current version
    current = post_api(client, game, {"type": "pass"}, key="k")
    assert (current.status_code, current.json()["error"]) == (409, other.json()["error"])
    anna.language = "de"
    anna.save(update_fields=["language"])
    german = post_api(client, game, {"type": "pass"}, version=0, key="k")
    assert german.status_code == 409
    assert german.json() == {
        "error": "diesen Schlüssel hast du schon für einen anderen Zug benutzt",
        "code": "key_reused",
        "params": {},
    }
    assert snapshot(game) == after


# Wrong types, deep nesting, bad text ------------------------------------------------------------


WRONG_TYPES = [
    ({"type": "sell", "good": ["corn"]}, "good"),
    ({"type": "extra_good", "good": {"corn": 1}}, "good"),
    ({"type": "wharf", "good": ["corn"]}, "good"),
    ({"type": "load", "good": ["corn"], "ship": 0}, "good"),
    ({"type": "settle", "tile": ["corn"]}, "tile"),
    ({"type": "build", "building": {"name": "hospice"}}, "building"),
    ({"type": "choose_role", "role": ["mayor"]}, "role"),
    ({"type": "store", "windrose": ["corn"]}, "windrose"),
    ({"type": "store", "warehouse": [["corn"]]}, "warehouse"),
    ({"type": "store", "warehouse": [{"good": "corn"}]}, "warehouse"),
]


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize(("action", "field"), WRONG_TYPES, ids=[a[1] for a in WRONG_TYPES])
def test_a_list_or_object_where_a_name_belongs_is_refused_with_the_engines_code(
    users, action, field
):
    game = running_game(users)
    before = snapshot(game)
    response = post_api(api(to_act(game, users)), game, action)
    assert response.status_code == 400
    assert response.json() == {
        "error": f"'{field}' must be a name (a string)",
        "code": "malformed",
        "params": {"field": field},
    }
    assert snapshot(game) == before


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_wrong_type_is_refused_in_german_through_the_form_too(users):
    game = running_game(users)
    player = to_act(game, users)
    player.language = "de"
    player.save(update_fields=["language"])
    before = snapshot(game)
    response = post_form(form(player), game, json.dumps({"type": "sell", "good": ["corn"]}))
    assert response.status_code == 400
    assert "&#x27;good&#x27; muss ein Name sein (eine Zeichenkette)" in response.content.decode()
    assert snapshot(game) == before


@pytest.mark.postgres
@pytest.mark.django_db
def test_json_nested_a_thousand_levels_deep_is_refused(users):
    game = running_game(users)
    client = api(to_act(game, users))
    before = snapshot(game)
    deep = "[" * 1000 + "]" * 1000
    for text in (
        f'{{"action": {deep}, "version": 0}}',
        f'{{"action": {{"type": "choose_role", "role": "builder", "x": {deep}}}, "version": 0}}',
    ):
        response = post_raw(client, game, text)
        assert response.status_code == 400
        assert response.json() == {
            "error": "the JSON is nested too deeply",
            "code": "parse_error",
            "params": {},
        }
    assert snapshot(game) == before


BAD_TEXT = [
    ('{"type": "choose_role", "role": "builder", "note": "a\\u0000b"}', "nul-in-extra-value"),
    ('{"type": "choose_role", "role": "builder", "a\\u0000b": 1}', "nul-in-key"),
    ('{"type": "choose_role", "role": "builder", "note": ["\\ud800"]}', "surrogate-in-extra"),
    ('{"type": "\\ud800"}', "surrogate-type"),
    ('{"type": "choose_role\\u0000"}', "nul-type"),
    ('{"type": "arrange", "island": {"\\ud800": 1}}', "surrogate-island-kind"),
    ('{"type": "arrange", "city": {"x\\u0000": 1}}', "nul-building"),
]


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize("action", [b[0] for b in BAD_TEXT], ids=[b[1] for b in BAD_TEXT])
def test_nul_characters_and_lone_surrogates_in_an_action_are_refused(users, action):
    game = running_game(users)
    player = to_act(game, users)
    before = snapshot(game)
    response = post_raw(api(player), game, f'{{"action": {action}, "version": 0}}')
    assert response.status_code == 400
    assert response.json()["code"] == "bad_text"
    assert response.json()["error"] == (
        "an action's text may not hold NUL characters or lone surrogates"
    )
    assert snapshot(game) == before
    through_form = post_form(form(player), game, action)
    assert through_form.status_code == 400
    assert "NUL" in through_form.content.decode()
    assert snapshot(game) == before


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize("key", ["k\x00", "\ud800", "\x00"], ids=["nul", "surrogate", "only-nul"])
def test_a_key_with_a_nul_character_or_a_lone_surrogate_is_refused(users, key):
    game = running_game(users)
    player = to_act(game, users)
    before = snapshot(game)
    body = json.dumps({"action": ROLE, "version": 0, "key": key})
    response = post_raw(api(player), game, body)
    assert (response.status_code, response.json()) == (
        400,
        {
            "error": "the idempotency key may hold only printable characters",
            "code": "invalid",
            "params": {},
        },
    )
    assert snapshot(game) == before
    if "\ud800" not in key:  # a form post is UTF-8: it cannot carry a lone surrogate
        through_form = post_form(form(player), game, json.dumps(ROLE), key=key)
        assert through_form.status_code == 400
        assert "printable" in through_form.content.decode()
        assert snapshot(game) == before


# The form checks the seat first ---------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields",
    [
        {"action": json.dumps({"type": "sell", "good": ["corn"]})},
        {"action": '{"type": "\\ud800"}'},
        {"action": json.dumps(ROLE), "key": "\x00"},
        {"action": "{not json"},
        {"kind": "arrange", "island-corn": "x"},
        {"version": "x", "action": json.dumps(ROLE)},
    ],
    ids=["list", "surrogate", "nul-key", "not-json", "bad-arrangement", "bad-version"],
)
def test_the_form_refuses_a_user_without_a_seat_before_reading_the_move(users, fields):
    game = running_game(users)
    before = snapshot(game)
    data = {"version": 0, **fields}
    response = form(users[4]).post(reverse("games:move", args=[game.pk]), data, **HTMX)
    assert response.status_code == 403
    assert "you have no seat in this game" in response.content.decode()
    assert snapshot(game) == before


# What is stored -----------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_move_is_stored_in_the_engines_own_form_without_extra_fields(users):
    game = running_game(users)
    player = to_act(game, users)
    settler = {"type": "choose_role", "role": "settler"}
    junk = {**settler, "junk": "x" * 15_000, "role_": ["y"]}
    response = post_api(api(player), game, junk)
    assert response.status_code == 201
    assert Move.objects.get(game=game, version=1).action == settler

    game.refresh_from_db()
    state = pr.from_json(game.state)
    tile = next(a for a in pr.legal_actions(state) if a.type == "settle")
    sent = {"type": "settle", "tile": pr.action_to_json(tile)["tile"], "comment": "hi"}
    response = post_form(form(player), game, json.dumps(sent))
    assert response.status_code == 200
    move = Move.objects.get(game=game, version=game.version + 1)
    assert move.action == {"type": "settle", "tile": sent["tile"], "hospice": False}
    assert pr.to_json(replayed(game)) == Game.objects.get(pk=game.pk).state
