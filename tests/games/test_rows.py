"""The hand-built read of a game, its seats and their users gives what the ORM gives."""

import threading
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, connections, transaction
from django.db.models.signals import post_init
from django.utils import timezone

from games import rows, services
from games.models import Game, Move, Seat, Vacation

pytestmark = pytest.mark.django_db


def fields_of(instance, exclude=()) -> dict:
    return {
        f.attname: getattr(instance, f.attname)
        for f in type(instance)._meta.concrete_fields
        if f.attname not in exclude
    }


def zones_of(instance) -> dict:
    """The time zone object of every date and time, which equality of the values ignores."""
    return {
        name: value.tzinfo
        for name, value in fields_of(instance).items()
        if hasattr(value, "tzinfo")
    }


@pytest.fixture
def game(users):
    """A running game with a person of every kind of setting, an AI seat, a move time, a
    deadline, a timed-out seat and moves made: every kind of column holds a value."""
    anna, bob, chris, _ = users
    anna.display_name = "Anna K."
    anna.time_zone = "Europe/Berlin"
    anna.save()
    game = services.create_game(
        anna, num_players=4, ai_seats=1, ai_level="easy", move_time=timedelta(hours=36)
    )
    services.join_game(game.pk, bob)
    services.join_game(game.pk, chris)
    game.refresh_from_db()
    for _ in range(3):
        to_act = game.seat_to_act()
        if to_act.is_ai:
            break
        rules = game.rules
        action = rules.legal_actions(rules.from_json(game.state))[0]
        services.submit_move(game.pk, rules.action_to_json(action), user=to_act.user)
        game.refresh_from_db()
    Seat.objects.filter(game=game, user=bob).update(timed_out_at=timezone.now())
    Game.objects.filter(pk=game.pk).update(
        deadline=timezone.now() + timedelta(hours=1), result={"note": "ü"}
    )
    return Game.objects.get(pk=game.pk)


def test_every_field_of_the_game_its_seats_and_users_is_read_as_the_orm_reads_it(game):
    loaded = rows.load_game(game.pk)
    assert fields_of(loaded, exclude={"initial_state"}) == fields_of(
        game, exclude={"initial_state"}
    )
    assert zones_of(loaded) == zones_of(game) and len(zones_of(game)) >= 4
    expected = list(Seat.objects.filter(game=game).select_related("user"))
    seats = list(loaded.seats.all())
    assert [s.pk for s in seats] == [s.pk for s in expected]  # the ORM's order
    for seat, orm_seat in zip(seats, expected, strict=True):
        assert fields_of(seat) == fields_of(orm_seat)
        assert zones_of(seat) == zones_of(orm_seat)
        if orm_seat.user_id is None:
            assert seat.user is None
        else:
            assert fields_of(seat.user) == fields_of(orm_seat.user)
            assert zones_of(seat.user) == zones_of(orm_seat.user)
    assert any(s.is_ai for s in seats) and any(s.timed_out_at for s in seats)


def test_seats_users_and_names_cost_no_further_query(game, django_assert_num_queries):
    with django_assert_num_queries(1):
        loaded = rows.load_game(game.pk)
    with django_assert_num_queries(0):
        names = loaded.names()
        to_act = loaded.seat_to_act()
        assert all(seat.game is loaded for seat in loaded.seats.all())
    assert "Anna K." in names and to_act.position == loaded.current_position


def test_instances_are_made_through_init_when_someone_listens_to_its_signals(game):
    made = []

    def listener(sender, instance, **kwargs):
        made.append(instance.pk)

    post_init.connect(listener, sender=Seat)
    try:
        loaded = rows.load_game(game.pk)
    finally:
        post_init.disconnect(listener, sender=Seat)
    assert made == [seat.pk for seat in loaded.seats.all()] and len(made) == 4
    assert not loaded._state.adding and loaded._state.db == "default"


def test_the_initial_state_is_left_out_and_read_when_asked_for(game, django_assert_num_queries):
    loaded = rows.load_game(game.pk)
    with django_assert_num_queries(1):
        assert loaded.initial_state == game.initial_state


def test_an_unknown_game_is_none():
    assert rows.load_game(10**9) is None


