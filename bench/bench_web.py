"""Speed of the site under 100 simulated players: moves, the game page, unchanged polls.

Recreates a PostgreSQL database (``puerto_bench``), seats 100 people at 25 tables of four,
each table with several games going at once (as correspondence players have), starts the
production server (gunicorn; ``--server-kind granian`` to compare) with production settings
(``DEBUG=false``) on 127.0.0.1 and lets the players play random
legal moves through the JSON API for ``--seconds``. Each player polls
``/api/games/?documents=1`` (its games, those waiting for its move first, each of these with
the game as a read shows it) about once a second when nothing waits, as the game page does;
for a game waiting for it, it (now and then loads the HTML game page, as a person would)
posts a move from the game the list brought, and moves again from the game that the move's
answer carries while the turn stays its own. Then one client alone measures each kind
of request with nothing else running.

``python bench/bench_web.py --seconds 60``. Without a reachable PostgreSQL the script says so and
exits 0, unless ``CI=true``. Targets: moves p95 <= 50 ms at >= 300 moves/s; the game page
p95 <= 30 ms in at most 8 SQL queries.
"""

from __future__ import annotations

import argparse
import functools
import http.client
import math
import os
import platform
import random
import resource
import runpy
import secrets
import signal
import socket
import string
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import orjson

from games.engines.puerto_rico.data import BUILDINGS, ISLAND_KINDS

ROOT = Path(__file__).resolve().parent.parent

PLAYERS_PER_GAME = 4
TARGET_MOVE_P95_MS = 50.0
TARGET_MOVES_PER_S = 300.0
TARGET_PAGE_P95_MS = 30.0
TARGET_PAGE_QUERIES = 8
IN_CI = os.environ.get("CI", "").lower() == "true"
MY_GAMES = "/api/games/?documents=1"
"""What a player polls: its games, each waiting for its move with the game to move in."""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the load (30)")
    parser.add_argument("--players", type=int, default=100, help="simulated players (100)")
    parser.add_argument(
        "--warm-up",
        type=float,
        default=3.0,
        help="seconds over which the players start, left out of the figures (3)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=TARGET_MOVES_PER_S * 1.01,
        help="moves per second the players aim at together (1 %% above the target, %(default).0f:"
        " aiming at exactly the target, whether a site that kept up met it depended on which"
        " side of the window's end one move fell); 0: each moves as fast as the site answers",
    )
    parser.add_argument(
        "--catch-up",
        type=float,
        default=1.0,
        help="slots of the players' shared schedule that may be made up at once, missed while"
        " no player was ready to move (1; each player on its own schedule, allowed to make up"
        " one slot, made about 3 %% fewer moves than aimed at: its slots passed while it slept"
        " with no game waiting for it)",
    )
    parser.add_argument(
        "--games-per-table",
        type=int,
        default=32,
        help="games each table of four plays at the same time (32: with fewer, the players"
        " often had no game waiting for them and slept until their next poll, so they offered"
        " less than they aimed at however fast the site answered)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=runpy.run_path(str(ROOT / "gunicorn.conf.py"))["workers"],
        help="server workers (as gunicorn.conf.py: one more than the cores, or WEB_CONCURRENCY)",
    )
    parser.add_argument(
        "--threads", type=int, default=1, help="threads per worker (1); gunicorn: gthread"
    )
    parser.add_argument(
        "--server-kind",
        choices=("gunicorn", "granian"),
        default="gunicorn",
        help="the WSGI server: gunicorn's sync (or, with --threads, gthread) workers, as in"
        " production (the default), or granian",
    )
    parser.add_argument(
        "--poll-interval",
        type=float,
        default=1.0,
        help="seconds between the polls of a player whom no game waits for (1.0, as the page)",
    )
    parser.add_argument(
        "--page-share",
        type=float,
        default=0.2,
        help="share of turns on which the player also loads the HTML game page (0.2)",
    )
    parser.add_argument(
        "--max-requests", type=int, default=20_000, help="requests at most per player (20000)"
    )
    parser.add_argument("--quiet-requests", type=int, default=400, help="requests per quiet check")
    parser.add_argument(
        "--server", default="postgres://postgres@127.0.0.1:5432/", help="PostgreSQL server URL"
    )
    parser.add_argument("--database", default="puerto_bench", help="database to (re)create")
    parser.add_argument(
        "--redis",
        default="redis://127.0.0.1:6379/3",
        help="Redis for the cache and sessions, emptied first (without it: per-process cache)",
    )
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


