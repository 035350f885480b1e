"""Email: "your move", the digest, the reminder, game over; one-click unsubscribe; the outbox
delivering once, in process and through a real Celery worker on Redis.

``mailoutbox`` (Django's locmem backend) stands in for the email provider; the worker tests
count the files of Django's file backend instead."""

import contextlib
import re
import time
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit
from zoneinfo import ZoneInfo

import pytest
import redis
from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from rest_framework.test import APIClient

from games import clocks, notifications, services
from games.models import Game, Notification, Seat
from games.registry import get_engine
from puerto.celery import app as celery_app
from tests.helpers import REAL_PROCESSES, project_env
from tests.test_celery import start_worker, stop_worker

pr = get_engine("puerto_rico")
DAY = timedelta(days=1)


@pytest.fixture
def commit(django_capture_on_commit_callbacks):
    """Run what waits for commit (delivery, AI turns) when the block ends, as in production."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def running_game(users, humans=3, move_time=DAY, on_timeout="ai"):
    game = services.create_game(
        users[0],
        engine="puerto_rico",
        num_players=humans,
        move_time=move_time,
        on_timeout=on_timeout,
    )
    for user in users[1:humans]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def fresh(game):
    return Game.objects.get(pk=game.pk)


def user_to_act(game):
    return fresh(game).seat_to_act().user


def play_until_the_turn_passes(game):
    game = fresh(game)
    position = game.current_position
    for _ in range(20):
        action = pr.action_to_json(pr.legal_actions(game.engine_state())[-1])
        services.submit_move(
            game.pk, action, user=game.seat_to_act().user, expected_version=game.version
        )
        game = fresh(game)
        if game.current_position != position:
            return game
    raise AssertionError("the turn never passed")


def set_profile(user, **fields):
    for name, value in fields.items():
        setattr(user, name, value)
    user.save()


def unsubscribe_path(message) -> str:
    header = message.extra_headers["List-Unsubscribe"]
    assert header.startswith("<") and header.endswith(">")
    return urlsplit(header[1:-1]).path


def html_of(message) -> str:
    [(html, mimetype)] = message.alternatives
    assert mimetype == "text/html"
    return html


# Your move -----------------------------------------------------------------------------------


def turn_emails(commit, minutes=None) -> int:
    """The beat's "your move" round ``minutes`` from now (by default: just after the turn that
    started now has waited long enough), and the delivery of what it wrote."""
    if minutes is None:
        minutes = settings.PUERTO_TURN_EMAIL_MINUTES + 1
    with commit():
        return notifications.write_turn_emails(now=timezone.now() + timedelta(minutes=minutes))


def wait_in(game, user, minutes):
    """Make it ``user``'s move in ``game``, the turn having started ``minutes`` ago."""
    position = game.seats.get(user=user).position
    Game.objects.filter(pk=game.pk).update(
        current_position=position, turn_started_at=timezone.now() - timedelta(minutes=minutes)
    )


@pytest.mark.django_db
def test_a_german_email_names_the_ai_players_in_german(users, mailoutbox, commit):
    set_profile(users[0], language="de", time_zone="Europe/Berlin")
    with commit():
        game = services.create_game(
            users[0], engine="puerto_rico", num_players=3, ai_seats=1, move_time=DAY
        )
        services.join_game(game.pk, users[1])
    wait_in(fresh(game), users[0], minutes=settings.PUERTO_TURN_EMAIL_MINUTES + 1)
    mailoutbox.clear()
    assert turn_emails(commit, minutes=0) == 1
    ai = fresh(game).seats.get(ai_level__gt="")
    with translation.override("de"):
        german = ai.name
    assert german.startswith("KI ") and german in mailoutbox[0].body
    assert "AI " not in mailoutbox[0].body


