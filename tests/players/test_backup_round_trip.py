"""deploy/backup.sh and deploy/restore.sh round-trip the site's own database: finished rated
games, their moves, results and the ratings they made come back row for row in a database
restored from the dump (the scripts run with the local PostgreSQL tools, ``DB_EXEC`` empty)."""

import pytest
from django.db import connection

from games.models import Game, Move, Result
from players.models import Rating, RatingChange
from tests.players.conftest import finished
from tests.test_backups import run, scratch_database, scratch_server  # noqa: F401 - fixtures

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TABLES = [model._meta.db_table for model in (Game, Move, Result, Rating, RatingChange)]


def rows(cursor, table: str) -> list[tuple]:
    """Each row as PostgreSQL writes it in text, by id: the same through either driver."""
    cursor.execute(f'SELECT t::text FROM "{table}" t ORDER BY t.id')
    return cursor.fetchall()


def test_a_database_with_finished_games_and_ratings_comes_back_row_for_row(
    race,
    people,
    scratch_database,  # noqa: F811
    tmp_path,
):
    ann, ben, cy, _ = people
    for seed in range(3):
        finished(ann, ben, cy, rated=True, seed=seed)
    assert Rating.objects.count() == 3 and RatingChange.objects.count() == 9
    env, connect = scratch_database
    site = connection.settings_dict["NAME"]

    dump = run("backup.sh", env=env | {"BACKUP_DIR": str(tmp_path), "DB_NAME": site})
    run("restore.sh", dump, env=env)

    with connection.cursor() as cursor:
        before = {table: rows(cursor, table) for table in TABLES}
    with connect() as restored, restored.cursor() as cursor:
        after = {table: rows(cursor, table) for table in TABLES}
    assert all(before[table] for table in TABLES)
    assert after == before
