"""Race to 21 plays through every part of the platform — lobby, board page, API, undo, replay,
export and import, its AI players — with nothing of it outside this package: the platform
reads a game only through its ``GameSpec``."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import registry, services
from games.models import Game, Move, Seat

from . import GAME, engine

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def on_the_shelf():
    registry.register(GAME)
    yield
    registry.unregister(GAME.name)


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(name, password="pw") for name in ("ann", "ben")]


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def race(users, **arguments) -> Game:
    """A game of two people, or of ``users[0]`` and AI players (``ai_levels``)."""
    game = services.create_game(users[0], engine="race", num_players=2, **arguments)
    if game.status == Game.Status.OPEN:
        services.join_game(game.pk, users[1])
    return Game.objects.get(pk=game.pk)


def to_act(game: Game, users):
    seat = Game.objects.with_seats().get(pk=game.pk).seat_to_act()
    return next(u for u in users if u.pk == seat.user_id)


def post_move(game: Game, user, action: dict):
    """The move as a player's board form posts it."""
    game.refresh_from_db()
    data = {"version": game.version, "action": json.dumps(action)}
    return client_of(user).post(reverse("games:move", args=[game.pk]), data, **HTMX)


def test_the_lobby_offers_the_game_with_its_option_and_opens_it(users):
    client = client_of(users[0])
    lobby = client.get(reverse("games:lobby"), {"game": "race"}).content.decode()
    assert "Race to 21" in lobby and 'name="option_target"' in lobby
    assert reverse("games:rules", args=["race"]) in lobby
    answer = client.post(
        reverse("games:lobby"),
        {"game": "race", "num_players": "2", "seat_2": "medium", "option_target": "31"},
    )
    game = Game.objects.get(creator=users[0])
    assert answer.status_code == 302 and answer.url == game.get_absolute_url()
    assert game.engine == "race" and game.options == {"target": 31}
    assert game.engine_state()["target"] == 31
    rules = client.get(reverse("games:rules", args=["race"]))
    assert rules.status_code == 200 and "Race to 21" in rules.content.decode()


def test_the_board_shows_each_player_their_own_hand_only(users):
    game = race(users)
    state = game.engine_state()
    for seat in Game.objects.with_seats().get(pk=game.pk).seats.all():
        user = next(u for u in users if u.pk == seat.user_id)
        page = client_of(user).get(game.get_absolute_url()).content.decode()
        hand = ", ".join(str(card) for card in state["hands"][seat.position])
        assert page.count("Your hand:") == 1 and f"Your hand: {hand}</p>" in page
        assert "Race to 21" in page
    spectator = Client().get(game.get_absolute_url()).content.decode()
    assert 'class="race-scores"' in spectator and "Your hand" not in spectator


def test_a_move_from_the_board_form_is_stored_and_logged(users):
    game = race(users)
    mover = to_act(game, users)
    card = max(game.engine_state()["hands"][game.current_position])
    answer = post_move(game, mover, {"type": "play", "card": card})
    assert answer.status_code == 200
    move = Move.objects.get(game=game)
    assert move.action == {"type": "play", "card": card} and move.actor == mover
    log = client_of(users[0]).get(reverse("games:log", args=[game.pk])).content.decode()
    assert f"{mover.public_name} plays a {card}." in log
    refused = post_move(game, to_act(game, users), {"type": "play", "card": 7})
    assert refused.status_code == 400 and "that is not an action of this game" in (
        refused.content.decode()
    )


def test_the_api_reads_the_seat_view_and_takes_moves(users):
    game = race(users)
    mover = to_act(game, users)
    client = client_of(mover)
    document = client.get(reverse("api:game", args=[game.pk])).json()
    assert document["engine"] == "race" and document["you"] == game.current_position
    assert "hands" not in document["view"] and "deck" not in document["view"]
    assert document["view"]["hand"] == game.engine_state()["hands"][game.current_position]
    action = document["legal_actions"][0]
    answer = client.post(
        reverse("api:moves", args=[game.pk]),
        {"action": action, "version": document["version"]},
        content_type="application/json",
    )
    assert (
        answer.status_code == 201
        and answer.json()["move"]["events"][0]["seat"] == (document["you"])
    )


def test_a_played_card_is_taken_back_but_a_drawn_one_is_not(users):
    game = race(users)
    mover = to_act(game, users)
    hand = game.engine_state()["hands"][game.current_position]
    post_move(game, mover, {"type": "play", "card": hand[0]})
    board = client_of(mover).get(reverse("games:board", args=[game.pk])).content.decode()
    assert "Undo my last move" in board
    services.undo_move(game.pk, mover)
    game.refresh_from_db()
    assert game.engine_state()["hands"][game.current_position] == hand and game.version == 2
    assert post_move(game, mover, {"type": "draw"}).status_code == 200
    with pytest.raises(services.Conflict, match="hidden information"):
        services.undo_move(game.pk, mover)


def play_out(game: Game, users) -> Game:
    """Every seat plays its first legal action until the game ends."""
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.RUNNING:
            return game
        action = engine.legal_actions(game.engine_state())[0]
        services.submit_move(
            game.pk, action, user=to_act(game, users), expected_version=game.version
        )


def test_a_finished_game_replays_exports_and_imports(users):
    game = play_out(race(users), users)
    assert game.status == Game.Status.FINISHED
    client = client_of(users[0])
    step = client.get(reverse("games:replay", args=[game.pk]), {"step": 1})
    assert step.status_code == 200 and " plays a " in step.content.decode()
    exported = client.get(reverse("games:export", args=[game.pk])).json()
    assert exported["engine"] == "race"
    answer = client_of(users[1]).post(
        reverse("api:import"), exported, content_type="application/json"
    )
    assert answer.status_code == 201
    imported = Game.objects.get(pk=answer.json()["id"])
    assert imported.imported and imported.state == game.state
    page = client.get(imported.get_absolute_url())
    assert page.status_code == 200 and "Game over." in page.content.decode()


def test_its_ai_players_finish_a_game_against_each_other(users, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            users[0], engine="race", num_players=2, join=False, ai_levels=["random", "medium"]
        )
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    seats = Seat.objects.filter(game=game)
    assert {s.ai_level for s in seats} == {"random", "medium"}
    assert Move.objects.filter(game=game, actor__isnull=True).count() == game.version