# Set-up: database, settings, users and games ------------------------------------------------


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


def redis_reachable(url: str) -> bool:
    import redis

    try:
        return bool(url) and redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError:
        return False


def server_environment(database_url: str, redis_url: str, var_dir: Path) -> dict[str, str]:
    """Production settings on 127.0.0.1, shared by this process and the server (one SECRET_KEY,
    so the sessions made here are valid there); Redis for the cache and sessions as in
    production, when it can be reached."""
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "puerto.settings",
        "PYTHONPATH": str(ROOT),
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": database_url,
        "PUERTO_VAR_DIR": str(var_dir / "var"),
        "STATIC_ROOT": str(var_dir / "static"),
        "LOG_LEVEL": "WARNING",
        "REDIS_URL": redis_url,
        "EMAIL_URL": "dummy://",
    }


def set_up_site(tables: int, games_per_table: int) -> tuple[list[dict], list[list[int]]]:
    """Migrate, collect static files, make the players with a session each, and start every
    table's games. Returns the players and each table's game ids."""
    from django.core.management import call_command
    from django.test import Client

    from accounts.models import User

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    users = User.objects.bulk_create(
        User(username=f"player{i:03d}", password="!") for i in range(tables * PLAYERS_PER_GAME)
    )
    players, table_games = [], []
    for t in range(tables):
        seated = users[t * PLAYERS_PER_GAME : (t + 1) * PLAYERS_PER_GAME]
        games = [start_game(seated) for _ in range(games_per_table)]
        table_games.append(games)
        for user in seated:
            client = Client()
            client.force_login(user)
            players.append({"table": t, "session": client.cookies["sessionid"].value})
    return players, table_games


def start_game(users) -> int:
    """A four-player game of ``users`` (the first opens it), started; returns its id."""
    from games import services

    game = services.create_game(users[0], num_players=PLAYERS_PER_GAME)
    for user in users[1:]:
        services.join_game(game.pk, user)
    return game.pk


def quiet_game(table_games: list[list[int]]) -> int:
    """A new game for the players of the first table, for the checks after the load."""
    from games.models import Game

    seats = Game.objects.get(pk=table_games[0][0]).seats.select_related("user")
    return start_game([s.user for s in seats.order_by("pk")])


def count_queries(table_games: list[list[int]]) -> dict[str, int]:
    """SQL queries per request, counted in this process against the same database."""
    from django.db import connection, connections
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from games.engines import get_engine
    from games.models import Game

    game = Game.objects.get(pk=table_games[0][0])
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(game.seat_to_act().user)
    rules = get_engine(game.engine)
    action = rules.action_to_json(rules.legal_actions(rules.from_json(game.state))[0])
    requests = {
        "game page": lambda: client.get(f"/games/{game.pk}/", secure=True),
        "unchanged poll": lambda: client.get(
            f"/games/{game.pk}/poll/?v={game.version}", secure=True
        ),
        "API version": lambda: client.get(f"/api/games/{game.pk}/version/", secure=True),
        "API my games": lambda: client.get("/api/games/", secure=True),
        "API game": lambda: client.get(f"/api/games/{game.pk}/", secure=True),
        "API move": lambda: client.post(
            f"/api/games/{game.pk}/moves/",
            {"action": action, "version": game.version},
            content_type="application/json",
            secure=True,
        ),
    }
    counts = {}
    for name, request in requests.items():
        with CaptureQueriesContext(connection) as queries:
            response = request()
        assert response.status_code in (200, 201, 204), (name, response.status_code)
        counts[name] = len(queries)
    connections.close_all()
    return counts


