"""The migrations match the models and are applied; the data migrations do what they say."""

import json
import random
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games import services, transfer
from games.models import Game, Move, Result
from games.registry import get_engine
from tests.games.game_files import FORMAT_1, game_file, with_an_undo
from tests.games.test_chat import fresh_rate_limits  # noqa: F401 - every test counts its own
from tests.games.test_results import Table, three_at_the_table
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
    running = services.create_game(users[0], engine="puerto_rico", num_players=3)
    for user in users[1:]:
        services.join_game(running.pk, user)
    _play(running.pk, users, 70)
    finished, _ = transfer.import_game(with_an_undo(game_file(seed=5), 4), users[0])
    broken = services.create_game(users[0], engine="puerto_rico", num_players=3)
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


def _old_result(rows) -> dict:
    """``Game.result`` as the site wrote it before the rows: the scores and the winners."""
    return {
        "scores": [{"total": row["score"]} for row in rows],
        "winners": [row["seat"] for row in rows if row["placement"] == 1],
    }


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_outcome_migration_writes_the_rows_of_the_games_that_ended_before(django_user_model):
    users = [django_user_model.objects.create_user(name) for name in ("anna", "bob", "chris")]
    played = three_at_the_table(users)  # Bob's seat taken over, an undo, an AI player's own
    table = Table(played)
    bob = next(s for s in played.seats.all() if s.user_id == users[1].pk).position
    while table.person[bob] < 5:
        table.play(1)
    table.play_to(bob)
    table.time_out(bob)
    played = table.play()
    old_file = json.loads(FORMAT_1.read_text())
    imported, _ = transfer.import_game(old_file, users[2])
    moderated = services.create_game(users[0], engine="puerto_rico", num_players=3)
    services.cancel_by_moderator(moderated.pk, "spam")
    cancelled = services.create_game(users[0], engine="puerto_rico", num_players=3)
    services.cancel_game(cancelled.pk, users[0])
    waiting = services.create_game(users[0], engine="puerto_rico", num_players=3)
    rows = {g.pk: transfer.result(g) for g in (played, imported)}
    users_at = {
        g.pk: [r.user_id for r in g.results.order_by("position")] for g in (played, imported)
    }
    endings = dict(Game.objects.values_list("pk", "ending"))
    assert endings[moderated.pk] == "cancelled_by_moderator" and endings[waiting.pk] == ""
    assert {row["played_by"] for row in rows[played.pk]} == {"person", "taken_over", "ai"}

    _migrate("0017_outcome")  # as before the rows: the result in the game, no ending
    assert not Result.objects.exists()
    assert set(Game.objects.values_list("ending", flat=True)) == {""}
    old = MigrationExecutor(connection).loader.project_state(("games", "0017_outcome")).apps
    old_game = old.get_model("games", "Game")
    old_game.objects.filter(pk=played.pk).update(result=_old_result(rows[played.pk]))
    old_game.objects.filter(pk=imported.pk).update(result=old_file["result"])
    _migrate()

    assert dict(Game.objects.values_list("pk", "ending")) == endings
    for game in (played, imported):
        game = Game.objects.get(pk=game.pk)
        assert transfer.result(game) == rows[game.pk]
        assert [r.user_id for r in game.results.order_by("position")] == users_at[game.pk]


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_outcome_migration_stops_at_a_result_the_state_does_not_give(django_user_model):
    anna = django_user_model.objects.create_user("anna")
    data = json.loads(FORMAT_1.read_text())
    game, _ = transfer.import_game(data, anna)
    _migrate("0017_outcome")
    old = MigrationExecutor(connection).loader.project_state(("games", "0017_outcome")).apps
    wrong = {**data["result"], "winners": [1]}
    old.get_model("games", "Game").objects.filter(pk=game.pk).update(result=wrong)

    with pytest.raises(RuntimeError, match=f"game {game.pk}: its stored result"):
        _migrate("0018_outcome_rows")
