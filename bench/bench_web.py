"""The site under load: players moving at a fixed rate on gunicorn, PostgreSQL and Redis.

Recreates the PostgreSQL database ``puerto_bench``, seats ``--players`` people at tables of
four, each table with ``--games-per-table`` games going at once (correspondence players keep
many), and starts gunicorn as in production (``gunicorn.conf.py``, ``DEBUG=false``) on
127.0.0.1. Each player is a thread that asks for its games (``GET /api/games/?documents=1``:
those waiting for its move come with the game) and, for each game that waits, loads the HTML
game page on ``--page-share`` of its turns and posts a random legal move; with no game
waiting it polls again about a second later. The moves of all players together are paced at
``--rate`` a second, so latency is measured at a given throughput.

The first ``--warm-up`` seconds are played but not measured: all the players arrive in the
same second, each asking for all the games that wait for it, and the workers load their templates
and catalogues. The figures with them are printed too.

``python bench/bench_web.py --seconds 60``. Without a reachable PostgreSQL it says so and exits
0 (with ``CI=true``: 1). Targets: the game page in at most 8 SQL queries; at 100 moves/s, the
p95 of moves and of the game page at most 50 ms each.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engines.puerto_rico.data import BUILDINGS  # noqa: E402  (after the path is set)

TARGET_PAGE_QUERIES = 8
TARGET_P95_MS = 50.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="measured load (60)")
    parser.add_argument("--warm-up", type=float, default=5.0, help="before it, unmeasured (5)")
    parser.add_argument("--rate", type=float, default=100.0, help="moves a second (100)")
    parser.add_argument("--players", type=int, default=100, help="players, four a table (100)")
    parser.add_argument("--games-per-table", type=int, default=32, help="games a table (32)")
    parser.add_argument("--page-share", type=float, default=0.2, help="turns with a page (0.2)")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--database", default="puerto_bench", help="recreated (puerto_bench)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/3", help="emptied first")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


# Set-up -------------------------------------------------------------------------------------


def recreate_database(server: str, name: str) -> bool:
    """Drop and create the bench database; False when PostgreSQL cannot be reached."""
    import psycopg

    try:
        admin = psycopg.connect(server + "postgres", autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        print(f"PostgreSQL at {server} is unreachable: {error}".strip())
        return False
    with admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    return True


def production_environment(args, folder: Path) -> dict[str, str]:
    """Production settings, shared by this process and the server (one SECRET_KEY, so the
    sessions made here are valid there)."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "puerto.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": args.server + args.database,
        "REDIS_URL": args.redis,
        "EMAIL_URL": "dummy://",
        "PUERTO_VAR_DIR": str(folder / "var"),
        "STATIC_ROOT": str(folder / "static"),
        "LOG_LEVEL": "WARNING",
    }


def set_up_site(players: int, games_per_table: int) -> tuple[list[str], int]:
    """Migrate, make the players and start their games; returns each player's session and
    the number of SQL queries of a game page."""
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User
    from games import services

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    users = User.objects.bulk_create(User(username=f"p{i:03d}") for i in range(players))
    for table in range(players // 4):
        seated = users[table * 4 : table * 4 + 4]
        for _ in range(games_per_table):
            game = services.create_game(seated[0], engine="puerto_rico", num_players=4)
            for user in seated[1:]:
                services.join_game(game.pk, user)
    sessions = []
    for user in users:
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        sessions.append(client.cookies["sessionid"].value)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(f"/games/{game.pk}/", secure=True).status_code == 200
    return sessions, len(queries)


def start_gunicorn(env: dict[str, str], port: int, log: Path) -> subprocess.Popen:
    """gunicorn as in production, in a process group of its own; returns once it answers."""
    gunicorn = Path(sys.executable).with_name("gunicorn")
    command = [str(gunicorn), "puerto.wsgi", "-b", f"127.0.0.1:{port}", "--log-level", "warning"]
    server = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
        start_new_session=True,
    )  # fmt: skip
    for _ in range(150):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.2)
    os.killpg(server.pid, signal.SIGTERM)
    raise SystemExit(f"gunicorn did not answer:\n{log.read_text()}")


# The players --------------------------------------------------------------------------------


