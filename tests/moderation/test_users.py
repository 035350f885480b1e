"""Warn, mute, suspend, ban: a suspended or banned user is refused at every way in, and the
games they sit in go on without them."""

import base64
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import services as games
from games.models import Game, Notification, Seat
from moderation import services
from moderation.models import Entry, Standing
from tests.moderation.conftest import PASSWORD, admin_action, holder, running_game

User = get_user_model()
pytestmark = pytest.mark.postgres


def log_in(client, login, password=PASSWORD):
    return client.post("/accounts/login/", {"login": login, "password": password})


def basic(user, password=PASSWORD) -> APIClient:
    token = base64.b64encode(f"{user.username}:{password}".encode()).decode()
    return APIClient(HTTP_AUTHORIZATION=f"Basic {token}")


@pytest.mark.django_db(transaction=True)
def test_a_suspended_user_is_kept_out_and_their_games_go_on(client, players, moderator):
    game = running_game(*players)
    suspended = holder(game, players)
    seat = game.seat_to_act()
    waiting = games.create_game(suspended, engine="puerto_rico", num_players=4)  # not started yet
    session = APIClient()
    session.force_login(suspended)
    client.force_login(moderator)

    admin_action(client, "accounts_user", "suspend", [suspended], days=3, reason="insults")

    standing = Standing.objects.get(user=suspended)
    assert standing.barred() and standing.reason == "insults"
    seat.refresh_from_db()
    assert seat.ai_level == Seat.AI.MEDIUM and seat.taken_over and not seat.dropped
    assert Game.objects.get(pk=game.pk).seat_to_act() != seat  # the AI moved for them
    waiting.refresh_from_db()
    assert waiting.status == Game.Status.ABORTED  # their seat freed; nobody was left
    # Every way in refuses them: the login form (saying why), the API, their open session.
    response = log_in(client.__class__(), suspended.username)
    assert response.status_code == 200
    assert "Your account is suspended until" in response.content.decode()
    assert "insults" in response.content.decode()
    assert basic(suspended).get(reverse("api:games")).status_code in (401, 403)
    assert session.get(reverse("api:games")).status_code in (401, 403)
    assert Entry.objects.get().action == Entry.Action.SUSPEND


@pytest.mark.django_db
def test_a_wrong_password_does_not_reveal_a_suspension(client, players, moderator):
    services.ban(moderator, players[1], "cheating")

    page = log_in(client, "bob", "not-the-password").content.decode()

    assert "banned" not in page and "cheating" not in page


@pytest.mark.django_db
def test_a_banned_user_is_told_so_and_the_end_of_a_suspension_lets_them_in(
    client, players, moderator
):
    anna, bob, _ = players
    services.ban(moderator, bob, "cheating")
    services.suspend(moderator, anna, timedelta(days=1), "spam")

    assert "Your account is banned. The reason: cheating" in log_in(client, "bob").content.decode()
    assert basic(bob).get(reverse("api:games")).status_code in (401, 403)

    assert "Your account is suspended until" in log_in(client, "anna").content.decode()
    ended = timezone.now() - timedelta(minutes=1)
    Standing.objects.filter(user=anna).update(suspended_until=ended)
    assert log_in(client, "anna").status_code == 302  # in again


@pytest.mark.django_db
def test_reinstating_lets_a_banned_user_in_again(client, players, moderator):
    bob = players[1]
    services.ban(moderator, bob, "cheating")
    services.reinstate(moderator, bob, "it was his brother")

    assert log_in(client, "bob").status_code == 302
    assert basic(bob).get(reverse("api:games")).status_code == 200


@pytest.mark.django_db
def test_a_warning_is_emailed_and_a_mute_is_flagged(players, moderator):
    bob = players[1]
    entry = services.warn(moderator, bob, "mind your language")
    services.mute(moderator, bob, "again")

    note = Notification.objects.get(user=bob)
    assert note.kind == Notification.Kind.WARNING and note.payload["reason"] == entry.reason
    assert Standing.objects.get(user=bob).muted
    assert not Standing.objects.get(user=bob).barred()


@pytest.mark.django_db
def test_every_action_needs_a_reason_and_a_moderator(players, moderator, staff):
    game = running_game(*players)
    for reason in ("", "   "):
        with pytest.raises(games.GameError, match="reason is required"):
            services.cancel_game(moderator, game.pk, reason)
    with pytest.raises(games.Forbidden):
        services.ban(staff, players[0], "no reason needed?")
    with pytest.raises(games.Forbidden):
        services.seat_to_ai(players[0], game.seat_to_act().pk, "medium", "I want an AI")
    with pytest.raises(games.GameError):
        services.suspend(moderator, players[0], timedelta(0), "zero days")
    assert not Entry.objects.exists() and not Standing.objects.exists()
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING


@pytest.mark.django_db
def test_a_seat_is_not_given_back_to_a_suspended_or_banned_player(players, moderator):
    game = running_game(*players)
    seat = game.seat_to_act()
    services.ban(moderator, holder(game, players), "cheating")

    with pytest.raises(games.GameError, match="suspended or banned"):
        services.seat_to_person(moderator, seat.pk, "by mistake")

    seat.refresh_from_db()
    assert seat.ai_level == Seat.AI.MEDIUM and seat.dropped