@pytest.mark.django_db
def test_turn_email_once_the_turn_has_waited_in_the_players_language(users, mailoutbox, commit):
    for user in users:
        set_profile(user, language="de", time_zone="Europe/Berlin")
    with commit():
        game = running_game(users)
    assert not mailoutbox  # not at once
    assert turn_emails(commit, minutes=settings.PUERTO_TURN_EMAIL_MINUTES - 1) == 0
    assert not mailoutbox

    assert turn_emails(commit) == 1

    [message] = mailoutbox
    game = fresh(game)
    user = game.seat_to_act().user
    assert message.to == [user.email]
    assert message.subject == f"Du bist am Zug in Partie {game.pk}"
    game_url = f"{settings.PUERTO_SITE_URL}/games/{game.pk}/"
    assert f"Hallo {user.username}," in message.body
    assert f"Jetzt spielen: {game_url}" in message.body
    deadline = game.deadline.astimezone(ZoneInfo("Europe/Berlin"))
    weekday = ["Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"]
    assert re.search(  # as every page writes a date and time (``puerto/formats``)
        rf"Bitte ziehe bis {weekday[deadline.weekday()]}, {deadline.day}\. \w+ "
        rf"{deadline.year}, {deadline:%H:%M} {deadline.tzname()}\.",
        message.body,
    ), message.body
    html = html_of(message)
    assert f'href="{game_url}"' in html and "Jetzt ziehen" in html and 'lang="de"' in html
    headers = message.message()
    assert headers["List-Unsubscribe"].startswith(f"<{settings.PUERTO_SITE_URL}/games/unsub")
    assert headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    note = Notification.objects.get(kind="turn", user=user, sent_at__isnull=False)
    assert note.attempts == 1 and note.game == game

    # Neither a later round nor sweeping again sends anything twice.
    assert turn_emails(commit, minutes=60) == 0
    assert notifications.deliver_pending(now=timezone.now() + DAY) == 0
    assert len(mailoutbox) == 1


@pytest.mark.django_db
def test_turn_email_in_english_and_nothing_for_digest_or_off(users, mailoutbox, commit):
    set_profile(users[1], turn_email="digest")
    set_profile(users[2], turn_email="off")
    game = running_game(users)
    for _ in range(6):  # each player's turn waits long enough once or more
        turn_emails(commit)
        game = play_until_the_turn_passes(game)
    assert mailoutbox, "anna got no email"
    assert {tuple(m.to) for m in mailoutbox} == {(users[0].email,)}
    assert all(m.subject == f"Your move in game {game.pk}" for m in mailoutbox)
    assert "it is your move in game" in mailoutbox[0].body


@pytest.mark.django_db(transaction=True)
def test_no_turn_email_while_the_player_plays_ai_players_on_the_page(users, mailoutbox):
    anna = users[0]
    game = services.create_game(
        anna, engine="puerto_rico", num_players=3, ai_levels=["random", "random"], move_time=DAY
    )
    client = Client()
    client.force_login(anna)
    for _ in range(12):  # the AI players move at once: it is her move again and again
        game = fresh(game)
        assert game.seat_to_act().user == anna
        client.get(game.get_absolute_url())
        action = pr.action_to_json(pr.legal_actions(game.engine_state())[-1])
        services.submit_move(game.pk, action, user=anna, expected_version=game.version)
        notifications.write_turn_emails()  # the beat's round, as every minute
    assert fresh(game).version > 24
    assert not mailoutbox


@pytest.mark.django_db
def test_no_turn_email_while_the_player_is_on_the_site(users, mailoutbox, commit):
    anna = users[0]
    for other in users[1:]:
        set_profile(other, turn_email="off")
    waiting, watched = running_game(users), running_game(users)
    wait_in(waiting, anna, minutes=60)
    wait_in(watched, anna, minutes=0)
    client = Client()
    client.force_login(anna)
    assert client.get(watched.get_absolute_url()).status_code == 200  # she has a game open

    with commit():
        assert notifications.write_turn_emails() == 0
    assert turn_emails(commit, minutes=settings.PUERTO_AWAY_MINUTES - 1) == 0
    assert not mailoutbox

    # Away long enough: one mail, about every game waiting for her, the longest-waiting first.
    assert turn_emails(commit, minutes=settings.PUERTO_AWAY_MINUTES + 1) == 1
    [message] = mailoutbox
    assert message.to == [anna.email]
    note = Notification.objects.get(kind="turn")
    assert note.game == waiting
    context = notifications.context_for(note)
    assert [g["game"] for g in context["games"]] == [waiting, watched]
    assert context["games"][1]["url"].endswith(watched.get_absolute_url())


