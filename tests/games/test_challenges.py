"""Challenges: the creator of an open game invites a player by name, the seat is held until
they answer; accepting seats them as joining does, declining or withdrawing frees the seat.
Through the services, the API (a token, as a bot uses it), the pages, the event stream and
email."""

import re
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import tokens
from events.models import Event
from games import challenges, notifications, services
from games.models import Challenge, Game, Notification, Seat
from moderation.models import Standing
from tests.events.test_streams import parse

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    cache.clear()


@pytest.fixture
def users(django_user_model):
    """Five people with an email address, without passwords (hashing one is slow)."""
    return [
        django_user_model.objects.create_user(name, f"{name}@example.org")
        for name in ("anna", "bob", "chris", "dora", "emil")
    ]


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def open_game(creator, num_players=3, **options) -> Game:
    return services.create_game(creator, engine="puerto_rico", num_players=num_players, **options)


def status_of(challenge: Challenge) -> str:
    return Challenge.objects.get(pk=challenge.pk).status


def assert_refused(call, code: str, kind=services.GameError):
    with pytest.raises(kind) as caught:
        call()
    assert caught.value.code == code, (caught.value.code, caught.value.message)
    return caught.value


# Services ------------------------------------------------------------------------------------


def test_a_pending_challenge_holds_a_seat_that_nobody_else_may_fill(users):
    anna, _, chris, dora, _ = users
    game = open_game(anna)  # three seats: anna's, two free
    challenges.challenge(game.pk, anna, "bob")
    services.join_game(game.pk, chris)  # the last free seat not held
    assert_refused(lambda: services.join_game(game.pk, dora), "game_full", services.Conflict)
    assert_refused(lambda: services.add_ai(game.pk, anna), "game_full", services.Conflict)
    assert_refused(lambda: challenges.challenge(game.pk, anna, "dora"), "game_full")
    assert Seat.objects.filter(game=game).count() == 2
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN


def test_accepting_seats_the_invitee_and_starts_the_full_game(users):
    anna, bob, chris, *_ = users
    game = open_game(anna)
    made = challenges.challenge(game.pk, anna, "bob")
    services.join_game(game.pk, chris)
    accepted = challenges.accept(made.pk, bob)
    assert accepted.status == Challenge.Status.ACCEPTED and accepted.answered_at is not None
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.RUNNING
    assert set(game.seats.values_list("user__username", flat=True)) == {"anna", "bob", "chris"}
    started = Event.objects.filter(game=game, kind=Event.Kind.STARTED)
    assert started.filter(user=bob).exists()


def test_accepting_leaves_the_game_open_while_seats_are_free(users):
    anna, bob, *_ = users
    game = open_game(anna, num_players=4)
    made = challenges.challenge(game.pk, anna, "bob")
    challenges.accept(made.pk, bob)
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.OPEN and game.seats.filter(user=bob).exists()


@pytest.mark.parametrize("answer", ["decline", "withdraw"])
def test_a_declined_or_withdrawn_challenge_frees_the_seat(users, answer):
    anna, bob, chris, dora, _ = users
    game = open_game(anna)
    made = challenges.challenge(game.pk, anna, "bob")
    services.join_game(game.pk, chris)
    assert_refused(lambda: services.join_game(game.pk, dora), "game_full")
    if answer == "decline":
        challenges.decline(made.pk, bob)
    else:
        challenges.withdraw(made.pk, anna)
    assert status_of(made) == {"decline": "declined", "withdraw": "withdrawn"}[answer]
    services.join_game(game.pk, dora)
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
    assert not Seat.objects.filter(game=game, user=bob).exists()


def test_an_invitee_who_joins_by_the_link_has_accepted(users):
    anna, bob, *_ = users
    game = open_game(anna)
    made = challenges.challenge(game.pk, anna, "bob")
    services.join_game(game.pk, bob)
    assert status_of(made) == Challenge.Status.ACCEPTED
    services.add_ai(game.pk, anna)  # nothing held any more: the last seat is free
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING


def test_cancelling_the_game_withdraws_its_pending_challenges(users):
    anna, bob, chris, *_ = users
    game = open_game(anna, num_players=4)
    first = challenges.challenge(game.pk, anna, "bob")
    second = challenges.challenge(game.pk, anna, "chris")
    challenges.decline(second.pk, chris)
    services.cancel_game(game.pk, anna)
    assert status_of(first) == Challenge.Status.WITHDRAWN
    assert status_of(second) == Challenge.Status.DECLINED
    told = Event.objects.filter(kind=Event.Kind.CHALLENGE, user=bob, challenge=first)
    assert told.count() == 2  # challenged, then withdrawn
    assert_refused(lambda: challenges.accept(first.pk, bob), "challenge_answered")


