"""What a player sees while a part is down, and how long the site takes to recover once it is back.

Starts a redis-server of its own on a spare port (never the shared one), recreates the
PostgreSQL database ``puerto_recovery``, and runs a real Celery worker and beat against both
with production settings (``DEBUG=false``); the web side is this process, through Django's
test client (the whole middleware stack, as gunicorn runs it). Then, in turn:

- Redis stopped for ``--outage`` seconds: a login, a move and ``/healthz`` answered (status,
  seconds); after Redis is back, the seconds until the worker has reconnected, until a task
  sent then has run, and until an AI game moves again.
- Redis frozen (SIGSTOP: it accepts connections and never answers): the same answers; then the
  time limits met and pool processes lost that the worker's log reports over both.
- The worker killed (SIGKILL, with its pool) mid-game and started again at once: seconds until
  the AI game moves again.
- Beat down while a worker is killed mid-game: nothing moves the game; seconds from beat's
  start until it does.
- The mail relay down (a small SMTP relay of this script's, on a spare port) when a warning
  email is sent: seconds until its first attempt failed, then, with the relay back at once,
  seconds until the email went out (the retry backoff and beat's minute decide it).
- PostgreSQL stopped for ``--outage`` seconds (a cluster of its own, made with ``initdb`` as
  the ``postgres`` user, on a spare port; skipped when that cannot be done): what gunicorn
  (production settings) answers meanwhile, then the seconds until ``/healthz`` is 200 again,
  how many requests failed after it was back, and the seconds until an AI game moves again.

``python bench/bench_recovery.py``. Without a reachable PostgreSQL or without ``redis-server``
it says so and exits 0 (with ``CI=true``: 1). Timings depend on the machine's load.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PASSWORD = "correct-horse-battery-9"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--database", default="puerto_recovery", help="recreated")
    parser.add_argument("--outage", type=float, default=10.0, help="seconds Redis is down (10)")
    return parser.parse_args()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, timeout: float) -> float | None:
    """Seconds until ``condition`` held (polled every 0.1 s), or None at the deadline."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(0.1)
    return None


def since(start: float, condition, timeout: float = 120) -> float | None:
    """Seconds from ``start`` until ``condition`` held (None at the deadline)."""
    if wait_for(condition, timeout - (time.monotonic() - start)) is None:
        return None
    return round(time.monotonic() - start, 2)


class Redis:
    def __init__(self, folder: Path) -> None:
        self.folder, self.port = folder, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *("redis-server", "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--save", "", "--appendonly", "no", "--daemonize", "no"),
            ],
            cwd=self.folder,
            stdout=subprocess.DEVNULL,
        )
        if wait_for(self.answers, 10) is None:
            raise SystemExit(f"redis-server on port {self.port} did not start")

    def answers(self) -> bool:
        import redis

        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
            self.process.wait()


class MailRelay(socketserver.ThreadingTCPServer):
    """An SMTP relay that accepts every message and counts it; down until ``start``."""

    allow_reuse_address = True
    daemon_threads = True

    def __init__(self) -> None:
        self.port, self.received = free_port(), 0
        self.url = f"smtp://127.0.0.1:{self.port}"
        super().__init__(("127.0.0.1", self.port), RelaySession, bind_and_activate=False)

    def start(self) -> None:
        self.server_bind()
        self.server_activate()
        threading.Thread(target=self.serve_forever, daemon=True).start()


class RelaySession(socketserver.StreamRequestHandler):
    """Just enough SMTP for Django's backend: every command is accepted."""

    def handle(self) -> None:
        self.wfile.write(b"220 relay\r\n")
        in_data = False
        for line in self.rfile:
            if in_data:
                if line == b".\r\n":
                    in_data = False
                    self.server.received += 1
                    self.wfile.write(b"250 OK\r\n")
            elif line[:4].upper() == b"DATA":
                in_data = True
                self.wfile.write(b"354 go on\r\n")
            elif line[:4].upper() == b"QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:
                self.wfile.write(b"250 OK\r\n")


