"""Lobby, my games, the game page, polling and the move endpoint, as a browser would use them."""

import json
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game, Move
from games.registry import get_engine

pr = get_engine("puerto_rico")
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def users(django_user_model):
    return [
        django_user_model.objects.create_user(name, password="pw")
        for name in ("anna", "bob", "chris", "david")
    ]


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def running_game(users, n=3):
    game = services.create_game(users[0], engine="puerto_rico", num_players=n)
    for user in users[1:n]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def to_act(game, users):
    seat = Game.objects.get(pk=game.pk).seat_to_act()
    return next(u for u in users if u.pk == seat.user_id)


def post_move(client, game, action, version=None, csrfmiddlewaretoken=None, **extra):
    data = {"version": game.version if version is None else version, "action": json.dumps(action)}
    if csrfmiddlewaretoken is not None:
        data["csrfmiddlewaretoken"] = csrfmiddlewaretoken
    return client.post(reverse("games:move", args=[game.pk]), data, **extra)


@pytest.mark.django_db
def test_the_lobby_needs_a_login_and_opens_a_game(users):
    url = reverse("games:lobby")
    assert Client().get(url).status_code == 302
    client = client_for(users[0])
    page = client.get(url)
    assert page.status_code == 200 and "Open a new game" in page.content.decode()
    response = client.post(
        url, {"num_players": 4, "seat_2": "medium", "seat_3": "medium", "option_hidden_vp": "on"}
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert game.num_players == 4 and game.seats.filter(ai_level="medium").count() == 2
    assert game.options == {"hidden_vp": True, "edition": "base"}


@pytest.mark.django_db
def test_each_ai_seat_gets_the_level_chosen_for_it(users):
    client = client_for(users[0])
    page = client.get(reverse("games:lobby")).content.decode()
    for number in (2, 3, 4, 5):
        assert f'<label for="id_seat_{number}">Seat {number}</label>' in page
    client.post(
        reverse("games:lobby"),
        {"num_players": 5, "seat_2": "easy", "seat_4": "hard", "seat_5": "random"},
    )
    game = Game.objects.get()
    assert sorted(game.seats.values_list("ai_level", flat=True)) == ["", "easy", "hard", "random"]
    assert game.status == Game.Status.OPEN  # seat 3 waits for a person
    assert game.move_time == timedelta(days=3)  # people play: the standard clock


@pytest.mark.django_db
def test_a_game_against_ai_players_only_has_no_move_clock_unless_one_is_chosen(users):
    client = client_for(users[0])
    client.post(reverse("games:lobby"), {"num_players": 3, "seat_2": "easy", "seat_3": "hard"})
    client.post(
        reverse("games:lobby"),
        {"num_players": 3, "seat_2": "easy", "seat_3": "hard", "move_time": 86400},
    )
    standard, chosen = Game.objects.order_by("pk")
    assert standard.status == Game.Status.RUNNING and standard.move_time is None
    assert standard.deadline is None
    assert chosen.move_time == timedelta(days=1)


@pytest.mark.django_db
def test_seats_beyond_the_number_of_players_are_left_out(users):
    client_for(users[0]).post(
        reverse("games:lobby"), {"num_players": 3, "seat_2": "easy", "seat_4": "hard"}
    )
    game = Game.objects.get()
    assert sorted(game.seats.values_list("ai_level", flat=True)) == ["", "easy"]


@pytest.mark.django_db
def test_a_bad_new_game_form_is_a_form_error_and_creates_nothing(users):
    client = client_for(users[0])
    response = client.post(reverse("games:lobby"), {"num_players": 3, "seat_2": "grandmaster"})
    assert response.status_code == 400
    assert "Select a valid choice. grandmaster is not one of the available choices." in (
        response.content.decode()
    )
    response = client.post(reverse("games:lobby"), {"num_players": 9})
    assert response.status_code == 400
    response = client.post(reverse("games:lobby"), {"num_players": 3, "move_time": "soon"})
    assert response.status_code == 400 and "soon is not one of the available" in (
        response.content.decode()
    )
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_five_player_chip_option_applies_only_to_five_players(users):
    client = client_for(users[0])
    client.post(reverse("games:lobby"), {"num_players": 5, "ai_seats": 0, "option_vp_chips": 126})
    client.post(reverse("games:lobby"), {"num_players": 3, "ai_seats": 0, "option_vp_chips": 126})
    five, three = Game.objects.order_by("num_players").reverse()
    assert five.options["vp_chips"] == 126 and "vp_chips" not in three.options


@pytest.mark.django_db
def test_join_by_invitation_link_and_the_game_starts_when_full(users):
    game = services.create_game(users[0], engine="puerto_rico", num_players=3, ai_seats=1)
    invite = reverse("games:invite", args=[game.invite_code])
    page = Client().get(invite)
    assert page.status_code == 200 and "Take a seat" in page.content.decode()
    assert Client().post(invite).status_code == 302  # to the login page
    response = client_for(users[1]).post(invite)
    assert response.status_code == 303
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert game.seats.filter(user=users[1]).exists()


@pytest.mark.django_db
def test_seat_management_on_the_game_page(users):
    game = services.create_game(users[0], engine="puerto_rico", num_players=4)
    owner, other = client_for(users[0]), client_for(users[1])
    page = owner.get(game.get_absolute_url()).content.decode()
    assert game.invite_code in page and "Add an AI player" in page
    other.post(reverse("games:join", args=[game.pk]))
    assert game.seats.count() == 2
    assert other.post(reverse("games:add_ai", args=[game.pk])).status_code == 303
    assert game.seats.count() == 2  # only the creator adds AI players
    owner.post(reverse("games:add_ai", args=[game.pk]))
    ai = game.seats.get(ai_level="medium")
    owner.post(reverse("games:remove_seat", args=[game.pk, ai.pk]))
    other.post(reverse("games:leave", args=[game.pk]))
    assert game.seats.count() == 1
    owner.post(reverse("games:cancel", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


@pytest.mark.django_db
def test_my_games_lists_the_games_waiting_for_my_move_first(users):
    waiting = running_game(users)
    me = to_act(waiting, users)
    other = running_game(users, n=4)
    if other.seat_to_act().user_id == me.pk:
        services.submit_move(other.pk, {"type": "choose_role", "role": "prospector"}, user=me)
    assert Game.objects.get(pk=other.pk).seat_to_act().user_id != me.pk
    page = client_for(me).get(reverse("games:mine")).content.decode()
    assert page.count("Your move") == 1
    assert page.index(f"Game {waiting.pk}<") < page.index(f"Game {other.pk}<")


@pytest.mark.django_db
def test_the_game_page_renders_within_nine_queries(users, django_assert_max_num_queries):
    """Nine with the game's hints (``analysis.board``)."""
    game = running_game(users)
    client = client_for(to_act(game, users))
    with django_assert_max_num_queries(9):
        response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    assert 'id="board"' in response.content.decode()


@pytest.mark.django_db
def test_polling_an_unchanged_game_is_one_query_and_no_body(users, django_assert_num_queries):
    game = running_game(users)
    client = Client()
    url = reverse("games:poll", args=[game.pk]) + f"?v={game.version}"
    with django_assert_num_queries(1):
        response = client.get(url)
    assert response.status_code == 204 and response.content == b""
    changed = client.get(reverse("games:poll", args=[game.pk]) + "?v=999")
    assert changed.status_code == 200 and 'id="board"' in changed.content.decode()
    assert client.get(reverse("games:poll", args=[game.pk]) + "?v=x").status_code == 400


@pytest.mark.django_db
def test_a_legal_move_by_htmx_returns_the_new_board(users):
    game = running_game(users)
    client = client_for(to_act(game, users))
    response = post_move(client, game, {"type": "choose_role", "role": "builder"}, **HTMX)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.version >= 1
    assert f'data-version="{game.version}"' in response.content.decode()
    assert "takes the builder" in response.content.decode()


@pytest.mark.django_db
def test_the_board_after_a_move_shows_the_forced_moves_played_with_it(users):
    """At the start of a 3-player game, once the mayor has placed, the two others each have a
    single placement: the site plays them, and the board answered shows the game after them."""
    game = running_game(users)
    mayor = to_act(game, users)
    client = client_for(mayor)
    post_move(client, game, {"type": "choose_role", "role": "mayor"}, **HTMX)
    game.refresh_from_db()
    placement = pr.action_to_json(pr.legal_actions(game.engine_state())[0])

    response = post_move(client, game, placement, **HTMX)

    assert response.status_code == 200
    forced = Move.objects.filter(game=game, forced=True)
    assert forced.count() == 2 and not forced.filter(seat__user=mayor).exists()
    game.refresh_from_db()
    assert game.version == 4 and game.seat_to_act().user != mayor
    page = response.content.decode()
    assert f'data-version="{game.version}"' in page
    assert 'name="action"' not in page  # nothing to decide for the mayor now


@pytest.mark.django_db
def test_a_plain_form_post_redirects_back_to_the_game(users):
    game = running_game(users)
    client = client_for(to_act(game, users))
    response = post_move(client, game, {"type": "choose_role", "role": "builder"})
    assert response.status_code == 303 and response.url.startswith(game.get_absolute_url())
    assert Move.objects.filter(game=game).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "case, status, message",
    [
        ("stale", 409, "moved on"),
        ("not your turn", 409, "not your turn"),
        ("no seat", 403, "no seat"),
        ("illegal", 400, "a role must be chosen"),
        ("malformed", 400, "the action is not valid JSON"),
        ("no version", 400, "the move does not say which version of the game you saw"),
        ("anonymous", 403, "log in"),
    ],
)
def test_forged_or_stale_moves_are_refused_and_change_nothing(users, case, status, message):
    game = running_game(users)
    actor = to_act(game, users)
    bystander = next(u for u in users[:3] if u != actor)
    action = {"type": "choose_role", "role": "builder"}
    url = reverse("games:move", args=[game.pk])
    client = client_for(actor)
    if case == "stale":
        response = post_move(client, game, action, version=game.version + 1, **HTMX)
    elif case == "not your turn":
        response = post_move(client_for(bystander), game, action, **HTMX)
    elif case == "no seat":
        response = post_move(client_for(users[3]), game, action, **HTMX)
    elif case == "illegal":
        response = post_move(client, game, {"type": "pass"}, **HTMX)
    elif case == "malformed":
        response = client.post(url, {"version": 0, "action": "{not json"}, **HTMX)
    elif case == "no version":
        response = client.post(url, {"action": json.dumps(action)}, **HTMX)
    else:
        response = post_move(Client(), game, action, **HTMX)
    assert response.status_code == status
    assert message in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == 0
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_an_oversized_move_is_refused(users):
    game = running_game(users)
    client = client_for(to_act(game, users))
    response = client.post(
        reverse("games:move", args=[game.pk]), {"version": 0, "action": "x" * 20_000}, **HTMX
    )
    assert response.status_code == 413
    assert Game.objects.get(pk=game.pk).version == 0


@pytest.mark.django_db
def test_a_move_is_only_ever_posted(users):
    game = running_game(users)
    client = client_for(to_act(game, users))
    response = client.get(reverse("games:move", args=[game.pk]), **HTMX)
    assert response.status_code == 405
    assert Game.objects.get(pk=game.pk).version == 0


@pytest.mark.django_db
def test_moves_need_the_csrf_token(users):
    game = running_game(users)
    client = Client(enforce_csrf_checks=True)
    client.force_login(to_act(game, users))
    response = post_move(client, game, {"type": "choose_role", "role": "builder"})
    assert response.status_code == 403
    assert Game.objects.get(pk=game.pk).version == 0


def page_token(client, game) -> str:
    """The CSRF token of the board's move form, as the game page shows it."""
    page = client.get(game.get_absolute_url()).content.decode()
    board = page[page.index('id="board"') :]
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', board).group(1)


@pytest.mark.django_db
def test_a_move_posted_as_a_multipart_form_with_the_pages_token_is_played(users):
    """The CSRF check reads such a form from the stream, so the view must not ask for the raw
    body again (it answered 500)."""
    game = running_game(users)
    client = Client(enforce_csrf_checks=True)
    client.force_login(to_act(game, users))
    token = page_token(client, game)
    response = post_move(
        client, game, {"type": "choose_role", "role": "builder"}, csrfmiddlewaretoken=token
    )
    assert response.status_code == 303
    assert Game.objects.get(pk=game.pk).version == 1


@pytest.mark.django_db
def test_spectators_see_the_public_board_without_forms(users):
    game = running_game(users)
    page = Client().get(game.get_absolute_url()).content.decode()
    assert 'id="board"' in page
    assert 'name="action"' not in page
    assert reverse("games:move", args=[game.pk]) not in page


@pytest.mark.django_db
def test_the_full_log_page_lists_every_move(users):
    game = running_game(users)
    actor = to_act(game, users)
    services.submit_move(game.pk, {"type": "choose_role", "role": "builder"}, user=actor)
    page = Client().get(reverse("games:log", args=[game.pk])).content.decode()
    assert f"{actor.username} takes the builder" in page


@pytest.mark.django_db
def test_the_waiting_room_polls_its_seats_and_reloads_once_the_game_starts(users):
    game = services.create_game(users[0], engine="puerto_rico", num_players=3)
    url = reverse("games:seats", args=[game.pk])
    waiting = client_for(users[0]).get(url)
    assert waiting.status_code == 200 and "Seats (1 of 3)" in waiting.content.decode()
    services.join_game(game.pk, users[1])
    assert "Seats (2 of 3)" in client_for(users[0]).get(url).content.decode()
    services.join_game(game.pk, users[2])
    started = client_for(users[0]).get(url)
    assert started.status_code == 204 and started.headers["HX-Refresh"] == "true"


@pytest.mark.django_db
def test_messages_show_on_any_page(users):
    client = client_for(users[1])
    game = services.create_game(users[0], engine="puerto_rico", num_players=3)
    client.post(reverse("games:add_ai", args=[game.pk]))  # refused: not the creator
    page = client.get(reverse("games:mine")).content.decode()
    assert "only the player who opened the game may do this" in page


@pytest.mark.django_db
def test_the_lobby_offers_two_players_and_they_choose_roles_alternately(users):
    anna, bob = users[:2]
    client = client_for(anna)
    page = client.get(reverse("games:lobby")).content.decode()
    assert re.search(r'<option value="2"[^>]*>2</option>', page)
    client.post(reverse("games:lobby"), {"num_players": 2, "seat_2": ""})
    game = Game.objects.get()
    assert game.num_players == 2 and game.status == Game.Status.OPEN
    services.join_game(game.pk, bob)
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.RUNNING
    assert [s["capacity"] for s in game.state["ships"]] == [4, 6]
    board = client_for(to_act(game, users)).get(game.get_absolute_url()).content.decode()
    assert "Each of you chooses 3 roles a round, in turn." in board
    choosers = []
    for role in ("prospector", "builder", "trader"):
        game = Game.objects.get(pk=game.pk)
        player = to_act(game, users)
        choosers.append(player.username)
        response = post_move(client_for(player), game, {"type": "choose_role", "role": role})
        assert response.status_code == 303
        game = Game.objects.get(pk=game.pk)
        while game.state["phase"] not in ("role", "over"):
            mover = to_act(game, users)
            post_move(client_for(mover), game, {"type": "pass"})
            game = Game.objects.get(pk=game.pk)
    # Seats are drawn at random: the governor (seat 0) begins, then the other, then he again.
    governor = game.seats.get(position=0).user.username
    other = "bob" if governor == "anna" else "anna"
    assert choosers == [governor, other, governor]


def field_of(page: str, name: str) -> str:
    """The opening tag of the wrapper of the form field ``name``."""
    return re.search(
        rf'<div class="field[^"]*"[^>]*>\s*(?:<label[^>]*>[^<]*</label>\s*)?'
        rf'<select name="{name}"',
        page,
    ).group(0)


@pytest.mark.django_db
def test_the_lobby_shows_only_the_seats_and_options_of_the_players_chosen(users):
    client = client_for(users[0])
    page = client.get(reverse("games:lobby")).content.decode()
    assert re.search(r'<option value="4"[^>]*selected', page)
    assert " hidden" not in field_of(page, "seat_4")
    assert " hidden" in field_of(page, "seat_5")
    assert " hidden" in field_of(page, "option_vp_chips")  # 122 or 126 chips: five players
    refused = client.post(reverse("games:lobby"), {"num_players": "5", "move_time": "x"})
    page = refused.content.decode()
    assert " hidden" not in field_of(page, "seat_5")
    assert " hidden" not in field_of(page, "option_vp_chips")