@pytest.mark.django_db
def test_a_player_who_moves_through_the_api_counts_as_present(users, mailoutbox, commit):
    anna = users[0]
    for other in users[1:]:
        set_profile(other, turn_email="off")
    waiting, played = running_game(users), running_game(users)
    wait_in(waiting, anna, minutes=60)
    wait_in(played, anna, minutes=0)
    client = APIClient()
    client.force_login(anna)
    action = pr.action_to_json(pr.legal_actions(fresh(played).engine_state())[0])
    url = reverse("api:moves", args=[played.pk])
    assert (
        client.post(url, {"action": action, "version": played.version}, format="json").status_code
        == 201
    )
    assert not Seat.objects.filter(user=anna, seen_at__isnull=False).exists()  # no page opened

    assert turn_emails(commit, minutes=settings.PUERTO_AWAY_MINUTES - 1) == 0
    assert not mailoutbox
    assert turn_emails(commit, minutes=settings.PUERTO_AWAY_MINUTES + 1) == 1
    assert [m.to for m in mailoutbox] == [[anna.email]]


@pytest.mark.django_db
def test_at_most_one_unread_turn_email_until_the_player_comes_back(users, mailoutbox, commit):
    anna = users[0]
    for other in users[1:]:
        set_profile(other, turn_email="off")
    first, second, third = running_game(users), running_game(users), running_game(users)
    wait_in(first, anna, minutes=60)
    assert turn_emails(commit, minutes=0) == 1
    wait_in(second, anna, minutes=0)  # a new turn of hers while the mail is unread
    assert turn_emails(commit, minutes=120) == 0
    assert len(mailoutbox) == 1

    client = Client()
    client.force_login(anna)
    client.get(first.get_absolute_url())  # she comes back, and leaves again
    assert turn_emails(commit) == 1  # the second game: neither seen nor mailed about
    wait_in(third, anna, minutes=0)
    assert turn_emails(commit, minutes=120) == 0
    assert [m.to for m in mailoutbox] == [[anna.email]] * 2


@pytest.mark.django_db
def test_one_turn_email_lists_every_game_waiting_for_the_player(users, mailoutbox, commit):
    anna = users[0]
    set_profile(anna, language="de")
    for other in users[1:]:
        set_profile(other, turn_email="off")
    first, second = running_game(users), running_game(users)
    wait_in(first, anna, minutes=60)
    wait_in(second, anna, minutes=30)
    assert turn_emails(commit, minutes=0) == 1

    [message] = mailoutbox
    assert message.subject == "Du bist am Zug in 2 Partien"
    for game in (first, second):
        url = f"{settings.PUERTO_SITE_URL}/games/{game.pk}/"
        assert url in message.body and f'href="{url}"' in html_of(message)
    assert "Diese Partien warten auch auf deinen Zug:" in message.body


@pytest.mark.django_db
def test_a_turn_is_mailed_about_once_even_after_the_mail_is_read(users, mailoutbox, commit):
    anna = users[0]
    for other in users[1:]:
        set_profile(other, turn_email="off")
    told, visited, later = running_game(users), running_game(users), running_game(users)
    wait_in(told, anna, minutes=60)
    assert turn_emails(commit, minutes=0) == 1
    client = Client()
    client.force_login(anna)
    wait_in(visited, anna, minutes=0)
    client.get(visited.get_absolute_url())  # back, but not at the game she was told about

    assert turn_emails(commit, minutes=120) == 0

    wait_in(later, anna, minutes=0)
    assert turn_emails(commit, minutes=120) == 1
    note = Notification.objects.filter(kind="turn").order_by("created_at").last()
    assert note.game == told and set(note.payload["games"]) == {told.pk, visited.pk, later.pk}
    assert len(mailoutbox) == 2


