"""The event streams as a client reads them: a user's (their turns, their games, chat) and a
game's (each change as its reader may see it). Served here by the test client, as under WSGI:
the stream looks at the journal between chunks; ``test_bell.py`` covers ASGI and Redis."""

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import tokens
from events.models import Event
from events.tasks import prune_events
from games import chat, services
from games.api import game_document
from games.models import ChatMute, Game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quick_streams(settings):
    settings.EVENTS_POLL_SECONDS = 0.01
    settings.EVENTS_WSGI_SECONDS = 5  # a stream that never sends ends the test, not hangs it


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(n) for n in ("anna", "bob", "chris", "dora")]


def token_client(user) -> Client:
    _, text = tokens.create(user, "bot", ["play"])
    return Client(headers={"authorization": f"Bearer {text}"})


def running_game(users, **options) -> Game:
    game = services.create_game(users[0], engine="puerto_rico", num_players=3, **options)
    for user in users[1:3]:
        services.join_game(game.pk, user)
    return Game.objects.with_seats().get(pk=game.pk)


def person_to_act(game: Game, users):
    seat = game.seat_to_act()
    return next(u for u in users if u.pk == seat.user_id)


def parse(text: str) -> list[dict]:
    """Server-Sent Events as dicts of their fields (``data`` parsed as JSON)."""
    events = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            fields["data"] = json.loads(fields["data"])
            events.append(fields)
    return events


def opened(client: Client, url: str, **headers):
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/event-stream"
    chunks = iter(response.streaming_content)
    return response, chunks, parse(next(chunks).decode())


def any_move(game: Game, user) -> None:
    rules = game.rules
    action = rules.legal_actions(rules.from_json(game.state))[0]
    services.submit_move(game.pk, rules.action_to_json(action), user=user)


def test_a_move_journals_a_game_event_and_the_next_persons_turn(users):
    game = running_game(users)
    started = Event.objects.filter(kind=Event.Kind.STARTED)
    assert sorted(started.values_list("user__username", flat=True)) == ["anna", "bob", "chris"]
    first = person_to_act(game, users)
    assert list(Event.objects.filter(kind=Event.Kind.TURN).values_list("user", flat=True)) == [
        first.pk
    ]
    before = Event.objects.latest("id").pk
    any_move(game, first)
    game = Game.objects.with_seats().get(pk=game.pk)
    new = Event.objects.filter(id__gt=before).order_by("id")
    assert [(e.kind, e.user_id, e.version) for e in new] == [
        (Event.Kind.GAME, None, game.version),
        (Event.Kind.TURN, person_to_act(game, users).pk, game.version),
    ]


def test_a_new_stream_opens_with_the_games_waiting_for_the_user(users):
    game = running_game(users)
    first = person_to_act(game, users)
    _, _, events = opened(token_client(first), reverse("api:events"))
    assert [e["event"] for e in events] == ["turn"]
    assert "id" not in events[0]  # the present, sent again on each new connection
    assert events[0]["data"] == game_document(game, first)
    assert events[0]["data"]["legal_actions"]

    other = next(u for u in users[:3] if u != first)
    _, _, events = opened(token_client(other), reverse("api:events"))
    assert events == []


def test_a_player_hears_of_their_turn_when_the_others_have_moved(users):
    game = running_game(users)
    first = person_to_act(game, users)
    others = [u for u in users[:3] if u != first]
    streams = {u: opened(token_client(u), reverse("api:events"))[1] for u in others}
    while person_to_act(game, users) == first:  # a role, then the phase's first decision
        any_move(game, first)
        game = Game.objects.with_seats().get(pk=game.pk)

    events = parse(next(streams[person_to_act(game, users)]).decode())
    assert [e["event"] for e in events] == ["turn"]
    assert events[0]["data"]["version"] == game.version
    assert events[0]["data"]["to_act"] == events[0]["data"]["you"]
    assert events[0]["data"]["legal_actions"]
    assert int(events[0]["id"]) == Event.objects.filter(kind=Event.Kind.TURN).latest("id").pk


def test_a_game_stream_tells_each_reader_what_a_read_would(users):
    game = running_game(users)
    first = person_to_act(game, users)
    url = reverse("api:game_events", args=[game.pk])
    _, watcher, present = opened(Client(), url)
    assert [e["data"] for e in present] == [game_document(game, None)]

    any_move(game, first)
    game = Game.objects.with_seats().get(pk=game.pk)
    (seen,) = parse(next(watcher).decode())
    assert seen["event"] == "game"
    assert seen["data"] == game_document(game, None)
    assert seen["data"]["you"] is None and seen["data"]["legal_actions"] is None