class Part:
    """A worker or beat process in its own process group, logging to a file."""

    def __init__(self, kind: str, folder: Path, env: dict[str, str], concurrency: int = 2) -> None:
        self.kind, self.log = kind, folder / f"{kind}-{uuid.uuid4().hex[:6]}.log"
        options = (
            ["worker", f"--concurrency={concurrency}", f"--hostname={self.log.stem}@%h"]
            if kind == "worker"
            else [
                *("beat", "--schedule", str(folder / "beat-schedule")),
                *("--pidfile", str(self.log.with_suffix(".pid"))),
            ]
        )
        with self.log.open("w") as output:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "puerto", *options, "--loglevel=INFO"],
                cwd=ROOT,
                env=env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        ready = " ready." if kind == "worker" else "beat: Starting"
        if wait_for(lambda: ready in self.log.read_text(), 60) is None:
            self.kill()
            raise SystemExit(f"the {kind} did not start:\n{self.log.read_text()}")

    def connections(self) -> int:
        return self.log.read_text().count("Connected to redis")

    def kill(self) -> None:
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


def timed(call):
    start = time.monotonic()
    response = call()
    return response.status_code, round(time.monotonic() - start, 2)


def no_redis_server() -> bool:
    """True (and said) when redis-server is not installed: a bench that starts its own has
    nothing to measure."""
    if shutil.which("redis-server") is None:
        print("redis-server is not installed: nothing measured")
        return True
    return False


def main() -> int:
    args = parse_args()
    strict = os.environ.get("CI", "").lower() == "true"
    if no_redis_server():
        return 1 if strict else 0
    import psycopg

    try:
        with psycopg.connect(args.server + "postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{args.database}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{args.database}"')
    except psycopg.OperationalError as error:
        print(f"PostgreSQL is not reachable ({error}): nothing measured")
        return 1 if strict else 0

    folder = Path(tempfile.mkdtemp(prefix="puerto-recovery-"))
    redis_server = Redis(folder)
    redis_server.start()
    relay = MailRelay()
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": uuid.uuid4().hex * 2,
        "ALLOWED_HOSTS": "testserver",
        "SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": args.server + args.database,
        "REDIS_URL": redis_server.url,
        "EMAIL_URL": relay.url,
        "PUERTO_VAR_DIR": str(folder),
        "DJANGO_SETTINGS_MODULE": "puerto.settings",
        "PYTHONPATH": str(ROOT),
    }
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    parts: list[Part] = []
    try:
        results = measure(args, folder, env, redis_server, parts)
        results["mail relay"] = measure_mail(relay)
        for part in parts:
            part.stop()
        results["postgresql"] = measure_postgres(args, folder, env)
    finally:
        for part in parts:
            part.stop()
        redis_server.stop()
    print(json.dumps(results, indent=2))
    return 0


