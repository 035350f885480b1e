"""The game chat: who reads and writes it, its limits, a player's own mutes, the poll that
brings it to open pages, the API and the JSON export."""

import json
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from games import chat, rates, services, transfer
from games.models import ChatMessage, Game
from moderation.models import Standing
from tests.games.test_views import client_for, running_game, to_act

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    """The rate limit counts in the default cache (Redis): keys of this test's own (the
    report and browser tests import this too)."""
    default = settings.CACHES["default"]
    settings.CACHES = {**settings.CACHES, "default": {**default, "KEY_PREFIX": uuid.uuid4().hex}}


@pytest.fixture
def users(django_user_model):
    """Four players without a password (nothing to hash: these tests log in by session)."""
    return [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris", "dan")]


@pytest.fixture
def game(users):
    return running_game(users)


def chat_part(response) -> str:
    body = response.content.decode()
    return body[body.index('id="chat-messages"') :]


# Writing -------------------------------------------------------------------------------------


def test_a_player_writes_and_the_message_is_marked_with_the_move_it_came_after(game, users):
    first = chat.post(game.pk, users[1], "  good luck  ")
    mover = to_act(game, users)
    services.submit_move(game.pk, {"type": "choose_role", "role": "settler"}, user=mover)
    second = chat.post(game.pk, users[2], "nice settler")

    assert first.text == "good luck"
    assert (first.after_move, first.version) == (0, 0)
    assert second.after_move == 1 and second.version == Game.objects.get(pk=game.pk).version
    page = client_for(users[0]).get(game.get_absolute_url()).content.decode()
    assert "before the first move" in page and "after move 1" in page


def test_at_most_500_characters_and_not_empty(game, users):
    chat.post(game.pk, users[0], "x" * 500)
    with pytest.raises(services.GameError, match="at most 500 characters"):
        chat.post(game.pk, users[0], "x" * 501)
    with pytest.raises(services.GameError, match="write something"):
        chat.post(game.pk, users[0], "   ")
    assert ChatMessage.objects.count() == 1


def test_the_text_is_escaped_and_links_stay_text(game, users):
    chat.post(game.pk, users[1], '<script>alert(1)</script> <a href="x">see https://example.org')
    page = client_for(users[0]).get(game.get_absolute_url()).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)" not in page
    assert 'href="https://example.org' not in page and 'href="x"' not in page


def test_only_players_write(game, users, django_user_model):
    stranger = django_user_model.objects.create_user("eve")
    with pytest.raises(services.Forbidden):
        chat.post(game.pk, stranger, "hello")
    response = client_for(stranger).post(reverse("games:chat", args=[game.pk]), {"text": "hi"})
    assert response.status_code == 303
    assert not ChatMessage.objects.exists()
    assert Client().post(reverse("games:chat", args=[game.pk]), {"text": "hi"}).status_code == 403


