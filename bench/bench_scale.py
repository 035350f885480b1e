"""The production shape on one machine, under load, with parts killed mid-load: every move once.

Recreates the PostgreSQL database ``puerto_scale``, empties Redis db 4 and seats the players of
``bench_web.py`` (tables of four, ``--games-per-table`` games each), each of them also in
``--ai-games`` games against two medium AI players, so AI turns flow through Celery. Then starts
what ``docker-compose.yml`` runs, as processes on 127.0.0.1 with production settings: two
gunicorn processes (``web-a``, ``web-b``, two workers each), Caddy in front balancing them
round robin (a dead one skipped: health checks and ``lb_try_duration``), two Celery workers
(``worker-a``, ``worker-b``, one process each) and beat.

The players of ``bench_web.py`` play through Caddy at ``--rate`` moves a second, each move
with an idempotency key; a request that got no answer, or the proxy's 502/503/504, is sent
again with the same key, as a real client does. Mid-load ``web-a`` (master and workers) and
later ``worker-a`` are killed with SIGKILL and started again ``--down`` seconds after. Once
the load ends and no AI seat is left to act, the database is checked: every acknowledged move
stored once, no key twice, no game version twice. Each process connects with its own
``PGAPPNAME``, and a column the bench adds to its own database's move table records it, so
the moves each process stored are counted in the database, not from logs.

Also printed, for docs/operations.md's capacity model: CPU seconds of gunicorn, the Celery
workers, Caddy and the database's backends per 1,000 moves; the move table's and the
database's growth, commits and rows written per move (``pg_stat_database``); Redis commands
per move (``INFO commandstats``, the whole server).

``python bench/bench_scale.py --seconds 60 --rate 30``. Without PostgreSQL, Redis or caddy it
says so and exits 0 (with ``CI=true``: 1).
"""

from __future__ import annotations

import argparse
import http.client
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

from bench_recovery import free_port
from bench_web import (
    ROOT,
    Pacer,
    Player,
    calibration_ms,
    p,
    production_environment,
    recreate_database,
    set_up_site,
    start_gunicorn,
)

RETRY_FOR = 60.0
"""Seconds a client keeps sending a request again before it gives up."""
LOST_OR_DOUBLED = (
    "acknowledged keys not stored (lost)",
    "acknowledged keys stored at another game or version",
    "keys stored twice (doubled)",
    "game versions stored twice",
)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="measured load (60)")
    parser.add_argument("--warm-up", type=float, default=5.0, help="before it, unmeasured (5)")
    parser.add_argument("--rate", type=float, default=30.0, help="moves a second (30)")
    parser.add_argument("--players", type=int, default=100, help="players, four a table (100)")
    parser.add_argument("--games-per-table", type=int, default=16, help="games a table (16)")
    parser.add_argument("--ai-games", type=int, default=2, help="a player's AI games (2)")
    parser.add_argument("--page-share", type=float, default=0.2, help="turns with a page (0.2)")
    parser.add_argument("--kill-web-at", type=float, default=15.0, help="s into the load (15)")
    parser.add_argument("--kill-worker-at", type=float, default=35.0, help="s into it (35)")
    parser.add_argument("--down", type=float, default=5.0, help="s before a restart (5)")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--database", default="puerto_scale", help="recreated (puerto_scale)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/4", help="emptied first")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


# The processes ------------------------------------------------------------------------------