@pytest.mark.django_db
def test_a_turn_email_is_not_sent_once_the_player_is_back(users, mailoutbox, monkeypatch):
    monkeypatch.setattr(notifications, "enqueue", lambda ids: None)  # the worker is slow
    game = running_game(users)
    user = user_to_act(game)
    notifications.write_turn_emails(now=timezone.now() + timedelta(hours=1))
    [note] = Notification.objects.filter(kind="turn")
    client = Client()
    client.force_login(user)
    client.get(game.get_absolute_url())

    assert notifications.deliver(note.pk) == "discarded"

    note.refresh_from_db()
    assert note.last_error == "back on the site since"
    assert not mailoutbox


@pytest.mark.django_db
def test_presence_at_a_table_is_stored_at_most_once_a_minute(users):
    game = running_game(users)
    client = Client()
    client.force_login(users[1])
    seat = game.seats.get(user=users[1])

    client.get(game.get_absolute_url())
    seat.refresh_from_db()
    first = seat.seen_at
    assert first is not None
    client.get(game.get_absolute_url())
    client.get(reverse("games:board", args=[game.pk]))
    seat.refresh_from_db()
    assert seat.seen_at == first

    Seat.objects.filter(pk=seat.pk).update(seen_at=first - notifications.SEEN_EVERY)
    client.get(game.get_absolute_url())
    seat.refresh_from_db()
    assert seat.seen_at > first


# Unsubscribe ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_one_click_unsubscribe_stops_that_kind_of_mail_at_once(users, mailoutbox, commit):
    game = running_game(users)
    turn_emails(commit)
    [message] = mailoutbox
    user = user_to_act(game)
    path = unsubscribe_path(message)
    # Mail already queued for this kind, not yet delivered.
    queued = Notification.objects.create(
        user=user, kind="turn", game=game, dedupe_key="queued-before-unsubscribing"
    )
    # What a mail client sends (RFC 8058): a POST, no session, no CSRF token.
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )

    assert response.status_code == 200
    assert "You are unsubscribed" in response.content.decode()
    user.refresh_from_db()
    assert user.turn_email == "off"
    assert user.game_over_email and user.reminder_email  # only that kind
    assert notifications.deliver(queued.pk) == "discarded"
    queued.refresh_from_db()
    assert queued.sent_at is None and "no longer wants" in queued.last_error
    mailoutbox.clear()
    for _ in range(4):  # play on until the turn comes back to them: no more email
        game = play_until_the_turn_passes(game)
        turn_emails(commit)
    assert mailoutbox, "nobody got email"
    assert user.email not in {m.to[0] for m in mailoutbox}


@pytest.mark.django_db
def test_get_only_shows_a_confirmation_page(users, client):
    user = users[0]
    path = reverse("games:unsubscribe", args=[notifications.unsubscribe_token(user, "reminder")])

    response = client.get(path)

    page = response.content.decode()
    assert response.status_code == 200
    assert "move time running out" in page and '<form method="post"' in page
    assert user.email not in page  # whoever holds the link learns no address from it
    user.refresh_from_db()
    assert user.reminder_email

    done = client.post(path)
    assert done.status_code == 200 and user.email not in done.content.decode()
    user.refresh_from_db()
    assert not user.reminder_email


def token_signed_days_ago(user, kind: str, days: float) -> str:
    """The unsubscribe token that a mail sent ``days`` ago carried (signed then)."""

    class Then(signing.TimestampSigner):
        def timestamp(self):
            return signing.b62_encode(int(time.time() - days * 86400))

    return Then(salt=notifications.UNSUBSCRIBE_SALT).sign_object({"u": user.pk, "k": kind})


