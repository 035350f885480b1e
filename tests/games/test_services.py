"""The one road for every move: seats, versions, idempotency, forced moves, AI turns, replay."""

import random
import threading

import pytest
from django.db import connection

from games import services
from games.models import Game, Move, Seat
from games.registry import get_engine
from games.services import Conflict, Forbidden, GameError, KeyReused
from games.views import http_status
from tests.replayed import replayed

pr = get_engine("puerto_rico")


@pytest.fixture
def users(django_user_model):
    return [
        django_user_model.objects.create_user(name, password="pw")
        for name in ("anna", "bob", "chris", "david")
    ]


def running_game(users, humans=3, ai=0):
    game = services.create_game(
        users[0], engine="puerto_rico", num_players=humans + ai, ai_seats=ai
    )
    for user in users[1:humans]:
        services.join_game(game.pk, user)
    return Game.objects.get(pk=game.pk)


def user_to_act(game, users):
    seat = game.seat_to_act()
    return next(u for u in users if u.pk == seat.user_id)


def state_json(game):
    return Game.objects.get(pk=game.pk).state


@pytest.mark.django_db
def test_game_starts_when_the_last_seat_fills_with_random_seating(users):
    game = services.create_game(users[0], engine="puerto_rico", num_players=3)
    assert game.status == Game.Status.OPEN
    services.join_game(game.pk, users[1])
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    services.join_game(game.pk, users[2])
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.RUNNING
    assert sorted(s.position for s in game.seats.all()) == [0, 1, 2]
    assert game.state == game.initial_state
    assert game.current_position == 0
    assert pr.from_json(game.state).num_players == 3


@pytest.mark.django_db
def test_the_seating_tells_nothing_of_the_deal(users):
    """The seating is not drawn from the stream the engine's setup draws from next: were it,
    the order of the seats would tell the players a few bits of the deal."""
    seatings_from_the_deals_stream = 0
    for seed in range(1, 21):
        game = services.create_game(users[0], engine="puerto_rico", num_players=4)
        Game.objects.filter(pk=game.pk).update(seed=seed)
        for user in users[1:]:
            services.join_game(game.pk, user)
        seated = [s.user_id for s in Game.objects.get(pk=game.pk).seats.order_by("position")]
        joined = [u.pk for u in users]
        random.Random(seed).shuffle(joined)
        seatings_from_the_deals_stream += seated == joined
    assert seatings_from_the_deals_stream < 5  # by chance, about 1 in 24 a seed


@pytest.mark.django_db
def test_a_full_game_refuses_another_player(users):
    game = running_game(users)
    with pytest.raises(Conflict):
        services.join_game(game.pk, users[3])


@pytest.mark.django_db
def test_the_seat_to_act_moves_and_the_move_is_stored(users):
    game = running_game(users)
    user = user_to_act(game, users)
    result = services.submit_move(
        game.pk, {"type": "choose_role", "role": "builder"}, user=user, expected_version=0
    )
    game = Game.objects.get(pk=game.pk)
    assert game.version >= 1
    move = Move.objects.get(game=game, version=1)
    assert move.action == {"type": "choose_role", "role": "builder"}
    assert move.actor == user
    assert move.log[0] == {"event": "role", "seat": 0, "role": "builder", "doubloons": 0}
    assert result.move == move
    assert not result.replayed


@pytest.mark.django_db
def test_a_player_not_to_act_is_refused_and_nothing_changes(users):
    game = running_game(users)
    to_act = user_to_act(game, users)
    other = next(u for u in users[:3] if u != to_act)
    before = state_json(game)
    with pytest.raises(Conflict, match="not your turn"):
        services.submit_move(game.pk, {"type": "choose_role", "role": "mayor"}, user=other)
    with pytest.raises(Forbidden, match="no seat"):
        services.submit_move(game.pk, {"type": "choose_role", "role": "mayor"}, user=users[3])
    assert state_json(game) == before
    assert not Move.objects.filter(game=game).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    "action, reason",
    [
        ({"type": "sell", "good": "corn"}, "role must be chosen"),
        ({"type": "choose_role", "role": "prospector"}, "no prospector card in a 3-player game"),
        ({"type": "fly"}, "unknown action type"),
        ("settler", "an action is an object"),
    ],
)
def test_illegal_or_malformed_actions_are_refused_with_the_reason(users, action, reason):
    game = running_game(users)
    before = state_json(game)
    with pytest.raises(GameError, match=reason) as error:
        services.submit_move(game.pk, action, user=user_to_act(game, users))
    assert http_status(error.value) == 400
    assert state_json(game) == before
    assert Game.objects.get(pk=game.pk).version == 0


@pytest.mark.django_db
def test_a_stale_version_gets_a_conflict(users):
    game = running_game(users)
    user = user_to_act(game, users)
    services.submit_move(
        game.pk, {"type": "choose_role", "role": "builder"}, user=user, expected_version=0
    )
    version = Game.objects.get(pk=game.pk).version
    game = Game.objects.get(pk=game.pk)
    with pytest.raises(Conflict, match="you have acted since"):
        services.submit_move(
            game.pk, {"type": "pass"}, user=user_to_act(game, users), expected_version=0
        )
    assert Game.objects.get(pk=game.pk).version == version


@pytest.mark.django_db
def test_the_same_idempotency_key_applies_once_and_answers_the_same(users):
    game = running_game(users)
    user = user_to_act(game, users)
    action = {"type": "choose_role", "role": "builder"}
    first = services.submit_move(game.pk, action, user=user, idempotency_key="k-1")
    second = services.submit_move(game.pk, action, user=user, idempotency_key="k-1")
    assert second.replayed and second.move.pk == first.move.pk
    assert Move.objects.filter(game=game, idempotency_key="k-1").count() == 1
    assert Game.objects.get(pk=game.pk).version == first.game.version


