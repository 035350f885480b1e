"""The admin is the moderation panel: raw edits are gone, every change is an action with a
reason that goes through the services (so AI turns get queued and boards update)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Move, Notification, Seat
from moderation.models import Entry
from tests.moderation.conftest import admin_action, holder, running_game

User = get_user_model()
pytestmark = pytest.mark.postgres


def moves_by(seat: Seat) -> int:
    return Move.objects.filter(seat=seat).count()


@pytest.mark.django_db(transaction=True)
def test_a_seat_handed_to_an_ai_in_the_admin_is_played_by_it(client, players, moderator):
    game = running_game(*players)
    absent = holder(game, players)
    seat = game.seat_to_act()
    before = game.version
    client.force_login(moderator)

    response = admin_action(
        client, "games_seat", "to_ai", [seat], level="medium", reason="away for weeks"
    )

    assert response.status_code == 302
    game.refresh_from_db()
    seat.refresh_from_db()
    assert seat.ai_level == Seat.AI.MEDIUM and seat.user_id == absent.pk
    assert moves_by(seat) >= 1  # the AI moved at once (the task ran after commit)
    assert game.version > before + moves_by(seat)  # and the change itself counted
    assert game.seat_to_act() != seat or game.status == Game.Status.FINISHED
    entry = Entry.objects.get()
    assert (entry.moderator, entry.action, entry.seat, entry.user) == (
        moderator,
        Entry.Action.SEAT_TO_AI,
        seat,
        absent,
    )
    assert entry.reason == "away for weeks" and entry.details == {"level": "medium"}


@pytest.mark.django_db
def test_a_player_whose_seat_an_ai_plays_is_not_offered_the_turn(client, players):
    game = running_game(*players)
    absent = holder(game, players)
    Seat.objects.filter(pk=game.seat_to_act().pk).update(
        ai_level=Seat.AI.MEDIUM, taken_over_at=timezone.now()
    )
    client.force_login(absent)

    page = client.get(game.get_absolute_url()).content.decode()

    assert "Your choice" not in page
    assert "(AI, thinking…)" in page
    assert reverse("games:poll", args=[game.pk]) in page  # their board follows the AI's moves


@pytest.mark.django_db
def test_raw_edits_of_games_seats_and_moves_are_refused(client, players, moderator):
    game = running_game(*players)
    seat = game.seat_to_act()
    client.force_login(moderator)
    game_url = reverse("admin:games_game_change", args=[game.pk])
    seat_url = reverse("admin:games_seat_change", args=[seat.pk])

    assert client.get(game_url).status_code == 200  # seen, read-only
    assert client.post(game_url, {"status": "finished", "num_players": 5}).status_code == 403
    assert client.post(seat_url, {"ai_level": "medium", "game": game.pk}).status_code == 403

    game.refresh_from_db()
    seat.refresh_from_db()
    assert (game.status, game.num_players, game.engine) == (Game.Status.RUNNING, 3, "puerto_rico")
    assert seat.ai_level == ""


@pytest.mark.django_db
def test_moves_can_never_be_deleted(client, players, admin_user):
    game = running_game(*players)
    mover = holder(game, players)
    from games import services

    services.submit_move(game.pk, {"type": "choose_role", "role": "settler"}, user=mover)
    move = Move.objects.get(game=game)
    client.force_login(admin_user)  # not even a superuser
    delete_url = reverse("admin:games_move_delete", args=[move.pk])

    assert client.post(delete_url, {"post": "yes"}).status_code == 403
    changelist = client.get(reverse("admin:games_move_changelist")).content.decode()
    assert "delete_selected" not in changelist
    client.post(
        reverse("admin:games_move_changelist"),
        {"action": "delete_selected", "_selected_action": [move.pk], "post": "yes"},
    )
    assert Move.objects.filter(pk=move.pk).exists()
    assert client.post(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403


@pytest.mark.django_db(transaction=True)
def test_deleting_a_user_in_the_admin_hands_their_seats_to_the_ai(client, players, admin_user):
    game = running_game(*players)
    leaving = holder(game, players)
    seat = game.seat_to_act()
    client.force_login(admin_user)
    url = reverse("admin:accounts_user_delete", args=[leaving.pk])

    assert client.post(url, {"post": "yes", "reason": ""}).status_code == 302  # asked again
    assert User.objects.get(pk=leaving.pk).is_active

    client.post(url, {"post": "yes", "reason": "asked us to by email"})

    leaving = User.objects.get(pk=leaving.pk)  # anonymised, not deleted
    assert not leaving.is_active and leaving.email == ""
    seat.refresh_from_db()
    assert seat.user_id == leaving.pk and seat.ai_level == Seat.AI.MEDIUM and seat.dropped
    assert moves_by(seat) >= 1  # the AI plays their turn
    entry = Entry.objects.get()
    assert (entry.action, entry.user_id, entry.reason) == (
        Entry.Action.DELETE_ACCOUNT,
        leaving.pk,
        "asked us to by email",
    )


@pytest.mark.django_db(transaction=True)
def test_cancelling_a_running_game_tells_the_players_why(client, players, moderator, mailoutbox):
    game = running_game(*players)
    before = game.version
    client.force_login(moderator)

    admin_action(client, "games_game", "cancel", [game], reason="played with a bug in the rules")

    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.version == before + 1
    assert game.deadline is None
    assert Notification.objects.filter(game=game, kind="cancelled").count() == 3
    assert sorted(m.to[0] for m in mailoutbox) == sorted(p.email for p in players)
    assert all("played with a bug in the rules" in m.body for m in mailoutbox)
    client.force_login(players[0])
    page = client.get(game.get_absolute_url()).content.decode()
    assert "This game was cancelled." in page and "played with a bug in the rules" in page
    assert 'id="board"' in page  # the last position stays on view
    assert "Your choice" not in page
    assert "Your turn" not in page and "is deciding" not in page  # nobody is to move now
    assert Entry.objects.get().action == Entry.Action.CANCEL_GAME


@pytest.mark.django_db
def test_an_action_without_a_reason_asks_for_one_and_changes_nothing(client, players, moderator):
    game = running_game(*players)
    client.force_login(moderator)

    response = admin_action(client, "games_game", "cancel", [game], reason="  ")

    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and not Entry.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_seat_goes_back_to_its_player(client, players, moderator):
    game = running_game(*players)
    absent = holder(game, players)
    seat = game.seat_to_act()
    client.force_login(moderator)
    admin_action(client, "games_seat", "to_ai", [seat], level="easy", reason="away")
    seat.refresh_from_db()
    assert seat.ai_level == Seat.AI.EASY

    admin_action(client, "games_seat", "to_person", [seat], reason="back from the hospital")

    seat.refresh_from_db()
    assert seat.ai_level == "" and not seat.dropped and seat.taken_over_at is None
    assert seat.user_id == absent.pk
    assert [e.action for e in Entry.objects.order_by("pk")] == [
        Entry.Action.SEAT_TO_AI,
        Entry.Action.SEAT_TO_PERSON,
    ]


@pytest.mark.django_db
def test_the_audit_log_is_read_only(client, players, moderator):
    game = running_game(*players)
    client.force_login(moderator)
    admin_action(client, "games_game", "cancel", [game], reason="spam game")
    entry = Entry.objects.get()
    url = reverse("admin:moderation_entry_change", args=[entry.pk])

    assert "spam game" in client.get(reverse("admin:moderation_entry_changelist")).content.decode()
    assert client.post(url, {"reason": "nothing"}).status_code == 403
    delete = reverse("admin:moderation_entry_delete", args=[entry.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    entry.refresh_from_db()
    assert entry.reason == "spam game"


@pytest.mark.django_db
def test_a_moderator_sees_the_whole_state_at_any_move(client, players, moderator):
    game = running_game(*players)
    from games import services

    mover = holder(game, players)
    services.submit_move(game.pk, {"type": "choose_role", "role": "settler"}, user=mover)
    game.refresh_from_db()
    client.force_login(moderator)
    url = reverse("admin:games_game_board", args=[game.pk])

    now = client.get(url).content.decode()
    start = client.get(url, {"v": 0}).content.decode()

    assert "<code>rng" in now  # hidden from every player, shown to moderators
    settler = "<td><code>phase</code></td><td><code>&quot;settler&quot;</code></td>"
    assert settler in now
    assert settler not in start
    assert f"{mover.username} takes the settler" in now  # the log, as players read it
    # The table drawn as at that move: the settler card taken now, free at the start.
    taken = f"<title>Settler, taken by {mover.username}"
    assert taken in now and taken not in start and "<title>Settler, free" in start
    assert client.get(url, {"v": "x"}).status_code == 400


@pytest.mark.django_db
def test_a_moderator_who_plays_in_a_running_game_may_not_see_its_board(client, players, moderator):
    game = running_game(moderator, *players[:2])
    url = reverse("admin:games_game_board", args=[game.pk])
    client.force_login(moderator)

    refused = client.get(url)

    assert refused.status_code == 403
    page = refused.content.decode()
    assert "You play in this game" in page
    assert "<code>rng" not in page
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert "<code>rng" in client.get(url).content.decode()  # once it ends, like any game


@pytest.mark.django_db
def test_a_finished_games_page_shows_its_results_and_the_list_filters_by_ending(
    client, players, moderator, django_capture_on_commit_callbacks
):
    from games import services

    with django_capture_on_commit_callbacks(execute=True):  # the AI's turns, eagerly
        game = services.create_game(
            players[0],
            engine="puerto_rico",
            num_players=2,
            ai_seats=2,
            ai_level="random",
            join=False,
        )
    cancelled = services.create_game(players[0], engine="puerto_rico", num_players=2)
    services.cancel_game(cancelled.pk, players[0])
    client.force_login(moderator)

    page = client.get(reverse("admin:games_game_change", args=[game.pk])).content.decode()
    assert page.count("an AI player of its own") == 2

    changelist = reverse("admin:games_game_changelist")
    played = client.get(changelist, {"ending": "played_out"}).context["cl"].result_list
    assert list(played) == [Game.objects.get(pk=game.pk)]
    assert list(client.get(changelist, {"ending": "cancelled"}).context["cl"].result_list) == [
        Game.objects.get(pk=cancelled.pk)
    ]
