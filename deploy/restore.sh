#!/bin/sh
# Restore a dump made by deploy/backup.sh into puerto's database, replacing everything in it
# (tables made after the dump too, so the migrations match again), in one transaction: on any
# error nothing changes. Stop the site's processes first (docs/operations.md, "Backups").
# DB_EXEC runs the PostgreSQL tools (default: inside compose's db service).
set -eu
file=${1:?usage: deploy/restore.sh <file.dump>}
db_exec=${DB_EXEC-docker compose exec -T db}
sql=$(mktemp)
trap 'rm -f "$sql"' EXIT
# The dump as SQL first: a file pg_restore cannot read stops here, before anything is dropped.
# shellcheck disable=SC2086  # db_exec is a command with its arguments
$db_exec pg_restore --no-owner --file=- <"$file" >"$sql"
{
    echo "DROP SCHEMA public CASCADE;"
    echo "CREATE SCHEMA public;"
    cat "$sql"
} | $db_exec psql --username="${DB_USER:-puerto}" --dbname="${DB_NAME:-puerto}" \
    --single-transaction --set=ON_ERROR_STOP=1 --quiet --output=/dev/null
echo "restored $file"
