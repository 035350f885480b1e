"""Taking back one's own decisions: allowed until someone else acts, never past a decision
that showed hidden information; an undo is a move of its own, and the replay agrees."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Move
from games.registry import get_engine
from games.signals import move_applied
from tests.replayed import replayed

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

pr = get_engine("puerto_rico")
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def users(django_user_model):
    """People without passwords (hashing one costs a tenth of a second): the tests log in
    with ``force_login``."""
    return [
        django_user_model.objects.create_user(name, f"{name}@example.org")
        for name in ("anna", "bob", "chris", "david")
    ]


@pytest.fixture
def game(users):
    """Two people, Anna and Bob, at a running game."""
    game = services.create_game(users[0], engine="puerto_rico", num_players=2)
    services.join_game(game.pk, users[1])
    return Game.objects.get(pk=game.pk)


def person(game: Game, users, position: int | None = None):
    game = Game.objects.get(pk=game.pk)
    seat = game.seats.get(position=game.current_position if position is None else position)
    return next(u for u in users if u.pk == seat.user_id)


def play(game: Game, user, action: pr.Action) -> Game:
    services.submit_move(game.pk, pr.action_to_json(action), user=user)
    return Game.objects.get(pk=game.pk)


def undo(game: Game, user, **kwargs) -> Game:
    services.undo_move(game.pk, user, **kwargs)
    return Game.objects.get(pk=game.pk)


def assert_replay_agrees(game: Game) -> None:
    assert pr.to_json(replayed(game)) == game.state


def test_a_player_takes_back_their_decisions_one_by_one_while_nobody_else_acts(game, users):
    me = person(game, users)
    start = game.state
    chosen = play(game, me, pr.ChooseRole("builder"))
    passed = play(chosen, me, pr.Pass())
    assert person(passed, users) != me  # the other player builds now; mine is still undoable
    back = undo(passed, me, expected_version=passed.version)
    assert back.state == chosen.state and back.version == passed.version + 1
    assert back.current_position == chosen.current_position
    undone = Move.objects.get(game=game, version=back.version)
    assert undone.kind == Move.Kind.UNDO and undone.action == {"undo": [passed.version]}
    assert_replay_agrees(back)
    first = undo(back, me)
    assert first.state == start
    assert_replay_agrees(first)
    with pytest.raises(services.Conflict):  # nothing of mine is left to take back
        undo(first, me)
    again = play(first, me, pr.ChooseRole("trader"))  # play on after undos: the replay agrees
    assert_replay_agrees(again)
    assert Move.objects.filter(game=game).count() == 5  # nothing was deleted


def test_no_undo_once_another_player_has_acted(game, users):
    me = person(game, users)
    game = play(play(game, me, pr.ChooseRole("builder")), me, pr.Pass())
    other = person(game, users)
    game = play(game, other, pr.Pass())
    with pytest.raises(services.Conflict, match="has already moved"):
        undo(game, me)
    assert Game.objects.get(pk=game.pk).version == game.version
    assert undo(game, other).version == game.version + 1  # the other may take theirs back


def test_no_undo_of_a_decision_that_drew_from_the_face_down_stack(game, users):
    me = person(game, users)
    game = play(game, me, pr.ChooseRole("settler"))
    face_up = pr.from_json(game.state).face_up
    game = play(game, me, pr.Settle(face_up[0]))
    other = person(game, users)
    before = pr.from_json(game.state)
    last = pr.Settle(before.face_up[0])
    assert pr.reveals(before, last)  # the last settler's choice refills the row
    game = play(game, other, last)
    with pytest.raises(services.Conflict, match="hidden information"):
        undo(game, other)
    assert Game.objects.get(pk=game.pk).version == game.version


def test_undo_through_the_page_the_board_and_the_others_poll(
    game, users, django_capture_on_commit_callbacks
):
    me = person(game, users)
    other = next(u for u in users[:2] if u != me)
    mine, theirs = Client(), Client()
    mine.force_login(me)
    theirs.force_login(other)
    game = play(play(game, me, pr.ChooseRole("builder")), me, pr.Pass())
    board = mine.get(reverse("games:board", args=[game.pk])).content.decode()
    assert "Undo my last move" in board
    assert "Undo my last move" not in theirs.get(game.get_absolute_url()).content.decode()
    seen = game.version
    announced = []

    def note(sender, **kwargs):
        announced.append(kwargs["version"])

    move_applied.connect(note)
    try:
        url = reverse("games:undo", args=[game.pk])
        with django_capture_on_commit_callbacks(execute=True):
            response = mine.post(url, {"version": seen}, **HTMX)
    finally:
        move_applied.disconnect(note)
    assert response.status_code == 200 and 'id="board"' in response.content.decode()
    assert announced == [seen + 1]
    poll = theirs.get(reverse("games:poll", args=[game.pk]) + f"?v={seen}")
    assert poll.status_code == 200 and f'data-version="{seen + 1}"' in poll.content.decode()
    stale = mine.post(url, {"version": seen})  # without htmx: back to the page with the reason
    assert stale.status_code == 303
    page = mine.get(stale.url).content.decode()
    assert "you have acted since this page was shown" in page


def test_undo_through_the_api(game, users):
    me = person(game, users)
    other = next(u for u in users[:2] if u != me)
    client = Client()
    client.force_login(me)
    game = play(game, me, pr.ChooseRole("builder"))
    url = reverse("api:undo", args=[game.pk])
    answer = client.post(url, {"version": game.version}, content_type="application/json")
    assert answer.status_code == 201
    assert answer.json()["undone"] == [game.version]
    assert answer.json()["game"]["version"] == game.version + 1
    stale = client.post(url, {"version": game.version}, content_type="application/json")
    assert stale.status_code == 409
    client.force_login(other)
    assert client.post(url, {}, content_type="application/json").status_code == 409
    bad = client.post(url, json.dumps([1]), content_type="application/json")
    assert bad.status_code == 400


def test_a_stranger_may_not_undo(game, users):
    me = person(game, users)
    play(game, me, pr.ChooseRole("builder"))
    with pytest.raises(services.Forbidden):
        undo(game, users[3])


def test_no_undo_when_the_earlier_moves_no_longer_replay(game, users):
    """A game begun before a rule was read otherwise: its stored moves may not replay under
    today's engine. The page still shows the board, without the undo button, and an undo
    is refused with the reason instead of failing."""
    me = person(game, users)
    game = play(play(game, me, pr.ChooseRole("builder")), me, pr.Pass())
    first = game.moves.order_by("version").first()
    Move.objects.filter(pk=first.pk).update(action={"type": "choose_role", "role": "banker"})
    client = Client()
    client.force_login(me)
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200 and 'id="board"' in page.content.decode()
    assert "Undo my last move" not in page.content.decode()
    with pytest.raises(services.Conflict, match="no longer replay under today's rules"):
        undo(game, me)
    answer = client.post(
        reverse("api:undo", args=[game.pk]),
        {"version": game.version},
        content_type="application/json",
    )
    assert answer.status_code == 409
    assert Game.objects.get(pk=game.pk).version == game.version  # nothing changed
    replay = client.get(reverse("games:replay", args=[game.pk]))
    assert replay.status_code == 409 and b"no longer replay" in replay.content