# The server -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_command(kind: str, port: int, workers: int, threads: int) -> list[str]:
    if kind == "granian":
        return [
            str(Path(sys.executable).with_name("granian")),
            "--interface",
            "wsgi",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--blocking-threads",
            str(threads),
            "--log-level",
            "warning",
            "puerto.wsgi:application",
        ]
    command = [
        str(Path(sys.executable).with_name("gunicorn")),
        "puerto.wsgi",
        "-w",
        str(workers),
        "-b",
        f"127.0.0.1:{port}",
        "--log-level",
        "warning",
    ]
    if threads > 1:
        command += ["--worker-class", "gthread", "--threads", str(threads)]
    return command


def start_server(env: dict[str, str], command: list[str], port: int, log: Path):
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group, so that stop_server ends the workers
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped at start:\n{log.read_text()}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return server, " ".join([Path(command[0]).name, *command[1:]])
        except OSError:
            time.sleep(0.2)
    stop_server(server)
    raise SystemExit(f"the server did not answer /healthz within 30 s:\n{log.read_text()}")


def stop_server(server: subprocess.Popen) -> None:
    """Stop the server and every worker it started (granian's outlive their parent)."""
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(timeout=30)


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children that have not exited."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    while pids:
        current = pids.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / ticks
            for task in Path(f"/proc/{current}/task").iterdir():
                pids += [int(c) for c in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total


# Simulated players -------------------------------------------------------------------------


class Recorder:
    """Latencies in seconds per kind of request, and counts of notable answers, of the
    requests sent from ``since`` until ``until`` (``time.monotonic()`` values): the players'
    start and their last answers after the end are left out."""

    def __init__(self, since: float = 0.0, until: float = math.inf) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.counts: dict[str, int] = defaultdict(int)
        self.lock = threading.Lock()
        self.since, self.until = since, until

    def add(self, kind: str, seconds: float) -> None:
        if self.since <= time.monotonic() - seconds < self.until:
            with self.lock:
                self.latencies[kind].append(seconds)

    def count(self, what: str, sent: float | None = None) -> None:
        """Count ``what`` if it happened in the window, or, given ``sent``, if the request it
        answers was sent in the window (as the latencies are), so that a rate counted so is
        not cut short by the answers still on their way at the end."""
        if self.since <= (time.monotonic() if sent is None else sent) < self.until:
            with self.lock:
                self.counts[what] += 1


class Client:
    """One player's HTTP connection, sending what a browser or bot behind the TLS proxy sends.

    HTTP/1.1 on a plain socket, and JSON through orjson: the load generator shares the
    machine with the server, and with ``http.client`` and the standard library's JSON it
    took a third more CPU time (twice as much with a server that keeps connections open),
    which the server would lose."""

    def __init__(self, port: int, session: str, recorder: Recorder, seed: int) -> None:
        self.port = port
        self.socket: socket.socket | None = None
        csrf = "".join(random.Random(seed).choices(string.ascii_letters + string.digits, k=32))
        # As behind the proxy in production: X-Forwarded-Proto, and an Origin for CSRF.
        self.headers = (
            f"Host: 127.0.0.1:{port}\r\n"
            f"Cookie: sessionid={session}; csrftoken={csrf}\r\n"
            f"X-CSRFToken: {csrf}\r\n"
            "X-Forwarded-Proto: https\r\n"
            f"Origin: https://127.0.0.1:{port}\r\n"
        ).encode()
        self.recorder = recorder
        self.rng = random.Random(seed)
        self.requests = 0
        self.sent = 0.0  # when the last request was sent (``time.monotonic()``)

    def request(self, kind: str, method: str, path: str, body: dict | None = None):
        """Send one request and record its latency; returns the status and any JSON."""
        payload = b"" if body is None else orjson.dumps(body)
        head = f"{method} {path} HTTP/1.1\r\n".encode() + self.headers
        if body is not None:
            head += b"Content-Type: application/json\r\n"
        message = head + b"Content-Length: %d\r\n\r\n" % len(payload) + payload
        self.requests += 1
        self.sent = time.monotonic()
        start = time.perf_counter()
        try:
            status, headers, data = self.exchange(message)
        except (OSError, ValueError):
            self.close()
            self.recorder.count(f"{kind}: connection error")
            return None, None
        self.recorder.add(kind, time.perf_counter() - start)
        if status >= 300 and status != 409:
            self.recorder.count(f"{kind}: HTTP {status}")
        is_json = headers.get(b"content-type", b"").startswith(b"application/json")
        return status, orjson.loads(data) if is_json and data else None

    def exchange(self, message: bytes) -> tuple[int, dict[bytes, bytes], bytes]:
        """Send a request, read its answer (sized by Content-Length, as Django's are); the
        connection is kept while the server keeps it."""
        if self.socket is None:
            self.socket = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        self.socket.sendall(message)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            received += chunk
        head, _, data = received.partition(b"\r\n\r\n")
        status_line, *lines = head.split(b"\r\n")
        headers = {}
        for line in lines:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get(b"content-length", b"0"))
        while len(data) < length:
            chunk = self.socket.recv(65536)
            if not chunk:
                raise ConnectionError("the answer ended early")
            data += chunk
        if headers.get(b"connection", b"").lower() == b"close":
            self.close()
        return int(status_line.split()[1]), headers, data

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()
            self.socket = None

    def take_turn(
        self, game: int, busy=lambda: True, pace=lambda: None, data: dict | None = None
    ) -> tuple[int, dict]:
        """Read the game (unless the list brought it as ``data``), then post random legal
        actions while the turn stays this player's, each from the game the previous move's
        answer carries; ``pace`` waits before each. Returns the moves made and the game as
        last seen."""
        if data is None:
            status, data = self.request("api game", "GET", f"/api/games/{game}/")
        else:
            status = 200
        moves = 0
        while status == 200 and data["to_act"] == data["you"] is not None and busy():
            if data["legal_actions"] is None:
                action = self.arrangement(data["view"], data["you"])
            else:
                action = self.rng.choice(data["legal_actions"])
            key = f"{game}-{data['version']}-{self.rng.getrandbits(32):08x}"
            body = {"action": action, "version": data["version"], "key": key}
            pace()
            status, answer = self.request("move", "POST", f"/api/games/{game}/moves/", body)
            if status != 201:
                self.recorder.count(f"moves refused with {status}: {answer}")
                break
            self.recorder.count("moves accepted", sent=self.sent)
            moves += 1
            status, data = 200, answer["game"]
        return moves, data

    def arrangement(self, view: dict, me: int) -> dict:
        """The mayor's placement, made from the view as a client would: every colonist on a
        free circle, in random order, and only the rest in San Juan."""
        seat = view["players"][me]
        colonists = sum(t["colonists"] for t in seat["island"].values())
        colonists += sum(seat["city"].values()) + seat["san_juan"]
        privilege = (
            view["phase_state"]["turn"] == 0
            and view["colonists"]["supply"] > 0
            and self.rng.random() < 0.5
        )
        colonists += privilege
        groups = [("island", k, t["tiles"]) for k, t in seat["island"].items() if t["tiles"]]
        groups += [("city", b, BUILDINGS[b].circles) for b in seat["city"]]
        self.rng.shuffle(groups)
        placed: dict[str, dict[str, int]] = {"island": {}, "city": {}}
        for where, name, circles in groups:
            n = min(circles, colonists)
            colonists -= n
            if n:
                placed[where][name] = n
        assert set(placed["island"]) <= set(ISLAND_KINDS)
        return {"type": "arrange", **placed, "privilege": privilege}