class Processes:
    """The started processes by name, each in a process group of its own; every group ever
    started is kept, so CPU is counted for killed ones too."""

    def __init__(self, env: dict[str, str], folder: Path) -> None:
        self.env, self.folder = env, folder
        self.ports = {"web-a": free_port(), "web-b": free_port()}
        self.running: dict[str, subprocess.Popen] = {}
        self.groups: dict[int, str] = {}  # process group -> kind (web, worker, beat, caddy)
        self.started = Counter()

    def own(self, name: str, process: subprocess.Popen) -> None:
        self.running[name] = process
        self.groups[process.pid] = name.split("-")[0]
        self.started[name] += 1

    def start(self, name: str) -> None:
        env = {**self.env, "PGAPPNAME": name}
        log = self.folder / f"{name}-{self.started[name] + 1}.log"
        if name.startswith("web"):
            env["WEB_CONCURRENCY"] = "2"
            self.own(name, start_gunicorn(env, self.ports[name], log))
            return
        celery = [sys.executable, "-m", "celery", "-A", "puerto"]
        if name.startswith("worker"):
            command = [*celery, "worker", "--concurrency=1", f"--hostname={name}@%h"]
            ready = " ready."
        else:
            schedule, pidfile = self.folder / "beat-schedule", self.folder / "beat.pid"
            command = [*celery, "beat", "--scheduler", "puerto.liveness:BeatScheduler"]
            command += ["--schedule", str(schedule), "--pidfile", str(pidfile)]
            ready = "beat: Starting"
        with log.open("w") as output:
            process = subprocess.Popen(
                [*command, "--loglevel=INFO"], cwd=ROOT, env=env, stdout=output,
                stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        self.own(name, process)
        deadline = time.monotonic() + 60
        while ready not in log.read_text():
            if time.monotonic() > deadline:
                raise SystemExit(f"{name} did not start:\n{log.read_text()}")
            time.sleep(0.2)

    def start_caddy(self) -> int:
        """Caddy on a port of its own, balancing the two web processes; returns the port."""
        port = free_port()
        upstreams = " ".join(f"127.0.0.1:{p}" for p in self.ports.values())
        caddyfile = self.folder / "Caddyfile"
        caddyfile.write_text(
            "{\n\tadmin off\n\tauto_https off\n}\n"
            f"http://127.0.0.1:{port} {{\n"
            f"\treverse_proxy {upstreams} {{\n"
            "\t\tlb_policy round_robin\n"
            "\t\tlb_try_duration 10s\n"  # a request that cannot connect tries the other
            "\t\tlb_try_interval 100ms\n"
            "\t\tfail_duration 5s\n"  # an upstream that failed is skipped for 5 s
            "\t\thealth_uri /healthz\n"
            "\t\thealth_interval 1s\n"
            # TLS ends here in production: the site sees https as it does there.
            "\t\theader_up X-Forwarded-Proto https\n"
            "\t}\n}\n"
        )
        env = {**os.environ, "XDG_DATA_HOME": str(self.folder), "XDG_CONFIG_HOME": str(self.folder)}
        log = (self.folder / "caddy.log").open("w")
        command = ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"]
        caddy = subprocess.Popen(
            command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.own("caddy", caddy)
        for _ in range(100):
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                connection.request("GET", "/healthz")
                if connection.getresponse().status == 200:
                    return port
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"caddy did not answer:\n{(self.folder / 'caddy.log').read_text()}")

    def kill(self, name: str) -> None:
        """SIGKILL to the whole group: gunicorn's master with its workers, Celery's main
        process with its pool."""
        os.killpg(self.running[name].pid, signal.SIGKILL)
        self.running[name].wait()

    def stop_all(self) -> None:
        for process in self.running.values():
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
        for process in self.running.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


class CpuMeter(threading.Thread):
    """CPU seconds of each kind of process (gunicorn, the workers, beat, caddy, and the
    PostgreSQL backends of the bench's database), read from /proc every half second, so a
    process killed meanwhile keeps all but its last half second."""

    def __init__(self, processes: Processes, database: str) -> None:
        super().__init__(daemon=True)
        self.processes, self.database = processes, f" {database} "
        self.seen: dict[int, tuple[str, float]] = {}  # pid -> (kind, CPU seconds)
        self.base: dict[int, float] = {}
        self.stop = threading.Event()

    def sample(self) -> None:
        tick = os.sysconf("SC_CLK_TCK")
        for folder in Path("/proc").glob("[0-9]*"):
            try:
                fields = (folder / "stat").read_text().rsplit(")", 1)[1].split()
                kind = self.processes.groups.get(int(fields[2]))
                if kind is None and (folder / "cmdline").read_bytes().startswith(b"postgres:"):
                    title = (folder / "cmdline").read_bytes().decode(errors="replace")
                    kind = "postgres" if self.database in title else None
            except OSError:  # the process ended meanwhile
                continue
            if kind:
                self.seen[int(folder.name)] = (kind, (int(fields[11]) + int(fields[12])) / tick)

    def mark(self) -> None:
        """From now on: what each process used before is left out."""
        self.sample()
        self.base = {pid: cpu for pid, (_, cpu) in self.seen.items()}
        self.players = time.process_time()

    def used(self) -> dict[str, float]:
        self.sample()
        totals: dict[str, float] = defaultdict(float)
        for pid, (kind, cpu) in self.seen.items():
            totals[kind] += cpu - self.base.get(pid, 0.0)
        totals["players (this process)"] = time.process_time() - self.players
        return totals

    def run(self) -> None:
        while not self.stop.wait(0.5):
            self.sample()


# The clients --------------------------------------------------------------------------------


class Client(Player):
    """A player of ``bench_web.py`` whose moves carry an idempotency key, and who sends a
    request that got no answer (or the proxy's 502/503/504) again, the same key with it."""

    acknowledged: list[tuple[str, int, int]] = []  # key, game, the move's version
    sent: set[str] = set()  # every key sent
    retried: Counter = Counter()
    lock = threading.Lock()
    moves: list[float] = []  # seconds from the first try to the answer, measured ones only

    def request(self, kind: str, method: str, path: str, body=None):
        if method == "POST":
            body = {**body, "key": secrets.token_hex(16)}
            self.sent.add(body["key"])
        start = time.monotonic()
        while True:
            try:
                status, answer = super().request(kind, method, path, body)
            except (OSError, http.client.HTTPException):
                self.connection.close()  # the next request opens a new one
                status, answer = "no answer", None
            if status not in ("no answer", 502, 503, 504):
                break
            if time.monotonic() - start > RETRY_FOR:
                raise SystemExit(f"{method} {path}: {status} for {RETRY_FOR:g} s")
            with self.lock:
                self.retried[f"{kind}: {status}"] += 1
            time.sleep(0.1)
        if method == "POST" and status in (200, 201):
            self.acknowledged.append(
                (body["key"], int(path.split("/")[3]), answer["move"]["version"])
            )
            if start >= self.measured_from:
                self.moves.append(time.monotonic() - start)
        return status, answer


# The database -------------------------------------------------------------------------------


def add_origin_column() -> None:
    """Each move row records the application name of the connection that stored it."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "ALTER TABLE games_move ADD COLUMN origin text"
            " DEFAULT current_setting('application_name')"
        )


def set_up_ai_games(per_player: int) -> None:
    """Each player in ``per_player`` three-seat games against two medium AI players."""
    from accounts.models import User
    from games import services

    for user in User.objects.filter(username__startswith="p").order_by("pk"):
        for _ in range(per_player):
            services.create_game(user, engine="puerto_rico", num_players=3, ai_seats=2)


def database_figures(database: str) -> dict[str, float]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_total_relation_size('games_move'), pg_database_size(%s),"
            " (SELECT coalesce(max(id), 0) FROM games_move),"
            " tup_inserted + tup_updated + tup_deleted, wal_bytes, wal_sync"
            " FROM pg_stat_database, pg_stat_wal WHERE datname = %s",
            [database, database],
        )
        row = cursor.fetchone()
    names = ["move table", "database", "last move", "rows written", "WAL bytes", "WAL syncs"]
    return dict(zip(names, row, strict=True))


def ai_seats_to_act() -> int:
    from games.models import Seat

    return Seat.objects.to_act().exclude(ai_level="").count()


def check_moves() -> dict[str, int]:
    """Every acknowledged move stored once under its key, at its version; no key and no game
    version twice anywhere."""
    from django.db import connection

    keys = {key: (game, version) for key, game, version in Client.acknowledged}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT idempotency_key, game_id, version FROM games_move WHERE idempotency_key <> ''"
        )
        stored = defaultdict(list)
        for key, game, version in cursor.fetchall():
            stored[key].append((game, version))
        cursor.execute(
            "SELECT count(*) FROM (SELECT 1 FROM games_move GROUP BY game_id, version"
            " HAVING count(*) > 1) doubled"
        )
        versions_twice = cursor.fetchone()[0]
    return {
        "moves acknowledged (201 or 200)": len(Client.acknowledged),
        "acknowledged keys not stored (lost)": sum(key not in stored for key in keys),
        "acknowledged keys stored at another game or version": sum(
            key in stored and stored[key] != [at] for key, at in keys.items()
        ),
        "keys stored twice (doubled)": sum(len(at) > 1 for at in stored.values()),
        "sent, stored, never acknowledged": sum(
            key in Client.sent and key not in keys for key in stored
        ),
        "game versions stored twice": versions_twice,
    }


def stored_by(first_id: int) -> tuple[dict[str, tuple[int, int]], float]:
    """The moves (and forced moves among them) each process stored after ``first_id``, and
    the mean bytes of the bench's origin column."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT origin, count(*), count(*) FILTER (WHERE forced)"
            " FROM games_move WHERE id > %s GROUP BY origin ORDER BY origin",
            [first_id],
        )
        by_origin = {origin: (n, forced) for origin, n, forced in cursor}
        cursor.execute("SELECT avg(pg_column_size(origin)) FROM games_move")
        return by_origin, float(cursor.fetchone()[0])


