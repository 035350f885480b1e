"""deploy/backup.sh and deploy/restore.sh, run against a scratch PostgreSQL database with the
local PostgreSQL tools (``DB_EXEC`` empty) instead of inside compose's db service."""

import os
import subprocess
import uuid
from urllib.parse import urlsplit

import psycopg
import pytest
from django.conf import settings

pytestmark = pytest.mark.postgres

DEPLOY = settings.BASE_DIR / "deploy"


@pytest.fixture(scope="session")
def scratch_server():
    """A database of the session's own, dropped at its end: once, since dropping a database
    makes PostgreSQL write a checkpoint, up to half a minute while the suite writes beside it.
    Yields (libpq environment, connect)."""
    url = urlsplit(os.environ["DATABASE_URL"])
    name = f"puerto_backup_{uuid.uuid4().hex[:8]}"
    server = {"host": url.hostname, "port": url.port or 5432, "user": url.username or "postgres"}
    if url.password:
        server["password"] = url.password
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    libpq = {"PGHOST": server["host"], "PGPORT": str(server["port"])}
    if url.password:
        libpq["PGPASSWORD"] = url.password
    env = os.environ | libpq | {"DB_EXEC": "", "DB_USER": server["user"], "DB_NAME": name}

    def connect():
        return psycopg.connect(dbname=name, autocommit=True, **server)

    yield env, connect
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture
def scratch_database(scratch_server):
    """The session's scratch database, empty: its schema made anew, as restore.sh does."""
    _, connect = scratch_server
    with connect() as db:
        db.execute("DROP SCHEMA public CASCADE")
        db.execute("CREATE SCHEMA public")
    return scratch_server


def run(script: str, *args: str, env: dict) -> str:
    result = subprocess.run(
        [str(DEPLOY / script), *args], env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def moves(connect) -> list[tuple]:
    with connect() as db:
        return db.execute("SELECT id, action FROM move ORDER BY id").fetchall()


def test_a_restore_brings_back_the_database_as_it_was_backed_up(scratch_database, tmp_path):
    env, connect = scratch_database
    env = env | {"BACKUP_DIR": str(tmp_path)}
    with connect() as db:
        db.execute("CREATE TABLE move (id int PRIMARY KEY, action text NOT NULL)")
        db.execute("INSERT INTO move VALUES (1, 'settler'), (2, 'mayor')")

    dump = run("backup.sh", env=env)
    with connect() as db:  # what happens after the backup is lost by the restore
        db.execute("DELETE FROM move WHERE id = 1")
        db.execute("INSERT INTO move VALUES (3, 'captain')")
        db.execute("CREATE TABLE later (id int)")
    run("restore.sh", dump, env=env)

    assert moves(connect) == [(1, "settler"), (2, "mayor")]
    with connect() as db:
        assert db.execute("SELECT to_regclass('later')").fetchone() == (None,)


def test_backups_keep_only_the_newest(scratch_database, tmp_path):
    env, _ = scratch_database
    env = env | {"BACKUP_DIR": str(tmp_path), "BACKUP_KEEP": "2"}
    for day in ("20260101T030000Z", "20260102T030000Z", "20260103T030000Z"):
        older = tmp_path / f"puerto-{day}.dump"
        older.write_bytes(b"old")
        stamp = int(day[6:8]) * 86400 + 1_700_000_000
        os.utime(older, (stamp, stamp))

    newest = run("backup.sh", env=env)

    kept = sorted(path.name for path in tmp_path.iterdir())
    assert kept == sorted(["puerto-20260103T030000Z.dump", os.path.basename(newest)])


def test_a_failed_restore_changes_nothing(scratch_database, tmp_path):
    env, connect = scratch_database
    with connect() as db:
        db.execute("CREATE TABLE move (id int PRIMARY KEY, action text NOT NULL)")
        db.execute("INSERT INTO move VALUES (1, 'settler')")
    broken = tmp_path / "broken.dump"
    broken.write_bytes(b"not a dump")

    result = subprocess.run(
        [str(DEPLOY / "restore.sh"), str(broken)], env=env, capture_output=True, timeout=60
    )

    assert result.returncode != 0
    assert moves(connect) == [(1, "settler")]
