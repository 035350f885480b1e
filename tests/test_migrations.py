"""The migrations match the models and are applied; the data migrations do what they say."""

import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import services, transfer
from games.models import Game, Move
from games.registry import get_engine
from tests.games.game_files import game_file, with_an_undo
from tests.replayed import replayed

pr = get_engine("puerto_rico")


@pytest.mark.django_db
def test_models_match_migrations():
    out = StringIO()

    call_command("makemigrations", "--check", "--dry-run", stdout=out)

    assert "No changes detected" in out.getvalue()


@pytest.mark.postgres
@pytest.mark.django_db
def test_every_migration_is_applied_on_postgres():
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()

    assert connection.vendor == "postgresql"
    assert executor.migration_plan(leaves) == []
    assert "accounts_user" in connection.introspection.table_names()


def _play(game_id: int, users, moves: int) -> None:
    """Random legal moves of whoever is to act, through the one road every move takes."""
    rng = random.Random(7)
    for _ in range(moves):
        game = Game.objects.get(pk=game_id)
        user = next(u for u in users if u.pk == game.seat_to_act().user_id)
        legal = pr.legal_actions(game.engine_state())
        action = pr.action_to_json(legal[rng.randrange(len(legal))])
        services.submit_move(game_id, action, user=user, expected_version=game.version)


def _migrate(target: str | None = None) -> None:
    """To ``target`` of the games app, or to the latest migration of every app. Inside the
    test's transaction: the foreign keys checked at commit are checked now, since PostgreSQL
    alters no table with such checks pending."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    executor = MigrationExecutor(connection)
    executor.migrate([("games", target)] if target else executor.loader.graph.leaf_nodes())


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_log_migration_rebuilds_events_by_replaying_the_moves(django_user_model):
    users = [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris")]
    game = services.create_game(users[0], engine="puerto_rico", num_players=3)
    for user in users[1:]:
        services.join_game(game.pk, user)
    _play(game.pk, users, 60)
    waiting = services.create_game(
        users[0], engine="puerto_rico", num_players=3
    )  # no state yet: nothing to replay
    moves = Move.objects.filter(game=game).order_by("version")
    assert moves.count() >= 60
    # Stored the old way: sentences with {pN} for the players.
    stored = list(moves.select_related("seat"))  # read while the models match the tables
    _migrate("0006_state_as_json")
    for move in stored:
        move.log = [f"{{p{move.seat.position}}} plays {move.action['type']}"]
        move.save(update_fields=["log"])

    _migrate("0007_log_as_events")
    _migrate()

    game = Game.objects.get(pk=game.pk)
    state = pr.from_json(game.initial_state)
    for move in moves.all():
        events: list[dict] = []
        state = pr.apply(state, pr.action_from_json(move.action), log=events)
        assert move.log == events and events, move.version
    assert pr.to_json(state) == game.state
    assert replayed(game).to_json() == game.state
    assert Game.objects.get(pk=waiting.pk).initial_state is None


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_log_migration_stops_when_the_moves_do_not_give_the_stored_state(django_user_model):
    users = [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris")]
    game = services.create_game(users[0], engine="puerto_rico", num_players=3)
    for user in users[1:]:
        services.join_game(game.pk, user)
    _play(game.pk, users, 5)
    _migrate("0006_state_as_json")
    game.refresh_from_db(fields=["state"])  # columns added later are not there
    game.state = {**game.state, "round": game.state["round"] + 1}
    game.save(update_fields=["state"])

    with pytest.raises(RuntimeError, match=f"game {game.pk}: replaying its moves"):
        _migrate("0007_log_as_events")


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_positions_migration_keeps_what_playing_the_games_keeps(django_user_model):
    """Games from before the positions get those a game played since keeps, and a finished
    game its chart; a game whose moves no longer replay gets none (its history is replayed
    from the start)."""
    users = [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris")]
    running = services.create_game(users[0], num_players=3)
    for user in users[1:]:
        services.join_game(running.pk, user)
    _play(running.pk, users, 70)
    finished, _ = transfer.import_game(with_an_undo(game_file(seed=5), 4), users[0])
    broken = services.create_game(users[0], num_players=3)
    for user in users[1:]:
        services.join_game(broken.pk, user)
    _play(broken.pk, users, 25)
    Move.objects.filter(game=broken, version=1).update(action={"type": "choose_role", "role": "x"})

    def kept(game: Game) -> list[tuple]:
        return list(game.positions.values_list("version", "state", "new_round"))

    before = {game.pk: kept(game) for game in (running, finished)}
    chart = Game.objects.get(pk=finished.pk).round_scores
    assert all(before.values()) and chart
    _migrate("0015_engine_without_default")
    _migrate()

    assert {game.pk: kept(game) for game in (running, finished)} == before
    assert Game.objects.get(pk=finished.pk).round_scores == chart
    assert kept(broken) == []
