"""The platform's own CPU: a move, the board after it, a finished game's page; page queries.

In one process, with production settings (``DEBUG=false``) and Django's test client, on the
recreated PostgreSQL database ``puerto_bench_platform``. Plays ``--games`` whole four-player
Puerto Rico games through ``games.services.submit_move``, every seat a person (so no AI task
is queued), each decision a random legal action of the engine (seeded, a fixed deal for each
game, so runs compare). Measured with ``time.process_time()``: only this process's CPU
(Django, the engine, the database client), not PostgreSQL's.

- A move: each ``submit_move`` (median and p95 over all the games).
- The board after one's own move: once the game has stored ``--lengths`` moves (its version)
  and the player who just moved is not to act again, that player GETs the htmx board partial
  (``/games/<id>/board/``) ``--repeat`` times, and so does another player who neither moved
  nor is to act. Only the first has an undo to check, which today replays the whole game.
- A finished game's page (``/games/<id>/``, as one of its players): it draws the score chart.
- SQL queries (``CaptureQueriesContext``) of the game page: finished, and running (at the
  middle length) for those two players and a spectator (signed in, no seat).

Each timed or counted GET follows one that is not (templates loaded, the player's seen-at
written). ``python bench/bench_platform.py``, about 30 s on a quiet machine. Without a
reachable PostgreSQL it says so and exits 0 (with ``CI=true``: 1). Target: the game page in at
most 8 SQL queries for a player and for a spectator; the CPU figures compare runs.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_web import calibration_ms, p, production_environment, recreate_database

TARGET_PAGE_QUERIES = 8
QUERIED = {
    "mover": "the player who just moved",
    "other": "another player",
    "spectator": "a spectator",
}


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="whole games played (4)")
    parser.add_argument("--lengths", default="50,150,250", help="board after so many moves")
    parser.add_argument("--repeat", type=int, default=5, help="GETs of each page measured (5)")
    parser.add_argument("--server", default="postgres://postgres@127.0.0.1:5432/")
    parser.add_argument("--database", default="puerto_bench_platform", help="recreated")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/5", help="the cache")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


def cpu(work) -> float:
    """The CPU seconds of this process ``work()`` took."""
    start = time.process_time()
    work()
    return time.process_time() - start


def queries(client, url: str) -> int:
    """The SQL queries of a GET of ``url``, the second one (the first in a minute also writes
    the player's seen-at)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url, secure=True)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, secure=True).status_code == 200
    return len(captured)


def get_cpu(url: str, clients: list, times: int) -> list[list[float]]:
    """CPU of ``times`` GETs of ``url`` by each client, in turns (so a change in the machine's
    speed touches all alike), after one each not timed (templates loaded, seen-at written)."""

    def get(client) -> None:
        assert client.get(url, secure=True).status_code == 200

    for client in clients:
        get(client)
    rounds = [[cpu(functools.partial(get, client)) for client in clients] for _ in range(times)]
    return [list(column) for column in zip(*rounds, strict=True)]


class Table:
    """Four signed-in people at one game, and a spectator."""

    def __init__(self, seed: int) -> None:
        from django.test import Client

        from accounts.models import User
        from games import services
        from games.models import Game, Seat

        users = [User.objects.create_user(f"g{seed}p{i}") for i in range(5)]
        game = services.create_game(users[0], engine="puerto_rico", num_players=4)
        Game.objects.filter(pk=game.pk).update(seed=seed)  # the same deal on every run
        for user in users[1:4]:
            services.join_game(game.pk, user)
        self.clients = {}
        for user in users:
            self.clients[user.pk] = Client(HTTP_HOST="127.0.0.1")
            self.clients[user.pk].force_login(user)
        self.spectator = self.clients[users[4].pk]
        self.users = {
            s.position: s.user for s in Seat.objects.filter(game=game).select_related("user")
        }
        self.game_id = game.pk
        self.page, self.board = f"/games/{game.pk}/", f"/games/{game.pk}/board/"

    def client(self, user):
        return self.clients[user.pk]


def play(table: Table, rng: random.Random, lengths: list[int], repeat: int, figures) -> None:
    """One whole game, each decision timed. At each of the ``lengths``, once the player who
    just moved is not to act again, the board is timed for them and for another player who
    neither moved nor is to act (no undo to check); at the middle length the running page's
    queries are counted. The finished page last."""
    from games import services
    from games.models import Game
    from games.registry import get_engine

    pending, middle = sorted(lengths), sorted(lengths)[len(lengths) // 2]
    while True:
        game = Game.objects.get(pk=table.game_id)
        if game.status != Game.Status.RUNNING:
            break
        rules = get_engine(game.engine)
        state = rules.from_json(game.state)
        actions = rules.legal_actions(state)
        action = rules.action_to_json(actions[rng.randrange(len(actions))])
        mover = table.users[rules.current_player(state)]
        move = functools.partial(
            services.submit_move, game.pk, action, user=mover, expected_version=game.version
        )
        figures["move"].append(cpu(move))
        after = Game.objects.get(pk=table.game_id)
        if not pending or after.version < pending[0] or after.status != Game.Status.RUNNING:
            continue
        to_act = table.users[rules.current_player(rules.from_json(after.state))]
        if to_act == mover:
            continue
        other = next(user for user in table.users.values() if user not in (mover, to_act))
        length = pending.pop(0)
        boards = get_cpu(table.board, [table.client(mover), table.client(other)], repeat)
        figures[f"mover {length}"] += boards[0]
        figures[f"other {length}"] += boards[1]
        figures[f"undo {length}"] += [a - b for a, b in zip(*boards, strict=True)]
        if length == middle:
            figures["queries mover"].append(queries(table.client(mover), table.page))
            figures["queries other"].append(queries(table.client(other), table.page))
            figures["queries spectator"].append(queries(table.spectator, table.page))
    figures["moves stored"].append(game.version)
    player = table.client(table.users[0])
    figures["finished page"] += get_cpu(table.page, [player], repeat)[0]
    figures["queries finished"].append(queries(player, table.page))


def main() -> None:
    started = time.monotonic()
    args = parse_args()
    if not recreate_database(args.server, args.database):
        if os.environ.get("CI", "").lower() == "true":
            raise SystemExit("CI=true: the platform benchmark needs PostgreSQL")
        print("skipped: the platform benchmark needs PostgreSQL")
        return
    lengths = [int(n) for n in args.lengths.split(",")]
    figures: dict[str, list] = defaultdict(list)
    with tempfile.TemporaryDirectory(prefix="puerto-bench-") as folder:
        os.environ.update(production_environment(args, Path(folder)))
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        calibration = calibration_ms()
        rng = random.Random(args.seed)
        for number in range(args.games):
            play(Table(args.seed * 1000 + number), rng, lengths, args.repeat, figures)

    print(f"{args.games} four-player games, seed {args.seed}: CPU of this process")
    print(f"calibration {calibration:.3f} ms (the median of 200 sums of 10k squares)")
    print(f"moves stored per game: {figures['moves stored']}")
    print(f"  {'measure':<46}{'count':>6}{'p50 ms':>9}{'p95 ms':>9}")
    rows = [("submit_move", figures["move"])]
    for n in lengths:
        rows.append((f"board at {n} moves, the player who just moved", figures[f"mover {n}"]))
        rows.append((f"board at {n} moves, another player", figures[f"other {n}"]))
        rows.append(("  the difference, GET by GET", figures[f"undo {n}"]))
    rows.append(("finished game's page, a player", figures["finished page"]))
    for label, values in rows:
        if values:
            print(f"  {label:<46}{len(values):>6}{p(values, 50):>9.1f}{p(values, 95):>9.1f}")
    print(f"SQL queries of the finished game's page: {figures['queries finished']}")
    for kind in ("mover", "other", "spectator"):
        counts = figures[f"queries {kind}"]
        verdict = "ok" if max(counts, default=0) <= TARGET_PAGE_QUERIES else "MISSED"
        print(
            f"SQL queries of a running game's page, {QUERIED[kind]}: {counts}"
            f" <= {TARGET_PAGE_QUERIES}: {verdict}"
        )
    print(f"{time.monotonic() - started:.0f} s in all")


if __name__ == "__main__":
    main()