class Schedule:
    """When the players together may make their next move: slots one after another at
    ``rate`` a second, each taken by one move of whichever player is ready first. The gaps are
    random, between half and one and a half times the mean, in pairs that add up to twice the
    mean, so the rate holds over any stretch of the run (with independent gaps, a run of
    fixed seed was 0.6 % slow). A player with no game waiting for it leaves its share to the
    others, as on a site with many players. Slots that pass while no player is ready (all of
    them waiting for answers, when the site cannot keep up) are made up, up to ``catch_up`` of
    them at once, and otherwise lost, so that a site that cannot keep up shows fewer moves
    than aimed at."""

    def __init__(self, rate: float, catch_up: float, deadline: float, seed: int) -> None:
        self.gap = 1 / rate if rate else 0.0
        self.catch_up, self.deadline = catch_up, deadline
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.next_slot = time.monotonic()
        self.mirror: float | None = None

    def wait(self) -> None:
        if not self.gap:
            return
        with self.lock:
            now = time.monotonic()
            slot = max(self.next_slot, now - self.catch_up * self.gap)
            if self.mirror is None:
                factor = self.rng.uniform(0.5, 1.5)
                self.mirror = 2 - factor
            else:
                factor, self.mirror = self.mirror, None
            self.next_slot = slot + self.gap * factor
        if slot > now:
            time.sleep(max(0.0, min(slot, self.deadline) - now))