class Pacer:
    """Slots ``1 / rate`` seconds apart, each taken by one move of whichever player is ready
    first. One slot missed while no player was ready may be made up; older ones are lost, so a
    site that cannot keep up shows fewer moves than aimed at."""

    def __init__(self, rate: float) -> None:
        self.gap = 1 / rate
        self.next = time.monotonic()
        self.lock = threading.Lock()

    def wait(self) -> None:
        with self.lock:
            slot = max(self.next, time.monotonic() - self.gap)
            self.next = slot + self.gap
        time.sleep(max(0.0, slot - time.monotonic()))


class Player(threading.Thread):
    """One person, as a browser or bot behind the TLS proxy would talk to the site."""

    def __init__(self, port, session, args, pacer, measured, latencies, seed) -> None:
        super().__init__(daemon=True)
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        csrf = secrets.token_hex(16)
        self.headers = {
            "Cookie": f"sessionid={session}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "X-Forwarded-Proto": "https",
            "Origin": f"https://127.0.0.1:{port}",
            "Content-Type": "application/json",
        }
        self.args, self.pacer = args, pacer
        self.measured_from, self.deadline = measured
        self.latencies, self.rng = latencies, random.Random(seed)

    def request(self, kind: str, method: str, path: str, body=None):
        """Send one request, note how long it took (under "warm-up" before the measured
        seconds); returns the status and the JSON, if any."""
        start = time.monotonic()
        self.connection.request(method, path, json.dumps(body) if body else None, self.headers)
        response = self.connection.getresponse()
        data = response.read()
        if start < self.measured_from:
            kind = f"warm-up {kind}"
        self.latencies[kind].append(time.monotonic() - start)
        if response.status >= 400:
            self.latencies[f"{kind} answered {response.status}"].append(0)
        if response.getheader("Content-Type", "").startswith("application/json"):
            return response.status, json.loads(data)
        return response.status, None

    def run(self) -> None:
        time.sleep(self.rng.uniform(0, 1))  # not all at the same instant
        while time.monotonic() < self.deadline:
            _, listed = self.request("my games", "GET", "/api/games/?documents=1")
            waiting = [g["game"] for g in listed["games"] if "game" in g]
            if not waiting:
                time.sleep(self.rng.uniform(0.5, 1.5))
            for game in waiting:
                if time.monotonic() >= self.deadline:
                    break
                if self.rng.random() < self.args.page_share:
                    self.request("game page", "GET", f"/games/{game['id']}/")
                self.play(game)

    def play(self, game: dict) -> None:
        """Move while it is this player's turn, each time from the game the answer carries."""
        while game["to_act"] == game["you"] and time.monotonic() < self.deadline:
            action = self.rng.choice(game["legal_actions"] or [self.arrangement(game)])
            body = {"action": action, "version": game["version"]}
            self.pacer.wait()
            status, answer = self.request("move", "POST", f"/api/games/{game['id']}/moves/", body)
            if status not in (200, 201):  # 200: a move sent again, answered as stored
                return
            game = answer["game"]

    def arrangement(self, game: dict) -> dict:
        """The mayor's placement (the API counts them, not lists them): every colonist on a
        free circle of the island or the city, in random order, the rest in San Juan."""
        me = game["view"]["players"][game["you"]]
        colonists = sum(t["colonists"] for t in me["island"].values())
        colonists += sum(me["city"].values()) + me["san_juan"]
        circles = [("island", kind, tiles["tiles"]) for kind, tiles in me["island"].items()]
        circles += [("city", name, BUILDINGS[name].circles) for name in me["city"]]
        self.rng.shuffle(circles)
        placed: dict[str, dict[str, int]] = {"island": {}, "city": {}}
        for where, name, free in circles:
            if min(free, colonists):
                placed[where][name] = min(free, colonists)
                colonists -= placed[where][name]
        return {"type": "arrange", **placed, "privilege": False}


# Measuring ----------------------------------------------------------------------------------


def cpu_seconds(server: int) -> dict[str, float]:
    """CPU seconds so far of gunicorn (its process group), of this process (the players), and
    of the whole machine (every process, other people's and PostgreSQL's too), with its wall
    time in CPU seconds (the cores times the seconds)."""
    tick = os.sysconf("SC_CLK_TCK")
    gunicorn = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[2]) == server:  # its process group
            gunicorn += int(fields[11]) + int(fields[12])  # user and system time
    machine = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return {
        "gunicorn": gunicorn / tick,
        "players": time.process_time(),
        "machine": (sum(machine) - machine[3] - machine[4]) / tick,  # all but idle and iowait
        "wall": sum(machine) / tick,
    }