@pytest.mark.django_db
def test_a_link_works_for_the_configured_days_then_expires(users, client, settings):
    settings.PUERTO_UNSUBSCRIBE_LINK_DAYS = 60
    user = users[0]
    recent = reverse("games:unsubscribe", args=[token_signed_days_ago(user, "turn", 59)])
    old = reverse("games:unsubscribe", args=[token_signed_days_ago(user, "turn", 61)])
    assert client.get(recent).status_code == 200

    for method in (client.get, client.post):
        response = method(old)
        page = response.content.decode()
        assert response.status_code == 410
        assert "This unsubscribe link has expired" in page
        assert f'href="{reverse("accounts:profile")}"' in page
        assert user.email not in page
    user.refresh_from_db()
    assert user.turn_email == "immediate"

    german = client.get(old, HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 410
    assert "Dieser Abbestell-Link ist abgelaufen" in german.content.decode()

    client.post(recent)
    user.refresh_from_db()
    assert user.turn_email == "off"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "token",
    [
        "nonsense",
        "TAMPERED",
        # Named: a signed token holds the time it was made, so every collection (each
        # pytest-xdist worker's) would name it apart.
        pytest.param(
            signing.dumps({"u": 1, "k": "turn"}, salt="another purpose"), id="another-salt"
        ),
        pytest.param(
            signing.dumps({"u": 1, "k": "everything"}, salt=notifications.UNSUBSCRIBE_SALT),
            id="unknown-kind",
        ),
    ],
)
def test_a_forged_token_changes_nothing(users, client, token):
    user = users[0]
    if token == "TAMPERED":
        genuine = notifications.unsubscribe_token(user, "turn")
        token = genuine[:-3] + ("aaa" if not genuine.endswith("aaa") else "bbb")

    for method in (client.get, client.post):
        response = method(reverse("games:unsubscribe", args=[token]))
        assert response.status_code == 400
        assert "This unsubscribe link is not valid" in response.content.decode()
        assert f'href="{reverse("accounts:profile")}"' in response.content.decode()
    german = client.get(reverse("games:unsubscribe", args=[token]), HTTP_ACCEPT_LANGUAGE="de")
    assert "Dieser Abbestell-Link ist ungültig" in german.content.decode()
    user.refresh_from_db()
    assert user.turn_email == "immediate" and user.reminder_email and user.game_over_email


# Game over -----------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_game_over_email_with_the_result_to_every_person_who_wants_it(users, mailoutbox):
    set_profile(users[1], language="de")
    set_profile(users[2], game_over_email=False)
    game = running_game(users)
    # Nobody moves: each clock runs out, the AI takes every seat and plays to the end.
    for _ in range(10):
        game = fresh(game)
        if game.status == Game.Status.FINISHED:
            break
        clocks.sweep(now=game.deadline + timedelta(seconds=1))
    assert game.status == Game.Status.FINISHED

    over = {m.to[0]: m for m in mailoutbox if "over" in m.subject or "Ende" in m.subject}

    assert set(over) == {users[0].email, users[1].email}
    names = game.names()
    rows = list(game.results.all())
    winners = [names[row.position] for row in rows if row.placement == 1]
    english, german = over[users[0].email], over[users[1].email]
    assert english.subject.startswith(f"Game {game.pk} is over: ")
    assert " and ".join(winners) in english.subject or "you won" in english.subject
    for row in rows:
        line = f"{names[row.position]}: {row.score}"
        assert line in english.body and line in german.body
        assert f'<td align="right">{row.score}</td>' in html_of(english)
    assert f"{winners[0]}: " in english.body
    assert "(winner)" in english.body and "(Sieg)" in german.body
    assert german.subject.startswith(f"Partie {game.pk} ist zu Ende: ")
    assert "Endstand (Siegpunkte)" in german.body