class Player(threading.Thread):
    """One person at one table: asks which of their games wait for them, plays those, and
    polls about once a second when none does, until their games are over. With a ``--rate``,
    each move waits for a slot of the ``Schedule`` all players share."""

    def __init__(self, client: Client, args, deadline: float, schedule: Schedule) -> None:
        super().__init__(daemon=True)
        self.client, self.args, self.deadline = client, args, deadline
        self.pace = schedule.wait

    def busy(self) -> bool:
        return time.monotonic() < self.deadline and self.client.requests < self.args.max_requests

    def run(self) -> None:
        client = self.client
        time.sleep(client.rng.uniform(0, self.args.warm_up))  # not all at the same instant
        while self.busy():
            status, data = client.request("api games", "GET", MY_GAMES)
            if status != 200:
                break
            running = [g for g in data["games"] if g["status"] == "running"]
            if not running:
                client.recorder.count("players whose games all ended")
                break
            waiting = [g for g in running if g["your_turn"]]
            if not waiting:
                time.sleep(self.args.poll_interval * client.rng.uniform(0.5, 1.5))
            for game in waiting:
                if not self.busy():
                    break
                if client.rng.random() < self.args.page_share:
                    client.request("game page", "GET", f"/games/{game['id']}/")
                client.take_turn(game["id"], self.busy, self.pace, game.get("game"))
        client.close()


def run_players(port, players, args, usage) -> tuple[Recorder, dict]:
    started = time.monotonic()
    deadline = started + args.seconds
    recorder = Recorder(since=started + args.warm_up, until=deadline)
    schedule = Schedule(args.rate, args.catch_up, deadline, args.seed)
    threads = [
        Player(
            Client(port, p["session"], recorder, args.seed * 1_000_003 + i),
            args,
            deadline,
            schedule,
        )
        for i, p in enumerate(players)
    ]
    usage = usage()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return recorder, usage.stop()


