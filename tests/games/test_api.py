"""The JSON API: what a seat may see, moves through the one road, every refusal and its status."""

import base64
import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games import notifications, services
from games.models import Game, Move
from games.registry import get_engine
from tests.helpers import project_env, run_python

pr = get_engine("puerto_rico")


@pytest.fixture
def users(django_user_model):
    """Without passwords: hashing one costs a good part of a second."""
    return [
        django_user_model.objects.create_user(name)
        for name in ("anna", "bob", "chris", "david", "eve")
    ]


def client_for(user=None, **kwargs):
    client = APIClient(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


def running_game(users, n=4):
    game = services.create_game(users[0], engine="puerto_rico", num_players=n)
    for user in users[1:n]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def seat_user(game, users, position):
    seat = game.seats.get(position=position)
    return next(u for u in users if u.pk == seat.user_id)


def get_game(client, game):
    return client.get(reverse("api:game", args=[game.pk]))


def post_move(client, game, action, version=None, **extra):
    body = {"action": action, "version": game.version if version is None else version, **extra}
    return client.post(reverse("api:moves", args=[game.pk]), body, format="json")


def snapshot(game):
    game = Game.objects.get(pk=game.pk)
    return game.version, game.state, Move.objects.filter(game=game).count()


@pytest.mark.django_db
def test_the_view_hides_the_stack_order_the_seed_and_other_seats_vp(users):
    game = running_game(users)
    state = pr.from_json(game.state)
    for position, player in enumerate(state.players):
        player.vp = 10 + position
    game.state = pr.to_json(state)
    game.save()

    data = get_game(client_for(seat_user(game, users, 1)), game).json()
    view = data["view"]
    assert data["you"] == 1 and view["seat"] == 1
    assert view == pr.player_view(state, 1)
    assert view["plantations"]["stack"] == len(game.state["plantations"]["stack"])
    assert "rng" not in view
    assert [p["vp"] for p in view["players"]] == [None, 11, None, None]
    assert data["seats"] == [
        {
            "position": s.position,
            "name": s.user.username,
            "ai": False,
            "bot": False,
            "taken_over": False,
            "vote_open": False,
        }
        for s in game.seats.order_by("position")
    ]
    assert (data["id"], data["engine"], data["status"]) == (game.pk, "puerto_rico", "running")
    assert (data["version"], data["num_players"], data["result"]) == (game.version, 4, None)
    assert (data["rated"], data["spectators"], data["bots_allowed"]) == (False, True, False)

    for client in (client_for(users[4]), client_for()):  # a spectator, an anonymous reader
        data = get_game(client, game).json()
        assert data["you"] is None and data["legal_actions"] is None
        assert data["view"] == pr.player_view(state, None)
        assert all(p["vp"] is None for p in data["view"]["players"])


@pytest.mark.django_db
def test_legal_actions_only_for_the_seat_to_act(users):
    game = running_game(users)
    state = pr.from_json(game.state)
    for position in range(4):
        data = get_game(client_for(seat_user(game, users, position)), game).json()
        assert data["to_act"] == game.current_position
        if position == game.current_position:
            legal = [pr.action_to_json(a) for a in pr.legal_actions(state)]
            assert data["legal_actions"] == legal and data["legal_count"] == len(legal)
        else:
            assert data["legal_actions"] is None and data["legal_count"] is None


@pytest.mark.django_db
def test_the_mayors_placements_are_counted_not_listed(users):
    game = running_game(users)
    mayor = seat_user(game, users, game.current_position)
    client = client_for(mayor)
    assert post_move(client, game, {"type": "choose_role", "role": "mayor"}).status_code == 201
    game = Game.objects.get(pk=game.pk)
    data = get_game(client, game).json()
    assert data["view"]["phase"] == "mayor" and data["to_act"] == data["you"]
    assert data["legal_actions"] is None
    assert data["legal_count"] == len(pr.legal_actions(pr.from_json(game.state))) > 1


@pytest.mark.django_db
def test_a_move_round_trip(users):
    game = running_game(users)
    player = seat_user(game, users, game.current_position)
    response = post_move(client_for(player), game, {"type": "choose_role", "role": "settler"})

    assert response.status_code == 201
    stored = Game.objects.get(pk=game.pk)
    move = Move.objects.get(game=game, version=game.version + 1)
    answer = response.json()
    assert answer["version"] == stored.version
    assert answer["move"] == {
        "version": move.version,
        "log": [f"{player.username} takes the settler"],
        "events": [{"event": "role", "seat": 0, "role": "settler", "doubloons": 0}],
    }
    assert move.actor == player and move.action == {"type": "choose_role", "role": "settler"}
    data = get_game(client_for(player), stored).json()
    assert data["version"] == stored.version
    assert data["view"]["roles"][0] == {"role": "settler", "doubloons": 0, "taken_by": 0}
    # The answer carries the game as a read would show it: the settler picks a tile next.
    assert answer["game"] == data
    assert data["to_act"] == data["you"]
    assert {a["type"] for a in data["legal_actions"]} == {"settle", "pass"}


@pytest.mark.django_db
def test_the_forced_moves_after_a_move_are_in_its_answer(users):
    """At the start of a 3-player game, once the mayor has placed, the two others each have a
    single placement: the site plays them, and the answer shows the game after them."""
    game = running_game(users, n=3)
    mayor = seat_user(game, users, game.current_position)
    client = client_for(mayor)
    post_move(client, game, {"type": "choose_role", "role": "mayor"})
    game = Game.objects.get(pk=game.pk)
    placement = pr.action_to_json(pr.legal_actions(pr.from_json(game.state))[0])

    response = post_move(client, game, placement, key="place")

    assert response.status_code == 201
    forced = Move.objects.filter(game=game, forced=True)
    assert forced.count() == 2 and not forced.filter(seat__user=mayor).exists()
    answer = response.json()
    assert answer["version"] == game.version + 3 == Game.objects.get(pk=game.pk).version
    assert answer["game"]["view"]["phase"] == "role"
    assert answer["game"]["to_act"] != answer["game"]["you"]
    assert post_move(client, game, placement, key="place").json()["version"] == answer["version"]


@pytest.mark.django_db
def test_a_replayed_idempotency_key_answers_the_same_and_applies_once(users):
    game = running_game(users)
    client = client_for(seat_user(game, users, game.current_position))
    action = {"type": "choose_role", "role": "builder"}
    first = post_move(client, game, action, key="k-1")
    again = post_move(client, game, action, key="k-1")

    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert Move.objects.filter(game=game, idempotency_key="k-1").count() == 1
    assert Game.objects.get(pk=game.pk).version == first.json()["version"]


@pytest.mark.django_db
def test_every_refusal_has_its_status_and_message_and_changes_nothing(users):
    game = running_game(users)
    to_act = seat_user(game, users, game.current_position)
    waiting = seat_user(game, users, (game.current_position + 1) % 4)
    choose = {"type": "choose_role", "role": "settler"}
    url = reverse("api:moves", args=[game.pk])
    before = snapshot(game)
    cases = [
        (post_move(client_for(to_act), game, {"type": "pass"}), 400, "a role must be chosen now"),
        (
            post_move(client_for(to_act), game, {"type": "settle", "tile": "gold"}),
            400,
            "'tile' must be one of corn, indigo, sugar, tobacco, coffee, quarry",
        ),
        (post_move(client_for(to_act), game, "pass"), 400, "'action' must be an object"),
        (
            client_for(to_act).post(url, {"action": choose}, format="json"),
            400,
            "'version' must be the game version you saw (an integer)",
        ),
        (
            client_for(to_act).post(url, "{not json", content_type="application/json"),
            400,
            "JSON parse error - Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1)",
        ),
        (
            post_move(client_for(to_act), game, choose, key="k" * 65),
            400,
            "idempotency key longer than 64 characters",
        ),
        (post_move(client_for(users[4]), game, choose), 403, "you have no seat in this game"),
        (
            client_for(to_act).post(
                reverse("api:moves", args=[game.pk + 100]),
                {"action": choose, "version": 0},
                format="json",
            ),
            404,
            "no such game",
        ),
        (
            client_for(to_act).post(
                url, {"action": choose, "version": 0, "pad": "x" * 17_000}, format="json"
            ),
            413,
            "that request is too large to be a move",
        ),
    ]
    for response, status, message in cases:
        body = {k: v for k, v in response.json().items() if k not in ("code", "params")}
        assert (response.status_code, body) == (status, {"error": message})
    # The engine's refusals also say which rule, for a program to read.
    assert [(r.json()["code"], r.json()["params"]) for r, _, _ in cases[:2]] == [
        ("role_expected", {}),
        ("bad_tile", {"choices": "corn, indigo, sugar, tobacco, coffee, quarry"}),
    ]
    # The others have a code of their own, their status's (puerto.refusals), or REST
    # framework's.
    assert [(r.json()["code"], r.json()["params"]) for r, _, _ in cases[2:]] == [
        ("invalid", {}),
        ("invalid", {}),
        ("parse_error", {}),
        ("invalid", {}),
        ("not_seated", {}),
        ("not_found", {}),
        ("too_large", {}),
    ]

    for player, response, message, code in [
        (
            waiting,
            post_move(client_for(waiting), game, choose),
            "it is not your turn",
            "not_your_turn",
        ),
        (
            to_act,
            post_move(client_for(to_act), game, choose, version=game.version - 1),
            "the game has moved on since you looked",
            "stale_version",
        ),
    ]:
        assert response.status_code == 409
        fresh_view = get_game(client_for(player), game).json()  # to decide again from
        assert response.json() == {
            "error": message,
            "code": code,
            "params": {},
            "version": game.version,
            "game": fresh_view,
        }

    anonymous = post_move(client_for(), game, choose)
    assert anonymous.status_code == 401 and "credentials" in anonymous.json()["error"]
    assert snapshot(game) == before


@pytest.mark.django_db
def test_session_requests_need_the_csrf_token(users):
    game = running_game(users)
    client = client_for(seat_user(game, users, game.current_position), enforce_csrf_checks=True)
    response = post_move(client, game, {"type": "choose_role", "role": "settler"})
    assert response.status_code == 403 and "CSRF" in response.json()["error"]
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.django_db
def test_a_session_move_sent_from_another_site_is_refused_until_that_site_is_trusted(
    users, settings
):
    game = running_game(users)
    client = client_for(seat_user(game, users, game.current_position), enforce_csrf_checks=True)
    client.cookies["csrftoken"] = token = "t" * 32
    url = reverse("api:moves", args=[game.pk])
    body = {"action": {"type": "choose_role", "role": "settler"}, "version": game.version}
    sent = {"secure": True, "HTTP_X_CSRFTOKEN": token, "HTTP_ORIGIN": "https://other.example"}

    before = snapshot(game)
    refused = client.post(url, body, format="json", **sent)
    assert refused.status_code == 403 and "Origin checking failed" in refused.json()["error"]
    assert snapshot(game) == before

    settings.CSRF_TRUSTED_ORIGINS = ["https://other.example"]
    assert client.post(url, body, format="json", **sent).status_code == 201


@pytest.mark.django_db
def test_basic_authentication_plays_without_a_session(users):
    game = running_game(users)
    player = seat_user(game, users, game.current_position)
    player.set_password("pw")
    player.save()
    token = base64.b64encode(f"{player.username}:pw".encode()).decode()
    client = APIClient(enforce_csrf_checks=True, HTTP_AUTHORIZATION=f"Basic {token}")
    response = post_move(client, game, {"type": "choose_role", "role": "settler"})
    assert response.status_code == 201


@pytest.mark.django_db
def test_the_version_endpoint_costs_one_query(users, django_assert_num_queries):
    game = running_game(users)
    client = client_for(users[0])  # a session cookie, which this endpoint does not look up
    url = reverse("api:version", args=[game.pk])
    with django_assert_num_queries(1):
        response = client.get(url)
    assert response.json() == {"version": game.version, "to_act": game.current_position}
    assert client.get(reverse("api:version", args=[game.pk + 100])).status_code == 404


@pytest.mark.django_db
def test_the_game_view_costs_a_fixed_number_of_queries(users, django_assert_max_num_queries):
    game = running_game(users)
    client = client_for(seat_user(game, users, game.current_position))
    with django_assert_max_num_queries(4):  # session, user, the game, its seats with their users
        assert get_game(client, game).status_code == 200


def test_the_browsable_api_is_off_in_production(tmp_path):
    env = project_env(
        DEBUG="false",
        SECRET_KEY="x" * 50,
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        PUERTO_VAR_DIR=str(tmp_path / "var"),
    )
    script = (
        "import json; from django.conf import settings; "
        "print(json.dumps(settings.REST_FRAMEWORK['DEFAULT_RENDERER_CLASSES']))"
    )
    result = run_python("-c", f"import django; django.setup(); {script}", env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == ["rest_framework.renderers.JSONRenderer"]


@pytest.mark.django_db
def test_my_games_lists_those_waiting_for_my_move_first(users, django_assert_max_num_queries):
    first, second = running_game(users), running_game(users)
    waiting_for = {g.pk: seat_user(g, users, g.current_position) for g in (first, second)}
    bob = waiting_for[first.pk]  # so at least one game waits for him
    open_game = services.create_game(bob, engine="puerto_rico", num_players=3)
    client = client_for(bob)
    with django_assert_max_num_queries(3):  # session, user, the seats with their games
        listed = client.get(reverse("api:games")).json()["games"]
    mine = {g.pk for g in (first, second) if waiting_for[g.pk] == bob}
    assert {row["id"] for row in listed} == {first.pk, second.pk, open_game.pk}
    assert [row["your_turn"] for row in listed] == sorted(
        (row["id"] in mine for row in listed), reverse=True
    )
    for row in listed:
        game = Game.objects.get(pk=row["id"])
        assert (row["version"], row["to_act"], row["status"]) == (
            game.version,
            game.current_position,
            game.status,
        )
        assert row["you"] == game.seats.get(user=bob).position
    waiting = client.get(reverse("api:games"), {"waiting": "1"}).json()["games"]
    assert first.pk in mine and {row["id"] for row in waiting} == mine
    assert client_for().get(reverse("api:games")).status_code == 401


@pytest.mark.django_db
def test_my_games_with_documents_carry_each_waiting_game_as_a_read_shows_it(
    users, django_assert_max_num_queries
):
    games = [running_game(users) for _ in range(3)]
    bob = seat_user(games[0], users, games[0].current_position)
    client = client_for(bob)
    with django_assert_max_num_queries(5):  # session, user, the list, the games, their seats
        listed = client.get(reverse("api:games"), {"documents": "1"}).json()["games"]
    assert {row["id"] for row in listed} == {g.pk for g in games}
    for row in listed:
        if row["your_turn"]:
            read = client.get(reverse("api:game", args=[row["id"]])).json()
            assert row["game"] == read and read["legal_actions"]
        else:
            assert "game" not in row
    assert any(row["your_turn"] for row in listed)
    plain = client.get(reverse("api:games")).json()["games"]
    assert all("game" not in row for row in plain)


@pytest.mark.django_db
def test_my_games_come_waiting_first_then_longest_waiting_then_not_started(users):
    anna = users[0]
    games = [
        services.create_game(anna, engine="puerto_rico", num_players=3, ai_seats=2, ai_level="easy")
    ]
    games += [
        services.create_game(anna, engine="puerto_rico", num_players=3, ai_seats=2, ai_level="easy")
    ]
    games += [
        services.create_game(anna, engine="puerto_rico", num_players=3, ai_seats=2, ai_level="easy")
    ]
    waiting, other, stale = games
    seat = {g.pk: g.seats.get(user=anna).position for g in games}
    now = timezone.now()
    # anna's turn in ``waiting``; an AI's in ``other`` (started later) and ``stale`` (earlier)
    for game, position, started in [
        (waiting, seat[waiting.pk], now - timedelta(minutes=1)),
        (other, (seat[other.pk] + 1) % 3, now - timedelta(hours=1)),
        (stale, (seat[stale.pk] + 1) % 3, now - timedelta(hours=2)),
    ]:
        Game.objects.filter(pk=game.pk).update(current_position=position, turn_started_at=started)
    finished = services.create_game(
        anna, engine="puerto_rico", num_players=3, ai_seats=2, ai_level="easy"
    )
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)
    not_started = services.create_game(anna, engine="puerto_rico", num_players=3)

    listed = client_for(anna).get(reverse("api:games")).json()["games"]

    assert [row["id"] for row in listed] == [waiting.pk, stale.pk, other.pk, not_started.pk]
    assert [row["your_turn"] for row in listed] == [True, False, False, False]
    assert listed[-1]["you"] is None and listed[-1]["status"] == Game.Status.OPEN


@pytest.mark.django_db
def test_a_refusal_is_worded_in_the_readers_language(users):
    game = running_game(users)
    waiting = next(u for u in users[:4] if u != seat_user(game, users, game.current_position))
    action = pr.action_to_json(pr.legal_actions(pr.from_json(game.state))[0])

    client = client_for(waiting)

    assert post_move(client, game, action).json()["error"] == "it is not your turn"
    waiting.language = "de"
    waiting.save(update_fields=["language"])
    assert post_move(client, game, action).json()["error"] == "du bist nicht am Zug"
    visitor = client_for(HTTP_ACCEPT_LANGUAGE="de")
    assert get_game(visitor, Game(pk=10**9)).json()["error"] == "diese Partie gibt es nicht"
    assert snapshot(game)[0] == game.version


@pytest.mark.django_db
def test_a_seat_the_ai_took_over_is_not_your_turn_in_the_api_my_games_or_the_turn_emails(users):
    game = running_game(users)
    absent = seat_user(game, users, game.current_position)
    game.seats.filter(user=absent).update(ai_level="medium", taken_over_at=timezone.now())
    client = client_for(absent)

    assert client.get(reverse("api:games"), {"waiting": 1}).json() == {"games": []}
    listed = client.get(reverse("api:games")).json()["games"]
    assert [(g["id"], g["your_turn"]) for g in listed] == [(game.pk, False)]
    page = client.get(reverse("games:mine")).content.decode()
    assert "my-turn" not in page and "Your move" not in page
    assert notifications.waiting_for(absent) == []


@pytest.mark.django_db
def test_the_mayor_gets_a_schema_to_build_a_placement_from_and_it_is_taken(users):
    """The mayor's placements are too many to list: ``legal_schema`` gives the circles of
    each island kind and building and the pieces to place; a placement built from it alone
    is accepted."""
    game = running_game(users)
    governor = seat_user(game, users, game.current_position)
    client = client_for(governor)
    post_move(client, game, {"type": "choose_role", "role": "mayor"})
    game = Game.objects.get(pk=game.pk)
    document = get_game(client, game).json()
    assert document["legal_actions"] is None and document["legal_count"] > 0
    schema = document["legal_schema"]
    assert schema["type"] == "arrange" and schema["island"]
    variant = schema["variants"][0]
    left = variant["colonists"]
    placement = {"island": {}, "city": {}}
    for part in ("island", "city"):
        for name, circles in schema[part].items():
            placement[part][name] = min(circles, left)
            left -= placement[part][name]
    action = {"type": "arrange", **placement, "privilege": variant["privilege"]}
    moved = post_move(client, game, action)
    assert moved.status_code == 201, moved.content
    assert "places 1 colonist" in moved.json()["move"]["log"][0]
