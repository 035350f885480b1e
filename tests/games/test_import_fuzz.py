"""Generated import files at both import endpoints, on PostgreSQL: an exported file with one
field set to a wrong type, NUL characters, lone surrogates, unicode digits or 1,500 levels of
nesting, a field left out or one added, sent to the API with a session (and its CSRF token) and
with HTTP Basic, and uploaded through the form. Every answer is a game (201, or 200 for a file
its user imported before) or a 4xx with a reason, never a 5xx; a refused file stores nothing,
and a stored game replays to its state with the engine's own actions. The exports answer every
reader of every game with the chat only for those who may read it."""

import base64
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from games import chat, services, transfer
from games.models import Game, Move
from games.registry import get_engine
from tests.games.game_files import game_file
from tests.games.test_chat import fresh_rate_limits  # noqa: F401 - every test counts its own
from tests.games.test_move_fuzz import JSON, TEXT
from tests.replayed import replayed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

pr = get_engine("puerto_rico")
DEPTH = 1_500
DEEP = "\x01deep\x01"
"""Stands for ``DEPTH`` levels of nesting in the file, put in once it is JSON text."""
CSRF = "a" * 32
UNICODE_DIGITS = ["\u0661", "\u0663\u0664", "\uff11", "\u00b2", "\u07c1"]
"""Digits to ``str.isdigit`` (Arabic-Indic, full-width, superscript, N'Ko), no numbers in JSON."""
VALUES = (
    JSON
    | st.sampled_from([DEEP, *UNICODE_DIGITS, "\x00", "\ud800", "1\x00", 2**63, -(2**63) - 1])
    | st.dictionaries(TEXT, JSON, max_size=3)
)
FUZZ = settings(
    max_examples=500,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def the_file() -> dict:
    data = game_file(seed=5)
    data["chat"] = [{"seat": 0, "after_move": 0, "at": "2026-01-02T03:04:05+00:00", "text": "gg"}]
    return data


def paths(value, prefix=()) -> list[tuple]:
    """Every field of ``value`` as a path of keys and list indexes; of the moves only the first,
    one in the middle and the last, which stand for the rest."""
    found = []
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        n = len(value)
        items = [(i, value[i]) for i in sorted({0, n // 2, n - 1})] if n else []
    else:
        return found
    for key, inner in items:
        found.append((*prefix, key))
        found.extend(paths(inner, (*prefix, key)))
    return found


BASE = the_file()
PATHS = paths(BASE)


def changed(data, draw) -> tuple[dict | list | str, bool]:
    """The file with one change; whether it may still be a game (an unchanged field, an
    accepted value)."""
    change = draw(st.sampled_from(["set"] * 6 + ["drop", "extra", "none", "whole"]))
    if change == "none":
        return data, True
    if change == "whole":
        return draw(VALUES), False
    path = draw(st.sampled_from(PATHS))
    part = data
    for key in path[:-1]:
        part = part[key]
    if change == "drop":
        del part[path[-1]]
    elif change == "extra" and isinstance(part, dict):
        part[draw(TEXT)] = draw(VALUES)
    else:
        part[path[-1]] = draw(VALUES)
    return data, True


def as_text(data) -> str:
    return json.dumps(data).replace(json.dumps(DEEP), "[" * DEPTH + "]" * DEPTH)


def snapshot() -> tuple[int, int]:
    return Game.objects.count(), Move.objects.count()


def check_stored(before: tuple[int, int], created: bool) -> None:
    """Only a new game is stored, whole: it replays to its state, its actions the engine's."""
    games, moves = snapshot()
    if not created:
        assert (games, moves) == before
        return
    assert games == before[0] + 1
    game = Game.objects.order_by("-pk").first()
    assert pr.to_json(replayed(game)) == game.state
    for action in game.moves.filter(kind=Move.Kind.ACTION).values_list("action", flat=True):
        assert pr.action_to_json(pr.action_from_json(action)) == action


@pytest.fixture
def importers(django_user_model, monkeypatch):
    """A user's three ways in: the API with a session and a CSRF token, the API with HTTP
    Basic, and the upload form; the import limit out of the way."""
    monkeypatch.setattr(transfer, "IMPORTS_PER_HOUR", 10**6)
    user = django_user_model.objects.create_user("anna", password="pw")
    session = APIClient(enforce_csrf_checks=True, raise_request_exception=False)
    session.force_login(user)
    session.cookies["csrftoken"] = CSRF
    token = base64.b64encode(b"anna:pw").decode()
    basic = APIClient(
        enforce_csrf_checks=True,
        raise_request_exception=False,
        HTTP_AUTHORIZATION=f"Basic {token}",
    )
    form = Client(enforce_csrf_checks=True, raise_request_exception=False)
    form.force_login(user)
    form.cookies["csrftoken"] = CSRF
    return {"session": session, "basic": basic, "form": form}


ALERT = re.compile(r'class="errorlist[^"]*"[^>]*>\s*<li>([^<]+)</li>')


def send(importers, how: str, body: str):
    """Send ``body`` the way ``how`` says: (status, whether a game was made or found)."""
    client = importers[how]
    if how == "form":
        upload = SimpleUploadedFile("game.json", body.encode())
        response = client.post(
            reverse("games:import"), {"file": upload, "csrfmiddlewaretoken": CSRF}
        )
        assert response.status_code in (303, 400), response.content[:300]
        if response.status_code == 400:
            assert ALERT.search(response.content.decode()), response.content[-800:]
        return response.status_code
    response = client.post(
        reverse("api:import"), body, content_type="application/json", HTTP_X_CSRFTOKEN=CSRF
    )
    assert response.status_code in (200, 201, 400), (how, response.content[:300])
    if response.status_code == 400:
        assert isinstance(response.json()["error"], str)
    return response.status_code


@pytest.mark.parametrize("how", ["session", "basic", "form"])
def test_generated_import_files_get_a_game_or_a_4xx(importers, how):
    statuses = {}

    @FUZZ
    @given(st.data())
    def post(data):
        file, _ = changed(json.loads(json.dumps(BASE)), data.draw)
        before = snapshot()
        status = send(importers, how, as_text(file))
        statuses[status] = statuses.get(status, 0) + 1
        check_stored(before, created=status == 201 or (status == 303 and snapshot() != before))

    post()
    assert statuses.get(400, 0) > 100  # refusals were tried
    assert statuses.get(201, 0) + statuses.get(303, 0) >= 1  # and a file that goes through


@pytest.mark.parametrize("how", ["session", "basic", "form"])
@pytest.mark.parametrize("where", [(), ("options",), ("moves", 0, "action"), ("chat",)])
def test_1500_levels_of_nesting_anywhere_in_the_file_are_refused(importers, how, where):
    file = json.loads(json.dumps(BASE))
    if where:
        part = file
        for key in where[:-1]:
            part = part[key]
        part[where[-1]] = DEEP
    else:
        file = DEEP
    before = snapshot()
    assert send(importers, how, as_text(file)) == 400
    check_stored(before, created=False)


def test_every_reader_gets_the_export_with_the_chat_only_if_they_may_read_it(
    django_user_model, settings
):
    users = [
        django_user_model.objects.create_user(n, password="pw") for n in ("anna", "bob", "eve")
    ]
    private = services.create_game(users[0], engine="puerto_rico", num_players=2)
    services.join_game(private.pk, users[1])
    public = services.create_game(users[0], engine="puerto_rico", num_players=2, chat_public=True)
    services.join_game(public.pk, users[1])
    running = services.create_game(users[0], engine="puerto_rico", num_players=2)
    for game in (private, public):
        chat.post(game.pk, users[1], "gg")
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)

    def readers():
        yield "anonymous", None, Client(raise_request_exception=False)
        for user in users:
            client = Client(raise_request_exception=False)
            client.force_login(user)
            yield "session", user, client
            token = base64.b64encode(f"{user.username}:pw".encode()).decode()
            yield (
                "basic",
                user,
                APIClient(raise_request_exception=False, HTTP_AUTHORIZATION=f"Basic {token}"),
            )
        wrong = base64.b64encode(b"anna:wrong").decode()
        yield (
            "wrong",
            None,
            APIClient(raise_request_exception=False, HTTP_AUTHORIZATION=f"Basic {wrong}"),
        )

    for how, user, client in readers():
        for pk in (private.pk, public.pk, running.pk, 10**9, "x"):
            for url in (f"/games/{pk}/export/", f"/api/games/{pk}/export/"):
                response = client.get(url)
                assert response.status_code in (200, 401, 403, 404, 409), (how, url, response)
                if response.status_code != 200:
                    continue
                exported = json.loads(response.content)
                game = Game.objects.with_seats().get(pk=pk)
                # HTTP Basic signs in on the API alone: the page sees a visitor.
                reader = user if how == "session" or url.startswith("/api/") else None
                if chat.may_read(game, reader):
                    assert [m["text"] for m in exported["chat"]] == ["gg"]
                else:
                    assert exported["chat"] is None
