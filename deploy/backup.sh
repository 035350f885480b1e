#!/bin/sh
# Dump puerto's PostgreSQL database into BACKUP_DIR (./backups) as puerto-<UTC time>.dump
# (pg_dump's custom format) and keep the newest BACKUP_KEEP (14) of them. Run from the
# compose project's folder, e.g. daily from cron (docs/operations.md, "Backups"); prints the
# file's path. DB_EXEC runs the PostgreSQL tools (default: inside the db service).
set -eu
dir=${BACKUP_DIR:-./backups}
keep=${BACKUP_KEEP:-14}
db_exec=${DB_EXEC-docker compose exec -T db}
mkdir -p "$dir"
file="$dir/puerto-$(date -u +%Y%m%dT%H%M%SZ).dump"
# shellcheck disable=SC2086  # db_exec is a command with its arguments
$db_exec pg_dump --username="${DB_USER:-puerto}" --dbname="${DB_NAME:-puerto}" \
    --format=custom >"$file.partial"
mv "$file.partial" "$file"
ls -1t "$dir"/puerto-*.dump | tail -n +"$((keep + 1))" | xargs -r rm --
echo "$file"