def test_a_player_who_leaves_the_site_declines_what_waits_for_them(users):
    anna, bob, *_ = users
    game = open_game(anna)
    made = challenges.challenge(game.pk, anna, "bob")
    services.hand_seats_to_ai(bob)
    assert status_of(made) == Challenge.Status.DECLINED


def test_who_may_be_challenged(users, django_user_model):
    anna, _, chris, dora, emil = users
    game = open_game(anna, num_players=5)
    services.join_game(game.pk, chris)
    challenges.challenge(game.pk, anna, "bob")
    dora.is_active = False
    dora.save()
    Standing.objects.create(user=emil, banned=True)
    suspended = django_user_model.objects.create_user("fritz")
    Standing.objects.create(user=suspended, suspended_until=timezone.now() + timedelta(days=2))
    django_user_model.objects.create_user("robot", is_bot=True)
    cases = [
        (anna, "nobody", "no_such_user", services.NotFound),
        (anna, "dora", "no_such_user", services.NotFound),  # closed account
        (anna, "emil", "no_such_user", services.NotFound),  # banned
        (anna, "fritz", "no_such_user", services.NotFound),  # suspended
        (anna, "a\x00b", "no_such_user", services.NotFound),
        (anna, "x" * 151, "no_such_user", services.NotFound),
        (anna, "anna", "challenge_yourself", services.GameError),
        (anna, "chris", "already_seated", services.Conflict),
        (anna, "bob", "already_challenged", services.Conflict),
        (anna, "robot", "bots_not_allowed", services.Forbidden),
        (chris, "robot", "not_creator", services.Forbidden),
    ]
    for by, name, code, kind in cases:
        error = assert_refused(
            lambda by=by, name=name: challenges.challenge(game.pk, by, name), code
        )
        assert isinstance(error, kind), (name, type(error))
    assert Challenge.objects.count() == 1
    # A suspension that is over keeps nobody out; a game that takes bots takes a bot's.
    Standing.objects.filter(user=suspended).update(suspended_until=timezone.now())
    challenges.challenge(game.pk, anna, "fritz")
    with_bots = open_game(anna, bots_allowed=True)
    challenges.challenge(with_bots.pk, anna, "robot")


def test_only_an_open_game_takes_challenges(users):
    anna, bob, chris, *_ = users
    game = open_game(anna)
    for user in (bob, chris):
        services.join_game(game.pk, user)
    assert_refused(lambda: challenges.challenge(game.pk, anna, "dora"), "game_not_open")
    assert_refused(lambda: challenges.challenge(10**9, anna, "dora"), "", services.NotFound)


def test_who_may_answer_a_challenge(users):
    anna, bob, chris, *_ = users
    game = open_game(anna)
    made = challenges.challenge(game.pk, anna, "bob")
    assert_refused(lambda: challenges.accept(made.pk, anna), "not_invitee", services.Forbidden)
    assert_refused(lambda: challenges.decline(made.pk, anna), "not_invitee")
    assert_refused(lambda: challenges.withdraw(made.pk, bob), "not_challenger")
    for answer in (challenges.accept, challenges.decline, challenges.withdraw):
        assert_refused(lambda a=answer: a(made.pk, chris), "no_such_challenge", services.NotFound)
    assert_refused(lambda: challenges.accept(10**9, bob), "no_such_challenge")
    assert status_of(made) == Challenge.Status.PENDING
    challenges.decline(made.pk, bob)
    error = assert_refused(lambda: challenges.accept(made.pk, bob), "challenge_answered")
    assert error.params == {"status": "declined"}
    assert_refused(lambda: challenges.withdraw(made.pk, anna), "challenge_answered")
    assert not Seat.objects.filter(game=game, user=bob).exists()


# The journal and the event stream ------------------------------------------------------------


@pytest.fixture
def quick_streams(settings):
    settings.EVENTS_POLL_SECONDS = 0.01
    settings.EVENTS_WSGI_SECONDS = 5


def token_client(user, scopes=("create",)) -> APIClient:
    _, text = tokens.create(user, "bot", list(scopes))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {text}")
    return client