def test_games_read_together_each_get_their_own_seats_and_a_game_without_seats_none(
    game, users, django_assert_num_queries
):
    other = services.create_game(users[3], num_players=3, ai_seats=2, ai_level="easy")
    empty = services.create_game(users[3], num_players=3)
    Seat.objects.filter(game=empty).delete()

    with django_assert_num_queries(1):
        loaded = rows.load_games([game.pk, other.pk, empty.pk, 10**9])

    assert set(loaded) == {game.pk, other.pk, empty.pk}
    for pk in (game.pk, other.pk):
        expected = [fields_of(s) for s in Seat.objects.filter(game_id=pk)]
        assert [fields_of(s) for s in loaded[pk].seats.all()] == expected
    assert list(loaded[empty.pk].seats.all()) == []
    for pk in loaded:  # the state too, which the read sends on each game's first row only
        assert fields_of(loaded[pk], exclude=("initial_state",)) == fields_of(
            Game.objects.get(pk=pk), exclude=("initial_state",)
        )
    assert loaded[game.pk].state is not None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_locked_read_holds_the_row_until_the_transaction_ends(game):
    """Another connection cannot lock the game while a move holds it."""
    outcome = {}

    def other_connection():
        with transaction.atomic(), connections["default"].cursor() as cursor:
            try:
                cursor.execute(
                    "SELECT id FROM games_game WHERE id = %s FOR UPDATE NOWAIT", [game.pk]
                )
                outcome["locked"] = True
            except Exception as error:  # the driver's "could not obtain lock"
                outcome["refused"] = type(error).__name__
        connections["default"].close()

    with transaction.atomic():
        assert rows.load_game(game.pk, lock=True).pk == game.pk
        thread = threading.Thread(target=other_connection)
        thread.start()
        thread.join()
    assert "locked" not in outcome and outcome["refused"] == "OperationalError"


