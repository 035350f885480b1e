"""Event streams in the production shape: uvicorn (ASGI) on PostgreSQL and Redis, with a
Celery worker playing the AI seats, all started here as child processes.

1. ``--streams`` idle streams are opened on the uvicorn process (one user's, who has no
   games): its memory (RSS) and CPU time over ``--idle`` seconds, without and with them;
2. with those streams still open, the example bot (``docs/bot.py``, unchanged) plays
   ``--games`` games against two AI players: requests per move, p50/p95 of its move requests,
   and the delay from the stored move that made it the bot's turn to the turn event's arrival.

    python bench/bench_events.py --streams 1000 --games 1

Needs PostgreSQL and Redis: ``DATABASE_URL`` (default a database ``bench_events`` on the local
server, made if missing) and ``REDIS_URL`` (default the local one, database 7).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PORT = 8765
SITE = f"http://127.0.0.1:{PORT}"


def environment(database: str, redis: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database,
        "REDIS_URL": redis,
        "DEBUG": "false",
        "SECRET_KEY": "bench-events-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "DJANGO_SETTINGS_MODULE": "puerto.settings",
    }


def say(text: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {text}", file=sys.stderr, flush=True)


def make_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as db:
        if not db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            db.execute(f'CREATE DATABASE "{name}"')


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def idle(pid: int, seconds: float) -> tuple[float, float]:
    """(RSS in MiB, CPU seconds per minute) of ``pid`` over ``seconds`` of waiting."""
    start = cpu_seconds(pid)
    time.sleep(seconds)
    return rss_mib(pid), (cpu_seconds(pid) - start) * 60 / seconds


async def open_streams(count: int, token: str) -> list[asyncio.StreamWriter]:
    """``count`` streams, each read up to its opening (the retry line)."""
    request = (
        f"GET /api/events/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
        "Accept: text/event-stream\r\n\r\n"
    ).encode()

    async def one():
        reader, writer = await asyncio.open_connection("127.0.0.1", PORT)
        writer.write(request)
        await reader.readuntil(b"retry: 1000\n\n")
        return reader, writer

    opened = []
    for start in range(0, count, 100):  # a hundred at a time: no burst of connects
        opened += await asyncio.gather(*(one() for _ in range(min(100, count - start))))
    return opened


async def close_streams(streams) -> None:
    for _, writer in streams:
        writer.close()
    await asyncio.gather(*(writer.wait_closed() for _, writer in streams))


def load_bot():
    spec = importlib.util.spec_from_file_location("bot", ROOT / "docs" / "bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def play_games(count: int, token: str) -> dict:
    """The example bot's games, timing its move requests and the turn events' arrival."""
    bot = load_bot()
    moves_ms, arrivals, totals = [], [], {"moves": 0, "requests": 0}

    class Timed(bot.Puerto):
        def call(self, method, path, body=None):
            start = time.perf_counter()
            answer = super().call(method, path, body)
            if path.endswith("/moves/"):
                moves_ms.append((time.perf_counter() - start) * 1000)
            return answer

        def events(self):
            for kind, data in super().events():
                if kind == "turn":
                    arrivals.append((data["id"], data["version"], datetime.now(UTC)))
                yield kind, data

    bot.Puerto = Timed
    for seed in range(count):
        _, moves, requests = bot.play(SITE, token, seed=seed)
        totals["moves"] += moves
        totals["requests"] += requests
    return {"moves_ms": moves_ms, "arrivals": arrivals, **totals}


def delays_ms(arrivals) -> list[float]:
    """Arrival of each turn event after the stored move that made it the bot's turn."""
    from games.models import Move

    delays = []
    for game_id, version, arrived in arrivals:
        move = Move.objects.filter(game_id=game_id, version=version).first()
        if move is not None:  # the game's first turn has no move before it
            delays.append((arrived - move.created_at).total_seconds() * 1000)
    return delays


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--idle", type=float, default=60.0, help="seconds of each idle reading")
    args = parser.parse_args()
    database = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/bench_events")
    redis = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/7")
    make_database(database)
    env = environment(database, redis)
    os.environ.update(env)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    import django

    django.setup()
    from accounts import tokens
    from accounts.models import User

    suffix = str(int(time.time()))
    idler = User.objects.create_user(f"idle{suffix}")
    player = User.objects.create_user(f"bot{suffix}")
    _, idle_token = tokens.create(idler, "idle", [])
    _, bot_token = tokens.create(player, "bot", ["play", "create"])

    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "puerto.asgi:application",
            "--port",
            str(PORT),
            "--no-access-log",
            "--timeout-graceful-shutdown",
            "5",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "puerto",
            "worker",
            "--concurrency=1",
            "--loglevel=WARNING",
            "-n",
            f"bench{suffix}@%h",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    try:
        for _ in range(300):
            if server.poll() is not None:
                raise SystemExit(f"uvicorn stopped (is port {PORT} taken?)")
            try:
                urllib.request.urlopen(f"{SITE}/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        say("server up; idle reading without streams")
        rss0, cpu0 = idle(server.pid, args.idle)
        loop = asyncio.new_event_loop()
        streams = loop.run_until_complete(open_streams(args.streams, idle_token))
        say(f"{len(streams)} streams open; idle reading")
        rss1, cpu1 = idle(server.pid, args.idle)
        say("the example bot plays")
        played = play_games(args.games, bot_token)
        loop.run_until_complete(close_streams(streams))
    finally:
        server.terminate()
        worker.terminate()
        server.wait()
        worker.wait()
    delays = delays_ms(played["arrivals"])
    moves = played["moves_ms"]
    print(f"uvicorn, 1 process, PostgreSQL and Redis; {args.idle:.0f} s idle readings")
    print("| open streams | uvicorn RSS MiB | uvicorn CPU s per minute |")
    print("|---|---|---|")
    print(f"| 0 | {rss0:.0f} | {cpu0:.2f} |")
    print(f"| {len(streams)} | {rss1:.0f} | {cpu1:.2f} |")
    print()
    print(f"example bot, {args.games} game(s) vs easy and medium AI, {len(streams)} streams open:")
    print(
        f"- {played['moves']} moves, {played['requests']} requests:"
        f" {played['requests'] / played['moves']:.2f} per move"
    )
    print(
        f"- move request ms: p50 {statistics.median(moves):.0f}, p95 {percentile(moves, 0.95):.0f}"
    )
    print(
        f"- turn event after the move before it, ms: p50 {statistics.median(delays):.0f},"
        f" p95 {percentile(delays, 0.95):.0f}, max {max(delays):.0f} ({len(delays)} events)"
    )


if __name__ == "__main__":
    main()