def test_the_invitee_is_told_on_their_stream_and_the_challenger_of_the_answer(users, quick_streams):
    anna, bob, *_ = users
    game = open_game(anna)
    stream = token_client(bob).get(reverse("api:events"))
    assert stream.status_code == 200
    chunks = iter(stream.streaming_content)
    assert parse(next(chunks).decode()) == []  # nothing waits for bob yet

    made = challenges.challenge(game.pk, anna, "bob")
    events = parse(next(chunks).decode())
    assert [e["event"] for e in events] == ["challenge"]
    data = events[0]["data"]
    assert (data["id"], data["game"]["id"], data["status"]) == (made.pk, game.pk, "pending")
    assert (data["direction"], data["challenger"]["username"]) == ("received", "anna")
    assert int(events[0]["id"]) == Event.objects.get(user=bob, kind="challenge").pk

    # A new connection opens with the challenges still waiting for an answer.
    present = parse(
        next(iter(token_client(bob).get(reverse("api:events")).streaming_content)).decode()
    )
    assert [(e["event"], e["data"]["id"], "id" in e) for e in present] == [
        ("challenge", made.pk, False)
    ]

    watching = iter(token_client(anna).get(reverse("api:events")).streaming_content)
    next(watching)
    challenges.decline(made.pk, bob)
    told = parse(next(watching).decode())
    assert [(e["event"], e["data"]["status"], e["data"]["direction"]) for e in told] == [
        ("challenge", "declined", "sent")
    ]
    assert not Event.objects.filter(user=bob, kind="challenge").exclude(challenge=made).exists()


# Email ---------------------------------------------------------------------------------------


def test_the_invitee_gets_an_email_in_their_language_linking_to_the_lobby(
    users, mailoutbox, commit
):
    anna, bob, chris, dora, _ = users
    chris.language = "de"
    chris.save()
    dora.turn_email = dora.TurnEmail.OFF
    dora.save()
    game = open_game(anna, num_players=4)
    with commit():
        for name in ("bob", "chris", "dora"):
            challenges.challenge(game.pk, anna, name)
    by_address = {m.to[0]: m for m in mailoutbox}
    assert set(by_address) == {bob.email, chris.email}  # dora hears of no turns
    english, german = by_address[bob.email], by_address[chris.email]
    assert english.subject == f"anna challenges you to game {game.pk}"
    assert reverse("games:lobby") + "#challenges" in english.body
    assert "A seat is held for you" in english.body
    assert "fordert dich" in german.subject and "Partie" in german.subject


def test_no_challenge_email_once_it_was_answered(users, mailoutbox, commit):
    anna = users[0]
    game = open_game(anna)
    made = challenges.challenge(game.pk, anna, "bob")  # written, not yet sent
    challenges.withdraw(made.pk, anna)
    with commit():
        notifications.deliver_pending(now=timezone.now() + timedelta(minutes=5))
    assert mailoutbox == []
    note = Notification.objects.get(kind=Notification.Kind.CHALLENGE)
    assert note.discarded_at is not None and "withdrawn" in note.last_error


# The API -------------------------------------------------------------------------------------


