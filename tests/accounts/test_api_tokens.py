"""Personal API tokens: made on the profile's token page and shown once, stored as a digest,
sent as ``Authorization: Bearer``; a token changes only what its scopes allow, a revoked one
is refused, and wrong tokens count in the same lockout as wrong passwords."""

import base64

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts import tokens
from accounts.models import ApiToken
from games import services
from games.models import Game, Move
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db
ADDRESS = "203.0.113.20"


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user("anna", "anna@example.org", PASSWORD)


def bearer(text: str, address: str = ADDRESS) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {text}", "REMOTE_ADDR": address}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_token_made_on_its_page_is_shown_once_and_stored_as_a_digest(anna):
    page = signed_in(anna)
    made = page.post(reverse("accounts:api_tokens"), {"name": "my bot", "scopes": ["play"]})
    assert made.status_code == 200
    text = made.content.decode().split('class="token-text">')[1].split("<")[0]
    assert text.startswith("puerto_")

    token = ApiToken.objects.get()
    assert (token.name, token.scopes) == ("my bot", ["play"])
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM accounts_apitoken")
        stored = " ".join(str(value) for row in cursor.fetchall() for value in row)
    assert text not in stored and text.split("_")[-1] not in stored
    again = page.get(reverse("accounts:api_tokens")).content.decode()
    assert "my bot" in again and text not in again
    assert reverse("accounts:api_tokens") in page.get(reverse("accounts:profile")).content.decode()


def test_a_bearer_token_reads_as_its_account_and_notes_its_use(anna):
    token, text = tokens.create(anna, "reader", [])
    answer = Client().get("/api/games/", **bearer(text))
    assert answer.status_code == 200
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_a_token_moves_only_with_the_play_scope(anna, django_user_model):
    others = [django_user_model.objects.create_user(n) for n in ("bob", "chris")]
    game = services.create_game(anna, engine="puerto_rico", num_players=3)
    for user in others:
        services.join_game(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    player = game.seat_to_act().user
    legal = game.rules.legal_actions(game.engine_state())
    body = {"action": game.rules.action_to_json(legal[0]), "version": game.version}
    url = reverse("api:moves", args=[game.pk])

    _, reader = tokens.create(player, "reader", ["chat"])
    refused = Client().post(url, body, content_type="application/json", **bearer(reader))
    assert refused.status_code == 403
    assert "play" in refused.json()["error"] and not Move.objects.exists()

    _, playing = tokens.create(player, "player", ["play"])
    moved = Client().post(url, body, content_type="application/json", **bearer(playing))
    assert moved.status_code in (200, 201), moved.content
    assert Move.objects.count() >= 1


def test_a_revoked_token_is_refused_and_only_its_owner_revokes_it(anna, django_user_model):
    token, text = tokens.create(anna, "old", [])
    bob = django_user_model.objects.create_user("bob")
    signed_in(bob).post(reverse("accounts:revoke_api_token", args=[token.pk]))
    assert ApiToken.objects.filter(pk=token.pk).exists()

    signed_in(anna).post(reverse("accounts:revoke_api_token", args=[token.pk]))
    assert not ApiToken.objects.exists()
    answer = Client().get("/api/games/", **bearer(text))
    assert answer.status_code == 401
    assert answer.json()["error"] and answer["WWW-Authenticate"].startswith("Bearer")


def test_wrong_tokens_count_in_the_lockout_of_wrong_passwords(anna):
    _, text = tokens.create(anna, "right", [])
    for number in range(10):
        wrong = Client().get("/api/games/", **bearer(f"puerto_{number:012x}_guess"))
        assert wrong.status_code == 401
    locked = Client().get("/api/games/", **bearer(text))
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0
    password = base64.b64encode(f"anna:{PASSWORD}".encode()).decode()
    basic = Client().get("/api/games/", HTTP_AUTHORIZATION=f"Basic {password}", REMOTE_ADDR=ADDRESS)
    assert basic.status_code == 429
    elsewhere = Client().get("/api/games/", **bearer(text, "198.51.100.7"))
    assert elsewhere.status_code == 200


@pytest.mark.parametrize(
    "header",
    [
        b"Bearer",
        b"Bearer a b",
        b"Bearer \xff\xfe",
        b"Bearer puerto_",
        b"Bearer \xed\xa0\x80",
        b"Bearer \x00",
        b"Bearer puerto_abc_" + b"x" * 5000,
    ],
)
def test_a_malformed_bearer_header_is_a_401_in_one_shape(anna, header):
    answer = Client().get("/api/games/", HTTP_AUTHORIZATION=header.decode("latin-1"))
    assert answer.status_code == 401
    assert set(answer.json()) == {"error", "code", "params"}
    assert answer.json()["code"] == "authentication_failed"


@pytest.mark.parametrize(
    "fields",
    [
        {"name": "a\x00b"},
        {"name": "x" * 61},
        {"name": ""},
        {"name": "ok", "scopes": ["everything"]},
        {"name": "ok", "scopes": ["play\x00"]},
        {"name": "ok", "scopes": "[[[[]]]]"},
        {"name": "²", "scopes": ["①"]},
    ],
)
def test_a_token_form_with_bad_fields_is_refused_and_makes_nothing(anna, fields):
    answer = signed_in(anna).post(reverse("accounts:api_tokens"), fields)
    assert answer.status_code == 400
    assert 'class="errorlist' in answer.content.decode()
    assert not ApiToken.objects.exists()


def test_a_token_name_with_a_lone_surrogate_is_stored_as_readable_text(anna):
    """A form can only send a surrogate's UTF-8 bytes: they arrive as replacement characters,
    text any column and page can hold."""
    signed_in(anna).generic(
        "POST",
        reverse("accounts:api_tokens"),
        "name=%ED%A0%80",
        content_type="application/x-www-form-urlencoded",
    )
    for token in ApiToken.objects.all():
        token.name.encode()  # no lone surrogate: it would not encode


def test_the_token_page_speaks_german(anna):
    anna.language = "de"
    anna.save()
    page = signed_in(anna).get(reverse("accounts:api_tokens")).content.decode()
    assert "API-Token" in page and "Neues Token" in page
