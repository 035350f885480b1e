"""AI turns on a busy worker: how long a player waits for each AI move when many games' AI
turns share one worker.

Recreates the PostgreSQL database ``puerto_bench_ai_worker``, starts a redis-server of its own
on a spare port and a real Celery worker (``--concurrency`` processes, default 2, as in
docker-compose.yml) with production settings, then opens ``--games`` four-player base games of
AI players only (one hard, three medium) at once. For ``--seconds`` it polls every game's
version every 0.1 s; afterwards each stored move's seat says whose decision it was, and the
time from the move before it to its own is that decision's wait (queueing included).

Prints, per level, the waits' median, 95th percentile and most; per game the moves made (a
fair worker moves every game about as much) and its longest stretch without a move. The hard
player's budget is a number of moves, so its CPU per decision does not depend on the load
(``bench/bench_search.py`` measures that); this bench shows what the load adds.

    python bench/bench_ai_worker.py                      # 6 games, 180 s, 2 processes
    python bench/bench_ai_worker.py --games 12 --concurrency 1

Without a reachable PostgreSQL or without ``redis-server`` it says so and exits 0 (with
``CI=true``: 1). Timings depend on the machine's load: run it on an idle machine.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_recovery import Part, Redis, ai_game, no_redis_server
from bench_web import p, production_environment, recreate_database


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--database", default="puerto_bench_ai_worker", help="recreated")
    parser.add_argument("--games", type=int, default=6, help="AI games at once (6)")
    parser.add_argument("--seconds", type=float, default=180.0, help="measured (180)")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes (2)")
    return parser.parse_args()


def main() -> int:
    args = parse_args()
    if no_redis_server() or not recreate_database(args.server, args.database):
        return 1 if os.environ.get("CI", "").lower() == "true" else 0
    folder = Path(tempfile.mkdtemp(prefix="puerto-ai-worker-"))
    redis_server = Redis(folder)
    redis_server.start()
    args.redis = redis_server.url
    env = {**production_environment(args, folder), "PYTHONPATH": str(Path.cwd())}
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    worker = None
    try:
        worker = Part("worker", folder, env, concurrency=args.concurrency)
        seen = play(args)
    finally:
        if worker is not None:
            worker.stop()
        redis_server.stop()
    report(args, seen)
    return 0


def play(args: argparse.Namespace) -> dict[int, dict[int, float]]:
    """Open the games and poll them; returns, per game, when each version was first seen
    (seconds from the start)."""
    from games.models import Game

    games = [ai_game(num_players=4).pk for _ in range(args.games)]
    start = time.monotonic()
    seen: dict[int, dict[int, float]] = {pk: {} for pk in games}
    while (now := time.monotonic() - start) < args.seconds:
        for pk, version in Game.objects.filter(pk__in=games).values_list("pk", "version"):
            seen[pk].setdefault(version, now)
        time.sleep(0.1)
    return seen


def report(args: argparse.Namespace, seen: dict[int, dict[int, float]]) -> None:
    from games.models import Move

    waits: dict[str, list[float]] = defaultdict(list)
    print(
        f"{args.games} AI games (1 hard, 3 medium), {args.concurrency} worker processes,"
        f" {args.seconds:.0f} s"
    )
    print("| game | moves | hard moves | longest without a move (s) |")
    print("|---|---|---|---|")
    for pk, times in seen.items():
        levels = dict(Move.objects.filter(game_id=pk).values_list("version", "seat__ai_level"))
        versions = sorted(times)
        for before, after in itertools.pairwise(versions):
            if after == before + 1:  # both seen: the wait of the decision that made ``after``
                waits[levels.get(after) or "?"].append(times[after] - times[before])
        gaps = [b - a for a, b in itertools.pairwise(sorted(times.values()))]
        hard = sum(1 for level in levels.values() if level == "hard")
        print(f"| {pk} | {len(levels)} | {hard} | {max(gaps, default=0):.1f} |")
    print()
    print("| level | decisions timed | median wait (s) | p95 (s) | most (s) |")
    print("|---|---|---|---|---|")
    for level, values in sorted(waits.items()):
        print(
            f"| {level} | {len(values)} | {statistics.median(values):.2f}"
            f" | {p(values, 95) / 1000:.2f} | {max(values):.2f} |"
        )


if __name__ == "__main__":
    sys.exit(main())