def test_a_bot_challenges_and_the_invitee_accepts_through_the_api(users):
    anna, bob, chris, *_ = users
    game = open_game(anna)
    services.join_game(game.pk, chris)
    made = token_client(anna).post(
        f"/api/games/{game.pk}/challenges/", {"username": "bob"}, format="json"
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["status"] == "pending" and body["direction"] == "sent"
    assert body["invitee"] == {"username": "bob", "name": "bob", "bot": False}
    assert body["game"]["id"] == game.pk and body["game"]["seated"] == 2

    late = token_client(users[3]).post(f"/api/games/{game.pk}/join/")
    assert (late.status_code, late.json()["code"]) == (409, "game_full")

    accepted = token_client(bob).post(f"/api/challenges/{body['id']}/accept/")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["status"] == "accepted"
    assert accepted.json()["game"]["status"] == "running"
    again = token_client(bob).post(f"/api/challenges/{body['id']}/decline/")
    assert again.status_code == 409 and again.json()["code"] == "challenge_answered"
    assert again.json()["params"] == {"status": "accepted"}


def test_the_api_refuses_with_stable_codes(users):
    anna, bob, chris, *_ = users
    game = open_game(anna)
    url = f"/api/games/{game.pk}/challenges/"
    cases = [
        (token_client(anna), {"username": "nobody"}, 404, "no_such_user"),
        (token_client(anna), {"username": "anna"}, 400, "challenge_yourself"),
        (token_client(bob), {"username": "chris"}, 403, "not_creator"),
        (token_client(anna, ["play"]), {"username": "bob"}, 403, "permission_denied"),
        (token_client(anna), {"name": "bob"}, 400, "invalid"),
    ]
    for client, body, status, code in cases:
        answer = client.post(url, body, format="json")
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.content
    made = token_client(anna).post(url, {"username": "bob"}, format="json").json()
    twice = token_client(anna).post(url, {"username": "bob"}, format="json")
    assert (twice.status_code, twice.json()["code"]) == (409, "already_challenged")
    assert twice.json()["params"] == {"player": "bob"}
    answers = [
        (anna, "accept", 403, "not_invitee"),
        (bob, "withdraw", 403, "not_challenger"),
        (chris, "decline", 404, "no_such_challenge"),
    ]
    for user, answer, status, code in answers:
        response = token_client(user).post(f"/api/challenges/{made['id']}/{answer}/")
        assert (response.status_code, response.json()["code"]) == (status, code)
    no_scope = token_client(bob, ["play"]).post(f"/api/challenges/{made['id']}/accept/")
    assert no_scope.status_code == 403
    withdrawn = token_client(anna).post(f"/api/challenges/{made['id']}/withdraw/")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    assert Challenge.objects.filter(status="pending").count() == 0


def test_my_challenges_list_pending_first_in_the_lobbys_page_shape(users):
    anna, bob, *_ = users
    older = open_game(anna)
    answered = challenges.challenge(older.pk, anna, "bob")
    challenges.decline(answered.pk, bob)
    mine = open_game(bob)
    sent = challenges.challenge(mine.pk, bob, "chris")
    received = challenges.challenge(older.pk, anna, "bob")
    challenges.challenge(older.pk, anna, "dora")  # neither sent nor received by bob

    page = token_client(bob).get("/api/challenges/").json()
    open_page = token_client(bob).get("/api/games/open/").json()
    assert set(page) == set(open_page)  # the one shape of a page of a list
    assert page["count"] == 3 and page["page"] == 1 and page["pages"] == 1
    rows = [(r["id"], r["status"], r["direction"]) for r in page["results"]]
    assert rows == [
        (received.pk, "pending", "received"),
        (sent.pk, "pending", "sent"),
        (answered.pk, "declined", "received"),
    ]
    bad = token_client(bob).get("/api/challenges/", {"page": "x"})
    assert bad.status_code == 400 and "page" in bad.json()["error"]
    assert token_client(users[4]).get("/api/challenges/").json()["count"] == 0


def test_the_schema_describes_the_challenges(users):
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    post = schema["paths"]["/api/games/{id}/challenges/"]["post"]
    asked = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    asked = schema["components"]["schemas"][asked.rsplit("/", 1)[1]]
    assert asked["properties"]["username"]["type"] == "string"
    assert asked["required"] == ["username"]
    component = schema["components"]["schemas"]["Challenge"]
    assert {"id", "status", "direction", "game", "challenger", "invitee"} <= set(
        component["properties"]
    )
    for answer in ("accept", "decline", "withdraw"):
        assert f"/api/challenges/{{id}}/{answer}/" in schema["paths"]
    assert "/api/challenges/" in schema["paths"]


# Pages ---------------------------------------------------------------------------------------


def page_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def flashed(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_creator_challenges_from_the_game_page_and_may_withdraw(users):
    anna, bob, *_ = users
    game = open_game(anna)
    url = reverse("games:game", args=[game.pk])
    page = page_client(anna).get(url).content.decode()
    assert "Challenge a player" in page and reverse("games:challenge", args=[game.pk]) in page
    assert "Challenge a player" not in page_client(bob).get(url).content.decode()

    client = page_client(anna)
    sent = client.post(reverse("games:challenge", args=[game.pk]), {"username": " bob "})
    assert sent.status_code == 303 and sent["Location"].startswith(url)
    made = Challenge.objects.get(invitee=bob, status="pending")
    page = client.get(url).content.decode()
    assert "A seat is held for bob" in page
    assert reverse("games:withdraw_challenge", args=[made.pk]) in page
    stranger = page_client(users[2]).get(url).content.decode()
    assert "A seat is held for a challenged player." in stranger and "for bob" not in stranger

    refused = client.post(reverse("games:challenge", args=[game.pk]), {"username": "bob"})
    assert "bob is already challenged to this game" in flashed(refused)
    client.post(reverse("games:withdraw_challenge", args=[made.pk]))
    assert status_of(made) == Challenge.Status.WITHDRAWN


def test_the_invitee_accepts_from_the_lobby(users):
    anna, bob, chris, *_ = users
    game = open_game(anna)
    services.join_game(game.pk, chris)
    made = challenges.challenge(game.pk, anna, "bob")
    client = page_client(bob)
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert 'id="challenges"' in lobby and "anna challenges you to" in lobby
    accept = reverse("games:accept_challenge", args=[made.pk])
    assert accept in lobby and reverse("games:decline_challenge", args=[made.pk]) in lobby
    assert 'id="challenges"' not in page_client(chris).get(reverse("games:lobby")).content.decode()

    answered = client.post(accept)
    assert answered.status_code == 303
    assert answered["Location"] == reverse("games:game", args=[game.pk])
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING
    assert 'id="challenges"' not in client.get(reverse("games:lobby")).content.decode()


def test_the_invitee_declines_from_the_lobby_in_german(users):
    anna, bob, *_ = users
    bob.language = "de"
    bob.save()
    game = open_game(anna)
    made = challenges.challenge(game.pk, anna, "bob")
    client = page_client(bob)
    lobby = client.get(reverse("games:lobby"), headers={"accept-language": "de"})
    text = lobby.content.decode()
    assert "Du wirst herausgefordert" in text and "Ablehnen" in text
    declined = client.post(reverse("games:decline_challenge", args=[made.pk]))
    assert declined["Location"].endswith("#challenges")
    assert status_of(made) == Challenge.Status.DECLINED
    again = client.post(reverse("games:decline_challenge", args=[made.pk]))
    assert any("nicht mehr offen" in m for m in flashed(again))


def test_the_invitee_may_answer_on_the_game_page_too(users):
    anna, bob, *_ = users
    game = open_game(anna)
    made = challenges.challenge(game.pk, anna, "bob")
    page = page_client(bob).get(reverse("games:game", args=[game.pk])).content.decode()
    assert reverse("games:accept_challenge", args=[made.pk]) in page
    assert reverse("games:join", args=[game.pk]) not in page


def test_the_challenge_forms_need_the_csrf_token(users):
    anna, bob, *_ = users
    game = open_game(anna)
    client = Client(enforce_csrf_checks=True)
    client.force_login(anna)
    refused = client.post(reverse("games:challenge", args=[game.pk]), {"username": "bob"})
    assert refused.status_code == 403
    assert not Challenge.objects.exists()
    made = challenges.challenge(game.pk, anna, "bob")
    client.force_login(bob)
    assert client.post(reverse("games:accept_challenge", args=[made.pk])).status_code == 403
    assert status_of(made) == Challenge.Status.PENDING


def test_a_game_page_link_in_the_email_leads_to_the_lobby_list(users, mailoutbox, commit):
    anna, bob, *_ = users
    game = open_game(anna)
    with commit():
        challenges.challenge(game.pk, anna, "bob")
    (mail,) = mailoutbox
    link = re.search(r"(https?://\S+#challenges)", mail.body).group(1)
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = page_client(bob).get("/" + path.split("#")[0]).content.decode()
    assert 'id="challenges"' in page


def test_a_new_game_through_the_api_may_hold_seats_for_invited_players(users):
    anna = users[0]
    client = token_client(anna)
    body = {"num_players": 4, "seats": [{"invite": "bob"}, "ai:easy", {"invite": "chris"}]}
    response = client.post(reverse("api:games"), body, format="json")
    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=response.json()["id"])
    assert game.status == Game.Status.OPEN and game.seats.count() == 2  # Anna and the AI
    pending = game.challenges.pending()
    assert sorted(c.invitee.username for c in pending) == ["bob", "chris"]
    assert {c.challenger for c in pending} == {anna}
    assert_refused(lambda: services.join_game(game.pk, users[3]), "game_full")


@pytest.mark.parametrize(
    "seat, status, code",
    [
        ({"invite": "nobody"}, 404, "no_such_user"),
        ({"invite": "anna"}, 400, "challenge_yourself"),
        ({"invite": 7}, 400, "invalid"),
        ({"invite": "bob", "seat": 2}, 400, "invalid"),
    ],
)
def test_a_new_game_whose_invitation_is_refused_is_not_opened(users, seat, status, code):
    response = token_client(users[0]).post(
        reverse("api:games"), {"num_players": 3, "seats": [seat]}, format="json"
    )
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert not Game.objects.exists() and not Challenge.objects.exists()