def test_chat_reaches_the_other_players_and_public_readers_only(users):
    anna, bob, chris, _ = users
    game = running_game(users)
    _, bobs, _ = opened(token_client(bob), reverse("api:events"))
    _, chris_stream, _ = opened(token_client(chris), reverse("api:events"))
    _, watcher, _ = opened(Client(), reverse("api:game_events", args=[game.pk]))
    ChatMute.objects.create(user=chris, muted=anna)

    chat.post(game.pk, anna, "hola")
    chat.post(game.pk, bob, "buenas")
    (heard,) = parse(next(bobs).decode())
    assert heard["event"] == "chat"
    assert heard["data"]["message"]["text"] == "hola"
    assert [e["data"]["message"]["text"] for e in parse(next(chris_stream).decode())] == ["buenas"]
    # The chat is the players' own: the spectator's stream has nothing, and ends
    # when it has said nothing for the stream's time.
    assert b"chat" not in b"".join(watcher)


def test_a_client_that_connects_again_gets_what_it_missed_and_no_present(users):
    game = running_game(users)
    first = person_to_act(game, users)
    client = token_client(first)
    opened(client, reverse("api:events"))
    last = Event.objects.filter(user=first).latest("id").pk
    any_move(game, first)
    game = Game.objects.with_seats().get(pk=game.pk)
    chat.post(game.pk, next(u for u in users[:3] if u != first), "your move was bold")

    _, chunks, events = opened(client, reverse("api:events"), last_event_id=str(last))
    assert events == []  # no present: the client has it
    missed = parse(next(chunks).decode())
    again = ["turn"] if person_to_act(game, users) == first else []
    assert [e["event"] for e in missed] == [*again, "chat"]
    assert all(int(e["id"]) > last for e in missed)


@pytest.mark.parametrize(
    "query", ["x", "-1", "1.5", "%D9%A1%D9%A2", "1" * 40, "%ED%A0%80", "12%00", "%FF", ""]
)
def test_a_last_event_id_that_is_no_id_is_a_400(users, query):
    """Letters, signs, Arabic-Indic digits, too long, a lone surrogate, NUL, no UTF-8."""
    client = token_client(users[0])
    response = client.get(reverse("api:events"), QUERY_STRING=f"last_event_id={query}")
    assert response.status_code == 400
    assert "Last-Event-ID" in response.json()["error"]
    header = client.get(reverse("api:events"), headers={"last-event-id": "١٢"})
    assert header.status_code == 400


def test_a_stream_needs_a_reader_and_a_game_they_may_see(users):
    response = Client().get(reverse("api:events"))
    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    wrong = Client(headers={"authorization": "Bearer puerto_abc_nope"}).get(reverse("api:events"))
    assert wrong.status_code == 401 and "token" in wrong.json()["error"]

    hidden = running_game(users, spectators=False)
    url = reverse("api:game_events", args=[hidden.pk])
    assert Client().get(url).status_code == 404
    assert token_client(users[3]).get(url).status_code == 404
    assert token_client(users[1]).get(url).status_code == 200
    assert Client().post(reverse("api:events")).status_code == 405


def test_the_journal_keeps_a_day(users):
    running_game(users)
    kept = Event.objects.count()
    old = Event.objects.filter(kind=Event.Kind.STARTED)
    old.update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    assert prune_events() == 3
    assert Event.objects.count() == kept - 3
    assert not Event.objects.filter(kind=Event.Kind.STARTED).exists()


def test_the_api_schema_describes_both_streams():
    schema = Client().get(reverse("api:schema"), {"format": "json"}).json()
    for path in ("/api/events/", "/api/games/{id}/events/"):
        answers = schema["paths"][path]["get"]["responses"]
        assert set(answers["200"]["content"]) == {"text/event-stream"}
        refusal = answers["400"]["content"]["application/json"]["schema"]["$ref"]
        assert set(schema["components"]["schemas"][refusal.rsplit("/", 1)[1]]["properties"]) == {
            "error",
            "code",
            "params",
        }
    assert "/api/account/bot/" in schema["paths"]