@pytest.mark.django_db
def test_a_key_sent_again_answers_the_first_move_and_refuses_another_action(users):
    """The key is looked up only off the happy path: a stale version, or (the chooser of the
    builder acts again) a current version whose move would reuse the key. The same action
    gets the first move back; another action with the same key is refused."""
    game = running_game(users)
    user = user_to_act(game, users)
    choose = {"type": "choose_role", "role": "builder"}
    first = services.submit_move(
        game.pk, choose, user=user, expected_version=game.version, idempotency_key="k-1"
    )
    stale = services.submit_move(
        game.pk, choose, user=user, expected_version=game.version, idempotency_key="k-1"
    )
    assert stale.replayed and stale.move.pk == first.move.pk
    later = Game.objects.get(pk=game.pk)
    assert later.seat_to_act().user_id == user.pk  # the builder builds first
    for version in (game.version, later.version):
        with pytest.raises(KeyReused):
            services.submit_move(
                game.pk,
                {"type": "pass"},
                user=user,
                expected_version=version,
                idempotency_key="k-1",
            )
    assert Game.objects.get(pk=game.pk).version == later.version
    assert Move.objects.filter(game=game).count() == later.version - game.version


def choose_mayor_and_place(game, users):
    """The governor takes the mayor and places their colonists: at the start of a 3-player
    game the two others then each have a single placement left."""
    mayor = user_to_act(game, users)
    services.submit_move(game.pk, {"type": "choose_role", "role": "mayor"}, user=mayor)
    game = Game.objects.get(pk=game.pk)
    placements = pr.legal_actions(pr.from_json(game.state))
    assert len(placements) > 1
    return services.submit_move(
        game.pk, pr.action_to_json(placements[0]), user=mayor, expected_version=game.version
    )


@pytest.mark.django_db
def test_forced_moves_are_played_for_the_player(users):
    game = running_game(users)
    mayor_seat = game.seat_to_act()

    result = choose_mayor_and_place(game, users)

    game = Game.objects.get(pk=game.pk)
    forced = list(Move.objects.filter(game=game, forced=True).order_by("version"))
    assert [m.seat.position for m in forced] == [
        (mayor_seat.position + 1) % 3,
        (mayor_seat.position + 2) % 3,
    ]
    assert all(m.actor is None and m.action["type"] == "arrange" for m in forced)
    assert result.game.version == game.version == 4
    state = pr.from_json(game.state)
    assert state.phase == "role" and len(pr.legal_actions(state)) > 1
    assert pr.to_json(replayed(game)) == game.state


@pytest.mark.django_db(transaction=True)
def test_a_game_of_ai_players_runs_to_the_end_and_replays_to_the_stored_state(users):
    game = services.create_game(
        users[0], engine="puerto_rico", num_players=3, ai_seats=3, ai_level="random", join=False
    )
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED and game.ending == Game.Ending.PLAYED_OUT
    rows = list(game.results.order_by("position"))
    assert [(r.played_by, r.person_decisions, r.user) for r in rows] == [("ai", 0, None)] * 3
    assert sum(r.ai_decisions for r in rows) == game.moves.count()  # no forced moves for AIs
    assert game.version == game.moves.count() > 100
    assert pr.to_json(replayed(game)) == game.state


@pytest.mark.django_db(transaction=True)
def test_a_stale_ai_task_does_nothing(users):
    game = running_game(users, humans=2, ai=1)
    assert services.play_ai_turn(game.pk, game.version + 5) is None
    assert Game.objects.get(pk=game.pk).version == game.version


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_submissions_for_one_turn_apply_exactly_one(users):
    game = running_game(users)
    user = user_to_act(game, users)
    outcomes = []
    barrier = threading.Barrier(6)

    def submit(role):
        try:
            barrier.wait()
            services.submit_move(
                game.pk,
                {"type": "choose_role", "role": role},
                user=user,
                expected_version=0,
                idempotency_key=f"{role}-key",
            )
            outcomes.append("applied")
        except Conflict:
            outcomes.append("conflict")
        finally:
            connection.close()

    roles = ["settler", "mayor", "builder", "craftsman", "trader", "captain"]
    threads = [threading.Thread(target=submit, args=(r,)) for r in roles]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["applied"] + ["conflict"] * 5
    game = Game.objects.get(pk=game.pk)
    first = game.moves.get(version=1)
    assert first.action["role"] in roles
    assert pr.to_json(replayed(game)) == game.state


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_retries_with_one_key_store_one_move(users):
    game = running_game(users)
    user = user_to_act(game, users)
    results = []
    barrier = threading.Barrier(4)

    def submit():
        try:
            barrier.wait()
            results.append(
                services.submit_move(
                    game.pk,
                    {"type": "choose_role", "role": "trader"},
                    user=user,
                    idempotency_key="same",
                ).move.pk
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4 and len(set(results)) == 1
    assert Move.objects.filter(game=game, forced=False).count() == 1


@pytest.mark.django_db
def test_lobby_changes_before_the_start(users):
    game = services.create_game(users[0], engine="puerto_rico", num_players=4, ai_seats=1)
    seat = services.join_game(game.pk, users[1])
    services.leave_game(game.pk, users[1])
    assert not Seat.objects.filter(pk=seat.pk).exists()
    with pytest.raises(Forbidden):
        services.add_ai(game.pk, users[1])
    ai = services.add_ai(game.pk, users[0])
    services.remove_seat(game.pk, users[0], ai.pk)
    services.cancel_game(game.pk, users[0])
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    with pytest.raises(Conflict):
        services.join_game(game.pk, users[2])