def test_a_user_muted_by_a_moderator_cannot_write(game, users):
    Standing.objects.create(user=users[1], muted=True)
    client = client_for(users[1])
    response = client.post(
        reverse("games:chat", args=[game.pk]), {"text": "hi"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 403
    assert "a moderator has muted you" in chat_part(response)
    assert not ChatMessage.objects.exists()
    page = client.get(game.get_absolute_url()).content.decode()
    assert "A moderator has muted you: you cannot write in the chat." in page
    assert 'id="chat-text"' not in page


def test_more_than_ten_messages_a_minute_are_refused(game, users, monkeypatch):
    monkeypatch.setattr(rates.time, "time", lambda: 1_000_020.0)  # one window for all of them
    for number in range(chat.RATE_MESSAGES):
        chat.post(game.pk, users[0], f"message {number}")
    with pytest.raises(rates.TooFast, match="at most 10 messages a minute"):
        chat.post(game.pk, users[0], "one too many")
    chat.post(game.pk, users[1], "another player is not held up")
    monkeypatch.setattr(rates.time, "time", lambda: 1_000_080.0)  # the next minute
    chat.post(game.pk, users[0], "again")
    assert ChatMessage.objects.filter(author=users[0]).count() == chat.RATE_MESSAGES + 1


def test_an_htmx_post_answers_the_chat_with_the_new_message(game, users):
    client = client_for(users[0])
    response = client.post(
        reverse("games:chat", args=[game.pk]), {"text": "hello there"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "hello there" in chat_part(response)
    too_long = client.post(
        reverse("games:chat", args=[game.pk]), {"text": "y" * 501}, HTTP_HX_REQUEST="true"
    )
    assert too_long.status_code == 400 and "at most 500 characters" in chat_part(too_long)


# Reading ---------------------------------------------------------------------------------------


def test_spectators_read_only_if_the_creator_allowed_it(users, django_user_model):
    stranger = django_user_model.objects.create_user("eve")
    closed = running_game(users)
    chat.post(closed.pk, users[0], "between us")
    page = client_for(stranger).get(closed.get_absolute_url()).content.decode()
    assert "between us" not in page and "The chat of this game is for its players." in page
    assert "between us" not in Client().get(closed.get_absolute_url()).content.decode()

    public = services.create_game(users[0], engine="puerto_rico", num_players=2, chat_public=True)
    services.join_game(public.pk, users[1])
    chat.post(public.pk, users[0], "hello world")
    page = client_for(stranger).get(public.get_absolute_url()).content.decode()
    assert "hello world" in page
    assert 'id="chat-text"' not in page  # read only


def test_the_lobby_form_sets_who_may_read_the_chat(users):
    client = client_for(users[0])
    client.post(reverse("games:lobby"), {"num_players": 3, "chat_public": "on"})
    client.post(reverse("games:lobby"), {"num_players": 3})
    assert list(Game.objects.order_by("pk").values_list("chat_public", flat=True)) == [True, False]


def test_a_player_mutes_another_for_themselves_only(game, users):
    chat.post(game.pk, users[1], "annoying")
    mute_url = reverse("games:chat_mute", args=[game.pk])
    anna = client_for(users[0])
    answer = anna.post(mute_url, {"player": users[1].pk, "mute": "1"}, HTTP_HX_REQUEST="true")
    assert "annoying" not in chat_part(answer)
    assert "annoying" not in anna.get(game.get_absolute_url()).content.decode()
    assert "annoying" in client_for(users[2]).get(game.get_absolute_url()).content.decode()

    anna.post(mute_url, {"player": users[1].pk, "mute": "0"})
    assert "annoying" in anna.get(game.get_absolute_url()).content.decode()


def test_muting_yourself_or_a_stranger_is_refused(game, users):
    with pytest.raises(services.GameError):
        chat.set_mute(game, users[0], users[0].pk, True)
    with pytest.raises(services.NotFound):
        chat.set_mute(game, users[0], users[3].pk, True)
    answer = client_for(users[0]).post(
        reverse("games:chat_mute", args=[game.pk]), {"player": "x"}, HTTP_HX_REQUEST="true"
    )
    assert answer.status_code == 400


# The poll --------------------------------------------------------------------------------------


def test_polling_an_unchanged_chat_is_one_query(game, users, django_assert_num_queries):
    client = client_for(users[0])
    url = reverse("games:poll", args=[game.pk])
    with django_assert_num_queries(1):
        response = client.get(url, {"v": game.version, "c": game.chat_version})
    assert response.status_code == 204
    with django_assert_num_queries(1):
        assert client.get(url, {"c": game.chat_version}).status_code == 204
    assert client.get(url, {"c": "x"}).status_code == 400


def test_a_new_message_comes_with_the_poll_out_of_band(game, users):
    client = client_for(users[0])
    url = reverse("games:poll", args=[game.pk])
    chat.post(game.pk, users[1], "fresh news")
    game.refresh_from_db()
    assert game.chat_version == 1

    alone = client.get(url, {"v": game.version, "c": 0})
    assert alone.status_code == 200 and alone["HX-Reswap"] == "none"
    assert 'hx-swap-oob="true"' in alone.content.decode() and "fresh news" in chat_part(alone)
    assert 'id="board"' not in alone.content.decode()

    with_board = client.get(url, {"v": game.version + 1, "c": 0})
    assert 'id="board"' in with_board.content.decode() and "fresh news" in chat_part(with_board)


def test_a_spectator_who_may_not_read_gets_no_chat_from_the_poll(game, users):
    chat.post(game.pk, users[1], "secret plan")
    response = client_for(users[3]).get(reverse("games:poll", args=[game.pk]), {"c": 0})
    assert response.status_code == 204


# The API and the export -------------------------------------------------------------------------


def test_the_api_lists_and_posts(game, users):
    client = client_for(users[0])
    url = reverse("api:chat", args=[game.pk])
    created = client.post(url, {"text": "hi via api"}, content_type="application/json")
    assert created.status_code == 201 and created.json()["text"] == "hi via api"
    listed = client.get(url).json()
    assert [m["text"] for m in listed["messages"]] == ["hi via api"]
    assert listed["chat_version"] == 1
    assert client.post(url, {"text": 5}, content_type="application/json").status_code == 400
    stranger = client_for(users[3])
    assert stranger.get(url).status_code == 403
    assert stranger.post(url, {"text": "x"}, content_type="application/json").status_code == 403
    assert Client().post(url, {"text": "x"}, content_type="application/json").status_code == 401


def test_the_api_schema_documents_the_chat():
    schema = Client().get(reverse("api:schema"), {"format": "json"}).json()
    chat_path = schema["paths"]["/api/games/{id}/chat/"]
    assert set(chat_path) >= {"get", "post"}
    assert "429" in chat_path["post"]["responses"]


def test_the_export_is_json_ready_and_leaves_hidden_messages_out(game, users):
    kept = chat.post(game.pk, users[0], "kept")
    gone = chat.post(game.pk, users[1], "gone")
    chat.hide(gone.pk)
    exported = transfer.chat_messages(Game.objects.with_seats().get(pk=game.pk))
    assert json.loads(json.dumps(exported)) == exported
    anna = game.seats.get(user=users[0]).position
    assert exported == [
        {
            "seat": anna,
            "after_move": 0,
            "at": kept.created_at.isoformat(),
            "text": "kept",
        }
    ]


def finished(game) -> Game:
    """``game`` marked finished, as its last move would leave it: exported from now on."""
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    return Game.objects.get(pk=game.pk)


def exports(client, game) -> list[dict]:
    """The file as the page's link and the API give it to ``client``."""
    page = client.get(reverse("games:export", args=[game.pk]))
    api = client.get(reverse("api:export", args=[game.pk]))
    assert page.status_code == api.status_code == 200
    return [json.loads(page.content), api.json()]


def test_a_private_chat_is_exported_only_to_its_players(game, users):
    chat.post(game.pk, users[1], "between us")
    game = finished(game)
    for reader in (Client(), client_for(users[3])):  # not signed in; a spectator
        for exported in exports(reader, game):
            assert exported["chat"] is None
            assert "between us" not in json.dumps(exported)
    for exported in exports(client_for(users[0]), game):
        assert [m["text"] for m in exported["chat"]] == ["between us"]

    public = services.create_game(users[0], engine="puerto_rico", num_players=2, chat_public=True)
    services.join_game(public.pk, users[1])
    chat.post(public.pk, users[0], "hello world")
    for exported in exports(Client(), finished(public)):
        assert [m["text"] for m in exported["chat"]] == ["hello world"]


@pytest.mark.parametrize("readable", [False, True])
def test_every_way_to_the_chat_asks_the_one_rule(game, users, monkeypatch, readable):
    """The page, its poll, the API and both exports ask ``chat.may_read``, and nothing else,
    whether to show the chat: told "no", a player sees none; told "yes", a spectator sees it.
    (The replay page shows no chat.)"""
    chat.post(game.pk, users[1], "the one rule")
    monkeypatch.setattr(chat, "may_read", lambda game, user: readable)
    client = client_for(users[3] if readable else users[0])
    game = Game.objects.get(pk=game.pk)
    page = client.get(game.get_absolute_url()).content.decode()
    assert ("the one rule" in page) is readable
    poll = client.get(reverse("games:poll", args=[game.pk]), {"c": 0})
    assert poll.status_code == (200 if readable else 204)
    assert client.get(reverse("api:chat", args=[game.pk])).status_code == (200 if readable else 403)
    game = finished(game)
    for exported in exports(client, game):
        assert ("the one rule" in json.dumps(exported)) is readable