@pytest.mark.postgres
def test_the_statements_of_play_are_prepared_once_they_ran_a_few_times(game):
    """The server keeps their plans: the read of a game is among the connection's prepared
    statements after a few reads, with its parameters bound in the server."""
    connection = connections["default"]
    threshold = connection.settings_dict["OPTIONS"]["prepare_threshold"]
    for _ in range(threshold + 1):
        rows.load_game(game.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any('FROM "games_game" LEFT OUTER JOIN' in s and "IN ($1)" in s for s in prepared)


def test_a_players_games_come_waiting_first_then_longest_waiting_then_not_started(users):
    anna = users[0]
    games = []
    for _ in range(4):
        game = services.create_game(anna, num_players=3, ai_seats=2, ai_level="easy")
        games.append(Game.objects.get(pk=game.pk))
    waiting, other, stale, finished = games
    anna_seat = {g.pk: g.seats.get(user=anna).position for g in games}
    now = timezone.now()
    # anna's turn in ``waiting``; an AI's in ``other`` (started later) and ``stale`` (earlier)
    for game, position, started in [
        (waiting, anna_seat[waiting.pk], now - timedelta(minutes=1)),
        (other, (anna_seat[other.pk] + 1) % 3, now - timedelta(hours=1)),
        (stale, (anna_seat[stale.pk] + 1) % 3, now - timedelta(hours=2)),
    ]:
        Game.objects.filter(pk=game.pk).update(current_position=position, turn_started_at=started)
    Game.objects.filter(pk=finished.pk).update(status=Game.Status.FINISHED)
    not_started = services.create_game(anna, num_players=3)

    listed = rows.player_games(anna.pk)

    assert [g.game_id for g in listed] == [waiting.pk, stale.pk, other.pk, not_started.pk]
    assert [g.your_turn for g in listed] == [True, False, False, False]
    assert listed[-1].position is None and listed[-1].status == Game.Status.OPEN
    assert listed[1].turn_started_at == now - timedelta(hours=2)


def test_the_recent_log_is_the_last_moves_oldest_first_as_the_orm_reads_them(game):
    seat = game.seats.all()[0]
    for version in (101, 103, 102):
        Move.objects.create(
            game=game, seat=seat, version=version, action={}, log=[f"{{p0}} {version}", "ü"]
        )
    expected = list(game.moves.order_by("version").values_list("version", "log"))
    assert len(expected) >= 3 and expected[-1] == (103, ["{p0} 103", "ü"])

    assert rows.recent_log(game.pk, 2) == expected[-2:]
    assert rows.recent_log(game.pk, 1000) == expected
    assert rows.recent_log(game.pk + 1000, 5) == []


def test_vacations_going_on_are_those_the_orm_calls_active(users):
    anna, bob, chris, dora = users
    now = timezone.now()
    hour = timedelta(hours=1)
    for user, start, end in [
        (anna, now - hour, now + hour),  # going on
        (anna, now - 2 * hour, now + 3 * hour),  # going on, ends later
        (bob, now + hour, now + 2 * hour),  # not yet
        (chris, now - 2 * hour, now - hour),  # over
        (dora, now - hour, now + 5 * hour),  # going on, but not asked for
    ]:
        Vacation.objects.create(user=user, start=start, end=end)
    asked = [anna.pk, bob.pk, chris.pk]
    expected = dict(
        Vacation.objects.active(now)
        .filter(user_id__in=asked)
        .order_by("end")
        .values_list("user_id", "end")
    )

    assert rows.vacations_until(asked, now) == expected == {anna.pk: now + 3 * hour}
    assert rows.vacations_until([], now) == {}


def test_a_move_written_by_hand_reads_back_as_the_orm_would_have_stored_it(
    game, django_assert_num_queries
):
    seat = game.seat_to_act()
    game.version += 1
    # Keys that are not strings are stored as strings, and an integer beyond 64 bits whole.
    game.state = {**game.state, "note": "ä", "big": 2**70, "keys": {1: "one"}}
    game.turn_started_at = timezone.now()
    move = Move(
        game=game, seat=seat, version=game.version, action={"type": "pass"}, log=["{p0} passes"]
    )
    with django_assert_num_queries(1 if connection.vendor == "postgresql" else 2):
        rows.update_and_insert(game, ("version", "state", "turn_started_at"), move)

    assert move.pk is not None and not move._state.adding
    stored = Move.objects.get(pk=move.pk)
    assert fields_of(stored) == fields_of(move)
    assert stored.created_at is not None and stored.actor_id is None and stored.forced is False
    reread = Game.objects.get(pk=game.pk)
    assert (reread.version, reread.state, reread.turn_started_at) == (
        game.version,
        {**game.state, "keys": {"1": "one"}},
        game.turn_started_at,
    )
    assert rows.load_game(game.pk).state == reread.state


def test_a_second_move_with_the_same_version_is_refused_and_stores_nothing(game):
    seat = game.seat_to_act()
    rows.insert(Move(game=game, seat=seat, version=1000, action={"type": "pass"}))
    count = Move.objects.filter(game=game).count()
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert(Move(game=game, seat=seat, version=1000, action={"type": "pass"}))
    assert Move.objects.filter(game=game).count() == count
    # Written with its game, the game's change goes with it.
    game.version = 1000
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.update_and_insert(
            game, ("version",), Move(game=game, seat=seat, version=1000, action={"type": "pass"})
        )
    assert Move.objects.filter(game=game).count() == count
    assert Game.objects.get(pk=game.pk).version != 1000


@pytest.mark.postgres
def test_a_games_state_is_kept_as_the_text_written_not_parsed_into_jsonb(game):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_name = %s AND column_name IN ('state', 'initial_state', 'result')",
            [Game._meta.db_table],
        )
        assert dict(cursor.fetchall()) == {
            "state": "json",
            "initial_state": "json",
            "result": "jsonb",
        }
    # jsonb would give the keys back shortest first; json keeps them as they were written,
    # whether the ORM or the hand-built statements write and read them.
    state = {"zebra": 1, "a": {"long key": 2, "k": 3}}
    Game.objects.filter(pk=game.pk).update(state=state)
    assert list(Game.objects.get(pk=game.pk).state) == ["zebra", "a"]
    assert list(rows.load_game(game.pk).state["a"]) == ["long key", "k"]
    game.state = {"yak": 4, "b": 5}
    rows.update(game, ("state",))
    assert list(Game.objects.get(pk=game.pk).state) == ["yak", "b"]