def get(port: int, path: str) -> int:
    """The status of ``GET path`` on the local gunicorn (0: no answer within 10 s)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1"})
        return connection.getresponse().status
    except OSError:
        return 0
    finally:
        connection.close()


def measure_postgres(args, folder: Path, env: dict[str, str]) -> dict | str:
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if os.geteuid() != 0 or not bins or shutil.which("runuser") is None:
        return "not measured: needs root, runuser and PostgreSQL's initdb"
    import psycopg

    as_postgres = ["runuser", "-u", "postgres", "--"]
    data = folder / "pgdata"
    shutil.chown(folder, "postgres")
    subprocess.run(
        [*as_postgres, str(bins[-1]), "-D", str(data), "-A", "trust", "-U", "postgres"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    port = free_port()
    url = f"postgres://postgres@127.0.0.1:{port}/postgres"

    def start() -> subprocess.Popen:
        process = subprocess.Popen(
            [
                *(*as_postgres, str(bins[-1].with_name("postgres")), "-D", str(data)),
                *("-p", str(port), "-k", str(folder), "-c", "listen_addresses=127.0.0.1"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_for(lambda: subprocess.run(["pg_isready", "-q", "-d", url]).returncode == 0, 30)
        return process

    server = start()
    pg_env = {**env, "DATABASE_URL": url, "ALLOWED_HOSTS": "127.0.0.1"}
    run = [sys.executable, "-c"]
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=pg_env, check=True
    )
    made = subprocess.run(
        [
            *run,
            "import django; django.setup(); from games import services; "
            "print(services.create_game(None, engine='puerto_rico', num_players=3, ai_seats=2, "
            "ai_level='medium', ai_levels=['hard'], join=False).pk)",
        ],
        cwd=ROOT,
        env=pg_env,
        check=True,
        capture_output=True,
        text=True,
    )
    game_id = int(made.stdout.split()[-1])

    def version() -> int:
        try:
            with psycopg.connect(url, connect_timeout=2) as db:
                row = db.execute("SELECT version FROM games_game WHERE id = %s", [game_id])
                return row.fetchone()[0]
        except psycopg.OperationalError:
            return -1

    web_port = free_port()
    parts = []
    web = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "puerto.wsgi"),
            *("--bind", f"127.0.0.1:{web_port}", "--workers", "2"),
        ],
        cwd=ROOT,
        env=pg_env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    results: dict = {}
    try:
        parts += [Part("worker", folder, pg_env), Part("beat", folder, pg_env)]
        wait_for(lambda: get(web_port, "/healthz") == 200, 30)
        wait_for(lambda: version() > 0, 60)
        poll = f"/api/games/{game_id}/version/"
        for _ in range(4):  # both gunicorn workers hold a database connection
            get(web_port, poll)
        os.killpg(server.pid, signal.SIGINT)  # fast shutdown: sessions are cut
        server.wait()
        results["while down"] = {"healthz": get(web_port, "/healthz"), "poll": get(web_port, poll)}
        time.sleep(args.outage)
        server = start()
        back = time.monotonic()
        results["down for seconds"] = args.outage
        statuses = []
        results["healthz 200 after"] = wait_for(lambda: get(web_port, "/healthz") == 200, 60)
        for _ in range(6):
            statuses.append(get(web_port, poll))
        results["polls right after (status)"] = statuses
        before = version()
        moved = wait_for(lambda: version() > before, 120)
        results["ai game moves again after"] = (
            None if moved is None else round(time.monotonic() - back, 1)
        )
    finally:
        os.killpg(web.pid, signal.SIGTERM)
        web.wait()
        for part in parts:
            part.stop()
        os.killpg(server.pid, signal.SIGINT)
        server.wait()
    return results


def measure_mail(relay: MailRelay) -> dict:
    """A warning email while the relay is down; the relay back right after its failure."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games import notifications
    from games.models import Notification

    user = get_user_model().objects.get(username="anna")
    ids = notifications.write_warning(user, "a measured outage", stamp=timezone.now())
    note = Notification.objects.filter(pk__in=ids)
    failed = wait_for(lambda: note.filter(attempts__gte=1).exists(), 60)
    relay.start()
    sent = wait_for(lambda: note.filter(sent_at__isnull=False).exists(), 300)
    return {
        "first attempt failed after": failed,
        "relay back: sent after": sent,
        "messages the relay received": relay.received,
    }


def ai_game(num_players: int = 3):
    """A Puerto Rico game of AI players only, started: one hard player (about two seconds a
    decision, so its task is busy), the others medium."""
    from games import services
    from games.models import Seat

    return services.create_game(
        None,
        engine="puerto_rico",
        num_players=num_players,
        ai_seats=num_players - 1,
        ai_level=Seat.AI.MEDIUM,
        ai_levels=[Seat.AI.HARD],
        join=False,
    )


