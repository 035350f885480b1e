"""Hints: in a casual game a player on their turn asks what the hard AI would do; the worker
answers from the seat's own view; the other players see how many hints each one used; a
rated game offers none and refuses the question."""

import pytest
from django.test import Client
from django.urls import reverse

from analysis.models import Hint
from games import services
from games.models import Game

HTMX = {"HTTP_HX_REQUEST": "true"}
NOT_NUMBERS = ["²", "5" * 5_000, "9" * 30, "1.5", "0x1", "x", "", "a%00b", "%ED%A0%80", "%FF"]
"""As a form sends them: unicode digits, too long, past any column, not whole, not a number,
empty, NUL, a lone surrogate (its UTF-8 bytes), a byte that is no UTF-8."""


@pytest.fixture(autouse=True)
def few_playouts(settings):
    settings.ANALYSIS_SIMULATIONS = 8


@pytest.fixture
def users(django_user_model):
    return [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris")]


@pytest.fixture
def ask(django_capture_on_commit_callbacks):
    """Post the question; the task it queues after commit runs (eagerly) as the worker's."""

    def post(client, game, version):
        with django_capture_on_commit_callbacks(execute=True):
            url = reverse("analysis:hint", args=[game.pk])
            return client.post(url, {"version": version}, **HTMX)

    return post


def table(users, *, rated=False) -> Game:
    """Anna, Bob and Chris; Anna's turn (the others take the first role on offer)."""
    game = services.create_game(users[0], engine="puerto_rico", num_players=3, rated=rated)
    for user in users[1:]:
        services.join_game(game.pk, user)
    game = Game.objects.get(pk=game.pk)
    while game.seat_to_act().user_id != users[0].pk:
        player = game.seat_to_act().user
        legal = game.rules.legal_actions(game.engine_state())
        services.submit_move(
            game.pk, game.rules.action_to_json(legal[0]), user=player, expected_version=game.version
        )
        game = Game.objects.get(pk=game.pk)
    return game


def client(user) -> Client:
    c = Client(raise_request_exception=False)
    c.force_login(user)
    return c


@pytest.mark.django_db
def test_a_player_asks_on_their_turn_and_reads_the_ais_choice_with_its_estimates(users, ask):
    game = table(users)
    anna = client(users[0])
    page = anna.get(game.get_absolute_url()).content.decode()
    assert "What would the AI do?" in page

    asked = ask(anna, game, game.version)
    assert asked.status_code == 200
    assert "The AI is thinking" in asked.content.decode()  # answered after the request

    text = anna.get(reverse("analysis:hint", args=[game.pk]), **HTMX).content.decode()
    hint = Hint.objects.get()
    assert hint.answered_at is not None and 1 <= len(hint.estimates) <= 3
    wins = [e["win"] for e in hint.estimates]
    assert wins == sorted(wins, reverse=True)
    legal = [game.rules.action_to_json(a) for a in game.rules.legal_actions(game.engine_state())]
    assert all(e["action"] in legal for e in hint.estimates)
    assert "The AI would choose:" in text and "playouts" in text
    # The AI's choice is named as the board's button for it says.
    choice = text.split("The AI would choose: ")[1].split(".</strong>")[0]
    assert choice and choice in page


@pytest.mark.django_db
def test_the_other_players_see_how_many_hints_a_player_used(users, ask):
    game = table(users)
    ask(client(users[0]), game, game.version)
    page = client(users[1]).get(game.get_absolute_url()).content.decode()
    assert "anna used 1 hint" in page
    assert "What would the AI do?" not in page  # not Bob's turn


@pytest.mark.django_db
def test_the_hint_speaks_german_to_a_german_player(users, ask):
    game = table(users)
    users[0].language = "de"
    users[0].save()
    anna = client(users[0])
    ask(anna, game, game.version)
    text = anna.get(reverse("analysis:hint", args=[game.pk]), **HTMX).content.decode()
    assert "Die KI würde wählen:" in text


@pytest.mark.django_db
def test_a_rated_game_offers_no_hint_and_refuses_the_question(users):
    game = table(users, rated=True)
    anna = client(users[0])
    assert "What would the AI do?" not in anna.get(game.get_absolute_url()).content.decode()
    answer = anna.post(reverse("analysis:hint", args=[game.pk]), {"version": game.version}, **HTMX)
    assert answer.status_code == 403
    assert "rated" in answer.content.decode()
    assert not Hint.objects.exists()


@pytest.mark.django_db
def test_no_hint_off_ones_turn_nor_for_a_position_the_game_has_left(users):
    game = table(users)
    url = reverse("analysis:hint", args=[game.pk])
    off_turn = client(users[1]).post(url, {"version": game.version}, **HTMX)
    assert off_turn.status_code == 403
    stale = client(users[0]).post(url, {"version": game.version + 1}, **HTMX)
    assert stale.status_code == 409
    assert not Hint.objects.exists()


@pytest.mark.django_db
def test_asking_twice_is_one_hint(users, ask):
    game = table(users)
    anna = client(users[0])
    ask(anna, game, game.version)
    ask(anna, game, game.version)
    assert Hint.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("number", NOT_NUMBERS)
def test_a_hint_version_that_is_no_plain_number_is_a_400_and_asks_nothing(users, number):
    game = table(users)
    answer = client(users[0]).generic(
        "POST",
        reverse("analysis:hint", args=[game.pk]),
        f"version={number}",
        content_type="application/x-www-form-urlencoded",
        **HTMX,
    )
    assert answer.status_code == 400, answer.content[:200]
    assert "version" in answer.content.decode()
    assert not Hint.objects.exists()


@pytest.mark.django_db
def test_a_visitor_is_sent_to_log_in(users):
    game = table(users)
    answer = Client().post(reverse("analysis:hint", args=[game.pk]), {"version": game.version})
    assert answer.status_code == 302 and "login" in answer["Location"]
    assert not Hint.objects.exists()