def stolen_seconds() -> float:
    """CPU seconds the hypervisor gave to other guests while this machine wanted them (the
    ``steal`` column of ``/proc/stat``, all cores); 0 where the kernel does not say."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


class Usage:
    """Wall time, and CPU seconds of the server (master and workers), of PostgreSQL's backends
    serving the bench database (those that exist at the end count from zero), of this
    process (the load generator), and those the host took away (``stolen_seconds``)."""

    def __init__(self, server_pid: int, backends) -> None:
        self.server_pid, self.backends = server_pid, backends
        self.start = self.read()

    def read(self) -> dict[str, float]:
        own = resource.getrusage(resource.RUSAGE_SELF)
        values = {f"postgres {pid}": cpu_seconds(pid) for pid in self.backends()}
        values["server"] = cpu_seconds(self.server_pid)
        values["load generator"] = own.ru_utime + own.ru_stime
        values["stolen"] = stolen_seconds()
        values["wall"] = time.monotonic()
        return values

    def stop(self) -> dict[str, float]:
        end = self.read()
        used = {name: end[name] - self.start.get(name, 0.0) for name in end}
        used["postgres"] = sum(v for k, v in used.items() if k.startswith("postgres "))
        return used


def quiet_checks(port, sessions, game, requests, usage) -> tuple[Recorder, dict[str, float]]:
    """Each kind of request alone, one at a time, with the server's CPU per request (the
    server and PostgreSQL): the page, an unchanged poll, the API's version and game, and moves (the
    game list, the game read and the posts) played in turn by the four players of one game."""
    recorder, cpu = Recorder(), {}
    clients = [Client(port, s, recorder, i) for i, s in enumerate(sessions)]
    _, data = clients[0].request("warm-up", "GET", f"/api/games/{game}/version/")
    for kind, path in [
        ("game page", f"/games/{game}/"),
        ("unchanged poll", f"/games/{game}/poll/?v={data['version']}"),
        ("api version", f"/api/games/{game}/version/"),
        ("api games", MY_GAMES),
        ("api game", f"/api/games/{game}/"),
    ]:
        counter = usage()
        for _ in range(requests):
            clients[0].request(kind, "GET", path)
        used = counter.stop()
        cpu[kind] = (used["server"] + used["postgres"]) / requests
    seats = {c.request("warm-up", "GET", f"/api/games/{game}/")[1]["you"]: c for c in clients}
    counter, moves, to_act = usage(), 0, data["to_act"]
    while moves < requests and to_act is not None:
        client = seats[to_act]
        _, listed = client.request("api games", "GET", MY_GAMES)
        document = next((g.get("game") for g in listed["games"] if g["id"] == game), None)
        made, data = client.take_turn(game, data=document)
        moves += made
        to_act = data["to_act"] if made else None
    used = counter.stop()
    cpu["move"] = (used["server"] + used["postgres"]) / max(moves, 1)
    for client in clients:
        client.close()
    return recorder, cpu


# Report -----------------------------------------------------------------------------------


def calibration_ms() -> float:
    """This machine's speed at plain Python right now (the median of 200 sums of 10,000
    squares), so that runs on a host whose speed varies can be compared."""
    times = []
    for _ in range(200):
        start = time.perf_counter()
        sum(i * i for i in range(10_000))
        times.append(time.perf_counter() - start)
    return percentile(times, 50) * 1e3


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


KINDS = ("move", "api game", "api games", "api version", "game page", "unchanged poll")


def table(recorder: Recorder, elapsed: float | None = None, cpu: dict | None = None) -> None:
    """Latency percentiles per kind of request; a rate under load, CPU per request alone."""
    last = "per s" if elapsed else "CPU ms"
    print(f"  {'request':<16}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{last:>9}")
    for kind in KINDS:
        values = recorder.latencies.get(kind)
        if not values:
            continue
        if elapsed:
            extra = f"{len(values) / elapsed:9.1f}"
        else:
            extra = f"{cpu[kind] * 1e3:9.2f}" if cpu and kind in cpu else ""
        print(
            f"  {kind:<16}{len(values):>8}{percentile(values, 50) * 1e3:>9.1f}"
            f"{percentile(values, 95) * 1e3:>9.1f}{percentile(values, 99) * 1e3:>9.1f}{extra}"
        )


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def bench_backends(server: str, database: str):
    """A function listing the PostgreSQL backends that serve ``database`` (the server's)."""
    import psycopg

    monitor = psycopg.connect(server + "postgres", autocommit=True)

    def backends() -> list[int]:
        rows = monitor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s", (database,)
        ).fetchall()
        return [pid for (pid,) in rows]

    return backends