def calibration_ms() -> float:
    """This machine's speed at plain Python now (median of 200 sums of 10,000 squares): its
    speed varies, so runs compare only at similar calibrations."""
    times = []
    for _ in range(200):
        start = time.perf_counter()
        sum(i * i for i in range(10_000))
        times.append(time.perf_counter() - start)
    return sorted(times)[100] * 1e3


def p(values: list[float], percent: float) -> float:
    return sorted(values)[round(percent / 100 * (len(values) - 1))] * 1e3


def main() -> None:
    args = parse_args()
    if not recreate_database(args.server, args.database):
        if os.environ.get("CI", "").lower() == "true":
            raise SystemExit("CI=true: the web benchmark needs PostgreSQL")
        print("skipped: the web benchmark needs PostgreSQL")
        return
    import redis

    redis.Redis.from_url(args.redis).flushdb()
    with tempfile.TemporaryDirectory(prefix="puerto-bench-") as folder:
        env = production_environment(args, Path(folder))
        os.environ.update(env)
        import django

        django.setup()
        sessions, page_queries = set_up_site(args.players, args.games_per_table)
        calibration = calibration_ms()
        with socket.socket() as probe:  # a free port
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = start_gunicorn(env, port, Path(folder) / "gunicorn.log")
        latencies: dict[str, list[float]] = defaultdict(list)
        measured_from = time.monotonic() + args.warm_up
        measured = (measured_from, measured_from + args.seconds)
        pacer = Pacer(args.rate)
        players = [
            Player(port, session, args, pacer, measured, latencies, args.seed * 1000 + i)
            for i, session in enumerate(sessions)
        ]
        for player in players:
            player.start()
        time.sleep(max(0.0, measured_from - time.monotonic()))
        before, started = cpu_seconds(server.pid), time.monotonic()
        for player in players:
            player.join()
        used = {k: v - before[k] for k, v in cpu_seconds(server.pid).items()}
        elapsed = time.monotonic() - started  # the load and the last answers after it
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()

    moves, pages = latencies["move"], latencies["game page"]
    print(
        f"{args.players} players aiming at {args.rate:g} moves/s for {args.seconds:g} s,"
        f" after {args.warm_up:g} s of warm-up"
    )
    print(f"calibration {calibration:.3f} ms (the median of 200 sums of 10k squares)")
    print(
        f"cores busy during the load: {used['machine'] / used['wall'] * os.cpu_count():.2f}"
        f" of {os.cpu_count()}, gunicorn {used['gunicorn'] / elapsed:.2f}, the players"
        f" {used['players'] / elapsed:.2f}, the rest (PostgreSQL, Redis, other work)"
        f" {(used['machine'] - used['gunicorn'] - used['players']) / elapsed:.2f};"
        f" load average {os.getloadavg()[0]:.1f}"
    )
    print(f"  {'request':<12}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for kind, values in sorted(latencies.items()):
        if kind.startswith("warm-up") and " answered " not in kind:
            continue
        if " answered " in kind:
            print(f"  {kind}: {len(values)}")
            continue
        print(f"  {kind:<12}{len(values):>7}{p(values, 50):>9.1f}{p(values, 95):>9.1f}", end="")
        print(f"{p(values, 99):>9.1f}")
    print(f"moves per second: {len(moves) / args.seconds:.1f}")
    warm_moves, warm_pages = (
        moves + latencies["warm-up move"],
        pages + latencies["warm-up game page"],
    )
    print(
        f"with the warm-up: move p95 {p(warm_moves, 95):.1f} ms,"
        f" page p95 {p(warm_pages, 95):.1f} ms"
    )
    for what, value, target in [
        ("game page SQL queries", page_queries, TARGET_PAGE_QUERIES),
        ("move p95 ms", round(p(moves, 95), 1), TARGET_P95_MS),
        ("game page p95 ms", round(p(pages, 95), 1), TARGET_P95_MS),
    ]:
        print(f"{what} {value} <= {target:g}: {'ok' if value <= target else 'MISSED'}")


if __name__ == "__main__":
    main()