# Digest --------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_daily_digest_lists_waiting_games_most_urgent_first(users, mailoutbox):
    anna, bob = users[0], users[1]
    set_profile(anna, turn_email="digest", time_zone="Europe/Berlin")
    set_profile(bob, turn_email="off")
    now = timezone.now()
    games = [running_game(users) for _ in range(5)]

    def waiting_for(game, user, deadline, since):
        position = game.seats.get(user=user).position
        Game.objects.filter(pk=game.pk).update(
            current_position=position, deadline=deadline, turn_started_at=since
        )

    waiting_for(games[0], anna, now + 2 * DAY, now - DAY)
    waiting_for(games[1], anna, now + DAY, now - timedelta(hours=1))
    waiting_for(games[2], anna, None, now - 5 * DAY)
    waiting_for(games[3], anna, None, now - DAY)
    waiting_for(games[4], bob, now + DAY, now - DAY)  # bob wants no turn email at all
    mailoutbox.clear()
    berlin = ZoneInfo("Europe/Berlin")
    today = now.astimezone(berlin).date()
    early = datetime(today.year, today.month, today.day, 6, 30, tzinfo=berlin)

    assert notifications.write_digests(now=early) == 0  # before 7 o'clock in Berlin
    with_coffee = early + timedelta(hours=1)
    notifications.write_digests(now=with_coffee)
    for pk in Notification.objects.filter(kind="digest").values_list("pk", flat=True):
        notifications.deliver(pk)

    [digest] = mailoutbox
    assert digest.to == [anna.email]
    assert digest.subject == "4 games are waiting for your move"
    order = [games[i].pk for i in (1, 0, 2, 3)]
    found = [int(n) for n in re.findall(r"^\* Game (\d+)", digest.body, flags=re.M)]
    assert found == order
    html = html_of(digest)
    assert [int(n) for n in re.findall(r">Game (\d+)</a>", html)] == order
    assert "no time limit" in digest.body
    assert digest.message()["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # One a day.
    assert notifications.write_digests(now=with_coffee + timedelta(hours=5)) == 0


# Reminder ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_reminder_at_80_percent_of_the_move_time_once_per_turn(users, mailoutbox, commit):
    set_profile(users[3], reminder_email=False)
    game = running_game(users, move_time=timedelta(hours=10))
    mailoutbox.clear()
    user = user_to_act(game)
    start = game.turn_started_at

    with commit():
        assert clocks.sweep(now=start + timedelta(hours=7, minutes=59))["reminders"] == 0
    assert not mailoutbox
    with commit():
        assert clocks.sweep(now=start + timedelta(hours=8, seconds=1))["reminders"] == 1
        assert clocks.sweep(now=start + timedelta(hours=9))["reminders"] == 0

    [reminder] = mailoutbox
    assert reminder.to == [user.email]
    assert reminder.subject == f"Reminder: your move in game {game.pk}, time is running out"
    assert "an AI player takes over your seat" in reminder.body
    assert "Play your move" in html_of(reminder)
    assert reminder.message()["List-Unsubscribe"]


@pytest.mark.django_db
def test_no_reminder_for_those_who_do_not_want_it(users, mailoutbox, commit):
    game = running_game(users, move_time=timedelta(hours=10))
    set_profile(user_to_act(game), reminder_email=False)
    mailoutbox.clear()
    with commit():
        clocks.sweep(now=game.turn_started_at + timedelta(hours=9))
    assert not mailoutbox
    assert fresh(game).reminder_at is None


# The outbox ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_row_left_behind_is_delivered_by_the_sweeper_once(users, mailoutbox, commit, monkeypatch):
    monkeypatch.setattr(notifications, "enqueue", lambda ids: None)  # crash before enqueue
    game = running_game(users)
    turn_emails(commit)
    assert not mailoutbox
    [note] = Notification.objects.filter(sent_at__isnull=True)

    assert notifications.deliver_pending() == 1
    assert notifications.deliver_pending() == 0
    assert notifications.deliver(note.pk) == "skipped"

    [message] = mailoutbox
    assert message.to == [user_to_act(game).email]


@pytest.mark.django_db
def test_a_late_turn_email_is_not_sent_once_no_game_waits_for_the_player(
    users, mailoutbox, monkeypatch
):
    monkeypatch.setattr(notifications, "enqueue", lambda ids: None)  # the worker is down
    game = running_game(users)
    first = user_to_act(game)
    notifications.write_turn_emails(now=timezone.now() + timedelta(hours=1))
    game = play_until_the_turn_passes(game)
    [note] = Notification.objects.filter(user=first)

    notifications.deliver_pending()

    note.refresh_from_db()
    assert note.last_error == "no longer their move" and note.sent_at is None
    assert not mailoutbox


@pytest.mark.django_db
def test_failed_sends_are_retried_with_backoff_then_given_up(
    users, mailoutbox, monkeypatch, admin_client
):
    def down(self, fail_silently=False):
        raise ConnectionRefusedError("provider down")

    monkeypatch.setattr(notifications, "enqueue", lambda ids: None)
    game = running_game(users)
    notifications.write_turn_emails(now=timezone.now() + timedelta(hours=1))
    [note] = Notification.objects.all()
    monkeypatch.setattr(EmailMultiAlternatives, "send", down)
    now = timezone.now()

    assert notifications.deliver(note.pk, now=now) == "failed"
    note.refresh_from_db()
    assert note.attempts == 1 and "provider down" in note.last_error
    assert note.next_attempt_at == now + timedelta(minutes=1)
    assert notifications.deliver_pending(now=now + timedelta(seconds=30)) == 0
    note.refresh_from_db()
    assert note.attempts == 1  # not yet due
    for _ in range(notifications.MAX_ATTEMPTS):
        now += timedelta(hours=1)
        notifications.deliver_pending(now=now)
    note.refresh_from_db()
    assert note.attempts == notifications.MAX_ATTEMPTS
    assert note.discarded_at is not None and note.sent_at is None
    assert not mailoutbox
    page = admin_client.get(reverse("admin:games_notification_changelist")).content.decode()
    assert "discarded" in page and "provider down" in page
    assert game.pk


# Through a real worker on Redis --------------------------------------------------------------


@contextlib.contextmanager
def celery_on(url: str):
    """This process sends tasks to ``url`` for real (not eagerly) while the block runs."""
    keys = ("broker_url", "result_backend", "task_always_eager")
    saved = {key: celery_app.conf[key] for key in keys}

    def forget_connections(close: bool):
        # kombu keeps pools per broker URL for the whole process: close only our own (on
        # Redis database 14); the usual broker's pool is still used by eager tasks later.
        if close and celery_app._pool is not None:
            celery_app._pool.force_close_all()
        celery_app._pool = None
        with contextlib.suppress(AttributeError, KeyError):
            celery_app.__dict__["amqp"]._producer_pool = None

    forget_connections(close=False)
    celery_app.conf.update(broker_url=url, result_backend=url, task_always_eager=False)
    try:
        yield
    finally:
        forget_connections(close=True)
        celery_app.conf.update(saved)


def database_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.fixture
def mail_worker(tmp_path):
    """A worker on Redis database 14 and the test database, writing email to files."""
    url = urlunsplit(urlsplit(settings.REDIS_URL)._replace(path="/14"))
    redis.Redis.from_url(url).flushdb()
    mail_dir = tmp_path / "mail"
    mail_dir.mkdir()
    log = tmp_path / "worker.log"
    # file:// plus an absolute path: dj-email-url drops the first slash of the path.
    env = project_env(REDIS_URL=url, DATABASE_URL=database_url(), EMAIL_URL=f"file:///{mail_dir}")
    worker = start_worker(env, log, "--concurrency=4")
    try:
        with celery_on(url):
            yield mail_dir
    finally:
        output = stop_worker(worker, log)
        redis.Redis.from_url(url).flushdb()
    assert "Traceback" not in output, output


def finished(*tasks, timeout: float = 60) -> None:
    """Send each (task, args) to the worker and wait until every one has run: the results are
    stored for this, though the tasks ignore theirs in production."""
    results = [task.apply_async(args, ignore_result=False) for task, args in tasks]
    for result in results:
        result.get(timeout=timeout)


def sent(note: Notification, timeout: float = 30) -> Notification:
    """Wait until the worker has sent ``note`` (its row is marked once the mail is written)."""
    deadline = time.monotonic() + timeout
    while True:
        note.refresh_from_db()
        if note.sent_at is not None:
            return note
        if time.monotonic() > deadline:
            raise AssertionError(f"notification {note.pk} was not sent within {timeout} s")
        time.sleep(0.1)


def mails(mail_dir: Path) -> list[str]:
    """The messages Django's file backend wrote, each ended by a line of 79 dashes. A file
    is named by the second and the backend object's id, so one worker process sending twice
    within a second may append both messages to one file: count messages, not files."""
    texts = "".join(path.read_text() for path in sorted(mail_dir.iterdir()))
    return [text for text in texts.split("\n" + "-" * 79 + "\n") if text.strip()]


@REAL_PROCESSES
@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_outbox_through_a_real_worker(users, mail_worker, monkeypatch):
    from games.tasks import deliver_notification, deliver_pending, send_turn_emails

    # 1. The beat's round in the worker writes the turn email; the worker delivers it once,
    # and rounds while it is unread write no other.
    game = running_game(users)
    wait_in(game, user_to_act(game), minutes=60)
    finished((send_turn_emails, ()))
    note = sent(Notification.objects.get())
    finished(*[(send_turn_emails, ())] * 3, (deliver_pending, ()))
    [text] = mails(mail_worker)
    assert f"Subject: Your move in game {game.pk}" in text
    assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in text
    assert Notification.objects.get().pk == note.pk

    # 2. A crash between commit and enqueue: the row waits; the sweeper task delivers it.
    def left_behind():
        with monkeypatch.context() as patched:
            patched.setattr(notifications, "enqueue", lambda ids: None)
            moved = play_until_the_turn_passes(fresh(game))
            wait_in(moved, user_to_act(moved), minutes=60)
            assert notifications.write_turn_emails() == 1
        return Notification.objects.get(sent_at__isnull=True)

    left = left_behind()
    assert len(mails(mail_worker)) == 1
    finished((deliver_pending, ()))
    assert sent(left, timeout=0).attempts == 1
    assert len(mails(mail_worker)) == 2

    # 3. The delivery task and the sweeper racing for one row: one email.
    row = left_behind()
    finished(*[(deliver_notification, (row.pk,)), (deliver_pending, ())] * 4)
    assert sent(row, timeout=0).attempts == 1
    assert len(mails(mail_worker)) == 3


# A vote on an absent player ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_others_are_asked_to_vote_when_a_clock_runs_out(users, mailoutbox, commit, client):
    game = running_game(users, humans=4, on_timeout="vote")
    absentee = user_to_act(game)
    voters = [u for u in users if u != absentee]
    set_profile(voters[0], language="de")
    set_profile(voters[1], turn_email="digest")
    set_profile(voters[2], turn_email="off")
    mailoutbox.clear()

    expired = fresh(game).deadline + timedelta(minutes=1)
    with commit():
        assert clocks.sweep(now=expired)["timeouts"] == 1
    with commit():
        assert clocks.sweep(now=expired + DAY)["timeouts"] == 0  # and no second mail

    by_address = {m.to[0]: m for m in mailoutbox}
    assert set(by_address) == {voters[0].email, voters[1].email}
    german, english = by_address[voters[0].email], by_address[voters[1].email]
    assert english.subject == (
        f"Game {game.pk}: {absentee.username} ran out of time, your vote is asked"
    )
    assert "the seat to an AI player for good" in english.body
    assert 'lang="de"' in html_of(german) and "Abstimmen" in html_of(german)
    assert "die Zugzeit überschritten" in german.subject
    # The link switches off turn email, which votes follow.
    client.post(unsubscribe_path(english))
    voters[1].refresh_from_db()
    assert voters[1].turn_email == "off"


@pytest.mark.django_db
def test_no_vote_email_once_the_absentee_is_back(users, mailoutbox, commit):
    game = running_game(users, humans=3, on_timeout="vote")
    absentee = user_to_act(game)
    clocks.sweep(now=fresh(game).deadline + timedelta(minutes=1))  # written, not yet sent
    play_until_the_turn_passes(game)  # back in time: the vote closes
    assert fresh(game).seat_to_act().user != absentee
    mailoutbox.clear()
    with commit():
        notifications.deliver_pending(now=timezone.now() + timedelta(minutes=5))
    assert not [m for m in mailoutbox if "vote" in m.subject]
    discarded = Notification.objects.filter(kind=Notification.Kind.VOTE)
    assert discarded.count() == 2 and all(n.discarded_at for n in discarded)