def main() -> None:
    args = parse_args()
    tables = args.players // PLAYERS_PER_GAME
    cores = os.cpu_count() or 1
    if not recreate_database(args.server, args.database):
        if IN_CI:
            raise SystemExit("CI=true: the web benchmark needs PostgreSQL")
        print("skipped: the web benchmark needs PostgreSQL")
        return
    with tempfile.TemporaryDirectory(prefix="puerto-bench-") as tmp:
        redis_url = args.redis if redis_reachable(args.redis) else ""
        if redis_url:
            import redis

            redis.Redis.from_url(redis_url).flushdb()
        env = server_environment(args.server + args.database, redis_url, Path(tmp))
        os.environ.update(env)
        import django

        django.setup()
        started = time.monotonic()
        players, table_games = set_up_site(tables, args.games_per_table)
        queries = count_queries(table_games)
        print(f"python {platform.python_version()}, {cores} cores", end=", ")
        print(f"calibration {calibration_ms():.3f} ms (sum of 10k squares); set-up", end=" ")
        print(f"{time.monotonic() - started:.1f} s: {len(players)} players, {tables} tables")
        backends = bench_backends(args.server, args.database)
        port = free_port()
        command = server_command(args.server_kind, port, args.workers, args.threads)
        server, command = start_server(env, command, port, Path(tmp) / "server.log")
        try:
            load_before = os.getloadavg()[0]
            usage = functools.partial(Usage, server.pid, backends)
            recorder, used = run_players(port, players, args, usage)
            load_after = os.getloadavg()[0]
            sessions = [p["session"] for p in players if p["table"] == 0]
            game = quiet_game(table_games)
            quiet, cpu = quiet_checks(port, sessions, game, args.quiet_requests, usage)
        finally:
            stop_server(server)
        elapsed = args.seconds - args.warm_up  # the measured part
        cache = "Redis cache and sessions" if redis_url else "no Redis: sessions in PostgreSQL"
        print(f"server: {command} (DEBUG=false, PostgreSQL, CONN_MAX_AGE=60, {cache})")
        print(
            f"load: {len(players)} players aiming at {args.rate or 'as many as they can'} moves/s"
            f" together, {args.games_per_table} games a table at once,"
            f" poll every {args.poll_interval} s when none waits, page on"
            f" {args.page_share:.0%} of turns, {elapsed:.1f} s measured after {args.warm_up:g} s"
            f" of start; the load generator shares the"
            f" {cores} cores with the server and PostgreSQL (and whatever else runs)"
        )
        print(
            f"CPU seconds during the load: server {used['server']:.1f}, PostgreSQL"
            f" {used['postgres']:.1f}, load generator {used['load generator']:.1f}"
            f" (of {used['wall'] * cores:.1f} in the whole run), taken by the host (steal)"
            f" {used['stolen']:.1f}; load average"
            f" {load_before:.1f} before,"
            f" {load_after:.1f} after"
        )
        print("\nunder load:")
        table(recorder, elapsed)
        print("\none client alone, one request at a time (CPU: server + PostgreSQL):")
        table(quiet, cpu=cpu)
        print(
            "  (a move's CPU covers its share of the cycle: the list of games, the game read and"
            " the posts that follow it; not the version read that finds the next player)"
        )
        for what, n in sorted({**recorder.counts, **quiet.counts}.items()):
            print(f"  {what}: {n}")
        print("\nSQL queries per request:", ", ".join(f"{k} {v}" for k, v in queries.items()))

        move_p95 = percentile(recorder.latencies["move"], 95) * 1e3
        page_p95 = percentile(recorder.latencies["game page"], 95) * 1e3
        rate = recorder.counts["moves accepted"] / elapsed
        print("\ntargets (under load):")
        print(
            f"  move p95 {move_p95:.1f} ms <= {TARGET_MOVE_P95_MS:.0f}: {verdict(move_p95 <= 50)}"
        )
        print(f"  moves/s {rate:.1f} >= {TARGET_MOVES_PER_S:.0f}: {verdict(rate >= 300)}")
        print(
            f"  page p95 {page_p95:.1f} ms <= {TARGET_PAGE_P95_MS:.0f}: {verdict(page_p95 <= 30)}"
        )
        print(
            f"  page queries {queries['game page']} <= {TARGET_PAGE_QUERIES}:"
            f" {verdict(queries['game page'] <= TARGET_PAGE_QUERIES)}"
        )
        print(f"  moves refused with 409: {recorder.counts['moves refused with 409']}")
        busy = (used["server"] + used["postgres"] + used["load generator"]) / (used["wall"] * cores)
        print(f"  the cores were {busy:.0%} busy with the server, PostgreSQL and the players")


if __name__ == "__main__":
    main()
