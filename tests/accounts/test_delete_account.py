"""Deleting an account anonymises it and keeps every game it was in playable."""

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model

from games import services
from games.models import Game, Move, Seat
from tests.accounts.conftest import PASSWORD, log_in
from tests.replayed import replayed

User = get_user_model()


def verified(name: str):
    user = User.objects.create_user(name, f"{name}@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def running_game(creator, *others) -> Game:
    game = services.create_game(creator, engine="puerto_rico", num_players=1 + len(others))
    for user in others:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def holder_of_turn(game, users):
    seat = game.seat_to_act()
    return next(u for u in users if u.pk == seat.user_id)


def delete(client, user, password=PASSWORD):
    log_in(client, user.username)
    return client.post("/accounts/delete/", {"password": password})


@pytest.mark.django_db
def test_the_delete_page_asks_for_the_password_and_a_wrong_one_changes_nothing(client):
    anna = verified("anna")
    log_in(client, "anna")
    page = client.get("/accounts/delete/").content.decode()
    assert 'type="password"' in page and "AI player takes over" in page

    response = client.post("/accounts/delete/", {"password": "not-it"})

    assert response.status_code == 200
    assert "That is not your password." in response.content.decode()
    anna.refresh_from_db()
    assert anna.is_active and anna.username == "anna"
    assert client.get("/accounts/profile/").status_code == 200  # still logged in


@pytest.mark.django_db
def test_deleting_anonymises_the_account_and_logs_out(client, mailoutbox):
    anna = verified("anna")
    log_in(client, "anna")
    Authenticator.objects.create(user=anna, type=Authenticator.Type.TOTP, data={"secret": "x"})

    response = client.post("/accounts/delete/", {"password": PASSWORD})

    assert response["Location"] == "/accounts/deleted/"
    assert "Thank you for playing" in client.get(response["Location"]).content.decode()
    anna.refresh_from_db()
    assert anna.username == f"deleted-{anna.pk}"
    assert anna.email == ""
    assert anna.display_name == anna.public_name == "a former player"
    assert not anna.has_usable_password()
    assert not anna.is_active
    assert not EmailAddress.objects.filter(user=anna).exists()
    assert not Authenticator.objects.filter(user=anna).exists()
    assert "_auth_user_id" not in client.session
    assert log_in(client, "anna").status_code == 200
    assert log_in(client, "anna@example.org").status_code == 200
    assert "_auth_user_id" not in client.session
    # The name and the address are free for someone new.
    signup = client.post(
        "/accounts/signup/",
        {
            "username": "anna",
            "email": "anna@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert signup["Location"] == "/accounts/confirm-email/"
    assert User.objects.filter(username="anna", is_active=True).exists()


@pytest.mark.django_db(transaction=True)
def test_running_seats_go_to_the_ai_which_plays_on_and_open_seats_are_freed(client):
    anna, bob, chris = verified("anna"), verified("bob"), verified("chris")
    game = running_game(bob, anna, chris)
    mover = holder_of_turn(game, [anna, bob, chris])
    others = [u for u in (anna, bob, chris) if u != mover]
    for _ in range(30):  # a game where someone else is to act (seating is drawn at random)
        waiting = running_game(others[0], mover, others[1])
        if waiting.seat_to_act().user_id != mover.pk:
            break
        Game.objects.filter(pk=waiting.pk).update(status=Game.Status.ABORTED)
    waiting_version = waiting.version
    joined = services.create_game(others[0], engine="puerto_rico", num_players=4)
    services.join_game(joined.pk, mover)
    alone = services.create_game(mover, engine="puerto_rico", num_players=3)
    finished = running_game(mover, *others)
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)
    version = game.version

    response = delete(client, mover)
    assert response["Location"] == "/accounts/deleted/"

    # The running game where it was their move: the AI took the seat and played it.
    seat = Seat.objects.get(game=game, user=mover)
    assert seat.ai_level == Seat.AI.MEDIUM and seat.taken_over and seat.dropped
    assert seat.name == "a former player"
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert game.version > version
    ai_moves = Move.objects.filter(game=game, seat=seat, version__gt=version)
    assert ai_moves.exists() and all(m.actor is None and not m.forced for m in ai_moves)
    assert game.seat_to_act() != seat
    assert game.rules.to_json(replayed(game)) == game.state

    # The running game where someone else is to act: the seat is handed over, nothing played;
    # the version moves on so that the others' open boards show the AI in the seat.
    seat = Seat.objects.get(game=waiting, user=mover)
    assert seat.is_ai
    waiting.refresh_from_db()
    assert waiting.version == waiting_version + 1
    assert not Move.objects.filter(game=waiting, version__gt=waiting_version).exists()

    # Open games: the seat is freed; a game with nobody else left is called off.
    assert not Seat.objects.filter(game=joined, user=mover).exists()
    assert Game.objects.get(pk=joined.pk).status == Game.Status.OPEN
    assert Game.objects.get(pk=alone.pk).status == Game.Status.ABORTED

    # A finished game keeps its seat as it was, under the anonymous name.
    seat = Seat.objects.get(game=finished, user=mover)
    assert not seat.is_ai and seat.name == "a former player"