def redis_calls(url: str) -> dict[str, int]:
    import redis

    stats = redis.Redis.from_url(url).info("commandstats")
    return {name.removeprefix("cmdstat_"): value["calls"] for name, value in stats.items()}


# The run ------------------------------------------------------------------------------------


def missing(args) -> str | None:
    """What the bench needs and does not find, or None."""
    import redis

    if shutil.which("caddy") is None:
        return "caddy is not installed"
    try:
        redis.Redis.from_url(args.redis, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        return f"Redis at {args.redis} is unreachable: {error}"
    if not recreate_database(args.server, args.database):
        return "PostgreSQL is unreachable"
    return None


def main() -> int:
    args = parse_args()
    if reason := missing(args):
        print(f"skipped: {reason}")
        return 1 if os.environ.get("CI", "").lower() == "true" else 0
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    with tempfile.TemporaryDirectory(prefix="puerto-scale-") as name:
        folder = Path(name)
        env = production_environment(args, folder)
        os.environ.update({**env, "PGAPPNAME": "bench"})
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        add_origin_column()
        sessions, _ = set_up_site(args.players, args.games_per_table)
        set_up_ai_games(args.ai_games)
        calibration = calibration_ms()
        processes = Processes(env, folder)
        try:
            result = run(args, processes, sessions)
        finally:
            processes.stop_all()
        result["database after"] = database_figures(args.database)  # stats flushed at exit
        result["redis after"] = redis_calls(args.redis)
    report(args, calibration, result)
    return 0 if result["lost or doubled"] == 0 else 1


def run(args, processes: Processes, sessions: list[str]) -> dict:
    for name in ("web-a", "web-b", "worker-a", "worker-b", "beat"):
        processes.start(name)
    port = processes.start_caddy()
    meter = CpuMeter(processes, args.database)
    meter.start()
    latencies: dict[str, list[float]] = defaultdict(list)
    measured_from = time.monotonic() + args.warm_up
    measured = (measured_from, measured_from + args.seconds)
    pacer = Pacer(args.rate)
    players = [
        Client(port, session, args, pacer, measured, latencies, args.seed * 1000 + i)
        for i, session in enumerate(sessions)
    ]
    for player in players:
        player.start()
    time.sleep(max(0.0, measured_from - time.monotonic()))
    meter.mark()
    before = {"database": database_figures(args.database), "redis": redis_calls(args.redis)}
    events = []
    for at, name in sorted([(args.kill_web_at, "web-a"), (args.kill_worker_at, "worker-a")]):
        time.sleep(max(0.0, measured_from + at - time.monotonic()))
        processes.kill(name)
        events.append(f"{name} killed at {time.monotonic() - measured_from:.1f} s")
        time.sleep(args.down)
        processes.start(name)
        events.append(f"{name} answering again at {time.monotonic() - measured_from:.1f} s")
    for player in players:
        player.join()
    load_ended = time.monotonic()
    while ai_seats_to_act() and time.monotonic() - load_ended < 180:
        time.sleep(0.5)
    events.append(f"AI turns settled {time.monotonic() - load_ended:.1f} s after the load")
    events.append(f"AI seats still to act: {ai_seats_to_act()}")
    used = meter.used()
    meter.stop.set()
    checks = check_moves()
    by_origin, origin_bytes = stored_by(before["database"]["last move"])
    lost_or_doubled = sum(checks[what] for what in LOST_OR_DOUBLED)
    return {
        "latencies": latencies, "events": events, "cpu": used, "checks": checks,
        "by origin": by_origin, "origin bytes": origin_bytes,
        "database before": before["database"], "redis before": before["redis"],
        "lost or doubled": lost_or_doubled,
    }  # fmt: skip


def report(args, calibration: float, result: dict) -> None:
    latencies, checks, cpu = result["latencies"], result["checks"], result["cpu"]
    print(
        f"{args.players} players aiming at {args.rate:g} moves/s for {args.seconds:g} s through"
        f" caddy to 2 gunicorn processes (2 workers each), 2 Celery workers (1 process each), beat"
    )
    print(f"calibration {calibration:.3f} ms; load average {os.getloadavg()[0]:.1f}")
    for event in result["events"]:
        print(f"  {event}")
    print("requests sent again (what the first try got):", dict(Client.retried) or "none")
    for kind, values in sorted(latencies.items()):
        if " answered " in kind and not kind.startswith("warm-up"):
            print(f"  {kind}: {len(values)}")
    moves = Client.moves
    print(
        f"move, first try to answer: {len(moves)} measured, p50 {p(moves, 50):.1f} ms,"
        f" p95 {p(moves, 95):.1f} ms, p99 {p(moves, 99):.1f} ms"
    )
    for kind in ("game page", "my games"):
        values = latencies[kind]
        print(f"{kind}: {len(values)}, p50 {p(values, 50):.1f} ms, p95 {p(values, 95):.1f} ms")
    for what, value in checks.items():
        print(f"  {what}: {value}")
    before, after = result["database before"], result["database after"]
    stored = after["last move"] - before["last move"]  # ids: no other writer, no gaps here
    print(f"moves stored during the measured load and the settling: {stored}")
    for origin, (n, forced) in result["by origin"].items():
        print(f"  stored by {origin}: {n} moves, {forced} of them forced")
    by = result["by origin"]
    persons = sum(n for origin, (n, _) in by.items() if origin.startswith("web"))
    ai = sum(n for origin, (n, _) in by.items() if origin.startswith("worker"))
    print(f"CPU seconds per 1,000 moves stored ({persons} by web, {ai} by the workers):")
    for kind, seconds in sorted(cpu.items()):
        per = {"web": persons, "caddy": persons, "worker": ai}.get(kind, stored)
        print(f"  {kind}: {seconds:.1f} s, {seconds / per * 1000:.1f} per 1,000", end="")
        print(f" {'by web' if per == persons else 'by the workers' if per == ai else 'in all'}")
    grown = {k: (after[k] - before[k]) / stored for k in after}
    print(
        f"per move stored: move table {grown['move table']:.0f} bytes (the bench's origin"
        f" column {result['origin bytes']:.0f} of them), database {grown['database']:.0f} bytes,"
        f" rows written {grown['rows written']:.2f}; the whole server's WAL"
        f" {grown['WAL bytes']:.0f} bytes and {grown['WAL syncs']:.2f} WAL syncs"
    )
    calls = Counter(result["redis after"])
    calls.subtract(result["redis before"])
    print(
        f"Redis commands per move stored: {calls.total() / stored:.2f}"
        f" ({', '.join(f'{k} {v / stored:.2f}' for k, v in calls.most_common(6))})"
    )
    print(f"lost or doubled moves: {result['lost or doubled']}")


if __name__ == "__main__":
    sys.exit(main())