def measure(args, folder: Path, env: dict[str, str], redis_server: Redis, parts: list) -> dict:
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import services
    from games.models import Game, Move
    from games.registry import get_engine
    from games.tasks import ping

    def version(game) -> int:
        return Game.objects.values_list("version", flat=True).get(pk=game.pk)

    def moves_again(game, timeout: float = 120) -> float | None:
        before = version(game)
        return wait_for(lambda: version(game) > before, timeout)

    def all_move_again(games, start: float, timeout: float = 120) -> list[float | None]:
        """For each game, seconds from ``start`` until it moved (None: not within timeout)."""
        before = {game.pk: version(game) for game in games}
        moved: dict[int, float] = {}
        while len(moved) < len(games) and time.monotonic() - start < timeout:
            for game in games:
                if game.pk not in moved and version(game) > before[game.pk]:
                    moved[game.pk] = round(time.monotonic() - start, 1)
            time.sleep(0.1)
        return [moved.get(game.pk) for game in games]

    user = get_user_model().objects.create_user("anna", "anna@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)

    def person_game():
        game = services.create_game(user, engine="puerto_rico", num_players=3, ai_seats=2)
        game = Game.objects.get(pk=game.pk)
        while game.seat_to_act().is_ai:  # the AI seats before anna, played here
            services.play_ai_turn(game.pk, game.version)
            game = Game.objects.get(pk=game.pk)
        return game

    def answers() -> dict:
        browser = Client()
        login = timed(
            lambda: browser.post("/accounts/login/", {"login": "anna", "password": PASSWORD})
        )
        game = person_game()
        rules = get_engine(game.engine)
        state = rules.from_json(game.state)
        ai = {seat.position for seat in game.seats.all() if seat.is_ai}
        # A move after which an AI player is to act, so it queues an AI turn after commit.
        action = next(
            a
            for a in rules.legal_actions(state)
            if rules.current_player(rules.apply(state, a)) in ai
        )
        key = uuid.uuid4().hex
        data = {
            "version": game.version,
            "action": json.dumps(rules.action_to_json(action)),
            "key": key,
        }
        move = timed(lambda: browser.post(f"/games/{game.pk}/move/", data))
        stored = Move.objects.filter(game=game, idempotency_key=key).exists()
        health = timed(lambda: browser.get("/healthz"))
        return {"login": login, "move": move, "move stored": stored, "healthz": health}

    results: dict = {}
    worker = Part("worker", folder, env)
    parts.append(worker)
    parts.append(Part("beat", folder, env))
    games = [ai_game() for _ in range(2)]
    moves_again(games[0])

    # Redis stopped, then back.
    results["redis up"] = answers()
    redis_server.stop()
    stopped = time.monotonic()
    time.sleep(1)
    results["redis stopped"] = answers()
    time.sleep(max(0.0, args.outage - (time.monotonic() - stopped)))
    connected = worker.connections()
    versions = {game.pk: version(game) for game in games}
    redis_server.start()
    back = time.monotonic()
    results["redis down for seconds"] = round(back - stopped, 1)
    reply = ping.delay()
    results["worker reconnected after"] = since(back, lambda: worker.connections() > connected)
    results["a task sent as redis came back ran after"] = since(back, reply.ready)
    results["ai games move again after"] = all_move_again(games, back)
    results["ai games moved during the outage"] = [version(g) - versions[g.pk] for g in games]

    # Redis frozen, then thawed.
    redis_server.process.send_signal(signal.SIGSTOP)
    results["redis frozen"] = answers()
    redis_server.process.send_signal(signal.SIGCONT)
    results["ai games move again after thaw"] = all_move_again(games, time.monotonic())
    # A task that finished while Redis was away must not meet its time limit once it is back.
    text = worker.log.read_text()
    results["worker log: time limits met, pool processes lost"] = [
        text.count("time limit ("),
        text.count("exited with"),
    ]

    # The worker killed mid-game and started again at once.
    game = ai_game()
    moves_again(game)
    killed = time.monotonic()
    worker.kill()
    parts.remove(worker)
    worker = Part("worker", folder, env)
    parts.append(worker)
    results["worker killed and restarted: ai game moves again after"] = all_move_again(
        [game], killed
    )

    # Beat down while a worker dies mid-game: nothing moves the game until beat is back.
    beat = next(part for part in parts if part.kind == "beat")
    beat.stop()
    parts.remove(beat)
    game = ai_game()
    moves_again(game)
    worker.kill()
    parts.remove(worker)
    worker = Part("worker", folder, env)
    parts.append(worker)
    results["beat down: ai game moved within 40 s"] = moves_again(game, timeout=40) is not None
    started = time.monotonic()
    parts.append(Part("beat", folder, env))
    results["beat started: ai game moves again after"] = all_move_again([game], started)
    return results


if __name__ == "__main__":
    sys.exit(main())
