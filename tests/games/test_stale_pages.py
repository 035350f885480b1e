"""A page that no longer shows the game as it is: the board keeps watching the version on the
viewer's turn too, a board swapped under a player says what happened, a refused stale click
names who acted, and undo is offered only while it can work."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Seat
from games.registry import get_engine

pr = get_engine("puerto_rico")
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris")]


def two_people(users) -> Game:
    game = services.create_game(users[0], engine="puerto_rico", num_players=2)
    services.join_game(game.pk, users[1])
    return Game.objects.get(pk=game.pk)


def person_to_act(game: Game, users):
    game = Game.objects.get(pk=game.pk)
    return next(u for u in users if u.pk == game.seat_to_act().user_id)


def client(user) -> Client:
    logged_in = Client()
    logged_in.force_login(user)
    return logged_in


def move(game: Game, user, action: pr.Action) -> Game:
    services.submit_move(game.pk, pr.action_to_json(action), user=user)
    return Game.objects.get(pk=game.pk)


def the_first_builds_nothing(users) -> tuple[Game, object, object]:
    """A game of two in which the first player chose the builder and built nothing: the game,
    that player, and the second, now to build."""
    game = two_people(users)
    first = person_to_act(game, users)
    game = move(move(game, first, pr.ChooseRole("builder")), first, pr.Pass())
    second = person_to_act(game, users)
    assert second != first
    return game, first, second


def poll_url(game: Game, seen: int) -> str:
    return reverse("games:poll", args=[game.pk]) + f"?v={seen}"


@pytest.mark.django_db
def test_the_board_watches_the_game_version_on_your_turn_too(users):
    game = two_people(users)
    board = client(person_to_act(game, users)).get(game.get_absolute_url()).content.decode()
    assert 'data-your-move="true"' in board
    assert f'hx-get="{poll_url(game, game.version)}' in board


@pytest.mark.django_db
def test_a_board_swapped_on_your_turn_says_who_took_back_a_move(users):
    game, first, second = the_first_builds_nothing(users)
    seen = game.version
    page = client(second).get(game.get_absolute_url()).content.decode()
    assert 'data-your-move="true"' in page and f"{poll_url(game, seen)}&amp;turn=1" in page

    services.undo_move(game.pk, first, expected_version=seen)
    answer = client(second).get(poll_url(game, seen) + "&turn=1").content.decode()
    assert f"{first.public_name} took back a move" in answer
    assert 'data-your-move="false"' in answer


@pytest.mark.django_db
def test_a_stale_click_after_an_undo_says_who_took_back_a_move(users):
    game, first, second = the_first_builds_nothing(users)
    seen = game.version
    services.undo_move(game.pk, first, expected_version=seen)
    posted = {"version": seen, "action": '{"type": "pass"}'}
    response = client(second).post(reverse("games:move", args=[game.pk]), posted, **HTMX)
    assert response.status_code == 409
    text = response.content.decode()
    assert f"{first.public_name} took back a move" in text and 'id="board"' in text
    assert "it is not your turn</p>" not in text


@pytest.mark.django_db
def test_a_stale_click_after_another_players_move_names_them(users):
    game = two_people(users)
    first = person_to_act(game, users)
    seen = game.version
    game = move(game, first, pr.ChooseRole("builder"))
    with pytest.raises(services.Conflict, match=f"{first.public_name} has moved"):
        services.submit_move(
            game.pk,
            {"type": "pass"},
            user=users[1] if first == users[0] else users[0],
            expected_version=seen,
        )


@pytest.mark.django_db
def test_no_undo_is_offered_while_an_ai_player_is_about_to_move(users):
    for seed in range(1, 50):  # seating follows the seed: the first that makes Anna governor
        game = services.create_game(users[0], engine="puerto_rico", num_players=2)
        Game.objects.filter(pk=game.pk).update(seed=seed)
        services.add_ai(game.pk, users[0], Seat.AI.EASY)
        game = Game.objects.get(pk=game.pk)
        if game.seat_to_act().user_id == users[0].pk:
            break
    me = users[0]
    game = move(game, me, pr.ChooseRole("trader"))
    while game.seat_to_act().user_id == me.pk:
        game = move(game, me, pr.Pass())
    assert game.seat_to_act().is_ai  # and it has not moved yet (no worker in this test)
    board = client(me).get(reverse("games:board", args=[game.pk])).content.decode()
    assert "Undo my last move" not in board


@pytest.mark.django_db
def test_an_undo_after_the_next_player_moved_says_they_have_moved(users):
    game = two_people(users)
    first = person_to_act(game, users)
    game = move(game, first, pr.ChooseRole("builder"))
    while game.seat_to_act().user_id == first.pk:
        game = move(game, first, pr.Pass())
    second = person_to_act(game, users)
    game = move(game, second, pr.Pass())
    with pytest.raises(services.Conflict, match=f"{second.public_name} has already moved"):
        services.undo_move(game.pk, first)
